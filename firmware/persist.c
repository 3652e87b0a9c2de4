#include "persist.h"

#include <string.h>

#include "fairdeal/util.h"

/* The board's journal area holds the worst case of docs/RECORDS.md
 * "Capacity": the open round at its largest, at least 10 round summaries,
 * the events and the seed file, with what it keeps on top. */
_Static_assert(FD_REC_CAP_SUMMARIES(FD_DEALER_JOURNAL_PAGE_SIZE, FD_DEALER_JOURNAL_PAGES) >= 10u,
               "the board's storage area cannot hold the journal's worst case (docs/RECORDS.md \"Capacity\")");
_Static_assert(FD_REC_CAP_PAGES(FD_DEALER_JOURNAL_PAGE_SIZE, FD_DEALER_JOURNAL_PAGES, FD_DEALER_KEEP_SUMMARIES,
                                FD_DEALER_KEEP_HANDS - 1u) <= FD_DEALER_JOURNAL_PAGES,
               "what the dealer keeps fits its storage area");
_Static_assert(FD_DEALER_KEEP_HANDS <= FD_PERSIST_HAND_RING, "the hand bytes of every round kept in full are counted");
_Static_assert(FD_DEALER_SECRET_MAX <= 7u * FD_REC_SECRET_PART && FD_DEALER_MAX_PLAYERS <= 15u,
               "the capacity model's parts and the DEALT record's seats cover the dealer's limits");

/* ---- the key ---- */

fd_status fd_persist_journal_key(const fd_device_secret *secret, uint8_t key[FD_SHA256_SIZE])
{
    return fd_device_key(secret, "journal", key);
}

/* ---- a round's reveal material: S, or the salt and the order ---- */

static size_t material_len(uint8_t mode, size_t secret_len, uint16_t count)
{
    return mode == FD_RECORD_MODE_ROUND ? secret_len : FD_COMMIT_SALT_SIZE + 2u * (size_t)count;
}

/* Byte i of the material of d's round (salt: the DRBG/FULL round's). */
static uint8_t material_at(const fd_persist_ctx *j, uint8_t mode, const uint8_t *salt, size_t i)
{
    if (mode == FD_RECORD_MODE_ROUND) {
        return j->round->secret[i];
    }
    if (i < FD_COMMIT_SALT_SIZE) {
        return salt[i];
    }
    i -= FD_COMMIT_SALT_SIZE;
    const fd_card c = j->shoe->order[i / 2u];
    return (uint8_t)(i % 2u == 0u ? c : c >> 8);
}

/* Replay: byte i of the material into d's round; false when out of range. */
static bool material_set(const fd_persist_ctx *j, uint8_t mode, size_t i, uint8_t v)
{
    if (mode == FD_RECORD_MODE_ROUND) {
        if (i >= sizeof j->round->secret) {
            return false;
        }
        j->round->secret[i] = v;
        return true;
    }
    if (i < FD_COMMIT_SALT_SIZE) {
        j->round->salt[i] = v;
        return true;
    }
    i -= FD_COMMIT_SALT_SIZE;
    if (i / 2u >= (size_t)FD_SHOE_MAX_CARDS) {
        return false;
    }
    fd_card *c = &j->shoe->order[i / 2u];
    *c = (fd_card)(i % 2u == 0u ? ((*c & 0xFF00u) | v) : ((*c & 0x00FFu) | ((unsigned)v << 8)));
    return true;
}

static void material_hash(const fd_persist_ctx *j, uint8_t mode, size_t len, uint8_t out[FD_SHA256_SIZE])
{
    fd_sha256_ctx h;
    fd_sha256_init(&h);
    for (size_t i = 0; i < len; i++) {
        const uint8_t b = material_at(j, mode, j->round->salt, i);
        fd_sha256_update(&h, &b, 1);
    }
    fd_sha256_final(&h, out);
}

/* ---- appends ---- */

/* The codec's structs for one record at a time, off the micro:bit's stack
 * and shared (the dealer is one; never two records at once). */
static union {
    fd_rec_round_opened opened;
    fd_rec_dealt dealt;
} one;

/* Keeps the FD_REC_EVENTS_PER_KIND highest seqs of each event kind (the
 * walk is not in seq order); that kind's floor is the lowest of them. */
static void note_event(fd_persist *p, fd_rec_event_kind kind, uint32_t seq)
{
    uint32_t *ev = p->events[kind];
    unsigned low = 0;
    for (unsigned i = 1; i < FD_REC_EVENTS_PER_KIND; i++) {
        if (ev[i] < ev[low]) {
            low = i;
        }
    }
    if (seq > ev[low]) {
        ev[low] = seq;
    }
    uint32_t floor = UINT32_MAX;
    for (unsigned i = 0; i < FD_REC_EVENTS_PER_KIND; i++) {
        if (ev[i] != 0u && ev[i] < floor) {
            floor = ev[i];
        }
    }
    p->rules.event_floor[kind] = floor;
}

/* A hand record of round id took `bytes` (docs/RECORDS.md "Capacity"):
 * counted in the ring of the newest rounds (records come in any order
 * at replay: an older round's entry gives way to a newer id). */
static void note_hand(fd_persist *p, uint32_t id, uint32_t bytes)
{
    const uint32_t i = id % FD_PERSIST_HAND_RING;
    if (id > p->hand_round[i]) {
        p->hand_round[i] = id;
        p->hand_bytes[i] = 0;
    }
    if (id == p->hand_round[i]) {
        p->hand_bytes[i] += bytes;
    }
}

/* A record of type with payload[0..len) and a secret of secret_len: when
 * it belongs to a round's hand, its bytes as compaction copies them. */
static void note_record(fd_persist *p, uint8_t type, const uint8_t *payload, size_t len, size_t secret_len)
{
    uint32_t id = 0;
    if (fd_rec_hand_type(type) && fd_rec_round_id(payload, len, &id) == FD_OK) {
        note_hand(p, id, fd_journal_record_size(len, secret_len, true));
    }
}

uint32_t fd_persist_hand_bytes(const fd_persist *p, uint32_t round_id)
{
    const uint32_t i = round_id % FD_PERSIST_HAND_RING;
    return round_id != 0u && p->hand_round[i] == round_id ? p->hand_bytes[i] : 0u;
}

