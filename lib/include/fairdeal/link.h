/* fairdeal: the authenticated, encrypted link to a table controller
 * (docs/LINK.md): the Noise handshake Noise_NNpsk0_25519_ChaChaPoly_SHA256
 * (X25519, ChaCha20-Poly1305, SHA-256, HKDF by HMAC-SHA-256), its
 * transport, and the frames and padding that carry both over a byte
 * stream. Everything in caller memory; no heap. The device answers as the
 * responder; the initiator side exists for tests and controllers in C. */
#ifndef FAIRDEAL_LINK_H
#define FAIRDEAL_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/aead.h"
#include "fairdeal/sha256.h"
#include "fairdeal/status.h"
#include "fairdeal/x25519.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The Noise protocol name, hashed into the first chaining key. */
#define FD_NOISE_PROTOCOL_NAME "Noise_NNpsk0_25519_ChaChaPoly_SHA256"
/* Largest Noise message (Noise §3). */
#define FD_NOISE_MAX_MESSAGE 65535u

/* Noise's HKDF (Noise §4.3): temp = HMAC(ck, ikm); out1 = HMAC(temp,
 * 0x01); out2 = HMAC(temp, out1 || 0x02); out3 = HMAC(temp, out2 || 0x03)
 * when out3 is not NULL. ikm may be NULL when ikm_len is 0. */
void fd_noise_hkdf(const uint8_t ck[FD_SHA256_SIZE], const uint8_t *ikm, size_t ikm_len, uint8_t out1[FD_SHA256_SIZE],
                   uint8_t out2[FD_SHA256_SIZE], uint8_t *out3);

/* A Noise CipherState (Noise §5.1) for ChaChaPoly: nonce n as 32 zero bits
 * then n little-endian. Owned by the library: do not rely on the contents of this type. */
typedef struct fd_noise_cipher {
    uint8_t k[FD_AEAD_KEY_SIZE]; /* the key */
    uint64_t n;                  /* the next nonce */
    bool has_key;                /* whether k is set */
} fd_noise_cipher;

/* EncryptWithAd: out = ciphertext || tag (len + 16 bytes), n advances.
 * Without a key, out = in. out may equal in. Errors: FD_ERR_NULL,
 * FD_ERR_TOO_LARGE, FD_ERR_EXHAUSTED (n reached 2^64 - 1, Noise's
 * reserved value); nothing changes on error. */
FD_MUST_CHECK fd_status fd_noise_encrypt(fd_noise_cipher *c, const uint8_t *ad, size_t ad_len, const uint8_t *in,
                                         size_t len, uint8_t *out);
/* DecryptWithAd of len bytes (ciphertext || tag) into out (len - 16
 * bytes); n advances only on success. Errors: as encrypt, FD_ERR_PARSE
 * (len < 16 with a key), FD_ERR_AUTH (tag mismatch: out untouched). */
FD_MUST_CHECK fd_status fd_noise_decrypt(fd_noise_cipher *c, const uint8_t *ad, size_t ad_len, const uint8_t *in,
                                         size_t len, uint8_t *out);
/* Rekey (Noise §11.3): k = the first 32 bytes of ENCRYPT(k, 2^64 - 1, "",
 * 32 zero bytes); n is kept. */
void fd_noise_rekey(fd_noise_cipher *c);

/* Bytes in a pre-shared key. */
#define FD_NOISE_PSK_SIZE 32u
/* Longest prologue accepted. */
#define FD_NOISE_MAX_PROLOGUE 64u

/* The NNpsk0 handshake (-> psk, e  <- e, ee) on either side. Owned by the
 * library: do not rely on the contents of this type. */
typedef struct fd_noise_handshake {
    fd_noise_cipher cs;             /* the SymmetricState's CipherState */
    uint8_t ck[FD_SHA256_SIZE];     /* chaining key */
    uint8_t h[FD_SHA256_SIZE];      /* handshake hash so far */
    uint8_t e[FD_X25519_SIZE];      /* our ephemeral private key */
    uint8_t re[FD_X25519_SIZE];     /* the peer's ephemeral public key */
    uint8_t psk[FD_NOISE_PSK_SIZE]; /* the pre-shared key */
    bool initiator;                 /* our role */
    uint8_t step;                   /* messages done: 0, 1, 2 (then split) */
} fd_noise_handshake;

/* A finished handshake: one CipherState per direction and the handshake
 * hash (the channel binding). Owned by the library: do not rely on the contents of this type. */
typedef struct fd_noise_session {
    fd_noise_cipher tx;           /* what we send */
    fd_noise_cipher rx;           /* what we receive */
    uint8_t hash[FD_SHA256_SIZE]; /* the handshake hash */
} fd_noise_session;

/* Initialize (Noise §5.3) with the protocol name, the prologue and the
 * PSK. Errors: FD_ERR_NULL, FD_ERR_TOO_LARGE (prologue above
 * FD_NOISE_MAX_PROLOGUE). */
