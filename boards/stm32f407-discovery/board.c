#include "hal/board.h"
#include "stm32f407.h"

/* Datasheet tSU(HSE) is 2 ms typical; allow 50 ms. */
#define HSE_TIMEOUT_CLOCKS (STM32_HCLK_HZ / 20u)
#define PLL_TIMEOUT_CLOCKS (STM32_HCLK_HZ / 100u)

static fd_status wait_bits(const volatile uint32_t *reg, uint32_t mask, uint32_t want, uint32_t timeout)
{
    const uint32_t start = fd_timebase_read();
    while ((*reg & mask) != want) {
        if (fd_timebase_read() - start > timeout) {
            return FD_ERR_NOT_READY;
        }
    }
    return FD_OK;
}

/* SYSCLK from the Discovery's 8 MHz crystal (X2) instead of the 16 MHz
 * HSI RC, whose +-1% (and more over temperature) eats into the UART's
 * tolerance. Flash needs no wait states at 8 MHz (RM0090 table 10). */
static fd_status hse_start(void)
{
    RCC_CR |= RCC_CR_HSEON;
    fd_status st = wait_bits(&RCC_CR, RCC_CR_HSERDY, RCC_CR_HSERDY, HSE_TIMEOUT_CLOCKS);
    if (st != FD_OK) {
        return st;
    }
    RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_SW_MASK) | RCC_CFGR_SW_HSE;
    return wait_bits(&RCC_CFGR, RCC_CFGR_SWS_MASK, RCC_CFGR_SWS_HSE, HSE_TIMEOUT_CLOCKS);
}

fd_status stm32_pll48_start(void)
{
    /* PLLCFGR may only be written with the PLL off (RM0090 6.3.2). */
    RCC_CR &= ~RCC_CR_PLLON;
    fd_status st = wait_bits(&RCC_CR, RCC_CR_PLLRDY, 0u, PLL_TIMEOUT_CLOCKS);
    if (st != FD_OK) {
        return st;
    }
    RCC_PLLCFGR = (RCC_PLLCFGR & RCC_PLLCFGR_RESERVED) | RCC_PLLCFGR_PLLM(4u) | RCC_PLLCFGR_PLLN(168u) |
                  RCC_PLLCFGR_PLLSRC_HSE | RCC_PLLCFGR_PLLQ(7u);
    RCC_CR |= RCC_CR_PLLON;
    return wait_bits(&RCC_CR, RCC_CR_PLLRDY, RCC_CR_PLLRDY, PLL_TIMEOUT_CLOCKS);
}

void hal_board_init(void)
{
    const fd_status timebase = fd_timebase_start();
    const fd_status hse = timebase == FD_OK ? hse_start() : FD_ERR_NOT_READY;
    /* The console comes up at the right rate for whichever clock runs, so
     * a refusal can be read. */
    stm32_usart2_init(hse == FD_OK ? USART_BRR_115200_HSE : USART_BRR_115200_HSI);
    if (timebase != FD_OK) {
        fd_board_refuse("SysTick time base absent or stopped");
    }
    if (hse != FD_OK) {
        fd_board_refuse("8 MHz HSE crystal did not start");
    }
    /* A PLL that fails to lock is not fatal here: the RNG then reports a
     * clock error and hal_trng_init retries the PLL (fail closed). */
    (void)stm32_pll48_start();
    fd_irq_enable();
}
