/* Direct tests written against the survivors of the mutants drawn by rule
 * (docs/RELIABILITY.md, "Mutants drawn by rule"): each names the mutant it
 * kills. Linked with --wrap=fd_chacha20_block so the known-answer self-test
 * can be shown a wrong block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dealer.h"
#include "fairdeal/bounded.h"
#include "fairdeal/chacha20.h"
#include "fairdeal/commit.h"
#include "fairdeal/fullentropy.h"
#include "fairdeal/rng.h"
#include "fairdeal/selftest.h"
#include "fairdeal/shuffle.h"
#include "fairdeal/status.h"
#include "test_dealer_config.h"
#include "stack_probe.h"
#include "test_rng.h"

/* ---- the self-test shown a wrong ChaCha20 block ---- */

void __real_fd_chacha20_block(const uint8_t key[FD_CHACHA20_KEY_SIZE], uint32_t counter,
                              const uint8_t nonce[FD_CHACHA20_NONCE_SIZE], uint8_t out[FD_CHACHA20_BLOCK_SIZE]);
void __wrap_fd_chacha20_block(const uint8_t key[FD_CHACHA20_KEY_SIZE], uint32_t counter,
                              const uint8_t nonce[FD_CHACHA20_NONCE_SIZE], uint8_t out[FD_CHACHA20_BLOCK_SIZE]);
static bool chacha_broken;

void __wrap_fd_chacha20_block(const uint8_t key[FD_CHACHA20_KEY_SIZE], uint32_t counter,
                              const uint8_t nonce[FD_CHACHA20_NONCE_SIZE], uint8_t out[FD_CHACHA20_BLOCK_SIZE])
{
    __real_fd_chacha20_block(key, counter, nonce, out);
    if (chacha_broken) {
        out[3] ^= 0x10u; /* one bit of the first 16 bytes the self-test compares */
    }
}

/* selftest.c: "ok && memcmp(out, chacha_first16, 16) == 0" with || (the
 * ChaCha20 known answer ignored once the hash ones passed). */
static void test_selftest_fails_on_a_wrong_chacha20_block(void **state)
{
    (void)state;
    assert_int_equal(fd_selftest_kat(), FD_OK);
    chacha_broken = true;
    const fd_status st = fd_selftest_kat();
    chacha_broken = false;
    assert_int_equal(st, FD_ERR_KAT);
    assert_int_equal(fd_selftest_kat(), FD_OK);
}

/* ---- Lemire's step at width 31 ---- */

/* bounded.c: "width >= 32u ? 0u : (1u << width)" with 31u (a 31-bit
 * width's span taken as 2^32's). Words whose product wraps to a small low
 * part, against the definition: accepted iff low >= 2^31 mod bound. */
static void test_lemire_map_at_width_31(void **state)
{
    (void)state;
    static const uint32_t bounds[] = {3u, 5u, 7u, 1000003u, 0x7FFFFFFFu};
    unsigned differ_at_32 = 0;
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
        const uint32_t bound = bounds[b];
        const uint32_t threshold = (uint32_t)((1ull << 31) % bound);
        differ_at_32 += threshold != (uint32_t)((1ull << 32) % bound);
        for (uint64_t j = 1; j <= 8u && j < bound; j++) {
            const uint64_t centre = (j << 31) / bound;
            for (uint64_t w = centre - 4u; w <= centre + 4u; w++) {
                const uint64_t prod = w * bound;
                const uint32_t low = (uint32_t)(prod & 0x7FFFFFFFu);
                uint32_t got = 0xFFFFFFFFu;
                const bool accepted = fd_lemire_map((uint32_t)w, bound, 31, &got);
                assert_int_equal(accepted, low >= threshold);
                if (accepted) {
                    assert_int_equal(got, (uint32_t)(prod >> 31));
                }
            }
        }
    }
    assert_true(differ_at_32 >= 2u); /* the words above tell 2^31 from 2^32 */
}

