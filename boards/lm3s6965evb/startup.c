/* LM3S6965 vector table: 16 core entries and the 64 IRQ lines QEMU's NVIC
 * has for this machine (the chip uses 0-43). Only SysTick, UART0 and the
 * watchdog are expected; every other entry reports a fault. */
#include "lm3s6965.h"

extern uint32_t fd_stack_top[];

typedef void (*vector_fn)(void);

/* clang-format off: the table reads as the vector layout */
#define F fd_fault_handler
#define F8 F, F, F, F, F, F, F, F
__attribute__((section(".vectors"), used)) static const vector_fn vectors[16 + 64] = {
    (vector_fn)(uintptr_t)fd_stack_top,
    fd_reset_handler,
    F,
    F,
    F,
    F,
    F,
    0,
    0,
    0,
    0,
    F,
    F,
    0,
    F,
    fd_systick_handler,
    F,
    F,
    F,
    F,
    F,
    lm3s_uart0_irq_handler, /* IRQ 5: UART0 */
    F,
    F,
    F8,
    F,
    F,
    lm3s_watchdog_irq_handler, /* IRQ 18: the watchdog's first stage */
    F,
    F,
    F,
    F,
    F,
    F8,
    F8,
    F8,
    F8,
    F8,
};
/* clang-format on */
#undef F8
#undef F
