/* fairdeal::host_entropy's one call, over a fake TRNG in place of the OS
 * driver (the real getrandom path runs in examples/shuffle-structs): the
 * pipeline opens only after the start-up health tests pass, a stuck or
 * faulting TRNG at open or later fails closed with zeroed output and stays
 * failed, bad arguments change nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/host_entropy.h"
#include "fake_trng.h"
#include "hal/trng.h"

/* The HAL TRNG this test links instead of boards/host/trng.c. */
static fake_trng trng;
static fd_status trng_init_status;

fd_status hal_trng_init(void) { return trng_init_status; }
fd_status hal_trng_read(uint8_t *samples, size_t count) { return fake_trng_read(&trng, samples, count); }
const char *hal_trng_name(void) { return "fake"; }

static fd_host_entropy source;
static const fd_rng untouched = {NULL, &trng, NULL};

static void healthy(uint64_t seed)
{
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, seed);
    trng_init_status = FD_OK;
}

static bool all_zero(const void *p, size_t len)
{
    const uint8_t *b = p;
    uint8_t any = 0;
    for (size_t i = 0; i < len; i++) {
        any |= b[i];
    }
    return any == 0u;
}

static void test_open_draw_close(void **st)
{
    (void)st;
    healthy(1);
    fd_rng rng = untouched;
    assert_int_equal(fd_host_entropy_open(&source, NULL, &rng), FD_OK);
    assert_true(trng.delivered >= 1024u); /* start-up samples were read */
    assert_int_equal(source.drbg.cfg.kind, FD_DRBG_CHACHA20);
    uint8_t a[64];
    assert_int_equal(rng.fill(rng.ctx, a, sizeof a), FD_OK);
    assert_false(all_zero(a, sizeof a));

    /* another TRNG stream gives other bytes; the same gives the same */
    fd_host_entropy other;
    fd_rng r2;
    healthy(2);
    assert_int_equal(fd_host_entropy_open(&other, NULL, &r2), FD_OK);
    uint8_t b[64];
    assert_int_equal(r2.fill(r2.ctx, b, sizeof b), FD_OK);
    assert_memory_not_equal(a, b, sizeof a);
    healthy(1);
    assert_int_equal(fd_host_entropy_open(&other, NULL, &r2), FD_OK);
    assert_int_equal(r2.fill(r2.ctx, b, sizeof b), FD_OK);
    assert_memory_equal(a, b, sizeof a);

    fd_host_entropy_close(&source);
    assert_true(all_zero(&source, sizeof source));
    assert_int_equal(rng.fill(rng.ctx, a, sizeof a), FD_ERR_NOT_READY);
}

static void test_stuck_trng_never_opens(void **st)
{
    (void)st;
    fake_trng_init(&trng, FAKE_TRNG_STUCK, 1);
    trng.value = 0x42;
    trng_init_status = FD_OK;
    memset(&source, 0x5A, sizeof source);
    fd_rng rng = untouched;
    assert_int_equal(fd_host_entropy_open(&source, NULL, &rng), FD_ERR_HEALTH);
    assert_true(all_zero(&source, sizeof source));
    assert_memory_equal(&rng, &untouched, sizeof rng);
}

static void test_trng_faults_fail_open(void **st)
{
    (void)st;
    fd_rng rng = untouched;
    healthy(3);
    trng_init_status = FD_ERR_TRNG_HW;
    assert_int_equal(fd_host_entropy_open(&source, NULL, &rng), FD_ERR_TRNG_HW);
    assert_int_equal(trng.delivered, 0);

    healthy(3);
    trng.fault_at = 700; /* during the start-up tests */
    trng.fault_status = FD_ERR_TRNG_TIMEOUT;
    assert_int_equal(fd_host_entropy_open(&source, NULL, &rng), FD_ERR_TRNG_TIMEOUT);

    healthy(3);
    trng.fault_at = 1500; /* while seeding the DRBG */
    assert_int_equal(fd_host_entropy_open(&source, NULL, &rng), FD_ERR_TRNG_HW);
    assert_true(all_zero(&source, sizeof source));
    assert_memory_equal(&rng, &untouched, sizeof rng);
}

/* With prediction resistance every fill reseeds through the health tests:
 * a TRNG that sticks after open is caught at the next fill, and the latch
 * holds even once the TRNG looks healthy again. */
static void test_failure_after_open_is_latched(void **st)
{
    (void)st;
    healthy(4);
    const fd_drbg_config pr = {FD_DRBG_HMAC_SHA256, true, 1000, 0};
    fd_rng rng = untouched;
    assert_int_equal(fd_host_entropy_open(&source, &pr, &rng), FD_OK);
    uint8_t out[32];
    assert_int_equal(rng.fill(rng.ctx, out, sizeof out), FD_OK);
    trng.switch_at = trng.delivered;
    trng.later_mode = FAKE_TRNG_STUCK;
    trng.value = 7;
    /* blocks conditioned from the last healthy window are still served;
     * the first fill that needs a stuck window fails */
    fd_status fill_st = FD_OK;
    unsigned fills = 0;
    while (fill_st == FD_OK && fills < 16u) {
        memset(out, 0xAA, sizeof out);
        fill_st = rng.fill(rng.ctx, out, sizeof out);
        fills++;
    }
    assert_int_equal(fill_st, FD_ERR_HEALTH);
    assert_in_range(fills, 1, FD_ENTROPY_POOL_BLOCKS + 1u);
    assert_true(all_zero(out, sizeof out));
    trng.switch_at = 0;
    assert_int_equal(rng.fill(rng.ctx, out, sizeof out), FD_ERR_HEALTH);
    assert_true(all_zero(out, sizeof out));
}

static void test_bad_arguments(void **st)
{
    (void)st;
    healthy(5);
    fd_rng rng = untouched;
    assert_int_equal(fd_host_entropy_open(NULL, NULL, &rng), FD_ERR_NULL);
    assert_int_equal(fd_host_entropy_open(&source, NULL, NULL), FD_ERR_NULL);
    const fd_drbg_config bad_kind = {(fd_drbg_kind)9, false, 1000, 0};
    const fd_drbg_config bad_interval = {FD_DRBG_CHACHA20, false, 0, 0};
    assert_int_equal(fd_host_entropy_open(&source, &bad_kind, &rng), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_host_entropy_open(&source, &bad_interval, &rng), FD_ERR_TOO_LARGE);
    assert_memory_equal(&rng, &untouched, sizeof rng);
    fd_host_entropy_close(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_draw_close),       cmocka_unit_test(test_stuck_trng_never_opens),
        cmocka_unit_test(test_trng_faults_fail_open), cmocka_unit_test(test_failure_after_open_is_latched),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