/* ---- round records: a known field's length is exact ---- */

static uint8_t rec[4096];
static uint8_t bad[4096];

/* commit.c: "want != 0u && vlen == want" with || (a known field of any
 * length, and an unknown mandatory tag of length 0, pass the structure
 * pass). */
static void test_record_field_length_is_exact(void **state)
{
    (void)state;
    static fd_round_record r;
    memset(&r, 0, sizeof r);
    r.round_id = 7;
    r.kind = FD_DECK_FRENCH;
    r.decks = 1;
    r.mode = 0;
    r.dealt = 3;
    memset(r.commitment, 0xC3, sizeof r.commitment);
    size_t len = 0;
    assert_int_equal(fd_record_encode(&r, rec, sizeof rec, &len), FD_OK);
    static fd_round_record back;
    assert_int_equal(fd_record_decode(rec, len, &back), FD_OK);
    /* ROUND_ID (first field: version, tag 1, length 00 04) one byte longer */
    assert_int_equal(rec[1], FD_RECORD_TAG_ROUND_ID);
    assert_int_equal(rec[2] << 8 | rec[3], 4);
    memcpy(bad, rec, 8);
    bad[3] = 5;
    bad[8] = 0;
    memcpy(bad + 9, rec + 8, len - 8u);
    assert_int_equal(fd_record_decode(bad, len + 1u, &back), FD_ERR_PARSE);
    /* ... and one byte shorter */
    memcpy(bad, rec, 7);
    bad[3] = 3;
    memcpy(bad + 7, rec + 8, len - 8u);
    assert_int_equal(fd_record_decode(bad, len - 1u, &back), FD_ERR_PARSE);
    /* an unknown tag below 0x80 (not optional) after the last, empty */
    memcpy(bad, rec, len);
    bad[len] = 0x7Fu;
    bad[len + 1u] = 0;
    bad[len + 2u] = 0;
    assert_int_equal(fd_record_decode(bad, len + 3u, &back), FD_ERR_PARSE);
}

/* ---- full-entropy draws: each NULL argument refused alone ---- */

/* fullentropy.c: "fe == NULL || out == NULL" with && (a NULL out alone
 * accepted: the draw writes through it). */
static void test_fullentropy_refuses_each_null_argument(void **state)
{
    (void)state;
    static test_prng prng;
    const fd_rng src = test_prng_init(&prng, 34);
    static fd_fullentropy fe;
    assert_int_equal(fd_fullentropy_init(&fe, &src), FD_OK);
    uint32_t v = 0xABCDu;
    assert_int_equal(fd_fullentropy_uniform(&fe, 5u, NULL), FD_ERR_NULL);
    assert_int_equal(fd_fullentropy_uniform(NULL, 5u, &v), FD_ERR_NULL);
    assert_int_equal(v, 0xABCDu);
    assert_int_equal(fd_fullentropy_uniform(&fe, 5u, &v), FD_OK);
    assert_true(v < 5u);
}

/* rng.c: "rng == NULL || rng->fill == NULL" with && (a source without a
 * fill function called). */
static void test_rng_without_fill_refused(void **state)
{
    (void)state;
    const fd_rng none = {NULL, NULL, NULL};
    uint32_t v = 0x1234u;
    assert_int_equal(fd_rng_u32(&none, &v), FD_ERR_NULL);
    assert_int_equal(fd_rng_u32(NULL, &v), FD_ERR_NULL);
    assert_int_equal(v, 0x1234u);
}

/* ---- the dealer's lab draws: the bound checked by the dealer itself ---- */

static fake_trng trng;
static fd_dealer dealer;

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

/* dealer_sources.c: "bound == 0u || bound > UINT16_MAX + 1u" with && (lab
 * draws with bound 0 or above 2^16 not refused by the dealer; the console
 * refuses them before, so only a direct call tells). */
