#include "hal/board.h"
#include "mps2.h"

void hal_board_init(void)
{
    mps2_uart_init();
    if (fd_timebase_start() != FD_OK) {
        fd_board_refuse("SysTick time base absent or stopped");
    }
    fd_irq_enable();
}
