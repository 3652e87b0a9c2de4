/* Direct tests for failure modes that the behavioural suites did not pin
 * down, each written against a mutant that survived them (tests/mutation,
 * scripts/mutation.sh; docs/RELIABILITY.md lists them): exact health-test
 * boundaries, state after clear and reseed, buffers wiped after use, a
 * scripted rejected word, contract edges of the DRBG and the shoe. Host
 * only (large buffers). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/bounded.h"
#include "fairdeal/chacha20.h"
#include "fairdeal/deck.h"
#include "fairdeal/drbg.h"
#include "fairdeal/entropy.h"
#include "fairdeal/fullentropy.h"
#include "fairdeal/health.h"
#include "fairdeal/shuffle.h"
#include "fake_trng.h"
#include "test_rng.h"

/* H = 2 bits per 8-bit sample: RCT 11, APT window 512 / cutoff 177,
 * predictor run 10 / window 177 (tools/gen_trng_config.c). */
static const fd_health_config h2 = {11, 512, 177, 1024, 10, 177};

static bool all_zero(const void *p, size_t len)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < len; i++) {
        if (b[i] != 0u) {
            return false;
        }
    }
    return true;
}

/* Feeds samples; returns the 1-based index of the first failing one, 0 if none. */
static uint32_t feed(fd_health *h, const uint8_t *samples, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (fd_health_feed(h, samples[i]) != FD_OK) {
            return (uint32_t)i + 1u;
        }
    }
    return 0;
}

/* APT: the window's first value seen exactly C times fails, on that sample.
 * v at every other sample, distinct fillers in between (no RCT run, no predictor
 * run longer than 1): the C-th v is sample 2C - 1. */
static void test_apt_fails_at_exactly_the_cutoff(void **state)
{
    (void)state;
    static uint8_t s[512];
    const uint8_t v = 0x55;
    uint8_t filler = 1;
    for (size_t i = 0; i < sizeof s; i++) {
        if (i % 2u == 0u) {
            s[i] = v;
        } else {
            s[i] = filler;
            filler = (uint8_t)(filler == 0xFFu ? 1u : filler + 1u);
            filler = (uint8_t)(filler == v ? filler + 1u : filler);
        }
    }
    fd_health h;
    assert_int_equal(fd_health_init(&h, &h2), FD_OK);
    assert_int_equal(feed(&h, s, sizeof s), 2u * h2.apt_cutoff - 1u);
    assert_int_equal(h.failure, FD_HEALTH_APT);
    /* one v fewer in the window passes */
    assert_int_equal(fd_health_init(&h, &h2), FD_OK);
    assert_int_equal(feed(&h, s, 2u * h2.apt_cutoff - 2u), 0);
}

/* The boundary is where an APT window ends: at init, then every W samples. */
static void test_window_boundary_follows_the_apt_window(void **state)
{
    (void)state;
    /* xorshift bytes: no run, no pattern the predictor could follow (a
     * counter would now be caught, docs/ENTROPY.md) */
    static uint8_t s[512];
    uint32_t x = 0x9E3779B9u;
    for (size_t i = 0; i < sizeof s; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        s[i] = (uint8_t)(x >> 24);
    }
    fd_health h;
    assert_int_equal(fd_health_init(&h, &h2), FD_OK);
    assert_true(fd_health_at_window_boundary(&h));
    assert_int_equal(feed(&h, s, 1), 0);
    assert_false(fd_health_at_window_boundary(&h));
    assert_int_equal(feed(&h, s + 1, h2.apt_window - 2u), 0);
    assert_false(fd_health_at_window_boundary(&h));
    assert_int_equal(feed(&h, s + h2.apt_window - 1u, 1), 0);
    assert_true(fd_health_at_window_boundary(&h));
}

static void test_health_needs_1024_startup_samples(void **state)
{
    (void)state;
    fd_health h;
    fd_health_config cfg = h2;
    cfg.startup_samples = 512; /* a multiple of the window, but too few */
    assert_int_equal(fd_health_init(&h, &cfg), FD_ERR_TOO_LARGE);
}

/* ---- predictor test: exact window cutoff, per-window and per-run resets ---- */

/* Feeds one sample chosen against the predictor's guess: a right guess when
 * `hit` (and the guess is scored: it does not repeat the last sample), else
 * a xorshift byte that misses. Returns whether a scored right guess was fed. */