uint32_t fd_persist_kept_before(const fd_persist *p, uint32_t round_id)
{
    const uint32_t before = round_id > 0u ? round_id - 1u : 0u;
    // cppcheck-suppress unsignedLessThanZero ; the capacity model's macros compare constant 0u sizes
    uint32_t kept = FD_REC_CAP_FIXED + FD_REC_CAP_MIN(fd_persist_keep_summaries, before) * FD_REC_CAP_SUMMARY;
    for (uint32_t age = 1; age < fd_persist_keep_hands && age <= before; age++) {
        kept += fd_persist_hand_bytes(p, round_id - age);
    }
    return kept;
}

fd_status fd_persist_reserve(const fd_persist_ctx *j, uint32_t round_id, uint8_t mode, size_t secret_len,
                             unsigned slots)
{
    const fd_persist *p = j->persist;
    if (!p->attached) {
        return FD_OK;
    }
    const size_t len = material_len(mode, secret_len, j->shoe->count);
    const uint32_t parts = (uint32_t)((len + FD_REC_SECRET_PART - 1u) / FD_REC_SECRET_PART);
    const fd_flash_geometry *g = &p->flash.geometry;
    // cppcheck-suppress unsignedLessThanZero ; the capacity model's macros compare constant 0u sizes
    const uint32_t room = FD_REC_CAP_ROOM(g->page_size, g->page_count);
    // cppcheck-suppress unsignedLessThanZero ; the capacity model's macros compare constant 0u sizes
    const uint32_t round = FD_REC_CAP_HAND_OF(parts, slots, (uint32_t)j->shoe->count) + FD_REC_CAP_SUMMARY;
    return fd_persist_kept_before(p, round_id) + round <= room ? FD_OK : FD_ERR_BUFFER_TOO_SMALL;
}

/* One record, or the journal's latched error as FD_ERR_NOT_READY. */
static fd_status append(fd_persist *p, uint8_t type, const uint8_t *payload, size_t len, const uint8_t *secret,
                        size_t secret_len, uint32_t *seq)
{
    uint32_t s = 0;
    if (p->attached) {
        if (p->status != FD_OK) {
            return FD_ERR_NOT_READY;
        }
        const fd_status st = fd_journal_append(&p->journal, type, payload, len, secret, secret_len, &s);
        if (st != FD_OK) {
            p->status = st;
            return FD_ERR_NOT_READY;
        }
        fd_rec_event_kind kind = FD_REC_KIND_POWER_ON;
        if (fd_rec_event_kind_of(type, &kind)) {
            note_event(p, kind, s);
        }
        note_record(p, type, payload, len, secret_len);
    }
    if (seq != NULL) {
        *seq = s;
    }
    return FD_OK;
}

/* A wipe that fails latches the error (the record was already durable).
 * FD_ERR_STATE is "gone already" unless the journal failed: then it is the
 * driver's (the STM32F4's flash error bits) and the secret is still there. */
static void wipe(fd_persist *p, uint32_t seq)
{
    if (p->attached && p->status == FD_OK && seq != 0u) {
        const fd_status st = fd_journal_wipe_secret(&p->journal, seq);
        if (st != FD_OK && (st != FD_ERR_STATE || p->journal.failed)) {
            p->status = st;
        }
    }
}

/* The wear budget (docs/RECORDS.md "Wear"): an event kind is journalled
 * once per round and power-on, and again only when its status changes;
 * the others of the same round and power-on stay in RAM (the next record
 * carries the time). True when this one is to be written. */
static bool event_due(const fd_persist_ctx *j, fd_rec_event_kind kind, uint16_t status)
{
    fd_persist *p = j->persist;
    const uint32_t epoch = j->round->id + 1u; /* 0: none this power-on */
    return p->event_epoch[kind] != epoch || p->event_status[kind] != status;
}

static void event_written(const fd_persist_ctx *j, fd_rec_event_kind kind, uint16_t status)
{
    j->persist->event_epoch[kind] = j->round->id + 1u;
    j->persist->event_status[kind] = status;
}

void fd_persist_event(const fd_persist_ctx *j, uint8_t type, fd_status st, uint16_t detail)
{
    fd_rec_event_kind kind = FD_REC_KIND_SELFTEST;
    if (!fd_rec_event_kind_of(type, &kind) || !event_due(j, kind, (uint16_t)st)) {
        return;
    }
    const fd_rec_event e = {(uint16_t)st, detail, j->persist->unix_s};
    uint8_t b[FD_REC_EVENT_SIZE];
    const size_t n = fd_rec_event_encode(&e, b);
    if (append(j->persist, type, b, n, NULL, 0, NULL) == FD_OK) { /* best effort: a failure is latched */
        event_written(j, kind, (uint16_t)st);
    }
}

void fd_persist_power_on(const fd_persist_ctx *j, uint8_t reset_cause, fd_status selftest)
{
    const fd_rec_power_on e = {reset_cause, j->persist->unix_s};
    uint8_t b[FD_REC_POWER_ON_SIZE];
    const size_t n = fd_rec_power_on_encode(&e, b);
    (void)append(j->persist, FD_REC_POWER_ON, b, n, NULL, 0, NULL); /* best effort: a failure is latched */
    fd_persist_event(j, FD_REC_SELFTEST, selftest, 0);
}

fd_status fd_persist_time(const fd_persist_ctx *j, uint32_t unix_s)
{
    if (unix_s == 0u) {
        return FD_ERR_EMPTY;
    }
    fd_status st = FD_OK;
    if (event_due(j, FD_REC_KIND_TIME_SET, 0)) {
        const fd_rec_time_set t = {unix_s};
        uint8_t b[FD_REC_TIME_SET_SIZE];
        const size_t n = fd_rec_time_set_encode(&t, b);
        st = append(j->persist, FD_REC_TIME_SET, b, n, NULL, 0, NULL);
        if (st == FD_OK) {
            event_written(j, FD_REC_KIND_TIME_SET, 0);
        }
    }
    if (st == FD_OK) {
        j->persist->unix_s = unix_s;
    }
    return st;
}

bool fd_persist_beacon_last(const fd_persist *p, unsigned slot, uint64_t *index)
{
    if (slot >= FD_ROUND_SLOTS || (p->beacon_used & (1u << slot)) == 0u) {
        return false;
    }
    *index = p->beacon_last[slot];
    return true;
}

