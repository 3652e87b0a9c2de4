/* fairdeal: the records the dealer writes ahead to its journal: their
 * types, their one codec (lib/src/records.c; the layouts, little-endian, in
 * docs/RECORDS.md byte for byte), the capacity model the board's storage
 * area is checked against, and which records compaction keeps. */
#ifndef FAIRDEAL_RECORDS_H
#define FAIRDEAL_RECORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "fairdeal/commit.h"
#include "fairdeal/deck.h"
#include "fairdeal/journal.h"
#include "fairdeal/round.h"
#include "fairdeal/sha256.h"
#include "fairdeal/status.h"

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
    FD_REC_SEED_FILE = 13, /* the entropy seed file, as the erasable secret */
    FD_REC_DEALT = 14,     /* round id, first position, cards and seats of a DEAL or BURN */
    FD_REC_CUT = 15,       /* round id, the cut card's position */
    /* Reserved for records other parts of the firmware will write; their
       room is in the capacity model (FD_REC_CAP_RESERVED). */
    FD_REC_BEACON_INDEX = 16, /* the last beacon index used, per beacon slot */
    FD_REC_SKIPPED = 17,      /* positions of a round skipped at power loss (written at power-on) */
    FD_REC_LINK_SESSION = 18  /* the link's reserved session counter limit */
} fd_record_type;

/* Largest part of a round's reveal material in one ROUND_SECRET record. */
#define FD_REC_SECRET_PART FD_JOURNAL_MAX_SECRET
/* Most parts: salt and a 432-card order, 2 bytes a card. */
#define FD_REC_MAX_PARTS 14u
FD_STATIC_ASSERT(FD_REC_MAX_PARTS *FD_REC_SECRET_PART >= 16u + 2u * FD_SHOE_MAX_CARDS, "parts hold the largest order");

/* Payload sizes (bytes; layouts in docs/RECORDS.md). */
#define FD_REC_POWER_ON_SIZE 8u     /* POWER_ON */
#define FD_REC_TIME_SET_SIZE 12u    /* TIME_SET */
#define FD_REC_EVENT_SIZE 8u        /* FAULT, SELFTEST */
#define FD_REC_ROUND_SECRET_SIZE 8u /* ROUND_SECRET (the secret part is separate) */
/* ROUND_OPENED before its part seqs, device id and beacon. */
#define FD_REC_ROUND_OPENED_BASE 56u
/* A verifiable round's ROUND_OPENED ends with its beacon: slot, index (u64). */
#define FD_REC_BEACON_SIZE 9u
/* The longest ROUND_OPENED: every part seq, the longest device id, a beacon. */
#define FD_REC_ROUND_OPENED_MAX                                                                                        \
    (FD_REC_ROUND_OPENED_BASE + 4u * FD_REC_MAX_PARTS + FD_ROUND_DEVICE_ID_MAX + FD_REC_BEACON_SIZE)
#define FD_REC_CLIENT_SEED_BASE 8u  /* the seed follows */
#define FD_REC_SEEDS_CLOSED_SIZE 8u /* SEEDS_CLOSED */
#define FD_REC_REVEAL_SIZE 80u      /* REVEAL (the round summary) */
#define FD_REC_SEED_FILE_SIZE 4u    /* SEED_FILE (the seed file is the secret) */
/* DEALT before its card ids (2 bytes each follow), and the most in one. */
#define FD_REC_DEALT_BASE 9u
#define FD_REC_DEALT_CARDS_MAX 120u                                        /* most cards in one DEALT record */
#define FD_REC_DEALT_MAX (FD_REC_DEALT_BASE + 2u * FD_REC_DEALT_CARDS_MAX) /* the largest DEALT */
#define FD_REC_CUT_SIZE 8u                                                 /* CUT */
#define FD_REC_BEACON_INDEX_SIZE 12u                                       /* BEACON_INDEX */
#define FD_REC_SKIPPED_SIZE 8u                                             /* SKIPPED */
#define FD_REC_LINK_SESSION_SIZE 8u                                        /* LINK_SESSION */

