/* fairdeal: from raw TRNG samples to full-entropy 256-bit blocks.
 *
 * Raw samples are read through a callback (the board's TRNG in firmware, a
 * fake one in tests), checked by the SP 800-90B health tests, and
 * conditioned with HMAC-SHA-256 (a vetted conditioner, SP 800-90B §3.1.5.1):
 * each 32-byte block is HMAC(fixed key, samples_per_block raw samples), with
 * samples_per_block * H >= 256 + 64 bits. Samples are processed one whole
 * APT window at a time and a window's blocks are released only once the
 * whole window has passed, so samples from a failing window are never used.
 *
 * Fail closed: any health failure or TRNG error latches the pipeline in the
 * FAILED state; fd_entropy_get then returns that fault until
 * fd_entropy_startup passes again on fresh samples. */
#ifndef FAIRDEAL_ENTROPY_H
#define FAIRDEAL_ENTROPY_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/health.h"
#include "fairdeal/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read count raw samples (one per byte). Any error status is a TRNG fault. */
typedef fd_status (*fd_sample_read_fn)(void *ctx, uint8_t *samples, size_t count);

/* Bytes in one conditioned full-entropy block (one HMAC-SHA-256 output). */
#define FD_ENTROPY_BLOCK 32u
/* Most conditioned blocks held between reads of the TRNG. */
#define FD_ENTROPY_POOL_BLOCKS 4u

/* Pipeline state: only READY hands out entropy. */
typedef enum fd_entropy_state {
    FD_ENTROPY_UNINIT = 0, /* start-up tests not yet passed */
    FD_ENTROPY_READY = 1,
    FD_ENTROPY_FAILED = 2
} fd_entropy_state;

/* The TRNG pipeline: reader, health tests and conditioned pool, in caller
 * memory. Owned by the library: callers may read state, fault,
 * health_failure and the counters; do not rely on the other contents of
 * this type, and write none of it. */
typedef struct fd_entropy {
    /* The TRNG's raw sample reader. */
    fd_sample_read_fn read;
    /* First argument of read. */
    void *read_ctx;
    /* SP 800-90B health tests every sample goes through. */
    fd_health health;
    /* Raw samples conditioned into one block, 1..apt_window. */
    uint16_t samples_per_block;
    /* Conditioned blocks from windows that passed, wiped as handed out. */
    uint8_t pool[FD_ENTROPY_POOL_BLOCKS][FD_ENTROPY_BLOCK];
    /* Blocks left in pool; pool[pool_count - 1] goes out next. */
    uint8_t pool_count;
    /* UNINIT, READY or FAILED (latched). */
    fd_entropy_state state;
    fd_status fault; /* why FAILED: FD_ERR_HEALTH or the TRNG's error */
    /* Which health test failed, when fault is FD_ERR_HEALTH. */
    fd_health_failure health_failure;
    uint32_t raw_samples; /* all samples read since init */
    uint32_t blocks_out;  /* full-entropy blocks delivered */
    /* Start-up tests passed since init. */
    uint32_t startups_passed;
    /* Times the pipeline latched FAILED since init. */
    uint32_t failures;
} fd_entropy;

/* Bind a sample reader and health configuration; state UNINIT. samples_per
 * _block in [1, apt_window]. Errors: FD_ERR_NULL, FD_ERR_TOO_LARGE. */
FD_MUST_CHECK fd_status fd_entropy_init(fd_entropy *e, fd_sample_read_fn read, void *read_ctx,
                                        const fd_health_config *cfg, uint16_t samples_per_block);

/* Start-up tests: restart the health tests and read cfg.startup_samples
 * samples (never used for output). On success state READY; on failure
 * FAILED and the fault is returned. Errors: FD_ERR_NULL, FD_ERR_HEALTH,
 * the reader's error. */
FD_MUST_CHECK fd_status fd_entropy_startup(fd_entropy *e);

/* One 32-byte full-entropy block. Errors: FD_ERR_NULL, FD_ERR_NOT_READY
 * (start-up never run), the latched fault (FD_ERR_HEALTH or a TRNG error).
 * out is written only on FD_OK. */
FD_MUST_CHECK fd_status fd_entropy_get(fd_entropy *e, uint8_t out[FD_ENTROPY_BLOCK]);

/* Fresh entropy for a round: discard the pooled blocks (wiped) and
 * condition one window of samples read now, so the blocks fd_entropy_get
 * hands out next come from samples read after this call, never from
 * earlier windows alone. Call it when the command that draws a round's
 * seed arrives. Errors: as fd_entropy_get (on any error the pool is empty). */
FD_MUST_CHECK fd_status fd_entropy_refresh(fd_entropy *e);

/* Present the pipeline as a byte source (fill = conditioned blocks). */
fd_rng fd_entropy_rng(fd_entropy *e);

#ifdef __cplusplus
}
#endif

#endif
