/* fairdeal's frames around the Noise handshake and transport
 * (docs/LINK.md): header, padding to buckets, the in-order transport with
 * rejection counting and rekeying, the stream reader, and the link keys. */
#include "fairdeal/link.h"

#include <string.h>

#include "fairdeal/util.h"
#include "word.h"

static const size_t buckets[FD_LINK_BUCKET_COUNT] = FD_LINK_BUCKETS;

size_t fd_link_bucket(size_t len)
{
    for (unsigned i = 0; i < FD_LINK_BUCKET_COUNT; i++) {
        if (len + 2u <= buckets[i]) {
            return buckets[i];
        }
    }
    return 0;
}

static bool is_bucket(size_t n)
{
    for (unsigned i = 0; i < FD_LINK_BUCKET_COUNT; i++) {
        if (n == buckets[i]) {
            return true;
        }
    }
    return false;
}

bool fd_link_body_ok(uint8_t type, size_t body_len)
{
    switch (type) {
    case FD_LINK_HELLO: /* the controller's payload fits the smallest bucket */
        return body_len == FD_X25519_SIZE + 64u + FD_AEAD_TAG_SIZE;
    case FD_LINK_WELCOME:
        return body_len > FD_X25519_SIZE + FD_AEAD_TAG_SIZE && is_bucket(body_len - FD_X25519_SIZE - FD_AEAD_TAG_SIZE);
    case FD_LINK_DATA: return body_len > FD_AEAD_TAG_SIZE && is_bucket(body_len - FD_AEAD_TAG_SIZE);
    default: return false;
    }
}

static void put_header(uint8_t *out, uint8_t type, size_t body_len)
{
    out[0] = FD_LINK_MAGIC;
    out[1] = type;
    out[2] = (uint8_t)(body_len >> 8);
    out[3] = (uint8_t)body_len;
}

/* A frame of this type whose header matches its length; its body length. */
static bool frame_ok(const uint8_t *frame, size_t len, uint8_t type, size_t *body_len)
{
    if (len < FD_LINK_HEADER_SIZE || frame[0] != FD_LINK_MAGIC || frame[1] != type) {
        return false;
    }
    const size_t body = ((size_t)frame[2] << 8) | frame[3];
    if (body != len - FD_LINK_HEADER_SIZE || !fd_link_body_ok(type, body)) {
        return false;
    }
    *body_len = body;
    return true;
}

/* len (big-endian 16) || data || zeros up to the bucket, written at out
 * (which may hold data already at out + 2 when data == out + 2). */
static size_t pad(uint8_t *out, const uint8_t *data, size_t len)
{
    const size_t p = fd_link_bucket(len);
    if (len > 0 && data != out + 2) {
        memmove(out + 2, data, len);
    }
    out[0] = (uint8_t)(len >> 8);
    out[1] = (uint8_t)len;
    memset(out + 2 + len, 0, p - 2 - len);
    return p;
}

/* Check a padded payload of p bytes and move its data to the front. The
 * work depends on the bucket p only, not on the payload's length: the pad
 * check runs over the whole bucket by mask, and the move takes all p - 2
 * bytes (the checked zeros follow the data). */
static fd_status unpad(uint8_t *buf, size_t p, size_t *len)
{
    const size_t n = ((size_t)buf[0] << 8) | buf[1];
    if (n + 2u > p) {
        return FD_ERR_PARSE;
    }
    /* p is a multiple of 4: word j holds bytes [j, j + 4); the first d =
     * clamp(2 + n - j, 0, 4) of them are length or data, the rest must be 0 */
    uint32_t nonzero = 0;
    for (size_t j = 0; j < p; j += 4) {
        uint32_t d = (uint32_t)(2u + n) - (uint32_t)j; /* wraps when j > 2 + n (both below 2^10) */
        d &= ~(0u - (d >> 31));                        /* wrapped: 0 */
        const uint32_t over = 0u - ((4u - d) >> 31);   /* above 4: all ones */
        d = (d & ~over) | (4u & over);
        const uint32_t pad_bytes = (uint32_t)(UINT64_C(0xFFFFFFFFFFFFFFFF) << (8u * d));
        nonzero |= fd_load_le32(buf + j) & pad_bytes;
    }
    if (nonzero != 0) {
        return FD_ERR_PARSE;
    }
    memmove(buf, buf + 2, p - 2u);
    *len = n;
    return FD_OK;
}

