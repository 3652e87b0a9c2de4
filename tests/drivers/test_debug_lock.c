/* The debug lock of release builds (docs/SECURITY.md "Debug lock") against
 * fake registers: the STM32F407 sets readout protection level 1 once, with
 * the option-byte key sequence, keeps the other option bits and resets; the
 * nRF52840 forces APPROTECT and never writes APPROTECT.DISABLE; both nRF
 * images carry the UICR word that locks the port. Built once per board
 * (FD_TEST_STM32, FD_TEST_NRF52, FD_TEST_NRF51). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <cmocka.h>

#include "cortex_m.h"

extern const uint32_t fd_uicr_lock;

#if defined(FD_TEST_STM32)
#define A_OPTKEYR 0x40023C08u
#define A_SR 0x40023C0Cu
#define A_OPTCR 0x40023C14u

static int keys_seen;    /* 2 once KEY1 then KEY2 were written */
static uint32_t started; /* OPTCR as the programming started (0: never) */

static void optkeyr_hook(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    /* the hook runs before each access: *slot holds the previous write */
    if (*slot == 0x08192A3Bu && keys_seen == 0) {
        keys_seen = 1;
    }
}

static void optcr_hook(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    if (keys_seen == 1 && fake_reg_peek(A_OPTKEYR) == 0x4C5D6E7Fu) {
        keys_seen = 2;
    }
    if ((*slot & 2u) != 0u) { /* OPTSTRT: programs the option bytes, then clears */
        assert_int_equal(keys_seen, 2);
        started = *slot;
        *slot &= ~2u;
    }
}

static void arm(uint32_t optcr)
{
    fake_regs_reset();
    keys_seen = 0;
    started = 0;
    fake_reg_poke(A_OPTCR, optcr);
    fake_reg_poke(A_SR, 0);
    fake_reg_hook(A_OPTKEYR, optkeyr_hook);
    fake_reg_hook(A_OPTCR, optcr_hook);
}

static void level0_becomes_level1_once_then_resets(void **state)
{
    (void)state;
    const uint32_t others = 0x0FFF00EDu; /* nWRP, BOR, watchdog bits: kept; OPTLOCK set */
    arm(others | (0xAAu << 8));
    fake_expect_refusal(fd_debug_lock, "system reset");
    assert_int_equal(started, others | (0x55u << 8) | 2u);
    assert_int_equal(fake_reg_peek(A_OPTCR), others | (0x55u << 8) | 1u); /* locked again */
}

static void level1_and_level2_are_left_alone(void **state)
{
    (void)state;
    const uint32_t levels[] = {0x55u, 0xCCu, 0x00u};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        arm(0x0FFF00EDu | (levels[i] << 8));
        fd_debug_lock(); /* returns: no reset */
        assert_int_equal(started, 0u);
        assert_int_equal(keys_seen, 0);
        assert_int_equal(fake_reg_peek(A_OPTCR), 0x0FFF00EDu | (levels[i] << 8));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(level0_becomes_level1_once_then_resets),
        cmocka_unit_test(level1_and_level2_are_left_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
#define A_FORCEPROTECT 0x40000550u
#define A_DISABLE 0x40000558u

static void nrf_uicr_word_locks_the_port(void **state)
{
    (void)state;
#if defined(FD_TEST_NRF52)
    assert_int_equal(fd_uicr_lock, 0xFFFFFF00u); /* UICR.APPROTECT PALL = Enabled (0x00) */
    fake_regs_reset();
    fake_reg_poke(A_FORCEPROTECT, 0xFFFFFFFFu);
    fake_reg_poke(A_DISABLE, 0xFFFFFFFFu);
    fd_debug_lock();
    assert_int_equal(fake_reg_peek(A_FORCEPROTECT), 0u);     /* Force */
    assert_int_equal(fake_reg_peek(A_DISABLE), 0xFFFFFFFFu); /* never SwDisable (0x5A) */
#else
    assert_int_equal(fd_uicr_lock, 0xFFFF0000u); /* UICR.RBPCONF PR0 = PALL = Enabled (0x00) */
    fd_debug_lock();                             /* nothing at run time */
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nrf_uicr_word_locks_the_port),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif
