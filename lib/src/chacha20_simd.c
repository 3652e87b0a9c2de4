/* The forms of the ChaCha20 block function (see chacha20_simd.h): the
 * portable C reference, and on x86-64 the vector forms of the DRBG's
 * four-block refill, the same words bit for bit. In the vector forms the
 * state lives in registers; what the compiler spills is not wiped (C cannot
 * reach it), the output is the caller's buffer. */
#include "chacha20_simd.h"

#include <stddef.h>
#include <string.h>

static uint32_t rotl(uint32_t x, unsigned n) { return (x << n) | (x >> (32u - n)); }

#define QUARTER(a, b, c, d)                                                                                            \
    do {                                                                                                               \
        (a) += (b);                                                                                                    \
        (d) ^= (a);                                                                                                    \
        (d) = rotl((d), 16);                                                                                           \
        (c) += (d);                                                                                                    \
        (b) ^= (c);                                                                                                    \
        (b) = rotl((b), 12);                                                                                           \
        (a) += (b);                                                                                                    \
        (d) ^= (a);                                                                                                    \
        (d) = rotl((d), 8);                                                                                            \
        (c) += (d);                                                                                                    \
        (b) ^= (c);                                                                                                    \
        (b) = rotl((b), 7);                                                                                            \
    } while (0)

/* The 20 rounds (ten column + diagonal double rounds) on words x[0..15]
 * with quarter-round q: scalar words here, vectors of four blocks below. */
#define TWENTY_ROUNDS(q, x)                                                                                            \
    do {                                                                                                               \
        for (int r_ = 0; r_ < 10; r_++) {                                                                              \
            q((x)[0], (x)[4], (x)[8], (x)[12]);                                                                        \
            q((x)[1], (x)[5], (x)[9], (x)[13]);                                                                        \
            q((x)[2], (x)[6], (x)[10], (x)[14]);                                                                       \
            q((x)[3], (x)[7], (x)[11], (x)[15]);                                                                       \
            q((x)[0], (x)[5], (x)[10], (x)[15]);                                                                       \
            q((x)[1], (x)[6], (x)[11], (x)[12]);                                                                       \
            q((x)[2], (x)[7], (x)[8], (x)[13]);                                                                        \
            q((x)[3], (x)[4], (x)[9], (x)[14]);                                                                        \
        }                                                                                                              \
    } while (0)

void fd_chacha20_block_ref(const uint32_t in[16], uint32_t extra, uint32_t x[16])
{
    /* The rounds run in the output itself: no stack copy of the state. */
    memcpy(x, in, 16u * sizeof x[0]);
    x[12] += extra;
    TWENTY_ROUNDS(QUARTER, x);
    for (size_t i = 0; i < 16u; i++) {
        x[i] += in[i];
    }
    x[12] += extra;
}

void fd_chacha20_blocks4_ref(const uint32_t in[16], uint32_t out[64])
{
    for (size_t blk = 0; blk < 4u; blk++) {
        fd_chacha20_block_ref(in, (uint32_t)blk, out + 16u * blk);
    }
}

#if FD_CHACHA20_X86

#include <immintrin.h>

/* SSE2 and AVX-512: vector i holds word i of the four blocks (lane b =
 * block b); rot(x, n) rotates each lane left by n. */
#define ROTL128(x, n) _mm_or_si128(_mm_slli_epi32((x), (n)), _mm_srli_epi32((x), 32 - (n)))
#define ROTL128_16(x) _mm_shufflehi_epi16(_mm_shufflelo_epi16((x), 0xB1), 0xB1)
#define ROTL128_SSE2(x, n) ((n) == 16 ? ROTL128_16(x) : ROTL128((x), (n)))
#define QUARTER_LANES(rot, a, b, c, d)                                                                                 \
    do {                                                                                                               \
        (a) = _mm_add_epi32((a), (b));                                                                                 \
        (d) = rot(_mm_xor_si128((d), (a)), 16);                                                                        \
        (c) = _mm_add_epi32((c), (d));                                                                                 \
        (b) = rot(_mm_xor_si128((b), (c)), 12);                                                                        \
        (a) = _mm_add_epi32((a), (b));                                                                                 \
        (d) = rot(_mm_xor_si128((d), (a)), 8);                                                                         \
        (c) = _mm_add_epi32((c), (d));                                                                                 \
        (b) = rot(_mm_xor_si128((b), (c)), 7);                                                                         \
    } while (0)
