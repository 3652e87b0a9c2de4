/* nRF52840 UARTE0 console, 115200 8N1. EasyDMA reads and writes RAM only
 * (never flash), so bytes pass through small RAM buffers. Polled
 * transmit; receive one byte per EasyDMA transfer, restarted from the
 * ENDRX interrupt into a ring (bytes arriving meanwhile wait in the
 * UARTE's RX FIFO), errors reported per hal/include/hal/console.h. */
#include <stdbool.h>

#include "hal/console.h"
#include "../common/uart/tx_bound.h"
#include "nrf52840.h"
#include "../common/uart/rx_ring_wait.h"

static uint8_t tx_buf[32];
static volatile uint8_t rx_byte;
static fd_rx_ring rx;
/* An error was flagged for the transfer in progress: its byte is dropped. */
static bool rx_damaged;

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
