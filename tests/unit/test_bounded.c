/* Bounded integers: exact uniformity proved by enumeration, exact outputs
 * for scripted words, and every error path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/bounded.h"
#include "batch_x86.h"
#include "test_rng.h"
#include "word.h"

/* Every word of the given width, every bound in [1, max_bound]: each output
 * must be reached by exactly floor(2^width / bound) accepted words, and the
 * number of rejected words must be exactly 2^width mod bound. */
static void enumerate_width(unsigned width, uint32_t max_bound)
{
    static uint32_t counts[256];
    const uint32_t words = 1u << width;
    for (uint32_t bound = 1; bound <= max_bound; bound++) {
        memset(counts, 0, sizeof counts);
        uint32_t rejected = 0;
        for (uint32_t x = 0; x < words; x++) {
            uint32_t v;
            if (fd_lemire_map(x, bound, width, &v)) {
                assert_true(v < bound);
                counts[v]++;
            } else {
                rejected++;
            }
        }
        for (uint32_t v = 0; v < bound; v++) {
            assert_int_equal(counts[v], words / bound);
        }
        assert_int_equal(rejected, words % bound);
    }
}

static void test_exhaustive_width8_all_bounds(void **state)
{
    (void)state;
    enumerate_width(8, 255);
}

static void test_exhaustive_width16_bounds_to_256(void **state)
{
    (void)state;
    enumerate_width(16, 256);
}

/* Batched draws: for the descending bounds first, first-1, ... (count of
 * them, product P <= 2^width), every word of the width: each output tuple
 * must come from exactly floor(2^width / P) accepted words, rejected words
 * must number exactly 2^width mod P, and every digit must lie in its range. */
#if defined(FD_TARGET_CORTEX_M)
#define BATCH_WIDTH 10u
#else
#define BATCH_WIDTH 16u
#endif
static uint16_t tuple_counts[1u << BATCH_WIDTH];

static void enumerate_batch(uint32_t first, size_t count, unsigned width)
{
    uint64_t product = 1;
    for (size_t i = 0; i < count; i++) {
        product *= first - i;
    }
    assert_true(product <= (1ull << width));
    memset(tuple_counts, 0, (size_t)product * sizeof tuple_counts[0]);
    const uint32_t words = 1u << width;
    uint32_t rejected = 0;
    for (uint32_t x = 0; x < words; x++) {
        uint16_t out[FD_BATCH_MAX];
        if (!fd_batch_map(x, first, count, width, out)) {
            rejected++;
            continue;
        }
        uint64_t tuple = 0;
        for (size_t i = 0; i < count; i++) {
            assert_true(out[i] < first - i);
            tuple = tuple * (first - i) + out[i];
        }
        tuple_counts[tuple]++;
    }
    for (uint64_t t = 0; t < product; t++) {
        assert_int_equal(tuple_counts[t], words / product);
    }
    assert_int_equal(rejected, words % product);
}

/* Every descending run whose product fits the width (bounds of 1
 * included, as Sattolo's last draw has), at widths 1 to 8. */
static void test_batch_exhaustive_small_widths_all_runs(void **state)
{
    (void)state;
    for (unsigned width = 1; width <= 8u; width++) {
        for (uint32_t first = 1; first <= (1u << width); first++) {
            uint64_t product = first;
            for (size_t count = 1; count <= first && count <= FD_BATCH_MAX && product <= (1ull << width); count++) {
                enumerate_batch(first, count, width);
                product *= first - count;
            }
        }
    }
}

/* The groups a shuffle forms: descending bounds from n, as many as fit the
 * word, for every n up to 2^BATCH_WIDTH's reach. */
static void test_batch_exhaustive_descending_groups(void **state)
{
    (void)state;
    const uint32_t max_n = BATCH_WIDTH >= 16u ? 256u : 32u;
    for (uint32_t n = 2; n <= max_n; n++) {
        uint64_t product = 1;
        size_t k = 0;
        while (k < n && k < FD_BATCH_MAX && product * (n - k) <= (1ull << BATCH_WIDTH)) {
            product *= n - (uint32_t)k;
            k++;
        }
        assert_true(k >= 1u);
        enumerate_batch(n, k, BATCH_WIDTH);
    }
}

