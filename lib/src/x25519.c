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
#define LIMB_BITS(i) (((i)&1u) ? 25u : 26u)

/* The full product of two 32-bit words. */
FD_HOT_INLINE uint64_t mul64(uint32_t a, uint32_t b)
{
    uint32_t lo;
    const uint32_t hi = fd_mul_wide(a, b, &lo);
    return ((uint64_t)hi << 32) | lo;
}

/* One carry step: limb i keeps its low w bits, limb i + 1 takes the rest. */
#define CARRY64(t, i, w)                                                                                               \
    do {                                                                                                               \
        (t)[(i) + 1] += (t)[i] >> (w);                                                                                 \
        (t)[i] &= (((uint64_t)1) << (w)) - 1u;                                                                         \
    } while (0)

/* Carry 64-bit column sums into a carried element (bounds above); written
 * out, so every shift is by a constant. */
static void fe_carry(fe h, uint64_t t[10])
{
    CARRY64(t, 0, 26);
    CARRY64(t, 1, 25);
    CARRY64(t, 2, 26);
    CARRY64(t, 3, 25);
    CARRY64(t, 4, 26);
    CARRY64(t, 5, 25);
    CARRY64(t, 6, 26);
    CARRY64(t, 7, 25);
    CARRY64(t, 8, 26);
    const uint64_t c = t[9] >> 25;
    t[9] &= M25;
    t[0] += (c << 4) + (c << 1) + c; /* 19 c without a 64-bit multiply call */
    CARRY64(t, 0, 26);
    for (unsigned i = 0; i < 10; i++) {
        h[i] = (uint32_t)t[i];
    }
}

/* Two forms of the field products, the same arithmetic: written-out 32 x 32
 * -> 64 products where the core has them, 16-bit halves on Cortex-M0. The
 * host tests build both (FD_X25519_FORCE_HALVES). */
#if FD_MUL_BY_HALVES || defined(FD_X25519_FORCE_HALVES)
/* Cortex-M0 (no 32 x 32 -> 64 multiply): every operand is split once into
 * 16-bit halves, and a column sums the four half products in three
 * accumulators, lo*lo, the cross terms and hi*hi, joined once per column
 * (the per-product recombination cost twice as much). hi*hi sums stay
 * below 2^32 because the whole column is below 2^64. */
#define HALF_TERM(a, b)                                                                                                \
    do {                                                                                                               \
        s0 += (uint32_t)(al[a] * bl[b]);                                                                               \
        s1 += (uint32_t)(al[a] * bh[b]);                                                                               \
        s1 += (uint32_t)(ah[a] * bl[b]);                                                                               \
        s2 += ah[a] * bh[b];                                                                                           \
    } while (0)
#define HALF_COLUMN_START                                                                                              \
    s0 = 0;                                                                                                            \
    s1 = 0;                                                                                                            \
    s2 = 0
#define HALF_COLUMN_END(k) t[k] = s0 + (s1 << 16) + ((uint64_t)s2 << 32)

static void split(uint32_t *lo, uint32_t *hi, uint32_t v)
{
    *lo = v & 0xFFFFu;
    *hi = v >> 16;
}

