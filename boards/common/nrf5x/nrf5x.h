/* Registers the nRF51 and nRF52 share at the same addresses (nRF51 Series
 * Reference Manual v3.0 and nRF52840 Product Specification v1.7: CLOCK,
 * GPIO, RNG chapters), and the drivers built on them. */
#ifndef NRF5X_H
#define NRF5X_H

#include "cortex_m.h"

#define NRF_CLOCK_BASE 0x40000000u
#define CLOCK_TASKS_HFCLKSTART FD_REG32(NRF_CLOCK_BASE + 0x000u)
#define CLOCK_EVENTS_HFCLKSTARTED FD_REG32(NRF_CLOCK_BASE + 0x100u)
#define CLOCK_TASKS_LFCLKSTART FD_REG32(NRF_CLOCK_BASE + 0x008u)
#define CLOCK_EVENTS_LFCLKSTARTED FD_REG32(NRF_CLOCK_BASE + 0x104u)
#define CLOCK_LFCLKSRC FD_REG32(NRF_CLOCK_BASE + 0x518u)
#define CLOCK_LFCLKSRC_RC 0u /* the 32.768 kHz RC oscillator (LFRC) */

#define NRF_GPIO_BASE 0x50000000u /* nRF52: port P0 */
#define GPIO_OUTSET FD_REG32(NRF_GPIO_BASE + 0x508u)
#define GPIO_IN FD_REG32(NRF_GPIO_BASE + 0x510u)
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

/* NVMC (nRF51 RM v3.0 ch. 6, nRF52840 PS v1.7 NVMC chapter). */
#define NVMC_BASE 0x4001E000u
#define NVMC_READY FD_REG32(NVMC_BASE + 0x400u)
#define NVMC_READY_READY 0x1u
#define NVMC_CONFIG FD_REG32(NVMC_BASE + 0x504u)
#define NVMC_CONFIG_REN 0x0u
#define NVMC_CONFIG_WEN 0x1u
#define NVMC_CONFIG_EEN 0x2u
#define NVMC_ERASEPAGE FD_REG32(NVMC_BASE + 0x508u)
/* nRF52 only: the instruction cache, off at reset (ICACHECNF CACHEEN). */
#define NVMC_ICACHECNF FD_REG32(NVMC_BASE + 0x540u)

/* The console across a flash operation (docs/HARDWARE.md "Flash stalls"):
 * the NVMC halts the CPU while it writes or erases, so nothing services
 * the UART meanwhile. Boards whose UART can receive without the CPU set
 * FD_NRF_CONSOLE_HOLD (board.cmake FD_BOARD_DEFINITIONS) and provide these:
 * hold before the operation (the UART then receives on its own), release
 * after it (what arrived meanwhile goes to the console's ring, in order,
 * losses reported). Elsewhere (the nRF51: its UART has a 6-byte FIFO and
 * no DMA) they do nothing. */
#if defined(FD_NRF_CONSOLE_HOLD)
void nrf5x_console_hold(void);
void nrf5x_console_release(void);
#else
static inline void nrf5x_console_hold(void) {}
static inline void nrf5x_console_release(void) {}
#endif
#define NVMC_ICACHECNF_CACHEEN 0x1u

/* POWER.RESETREAS: one bit per reset source, kept until written back
 * as 1 (nRF51 Series RM v3.0 and nRF52840 PS v1.7, POWER chapter). No
 * bit set means the power-on reset or the brown-out reset, which the chip
 * does not tell apart. OFF, LPCOMP, DIF (and the nRF52's NFC, VBUS) are
 * wake-ups from System OFF, which the dealer never enters. */
#define POWER_RESETREAS FD_REG32(0x40000400u)
#define RESETREAS_RESETPIN (1u << 0)
#define RESETREAS_DOG (1u << 1)
#define RESETREAS_SREQ (1u << 2)
#define RESETREAS_LOCKUP (1u << 3)

/* WDT (the same two documents, WDT chapter): counts CRV + 1
 * ticks of the 32.768 kHz LFCLK, which it starts itself (the RC
 * oscillator) if nothing else runs it; configuration is locked once it
 * runs, and only a reset stops it. */
#define NRF_WDT_BASE 0x40010000u
#define WDT_TASKS_START FD_REG32(NRF_WDT_BASE + 0x000u)
#define WDT_RUNSTATUS FD_REG32(NRF_WDT_BASE + 0x400u)
#define WDT_CRV FD_REG32(NRF_WDT_BASE + 0x504u)
#define WDT_RREN FD_REG32(NRF_WDT_BASE + 0x508u)
#define WDT_CONFIG FD_REG32(NRF_WDT_BASE + 0x50Cu)
#define WDT_CONFIG_SLEEP_RUN (1u << 0) /* 0: paused while the CPU sleeps */
#define WDT_CONFIG_HALT_RUN (1u << 3)  /* 0: paused while a debugger halts the CPU */
#define WDT_RR0 FD_REG32(NRF_WDT_BASE + 0x600u)
#define WDT_RR_RELOAD 0x6E524635u
#define WDT_LFCLK_HZ 32768u

/* Start the crystal oscillator (HFXO: 16 MHz on the micro:bit, 32 MHz on
 * the nRF52840-DK) and switch HFCLK to it: the
 * UART baud rate and the time base are then crystal-accurate instead of
 * the RC oscillator's few percent. Call after fd_timebase_start (the wait
 * is timed on it). Errors: FD_ERR_NOT_READY when the crystal has not
 * started within 10 ms (datasheets: under 1.5 ms). */
fd_status nrf5x_hfxo_start(void);

#endif
