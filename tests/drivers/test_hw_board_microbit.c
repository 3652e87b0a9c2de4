/* The micro:bit's board start (boards/microbit/board.c) compiled unchanged
 * on the host against fake registers, its drivers stubbed: it refuses to
 * run when VTOR reads non-zero (the nRF51 has none: docs/SECURITY.md
 * "Boot"), and starts when it reads 0 as on the chip; button A (P0.17, low
 * while pressed) read at start is the provisioning act (docs/LINK.md
 * "Provisioning and controller keys"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "hal/board.h"
#include "nrf51.h"

#define VTOR_ADDR 0xE000ED08u
#define GPIO_IN_ADDR 0x50000510u
#define PIN_CNF17_ADDR (0x50000700u + 4u * 17u)

static unsigned uart_inits;
void nrf51_uart_init(void) { uart_inits++; }
fd_status fd_timebase_start(void) { return FD_OK; }
fd_status nrf5x_hfxo_start(void) { return FD_OK; }

static int setup(void **state)
{
    uart_inits = 0;
    return fake_regs_setup(state);
}

static void test_vtor_zero_starts(void **state)
{
    (void)state;
    if (setjmp(fake_refused) == 0) {
        hal_board_init();
    } else {
        fail_msg("refused with VTOR 0: %s", fake_refusal);
    }
    assert_int_equal(uart_inits, 1u);
}

static void test_vtor_nonzero_is_refused(void **state)
{
    (void)state;
    static const uint32_t written[] = {0x4200u, 0x4000u, 0x80u, 0xFFFFFF80u};
    for (size_t i = 0; i < sizeof written / sizeof written[0]; i++) {
        fake_regs_reset();
        uart_inits = 0;
        fake_reg_poke(VTOR_ADDR, written[i]); /* what QEMU's M0 keeps after a write */
        fake_expect_refusal(hal_board_init, "VTOR reads non-zero");
        assert_int_equal(uart_inits, 1u); /* the console first, so the refusal can be read */
    }
}

/* Button A low at start: presence; high (released, pulled up): none; a
 * press after start changes nothing. Its pin is an input with pull-up. */
static void test_button_a_at_start_is_presence(void **state)
{
    (void)state;
    fake_reg_poke(GPIO_IN_ADDR, ~(1u << 17));
    hal_board_init();
    assert_true(hal_board_presence());
    assert_int_equal(fake_reg_peek(PIN_CNF17_ADDR), 3u << 2); /* input, buffer connected, pull-up */
    fake_reg_poke(GPIO_IN_ADDR, 0xFFFFFFFFu);                 /* released after start: still the start's reading */
    assert_true(hal_board_presence());
    hal_board_init(); /* a start with the button released */
    assert_false(hal_board_presence());
    fake_reg_poke(GPIO_IN_ADDR, 0u); /* pressed after start: not the act */
    assert_false(hal_board_presence());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_vtor_zero_starts, setup),
        cmocka_unit_test_setup(test_vtor_nonzero_is_refused, setup),
        cmocka_unit_test_setup(test_button_a_at_start_is_presence, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
