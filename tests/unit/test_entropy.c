/* The raw-sample path: SP 800-90B health tests against every fault the
 * fake TRNG can play, the conditioning pipeline's fail-closed latch and
 * recovery, and the full-entropy generator (exactness, bit economy). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#if !defined(FD_TARGET_CORTEX_M)
#include <math.h>
#include <stdio.h>
#endif

#include "fairdeal/entropy.h"
#include "fairdeal/fullentropy.h"
#include "fairdeal/health.h"
#include "fairdeal/sha256.h"
#include "fairdeal/shuffle.h"
#include "fake_trng.h"
#include "test_rng.h"

/* H = 2 bits per 8-bit sample (the nRF5x / STM32 boards' assessment). */
static const fd_health_config h2 = {11, 512, 177, 1024};
#define H2_SAMPLES_PER_BLOCK 160u

static void feed_until_fail(fd_health *h, fake_trng *t, uint32_t limit)
{
    for (uint32_t i = 0; i < limit; i++) {
        uint8_t s;
        assert_int_equal(fake_trng_read(t, &s, 1), FD_OK);
        if (fd_health_feed(h, s) != FD_OK) {
            return;
        }
    }
}

static void test_health_config_checked(void **state)
{
    (void)state;
    fd_health h;
    fd_health_config bad = h2;
    assert_int_equal(fd_health_init(NULL, &h2), FD_ERR_NULL);
    bad.rct_cutoff = 1;
    assert_int_equal(fd_health_init(&h, &bad), FD_ERR_TOO_LARGE);
    bad = h2;
    bad.apt_cutoff = 513;
    assert_int_equal(fd_health_init(&h, &bad), FD_ERR_TOO_LARGE);
    bad = h2;
    bad.startup_samples = 1000;
    assert_int_equal(fd_health_init(&h, &bad), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_health_init(&h, &h2), FD_OK);
}

/* Stuck-at: the RCT fires on exactly the C-th identical sample. */
static void test_stuck_detected_at_rct_cutoff(void **state)
{
    (void)state;
    const uint8_t values[2] = {0x00, 0xFF};
    for (int v = 0; v < 2; v++) {
        fake_trng t;
        fake_trng_init(&t, FAKE_TRNG_STUCK, 1);
        t.value = values[v];
        fd_health h;
        assert_int_equal(fd_health_init(&h, &h2), FD_OK);
        feed_until_fail(&h, &t, 10000);
        assert_int_equal(h.failure, FD_HEALTH_RCT);
        assert_int_equal(h.failed_at_sample, h2.rct_cutoff);
        assert_int_equal(fd_health_feed(&h, 0x12), FD_ERR_HEALTH); /* latched */
    }
}

/* A short repeating pattern evades the RCT, and with 3 or more distinct
 * values the APT too (512/3 < 177 at H = 2). The lag test sees every
 * sample equal the one p back: period p fails at sample p + LAG_CUTOFF - 1.
 * Period 9 is beyond it: that limit is stated, and tested, here. */
static void test_patterns_detected_by_lag_test(void **state)
{
    (void)state;
    static const uint8_t pattern[9] = {0x5A, 0xA5, 0x3C, 0xC3, 0x0F, 0xF0, 0x66, 0x99, 0x11};
    const uint32_t matches_to_fail = FD_HEALTH_LAG_CUTOFF(h2.rct_cutoff) - 1u;
    assert_int_equal(FD_HEALTH_LAG_CUTOFF(11u), 13u);
    assert_int_equal(FD_HEALTH_LAG_CUTOFF(21u), 24u);
    for (size_t period = 2; period <= 9u; period++) {
        fake_trng t;
        fake_trng_init(&t, FAKE_TRNG_PATTERN, 1);
        t.pattern = pattern;
        t.pattern_len = period;
        fd_health h;
        assert_int_equal(fd_health_init(&h, &h2), FD_OK);
        feed_until_fail(&h, &t, 10000);
        if (period <= FD_HEALTH_MAX_LAG) {
            assert_int_equal(h.failure, FD_HEALTH_LAG);
            assert_int_equal(h.failed_at_sample, period + matches_to_fail);
        } else {
            assert_int_equal(h.failure, FD_HEALTH_NONE);
        }
    }
}

/* Bits with P(1) = 0.9: the byte 0xFF has probability 0.43, far above the
 * 2^-2 the H = 2 assessment allows; the APT catches it in the first window
 * that opens with 0xFF. The bound asserted is 4 windows (2048 samples). */
