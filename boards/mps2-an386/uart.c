/* CMSDK APB UART0 console, polled both ways. A receive overrun (a byte
 * arrived while the one-byte buffer was full, so the new one was lost) is
 * latched and reported after the byte that was kept. */
#include "hal/console.h"
#include "hal/watchdog.h"
#include "mps2.h"
#include "../common/uart/tx_bound.h"

static bool rx_overrun; /* reported on the next read */

void mps2_uart_init(void)
{
    UART0_BAUDDIV = 16u; /* the minimum the CMSDK UART accepts */
    UART0_CTRL = UART_CTRL_TX_EN | UART_CTRL_RX_EN;
}

static bool tx_ready(void) { return (UART0_STATE & UART_STATE_TX_FULL) == 0u; }

void hal_console_write(const char *data, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (fd_uart_tx_wait(tx_ready, 1u)) {
            UART0_DATA = (uint8_t)data[i];
        }
    }
}

fd_status hal_console_read(uint8_t *byte)
{
    if (byte == NULL) {
        return FD_ERR_NULL;
    }
    if (rx_overrun) {
        rx_overrun = false;
        return FD_ERR_OVERRUN;
    }
    while ((UART0_STATE & UART_STATE_RX_FULL) == 0u) {
        hal_watchdog_kick(); /* waiting for a command is not a hang */
    }
    *byte = (uint8_t)UART0_DATA;
    if ((UART0_STATE & UART_STATE_RX_OVERRUN) != 0u) {
        UART0_STATE = UART_STATE_RX_OVERRUN;
        rx_overrun = true;
    }
    return FD_OK;
}
