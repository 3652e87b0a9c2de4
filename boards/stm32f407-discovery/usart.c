/* USART2 console on PA2 (TX) / PA3 (RX), AF7: the ST-LINK virtual COM port
 * needs jumper wires on the Discovery board. Polled, 115200 8N1. */
#include "hal/console.h"
#include "stm32f407.h"

void stm32_usart2_init(void)
{
    RCC_AHB1ENR |= RCC_AHB1ENR_GPIOAEN;
    RCC_APB1ENR |= RCC_APB1ENR_USART2EN;
    GPIOA_MODER = (GPIOA_MODER & ~(0xFu << 4)) | (0xAu << 4); /* PA2, PA3 alternate */
    GPIOA_AFRL = (GPIOA_AFRL & ~(0xFFu << 8)) | (0x77u << 8);  /* AF7 = USART2 */
    USART2_BRR = 0x8Bu; /* 16 MHz / (16 * 8.6875) = 115108 baud, 0.08% off */
    USART2_CR1 = USART_CR1_UE | USART_CR1_TE | USART_CR1_RE;
}

void hal_console_write(const char *data, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        while ((USART2_SR & USART_SR_TXE) == 0u) {
        }
        USART2_DR = (uint8_t)data[i];
    }
}

fd_status hal_console_read(uint8_t *byte)
{
    if (byte == NULL) {
        return FD_ERR_NULL;
    }
    while ((USART2_SR & USART_SR_RXNE) == 0u) {
    }
    *byte = (uint8_t)USART2_DR; /* reading DR also clears ORE */
    return FD_OK;
}
