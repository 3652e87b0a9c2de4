/* The Noise Protocol Framework (revision 34) for one pattern,
 * Noise_NNpsk0_25519_ChaChaPoly_SHA256 (docs/LINK.md "Handshake"):
 *     -> psk, e
 *     <- e, ee
 * with Noise's CipherState (§5.1), SymmetricState (§5.2) and the psk
 * rules of §9 (in a psk handshake every "e" is also MixKey(e.public_key)). */
#include "fairdeal/link.h"

#include <string.h>

#include "fairdeal/util.h"
#include "word.h"

void fd_noise_hkdf(const uint8_t ck[FD_SHA256_SIZE], const uint8_t *ikm, size_t ikm_len, uint8_t out1[FD_SHA256_SIZE],
                   uint8_t out2[FD_SHA256_SIZE], uint8_t *out3)
{
    uint8_t temp[FD_SHA256_SIZE];
    uint8_t in[FD_SHA256_SIZE + 1];
    fd_hmac_sha256(ck, FD_SHA256_SIZE, ikm, ikm_len, temp);
    in[0] = 1;
    fd_hmac_sha256(temp, sizeof temp, in, 1, out1);
    memcpy(in, out1, FD_SHA256_SIZE);
    in[FD_SHA256_SIZE] = 2;
    fd_hmac_sha256(temp, sizeof temp, in, sizeof in, out2);
    if (out3 != NULL) {
        memcpy(in, out2, FD_SHA256_SIZE);
        in[FD_SHA256_SIZE] = 3;
        fd_hmac_sha256(temp, sizeof temp, in, sizeof in, out3);
    }
    fd_wipe(temp, sizeof temp);
    fd_wipe(in, sizeof in);
}

/* ChaChaPoly's nonce: 32 zero bits, then n little-endian (Noise §12.3). */
static void nonce_bytes(uint64_t n, uint8_t out[FD_AEAD_NONCE_SIZE])
{
    fd_store_le32(out, 0);
    fd_store_le32(out + 4, (uint32_t)n);
    fd_store_le32(out + 8, (uint32_t)(n >> 32));
}

fd_status fd_noise_encrypt(fd_noise_cipher *c, const uint8_t *ad, size_t ad_len, const uint8_t *in, size_t len,
                           uint8_t *out)
{
    if (c == NULL || (out == NULL && (len > 0 || c->has_key)) || (in == NULL && len > 0) ||
        (ad == NULL && ad_len > 0)) {
        return FD_ERR_NULL;
    }
    if (len > FD_NOISE_MAX_MESSAGE - FD_AEAD_TAG_SIZE) {
        return FD_ERR_TOO_LARGE;
    }
    if (!c->has_key) {
        if (out != in && len > 0) {
            memmove(out, in, len);
        }
        return FD_OK;
    }
    if (c->n == UINT64_MAX) {
        return FD_ERR_EXHAUSTED;
    }
    uint8_t nonce[FD_AEAD_NONCE_SIZE];
    nonce_bytes(c->n, nonce);
    const fd_status st = fd_aead_encrypt(c->k, nonce, ad, ad_len, in, len, out, out + len);
    if (st == FD_OK) {
        c->n++;
    }
    return st;
}

fd_status fd_noise_decrypt(fd_noise_cipher *c, const uint8_t *ad, size_t ad_len, const uint8_t *in, size_t len,
                           uint8_t *out)
{
    if (c == NULL || (in == NULL && len > 0) || (ad == NULL && ad_len > 0) || (out == NULL && len > FD_AEAD_TAG_SIZE)) {
        return FD_ERR_NULL;
    }
    if (len > FD_NOISE_MAX_MESSAGE) {
        return FD_ERR_TOO_LARGE;
    }
    if (!c->has_key) {
        if (out == NULL && len > 0) {
            return FD_ERR_NULL;
        }
        if (out != in && len > 0) {
            memmove(out, in, len);
        }
        return FD_OK;
    }
    if (len < FD_AEAD_TAG_SIZE) {
        return FD_ERR_PARSE;
    }
    if (c->n == UINT64_MAX) {
        return FD_ERR_EXHAUSTED;
    }
    uint8_t nonce[FD_AEAD_NONCE_SIZE];
    nonce_bytes(c->n, nonce);
    const size_t body = len - FD_AEAD_TAG_SIZE;
    const fd_status st = fd_aead_decrypt(c->k, nonce, ad, ad_len, in, body, in + body, out);
    if (st == FD_OK) {
        c->n++;
    }
    return st;
}

