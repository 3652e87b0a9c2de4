/* STM32F407 vector table: 16 core entries and 82 peripheral IRQs; only
 * USART2 (IRQ 38, console receive) is used, every other one reports a
 * fault. The chip boots with this copy in flash; hal_board_init moves VTOR
 * to an SRAM copy (ram_vectors.c). */
#include "stm32f407.h"

extern uint32_t fd_stack_top[];

/* clang-format off: the table reads as the vector layout */
#define F fd_fault_handler
#define F8 F, F, F, F, F, F, F, F
__attribute__((section(".vectors"), used)) const stm32_vector_fn stm32_flash_vectors[STM32_VECTORS] = {
    (stm32_vector_fn)(uintptr_t)fd_stack_top,
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
