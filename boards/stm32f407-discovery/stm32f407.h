/* The few STM32F407 registers this board uses (RM0090 rev 19: RCC, GPIO,
 * USART, RNG chapters). */
#ifndef STM32F407_H
#define STM32F407_H

#include "cortex_m.h"

#define RCC_BASE 0x40023800u
#define RCC_CR FD_REG32(RCC_BASE + 0x00u)
#define RCC_CR_PLLON (1u << 24)
#define RCC_CR_PLLRDY (1u << 25)
#define RCC_PLLCFGR FD_REG32(RCC_BASE + 0x04u)
/* PLLP = 0 (divide by 2) and PLLSRC = 0 (HSI) are the zero encodings. */
#define RCC_PLLCFGR_PLLM(m) ((uint32_t)(m) << 0)
#define RCC_PLLCFGR_PLLN(n) ((uint32_t)(n) << 6)
#define RCC_PLLCFGR_PLLQ(q) ((uint32_t)(q) << 24)
#define RCC_AHB1ENR FD_REG32(RCC_BASE + 0x30u)
#define RCC_AHB1ENR_GPIOAEN (1u << 0)
#define RCC_AHB2ENR FD_REG32(RCC_BASE + 0x34u)
#define RCC_AHB2ENR_RNGEN (1u << 6)
#define RCC_APB1ENR FD_REG32(RCC_BASE + 0x40u)
#define RCC_APB1ENR_USART2EN (1u << 17)

#define GPIOA_BASE 0x40020000u
#define GPIOA_MODER FD_REG32(GPIOA_BASE + 0x00u)
#define GPIOA_AFRL FD_REG32(GPIOA_BASE + 0x20u)

#define USART2_BASE 0x40004400u
#define USART2_SR FD_REG32(USART2_BASE + 0x00u)
#define USART_SR_RXNE (1u << 5)
#define USART_SR_TXE (1u << 7)
#define USART_SR_ORE (1u << 3)
#define USART2_DR FD_REG32(USART2_BASE + 0x04u)
#define USART2_BRR FD_REG32(USART2_BASE + 0x08u)
#define USART2_CR1 FD_REG32(USART2_BASE + 0x0Cu)
#define USART_CR1_RE (1u << 2)
#define USART_CR1_TE (1u << 3)
#define USART_CR1_UE (1u << 13)

#define RNG_BASE 0x50060800u
#define RNG_CR FD_REG32(RNG_BASE + 0x00u)
#define RNG_CR_RNGEN (1u << 2)
#define RNG_SR FD_REG32(RNG_BASE + 0x04u)
#define RNG_SR_DRDY (1u << 0)
#define RNG_SR_CECS (1u << 1)
#define RNG_SR_SECS (1u << 2)
#define RNG_SR_CEIS (1u << 5)
#define RNG_SR_SEIS (1u << 6)
#define RNG_DR FD_REG32(RNG_BASE + 0x08u)

/* After reset the core runs from HSI at 16 MHz; we keep it there. */
#define STM32_HCLK_HZ FD_CPU_HZ

void stm32_usart2_init(void);
void stm32_pll48_init(void);

#endif
