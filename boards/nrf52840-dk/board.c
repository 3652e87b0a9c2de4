#include "hal/board.h"
#include "nrf52840.h"

void hal_board_init(void)
{
    fd_systick_start();
    nrf52_uarte_init();
    __asm volatile("cpsie i" ::: "memory");
}

const char *hal_board_name(void) { return "nrf52840-dk"; }

bool hal_board_emulation_only(void) { return false; }