FD_MUST_CHECK fd_status fd_noise_init(fd_noise_handshake *hs, bool initiator, const uint8_t *prologue,
                                      size_t prologue_len, const uint8_t psk[FD_NOISE_PSK_SIZE]);
/* Write our next handshake message: ephemeral public key (from the
 * private key `ephemeral`, clamped by X25519), then the encrypted payload;
 * *out_len = 32 + payload_len + 16. The responder also mixes in ee.
 * Errors: FD_ERR_NULL, FD_ERR_STATE (not our turn), FD_ERR_BUFFER_TOO_SMALL,
 * FD_ERR_TOO_LARGE (message above FD_NOISE_MAX_MESSAGE), FD_ERR_PARSE (the
 * DH result is all zero); on error hs is wiped (the handshake is over). */
FD_MUST_CHECK fd_status fd_noise_write(fd_noise_handshake *hs, const uint8_t ephemeral[FD_X25519_SIZE],
                                       const uint8_t *payload, size_t payload_len, uint8_t *out, size_t out_cap,
                                       size_t *out_len);
/* Read the peer's next handshake message and decrypt its payload into
 * payload (len - 48 bytes). Errors: FD_ERR_NULL, FD_ERR_STATE,
 * FD_ERR_PARSE (shorter than 48 bytes, or an all-zero DH),
 * FD_ERR_BUFFER_TOO_SMALL, FD_ERR_TOO_LARGE, FD_ERR_AUTH; on error hs is
 * wiped. */
FD_MUST_CHECK fd_status fd_noise_read(fd_noise_handshake *hs, const uint8_t *msg, size_t len, uint8_t *payload,
                                      size_t payload_cap, size_t *payload_len);
/* After both messages: Split (Noise §5.2) into the session (tx/rx by
 * role) and wipe hs. Errors: FD_ERR_NULL, FD_ERR_STATE. */
FD_MUST_CHECK fd_status fd_noise_split(fd_noise_handshake *hs, fd_noise_session *s);

/* ---- fairdeal's frames (docs/LINK.md "Frames") ----------------------- */

/* Every frame starts with this byte, then its type and the body length
 * (big-endian 16 bits). */
#define FD_LINK_MAGIC 0xFDu
/* Bytes in a frame header: magic, type, body length. */
#define FD_LINK_HEADER_SIZE 4u
#define FD_LINK_HELLO 0x01u   /* handshake message 1, controller -> device */
#define FD_LINK_WELCOME 0x02u /* handshake message 2, device -> controller */
#define FD_LINK_DATA 0x03u    /* transport message, either way */
/* Padded payload sizes (length prefix included): every payload is padded
 * to the smallest that holds it, so lengths tell only the bucket. */
#define FD_LINK_BUCKETS                                                                                                \
    {                                                                                                                  \
        64u, 128u, 256u, 512u                                                                                          \
    }
/* How many buckets FD_LINK_BUCKETS lists. */
#define FD_LINK_BUCKET_COUNT 4u
/* Longest payload: the largest bucket less the 2-byte length prefix. */
#define FD_LINK_MAX_PAYLOAD 510u
/* Largest frame: header, ephemeral key, the largest bucket, tag. */
#define FD_LINK_MAX_FRAME (FD_LINK_HEADER_SIZE + FD_X25519_SIZE + 512u + FD_AEAD_TAG_SIZE)
/* The prologue both sides mix in. */
#define FD_LINK_PROLOGUE "fairdeal-link-1"
/* Rejected frames a session survives; the next one closes it. */
#define FD_LINK_MAX_FAILURES 8u
/* Each direction rekeys (Noise §11.3) after every this many frames. */
#define FD_LINK_REKEY_INTERVAL 65536u
/* Frames per direction per session: past it the session must be redone. */
#define FD_LINK_MAX_FRAMES 0xFFFFFFFFu

/* The link's keys from the device secret (docs/LINK.md "Keys"):
 * psk = HMAC-SHA-256(secret, "fairdeal link psk v1"), eph = HMAC-SHA-256(
 * secret, "fairdeal link ephemeral v1"). Errors: FD_ERR_NULL, FD_ERR_EMPTY. */
FD_MUST_CHECK fd_status fd_link_derive_keys(const uint8_t *secret, size_t secret_len, uint8_t psk[FD_NOISE_PSK_SIZE],
                                            uint8_t eph_key[FD_SHA256_SIZE]);
/* The device's ephemeral private key for one handshake: HMAC-SHA-256(
 * eph_key, trng[32] || counter as 8 bytes big-endian). The caller takes
 * counter from a range it journalled before use (docs/LINK.md), so no two
 * handshakes share one even when the TRNG is stuck. */
