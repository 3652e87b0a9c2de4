/* fairdeal: LMS/HSS hash-based signature verification (RFC 8554) with
 * SHA-256, M = N = 32: LMS heights 5..25 (H5..H25), LM-OTS Winternitz
 * widths 1, 2, 4 and 8, HSS with 1..FD_HSS_MAX_LEVELS levels. No heap:
 * the caller owns the public key, the signature and the context, and
 * streams the message through update (a bootloader feeds its image in
 * chunks). docs/SECURITY.md "Signed firmware" says what the signatures
 * cover and how the signing state is kept. The lower-level pieces (chains,
 * leaves, the layout walker) serve the host signer too, so signing and
 * verifying hash the same way. */
#ifndef FAIRDEAL_LMS_H
#define FAIRDEAL_LMS_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/sha256.h"
#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FD_LMS_N 32u      /* bytes in a hash (n = m = 32) */
#define FD_LMS_I_SIZE 16u /* bytes in the key identifier I */

/* Typecodes (RFC 8554 Section 8: IANA registry). */
#define FD_LMOTS_SHA256_N32_W1 1u /* LM-OTS, Winternitz width 1 */
#define FD_LMOTS_SHA256_N32_W2 2u /* LM-OTS, width 2 */
#define FD_LMOTS_SHA256_N32_W4 3u /* LM-OTS, width 4 */
#define FD_LMOTS_SHA256_N32_W8 4u /* LM-OTS, width 8 */
#define FD_LMS_SHA256_M32_H5 5u   /* LMS, height 5 */
#define FD_LMS_SHA256_M32_H10 6u  /* LMS, height 10 */
#define FD_LMS_SHA256_M32_H15 7u  /* LMS, height 15 */
#define FD_LMS_SHA256_M32_H20 8u  /* LMS, height 20 */
#define FD_LMS_SHA256_M32_H25 9u  /* LMS, height 25 */

/* Most HSS levels accepted (RFC 8554 Section 6 allows 1..8). */
#define FD_HSS_MAX_LEVELS 8u

/* Wire sizes. An LMS public key: u32 type || u32 otstype || I || T[1]; an
 * HSS public key: u32 L || LMS public key. An LM-OTS signature with p
 * chains: u32 otstype || C || y[0..p-1]; an LMS signature of height h:
 * u32 q || LM-OTS signature || u32 type || path[0..h-1]; an HSS signature:
 * u32 Nspk || (LMS signature || LMS public key) * Nspk || LMS signature. */
#define FD_LMS_PUB_SIZE (4u + 4u + FD_LMS_I_SIZE + FD_LMS_N)                  /* LMS public key */
#define FD_HSS_PUB_SIZE (4u + FD_LMS_PUB_SIZE)                                /* HSS public key */
#define FD_LMOTS_SIG_SIZE(p) (4u + FD_LMS_N + (p)*FD_LMS_N)                   /* LM-OTS signature */
#define FD_LMS_SIG_SIZE(p, h) (4u + FD_LMOTS_SIG_SIZE(p) + 4u + (h)*FD_LMS_N) /* LMS signature */

/* The chain counts p of the four widths (RFC 8554 Table 1). */
#define FD_LMOTS_P_W1 265u /* chains of W1 */
#define FD_LMOTS_P_W2 133u /* chains of W2 */
#define FD_LMOTS_P_W4 67u  /* chains of W4 */
#define FD_LMOTS_P_W8 34u  /* chains of W8 */

/* The project's default parameter set (docs/SECURITY.md "Signed firmware"):
 * one level of LMS_SHA256_M32_H10 with LMOTS_SHA256_N32_W4: 1,024
 * signatures per key, a 2,512-byte signature. */
#define FD_LMS_DEFAULT_TYPE FD_LMS_SHA256_M32_H10                          /* default LMS set */
#define FD_LMOTS_DEFAULT_TYPE FD_LMOTS_SHA256_N32_W4                       /* default LM-OTS set */
#define FD_HSS_DEFAULT_SIG_SIZE (4u + FD_LMS_SIG_SIZE(FD_LMOTS_P_W4, 10u)) /* its HSS signature */

/* LM-OTS parameters of one typecode (RFC 8554 Table 1). */
typedef struct fd_lmots_params {
    uint32_t type; /* typecode */
    uint8_t w;     /* bits per Winternitz digit */
    uint8_t ls;    /* left shift of the checksum */
    uint16_t p;    /* chains */
} fd_lmots_params;

/* The parameters of an LM-OTS typecode, or NULL for an unknown one. */
const fd_lmots_params *fd_lmots_params_of(uint32_t ots_type);

/* The tree height of an LMS typecode, or 0 for an unknown one. */
uint32_t fd_lms_height_of(uint32_t lms_type);

/* One level of a parsed HSS signature: the LMS public key it verifies under
 * and the LMS signature, both pointing into the caller's buffers. */
typedef struct fd_lms_level {
    const uint8_t *pub;         /* FD_LMS_PUB_SIZE bytes */
    const uint8_t *sig;         /* FD_LMS_SIG_SIZE(p, h) bytes */
    const fd_lmots_params *ots; /* of the key's (= the signature's) otstype */
    uint32_t h;                 /* tree height */
    uint32_t q;                 /* leaf index, below 2^h */
} fd_lms_level;

/* An HSS signature's layout under a public key: level i's signature signs
 * level i+1's public key; the last signs the message. */
typedef struct fd_hss_layout {
    uint32_t levels;                       /* L */
    fd_lms_level level[FD_HSS_MAX_LEVELS]; /* level 0 is the root */
} fd_hss_layout;

