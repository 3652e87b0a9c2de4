#include <string.h>

#include "cortex_m.h"
#include "hal/board.h"

extern uint32_t fd_data_load[];
extern uint32_t fd_data_start[];
extern uint32_t fd_data_end[];
extern uint32_t fd_bss_start[];
extern uint32_t fd_bss_end[];

int main(void);

void fd_system_reset(void)
{
    __asm volatile("dsb" ::: "memory"); /* writes before it complete first */
    SCB_AIRCR = SCB_AIRCR_SYSRESETREQ;
    __asm volatile("dsb" ::: "memory");
    for (;;) {
    }
}

void fd_reset_handler(void)
{
#if defined(FD_DEBUG_LOCK)
    fd_debug_lock();
#endif
    memcpy(fd_data_start, fd_data_load, (size_t)((uintptr_t)fd_data_end - (uintptr_t)fd_data_start));
    memset(fd_bss_start, 0, (size_t)((uintptr_t)fd_bss_end - (uintptr_t)fd_bss_start));
#if defined(FD_HAS_FPU)
    SCB_CPACR |= (0xFu << 20); /* CP10, CP11 full access */
    __asm volatile("dsb\n isb" ::: "memory");
#endif
    hal_board_init();
    hal_board_exit(main());
}
