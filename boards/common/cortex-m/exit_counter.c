/* hal_board_exit and hal_counter_* are the same on every Cortex-M board. */
#include "cortex_m.h"
#include "hal/board.h"
#include "hal/counter.h"

_Noreturn void hal_board_exit(int code)
{
#if defined(FD_SEMIHOSTING)
    fd_semihost_exit(code);
#else
    /* On hardware there is nobody to return to: stop dealing until reset. */
    (void)code;
    fd_irq_disable();
    for (;;) {
        __asm volatile("wfi");
    }
#endif
}

uint32_t hal_counter_read(void) { return fd_timebase_read(); }

const char *hal_counter_unit(void) { return "cpu-clocks"; }