/* With a 32-bit word: the batch equals Lemire's single draw for the
 * product, split into mixed-radix digits. */
static void test_batch_matches_single_draw_of_product(void **state)
{
    (void)state;
    const uint32_t bounds[5] = {52, 51, 50, 49, 48};
    const uint64_t product = 52ull * 51 * 50 * 49 * 48; /* 311,875,200 */
    uint32_t rejections = 0;
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 9);
    for (int i = 0; i < 10000; i++) {
        uint32_t word;
        assert_int_equal(fd_rng_u32(&rng, &word), FD_OK);
        uint16_t out[5];
        uint32_t single;
        const bool batch_ok = fd_batch_map(word, 52, 5, 32, out);
        assert_int_equal(batch_ok, fd_lemire_map(word, (uint32_t)product, 32, &single));
        rejections += batch_ok ? 0u : 1u;
        if (batch_ok) {
            uint64_t tuple = 0;
            for (size_t d = 0; d < 5u; d++) {
                tuple = tuple * bounds[d] + out[d];
            }
            assert_int_equal(tuple, single);
        }
    }
    /* the words that must be rejected: low part of word * P below 2^32 mod P */
    const uint32_t remainder = (uint32_t)((1ull << 32) % product);
    for (uint32_t low = 0; low < 3u; low++) {
        /* word = ceil((k * 2^32 + low) / P) hits low part (P * word) mod 2^32 = small values */
        uint32_t out_single;
        uint16_t out[5];
        const uint32_t word = (uint32_t)(((uint64_t)low << 32) / product) + 1u;
        const uint32_t word_low = (uint32_t)((uint64_t)word * product);
        assert_int_equal(fd_batch_map(word, 52, 5, 32, out), word_low >= remainder);
        assert_int_equal(fd_lemire_map(word, (uint32_t)product, 32, &out_single), word_low >= remainder);
    }
    /* 2^32 mod P = 240,589,696: 5.6% of words are rejected */
    const double expected = 10000.0 * remainder / 4294967296.0;
    assert_true(rejections > expected - 6.0 * 23.0 && rejections < expected + 6.0 * 23.0);
}

static void check_halves(uint32_t a, uint32_t b)
{
    const uint64_t want = (uint64_t)a * b;
    uint32_t lo;
    uint32_t hi = fd_mul_halves(a, b, &lo);
    assert_int_equal(hi, (uint32_t)(want >> 32));
    assert_int_equal(lo, (uint32_t)want);
    if (b <= 0xFFFFu) {
        hi = fd_mul_halves_small(a, b, &lo);
        assert_int_equal(hi, (uint32_t)(want >> 32));
        assert_int_equal(lo, (uint32_t)want);
    }
}

/* The 16-bit-halves products Cortex-M0 uses equal the native 64-bit one. */
/* Both forms of the batch acceptance (word.h: x86-64 divides always, other
 * targets only below the product) against the definition, low >= 2^32 mod
 * product, at and around the threshold and the product. */
static void check_accept(uint32_t low, uint32_t product)
{
    const bool want = low >= (uint32_t)((UINT64_C(1) << 32) % product);
    if (fd_batch_accept32_divide(low, product) != want || fd_batch_accept32_early(low, product) != want) {
        fail_msg("batch acceptance of low %u under product %u: want %d", low, product, want);
    }
}

static void test_batch_acceptance_forms(void **state)
{
    (void)state;
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 11);
    for (int i = 0; i < 20000; i++) {
        uint32_t product;
        assert_int_equal(fd_rng_u32(&rng, &product), FD_OK);
        product = (product >> (unsigned)(i % 32)) | 1u;
        if (i < 512) {
            product = (uint32_t)i + 1u; /* every single bound, and product 1 */
        }
        const uint32_t threshold = (uint32_t)((UINT64_C(1) << 32) % product);
        const uint32_t lows[] = {0u, 1u, threshold - 1u, threshold, threshold + 1u, product - 1u, product, 0xFFFFFFFFu};
        for (size_t k = 0; k < sizeof lows / sizeof lows[0]; k++) {
            check_accept(lows[k], product);
        }
    }
}

