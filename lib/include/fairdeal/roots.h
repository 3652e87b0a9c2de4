/* fairdeal: more than one root of trust for the DRBG.
 *
 * The DRBG's instantiate and every reseed mix, besides the TRNG's entropy,
 * a per-device secret (provisioned once, outside any image) and a seed file
 * (kept in storage, rewritten with fresh DRBG output before anything
 * derived from it is used). Both enter as one 32-byte string,
 * HMAC-SHA-256(device secret, label || seed file), as the personalization
 * string at instantiate and the additional input at reseed (SP 800-90A
 * allows secret values there). So two boots on a source that turned
 * deterministic still diverge (different seed files), and a device's
 * output cannot be predicted without its secret. The caller stores
 * *next_seed_file before using the DRBG for anything else. */
#ifndef FAIRDEAL_ROOTS_H
#define FAIRDEAL_ROOTS_H

#include <stdint.h>

#include "fairdeal/drbg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of the device secret and of the seed file. */
#define FD_ROOT_BYTES 32u

/* The DRBG's extra roots of trust, filled by the caller. */
typedef struct fd_roots {
    uint8_t device_secret[FD_ROOT_BYTES]; /* provisioned once per device, never in an image */
    uint8_t seed_file[FD_ROOT_BYTES];     /* read from storage at boot */
} fd_roots;

/* Instantiate d from get_entropy (as fd_drbg_instantiate) with the roots
 * mixed in, then draw the next seed file from it. Errors: FD_ERR_NULL,
 * fd_drbg_instantiate's and fd_drbg_generate's; on error *d is
 * uninstantiated and next_seed_file zeroed. */
FD_MUST_CHECK fd_status fd_roots_instantiate(fd_drbg *d, const fd_drbg_config *cfg, fd_entropy_fn get_entropy,
                                             void *entropy_ctx, const fd_roots *roots,
                                             uint8_t next_seed_file[FD_ROOT_BYTES]);

/* Reseed d from its source with the roots mixed in, then draw the next seed
 * file. Errors: FD_ERR_NULL, FD_ERR_NOT_READY, the source's (state
 * unchanged, next_seed_file zeroed). */
FD_MUST_CHECK fd_status fd_roots_reseed(fd_drbg *d, const fd_roots *roots, uint8_t next_seed_file[FD_ROOT_BYTES]);

#ifdef __cplusplus
}
#endif

#endif
