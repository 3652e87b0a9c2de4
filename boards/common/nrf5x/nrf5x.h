/* Registers the nRF51 and nRF52 share at the same addresses (nRF51 Series
 * Reference Manual v3.0 and nRF52840 Product Specification v1.7: CLOCK,
 * GPIO, RNG chapters), and the drivers built on them. */
#ifndef NRF5X_H
#define NRF5X_H

#include "cortex_m.h"

#define NRF_CLOCK_BASE 0x40000000u
#define CLOCK_TASKS_HFCLKSTART FD_REG32(NRF_CLOCK_BASE + 0x000u)
#define CLOCK_EVENTS_HFCLKSTARTED FD_REG32(NRF_CLOCK_BASE + 0x100u)

#define NRF_GPIO_BASE 0x50000000u /* nRF52: port P0 */
#define GPIO_PIN_CNF(pin) FD_REG32(NRF_GPIO_BASE + 0x700u + 4u * (pin))
/* DIR input, input buffer connected, PULL = pull-up (3 << 2). */
#define GPIO_PIN_CNF_INPUT_PULLUP (3u << 2)
#define GPIO_PIN_CNF_OUTPUT 1u

#define NRF_RNG_BASE 0x4000D000u
#define RNG_TASKS_START FD_REG32(NRF_RNG_BASE + 0x000u)
#define RNG_TASKS_STOP FD_REG32(NRF_RNG_BASE + 0x004u)
#define RNG_EVENTS_VALRDY FD_REG32(NRF_RNG_BASE + 0x100u)
#define RNG_CONFIG FD_REG32(NRF_RNG_BASE + 0x504u)
#define RNG_CONFIG_DERCEN 0x1u
#define RNG_VALUE FD_REG32(NRF_RNG_BASE + 0x508u)

/* Start the crystal oscillator (HFXO: 16 MHz on the micro:bit, 32 MHz on
 * the nRF52840-DK) and switch HFCLK to it: the
 * UART baud rate and the time base are then crystal-accurate instead of
 * the RC oscillator's few percent. Call after fd_timebase_start (the wait
 * is timed on it). Errors: FD_ERR_NOT_READY when the crystal has not
 * started within 10 ms (datasheets: under 1.5 ms). */
fd_status nrf5x_hfxo_start(void);

#endif
