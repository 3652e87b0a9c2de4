/* The Arm CMSDK APB watchdog (Cortex-M System Design Kit TRM, DDI 0479,
 * "APB watchdog"; mps2-an386 at 0x40008000) and TI's Stellaris variant of
 * the same block (LM3S6965 datasheet, "Watchdog Timer"; WDT0 at
 * 0x40000000): one 32-bit down-counter on the system clock, two stages.
 * At the first time-out it raises its interrupt (the NMI on the MPS2,
 * IRQ 18 on the LM3S6965); if that interrupt is still set at the second
 * time-out and RESEN is on, it resets the chip. A kick (WDOGINTCLR)
 * clears the interrupt and reloads the count. Writes are ignored while
 * WDOGLOCK is locked, so every kick unlocks and locks again.
 *
 * These chips keep no reset reason of their own that QEMU models (the
 * MPS2 has none; QEMU leaves the LM3S6965's RESC at 0), so the
 * first-stage interrupt writes a note in RAM a reset keeps (.noinit) and
 * the next boot reads it: fd_apb_watchdog_note / fd_apb_watchdog_take. */
#ifndef FD_APB_WATCHDOG_H
#define FD_APB_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>

#include "fairdeal/status.h"

#define APB_WDOG_LOAD 0x000u
#define APB_WDOG_VALUE 0x004u
#define APB_WDOG_CONTROL 0x008u
#define APB_WDOG_CONTROL_INTEN 0x1u
#define APB_WDOG_CONTROL_RESEN 0x2u
#define APB_WDOG_INTCLR 0x00Cu
#define APB_WDOG_RIS 0x010u
#define APB_WDOG_MIS 0x014u
#define APB_WDOG_LOCK 0xC00u
#define APB_WDOG_UNLOCK_KEY 0x1ACCE551u

/* Start the watchdog at base, counting clock_hz, so that the reset comes
 * timeout_ms after the last kick (two stages of timeout_ms / 2 each).
 * Errors: FD_ERR_EMPTY, FD_ERR_TOO_LARGE (the half-time does not fit 32
 * bits), FD_ERR_STATE (already running), FD_ERR_NOT_READY (it did not
 * read back as configured). */
fd_status fd_apb_watchdog_start(uintptr_t base, uint32_t clock_hz, uint32_t timeout_ms);
/* Reload the count and drop a first-stage note (the dealer lives); true
 * when it did, false (nothing touched) before a successful start. */
bool fd_apb_watchdog_kick(uintptr_t base);
/* The first stage fired: its interrupt is pending (masked status). */
bool fd_apb_watchdog_fired(uintptr_t base);

/* First-stage interrupt: remember in .noinit RAM that the watchdog will
 * reset the chip at the second stage unless a kick comes first. */
void fd_apb_watchdog_note(void);
/* Next boot: whether the note is there; reading removes it. A power-up
 * leaves RAM random (QEMU: zero), so the note is a 64-bit pattern. */
bool fd_apb_watchdog_take(void);

#endif
