/* The dealer's game core: one state machine over the shoe, the entropy
 * pipeline and the round's commitment. Commands are typed calls with typed
 * results; no text. A transport (the console's text protocol in
 * protocol.h, a binary framing, ...) parses its input, calls these, and
 * formats the results. Board-independent: the raw TRNG comes in as a
 * callback. The states and the transition table are documented in
 * docs/PROTOCOL.md. */
#ifndef FD_DEALER_H
#define FD_DEALER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device_secret.h"
#include "fairdeal/combined.h"
#include "fairdeal/commit.h"
#include "fairdeal/deck.h"
#include "fairdeal/drbg.h"
#include "fairdeal/entropy.h"
#include "fairdeal/fullentropy.h"
#include "fairdeal/link.h"
#include "fairdeal/roots.h"
#include "fairdeal/round.h"
#include "fairdeal/version.h"
#include "dealer_round.h"
#include "persist.h"

/* Rounds (of any mode) between two rewrites of the seed file, besides the
 * rewrite at every start: a seed file is at most 16 rounds old when power
 * fails, and the journal takes one 32-byte record per 16 rounds. */
#define FD_DEALER_SEED_FILE_PERIOD 16u

/* Where a round's randomness comes from (docs/ENTROPY.md). */
typedef enum fd_round_source {
    FD_SOURCE_COMBINED = 0, /* default: conditioned TRNG XOR the DRBG (fairdeal/combined.h) */
    FD_SOURCE_DRBG = 1,     /* the DRBG alone, reseeded from a fresh window (SHUFFLE drbg) */
    FD_SOURCE_FULL = 2      /* the conditioned TRNG alone (SHUFFLE full) */
} fd_round_source;

/* Whether the seed file written at the last start or period is durable. */
typedef enum fd_seed_file_state {
    FD_SEED_FILE_NONE = 0,   /* no journal (development builds only) */
    FD_SEED_FILE_SAVED = 1,  /* the newest seed file is durable */
    FD_SEED_FILE_UNSAVED = 2 /* the last write failed (a release build faults) */
} fd_seed_file_state;

/* (Re)initialise the raw source before start-up tests, e.g. the driver's
 * recovery sequence after a hardware error. */
typedef fd_status (*fd_source_restart_fn)(void *ctx);

typedef struct fd_dealer_config {        /* pointers, then words, then bytes: no padding */
    fd_sample_read_fn read_samples;      /* the board's raw TRNG */
    fd_source_restart_fn restart_source; /* optional; called by init and SELFTEST */
    void *read_ctx;
    const char *board;
    const char *trng_name;
    /* The board's SECRET flash page (device_secret.h); NULL: none. */
    const fd_flash *secret_page;
    /* The journal's flash (hal_storage_open of the board's STORAGE area):
     * mounted and replayed by fd_dealer_init. NULL: the dealer keeps
     * nothing (library tests and benchmarks only; firmware always has one). */
    const fd_flash *storage;
    const char *storage_name; /* for the banner */
    /* Kicks the board's watchdog (NULL: none): called inside every long
     * journal walk and compaction (fd_journal_set_kick). */
    void (*kick)(void *ctx);
    /* The running signed image as the bootloader checked it (docs/SECURITY.md
     * "Boot"), for STATUS: its version and the SHA-256 of header || body
     * (FD_SHA256_SIZE bytes). NULL: not started as a signed image. */
    const uint8_t *image_hash;
    fd_drbg_kind drbg_kind;
    fd_status storage_status; /* hal_storage_open's: not FD_OK fails every round closed */
    uint32_t image_version;
    uint16_t samples_per_block; /* raw samples per 256-bit conditioned block */
    fd_health_config health;    /* cutoffs for the board's assessed H */
    bool emulation_only;
    /* A release build: no test secret, a durable seed file, no lab mode. */
    bool release;
    bool storage_volatile; /* the store does not survive power-off: the banner says so */
    bool presence;         /* the provisioning button was held at start (hal_board_presence) */
    /* Why the chip last reset, for the POWER_ON record: 0 unknown, 1 power-on,
     * 2 pin, 3 watchdog, 4 software, 5 brown-out, 6 lockup. */
    uint8_t reset_cause;
} fd_dealer_config;

/* The rows of the transition table (firmware/dealer.c): one per command of
 * the core, FD_CMD_ANY for a transport's command that touches no state
 * (HELP, STATUS, MODE, VERIFY, TIME, RECALL, LOG: allowed in every state)
 * and FD_CMD_IDLE for one that must not run beside a round (allowed while
 * none is open, changing no state; the transport asks fd_dealer_admit). */