static void test_lab_cards_refuse_bounds_out_of_range(void **state)
{
    (void)state;
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 34);
    const fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK);
    uint16_t out[4] = {0xFFFFu, 0xFFFFu, 0xFFFFu, 0xFFFFu};
    assert_int_equal(fd_dealer_lab_cards(&dealer, 0u, out, 4), FD_ERR_BOUND);
    assert_int_equal(fd_dealer_lab_cards(&dealer, UINT16_MAX + 2u, out, 4), FD_ERR_BOUND);
    assert_int_equal(out[0] & out[1] & out[2] & out[3], 0xFFFFu);
    assert_int_equal(fd_dealer_lab_cards(&dealer, 52u, out, 4), FD_OK);
    for (unsigned i = 0; i < 4u; i++) {
        assert_true(out[i] < 52u);
    }
}

#if STACK_PROBE_WORKS
/* lib/src/shuffle.c, fd_sattolo: "(n - 1u) * sizeof draws[0]" to "/" (the
 * generic Sattolo shuffle wiped half of its draws' bytes: the rest, which
 * give the cycle it made, stayed on the stack). The draws are recovered
 * from the result (step t fixes position n - 1 - t, so it drew wherever
 * that element was then) and none of a run of them may be left below. */
static void test_sattolo_wipes_every_draw(void **state)
{
    (void)state;
    enum {
        N = 100
    };
    static uint32_t a[N];
    static uint32_t at[N];  /* element -> its position, as the swaps go */
    static uint32_t cur[N]; /* the array as the swaps go */
    static uint16_t draws[N];
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 0x5A770107u);
    for (uint32_t i = 0; i < N; i++) {
        a[i] = cur[i] = at[i] = i;
    }
    scrub_stack();
    const fd_status st = fd_sattolo(a, N, sizeof a[0], &rng);
    for (uint32_t t = 0; t + 1u < N; t++) {
        const uint32_t i = N - 1u - t;
        const uint32_t j = at[a[i]];
        draws[t] = (uint16_t)j;
        const uint32_t x = cur[i];
        cur[i] = cur[j];
        cur[j] = x;
        at[cur[i]] = i;
        at[cur[j]] = j;
    }
    /* probed before any assertion: an assertion's frames overwrite the region */
    int left = 0;
    for (size_t t = 0; t + 8u < N - 1u; t += 8u) {
        left += stack_holds((const uint8_t *)(draws + t), 16u);
    }
    assert_int_equal(st, FD_OK);
    assert_memory_equal(cur, a, sizeof a); /* the recovered draws make the result */
    assert_int_equal(left, 0);
}
#endif

/* lib/src/status.c: a status's name replaced by "" (four of its five drawn
 * mutants survived: only "ok", "health" and "unknown" were pinned). Every
 * status has its own non-empty name of lower-case letters and hyphens, the
 * form the console's error replies carry. */
static void test_every_status_name_is_its_own(void **state)
{
    (void)state;
    for (int s = FD_OK; s <= (int)FD_STATUS_LAST; s++) {
        const char *name = fd_status_name((fd_status)s);
        assert_non_null(name);
        assert_true(name[0] != '\0');
        for (const char *c = name; *c != '\0'; c++) {
            assert_true((*c >= 'a' && *c <= 'z') || *c == '-');
        }
        assert_string_not_equal(name, "unknown");
        for (int t = FD_OK; t < s; t++) {
            assert_string_not_equal(name, fd_status_name((fd_status)t));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_selftest_fails_on_a_wrong_chacha20_block),
        cmocka_unit_test(test_lemire_map_at_width_31),
        cmocka_unit_test(test_record_field_length_is_exact),
        cmocka_unit_test(test_fullentropy_refuses_each_null_argument),
        cmocka_unit_test(test_rng_without_fill_refused),
        cmocka_unit_test(test_lab_cards_refuse_bounds_out_of_range),
        cmocka_unit_test(test_every_status_name_is_its_own),
#if STACK_PROBE_WORKS
        cmocka_unit_test(test_sattolo_wipes_every_draw),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
