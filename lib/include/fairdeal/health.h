/* fairdeal: NIST SP 800-90B §4.4 continuous health tests on raw samples.
 *
 * Repetition Count Test (RCT) and Adaptive Proportion Test (APT), on 8-bit
 * (or narrower) samples, plus a predictor test (ours, as §4.5 allows) for
 * long-period and counter-like sources. Cutoffs are computed from the
 * source's assessed min-entropy H at build time (tools/health_cutoffs.c) and
 * passed in. Any failure latches: every later feed fails until
 * fd_health_init runs again. */
#ifndef FAIRDEAL_HEALTH_H
#define FAIRDEAL_HEALTH_H

#include <stdbool.h>
#include <stdint.h>

#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Cutoffs for one noise source, from its assessed min-entropy H per sample. */
typedef struct fd_health_config {
    uint16_t rct_cutoff;            /* C = 1 + ceil(20 / H); fail when a run reaches C */
    uint16_t apt_window;            /* W: 1024 for 1-bit samples, 512 otherwise */
    uint16_t apt_cutoff;            /* 1 + CRITBINOM(W, 2^-H, 1 - 2^-20) */
    uint16_t startup_samples;       /* >= 1024 and a multiple of W */
    uint16_t predict_run_cutoff;    /* K = ceil(20 / H): fail at K correct guesses in a row */
    uint16_t predict_window_cutoff; /* fail at this many correct guesses in one APT window:
                                     * 1 + CRITBINOM(W, 2^-H, 1 - 2^-20), the APT's own */
} fd_health_config;

/* Which test latched a failure. */
typedef enum fd_health_failure {
    FD_HEALTH_NONE = 0,
    FD_HEALTH_RCT = 1,
    FD_HEALTH_APT = 2,
    FD_HEALTH_LAG = 3 /* predictor test: a repeating, counting or otherwise predictable sequence */
} fd_health_failure;

/* Predictor test. Before each sample arrives, a predictor guesses it from
 * the past alone, with the candidate that guessed best over the last few
 * samples (ties: the first listed): lag d (x[i] = x[i-d], d = 1..
 * FD_HEALTH_PREDICT_LAGS), step (x[i] = 2 x[i-1] - x[i-2] mod 256: counters
 * of any step), successor (x[i] = the sample that last followed x[i-1]: any
 * x[i] = f(x[i-1]), e.g. 8-bit LFSRs, patterns of distinct values up to
 * period 256) and shift (x[i] = x[i-1] << 1 or >> 1, new bit 0: a shift
 * register moving one bit per sample is right half the time). A guess that
 * repeats the previous sample is not scored (repeats are the RCT's). Any
 * guess made before its sample is right with probability at most 2^-H for
 * a source of min-entropy H, so K scored guesses right in a row have
 * probability <= 2^-HK <= 2^-20 (the RCT's bound), and the right ones in a
 * window of W are at most Binomial(W, 2^-H): the APT's cutoff bounds them
 * at 2^-20 per window. docs/ENTROPY.md lists what is caught. */
/* Lag candidates of the predictor (x[i] = x[i-d], d = 1..64). */
#define FD_HEALTH_PREDICT_LAGS 64u

/* Health test state, in caller memory. Owned by the library: callers may
 * read failure, samples and failed_at_sample; do not rely on the other
 * contents of this type, and write none of it. */
typedef struct fd_health {
    /* The cutoffs passed to fd_health_init. */
    fd_health_config cfg;
    /* Sample value of the current RCT run. */
    uint8_t rct_value;
    /* Length of the current run of rct_value. */
    uint16_t rct_run;
    /* First sample of the current APT window. */
    uint8_t apt_value;
    /* Samples equal to apt_value in the window so far, itself included. */
    uint16_t apt_matches;
    uint16_t apt_seen;                                /* samples of the current window so far; 0 = at a boundary */
    uint32_t past[FD_HEALTH_PREDICT_LAGS / 4u];       /* the last 64 samples, newest in the low lane of [0] */
    uint8_t successor[256];                           /* the sample that last followed each value */
    uint32_t lag_scores[FD_HEALTH_PREDICT_LAGS / 4u]; /* each candidate's recent accuracy, 4 per word */
    uint8_t step_score;                               /* the step candidate's recent accuracy */
    uint8_t successor_score;                          /* the successor candidate's recent accuracy */
    uint8_t shift_score[2];                           /* the shift candidates' recent accuracy: left, right */
    uint8_t step_guess;                               /* the step candidate's guess for the next sample */
    uint8_t successor_guess;                          /* the successor candidate's guess for the next sample */
    uint8_t guess;                                    /* the predictor's guess for the next sample */
    uint16_t predict_run;                             /* its correct guesses in a row */
    uint16_t predict_hits;                            /* its correct guesses in the current APT window */
    fd_health_failure failure;                        /* NONE, or the test that failed (latched until fd_health_init) */
    uint32_t samples;                                 /* fed since init */
    uint32_t failed_at_sample;                        /* 1-based index of the sample that failed */
} fd_health;

/* Check cfg and reset all counters. Errors: FD_ERR_NULL, FD_ERR_TOO_LARGE
 * (a cutoff of 0 or 1, an APT or predictor window cutoff above W,
 * start-up samples under 1024 or not a whole number of windows). */
FD_MUST_CHECK fd_status fd_health_init(fd_health *h, const fd_health_config *cfg);

/* Run the RCT, the APT and the predictor test on one sample. FD_OK, or
 * FD_ERR_HEALTH once failed (latched). */
FD_MUST_CHECK fd_status fd_health_feed(fd_health *h, uint8_t sample);

/* True when the last APT window is complete (nothing pending in it). */
bool fd_health_at_window_boundary(const fd_health *h);

#ifdef __cplusplus
}
#endif

#endif
