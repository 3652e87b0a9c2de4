/** @file
 * Health-tested OS entropy behind a DRBG, in one call (target
 * fairdeal::host_entropy, host board only).
 *
 * fd_host_entropy_open runs the same pipeline as the dealer firmware:
 * hal_trng_init (getrandom) -> fd_entropy_init with this board's SP 800-90B
 * cutoffs (generated at build time from FD_TRNG_H_BITS in
 * boards/host/board.cmake) -> fd_entropy_startup (start-up tests) ->
 * fd_drbg_instantiate seeded from conditioned full-entropy blocks. The
 * health tests keep running on every later reseed; any failure is latched
 * and every later fill fails (fail closed, never a weaker source).
 *
 * Example: shuffle a caller's array with OS entropy.
 * @code
 *   fd_host_entropy source;
 *   fd_rng rng;
 *   fd_status st = fd_host_entropy_open(&source, NULL, &rng);
 *   if (st == FD_OK) {
 *       st = fd_shuffle(players, count, sizeof players[0], &rng);
 *   }
 *   fd_host_entropy_close(&source);
 * @endcode
 */
#ifndef FAIRDEAL_HOST_ENTROPY_H
#define FAIRDEAL_HOST_ENTROPY_H

#include "fairdeal/drbg.h"
#include "fairdeal/entropy.h"
#include "fairdeal/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The pipeline's state; the returned fd_rng points into it, so it must
 * outlive every use of that fd_rng. One thread at a time. The OS TRNG
 * driver itself is process-wide: open one of these per thread, each with
 * its own pipeline and DRBG. */
typedef struct fd_host_entropy {
    fd_entropy pipeline; /**< raw samples -> health tests -> conditioner */
    fd_drbg drbg;        /**< seeded and reseeded from pipeline */
} fd_host_entropy;

/** The DRBG settings used when fd_host_entropy_open gets cfg NULL:
 * ChaCha20, no prediction resistance, reseed every 2^20 fills. */
#define FD_HOST_ENTROPY_DEFAULT_DRBG                                                                                   \
    {                                                                                                                  \
        FD_DRBG_CHACHA20, false, 1ull << 20, 0u                                                                        \
    }

/** Open the pipeline (TRNG, start-up health tests, DRBG) and set *rng to
 * draw from its DRBG. cfg NULL means FD_HOST_ENTROPY_DEFAULT_DRBG.
 * Errors: FD_ERR_NULL (h or rng NULL), FD_ERR_TOO_LARGE (bad cfg),
 * FD_ERR_HEALTH (start-up tests failed), FD_ERR_TRNG_TIMEOUT (the kernel's
 * pool not yet seeded: hal_trng_init's non-blocking probe, boards/host/
 * trng.c), FD_ERR_TRNG_HW (getrandom failed) or another TRNG error. On any
 * error *h is wiped and *rng is not written. */
FD_MUST_CHECK fd_status fd_host_entropy_open(fd_host_entropy *h, const fd_drbg_config *cfg, fd_rng *rng);

/** Wipe all state; every fd_rng from it then fails with FD_ERR_NOT_READY. */
void fd_host_entropy_close(fd_host_entropy *h);

#ifdef __cplusplus
}
#endif

#endif