typedef enum fd_dealer_cmd {
    FD_CMD_ANY = 0,
    FD_CMD_NEW,
    FD_CMD_SHUFFLE,
    FD_CMD_DEAL,
    FD_CMD_BURN,
    FD_CMD_CUT,
    FD_CMD_REVEAL,
    FD_CMD_SELFTEST,
    FD_CMD_QUIT,
    FD_CMD_SEED,
    FD_CMD_CLOSE,
    FD_CMD_PROVISION,
    FD_CMD_LAB_RAW,
    FD_CMD_LAB_CARDS,
    FD_CMD_IDLE,
    FD_CMD_COUNT
} fd_dealer_cmd;

/* What the table says about a command in a state. */
typedef enum fd_verdict {
    FD_ALLOW = 0,    /* run it; on success go to `next` */
    FD_REFUSE_STATE, /* refused: FD_ERR_STATE, `why` says what to do */
    FD_REFUSE_FAULT  /* refused: the latched fault (fd_dealer_fault_status) */
} fd_verdict;

typedef struct fd_transition {
    fd_verdict verdict;
    fd_dealer_state next; /* after success; any entropy or memory fault goes to a FAULT state */
    const char *why;      /* FD_REFUSE_STATE: the reason, for the reply */
} fd_transition;

/* The dealer. Do not rely on the contents of this type: a transport calls
 * the functions below and reads what they return (README.md "The
 * firmware's layers"). Every transport (protocol.c, recall.c,
 * link_console.c, update.c) defines FD_DEALER_OPAQUE before any include,
 * so there the type is incomplete and a field read does not
 * compile; the board's main, the dealer's own files and the tests see the
 * contents (to hold a dealer, and to check it). */
#if defined(FD_DEALER_OPAQUE)
typedef struct fd_dealer fd_dealer;
#else
typedef struct fd_dealer {
    fd_dealer_config cfg;
    fd_entropy entropy;
    fd_drbg drbg;
    fd_fullentropy full;
    fd_shoe shoe;
    fd_round round;
    fd_status fault_status; /* why the fault state was entered */
    fd_health_failure fault_health;
    bool quit;
    /* the roots of trust and the default source (docs/ENTROPY.md "Device secret, seed file and the dealer") */
    fd_device_secret secret;
    fd_roots roots;       /* device secret + the newest seed file, mixed into instantiate and reseeds */
    fd_combined combined; /* the default round source */
    fd_seed_file_state seed_file;
    uint32_t seed_files_written;     /* since power-on */
    uint32_t rounds_since_seed_file; /* rounds begun since the last seed-file write */
    bool restart_required;           /* PROVISION wrote a secret: it takes effect at the next start */
    /* The write-ahead journal (persist.h). It points into this struct: a
     * dealer with storage is never copied (one without may be: tests). */
    fd_persist persist;
} fd_dealer;
#endif

/* Bind the configuration, run the known-answer and start-up self-tests and
 * instantiate the DRBG; a factory-order French deck is loaded. If a
 * self-test or the TRNG fails, the dealer starts in the fault state and the
 * status says why. Errors: FD_ERR_NULL; otherwise the fault status. */
fd_status fd_dealer_init(fd_dealer *d, const fd_dealer_config *cfg);

/* The transition table's entry for a command in a state (both in range). */
const fd_transition *fd_dealer_transition(fd_dealer_state state, fd_dealer_cmd cmd);

/* Whether the table lets cmd (in range) run in the dealer's state now:
 * FD_OK, FD_ERR_STATE (the reason: fd_dealer_refusal) or the latched
 * fault's status. A release build refuses lab mode (FD_CMD_LAB_RAW,
 * FD_CMD_LAB_CARDS) in every state. Changes nothing. Every command call
 * below checks it first; a transport asks it to refuse before it replies
 * in parts. */
fd_status fd_dealer_admit(const fd_dealer *d, fd_dealer_cmd cmd);

/* Why fd_dealer_admit answers FD_ERR_STATE for cmd (in range) now: the
 * release build's refusal, else the transition table's why (NULL when the
 * table allows it or refuses for the fault). */
const char *fd_dealer_refusal(const fd_dealer *d, fd_dealer_cmd cmd);

/* Every command call below takes a dealer that fd_dealer_init has set up
 * (precondition: d non-NULL) and first consults the table: a refused command
 * returns FD_ERR_STATE or the latched fault's status and changes nothing.
 * Otherwise an error return changes nothing, except that an entropy failure
 * (SHUFFLE, SELFTEST) or a memory check failure (FD_ERR_CORRUPT, DEAL and
 * BURN) latches the fault state; an open round stays open and revealable. */

