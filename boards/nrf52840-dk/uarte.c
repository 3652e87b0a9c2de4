/* nRF52840 UARTE0 console, 115200 8N1. EasyDMA reads and writes RAM only
 * (never flash), so bytes pass through small RAM buffers. Polled
 * transmit; receive one byte per EasyDMA transfer, restarted from the
 * ENDRX interrupt into a ring (bytes arriving meanwhile wait in the
 * UARTE's RX FIFO), errors reported per hal/include/hal/console.h.
 *
 * Around a flash operation (nrf5x_console_hold/release, called by the
 * NVMC driver) the CPU is halted for up to 85 ms and cannot restart
 * one-byte transfers, so reception switches to one transfer into a
 * ring-sized buffer: EasyDMA writes RAM without the CPU (docs/HARDWARE.md
 * "Flash stalls"). Each switch stops the receiver (STOPRX, then RXTO:
 * ENDRX and RXD.AMOUNT of the stopped transfer come first) and flushes
 * the RX FIFO into RAM (FLUSHRX), PS v1.7 UARTE 6.34.4 "Reception". */
#include <stdbool.h>

#include "hal/console.h"
#include "../common/uart/tx_bound.h"
#include "nrf52840.h"
#include "../common/uart/rx_ring_wait.h"

#if !defined(FD_NRF_CONSOLE_HOLD)
#error "uarte.c provides nrf5x_console_hold/release: board.cmake sets FD_NRF_CONSOLE_HOLD"
#endif

static uint8_t tx_buf[32];
static volatile uint8_t rx_byte;
static fd_rx_ring rx;
/* An error was flagged for the transfer in progress: its byte is dropped. */
static bool rx_damaged;
/* Reception during a flash operation: up to a ring's worth of bytes. */
static volatile uint8_t hold_buf[FD_RX_RING_SIZE];

/* STOPRX to RXTO: the receiver ends its transfer and takes the bytes
 * still arriving (PS: up to four byte times); 10 ms bounds a UARTE that
 * never answers (the ring then reports a loss). */
#define RX_STOP_TIMEOUT_CLOCKS (FD_CPU_HZ / 100u)

void nrf52_uarte_init(void)
{
    fd_rx_ring_init(&rx);
    /* PS 6.34: pins configured in GPIO before the UARTE takes them, so
     * the lines are defined while it is disabled; RX pulled up so an idle
     * or unplugged line reads as idle, not as noise. */
    GPIO_OUTSET = 1u << DK_PIN_TX;
    GPIO_PIN_CNF(DK_PIN_TX) = GPIO_PIN_CNF_OUTPUT;
    GPIO_PIN_CNF(DK_PIN_RX) = GPIO_PIN_CNF_INPUT_PULLUP;
    UARTE_PSEL_TXD = DK_PIN_TX;
    UARTE_PSEL_RXD = DK_PIN_RX;
    UARTE_BAUDRATE = UARTE_BAUD_115200;
    UARTE_CONFIG = UARTE_CONFIG_8N1;
    UARTE_ENABLE = UARTE_ENABLE_ON;
    UARTE_RXD_PTR = (uint32_t)(uintptr_t)&rx_byte;
    UARTE_RXD_MAXCNT = 1u;
    UARTE_EVENTS_ENDRX = 0u;
    UARTE_EVENTS_ERROR = 0u;
    UARTE_INTENSET = UARTE_INT_ENDRX | UARTE_INT_ERROR;
    NVIC_ISER(UARTE0_IRQN / 32u) = 1u << (UARTE0_IRQN % 32u);
    UARTE_TASKS_STARTRX = 1u;
}

void nrf52_uarte_irq_handler(void)
{
    if (UARTE_EVENTS_ERROR != 0u) {
        UARTE_EVENTS_ERROR = 0u;
        UARTE_ERRORSRC = UARTE_ERRORSRC; /* clear exactly the bits seen */
        fd_rx_ring_hw_lost(&rx);
        rx_damaged = true;
    }
    if (UARTE_EVENTS_ENDRX != 0u) {
        UARTE_EVENTS_ENDRX = 0u;
        if (!rx_damaged && UARTE_RXD_AMOUNT == 1u) {
            fd_rx_ring_put(&rx, rx_byte);
        }
        rx_damaged = false;
        UARTE_TASKS_STARTRX = 1u;
    }
}

static bool wait_event(const volatile uint32_t *event)
{
    const uint32_t start = fd_timebase_read();
    while (*event == 0u) {
        if (fd_timebase_read() - start > RX_STOP_TIMEOUT_CLOCKS) {
            return false;
        }
    }
    return true;
}

