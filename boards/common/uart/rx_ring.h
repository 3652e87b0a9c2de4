/* A receive ring for interrupt-driven UARTs that never loses bytes
 * silently (hal/include/hal/console.h). The interrupt handler puts bytes;
 * when the ring is full, or the UART reports an overrun, framing, parity or
 * break error, a loss is latched at that position. Until the reader has
 * reached it, later bytes are dropped too, and the line ends among them are
 * counted. The reader then gets, in order: every byte before the loss, then
 * FD_ERR_OVERRUN followed by a '\n' for each lost line end (each of those
 * lines is damaged), then FD_ERR_OVERRUN once more if bytes of a line were
 * lost after the last lost line end; then the bytes received after. So a
 * console that discards a line once told FD_ERR_OVERRUN answers every
 * damaged line exactly once, and never runs a splice of two lines.
 * Portable C (tested on the host); the caller masks the UART interrupt
 * around fd_rx_ring_get. */
#ifndef FD_RX_RING_H
#define FD_RX_RING_H

#include <stdbool.h>
#include <stdint.h>

#include "fairdeal/status.h"

#define FD_RX_RING_SIZE 256u /* power of two: indices wrap with a mask */

typedef struct fd_rx_ring {
    volatile uint8_t data[FD_RX_RING_SIZE];
    volatile uint32_t head; /* written by the interrupt only */
    volatile uint32_t tail; /* written by the reader only */
    /* the latched loss: set by the interrupt, taken by the reader */
    volatile uint32_t loss_at;        /* head when the loss began */
    volatile uint16_t lost_line_ends; /* CR, LF or CR LF among the dropped bytes (saturates) */
    /* the reader's side of a loss being reported */
    uint16_t report_lines;
    volatile bool loss;
    volatile bool lost_tail;     /* bytes dropped after the last lost line end */
    volatile bool lost_after_cr; /* the previous byte was a CR */
    bool report_newline;
    bool report_tail;
} fd_rx_ring;

/* Empty ring, nothing lost. */
void fd_rx_ring_init(fd_rx_ring *r);

/* Interrupt side: one received byte. */
void fd_rx_ring_put(fd_rx_ring *r, uint8_t byte);

/* Interrupt side: the UART lost bytes here (overrun, framing, parity, break). */
void fd_rx_ring_hw_lost(fd_rx_ring *r);

/* Reader side: FD_OK and a byte, FD_ERR_OVERRUN (no byte; see above), or
 * FD_ERR_EXHAUSTED when nothing waits. */
fd_status fd_rx_ring_get(fd_rx_ring *r, uint8_t *byte);

#endif