fd_status fd_persist_link_reserve(fd_persist *p, uint64_t limit)
{
    const fd_rec_link_session ls = {limit};
    uint8_t b[FD_REC_LINK_SESSION_SIZE];
    uint32_t seq = 0;
    if (limit <= p->link_limit) {
        return FD_ERR_STATE;
    }
    const fd_status st = append(p, FD_REC_LINK_SESSION, b, fd_rec_link_session_encode(&ls, b), NULL, 0, &seq);
    if (st == FD_OK) {
        p->link_limit = limit;
        p->rules.link_seq = seq;
    }
    return st;
}

/* The beacon index a round uses in slot (docs/RECORDS.md BEACON_INDEX):
 * journalled first, so a SHUFFLE cut short still uses it up. */
static fd_status persist_beacon(const fd_persist_ctx *j, uint8_t slot, uint64_t index)
{
    fd_persist *p = j->persist;
    const fd_rec_beacon_index bi = {slot, index};
    uint8_t b[FD_REC_BEACON_INDEX_SIZE];
    uint32_t seq = 0;
    const fd_status st = append(j->persist, FD_REC_BEACON_INDEX, b, fd_rec_beacon_index_encode(&bi, b), NULL, 0, &seq);
    if (st == FD_OK) {
        p->beacon_used = (uint8_t)(p->beacon_used | (1u << slot));
        p->beacon_last[slot] = index;
        p->rules.beacon_seq[slot] = seq;
    }
    return st;
}

fd_status fd_persist_round_opened(const fd_persist_ctx *j, uint32_t round_id, uint8_t mode,
                                  const fd_round_header *header, size_t secret_len, const uint8_t salt[16],
                                  const uint8_t commitment[FD_SHA256_SIZE])
{
    fd_persist *p = j->persist;
    const size_t len = material_len(mode, secret_len, j->shoe->count);
    const size_t parts = (len + FD_REC_SECRET_PART - 1u) / FD_REC_SECRET_PART;
    if (parts == 0u || parts > FD_REC_MAX_PARTS) {
        return FD_ERR_TOO_LARGE; /* unreachable: FD_REC_MAX_PARTS covers the largest shoe */
    }
    unsigned slots = 0;
    for (unsigned i = 0; header != NULL && i < FD_ROUND_SLOTS; i++) {
        slots += (header->slot_mask >> i) & 1u;
    }
    const fd_status rs = fd_persist_reserve(j, round_id, mode, secret_len, slots);
    if (rs != FD_OK) {
        return rs; /* refused before anything is written: the round is never committed */
    }
    /* the round starts its hand count afresh (the parts of a SHUFFLE cut
     * short under the same id were wiped at power-on) */
    p->hand_round[round_id % FD_PERSIST_HAND_RING] = round_id;
    p->hand_bytes[round_id % FD_PERSIST_HAND_RING] = 0;
    if (header != NULL && header->beacon_slot < FD_ROUND_SLOTS) {
        const fd_status bs = persist_beacon(j, header->beacon_slot, header->beacon_index);
        if (bs != FD_OK) {
            return bs;
        }
    }
    p->rules.rounds.newest_round = round_id;
    fd_rec_round_opened *const o = &one.opened;
    memset(o, 0, sizeof *o);
    uint8_t part[FD_REC_SECRET_PART];
    fd_rec_round_secret head = {round_id, 0, (uint8_t)parts, mode};
    uint8_t hb[FD_REC_ROUND_SECRET_SIZE];
    fd_status st = FD_OK;
    for (size_t i = 0, at = 0; at < len && st == FD_OK; i++, at += FD_REC_SECRET_PART) {
        size_t n = len - at;
        if (n > FD_REC_SECRET_PART) {
            n = FD_REC_SECRET_PART;
        }
        for (size_t k = 0; k < n; k++) {
            part[k] = material_at(j, mode, salt, at + k);
        }
        head.part = (uint8_t)i;
        st = append(j->persist, FD_REC_ROUND_SECRET, hb, fd_rec_round_secret_encode(&head, hb), part, n,
                    &o->part_seq[i]);
    }
    fd_wipe(part, sizeof part);
    if (st != FD_OK) {
        return st;
    }
    o->round_id = round_id;
    o->mode = mode;
    o->kind = (uint8_t)j->shoe->kind;
    o->decks = j->shoe->decks;
    o->jokers = j->shoe->jokers;
    o->count = j->shoe->count;
    o->cut = j->shoe->cut;
    o->material_len = (uint16_t)len;
    o->parts = (uint8_t)parts;
    o->time = p->unix_s;
    memcpy(o->commitment, commitment, FD_SHA256_SIZE);
    if (header != NULL) {
        o->slot_mask = header->slot_mask;
        o->device_id_len = header->device_id_len;
        memcpy(o->device_id, header->device_id, header->device_id_len);
        o->has_beacon = true;
        o->beacon_slot = header->beacon_slot;
        o->beacon_index = header->beacon_index;
    }
    uint8_t b[FD_REC_ROUND_OPENED_MAX];
    st = append(j->persist, FD_REC_ROUND_OPENED, b, fd_rec_round_opened_encode(o, b), NULL, 0, NULL);
    if (st == FD_OK) {
        p->round_cuts = 0;
        p->round_skipped = 0;
    }
    return st;
}

fd_status fd_persist_client_seed(const fd_persist_ctx *j, unsigned slot, const uint8_t *seed, size_t len)
{
    fd_rec_client_seed c = {j->round->id, (uint8_t)slot, (uint8_t)len, {0}};
    memcpy(c.seed, seed, len);
    uint8_t b[FD_REC_CLIENT_SEED_MAX];
    return append(j->persist, FD_REC_CLIENT_SEED, b, fd_rec_client_seed_encode(&c, b), NULL, 0, NULL);
}

fd_status fd_persist_seeds_closed(const fd_persist_ctx *j)
{
    const fd_rec_seeds_closed c = {j->round->id};
    uint8_t b[FD_REC_SEEDS_CLOSED_SIZE];
    return append(j->persist, FD_REC_SEEDS_CLOSED, b, fd_rec_seeds_closed_encode(&c, b), NULL, 0, NULL);
}

