/* The host has neither a watchdog nor a reset-reason register: a hung
 * host dealer is the operating system's (or its supervisor's) to kill and
 * restart, and a process cannot tell a boot from a restart after a crash
 * or a kill, so the cause is unknown rather than a guessed "power-on". */
#include "hal/reset.h"
#include "hal/watchdog.h"

fd_status hal_watchdog_start(uint32_t timeout_ms)
{
    (void)timeout_ms;
    return FD_ERR_NOT_READY;
}

void hal_watchdog_kick(void) {}

hal_reset_cause hal_reset_cause_read(void) { return HAL_RESET_UNKNOWN; }