void fd_noise_rekey(fd_noise_cipher *c)
{
    uint8_t nonce[FD_AEAD_NONCE_SIZE];
    uint8_t zeros[FD_AEAD_KEY_SIZE] = {0};
    uint8_t tag[FD_AEAD_TAG_SIZE];
    nonce_bytes(UINT64_MAX, nonce);
    /* cannot fail: pointers set, 32 bytes */
    (void)fd_aead_encrypt(c->k, nonce, NULL, 0, zeros, sizeof zeros, zeros, tag);
    memcpy(c->k, zeros, sizeof zeros);
    fd_wipe(zeros, sizeof zeros);
}

static void mix_hash(fd_noise_handshake *hs, const uint8_t *data, size_t len)
{
    fd_sha256_ctx ctx;
    fd_sha256_init(&ctx);
    fd_sha256_update(&ctx, hs->h, sizeof hs->h);
    fd_sha256_update(&ctx, data, len);
    fd_sha256_final(&ctx, hs->h);
}

static void set_key(fd_noise_cipher *c, const uint8_t k[FD_AEAD_KEY_SIZE])
{
    memcpy(c->k, k, FD_AEAD_KEY_SIZE);
    c->n = 0;
    c->has_key = true;
}

static void mix_key(fd_noise_handshake *hs, const uint8_t *ikm, size_t len)
{
    uint8_t k[FD_SHA256_SIZE];
    fd_noise_hkdf(hs->ck, ikm, len, hs->ck, k, NULL);
    set_key(&hs->cs, k);
    fd_wipe(k, sizeof k);
}

static void mix_key_and_hash(fd_noise_handshake *hs, const uint8_t *ikm, size_t len)
{
    uint8_t th[FD_SHA256_SIZE];
    uint8_t k[FD_SHA256_SIZE];
    fd_noise_hkdf(hs->ck, ikm, len, hs->ck, th, k);
    mix_hash(hs, th, sizeof th);
    set_key(&hs->cs, k);
    fd_wipe(th, sizeof th);
    fd_wipe(k, sizeof k);
}

fd_status fd_noise_init(fd_noise_handshake *hs, bool initiator, const uint8_t *prologue, size_t prologue_len,
                        const uint8_t psk[FD_NOISE_PSK_SIZE])
{
    if (hs == NULL || psk == NULL || (prologue == NULL && prologue_len > 0)) {
        return FD_ERR_NULL;
    }
    if (prologue_len > FD_NOISE_MAX_PROLOGUE) {
        return FD_ERR_TOO_LARGE;
    }
    fd_wipe(hs, sizeof *hs);
    /* the name is longer than 32 bytes, so h = HASH(name) (Noise §5.2) */
    fd_sha256(FD_NOISE_PROTOCOL_NAME, sizeof FD_NOISE_PROTOCOL_NAME - 1, hs->h);
    memcpy(hs->ck, hs->h, sizeof hs->ck);
    mix_hash(hs, prologue, prologue_len);
    memcpy(hs->psk, psk, FD_NOISE_PSK_SIZE);
    hs->initiator = initiator;
    hs->step = 0;
    return FD_OK;
}

static bool our_turn(const fd_noise_handshake *hs) { return hs->step < 2 && (hs->step == 0) == hs->initiator; }

/* The token work both sides share for message `step`, after "e" is known:
 * message 1 starts with psk; every e is MixHash + MixKey (psk mode);
 * message 2 ends with ee. e_pub is the sender's ephemeral public key. */
static fd_status tokens(fd_noise_handshake *hs, const uint8_t e_pub[FD_X25519_SIZE])
{
    if (hs->step == 0) {
        mix_key_and_hash(hs, hs->psk, sizeof hs->psk);
    }
    mix_hash(hs, e_pub, FD_X25519_SIZE);
    mix_key(hs, e_pub, FD_X25519_SIZE);
    if (hs->step == 1) {
        uint8_t dh[FD_X25519_SIZE];
        const fd_status st = fd_x25519_shared(dh, hs->e, hs->re);
        if (st == FD_OK) {
            mix_key(hs, dh, sizeof dh);
        }
        fd_wipe(dh, sizeof dh);
        if (st != FD_OK) {
            return st;
        }
    }
    return FD_OK;
}