fd_status fd_link_derive_keys(const uint8_t *secret, size_t secret_len, uint8_t psk[FD_NOISE_PSK_SIZE],
                              uint8_t eph_key[FD_SHA256_SIZE])
{
    if (secret == NULL || psk == NULL || eph_key == NULL) {
        return FD_ERR_NULL;
    }
    if (secret_len == 0) {
        return FD_ERR_EMPTY;
    }
    static const char psk_label[] = "fairdeal link psk v1";
    static const char eph_label[] = "fairdeal link ephemeral v1";
    fd_hmac_sha256(secret, secret_len, psk_label, sizeof psk_label - 1, psk);
    fd_hmac_sha256(secret, secret_len, eph_label, sizeof eph_label - 1, eph_key);
    return FD_OK;
}

void fd_link_ephemeral(const uint8_t eph_key[FD_SHA256_SIZE], const uint8_t trng[32], uint64_t counter,
                       uint8_t out[FD_X25519_SIZE])
{
    uint8_t c[8];
    for (unsigned i = 0; i < 8; i++) {
        c[i] = (uint8_t)(counter >> (56u - 8u * i));
    }
    fd_hmac_sha256_ctx ctx;
    fd_hmac_sha256_init(&ctx, eph_key, FD_SHA256_SIZE);
    fd_hmac_sha256_update(&ctx, trng, 32);
    fd_hmac_sha256_update(&ctx, c, sizeof c);
    fd_hmac_sha256_final(&ctx, out);
}

static const uint8_t prologue[] = FD_LINK_PROLOGUE;
#define PROLOGUE_LEN (sizeof prologue - 1u)

fd_status fd_link_hello(fd_noise_handshake *hs, const uint8_t psk[FD_NOISE_PSK_SIZE],
                        const uint8_t ephemeral[FD_X25519_SIZE], uint8_t *out, size_t out_cap, size_t *out_len)
{
    if (hs == NULL || psk == NULL || ephemeral == NULL || out == NULL || out_len == NULL) {
        return FD_ERR_NULL;
    }
    const size_t body = FD_X25519_SIZE + 64u + FD_AEAD_TAG_SIZE;
    if (out_cap < FD_LINK_HEADER_SIZE + body) {
        return FD_ERR_BUFFER_TOO_SMALL;
    }
    fd_status st = fd_noise_init(hs, true, prologue, PROLOGUE_LEN, psk);
    if (st != FD_OK) {
        return st;
    }
    uint8_t *msg = out + FD_LINK_HEADER_SIZE;
    uint8_t *payload = msg + FD_X25519_SIZE;
    const size_t p = pad(payload, NULL, 0);
    size_t n = 0;
    st = fd_noise_write(hs, ephemeral, payload, p, msg, out_cap - FD_LINK_HEADER_SIZE, &n);
    if (st != FD_OK) {
        return st;
    }
    put_header(out, FD_LINK_HELLO, n);
    *out_len = FD_LINK_HEADER_SIZE + n;
    return FD_OK;
}

fd_status fd_link_finish(fd_noise_handshake *hs, const uint8_t *frame, size_t len, fd_link *link, uint8_t *payload,
                         size_t payload_cap, size_t *payload_len)
{
    if (hs == NULL || frame == NULL || link == NULL || payload == NULL || payload_len == NULL) {
        return FD_ERR_NULL;
    }
    fd_wipe(link, sizeof *link);
    size_t body = 0;
    if (!frame_ok(frame, len, FD_LINK_WELCOME, &body)) {
        fd_wipe(hs, sizeof *hs);
        return FD_ERR_PARSE;
    }
    size_t n = 0;
    fd_status st = fd_noise_read(hs, frame + FD_LINK_HEADER_SIZE, body, payload, payload_cap, &n);
    if (st == FD_OK) {
        st = unpad(payload, n, payload_len);
    }
    if (st == FD_OK) {
        st = fd_noise_split(hs, &link->s);
    }
    if (st != FD_OK) {
        fd_wipe(hs, sizeof *hs);
        fd_wipe(link, sizeof *link);
        return st;
    }
    link->open = true;
    return FD_OK;
}

