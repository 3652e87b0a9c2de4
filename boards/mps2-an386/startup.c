/* MPS2 AN386 vector table: 16 core entries and 32 IRQs, all unexpected
 * (the console is polled), so every one reports a fault. */
#include "mps2.h"

extern uint32_t fd_stack_top[];

typedef void (*vector_fn)(void);
/* clang-format off: the table reads as the vector layout */

#define F fd_fault_handler
__attribute__((section(".vectors"), used)) static const vector_fn vectors[16 + 32] = {
    (vector_fn)(uintptr_t)fd_stack_top,
    fd_reset_handler,
    mps2_nmi_handler, /* NMI: the watchdog's first stage */
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
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
    F,
};
/* clang-format on */
#undef F
