#include "hal/board.h"
#include "mps2.h"

void hal_board_init(void)
{
    fd_systick_start();
    mps2_uart_init();
    __asm volatile("cpsie i" ::: "memory");
}