/* ---- The capacity model (docs/RECORDS.md "Capacity"): the live bytes the
 * journal must hold at once in the worst case, every record counted in its
 * compaction-copy form. A board's area must hold FD_REC_CAP_LIVE(hands) in
 * FD_REC_CAP_PAGES(page_size, hands) pages (a _Static_assert per board in
 * firmware/persist.c). ---- */

/* One kept record of payload p and secret s, copied by compaction. */
#define FD_REC_CAP_KEPT(p, s) FD_JOURNAL_RECORD_BYTES((p), (s), 1)
/* CUTs a round may journal (a further CUT is refused: FD_ERR_EXHAUSTED). */
#define FD_REC_CUTS_MAX 4u
/* SKIPPED records a round may journal; a round that has them all refuses
 * further DEAL/BURN (it can only be revealed): docs/RECORDS.md "Replay". */
#define FD_REC_SKIPPED_MAX 4u
/* Events kept per kind (POWER_ON, TIME_SET, FAULT, SELFTEST). */
#define FD_REC_EVENTS_PER_KIND 8u
#define FD_REC_EVENT_KINDS 4u /* POWER_ON, TIME_SET, FAULT, SELFTEST */
/* Most rounds whose REVEAL summary is kept, and most revealed hands kept in
 * full (an area keeps fewer when they do not fit: FD_REC_CAP_SUMMARIES,
 * FD_REC_CAP_HANDS). */
#define FD_REC_SUMMARIES_MAX 100u
#define FD_REC_HANDS_MAX 10u /* most revealed hands kept in full */
/* The records of one round but its REVEAL at their largest, for a round
 * of `cards` cards, `parts` ROUND_SECRET parts and `slots` seed slots:
 * the longest ROUND_OPENED, every part full, a 64-byte seed per slot and
 * SEEDS_CLOSED, every CUT and every SKIPPED, and the cards dealt one per
 * DEAL/BURN. SHUFFLE reserves this for its round (docs/RECORDS.md
 * "Capacity"). */
#define FD_REC_CAP_HAND_OF(parts, slots, cards)                                                                        \
    (FD_REC_CAP_KEPT(FD_REC_ROUND_OPENED_MAX, 0u) +                                                                    \
     (parts)*FD_REC_CAP_KEPT(FD_REC_ROUND_SECRET_SIZE, FD_REC_SECRET_PART) +                                           \
     (slots)*FD_REC_CAP_KEPT(FD_REC_CLIENT_SEED_BASE + FD_ROUND_SEED_MAX, 0u) +                                        \
     FD_REC_CAP_KEPT(FD_REC_SEEDS_CLOSED_SIZE, 0u) + FD_REC_CUTS_MAX * FD_REC_CAP_KEPT(FD_REC_CUT_SIZE, 0u) +          \
     FD_REC_SKIPPED_MAX * FD_REC_CAP_KEPT(FD_REC_SKIPPED_SIZE, 0u) +                                                   \
     (cards)*FD_REC_CAP_KEPT(FD_REC_DEALT_BASE + 2u, 0u))
/* The largest legal round's records but its REVEAL: 8 decks + jokers
 * (FD_SHOE_MAX_CARDS) dealt one card per DEAL/BURN, the most parts, 8 slots
 * of 64-byte seeds and SEEDS_CLOSED, the longest ROUND_OPENED, every CUT and
 * every SKIPPED (a bound over both modes: no round has all of these at once). */
#define FD_REC_CAP_HAND FD_REC_CAP_HAND_OF(FD_REC_MAX_PARTS, FD_ROUND_SLOTS, FD_SHOE_MAX_CARDS)
/* The open round: its hand and its REVEAL. */
#define FD_REC_CAP_ROUND (FD_REC_CAP_HAND + FD_REC_CAP_KEPT(FD_REC_REVEAL_SIZE, 0u))
/* One kept round summary. */
#define FD_REC_CAP_SUMMARY FD_REC_CAP_KEPT(FD_REC_REVEAL_SIZE, 0u)
/* Kept whatever the rounds: the events, the seed file and room for the
 * record types 16-18 (16 records of up to 8 bytes): the newest
 * BEACON_INDEX per slot takes part of it. (The parts of a SHUFFLE cut
 * short are never copied: the next power-on wipes them before anything is
 * written, and a wiped part is not kept.) */
