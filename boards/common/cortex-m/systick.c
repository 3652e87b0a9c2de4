#include "cortex_m.h"

/* Upper bits of the extended count; only the SysTick handler writes it. */
static volatile uint32_t systick_wraps;
/* The last reading, to keep readings monotonic (see below). */
static uint32_t last_reading;

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
    uint32_t reading = (hi << 24) + (0x00FFFFFFu - lo);
    /* QEMU computes CVR from its clock but raises the wrap interrupt from a
     * timer callback that runs late when the host is busy, so CVR can have
     * wrapped with nothing pending yet: the reading then falls back by almost
     * 2^24. Time only goes forward; a fall of over 2^23 is that wrap. */
    const uint32_t fall = last_reading - reading;
    if (fall > 0x00800000u && fall < 0x80000000u) {
        reading += 0x01000000u;
    }
    last_reading = reading;
    return reading;
}
