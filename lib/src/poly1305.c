/* Poly1305 (RFC 8439 §2.5) in radix 2^26: five limbs, 25 products of
 * 32 x 32 -> 64 bits per 16-byte block (word.h's fd_mul_wide on
 * Cortex-M0). Final reduction and tag addition without branches. */
#include "fairdeal/aead.h"

#include "fairdeal/util.h"
#include "word.h"

#define M26 0x3FFFFFFu

/* Cortex-M0: one copy of the four-product form, called (25 inlined copies
 * cost 2.5 KiB of the micro:bit's flash); elsewhere one instruction. */
#if FD_MUL_BY_HALVES
__attribute__((noinline)) static uint64_t mul64(uint32_t a, uint32_t b)
#else
FD_HOT_INLINE uint64_t mul64(uint32_t a, uint32_t b)
#endif
{
    uint32_t lo;
    const uint32_t hi = fd_mul_wide(a, b, &lo);
    return ((uint64_t)hi << 32) | lo;
}

void fd_poly1305_init(fd_poly1305_ctx *ctx, const uint8_t key[FD_POLY1305_KEY_SIZE])
{
    const uint32_t t0 = fd_load_le32(key);
    const uint32_t t1 = fd_load_le32(key + 4);
    const uint32_t t2 = fd_load_le32(key + 8);
    const uint32_t t3 = fd_load_le32(key + 12);
    /* r clamped (RFC 8439 §2.5: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff) */
    ctx->r[0] = t0 & 0x3FFFFFFu;
    ctx->r[1] = ((t0 >> 26) | (t1 << 6)) & 0x3FFFF03u;
    ctx->r[2] = ((t1 >> 20) | (t2 << 12)) & 0x3FFC0FFu;
    ctx->r[3] = ((t2 >> 14) | (t3 << 18)) & 0x3F03FFFu;
    ctx->r[4] = (t3 >> 8) & 0x00FFFFFu;
    for (unsigned i = 0; i < 5; i++) {
        ctx->h[i] = 0;
    }
    for (size_t i = 0; i < 4; i++) {
        ctx->pad[i] = fd_load_le32(key + 16 + 4 * i);
    }
    ctx->buf_len = 0;
}

/* h = (h + block + hibit * 2^128) * r mod 2^130 - 5, partly reduced. */
static void poly_block(fd_poly1305_ctx *ctx, const uint8_t m[16], uint32_t hibit)
{
    const uint32_t r0 = ctx->r[0];
    const uint32_t r1 = ctx->r[1];
    const uint32_t r2 = ctx->r[2];
    const uint32_t r3 = ctx->r[3];
    const uint32_t r4 = ctx->r[4];
    const uint32_t s1 = r1 * 5u;
    const uint32_t s2 = r2 * 5u;
    const uint32_t s3 = r3 * 5u;
    const uint32_t s4 = r4 * 5u;
    const uint32_t t0 = fd_load_le32(m);
    const uint32_t t1 = fd_load_le32(m + 4);
    const uint32_t t2 = fd_load_le32(m + 8);
    const uint32_t t3 = fd_load_le32(m + 12);
    const uint32_t h0 = ctx->h[0] + (t0 & M26);
    const uint32_t h1 = ctx->h[1] + (((t0 >> 26) | (t1 << 6)) & M26);
    const uint32_t h2 = ctx->h[2] + (((t1 >> 20) | (t2 << 12)) & M26);
    const uint32_t h3 = ctx->h[3] + (((t2 >> 14) | (t3 << 18)) & M26);
    const uint32_t h4 = ctx->h[4] + ((t3 >> 8) | (hibit << 24));

    uint64_t d0 = mul64(h0, r0) + mul64(h1, s4) + mul64(h2, s3) + mul64(h3, s2) + mul64(h4, s1);
    uint64_t d1 = mul64(h0, r1) + mul64(h1, r0) + mul64(h2, s4) + mul64(h3, s3) + mul64(h4, s2);
    uint64_t d2 = mul64(h0, r2) + mul64(h1, r1) + mul64(h2, r0) + mul64(h3, s4) + mul64(h4, s3);
    uint64_t d3 = mul64(h0, r3) + mul64(h1, r2) + mul64(h2, r1) + mul64(h3, r0) + mul64(h4, s4);
    uint64_t d4 = mul64(h0, r4) + mul64(h1, r3) + mul64(h2, r2) + mul64(h3, r1) + mul64(h4, r0);

    d1 += d0 >> 26;
    d2 += d1 >> 26;
    d3 += d2 >> 26;
    d4 += d3 >> 26;
    const uint32_t c = (uint32_t)(d4 >> 26);
    uint32_t n0 = ((uint32_t)d0 & M26) + c * 5u;
    ctx->h[1] = ((uint32_t)d1 & M26) + (n0 >> 26);
    ctx->h[0] = n0 & M26;
    ctx->h[2] = (uint32_t)d2 & M26;
    ctx->h[3] = (uint32_t)d3 & M26;
    ctx->h[4] = (uint32_t)d4 & M26;
}

