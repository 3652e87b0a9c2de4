/* A bound on polled UART transmit waits. A transmitter whose ready flag
 * never comes (a dead or misconfigured UART, a stuck TXFE/TXDRDY) would
 * otherwise hang hal_console_write, and the dealer with it, forever: each
 * wait polls at most FD_UART_TX_POLLS times, then the byte is dropped and
 * counted (hal_console_tx_dropped). After such a miss the transmitter is
 * taken as stuck and later waits poll once, until it is ready again, so a
 * dead UART costs one bound, not one per byte (the watchdog keeps running
 * meanwhile; a stuck console does not hang the dealer). */
#ifndef FD_TX_BOUND_H
#define FD_TX_BOUND_H

#include <stdbool.h>
#include <stdint.h>

/* 1 M register reads: 20 ms or more on every board (a Cortex-M4 at 64 MHz
 * takes over 1 cycle per read of a peripheral register), over 200 byte
 * times at 115200 baud; a working UART needs one byte time at most. */
#define FD_UART_TX_POLLS 1000000u

/* Poll ready() until it returns true (then true), at most FD_UART_TX_POLLS
 * times, or once while the transmitter is stuck; on a miss, count `bytes`
 * as dropped and return false. */
bool fd_uart_tx_wait(bool (*ready)(void), uint32_t bytes);

#endif