#define FD_REC_CAP_RESERVED (16u * FD_REC_CAP_KEPT(8u, 0u))
FD_STATIC_ASSERT(FD_REC_CAP_KEPT(FD_REC_BEACON_INDEX_SIZE, 0u) * FD_ROUND_SLOTS +
                         FD_REC_CAP_KEPT(FD_REC_LINK_SESSION_SIZE, 0u) + FD_REC_CAP_KEPT(8u, 0u) * 6u <=
                     FD_REC_CAP_RESERVED,
                 "the newest BEACON_INDEX per slot and the newest LINK_SESSION fit the reserved room, with 6 records "
                 "of 8 bytes to spare");
/* The fixed part: events per kind, the seed file, the reserved types. */
#define FD_REC_CAP_FIXED                                                                                               \
    (FD_REC_EVENT_KINDS * FD_REC_EVENTS_PER_KIND * FD_REC_CAP_KEPT(FD_REC_TIME_SET_SIZE, 0u) +                         \
     FD_REC_CAP_KEPT(FD_REC_SEED_FILE_SIZE, FD_JOURNAL_MAX_SECRET) + FD_REC_CAP_RESERVED)
/* Everything live at once: the open round, `summaries` summaries and
 * `hands` revealed hands kept in full, the fixed part. */
#define FD_REC_CAP_LIVE(summaries, hands)                                                                              \
    (FD_REC_CAP_ROUND + (summaries)*FD_REC_CAP_SUMMARY + (hands)*FD_REC_CAP_HAND + FD_REC_CAP_FIXED)
/* The largest record the dealer writes, as a copy. */
#define FD_REC_CAP_LARGEST FD_REC_CAP_KEPT(FD_REC_ROUND_OPENED_MAX, 0u)
/* Record bytes a page is sure to hold: less its header, the RETIRE
 * compaction may add to it, and the tail a record too large for it leaves. */
#define FD_REC_CAP_PAGE_USE(page_size)                                                                                 \
    ((page_size)-FD_JOURNAL_PAGE_HEADER - FD_JOURNAL_RETIRE_BYTES - (FD_REC_CAP_LARGEST - 4u))
/* Pages of an area of `pages` pages that hold no live records: the page
 * being filled and the pages compaction keeps free. */
#define FD_REC_CAP_SPARE_PAGES(pages) (1u + FD_JOURNAL_RESERVE_PAGES(pages))
/* Pages an area of `pages` pages needs for a live set: its bytes in pages
 * of FD_REC_CAP_PAGE_USE, and the spare pages. */
#define FD_REC_CAP_PAGES(page_size, pages, summaries, hands)                                                           \
    ((FD_REC_CAP_LIVE(summaries, hands) + FD_REC_CAP_PAGE_USE(page_size) - 1u) / FD_REC_CAP_PAGE_USE(page_size) +      \
     FD_REC_CAP_SPARE_PAGES(pages))
/* What an area of `pages` pages keeps: summaries first (up to
 * FD_REC_SUMMARIES_MAX), then revealed hands in full (up to
 * FD_REC_HANDS_MAX); 0 when not even the open round fits. */
#define FD_REC_CAP_ROOM(page_size, pages) (((pages)-FD_REC_CAP_SPARE_PAGES(pages)) * FD_REC_CAP_PAGE_USE(page_size))
/* Room an area of `pages` pages leaves after `used` bytes (0 when over). */
#define FD_REC_CAP_SPARE(page_size, pages, used)                                                                       \
    (FD_REC_CAP_ROOM(page_size, pages) < (used) ? 0u : FD_REC_CAP_ROOM(page_size, pages) - (used))