static void fe_mul(fe h, const fe f, const fe g)
{
    uint32_t al[15];
    uint32_t ah[15];
    uint32_t bl[19];
    uint32_t bh[19];
    uint64_t t[10];
    uint64_t s0;
    uint64_t s1;
    uint32_t s2;
    for (unsigned i = 0; i < 10; i++) {
        split(&al[i], &ah[i], f[i]);
        split(&bl[i], &bh[i], g[i]);
        if (i > 0) {
            split(&bl[9 + i], &bh[9 + i], 19u * g[i]);
        }
        if (i & 1u) {
            split(&al[10 + i / 2], &ah[10 + i / 2], 2u * f[i]);
        }
    }
    HALF_COLUMN_START;
    HALF_TERM(0, 0);
    HALF_TERM(10, 18);
    HALF_TERM(2, 17);
    HALF_TERM(11, 16);
    HALF_TERM(4, 15);
    HALF_TERM(12, 14);
    HALF_TERM(6, 13);
    HALF_TERM(13, 12);
    HALF_TERM(8, 11);
    HALF_TERM(14, 10);
    HALF_COLUMN_END(0);
    HALF_COLUMN_START;
    HALF_TERM(0, 1);
    HALF_TERM(1, 0);
    HALF_TERM(2, 18);
    HALF_TERM(3, 17);
    HALF_TERM(4, 16);
    HALF_TERM(5, 15);
    HALF_TERM(6, 14);
    HALF_TERM(7, 13);
    HALF_TERM(8, 12);
    HALF_TERM(9, 11);
    HALF_COLUMN_END(1);
    HALF_COLUMN_START;
    HALF_TERM(0, 2);
    HALF_TERM(10, 1);
    HALF_TERM(2, 0);
    HALF_TERM(11, 18);
    HALF_TERM(4, 17);
    HALF_TERM(12, 16);
    HALF_TERM(6, 15);
    HALF_TERM(13, 14);
    HALF_TERM(8, 13);
    HALF_TERM(14, 12);
    HALF_COLUMN_END(2);
    HALF_COLUMN_START;
    HALF_TERM(0, 3);
    HALF_TERM(1, 2);
    HALF_TERM(2, 1);
    HALF_TERM(3, 0);
    HALF_TERM(4, 18);
    HALF_TERM(5, 17);
    HALF_TERM(6, 16);
    HALF_TERM(7, 15);
    HALF_TERM(8, 14);
    HALF_TERM(9, 13);
    HALF_COLUMN_END(3);
    HALF_COLUMN_START;
    HALF_TERM(0, 4);
    HALF_TERM(10, 3);
    HALF_TERM(2, 2);
    HALF_TERM(11, 1);
    HALF_TERM(4, 0);
    HALF_TERM(12, 18);
    HALF_TERM(6, 17);
    HALF_TERM(13, 16);
    HALF_TERM(8, 15);
    HALF_TERM(14, 14);
    HALF_COLUMN_END(4);
    HALF_COLUMN_START;
    HALF_TERM(0, 5);
    HALF_TERM(1, 4);
    HALF_TERM(2, 3);
    HALF_TERM(3, 2);
    HALF_TERM(4, 1);
    HALF_TERM(5, 0);
    HALF_TERM(6, 18);
    HALF_TERM(7, 17);
    HALF_TERM(8, 16);
    HALF_TERM(9, 15);
    HALF_COLUMN_END(5);
    HALF_COLUMN_START;
    HALF_TERM(0, 6);
    HALF_TERM(10, 5);
    HALF_TERM(2, 4);
    HALF_TERM(11, 3);
    HALF_TERM(4, 2);
    HALF_TERM(12, 1);
    HALF_TERM(6, 0);
    HALF_TERM(13, 18);
    HALF_TERM(8, 17);
    HALF_TERM(14, 16);
    HALF_COLUMN_END(6);
    HALF_COLUMN_START;
    HALF_TERM(0, 7);
    HALF_TERM(1, 6);
    HALF_TERM(2, 5);
    HALF_TERM(3, 4);
    HALF_TERM(4, 3);
    HALF_TERM(5, 2);
    HALF_TERM(6, 1);
    HALF_TERM(7, 0);
    HALF_TERM(8, 18);
    HALF_TERM(9, 17);
    HALF_COLUMN_END(7);
    HALF_COLUMN_START;
    HALF_TERM(0, 8);
    HALF_TERM(10, 7);
    HALF_TERM(2, 6);
    HALF_TERM(11, 5);
    HALF_TERM(4, 4);
    HALF_TERM(12, 3);
    HALF_TERM(6, 2);
    HALF_TERM(13, 1);
    HALF_TERM(8, 0);
    HALF_TERM(14, 18);
    HALF_COLUMN_END(8);
    HALF_COLUMN_START;
    HALF_TERM(0, 9);
    HALF_TERM(1, 8);
    HALF_TERM(2, 7);
    HALF_TERM(3, 6);
    HALF_TERM(4, 5);
    HALF_TERM(5, 4);
    HALF_TERM(6, 3);
    HALF_TERM(7, 2);
    HALF_TERM(8, 1);
    HALF_TERM(9, 0);
    HALF_COLUMN_END(9);
    fe_carry(h, t);
}

