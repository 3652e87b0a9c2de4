/* X25519 (RFC 7748 §5) on the Montgomery ladder, in constant time.
 *
 * A field element mod p = 2^255 - 19 is ten unsigned 32-bit limbs in radix
 * 2^25.5: limb i holds bits [ceil(25.5 i), ceil(25.5 (i+1))), 26 bits for
 * even i and 25 for odd i. A product of limbs i and j lands in limb i + j
 * (mod 10) times 2 when both are odd (the half bits) and times 19 when
 * i + j >= 10 (2^255 = 19 mod p). Every product is 32 x 32 -> 64 bits:
 * one umull on Cortex-M3/M4, four 16 x 16 products on Cortex-M0
 * (word.h's fd_mul_wide), so the one form serves both.
 *
 * Bounds (checked by the 1,000-step vector and the random interop test):
 * a carried element has limbs below 2^26 (limb 1 below 2^25 + 2^18); a sum
 * of two carried ones is below 2^27.01 per limb, a difference (f + 2p - g)
 * below 2^27.6. Multiplication accepts limbs below 2^27.6: 19 g_j < 2^32,
 * each product < 2^60.5, a column of ten < 2^64. Nothing branches on or
 * indexes by a secret: the scalar's bits select by masks (fe_cswap). */
#include "fairdeal/x25519.h"

#include <stddef.h>

#include "fairdeal/util.h"
#include "word.h"

typedef uint32_t fe[10];

#define M26 0x3FFFFFFu
#define M25 0x1FFFFFFu

/* Width of limb i. */
#define LIMB_BITS(i) (((i) & 1u) ? 25u : 26u)

/* The full product of two 32-bit words. */
FD_HOT_INLINE uint64_t mul64(uint32_t a, uint32_t b)
{
    uint32_t lo;
    const uint32_t hi = fd_mul_wide(a, b, &lo);
    return ((uint64_t)hi << 32) | lo;
}

/* Carry 64-bit column sums into a carried element (bounds above). */
static void fe_carry(fe h, uint64_t t[10])
{
    for (unsigned i = 0; i < 9; i++) {
        const unsigned w = LIMB_BITS(i);
        t[i + 1] += t[i] >> w;
        t[i] &= (i & 1u) ? M25 : M26;
    }
    const uint64_t c = t[9] >> 25;
    t[9] &= M25;
    t[0] += (c << 4) + (c << 1) + c; /* 19 c without a 64-bit multiply call */
    t[1] += t[0] >> 26;
    t[0] &= M26;
    for (unsigned i = 0; i < 10; i++)
        h[i] = (uint32_t)t[i];
}

static void fe_mul(fe h, const fe f, const fe g)
{
    uint32_t g19[10];
    uint32_t f2[10];
    uint64_t t[10] = {0};
    for (unsigned i = 0; i < 10; i++) {
        g19[i] = 19u * g[i];
        f2[i] = 2u * f[i];
    }
    for (unsigned i = 0; i < 10; i++) {
        for (unsigned j = 0; j < 10; j++) {
            const uint32_t a = (i & j & 1u) ? f2[i] : f[i];
            const uint32_t b = (i + j >= 10u) ? g19[j] : g[j];
            t[(i + j) % 10u] += mul64(a, b);
        }
    }
    fe_carry(h, t);
}

/* f^2: the symmetric products once, doubled. */
static void fe_sq(fe h, const fe f)
{
    uint32_t f19[10];
    uint32_t f2[10];
    uint64_t t[10] = {0};
    for (unsigned i = 0; i < 10; i++) {
        f19[i] = 19u * f[i];
        f2[i] = 2u * f[i];
    }
    for (unsigned i = 0; i < 10; i++) {
        /* the square term f_i * f_i */
        const uint32_t a = (i & 1u) ? f2[i] : f[i];
        const uint32_t b = (2u * i >= 10u) ? f19[i] : f[i];
        t[(2u * i) % 10u] += mul64(a, b);
        /* the cross terms f_i * f_j, j > i, twice */
        for (unsigned j = i + 1; j < 10; j++) {
            const uint32_t c = (i & j & 1u) ? 2u * f2[i] : f2[i];
            const uint32_t d = (i + j >= 10u) ? f19[j] : f[j];
            t[(i + j) % 10u] += mul64(c, d);
        }
    }
    fe_carry(h, t);
}

static void fe_add(fe h, const fe f, const fe g)
{
    for (unsigned i = 0; i < 10; i++)
        h[i] = f[i] + g[i];
}

