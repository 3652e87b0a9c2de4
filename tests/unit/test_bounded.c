/* Bounded integers: exact uniformity proved by enumeration, exact outputs
 * for scripted words, and every error path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/bounded.h"
#include "test_rng.h"

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
    for (int s = 0; s <= FD_ERR_KAT; s++) {
        assert_true(strcmp(fd_status_name((fd_status)s), "unknown") != 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exhaustive_width8_all_bounds),
        cmocka_unit_test(test_exhaustive_width16_bounds_to_256),
        cmocka_unit_test(test_scripted_words_give_exact_values),
        cmocka_unit_test(test_rejected_word_draws_again),
        cmocka_unit_test(test_largest_bound),
        cmocka_unit_test(test_errors_leave_output_untouched),
        cmocka_unit_test(test_status_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
