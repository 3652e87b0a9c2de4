/* A UART receive ring filled by the receive interrupt and drained by
 * hal_console_read, with the loss rule of hal/include/hal/console.h: a
 * loss (ring full, or a hardware overrun/framing/parity/noise/break
 * error) is latched at its place in the byte stream and reported once, as
 * FD_ERR_OVERRUN, after every byte received before it and before every
 * byte received after it. Never passes a corrupt byte as data. */
#ifndef FD_RX_RING_H
#define FD_RX_RING_H

#include <stdint.h>

#include "cortex_m.h"

#define FD_RX_RING_SIZE 256u /* power of two: indices wrap with a mask */

typedef struct fd_rx_ring {
    /* a byte, plus FD_RX_RING_LOSS when a loss came just before it */
    volatile uint16_t slots[FD_RX_RING_SIZE];
    volatile uint32_t head;         /* written by the interrupt only */
    volatile uint32_t tail;         /* written by the reader only */
    volatile uint32_t loss_pending; /* a loss not yet attached to a byte */
} fd_rx_ring;

/* Interrupt side: store a good byte (a full ring latches a loss and drops
 * it), or latch a loss (the UART flagged an error; the damaged byte is not
 * stored). */
void fd_rx_ring_put(fd_rx_ring *ring, uint8_t byte);
void fd_rx_ring_loss(fd_rx_ring *ring);

/* Thread side: wait (sleeping between interrupts) for the next byte or
 * loss. Returns FD_OK with *byte set, or FD_ERR_OVERRUN (no byte). The
 * caller has checked byte for NULL. */
fd_status fd_rx_ring_get(fd_rx_ring *ring, uint8_t *byte);

#endif
