/* nRF51 debug lock of release builds (docs/SECURITY.md "Debug lock"):
 * UICR.RBPCONF (nRF51 RM v3.0, UICR chapter, 0x10001004) with PR0 and
 * PALL both 0x00, "enabled": the SWD port can no longer read code region
 * 0 or 1, or RAM and peripherals through the debugger. The word goes into
 * the .hex (section .uicr_lock at FD_DEBUG_LOCK_UICR_ADDR, cmake/board.cmake),
 * so the programmer writes it with the image; the chip reads it at reset.
 * The .bin leaves it out (it holds the flash only). */
#include <stdint.h>

#include "cortex_m.h"

#define NRF51_RBPCONF_PR0_PALL_ENABLED 0xFFFF0000u

__attribute__((section(".uicr_lock"), used)) const uint32_t fd_uicr_lock = NRF51_RBPCONF_PR0_PALL_ENABLED;

void fd_debug_lock(void)
{ /* nothing at run time: RBPCONF is read by the hardware at reset */
}