/* f^2 as f * f: a written-out square (55 products instead of 100) is
 * 3.3 KiB more code than the micro:bit's flash has room for, for 1.2 M
 * fewer instructions per X25519 (docs/PERFORMANCE.md, link goals). */
static void fe_sq(fe h, const fe f) { fe_mul(h, f, f); }
#else
/* The products written out (a loop with its index tests and the column's
 * `% 10` cost several times more on Cortex-M0 at -Os). Column k gathers
 * f_i g_j for i + j = k (mod 10), as described at the top. */
static void fe_mul(fe h, const fe f, const fe g)
{
    const uint32_t f0 = f[0];
    const uint32_t f1 = f[1];
    const uint32_t f2 = f[2];
    const uint32_t f3 = f[3];
    const uint32_t f4 = f[4];
    const uint32_t f5 = f[5];
    const uint32_t f6 = f[6];
    const uint32_t f7 = f[7];
    const uint32_t f8 = f[8];
    const uint32_t f9 = f[9];
    const uint32_t g0 = g[0];
    const uint32_t g1 = g[1];
    const uint32_t g2 = g[2];
    const uint32_t g3 = g[3];
    const uint32_t g4 = g[4];
    const uint32_t g5 = g[5];
    const uint32_t g6 = g[6];
    const uint32_t g7 = g[7];
    const uint32_t g8 = g[8];
    const uint32_t g9 = g[9];
    const uint32_t f1_2 = 2u * f1;
    const uint32_t f3_2 = 2u * f3;
    const uint32_t f5_2 = 2u * f5;
    const uint32_t f7_2 = 2u * f7;
    const uint32_t f9_2 = 2u * f9;
    const uint32_t g1_19 = 19u * g1;
    const uint32_t g2_19 = 19u * g2;
    const uint32_t g3_19 = 19u * g3;
    const uint32_t g4_19 = 19u * g4;
    const uint32_t g5_19 = 19u * g5;
    const uint32_t g6_19 = 19u * g6;
    const uint32_t g7_19 = 19u * g7;
    const uint32_t g8_19 = 19u * g8;
    const uint32_t g9_19 = 19u * g9;
    uint64_t t[10];
    t[0] = mul64(f0, g0) + mul64(f1_2, g9_19) + mul64(f2, g8_19) + mul64(f3_2, g7_19) + mul64(f4, g6_19) +
           mul64(f5_2, g5_19) + mul64(f6, g4_19) + mul64(f7_2, g3_19) + mul64(f8, g2_19) + mul64(f9_2, g1_19);
    t[1] = mul64(f0, g1) + mul64(f1, g0) + mul64(f2, g9_19) + mul64(f3, g8_19) + mul64(f4, g7_19) + mul64(f5, g6_19) +
           mul64(f6, g5_19) + mul64(f7, g4_19) + mul64(f8, g3_19) + mul64(f9, g2_19);
    t[2] = mul64(f0, g2) + mul64(f1_2, g1) + mul64(f2, g0) + mul64(f3_2, g9_19) + mul64(f4, g8_19) +
           mul64(f5_2, g7_19) + mul64(f6, g6_19) + mul64(f7_2, g5_19) + mul64(f8, g4_19) + mul64(f9_2, g3_19);
    t[3] = mul64(f0, g3) + mul64(f1, g2) + mul64(f2, g1) + mul64(f3, g0) + mul64(f4, g9_19) + mul64(f5, g8_19) +
           mul64(f6, g7_19) + mul64(f7, g6_19) + mul64(f8, g5_19) + mul64(f9, g4_19);
    t[4] = mul64(f0, g4) + mul64(f1_2, g3) + mul64(f2, g2) + mul64(f3_2, g1) + mul64(f4, g0) + mul64(f5_2, g9_19) +
           mul64(f6, g8_19) + mul64(f7_2, g7_19) + mul64(f8, g6_19) + mul64(f9_2, g5_19);
    t[5] = mul64(f0, g5) + mul64(f1, g4) + mul64(f2, g3) + mul64(f3, g2) + mul64(f4, g1) + mul64(f5, g0) +
           mul64(f6, g9_19) + mul64(f7, g8_19) + mul64(f8, g7_19) + mul64(f9, g6_19);
    t[6] = mul64(f0, g6) + mul64(f1_2, g5) + mul64(f2, g4) + mul64(f3_2, g3) + mul64(f4, g2) + mul64(f5_2, g1) +
           mul64(f6, g0) + mul64(f7_2, g9_19) + mul64(f8, g8_19) + mul64(f9_2, g7_19);
    t[7] = mul64(f0, g7) + mul64(f1, g6) + mul64(f2, g5) + mul64(f3, g4) + mul64(f4, g3) + mul64(f5, g2) +
           mul64(f6, g1) + mul64(f7, g0) + mul64(f8, g9_19) + mul64(f9, g8_19);
    t[8] = mul64(f0, g8) + mul64(f1_2, g7) + mul64(f2, g6) + mul64(f3_2, g5) + mul64(f4, g4) + mul64(f5_2, g3) +
           mul64(f6, g2) + mul64(f7_2, g1) + mul64(f8, g0) + mul64(f9_2, g9_19);
    t[9] = mul64(f0, g9) + mul64(f1, g8) + mul64(f2, g7) + mul64(f3, g6) + mul64(f4, g5) + mul64(f5, g4) +
           mul64(f6, g3) + mul64(f7, g2) + mul64(f8, g1) + mul64(f9, g0);
    fe_carry(h, t);
}

