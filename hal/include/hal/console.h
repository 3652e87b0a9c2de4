/* HAL: the console (a UART on boards, stdin/stdout on the host). */
#ifndef HAL_CONSOLE_H
#define HAL_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/status.h"

/* Write len bytes; blocks until they are queued to the line. */
void hal_console_write(const char *data, size_t len);

/* Wait for one received byte. Errors: FD_ERR_EXHAUSTED when the input has
 * ended for good (host: end of file); boards never return it. */
fd_status hal_console_read(uint8_t *byte);

#endif
