/* The console over the link (docs/LINK.md "The dealer's console over the
 * link"): one byte stream carries both the cleartext console's lines and
 * link frames (a frame starts with 0xFD, never part of a text line). A
 * HELLO opens an authenticated session (the device answers WELCOME with its
 * ID line); each DATA frame then carries one command line, and the reply
 * line comes back in one or more DATA frames. Outside a session the console
 * is locked (fd_console.locked): only ID, HELP, VERIFY and a first
 * PROVISION run. Development builds keep the cleartext console open until
 * the first session opens; a release build never compiles it in. */
#ifndef FD_LINK_CONSOLE_H
#define FD_LINK_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/link.h"
#include "protocol.h"

#if defined(FD_DEALER_RELEASE) && FD_DEALER_RELEASE && defined(FD_CLEARTEXT_CONSOLE)
#error "the open cleartext console is for development builds: a release build speaks the link (docs/LINK.md \"Roles\")"
#endif

/* Session counter values reserved per LINK_SESSION record (docs/LINK.md
 * "Keys"): the journal is written once per this many handshakes. */
#define FD_LINK_SESSION_BLOCK 256u

/* One link console. Large (two frame buffers): static storage. */
typedef struct fd_link_console {
    fd_console *console;           /* the dealer's console, whose commands run */
    fd_write_fn wire;              /* the raw byte stream out (the UART) */
    void *wire_ctx;                /* wire's context */
    fd_link link;                  /* the open session, if any */
    fd_link_reader rx;             /* frames coming in */
    uint8_t tx[FD_LINK_MAX_FRAME]; /* the frame going out; a reply collects at tx + 6 */
    uint16_t tx_len;               /* reply bytes collected */
    uint64_t counter;              /* the next session counter (below the journal's reserved limit) */
    uint32_t sessions;             /* sessions opened since power-on */
    uint32_t refused;              /* frames refused since power-on (HELLOs and DATA) */
} fd_link_console;

/* Bind to a console (its dealer mounted: the session counter starts at the
 * journal's reserved limit) and the wire. cleartext: the console's lines
 * run unlocked until the first session opens (development builds only);
 * false locks it from the start. */
void fd_link_console_init(fd_link_console *lc, fd_console *console, fd_write_fn wire, void *wire_ctx, bool cleartext);

/* Feed one received byte: to the frame reader inside a frame or at a 0xFD,
 * else to the cleartext console. */
void fd_link_console_feed(fd_link_console *lc, uint8_t byte);

/* Received bytes were lost (FD_ERR_OVERRUN): the cleartext line is
 * discarded; a frame being received fails its tag and the reader hunts on. */
void fd_link_console_lost(fd_link_console *lc);

#endif
