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

#define FD_SHA256_SIZE 32u
#define FD_SHA256_BLOCK 64u

typedef struct fd_sha256 {
    uint32_t h[8];
    uint64_t total_len;
    uint8_t block[FD_SHA256_BLOCK];
    size_t block_len;
} fd_sha256_ctx;

/* Streaming hash. Preconditions: ctx non-NULL; data may be NULL only when
 * len is 0. final writes 32 bytes and leaves ctx wiped. */
void fd_sha256_init(fd_sha256_ctx *ctx);
void fd_sha256_update(fd_sha256_ctx *ctx, const void *data, size_t len);
void fd_sha256_final(fd_sha256_ctx *ctx, uint8_t out[FD_SHA256_SIZE]);
void fd_sha256(const void *data, size_t len, uint8_t out[FD_SHA256_SIZE]);

typedef struct fd_hmac_sha256 {
    fd_sha256_ctx inner;
    fd_sha256_ctx outer;
} fd_hmac_sha256_ctx;

/* HMAC-SHA-256 with a key of any length (longer than 64 bytes is hashed).
 * Same preconditions as the hash; final wipes ctx. */
void fd_hmac_sha256_init(fd_hmac_sha256_ctx *ctx, const void *key, size_t key_len);
void fd_hmac_sha256_update(fd_hmac_sha256_ctx *ctx, const void *data, size_t len);
void fd_hmac_sha256_final(fd_hmac_sha256_ctx *ctx, uint8_t out[FD_SHA256_SIZE]);
void fd_hmac_sha256(const void *key, size_t key_len, const void *data, size_t len,
                    uint8_t out[FD_SHA256_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