fd_status fd_persist_dealt(const fd_persist_ctx *j, uint16_t first, unsigned total, unsigned players, bool burn)
{
    if (j->persist->attached && j->persist->round_skipped >= FD_REC_SKIPPED_MAX) {
        return FD_ERR_BUFFER_TOO_SMALL; /* the round's reservation holds FD_REC_SKIPPED_MAX: REVEAL only */
    }
    fd_rec_dealt *const r = &one.dealt;
    uint8_t b[FD_REC_DEALT_MAX];
    fd_status st = FD_OK;
    for (unsigned k = 0; k < total && st == FD_OK; k += FD_REC_DEALT_CARDS_MAX) {
        unsigned n = total - k;
        if (n > FD_REC_DEALT_CARDS_MAX) {
            n = FD_REC_DEALT_CARDS_MAX;
        }
        r->round_id = j->round->id;
        r->first = (uint16_t)(first + k);
        r->cards = (uint16_t)n;
        r->players = burn ? 0u : (uint8_t)players;
        r->seat0 = burn ? 0u : (uint8_t)(k % players);
        r->kind = (uint8_t)j->shoe->kind;
        for (unsigned i = 0; i < n; i++) {
            r->card[i] = j->shoe->order[first + k + i];
        }
        st = append(j->persist, FD_REC_DEALT, b, fd_rec_dealt_encode(r, b), NULL, 0, NULL);
    }
    return st;
}

fd_status fd_persist_cut(const fd_persist_ctx *j, uint16_t cut)
{
    fd_persist *p = j->persist;
    if (p->attached && p->round_cuts >= FD_REC_CUTS_MAX) {
        return FD_ERR_BUFFER_TOO_SMALL; /* the round's reservation holds FD_REC_CUTS_MAX */
    }
    const fd_rec_cut c = {j->round->id, cut};
    uint8_t b[FD_REC_CUT_SIZE];
    const fd_status st = append(j->persist, FD_REC_CUT, b, fd_rec_cut_encode(&c, b), NULL, 0, NULL);
    p->round_cuts += st == FD_OK ? 1u : 0u;
    return st;
}

fd_status fd_persist_reveal(const fd_persist_ctx *j)
{
    /* the summary; S (or salt and order) stays in the round's ROUND_SECRET
     * parts, public from now on, until compaction drops the hand */
    const uint8_t mode = j->round->mode;
    const size_t len = material_len(mode, j->round->secret_len, j->shoe->count);
    fd_rec_reveal r = {j->round->id, mode, (uint16_t)len, j->persist->unix_s, {0}, {0}, j->shoe->position};
    memcpy(r.commitment, j->round->commitment, FD_SHA256_SIZE);
    material_hash(j, mode, len, r.material_hash);
    uint8_t b[FD_REC_REVEAL_SIZE];
    return append(j->persist, FD_REC_REVEAL, b, fd_rec_reveal_encode(&r, b), NULL, 0, NULL);
}

uint32_t fd_persist_event_floor(const fd_persist *p, uint32_t n)
{
    const uint32_t *seqs = &p->events[0][0];
    uint32_t floor = 0;
    uint32_t below = UINT32_MAX;
    for (uint32_t i = 1; i <= n; i++) {
        uint32_t next = 0; /* the i-th newest: the largest seq below the (i-1)-th */
        for (unsigned k = 0; k < FD_REC_EVENTS_KEPT; k++) {
            if (seqs[k] < below && seqs[k] > next) {
                next = seqs[k];
            }
        }
        if (next == 0u) {
            break;
        }
        floor = next;
        below = next;
    }
    return floor;
}

bool fd_persist_skipped(const fd_persist *p, uint32_t i, uint16_t *first, uint16_t *count)
{
    if (i >= p->round_skipped || i >= FD_REC_SKIPPED_MAX) {
        return false;
    }
    *first = p->skipped_first[i];
    *count = p->skipped_count[i];
    return true;
}

/* ---- the seed file ---- */

fd_status fd_persist_seed_file_read(const fd_persist *p, uint8_t *out, size_t size, size_t *len)
{
    if (out == NULL || len == NULL) {
        return FD_ERR_NULL;
    }
    if (!p->attached) {
        return FD_ERR_NOT_READY;
    }
    if (p->seed_file_len == 0u) {
        return FD_ERR_EMPTY;
    }
    if (size < p->seed_file_len) {
        return FD_ERR_BUFFER_TOO_SMALL;
    }
    memcpy(out, p->seed_file, p->seed_file_len);
    *len = p->seed_file_len;
    return FD_OK;
}

fd_status fd_persist_seed_file_write(fd_persist *p, const uint8_t *seed, size_t len)
{
    if (seed == NULL) {
        return FD_ERR_NULL;
    }
    if (len == 0u) {
        return FD_ERR_EMPTY;
    }
    if (len > FD_DEALER_SEED_FILE_MAX) {
        return FD_ERR_TOO_LARGE;
    }
    if (!p->attached) {
        return FD_ERR_NOT_READY;
    }
    const fd_rec_seed_file h = {(uint8_t)len};
    uint8_t b[FD_REC_SEED_FILE_SIZE];
    uint32_t seq = 0;
    const fd_status st = append(p, FD_REC_SEED_FILE, b, fd_rec_seed_file_encode(&h, b), seed, len, &seq);
    if (st != FD_OK) {
        return st;
    }
    const uint32_t old = p->rules.seed_file_seq;
    p->rules.seed_file_seq = seq;
    memcpy(p->seed_file, seed, len);
    p->seed_file_len = (uint8_t)len;
    wipe(p, old); /* the old seed file must not outlive its successor */
    return FD_OK;
}

/* ---- replay at power-on ---- */

bool fd_persist_seeds_complete(const fd_round *r)
{
    for (unsigned i = 0; i < FD_ROUND_SLOTS; i++) {
        if ((r->header.slot_mask & (1u << i)) != 0u && r->seeds.len[i] == 0u) {
            return false;
        }
    }
    return true;
}

/* One walk (fd_journal_mount_walk) collects what the replay needs; it
 * yields records in chain order, where a compaction copy stands at its new
 * place, so nothing here depends on order: the newest round is the highest
 * id of any round record, and what belongs to it is gathered by id. A
 * round is revealed when any REVEAL of its id exists, wherever compaction
 * put it (docs/RECORDS.md "Replay"). */
