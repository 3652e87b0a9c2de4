#include "hal/board.h"
#include "nrf52840.h"

void hal_board_init(void)
{
    /* Console first, so a refusal below can be read. */
    nrf52_uarte_init();
    if (fd_timebase_start() != FD_OK) {
        fd_board_refuse("SysTick time base absent or stopped");
    }
    if (nrf5x_hfxo_start() != FD_OK) {
        fd_board_refuse("32 MHz crystal (HFXO) did not start");
    }
    if (nrf52_idle_wake_start() != FD_OK) {
        fd_board_refuse("32.768 kHz clock (LFCLK) did not start: nothing would wake the idle CPU");
    }
    fd_irq_enable();
}
