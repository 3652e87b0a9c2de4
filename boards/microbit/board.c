#include "hal/board.h"
#include "nrf51.h"

/* Button A (P0.17, low while pressed; docs/LINK.md "Provisioning and
 * controller keys"), read once at start-up. */
#define BUTTON_A_PIN 17u
static bool button_a_at_start;

bool hal_board_presence(void) { return button_a_at_start; }

void hal_board_init(void)
{
    /* Console first, so a refusal below can be read. */
    nrf51_uart_init();
    /* The nRF51 (Cortex-M0) has no VTOR: exceptions always go through the
     * table at address 0, the bootloader's, which forwards them to this
     * image's (docs/SECURITY.md "Boot"). QEMU's M0 accepts VTOR writes the
     * chip ignores, so a VTOR that reads non-zero is not the chip this
     * image was built for. */
    if (SCB_VTOR != 0u) {
        fd_board_refuse("VTOR reads non-zero: the nRF51 has none");
    }
    if (fd_timebase_start() != FD_OK) {
        fd_board_refuse("TIMER0 time base absent or stopped");
    }
    if (nrf5x_hfxo_start() != FD_OK) {
        fd_board_refuse("16 MHz crystal (HFXO) did not start");
    }
    GPIO_PIN_CNF(BUTTON_A_PIN) = GPIO_PIN_CNF_INPUT_PULLUP; /* the board has its own pull-up too */
    button_a_at_start = (GPIO_IN & (1u << BUTTON_A_PIN)) == 0u;
    fd_irq_enable();
}