/* The ended transfer (ENDRX) into buf goes to the ring: its bytes, an
 * overrun after them; after a parity, framing or break error the whole
 * transfer counts as lost (the damaged byte's place is unknown), its line
 * ends counted (rx_ring.h). */
static void take_transfer(const volatile uint8_t *buf)
{
    uint32_t errors = 0u;
    if (UARTE_EVENTS_ERROR != 0u) {
        UARTE_EVENTS_ERROR = 0u;
        errors = UARTE_ERRORSRC;
        UARTE_ERRORSRC = errors;
    }
    const bool damaged = rx_damaged || (errors & ~UARTE_ERRORSRC_OVERRUN) != 0u;
    if (damaged) {
        fd_rx_ring_hw_lost(&rx);
    }
    if (UARTE_EVENTS_ENDRX != 0u) {
        UARTE_EVENTS_ENDRX = 0u;
        uint32_t n = UARTE_RXD_AMOUNT;
        if (n > FD_RX_RING_SIZE) {
            n = FD_RX_RING_SIZE;
        }
        for (uint32_t i = 0; i < n; i++) {
            fd_rx_ring_put(&rx, buf[i]);
        }
    }
    if ((errors & UARTE_ERRORSRC_OVERRUN) != 0u && !damaged) {
        fd_rx_ring_hw_lost(&rx);
    }
    rx_damaged = false;
}

/* Stop the transfer into `from` and take it, then flush the RX FIFO into
 * `to` (count bytes) and take that; reception is then stopped. */
static void stop_and_take(const volatile uint8_t *from, volatile uint8_t *to, uint32_t count)
{
    UARTE_EVENTS_RXTO = 0u;
    UARTE_TASKS_STOPRX = 1u;
    const bool stopped = wait_event(&UARTE_EVENTS_RXTO);
    take_transfer(from);
    UARTE_RXD_PTR = (uint32_t)(uintptr_t)to;
    UARTE_RXD_MAXCNT = count;
    UARTE_TASKS_FLUSHRX = 1u;
    if (!wait_event(&UARTE_EVENTS_ENDRX) || !stopped) {
        fd_rx_ring_hw_lost(&rx); /* a receiver that did not stop: what it held is unknown */
    }
    take_transfer(to);
    UARTE_EVENTS_RXTO = 0u;
}

static void restart(const volatile uint8_t *buf, uint32_t count)
{
    UARTE_RXD_PTR = (uint32_t)(uintptr_t)buf;
    UARTE_RXD_MAXCNT = count;
    UARTE_TASKS_STARTRX = 1u;
}

void nrf5x_console_hold(void)
{
    NVIC_ICER(UARTE0_IRQN / 32u) = 1u << (UARTE0_IRQN % 32u);
    stop_and_take(&rx_byte, hold_buf, FD_RX_RING_SIZE);
    restart(hold_buf, FD_RX_RING_SIZE);
}

void nrf5x_console_release(void)
{
    stop_and_take(hold_buf, hold_buf, FD_RX_RING_SIZE);
    restart(&rx_byte, 1u);
    NVIC_ICPR(UARTE0_IRQN / 32u) = 1u << (UARTE0_IRQN % 32u);
    NVIC_ISER(UARTE0_IRQN / 32u) = 1u << (UARTE0_IRQN % 32u);
}

static bool tx_done(void) { return UARTE_EVENTS_ENDTX != 0u; }

/* A chunk whose ENDTX does not come in time counts as dropped whole. */
void hal_console_write(const char *data, size_t len)
{
    while (len > 0u) {
        size_t chunk = sizeof(tx_buf);
        if (len < chunk) {
            chunk = len;
        }
        for (size_t i = 0; i < chunk; i++) {
            tx_buf[i] = (uint8_t)data[i];
        }
        UARTE_TXD_PTR = (uint32_t)(uintptr_t)tx_buf;
        UARTE_TXD_MAXCNT = (uint32_t)chunk;
        UARTE_EVENTS_ENDTX = 0u;
        UARTE_TASKS_STARTTX = 1u;
        if (!fd_uart_tx_wait(tx_done, (uint32_t)chunk)) {
            UARTE_TASKS_STOPTX = 1u; /* release tx_buf before it is reused */
        }
        data += chunk;
        len -= chunk;
    }
}

fd_status hal_console_read(uint8_t *byte)
{
    if (byte == NULL) {
        return FD_ERR_NULL;
    }
    return fd_rx_ring_wait(&rx, byte);
}
