/* The few STM32F407 registers this board uses (RM0090 rev 19: RCC, GPIO,
 * USART, RNG chapters). */
#ifndef STM32F407_H
#define STM32F407_H

#include "cortex_m.h"

#define RCC_BASE 0x40023800u
#define RCC_CR FD_REG32(RCC_BASE + 0x00u)
#define RCC_CR_HSEON (1u << 16)
#define RCC_CR_HSERDY (1u << 17)
#define RCC_CR_PLLON (1u << 24)
#define RCC_CR_PLLRDY (1u << 25)
#define RCC_PLLCFGR FD_REG32(RCC_BASE + 0x04u)
/* Bits 15, 18-21, 23, 28-31 are reserved, "must be kept at reset value"
 * (reset 0x24003010 has bit 29 set). */
#define RCC_PLLCFGR_RESERVED 0xF0BC8000u
#define RCC_PLLCFGR_PLLM(m) ((uint32_t)(m) << 0)
#define RCC_PLLCFGR_PLLN(n) ((uint32_t)(n) << 6)
/* PLLP = 0 is divide by 2 */
#define RCC_PLLCFGR_PLLSRC_HSE (1u << 22)
#define RCC_PLLCFGR_PLLQ(q) ((uint32_t)(q) << 24)
#define RCC_CFGR FD_REG32(RCC_BASE + 0x08u)
#define RCC_CFGR_SW_MASK 0x3u
#define RCC_CFGR_SW_PLL 0x2u
#define RCC_CFGR_SWS_MASK (0x3u << 2)
#define RCC_CFGR_SWS_PLL (0x2u << 2)
/* Bus prescalers (RM0090 7.3.3): HPRE bits 7:4 (0: /1), PPRE1 bits 12:10
 * (5: /4), PPRE2 bits 15:13 (4: /2). */
#define RCC_CFGR_PRESCALERS_MASK 0xFCF0u
#define RCC_CFGR_HPRE_DIV1 (0x0u << 4)
#define RCC_CFGR_PPRE1_DIV4 (0x5u << 10)
#define RCC_CFGR_PPRE2_DIV2 (0x4u << 13)
#define RCC_AHB1ENR FD_REG32(RCC_BASE + 0x30u)
#define RCC_AHB1ENR_GPIOAEN (1u << 0)
#define RCC_AHB2ENR FD_REG32(RCC_BASE + 0x34u)
#define RCC_AHB2ENR_RNGEN (1u << 6)
#define RCC_APB1ENR FD_REG32(RCC_BASE + 0x40u)
#define RCC_APB1ENR_USART2EN (1u << 17)
#define RCC_APB1ENR_PWREN (1u << 28)

/* PWR_CR (RM0090 5.4.1): VOS bit 14 on the F405/407, 1 = scale 1 mode,
 * which 168 MHz needs (reset value 1, set anyway). */
#define PWR_CR FD_REG32(0x40007000u)
#define PWR_CR_VOS_SCALE1 (1u << 14)

/* FLASH_ACR (RM0090 3.9.1): LATENCY bits 2:0, prefetch, caches. */
#define FLASH_ACR FD_REG32(0x40023C00u)
#define FLASH_ACR_LATENCY_MASK 0x7u
#define FLASH_ACR_PRFTEN (1u << 8)
#define FLASH_ACR_ICEN (1u << 9)
#define FLASH_ACR_DCEN (1u << 10)
#define FLASH_ACR_ICRST (1u << 11)
#define FLASH_ACR_DCRST (1u << 12)
/* RM0090 3.5.1 Table 10, 2.7-3.6 V (the Discovery's 3 V): one wait state
 * per started 30 MHz of HCLK, so 5 at 151-168 MHz. */
#define FLASH_WAIT_STATES_168MHZ 5u

#define GPIOA_BASE 0x40020000u
#define GPIOA_MODER FD_REG32(GPIOA_BASE + 0x00u)
#define GPIOA_PUPDR FD_REG32(GPIOA_BASE + 0x0Cu)
#define GPIOA_AFRL FD_REG32(GPIOA_BASE + 0x20u)

#define USART2_BASE 0x40004400u
#define USART2_SR FD_REG32(USART2_BASE + 0x00u)
#define USART_SR_PE (1u << 0)
#define USART_SR_FE (1u << 1)
#define USART_SR_NF (1u << 2)
#define USART_SR_ORE (1u << 3)
#define USART_SR_RXNE (1u << 5)
#define USART_SR_TXE (1u << 7)
#define USART2_DR FD_REG32(USART2_BASE + 0x04u)
#define USART2_BRR FD_REG32(USART2_BASE + 0x08u)
/* 115200 baud, oversampling by 16: BRR = fPCLK1 / 115200 as 12.4 fixed
 * point. PLL (PCLK1 = 168 / 4 = 42 MHz): 22.8125 -> 115068 baud (-0.11%);
 * HSI 16 MHz (only to report a dead crystal or PLL): 8.6875 -> 115108
 * (-0.08%). */
#define USART_BRR_115200_PLL 0x16Du
#define USART_BRR_115200_HSI 0x8Bu
#define USART2_CR1 FD_REG32(USART2_BASE + 0x0Cu)
#define USART_CR1_RE (1u << 2)
#define USART_CR1_TE (1u << 3)
#define USART_CR1_RXNEIE (1u << 5)
#define USART_CR1_UE (1u << 13)
#define USART2_IRQN 38u

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

/* The core runs at 168 MHz from the PLL on the Discovery's 8 MHz HSE
 * crystal (board.c); before the switch it runs on the 16 MHz HSI, so
 * timeouts counted then last up to 10.5 times longer, never shorter. */
