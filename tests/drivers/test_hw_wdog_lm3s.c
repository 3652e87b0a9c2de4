/* lm3s6965evb watchdog and reset cause (watchdog.c over the shared APB
 * watchdog driver) against fake registers: RESC decoding and clearing,
 * the clock gate and interrupt line, the QEMU fallback to the note. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <cmocka.h>

#include "apb_watchdog.h"
#include "hal/reset.h"
#include "hal/watchdog.h"
#include "lm3s6965.h"

#define A_RESC 0x400FE05Cu
#define A_RCGC0 0x400FE100u
#define A_ISER0 ((uintptr_t)FD_SCS_BASE + 0x100u)
#define A_ICER0 ((uintptr_t)FD_SCS_BASE + 0x180u)
#define A_WDT(off) ((uintptr_t)WDT0_BASE + (off))

static void resc_names_the_most_fundamental_cause_and_is_cleared(void **state)
{
    (void)state;
    static const struct {
        uint32_t resc;
        hal_reset_cause want;
    } cases[] = {
        {SYSCTL_RESC_POR, HAL_RESET_POWER_ON},
        {SYSCTL_RESC_POR | SYSCTL_RESC_EXT | SYSCTL_RESC_BOR, HAL_RESET_POWER_ON},
        {SYSCTL_RESC_BOR, HAL_RESET_BROWNOUT},
        {SYSCTL_RESC_LDO, HAL_RESET_BROWNOUT},
        {SYSCTL_RESC_WDT, HAL_RESET_WATCHDOG},
        {SYSCTL_RESC_WDT | SYSCTL_RESC_EXT | SYSCTL_RESC_SW, HAL_RESET_WATCHDOG},
        {SYSCTL_RESC_SW, HAL_RESET_SOFTWARE},
        {SYSCTL_RESC_SW | SYSCTL_RESC_EXT, HAL_RESET_SOFTWARE},
        {SYSCTL_RESC_EXT, HAL_RESET_PIN},
        {0u, HAL_RESET_UNKNOWN},
        {1u << 7, HAL_RESET_UNKNOWN}, /* a bit this chip does not define */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fake_reg_poke(A_RESC, cases[i].resc);
        assert_int_equal(hal_reset_cause_read(), cases[i].want);
        assert_int_equal(fake_reg_peek(A_RESC), 0u); /* cleared for the next boot */
    }
}

static void qemu_zero_resc_falls_back_to_the_note_hardware_wins(void **state)
{
    (void)state;
    lm3s_watchdog_irq_handler(); /* first stage */
    assert_int_equal(fake_reg_peek(A_ICER0), 1u << WDT0_IRQN);
    fake_reg_poke(A_RESC, 0u); /* QEMU never sets RESC */
    assert_int_equal(hal_reset_cause_read(), HAL_RESET_WATCHDOG);
    assert_int_equal(hal_reset_cause_read(), HAL_RESET_UNKNOWN); /* taken */
    lm3s_watchdog_irq_handler();
    fake_reg_poke(A_RESC, SYSCTL_RESC_EXT); /* a real chip's register outranks the note */
    assert_int_equal(hal_reset_cause_read(), HAL_RESET_PIN);
    assert_int_equal(hal_reset_cause_read(), HAL_RESET_UNKNOWN);
}

static void start_gates_the_clock_and_opens_the_interrupt(void **state)
{
    (void)state;
    hal_watchdog_kick(); /* before a start: a gated block must not be touched (it would fault) */
    assert_int_equal(fake_reg_peek(A_ISER0), 0u);
    assert_int_equal(fake_reg_peek(A_WDT(APB_WDOG_LOCK)), 0u);
    assert_int_equal(hal_watchdog_start(4000u), FD_OK);
    assert_int_not_equal(fake_reg_peek(A_RCGC0) & SYSCTL_RCGC0_WDT, 0u);
    /* 2 s per stage at 12.5 MHz */
    assert_int_equal(fake_reg_peek(A_WDT(APB_WDOG_LOAD)), 24999999u);
    assert_int_equal(fake_reg_peek(A_ISER0), 1u << WDT0_IRQN);
    assert_int_equal(hal_watchdog_start(4000u), FD_ERR_STATE);
    fake_reg_poke(A_ISER0, 0u);
    lm3s_watchdog_irq_handler();
    hal_watchdog_kick(); /* unmasks the line the first stage masked */
    assert_int_equal(fake_reg_peek(A_ISER0), 1u << WDT0_IRQN);
    assert_int_equal(hal_reset_cause_read(), HAL_RESET_UNKNOWN); /* and cancels the note */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(resc_names_the_most_fundamental_cause_and_is_cleared, fake_regs_setup),
        cmocka_unit_test_setup(qemu_zero_resc_falls_back_to_the_note_hardware_wins, fake_regs_setup),
        cmocka_unit_test_setup(start_gates_the_clock_and_opens_the_interrupt, fake_regs_setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
