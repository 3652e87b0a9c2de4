/* The dealer: console protocol, game state and fail-closed behaviour.
 * Board-independent: the raw TRNG and the console come in as callbacks, so
 * the same code runs on every board, on the host, and in tests with a fake
 * TRNG. The protocol is documented in docs/PROTOCOL.md. */
#ifndef FD_DEALER_H
#define FD_DEALER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/deck.h"
#include "fairdeal/drbg.h"
#include "fairdeal/entropy.h"
#include "fairdeal/fullentropy.h"

#define FD_DEALER_MAX_LINE 80u  /* longer lines are discarded whole */
#define FD_DEALER_MAX_PLAYERS 8u
#define FD_DEALER_VERSION "0.1.0"

/* Where replies go: the UART, stdout, or a test buffer. */
typedef void (*fd_write_fn)(void *ctx, const char *data, size_t len);

/* (Re)initialise the raw source before start-up tests, e.g. the driver's
 * recovery sequence after a hardware error. */
typedef fd_status (*fd_source_restart_fn)(void *ctx);

typedef struct fd_dealer_config {
    fd_sample_read_fn read_samples; /* the board's raw TRNG */
    fd_source_restart_fn restart_source; /* optional; called by init and SELFTEST */
    void *read_ctx;
    fd_health_config health;        /* cutoffs for the board's assessed H */
    uint16_t samples_per_block;     /* raw samples per 256-bit conditioned block */
    fd_drbg_kind drbg_kind;
    const char *board;
    const char *trng_name;
    bool emulation_only;
} fd_dealer_config;

typedef struct fd_linebuf {
    char text[FD_DEALER_MAX_LINE + 1u];
    size_t len;
    bool too_long;
    bool bad_byte;
} fd_linebuf;

typedef struct fd_dealer {
    fd_dealer_config cfg;
    fd_entropy entropy;
    fd_drbg drbg;
    fd_fullentropy full;
    fd_shoe shoe;
    fd_linebuf line;
    bool fault;            /* entropy fault latched: no SHUFFLE/DEAL until SELFTEST passes */
    fd_status fault_status;
    fd_health_failure fault_health;
    bool committed;        /* the shoe's order is committed and not yet revealed */
    bool revealed;
    bool factory;          /* the shoe is in factory order (init or NEW) */
    bool last_full;        /* last shuffle used full-entropy mode */
    uint8_t salt[16];
    uint8_t commitment[32];
    uint32_t shuffle_id;
    uint32_t commands;
    bool quit;
} fd_dealer;

/* Bind the configuration, run the known-answer and start-up self-tests and
 * instantiate the DRBG; a factory-order French deck is loaded. If a
 * self-test or the TRNG fails, the dealer starts in the fault state and the
 * status says why. Errors: FD_ERR_NULL; otherwise the fault status. */
fd_status fd_dealer_init(fd_dealer *d, const fd_dealer_config *cfg);

/* The banner: version, board, entropy source, DRBG, and a loud warning on
 * emulation-only boards. Several lines. */
void fd_dealer_banner(const fd_dealer *d, fd_write_fn out, void *ctx);

/* Execute one command line (without its line ending) and write exactly one
 * reply line ("OK ..." or "ERR <code> <message>", ending in CR LF). An ERR
 * reply leaves the state unchanged, except that an entropy failure during
 * SHUFFLE or SELFTEST latches the fault state. */
void fd_dealer_command(fd_dealer *d, const char *line, size_t len, fd_write_fn out, void *ctx);

/* Feed one console byte. A complete line (ended by LF or CR) runs as a
 * command; empty lines are ignored; a line over FD_DEALER_MAX_LINE chars or
 * holding NUL, other control or non-ASCII bytes is discarded whole and gets
 * ERR toolong / ERR badbyte. Returns true when a reply was written. */
bool fd_dealer_feed(fd_dealer *d, uint8_t byte, fd_write_fn out, void *ctx);

#endif