/* f^2: the symmetric products once, doubled (f_i_2, f_i_4). */
static void fe_sq(fe h, const fe f)
{
    const uint32_t f0 = f[0];
    const uint32_t f1 = f[1];
    const uint32_t f2 = f[2];
    const uint32_t f3 = f[3];
    const uint32_t f4 = f[4];
    const uint32_t f5 = f[5];
    const uint32_t f6 = f[6];
    const uint32_t f7 = f[7];
    const uint32_t f8 = f[8];
    const uint32_t f9 = f[9];
    const uint32_t f0_2 = 2u * f0;
    const uint32_t f1_2 = 2u * f1;
    const uint32_t f2_2 = 2u * f2;
    const uint32_t f3_2 = 2u * f3;
    const uint32_t f4_2 = 2u * f4;
    const uint32_t f5_2 = 2u * f5;
    const uint32_t f6_2 = 2u * f6;
    const uint32_t f7_2 = 2u * f7;
    const uint32_t f8_2 = 2u * f8;
    const uint32_t f9_2 = 2u * f9;
    const uint32_t f1_4 = 4u * f1;
    const uint32_t f3_4 = 4u * f3;
    const uint32_t f5_4 = 4u * f5;
    const uint32_t f7_4 = 4u * f7;
    const uint32_t f5_19 = 19u * f5;
    const uint32_t f6_19 = 19u * f6;
    const uint32_t f7_19 = 19u * f7;
    const uint32_t f8_19 = 19u * f8;
    const uint32_t f9_19 = 19u * f9;
    uint64_t t[10];
    t[0] = mul64(f0, f0) + mul64(f1_4, f9_19) + mul64(f2_2, f8_19) + mul64(f3_4, f7_19) + mul64(f4_2, f6_19) +
           mul64(f5_2, f5_19);
    t[1] = mul64(f0_2, f1) + mul64(f2_2, f9_19) + mul64(f3_2, f8_19) + mul64(f4_2, f7_19) + mul64(f5_2, f6_19);
    t[2] = mul64(f0_2, f2) + mul64(f1_2, f1) + mul64(f3_4, f9_19) + mul64(f4_2, f8_19) + mul64(f5_4, f7_19) +
           mul64(f6, f6_19);
    t[3] = mul64(f0_2, f3) + mul64(f1_2, f2) + mul64(f4_2, f9_19) + mul64(f5_2, f8_19) + mul64(f6_2, f7_19);
    t[4] = mul64(f0_2, f4) + mul64(f1_4, f3) + mul64(f2, f2) + mul64(f5_4, f9_19) + mul64(f6_2, f8_19) +
           mul64(f7_2, f7_19);
    t[5] = mul64(f0_2, f5) + mul64(f1_2, f4) + mul64(f2_2, f3) + mul64(f6_2, f9_19) + mul64(f7_2, f8_19);
    t[6] =
        mul64(f0_2, f6) + mul64(f1_4, f5) + mul64(f2_2, f4) + mul64(f3_2, f3) + mul64(f7_4, f9_19) + mul64(f8, f8_19);
    t[7] = mul64(f0_2, f7) + mul64(f1_2, f6) + mul64(f2_2, f5) + mul64(f3_2, f4) + mul64(f8_2, f9_19);
    t[8] = mul64(f0_2, f8) + mul64(f1_4, f7) + mul64(f2_2, f6) + mul64(f3_4, f5) + mul64(f4, f4) + mul64(f9_2, f9_19);
    t[9] = mul64(f0_2, f9) + mul64(f1_2, f8) + mul64(f2_2, f7) + mul64(f3_2, f6) + mul64(f4_2, f5);
    fe_carry(h, t);
}
#endif

