/* The nRF51/nRF52 WDT and reset cause (RESETREAS), registers in nrf5x.h.
 *
 * Sleep: the nRF51 (micro:bit) waits for console input in WFI with no
 * periodic wake-up (TIMER0 runs without an interrupt), so its WDT pauses
 * while the CPU sleeps (FD_NRF_WDT_PAUSE_IN_SLEEP); a hang that sleeps
 * forever is then not caught there. On the nRF52 RTC1's TICK wakes it
 * every 125 ms (boards/nrf52840-dk/rtc_wake.c; SysTick cannot: it stops
 * while the CPU sleeps, nRF52840 PS v1.7 CPU chapter), so its WDT runs in
 * sleep too and catches that hang as well. */
#include "hal/reset.h"
#include "hal/watchdog.h"
#include "nrf5x.h"

#if defined(FD_NRF_WDT_PAUSE_IN_SLEEP)
#define WDT_CONFIG_VALUE 0u
#else
#define WDT_CONFIG_VALUE WDT_CONFIG_SLEEP_RUN
#endif

fd_status hal_watchdog_start(uint32_t timeout_ms)
{
    if (timeout_ms == 0u) {
        return FD_ERR_EMPTY;
    }
    const uint64_t ticks = (uint64_t)timeout_ms * WDT_LFCLK_HZ / 1000u;
    if (ticks > 0x100000000ull) {
        return FD_ERR_TOO_LARGE;
    }
    if ((WDT_RUNSTATUS & 1u) != 0u) {
        return FD_ERR_STATE;
    }
    /* it counts CRV + 1 ticks; 1 ms is 32 ticks, above the hardware's
     * floor of CRV 15 */
    WDT_CRV = (uint32_t)(ticks - 1u);
    WDT_RREN = 1u; /* RR[0] only */
    WDT_CONFIG = WDT_CONFIG_VALUE;
    WDT_TASKS_START = 1u;
    /* QEMU's micro:bit has no WDT: the write goes nowhere and this reads 0 */
    if ((WDT_RUNSTATUS & 1u) == 0u) {
        return FD_ERR_NOT_READY;
    }
    return FD_OK;
}

void hal_watchdog_kick(void)
{
    /* Harmless while stopped: RR is only honoured by a running WDT. */
    WDT_RR0 = WDT_RR_RELOAD;
}

hal_reset_cause hal_reset_cause_read(void)
{
    const uint32_t reasons = POWER_RESETREAS;
    POWER_RESETREAS = reasons; /* write 1 to clear what was read */
    if (reasons == 0u) {
        return HAL_RESET_POWER_ON; /* or a brown-out: the same empty state */
    }
    if ((reasons & RESETREAS_DOG) != 0u) {
        return HAL_RESET_WATCHDOG;
    }
    if ((reasons & RESETREAS_LOCKUP) != 0u) {
        return HAL_RESET_LOCKUP;
    }
    if ((reasons & RESETREAS_SREQ) != 0u) {
        return HAL_RESET_SOFTWARE;
    }
    if ((reasons & RESETREAS_RESETPIN) != 0u) {
        return HAL_RESET_PIN;
    }
    return HAL_RESET_UNKNOWN; /* a wake-up from System OFF */
}