#if FD_BATCH_X86
/* fd_batch_decode16_avx512 and fd_batch_rejected16_avx512 against
 * fd_batch_map32, group by group: the draws, the rejections, nothing
 * written past the fill, for groups of 3 then 4 and of 4 then 5, every
 * number of shorter groups (0..16) and every first bound such a fill can have (groups of 3 from at most 1626, of 4
 * from at most 257, of 5 from at most 86), random words, and words whose
 * final low part lands exactly on the acceptance threshold or on the
 * reachable value below it (final low = word * product mod 2^32). */
/* One fill for test_batch_decode16_avx512_matches_scalar: random words,
 * or (trial 2 and 3) words aimed just below or at each group's threshold. */
static void check_decode16(const fd_rng *rng, uint32_t len, uint32_t shorter, uint32_t first, unsigned trial,
                           unsigned *edges, unsigned *rejections)
{
    const uint32_t total = 16u * (len + 1u) - shorter;
    uint32_t words[16];
    bool aimed[16] = {false};
    for (uint32_t g = 0; g < 16u; g++) {
        assert_int_equal(fd_rng_u32(rng, &words[g]), FD_OK);
        const uint32_t at = (len + 1u) * g - (g < shorter ? g : shorter);
        const uint32_t glen = g < shorter ? len : len + 1u;
        uint32_t product = 1;
        for (uint32_t b = first - at; b > first - at - glen; b--) {
            product *= b;
        }
        const uint32_t threshold = (uint32_t)((UINT64_C(1) << 32) % product);
        /* product = 2^k * odd: every final low part is a multiple of 2^k,
         * the threshold too (2^k divides 2^32 and the product); aim at it
         * or at the multiple below */
        const unsigned k = (unsigned)__builtin_ctz(product);
        if (trial >= 2u && threshold >= (1u << k)) {
            const uint32_t target = threshold - (trial == 2u ? (1u << k) : 0u);
            words[g] = test_word_for_low(product, target);
            aimed[g] = true;
            (*edges)++;
        }
    }
    uint16_t got[80 + 8];
    memset(got, 0xA5, sizeof got);
    fd_batch_decode16_avx512(words, len, shorter, first, got);
    const uint32_t rejected = fd_batch_rejected16_avx512(words, len, shorter, first);
    for (uint32_t g = 0; g < 16u; g++) {
        const uint32_t at = (len + 1u) * g - (g < shorter ? g : shorter);
        const uint32_t glen = g < shorter ? len : len + 1u;
        uint16_t want[5];
        const bool accepted = fd_batch_map32(words[g], first - at, glen, want);
        assert_int_equal((rejected >> g) & 1u, accepted ? 0u : 1u);
        if (aimed[g]) {
            assert_int_equal(accepted, trial == 3u); /* on the threshold, or just below */
        }
        *rejections += accepted ? 0u : 1u;
        assert_memory_equal(&got[at], want, glen * sizeof want[0]);
    }
    for (size_t w = total; w < sizeof got / sizeof got[0]; w++) {
        assert_int_equal(got[w], 0xA5A5u);
    }
    assert_int_equal(rejected >> 16, 0u);
}

static void test_batch_decode16_avx512_matches_scalar(void **state)
{
    (void)state;
    if (!fd_batch_x86_has_avx512()) {
        print_message("AVX-512 F/BW/DQ/VL not available: fd_batch_decode16_avx512 not compared\n");
        return;
    }
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 16);
    unsigned edges = 0;
    unsigned rejections = 0;
    for (uint32_t len = 3; len <= 4u; len++) {
        const uint32_t tops[] = {1626u, 257u, 86u}; /* highest first bound of a group of 3, 4, 5 */
        for (uint32_t shorter = 0; shorter <= 16u; shorter++) {
            const uint32_t total = 16u * (len + 1u) - shorter;
            uint32_t top = tops[len - 2u] + len * shorter; /* the first longer group's limit */
            if (shorter == 16u || (shorter > 0u && tops[len - 3u] < top)) {
                top = tops[len - 3u];
            }
            for (uint32_t first = total; first <= top; first++) {
                for (unsigned trial = 0; trial < 4u; trial++) {
                    check_decode16(&rng, len, shorter, first, trial, &edges, &rejections);
                }
            }
        }
    }
    assert_true(edges > 1000u);
    assert_true(rejections > 1000u);
}
#endif