/* A fresh shoe in factory order. Errors: FD_ERR_PARSE, FD_ERR_TOO_LARGE,
 * FD_ERR_EMPTY (fd_shoe_init's), refusals. */
fd_status fd_dealer_new(fd_dealer *d, fd_deck_kind kind, unsigned decks, unsigned jokers);

/* Shuffle the whole shoe and commit to the order (full: straight from the
 * conditioned TRNG, else the DRBG reseeded from a fresh window; both named
 * modes). Errors: refusals; fd_dealer_secret_ready's (nothing changes);
 * the source's error (the fault state is latched). */
fd_status fd_dealer_shuffle(fd_dealer *d, bool full);

/* Open a verifiable round (docs/VERIFY.md), the default round: S of
 * fd_round_secret_min(shoe) bytes from the combined source (conditioned
 * TRNG from a window read now XOR the DRBG), the commitment to
 * (device, id, shoe, slot_mask, beacon, S); slots 0..slots-1 then accept
 * one client seed each. beacon_slot (one of those slots, or
 * FD_ROUND_NO_BEACON with index 0) carries the public beacon value of index
 * beacon_index. slots 0 (house-only) closes the round at once. Errors:
 * refusals, FD_ERR_TOO_LARGE (slots above FD_ROUND_SLOTS), FD_ERR_BOUND
 * (beacon slot not accepted), FD_ERR_STATE (a beacon index not greater than
 * the last this device used in that slot: fd_dealer_beacon_last), the
 * source's error (fault latched, no round opened); nothing changes on an
 * error but the fault. */
fd_status fd_dealer_open_round(fd_dealer *d, unsigned slots, unsigned beacon_slot, uint64_t beacon_index);

/* The last beacon index a round of this device used in beacon slot `slot`
 * (journalled, kept across power cuts and compaction): true and *index,
 * or false when the slot has none. */
bool fd_dealer_beacon_last(const fd_dealer *d, unsigned slot, uint64_t *index);

/* Whether rounds may be drawn: FD_OK; FD_ERR_NOT_READY (no secret: a
 * release build not provisioned); FD_ERR_CORRUPT (the secret page is
 * damaged); FD_ERR_STATE (PROVISION wrote a secret: restart first). */
fd_status fd_dealer_secret_ready(const fd_dealer *d);

/* Write the device secret once (fd_device_secret_provision) into the
 * configured SECRET page; it takes effect at the next start, and until then
 * no round is drawn. A journal keyed with the test secret (development
 * builds) is erased: the next start formats it under the new key. *id: the
 * new device id. Errors: refusals (a round open), FD_ERR_NOT_READY (no
 * secret page bound), fd_device_secret_provision's (FD_ERR_STATE: written
 * before),
 * the flash's erase error (secret written; the journal then fails its
 * check until the area is erased). */
fd_status fd_dealer_provision(fd_dealer *d, const uint8_t secret[FD_DEVICE_SECRET_BYTES],
                              uint8_t id[FD_DEVICE_ID_BYTES]);

/* Lab mode (development builds only, no round open): count raw TRNG
 * samples straight from the source, one per byte, for offline SP 800-90B
 * assessment (health tests do not filter them; none is ever used for
 * output). Errors: FD_ERR_STATE (a release build), refusals (a round
 * open), FD_ERR_NULL, the source's error (no fault latched: lab data only). */
fd_status fd_dealer_lab_raw(fd_dealer *d, uint8_t *samples, size_t count);

/* Lab mode: count card indices uniform in [0, bound) from the default
 * (combined) source, begun afresh as a round is. Errors: as
 * fd_dealer_lab_raw (refused in the fault state too), FD_ERR_BOUND (bound
 * 0), fd_dealer_secret_ready's,
 * the source's (fault latched, as for a round). */
fd_status fd_dealer_lab_cards(fd_dealer *d, uint32_t bound, uint16_t *out, size_t count);

/* Fill client seed slot `slot` of the seeding round (1..FD_ROUND_SEED_MAX
 * bytes); the round closes when every accepted slot is filled. Errors:
 * refusals, FD_ERR_NULL, FD_ERR_EMPTY / FD_ERR_TOO_LARGE (length),
 * FD_ERR_BOUND (slot not accepted by the round), FD_ERR_EXHAUSTED (slot
 * already filled: a seed is never replaced). */
fd_status fd_dealer_seed(fd_dealer *d, unsigned slot, const uint8_t *seed, size_t len);

/* Close the seeding round: the order is fd_round_deal_order's, dealing
 * starts. Errors: refusals, FD_ERR_CORRUPT (memory check; fault latched). */
