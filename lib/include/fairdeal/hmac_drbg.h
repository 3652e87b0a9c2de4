/* fairdeal: HMAC_DRBG with SHA-256, exactly NIST SP 800-90A Rev. 1 §10.1.2.
 *
 * These are the deterministic mechanism's functions, driven with explicit
 * entropy input (so CAVP known-answer vectors can check them). The dealer
 * uses them through fd_drbg (drbg.h), which fetches entropy itself, applies
 * the reseed policy and prediction resistance. Security strength 256 bits. */
#ifndef FAIRDEAL_HMAC_DRBG_H
#define FAIRDEAL_HMAC_DRBG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SP 800-90A Table 2 limits for HMAC_DRBG. */
#define FD_HMAC_DRBG_MAX_REQUEST 65536u /* 2^19 bits per generate */
/* Largest reseed_interval: generate calls between reseeds. */
#define FD_HMAC_DRBG_MAX_RESEED_INTERVAL (1ull << 48)
#define FD_HMAC_DRBG_MIN_ENTROPY 32u /* bytes, for 256-bit strength */
#define FD_HMAC_DRBG_MAX_INPUT 1024u /* our cap on any input string */

/* HMAC_DRBG working state (SP 800-90A §10.1.2.1), in caller memory; holds
 * secrets, so wipe it with fd_hmac_drbg_uninstantiate. Owned by the
 * library: do not rely on the contents of this type. */
typedef struct fd_hmac_drbg {
    /* Key: the HMAC key of the working state. */
    uint8_t key[32];
    /* V: the chaining value, HMAC'd to make output. */
    uint8_t v[32];
    /* 1 + generate calls since the last (re)seed. */
    uint64_t reseed_counter;
    uint64_t reseed_interval; /* generate calls allowed between reseeds */
    /* False until instantiate succeeds and after uninstantiate. */
    bool instantiated;
} fd_hmac_drbg;

/* Instantiate from entropy input, nonce and an optional personalization
 * string (NULL with length 0). reseed_interval in [1, 2^48].
 * Errors: FD_ERR_NULL, FD_ERR_EMPTY (entropy shorter than 32 bytes),
 * FD_ERR_TOO_LARGE (an input over FD_HMAC_DRBG_MAX_INPUT or a bad interval). */
FD_MUST_CHECK fd_status fd_hmac_drbg_instantiate(fd_hmac_drbg *d, const uint8_t *entropy, size_t entropy_len,
                                                 const uint8_t *nonce, size_t nonce_len, const uint8_t *pers,
                                                 size_t pers_len, uint64_t reseed_interval);

/* Reseed with fresh entropy input and optional additional input.
 * Errors: as instantiate, FD_ERR_NOT_READY if not instantiated. */
FD_MUST_CHECK fd_status fd_hmac_drbg_reseed(fd_hmac_drbg *d, const uint8_t *entropy, size_t entropy_len,
                                            const uint8_t *addl, size_t addl_len);

/* Generate len bytes (at most FD_HMAC_DRBG_MAX_REQUEST) with optional
 * additional input. Errors: FD_ERR_NULL, FD_ERR_NOT_READY,
 * FD_ERR_REQUEST_TOO_LARGE, FD_ERR_RESEED_REQUIRED (counter past the
 * interval: nothing is output and the state is unchanged). */
FD_MUST_CHECK fd_status fd_hmac_drbg_generate(fd_hmac_drbg *d, uint8_t *out, size_t len, const uint8_t *addl,
                                              size_t addl_len);

/* Wipe all state (cannot be optimised away). */
void fd_hmac_drbg_uninstantiate(fd_hmac_drbg *d);

#ifdef __cplusplus
}
#endif

#endif
