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

typedef struct fd_health_config {
    uint16_t rct_cutoff;      /* C = 1 + ceil(20 / H); fail when a run reaches C */
    uint16_t apt_window;      /* W: 1024 for 1-bit samples, 512 otherwise */
    uint16_t apt_cutoff;      /* 1 + CRITBINOM(W, 2^-H, 1 - 2^-20) */
    uint16_t startup_samples; /* >= 1024 and a multiple of W */
} fd_health_config;

typedef enum fd_health_failure {
    FD_HEALTH_NONE = 0,
    FD_HEALTH_RCT = 1,
    FD_HEALTH_APT = 2
} fd_health_failure;

typedef struct fd_health {
    fd_health_config cfg;
    uint8_t rct_value;
    uint16_t rct_run;
    uint8_t apt_value;
    uint16_t apt_matches;
    uint16_t apt_seen; /* samples of the current window so far; 0 = at a boundary */
    fd_health_failure failure;
    uint32_t samples;          /* fed since init */
    uint32_t failed_at_sample; /* 1-based index of the sample that failed */
} fd_health;

/* Check cfg and reset all counters. Errors: FD_ERR_NULL, FD_ERR_TOO_LARGE
 * (a cutoff of 0 or 1, an APT cutoff above W, start-up samples under 1024
 * or not a whole number of windows). */
fd_status fd_health_init(fd_health *h, const fd_health_config *cfg);

/* Run both tests on one sample. FD_OK, or FD_ERR_HEALTH once failed. */
fd_status fd_health_feed(fd_health *h, uint8_t sample);

/* True when the last APT window is complete (nothing pending in it). */
bool fd_health_at_window_boundary(const fd_health *h);

#endif