/* The one walker over the public key and signature layout: checks every
 * length, typecode and index against RFC 8554's rules and fills out. It
 * hashes nothing. Errors: FD_ERR_NULL; FD_ERR_PARSE when pub is not
 * FD_HSS_PUB_SIZE bytes, L is outside 1..FD_HSS_MAX_LEVELS, Nspk != L - 1,
 * a typecode is unknown, a signature's typecodes differ from its key's, a q
 * is not below 2^h, or the signature is truncated or has trailing bytes. */
FD_MUST_CHECK fd_status fd_hss_parse(const uint8_t *pub, size_t pub_len, const uint8_t *sig, size_t sig_len,
                                     fd_hss_layout *out);

/* A verification in progress. Owned by the library: do not rely on the
 * contents of this type. */
typedef struct fd_hss_verify_ctx {
    fd_sha256_ctx msg_hash;                      /* H(I || u32str(q) || u16str(D_MESG) || C || message so far) */
    const uint8_t *pub;                          /* the caller's key, kept until final */
    const uint8_t *sig;                          /* the caller's signature, kept until final */
    size_t sig_len;                              /* its length */
    uint8_t head[FD_LMS_I_SIZE + 4u + FD_LMS_N]; /* the last level's I, q, C as hashed */
    uint32_t live;                               /* set by init, cleared by final */
} fd_hss_verify_ctx;

/* Start verifying sig under pub. Both buffers must stay unchanged until
 * final. Errors: those of fd_hss_parse; on error ctx is not live. */
FD_MUST_CHECK fd_status fd_hss_verify_init(fd_hss_verify_ctx *ctx, const uint8_t *pub, size_t pub_len,
                                           const uint8_t *sig, size_t sig_len);
/* Feed len more message bytes; any split gives the same verdict. data may
 * be NULL only when len is 0. Errors: FD_ERR_NULL, FD_ERR_STATE (not live). */
FD_MUST_CHECK fd_status fd_hss_verify_update(fd_hss_verify_ctx *ctx, const void *data, size_t len);
/* The verdict: FD_OK only if every level verifies. Reparses the signature
 * buffer and wipes ctx. Errors: FD_ERR_NULL, FD_ERR_STATE (not live),
 * FD_ERR_PARSE (the buffer changed since init and no longer parses),
 * FD_ERR_CORRUPT (the buffer changed since init in the last level's I, q
 * or C), FD_ERR_SIGNATURE (well formed, does not verify). */
FD_MUST_CHECK fd_status fd_hss_verify_final(fd_hss_verify_ctx *ctx);
/* init, update and final in one call. */
FD_MUST_CHECK fd_status fd_hss_verify(const uint8_t *pub, size_t pub_len, const void *msg, size_t msg_len,
                                      const uint8_t *sig, size_t sig_len);

/* ---- building blocks shared with the signer ---- */

/* Winternitz digit i of the n-byte string s (RFC 8554 Section 3.1.3). */
uint32_t fd_lmots_coef(const uint8_t *s, uint32_t i, uint32_t w);

/* The p digits to sign: those of Q = digest followed by its checksum
 * (Algorithm 2 step 7, Algorithm 4b step 5). digits holds p bytes. */
void fd_lmots_digits(const fd_lmots_params *ots, const uint8_t digest[FD_LMS_N], uint8_t *digits);

/* The chain steps a verifier computes for these p digits: the sum of
 * 2^w - 1 - digit (RFC 8554 Algorithm 4b step 3). */
uint32_t fd_lmots_steps(const fd_lmots_params *ots, const uint8_t *digits);

/* The most chain steps a signature made by fairdeal-tool costs a verifier:
 * 11/20 of p * (2^w - 1). The signer tries further randomizers C until its
 * digits are within it (docs/SECURITY.md "Signed firmware"), which bounds a
 * boot check's time; a verifier accepts any valid signature regardless. */
uint32_t fd_lmots_steps_cap(const fd_lmots_params *ots);

/* Chain i from step `from` up to (not including) `to`, in place:
 * tmp = H(I || u32str(q) || u16str(i) || u8str(j) || tmp) for j = from..to-1. */
void fd_lmots_chain(const uint8_t I[FD_LMS_I_SIZE], uint32_t q, uint32_t i, uint32_t from, uint32_t to,
                    uint8_t tmp[FD_LMS_N]);

/* Start H(I || u32str(q) || u16str(D_MESG) || C || message), the message
 * digest an LM-OTS signature signs. */
void fd_lmots_msg_init(fd_sha256_ctx *ctx, const uint8_t I[FD_LMS_I_SIZE], uint32_t q, const uint8_t C[FD_LMS_N]);

/* Leaf node r = 2^h + q: H(I || u32str(r) || u16str(D_LEAF) || K). */
void fd_lms_leaf(const uint8_t I[FD_LMS_I_SIZE], uint32_t r, const uint8_t K[FD_LMS_N], uint8_t out[FD_LMS_N]);

/* Interior node r: H(I || u32str(r) || u16str(D_INTR) || left || right). */
void fd_lms_interior(const uint8_t I[FD_LMS_I_SIZE], uint32_t r, const uint8_t left[FD_LMS_N],
                     const uint8_t right[FD_LMS_N], uint8_t out[FD_LMS_N]);

/* Big-endian 32-bit read of the wire format. */
uint32_t fd_lms_get32(const uint8_t *p);
/* Big-endian 32-bit write of the wire format. */
void fd_lms_put32(uint8_t *p, uint32_t v);

#ifdef __cplusplus
}
#endif

#endif
