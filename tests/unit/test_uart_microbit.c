/* boards/microbit/uart.c on the host, against fake nRF51 UART registers
 * (tests/unit/fake_mmio/nrf51.h): the registers init sets, bytes in order
 * through the interrupt handler, ERRORSRC overrun, parity, framing and break
 * latched after the bytes the FIFO still held and cleared by writing back
 * what was read, a
 * full receive ring reported once per damaged line, and a blocking read
 * that sleeps until the interrupt brings a byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hal/console.h"
#include "nrf51.h"

fake_nrf51 fake;
static uint8_t fifo[1024];
static size_t fifo_head;
static size_t fifo_tail;
static uint32_t rxd_value;
static uint32_t txd_value;
static int irq_depth;

volatile uint32_t *fake_rxd(void)
{
    assert_true(fifo_tail < fifo_head); /* the driver reads RXD only after RXDRDY */
    rxd_value = fifo[fifo_tail++];
    fake.events_rxdrdy = fifo_tail < fifo_head ? 1u : 0u;
    return &rxd_value;
}

volatile uint32_t *fake_txd(void)
{
    fake.events_txdrdy = 1u;
    return &txd_value;
}

void fake_irq_disable(void) { irq_depth++; }
void fake_irq_enable(void) { irq_depth--; }
void fake_sleep_masked(void)
{
    assert_int_equal(irq_depth, 1);                                /* sleeps only with interrupts masked */
    assert_true(fifo_tail < fifo_head || fake.events_error != 0u); /* else it would sleep for ever */
    nrf51_uart_irq_handler();
}

/* Bytes arrive in the UART's FIFO (the handler has not run yet). */
static void arrive(const char *s)
{
    const size_t n = strlen(s);
    assert_true(fifo_head + n <= sizeof fifo);
    memcpy(fifo + fifo_head, s, n);
    fifo_head += n;
    fake.events_rxdrdy = 1u;
}

/* Everything hal_console_read returns until the ring is empty, OVERRUN as '#'. */
static const char *read_all(size_t count)
{
    static char got[1200];
    assert_true(count < sizeof got);
    for (size_t i = 0; i < count; i++) {
        uint8_t b = 0;
        const fd_status st = hal_console_read(&b);
        assert_true(st == FD_OK || st == FD_ERR_OVERRUN);
        got[i] = st == FD_ERR_OVERRUN ? '#' : (char)b;
    }
    got[count] = '\0';
    assert_int_equal(irq_depth, 0);
    return got;
}

static void test_init_registers(void **state)
{
    (void)state;
    memset(&fake, 0, sizeof fake);
    fake.errorsrc = 0x5u; /* stale flags from before reset */
    nrf51_uart_init();
    assert_int_equal(fake.enable, 4);
    assert_int_equal(fake.baudrate, 0x01D7E000u);
    assert_int_equal(fake.pseltxd, 24);
    assert_int_equal(fake.pselrxd, 25);
    assert_int_equal(fake.tasks_startrx, 1);
    assert_int_equal(fake.tasks_starttx, 1);
    assert_int_equal(fake.intenset, (1u << 2) | (1u << 9)); /* RXDRDY and ERROR */
    assert_int_equal(fake.nvic_iser0, 1u << 2);
    assert_int_equal(fake.errorsrc, 0xFu); /* write-one-to-clear of every source */
    hal_console_write("OK\r\n", 4);
    assert_int_equal(txd_value, '\n');
}

static void test_bytes_in_order_and_blocking_read(void **state)
{
    (void)state;
    assert_int_equal(hal_console_read(NULL), FD_ERR_NULL);
    arrive("STATUS\n");
    nrf51_uart_irq_handler();
    assert_int_equal(fake.events_rxdrdy, 0);
    assert_string_equal(read_all(7), "STATUS\n");
    /* nothing in the ring: the read sleeps until the interrupt comes */
    arrive("DEAL 1\n");
    assert_string_equal(read_all(7), "DEAL 1\n");
}

static void test_error_flags_latched_in_place(void **state)
{
    (void)state;
    static const uint32_t sources[] = {0x1u, 0x2u, 0x4u, 0x8u, 0x5u}; /* overrun, parity, framing, break */
    for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
        arrive("AB");
        nrf51_uart_irq_handler();
        /* the FIFO still held "C\n" when the overrun was flagged */
        arrive("C\n");
        fake.events_error = 1u;
        fake.errorsrc = sources[i];
        nrf51_uart_irq_handler();
        assert_int_equal(fake.events_error, 0);
        assert_int_equal(fake.errorsrc, sources[i]); /* written back: clears exactly those */
        /* what was lost is unknown: the line after the loss is damaged */
        assert_string_equal(read_all(5), "ABC\n#");
        arrive("D\nE\n");
        assert_string_equal(read_all(4), "D\nE\n");
    }
    /* bytes that come before the reader has reached the loss are dropped
     * too, each line end among them reported as a damaged line of its own */
    arrive("G\n");
    fake.events_error = 1u;
    fake.errorsrc = 0x1u;
    nrf51_uart_irq_handler();
    arrive("X\nY");
    nrf51_uart_irq_handler();
    assert_string_equal(read_all(5), "G\n#\n#");
    arrive("Z\n");
    assert_string_equal(read_all(2), "Z\n");
    /* an ERROR event with no source bit set loses nothing */
    fake.events_error = 1u;
    fake.errorsrc = 0u;
    arrive("F\n");
    nrf51_uart_irq_handler();
    assert_string_equal(read_all(2), "F\n");
}

static void test_full_ring_counts_lost_lines(void **state)
{
    (void)state;
    /* 40 lines of 7 bytes land at once: 256 fit (36 lines and "STAT"),
     * the rest is lost: the tail of line 37 and lines 38-40 */
    for (int i = 0; i < 40; i++) {
        arrive("STATUS\n");
    }
    nrf51_uart_irq_handler();
    const char *got = read_all(256 + 8);
    assert_memory_equal(got + 252, "STAT#\n#\n#\n#\n", 12);
    /* the ring takes bytes again */
    arrive("BURN\n");
    assert_string_equal(read_all(5), "BURN\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_registers),
        cmocka_unit_test(test_bytes_in_order_and_blocking_read),
        cmocka_unit_test(test_error_flags_latched_in_place),
        cmocka_unit_test(test_full_ring_counts_lost_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
