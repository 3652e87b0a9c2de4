/* fairdeal: the records the dealer writes ahead to its journal, and which of
 * them compaction keeps. Layouts (little-endian, payload byte offsets) are in
 * docs/RECORDS.md. Every record's journal seq is its monotonic counter across
 * reboots; events end with uptime_ms, and a TIME_SET record anchors uptime to
 * the controller's wall clock. */
#ifndef FAIRDEAL_RECORDS_H
#define FAIRDEAL_RECORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "fairdeal/deck.h"
#include "fairdeal/journal.h"
#include "fairdeal/round.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Types of the records the dealer journals; payloads in docs/RECORDS.md.
 * Numbers are never reused: a retired layout keeps its number. */
typedef enum fd_record_type {
    FD_REC_POWER_ON = 1,     /* reset cause, time */
    FD_REC_TIME_SET = 2,     /* wall clock from TIME */
    FD_REC_ROUND_OPENED = 3, /* round id, shoe, commitment, the seqs of its parts */
    /* One part of a round's reveal material (S, or salt and order), as the
       erasable secret; written before its ROUND_OPENED, which lists them. */
    FD_REC_ROUND_SECRET = 4,
    FD_REC_CARDS_DEALT = 5,   /* retired: a deal with its card ids (FD_REC_DEALT replaced it) */
    FD_REC_REVEAL = 6,        /* round id, commitment, hash of the material: the round summary */
    FD_REC_ROUND_CLOSED = 7,  /* reserved: the dealer never closes a round unrevealed */
    FD_REC_FAULT = 8,         /* status, detail */
    FD_REC_SELFTEST = 9,      /* result */
    FD_REC_CLIENT_SEED = 10,  /* round id, slot, the client seed */
    FD_REC_SEEDS_CLOSED = 11, /* round id: CLOSE fixed the order before every slot filled */
    /* 12: reserved (never written) */
    FD_REC_SEED_FILE = 13,    /* the entropy seed file, as the erasable secret */
    FD_REC_DEALT = 14,        /* round id, first position, cards and seats of a DEAL or BURN */
    FD_REC_CUT = 15,          /* round id, the cut card's position */
    /* Reserved for records other parts of the firmware will write; their
       room is in the capacity model (FD_REC_CAP_RESERVED). */
    FD_REC_BEACON_INDEX = 16, /* reserved: the last beacon index used, per beacon slot */
    FD_REC_SKIPPED = 17,      /* reserved: positions skipped (marked, never dealt) in a round */
    FD_REC_LINK_SESSION = 18  /* reserved: the link's session counter */
} fd_record_type;

/* Largest part of a round's reveal material in one ROUND_SECRET record. */
#define FD_REC_SECRET_PART FD_JOURNAL_MAX_SECRET
/* Most parts: salt and a 432-card order, 2 bytes a card. */
#define FD_REC_MAX_PARTS 14u
_Static_assert(FD_REC_MAX_PARTS * FD_REC_SECRET_PART >= 16u + 2u * FD_SHOE_MAX_CARDS, "parts hold the largest order");

/* Payload sizes (bytes; layouts in docs/RECORDS.md). */
#define FD_REC_POWER_ON_SIZE 8u
#define FD_REC_TIME_SET_SIZE 12u
#define FD_REC_EVENT_SIZE 8u /* FAULT, SELFTEST */
#define FD_REC_ROUND_SECRET_SIZE 8u
/* ROUND_OPENED before its part seqs, device id and beacon. */
#define FD_REC_ROUND_OPENED_BASE 56u
/* A verifiable round's ROUND_OPENED ends with its beacon: slot, index (u64). */
#define FD_REC_BEACON_SIZE 9u
#define FD_REC_ROUND_OPENED_MAX                                                                                         \
    (FD_REC_ROUND_OPENED_BASE + 4u * FD_REC_MAX_PARTS + FD_ROUND_DEVICE_ID_MAX + FD_REC_BEACON_SIZE)
#define FD_REC_CLIENT_SEED_BASE 8u /* the seed follows */
#define FD_REC_SEEDS_CLOSED_SIZE 8u
#define FD_REC_REVEAL_SIZE 80u
#define FD_REC_SEED_FILE_SIZE 4u
#define FD_REC_DEALT_SIZE 8u
#define FD_REC_CUT_SIZE 8u

/* ---- The capacity model (docs/RECORDS.md "Capacity"): the live bytes the
 * journal must hold at once in the worst case, every record counted in its
 * compaction-copy form. A board's area must hold FD_REC_CAP_LIVE(hands) in
 * FD_REC_CAP_PAGES(page_size, hands) pages (a _Static_assert per board in
 * firmware/persist.c). ---- */

/* One kept record of payload p and secret s, copied by compaction. */
#define FD_REC_CAP_KEPT(p, s) FD_JOURNAL_RECORD_BYTES((p), (s), 1)
/* CUTs a round may journal (a further CUT is refused: FD_ERR_EXHAUSTED). */
#define FD_REC_CUTS_MAX 4u
/* Events kept per kind (POWER_ON, TIME_SET, FAULT, SELFTEST). */
#define FD_REC_EVENTS_PER_KIND 8u
#define FD_REC_EVENT_KINDS 4u
/* Most rounds whose REVEAL summary is kept, and most revealed hands kept in
 * full (an area keeps fewer when they do not fit: FD_REC_CAP_SUMMARIES,
 * FD_REC_CAP_HANDS). */
#define FD_REC_SUMMARIES_MAX 100u
#define FD_REC_HANDS_MAX 10u
/* The largest legal round's records but its REVEAL: 8 decks + jokers
 * (FD_SHOE_MAX_CARDS) dealt one card per DEAL/BURN, the most parts, 8 slots
 * of 64-byte seeds and SEEDS_CLOSED, the longest ROUND_OPENED and every CUT
 * (a bound over both modes: no round has all of these at once). */
