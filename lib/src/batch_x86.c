/* Sixteen batch groups decoded at once on x86-64 (see batch_x86.h). */
#include "batch_x86.h"

#if FD_BATCH_X86

#include <immintrin.h>

#define FD_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))

/* Where output word k of a fill of sixteen groups, the first `shorter`
 * (0..16) of len bounds and the rest of len + 1, comes from: draw s of
 * group g, which the steps leave at word 16 * s + g of the steps' draws
 * (steps 0-1, 2-3, then 4 in registers of 32 words). */
#define FROM(k, len, shorter)                                                                                          \
    (uint16_t)((k) < (len) * (shorter) ? 16u * ((k) % (len)) + (k) / (len)                                             \
                                       : 16u * (((k) - (len) * (shorter)) % ((len) + 1u)) + (shorter) +                \
                                             ((k) - (len) * (shorter)) / ((len) + 1u))
#define FROM8(k, len, shorter)                                                                                         \
    FROM(k, len, shorter), FROM((k) + 1u, len, shorter), FROM((k) + 2u, len, shorter), FROM((k) + 3u, len, shorter),   \
        FROM((k) + 4u, len, shorter), FROM((k) + 5u, len, shorter), FROM((k) + 6u, len, shorter),                      \
        FROM((k) + 7u, len, shorter)
#define FROM64(len, shorter)                                                                                           \
    FROM8(0u, len, shorter), FROM8(8u, len, shorter), FROM8(16u, len, shorter), FROM8(24u, len, shorter),              \
        FROM8(32u, len, shorter), FROM8(40u, len, shorter), FROM8(48u, len, shorter), FROM8(56u, len, shorter)
#define FROM3(shorter)                                                                                                 \
    {                                                                                                                  \
        FROM64(3u, shorter)                                                                                            \
    }
#define FROM4(shorter)                                                                                                 \
    {                                                                                                                  \
        FROM64(4u, shorter), FROM8(64u, 4u, shorter), FROM8(72u, 4u, shorter)                                          \
    }
static const uint16_t from_step3[17][64] = {
    FROM3(0u), FROM3(1u),  FROM3(2u),  FROM3(3u),  FROM3(4u),  FROM3(5u),  FROM3(6u),  FROM3(7u),  FROM3(8u),
    FROM3(9u), FROM3(10u), FROM3(11u), FROM3(12u), FROM3(13u), FROM3(14u), FROM3(15u), FROM3(16u),
};
static const uint16_t from_step4[17][80] = {
    FROM4(0u), FROM4(1u),  FROM4(2u),  FROM4(3u),  FROM4(4u),  FROM4(5u),  FROM4(6u),  FROM4(7u),  FROM4(8u),
    FROM4(9u), FROM4(10u), FROM4(11u), FROM4(12u), FROM4(13u), FROM4(14u), FROM4(15u), FROM4(16u),
};
#undef FROM4
#undef FROM3
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

/* Output words from..from+31 of the steps' draws, in order: from steps
 * 0-3 (words 0..63) or step 4 (64..79). */
FD_AVX512 static __m512i in_order(const uint16_t *from, __m512i steps01, __m512i steps23, __m512i step4)
{
    const __m512i index = _mm512_loadu_si512((const void *)from);
    const __m512i early = _mm512_permutex2var_epi16(steps01, index, steps23);
    const __mmask32 late = _mm512_test_epi16_mask(index, _mm512_set1_epi16(64));
    return _mm512_mask_blend_epi16(late, early, _mm512_permutexvar_epi16(index, step4));
}

/* Each group's first bound, groups 0-7 in *low and 8-15 in *high: len + 1
 * per group before it, less one per shorter group. */
FD_AVX512 static void first_bounds(size_t len, size_t shorter, uint32_t first_bound, __m512i *low, __m512i *high)
{
    const __m512i group_low = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    const __m512i group_high = _mm512_add_epi64(group_low, _mm512_set1_epi64(8));
    const __m512i m = _mm512_set1_epi64((long long)shorter);
    const __m512i longer = _mm512_set1_epi64((long long)len + 1);
    const __m512i first = _mm512_set1_epi64((long long)first_bound);
    *low = _mm512_sub_epi64(first,
                            _mm512_sub_epi64(_mm512_mullo_epi64(group_low, longer), _mm512_min_epu64(group_low, m)));
    *high = _mm512_sub_epi64(first,
                             _mm512_sub_epi64(_mm512_mullo_epi64(group_high, longer), _mm512_min_epu64(group_high, m)));
}

/* words[0..7] in 64-bit lanes, loaded in the 16-byte pieces the DRBG
 * stored (store forwarding). */
FD_AVX512 static __m512i words8(const uint32_t *words)
{
    return _mm512_cvtepu32_epi64(_mm256_set_m128i(_mm_loadu_si128((const __m128i *)(const void *)(words + 4)),
                                                  _mm_loadu_si128((const __m128i *)(const void *)words)));
}

