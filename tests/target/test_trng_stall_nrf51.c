/* On the micro:bit, with SysTick never started (the nRF51 has none): a
 * stalled RNG makes hal_trng_read fail with FD_ERR_TRNG_TIMEOUT within its
 * bound, timed on TIMER0. Before the TIMER0 time base this read would have
 * spun forever on silicon, where SysTick does not exist. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hal/counter.h"
#include "hal/trng.h"
#include "nrf51.h"

#define SYSTICK_CSR_ENABLE_TICKINT 0x3u

static void test_systick_is_never_started(void **state)
{
    (void)state;
    /* QEMU models a SysTick the chip lacks: it must stay off and unread. */
    assert_int_equal(SYSTICK_CSR & SYSTICK_CSR_ENABLE_TICKINT, 0u);
    assert_int_equal(SYSTICK_CVR, 0u);
}

static void test_stalled_rng_times_out(void **state)
{
    (void)state;
    assert_int_equal(hal_trng_init(), FD_OK);
    uint8_t sample[4];
    assert_int_equal(hal_trng_read(sample, sizeof sample), FD_OK);
    RNG_TASKS_STOP = 1u; /* the stall: no VALRDY from now on */
    RNG_EVENTS_VALRDY = 0u;
    sample[0] = 0xA5u;
    const uint32_t start = hal_counter_read();
    assert_int_equal(hal_trng_read(sample, 1), FD_ERR_TRNG_TIMEOUT);
    const uint32_t waited = hal_counter_read() - start;
    assert_int_equal(sample[0], 0xA5u);
    /* the driver's bound is FD_CPU_HZ / 4 (250 ms); it must not give up
     * early, nor hang (QEMU without -icount runs on host time, so a loaded
     * host can stretch the wait: 10 s is the limit) */
    assert_true(waited > FD_CPU_HZ / 4u);
    assert_true(waited < FD_CPU_HZ * 10u);
    /* SysTick played no part */
    assert_int_equal(SYSTICK_CSR & SYSTICK_CSR_ENABLE_TICKINT, 0u);
    /* a restarted source delivers again */
    assert_int_equal(hal_trng_init(), FD_OK);
    assert_int_equal(hal_trng_read(sample, sizeof sample), FD_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_systick_is_never_started),
        cmocka_unit_test(test_stalled_rng_times_out),
        cmocka_unit_test(test_systick_is_never_started),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
