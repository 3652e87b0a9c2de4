/* The micro:bit's time base (fd_timebase_* in cortex_m.h). The nRF51 has no
 * SysTick (Nordic's SDK uses RTC1 instead; QEMU's microbit model has one,
 * which is why nothing failed in emulation), so TIMER0 runs free as a
 * 32-bit counter at 16 MHz (prescaler 0): the CPU clock rate, so counts
 * stay "cpu-clocks" and FD_CPU_HZ needs no change. It wraps every 268 s
 * without an interrupt, and differences of two readings are valid across
 * one wrap. RTC1 was not chosen: 32.768 kHz ticks (30.5 us) are too coarse
 * for benchmarks, it needs LFCLK started and a wrap interrupt to extend
 * 24 bits, and QEMU 7.2 does not model it. The cost is HFCLK kept running,
 * which the dealer (mains- or USB-powered) does anyway. */
#include "nrf51.h"

/* A running timer moves every 62.5 ns; this many reads is microseconds. */
#define TIMER0_MOVE_READS 1000u

static uint32_t capture(void)
{
    TIMER0_TASKS_CAPTURE0 = 1u;
    return TIMER0_CC0;
}

fd_status fd_timebase_start(void)
{
    TIMER0_TASKS_STOP = 1u;
    TIMER0_MODE = TIMER0_MODE_TIMER;
    TIMER0_BITMODE = TIMER0_BITMODE_32;
    TIMER0_PRESCALER = 0u;
    TIMER0_TASKS_CLEAR = 1u;
    TIMER0_TASKS_START = 1u;
    /* A timer that does not move would make every timeout wait forever:
     * refuse rather than hang later. */
    const uint32_t first = capture();
    for (uint32_t i = 0; i < TIMER0_MOVE_READS; i++) {
        if (capture() != first) {
            return FD_OK;
        }
    }
    return FD_ERR_NOT_READY;
}

uint32_t fd_timebase_read(void) { return capture(); }
