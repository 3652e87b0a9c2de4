/* The anti-rollback counter page (fairdeal/bootcount.h, docs/SECURITY.md
 * "Anti-rollback") on a simulated NOR page: records, torn and garbage
 * pairs, a full page, and power cuts at every word and inside a word (a
 * word's bits half programmed): the minimum never goes down, never takes a
 * version that was not whole, and no word is programmed twice (nWRITE). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/bootcount.h"

#define WORDS 256u /* a 1 KiB page */

static uint32_t page[WORDS];
static unsigned programs[WORDS];

static void erase(void)
{
    memset(page, 0xFF, sizeof page);
    memset(programs, 0, sizeof programs);
}

/* NOR: a program clears bits only; mask says which of the value's zero bits made it (a cut mid-word). */
static void program(size_t i, uint32_t value, uint32_t mask)
{
    page[i] &= value | ~mask;
    programs[i]++;
}

static uint32_t scan_min(size_t *next)
{
    uint32_t min = 0;
    size_t n = 0;
    assert_int_equal(fd_bootcount_scan(page, WORDS, &min, &n), FD_OK);
    if (next != NULL) {
        *next = n;
    }
    return min;
}

static void records_torn_and_garbage(void **state)
{
    (void)state;
    erase();
    size_t next = 99, at = 99;
    assert_int_equal(scan_min(&next), 0);
    assert_int_equal(next, 0);
    assert_int_equal(fd_bootcount_plan(page, WORDS, 5, &at), FD_OK);
    assert_int_equal(at, 0);
    program(0, 5, ~0u);
    program(1, ~5u, ~0u);
    program(2, 9, ~0u);
    program(3, ~9u, ~0u);
    assert_int_equal(scan_min(&next), 9);
    assert_int_equal(next, 4);
    assert_int_equal(fd_bootcount_plan(page, WORDS, 9, &at), FD_ERR_STATE);
    assert_int_equal(fd_bootcount_plan(page, WORDS, 7, &at), FD_ERR_STATE);
    assert_int_equal(fd_bootcount_plan(page, WORDS, 10, &at), FD_OK);
    assert_int_equal(at, 4);
    program(4, 12, ~0u); /* torn: the check word never written */
    assert_int_equal(scan_min(&next), 9);
    assert_int_equal(next, 6);
    program(6, 20, ~0u); /* garbage check word */
    program(7, 0, ~0u);
    assert_int_equal(scan_min(&next), 9);
    assert_int_equal(next, 8);
    assert_int_equal(fd_bootcount_plan(page, WORDS, 12, &at), FD_OK);
    assert_int_equal(at, 8); /* never over a used word */
    assert_int_equal(fd_bootcount_plan(page, WORDS, FD_BOOTCOUNT_ERASED, &at), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_bootcount_plan(page, 3, 12, &at), FD_ERR_PARSE);
    assert_int_equal(fd_bootcount_plan(page, 0, 12, &at), FD_ERR_PARSE);
    assert_int_equal(fd_bootcount_plan(NULL, WORDS, 12, &at), FD_ERR_NULL);
}

static void full_page_keeps_its_minimum(void **state)
{
    (void)state;
    erase();
    size_t at = 0;
    for (uint32_t v = 1; v <= WORDS / 2u; v++) {
        assert_int_equal(fd_bootcount_plan(page, WORDS, v, &at), FD_OK);
        program(at, v, ~0u);
        program(at + 1u, ~v, ~0u);
    }
    assert_int_equal(scan_min(NULL), WORDS / 2u);
    assert_int_equal(fd_bootcount_plan(page, WORDS, WORDS, &at), FD_ERR_EXHAUSTED);
}

/* Records of rising versions, each cut at every point: after 0, 1 or 2 words,
 * or inside either word with some of its bits programmed. */
static void power_cuts_never_lower_it(void **state)
{
    (void)state;
    uint32_t rng = 12345u;
    for (unsigned cut = 0; cut < 5u; cut++) {
        erase();
        uint32_t version = 0, min = 0;
        for (unsigned round = 0; round < 200u; round++) {
            rng = rng * 1103515245u + 12345u;
            version += 1u + (rng >> 28);
            size_t at = 0;
            const fd_status st = fd_bootcount_plan(page, WORDS, version, &at);
            if (st == FD_ERR_EXHAUSTED) {
                break;
            }
            assert_int_equal(st, FD_OK);
            const unsigned where = (cut + round) % 5u; /* 0: nothing, 1: first, 2: both, 3/4: inside a word */
            const uint32_t half = rng | 1u;            /* some of the bits: never all of a word's zeros */
            if (where >= 1u) {
                program(at, version, where == 3u ? half : ~0u);
            }
            if (where == 2u || where == 4u) {
                program(at + 1u, ~version, where == 4u ? half : ~0u);
            }
            const uint32_t now = scan_min(NULL);
            assert_true(now >= min); /* never lower */
            if (where == 2u) {
                assert_int_equal(now, version); /* a whole pair counts */
            } else if (now != min) {
                /* a partial program can complete a pair only if all its bits made it */
                assert_int_equal(page[at + 1u], ~page[at]);
            }
            min = now;
        }
        for (size_t i = 0; i < WORDS; i++) {
            assert_true(programs[i] <= 1u); /* nWRITE: each word once between erases */
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(records_torn_and_garbage),
        cmocka_unit_test(full_page_keeps_its_minimum),
        cmocka_unit_test(power_cuts_never_lower_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