fd_status fd_link_accept(const uint8_t psk[FD_NOISE_PSK_SIZE], const uint8_t ephemeral[FD_X25519_SIZE],
                         const uint8_t *hello, size_t hello_len, const uint8_t *payload, size_t payload_len,
                         fd_link *link, uint8_t *out, size_t out_cap, size_t *out_len)
{
    if (psk == NULL || ephemeral == NULL || hello == NULL || link == NULL || out == NULL || out_len == NULL ||
        (payload == NULL && payload_len > 0)) {
        return FD_ERR_NULL;
    }
    fd_wipe(link, sizeof *link);
    if (payload_len > FD_LINK_MAX_PAYLOAD) {
        return FD_ERR_TOO_LARGE;
    }
    const size_t p = fd_link_bucket(payload_len);
    const size_t frame_len = FD_LINK_HEADER_SIZE + FD_X25519_SIZE + p + FD_AEAD_TAG_SIZE;
    if (out_cap < frame_len) {
        return FD_ERR_BUFFER_TOO_SMALL;
    }
    size_t body = 0;
    if (!frame_ok(hello, hello_len, FD_LINK_HELLO, &body)) {
        return FD_ERR_PARSE;
    }

    fd_noise_handshake hs;
    uint8_t theirs[64];
    size_t n = 0;
    size_t theirs_len = 0;
    fd_status st = fd_noise_init(&hs, false, prologue, PROLOGUE_LEN, psk);
    if (st == FD_OK) {
        st = fd_noise_read(&hs, hello + FD_LINK_HEADER_SIZE, body, theirs, sizeof theirs, &n);
    }
    if (st == FD_OK) {
        st = unpad(theirs, n, &theirs_len); /* the controller's hello payload: not used */
    }
    fd_wipe(theirs, sizeof theirs);
    if (st == FD_OK) {
        uint8_t *msg = out + FD_LINK_HEADER_SIZE;
        uint8_t *padded = msg + FD_X25519_SIZE;
        (void)pad(padded, payload, payload_len); /* payload may not overlap out */
        st = fd_noise_write(&hs, ephemeral, padded, p, msg, out_cap - FD_LINK_HEADER_SIZE, &n);
    }
    if (st == FD_OK) {
        st = fd_noise_split(&hs, &link->s);
    }
    fd_wipe(&hs, sizeof hs);
    if (st != FD_OK) {
        fd_wipe(out, frame_len);
        fd_wipe(link, sizeof *link);
        return st;
    }
    put_header(out, FD_LINK_WELCOME, n);
    *out_len = FD_LINK_HEADER_SIZE + n;
    link->open = true;
    return FD_OK;
}

/* The cipher for frame number `count` in a direction: rekeyed at every
 * FD_LINK_REKEY_INTERVAL-th frame (on a copy, committed by the caller). */
static void cipher_for(const fd_noise_cipher *c, uint32_t count, fd_noise_cipher *out)
{
    *out = *c;
    if (count > 0 && count % FD_LINK_REKEY_INTERVAL == 0) {
        fd_noise_rekey(out);
    }
}

fd_status fd_link_seal(fd_link *link, const uint8_t *payload, size_t len, uint8_t *out, size_t out_cap, size_t *out_len)
{
    if (link == NULL || out == NULL || out_len == NULL || (payload == NULL && len > 0)) {
        return FD_ERR_NULL;
    }
    if (!link->open) {
        return FD_ERR_STATE;
    }
    if (len > FD_LINK_MAX_PAYLOAD) {
        return FD_ERR_TOO_LARGE;
    }
    const size_t p = fd_link_bucket(len);
    if (out_cap < FD_LINK_HEADER_SIZE + p + FD_AEAD_TAG_SIZE) {
        return FD_ERR_BUFFER_TOO_SMALL;
    }
    if (link->sent == FD_LINK_MAX_FRAMES) {
        return FD_ERR_EXHAUSTED;
    }
    fd_noise_cipher c;
    cipher_for(&link->s.tx, link->sent, &c);
    put_header(out, FD_LINK_DATA, p + FD_AEAD_TAG_SIZE);
    uint8_t *body = out + FD_LINK_HEADER_SIZE;
    (void)pad(body, payload, len);
    const fd_status st = fd_noise_encrypt(&c, out, FD_LINK_HEADER_SIZE, body, p, body);
    if (st == FD_OK) {
        link->s.tx = c;
        link->sent++;
        *out_len = FD_LINK_HEADER_SIZE + p + FD_AEAD_TAG_SIZE;
    }
    fd_wipe(&c, sizeof c);
    return st;
}

