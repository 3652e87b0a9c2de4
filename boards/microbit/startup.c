/* micro:bit (nRF51822) vector table: 16 core entries, 32 peripheral IRQs. */
#include "nrf51.h"

extern uint32_t fd_stack_top[];

typedef void (*vector_fn)(void);

/* clang-format off: the table reads as the vector layout */
__attribute__((section(".vectors"), used)) static const vector_fn vectors[16 + 32] = {
    [0] = (vector_fn)(uintptr_t)fd_stack_top,
    [1] = fd_reset_handler,
    [2] = fd_fault_handler,  /* NMI */
    [3] = fd_fault_handler,  /* HardFault */
    [11] = fd_fault_handler, /* SVCall: unused, so unexpected */
    [14] = fd_fault_handler, /* PendSV: unused */
    [15] = fd_fault_handler, /* the nRF51 has no SysTick (TIMER0 is the time base) */
    [16 + 0] = fd_fault_handler,
    [16 + 1] = fd_fault_handler,
    [16 + UART_IRQN] = nrf51_uart_irq_handler,
    [16 + 3] = fd_fault_handler,
    [16 + 4] = fd_fault_handler,
    [16 + 5] = fd_fault_handler,
    [16 + 6] = fd_fault_handler,
    [16 + 7] = fd_fault_handler,
    [16 + 8] = fd_fault_handler,
    [16 + 9] = fd_fault_handler,
    [16 + 10] = fd_fault_handler,
    [16 + 11] = fd_fault_handler,
    [16 + 12] = fd_fault_handler,
    [16 + 13] = fd_fault_handler,
    [16 + 14] = fd_fault_handler,
    [16 + 15] = fd_fault_handler,
    [16 + 16] = fd_fault_handler,
    [16 + 17] = fd_fault_handler,
    [16 + 18] = fd_fault_handler,
    [16 + 19] = fd_fault_handler,
    [16 + 20] = fd_fault_handler,
    [16 + 21] = fd_fault_handler,
    [16 + 22] = fd_fault_handler,
    [16 + 23] = fd_fault_handler,
    [16 + 24] = fd_fault_handler,
    [16 + 25] = fd_fault_handler,
    [16 + 26] = fd_fault_handler,
    [16 + 27] = fd_fault_handler,
    [16 + 28] = fd_fault_handler,
    [16 + 29] = fd_fault_handler,
    [16 + 30] = fd_fault_handler,
    [16 + 31] = fd_fault_handler,
};
/* clang-format on */
