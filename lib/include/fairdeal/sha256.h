/* fairdeal: SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104 / FIPS 198-1).
 * Streaming contexts live in caller memory; no heap. */
#ifndef FAIRDEAL_SHA256_H
#define FAIRDEAL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes in a SHA-256 digest or HMAC-SHA-256 tag. */
#define FD_SHA256_SIZE 32u
/* Bytes in one SHA-256 input block. */
#define FD_SHA256_BLOCK 64u

/* A hash in progress. Owned by the library: do not rely on the contents of this type. */
typedef struct fd_sha256 {
    /* Chaining value H0..H7. */
    uint32_t h[8];
    /* Bytes hashed so far (the padding encodes it in bits). */
    uint64_t total_len;
    /* Input not yet compressed. */
    uint8_t block[FD_SHA256_BLOCK];
    /* Bytes used in block, always below FD_SHA256_BLOCK. */
    size_t block_len;
} fd_sha256_ctx;

/* Streaming hash. Preconditions: ctx non-NULL; data may be NULL only when
 * len is 0. final writes 32 bytes and leaves ctx wiped. */
void fd_sha256_init(fd_sha256_ctx *ctx);
/* Hash len more bytes; any split of the input gives the same digest. */
void fd_sha256_update(fd_sha256_ctx *ctx, const void *data, size_t len);
/* Pad, write the digest to out and wipe ctx; init before reusing it. */
void fd_sha256_final(fd_sha256_ctx *ctx, uint8_t out[FD_SHA256_SIZE]);
/* init, update and final in one call. */
void fd_sha256(const void *data, size_t len, uint8_t out[FD_SHA256_SIZE]);

/* An HMAC in progress. Owned by the library: do not rely on the contents of this type. */
typedef struct fd_hmac_sha256 {
    /* Hash of (key xor ipad) || message so far. */
    fd_sha256_ctx inner;
    /* Hash of (key xor opad), finished by final. */
    fd_sha256_ctx outer;
} fd_hmac_sha256_ctx;

/* HMAC-SHA-256 with a key of any length (longer than 64 bytes is hashed).
 * Same preconditions as the hash; final wipes ctx. */
void fd_hmac_sha256_init(fd_hmac_sha256_ctx *ctx, const void *key, size_t key_len);
/* MAC len more bytes; any split of the input gives the same tag. */
void fd_hmac_sha256_update(fd_hmac_sha256_ctx *ctx, const void *data, size_t len);
/* Write the 32-byte tag to out and wipe ctx. */
void fd_hmac_sha256_final(fd_hmac_sha256_ctx *ctx, uint8_t out[FD_SHA256_SIZE]);
/* init, update and final in one call. */
void fd_hmac_sha256(const void *key, size_t key_len, const void *data, size_t len, uint8_t out[FD_SHA256_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
