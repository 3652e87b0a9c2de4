#include <stdlib.h>

#include "hal/board.h"

void hal_board_init(void) {}

const char *hal_board_name(void) { return "host"; }

bool hal_board_emulation_only(void) { return false; }

_Noreturn void hal_board_exit(int code) { exit(code); }
