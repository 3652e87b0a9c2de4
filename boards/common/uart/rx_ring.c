#include "rx_ring.h"
#include "rx_ring_isr.h"

#include <stddef.h>

#define MASK FD_RX_RING_MASK

void fd_rx_ring_init(fd_rx_ring *r)
{
    for (size_t i = 0; i < FD_RX_RING_SIZE; i++) {
        r->data[i] = 0;
    }
    r->head = 0;
    r->tail = 0;
    r->loss = false;
    r->loss_at = 0;
    r->lost_line_ends = 0;
    r->lost_tail = false;
    r->lost_after_cr = false;
    r->report_lines = 0;
    r->report_newline = false;
    r->report_tail = false;
}

void fd_rx_ring_put(fd_rx_ring *r, uint8_t byte) { fd_rx_ring_isr_put(r, byte); }

void fd_rx_ring_hw_lost(fd_rx_ring *r) { fd_rx_ring_isr_hw_lost(r); }

fd_status fd_rx_ring_get(fd_rx_ring *r, uint8_t *byte)
{
    if (!r->report_newline && r->report_lines == 0u && !r->report_tail && r->loss && r->tail == r->loss_at) {
        /* every byte before the loss has been read: report it */
        r->report_lines = r->lost_line_ends;
        r->report_tail = r->lost_tail;
        r->loss = false;
    }
    if (r->report_newline) {
        r->report_newline = false;
        *byte = '\n';
        return FD_OK;
    }
    if (r->report_lines > 0u) {
        r->report_lines = (uint16_t)(r->report_lines - 1u);
        r->report_newline = true;
        return FD_ERR_OVERRUN;
    }
    if (r->report_tail) {
        r->report_tail = false;
        return FD_ERR_OVERRUN;
    }
    const uint32_t tail = r->tail;
    if (tail == r->head) {
        return FD_ERR_EXHAUSTED;
    }
    *byte = r->data[tail & MASK];
    r->tail = tail + 1u;
    return FD_OK;
}
