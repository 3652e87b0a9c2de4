/* HAL: the console (a UART on boards, stdin/stdout on the host). */
#ifndef HAL_CONSOLE_H
#define HAL_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write len bytes; blocks until they are queued to the line. Boards bound
 * each wait for the transmitter (boards/common/uart/tx_bound.h): a byte it
 * does not take in time is dropped and counted, so a stuck UART cannot
 * hang the caller. */
void hal_console_write(const char *data, size_t len);

/* Bytes hal_console_write dropped since boot because the transmitter
 * stayed busy past the bound. Host: 0 (stdout blocks in the OS). */
uint32_t hal_console_tx_dropped(void);

/* Wait for one received byte. Errors: FD_ERR_EXHAUSTED when the input has
 * ended for good (host: end of file); boards never return it.
 * FD_ERR_OVERRUN (no byte returned) when received bytes were lost since the
 * previous call: the receive buffer was full, or the UART flagged a hardware
 * overrun, framing, parity or noise error. Drivers latch the loss and report
 * it once, in order: every byte received before the loss is returned first,
 * the bytes after it follow on later calls. The console then discards the
 * damaged line up to its end and answers ERR overrun. A driver that can
 * count the line ends among the lost bytes (boards/common/uart/rx_ring.h)
 * reports FD_ERR_OVERRUN then a '\n' for each, so every damaged line gets
 * its own reply. */
FD_MUST_CHECK fd_status hal_console_read(uint8_t *byte);

/* Whether a person is at the other end (the dealer starts in human mode:
 * echo and prompt) or a program (machine mode: one reply line per command
 * line). Boards: true (a UART is a terminal line; a program sends MODE
 * machine). Host: stdin and stdout are terminals. */
bool hal_console_is_terminal(void);

#ifdef __cplusplus
}
#endif

#endif
