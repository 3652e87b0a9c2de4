#include "chisq.h"

#include <math.h>
#include <stdlib.h>

static double gamma_p_series(double a, double x)
{
    double term = 1.0 / a;
    double sum = term;
    for (int n = 1; n < 100000; n++) {
        term *= x / (a + n);
        sum += term;
        if (fabs(term) < fabs(sum) * 1e-16) {
            break;
        }
    }
    return sum * exp(-x + a * log(x) - lgamma(a));
}

static double gamma_q_fraction(double a, double x)
{
    const double tiny = 1e-300;
    double b = x + 1.0 - a;
    double c = 1.0 / tiny;
    double d = 1.0 / b;
    double h = d;
    for (int i = 1; i < 100000; i++) {
        double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (fabs(d) < tiny) {
            d = tiny;
        }
        c = b + an / c;
        if (fabs(c) < tiny) {
            c = tiny;
        }
        d = 1.0 / d;
        double delta = d * c;
        h *= delta;
        if (fabs(delta - 1.0) < 1e-16) {
            break;
        }
    }
    return exp(-x + a * log(x) - lgamma(a)) * h;
}

double test_gamma_p(double a, double x)
{
    if (x <= 0.0) {
        return 0.0;
    }
    return x < a + 1.0 ? gamma_p_series(a, x) : 1.0 - gamma_q_fraction(a, x);
}

double test_gamma_q(double a, double x)
{
    if (x <= 0.0) {
        return 1.0;
    }
    return x < a + 1.0 ? 1.0 - gamma_p_series(a, x) : gamma_q_fraction(a, x);
}

double test_chisq_pvalue(double stat, double df) { return test_gamma_q(df / 2.0, stat / 2.0); }

double test_chisq_uniform(const uint64_t *counts, size_t cells)
{
    double total = 0.0;
    for (size_t i = 0; i < cells; i++) {
        total += (double)counts[i];
    }
    double expected = total / (double)cells;
    double stat = 0.0;
    for (size_t i = 0; i < cells; i++) {
        double d = (double)counts[i] - expected;
        stat += d * d / expected;
    }
    return stat;
}

static int compare_double(const void *a, const void *b)
{
    const double x = *(const double *)a;
    const double y = *(const double *)b;
    return (x > y) - (x < y);
}

double test_ks_uniform(double *values, size_t count, double *distance)
{
    qsort(values, count, sizeof *values, compare_double);
    double d = 0.0;
    for (size_t i = 0; i < count; i++) {
        const double below = values[i] - (double)i / (double)count;
        const double above = (double)(i + 1u) / (double)count - values[i];
        d = fmax(d, fmax(below, above));
    }
    *distance = d;
    /* Kolmogorov's limit law with Stephens' small-sample correction */
    const double root = sqrt((double)count);
    const double lambda = (root + 0.12 + 0.11 / root) * d;
    double sum = 0.0;
    for (int k = 1; k <= 100; k++) {
        const double term = exp(-2.0 * k * k * lambda * lambda);
        sum += (k % 2 == 1 ? 2.0 : -2.0) * term;
        if (term < 1e-18) {
            break;
        }
    }
    return lambda < 0.2 ? 1.0 : fmin(1.0, fmax(0.0, sum));
}