static bool feed_against_guess(fd_health *h, bool hit, uint32_t *x, fd_status *st)
{
    const bool scored = h->samples > 0u && h->guess != (uint8_t)h->past[0];
    uint8_t sample;
    if (scored && hit) {
        sample = h->guess;
    } else {
        *x ^= *x << 13;
        *x ^= *x >> 17;
        *x ^= *x << 5;
        sample = (uint8_t)(*x >> 24);
        if (sample == h->guess) {
            sample ^= 0x01u;
        }
    }
    *st = fd_health_feed(h, sample);
    return scored && hit;
}

/* Right guesses never two in a row (the run stays below its cutoff): the
 * window cutoff alone decides. C - 1 hits in each of three windows pass,
 * the C-th hit in one window fails on that sample. */
static void test_predictor_fails_at_exactly_the_window_cutoff(void **state)
{
    (void)state;
    fd_health h;
    assert_int_equal(fd_health_init(&h, &h2), FD_OK);
    uint32_t x = 0x2545F491u;
    fd_status st = FD_OK;
    for (unsigned window = 0; window < 4u; window++) {
        const unsigned want = window < 3u ? h2.predict_window_cutoff - 1u : h2.predict_window_cutoff;
        unsigned hits = 0;
        for (unsigned i = 0; i < h2.apt_window && st == FD_OK; i++) {
            const bool hit = hits < want && h.predict_run == 0u;
            if (feed_against_guess(&h, hit, &x, &st)) {
                hits++;
            }
            assert_true(h.predict_run <= 1u);
        }
        if (window < 3u) {
            assert_int_equal(st, FD_OK);
            assert_int_equal(hits, want);
            assert_true(fd_health_at_window_boundary(&h));
        } else {
            assert_int_equal(st, FD_ERR_HEALTH);
            assert_int_equal(h.failure, FD_HEALTH_LAG);
            assert_int_equal(hits, h2.predict_window_cutoff);
            assert_int_equal(h.predict_hits, h2.predict_window_cutoff);
        }
    }
}

/* A guess that repeats the last sample is not scored: a stuck source is the
 * RCT's even when the predictor's run cutoff (2) is far below the RCT's. */
static void test_stuck_source_is_the_rcts_whatever_the_run_cutoff(void **state)
{
    (void)state;
    fd_health_config cfg = h2;
    cfg.predict_run_cutoff = 2;
    static const uint8_t values[3] = {0x00, 0x55, 0xFF};
    for (size_t v = 0; v < sizeof values; v++) {
        uint8_t s[64];
        memset(s, values[v], sizeof s);
        fd_health h;
        assert_int_equal(fd_health_init(&h, &cfg), FD_OK);
        assert_int_equal(feed(&h, s, sizeof s), cfg.rct_cutoff);
        assert_int_equal(h.failure, FD_HEALTH_RCT);
    }
}

/* ---- entropy pipeline: blocks wiped once served, and on a fault ---- */

static void pipeline(fd_entropy *e, fake_trng *t)
{
    fake_trng_init(t, FAKE_TRNG_RANDOM, 7);
    assert_int_equal(fd_entropy_init(e, fake_trng_read, t, &h2, 160), FD_OK);
    assert_int_equal(fd_entropy_startup(e), FD_OK);
}

static void test_entropy_pool_wiped_after_use_fault_and_startup(void **state)
{
    (void)state;
    fd_entropy e;
    fake_trng t;
    pipeline(&e, &t);
    uint8_t block[FD_ENTROPY_BLOCK];
    assert_int_equal(fd_entropy_get(&e, block), FD_OK);
    assert_int_equal(e.pool_count, 2);
    assert_true(all_zero(e.pool[2], FD_ENTROPY_BLOCK)); /* the block served */
    assert_false(all_zero(e.pool[0], FD_ENTROPY_BLOCK));
    /* a new start-up forgets the pool */
    assert_int_equal(fd_entropy_startup(&e), FD_OK);
    assert_int_equal(e.pool_count, 0);
    assert_true(all_zero(e.pool, sizeof e.pool));
    /* a window that fails after two blocks were conditioned: nothing kept */
    t.switch_at = t.delivered + 400u;
    t.later_mode = FAKE_TRNG_STUCK;
    t.value = 0x42;
    assert_int_equal(e.failures, 0);
    assert_int_equal(fd_entropy_get(&e, block), FD_ERR_HEALTH);
    assert_int_equal(e.state, FD_ENTROPY_FAILED);
    assert_true(all_zero(e.pool, sizeof e.pool));
    assert_int_equal(e.failures, 1); /* each latched fault counted once */
    assert_int_equal(e.startups_passed, 2);
}

/* ---- full-entropy generator ---- */

