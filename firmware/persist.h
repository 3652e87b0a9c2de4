/* The dealer's write-ahead journal (docs/RECORDS.md, docs/PROTOCOL.md
 * "Power loss"): what the dealer keeps on the board's storage area so that a
 * power cut loses no acknowledged round, card or event. dealer.c calls the
 * fd_persist_* hooks BEFORE it changes its state or the transport replies; a
 * hook that fails leaves the dealer as it was, latches the journal's error
 * (persist.status) and the command fails closed with FD_ERR_NOT_READY.
 * A dealer without storage (cfg.storage NULL: library tests, benchmarks)
 * keeps nothing and every hook succeeds. */
#ifndef FD_PERSIST_H
#define FD_PERSIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dealer_round.h"
#include "device_secret.h"
#include "fairdeal/deck.h"
#include "fairdeal/journal.h"
#include "fairdeal/records.h"
#include "fairdeal/round.h"

/* Most erase pages of a storage area the dealer journals on (the board's
 * FD_STORAGE_PAGES; firmware/CMakeLists.txt sets it per board). */
#ifndef FD_DEALER_JOURNAL_PAGES
#define FD_DEALER_JOURNAL_PAGES 64u
#endif
/* Bytes of one erase page of that area (FD_FLASH_PAGE_SIZE). */
#ifndef FD_DEALER_JOURNAL_PAGE_SIZE
#define FD_DEALER_JOURNAL_PAGE_SIZE 1024u
#endif
/* Kept through compaction (docs/RECORDS.md "Capacity"), derived from the
 * board's area: the round summaries, and the rounds kept in full (the
 * newest, open or revealed, and the revealed hands that fit). */
#define FD_DEALER_KEEP_SUMMARIES FD_REC_CAP_SUMMARIES(FD_DEALER_JOURNAL_PAGE_SIZE, FD_DEALER_JOURNAL_PAGES)
#define FD_DEALER_KEEP_HANDS (1u + FD_REC_CAP_HANDS(FD_DEALER_JOURNAL_PAGE_SIZE, FD_DEALER_JOURNAL_PAGES))
/* FD_DEALER_KEEP_HANDS and FD_DEALER_KEEP_SUMMARIES as values (persist.c). */
extern const uint32_t fd_persist_keep_hands;
extern const uint32_t fd_persist_keep_summaries;
/* Rounds whose hand bytes the dealer counts (fd_persist.hand_bytes): the
 * most revealed hands an area keeps in full, and the newest round. */
#define FD_PERSIST_HAND_RING (FD_REC_HANDS_MAX + 1u)
/* Largest seed file (the journal's largest erasable secret). */
#define FD_DEALER_SEED_FILE_MAX FD_JOURNAL_MAX_SECRET

/* The journal's state inside fd_dealer. */
typedef struct fd_persist {
    /* FD_OK, or why the journal takes no more records: the mount's error
     * (FD_ERR_CORRUPT: see report) or the first failed write (sticky until
     * the next power-on). */
    fd_status status;
    /* Mount's findings: the first bad record when status is FD_ERR_CORRUPT. */
    fd_journal_report report;
    /* A storage area was given (cfg.storage). */
    bool attached;
    /* The open round was recovered from the journal at power-on. */
    bool recovered;
    /* Cards the journal recorded as dealt of the recovered round. */
    uint16_t recovered_position;
    /* The journal's next seq as mounted at this power-on, before the
     * dealer wrote anything (0: not mounted): a controller that saw a
     * higher seq before sees the rollback (docs/RECORDS.md "Detecting a
     * rollback"). */
    uint32_t power_on_seq;
    /* Last TIME this power-on (unix seconds); 0: none yet. */
    uint32_t unix_s;
    /* The newest seed file (a secret, like the DRBG state). */
    uint8_t seed_file_len;
    uint8_t seed_file[FD_DEALER_SEED_FILE_MAX];
    /* seqs of the last FD_REC_EVENTS_PER_KIND events of each kind (any
     * order; 0: unused). */
    uint32_t events[FD_REC_EVENT_KINDS][FD_REC_EVENTS_PER_KIND];
    /* The wear budget: per event kind, round id + 1 when one was last
     * journalled this power-on (0: none yet) and its status. */
    uint32_t event_epoch[FD_REC_EVENT_KINDS];
    uint16_t event_status[FD_REC_EVENT_KINDS];
    /* CUT records of the open round (at most FD_REC_CUTS_MAX). */
    uint32_t round_cuts;
    /* The open round's SKIPPED records (docs/RECORDS.md "Replay"), oldest
     * in position order: positions first .. first +
     * count - 1 journalled as dealt whose reply may have been lost. */
    uint32_t round_skipped;
    uint16_t skipped_first[FD_REC_SKIPPED_MAX];
    uint16_t skipped_count[FD_REC_SKIPPED_MAX];
    /* Per beacon slot, the last beacon index a round used (bit n of
     * beacon_used: slot n has one), journalled as BEACON_INDEX. */
    uint8_t beacon_used;
    uint64_t beacon_last[FD_ROUND_SLOTS];
    /* Per round of the newest FD_PERSIST_HAND_RING (entry id % ring): its
     * id and the bytes its hand records (fd_rec_hand_type) take in the
     * journal, as compaction copies them; what SHUFFLE's reservation
     * counts for the revealed hands kept in full (docs/RECORDS.md
     * "Capacity"). */
    uint32_t hand_round[FD_PERSIST_HAND_RING];
    uint32_t hand_bytes[FD_PERSIST_HAND_RING];
    /* The link's session counter values below this may have been used
     * (the newest LINK_SESSION; docs/LINK.md "Keys"). */
    uint64_t link_limit;
    fd_records_rules rules;
    fd_flash flash;
    fd_journal journal;
    fd_journal_page pages[FD_DEALER_JOURNAL_PAGES];
} fd_persist;

