/* LMS/HSS verification, RFC 8554 (lib/include/fairdeal/lms.h). Section
 * and algorithm numbers below are RFC 8554's. */
#include "fairdeal/lms.h"

#include <string.h>

#include "fairdeal/util.h"
#include "sha256_internal.h"
#include "word.h"

/* Domain separators (Section 4.3 / 5.3). */
#define D_PBLC 0x8080u
#define D_MESG 0x8181u
#define D_LEAF 0x8282u
#define D_INTR 0x8383u

/* The wire sizes the headers promise. */
_Static_assert(FD_LMS_PUB_SIZE == 56u, "LMS public key: type, otstype, I, T[1]");
_Static_assert(FD_HSS_PUB_SIZE == 60u, "HSS public key: L, LMS public key");
_Static_assert(FD_LMOTS_SIG_SIZE(FD_LMOTS_P_W8) == 1124u, "RFC 8554 Table 1: W8 signature");
_Static_assert(FD_LMOTS_SIG_SIZE(FD_LMOTS_P_W4) == 2180u, "RFC 8554 Table 1: W4 signature");
_Static_assert(FD_LMS_SIG_SIZE(FD_LMOTS_P_W8, 5u) == 1292u, "Appendix F: an H5/W8 LMS signature");
_Static_assert(FD_HSS_DEFAULT_SIG_SIZE == 2512u, "the default set's HSS signature");
_Static_assert(FD_LMS_I_SIZE + 4u + 2u + 1u + FD_LMS_N == 55u, "a chain step is one SHA-256 block");

uint32_t fd_lms_get32(const uint8_t *p) { return fd_load_be32(p); }

void fd_lms_put32(uint8_t *p, uint32_t v) { fd_store_be32(p, v); }

/* Table 1, indexed by typecode. */
static const fd_lmots_params LMOTS[] = {
    [FD_LMOTS_SHA256_N32_W1] = {.type = FD_LMOTS_SHA256_N32_W1, .w = 1, .ls = 7, .p = FD_LMOTS_P_W1},
    [FD_LMOTS_SHA256_N32_W2] = {.type = FD_LMOTS_SHA256_N32_W2, .w = 2, .ls = 6, .p = FD_LMOTS_P_W2},
    [FD_LMOTS_SHA256_N32_W4] = {.type = FD_LMOTS_SHA256_N32_W4, .w = 4, .ls = 4, .p = FD_LMOTS_P_W4},
    [FD_LMOTS_SHA256_N32_W8] = {.type = FD_LMOTS_SHA256_N32_W8, .w = 8, .ls = 0, .p = FD_LMOTS_P_W8},
};

const fd_lmots_params *fd_lmots_params_of(uint32_t ots_type)
{
    if (ots_type < FD_LMOTS_SHA256_N32_W1 || ots_type > FD_LMOTS_SHA256_N32_W8) {
        return NULL;
    }
    return &LMOTS[ots_type];
}

uint32_t fd_lms_height_of(uint32_t lms_type)
{
    if (lms_type < FD_LMS_SHA256_M32_H5 || lms_type > FD_LMS_SHA256_M32_H25) {
        return 0;
    }
    return 5u * (lms_type - FD_LMS_SHA256_M32_H5 + 1u);
}

/* w divides 8, so digit i starts at bit i * w: byte (i * w) / 8, and
 * w * (i mod 8/w) = (i * w) mod 8 (shifts and masks, no division: the
 * Cortex-M0 has none). */
uint32_t fd_lmots_coef(const uint8_t *s, uint32_t i, uint32_t w)
{
    const uint32_t bit = i * w;
    const uint32_t shift = 8u - ((bit & 7u) + w);
    return ((uint32_t)s[bit >> 3] >> shift) & ((1u << w) - 1u);
}

void fd_lmots_digits(const fd_lmots_params *ots, const uint8_t digest[FD_LMS_N], uint8_t *digits)
{
    const uint32_t w = ots->w;
    const uint32_t top = (1u << w) - 1u;
    uint32_t sum = 0;
    uint32_t u = 0; /* ends as 8n / w, counted rather than divided */
    for (; u * w < 8u * FD_LMS_N; u++) {
        const uint32_t c = fd_lmots_coef(digest, u, w);
        digits[u] = (uint8_t)c;
        sum += top - c;
    }
    uint8_t cksm[2];
    fd_store_be16(cksm, sum << ots->ls);
    for (uint32_t i = u; i < ots->p; i++) {
        digits[i] = (uint8_t)fd_lmots_coef(cksm, i - u, w);
    }
}

