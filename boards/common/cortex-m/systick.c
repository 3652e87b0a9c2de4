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
    uint32_t pending;
    do {
        hi = systick_wraps;
        lo = SYSTICK_CVR;
        pending = SCB_ICSR & SCB_ICSR_PENDSTSET;
    } while (hi != systick_wraps);
    /* The counter can wrap after `hi` was read but before the handler runs
     * (interrupts masked, or QEMU taking interrupts only between translated
     * blocks): the wrap is then pending but not yet counted. Without this the
     * reading jumps back by 2^24 and a timeout loop fires at once. */
    if (pending != 0u) {
        hi += 1u;
        lo = SYSTICK_CVR;
    }
    return (hi << 24) + (0x00FFFFFFu - lo);
}