/* f - g + 2p, limb by limb; g carried. */
static void fe_sub(fe h, const fe f, const fe g)
{
    h[0] = f[0] + 0x7FFFFDAu - g[0];
    for (unsigned i = 1; i < 10; i++)
        h[i] = f[i] + ((i & 1u) ? 0x3FFFFFEu : 0x7FFFFFEu) - g[i];
}

/* f times a24 = 121665 (RFC 7748 §5). */
static void fe_mul_a24(fe h, const fe f)
{
    uint64_t t[10];
    for (unsigned i = 0; i < 10; i++)
        t[i] = mul64(f[i], 121665u);
    fe_carry(h, t);
}

/* Swap f and g when swap is 1, leave them when 0, by a mask. */
static void fe_cswap(fe f, fe g, uint32_t swap)
{
    const uint32_t mask = 0u - swap;
    for (unsigned i = 0; i < 10; i++) {
        const uint32_t x = mask & (f[i] ^ g[i]);
        f[i] ^= x;
        g[i] ^= x;
    }
}

static void fe_copy(fe h, const fe f)
{
    for (unsigned i = 0; i < 10; i++)
        h[i] = f[i];
}

/* Limb i starts at bit ceil(25.5 i): byte OFF/8, shift OFF%8; shift +
 * width never exceeds 32, so one 32-bit window holds each limb. */
static const uint8_t limb_offset[10] = {0, 26, 51, 77, 102, 128, 153, 179, 204, 230};

static void fe_frombytes(fe h, const uint8_t s[32])
{
    for (unsigned i = 0; i < 10; i++) {
        const unsigned off = limb_offset[i];
        h[i] = (fd_load_le32(s + off / 8u) >> (off % 8u)) & ((i & 1u) ? M25 : M26); /* bit 255 falls outside */
    }
}

/* The canonical encoding (value mod p), RFC 7748 §5. */
static void fe_tobytes(uint8_t s[32], const fe f)
{
    uint32_t h[10];
    fe_copy(h, f);
    for (unsigned pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; i < 9; i++) {
            h[i + 1] += h[i] >> LIMB_BITS(i);
            h[i] &= (i & 1u) ? M25 : M26;
        }
        const uint32_t c = h[9] >> 25;
        h[9] &= M25;
        h[0] += 19u * c;
    }
    /* now value < 2^255 + 19 < 2p: subtract p once when value + 19 >= 2^255 */
    uint32_t q = (h[0] + 19u) >> 26;
    for (unsigned i = 1; i < 10; i++)
        q = (h[i] + q) >> LIMB_BITS(i);
    h[0] += 19u * q;
    for (unsigned i = 0; i < 9; i++) {
        h[i + 1] += h[i] >> LIMB_BITS(i);
        h[i] &= (i & 1u) ? M25 : M26;
    }
    h[9] &= M25; /* drops q * 2^255 */
    for (unsigned i = 0; i < 32; i++)
        s[i] = 0;
    for (unsigned i = 0; i < 10; i++) {
        const unsigned off = limb_offset[i];
        const uint32_t v = h[i] << (off % 8u);
        uint8_t *p = s + off / 8u;
        p[0] |= (uint8_t)v;
        p[1] |= (uint8_t)(v >> 8);
        p[2] |= (uint8_t)(v >> 16);
        p[3] |= (uint8_t)(v >> 24);
    }
    fd_wipe(h, sizeof h);
}

/* h = f^(p-2) = 1/f (0 for 0): the fixed chain for 2^255 - 21. */
static void fe_invert(fe h, const fe f)
{
    fe z2, z9, z11, z5, z10, z20, z50, z100, t;
    fe_sq(z2, f);          /* 2 */
    fe_sq(t, z2);          /* 4 */
    fe_sq(t, t);           /* 8 */
    fe_mul(z9, t, f);      /* 9 */
    fe_mul(z11, z9, z2);   /* 11 */
    fe_sq(t, z11);         /* 22 */
    fe_mul(z5, t, z9);     /* 2^5 - 1 */
    fe_sq(t, z5);
    for (unsigned i = 1; i < 5; i++)
        fe_sq(t, t);
    fe_mul(z10, t, z5);    /* 2^10 - 1 */
    fe_sq(t, z10);
    for (unsigned i = 1; i < 10; i++)
        fe_sq(t, t);
    fe_mul(z20, t, z10);   /* 2^20 - 1 */
    fe_sq(t, z20);
    for (unsigned i = 1; i < 20; i++)
        fe_sq(t, t);
    fe_mul(t, t, z20);     /* 2^40 - 1 */
    for (unsigned i = 0; i < 10; i++)
        fe_sq(t, t);
    fe_mul(z50, t, z10);   /* 2^50 - 1 */
    fe_sq(t, z50);
    for (unsigned i = 1; i < 50; i++)
        fe_sq(t, t);
    fe_mul(z100, t, z50);  /* 2^100 - 1 */
    fe_sq(t, z100);
    for (unsigned i = 1; i < 100; i++)
        fe_sq(t, t);
    fe_mul(t, t, z100);    /* 2^200 - 1 */
    for (unsigned i = 0; i < 50; i++)
        fe_sq(t, t);
    fe_mul(t, t, z50);     /* 2^250 - 1 */
    for (unsigned i = 0; i < 5; i++)
        fe_sq(t, t);       /* 2^255 - 32 */
    fe_mul(h, t, z11);     /* 2^255 - 21 */
    fd_wipe(z2, sizeof z2);
    fd_wipe(z9, sizeof z9);
    fd_wipe(z11, sizeof z11);
    fd_wipe(z5, sizeof z5);
    fd_wipe(z10, sizeof z10);
    fd_wipe(z20, sizeof z20);
    fd_wipe(z50, sizeof z50);
    fd_wipe(z100, sizeof z100);
    fd_wipe(t, sizeof t);
}

