/* fairdeal: the records the dealer writes ahead to its journal, and which of
 * them compaction keeps. Layouts (little-endian, payload byte offsets) are in
 * docs/RECORDS.md. Every record's journal seq is its monotonic counter across
 * reboots; events end with uptime_ms, and a TIME_SET record anchors uptime to
 * the controller's wall clock. */
#ifndef FAIRDEAL_RECORDS_H
#define FAIRDEAL_RECORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "fairdeal/journal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Types of the records the dealer journals; payloads in docs/RECORDS.md. */
typedef enum fd_record_type {
    FD_REC_POWER_ON = 1,     /* reset cause, uptime */
    FD_REC_TIME_SET = 2,     /* wall clock from TIME */
    FD_REC_ROUND_OPENED = 3, /* round id, commitment, shoe; the seed as the
                                erasable secret (its SHA-256 is chained) */
    /* 4: reserved (a separate secret record would leave a window where a
       round is opened and its secret not yet stored) */
    FD_REC_CARDS_DEALT = 5,  /* round id, first position, seat, cards */
    FD_REC_REVEAL = 6,       /* round id, commitment, seed: the round summary */
    FD_REC_ROUND_CLOSED = 7, /* round id, reason: ended without more deals */
    FD_REC_FAULT = 8,        /* status, where */
    FD_REC_SELFTEST = 9      /* result */
} fd_record_type;

/* Payload sizes (bytes); CARDS_DEALT is 12 + 2 per card. */
#define FD_REC_POWER_ON_SIZE 8u
/* TIME_SET: unix_s (u64), uptime_ms. */
#define FD_REC_TIME_SET_SIZE 12u
/* ROUND_OPENED, without its secret (the seed). */
#define FD_REC_ROUND_OPENED_SIZE 48u
/* The round seed: ROUND_OPENED's secret, part of REVEAL. */
#define FD_REC_SEED_SIZE 32u
/* CARDS_DEALT before its cards (2 bytes each follow). */
#define FD_REC_CARDS_DEALT_BASE 12u
/* Most cards in one CARDS_DEALT record. */
#define FD_REC_CARDS_MAX 64u
/* REVEAL: round id, commitment, seed, uptime_ms. */
#define FD_REC_REVEAL_SIZE 72u
/* ROUND_CLOSED: round id, reason, padding. */
#define FD_REC_ROUND_CLOSED_SIZE 8u
/* FAULT: status, where, uptime_ms. */
#define FD_REC_FAULT_SIZE 8u
/* SELFTEST: result status, padding, uptime_ms. */
#define FD_REC_SELFTEST_SIZE 8u

/* What compaction keeps (fd_journal_keep_fn with ctx = this policy): the
 * round records (OPENED, CARDS_DEALT, CLOSED) of the last `hands` rounds, the
 * REVEALs of the last `summaries` rounds, and every OPENED whose secret is
 * still available (an unrevealed round, however old). Events live only as
 * long as the ring holds them.
 * newest_round is the id of the newest round opened; the dealer updates it. */
typedef struct fd_records_policy {
    /* Id of the newest round opened. */
    uint32_t newest_round;
    /* Rounds whose OPENED, CARDS_DEALT and CLOSED records are kept. */
    uint32_t hands;
    /* Rounds whose REVEAL is kept. */
    uint32_t summaries;
} fd_records_policy;

/* fd_journal_keep_fn for the policy above (policy is an fd_records_policy):
 * true when record must survive compaction. False for NULL arguments, a
 * payload under 4 bytes (no round id) and every other record type. */
bool fd_records_keep(void *policy, const fd_journal_record *record);

#ifdef __cplusplus
}
#endif

#endif
