/* Host stand-in for boards/microbit/nrf51.h: the UART registers the driver
 * touches, as fields of a fake peripheral the test inspects. Reading RXD
 * pops a fake receive FIFO; writing TXD completes at once. */
#ifndef NRF51_H
#define NRF51_H

#include <stdint.h>

typedef struct fake_nrf51 {
    volatile uint32_t tasks_startrx, tasks_starttx, events_rxdrdy, events_txdrdy, events_error;
    volatile uint32_t intenset, errorsrc, enable, pseltxd, pselrxd, baudrate, nvic_iser0;
} fake_nrf51;
extern fake_nrf51 fake;

volatile uint32_t *fake_rxd(void); /* the FIFO's next byte; raises RXDRDY again if more wait */
volatile uint32_t *fake_txd(void); /* the byte sent; raises TXDRDY */
void fake_irq_disable(void);
void fake_irq_enable(void);
void fake_sleep_masked(void); /* "an interrupt arrives": runs the UART handler */

#define UART_TASKS_STARTRX fake.tasks_startrx
#define UART_TASKS_STARTTX fake.tasks_starttx
#define UART_EVENTS_RXDRDY fake.events_rxdrdy
#define UART_EVENTS_TXDRDY fake.events_txdrdy
#define UART_EVENTS_ERROR fake.events_error
#define UART_INTENSET fake.intenset
#define UART_INTEN_RXDRDY (1u << 2)
#define UART_INTEN_ERROR (1u << 9)
#define UART_ERRORSRC fake.errorsrc
#define UART_ERRORSRC_ALL 0xFu
#define UART_ENABLE fake.enable
#define UART_PSELTXD fake.pseltxd
#define UART_PSELRXD fake.pselrxd
#define UART_RXD (*fake_rxd())
#define UART_TXD (*fake_txd())
#define UART_BAUDRATE fake.baudrate
#define UART_BAUD_115200 0x01D7E000u
#define UART_IRQN 2u
#define NVIC_ISER0 fake.nvic_iser0
#define MICROBIT_PIN_TX 24u
#define MICROBIT_PIN_RX 25u
#define fd_irq_disable fake_irq_disable
#define fd_irq_enable fake_irq_enable
#define fd_sleep_masked fake_sleep_masked

void nrf51_uart_init(void);
void nrf51_uart_irq_handler(void);

#endif
