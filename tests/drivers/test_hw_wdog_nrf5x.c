/* nRF51/nRF52 WDT and RESETREAS (boards/common/nrf5x/watchdog.c) against
 * fake registers; built with FD_NRF_WDT_PAUSE_IN_SLEEP as the micro:bit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <cmocka.h>

#include "hal/reset.h"
#include "hal/watchdog.h"
#include "nrf5x.h"

#define A_RESETREAS 0x40000400u
#define A_WDT(off) ((uintptr_t)NRF_WDT_BASE + (off))

static void resetreas_decodes_and_writes_back_what_it_read(void **state)
{
    (void)state;
    static const struct {
        uint32_t reasons;
        hal_reset_cause want;
    } cases[] = {
        {0u, HAL_RESET_POWER_ON}, /* power-on or brown-out: no flag */
        {RESETREAS_DOG, HAL_RESET_WATCHDOG},
        {RESETREAS_DOG | RESETREAS_RESETPIN | RESETREAS_SREQ, HAL_RESET_WATCHDOG},
        {RESETREAS_LOCKUP, HAL_RESET_LOCKUP},
        {RESETREAS_LOCKUP | RESETREAS_SREQ, HAL_RESET_LOCKUP},
        {RESETREAS_SREQ, HAL_RESET_SOFTWARE},
        {RESETREAS_SREQ | RESETREAS_RESETPIN, HAL_RESET_SOFTWARE},
        {RESETREAS_RESETPIN, HAL_RESET_PIN},
        {1u << 16, HAL_RESET_UNKNOWN}, /* OFF: woken from System OFF */
        {1u << 17, HAL_RESET_UNKNOWN}, /* LPCOMP */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fake_reg_poke(A_RESETREAS, cases[i].reasons);
        assert_int_equal(hal_reset_cause_read(), cases[i].want);
        /* write-1-to-clear: exactly the bits read go back */
        assert_int_equal(fake_reg_peek(A_RESETREAS), cases[i].reasons);
    }
}

static void runs_once_started(uintptr_t a, volatile uint32_t *s)
{
    (void)a;
    *s = fake_reg_peek(A_WDT(0x000u)) & 1u; /* RUNSTATUS follows TASKS_START */
}

static void absent_wdt_is_not_ready(void **state)
{
    (void)state;
    /* QEMU's micro:bit: the writes go nowhere, RUNSTATUS reads 0 */
    assert_int_equal(hal_watchdog_start(8000u), FD_ERR_NOT_READY);
}

static void starts_with_the_timeout_in_lfclk_ticks(void **state)
{
    (void)state;
    fake_reg_hook(A_WDT(0x400u), runs_once_started);
    assert_int_equal(hal_watchdog_start(0u), FD_ERR_EMPTY);
    /* 2^32 ticks of 32.768 kHz is 131,072 s */
    assert_int_equal(hal_watchdog_start(131072001u), FD_ERR_TOO_LARGE);
    assert_int_equal(fake_reg_peek(A_WDT(0x000u)), 0u); /* not started by a refused call */
    assert_int_equal(hal_watchdog_start(8000u), FD_OK);
    assert_int_equal(fake_reg_peek(A_WDT(0x504u)), 8u * 32768u - 1u); /* CRV */
    assert_int_equal(fake_reg_peek(A_WDT(0x508u)), 1u);               /* RREN: RR[0] */
    assert_int_equal(fake_reg_peek(A_WDT(0x50Cu)), 0u);               /* paused in sleep and halt */
    assert_int_equal(hal_watchdog_start(8000u), FD_ERR_STATE);
    hal_watchdog_kick();
    assert_int_equal(fake_reg_peek(A_WDT(0x600u)), WDT_RR_RELOAD);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(resetreas_decodes_and_writes_back_what_it_read, fake_regs_setup),
        cmocka_unit_test_setup(absent_wdt_is_not_ready, fake_regs_setup),
        cmocka_unit_test_setup(starts_with_the_timeout_in_lfclk_ticks, fake_regs_setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
