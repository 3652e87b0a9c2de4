/* Chi-square p-values from the regularised incomplete gamma function
 * (series for x < a+1, Lentz continued fraction otherwise). Host only. */
#ifndef FD_TEST_CHISQ_H
#define FD_TEST_CHISQ_H

#include <stddef.h>
#include <stdint.h>

/* P(a, x) and Q(a, x) = 1 - P(a, x), for a > 0, x >= 0. */
double test_gamma_p(double a, double x);
double test_gamma_q(double a, double x);

/* Upper tail of the chi-square distribution: P(X >= stat) with df degrees. */
double test_chisq_pvalue(double stat, double df);

/* Pearson's statistic for counts against equal expected frequencies. */
double test_chisq_uniform(const uint64_t *counts, size_t cells);

/* Kolmogorov-Smirnov test of values in [0, 1] against the uniform law:
 * sorts values in place, stores the distance D and returns the asymptotic
 * p-value (Stephens' correction; fine for count >= 35). */
double test_ks_uniform(double *values, size_t count, double *distance);

#endif
