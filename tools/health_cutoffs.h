/* SP 800-90B §4.4 health-test cutoffs from the assessed min-entropy H,
 * for a false-alarm rate alpha = 2^-20. Host-only (uses libm): the build
 * runs it to generate each board's constants, and tests check it against
 * the published table. */
#ifndef FD_HEALTH_CUTOFFS_H
#define FD_HEALTH_CUTOFFS_H

#include <stdint.h>

/* RCT: C = 1 + ceil(20 / H). */
uint32_t fd_rct_cutoff(double h);

/* APT: C = 1 + CRITBINOM(W, 2^-H, 1 - 2^-20), the smallest c such that a
 * window of W samples from a source of min-entropy H shows its first value
 * c or more times with probability at most 2^-20. */
uint32_t fd_apt_cutoff(double h, uint32_t window);

/* Predictor test, run of correct guesses: K = ceil(20 / H), the smallest K
 * with 2^-HK <= 2^-20 (each guess, made before its sample, is right with
 * probability at most 2^-H). Its window cutoff is fd_apt_cutoff: the
 * correct guesses in a window are at most Binomial(W, 2^-H) as well. */
uint32_t fd_predict_run_cutoff(double h);

#endif
