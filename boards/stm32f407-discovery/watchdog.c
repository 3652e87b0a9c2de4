/* The STM32F407's independent watchdog (IWDG) and its reset cause
 * (RCC_CSR); registers in stm32f407.h.
 *
 * The LSI that clocks the IWDG may run anywhere from 17 to 47 kHz, so the
 * reload is computed at 47 kHz: the reset never comes earlier than the
 * timeout asked for, and at worst 47/17 = 2.8 times later. The IWDG also
 * counts while the core sleeps in WFI; SysTick's wrap interrupt (SysTick
 * keeps counting in Sleep mode on the STM32, unlike the nRF52) wakes the
 * console's wait every 2^24 / 168 MHz = 0.1 s to kick it (rx_ring_wait.h). */
#include <stdbool.h>

#include "hal/reset.h"
#include "hal/watchdog.h"
#include "stm32f407.h"

/* PR and RLR reach the LSI domain within 5 LSI periods (~300 us at
 * 17 kHz); a 10 ms bound leaves room. */
#define IWDG_UPDATE_CLOCKS (FD_CPU_HZ / 100u)

static bool started; /* the IWDG cannot be read back as running */

fd_status hal_watchdog_start(uint32_t timeout_ms)
{
    if (timeout_ms == 0u) {
        return FD_ERR_EMPTY;
    }
    if (started) {
        return FD_ERR_STATE;
    }
    /* LSI periods at its fastest, then the smallest prescaler that fits */
    const uint64_t lsi_ticks = ((uint64_t)timeout_ms * LSI_MAX_HZ + 999u) / 1000u;
    uint32_t pr = 0u;
    uint64_t reload = (lsi_ticks + 3u) / 4u;
    while (reload > IWDG_RLR_MAX + 1u && pr < IWDG_PR_MAX) {
        pr++;
        reload = (lsi_ticks + (4u << pr) - 1u) / (4u << pr);
    }
    if (reload > IWDG_RLR_MAX + 1u) {
        return FD_ERR_TOO_LARGE;
    }
    const uint32_t rlr = reload == 0u ? 0u : (uint32_t)(reload - 1u); /* it counts RLR..0 */
    IWDG_KR = IWDG_KEY_START;                                         /* also starts the LSI */
    started = true;
    IWDG_KR = IWDG_KEY_ACCESS;
    IWDG_PR = pr;
    IWDG_RLR = rlr;
    const uint32_t begin = fd_timebase_read();
    while ((IWDG_SR & (IWDG_SR_PVU | IWDG_SR_RVU)) != 0u) {
        if (fd_timebase_read() - begin > IWDG_UPDATE_CLOCKS) {
            return FD_ERR_NOT_READY; /* running on the defaults: 0.5 s at 32 kHz */
        }
    }
    if ((IWDG_PR & 7u) != pr || (IWDG_RLR & IWDG_RLR_MAX) != rlr) {
        return FD_ERR_NOT_READY;
    }
    IWDG_KR = IWDG_KEY_RELOAD; /* count from the new reload value */
    return FD_OK;
}

void hal_watchdog_kick(void)
{
    if (started) {
        IWDG_KR = IWDG_KEY_RELOAD;
    }
}

/* A power-on sets POR, BOR and PIN together, and the internal resets
 * (watchdog, software) drive the NRST pin too, so PIN only counts alone. */
hal_reset_cause hal_reset_cause_read(void)
{
    const uint32_t csr = RCC_CSR;
    RCC_CSR = csr | RCC_CSR_RMVF; /* keeps LSION */
    if ((csr & RCC_CSR_PORRSTF) != 0u) {
        return HAL_RESET_POWER_ON;
    }
    if ((csr & RCC_CSR_BORRSTF) != 0u) {
        return HAL_RESET_BROWNOUT;
    }
    if ((csr & (RCC_CSR_IWDGRSTF | RCC_CSR_WWDGRSTF)) != 0u) {
        return HAL_RESET_WATCHDOG;
    }
    if ((csr & RCC_CSR_SFTRSTF) != 0u) {
        return HAL_RESET_SOFTWARE;
    }
    if ((csr & RCC_CSR_PINRSTF) != 0u) {
        return HAL_RESET_PIN;
    }
    return HAL_RESET_UNKNOWN; /* LPWRRSTF alone: an illegal Standby/Stop entry, or nothing */
}
