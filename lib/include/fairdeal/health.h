/* fairdeal: NIST SP 800-90B §4.4 continuous health tests on raw samples.
 *
 * Repetition Count Test (RCT) and Adaptive Proportion Test (APT), on 8-bit
 * (or narrower) samples. Cutoffs are computed from the source's assessed
 * min-entropy H at build time (tools/health_cutoffs.c) and passed in. Any
 * failure latches: every later feed fails until fd_health_init runs again. */
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
    uint16_t rct_cutoff;      /* C = 1 + ceil(20 / H); fail when a run reaches C */
    uint16_t apt_window;      /* W: 1024 for 1-bit samples, 512 otherwise */
    uint16_t apt_cutoff;      /* 1 + CRITBINOM(W, 2^-H, 1 - 2^-20) */
    uint16_t startup_samples; /* >= 1024 and a multiple of W */
} fd_health_config;

/* Which test latched a failure. */
typedef enum fd_health_failure {
    FD_HEALTH_NONE = 0,
    FD_HEALTH_RCT = 1,
    FD_HEALTH_APT = 2,
    FD_HEALTH_LAG = 3 /* a repeating pattern of period 2..FD_HEALTH_MAX_LAG */
} fd_health_failure;

/* Lag test (ours, on top of SP 800-90B §4.4, as §4.5 allows): the RCT is a
 * run of lag-1 matches; this counts runs of x[i] == x[i-p] for p = 2..8 and
 * fails at FD_HEALTH_LAG_CUTOFF(C) - 1 consecutive matches, so a stuck
 * short cycle (period-3 patterns evade both approved tests at H = 2) is
 * caught within p + that many samples. The cutoff adds ceil(3 (C-1) / 20)
 * to the RCT's C: about 3 / H more matches, a factor 2^-3 that pays for the
 * seven extra lags, keeping the false-alarm rate near the RCT's 2^-20. */
#define FD_HEALTH_MAX_LAG 8u
/* The lag test's cutoff for an RCT cutoff C: C + ceil(3 (C - 1) / 20). */
#define FD_HEALTH_LAG_CUTOFF(rct_cutoff) ((rct_cutoff) + (3u * ((rct_cutoff) - 1u) + 19u) / 20u)

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
    uint16_t apt_seen; /* samples of the current window so far; 0 = at a boundary */
    uint8_t history[FD_HEALTH_MAX_LAG];     /* sample s at history[s % MAX_LAG] */
    uint16_t lag_run[FD_HEALTH_MAX_LAG - 1u]; /* consecutive matches at lag 2.. */
    /* NONE, or the test that failed (latched until fd_health_init). */
    fd_health_failure failure;
    uint32_t samples;          /* fed since init */
    uint32_t failed_at_sample; /* 1-based index of the sample that failed */
} fd_health;

/* Check cfg and reset all counters. Errors: FD_ERR_NULL, FD_ERR_TOO_LARGE
 * (a cutoff of 0 or 1, an APT cutoff above W, start-up samples under 1024
 * or not a whole number of windows). */
fd_status fd_health_init(fd_health *h, const fd_health_config *cfg);

/* Run the RCT, the APT and the lag test on one sample. FD_OK, or
 * FD_ERR_HEALTH once failed (latched). */
fd_status fd_health_feed(fd_health *h, uint8_t sample);

/* True when the last APT window is complete (nothing pending in it). */
bool fd_health_at_window_boundary(const fd_health *h);

#ifdef __cplusplus
}
#endif

#endif