#define QUARTER128(a, b, c, d) QUARTER_LANES(ROTL128_SSE2, a, b, c, d)

/* Rows r..r+3 of the four blocks, lanes = blocks, to out in block order. */
static void store_transposed(__m128i r0, __m128i r1, __m128i r2, __m128i r3, uint32_t *out)
{
    const __m128i t0 = _mm_unpacklo_epi32(r0, r1); /* b0w0 b0w1 b1w0 b1w1 */
    const __m128i t1 = _mm_unpackhi_epi32(r0, r1); /* b2w0 b2w1 b3w0 b3w1 */
    const __m128i t2 = _mm_unpacklo_epi32(r2, r3);
    const __m128i t3 = _mm_unpackhi_epi32(r2, r3);
    _mm_storeu_si128((__m128i *)(void *)out, _mm_unpacklo_epi64(t0, t2));
    _mm_storeu_si128((__m128i *)(void *)(out + 16), _mm_unpackhi_epi64(t0, t2));
    _mm_storeu_si128((__m128i *)(void *)(out + 32), _mm_unpacklo_epi64(t1, t3));
    _mm_storeu_si128((__m128i *)(void *)(out + 48), _mm_unpackhi_epi64(t1, t3));
}

/* The four-block refill in lanes, with quarter-round q. */
#define BLOCKS4_LANES(q, in, out)                                                                                      \
    do {                                                                                                               \
        const __m128i counters_ = _mm_setr_epi32(0, 1, 2, 3);                                                          \
        __m128i x_[16];                                                                                                \
        for (int i_ = 0; i_ < 16; i_++) {                                                                              \
            x_[i_] = _mm_set1_epi32((int)(in)[i_]);                                                                    \
        }                                                                                                              \
        x_[12] = _mm_add_epi32(x_[12], counters_);                                                                     \
        TWENTY_ROUNDS(q, x_);                                                                                          \
        for (int i_ = 0; i_ < 16; i_++) {                                                                              \
            x_[i_] = _mm_add_epi32(x_[i_], _mm_set1_epi32((int)(in)[i_]));                                             \
        }                                                                                                              \
        x_[12] = _mm_add_epi32(x_[12], counters_);                                                                     \
        for (int r_ = 0; r_ < 16; r_ += 4) {                                                                           \
            store_transposed(x_[r_], x_[r_ + 1], x_[r_ + 2], x_[r_ + 3], (out) + r_);                                  \
        }                                                                                                              \
    } while (0)

void fd_chacha20_blocks4_sse2(const uint32_t in[16], uint32_t out[64]) { BLOCKS4_LANES(QUARTER128, in, out); }

/* AVX-512 (F and VL): the SSE2 layout, four blocks in the lanes of
 * sixteen 128-bit registers, with vprold rotating in one instruction. On
 * Zen 5 every vector operation takes 2 cycles, so a refill is latency
 * bound: here a round is the four independent quarter-rounds' chain of 12
 * operations, 24 cycles, with no shuffle between column and diagonal
 * rounds (the AVX2 form: 26 with vprold, 30 without). The 32 vector
 * registers hold the state without spilling. */
#define FD_AVX512 __attribute__((target("avx512f,avx512vl")))
#define QUARTER_VL(a, b, c, d) QUARTER_LANES(_mm_rol_epi32, a, b, c, d)

FD_AVX512 void fd_chacha20_blocks4_avx512(const uint32_t in[16], uint32_t out[64])
{
    BLOCKS4_LANES(QUARTER_VL, in, out);
}

/* AVX2: one register per row of two blocks (low lane block k, high lane
 * block k+1); the diagonal round rotates rows b, c, d within each lane. */
#define FD_AVX2 __attribute__((target("avx2")))
#define ROTL256(x, n) _mm256_or_si256(_mm256_slli_epi32((x), (n)), _mm256_srli_epi32((x), 32 - (n)))
#define HALF256(a, b, c, d, rot_a, rot_b)                                                                              \
    do {                                                                                                               \
        (a) = _mm256_add_epi32((a), (b));                                                                              \
        (d) = _mm256_shuffle_epi8(_mm256_xor_si256((d), (a)), (rot_a));                                                \
        (c) = _mm256_add_epi32((c), (d));                                                                              \
        (b) = ROTL256(_mm256_xor_si256((b), (c)), rot_b);                                                              \
    } while (0)