fd_status fd_noise_write(fd_noise_handshake *hs, const uint8_t ephemeral[FD_X25519_SIZE], const uint8_t *payload,
                         size_t payload_len, uint8_t *out, size_t out_cap, size_t *out_len)
{
    if (hs == NULL || ephemeral == NULL || out == NULL || out_len == NULL || (payload == NULL && payload_len > 0)) {
        return FD_ERR_NULL;
    }
    fd_status st = FD_OK;
    if (!our_turn(hs)) {
        st = FD_ERR_STATE;
    } else if (payload_len > FD_NOISE_MAX_MESSAGE - FD_X25519_SIZE - FD_AEAD_TAG_SIZE) {
        st = FD_ERR_TOO_LARGE;
    } else if (out_cap < FD_X25519_SIZE + payload_len + FD_AEAD_TAG_SIZE) {
        st = FD_ERR_BUFFER_TOO_SMALL;
    }
    if (st == FD_OK) {
        memcpy(hs->e, ephemeral, FD_X25519_SIZE);
        uint8_t e_pub[FD_X25519_SIZE];
        fd_x25519_public(e_pub, hs->e);
        st = tokens(hs, e_pub);
        if (st == FD_OK) {
            memcpy(out, e_pub, FD_X25519_SIZE);
            uint8_t *ct = out + FD_X25519_SIZE;
            st = fd_noise_encrypt(&hs->cs, hs->h, sizeof hs->h, payload, payload_len, ct);
            if (st == FD_OK) {
                const size_t ct_len = payload_len + FD_AEAD_TAG_SIZE;
                mix_hash(hs, ct, ct_len);
                *out_len = FD_X25519_SIZE + ct_len;
                hs->step++;
                return FD_OK;
            }
        }
    }
    fd_wipe(hs, sizeof *hs); /* any failure ends the handshake */
    return st;
}

fd_status fd_noise_read(fd_noise_handshake *hs, const uint8_t *msg, size_t len, uint8_t *payload, size_t payload_cap,
                        size_t *payload_len)
{
    if (hs == NULL || msg == NULL || payload_len == NULL || (payload == NULL && payload_cap > 0)) {
        return FD_ERR_NULL;
    }
    fd_status st = FD_OK;
    if (hs->step >= 2 || (hs->step == 0) != !hs->initiator) {
        st = FD_ERR_STATE;
    } else if (len > FD_NOISE_MAX_MESSAGE) {
        st = FD_ERR_TOO_LARGE;
    } else if (len < FD_X25519_SIZE + FD_AEAD_TAG_SIZE) {
        st = FD_ERR_PARSE;
    } else if (payload_cap < len - FD_X25519_SIZE - FD_AEAD_TAG_SIZE) {
        st = FD_ERR_BUFFER_TOO_SMALL;
    }
    if (st == FD_OK) {
        memcpy(hs->re, msg, FD_X25519_SIZE);
        st = tokens(hs, hs->re);
        if (st == FD_OK) {
            const uint8_t *ct = msg + FD_X25519_SIZE;
            const size_t ct_len = len - FD_X25519_SIZE;
            /* h before this ciphertext is the AD; mix it in after */
            st = fd_noise_decrypt(&hs->cs, hs->h, sizeof hs->h, ct, ct_len, payload);
            if (st == FD_OK) {
                mix_hash(hs, ct, ct_len);
                *payload_len = ct_len - FD_AEAD_TAG_SIZE;
                hs->step++;
                return FD_OK;
            }
        }
    }
    fd_wipe(hs, sizeof *hs);
    return st;
}

fd_status fd_noise_split(fd_noise_handshake *hs, fd_noise_session *s)
{
    if (hs == NULL || s == NULL) {
        return FD_ERR_NULL;
    }
    if (hs->step != 2) {
        return FD_ERR_STATE;
    }
    uint8_t k1[FD_SHA256_SIZE];
    uint8_t k2[FD_SHA256_SIZE];
    fd_noise_hkdf(hs->ck, NULL, 0, k1, k2, NULL);
    fd_wipe(s, sizeof *s);
    set_key(hs->initiator ? &s->tx : &s->rx, k1);
    set_key(hs->initiator ? &s->rx : &s->tx, k2);
    memcpy(s->hash, hs->h, sizeof s->hash);
    fd_wipe(k1, sizeof k1);
    fd_wipe(k2, sizeof k2);
    fd_wipe(hs, sizeof *hs);
    return FD_OK;
}
