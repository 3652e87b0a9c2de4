#include "hal/board.h"
#include "stm32f407.h"

/* Datasheet tSU(HSE) is 2 ms typical; allow 50 ms (counted at 168 MHz
 * while the HSI's 16 MHz runs: ~0.5 s, a bound, not a delay). */
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

/* The sequence of RM0090 6.3.2 (PLLCFGR written with the PLL off), 5.1.4
 * (VOS before the frequency rises) and 3.5.1 ("increasing the CPU
 * frequency": wait states programmed and read back before SW changes).
 * The HSE crystal, not the HSI RC (+-1% at 25 degC, more over
 * temperature), so the UART keeps its margin. */
fd_status stm32_clocks_start(void)
{
    RCC_CR |= RCC_CR_HSEON;
    fd_status st = wait_bits(&RCC_CR, RCC_CR_HSERDY, RCC_CR_HSERDY, HSE_TIMEOUT_CLOCKS);
    if (st != FD_OK) {
        return st;
    }
    RCC_CR &= ~RCC_CR_PLLON;
    st = wait_bits(&RCC_CR, RCC_CR_PLLRDY, 0u, PLL_TIMEOUT_CLOCKS);
    if (st != FD_OK) {
        return st;
    }
    RCC_PLLCFGR = (RCC_PLLCFGR & RCC_PLLCFGR_RESERVED) | RCC_PLLCFGR_PLLM(4u) | RCC_PLLCFGR_PLLN(168u) |
                  RCC_PLLCFGR_PLLSRC_HSE | RCC_PLLCFGR_PLLQ(7u);
    RCC_APB1ENR |= RCC_APB1ENR_PWREN;
    fd_data_barrier(); /* clock on before the first access: see trng.c */
    PWR_CR |= PWR_CR_VOS_SCALE1;
    RCC_CR |= RCC_CR_PLLON;
    st = wait_bits(&RCC_CR, RCC_CR_PLLRDY, RCC_CR_PLLRDY, PLL_TIMEOUT_CLOCKS);
    if (st != FD_OK) {
        return st;
    }
    /* Caches are reset only while disabled (RM0090 3.5.2), then enabled
     * with the prefetch buffer and the wait states for 168 MHz. */
    FLASH_ACR = FLASH_ACR_ICRST | FLASH_ACR_DCRST;
    FLASH_ACR = FLASH_WAIT_STATES_168MHZ | FLASH_ACR_PRFTEN | FLASH_ACR_ICEN | FLASH_ACR_DCEN;
    if ((FLASH_ACR & FLASH_ACR_LATENCY_MASK) != FLASH_WAIT_STATES_168MHZ) {
        return FD_ERR_NOT_READY;
    }
    RCC_CFGR = (RCC_CFGR & ~(RCC_CFGR_PRESCALERS_MASK | RCC_CFGR_SW_MASK)) | RCC_CFGR_HPRE_DIV1 | RCC_CFGR_PPRE1_DIV4 |
               RCC_CFGR_PPRE2_DIV2 | RCC_CFGR_SW_PLL;
    return wait_bits(&RCC_CFGR, RCC_CFGR_SWS_MASK, RCC_CFGR_SWS_PLL, PLL_TIMEOUT_CLOCKS);
}

void hal_board_init(void)
{
    stm32_vectors_to_ram();
    const fd_status timebase = fd_timebase_start();
    const fd_status clocks = timebase == FD_OK ? stm32_clocks_start() : FD_ERR_NOT_READY;
    /* The console comes up at the right rate for whichever clock runs, so
     * a refusal can be read. */
    stm32_usart2_init(clocks == FD_OK ? USART_BRR_115200_PLL : USART_BRR_115200_HSI);
    if (timebase != FD_OK) {
        fd_board_refuse("SysTick time base absent or stopped");
    }
    /* Every timeout, the UART rate and the timing budget
     * (docs/HARDWARE.md) assume 168 MHz: on the HSI nothing is dealt. */
    if (clocks != FD_OK) {
        fd_board_refuse("8 MHz HSE crystal or 168 MHz PLL did not start");
    }
    fd_irq_enable();
}
