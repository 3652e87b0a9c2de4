#include "hal/board.h"
#include "lm3s6965.h"

void hal_board_init(void)
{
    fd_systick_start();
    lm3s_uart0_init();
    __asm volatile("cpsie i" ::: "memory");
}
