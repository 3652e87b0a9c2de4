/* HAL: board bring-up and the way an image stops. One implementation per
 * board under boards/<board>/, chosen at link time. */
#ifndef HAL_BOARD_H
#define HAL_BOARD_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Clocks, console, counter: everything needed before main(). The board's
 * startup code calls it once, before main(); applications never do. */
void hal_board_init(void);

/* Short board name, e.g. "microbit": the folder under boards/. */
const char *hal_board_name(void);

/* True when this board only runs under emulation (its entropy is not real
 * hardware entropy; FD_EMULATION_ONLY in its board.cmake); the firmware
 * says so in its banner. */
bool hal_board_emulation_only(void);

/* The physical act that allows a device's first PROVISION outside a link
 * session (docs/LINK.md "Provisioning and controller keys"): true when the
 * board's provisioning button was held when it started (micro:bit: button
 * A; the host: FD_PROVISION_BUTTON=held in the environment); false on
 * boards without one (their secret is a factory step). */
bool hal_board_presence(void);

/* Stop the image with a status: on the host and under QEMU (semihosting)
 * the process exits with `code`; on hardware it halts with interrupts off
 * until reset. Never returns. */
_Noreturn void hal_board_exit(int code);

#ifdef __cplusplus
}
#endif

#endif