/* The journal's HMAC key, the one place it is derived: the device secret's
 * "journal" key (fd_device_key). Errors: fd_device_key's (FD_ERR_NOT_READY
 * for an unusable secret: the journal is then refused). */
FD_MUST_CHECK fd_status fd_persist_journal_key(const fd_device_secret *secret, uint8_t key[FD_SHA256_SIZE]);

/* ---- hooks for the dealer (dealer.c, dealer_sources.c) ---- */

/* What a hook works on: the journal's state and the dealer's round and
 * shoe (fd_dealer's persist, round and shoe; all non-NULL), which the hooks
 * read and fd_persist_mount restores. The caller passes them at each call;
 * the journal keeps no pointer to them. */
typedef struct fd_persist_ctx {
    fd_persist *persist;
    fd_round *round;
    fd_shoe *shoe;
} fd_persist_ctx;

/* Mount storage (NULL: keep nothing, return false) with storage_status
 * (hal_storage_open's), keyed by secret (fd_persist_journal_key), kick
 * called in long walks (NULL: none), and replay it: round ids, the open
 * round (restored into j->round and j->shoe, dealing after the last
 * journalled card), the seed file and the event window. Returns true when
 * an open round was restored. */
bool fd_persist_mount(const fd_persist_ctx *j, const fd_flash *storage, fd_status storage_status,
                      const fd_device_secret *secret, void (*kick)(void *ctx));

/* POWER_ON (reset_cause: fd_dealer_config's) and the start-up SELFTEST
 * result, after mount. */
void fd_persist_power_on(const fd_persist_ctx *j, uint8_t reset_cause, fd_status selftest);

/* An event (FD_REC_FAULT, FD_REC_SELFTEST): a status and a detail. Best
 * effort: a failure latches persist.status like any failed write. */
void fd_persist_event(const fd_persist_ctx *j, uint8_t type, fd_status st, uint16_t detail);

/* TIME (fd_dealer_time): unix_s (> 0) journalled once per round and
 * power-on; later events carry it. Errors: FD_ERR_EMPTY (0),
 * FD_ERR_NOT_READY (the journal). */
FD_MUST_CHECK fd_status fd_persist_time(const fd_persist_ctx *j, uint32_t unix_s);

/* Bytes the journal holds of round_id's hand records (fd_rec_hand_type),
 * as compaction copies them; 0 for a round older than the newest
 * FD_PERSIST_HAND_RING or without records. */
uint32_t fd_persist_hand_bytes(const fd_persist *p, uint32_t round_id);

/* What compaction must keep once round_id opens, but that round's own
 * records (docs/RECORDS.md "Capacity"): the fixed part (events, seed
 * file, reserved types), the summaries of the rounds before it and the
 * revealed hands kept in full, as journalled (fd_persist_hand_bytes). */
uint32_t fd_persist_kept_before(const fd_persist *p, uint32_t round_id);

/* SHUFFLE's reservation (docs/RECORDS.md "Capacity"), before anything of
 * the round is drawn or written: FD_OK when fd_persist_kept_before(round_id)
 * and the round at its worst case (FD_REC_CAP_HAND_OF its parts, `slots`
 * seed slots and j->shoe's cards, and its REVEAL) fit the area's room
 * (FD_REC_CAP_ROOM); FD_ERR_BUFFER_TOO_SMALL when not. mode and
 * secret_len as fd_persist_round_opened's. Changes nothing; a dealer without
 * storage: FD_OK. */
