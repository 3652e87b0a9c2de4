/* fairdeal: how randomness enters the library.
 *
 * Every algorithm takes an fd_rng: a fill-bytes callback plus its context.
 * DRBGs, the full-entropy source and test scripts all present themselves
 * this way, so tests can feed known bytes and check exact results. */
#ifndef FAIRDEAL_RNG_H
#define FAIRDEAL_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill buf[0..len) with random bytes. Return FD_OK only if all len bytes
 * were written; any other status means the bytes must not be used. */
typedef fd_status (*fd_rng_fill_fn)(void *ctx, uint8_t *buf, size_t len);

/* Optional: an exact uniform draw in [0, bound) that replaces Lemire's
 * method for this source. The full-entropy source uses it to spend almost
 * exactly log2(bound) bits per draw; NULL for ordinary byte sources. */
typedef fd_status (*fd_rng_uniform_fn)(void *ctx, uint32_t bound, uint32_t *out);

/* A source of random bytes, passed by const pointer to every algorithm.
 * The caller fills it in or gets one from an *_rng function (fd_drbg_rng,
 * fd_rng_from_seed, fd_entropy_rng, ...); it only refers to its context,
 * which must outlive it. */
typedef struct fd_rng {
    /* Required: the byte source. */
    fd_rng_fill_fn fill;
    /* Passed to fill and uniform as their first argument. */
    void *ctx;
    /* Optional exact draw; NULL to use Lemire's method over fill. */
    fd_rng_uniform_fn uniform;
} fd_rng;

/* One uniformly random 32-bit word, built little-endian from 4 bytes.
 * Errors: FD_ERR_NULL (rng, rng->fill or out NULL); the source's own error,
 * in which case *out is not written. */
FD_MUST_CHECK fd_status fd_rng_u32(const fd_rng *rng, uint32_t *out);

#ifdef __cplusplus
}
#endif

#endif
