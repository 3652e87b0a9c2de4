/* STM32F407 vector table: 16 core entries and 82 peripheral IRQs; only
 * USART2 (IRQ 38, console receive) is used, every other one reports a
 * fault. */
#include "stm32f407.h"

extern uint32_t fd_stack_top[];

typedef void (*vector_fn)(void);

/* clang-format off: the table reads as the vector layout */
#define F fd_fault_handler
#define F8 F, F, F, F, F, F, F, F
__attribute__((section(".vectors"), used)) static const vector_fn vectors[16 + 82] = {
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
    F8,
    F8,
    F8,
    F8,
    F,
    F,
    F,
    F,
    F,
    F,                        /* IRQ 0-37 */
    stm32_usart2_irq_handler, /* IRQ 38 */
    F8,
    F8,
    F8,
    F8,
    F8,
    F,
    F,
    F, /* IRQ 39-81 */
};
/* clang-format on */
#undef F8
#undef F
