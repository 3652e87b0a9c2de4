/* nRF51 UART0 console: polled transmit, interrupt-driven receive into a
 * fixed ring (the UART itself holds only 6 bytes). A full ring or a UART
 * error (ERRORSRC: overrun, parity, framing, break) is latched where it
 * happened and reported in order (boards/common/uart/rx_ring.h). */
#include "hal/console.h"
#include "nrf51.h"
#include "../common/uart/rx_ring_wait.h"
#include "../common/uart/tx_bound.h"

static fd_rx_ring rx;

void nrf51_uart_init(void)
{
    fd_rx_ring_init(&rx);
    /* nRF51 RM v3.0, UART chapter "Pin configuration": the pins keep their
     * GPIO configuration while the UART uses them, so TXD is set as an
     * output driven high (idle) and RXD as an input before the UART is
     * enabled; RXD pulled up so a floating line reads idle, as on the
     * nRF52 (Nordic's SDK does the same). */
    GPIO_OUTSET = 1u << MICROBIT_PIN_TX;
    GPIO_PIN_CNF(MICROBIT_PIN_TX) = GPIO_PIN_CNF_OUTPUT;
    GPIO_PIN_CNF(MICROBIT_PIN_RX) = GPIO_PIN_CNF_INPUT_PULLUP;
    UART_PSELTXD = MICROBIT_PIN_TX;
    UART_PSELRXD = MICROBIT_PIN_RX;
    UART_BAUDRATE = UART_BAUD_115200;
    UART_ENABLE = 4u;
    UART_EVENTS_RXDRDY = 0u;
    UART_EVENTS_TXDRDY = 0u;
    UART_EVENTS_ERROR = 0u;
    UART_ERRORSRC = UART_ERRORSRC_ALL; /* write-one-to-clear */
    UART_TASKS_STARTTX = 1u;
    UART_TASKS_STARTRX = 1u;
    UART_INTENSET = UART_INTEN_RXDRDY | UART_INTEN_ERROR;
    NVIC_ISER0 = 1u << UART_IRQN;
}

void nrf51_uart_irq_handler(void)
{
    /* On an overrun the byte that found the FIFO full is the one lost: the
     * bytes still in the FIFO came before it, so they go in first. */
    while (UART_EVENTS_RXDRDY != 0u) {
        /* Clear the event before reading RXD: reading pops the FIFO and
         * raises the event again if more bytes wait. */
        UART_EVENTS_RXDRDY = 0u;
        fd_rx_ring_put(&rx, (uint8_t)UART_RXD);
    }
    if (UART_EVENTS_ERROR != 0u) {
        UART_EVENTS_ERROR = 0u;
        const uint32_t source = UART_ERRORSRC;
        UART_ERRORSRC = source; /* write-one-to-clear exactly what was read */
        if ((source & UART_ERRORSRC_ALL) != 0u) {
            fd_rx_ring_hw_lost(&rx);
        }
    }
}

static bool tx_done(void) { return UART_EVENTS_TXDRDY != 0u; }

/* The nRF51 UART raises TXDRDY when a byte has left TXD; a byte whose
 * TXDRDY does not come in time counts as dropped (it may have gone). */
void hal_console_write(const char *data, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        UART_EVENTS_TXDRDY = 0u;
        UART_TXD = (uint8_t)data[i];
        (void)fd_uart_tx_wait(tx_done, 1u); /* false: counted as dropped, go on */
    }
}

fd_status hal_console_read(uint8_t *byte)
{
    if (byte == NULL) {
        return FD_ERR_NULL;
    }
    return fd_rx_ring_wait(&rx, byte);
}