fd_status fd_link_open(fd_link *link, const uint8_t *frame, size_t len, uint8_t *payload, size_t payload_cap,
                       size_t *payload_len)
{
    if (link == NULL || frame == NULL || payload == NULL || payload_len == NULL) {
        return FD_ERR_NULL;
    }
    if (!link->open) {
        return FD_ERR_STATE;
    }
    size_t body = 0;
    fd_status st = FD_ERR_PARSE;
    if (frame_ok(frame, len, FD_LINK_DATA, &body)) {
        if (payload_cap < body - FD_AEAD_TAG_SIZE) {
            return FD_ERR_BUFFER_TOO_SMALL; /* the caller's mistake, not the peer's: not counted */
        }
        if (link->received == FD_LINK_MAX_FRAMES) {
            return FD_ERR_EXHAUSTED;
        }
        fd_noise_cipher c;
        cipher_for(&link->s.rx, link->received, &c);
        st = fd_noise_decrypt(&c, frame, FD_LINK_HEADER_SIZE, frame + FD_LINK_HEADER_SIZE, body, payload);
        if (st == FD_OK) {
            size_t n = 0;
            st = unpad(payload, body - FD_AEAD_TAG_SIZE, &n);
            if (st == FD_OK) {
                link->s.rx = c;
                link->received++;
                *payload_len = n;
            } else {
                fd_wipe(payload, body - FD_AEAD_TAG_SIZE);
            }
        }
        fd_wipe(&c, sizeof c);
    }
    if (st == FD_OK) {
        return FD_OK;
    }
    if (++link->rejected >= FD_LINK_MAX_FAILURES) {
        fd_link_close(link);
    }
    return st;
}

void fd_link_close(fd_link *link)
{
    if (link != NULL) {
        const uint32_t rejected = link->rejected;
        fd_wipe(link, sizeof *link);
        link->rejected = rejected; /* kept for the report; open is false */
    }
}

void fd_link_reader_init(fd_link_reader *r)
{
    r->len = 0;
    r->want = 0;
    r->dropped = 0;
}

/* Whether buf[0..n) can begin a frame header (n <= 4). */
static bool header_prefix_ok(const uint8_t *b, size_t n)
{
    if (n >= 1 && b[0] != FD_LINK_MAGIC) {
        return false;
    }
    if (n >= 2 && (b[1] < FD_LINK_HELLO || b[1] > FD_LINK_DATA)) {
        return false;
    }
    if (n >= 4 && !fd_link_body_ok(b[1], ((size_t)b[2] << 8) | b[3])) {
        return false;
    }
    return true;
}

bool fd_link_reader_push(fd_link_reader *r, uint8_t byte)
{
    if (r->want != 0 && r->len == r->want) {
        return true; /* a frame is waiting to be taken */
    }
    r->buf[r->len++] = byte;
    if (r->want == 0) {
        /* hunting: drop leading bytes until the buffer can start a header */
        while (r->len > 0 && !header_prefix_ok(r->buf, r->len)) {
            memmove(r->buf, r->buf + 1, r->len - 1);
            r->len--;
            r->dropped++;
        }
        if (r->len == FD_LINK_HEADER_SIZE) {
            r->want = FD_LINK_HEADER_SIZE + (((size_t)r->buf[2] << 8) | r->buf[3]);
        }
        return false;
    }
    return r->len == r->want;
}

void fd_link_reader_next(fd_link_reader *r)
{
    r->len = 0;
    r->want = 0;
}
