/* The HAL's board facts, for every board: the strings and flags come from
 * boards/<board>/board.cmake (cmake/board.cmake defines them for this file
 * only), so no driver restates them. */
#include "hal/board.h"
#include "hal/storage.h"
#include "hal/trng.h"
#include "hal/watchdog.h"

#if !defined(FD_BOARD_NAME) || !defined(FD_TRNG_NAME) || !defined(FD_EMULATION_ONLY) || !defined(FD_STORAGE_NAME) ||   \
    !defined(FD_STORAGE_EMULATED) || !defined(FD_WATCHDOG_NAME)
#error "board facts missing: build through cmake/board.cmake"
#endif

const char *hal_board_name(void) { return FD_BOARD_NAME; }

bool hal_board_emulation_only(void) { return FD_EMULATION_ONLY; }

#ifndef FD_BOARD_HAS_PRESENCE
/* No provisioning button: a first PROVISION only through a session (never)
 * or a factory step (docs/LINK.md "Provisioning and controller keys"). */
bool hal_board_presence(void) { return false; }
#endif

const char *hal_trng_name(void) { return FD_TRNG_NAME; }

const char *hal_storage_name(void) { return FD_STORAGE_NAME; }

bool hal_storage_emulated(void) { return FD_STORAGE_EMULATED; }

const char *hal_watchdog_name(void) { return FD_WATCHDOG_NAME; }
