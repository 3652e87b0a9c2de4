#include "hal/board.h"
#include "nrf52840.h"

void hal_board_init(void)
{
    fd_systick_start();
    nrf52_uarte_init();
    __asm volatile("cpsie i" ::: "memory");
}