static void test_fullentropy_wipes_spent_bytes_and_clears_state(void **state)
{
    (void)state;
    test_prng p;
    const fd_rng source = test_prng_init(&p, 99);
    fd_fullentropy fe;
    assert_int_equal(fd_fullentropy_init(&fe, &source), FD_OK);
    uint32_t x;
    /* the first draw tops the range up to 2^56 exactly: 7 bytes */
    assert_int_equal(fd_fullentropy_uniform(&fe, 52, &x), FD_OK);
    assert_int_equal(fe.bits_used, 56);
    for (int i = 0; i < 20; i++) {
        assert_int_equal(fd_fullentropy_uniform(&fe, 52, &x), FD_OK);
    }
    assert_true(fe.buffer_pos < sizeof fe.buffer);
    assert_true(all_zero(fe.buffer, fe.buffer_pos)); /* spent bytes are gone */
    assert_false(all_zero(fe.buffer + fe.buffer_pos, sizeof fe.buffer - fe.buffer_pos));
    /* clear: as fresh as after init, and it draws as a fresh one does */
    fd_fullentropy_clear(&fe);
    assert_int_equal(fe.m, 1);
    assert_int_equal(fe.z, 0);
    assert_int_equal(fe.buffer_pos, sizeof fe.buffer);
    assert_true(all_zero(fe.buffer, sizeof fe.buffer));
    test_prng copy = p;
    const fd_rng copy_source = {source.fill, &copy, source.uniform};
    fd_fullentropy fresh;
    assert_int_equal(fd_fullentropy_init(&fresh, &copy_source), FD_OK);
    for (int i = 0; i < 200; i++) {
        uint32_t y;
        assert_int_equal(fd_fullentropy_uniform(&fe, 52u - (uint32_t)(i % 51), &x), FD_OK);
        assert_int_equal(fd_fullentropy_uniform(&fresh, 52u - (uint32_t)(i % 51), &y), FD_OK);
        assert_int_equal(x, y);
    }
}

static void test_fullentropy_fill_reaches_byte_255(void **state)
{
    (void)state;
    uint8_t ones[64];
    memset(ones, 0xFF, sizeof ones);
    test_script_rng s;
    const fd_rng source = test_script_rng_init(&s, ones, sizeof ones);
    fd_fullentropy fe;
    assert_int_equal(fd_fullentropy_init(&fe, &source), FD_OK);
    const fd_rng bytes = fd_fullentropy_rng(&fe);
    uint8_t out[2];
    assert_int_equal(bytes.fill(bytes.ctx, out, sizeof out), FD_OK);
    assert_int_equal(out[0], 0xFF); /* z = 2^56 - 1 in [0, 2^56): z mod 256 */
    assert_int_equal(out[1], 0xFF);
}

/* ---- ChaCha20 DRBG ---- */

static void chacha(fd_chacha_drbg *d, uint8_t seed_byte)
{
    uint8_t entropy[32];
    memset(entropy, seed_byte, sizeof entropy);
    assert_int_equal(fd_chacha_drbg_instantiate(d, entropy, sizeof entropy, NULL, 0, NULL, 0, 1000), FD_OK);
}

static void test_chacha_reseed_drops_the_buffer(void **state)
{
    (void)state;
    fd_chacha_drbg d;
    chacha(&d, 1);
    uint8_t out[40];
    assert_int_equal(fd_chacha_drbg_generate(&d, out, sizeof out, NULL, 0), FD_OK);
    assert_false(all_zero(d.buffer, sizeof d.buffer)); /* unread bytes are buffered */
    const uint8_t entropy[32] = {9};
    assert_int_equal(fd_chacha_drbg_reseed(&d, entropy, sizeof entropy, NULL, 0), FD_OK);
    assert_int_equal(d.pos, FD_CHACHA_DRBG_BUFFER);
    assert_true(all_zero(d.buffer, sizeof d.buffer));
}

static void test_chacha_reseed_chains_and_addl_counts(void **state)
{
    (void)state;
    fd_chacha_drbg a;
    fd_chacha_drbg b;
    chacha(&a, 1);
    chacha(&b, 2);
    const uint8_t entropy[32] = {7};
    assert_int_equal(fd_chacha_drbg_reseed(&a, entropy, sizeof entropy, NULL, 0), FD_OK);
    assert_int_equal(fd_chacha_drbg_reseed(&b, entropy, sizeof entropy, NULL, 0), FD_OK);
    uint8_t x[32];
    uint8_t y[32];
    assert_int_equal(fd_chacha_drbg_generate(&a, x, sizeof x, NULL, 0), FD_OK);
    assert_int_equal(fd_chacha_drbg_generate(&b, y, sizeof y, NULL, 0), FD_OK);
    assert_memory_not_equal(x, y, sizeof x); /* the old state still counts */
    chacha(&a, 3);
    chacha(&b, 3);
    const uint8_t addl[] = "table 4";
    assert_int_equal(fd_chacha_drbg_generate(&a, x, sizeof x, addl, sizeof addl), FD_OK);
    assert_int_equal(fd_chacha_drbg_generate(&b, y, sizeof y, NULL, 0), FD_OK);
    assert_memory_not_equal(x, y, sizeof x);
}

