/* USART2 console on PA2 (TX) / PA3 (RX), AF7, 115200 8N1: a 3.3 V
 * USB-serial adapter on those pins (docs/HARDWARE.md). Polled transmit;
 * interrupt-driven receive into a ring, errors reported per
 * hal/include/hal/console.h. The receive handler runs from SRAM, so bytes
 * keep arriving while the flash erases or programs (stm32f407.h
 * STM32_RAMFUNC, docs/HARDWARE.md "Flash stalls"). */
#include "hal/console.h"
#include "../common/uart/tx_bound.h"
#include "../common/uart/rx_ring_isr.h"
#include "../common/uart/rx_ring_wait.h"
#include "stm32f407.h"

#define USART_SR_ERRORS (USART_SR_PE | USART_SR_FE | USART_SR_NF | USART_SR_ORE)

static fd_rx_ring rx;

void stm32_usart2_init(uint32_t brr)
{
    fd_rx_ring_init(&rx);
    RCC_AHB1ENR |= RCC_AHB1ENR_GPIOAEN;
    RCC_APB1ENR |= RCC_APB1ENR_USART2EN;
    fd_data_barrier(); /* clock on before the first access: see trng.c */
    /* RX pulled up so an unplugged adapter reads as idle line, not noise. */
    GPIOA_PUPDR = (GPIOA_PUPDR & ~(0x3u << 6)) | (0x1u << 6);
    GPIOA_AFRL = (GPIOA_AFRL & ~(0xFFu << 8)) | (0x77u << 8); /* AF7 = USART2 */
    GPIOA_MODER = (GPIOA_MODER & ~(0xFu << 4)) | (0xAu << 4); /* PA2, PA3 alternate */
    USART2_BRR = brr;
    USART2_CR1 = USART_CR1_UE | USART_CR1_TE | USART_CR1_RE | USART_CR1_RXNEIE;
    NVIC_ISER(USART2_IRQN / 32u) = 1u << (USART2_IRQN % 32u);
}

/* RXNEIE raises this for RXNE and for ORE. Reading SR then DR clears RXNE
 * and all four error flags (RM0090 30.6.1). DR after ORE holds the last
 * good byte (the new one was lost); after PE/FE/NF it holds the damaged
 * byte, which is dropped. */
STM32_RAMFUNC void stm32_usart2_irq_handler(void)
{
    const uint32_t sr = USART2_SR;
    if ((sr & (USART_SR_RXNE | USART_SR_ERRORS)) == 0u) {
        return;
    }
    const uint8_t byte = (uint8_t)USART2_DR;
    if ((sr & (USART_SR_PE | USART_SR_FE | USART_SR_NF)) != 0u) {
        fd_rx_ring_isr_hw_lost(&rx);
        return;
    }
    if ((sr & USART_SR_RXNE) != 0u) {
        fd_rx_ring_isr_put(&rx, byte);
    }
    if ((sr & USART_SR_ORE) != 0u) {
        fd_rx_ring_isr_hw_lost(&rx);
    }
}

static bool tx_ready(void) { return (USART2_SR & USART_SR_TXE) != 0u; }

void hal_console_write(const char *data, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (fd_uart_tx_wait(tx_ready, 1u)) {
            USART2_DR = (uint8_t)data[i];
        }
    }
}

fd_status hal_console_read(uint8_t *byte)
{
    if (byte == NULL) {
        return FD_ERR_NULL;
    }
    return fd_rx_ring_wait(&rx, byte);
}