/* The open round's newest DEALT records: one deal writes up to this many
 * (FD_REC_DEALT_CARDS_MAX cards each). */
#define NEWEST_DEALT ((FD_SHOE_MAX_CARDS + FD_REC_DEALT_CARDS_MAX - 1u) / FD_REC_DEALT_CARDS_MAX)

typedef struct dealt_at {
    uint32_t seq; /* 0: none */
    uint16_t first;
    uint16_t cards;
    uint8_t players;
    uint8_t seat0;
} dealt_at;

typedef struct replay {
    const fd_persist_ctx *j;
    uint32_t newest_seq; /* the newest record of any kind */
    uint32_t round_id;   /* newest id among ROUND_OPENED, DEALT, CLIENT_SEED, SEEDS_CLOSED, CUT, REVEAL */
    bool opened;         /* its ROUND_OPENED read (decoded into `opened_rec`) */
    bool revealed;       /* a REVEAL of it exists */
    bool closed;         /* its order is fixed */
    bool retired;        /* it has a record of a retired layout: not resumed */
    bool has_cut;
    uint16_t position; /* cards of it journalled as dealt */
    uint16_t cut;      /* its newest CUT */
    uint32_t cut_seq;
    uint32_t cuts;    /* its CUT records */
    uint32_t skipped; /* its SKIPPED records */
    uint16_t skipped_first[FD_REC_SKIPPED_MAX];
    uint16_t skipped_count[FD_REC_SKIPPED_MAX];
    dealt_at dealt[NEWEST_DEALT]; /* its newest DEALT records, newest first */
    fd_rec_round_opened opened_rec;
    /* the newest round's reveal material from the available parts; a
     * SHUFFLE cut short leaves parts of a newer id, wiped after the walk */
    uint32_t part_round;
    uint8_t part_mode;
    uint32_t available; /* bit i: part i of part_round read back */
    uint32_t part_seq[FD_REC_MAX_PARTS];
    uint32_t seed_files; /* SEED_FILE records whose secret is available */
} replay;

static void replay_part(replay *r, const fd_journal_record *rec)
{
    fd_rec_round_secret h;
    if (rec->secret_state != FD_JOURNAL_SECRET_AVAILABLE ||
        fd_rec_round_secret_decode(rec->payload, rec->len, &h) != FD_OK || h.round_id < r->part_round) {
        return;
    }
    if (h.round_id > r->part_round) {
        r->part_round = h.round_id;
        r->part_mode = h.mode;
        r->available = 0;
    }
    bool fits = h.mode == r->part_mode;
    for (size_t k = 0; fits && k < rec->secret_len; k++) {
        fits = material_set(r->j, h.mode, (size_t)h.part * FD_REC_SECRET_PART + k, rec->secret[k]);
    }
    if (fits) {
        r->available |= 1u << h.part;
        r->part_seq[h.part] = rec->orig_seq;
    }
}

/* A round record of id (the newest so far, or older: ignored). */
static bool replay_round(replay *r, uint32_t id)
{
    if (id < r->round_id || id == 0u) {
        return false;
    }
    if (id > r->round_id) {
        r->round_id = id;
        r->opened = r->revealed = r->closed = r->retired = r->has_cut = false;
        r->position = 0;
        r->cut_seq = 0;
        r->cuts = 0;
        r->skipped = 0;
        memset(r->dealt, 0, sizeof r->dealt);
        (void)fd_round_seeds_clear(&r->j->round->seeds); /* cannot fail: never NULL */
    }
    return true;
}

/* Keeps the open round's NEWEST_DEALT highest-seq DEALT records, newest
 * first (the walk is not in seq order). */
static void note_dealt(replay *r, const dealt_at *at)
{
    unsigned i = 0;
    while (i < NEWEST_DEALT && r->dealt[i].seq > at->seq) {
        i++;
    }
    if (i == NEWEST_DEALT) {
        return;
    }
    memmove(&r->dealt[i + 1u], &r->dealt[i], (NEWEST_DEALT - 1u - i) * sizeof r->dealt[0]);
    r->dealt[i] = *at;
}

/* One SKIPPED record of the open round, kept in position order. */
static void note_skipped(replay *r, const fd_rec_skipped *k)
{
    if (r->skipped >= FD_REC_SKIPPED_MAX) {
        r->skipped++; /* more than a round may hold: counted, so it deals no further */
        return;
    }
    unsigned i = r->skipped;
    while (i > 0u && r->skipped_first[i - 1u] > k->first) {
        r->skipped_first[i] = r->skipped_first[i - 1u];
        r->skipped_count[i] = r->skipped_count[i - 1u];
        i--;
    }
    r->skipped_first[i] = k->first;
    r->skipped_count[i] = k->count;
    r->skipped++;
}

/* The positions of the open round's last deal when its DEALT records are
 * the newest records of the journal: nothing followed its write-ahead, so
 * its reply may never have gone out (docs/RECORDS.md "Replay"). The deal's
 * records are the newest DEALT and those just before it in seq that it
 * continues (a full FD_REC_DEALT_CARDS_MAX each, the same seats). False
 * when something else was journalled after the newest DEALT. */
static bool unacknowledged_deal(const replay *r, uint16_t *first, uint16_t *count)
{
    const dealt_at *n = &r->dealt[0];
    if (n->seq == 0u || n->seq != r->newest_seq) {
        return false;
    }
    unsigned i = 0;
    while (i + 1u < NEWEST_DEALT) {
        const dealt_at *prev = &r->dealt[i + 1u];
        const dealt_at *cur = &r->dealt[i];
        const bool continues =
            prev->seq != 0u && prev->seq + 1u == cur->seq && prev->cards == FD_REC_DEALT_CARDS_MAX &&
            prev->first + prev->cards == cur->first && prev->players == cur->players &&
            (prev->players == 0u || cur->seat0 == (prev->seat0 + FD_REC_DEALT_CARDS_MAX) % prev->players);
        if (!continues) {
            break;
        }
        i++;
    }
    *first = r->dealt[i].first;
    *count = (uint16_t)(n->first + n->cards - r->dealt[i].first);
    return true;
}

