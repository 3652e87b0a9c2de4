/* hal_console_is_terminal for every Cortex-M board: a UART is a terminal
 * line (human mode: echo and prompt); a program switches with MODE machine. */
#include "hal/console.h"

bool hal_console_is_terminal(void) { return true; }
