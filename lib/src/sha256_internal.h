/* Internal: the SHA-256 compression function and initial value, for
 * callers that hash fixed-size one-block messages with the padding laid
 * out once (the LM-OTS chains, lib/src/lms.c). */
#ifndef FAIRDEAL_SHA256_INTERNAL_H
#define FAIRDEAL_SHA256_INTERNAL_H

#include <stdint.h>

/* H0..H7 of FIPS 180-4 Section 5.3.3. */
extern const uint32_t fd_sha256_iv[8];

/* One 64-byte block into the chaining value state. */
void fd_sha256_compress(uint32_t state[8], const uint8_t block[64]);

/* The same for a block given as its 16 big-endian words. It leaves its
 * working variables in its frame: a caller hashing secrets calls
 * fd_sha256_wipe_frames next, from the same frame. */
void fd_sha256_rounds(uint32_t state[8], const uint32_t words[16]);

/* Zero the stack region below the caller's frame, where the calls it just
 * made left their frames (320 bytes). */
void fd_sha256_wipe_frames(void);

#endif
