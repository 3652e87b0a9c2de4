/* The micro:bit's TIMER0 time base (boards/microbit/timer0.c) compiled
 * unchanged on the host against fake registers: configured as a 32-bit
 * timer at 16 MHz, read by CAPTURE, refused when it does not move. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "nrf51.h"

#define A(off) ((uintptr_t)NRF_TIMER0_BASE + (off))

/* a running timer: CAPTURE[0] latches a count that has moved on */
static void capture_moves(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    (void)slot;
    fake_reg_poke(A(0x540u), fake_reg_peek(A(0x540u)) + 16u);
}

static int setup(void **state)
{
    (void)state;
    fake_regs_reset();
    return 0;
}

static void test_timer0_runs_32_bit_at_16_mhz(void **state)
{
    (void)state;
    fake_reg_hook(A(0x040u), capture_moves);
    fake_reg_poke(A(0x540u), 0xFFFFFFF0u); /* about to wrap */
    assert_int_equal(fd_timebase_start(), FD_OK);
    assert_int_equal(fake_reg_peek(A(0x504u)), 0u); /* MODE timer */
    assert_int_equal(fake_reg_peek(A(0x508u)), 3u); /* BITMODE 32 */
    assert_int_equal(fake_reg_peek(A(0x510u)), 0u); /* PRESCALER 0: 16 MHz */
    assert_int_equal(fake_reg_peek(A(0x000u)), 1u); /* started */
    const uint32_t a = fd_timebase_read();
    const uint32_t b = fd_timebase_read();
    assert_int_equal(b - a, 16u); /* differences hold across the wrap */
}

static void test_timer0_that_does_not_move_is_refused(void **state)
{
    (void)state;
    /* CC[0] never changes: a stopped timer or a part without TIMER0 */
    assert_int_equal(fd_timebase_start(), FD_ERR_NOT_READY);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_timer0_runs_32_bit_at_16_mhz, setup),
        cmocka_unit_test_setup(test_timer0_that_does_not_move_is_refused, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
