/* nRF51 UART0 console: polled transmit, interrupt-driven receive into a
 * fixed ring buffer (the UART itself holds only 6 bytes). */
#include "hal/console.h"
#include "nrf51.h"

#define RX_RING_SIZE 256u /* power of two: indices wrap with a mask */

static volatile uint8_t rx_ring[RX_RING_SIZE];
static volatile uint32_t rx_head; /* written by the IRQ only */
static volatile uint32_t rx_tail; /* written by the reader only */
static volatile uint32_t rx_dropped;

void nrf51_uart_init(void)
{
    UART_PSELTXD = MICROBIT_PIN_TX;
    UART_PSELRXD = MICROBIT_PIN_RX;
    UART_BAUDRATE = UART_BAUD_115200;
    UART_ENABLE = 4u;
    UART_EVENTS_RXDRDY = 0u;
    UART_EVENTS_TXDRDY = 0u;
    UART_TASKS_STARTTX = 1u;
    UART_TASKS_STARTRX = 1u;
    UART_INTENSET = UART_INTEN_RXDRDY;
    NVIC_ISER0 = 1u << UART_IRQN;
}

void nrf51_uart_irq_handler(void)
{
    while (UART_EVENTS_RXDRDY != 0u) {
        /* Clear the event before reading RXD: reading pops the FIFO and
         * raises the event again if more bytes wait. */
        UART_EVENTS_RXDRDY = 0u;
        uint8_t byte = (uint8_t)UART_RXD;
        uint32_t head = rx_head;
        if (head - rx_tail < RX_RING_SIZE) {
            rx_ring[head & (RX_RING_SIZE - 1u)] = byte;
            rx_head = head + 1u;
        } else {
            rx_dropped = rx_dropped + 1u;
        }
    }
    if (UART_EVENTS_ERROR != 0u) {
        UART_EVENTS_ERROR = 0u;
        UART_ERRORSRC = 0xFu; /* write-one-to-clear */
    }
}

void hal_console_write(const char *data, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        UART_EVENTS_TXDRDY = 0u;
        UART_TXD = (uint8_t)data[i];
        while (UART_EVENTS_TXDRDY == 0u) {
        }
    }
}

fd_status hal_console_read(uint8_t *byte)
{
    if (byte == NULL) {
        return FD_ERR_NULL;
    }
    for (;;) {
        __asm volatile("cpsid i" ::: "memory");
        if (rx_head != rx_tail) {
            break;
        }
        /* WFI wakes on a pending interrupt even with PRIMASK set, so no
         * byte can slip in between the check and the sleep. */
        __asm volatile("wfi\n cpsie i" ::: "memory");
    }
    uint32_t tail = rx_tail;
    *byte = rx_ring[tail & (RX_RING_SIZE - 1u)];
    rx_tail = tail + 1u;
    __asm volatile("cpsie i" ::: "memory");
    return FD_OK;
}
