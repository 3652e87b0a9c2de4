/* HFXO start-up shared by the nRF51 and nRF52 boards (see nrf5x.h). */
#include "nrf5x.h"

#define HFXO_TIMEOUT_CLOCKS (FD_CPU_HZ / 100u)

fd_status nrf5x_hfxo_start(void)
{
    CLOCK_EVENTS_HFCLKSTARTED = 0u;
    CLOCK_TASKS_HFCLKSTART = 1u;
    const uint32_t start = fd_timebase_read();
    while (CLOCK_EVENTS_HFCLKSTARTED == 0u) {
        if (fd_timebase_read() - start > HFXO_TIMEOUT_CLOCKS) {
            return FD_ERR_NOT_READY;
        }
    }
    return FD_OK;
}