/* The smaller of a and b (constant expressions). */
#define FD_REC_CAP_MIN(a, b) ((a) < (b) ? (a) : (b))
/* Summaries an area of `pages` pages keeps (at most FD_REC_SUMMARIES_MAX). */
#define FD_REC_CAP_SUMMARIES(page_size, pages)                                                                         \
    FD_REC_CAP_MIN(FD_REC_SUMMARIES_MAX,                                                                               \
                   FD_REC_CAP_SPARE(page_size, pages, FD_REC_CAP_ROUND + FD_REC_CAP_FIXED) / FD_REC_CAP_SUMMARY)
/* Revealed hands an area keeps in full after its summaries (at most FD_REC_HANDS_MAX). */
#define FD_REC_CAP_HANDS(page_size, pages)                                                                             \
    FD_REC_CAP_MIN(FD_REC_HANDS_MAX,                                                                                   \
                   FD_REC_CAP_SPARE(page_size, pages, FD_REC_CAP_LIVE(FD_REC_CAP_SUMMARIES(page_size, pages), 0u)) /   \
                       FD_REC_CAP_HAND)

/* ---- The record codec: the one place the layouts of docs/RECORDS.md are
 * written down. One struct per record type; encode writes the payload into
 * out (at least the type's _SIZE or _MAX bytes) and returns its length;
 * decode checks the length and every field's range and returns FD_OK or
 * FD_ERR_PARSE (out unspecified then). Fields are host integers; zero
 * bytes of the layout are written as zero and ignored on decode. ---- */

/* Card i of a drbg/full round's reveal material: the 16-byte salt, then
 * the order as u16 card ids (material holds at least 16 + 2 * (i + 1) bytes). */
fd_card fd_rec_material_card(const uint8_t *material, uint16_t i);

/* The round id every round record starts with (FD_ERR_PARSE under 4 bytes). */
FD_MUST_CHECK fd_status fd_rec_round_id(const uint8_t *payload, size_t len, uint32_t *round_id);

