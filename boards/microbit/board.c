#include "hal/board.h"
#include "nrf51.h"

void hal_board_init(void)
{
    fd_systick_start();
    nrf51_uart_init();
    __asm volatile("cpsie i" ::: "memory");
}