static void test_bias_detected(void **state)
{
    (void)state;
    fake_trng t;
    fake_trng_init(&t, FAKE_TRNG_BIASED, 2024);
    t.p1_per_mille = 900;
    fd_health h;
    assert_int_equal(fd_health_init(&h, &h2), FD_OK);
    feed_until_fail(&h, &t, 100000);
    assert_true(h.failure != FD_HEALTH_NONE);
    assert_true(h.failed_at_sample <= 4u * h2.apt_window);
}

static void test_healthy_source_passes_long_run(void **state)
{
    (void)state;
    fake_trng t;
    fake_trng_init(&t, FAKE_TRNG_RANDOM, 99);
    fd_health h;
    assert_int_equal(fd_health_init(&h, &h2), FD_OK);
    for (uint32_t i = 0; i < 200000u; i++) {
        uint8_t s;
        assert_int_equal(fake_trng_read(&t, &s, 1), FD_OK);
        assert_int_equal(fd_health_feed(&h, s), FD_OK);
    }
}

static void test_pipeline_needs_startup_and_delivers(void **state)
{
    (void)state;
    fake_trng t;
    fake_trng_init(&t, FAKE_TRNG_RANDOM, 5);
    fd_entropy e;
    uint8_t block[32];
    assert_int_equal(fd_entropy_init(&e, fake_trng_read, &t, &h2, H2_SAMPLES_PER_BLOCK), FD_OK);
    assert_int_equal(fd_entropy_get(&e, block), FD_ERR_NOT_READY);
    assert_int_equal(t.delivered, 0);
    assert_int_equal(fd_entropy_startup(&e), FD_OK);
    assert_int_equal(t.delivered, 1024);
    uint8_t prev[32] = {0};
    for (int i = 0; i < 9; i++) {
        assert_int_equal(fd_entropy_get(&e, block), FD_OK);
        assert_memory_not_equal(block, prev, 32);
        memcpy(prev, block, 32);
    }
    /* 3 blocks of 160 samples per 512-sample window: 9 blocks = 3 windows */
    assert_int_equal(t.delivered, 1024u + 3u * 512u);
    assert_int_equal(e.blocks_out, 9);
    assert_int_equal(fd_entropy_init(&e, NULL, &t, &h2, 160), FD_ERR_NULL);
    assert_int_equal(fd_entropy_init(&e, fake_trng_read, &t, &h2, 513), FD_ERR_TOO_LARGE);
}

/* The conditioned block is HMAC-SHA-256(key, the block's raw samples):
 * check the first one against a scripted source. */
static void test_conditioning_is_hmac_of_samples(void **state)
{
    (void)state;
    static uint8_t script[1024 + 512];
    for (size_t i = 0; i < sizeof script; i++) {
        script[i] = (uint8_t)(i * 7u + (i >> 8));
    }
    fake_trng t;
    fake_trng_init(&t, FAKE_TRNG_SCRIPT, 0);
    t.pattern = script;
    t.pattern_len = sizeof script;
    fd_entropy e;
    assert_int_equal(fd_entropy_init(&e, fake_trng_read, &t, &h2, H2_SAMPLES_PER_BLOCK), FD_OK);
    assert_int_equal(fd_entropy_startup(&e), FD_OK);
    uint8_t got[32];
    uint8_t want[32];
    static const uint8_t key[32] = "fairdeal SP800-90B conditioner1";
    /* blocks are handed out last-conditioned first: the third block of the
     * window (samples 320..479 after start-up) comes first */
    assert_int_equal(fd_entropy_get(&e, got), FD_OK);
    fd_hmac_sha256(key, 32, script + 1024 + 320, 160, want);
    assert_memory_equal(got, want, 32);
    assert_int_equal(fd_entropy_get(&e, got), FD_OK);
    fd_hmac_sha256(key, 32, script + 1024 + 160, 160, want);
    assert_memory_equal(got, want, 32);
}

typedef struct fault_case {
    const char *name;
    fake_trng_mode later_mode;
    uint8_t value;
    unsigned p1;
    uint64_t fault_at;
    fd_status fault_status;
    fd_status expected;
} fault_case;

/* Faults arriving after a healthy start-up: the pipeline latches, hands out
 * nothing from the failing window, and recovers only through start-up. */
