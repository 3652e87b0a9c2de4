/* Internal: the SHA-256 compression function and initial value, for
 * callers that hash fixed-size one-block messages with the padding laid
 * out once (the LM-OTS chains, lib/src/lms.c). */
#ifndef FAIRDEAL_SHA256_INTERNAL_H
#define FAIRDEAL_SHA256_INTERNAL_H

#include <stdint.h>

/* H0..H7 of FIPS 180-4 Section 5.3.3. */
extern const uint32_t fd_sha256_iv[8];

/* One 64-byte block into the chaining value h. */
void fd_sha256_compress(uint32_t h[8], const uint8_t block[64]);

#endif
