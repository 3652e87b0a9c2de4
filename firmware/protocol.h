/* The dealer's text protocol (docs/PROTOCOL.md): line assembly, the
 * tokenizer, command parsing and the reply writer, over the game core in
 * dealer.h. A console is one text connection: its line buffer, and its
 * mode (human: echo and "> " prompt; machine: exactly one reply line per
 * command line, nothing else). */
#ifndef FD_PROTOCOL_H
#define FD_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dealer.h"
#include "reply.h"

#define FD_CONSOLE_MAX_LINE 144u /* longer lines are discarded whole; SEED 7 <128 hex digits> fits */

/* One-byte fields only: no padding (the micro:bit has 6 KiB of RAM). */
typedef struct fd_linebuf {
    char text[FD_CONSOLE_MAX_LINE + 1u];
    uint8_t len;
    bool too_long;
    bool bad_byte;
    bool overrun; /* received bytes were lost inside this line */
} fd_linebuf;

typedef struct fd_console {
    fd_dealer *dealer;
    fd_write_fn out;
    void *out_ctx;
    fd_linebuf line;
    bool human;    /* prompt (and echo, if echo is set); else machine mode */
    bool echo;     /* the line does not echo by itself (a board's UART) */
    bool after_cr; /* the last byte was CR: an LF now ends no new line */
    bool locked;   /* no authenticated session: only the table's open rows run (docs/LINK.md "Roles") */
} fd_console;

/* Bind a console to a dealer and an output. human: start in human mode
 * (never in a release build: machine mode only); echo: in human mode, echo
 * received characters (boards; a host terminal echoes by itself), each
 * echoed line after a prompt. */
void fd_console_init(fd_console *c, fd_dealer *d, fd_write_fn out, void *ctx, bool human, bool echo);

/* The banner (several lines: version, board, entropy source, DRBG, and
 * loud warnings for emulation-only boards and a power-on fault), then the
 * prompt in human mode. */
void fd_console_start(const fd_console *c);

/* Feed one received byte. A complete line (ended by LF or CR) runs as a
 * command; empty and blank lines are ignored; a line over
 * FD_CONSOLE_MAX_LINE chars, holding NUL, other control or non-ASCII bytes,
 * or damaged by lost bytes (fd_console_lost) is discarded whole and gets
 * ERR toolong / ERR badbyte / ERR overrun. Returns true when a reply was
 * written. */
bool fd_console_feed(fd_console *c, uint8_t byte);

/* Received bytes were lost at this point (hal_console_read returned
 * FD_ERR_OVERRUN): the line being received is discarded up to its end and
 * answered ERR overrun. */
void fd_console_lost(fd_console *c);

/* Execute one command line (without its line ending) and write exactly one
 * reply line ("OK ..." or "ERR <code> <message>", ending in CR LF), no
 * prompt. Includes the console's own MODE command. A locked console runs
 * only the rows allowed without a session (ID, HELP, VERIFY) and answers
 * every other command "ERR link ..." with nothing changed. */
void fd_console_command(fd_console *c, const char *line, size_t len);

/* What the journal has to do with a command (its row's journal column,
 * docs/PROTOCOL.md "Commands"). */
typedef enum fd_console_journal {
    FD_CONSOLE_JOURNAL_NONE = 0, /* it writes no record */
    FD_CONSOLE_JOURNAL_WRITES,   /* a success writes its record before the reply (docs/PROTOCOL.md "Power loss") */
    FD_CONSOLE_JOURNAL_READS     /* it prints the journal, writing nothing; refused (ERR journal) without one */
} fd_console_journal;

/* Row i (from 0) of the command table: its word (upper case) and journal
 * column; false past the last row. host.unit.persist runs every row and
 * checks the column against the records the command wrote. */
bool fd_console_command_row(size_t i, const char **word, fd_console_journal *journal);

#endif