#define FD_REC_CAP_HAND                                                                                                 \
    (FD_REC_CAP_KEPT(FD_REC_ROUND_OPENED_MAX, 0u) +                                                                     \
     FD_REC_MAX_PARTS * FD_REC_CAP_KEPT(FD_REC_ROUND_SECRET_SIZE, FD_REC_SECRET_PART) +                                 \
     FD_ROUND_SLOTS * FD_REC_CAP_KEPT(FD_REC_CLIENT_SEED_BASE + FD_ROUND_SEED_MAX, 0u) +                                \
     FD_REC_CAP_KEPT(FD_REC_SEEDS_CLOSED_SIZE, 0u) + FD_REC_CUTS_MAX * FD_REC_CAP_KEPT(FD_REC_CUT_SIZE, 0u) +           \
     FD_SHOE_MAX_CARDS * FD_REC_CAP_KEPT(FD_REC_DEALT_SIZE, 0u))
/* The open round: its hand and its REVEAL. */
#define FD_REC_CAP_ROUND (FD_REC_CAP_HAND + FD_REC_CAP_KEPT(FD_REC_REVEAL_SIZE, 0u))
/* One kept round summary. */
#define FD_REC_CAP_SUMMARY FD_REC_CAP_KEPT(FD_REC_REVEAL_SIZE, 0u)
/* Kept whatever the rounds: the events, the seed file, the parts of one
 * SHUFFLE cut short (live until the next power-on wipes them) and room for
 * the reserved record types (16 records of up to 8 bytes). */
#define FD_REC_CAP_RESERVED (16u * FD_REC_CAP_KEPT(8u, 0u))
#define FD_REC_CAP_FIXED                                                                                                \
    (FD_REC_EVENT_KINDS * FD_REC_EVENTS_PER_KIND * FD_REC_CAP_KEPT(FD_REC_TIME_SET_SIZE, 0u) +                          \
     FD_REC_CAP_KEPT(FD_REC_SEED_FILE_SIZE, FD_JOURNAL_MAX_SECRET) +                                                    \
     FD_REC_MAX_PARTS * FD_REC_CAP_KEPT(FD_REC_ROUND_SECRET_SIZE, FD_REC_SECRET_PART) + FD_REC_CAP_RESERVED)
/* Everything live at once: the open round, `summaries` summaries and
 * `hands` revealed hands kept in full, the fixed part. */
#define FD_REC_CAP_LIVE(summaries, hands)                                                                               \
    (FD_REC_CAP_ROUND + (summaries)*FD_REC_CAP_SUMMARY + (hands)*FD_REC_CAP_HAND + FD_REC_CAP_FIXED)
/* The largest record the dealer writes, as a copy. */
#define FD_REC_CAP_LARGEST FD_REC_CAP_KEPT(FD_REC_ROUND_OPENED_MAX, 0u)
/* Record bytes a page is sure to hold: less its header, the RETIRE
 * compaction may add to it, and the tail a record too large for it leaves. */
#define FD_REC_CAP_PAGE_USE(page_size)                                                                                  \
    ((page_size)-FD_JOURNAL_PAGE_HEADER - FD_JOURNAL_RETIRE_BYTES - (FD_REC_CAP_LARGEST - 4u))
/* Pages an area needs for a live set: its bytes, the page being filled and
 * the two compaction keeps free. */
#define FD_REC_CAP_PAGES(page_size, summaries, hands)                                                                   \
    ((FD_REC_CAP_LIVE(summaries, hands) + FD_REC_CAP_PAGE_USE(page_size) - 1u) / FD_REC_CAP_PAGE_USE(page_size) + 3u)
/* What an area of `pages` pages keeps: summaries first (up to
 * FD_REC_SUMMARIES_MAX), then revealed hands in full (up to
 * FD_REC_HANDS_MAX); 0 when not even the open round fits. */
#define FD_REC_CAP_ROOM(page_size, pages) (((pages)-3u) * FD_REC_CAP_PAGE_USE(page_size))
#define FD_REC_CAP_SPARE(page_size, pages, used)                                                                        \
    (FD_REC_CAP_ROOM(page_size, pages) < (used) ? 0u : FD_REC_CAP_ROOM(page_size, pages) - (used))
#define FD_REC_CAP_MIN(a, b) ((a) < (b) ? (a) : (b))
#define FD_REC_CAP_SUMMARIES(page_size, pages)                                                                          \
    FD_REC_CAP_MIN(FD_REC_SUMMARIES_MAX,                                                                                \
                   FD_REC_CAP_SPARE(page_size, pages, FD_REC_CAP_ROUND + FD_REC_CAP_FIXED) / FD_REC_CAP_SUMMARY)
#define FD_REC_CAP_HANDS(page_size, pages)                                                                              \
    FD_REC_CAP_MIN(FD_REC_HANDS_MAX,                                                                                    \
                   FD_REC_CAP_SPARE(page_size, pages,                                                                   \
                                    FD_REC_CAP_LIVE(FD_REC_CAP_SUMMARIES(page_size, pages), 0u)) /                      \
                       FD_REC_CAP_HAND)

/* Old names still used by tests and persist.c until they move to the
 * codec (the layouts they describe are in docs/RECORDS.md). */
#define FD_REC_DEALT_MAX 120u
#define FD_REC_SEED_SIZE 32u
#define FD_REC_CARDS_DEALT_BASE 12u
#define FD_REC_ROUND_OPENED_SIZE 48u
#define FD_REC_FAULT_SIZE 8u
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
