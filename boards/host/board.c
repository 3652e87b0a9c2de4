#include <stdlib.h>

#include "hal/board.h"

#include <string.h>

void hal_board_init(void) {}

/* The host's stand-in for a provisioning button held at start. */
bool hal_board_presence(void)
{
    const char *v = getenv("FD_PROVISION_BUTTON");
    return v != NULL && strcmp(v, "held") == 0;
}

_Noreturn void hal_board_exit(int code) { exit(code); }
