/* The LM3S6965's watchdog timer 0 and its reset cause (RESC). */
#include "apb_watchdog.h"
#include "hal/reset.h"
#include "hal/watchdog.h"
#include "lm3s6965.h"

fd_status hal_watchdog_start(uint32_t timeout_ms)
{
    SYSCTL_RCGC0 |= SYSCTL_RCGC0_WDT;
    (void)SYSCTL_RCGC0; /* a few clocks between gating it on and touching it */
    const fd_status st = fd_apb_watchdog_start(WDT0_BASE, FD_CPU_HZ, timeout_ms);
    if (st == FD_OK) {
        NVIC_ISER0 = 1u << WDT0_IRQN;
    }
    return st;
}

void hal_watchdog_kick(void)
{
    if (fd_apb_watchdog_kick(WDT0_BASE)) {
        NVIC_ISER0 = 1u << WDT0_IRQN; /* the first stage masked it, if it fired */
    }
}

/* RESC names every reset on the chip. QEMU never sets it (it stays 0),
 * and there the watchdog's own note (apb_watchdog.h) names a watchdog
 * reset. Several bits: the most fundamental wins (hal/reset.h). */
hal_reset_cause hal_reset_cause_read(void)
{
    const uint32_t resc = SYSCTL_RESC;
    SYSCTL_RESC = 0u;
    const bool noted = fd_apb_watchdog_take();
    if ((resc & SYSCTL_RESC_POR) != 0u) {
        return HAL_RESET_POWER_ON;
    }
    if ((resc & (SYSCTL_RESC_BOR | SYSCTL_RESC_LDO)) != 0u) {
        return HAL_RESET_BROWNOUT; /* the supply, or the core's LDO output, dropped */
    }
    if ((resc & SYSCTL_RESC_WDT) != 0u || (resc == 0u && noted)) {
        return HAL_RESET_WATCHDOG;
    }
    if ((resc & SYSCTL_RESC_SW) != 0u) {
        return HAL_RESET_SOFTWARE;
    }
    if ((resc & SYSCTL_RESC_EXT) != 0u) {
        return HAL_RESET_PIN;
    }
    return HAL_RESET_UNKNOWN;
}

/* First stage: note it, and mask the line (it stays raised until a kick,
 * which unmasks it) so the hung code, if it still runs, runs on until the
 * second stage resets the chip. */
void lm3s_watchdog_irq_handler(void)
{
    fd_apb_watchdog_note();
    NVIC_ICER0 = 1u << WDT0_IRQN;
}