/* A BEACON_INDEX: the newest per slot is the last index used. */
static void replay_beacon(fd_persist *p, const fd_journal_record *rec)
{
    fd_rec_beacon_index bi;
    if (fd_rec_beacon_index_decode(rec->payload, rec->len, &bi) == FD_OK &&
        rec->orig_seq > p->rules.beacon_seq[bi.slot]) {
        p->beacon_used = (uint8_t)(p->beacon_used | (1u << bi.slot));
        p->beacon_last[bi.slot] = bi.index;
        p->rules.beacon_seq[bi.slot] = rec->orig_seq;
    }
}

/* A LINK_SESSION: the newest is the link's reserved limit. */
static void replay_link(fd_persist *p, const fd_journal_record *rec)
{
    fd_rec_link_session ls;
    if (fd_rec_link_session_decode(rec->payload, rec->len, &ls) == FD_OK && rec->orig_seq > p->rules.link_seq) {
        p->link_limit = ls.limit;
        p->rules.link_seq = rec->orig_seq;
    }
}

/* A SEED_FILE: the newest whose secret is still there is the seed file. */
static void replay_seed_file(replay *r, fd_persist *p, const fd_journal_record *rec)
{
    fd_rec_seed_file f;
    r->seed_files += rec->secret_state == FD_JOURNAL_SECRET_AVAILABLE;
    if (fd_rec_seed_file_decode(rec->payload, rec->len, &f) == FD_OK &&
        rec->secret_state == FD_JOURNAL_SECRET_AVAILABLE && rec->secret_len <= FD_DEALER_SEED_FILE_MAX &&
        rec->orig_seq > p->rules.seed_file_seq) {
        memcpy(p->seed_file, rec->secret, rec->secret_len);
        p->seed_file_len = (uint8_t)rec->secret_len;
        p->rules.seed_file_seq = rec->orig_seq;
    }
}

static fd_status replay_visit(void *ctx, const fd_journal_record *rec)
{
    replay *r = ctx;
    fd_persist *p = r->j->persist;
    const uint8_t *b = rec->payload;
    uint32_t id = 0;
    fd_rec_event_kind kind = FD_REC_KIND_POWER_ON;
    if (rec->orig_seq > r->newest_seq) {
        r->newest_seq = rec->orig_seq;
    }
    if (rec->type != FD_REC_ROUND_SECRET || rec->secret_state != FD_JOURNAL_SECRET_WIPED) {
        note_record(p, rec->type, b, rec->len, rec->secret_len); /* a wiped part is not kept */
    }
    if (fd_rec_event_kind_of(rec->type, &kind)) {
        note_event(p, kind, rec->orig_seq);
        return FD_OK;
    }
    if (rec->type == FD_REC_ROUND_SECRET) {
        replay_part(r, rec);
        return FD_OK;
    }
    if (rec->type == FD_REC_BEACON_INDEX) {
        replay_beacon(p, rec);
        return FD_OK;
    }
    if (rec->type == FD_REC_LINK_SESSION) {
        replay_link(p, rec);
        return FD_OK;
    }
    if (rec->type == FD_REC_SEED_FILE) {
        replay_seed_file(r, p, rec);
        return FD_OK;
    }
    const bool round_record = rec->type == FD_REC_ROUND_OPENED || rec->type == FD_REC_REVEAL ||
                              rec->type == FD_REC_DEALT || rec->type == FD_REC_CARDS_DEALT ||
                              rec->type == FD_REC_CLIENT_SEED || rec->type == FD_REC_SEEDS_CLOSED ||
                              rec->type == FD_REC_CUT || rec->type == FD_REC_SKIPPED;
    if (!round_record || fd_rec_round_id(b, rec->len, &id) != FD_OK || !replay_round(r, id)) {
        return FD_OK; /* an older round's (kept for RECALL), or not the dealer's record */
    }
    switch (rec->type) {
    case FD_REC_ROUND_OPENED: r->opened = fd_rec_round_opened_decode(b, rec->len, &r->opened_rec) == FD_OK; break;
    case FD_REC_REVEAL: r->revealed = true; break;
    case FD_REC_SEEDS_CLOSED: r->closed = true; break;
    case FD_REC_CLIENT_SEED: {
        fd_rec_client_seed c;
        if (fd_rec_client_seed_decode(b, rec->len, &c) == FD_OK) {
            memcpy(r->j->round->seeds.seed[c.slot], c.seed, c.len);
            r->j->round->seeds.len[c.slot] = c.len;
        }
        break;
    }
    case FD_REC_DEALT: {
        fd_rec_dealt *const t = &one.dealt;
        if (fd_rec_dealt_decode(b, rec->len, t) == FD_OK) {
            if (t->first + t->cards > r->position) {
                r->position = (uint16_t)(t->first + t->cards);
            }
            const dealt_at at = {rec->orig_seq, t->first, t->cards, t->players, t->seat0};
            note_dealt(r, &at);
        }
        break;
    }
    case FD_REC_SKIPPED: {
        fd_rec_skipped k;
        if (fd_rec_skipped_decode(b, rec->len, &k) == FD_OK) {
            note_skipped(r, &k);
        }
        break;
    }
    case FD_REC_CUT: {
        fd_rec_cut c;
        r->cuts++;
        if (fd_rec_cut_decode(b, rec->len, &c) == FD_OK && rec->orig_seq > r->cut_seq) {
            r->cut = c.cut;
            r->cut_seq = rec->orig_seq;
            r->has_cut = true;
        }
        break;
    }
    default: r->retired = true; break; /* CARDS_DEALT: its cards, not where dealing stopped */
    }
    return FD_OK;
}

/* A verifiable round's header from its ROUND_OPENED; false when a seed
 * read back stands in a slot the round does not have. */
static bool restore_round_header(replay *r, const fd_rec_round_opened *o)
{
    const fd_persist_ctx *j = r->j;
    fd_round_header *h = &j->round->header;
    h->device_id_len = o->device_id_len;
    memcpy(h->device_id, o->device_id, o->device_id_len);
    h->round_id = r->round_id;
    h->kind = j->shoe->kind;
    h->decks = j->shoe->decks;
    h->jokers = j->shoe->jokers;
    h->slot_mask = o->slot_mask;
    h->beacon_slot = o->beacon_slot;
    h->beacon_index = o->beacon_index;
    for (unsigned i = 0; i < FD_ROUND_SLOTS; i++) {
        if (j->round->seeds.len[i] != 0u && (o->slot_mask & (1u << i)) == 0u) {
            return false;
        }
    }
    r->closed = r->closed || fd_persist_seeds_complete(j->round);
    return true;
}