FD_MUST_CHECK fd_status fd_persist_reserve(const fd_persist_ctx *j, uint32_t round_id, uint8_t mode, size_t secret_len,
                                           unsigned slots);

/* Before SHUFFLE replies, a verifiable round with a beacon first: the
 * beacon index its slot used (BEACON_INDEX, docs/PROTOCOL.md "SHUFFLE"),
 * then the round's reveal material (ROUND: S in
 * j->round->secret; DRBG/FULL: salt and j->shoe's order) as ROUND_SECRET
 * parts, then ROUND_OPENED. header is the verifiable round's, NULL for
 * DRBG/FULL. First fd_persist_reserve (slots: header's slot mask):
 * FD_ERR_BUFFER_TOO_SMALL and nothing written when it refuses; before it,
 * FD_ERR_TOO_LARGE and nothing written when the material fills no part or
 * more than FD_REC_MAX_PARTS (a ROUND secret_len of 0 or over
 * FD_REC_MAX_PARTS x FD_REC_SECRET_PART bytes). */
FD_MUST_CHECK fd_status fd_persist_round_opened(const fd_persist_ctx *j, uint32_t round_id, uint8_t mode,
                                                const fd_round_header *header, size_t secret_len,
                                                const uint8_t salt[16], const uint8_t commitment[FD_SHA256_SIZE]);

/* Before CUT replies: the cut card's position, journalled while a round is
 * open (the replay restores the newest). FD_ERR_BUFFER_TOO_SMALL (nothing
 * written) after FD_REC_CUTS_MAX of them in one round. */
FD_MUST_CHECK fd_status fd_persist_cut(const fd_persist_ctx *j, uint16_t cut);

/* Before SEED replies: the client seed. */
FD_MUST_CHECK fd_status fd_persist_client_seed(const fd_persist_ctx *j, unsigned slot, const uint8_t *seed, size_t len);

/* Before CLOSE fixes the order with slots unfilled. */
FD_MUST_CHECK fd_status fd_persist_seeds_closed(const fd_persist_ctx *j);

/* Before DEAL/BURN replies: cards [first, first + total) of j->shoe's
 * order, card k to seat k mod players (burn: one card, seat 0). */
FD_MUST_CHECK fd_status fd_persist_dealt(const fd_persist_ctx *j, uint16_t first, unsigned total, unsigned players,
                                         bool burn);

/* Before the link uses a session counter of a new block: LINK_SESSION
 * with limit (above p->link_limit), then p->link_limit = limit.
 * Errors: FD_ERR_STATE (limit not above), FD_ERR_NOT_READY (the journal). */
FD_MUST_CHECK fd_status fd_persist_link_reserve(fd_persist *p, uint64_t limit);

/* True when every slot of the verifiable round's slot_mask holds a seed
 * (the order is then fixed without a CLOSE). */
bool fd_persist_seeds_complete(const fd_round *r);

/* Before REVEAL replies: the REVEAL summary (id, commitment, hash of the
 * material, cards dealt). The material stays in the ROUND_SECRET parts,
 * public from then on; RECALL shows it. */
FD_MUST_CHECK fd_status fd_persist_reveal(const fd_persist_ctx *j);

/* The seq of the n-th newest event the journal keeps (FD_REC_EVENTS_KEPT
 * of them; n >= 1), or of the oldest when there are fewer; 0: none. */
uint32_t fd_persist_event_floor(const fd_persist *p, uint32_t n);

/* The open round's i-th (from 0) range of positions skipped at power
 * loss, in position order (docs/PROTOCOL.md "Power loss"): true and the
 * range, or false past the last. */
bool fd_persist_skipped(const fd_persist *p, uint32_t i, uint16_t *first, uint16_t *count);

/* The last beacon index of beacon slot `slot` (fd_dealer_beacon_last). */
bool fd_persist_beacon_last(const fd_persist *p, unsigned slot, uint64_t *index);

/* The seed file (fd_dealer_seed_file_read, fd_dealer_seed_file_write:
 * the same contract). */
FD_MUST_CHECK fd_status fd_persist_seed_file_read(const fd_persist *p, uint8_t *out, size_t size, size_t *len);
FD_MUST_CHECK fd_status fd_persist_seed_file_write(fd_persist *p, const uint8_t *seed, size_t len);

/* The chain head and next seq, and a walk of the live records
 * (fd_dealer_journal_head, fd_dealer_journal_walk: the same contract). */
FD_MUST_CHECK fd_status fd_persist_journal_head(const fd_persist *p, uint8_t head[FD_SHA256_SIZE], uint32_t *next_seq);
FD_MUST_CHECK fd_status fd_persist_journal_walk(fd_persist *p, fd_journal_visit_fn visit, void *ctx);

#endif