#define QUARTER256(a, b, c, d)                                                                                         \
    do {                                                                                                               \
        HALF256(a, b, c, d, rot16, 12);                                                                                \
        HALF256(a, b, c, d, rot8, 7);                                                                                  \
    } while (0)

#define DIAGONALIZE(b, c, d)                                                                                           \
    do {                                                                                                               \
        (b) = _mm256_shuffle_epi32((b), 0x39); /* (x5, x6, x7, x4) */                                                  \
        (c) = _mm256_shuffle_epi32((c), 0x4E); /* (x10, x11, x8, x9) */                                                \
        (d) = _mm256_shuffle_epi32((d), 0x93); /* (x15, x12, x13, x14) */                                              \
    } while (0)
#define UNDIAGONALIZE(b, c, d)                                                                                         \
    do {                                                                                                               \
        (b) = _mm256_shuffle_epi32((b), 0x93);                                                                         \
        (c) = _mm256_shuffle_epi32((c), 0x4E);                                                                         \
        (d) = _mm256_shuffle_epi32((d), 0x39);                                                                         \
    } while (0)

/* Row r of the state in both 128-bit lanes. */
FD_AVX2 static __m256i row(const uint32_t in[16], size_t r)
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(in + 4u * r)));
}

/* Block words of one register pair: low lanes are the first block, high
 * lanes the second. */
FD_AVX2 static void store_pair(__m256i a, __m256i b, __m256i c, __m256i d, uint32_t *out)
{
    _mm256_storeu_si256((__m256i *)(void *)out, _mm256_permute2x128_si256(a, b, 0x20));
    _mm256_storeu_si256((__m256i *)(void *)(out + 8), _mm256_permute2x128_si256(c, d, 0x20));
    _mm256_storeu_si256((__m256i *)(void *)(out + 16), _mm256_permute2x128_si256(a, b, 0x31));
    _mm256_storeu_si256((__m256i *)(void *)(out + 24), _mm256_permute2x128_si256(c, d, 0x31));
}

FD_AVX2 void fd_chacha20_blocks4_avx2(const uint32_t in[16], uint32_t out[64])
{
    const __m256i rot16 = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5,
                                           10, 11, 8, 9, 14, 15, 12, 13);
    const __m256i rot8 = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6,
                                          11, 8, 9, 10, 15, 12, 13, 14);
    const __m256i sa = row(in, 0);
    const __m256i sb = row(in, 1);
    const __m256i sc = row(in, 2);
    const __m256i sd0 = _mm256_add_epi32(row(in, 3), _mm256_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0));
    const __m256i sd1 = _mm256_add_epi32(row(in, 3), _mm256_setr_epi32(2, 0, 0, 0, 3, 0, 0, 0));
    /* blocks 0 and 1 in a0..d0, blocks 2 and 3 in a1..d1: two independent chains */
    __m256i a0 = sa;
    __m256i b0 = sb;
    __m256i c0 = sc;
    __m256i d0 = sd0;
    __m256i a1 = sa;
    __m256i b1 = sb;
    __m256i c1 = sc;
    __m256i d1 = sd1;
    for (int r = 0; r < 10; r++) {
        QUARTER256(a0, b0, c0, d0);
        QUARTER256(a1, b1, c1, d1);
        DIAGONALIZE(b0, c0, d0);
        DIAGONALIZE(b1, c1, d1);
        QUARTER256(a0, b0, c0, d0);
        QUARTER256(a1, b1, c1, d1);
        UNDIAGONALIZE(b0, c0, d0);
        UNDIAGONALIZE(b1, c1, d1);
    }
    store_pair(_mm256_add_epi32(a0, sa), _mm256_add_epi32(b0, sb), _mm256_add_epi32(c0, sc), _mm256_add_epi32(d0, sd0),
               out);
    store_pair(_mm256_add_epi32(a1, sa), _mm256_add_epi32(b1, sb), _mm256_add_epi32(c1, sc), _mm256_add_epi32(d1, sd1),
               out + 32);
}

#endif
