/* The dealer's state and its open or last round (README.md "The
 * firmware's layers"): the part of fd_dealer that the journal (persist.h)
 * writes and restores, so it lies below both. Types only. */
#ifndef FD_DEALER_ROUND_H
#define FD_DEALER_ROUND_H

#include <stdbool.h>
#include <stdint.h>

#include "fairdeal/commit.h"
#include "fairdeal/round.h"

/* Most players a DEAL serves. */
#define FD_DEALER_MAX_PLAYERS 8u
/* Bytes of S kept for the largest shoe: fd_round_secret_min(FD_SHOE_MAX_CARDS)
 * (a unit test checks it); below FD_ROUND_SECRET_MAX to spare the micro:bit's RAM. */
#define FD_DEALER_SECRET_MAX 431u

/* The one state. A committed round (ROUND_OPEN, FAULT_ROUND_OPEN) ends only
 * by REVEAL; a fault keeps the open round's order so it can be revealed. */
typedef enum fd_dealer_state {
    FD_DEALER_FACTORY = 0,          /* no round; shoe fresh from power-on or NEW */
    FD_DEALER_ROUND_OPEN = 1,       /* committed order, dealing allowed */
    FD_DEALER_REVEALED = 2,         /* no round; the shoe holds the revealed order */
    FD_DEALER_UNSHUFFLED = 3,       /* no round; left the fault state, SHUFFLE next */
    FD_DEALER_FAULT = 4,            /* fault latched, no round open */
    FD_DEALER_FAULT_ROUND_OPEN = 5, /* fault latched with a committed round: REVEAL it */
    FD_DEALER_SEEDING = 6,          /* verifiable round committed, open for client seeds; no dealing */
    FD_DEALER_STATE_COUNT = 7
} fd_dealer_state;

/* The round-critical fields and their checksum (kept beside them). */
typedef struct fd_round {
    fd_dealer_state state;
    uint8_t mode;             /* an fd_record_mode: how the round's order was made */
    bool closed;              /* FD_RECORD_MODE_ROUND: seeds closed, the order derived */
    uint32_t id;              /* successful SHUFFLEs since power-on = the open or last round */
    uint32_t revealed_rounds; /* rounds revealed since power-on */
    uint32_t check;           /* FNV-1a over the other fields and the shoe's; see dealer.c */
    uint8_t salt[FD_COMMIT_SALT_SIZE];
    uint8_t commitment[FD_COMMIT_SIZE];
    /* FD_RECORD_MODE_ROUND only (docs/VERIFY.md): what the commitment binds,
     * the secret S (published at REVEAL) and the client seeds received */
    fd_round_header header;
    uint16_t secret_len;
    uint8_t secret[FD_DEALER_SECRET_MAX];
    fd_round_seeds seeds;
} fd_round;

#endif
