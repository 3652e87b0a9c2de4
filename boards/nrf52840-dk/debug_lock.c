/* nRF52840 debug lock of release builds (docs/SECURITY.md "Debug lock").
 * - UICR.APPROTECT (PS v1.7, UICR chapter, 0x10001208) = 0xFFFFFF00, PALL
 *   "Enabled": in the .hex (section .uicr_lock, cmake/board.cmake), so the
 *   programmer writes it with the image. Older revisions lock on it alone.
 * - Newer revisions (build codes Fxx and later, Nordic IN-141) also have
 *   the firmware-side register APPROTECT.FORCEPROTECT (0x40000550): writing
 *   Force (0) locks the access port until the next reset, whatever UICR
 *   holds. The images never write APPROTECT.DISABLE (0x40000558), so on
 *   those revisions the port is locked from reset too. On older revisions
 *   the address is unused and the write has no effect. */
#include <stdint.h>

#include "cortex_m.h"

#define NRF52_UICR_APPROTECT_PALL_ENABLED 0xFFFFFF00u
#define NRF52_APPROTECT_FORCEPROTECT FD_REG32(0x40000550u)
#define NRF52_APPROTECT_FORCEPROTECT_FORCE 0u

__attribute__((section(".uicr_lock"), used)) const uint32_t fd_uicr_lock = NRF52_UICR_APPROTECT_PALL_ENABLED;

void fd_debug_lock(void) { NRF52_APPROTECT_FORCEPROTECT = NRF52_APPROTECT_FORCEPROTECT_FORCE; }
