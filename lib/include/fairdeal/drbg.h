/* fairdeal: one interface over both DRBGs, with entropy fetched from a
 * full-entropy source, an automatic reseed policy and prediction
 * resistance. This is what the dealer uses; hmac_drbg.h and chacha20.h hold
 * the mechanisms themselves (checked against known-answer vectors). */
#ifndef FAIRDEAL_DRBG_H
#define FAIRDEAL_DRBG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/chacha20.h"
#include "fairdeal/entropy.h"
#include "fairdeal/hmac_drbg.h"
#include "fairdeal/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which mechanism an fd_drbg runs. */
typedef enum fd_drbg_kind {
    FD_DRBG_HMAC_SHA256 = 1,
    FD_DRBG_CHACHA20 = 2
} fd_drbg_kind;

/* Write FD_ENTROPY_BLOCK (32) bytes of full entropy (e.g. fd_entropy_get). */
typedef fd_status (*fd_entropy_fn)(void *ctx, uint8_t out[FD_ENTROPY_BLOCK]);

/* Reseed policy, filled in by the caller and copied by instantiate. */
typedef struct fd_drbg_config {
    /* Mechanism: HMAC_DRBG (SP 800-90A) or the ChaCha20 DRBG. */
    fd_drbg_kind kind;
    bool prediction_resistance; /* reseed from the source before every generate */
    uint64_t reseed_interval;   /* generate calls between automatic reseeds */
    uint32_t reseed_bytes;      /* output bytes between automatic reseeds (0 = no limit) */
} fd_drbg_config;

/* A DRBG with its entropy source and reseed policy, in caller memory;
 * holds secrets, so wipe it with fd_drbg_uninstantiate. Owned by the library:
 * callers may read the reseeds counter; do not rely on the other contents of
 * this type, and write none of it. */
typedef struct fd_drbg {
    /* The policy passed to instantiate. */
    fd_drbg_config cfg;
    /* Source of every instantiate and reseed input. */
    fd_entropy_fn get_entropy;
    /* First argument of get_entropy. */
    void *entropy_ctx;
    /* The mechanism's state; cfg.kind says which member is live. */
    union {
        fd_hmac_drbg hmac;
        fd_chacha_drbg chacha;
    } u;
    /* Output since the last reseed, checked against cfg.reseed_bytes. */
    uint32_t bytes_since_reseed;
    uint32_t reseeds; /* reseeds from the source, automatic or asked for */
    /* False until instantiate succeeds and after uninstantiate. */
    bool instantiated;
} fd_drbg;

/* Instantiate: 32 bytes of entropy input and a 16-byte nonce from the
 * source, plus an optional personalization string. get_entropy is called
 * exactly twice: the first block is the entropy input, bytes 0..16 of the
 * second are the nonce and its bytes 16..32 are wiped unused (for seeding
 * from your own bytes, see fd_rng_from_seed in seeded.h). Errors: FD_ERR_NULL,
 * FD_ERR_TOO_LARGE (bad kind, interval or personalization length), the
 * source's error. On any error *d is unchanged (an instantiated DRBG stays
 * usable with its old state; the caller decides whether to stop using it). */
FD_MUST_CHECK fd_status fd_drbg_instantiate(fd_drbg *d, const fd_drbg_config *cfg, fd_entropy_fn get_entropy,
                                            void *entropy_ctx, const uint8_t *pers, size_t pers_len);

/* Reseed from the source now, with optional additional input. Errors:
 * FD_ERR_NULL, FD_ERR_NOT_READY, the source's error (state unchanged). */
FD_MUST_CHECK fd_status fd_drbg_reseed(fd_drbg *d, const uint8_t *addl, size_t addl_len);

/* Generate len bytes (any length: split into mechanism-sized requests),
 * reseeding first when prediction resistance is on or the policy says so.
 * Errors: FD_ERR_NULL, FD_ERR_NOT_READY, the source's error (then nothing
 * was output and out is zeroed). */
FD_MUST_CHECK fd_status fd_drbg_generate(fd_drbg *d, uint8_t *out, size_t len);

/* Wipe everything; the DRBG must be instantiated again before use. */
void fd_drbg_uninstantiate(fd_drbg *d);

/* The DRBG as a byte source for the shuffles. */
fd_rng fd_drbg_rng(fd_drbg *d);

#ifdef __cplusplus
}
#endif

#endif