void fd_poly1305_update(fd_poly1305_ctx *ctx, const uint8_t *data, size_t len)
{
    if (ctx->buf_len > 0) {
        while (len > 0 && ctx->buf_len < 16) {
            ctx->buf[ctx->buf_len++] = *data++;
            len--;
        }
        if (ctx->buf_len < 16) {
            return;
        }
        poly_block(ctx, ctx->buf, 1);
        ctx->buf_len = 0;
    }
    while (len >= 16) {
        poly_block(ctx, data, 1);
        data += 16;
        len -= 16;
    }
    while (len > 0) {
        ctx->buf[ctx->buf_len++] = *data++;
        len--;
    }
}

void fd_poly1305_final(fd_poly1305_ctx *ctx, uint8_t tag[FD_POLY1305_TAG_SIZE])
{
    if (ctx->buf_len > 0) { /* the last partial block: 0x01 after it, no 2^128 bit */
        ctx->buf[ctx->buf_len] = 1;
        for (size_t i = ctx->buf_len + 1; i < 16; i++) {
            ctx->buf[i] = 0;
        }
        poly_block(ctx, ctx->buf, 0);
    }
    uint32_t h0 = ctx->h[0];
    uint32_t h1 = ctx->h[1];
    uint32_t h2 = ctx->h[2];
    uint32_t h3 = ctx->h[3];
    uint32_t h4 = ctx->h[4];
    /* full carry */
    h2 += h1 >> 26;
    h1 &= M26;
    h3 += h2 >> 26;
    h2 &= M26;
    h4 += h3 >> 26;
    h3 &= M26;
    h0 += (h4 >> 26) * 5u;
    h4 &= M26;
    h1 += h0 >> 26;
    h0 &= M26;
    /* g = h + 5 - 2^130; keep g when it did not borrow (h >= p) */
    uint32_t g0 = h0 + 5u;
    uint32_t g1 = h1 + (g0 >> 26);
    g0 &= M26;
    uint32_t g2 = h2 + (g1 >> 26);
    g1 &= M26;
    uint32_t g3 = h3 + (g2 >> 26);
    g2 &= M26;
    uint32_t g4 = h4 + (g3 >> 26) - (1u << 26);
    g3 &= M26;
    const uint32_t use_g = (g4 >> 31) - 1u; /* all ones when no borrow */
    h0 = (h0 & ~use_g) | (g0 & use_g);
    h1 = (h1 & ~use_g) | (g1 & use_g);
    h2 = (h2 & ~use_g) | (g2 & use_g);
    h3 = (h3 & ~use_g) | (g3 & use_g);
    h4 = (h4 & ~use_g) | (g4 & use_g);
    /* h mod 2^128, plus s */
    const uint32_t w0 = h0 | (h1 << 26);
    const uint32_t w1 = (h1 >> 6) | (h2 << 20);
    const uint32_t w2 = (h2 >> 12) | (h3 << 14);
    const uint32_t w3 = (h3 >> 18) | (h4 << 8);
    uint64_t f = (uint64_t)w0 + ctx->pad[0];
    fd_store_le32(tag, (uint32_t)f);
    f = (uint64_t)w1 + ctx->pad[1] + (f >> 32);
    fd_store_le32(tag + 4, (uint32_t)f);
    f = (uint64_t)w2 + ctx->pad[2] + (f >> 32);
    fd_store_le32(tag + 8, (uint32_t)f);
    f = (uint64_t)w3 + ctx->pad[3] + (f >> 32);
    fd_store_le32(tag + 12, (uint32_t)f);
    fd_wipe(ctx, sizeof *ctx);
}

void fd_poly1305(uint8_t tag[FD_POLY1305_TAG_SIZE], const uint8_t key[FD_POLY1305_KEY_SIZE], const uint8_t *msg,
                 size_t len)
{
    fd_poly1305_ctx ctx;
    fd_poly1305_init(&ctx, key);
    fd_poly1305_update(&ctx, msg, len);
    fd_poly1305_final(&ctx, tag);
}