fd_status fd_dealer_close(fd_dealer *d);

/* Check memory (fd_dealer_check), then take count * players cards off the
 * top (the deal position moves on); *first is the position of the first.
 * The caller reads them with fd_dealer_card_at. Errors: refusals,
 * FD_ERR_NULL (first), FD_ERR_EMPTY / FD_ERR_TOO_LARGE (count 1..432,
 * players 1..8), FD_ERR_EXHAUSTED (not enough left; nothing dealt),
 * FD_ERR_CORRUPT. */
fd_status fd_dealer_deal(fd_dealer *d, unsigned count, unsigned players, uint16_t *first);

/* DEAL of one card, face down. Errors as fd_dealer_deal. */
fd_status fd_dealer_burn(fd_dealer *d);

/* Place the cut card (0 removes it). While a round is open a changed cut
 * is journalled first (docs/RECORDS.md CUT). Errors: FD_ERR_TOO_LARGE
 * (past the shoe), FD_ERR_BUFFER_TOO_SMALL (the round has journalled
 * FD_REC_CUTS_MAX cuts: the cut stays), FD_ERR_NOT_READY (the journal). */
fd_status fd_dealer_cut(fd_dealer *d, uint16_t cut);

/* End the open round: the order is published by the caller (the salt and
 * order stay readable: fd_dealer_card_at) and is never dealt from again.
 * A verifiable round still open for seeds is closed first (its order is a
 * function of S and the seeds, so no entropy is needed). Allowed in the
 * fault state. Errors: refusals. */
fd_status fd_dealer_reveal(fd_dealer *d);

/* Known-answer tests, source restart, start-up tests, a new DRBG; a pass
 * leaves the fault state. *samples: raw samples it read. Errors: refusals
 * (an open round), FD_ERR_NULL (samples), FD_ERR_KAT or the source's error
 * (fault latched). */
fd_status fd_dealer_selftest(fd_dealer *d, uint32_t *samples);

/* Ask the firmware to stop. Errors: refusals (an open round). */
fd_status fd_dealer_quit(fd_dealer *d);

/* Memory integrity: the shoe is a permutation of its composition
 * (fd_shoe_check) and the round fields match their checksum. FD_OK or
 * FD_ERR_CORRUPT; changes nothing (the caller decides to fail closed). */
fd_status fd_dealer_check(const fd_dealer *d);

/* Card at position i of the shoe's order (i < count). */
fd_card fd_dealer_card_at(const fd_dealer *d, uint16_t i);

/* TIME: the controller's wall clock (unix seconds, > 0), journalled; later
 * events carry it. Errors: FD_ERR_EMPTY (0), FD_ERR_NOT_READY (journal). */
FD_MUST_CHECK fd_status fd_dealer_time(fd_dealer *d, uint32_t unix_s);

/* The seed file (docs/ENTROPY.md): the newest one the journal held at
 * power-on, or the last written since. FD_OK with *len; errors:
 * FD_ERR_NULL, FD_ERR_NOT_READY (no journal), FD_ERR_EMPTY (none stored),
 * FD_ERR_BUFFER_TOO_SMALL. */
FD_MUST_CHECK fd_status fd_dealer_seed_file_read(const fd_dealer *d, uint8_t *out, size_t size, size_t *len);

/* Append a new seed file (1..FD_DEALER_SEED_FILE_MAX bytes) as the
 * journal's erasable secret; FD_OK means durable, and the previous one is
 * then wiped. Errors: FD_ERR_NULL, FD_ERR_EMPTY, FD_ERR_TOO_LARGE,
 * FD_ERR_NOT_READY (no journal, or a write failed: nothing acknowledged). */
FD_MUST_CHECK fd_status fd_dealer_seed_file_write(fd_dealer *d, const uint8_t *seed, size_t len);

/* The journal's chain head and next seq (STATUS, REVEAL). Errors:
 * FD_ERR_NULL, FD_ERR_NOT_READY (no journal mounted). */
FD_MUST_CHECK fd_status fd_dealer_journal_head(const fd_dealer *d, uint8_t head[FD_SHA256_SIZE], uint32_t *next_seq);

/* Verify the journal and visit its live records, oldest first (RECALL,
 * LOG). Errors: FD_ERR_NOT_READY (no journal mounted), the walk's. */
FD_MUST_CHECK fd_status fd_dealer_journal_walk(fd_dealer *d, fd_journal_visit_fn visit, void *ctx);

