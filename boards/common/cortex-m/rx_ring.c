#include "rx_ring.h"

#define FD_RX_RING_LOSS 0x100u

void fd_rx_ring_put(fd_rx_ring *ring, uint8_t byte)
{
    const uint32_t head = ring->head;
    if (head - ring->tail >= FD_RX_RING_SIZE) {
        ring->loss_pending = 1u;
        return;
    }
    uint16_t slot = byte;
    if (ring->loss_pending != 0u) {
        slot = (uint16_t)(slot | FD_RX_RING_LOSS);
        ring->loss_pending = 0u;
    }
    ring->slots[head & (FD_RX_RING_SIZE - 1u)] = slot;
    ring->head = head + 1u;
}

void fd_rx_ring_loss(fd_rx_ring *ring) { ring->loss_pending = 1u; }

fd_status fd_rx_ring_get(fd_rx_ring *ring, uint8_t *byte)
{
    for (;;) {
        fd_irq_disable();
        const uint32_t tail = ring->tail;
        if (ring->head != tail) {
            const uint32_t index = tail & (FD_RX_RING_SIZE - 1u);
            const uint16_t slot = ring->slots[index];
            fd_status st = FD_OK;
            if ((slot & FD_RX_RING_LOSS) != 0u) {
                /* report the loss now, the byte after it next time */
                ring->slots[index] = (uint16_t)(slot & 0xFFu);
                st = FD_ERR_OVERRUN;
            } else {
                *byte = (uint8_t)slot;
                ring->tail = tail + 1u;
            }
            fd_irq_enable();
            return st;
        }
        if (ring->loss_pending != 0u) {
            ring->loss_pending = 0u;
            fd_irq_enable();
            return FD_ERR_OVERRUN;
        }
        fd_wait_irq_then_enable();
    }
}
