/* HAL: the hardware watchdog that resets a hung dealer. */
#ifndef HAL_WATCHDOG_H
#define HAL_WATCHDOG_H

#include <stdint.h>

#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @brief Start the watchdog: from now on the chip resets when
 * hal_watchdog_kick() is not called for timeout_ms milliseconds.
 *
 * Once started it is never stopped (the nRF5x, STM32 IWDG and Stellaris
 * blocks cannot be; the CMSDK one is left locked) and a second call fails. The timeout is met on the nominal
 * watchdog clock; boards whose clock has a wide tolerance (STM32 LSI)
 * round so that the shortest possible timeout is still timeout_ms.
 * Errors: FD_ERR_EMPTY (timeout_ms 0), FD_ERR_TOO_LARGE (beyond the
 * hardware's range), FD_ERR_STATE (already started), FD_ERR_NOT_READY
 * (the board has no watchdog: the host; or it did not report running:
 * the micro:bit under QEMU, which does not model the nRF51 WDT).
 */
FD_MUST_CHECK fd_status hal_watchdog_start(uint32_t timeout_ms);

/**
 * @brief Restart the watchdog's countdown. Harmless before
 * hal_watchdog_start() and on boards without a watchdog.
 */
void hal_watchdog_kick(void);

/** @brief Short description of the board's watchdog for banners, e.g.
 * "CMSDK APB watchdog": FD_WATCHDOG_NAME in the board's board.cmake. */
const char *hal_watchdog_name(void);

#ifdef __cplusplus
}
#endif

#endif