uint32_t fd_lmots_steps(const fd_lmots_params *ots, const uint8_t *digits)
{
    const uint32_t top = (1u << ots->w) - 1u;
    uint32_t steps = 0;
    for (uint32_t i = 0; i < ots->p; i++) {
        steps += top - digits[i];
    }
    return steps;
}

uint32_t fd_lmots_steps_cap(const fd_lmots_params *ots) { return (uint32_t)ots->p * ((1u << ots->w) - 1u) * 11u / 20u; }

/* One chain step hashes I || u32str(q) || u16str(i) || u8str(j) || tmp:
 * 55 bytes, one SHA-256 block with the padding of a 440-bit message. It is
 * built as words: tmp starts at byte 23, so each word after the fifth joins
 * the low 3 bytes of one hash word and the top byte of the next. */
void fd_lmots_chain(const uint8_t I[FD_LMS_I_SIZE], uint32_t q, uint32_t i, uint32_t from, uint32_t to,
                    uint8_t tmp[FD_LMS_N])
{
    if (from >= to) {
        return;
    }
    uint32_t h[8];
    for (unsigned k = 0; k < 8u; k++) {
        h[k] = fd_lms_get32(tmp + (size_t)4u * k);
    }
    uint32_t head[5];
    for (unsigned k = 0; k < 4u; k++) {
        head[k] = fd_lms_get32(I + (size_t)4u * k);
    }
    head[4] = q;
    const uint32_t idx = (i & 0xFFFFu) << 16;
    uint32_t w[16];
    for (uint32_t j = from; j < to; j++) {
        memcpy(w, head, sizeof head);
        w[5] = idx | ((j & 0xFFu) << 8) | (h[0] >> 24);
        for (unsigned k = 0; k < 7u; k++) {
            w[6u + k] = (h[k] << 8) | (h[k + 1u] >> 24);
        }
        w[13] = (h[7] << 8) | 0x80u;
        w[14] = 0;
        w[15] = 55u * 8u;
        memcpy(h, fd_sha256_iv, sizeof h);
        fd_sha256_rounds(h, w);
    }
    for (unsigned k = 0; k < 8u; k++) {
        fd_lms_put32(tmp + (size_t)4u * k, h[k]);
    }
    fd_wipe(w, sizeof w); /* the signer runs chains from secret values */
    fd_wipe(h, sizeof h);
    fd_sha256_wipe_frames();
}

static void prefix(fd_sha256_ctx *ctx, const uint8_t I[FD_LMS_I_SIZE], uint32_t qr, uint32_t d)
{
    uint8_t head[FD_LMS_I_SIZE + 4u + 2u];
    memcpy(head, I, FD_LMS_I_SIZE);
    fd_lms_put32(head + FD_LMS_I_SIZE, qr);
    fd_store_be16(head + FD_LMS_I_SIZE + 4u, d);
    fd_sha256_init(ctx);
    fd_sha256_update(ctx, head, sizeof head);
}

void fd_lmots_msg_init(fd_sha256_ctx *ctx, const uint8_t I[FD_LMS_I_SIZE], uint32_t q, const uint8_t C[FD_LMS_N])
{
    prefix(ctx, I, q, D_MESG);
    fd_sha256_update(ctx, C, FD_LMS_N);
}

void fd_lms_leaf(const uint8_t I[FD_LMS_I_SIZE], uint32_t r, const uint8_t K[FD_LMS_N], uint8_t out[FD_LMS_N])
{
    fd_sha256_ctx ctx;
    prefix(&ctx, I, r, D_LEAF);
    fd_sha256_update(&ctx, K, FD_LMS_N);
    fd_sha256_final(&ctx, out);
}

void fd_lms_interior(const uint8_t I[FD_LMS_I_SIZE], uint32_t r, const uint8_t left[FD_LMS_N],
                     const uint8_t right[FD_LMS_N], uint8_t out[FD_LMS_N])
{
    fd_sha256_ctx ctx;
    prefix(&ctx, I, r, D_INTR);
    fd_sha256_update(&ctx, left, FD_LMS_N);
    fd_sha256_update(&ctx, right, FD_LMS_N);
    fd_sha256_final(&ctx, out);
}

/* ---- the layout walker ---- */