#define STM32_HCLK_HZ FD_CPU_HZ

/* RCC_CSR (RM0090 "RCC clock control & status register"): the reset flags
 * accumulate until RMVF is written 1. */
#define RCC_CSR FD_REG32(RCC_BASE + 0x74u)
#define RCC_CSR_RMVF (1u << 24)
#define RCC_CSR_BORRSTF (1u << 25)
#define RCC_CSR_PINRSTF (1u << 26)
#define RCC_CSR_PORRSTF (1u << 27)
#define RCC_CSR_SFTRSTF (1u << 28)
#define RCC_CSR_IWDGRSTF (1u << 29)
#define RCC_CSR_WWDGRSTF (1u << 30)
#define RCC_CSR_LPWRRSTF (1u << 31)

/* IWDG (RM0090 "Independent watchdog"): a 12-bit down-counter on the LSI
 * RC oscillator behind a prescaler of 4 << PR; KR takes keys only. PR and
 * RLR cross into the LSI domain: SR's PVU/RVU stay set until they have. */
#define IWDG_BASE 0x40003000u
#define IWDG_KR FD_REG32(IWDG_BASE + 0x00u)
#define IWDG_KEY_RELOAD 0xAAAAu
#define IWDG_KEY_ACCESS 0x5555u
#define IWDG_KEY_START 0xCCCCu
#define IWDG_PR FD_REG32(IWDG_BASE + 0x04u)
#define IWDG_PR_MAX 6u /* divide by 256 */
#define IWDG_RLR FD_REG32(IWDG_BASE + 0x08u)
#define IWDG_RLR_MAX 0xFFFu
#define IWDG_SR FD_REG32(IWDG_BASE + 0x0Cu)
#define IWDG_SR_PVU (1u << 0)
#define IWDG_SR_RVU (1u << 1)
/* LSI frequency over temperature and supply (STM32F407 datasheet, "LSI
 * oscillator characteristics"): 17 to 47 kHz, 32 kHz typical. */
#define LSI_MAX_HZ 47000u

/* Console on USART2 at 115200 8N1 from PCLK1; brr is one of the
 * USART_BRR_115200_* values for the clock the core runs on. */
void stm32_usart2_init(uint32_t brr);
void stm32_usart2_irq_handler(void);
/* Run the core at 168 MHz from the PLL on the 8 MHz HSE crystal (M 4:
 * 2 MHz VCO input, N 168: 336 MHz VCO, P 2: 168 MHz SYSCLK, Q 7: the RNG's
 * 48 MHz), with VOS scale 1, 5 flash wait states, prefetch and caches,
 * APB1 at 42 MHz and APB2 at 84 MHz (their maxima). Errors:
 * FD_ERR_NOT_READY when the crystal does not start or the PLL does not
 * lock; the core then stays on the HSI with the bus prescalers at 1. */
fd_status stm32_clocks_start(void);

/* Code that runs while the flash programs or erases. Every flash read
 * stalls the bus until the operation ends (RM0090 3.5, "Any attempt to read
 * the Flash memory ... while it is being written or erased, causes the bus
 * to stall"): instruction fetches, literal loads and vector fetches alike.
 * So the flash driver's start-and-wait loops, the USART2 handler and the
 * vector table live in SRAM: functions marked STM32_RAMFUNC go to a section
 * that the shared linker script gathers with .data (copied to RAM at reset,
 * its literal pools with it); docs/HARDWARE.md "Flash stalls". They must
 * call nothing else (the image test checks the disassembly). The host tests
 * put them in a section of their own whose bounds their flash model reads. */
#ifndef STM32_RAM_SECTION
#if defined(FD_TARGET_CORTEX_M)
#define STM32_RAM_SECTION ".ramfunc"
#else
#define STM32_RAM_SECTION "stm32_ramfunc"
#endif
#endif
#define STM32_RAMFUNC __attribute__((section(STM32_RAM_SECTION), noinline))

/* Exception priorities (upper 4 bits implemented on the F4, 0 highest):
 * USART2 keeps 0; SysTick, whose handler is in flash, gets 0x80, and
 * BASEPRI = STM32_PRIO_FLASH_CODE holds it (and anything else in flash)
 * off while the flash is busy, so no flash-resident handler stalls the
 * core in front of the USART (its wraps then pend and are counted late). */
#define SCB_SHPR3 FD_REG32(FD_SCS_BASE + 0xD20u)
#define SCB_SHPR3_SYSTICK_SHIFT 24u
#define STM32_PRIO_FLASH_CODE 0x80u
#ifndef stm32_basepri_set
#define stm32_basepri_set(v) __asm volatile("msr basepri, %0" ::"r"((uint32_t)(v)) : "memory")
#endif

/* Vector table entries: 16 core exceptions, 82 peripheral IRQs. */
#define STM32_VECTORS (16u + 82u)
typedef void (*stm32_vector_fn)(void);
/* The table the chip boots with, in flash (startup.c). */
extern const stm32_vector_fn stm32_flash_vectors[STM32_VECTORS];
/* Copy the vector table to SRAM and point VTOR at the copy; SysTick's
 * priority set to STM32_PRIO_FLASH_CODE. Call before interrupts are
 * enabled. Afterwards an interrupt taken during a flash operation fetches
 * its vector from SRAM (its handler must be in SRAM too to run before the
 * operation ends: USART2's is). */
void stm32_vectors_to_ram(void);
/* The copy VTOR points at (aligned as the Armv7-M ARM asks, B3.2.5: a
 * power of two >= 4 x the entries, 512 bytes for 98). */
extern stm32_vector_fn stm32_ram_vectors[STM32_VECTORS];

#endif