/* POWER_ON: why the device started. */
typedef struct fd_rec_power_on {
    uint8_t cause; /* 0 unknown, 1 power-on, 2 pin, 3 watchdog, 4 software, 5 brown-out, 6 lockup */
    uint32_t time; /* unix seconds of the last TIME since power-on, 0: none */
} fd_rec_power_on;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_power_on_encode(const fd_rec_power_on *in, uint8_t out[FD_REC_POWER_ON_SIZE]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length or a field out of range. */
FD_MUST_CHECK fd_status fd_rec_power_on_decode(const uint8_t *b, size_t len, fd_rec_power_on *out);

/* TIME_SET: the time the controller sent. */
typedef struct fd_rec_time_set {
    uint32_t unix_s; /* not 0 */
} fd_rec_time_set;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_time_set_encode(const fd_rec_time_set *in, uint8_t out[FD_REC_TIME_SET_SIZE]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length or a field out of range. */
FD_MUST_CHECK fd_status fd_rec_time_set_decode(const uint8_t *b, size_t len, fd_rec_time_set *out);

/* FAULT and SELFTEST. */
typedef struct fd_rec_event {
    uint16_t status; /* fd_status */
    uint16_t detail; /* FAULT: the health test; SELFTEST: 0 */
    uint32_t time;   /* unix seconds of the last TIME, 0: none */
} fd_rec_event;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_event_encode(const fd_rec_event *in, uint8_t out[FD_REC_EVENT_SIZE]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length or a field out of range. */
FD_MUST_CHECK fd_status fd_rec_event_decode(const uint8_t *b, size_t len, fd_rec_event *out);

/* ROUND_OPENED: a round's header, commitment and where its secret parts are. */
typedef struct fd_rec_round_opened {
    uint32_t round_id;                         /* round id */
    uint8_t mode;                              /* FD_RECORD_MODE_* */
    uint8_t kind;                              /* fd_deck_kind */
    uint8_t decks;                             /* decks in the shoe */
    uint8_t jokers;                            /* jokers per deck */
    uint16_t count;                            /* shoe size, <= FD_SHOE_MAX_CARDS */
    uint16_t cut;                              /* the cut card's position, 0: none */
    uint8_t slot_mask;                         /* seed slots the round accepts (bit n: slot n) */
    uint16_t material_len;                     /* <= parts * FD_REC_SECRET_PART */
    uint8_t parts;                             /* 1..FD_REC_MAX_PARTS */
    uint32_t time;                             /* unix seconds of the last TIME, 0: none */
    uint8_t commitment[FD_SHA256_SIZE];        /* the published commitment */
    uint32_t part_seq[FD_REC_MAX_PARTS];       /* journal seqs of the ROUND_SECRET parts */
    uint8_t device_id_len;                     /* <= FD_ROUND_DEVICE_ID_MAX */
    uint8_t device_id[FD_ROUND_DEVICE_ID_MAX]; /* the device id in the round header */
    bool has_beacon;                           /* a verifiable round's; a record without ends at the device id */
    uint8_t beacon_slot;                       /* beacon slot (has_beacon) */
    uint64_t beacon_index;                     /* beacon index (has_beacon) */
} fd_rec_round_opened;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_round_opened_encode(const fd_rec_round_opened *in, uint8_t out[FD_REC_ROUND_OPENED_MAX]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length or a field out of range. */
FD_MUST_CHECK fd_status fd_rec_round_opened_decode(const uint8_t *b, size_t len, fd_rec_round_opened *out);

/* ROUND_SECRET: one part of a round's reveal material (the part is the record's secret). */
typedef struct fd_rec_round_secret {
    uint32_t round_id; /* round id */
    uint8_t part;      /* < parts */
    uint8_t parts;     /* 1..FD_REC_MAX_PARTS */
    uint8_t mode;      /* FD_RECORD_MODE_* */
} fd_rec_round_secret;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_round_secret_encode(const fd_rec_round_secret *in, uint8_t out[FD_REC_ROUND_SECRET_SIZE]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length or a field out of range. */
FD_MUST_CHECK fd_status fd_rec_round_secret_decode(const uint8_t *b, size_t len, fd_rec_round_secret *out);

/* The longest CLIENT_SEED: a 64-byte seed. */
#define FD_REC_CLIENT_SEED_MAX (FD_REC_CLIENT_SEED_BASE + FD_ROUND_SEED_MAX)
/* CLIENT_SEED: a player's seed in a slot. */
typedef struct fd_rec_client_seed {
    uint32_t round_id;               /* round id */
    uint8_t slot;                    /* < FD_ROUND_SLOTS */
    uint8_t len;                     /* 1..FD_ROUND_SEED_MAX */
    uint8_t seed[FD_ROUND_SEED_MAX]; /* the seed bytes (len of them) */
} fd_rec_client_seed;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_client_seed_encode(const fd_rec_client_seed *in, uint8_t out[FD_REC_CLIENT_SEED_MAX]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length or a field out of range. */
FD_MUST_CHECK fd_status fd_rec_client_seed_decode(const uint8_t *b, size_t len, fd_rec_client_seed *out);

/* SEEDS_CLOSED, and the round-id-only form of any record. */
typedef struct fd_rec_seeds_closed {
    uint32_t round_id; /* round id */
} fd_rec_seeds_closed;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_seeds_closed_encode(const fd_rec_seeds_closed *in, uint8_t out[FD_REC_SEEDS_CLOSED_SIZE]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length or a field out of range. */
FD_MUST_CHECK fd_status fd_rec_seeds_closed_decode(const uint8_t *b, size_t len, fd_rec_seeds_closed *out);

/* REVEAL: the round summary. */
typedef struct fd_rec_reveal {
    uint32_t round_id;                     /* round id */
    uint8_t mode;                          /* FD_RECORD_MODE_* */
    uint16_t material_len;                 /* bytes of the reveal material */
    uint32_t time;                         /* unix seconds of the last TIME, 0: none */
    uint8_t commitment[FD_SHA256_SIZE];    /* the published commitment */
    uint8_t material_hash[FD_SHA256_SIZE]; /* SHA-256 of the reveal material */
    uint16_t dealt;                        /* cards dealt, <= FD_SHOE_MAX_CARDS */
} fd_rec_reveal;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_reveal_encode(const fd_rec_reveal *in, uint8_t out[FD_REC_REVEAL_SIZE]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length or a field out of range. */
FD_MUST_CHECK fd_status fd_rec_reveal_decode(const uint8_t *b, size_t len, fd_rec_reveal *out);

/* SEED_FILE: the entropy seed file (the record's secret). */
typedef struct fd_rec_seed_file {
    uint8_t len; /* of the secret, 1..FD_JOURNAL_MAX_SECRET */
} fd_rec_seed_file;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_seed_file_encode(const fd_rec_seed_file *in, uint8_t out[FD_REC_SEED_FILE_SIZE]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length or a field out of range. */
FD_MUST_CHECK fd_status fd_rec_seed_file_decode(const uint8_t *b, size_t len, fd_rec_seed_file *out);

/* A DEAL or BURN: positions first .. first + cards - 1 of the order the
 * round committed to, and the cards there (a deal of more than
 * FD_REC_DEALT_CARDS_MAX cards takes several records, each with its first
 * position and its own cards). Card k of a record goes to seat
 * (first + k - deal's first) mod players + 1; the dealer starts every deal
 * at a record boundary that is a multiple of players. */
#define FD_REC_DEALT_PLAYERS_MAX 15u /* most seats in one deal */
/* DEALT: one DEAL or BURN record (see above). */
typedef struct fd_rec_dealt {
    uint32_t round_id;                    /* round id */
    uint16_t first;                       /* < FD_SHOE_MAX_CARDS */
    uint16_t cards;                       /* 1..FD_REC_DEALT_CARDS_MAX, first + cards <= FD_SHOE_MAX_CARDS */
    uint8_t players;                      /* 1..FD_REC_DEALT_PLAYERS_MAX; 0: a BURN (one card) */
    uint8_t kind;                         /* fd_deck_kind: the record prints without its ROUND_OPENED */
    uint8_t seat0;                        /* seat of the first card, 0-based (a deal split over records) */
    fd_card card[FD_REC_DEALT_CARDS_MAX]; /* the cards at first.. (cards of them) */
} fd_rec_dealt;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_dealt_encode(const fd_rec_dealt *in, uint8_t out[FD_REC_DEALT_MAX]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length or a field out of range. */
FD_MUST_CHECK fd_status fd_rec_dealt_decode(const uint8_t *b, size_t len, fd_rec_dealt *out);

/* CUT: the cut card's position. */
typedef struct fd_rec_cut {
    uint32_t round_id; /* round id */
    uint16_t cut;      /* <= FD_SHOE_MAX_CARDS */
} fd_rec_cut;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_cut_encode(const fd_rec_cut *in, uint8_t out[FD_REC_CUT_SIZE]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length or a field out of range. */
FD_MUST_CHECK fd_status fd_rec_cut_decode(const uint8_t *b, size_t len, fd_rec_cut *out);

/* BEACON_INDEX: the beacon index a verifiable round of this device used in
 * a beacon slot (the next round's index for that slot must be greater). */
typedef struct fd_rec_beacon_index {
    uint8_t slot;   /* < FD_ROUND_SLOTS */
    uint64_t index; /* the beacon index */
} fd_rec_beacon_index;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_beacon_index_encode(const fd_rec_beacon_index *in, uint8_t out[FD_REC_BEACON_INDEX_SIZE]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length or a field out of range. */
FD_MUST_CHECK fd_status fd_rec_beacon_index_decode(const uint8_t *b, size_t len, fd_rec_beacon_index *out);

/* LINK_SESSION: the link's session counter values below limit may have
 * been used (docs/LINK.md "Keys"); the next block starts at limit. */
typedef struct fd_rec_link_session {
    uint64_t limit; /* the reserved limit */
} fd_rec_link_session;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_link_session_encode(const fd_rec_link_session *in, uint8_t out[FD_REC_LINK_SESSION_SIZE]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length. */
FD_MUST_CHECK fd_status fd_rec_link_session_decode(const uint8_t *b, size_t len, fd_rec_link_session *out);

/* SKIPPED: positions first .. first + count - 1 of a round, journalled as
 * dealt by a DEAL or BURN whose reply may never have gone out (a power cut
 * after its write-ahead): never dealt again, shown as skipped. */
typedef struct fd_rec_skipped {
    uint32_t round_id; /* round id */
    uint16_t first;    /* < FD_SHOE_MAX_CARDS */
    uint16_t count;    /* >= 1, first + count <= FD_SHOE_MAX_CARDS */
} fd_rec_skipped;
/* Writes in's payload into out; returns its length. */
size_t fd_rec_skipped_encode(const fd_rec_skipped *in, uint8_t out[FD_REC_SKIPPED_SIZE]);
/* Reads a payload of len bytes into out: FD_OK, or FD_ERR_PARSE for a wrong length or a field out of range. */
FD_MUST_CHECK fd_status fd_rec_skipped_decode(const uint8_t *b, size_t len, fd_rec_skipped *out);

/* What compaction keeps (fd_journal_keep_fn with ctx = this policy): the
 * round records (OPENED, ROUND_SECRET, CLIENT_SEED, SEEDS_CLOSED, DEALT,
 * CUT) of the last `hands` rounds, the REVEALs
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

/* The event kinds, each kept in its own window (events[]). */
typedef enum fd_rec_event_kind {
    FD_REC_KIND_POWER_ON = 0,
    FD_REC_KIND_TIME_SET = 1,
    FD_REC_KIND_FAULT = 2,
    FD_REC_KIND_SELFTEST = 3
} fd_rec_event_kind;
/* The kind of an event record type; false for any other type. */
bool fd_rec_event_kind_of(uint8_t type, fd_rec_event_kind *kind);

/* The dealer's whole keep policy: the rounds' (fd_records_policy), the
 * events of each kind first written at or after that kind's floor (the
 * dealer keeps it at its last FD_REC_EVENTS_PER_KIND events of the kind;
 * 0 keeps none), the one SEED_FILE first written as seed_file_seq while
 * its secret is available (0: none) and per beacon slot the BEACON_INDEX
 * first written as beacon_seq[slot] (0: none), and the LINK_SESSION first
 * written as link_seq (0: none). */
typedef struct fd_records_rules {
    /* What is kept of the rounds. */
    fd_records_policy rounds;
    /* Per fd_rec_event_kind: events first written at this seq or later are kept; 0 keeps none. */
    uint32_t event_floor[FD_REC_EVENT_KINDS];
    /* seq the newest seed file was first written under; 0: none. */
    uint32_t seed_file_seq;
    /* Per beacon slot: seq its newest BEACON_INDEX was first written under; 0: none. */
    uint32_t beacon_seq[FD_ROUND_SLOTS];
    /* seq the newest LINK_SESSION was first written under; 0: none. */
    uint32_t link_seq;
} fd_records_rules;

/* Events the dealer keeps through compaction, all kinds. */
#define FD_REC_EVENTS_KEPT (FD_REC_EVENT_KINDS * FD_REC_EVENTS_PER_KIND)

/* True for the types of a round's hand, every round record but REVEAL
 * (ROUND_OPENED, ROUND_SECRET, CLIENT_SEED, SEEDS_CLOSED, CARDS_DEALT,
 * DEALT, CUT, SKIPPED, ROUND_CLOSED): what compaction keeps of the newest
 * `hands` rounds (fd_records_keep). False for every other type. */
bool fd_rec_hand_type(uint8_t type);

/* fd_journal_keep_fn for the policy above (policy is an fd_records_policy):
 * true when record must survive compaction. False for NULL arguments, a
 * payload under 4 bytes (no round id), a ROUND_SECRET whose secret was wiped
 * (the parts of a SHUFFLE cut short) and every other record type. */
bool fd_records_keep(void *policy, const fd_journal_record *record);

/* fd_journal_keep_fn for fd_records_rules (rules is one): fd_records_keep
 * for the round records, plus the event, seed-file, beacon and link rules above. False
 * for NULL arguments. */
bool fd_records_keep_rules(void *rules, const fd_journal_record *record);

#ifdef __cplusplus
}
#endif

#endif