FD_AVX512 void fd_batch_decode16_avx512(const uint32_t *words, size_t len, size_t shorter, uint32_t first_bound,
                                        uint16_t *out)
{
    __m512i bound_low;
    __m512i bound_high;
    first_bounds(len, shorter, first_bound, &bound_low, &bound_high);
    __m512i x_low = words8(words);
    __m512i x_high = words8(words + 8);
    const __m512i one = _mm512_set1_epi64(1);
    __m256i draws[5];
    /* len + 1 steps, unrolled (the draws stay in registers); the last only
     * in the longer groups' lanes */
    const unsigned last = 0xFFFFu & (0xFFFFu << shorter);
#define STEP(s, live_low, live_high)                                                                                   \
    do {                                                                                                               \
        x_low = _mm512_mask_mul_epu32(x_low, (live_low), x_low, bound_low);                                            \
        x_high = _mm512_mask_mul_epu32(x_high, (live_high), x_high, bound_high);                                       \
        bound_low = _mm512_sub_epi64(bound_low, one);                                                                  \
        bound_high = _mm512_sub_epi64(bound_high, one);                                                                \
        draws[s] = step_draws(x_low, x_high);                                                                          \
    } while (0)
    STEP(0, 0xFF, 0xFF);
    STEP(1, 0xFF, 0xFF);
    STEP(2, 0xFF, 0xFF);
    const size_t total = 16u * (len + 1u) - shorter;
    const __m512i steps01 = _mm512_inserti64x4(_mm512_castsi256_si512(draws[0]), draws[1], 1);
    if (len == 3u) {
        STEP(3, (__mmask8)last, (__mmask8)(last >> 8));
        const __m512i steps23 = _mm512_inserti64x4(_mm512_castsi256_si512(draws[2]), draws[3], 1);
        const uint16_t *from = from_step3[shorter];
        _mm512_storeu_si512((void *)out,
                            _mm512_permutex2var_epi16(steps01, _mm512_loadu_si512((const void *)from), steps23));
        _mm512_mask_storeu_epi16(
            out + 32, (__mmask32)(0xFFFFFFFFu >> (64u - total)),
            _mm512_permutex2var_epi16(steps01, _mm512_loadu_si512((const void *)(from + 32)), steps23));
    } else {
        STEP(3, 0xFF, 0xFF);
        STEP(4, (__mmask8)last, (__mmask8)(last >> 8));
        const __m512i steps23 = _mm512_inserti64x4(_mm512_castsi256_si512(draws[2]), draws[3], 1);
        const __m512i step4 = _mm512_castsi256_si512(draws[4]);
        const uint16_t *from = from_step4[shorter];
        _mm512_storeu_si512((void *)out, in_order(from, steps01, steps23, step4));
        _mm512_storeu_si512((void *)(out + 32), in_order(from + 32, steps01, steps23, step4));
        /* words 64..79 of the table: the low half of a 32-word load */
        const __m512i index = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(const void *)(from + 64)));
        const __m512i tail = _mm512_mask_blend_epi16(_mm512_test_epi16_mask(index, _mm512_set1_epi16(64)),
                                                     _mm512_permutex2var_epi16(steps01, index, steps23),
                                                     _mm512_permutexvar_epi16(index, step4));
        _mm512_mask_storeu_epi16(out + 64, (__mmask32)(0xFFFFFFFFull >> (96u - total)), tail);
    }
#undef STEP
}

FD_AVX512 uint32_t fd_batch_rejected16_avx512(const uint32_t *words, size_t len, size_t shorter, uint32_t first_bound)
{
    __m512i bound_low;
    __m512i bound_high;
    first_bounds(len, shorter, first_bound, &bound_low, &bound_high);
    const __m512i one = _mm512_set1_epi64(1);
    __m512i product_low = one;
    __m512i product_high = one;
    const unsigned last = 0xFFFFu & (0xFFFFu << shorter);
    for (size_t s = 0; s <= len; s++) {
        const __mmask8 live_low = s < len ? (__mmask8)0xFF : (__mmask8)last;
        const __mmask8 live_high = s < len ? (__mmask8)0xFF : (__mmask8)(last >> 8);
        product_low = _mm512_mask_mul_epu32(product_low, live_low, product_low, bound_low);
        product_high = _mm512_mask_mul_epu32(product_high, live_high, product_high, bound_high);
        bound_low = _mm512_sub_epi64(bound_low, one);
        bound_high = _mm512_sub_epi64(bound_high, one);
    }
    /* the final low part of a group is its word times the product, mod 2^32 */
    const __m512i x_low = _mm512_mul_epu32(words8(words), product_low);
    const __m512i x_high = _mm512_mul_epu32(words8(words + 8), product_high);
    return (uint32_t)rejected8(x_low, product_low) | ((uint32_t)rejected8(x_high, product_high) << 8);
}

#else
typedef int fd_batch_x86_unused; /* ISO C: a translation unit declares something */
#endif
