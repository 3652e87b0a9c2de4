#include "hal/board.h"
#include "lm3s6965.h"

void hal_board_init(void)
{
    lm3s_uart0_init();
    if (fd_timebase_start() != FD_OK) {
        fd_board_refuse("SysTick time base absent or stopped");
    }
    fd_irq_enable();
}