/* The open round, restored: its commitment checks against what was read
 * back, the order is re-derived and dealing goes on after the last card
 * the journal holds. */
static bool restore_open_round(replay *r)
{
    const fd_persist_ctx *j = r->j;
    fd_shoe *s = j->shoe;
    const fd_rec_round_opened *o = &r->opened_rec;
    uint8_t check[FD_SHA256_SIZE];
    bool parts_ok =
        r->part_round == r->round_id && r->part_mode == o->mode && r->available == (1u << o->parts) - 1u && !r->retired;
    for (unsigned i = 0; parts_ok && i < o->parts; i++) {
        parts_ok = r->part_seq[i] == o->part_seq[i];
    }
    if (!parts_ok) {
        return false;
    }
    const size_t secret_len = o->material_len;
    j->round->id = r->round_id;
    j->round->mode = o->mode;
    memcpy(j->round->commitment, o->commitment, FD_SHA256_SIZE);
    s->kind = (fd_deck_kind)o->kind;
    s->decks = o->decks;
    s->jokers = o->jokers;
    s->count = o->count;
    s->cut = r->has_cut ? r->cut : o->cut;
    memset(&j->round->header, 0, sizeof j->round->header);
    if (o->mode == FD_RECORD_MODE_ROUND) {
        if (!restore_round_header(r, o)) {
            return false;
        }
    } else {
        r->closed = true;
    }
    uint16_t per_deck = 0;
    bool ok = fd_deck_size(s->kind, s->jokers, &per_deck) == FD_OK && s->decks >= 1u && s->decks <= FD_SHOE_MAX_DECKS &&
              s->count == per_deck * s->decks;
    if (ok && j->round->mode == FD_RECORD_MODE_ROUND) {
        j->round->secret_len = (uint16_t)secret_len;
        ok = secret_len <= FD_DEALER_SECRET_MAX &&
             fd_round_commit(&j->round->header, j->round->secret, secret_len, check) == FD_OK &&
             memcmp(check, j->round->commitment, sizeof check) == 0;
        const uint16_t cut = s->cut;
        if (ok) {
            /* canonical order until the seeds close; then the derived one */
            ok = r->closed ? fd_round_deal_order(&j->round->header, j->round->secret, secret_len, &j->round->seeds, s,
                                                 NULL) == FD_OK
                           : fd_shoe_init(s, s->kind, s->decks, s->jokers) == FD_OK;
            s->cut = cut;
        }
    } else if (ok) {
        s->position = 0;
        s->shuffled = true;
        ok = fd_shoe_check(s) == FD_OK && secret_len == material_len(j->round->mode, 0, s->count) &&
             fd_commit_compute(j->round->salt, s->order, s->count, s->kind, check) == FD_OK &&
             memcmp(check, j->round->commitment, sizeof check) == 0;
    }
    ok = ok && r->position <= s->count;
    if (!ok) {
        return false;
    }
    j->round->closed = r->closed;
    j->persist->round_cuts = r->cuts;
    s->position = r->position;
    j->round->revealed_rounds = j->round->id - 1u;
    j->round->state = r->closed ? FD_DEALER_ROUND_OPEN : FD_DEALER_SEEDING;
    j->persist->recovered = true;
    j->persist->recovered_position = r->position;
    return true;
}

/* Seed files whose secret is still there besides the newest (a power cut
 * between a seed file's append and its predecessor's wipe), a few per walk. */
typedef struct stale_seed_files {
    uint32_t newest; /* the seed file the replay took */
    unsigned n;
    uint32_t seq[4];
} stale_seed_files;

static fd_status collect_stale_seed_file(void *ctx, const fd_journal_record *rec)
{
    stale_seed_files *s = ctx;
    if (rec->type == FD_REC_SEED_FILE && rec->secret_state == FD_JOURNAL_SECRET_AVAILABLE &&
        rec->orig_seq != s->newest && s->n < sizeof s->seq / sizeof s->seq[0]) {
        s->seq[s->n++] = rec->orig_seq;
    }
    return FD_OK;
}

/* After the replay: every seed file older than the one it took is wiped
 * (docs/RECORDS.md "Replay"); a seed file must not outlive its successor.
 * At most 16 walks of 4 wipes per power-on (one cut leaves one behind). */
static void wipe_superseded_seed_files(const fd_persist_ctx *j)
{
    fd_persist *p = j->persist;
    stale_seed_files s = {p->rules.seed_file_seq, 0, {0}};
    for (unsigned pass = 0; pass < 16u && p->status == FD_OK; pass++) {
        s.n = 0;
        const fd_status st = fd_journal_walk(&p->journal, collect_stale_seed_file, &s, NULL);
        if (st != FD_OK) {
            p->status = st;
            return;
        }
        for (unsigned i = 0; i < s.n; i++) {
            wipe(j->persist, s.seq[i]);
        }
        if (s.n < sizeof s.seq / sizeof s.seq[0]) {
            return;
        }
    }
}

/* After the replay and its wipes: the open round's last deal, when nothing
 * was journalled after it, gets its SKIPPED record (docs/RECORDS.md
 * "Replay"). A failed append is latched: the round then deals no more. */
static void mark_skipped(const fd_persist_ctx *j, replay *r)
{
    fd_persist *p = j->persist;
    fd_rec_skipped k = {j->round->id, 0, 0};
    uint8_t b[FD_REC_SKIPPED_SIZE];
    if (p->status == FD_OK && r->skipped < FD_REC_SKIPPED_MAX && unacknowledged_deal(r, &k.first, &k.count) &&
        append(j->persist, FD_REC_SKIPPED, b, fd_rec_skipped_encode(&k, b), NULL, 0, NULL) == FD_OK) {
        note_skipped(r, &k);
    }
    p->round_skipped = r->skipped;
    memcpy(p->skipped_first, r->skipped_first, sizeof r->skipped_first);
    memcpy(p->skipped_count, r->skipped_count, sizeof r->skipped_count);
}

static void report(fd_persist *p, fd_status st, const char *reason)
{
    p->status = st;
    p->report.status = st;
    p->report.reason = reason;
}

/* The keep counts of docs/RECORDS.md "Capacity", evaluated once here (the
 * capacity model's macros are large constant expressions). */