static void test_wide_product_halves(void **state)
{
    (void)state;
    static const uint32_t edges[] = {0u,       1u,          2u,          0xFFFFu,     0x10000u,
                                     0x10001u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        for (size_t j = 0; j < sizeof edges / sizeof edges[0]; j++) {
            check_halves(edges[i], edges[j]);
        }
    }
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 10);
    for (int i = 0; i < 100000; i++) {
        uint32_t a;
        uint32_t b;
        assert_int_equal(fd_rng_u32(&rng, &a), FD_OK);
        assert_int_equal(fd_rng_u32(&rng, &b), FD_OK);
        check_halves(a, b >> (unsigned)(i % 32)); /* small and large multipliers */
    }
}

/* The 16-bit-limb batch step Cortex-M0 uses gives the indices and the
 * verdict of the definition (64-bit products, low >= 2^32 mod product),
 * for every group length up to the product's 32 bits, bounds from 2 to
 * 2^16 - 1 (the shuffles' groups and beyond), and words at the edges. */
static void check_limbs(uint32_t word, uint32_t first_bound, size_t count)
{
    uint16_t got[32];
    uint16_t want[32];
    uint64_t low = word;
    uint64_t product = 1;
    for (size_t k = 0; k < count; k++) {
        const uint64_t p = low * (first_bound - k);
        want[k] = (uint16_t)(p >> 32);
        low = (uint32_t)p;
        product *= first_bound - k;
    }
    const bool accept = low >= (UINT64_C(1) << 32) % product;
    memset(got, 0xEE, sizeof got);
    if (fd_batch_map32_limbs(word, first_bound, count, got) != accept || memcmp(got, want, count * 2u) != 0 ||
        got[count] != 0xEEEEu) {
        fail_msg("limb batch step: word %08x, first bound %u, %u indices", word, first_bound, (unsigned)count);
    }
}

static void test_batch_map32_limbs(void **state)
{
    (void)state;
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 16);
    static const uint32_t edge_words[] = {0u, 1u, 0xFFFFu, 0x10000u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu};
    for (int i = 0; i < 20000; i++) {
        uint32_t word;
        uint32_t bound;
        assert_int_equal(fd_rng_u32(&rng, &word), FD_OK);
        assert_int_equal(fd_rng_u32(&rng, &bound), FD_OK);
        if (i < 7 * 16) {
            word = edge_words[i % 7];
        }
        bound = 2u + bound % (i % 2 == 0 ? 511u : 65534u); /* 2..512 or 2..65535 */
        /* the longest group whose product stays below 2^32 */
        size_t longest = 0;
        uint64_t product = 1;
        while (longest < bound && longest < 31u && product * (bound - longest) <= UINT32_MAX) {
            product *= bound - longest;
            longest++;
        }
        check_limbs(word, bound, 1u + (size_t)i % longest);
        check_limbs(word, bound, longest);
    }
    /* every first bound of a shoe, every group length from it */
    for (uint32_t bound = 2; bound <= 520u; bound++) {
        uint64_t product = 1;
        for (size_t count = 1; count <= bound && product * (bound - count + 1u) <= UINT32_MAX; count++) {
            product *= bound - count + 1u;
            uint32_t word;
            assert_int_equal(fd_rng_u32(&rng, &word), FD_OK);
            check_limbs(word, bound, count);
            /* the words whose final low part is the threshold and the
             * reachable value just below it: the verdict turns there */
            const uint32_t threshold = (uint32_t)((UINT64_C(1) << 32) % product);
            const uint32_t step = (uint32_t)(product & (~product + 1u)); /* 2^e of P = 2^e * m */
            check_limbs(test_word_for_low((uint32_t)product, threshold), bound, count);
            check_limbs(test_word_for_low((uint32_t)product, threshold - step), bound, count);
        }
    }
}

