/* Stellaris UART0 (PL011) console: polled transmit, interrupt-driven
 * receive into a ring. Nothing is dropped quietly: when the ring is full
 * the interrupt stops reading and the bytes wait in the UART (QEMU then
 * holds the sender back; a real line overruns, which the UART flags); a
 * character whose UARTDR carries an error bit (overrun, break, parity,
 * framing) becomes a loss mark in the stream, which hal_console_read
 * reports as FD_ERR_OVERRUN in order (hal/include/hal/console.h). */
#include <stdbool.h>

#include "hal/console.h"
#include "hal/watchdog.h"
#include "lm3s6965.h"
#include "../common/uart/tx_bound.h"

#define CONSOLE_BAUD 115200u
#define RX_RING_SIZE 128u /* entries; a power of two, indices wrap with a mask */
#define RX_LOST 0x100u    /* an entry no byte can be: bytes were lost here */

static volatile uint16_t rx_ring[RX_RING_SIZE];
static volatile uint32_t rx_head; /* written by the IRQ only */
static volatile uint32_t rx_tail; /* written by the reader only */
static volatile bool rx_paused;   /* set by the IRQ, cleared by the reader */

void lm3s_uart0_init(void)
{
    SYSCTL_RCGC1 |= SYSCTL_RCGC1_UART0;
    SYSCTL_RCGC2 |= SYSCTL_RCGC2_GPIOA;
    /* the datasheet asks for a few clocks between gating a peripheral on
     * and touching it: the read-back provides them */
    (void)SYSCTL_RCGC2;
    GPIOA_AFSEL |= GPIOA_UART0_PINS;
    GPIOA_DEN |= GPIOA_UART0_PINS;

    UART0_CTL = 0u; /* configure with the UART disabled */
    /* divisor = clock / (16 * baud) in 1/64ths, rounded: IBRD.FBRD */
    const uint32_t div64 = (FD_CPU_HZ * 4u + CONSOLE_BAUD / 2u) / CONSOLE_BAUD;
    UART0_IBRD = div64 >> 6;
    UART0_FBRD = div64 & 0x3Fu;
    /* The LCRH write latches the divisor. FIFOs stay off (FEN 0): turning
     * them on flushes what was received, and QEMU receives from reset. */
    UART0_LCRH = UART_LCRH_WLEN_8;
    /* RX stays raised while a byte waits and reading UARTDR lowers it: it
     * is never cleared by hand, so a byte that waits (received before this
     * init, or left while the ring was full) still interrupts. */
    UART0_IM = UART_INT_RX;
    UART0_CTL = UART_CTL_UARTEN | UART_CTL_TXE | UART_CTL_RXE;
    NVIC_ISER0 = 1u << UART0_IRQN;
}

void lm3s_uart0_irq_handler(void)
{
    while ((UART0_FR & UART_FR_RXFE) == 0u) {
        const uint32_t head = rx_head;
        if (head - rx_tail == RX_RING_SIZE) {
            /* full: stop listening until hal_console_read makes room */
            UART0_IM = 0u;
            rx_paused = true;
            return;
        }
        const uint32_t data = UART0_DR;
        uint16_t entry = (uint16_t)(data & UART_DR_DATA);
        if ((data & UART_DR_ERRORS) != 0u) {
            /* Damaged (break, parity, framing) or next to bytes the UART
             * dropped (overrun): whichever side of it the loss is, the
             * line around it cannot be trusted. */
            UART0_ECR = 0u;
            entry = RX_LOST;
            if (head != rx_tail && rx_ring[(head - 1u) & (RX_RING_SIZE - 1u)] == RX_LOST) {
                continue; /* one mark per run of losses */
            }
        }
        rx_ring[head & (RX_RING_SIZE - 1u)] = entry;
        rx_head = head + 1u;
    }
}

static bool tx_ready(void) { return (UART0_FR & UART_FR_TXFF) == 0u; }

void hal_console_write(const char *data, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (fd_uart_tx_wait(tx_ready, 1u)) {
            UART0_DR = (uint8_t)data[i];
        }
    }
}

fd_status hal_console_read(uint8_t *byte)
{
    if (byte == NULL) {
        return FD_ERR_NULL;
    }
    __asm volatile("cpsid i" ::: "memory");
    while (rx_head == rx_tail) {
        hal_watchdog_kick(); /* waiting for a command is not a hang; SysTick wakes the sleep */
        fd_sleep_masked();
    }
    const uint32_t tail = rx_tail;
    const uint16_t entry = rx_ring[tail & (RX_RING_SIZE - 1u)];
    rx_tail = tail + 1u;
    if (rx_paused) {
        rx_paused = false;
        UART0_IM = UART_INT_RX; /* fires at once if a byte waits */
    }
    __asm volatile("cpsie i" ::: "memory");
    if (entry == RX_LOST) {
        return FD_ERR_OVERRUN;
    }
    *byte = (uint8_t)entry;
    return FD_OK;
}
