/* Program verification (docs/PROTOCOL.md VERIFY, docs/SECURITY.md "Program
 * verification"): HMAC-SHA-256 under a seed the lab chooses over the
 * bootloader room and the whole of slot A as the flash holds them, unused
 * space included, so the device cannot answer from a stored hash. */
#ifndef FD_PROGRAM_VERIFY_H
#define FD_PROGRAM_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/sha256.h"
#include "fairdeal/status.h"

#define FD_PROGRAM_VERIFY_SEED_MAX 64u /* bytes of seed accepted */

/* out = HMAC-SHA-256(seed, flash[bootloader room] || flash[slot A]); *bytes:
 * how many flash bytes it covered. Errors: FD_ERR_NULL, FD_ERR_EMPTY (no
 * seed), FD_ERR_TOO_LARGE (over FD_PROGRAM_VERIFY_SEED_MAX), FD_ERR_STATE
 * (a build without memory-mapped flash: the host dealer). */
FD_MUST_CHECK fd_status fd_program_verify(const uint8_t *seed, size_t seed_len, uint8_t out[FD_SHA256_SIZE],
                                          uint32_t *bytes);

#endif