static void test_scripted_words_give_exact_values(void **state)
{
    (void)state;
    uint32_t words[] = {0x80000001u, 0xFFFFFFFFu, 0x00000000u, test_word_for(41, 52)};
    uint8_t bytes[sizeof words];
    test_words_to_bytes(words, 4, bytes);
    test_script_rng s;
    fd_rng rng = test_script_rng_init(&s, bytes, sizeof bytes);
    uint32_t v = 99;
    assert_int_equal(fd_uniform_u32(&rng, 10, &v), FD_OK);
    assert_int_equal(v, 5);
    assert_int_equal(fd_uniform_u32(&rng, 52, &v), FD_OK);
    assert_int_equal(v, 51);
    assert_int_equal(fd_uniform_u32(&rng, 1, &v), FD_OK);
    assert_int_equal(v, 0);
    assert_int_equal(fd_uniform_u32(&rng, 52, &v), FD_OK);
    assert_int_equal(v, 41);
    assert_int_equal(s.pos, sizeof bytes);
}

static void test_rejected_word_draws_again(void **state)
{
    (void)state;
    /* bound 3: 2^32 mod 3 = 1, so the single word whose low half is 0
     * (word 0) is rejected; the next word is used. */
    uint32_t words[] = {0x00000000u, 0x80000000u};
    uint8_t bytes[sizeof words];
    test_words_to_bytes(words, 2, bytes);
    test_script_rng s;
    fd_rng rng = test_script_rng_init(&s, bytes, sizeof bytes);
    uint32_t v = 99;
    assert_int_equal(fd_uniform_u32(&rng, 3, &v), FD_OK);
    assert_int_equal(v, 1);
    assert_int_equal(s.pos, 8);
}

static void test_largest_bound(void **state)
{
    (void)state;
    uint32_t words[] = {0xFFFFFFFFu};
    uint8_t bytes[4];
    test_words_to_bytes(words, 1, bytes);
    test_script_rng s;
    fd_rng rng = test_script_rng_init(&s, bytes, sizeof bytes);
    uint32_t v = 0;
    assert_int_equal(fd_uniform_u32(&rng, 0xFFFFFFFFu, &v), FD_OK);
    assert_int_equal(v, 0xFFFFFFFEu);
}

static void test_errors_leave_output_untouched(void **state)
{
    (void)state;
    uint8_t bytes[4] = {0};
    test_script_rng s;
    fd_rng rng = test_script_rng_init(&s, bytes, 0); /* empty: source fails */
    uint32_t v = 1234;
    assert_int_equal(fd_uniform_u32(&rng, 10, &v), FD_ERR_RNG);
    assert_int_equal(v, 1234);
    assert_int_equal(fd_uniform_u32(&rng, 0, &v), FD_ERR_BOUND);
    assert_int_equal(fd_uniform_u32(NULL, 10, &v), FD_ERR_NULL);
    assert_int_equal(fd_uniform_u32(&rng, 10, NULL), FD_ERR_NULL);
    fd_rng no_fill = {NULL, NULL, NULL};
    assert_int_equal(fd_uniform_u32(&no_fill, 10, &v), FD_ERR_NULL);
    assert_int_equal(fd_rng_u32(&rng, NULL), FD_ERR_NULL);
    assert_int_equal(v, 1234);
}

static void test_status_names(void **state)
{
    (void)state;
    assert_string_equal(fd_status_name(FD_OK), "ok");
    assert_string_equal(fd_status_name(FD_ERR_HEALTH), "health");
    assert_string_equal(fd_status_name((fd_status)999), "unknown");
    for (int s = 0; s <= FD_STATUS_LAST; s++) {
        assert_true(strcmp(fd_status_name((fd_status)s), "unknown") != 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exhaustive_width8_all_bounds),
        cmocka_unit_test(test_exhaustive_width16_bounds_to_256),
        cmocka_unit_test(test_batch_exhaustive_small_widths_all_runs),
        cmocka_unit_test(test_wide_product_halves),
        cmocka_unit_test(test_batch_map32_limbs),
        cmocka_unit_test(test_batch_acceptance_forms),
#if FD_BATCH_X86
        cmocka_unit_test(test_batch_decode16_avx512_matches_scalar),
#endif
        cmocka_unit_test(test_batch_exhaustive_descending_groups),
        cmocka_unit_test(test_batch_matches_single_draw_of_product),
        cmocka_unit_test(test_scripted_words_give_exact_values),
        cmocka_unit_test(test_rejected_word_draws_again),
        cmocka_unit_test(test_largest_bound),
        cmocka_unit_test(test_errors_leave_output_untouched),
        cmocka_unit_test(test_status_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