void fd_link_ephemeral(const uint8_t eph_key[FD_SHA256_SIZE], const uint8_t trng[32], uint64_t counter,
                       uint8_t out[FD_X25519_SIZE]);

/* The padded size for a payload of len bytes, 0 when above
 * FD_LINK_MAX_PAYLOAD. */
size_t fd_link_bucket(size_t len);

/* An open session with its counters. Owned by the library: do not rely on the contents of this type. */
typedef struct fd_link {
    fd_noise_session s; /* keys, counters, handshake hash */
    uint32_t sent;      /* frames sent */
    uint32_t received;  /* frames accepted */
    uint32_t rejected;  /* frames rejected since the session opened */
    bool open;          /* keys present: frames may pass */
} fd_link;

/* The controller's side, for tests and C controllers: start the handshake
 * and write HELLO (empty payload, padded) to out. */
FD_MUST_CHECK fd_status fd_link_hello(fd_noise_handshake *hs, const uint8_t psk[FD_NOISE_PSK_SIZE],
                                      const uint8_t ephemeral[FD_X25519_SIZE], uint8_t *out, size_t out_cap,
                                      size_t *out_len);
/* The controller reads WELCOME: its payload to payload (unpadded) and the
 * session to link. Errors as fd_link_open. */
FD_MUST_CHECK fd_status fd_link_finish(fd_noise_handshake *hs, const uint8_t *frame, size_t len, fd_link *link,
                                       uint8_t *payload, size_t payload_cap, size_t *payload_len);
/* The device's side: read a HELLO frame and answer with a WELCOME frame
 * carrying payload (e.g. its identity line; it must not overlap out),
 * opening link. A failed call leaves link closed (and wiped) and out
 * untouched or zeroed. The caller wipes ephemeral afterwards. Errors: FD_ERR_NULL,
 * FD_ERR_PARSE (not a well-formed HELLO), FD_ERR_AUTH (wrong PSK or
 * altered), FD_ERR_TOO_LARGE (payload above FD_LINK_MAX_PAYLOAD),
 * FD_ERR_BUFFER_TOO_SMALL. */
FD_MUST_CHECK fd_status fd_link_accept(const uint8_t psk[FD_NOISE_PSK_SIZE], const uint8_t ephemeral[FD_X25519_SIZE],
                                       const uint8_t *hello, size_t hello_len, const uint8_t *payload,
                                       size_t payload_len, fd_link *link, uint8_t *out, size_t out_cap,
                                       size_t *out_len);
/* Seal payload into one DATA frame. Errors: FD_ERR_NULL, FD_ERR_STATE
 * (link not open), FD_ERR_TOO_LARGE, FD_ERR_BUFFER_TOO_SMALL,
 * FD_ERR_EXHAUSTED (FD_LINK_MAX_FRAMES sent: redo the handshake). */
FD_MUST_CHECK fd_status fd_link_seal(fd_link *link, const uint8_t *payload, size_t len, uint8_t *out, size_t out_cap,
                                     size_t *out_len);
/* Open one DATA frame (header included) into payload. Only the next frame
 * in order is accepted: a replayed, reordered, dropped-before, truncated,
 * altered or foreign frame is FD_ERR_AUTH or FD_ERR_PARSE, counted in
 * link->rejected, and changes nothing else; the FD_LINK_MAX_FAILURES-th
 * rejection closes (wipes) the session, after which every call is
 * FD_ERR_STATE. */
FD_MUST_CHECK fd_status fd_link_open(fd_link *link, const uint8_t *frame, size_t len, uint8_t *payload,
                                     size_t payload_cap, size_t *payload_len);
/* Wipe the session. */
void fd_link_close(fd_link *link);

/* Frame boundaries in a byte stream (docs/LINK.md "Resynchronisation"):
 * feed bytes one at a time; a complete frame whose header is well formed
 * (magic, known type, a length its type allows) is reported once. Bytes
 * that cannot start a frame are dropped and counted. Owned by the library: do not rely on the contents of this type. */
typedef struct fd_link_reader {
    uint8_t buf[FD_LINK_MAX_FRAME]; /* the frame so far */
    size_t len;                     /* bytes in buf */
    size_t want;                    /* total frame length once the header is in, else 0 */
    uint32_t dropped;               /* bytes discarded while hunting for a header */
} fd_link_reader;

/* Start empty, hunting for a header. */
void fd_link_reader_init(fd_link_reader *r);
/* Push one byte; returns true when buf[0..len) now holds a whole frame
 * (take it, then call fd_link_reader_next). */
bool fd_link_reader_push(fd_link_reader *r, uint8_t byte);
/* Forget the delivered frame. */
void fd_link_reader_next(fd_link_reader *r);
/* Whether a frame of this type may have this body length (every length
 * an honest peer can send, nothing else). */
bool fd_link_body_ok(uint8_t type, size_t body_len);

#ifdef __cplusplus
}
#endif

#endif
