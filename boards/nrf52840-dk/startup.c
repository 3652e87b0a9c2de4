/* nRF52840 vector table: 16 core entries and 48 peripheral IRQs; only
 * UARTE0 (IRQ 2, console receive) and RTC1 (IRQ 17, the idle CPU's
 * wake-up) are used, every other one reports a fault. */
#include "nrf52840.h"

extern uint32_t fd_stack_top[];

typedef void (*vector_fn)(void);

/* clang-format off: the table reads as the vector layout */
#define F fd_fault_handler
#define F8 F, F, F, F, F, F, F, F
__attribute__((section(".vectors"), used)) static const vector_fn vectors[16 + 48] = {
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
    nrf52_uarte_irq_handler,
    F,
    F,
    F,
    F,
    F,  /* IRQ 0-7 */
    F8, /* IRQ 8-15 */
    F,
    nrf52_rtc1_irq_handler, /* IRQ 17 */
    F,
    F,
    F,
    F,
    F,
    F, /* IRQ 16-23 */
    F8,
    F8,
    F8, /* IRQ 24-47 */
};
/* clang-format on */
#undef F8
#undef F
