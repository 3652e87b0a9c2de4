/* The bounded transmit wait (tx_bound.h): one console per board. */
#include "tx_bound.h"

#include "hal/console.h"

static bool stuck;
static uint32_t dropped;

bool fd_uart_tx_wait(bool (*ready)(void), uint32_t bytes)
{
    const uint32_t polls = stuck ? 1u : FD_UART_TX_POLLS;
    for (uint32_t i = 0; i < polls; i++) {
        if (ready()) {
            stuck = false;
            return true;
        }
    }
    stuck = true;
    dropped += bytes;
    return false;
}

uint32_t hal_console_tx_dropped(void) { return dropped; }
