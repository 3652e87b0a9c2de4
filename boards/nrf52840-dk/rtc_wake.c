/* The idle CPU's periodic wake-up on RTC1 (see nrf52840.h). */
#include "nrf52840.h"

#define LFCLK_TIMEOUT_CLOCKS (FD_CPU_HZ / 100u)

fd_status nrf52_idle_wake_start(void)
{
    /* LFRC, not the DK's 32.768 kHz crystal: the WDT runs on LFRC anyway
     * (PS WDT chapter: it forces LFRC on when no LFCLK source runs), and
     * the wake-up needs no precision, only to come. */
    CLOCK_LFCLKSRC = CLOCK_LFCLKSRC_RC;
    CLOCK_EVENTS_LFCLKSTARTED = 0u;
    CLOCK_TASKS_LFCLKSTART = 1u;
    const uint32_t start = fd_timebase_read();
    while (CLOCK_EVENTS_LFCLKSTARTED == 0u) {
        if (fd_timebase_read() - start > LFCLK_TIMEOUT_CLOCKS) {
            return FD_ERR_NOT_READY;
        }
    }
    /* PRESCALER may only be written while the RTC is stopped (PS RTC). */
    RTC1_TASKS_STOP = 1u;
    RTC1_PRESCALER = RTC_PRESCALER_8HZ;
    RTC1_EVENTS_TICK = 0u;
    RTC1_INTENSET = RTC_INT_TICK;
    NVIC_ISER(RTC1_IRQN / 32u) = 1u << (RTC1_IRQN % 32u);
    RTC1_TASKS_START = 1u;
    return FD_OK;
}

/* The wake-up itself is the work: the console's wait kicks the watchdog
 * when WFI returns (rx_ring_wait.h). */
void nrf52_rtc1_irq_handler(void) { RTC1_EVENTS_TICK = 0u; }
