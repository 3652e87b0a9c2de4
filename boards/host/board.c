#include <stdlib.h>

#include "hal/board.h"

void hal_board_init(void) {}

_Noreturn void hal_board_exit(int code) { exit(code); }
