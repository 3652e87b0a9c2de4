#include <stdio.h>

#include "hal/console.h"

void hal_console_write(const char *data, size_t len)
{
    (void)fwrite(data, 1, len, stdout);
    (void)fflush(stdout);
}

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
