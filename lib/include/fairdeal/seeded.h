/** @file
 * Seeded, reproducible randomness in one call, and fd_rng adapters for the
 * two DRBG mechanisms (for callers that supply their own entropy input).
 *
 * Seeded derivation (reproducible in any language; || is concatenation):
 *   K = SHA-256("fairdeal-chacha-drbg" || 0x00 || seed), seed = 32 bytes
 *   (this is fd_chacha_drbg_instantiate with that seed, an empty nonce and
 *   an empty personalization string), then repeatedly:
 *   B = ChaCha20 blocks (RFC 8439 section 2.3) with key K, nonce 0^12 and
 *   block counters 0, 1, 2, 3 (256 bytes); K = B[0..32); output B[32..256).
 * The output is one byte stream: how it is split into fill calls does not
 * change it. tests/unit/seeded_vectors.h holds a vector computed from this
 * text alone (tests/tools/seeded_vector.py).
 *
 * Example: a reproducible shuffle of a 52-card array.
 * @code
 *   fd_chacha_drbg state;
 *   fd_rng rng;
 *   if (fd_rng_from_seed(&state, seed, &rng) != FD_OK ||
 *       fd_shuffle(cards, 52, sizeof cards[0], &rng) != FD_OK) { ... }
 * @endcode
 */
#ifndef FAIRDEAL_SEEDED_H
#define FAIRDEAL_SEEDED_H

#include <stdint.h>

#include "fairdeal/chacha20.h"
#include "fairdeal/hmac_drbg.h"
#include "fairdeal/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes in a seed for fd_rng_from_seed. */
#define FD_SEED_BYTES 32u

/** Instantiate *state from seed as stated above and set *rng to draw from
 * it. The seed is not kept; state holds the only secret. A seeded stream is
 * predictable by anyone who knows the seed: use it for replays and tests,
 * or with a seed of full entropy.
 * Errors: FD_ERR_NULL (state, seed or rng NULL; nothing is changed).
 * The rng's fill fails with FD_ERR_RESEED_REQUIRED after 2^48 fill calls. */
FD_MUST_CHECK fd_status fd_rng_from_seed(fd_chacha_drbg *state, const uint8_t seed[FD_SEED_BYTES], fd_rng *rng);

/** The ChaCha20 DRBG as a byte source, no additional input. A fill of any
 * length is served in FD_CHACHA_DRBG_MAX_REQUEST pieces; on any error the
 * whole buffer is zeroed. The fill's errors: those of
 * fd_chacha_drbg_generate (FD_ERR_NOT_READY, FD_ERR_RESEED_REQUIRED). */
fd_rng fd_chacha_drbg_rng(fd_chacha_drbg *d);

/** The HMAC_DRBG as a byte source, no additional input. A fill is served in
 * FD_HMAC_DRBG_MAX_REQUEST pieces (each piece is one generate call, so the
 * bytes depend on how they are requested); on any error the whole buffer is
 * zeroed. The fill never reseeds: FD_ERR_RESEED_REQUIRED is passed on (use
 * fd_drbg for automatic reseeding from an entropy source). */
fd_rng fd_hmac_drbg_rng(fd_hmac_drbg *d);

#ifdef __cplusplus
}
#endif

#endif