/* Offsets inside an LMS public key and signature. */
enum {
    PUB_TYPE = 0,
    PUB_OTS = 4,
    PUB_I = 8,
    PUB_T1 = 24
};
enum {
    SIG_Q = 0,
    SIG_OTS = 4,
    SIG_C = 8,
    SIG_Y = 8 + FD_LMS_N
};

/* The typecodes of an LMS public key: the height and LM-OTS parameters. */
static fd_status pub_params(const uint8_t *pub, uint32_t *h, const fd_lmots_params **ots)
{
    *h = fd_lms_height_of(fd_lms_get32(pub + PUB_TYPE));
    *ots = fd_lmots_params_of(fd_lms_get32(pub + PUB_OTS));
    return (*h == 0u || *ots == NULL) ? FD_ERR_PARSE : FD_OK;
}

fd_status fd_hss_parse(const uint8_t *pub, size_t pub_len, const uint8_t *sig, size_t sig_len, fd_hss_layout *out)
{
    if (pub == NULL || sig == NULL || out == NULL) {
        return FD_ERR_NULL;
    }
    memset(out, 0, sizeof *out);
    if (pub_len != FD_HSS_PUB_SIZE || sig_len < 4u) {
        return FD_ERR_PARSE;
    }
    const uint32_t levels = fd_lms_get32(pub);
    if (levels < 1u || levels > FD_HSS_MAX_LEVELS || fd_lms_get32(sig) != levels - 1u) {
        return FD_ERR_PARSE;
    }
    const uint8_t *key = pub + 4u;
    size_t off = 4u;
    for (uint32_t i = 0; i < levels; i++) {
        fd_lms_level *lv = &out->level[i];
        if (pub_params(key, &lv->h, &lv->ots) != FD_OK) {
            return FD_ERR_PARSE;
        }
        const size_t need = FD_LMS_SIG_SIZE((size_t)lv->ots->p, (size_t)lv->h);
        if (sig_len - off < need) {
            return FD_ERR_PARSE;
        }
        const uint8_t *s = sig + off;
        lv->q = fd_lms_get32(s + SIG_Q);
        if (fd_lms_get32(s + SIG_OTS) != lv->ots->type ||
            fd_lms_get32(s + 4u + FD_LMOTS_SIG_SIZE((size_t)lv->ots->p)) != fd_lms_get32(key + PUB_TYPE) ||
            lv->q >= (1u << lv->h)) {
            return FD_ERR_PARSE;
        }
        lv->pub = key;
        lv->sig = s;
        off += need;
        if (i + 1u < levels) {
            if (sig_len - off < FD_LMS_PUB_SIZE) {
                return FD_ERR_PARSE;
            }
            key = sig + off;
            off += FD_LMS_PUB_SIZE;
        }
    }
    if (off != sig_len) {
        return FD_ERR_PARSE;
    }
    out->levels = levels;
    return FD_OK;
}

/* ---- verification ---- */

/* Algorithm 4b from the finished message digest, then Algorithm 6a's
 * climb to the root; FD_OK when it equals the key's T[1]. */
static fd_status level_verdict(const fd_lms_level *lv, const uint8_t digest[FD_LMS_N])
{
    const uint8_t *I = lv->pub + PUB_I;
    const fd_lmots_params *ots = lv->ots;
    const uint32_t top = (1u << ots->w) - 1u;
    uint8_t digits[FD_LMOTS_P_W1] = {0};
    fd_lmots_digits(ots, digest, digits);

    fd_sha256_ctx kc;
    prefix(&kc, I, lv->q, D_PBLC);
    for (uint32_t i = 0; i < ots->p; i++) {
        uint8_t z[FD_LMS_N];
        memcpy(z, lv->sig + SIG_Y + (size_t)i * FD_LMS_N, FD_LMS_N);
        fd_lmots_chain(I, lv->q, i, digits[i], top, z);
        fd_sha256_update(&kc, z, FD_LMS_N);
    }
    uint8_t node[FD_LMS_N];
    fd_sha256_final(&kc, node);

    uint32_t r = (1u << lv->h) + lv->q;
    fd_lms_leaf(I, r, node, node);
    const uint8_t *path = lv->sig + 4u + FD_LMOTS_SIG_SIZE((size_t)ots->p) + 4u;
    for (uint32_t i = 0; r > 1u; i++, r >>= 1) {
        const uint8_t *sibling = path + (size_t)i * FD_LMS_N;
        if ((r & 1u) != 0u) {
            fd_lms_interior(I, r >> 1, sibling, node, node);
        } else {
            fd_lms_interior(I, r >> 1, node, sibling, node);
        }
    }
    uint8_t diff = 0;
    for (unsigned k = 0; k < FD_LMS_N; k++) {
        diff |= (uint8_t)(node[k] ^ lv->pub[PUB_T1 + k]);
    }
    return diff == 0u ? FD_OK : FD_ERR_SIGNATURE;
}

