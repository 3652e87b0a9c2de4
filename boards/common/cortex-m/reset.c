#include <string.h>

#include "cortex_m.h"
#include "hal/board.h"

extern uint32_t __data_load__[];
extern uint32_t __data_start__[];
extern uint32_t __data_end__[];
extern uint32_t __bss_start__[];
extern uint32_t __bss_end__[];

int main(void);

void fd_reset_handler(void)
{
    memcpy(__data_start__, __data_load__,
           (size_t)((uintptr_t)__data_end__ - (uintptr_t)__data_start__));
    memset(__bss_start__, 0, (size_t)((uintptr_t)__bss_end__ - (uintptr_t)__bss_start__));
#if defined(FD_HAS_FPU)
    SCB_CPACR |= (0xFu << 20); /* CP10, CP11 full access */
    __asm volatile("dsb\n isb" ::: "memory");
#endif
    hal_board_init();
    hal_board_exit(main());
}