fd_dealer_state fd_dealer_get_state(const fd_dealer *d);
bool fd_dealer_in_fault(const fd_dealer *d);
bool fd_dealer_round_open(const fd_dealer *d);
/* Rounds committed and not yet revealed (0 or 1: none ever disappears). */
uint32_t fd_dealer_unrevealed_rounds(const fd_dealer *d);

/* ---- read-only views, for a transport's replies (d non-NULL, set up by
 * fd_dealer_init; a view is valid until the next command call) ---- */

/* The configuration fd_dealer_init bound. */
const fd_dealer_config *fd_dealer_get_config(const fd_dealer *d);

/* The shoe: kind, decks, count, cut and order (fd_shoe_remaining,
 * fd_shoe_reshuffle_due read it). */
const fd_shoe *fd_dealer_get_shoe(const fd_dealer *d);

/* The open or last round: id, mode, salt, commitment, the verifiable
 * round's header and seeds, and S (secret, secret_len: shown only once the
 * round is revealed), revealed_rounds. */
const fd_round *fd_dealer_get_round(const fd_dealer *d);

/* Why the fault state was entered (FD_OK: never since the last SELFTEST
 * pass), and the health test that failed (FD_HEALTH_NONE: none). */
fd_status fd_dealer_fault_status(const fd_dealer *d);
fd_health_failure fd_dealer_fault_health(const fd_dealer *d);

/* Where the device secret came from (device_secret.h). */
fd_secret_origin fd_dealer_secret_origin(const fd_dealer *d);

/* The device id (derived from the device secret): true and *id, or false
 * when there is no usable secret. */
bool fd_dealer_device_id(const fd_dealer *d, uint8_t id[FD_DEVICE_ID_BYTES]);

/* Whether the newest seed file is durable (STATUS seedfile=). */
fd_seed_file_state fd_dealer_seed_file_state(const fd_dealer *d);

/* Raw TRNG samples read and DRBG reseeds since power-on. */
uint32_t fd_dealer_raw_samples(const fd_dealer *d);
uint32_t fd_dealer_reseeds(const fd_dealer *d);

/* QUIT succeeded: the firmware stops after the reply. */
bool fd_dealer_quit_requested(const fd_dealer *d);

/* Whether a storage area was given (cfg.storage): else the dealer keeps
 * no journal and the journal calls answer FD_ERR_NOT_READY. */
bool fd_dealer_journal_attached(const fd_dealer *d);

/* FD_OK, or why the journal takes no more records (the mount's error, or
 * the first failed write: sticky until the next power-on). */
fd_status fd_dealer_journal_status(const fd_dealer *d);

/* The mount's findings: the first bad record when the status is
 * FD_ERR_CORRUPT (report->reason, seq, page). */
const fd_journal_report *fd_dealer_journal_report(const fd_dealer *d);

/* The seq of the n-th newest event the journal keeps (LOG n; n >= 1), or
 * of the oldest when it keeps fewer; 0: none. */
uint32_t fd_dealer_event_floor(const fd_dealer *d, uint32_t n);

/* The open round's i-th (from 0) range of positions skipped at power loss,
 * in position order (docs/PROTOCOL.md "Power loss"): true and the range,
 * or false past the last. */
bool fd_dealer_skipped(const fd_dealer *d, uint32_t i, uint16_t *first, uint16_t *count);

/* The link's keys from the device secret (fd_link_derive_keys: the PSK and
 * the ephemeral-key seed). Errors: fd_link_derive_keys's, FD_ERR_NOT_READY
 * (no usable secret). The caller wipes both. */
FD_MUST_CHECK fd_status fd_dealer_link_keys(const fd_dealer *d, uint8_t psk[FD_NOISE_PSK_SIZE],
                                            uint8_t eph_key[FD_SHA256_SIZE]);

/* The link's session counters below this may have been used (the newest
 * LINK_SESSION record; docs/LINK.md "Keys"). */
uint64_t fd_dealer_link_limit(const fd_dealer *d);

/* Before the link uses a session counter of a new block: journal limit
 * (above fd_dealer_link_limit) as LINK_SESSION. Errors: FD_ERR_STATE (not
 * above), FD_ERR_NOT_READY (the journal). */
FD_MUST_CHECK fd_status fd_dealer_link_reserve(fd_dealer *d, uint64_t limit);

/* The journal's next seq as this power-on found it (0: not mounted;
 * docs/RECORDS.md "Detecting a rollback"). */
uint32_t fd_dealer_power_on_seq(const fd_dealer *d);

/* The open round was recovered from the journal at power-on: true and
 * *position, the cards its journal recorded as dealt. */
bool fd_dealer_recovered(const fd_dealer *d, uint16_t *position);

#endif
