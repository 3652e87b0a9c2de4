/* HAL: the console (a UART on boards, stdin/stdout on the host). */
#ifndef HAL_CONSOLE_H
#define HAL_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write len bytes; blocks until they are queued to the line. */
void hal_console_write(const char *data, size_t len);

/* Wait for one received byte. Errors: FD_ERR_EXHAUSTED when the input has
 * ended for good (host: end of file); boards never return it.
 * FD_ERR_OVERRUN (no byte returned) when received bytes were lost since the
 * previous call: the receive buffer was full, or the UART flagged a hardware
 * overrun, framing, parity or noise error. Drivers latch the loss and report
 * it once, in order: every byte received before the loss is returned first,
 * the bytes after it follow on later calls. The console then discards the
 * damaged line up to its end and answers ERR overrun. */
fd_status hal_console_read(uint8_t *byte);

#ifdef __cplusplus
}
#endif

#endif
