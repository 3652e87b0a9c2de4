/* fairdeal: Poly1305 (RFC 8439 §2.5) and the ChaCha20-Poly1305 AEAD
 * (RFC 8439 §2.8, AEAD_CHACHA20_POLY1305) on the library's ChaCha20.
 * Caller-owned buffers, no heap; tag checks in constant time. */
#ifndef FAIRDEAL_AEAD_H
#define FAIRDEAL_AEAD_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes in a Poly1305 one-time key. */
#define FD_POLY1305_KEY_SIZE 32u
/* Bytes in a Poly1305 tag. */
#define FD_POLY1305_TAG_SIZE 16u

/* A Poly1305 MAC in progress. Owned by the library: do not rely on the contents of this type. */
typedef struct fd_poly1305 {
    uint32_t r[5];   /* clamped r, radix 2^26 */
    uint32_t h[5];   /* accumulator, radix 2^26 */
    uint32_t pad[4]; /* s, little-endian words */
    uint8_t buf[16]; /* input not yet absorbed */
    size_t buf_len;  /* bytes used in buf, below 16 */
} fd_poly1305_ctx;

/* Start a MAC under a one-time key (r || s). Never use a key twice. */
void fd_poly1305_init(fd_poly1305_ctx *ctx, const uint8_t key[FD_POLY1305_KEY_SIZE]);
/* Absorb len more bytes (data may be NULL when len is 0); any split of the
 * message gives the same tag. */
void fd_poly1305_update(fd_poly1305_ctx *ctx, const uint8_t *data, size_t len);
/* Write the tag and wipe ctx. */
void fd_poly1305_final(fd_poly1305_ctx *ctx, uint8_t tag[FD_POLY1305_TAG_SIZE]);
/* init, update and final in one call. */
void fd_poly1305(uint8_t tag[FD_POLY1305_TAG_SIZE], const uint8_t key[FD_POLY1305_KEY_SIZE], const uint8_t *msg,
                 size_t len);

/* AEAD key size in bytes. */
#define FD_AEAD_KEY_SIZE 32u
/* AEAD nonce size in bytes (RFC 8439's 96-bit nonce). */
#define FD_AEAD_NONCE_SIZE 12u
/* AEAD tag size in bytes. */
#define FD_AEAD_TAG_SIZE 16u
/* Longest plaintext and associated data accepted, in bytes (Noise's
 * message limit; far below RFC 8439's 2^38). */
#define FD_AEAD_MAX_LEN 65535u

/* Encrypt len bytes of in to out (out may equal in, or must not overlap
 * it) and write the tag over (ad, ciphertext). Errors: FD_ERR_NULL (a
 * needed pointer NULL; in/out/ad may be NULL only with length 0),
 * FD_ERR_TOO_LARGE (len or ad_len above FD_AEAD_MAX_LEN); nothing is
 * written on error. */
FD_MUST_CHECK fd_status fd_aead_encrypt(const uint8_t key[FD_AEAD_KEY_SIZE], const uint8_t nonce[FD_AEAD_NONCE_SIZE],
                                        const uint8_t *ad, size_t ad_len, const uint8_t *in, size_t len, uint8_t *out,
                                        uint8_t tag[FD_AEAD_TAG_SIZE]);
/* Check the tag, then decrypt len bytes of in to out (same aliasing rule).
 * Errors: as encrypt, and FD_ERR_AUTH when the tag does not match: then
 * out is not written. */
FD_MUST_CHECK fd_status fd_aead_decrypt(const uint8_t key[FD_AEAD_KEY_SIZE], const uint8_t nonce[FD_AEAD_NONCE_SIZE],
                                        const uint8_t *ad, size_t ad_len, const uint8_t *in, size_t len,
                                        const uint8_t tag[FD_AEAD_TAG_SIZE], uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif
