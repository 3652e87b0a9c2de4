/* Sixteen batch groups decoded at once on x86-64 (see batch_x86.h). */
#include "batch_x86.h"

#if FD_BATCH_X86

#include <immintrin.h>

#define FD_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))

/* Where output word k of a fill of sixteen groups, `threes` (0..16) of
 * 3 bounds then the rest of 4, comes from: draw s of group g, which the
 * steps leave at 16 * s + g of the 64 words of two registers (steps 0-1,
 * then 2-3). */
#define FROM(k, threes)                                                                                                \
    (uint16_t)((k) < 3u * (threes) ? 16u * ((k) % 3u) + (k) / 3u                                                       \
                                   : 16u * (((k)-3u * (threes)) % 4u) + (threes) + ((k)-3u * (threes)) / 4u)
#define FROM8(k, threes)                                                                                               \
    FROM(k, threes), FROM((k) + 1u, threes), FROM((k) + 2u, threes), FROM((k) + 3u, threes), FROM((k) + 4u, threes),   \
        FROM((k) + 5u, threes), FROM((k) + 6u, threes), FROM((k) + 7u, threes)
#define FROM64(threes)                                                                                                 \
    {                                                                                                                  \
        FROM8(0u, threes), FROM8(8u, threes), FROM8(16u, threes), FROM8(24u, threes), FROM8(32u, threes),              \
            FROM8(40u, threes), FROM8(48u, threes), FROM8(56u, threes)                                                 \
    }
static const uint16_t from_step[17][64] = {
    FROM64(0u), FROM64(1u),  FROM64(2u),  FROM64(3u),  FROM64(4u),  FROM64(5u),  FROM64(6u),  FROM64(7u),  FROM64(8u),
    FROM64(9u), FROM64(10u), FROM64(11u), FROM64(12u), FROM64(13u), FROM64(14u), FROM64(15u), FROM64(16u),
};
#undef FROM64
#undef FROM8
#undef FROM

/* The sixteen groups' draws of one step as 16-bit words: the high halves
 * of the products, groups 0-7 then 8-15. */
FD_AVX512 static __m256i step_draws(__m512i x_low, __m512i x_high)
{
    const __m128i low = _mm512_cvtepi64_epi16(_mm512_srli_epi64(x_low, 32));
    const __m128i high = _mm512_cvtepi64_epi16(_mm512_srli_epi64(x_high, 32));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1);
}

/* Lanes whose final low part (x's low half) is below 2^32 mod their
 * product (every product here is at least 2). */
FD_AVX512 static __mmask8 rejected8(__m512i x, __m512i product)
{
    const __m512i quotient =
        _mm512_cvttpd_epu64(_mm512_div_pd(_mm512_set1_pd(4294967296.0), _mm512_cvtepu64_pd(product)));
    const __m512i threshold = _mm512_sub_epi64(_mm512_set1_epi64(1LL << 32), _mm512_mul_epu32(quotient, product));
    return _mm512_cmplt_epu64_mask(_mm512_and_si512(x, _mm512_set1_epi64(0xFFFFFFFFLL)), threshold);
}

FD_AVX512 uint32_t fd_batch_decode16_avx512(const uint32_t *words, size_t threes, uint32_t first_bound, uint16_t *out)
{
    /* group g's first draw: 3 per group before it, 1 more per 4-bound one */
    const __m512i group_low = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    const __m512i group_high = _mm512_add_epi64(group_low, _mm512_set1_epi64(8));
    const __m512i m = _mm512_set1_epi64((long long)threes);
    const __m512i first = _mm512_set1_epi64((long long)first_bound);
    __m512i bound_low =
        _mm512_sub_epi64(first, _mm512_sub_epi64(_mm512_slli_epi64(group_low, 2), _mm512_min_epu64(group_low, m)));
    __m512i bound_high =
        _mm512_sub_epi64(first, _mm512_sub_epi64(_mm512_slli_epi64(group_high, 2), _mm512_min_epu64(group_high, m)));
    __m512i x_low = _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)(const void *)words));
    __m512i x_high = _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(words + 8)));
    const __m512i one = _mm512_set1_epi64(1);
    __m512i product_low = one;
    __m512i product_high = one;
    __m256i draws[4];
    /* four steps, unrolled (the draws stay in registers); the fourth only
     * in the 4-bound groups' lanes */
    const unsigned fourth = 0xFFFFu & (0xFFFFu << threes);
#define STEP(s, live_low, live_high)                                                                                   \
    do {                                                                                                               \
        x_low = _mm512_mask_mul_epu32(x_low, (live_low), x_low, bound_low);                                            \
        x_high = _mm512_mask_mul_epu32(x_high, (live_high), x_high, bound_high);                                       \
        product_low = _mm512_mask_mul_epu32(product_low, (live_low), product_low, bound_low);                          \
        product_high = _mm512_mask_mul_epu32(product_high, (live_high), product_high, bound_high);                     \
        bound_low = _mm512_sub_epi64(bound_low, one);                                                                  \
        bound_high = _mm512_sub_epi64(bound_high, one);                                                                \
        draws[s] = step_draws(x_low, x_high);                                                                          \
    } while (0)
    STEP(0, 0xFF, 0xFF);
    STEP(1, 0xFF, 0xFF);
    STEP(2, 0xFF, 0xFF);
    STEP(3, (__mmask8)fourth, (__mmask8)(fourth >> 8));
#undef STEP
    const __m512i steps01 = _mm512_inserti64x4(_mm512_castsi256_si512(draws[0]), draws[1], 1);
    const __m512i steps23 = _mm512_inserti64x4(_mm512_castsi256_si512(draws[2]), draws[3], 1);
    const uint16_t *from = from_step[threes];
    const __m512i first32 = _mm512_permutex2var_epi16(steps01, _mm512_loadu_si512((const void *)from), steps23);
    const __m512i next32 = _mm512_permutex2var_epi16(steps01, _mm512_loadu_si512((const void *)(from + 32)), steps23);
    _mm512_storeu_si512((void *)out, first32);
    /* 64 - threes draws: the second store only as far as the fill's draws */
    _mm512_mask_storeu_epi16(out + 32, (__mmask32)(0xFFFFFFFFu >> threes), next32);
    return (uint32_t)rejected8(x_low, product_low) | ((uint32_t)rejected8(x_high, product_high) << 8);
}

#else
typedef int fd_batch_x86_unused; /* ISO C: a translation unit declares something */
#endif
