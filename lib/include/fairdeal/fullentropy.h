/* fairdeal: full-entropy mode, bounded integers that waste almost no bits.
 *
 * Every draw comes straight from a full-entropy byte source (conditioned
 * TRNG output, no DRBG in between), so every order of any deck is reachable
 * and successive shuffles are independent. TRNG bits are expensive, so the
 * generator keeps the unused randomness of each draw: its state is an
 * integer z uniform in [0, m). A draw in [0, b) tops m up with whole bytes,
 * writes m = q*b + r; if z < q*b it returns z mod b and keeps z div b,
 * uniform in [0, q); otherwise it keeps z - q*b, uniform in [0, r), and
 * retries. Exact (no bias at all) and within a fraction of a bit of
 * log2(b) per draw on average; the leftover z is independent of every
 * value returned, so it may carry over to the next shuffle. */
#ifndef FAIRDEAL_FULLENTROPY_H
#define FAIRDEAL_FULLENTROPY_H

#include <stdbool.h>
#include <stdint.h>

#include "fairdeal/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Full-entropy generator state, in caller memory. Owned by the library:
 * callers may read bits_used; do not rely on the other contents of this
 * type, and write none of it. */
typedef struct fd_fullentropy {
    fd_rng source;      /* full-entropy bytes */
    uint8_t buffer[32]; /* source bytes fetched but not yet spent */
    uint8_t buffer_pos; /* 32 = empty */
    /* The carried randomness: uniform in [0, m). */
    uint64_t z;
    /* The range of z; 1 = nothing carried. */
    uint64_t m;
    uint64_t bits_used; /* source bits taken into z so far */
} fd_fullentropy;

/* The exact step at the heart of the generator, exported so tests can
 * check it exhaustively: z uniform in [0, m), bound in [1, m]. Returns true
 * with *x = z mod bound, and *z, *m = z div bound, m div bound when z falls
 * in the largest multiple of bound below m; otherwise false with *z, *m =
 * z - q*bound, m - q*bound (the leftover, still uniform). */
bool fd_fullentropy_split(uint64_t *z, uint64_t *m, uint32_t bound, uint32_t *x);

/* Bind to a full-entropy byte source. Errors: FD_ERR_NULL. */
FD_MUST_CHECK fd_status fd_fullentropy_init(fd_fullentropy *fe, const fd_rng *source);

/* An exact uniform integer in [0, bound). Errors: FD_ERR_NULL,
 * FD_ERR_BOUND, the source's error (the state then holds no partial draw). */
FD_MUST_CHECK fd_status fd_fullentropy_uniform(fd_fullentropy *fe, uint32_t bound, uint32_t *out);

/* This generator as an fd_rng whose bounded draws use it directly, so the
 * shuffles in shuffle.h run in full-entropy mode unchanged. */
fd_rng fd_fullentropy_rng(fd_fullentropy *fe);

/* Forget buffered and carried randomness (wiped). */
void fd_fullentropy_clear(fd_fullentropy *fe);

#ifdef __cplusplus
}
#endif

#endif
