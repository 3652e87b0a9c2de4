#include "hal/board.h"
#include "nrf51.h"

void hal_board_init(void)
{
    /* Console first, so a refusal below can be read. */
    nrf51_uart_init();
    if (fd_timebase_start() != FD_OK) {
        fd_board_refuse("TIMER0 time base absent or stopped");
    }
    if (nrf5x_hfxo_start() != FD_OK) {
        fd_board_refuse("16 MHz crystal (HFXO) did not start");
    }
    fd_irq_enable();
}