// cppcheck-suppress unsignedLessThanZero ; a constant expression of the capacity model, where a small area keeps 0
const uint32_t fd_persist_keep_hands = FD_DEALER_KEEP_HANDS;
// cppcheck-suppress unsignedLessThanZero ; a constant expression of the capacity model, where a small area keeps 0
const uint32_t fd_persist_keep_summaries = FD_DEALER_KEEP_SUMMARIES;

/* The journal over the board's area, keyed by the device secret. */
static fd_status mount_open(const fd_persist_ctx *j, fd_status storage_status, const fd_device_secret *secret,
                            void (*kick)(void *ctx))
{
    fd_persist *p = j->persist;
    uint8_t key[FD_SHA256_SIZE];
    fd_status st = storage_status;
    if (st == FD_OK && fd_persist_journal_key(secret, key) != FD_OK) {
        report(p, FD_ERR_NOT_READY, "no device secret: no journal key");
        return FD_ERR_NOT_READY;
    }
    if (st == FD_OK && (p->flash.geometry.page_count > FD_DEALER_JOURNAL_PAGES ||
                        p->flash.geometry.page_size != FD_DEALER_JOURNAL_PAGE_SIZE)) {
        st = FD_ERR_TOO_LARGE; /* not the area the capacity model was checked for */
    }
    if (st == FD_OK) {
        st = fd_journal_init(&p->journal, &p->flash, key, sizeof key, p->pages, fd_records_keep_rules, &p->rules);
    }
    if (st == FD_OK) {
        fd_journal_set_kick(&p->journal, kick, NULL); /* a full area's walk outlasts a watchdog period */
    }
    fd_wipe(key, sizeof key);
    if (st != FD_OK) {
        report(p, st, "storage area unusable");
    }
    return st;
}

/* What the replay took from the records before a bad one: nothing of a
 * journal that failed is used. */
static void forget_replay(const fd_persist_ctx *j, replay *r)
{
    fd_persist *p = j->persist;
    fd_wipe(p->seed_file, sizeof p->seed_file);
    p->seed_file_len = 0;
    p->rules.seed_file_seq = 0;
    memset(p->events, 0, sizeof p->events);
    memset(p->rules.event_floor, 0, sizeof p->rules.event_floor);
    p->beacon_used = 0;
    memset(p->beacon_last, 0, sizeof p->beacon_last);
    memset(p->rules.beacon_seq, 0, sizeof p->rules.beacon_seq);
    memset(p->hand_round, 0, sizeof p->hand_round);
    memset(p->hand_bytes, 0, sizeof p->hand_bytes);
    p->link_limit = 0;
    p->rules.link_seq = 0;
    fd_wipe(j->round, sizeof *j->round);
    fd_wipe(r, sizeof *r);
    (void)fd_shoe_init(j->shoe, FD_DECK_FRENCH, 1, 0); /* cannot fail: constant, valid arguments */
}

/* A round that never opened (its SHUFFLE cut short): its secret goes now. */
static void wipe_unopened_parts(const fd_persist_ctx *j, const replay *r)
{
    if (r->part_round > r->round_id) {
        for (unsigned i = 0; i < FD_REC_MAX_PARTS; i++) {
            if ((r->available & (1u << i)) != 0u) {
                wipe(j->persist, r->part_seq[i]);
            }
        }
    }
}

bool fd_persist_mount(const fd_persist_ctx *j, const fd_flash *storage, fd_status storage_status,
                      const fd_device_secret *secret, void (*kick)(void *ctx))
{
    fd_persist *p = j->persist;
    if (storage == NULL) {
        return false;
    }
    p->attached = true;
    p->flash = *storage;
    p->rules.rounds.hands = fd_persist_keep_hands;
    p->rules.rounds.summaries = fd_persist_keep_summaries;
    fd_status st = mount_open(j, storage_status, secret, kick);
    if (st != FD_OK) {
        return false;
    }
    static replay r; /* off the micro:bit's stack; the dealer is one */
    memset(&r, 0, sizeof r);
    r.j = j;
    /* cannot fail: j->round->seeds is never NULL */
    (void)fd_round_seeds_clear(&j->round->seeds);
    /* the replay rides on the mount's one read of the flash */
    st = fd_journal_mount_walk(&p->journal, replay_visit, &r, &p->report);
    if (st != FD_OK) {
        p->status = st; /* report: the first bad record */
        forget_replay(j, &r);
        return false;
    }
    p->rules.rounds.newest_round = r.round_id;
    j->round->id = r.round_id;
    j->round->revealed_rounds = r.round_id;
    const bool open = r.round_id != 0u && !r.revealed;
    bool restored = false;
    if (open) {
        restored = r.opened && restore_open_round(&r);
        if (!restored) {
            /* the open round cannot be revealed: never silently dropped */
            report(p, FD_ERR_CORRUPT, r.opened ? "open round's secret damaged" : "open round's opening record missing");
            j->round->revealed_rounds = r.round_id - 1u;
        }
    }
    if (r.seed_files > 1u) {
        wipe_superseded_seed_files(j);
    }
    wipe_unopened_parts(j, &r);
    if (restored) {
        mark_skipped(j, &r);
    } else {
        fd_wipe(j->round->secret, sizeof j->round->secret);
        fd_wipe(j->round->salt, sizeof j->round->salt);
        (void)fd_round_seeds_clear(&j->round->seeds);      /* cannot fail: never NULL */
        (void)fd_shoe_init(j->shoe, FD_DECK_FRENCH, 1, 0); /* cannot fail: constant, valid arguments */
    }
    fd_wipe(&r, sizeof r);
    return restored;
}

fd_status fd_persist_journal_head(const fd_persist *p, uint8_t head[FD_SHA256_SIZE], uint32_t *next_seq)
{
    if (head == NULL || next_seq == NULL) {
        return FD_ERR_NULL;
    }
    if (!p->attached || !p->journal.mounted) {
        return FD_ERR_NOT_READY;
    }
    return fd_journal_head(&p->journal, head, next_seq);
}

fd_status fd_persist_journal_walk(fd_persist *p, fd_journal_visit_fn visit, void *ctx)
{
    if (!p->attached || !p->journal.mounted) {
        return FD_ERR_NOT_READY;
    }
    return fd_journal_walk(&p->journal, visit, ctx, NULL);
}
