#include "hal/board.h"
#include "mps2.h"

void hal_board_init(void)
{
    fd_systick_start();
    mps2_uart_init();
    __asm volatile("cpsie i" ::: "memory");
}

const char *hal_board_name(void) { return "mps2-an386"; }

/* No TRNG: entropy comes from the emulator's host. Never a shipping board. */
bool hal_board_emulation_only(void) { return true; }
