/* The few nRF51 registers this board uses (nRF51 Series Reference Manual
 * v3.0, UART chapter); the RNG is boards/common/nrf5x. */
#ifndef NRF51_H
#define NRF51_H

#include "cortex_m.h"

#define NRF_UART0_BASE 0x40002000u
#define UART_TASKS_STARTRX FD_REG32(NRF_UART0_BASE + 0x000u)
#define UART_TASKS_STARTTX FD_REG32(NRF_UART0_BASE + 0x008u)
#define UART_EVENTS_RXDRDY FD_REG32(NRF_UART0_BASE + 0x108u)
#define UART_EVENTS_TXDRDY FD_REG32(NRF_UART0_BASE + 0x11Cu)
#define UART_EVENTS_ERROR FD_REG32(NRF_UART0_BASE + 0x124u)
#define UART_INTENSET FD_REG32(NRF_UART0_BASE + 0x304u)
#define UART_INTEN_RXDRDY (1u << 2)
#define UART_INTEN_ERROR (1u << 9)
#define UART_ERRORSRC FD_REG32(NRF_UART0_BASE + 0x480u)
#define UART_ERRORSRC_ALL 0xFu /* OVERRUN, PARITY, FRAMING, BREAK: bits 0-3 */
#define UART_ENABLE FD_REG32(NRF_UART0_BASE + 0x500u)
#define UART_PSELTXD FD_REG32(NRF_UART0_BASE + 0x50Cu)
#define UART_PSELRXD FD_REG32(NRF_UART0_BASE + 0x514u)
#define UART_RXD FD_REG32(NRF_UART0_BASE + 0x518u)
#define UART_TXD FD_REG32(NRF_UART0_BASE + 0x51Cu)
#define UART_BAUDRATE FD_REG32(NRF_UART0_BASE + 0x524u)
#define UART_BAUD_115200 0x01D7E000u
#define UART_IRQN 2u

/* micro:bit v1 USB-serial pins */
#define MICROBIT_PIN_TX 24u
#define MICROBIT_PIN_RX 25u

void nrf51_uart_init(void);
void nrf51_uart_irq_handler(void);

#endif
