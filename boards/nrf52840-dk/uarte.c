/* nRF52840 UARTE0 console. EasyDMA reads and writes RAM only (never flash),
 * so bytes pass through small RAM buffers. Polled, 115200 8N1. */
#include "hal/console.h"
#include "nrf52840.h"

static uint8_t tx_buf[32];
static volatile uint8_t rx_byte;

void nrf52_uarte_init(void)
{
    UARTE_PSEL_TXD = DK_PIN_TX;
    UARTE_PSEL_RXD = DK_PIN_RX;
    UARTE_BAUDRATE = UARTE_BAUD_115200;
    UARTE_ENABLE = UARTE_ENABLE_ON;
    UARTE_RXD_PTR = (uint32_t)(uintptr_t)&rx_byte;
    UARTE_RXD_MAXCNT = 1u;
    UARTE_EVENTS_ENDRX = 0u;
    UARTE_TASKS_STARTRX = 1u;
}

void hal_console_write(const char *data, size_t len)
{
    while (len > 0u) {
        size_t chunk = sizeof(tx_buf);
        if (len < chunk) {
            chunk = len;
        }
        for (size_t i = 0; i < chunk; i++) {
            tx_buf[i] = (uint8_t)data[i];
        }
        UARTE_TXD_PTR = (uint32_t)(uintptr_t)tx_buf;
        UARTE_TXD_MAXCNT = (uint32_t)chunk;
        UARTE_EVENTS_ENDTX = 0u;
        UARTE_TASKS_STARTTX = 1u;
        while (UARTE_EVENTS_ENDTX == 0u) {
        }
        data += chunk;
        len -= chunk;
    }
}

fd_status hal_console_read(uint8_t *byte)
{
    if (byte == NULL) {
        return FD_ERR_NULL;
    }
    while (UARTE_EVENTS_ENDRX == 0u) {
    }
    if (UARTE_EVENTS_ERROR != 0u) {
        UARTE_EVENTS_ERROR = 0u;
        UARTE_ERRORSRC = 0xFu; /* write-one-to-clear */
    }
    *byte = rx_byte;
    UARTE_EVENTS_ENDRX = 0u;
    UARTE_TASKS_STARTRX = 1u; /* arm the next one-byte transfer */
    return FD_OK;
}