static void test_pipeline_fails_closed_and_recovers(void **state)
{
    (void)state;
    static const uint8_t pattern[2] = {1, 2};
    const fault_case cases[] = {
        {"stuck0", FAKE_TRNG_STUCK, 0x00, 0, 0, FD_OK, FD_ERR_HEALTH},
        {"stuck1", FAKE_TRNG_STUCK, 0xFF, 0, 0, FD_OK, FD_ERR_HEALTH},
        {"pattern", FAKE_TRNG_PATTERN, 0, 0, 0, FD_OK, FD_ERR_HEALTH},
        {"bias", FAKE_TRNG_BIASED, 0, 900, 0, FD_OK, FD_ERR_HEALTH},
        {"hw-error", FAKE_TRNG_RANDOM, 0, 0, 1024 + 600, FD_ERR_TRNG_HW, FD_ERR_TRNG_HW},
        {"timeout", FAKE_TRNG_RANDOM, 0, 0, 1024 + 100, FD_ERR_TRNG_TIMEOUT, FD_ERR_TRNG_TIMEOUT},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fake_trng t;
        fake_trng_init(&t, FAKE_TRNG_RANDOM, 77 + c);
        t.switch_at = 1024u + 512u; /* healthy start-up and first window */
        t.later_mode = cases[c].later_mode;
        t.value = cases[c].value;
        t.p1_per_mille = cases[c].p1 != 0u ? cases[c].p1 : 500u;
        t.pattern = pattern;
        t.pattern_len = 2;
        t.fault_at = cases[c].fault_at;
        t.fault_status = cases[c].fault_status;
        fd_entropy e;
        assert_int_equal(fd_entropy_init(&e, fake_trng_read, &t, &h2, H2_SAMPLES_PER_BLOCK), FD_OK);
        assert_int_equal(fd_entropy_startup(&e), FD_OK);
        uint8_t block[32];
        fd_status st = FD_OK;
        uint32_t good = 0;
        for (int i = 0; i < 30 && st == FD_OK; i++) {
            memset(block, 0xEE, sizeof block);
            st = fd_entropy_get(&e, block);
            good += st == FD_OK;
        }
        assert_int_equal(st, cases[c].expected);
        assert_int_equal(block[0], 0xEE); /* nothing written on failure */
        assert_int_equal(e.state, FD_ENTROPY_FAILED);
        /* healthy-window blocks only: the hw/timeout cases fail in window 1
         * or 2; the health cases fail in the first window after the switch */
        assert_true(good <= 3u);
        if (cases[c].fault_at == 1024u + 600u) {
            assert_int_equal(good, 3);
        }
        /* latched: no more output, and no more samples drawn */
        uint64_t drawn = t.delivered;
        assert_int_equal(fd_entropy_get(&e, block), cases[c].expected);
        assert_int_equal(t.delivered, drawn);
        /* recovery: start-up on a (deterministically) faulty source fails
         * again ... */
        if (cases[c].expected == FD_ERR_HEALTH && cases[c].later_mode != FAKE_TRNG_BIASED) {
            assert_int_equal(fd_entropy_startup(&e), FD_ERR_HEALTH);
        }
        /* ... and passes once the source is healthy again */
        t.mode = FAKE_TRNG_RANDOM;
        t.switch_at = 0;
        t.fault_at = 0;
        assert_int_equal(fd_entropy_startup(&e), FD_OK);
        assert_int_equal(fd_entropy_get(&e, block), FD_OK);
    }
}

static void test_failure_during_startup(void **state)
{
    (void)state;
    fake_trng t;
    fake_trng_init(&t, FAKE_TRNG_RANDOM, 3);
    t.switch_at = 300;
    t.later_mode = FAKE_TRNG_STUCK;
    fd_entropy e;
    assert_int_equal(fd_entropy_init(&e, fake_trng_read, &t, &h2, H2_SAMPLES_PER_BLOCK), FD_OK);
    assert_int_equal(fd_entropy_startup(&e), FD_ERR_HEALTH);
    assert_int_equal(e.health.failed_at_sample, 300u + h2.rct_cutoff);
    uint8_t block[32];
    assert_int_equal(fd_entropy_get(&e, block), FD_ERR_HEALTH);
}

#if defined(FD_TARGET_CORTEX_M)
#define SPLIT_MAX_M 90u /* fits a bitmap in the micro:bit's 16 KiB */
#else
#define SPLIT_MAX_M 300u
#endif

/* fd_fullentropy_split, exhaustively for every m up to SPLIT_MAX_M and bound up to
 * m: accepted z map one-to-one onto (x, z') in [0,b) x [0,q), rejected z
 * one-to-one onto [0, m mod b). So from uniform z the draw is exactly
 * uniform and the leftover uniform and independent of it. */
static void test_fullentropy_split_exhaustive(void **state)
{
    (void)state;
    static uint8_t seen[(SPLIT_MAX_M * SPLIT_MAX_M + 7u) / 8u];
    for (uint64_t m = 1; m <= SPLIT_MAX_M; m++) {
        for (uint32_t b = 1; b <= m; b++) {
            const uint64_t q = m / b;
            const uint64_t r = m % b;
            memset(seen, 0, sizeof seen);
            uint64_t rejected_mask_count = 0;
            for (uint64_t z0 = 0; z0 < m; z0++) {
                uint64_t z = z0;
                uint64_t mm = m;
                uint32_t x = 0;
                if (fd_fullentropy_split(&z, &mm, b, &x)) {
                    assert_int_equal(mm, q);
                    assert_true(x < b && z < q);
                    size_t cell = (size_t)(x * q + z);
                    assert_int_equal(seen[cell / 8u] & (1u << (cell % 8u)), 0);
                    seen[cell / 8u] = (uint8_t)(seen[cell / 8u] | (1u << (cell % 8u)));
                } else {
                    assert_int_equal(mm, r);
                    assert_true(z < r);
                    rejected_mask_count++;
                }
            }
            assert_int_equal(rejected_mask_count, r);
        }
    }
}

