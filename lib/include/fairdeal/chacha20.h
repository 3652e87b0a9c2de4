/* fairdeal: the ChaCha20 block function (RFC 8439 §2.3) and the fast-key-
 * erasure DRBG built on it.
 *
 * DRBG construction (all byte strings, || is concatenation):
 *   instantiate(seed, nonce, pers): K = SHA-256("fairdeal-chacha-drbg" || 0x00
 *                                       || seed || nonce || pers)
 *   reseed(seed, addl):             K = SHA-256("fairdeal-chacha-drbg" || 0x01
 *                                       || K || seed || addl)
 *   refill: B = ChaCha20 blocks with key K, nonce 0^12, counters 0..3
 *           (256 bytes); K = B[0..32); the buffer serves B[32..256).
 *   generate(len, addl): if addl is given, reseed-style mix
 *           K = SHA-256(tag || 0x02 || K || addl) and drop the buffer; then
 *           hand out buffered bytes, refilling as needed. Every byte handed
 *           out is zeroed in the buffer at once, and the key that produced a
 *           buffer no longer exists: a captured state reveals no past output.
 * The same key never meets the same counter twice, because every refill
 * replaces the key. Seed is at least 32 bytes of full entropy. */
#ifndef FAIRDEAL_CHACHA20_H
#define FAIRDEAL_CHACHA20_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ChaCha20 (RFC 8439) key size in bytes. */
#define FD_CHACHA20_KEY_SIZE 32u
/* ChaCha20 (RFC 8439) nonce size in bytes. */
#define FD_CHACHA20_NONCE_SIZE 12u
/* ChaCha20 (RFC 8439) block size in bytes. */
#define FD_CHACHA20_BLOCK_SIZE 64u

/* One 64-byte ChaCha20 block for (key, counter, nonce). */
void fd_chacha20_block(const uint8_t key[FD_CHACHA20_KEY_SIZE], uint32_t counter,
                       const uint8_t nonce[FD_CHACHA20_NONCE_SIZE], uint8_t out[FD_CHACHA20_BLOCK_SIZE]);

/* ChaCha20 blocks per refill: one key block plus 224 output bytes. */
#define FD_CHACHA_DRBG_BLOCKS 4u
/* Bytes produced per refill; the first 32 become the next key. */
#define FD_CHACHA_DRBG_BUFFER (FD_CHACHA20_BLOCK_SIZE * FD_CHACHA_DRBG_BLOCKS)
/* Most bytes one generate call may return (as FD_HMAC_DRBG_MAX_REQUEST). */
#define FD_CHACHA_DRBG_MAX_REQUEST 65536u
/* Fewest entropy-input bytes instantiate and reseed accept. */
#define FD_CHACHA_DRBG_MIN_ENTROPY 32u
/* Longest entropy, nonce, personalization or additional input, in bytes. */
#define FD_CHACHA_DRBG_MAX_INPUT 1024u
/* Largest reseed_interval: generate calls between reseeds. */
#define FD_CHACHA_DRBG_MAX_RESEED_INTERVAL (1ull << 48)

/* ChaCha20 DRBG state, in caller memory; holds the secret key, so wipe it
 * with fd_chacha_drbg_uninstantiate. Owned by the library: do not rely on
 * the contents of this type. */
typedef struct fd_chacha_drbg {
    uint32_t key[8];                             /* K as little-endian words */
    uint32_t buffer[FD_CHACHA_DRBG_BUFFER / 4u]; /* B as words, byte i in word i / 4 */
    uint16_t pos;                                /* next unread byte of B; FD_CHACHA_DRBG_BUFFER = empty */
    /* 1 + generate calls since the last (re)seed. */
    uint64_t reseed_counter;
    /* generate fails with FD_ERR_RESEED_REQUIRED once reseed_counter exceeds it. */
    uint64_t reseed_interval;
    /* False until instantiate succeeds and after uninstantiate. */
    bool instantiated;
} fd_chacha_drbg;

/* Same contracts, limits and errors as the fd_hmac_drbg_* functions. */
FD_MUST_CHECK fd_status fd_chacha_drbg_instantiate(fd_chacha_drbg *d, const uint8_t *entropy, size_t entropy_len,
                                                   const uint8_t *nonce, size_t nonce_len, const uint8_t *pers,
                                                   size_t pers_len, uint64_t reseed_interval);
/* Mix in fresh entropy input and optional additional input; the buffer
 * is dropped and the counter restarts. Errors as fd_hmac_drbg_reseed. */
FD_MUST_CHECK fd_status fd_chacha_drbg_reseed(fd_chacha_drbg *d, const uint8_t *entropy, size_t entropy_len,
                                              const uint8_t *addl, size_t addl_len);
/* Write len bytes (at most FD_CHACHA_DRBG_MAX_REQUEST) to out, with
 * optional additional input. Errors as fd_hmac_drbg_generate; on any
 * error nothing is output and the state is unchanged. */
FD_MUST_CHECK fd_status fd_chacha_drbg_generate(fd_chacha_drbg *d, uint8_t *out, size_t len, const uint8_t *addl,
                                                size_t addl_len);
/* Wipe all state (cannot be optimised away); d may be NULL. */
void fd_chacha_drbg_uninstantiate(fd_chacha_drbg *d);

#ifdef __cplusplus
}
#endif

#endif