/* ---- fd_drbg policy and contract ---- */

static void drbg_from_counting_source(fd_drbg *d, test_entropy_source *src, fd_drbg_kind kind, uint32_t reseed_bytes)
{
    *src = (test_entropy_source){0, 0, FD_OK};
    const fd_drbg_config cfg = {kind, false, 1000, reseed_bytes};
    assert_int_equal(fd_drbg_instantiate(d, &cfg, test_entropy_block, src, NULL, 0), FD_OK);
}

static void test_drbg_reseeds_when_the_byte_budget_is_spent(void **state)
{
    (void)state;
    test_entropy_source src;
    fd_drbg d;
    drbg_from_counting_source(&d, &src, FD_DRBG_CHACHA20, 64);
    uint8_t out[64];
    assert_int_equal(fd_drbg_generate(&d, out, sizeof out), FD_OK);
    assert_int_equal(d.reseeds, 0);
    assert_int_equal(fd_drbg_generate(&d, out, 1), FD_OK); /* 64 of 64 spent: reseed first */
    assert_int_equal(d.reseeds, 1);
}

static void test_drbg_serves_requests_above_the_mechanism_limit(void **state)
{
    (void)state;
    static uint8_t out[FD_HMAC_DRBG_MAX_REQUEST + 1u];
    test_entropy_source src;
    fd_drbg d;
    drbg_from_counting_source(&d, &src, FD_DRBG_HMAC_SHA256, 0);
    assert_int_equal(fd_drbg_generate(&d, out, sizeof out), FD_OK);
    assert_false(all_zero(out + FD_HMAC_DRBG_MAX_REQUEST - 32u, 33));
}

static void test_drbg_bad_interval_leaves_the_old_state(void **state)
{
    (void)state;
    test_entropy_source src;
    fd_drbg d;
    drbg_from_counting_source(&d, &src, FD_DRBG_CHACHA20, 0);
    fd_drbg before;
    memcpy(&before, &d, sizeof d);
    const unsigned calls = src.calls;
    const fd_drbg_config zero = {FD_DRBG_CHACHA20, false, 0, 0};
    assert_int_equal(fd_drbg_instantiate(&d, &zero, test_entropy_block, &src, NULL, 0), FD_ERR_TOO_LARGE);
    assert_int_equal(src.calls, calls); /* no entropy spent */
    assert_memory_equal(&d, &before, sizeof d);
}

/* ---- shoe ---- */

static void test_shoe_edges(void **state)
{
    (void)state;
    fd_shoe shoe;
    assert_int_equal(fd_shoe_init(&shoe, FD_DECK_FRENCH, 2, 0), FD_OK);
    assert_int_equal(shoe.count, 104);
    for (size_t i = 0; i < shoe.count; i++) {
        assert_true((shoe.order[i] & ((1u << FD_CARD_COPY_SHIFT) - 1u)) < 52u); /* no joker */
    }
    assert_int_equal(fd_shoe_set_cut(&shoe, shoe.count), FD_OK); /* cut at the last card */
    assert_int_equal(fd_shoe_set_cut(&shoe, (uint16_t)(shoe.count + 1u)), FD_ERR_TOO_LARGE);
}

/* ---- bounded integers ---- */

/* At width 24 the product word * bound exceeds 32 bits: the value is the
 * whole product shifted down, high word included. */
static void test_lemire_map_keeps_the_high_word(void **state)
{
    (void)state;
    uint32_t out = 0;
    const uint32_t word = 0xFFFFFFu;
    const uint32_t bound = 0xFFFFFEu;
    assert_true(fd_lemire_map(word, bound, 24, &out));
    assert_int_equal(out, (uint32_t)(((uint64_t)word * bound) >> 24));
}

/* ---- the shuffle's group word rejection ---- */

/* Word 0 is rejected for the first group of a 52-card shuffle (its low part
 * 0 is below 2^32 mod 52*51*50*49*48): the shuffle must skip it and draw
 * that group from the next word fetched, giving the same order as a script
 * that starts with that word. */
