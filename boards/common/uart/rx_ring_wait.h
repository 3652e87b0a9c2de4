/* The blocking read of an interrupt-filled receive ring on Cortex-M: with
 * interrupts masked, take the next byte or loss (rx_ring.h), sleeping with
 * fd_sleep_masked while the ring is empty so no byte slips in between the
 * check and the sleep. Each wake-up (SysTick's wrap at the latest) kicks
 * the watchdog. Returns FD_OK with *byte, or FD_ERR_OVERRUN. */
#ifndef FD_RX_RING_WAIT_H
#define FD_RX_RING_WAIT_H

#include "cortex_m.h"
#include "hal/watchdog.h"
#include "rx_ring.h"

static inline fd_status fd_rx_ring_wait(fd_rx_ring *ring, uint8_t *byte)
{
    fd_irq_disable();
    fd_status st;
    while ((st = fd_rx_ring_get(ring, byte)) == FD_ERR_EXHAUSTED) {
        hal_watchdog_kick(); /* waiting for a command is not a hang */
        fd_sleep_masked();
    }
    fd_irq_enable();
    return st;
}

#endif
