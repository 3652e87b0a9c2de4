/* fairdeal: the combined source, conditioned TRNG output XOR a DRBG stream.
 *
 * Every byte is c = t XOR d: t from full-entropy conditioned TRNG blocks
 * (fd_entropy_get), d from a DRBG instantiated independently of those
 * blocks (SP 800-90C's RBG3(XOR) construction). c is unpredictable if
 * either part is: t is independent of d, so if t is uniform, c is uniform
 * whatever d is; if t is known (a deterministic source that passed the
 * health tests), c is as unpredictable as the DRBG stream. Bounded draws use
 * the full-entropy generator (fullentropy.h), so a shuffle of n cards spends
 * about log2(n!) TRNG bits, rounded up to 256-bit blocks. Fail closed: a
 * fault of either part fails the draw; nothing of the other part is output
 * alone. docs/ENTROPY.md has the argument. */
#ifndef FAIRDEAL_COMBINED_H
#define FAIRDEAL_COMBINED_H

#include <stdint.h>

#include "fairdeal/drbg.h"
#include "fairdeal/entropy.h"
#include "fairdeal/fullentropy.h"
#include "fairdeal/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The combined source: conditioned TRNG blocks XOR an independent DRBG
 * stream. Owned by the library: do not rely on the contents of this type. */
typedef struct fd_combined {
    fd_entropy *entropy;  /* READY pipeline (start-up tests passed) */
    fd_drbg *drbg;        /* instantiated */
    fd_fullentropy draws; /* exact bounded draws over the XOR stream */
    uint32_t trng_blocks; /* conditioned blocks spent */
    uint32_t rounds;      /* rounds begun */
} fd_combined;

/* Bind both parts. Errors: FD_ERR_NULL. */
FD_MUST_CHECK fd_status fd_combined_init(fd_combined *c, fd_entropy *entropy, fd_drbg *drbg);

/* Begin a round when its command arrives: forget carried randomness and
 * refresh the TRNG pool (fd_entropy_refresh), so the round's bytes come from
 * samples read from now on. Errors: FD_ERR_NULL, the TRNG's fault. */
FD_MUST_CHECK fd_status fd_combined_begin_round(fd_combined *c);

/* The XOR stream itself, 32 bytes at a time (one TRNG block each). */
fd_rng fd_combined_bytes(fd_combined *c);

/* The combined source for the shuffles: fill and exact bounded draws from
 * the full-entropy generator over the XOR stream. */
fd_rng fd_combined_rng(fd_combined *c);

/* Forget carried randomness (wiped). */
void fd_combined_clear(fd_combined *c);

#ifdef __cplusplus
}
#endif

#endif
