/* The interrupt side of the receive ring (rx_ring.h) as always-inline
 * functions: a handler that must not leave its own memory (the STM32's
 * RAM-resident USART handler, docs/HARDWARE.md "Flash stalls") gets them
 * compiled into its body; fd_rx_ring_put and fd_rx_ring_hw_lost
 * (rx_ring.c) are the same code, out of line, for every other board. */
#ifndef FD_RX_RING_ISR_H
#define FD_RX_RING_ISR_H

#include "rx_ring.h"

#define FD_RX_RING_MASK (FD_RX_RING_SIZE - 1u)

__attribute__((always_inline)) static inline void fd_rx_ring_begin_loss(fd_rx_ring *r)
{
    const uint32_t head = r->head;
    r->loss_at = head;
    r->lost_line_ends = 0;
    r->lost_tail = false;
    /* the LF of a CR LF whose CR was kept ends no further line */
    r->lost_after_cr = head != r->tail && r->data[(head - 1u) & FD_RX_RING_MASK] == '\r';
    r->loss = true;
}

__attribute__((always_inline)) static inline void fd_rx_ring_count_lost(fd_rx_ring *r, uint8_t byte)
{
    if (byte == '\n' && r->lost_after_cr) {
        r->lost_after_cr = false;
        return;
    }
    if (byte == '\r' || byte == '\n') {
        if (r->lost_line_ends < UINT16_MAX) {
            r->lost_line_ends = (uint16_t)(r->lost_line_ends + 1u);
        } /* 65,535 lost lines and more: the rest merge into the last damaged one */
        r->lost_tail = false;
    } else {
        r->lost_tail = true;
    }
    r->lost_after_cr = byte == '\r';
}

/* fd_rx_ring_put, inline. */
__attribute__((always_inline)) static inline void fd_rx_ring_isr_put(fd_rx_ring *r, uint8_t byte)
{
    if (!r->loss) {
        const uint32_t head = r->head;
        if (head - r->tail < FD_RX_RING_SIZE) {
            r->data[head & FD_RX_RING_MASK] = byte;
            r->head = head + 1u;
            return;
        }
        fd_rx_ring_begin_loss(r);
    }
    fd_rx_ring_count_lost(r, byte);
}

/* fd_rx_ring_hw_lost, inline. */
__attribute__((always_inline)) static inline void fd_rx_ring_isr_hw_lost(fd_rx_ring *r)
{
    if (!r->loss) {
        fd_rx_ring_begin_loss(r);
    }
    r->lost_tail = true; /* what was lost is unknown: the line is damaged */
    r->lost_after_cr = false;
}

#endif
