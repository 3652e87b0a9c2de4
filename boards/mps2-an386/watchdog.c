/* The MPS2 AN386's watchdog (the CMSDK APB watchdog on the 25 MHz system
 * clock) and its reset cause. The board has no reset-reason register (the
 * FPGA's SCC and FPGAIO hold none), so the only cause it can name is the
 * watchdog, from the note its first stage leaves in RAM; every other
 * reset is unknown. */
#include "apb_watchdog.h"
#include "hal/reset.h"
#include "hal/watchdog.h"
#include "mps2.h"

fd_status hal_watchdog_start(uint32_t timeout_ms) { return fd_apb_watchdog_start(WDOG_BASE, FD_CPU_HZ, timeout_ms); }

void hal_watchdog_kick(void) { (void)fd_apb_watchdog_kick(WDOG_BASE); /* false: not started, nothing to do */ }

hal_reset_cause hal_reset_cause_read(void) { return fd_apb_watchdog_take() ? HAL_RESET_WATCHDOG : HAL_RESET_UNKNOWN; }

/* The NMI's only source on this board is the watchdog's first stage: note
 * it and return; a kick before the second stage still saves the dealer. */
void mps2_nmi_handler(void)
{
    if (!fd_apb_watchdog_fired(WDOG_BASE)) {
        fd_board_refuse("NMI without a watchdog time-out");
    }
    fd_apb_watchdog_note();
}
