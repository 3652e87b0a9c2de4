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
    /* One part of a round's reveal material (S, or salt and order), as the
       erasable secret; written before its ROUND_OPENED, which lists them. */
    FD_REC_ROUND_SECRET = 4,
    FD_REC_CARDS_DEALT = 5,   /* round id, first position, seat, cards */
    FD_REC_REVEAL = 6,        /* round id, commitment, hash of the reveal: the round summary */
    FD_REC_ROUND_CLOSED = 7,  /* round id, reason: ended without more deals */
    FD_REC_FAULT = 8,         /* status, where */
    FD_REC_SELFTEST = 9,      /* result */
    FD_REC_CLIENT_SEED = 10,  /* round id, slot, the client seed */
    FD_REC_SEEDS_CLOSED = 11, /* round id: CLOSE fixed the order before every slot filled */
    /* 12: reserved */
    FD_REC_SEED_FILE = 13 /* the entropy seed file, as the erasable secret */
} fd_record_type;

/* Largest part of a round's reveal material in one ROUND_SECRET record. */
#define FD_REC_SECRET_PART FD_JOURNAL_MAX_SECRET
/* Most parts: salt and a 432-card order, 2 bytes a card. */
#define FD_REC_MAX_PARTS 14u
/* Most cards in one CARDS_DEALT record of the dealer (2 bytes each). */
#define FD_REC_DEALT_MAX 120u

/* Payload sizes (bytes); CARDS_DEALT is 12 + 2 per card. */
#define FD_REC_POWER_ON_SIZE 8u
/* TIME_SET: unix_s (u64), uptime_ms. */
#define FD_REC_TIME_SET_SIZE 12u
/* ROUND_OPENED, without its secret (the seed). */
#define FD_REC_ROUND_OPENED_SIZE 48u
/* A verifiable round's ROUND_OPENED ends with its beacon: slot, index (u64). */
#define FD_REC_BEACON_SIZE 9u
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
 * round records (OPENED, ROUND_SECRET, CLIENT_SEED, SEEDS_CLOSED,
 * CARDS_DEALT, CLOSED) of the last `hands` rounds, the REVEALs
 * of the last `summaries` rounds, and every OPENED whose secret is still
 * available (fd_records_keep_rules adds events and the seed file).
 * newest_round is the id of the newest round opened; the dealer updates it. */
typedef struct fd_records_policy {
    /* Id of the newest round opened. */
    uint32_t newest_round;
    /* Rounds whose OPENED, CARDS_DEALT and CLOSED records are kept. */
    uint32_t hands;
    /* Rounds whose REVEAL is kept. */
    uint32_t summaries;
} fd_records_policy;

/* The dealer's whole keep policy: the rounds' (fd_records_policy), the
 * events (POWER_ON, TIME_SET, FAULT, SELFTEST) first written at or after
 * event_floor (the dealer keeps it at its last FD_REC_EVENTS_KEPT events;
 * 0 keeps none), and the one SEED_FILE first written as seed_file_seq while
 * its secret is available (0: none). */
typedef struct fd_records_rules {
    /* What is kept of the rounds. */
    fd_records_policy rounds;
    /* Events first written at this seq or later are kept; 0 keeps none. */
    uint32_t event_floor;
    /* seq the newest seed file was first written under; 0: none. */
    uint32_t seed_file_seq;
} fd_records_rules;

/* Events the dealer keeps through compaction (its event_floor). */
#define FD_REC_EVENTS_KEPT 32u

/* fd_journal_keep_fn for the policy above (policy is an fd_records_policy):
 * true when record must survive compaction. False for NULL arguments, a
 * payload under 4 bytes (no round id) and every other record type. */
bool fd_records_keep(void *policy, const fd_journal_record *record);

/* fd_journal_keep_fn for fd_records_rules (rules is one): fd_records_keep
 * for the round records, plus the event and seed-file rules above. False
 * for NULL arguments. */
bool fd_records_keep_rules(void *rules, const fd_journal_record *record);

#ifdef __cplusplus
}
#endif

#endif
