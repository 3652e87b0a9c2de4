/* Time base on SysTick (every Cortex-M board except the nRF51, which has
 * none): see fd_timebase_start in cortex_m.h. */
#include "cortex_m.h"

/* A present SysTick moves within a few processor clocks of being enabled;
 * this many reads is thousands of clocks, under QEMU -icount too. */
#define SYSTICK_MOVE_READS 10000u

/* Upper bits of the extended count; only the SysTick handler writes it. */
static volatile uint32_t systick_wraps;
/* The last reading, to keep readings monotonic (see below). */
static uint32_t last_reading;

fd_status fd_timebase_start(void)
{
    SYSTICK_CSR = 0;
    SYSTICK_RVR = SYSTICK_RVR_MAX;
    SYSTICK_CVR = 0;
    SYSTICK_CSR = SYSTICK_CSR_ENABLE_TICKINT_CPUCLK;
    /* SysTick is optional on Armv6-M and its registers then read as zero
     * (the nRF51 has none, QEMU's microbit does): without this check every
     * timeout measured on it would wait forever. */
    if (SYSTICK_RVR != SYSTICK_RVR_MAX) {
        return FD_ERR_NOT_READY;
    }
    const uint32_t first = SYSTICK_CVR;
    for (uint32_t i = 0; i < SYSTICK_MOVE_READS; i++) {
        if (SYSTICK_CVR != first) {
            return FD_OK;
        }
    }
    return FD_ERR_NOT_READY;
}

void fd_systick_handler(void) { systick_wraps = systick_wraps + 1u; }

uint32_t fd_timebase_read(void)
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
    uint32_t reading = (hi << 24) + (SYSTICK_RVR_MAX - lo);
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
