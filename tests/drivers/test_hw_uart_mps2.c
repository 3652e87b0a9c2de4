/* boards/mps2-an386/uart.c against fake CMSDK UART0 registers at their
 * real addresses: init, transmit, and a receive overrun (STATE bit 3)
 * reported after the byte the buffer kept, then cleared by writing 1 to
 * that bit only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hal/console.h"
#include "mps2.h"

#define A_DATA ((uintptr_t)UART0_BASE + 0x00u)
#define A_STATE ((uintptr_t)UART0_BASE + 0x04u)

/* Accessing DATA empties the receive buffer, as reading it does on the part. */
static void data_empties_rx(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    (void)slot;
    fake_reg_poke(A_STATE, fake_reg_peek(A_STATE) & ~UART_STATE_RX_FULL);
}

static void byte_waits(uint8_t byte, uint32_t state)
{
    fake_reg_poke(A_DATA, byte);
    fake_reg_poke(A_STATE, state);
}

static void test_init_and_write(void **state)
{
    (void)state;
    mps2_uart_init();
    assert_int_equal(fake_reg_peek(UART0_BASE + 0x10u), 16); /* BAUDDIV */
    assert_int_equal(fake_reg_peek(UART0_BASE + 0x08u), UART_CTRL_TX_EN | UART_CTRL_RX_EN);
    hal_console_write("OK", 2);
    assert_int_equal(fake_reg_peek(A_DATA), 'K');
}

static void test_overrun_after_the_kept_byte(void **state)
{
    (void)state;
    uint8_t b = 0;
    fake_reg_hook(A_DATA, data_empties_rx);
    assert_int_equal(hal_console_read(NULL), FD_ERR_NULL);
    byte_waits('A', UART_STATE_RX_FULL);
    assert_int_equal(hal_console_read(&b), FD_OK);
    assert_int_equal(b, 'A');
    assert_int_equal(fake_reg_peek(A_STATE), 0); /* nothing written: no overrun */
    /* 'B' was kept, the byte after it lost */
    byte_waits('B', UART_STATE_RX_FULL | UART_STATE_RX_OVERRUN);
    assert_int_equal(hal_console_read(&b), FD_OK);
    assert_int_equal(b, 'B');
    assert_int_equal(fake_reg_peek(A_STATE), UART_STATE_RX_OVERRUN); /* write-one-to-clear of bit 3 alone */
    fake_reg_poke(A_STATE, 0u);
    assert_int_equal(hal_console_read(&b), FD_ERR_OVERRUN);
    /* reported once; the next byte is read normally */
    byte_waits('C', UART_STATE_RX_FULL);
    assert_int_equal(hal_console_read(&b), FD_OK);
    assert_int_equal(b, 'C');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_init_and_write, fake_regs_setup),
        cmocka_unit_test_setup(test_overrun_after_the_kept_byte, fake_regs_setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