static void fe_add(fe h, const fe f, const fe g)
{
    for (unsigned i = 0; i < 10; i++) {
        h[i] = f[i] + g[i];
    }
}

/* f - g + 2p, limb by limb; g carried. */
static void fe_sub(fe h, const fe f, const fe g)
{
    h[0] = f[0] + 0x7FFFFDAu - g[0];
    for (unsigned i = 1; i < 10; i++) {
        h[i] = f[i] + ((i & 1u) ? 0x3FFFFFEu : 0x7FFFFFEu) - g[i];
    }
}

/* f times a24 + 1 = 121666 (RFC 7748 §5 has a24 = 121665 and AA + a24 E;
 * the ladder uses the equal BB + 121666 E, as AA = BB + E). */
static void fe_mul_a24(fe h, const fe f)
{
    uint64_t t[10];
    for (unsigned i = 0; i < 10; i++) {
        t[i] = mul64(f[i], 121666u);
    }
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
    for (unsigned i = 0; i < 10; i++) {
        h[i] = f[i];
    }
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
    for (unsigned i = 1; i < 10; i++) {
        q = (h[i] + q) >> LIMB_BITS(i);
    }
    h[0] += 19u * q;
    for (unsigned i = 0; i < 9; i++) {
        h[i + 1] += h[i] >> LIMB_BITS(i);
        h[i] &= (i & 1u) ? M25 : M26;
    }
    h[9] &= M25; /* drops q * 2^255 */
    for (unsigned i = 0; i < 32; i++) {
        s[i] = 0;
    }
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
    fe z2;
    fe z9;
    fe z11;
    fe z5;
    fe z10;
    fe z20;
    fe z50;
    fe z100;
    fe t;
    fe_sq(z2, f);        /* 2 */
    fe_sq(t, z2);        /* 4 */
    fe_sq(t, t);         /* 8 */
    fe_mul(z9, t, f);    /* 9 */
    fe_mul(z11, z9, z2); /* 11 */
    fe_sq(t, z11);       /* 22 */
    fe_mul(z5, t, z9);   /* 2^5 - 1 */
    fe_sq(t, z5);
    for (unsigned i = 1; i < 5; i++) {
        fe_sq(t, t);
    }
    fe_mul(z10, t, z5); /* 2^10 - 1 */
    fe_sq(t, z10);
    for (unsigned i = 1; i < 10; i++) {
        fe_sq(t, t);
    }
    fe_mul(z20, t, z10); /* 2^20 - 1 */
    fe_sq(t, z20);
    for (unsigned i = 1; i < 20; i++) {
        fe_sq(t, t);
    }
    fe_mul(t, t, z20); /* 2^40 - 1 */
    for (unsigned i = 0; i < 10; i++) {
        fe_sq(t, t);
    }
    fe_mul(z50, t, z10); /* 2^50 - 1 */
    fe_sq(t, z50);
    for (unsigned i = 1; i < 50; i++) {
        fe_sq(t, t);
    }
    fe_mul(z100, t, z50); /* 2^100 - 1 */
    fe_sq(t, z100);
    for (unsigned i = 1; i < 100; i++) {
        fe_sq(t, t);
    }
    fe_mul(t, t, z100); /* 2^200 - 1 */
    for (unsigned i = 0; i < 50; i++) {
        fe_sq(t, t);
    }
    fe_mul(t, t, z50); /* 2^250 - 1 */
    for (unsigned i = 0; i < 5; i++) {
        fe_sq(t, t); /* 2^255 - 32 */
    }
    fe_mul(h, t, z11); /* 2^255 - 21 */
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
    for (unsigned i = 0; i < 32; i++) {
        k[i] = scalar[i];
    }
    k[0] &= 248u;
    k[31] = (uint8_t)((k[31] & 127u) | 64u);

    /* seven elements, reused in the order below (the RFC's A..CB named) */
    struct {
        fe x1, x2, z2, x3, z3, t0, t1;
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
        fe_sub(s.t0, s.x3, s.z3); /* D */
        fe_sub(s.t1, s.x2, s.z2); /* B */
        fe_add(s.x2, s.x2, s.z2); /* A */
        fe_add(s.z2, s.x3, s.z3); /* C */
        fe_mul(s.z3, s.t0, s.x2); /* DA */
        fe_mul(s.z2, s.z2, s.t1); /* CB */
        fe_sq(s.t0, s.t1);        /* BB */
        fe_sq(s.t1, s.x2);        /* AA */
        fe_add(s.x3, s.z3, s.z2); /* DA + CB */
        fe_sub(s.z2, s.z3, s.z2); /* DA - CB */
        fe_mul(s.x2, s.t1, s.t0); /* x2 = AA * BB */
        fe_sub(s.t1, s.t1, s.t0); /* E = AA - BB */
        fe_sq(s.z2, s.z2);        /* (DA - CB)^2 */
        fe_mul_a24(s.z3, s.t1);   /* (a24 + 1) E */
        fe_sq(s.x3, s.x3);        /* x3 = (DA + CB)^2 */
        fe_add(s.t0, s.t0, s.z3); /* BB + (a24 + 1) E = AA + a24 E */
        fe_mul(s.z3, s.x1, s.z2); /* z3 = x1 (DA - CB)^2 */
        fe_mul(s.z2, s.t1, s.t0); /* z2 = E (AA + a24 E) */
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
    if (out == NULL || scalar == NULL || peer == NULL) {
        return FD_ERR_NULL;
    }
    fd_x25519(out, scalar, peer);
    uint8_t any = 0;
    for (unsigned i = 0; i < FD_X25519_SIZE; i++) {
        any |= out[i];
    }
    /* a public decision: the all-zero result is the peer's doing, not a secret */
    return any != 0 ? FD_OK : FD_ERR_PARSE;
}
