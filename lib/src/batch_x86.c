/* Sixteen batch groups decoded at once on x86-64 (see batch_x86.h). */
#include "batch_x86.h"

#if FD_BATCH_X86

#include <immintrin.h>

#define FD_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))

/* Where output word k of a fill of sixteen groups of len 3 or 4 comes
 * from: draw s = k % len of group g = k / len, which the steps leave at
 * 16 * s + g of the 64 words of two registers (steps 0-1, then 2-3). */
static const uint16_t from_step[2][64] = {
#define FROM(k, len) (uint16_t)(16u * ((k) % (len)) + (k) / (len))
#define FROM8(k, len)                                                                                                  \
    FROM(k, len), FROM((k) + 1u, len), FROM((k) + 2u, len), FROM((k) + 3u, len), FROM((k) + 4u, len),                  \
        FROM((k) + 5u, len), FROM((k) + 6u, len), FROM((k) + 7u, len)
    {FROM8(0u, 3u), FROM8(8u, 3u), FROM8(16u, 3u), FROM8(24u, 3u), FROM8(32u, 3u), FROM8(40u, 3u), FROM8(48u, 3u),
     FROM8(56u, 3u)},
    {FROM8(0u, 4u), FROM8(8u, 4u), FROM8(16u, 4u), FROM8(24u, 4u), FROM8(32u, 4u), FROM8(40u, 4u), FROM8(48u, 4u),
     FROM8(56u, 4u)},
#undef FROM8
#undef FROM
};

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

FD_AVX512 uint32_t fd_batch_decode16_avx512(const uint32_t *words, size_t len, uint32_t first_bound, uint16_t *out)
{
    const __m512i group = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    const __m512i eight_groups = _mm512_set1_epi64(8 * (long long)len);
    __m512i bound_low = _mm512_sub_epi64(_mm512_set1_epi64((long long)first_bound),
                                         _mm512_mullo_epi64(group, _mm512_set1_epi64((long long)len)));
    __m512i bound_high = _mm512_sub_epi64(bound_low, eight_groups);
    __m512i x_low = _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)(const void *)words));
    __m512i x_high = _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)(const void *)(words + 8)));
    __m512i product_low = _mm512_set1_epi64(1);
    __m512i product_high = product_low;
    const __m512i one = _mm512_set1_epi64(1);
    __m256i draws[4];
    /* three or four steps, unrolled: the draws stay in registers */
#define STEP(s)                                                                                                        \
    do {                                                                                                               \
        x_low = _mm512_mul_epu32(x_low, bound_low);                                                                    \
        x_high = _mm512_mul_epu32(x_high, bound_high);                                                                 \
        product_low = _mm512_mul_epu32(product_low, bound_low);                                                        \
        product_high = _mm512_mul_epu32(product_high, bound_high);                                                     \
        bound_low = _mm512_sub_epi64(bound_low, one);                                                                  \
        bound_high = _mm512_sub_epi64(bound_high, one);                                                                \
        draws[s] = step_draws(x_low, x_high);                                                                          \
    } while (0)
    STEP(0);
    STEP(1);
    STEP(2);
    draws[3] = _mm256_setzero_si256();
    if (len == 4u) {
        STEP(3);
    }
#undef STEP
    const __m512i steps01 = _mm512_inserti64x4(_mm512_castsi256_si512(draws[0]), draws[1], 1);
    const __m512i steps23 = _mm512_inserti64x4(_mm512_castsi256_si512(draws[2]), draws[3], 1);
    const uint16_t *from = from_step[len - 3u];
    const __m512i first32 = _mm512_permutex2var_epi16(steps01, _mm512_loadu_si512((const void *)from), steps23);
    const __m512i next32 = _mm512_permutex2var_epi16(steps01, _mm512_loadu_si512((const void *)(from + 32)), steps23);
    _mm512_storeu_si512((void *)out, first32);
    /* 48 or 64 draws: the second store only as far as the fill's draws */
    _mm512_mask_storeu_epi16(out + 32, (__mmask32)(0xFFFFFFFFu >> (32u - (16u * len - 32u))), next32);
    return (uint32_t)rejected8(x_low, product_low) | ((uint32_t)rejected8(x_high, product_high) << 8);
}

#else
typedef int fd_batch_x86_unused; /* ISO C: a translation unit declares something */
#endif
