#include "hal/board.h"
#include "stm32f407.h"

void hal_board_init(void)
{
    fd_systick_start();
    stm32_pll48_init();
    stm32_usart2_init();
    __asm volatile("cpsie i" ::: "memory");
}

/* The RNG needs the 48 MHz PLL output. HSI 16 MHz / M 16 * N 336 = 336 MHz
 * VCO; Q 7 gives 48 MHz. SYSCLK stays on HSI: the PLL serves the RNG only. */
void stm32_pll48_init(void)
{
    RCC_CR &= ~RCC_CR_PLLON;
    RCC_PLLCFGR = RCC_PLLCFGR_PLLM(16u) | RCC_PLLCFGR_PLLN(336u) | RCC_PLLCFGR_PLLQ(7u);
    RCC_CR |= RCC_CR_PLLON;
    uint32_t start = fd_systick_read();
    while ((RCC_CR & RCC_CR_PLLRDY) == 0u) {
        if (fd_systick_read() - start > STM32_HCLK_HZ / 100u) {
            return; /* the RNG will then report a clock error: fail closed */
        }
    }
}