#define LIVE 0x4C4D5331u /* "LMS1" */

/* The last level's I || q || C: what init hashed ahead of the message. */
static void last_head(const fd_hss_layout *lay, uint8_t head[FD_LMS_I_SIZE + 4u + FD_LMS_N])
{
    const fd_lms_level *lv = &lay->level[lay->levels - 1u];
    memcpy(head, lv->pub + PUB_I, FD_LMS_I_SIZE);
    fd_lms_put32(head + FD_LMS_I_SIZE, lv->q);
    memcpy(head + FD_LMS_I_SIZE + 4u, lv->sig + SIG_C, FD_LMS_N);
}

fd_status fd_hss_verify_init(fd_hss_verify_ctx *ctx, const uint8_t *pub, size_t pub_len, const uint8_t *sig,
                             size_t sig_len)
{
    if (ctx == NULL) {
        return FD_ERR_NULL;
    }
    ctx->live = 0;
    fd_hss_layout lay;
    const fd_status st = fd_hss_parse(pub, pub_len, sig, sig_len, &lay);
    if (st != FD_OK) {
        return st;
    }
    const fd_lms_level *lv = &lay.level[lay.levels - 1u];
    fd_lmots_msg_init(&ctx->msg_hash, lv->pub + PUB_I, lv->q, lv->sig + SIG_C);
    last_head(&lay, ctx->head);
    ctx->pub = pub;
    ctx->sig = sig;
    ctx->sig_len = sig_len;
    ctx->live = LIVE;
    return FD_OK;
}

fd_status fd_hss_verify_update(fd_hss_verify_ctx *ctx, const void *data, size_t len)
{
    if (ctx == NULL || (data == NULL && len > 0u)) {
        return FD_ERR_NULL;
    }
    if (ctx->live != LIVE) {
        return FD_ERR_STATE;
    }
    fd_sha256_update(&ctx->msg_hash, data, len);
    return FD_OK;
}

fd_status fd_hss_verify_final(fd_hss_verify_ctx *ctx)
{
    if (ctx == NULL) {
        return FD_ERR_NULL;
    }
    if (ctx->live != LIVE) {
        return FD_ERR_STATE;
    }
    uint8_t digest[FD_LMS_N];
    fd_sha256_final(&ctx->msg_hash, digest);
    fd_hss_layout lay;
    fd_status st = fd_hss_parse(ctx->pub, FD_HSS_PUB_SIZE, ctx->sig, ctx->sig_len, &lay);
    if (st == FD_OK) {
        uint8_t head[sizeof ctx->head];
        last_head(&lay, head);
        st = memcmp(head, ctx->head, sizeof head) == 0 ? FD_OK : FD_ERR_CORRUPT;
    }
    /* Every level is checked, top first; any failure is the verdict. */
    for (uint32_t i = 0; st == FD_OK && i < lay.levels; i++) {
        const fd_lms_level *lv = &lay.level[i];
        uint8_t d[FD_LMS_N];
        if (i + 1u < lay.levels) {
            fd_sha256_ctx m;
            fd_lmots_msg_init(&m, lv->pub + PUB_I, lv->q, lv->sig + SIG_C);
            fd_sha256_update(&m, lay.level[i + 1u].pub, FD_LMS_PUB_SIZE);
            fd_sha256_final(&m, d);
        } else {
            memcpy(d, digest, sizeof d);
        }
        st = level_verdict(lv, d);
    }
    fd_wipe(ctx, sizeof *ctx);
    return st;
}

fd_status fd_hss_verify(const uint8_t *pub, size_t pub_len, const void *msg, size_t msg_len, const uint8_t *sig,
                        size_t sig_len)
{
    fd_hss_verify_ctx ctx;
    fd_status st = fd_hss_verify_init(&ctx, pub, pub_len, sig, sig_len);
    if (st == FD_OK) {
        st = fd_hss_verify_update(&ctx, msg, msg_len);
    }
    if (st == FD_OK) {
        return fd_hss_verify_final(&ctx);
    }
    fd_wipe(&ctx, sizeof ctx);
    return st;
}