static fd_fullentropy fe_for_errors;

#if defined(FD_TARGET_CORTEX_M)
#define ECONOMY_SHUFFLES 2000u
#else
#define ECONOMY_SHUFFLES 100000u
#endif

/* Goal: at most 228 bits per 52-card shuffle on average (floor 225.58).
 * On the host it also prints the figures for 104 and 416 cards
 * ("economy <cards> <bits per shuffle> <floor>") for docs/PERFORMANCE.md. */
static void test_fullentropy_bits_per_shuffle(void **state)
{
    (void)state;
    static const struct {
        size_t cards;
        uint32_t floor_bits; /* ceil(log2(n!)) */
        uint32_t shuffles;
    } sizes[] = {{52, 226, ECONOMY_SHUFFLES}, {104, 552, ECONOMY_SHUFFLES / 10u}, {416, 3025, ECONOMY_SHUFFLES / 50u}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        test_prng p;
        fd_rng bytes = test_prng_init(&p, 52);
        fd_fullentropy fe;
        assert_int_equal(fd_fullentropy_init(&fe, &bytes), FD_OK);
        fd_rng rng = fd_fullentropy_rng(&fe);
        static uint16_t deck[416];
        for (size_t i = 0; i < sizes[k].cards; i++) {
            deck[i] = (uint16_t)i;
        }
        for (uint32_t s = 0; s < sizes[k].shuffles; s++) {
            assert_int_equal(fd_shuffle_u16(deck, sizes[k].cards, &rng), FD_OK);
        }
        /* within 1% over the floor, and never below it (less is impossible) */
        assert_true(fe.bits_used * 100u <= (uint64_t)sizes[k].floor_bits * 101u * sizes[k].shuffles);
        assert_true(fe.bits_used >= (uint64_t)(sizes[k].floor_bits - 1u) * sizes[k].shuffles);
        if (sizes[k].cards == 52u) {
            assert_true(fe.bits_used <= 228u * (uint64_t)sizes[k].shuffles);
        }
#if !defined(FD_TARGET_CORTEX_M)
        double floor_bits = 0;
        for (size_t i = 2; i <= sizes[k].cards; i++) {
            floor_bits += log2((double)i);
        }
        printf("economy %zu %.3f %.3f\n", sizes[k].cards, (double)fe.bits_used / sizes[k].shuffles, floor_bits);
#endif
    }
    uint32_t v;
    assert_int_equal(fd_fullentropy_uniform(&fe_for_errors, 0, &v), FD_ERR_BOUND);
    assert_int_equal(fd_fullentropy_init(&fe_for_errors, NULL), FD_ERR_NULL);
}

static void test_fullentropy_source_failure(void **state)
{
    (void)state;
    uint8_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    test_script_rng s;
    fd_rng src = test_script_rng_init(&s, bytes, sizeof bytes); /* fails: wants 32 */
    fd_fullentropy fe;
    assert_int_equal(fd_fullentropy_init(&fe, &src), FD_OK);
    fd_rng rng = fd_fullentropy_rng(&fe);
    uint8_t deck[4] = {0, 1, 2, 3};
    assert_int_equal(fd_shuffle_u8(deck, 4, &rng), FD_ERR_RNG);
    const uint8_t same[4] = {0, 1, 2, 3};
    assert_memory_equal(deck, same, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_health_config_checked),
        cmocka_unit_test(test_stuck_detected_at_rct_cutoff),
        cmocka_unit_test(test_patterns_detected_by_lag_test),
        cmocka_unit_test(test_bias_detected),
        cmocka_unit_test(test_healthy_source_passes_long_run),
        cmocka_unit_test(test_pipeline_needs_startup_and_delivers),
        cmocka_unit_test(test_conditioning_is_hmac_of_samples),
        cmocka_unit_test(test_pipeline_fails_closed_and_recovers),
        cmocka_unit_test(test_failure_during_startup),
        cmocka_unit_test(test_fullentropy_split_exhaustive),
        cmocka_unit_test(test_fullentropy_bits_per_shuffle),
        cmocka_unit_test(test_fullentropy_source_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