static void test_shuffle_skips_a_rejected_group_word(void **state)
{
    (void)state;
    uint32_t bounds[51];
    uint32_t j[51];
    for (uint32_t t = 0; t < 51u; t++) {
        bounds[t] = 52u - t;
        j[t] = (7u * t + 3u) % bounds[t];
    }
    uint32_t words[51];
    const size_t groups = test_words_for_batches(j, bounds, 51, words);
    const uint64_t product = 52ull * 51u * 50u * 49u * 48u;
    assert_true((1ull << 32) % product > 0u);
    uint16_t probe[5];
    assert_false(fd_batch_map(0, 52, 5, 32, probe));
    /* script A: the good words; script B: word 0 first, the other groups' words, then the first group's word */
    uint32_t script_b[52];
    script_b[0] = 0;
    memcpy(script_b + 1, words + 1, (groups - 1u) * sizeof words[0]);
    script_b[groups] = words[0];
    uint8_t bytes_a[4 * 52];
    uint8_t bytes_b[4 * 52];
    test_words_to_bytes(words, groups, bytes_a);
    test_words_to_bytes(script_b, groups + 1u, bytes_b);
    uint8_t deck_a[52];
    uint8_t deck_b[52];
    for (uint8_t i = 0; i < 52u; i++) {
        deck_a[i] = i;
    }
    memcpy(deck_b, deck_a, sizeof deck_b);
    test_script_rng sa;
    test_script_rng sb;
    const fd_rng ra = test_script_rng_init(&sa, bytes_a, 4u * groups);
    const fd_rng rb = test_script_rng_init(&sb, bytes_b, 4u * (groups + 1u));
    assert_int_equal(fd_shuffle_u8(deck_a, 52, &ra), FD_OK);
    assert_int_equal(fd_shuffle_u8(deck_b, 52, &rb), FD_OK);
    assert_memory_equal(deck_a, deck_b, 52);
    assert_int_equal(sb.pos, 4u * (groups + 1u)); /* every scripted word used, the rejected one too */
}

/* A partial shuffle groups only the draws it needs: dealing 3 of 52 cards
 * takes one word for the bounds 52, 51, 50, judged by that group's own
 * rejection zone. A word accepted for those three bounds but rejected for
 * the five bounds 52..48 must be used as it is. */
static void test_partial_shuffle_groups_only_its_draws(void **state)
{
    (void)state;
    uint32_t word = 1;
    uint16_t three[3];
    uint16_t five[5];
    while (!fd_batch_map(word, 52, 3, 32, three) || fd_batch_map(word, 52, 5, 32, five)) {
        word++;
    }
    uint8_t bytes[4];
    test_words_to_bytes(&word, 1, bytes);
    test_script_rng s;
    const fd_rng rng = test_script_rng_init(&s, bytes, sizeof bytes);
    uint8_t deck[52];
    uint8_t want[52];
    for (uint8_t i = 0; i < 52u; i++) {
        deck[i] = i;
        want[i] = i;
    }
    for (size_t i = 0; i < 3u; i++) {
        const uint8_t x = want[i];
        want[i] = want[i + three[i]];
        want[i + three[i]] = x;
    }
    assert_int_equal(fd_shuffle_partial_u8(deck, 52, 3, &rng), FD_OK);
    assert_memory_equal(deck, want, sizeof deck);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_apt_fails_at_exactly_the_cutoff),
        cmocka_unit_test(test_window_boundary_follows_the_apt_window),
        cmocka_unit_test(test_health_needs_1024_startup_samples),
        cmocka_unit_test(test_predictor_fails_at_exactly_the_window_cutoff),
        cmocka_unit_test(test_stuck_source_is_the_rcts_whatever_the_run_cutoff),
        cmocka_unit_test(test_entropy_pool_wiped_after_use_fault_and_startup),
        cmocka_unit_test(test_fullentropy_wipes_spent_bytes_and_clears_state),
        cmocka_unit_test(test_fullentropy_fill_reaches_byte_255),
        cmocka_unit_test(test_chacha_reseed_drops_the_buffer),
        cmocka_unit_test(test_chacha_reseed_chains_and_addl_counts),
        cmocka_unit_test(test_drbg_reseeds_when_the_byte_budget_is_spent),
        cmocka_unit_test(test_drbg_serves_requests_above_the_mechanism_limit),
        cmocka_unit_test(test_drbg_bad_interval_leaves_the_old_state),
        cmocka_unit_test(test_shoe_edges),
        cmocka_unit_test(test_lemire_map_keeps_the_high_word),
        cmocka_unit_test(test_shuffle_skips_a_rejected_group_word),
        cmocka_unit_test(test_partial_shuffle_groups_only_its_draws),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