void fd_x25519(uint8_t out[FD_X25519_SIZE], const uint8_t scalar[FD_X25519_SIZE], const uint8_t u[FD_X25519_SIZE])
{
    uint8_t k[32];
    for (unsigned i = 0; i < 32; i++)
        k[i] = scalar[i];
    k[0] &= 248u;
    k[31] = (uint8_t)((k[31] & 127u) | 64u);

    struct {
        fe x1, x2, z2, x3, z3, a, aa, b, bb, e, c, d, da, cb;
    } s;
    fe_frombytes(s.x1, u);
    for (unsigned i = 0; i < 10; i++) {
        s.x2[i] = 0;
        s.z2[i] = 0;
        s.z3[i] = 0;
    }
    s.x2[0] = 1;
    s.z3[0] = 1;
    fe_copy(s.x3, s.x1);

    uint32_t swap = 0;
    for (unsigned t = 255; t-- > 0;) {
        const uint32_t bit = (uint32_t)(k[t / 8u] >> (t % 8u)) & 1u;
        swap ^= bit;
        fe_cswap(s.x2, s.x3, swap);
        fe_cswap(s.z2, s.z3, swap);
        swap = bit;
        fe_add(s.a, s.x2, s.z2);
        fe_sq(s.aa, s.a);
        fe_sub(s.b, s.x2, s.z2);
        fe_sq(s.bb, s.b);
        fe_sub(s.e, s.aa, s.bb);
        fe_add(s.c, s.x3, s.z3);
        fe_sub(s.d, s.x3, s.z3);
        fe_mul(s.da, s.d, s.a);
        fe_mul(s.cb, s.c, s.b);
        fe_add(s.x3, s.da, s.cb);
        fe_sq(s.x3, s.x3);
        fe_sub(s.z3, s.da, s.cb);
        fe_sq(s.z3, s.z3);
        fe_mul(s.z3, s.z3, s.x1);
        fe_mul(s.x2, s.aa, s.bb);
        fe_mul_a24(s.z2, s.e);
        fe_add(s.z2, s.z2, s.aa);
        fe_mul(s.z2, s.z2, s.e);
    }
    fe_cswap(s.x2, s.x3, swap);
    fe_cswap(s.z2, s.z3, swap);
    fe_invert(s.z2, s.z2);
    fe_mul(s.x2, s.x2, s.z2);
    fe_tobytes(out, s.x2);
    fd_wipe(&s, sizeof s);
    fd_wipe(k, sizeof k);
}

void fd_x25519_public(uint8_t out[FD_X25519_SIZE], const uint8_t scalar[FD_X25519_SIZE])
{
    static const uint8_t base[FD_X25519_SIZE] = {9};
    fd_x25519(out, scalar, base);
}

fd_status fd_x25519_shared(uint8_t out[FD_X25519_SIZE], const uint8_t scalar[FD_X25519_SIZE],
                           const uint8_t peer[FD_X25519_SIZE])
{
    if (out == NULL || scalar == NULL || peer == NULL)
        return FD_ERR_NULL;
    fd_x25519(out, scalar, peer);
    uint8_t any = 0;
    for (unsigned i = 0; i < FD_X25519_SIZE; i++)
        any |= out[i];
    /* a public decision: the all-zero result is the peer's doing, not a secret */
    return any != 0 ? FD_OK : FD_ERR_PARSE;
}
