/* boards/microbit/uart.c against fake nRF51 UART registers at their real
 * addresses: the registers init sets, bytes in order through the interrupt
 * handler, ERRORSRC overrun, parity, framing and break latched after the
 * bytes the FIFO still held and cleared by writing back what was read, a
 * full receive ring reported once per damaged line, and a blocking read
 * that sleeps (interrupts masked) until the interrupt brings a byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hal/console.h"
#include "nrf51.h"

#define A_UART(off) ((uintptr_t)NRF_UART0_BASE + (off))
#define A_RXDRDY A_UART(0x108u)
#define A_TXDRDY A_UART(0x11Cu)
#define A_ERROR A_UART(0x124u)
#define A_ERRORSRC A_UART(0x480u)
#define A_RXD A_UART(0x518u)
#define A_TXD A_UART(0x51Cu)

static uint8_t fifo[1024];
static size_t fifo_head;
static size_t fifo_tail;

/* Reading RXD pops the FIFO and raises RXDRDY again if more bytes wait. */
static void rxd_pops(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    assert_true(fifo_tail < fifo_head); /* the driver reads RXD only after RXDRDY */
    *slot = fifo[fifo_tail++];
    fake_reg_poke(A_RXDRDY, fifo_tail < fifo_head ? 1u : 0u);
}

/* A byte written to TXD is sent at once: TXDRDY reads 1 from then on (the
 * driver's write of 0 before each byte lands after this hook). */
static void txdrdy_set(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    *slot = 1u;
}

static void uart_irq(void)
{
    /* else the driver would sleep for ever */
    assert_true(fifo_tail < fifo_head || fake_reg_peek(A_ERROR) != 0u);
    nrf51_uart_irq_handler();
    fake_irq = uart_irq; /* every wait can be woken again */
}

static int uart_setup(void **state)
{
    (void)state;
    fake_regs_reset();
    fifo_head = fifo_tail = 0;
    fake_reg_hook(A_RXD, rxd_pops);
    fake_reg_hook(A_TXDRDY, txdrdy_set);
    fake_irq = uart_irq;
    nrf51_uart_init();
    return 0;
}

/* Bytes arrive in the UART's FIFO (the handler has not run yet). */
static void arrive(const char *s)
{
    const size_t n = strlen(s);
    assert_true(fifo_head + n <= sizeof fifo);
    memcpy(fifo + fifo_head, s, n);
    fifo_head += n;
    fake_reg_poke(A_RXDRDY, 1u);
}

static void raise_error(uint32_t sources)
{
    fake_reg_poke(A_ERROR, 1u);
    fake_reg_poke(A_ERRORSRC, sources);
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
    assert_false(fake_irq_masked); /* each read unmasks again */
    return got;
}

/* GPIO as the UART's ENABLE write found it. */
static uint32_t tx_cnf_at_enable;
static uint32_t rx_cnf_at_enable;
static uint32_t outset_at_enable;

static void enable_write(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    if (*slot == 0u) { /* before the enable write lands */
        tx_cnf_at_enable = fake_reg_peek(NRF_GPIO_BASE + 0x700u + 4u * MICROBIT_PIN_TX);
        rx_cnf_at_enable = fake_reg_peek(NRF_GPIO_BASE + 0x700u + 4u * MICROBIT_PIN_RX);
        outset_at_enable = fake_reg_peek(NRF_GPIO_BASE + 0x508u);
    }
}

static void test_init_registers(void **state)
{
    (void)state;
    fake_regs_reset();
    fake_reg_hook(A_UART(0x500u), enable_write);
    fake_reg_hook(A_TXDRDY, txdrdy_set);
    fake_reg_poke(A_ERRORSRC, 0x5u); /* stale flags from before reset */
    nrf51_uart_init();
    (void)*fake_reg(A_UART(0x500u));
    assert_int_equal(fake_reg_peek(A_UART(0x500u)), 4); /* ENABLE */
    /* nRF51 RM v3.0, UART "Pin configuration": TXD an output driven high,
     * RXD an input, set in GPIO before the UART is enabled */
    assert_int_equal(outset_at_enable, 1u << MICROBIT_PIN_TX);
    assert_int_equal(tx_cnf_at_enable & 3u, 1u);                            /* DIR output, input buffer connected */
    assert_int_equal(rx_cnf_at_enable & 3u, 0u);                            /* DIR input, input buffer connected */
    assert_int_equal((rx_cnf_at_enable >> 2) & 3u, 3u);                     /* pull-up: a floating line reads idle */
    assert_int_equal(fake_reg_peek(A_UART(0x524u)), 0x01D7E000u);           /* BAUDRATE 115200 */
    assert_int_equal(fake_reg_peek(A_UART(0x50Cu)), 24);                    /* PSELTXD */
    assert_int_equal(fake_reg_peek(A_UART(0x514u)), 25);                    /* PSELRXD */
    assert_int_equal(fake_reg_peek(A_UART(0x000u)), 1);                     /* TASKS_STARTRX */
    assert_int_equal(fake_reg_peek(A_UART(0x008u)), 1);                     /* TASKS_STARTTX */
    assert_int_equal(fake_reg_peek(A_UART(0x304u)), (1u << 2) | (1u << 9)); /* INTENSET: RXDRDY, ERROR */
    assert_int_equal(fake_reg_peek(FD_SCS_BASE + 0x100u), 1u << 2);         /* NVIC_ISER0: UART0 is IRQ 2 */
    assert_int_equal(fake_reg_peek(A_ERRORSRC), 0xFu);                      /* write-one-to-clear of every source */
    hal_console_write("OK\r\n", 4);
    assert_int_equal(fake_reg_peek(A_TXD), '\n');
}

static void test_bytes_in_order_and_blocking_read(void **state)
{
    (void)state;
    assert_int_equal(hal_console_read(NULL), FD_ERR_NULL);
    arrive("STATUS\n");
    nrf51_uart_irq_handler();
    assert_int_equal(fake_reg_peek(A_RXDRDY), 0);
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
        raise_error(sources[i]);
        nrf51_uart_irq_handler();
        assert_int_equal(fake_reg_peek(A_ERROR), 0);
        assert_int_equal(fake_reg_peek(A_ERRORSRC), sources[i]); /* written back: clears exactly those */
        /* what was lost is unknown: the line after the loss is damaged */
        assert_string_equal(read_all(5), "ABC\n#");
        arrive("D\nE\n");
        assert_string_equal(read_all(4), "D\nE\n");
    }
    /* bytes that come before the reader has reached the loss are dropped
     * too, each line end among them reported as a damaged line of its own */
    arrive("G\n");
    raise_error(0x1u);
    nrf51_uart_irq_handler();
    arrive("X\nY");
    nrf51_uart_irq_handler();
    assert_string_equal(read_all(5), "G\n#\n#");
    arrive("Z\n");
    assert_string_equal(read_all(2), "Z\n");
    /* an ERROR event with no source bit set loses nothing */
    raise_error(0u);
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
        cmocka_unit_test_setup(test_bytes_in_order_and_blocking_read, uart_setup),
        cmocka_unit_test_setup(test_error_flags_latched_in_place, uart_setup),
        cmocka_unit_test_setup(test_full_ring_counts_lost_lines, uart_setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
