/* AEAD_CHACHA20_POLY1305 (RFC 8439 §2.8): the Poly1305 key is the first
 * half of ChaCha20 block 0, the message is XORed with blocks 1, 2, ...,
 * and the tag covers ad || pad16 || ciphertext || pad16 || le64(ad_len) ||
 * le64(len). */
#include "fairdeal/aead.h"

#include "fairdeal/chacha20.h"
#include "fairdeal/util.h"
#include "word.h"

static const uint8_t zeros[16];

/* The tag over (ad, ciphertext) under the one-time key of (key, nonce). */
static void aead_tag(const uint8_t key[FD_AEAD_KEY_SIZE], const uint8_t nonce[FD_AEAD_NONCE_SIZE], const uint8_t *ad,
                     size_t ad_len, const uint8_t *ct, size_t len, uint8_t tag[FD_AEAD_TAG_SIZE])
{
    uint8_t block[FD_CHACHA20_BLOCK_SIZE];
    fd_chacha20_block(key, 0, nonce, block);
    fd_poly1305_ctx ctx;
    fd_poly1305_init(&ctx, block);
    fd_wipe(block, sizeof block);
    fd_poly1305_update(&ctx, ad, ad_len);
    fd_poly1305_update(&ctx, zeros, (16u - ad_len % 16u) % 16u);
    fd_poly1305_update(&ctx, ct, len);
    fd_poly1305_update(&ctx, zeros, (16u - len % 16u) % 16u);
    uint8_t lengths[16];
    fd_store_le32(lengths, (uint32_t)ad_len); /* both below 2^16 */
    fd_store_le32(lengths + 4, 0);
    fd_store_le32(lengths + 8, (uint32_t)len);
    fd_store_le32(lengths + 12, 0);
    fd_poly1305_update(&ctx, lengths, sizeof lengths);
    fd_poly1305_final(&ctx, tag);
}

/* out = in XOR ChaCha20(key, nonce) from block 1 on. */
static void aead_xor(const uint8_t key[FD_AEAD_KEY_SIZE], const uint8_t nonce[FD_AEAD_NONCE_SIZE], const uint8_t *in,
                     size_t len, uint8_t *out)
{
    uint8_t block[FD_CHACHA20_BLOCK_SIZE];
    uint32_t counter = 1;
    for (size_t off = 0; off < len; off += FD_CHACHA20_BLOCK_SIZE) {
        fd_chacha20_block(key, counter++, nonce, block);
        const size_t left = len - off;
        const size_t n = left < FD_CHACHA20_BLOCK_SIZE ? left : FD_CHACHA20_BLOCK_SIZE;
        /* cppcheck 2.10 takes n for 0 here (a value-flow slip: off < len) */
        // cppcheck-suppress knownConditionTrueFalse
        for (size_t i = 0; i < n; i++) {
            out[off + i] = (uint8_t)(in[off + i] ^ block[i]);
        }
    }
    fd_wipe(block, sizeof block);
}

static fd_status aead_check(const uint8_t *key, const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
                            const uint8_t *in, size_t len, const uint8_t *out, const uint8_t *tag)
{
    if (key == NULL || nonce == NULL || tag == NULL || (ad == NULL && ad_len > 0) ||
        ((in == NULL || out == NULL) && len > 0)) {
        return FD_ERR_NULL;
    }
    if (len > FD_AEAD_MAX_LEN || ad_len > FD_AEAD_MAX_LEN) {
        return FD_ERR_TOO_LARGE;
    }
    return FD_OK;
}

fd_status fd_aead_encrypt(const uint8_t key[FD_AEAD_KEY_SIZE], const uint8_t nonce[FD_AEAD_NONCE_SIZE],
                          const uint8_t *ad, size_t ad_len, const uint8_t *in, size_t len, uint8_t *out,
                          uint8_t tag[FD_AEAD_TAG_SIZE])
{
    const fd_status st = aead_check(key, nonce, ad, ad_len, in, len, out, tag);
    if (st != FD_OK) {
        return st;
    }
    aead_xor(key, nonce, in, len, out);
    aead_tag(key, nonce, ad, ad_len, out, len, tag);
    return FD_OK;
}

fd_status fd_aead_decrypt(const uint8_t key[FD_AEAD_KEY_SIZE], const uint8_t nonce[FD_AEAD_NONCE_SIZE],
                          const uint8_t *ad, size_t ad_len, const uint8_t *in, size_t len,
                          const uint8_t tag[FD_AEAD_TAG_SIZE], uint8_t *out)
{
    const fd_status st = aead_check(key, nonce, ad, ad_len, in, len, out, tag);
    if (st != FD_OK) {
        return st;
    }
    uint8_t want[FD_AEAD_TAG_SIZE];
    aead_tag(key, nonce, ad, ad_len, in, len, want);
    uint8_t diff = 0;
    for (unsigned i = 0; i < FD_AEAD_TAG_SIZE; i++) {
        diff |= (uint8_t)(want[i] ^ tag[i]);
    }
    fd_wipe(want, sizeof want);
    if (diff != 0) { /* the verdict is public; the comparison above ran to the end */
        return FD_ERR_AUTH;
    }
    aead_xor(key, nonce, in, len, out);
    return FD_OK;
}
