/* boards/mps2-an386/uart.c on the host, against fake CMSDK UART0 registers
 * (tests/unit/fake_mmio/mps2.h): init, transmit, and a receive overrun
 * (STATE bit 3) reported after the byte the buffer kept, then cleared by
 * writing 1 to that bit only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hal/console.h"
#include "mps2.h"

fake_cmsdk_uart fake;
static uint32_t data_slot;

volatile uint32_t *fake_data(void)
{
    fake.state &= ~UART_STATE_RX_FULL; /* reading DATA empties the receive buffer */
    return &data_slot;
}

static void test_init_and_write(void **state)
{
    (void)state;
    mps2_uart_init();
    assert_int_equal(fake.bauddiv, 16);
    assert_int_equal(fake.ctrl, UART_CTRL_TX_EN | UART_CTRL_RX_EN);
    hal_console_write("OK", 2);
    assert_int_equal(data_slot, 'K');
}

static void test_overrun_after_the_kept_byte(void **state)
{
    (void)state;
    uint8_t b = 0;
    assert_int_equal(hal_console_read(NULL), FD_ERR_NULL);
    data_slot = 'A';
    fake.state = UART_STATE_RX_FULL;
    assert_int_equal(hal_console_read(&b), FD_OK);
    assert_int_equal(b, 'A');
    assert_int_equal(fake.state, 0); /* nothing written: no overrun */
    /* 'B' was kept, the byte after it lost */
    data_slot = 'B';
    fake.state = UART_STATE_RX_FULL | UART_STATE_RX_OVERRUN;
    assert_int_equal(hal_console_read(&b), FD_OK);
    assert_int_equal(b, 'B');
    assert_int_equal(fake.state, UART_STATE_RX_OVERRUN); /* write-one-to-clear of bit 3 alone */
    fake.state = 0;
    assert_int_equal(hal_console_read(&b), FD_ERR_OVERRUN);
    /* reported once; the next byte is read normally */
    data_slot = 'C';
    fake.state = UART_STATE_RX_FULL;
    assert_int_equal(hal_console_read(&b), FD_OK);
    assert_int_equal(b, 'C');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_and_write),
        cmocka_unit_test(test_overrun_after_the_kept_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
