#include "fairdeal/sha256.h"

#include <string.h>

#include "sha256_internal.h"

static const uint32_t K[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

const uint32_t fd_sha256_iv[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                  0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};

static uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32u - n)); }

void fd_sha256_compress(uint32_t h[8], const uint8_t block[64])
{
    uint32_t w[16];
    for (size_t i = 0; i < 16u; i++) {
        w[i] = ((uint32_t)block[4u * i] << 24) | ((uint32_t)block[4u * i + 1u] << 16) |
               ((uint32_t)block[4u * i + 2u] << 8) | (uint32_t)block[4u * i + 3u];
    }
    uint32_t a = h[0];
    uint32_t b = h[1];
    uint32_t c = h[2];
    uint32_t d = h[3];
    uint32_t e = h[4];
    uint32_t f = h[5];
    uint32_t g = h[6];
    uint32_t hh = h[7];
    for (unsigned i = 0; i < 64u; i++) {
        uint32_t wi;
        if (i < 16u) {
            wi = w[i];
        } else {
            /* A rolling 16-word schedule keeps the stack small on M0. */
            uint32_t w15 = w[(i - 15u) & 15u];
            uint32_t w2 = w[(i - 2u) & 15u];
            uint32_t s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3);
            uint32_t s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10);
            wi = w[i & 15u] + s0 + w[(i - 7u) & 15u] + s1;
            w[i & 15u] = wi;
        }
        uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + wi;
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
    fd_wipe(w, sizeof w);
}

void fd_sha256_init(fd_sha256_ctx *ctx)
{
    memcpy(ctx->h, fd_sha256_iv, sizeof fd_sha256_iv);
    ctx->total_len = 0;
    ctx->block_len = 0;
}

void fd_sha256_update(fd_sha256_ctx *ctx, const void *data, size_t len)
{
    const uint8_t *p = data;
    ctx->total_len += len;
    while (len > 0u) {
        if (ctx->block_len == 0u && len >= FD_SHA256_BLOCK) {
            fd_sha256_compress(ctx->h, p);
            p += FD_SHA256_BLOCK;
            len -= FD_SHA256_BLOCK;
            continue;
        }
        size_t take = FD_SHA256_BLOCK - ctx->block_len;
        if (take > len) {
            take = len;
        }
        memcpy(ctx->block + ctx->block_len, p, take);
        ctx->block_len += take;
        p += take;
        len -= take;
        if (ctx->block_len == FD_SHA256_BLOCK) {
            fd_sha256_compress(ctx->h, ctx->block);
            ctx->block_len = 0;
        }
    }
}

/* The compression's spilled working variables (its input chaining value:
 * in an HMAC, a midstate keyed by the secret) stay in its frame. final
 * zeroes the region below itself, where update's and the compression's
 * frames were (docs/RELIABILITY.md, "Secrets off the stack"): 256 bytes,
 * more than both frames take on x86-64 and Cortex-M. */
__attribute__((noinline)) static void wipe_frames_below(void)
{
    uint8_t frames[256];
    fd_wipe(frames, sizeof frames);
}

void fd_sha256_final(fd_sha256_ctx *ctx, uint8_t out[FD_SHA256_SIZE])
{
    const uint64_t bits = ctx->total_len * 8u;
    uint8_t pad[FD_SHA256_BLOCK + 8u] = {0x80};
    size_t pad_len = (ctx->block_len < 56u) ? (56u - ctx->block_len) : (120u - ctx->block_len);
    for (unsigned i = 0; i < 8u; i++) {
        pad[pad_len + i] = (uint8_t)(bits >> (56u - 8u * i));
    }
    fd_sha256_update(ctx, pad, pad_len + 8u);
    for (size_t i = 0; i < 8u; i++) {
        out[4u * i] = (uint8_t)(ctx->h[i] >> 24);
        out[4u * i + 1u] = (uint8_t)(ctx->h[i] >> 16);
        out[4u * i + 2u] = (uint8_t)(ctx->h[i] >> 8);
        out[4u * i + 3u] = (uint8_t)ctx->h[i];
    }
    fd_wipe(ctx, sizeof *ctx);
    wipe_frames_below();
}

void fd_sha256(const void *data, size_t len, uint8_t out[FD_SHA256_SIZE])
{
    fd_sha256_ctx ctx;
    fd_sha256_init(&ctx);
    fd_sha256_update(&ctx, data, len);
    fd_sha256_final(&ctx, out);
}

void fd_hmac_sha256_init(fd_hmac_sha256_ctx *ctx, const void *key, size_t key_len)
{
    uint8_t k[FD_SHA256_BLOCK] = {0};
    if (key_len > FD_SHA256_BLOCK) {
        fd_sha256(key, key_len, k);
    } else if (key_len > 0u) {
        memcpy(k, key, key_len);
    }
    for (unsigned i = 0; i < FD_SHA256_BLOCK; i++) {
        k[i] ^= 0x36u;
    }
    fd_sha256_init(&ctx->inner);
    fd_sha256_update(&ctx->inner, k, sizeof k);
    for (unsigned i = 0; i < FD_SHA256_BLOCK; i++) {
        k[i] ^= 0x36u ^ 0x5cu;
    }
    fd_sha256_init(&ctx->outer);
    fd_sha256_update(&ctx->outer, k, sizeof k);
    fd_wipe(k, sizeof k);
}

void fd_hmac_sha256_update(fd_hmac_sha256_ctx *ctx, const void *data, size_t len)
{
    fd_sha256_update(&ctx->inner, data, len);
}

void fd_hmac_sha256_final(fd_hmac_sha256_ctx *ctx, uint8_t out[FD_SHA256_SIZE])
{
    uint8_t inner[FD_SHA256_SIZE];
    fd_sha256_final(&ctx->inner, inner);
    fd_sha256_update(&ctx->outer, inner, sizeof inner);
    fd_sha256_final(&ctx->outer, out);
    fd_wipe(inner, sizeof inner);
}

void fd_hmac_sha256(const void *key, size_t key_len, const void *data, size_t len, uint8_t out[FD_SHA256_SIZE])
{
    fd_hmac_sha256_ctx ctx;
    fd_hmac_sha256_init(&ctx, key, key_len);
    fd_hmac_sha256_update(&ctx, data, len);
    fd_hmac_sha256_final(&ctx, out);
}
