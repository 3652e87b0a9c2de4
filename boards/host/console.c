#include <stdio.h>
#include <unistd.h>

#include "hal/console.h"

void hal_console_write(const char *data, size_t len)
{
    (void)fwrite(data, 1, len, stdout);
    (void)fflush(stdout);
}

uint32_t hal_console_tx_dropped(void) { return 0u; }

fd_status hal_console_read(uint8_t *byte)
{
    if (byte == NULL) {
        return FD_ERR_NULL;
    }
    int c = getchar();
    if (c == EOF) {
        return FD_ERR_EXHAUSTED;
    }
    *byte = (uint8_t)c;
    return FD_OK;
}

/* Input and output both terminals: a person typing. Piped either way: a
 * program, which wants exactly one reply line per command. */
bool hal_console_is_terminal(void) { return isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0; }
