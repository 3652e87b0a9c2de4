#include "persist.h"

#include <string.h>

#include "dealer.h"
#include "fairdeal/util.h"

/* The board's journal area holds the worst case of docs/RECORDS.md
 * "Capacity": the open round at its largest, at least 10 round summaries,
 * the events and the seed file, with what it keeps on top. */
_Static_assert(FD_REC_CAP_SUMMARIES(FD_DEALER_JOURNAL_PAGE_SIZE, FD_DEALER_JOURNAL_PAGES) >= 10u,
               "the board's storage area cannot hold the journal's worst case (docs/RECORDS.md \"Capacity\")");
_Static_assert(FD_REC_CAP_PAGES(FD_DEALER_JOURNAL_PAGE_SIZE, FD_DEALER_KEEP_SUMMARIES, FD_DEALER_KEEP_HANDS - 1u) <=
                   FD_DEALER_JOURNAL_PAGES,
               "what the dealer keeps fits its storage area");
_Static_assert(FD_DEALER_SECRET_MAX <= 7u * FD_REC_SECRET_PART && FD_DEALER_MAX_PLAYERS <= 15u,
               "the capacity model's parts and the DEALT record's seats cover the dealer's limits");

/* ---- little-endian fields (docs/RECORDS.md) ---- */

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v);
    put16(p + 2, v >> 16);
}

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

static uint32_t get32(const uint8_t *p) { return get16(p) | ((uint32_t)get16(p + 2) << 16); }

/* ---- the key ---- */

fd_status dealer_journal_key(const fd_device_secret *secret, uint8_t key[FD_SHA256_SIZE])
{
    return fd_device_key(secret, "journal", key);
}

/* ---- a round's reveal material: S, or the salt and the order ---- */

static size_t material_len(uint8_t mode, size_t secret_len, uint16_t count)
{
    return mode == FD_RECORD_MODE_ROUND ? secret_len : FD_COMMIT_SALT_SIZE + 2u * (size_t)count;
}

/* Byte i of the material of d's round (salt: the DRBG/FULL round's). */
static uint8_t material_at(const fd_dealer *d, uint8_t mode, const uint8_t *salt, size_t i)
{
    if (mode == FD_RECORD_MODE_ROUND) {
        return d->round.secret[i];
    }
    if (i < FD_COMMIT_SALT_SIZE) {
        return salt[i];
    }
    i -= FD_COMMIT_SALT_SIZE;
    const fd_card c = d->shoe.order[i / 2u];
    return (uint8_t)(i % 2u == 0u ? c : c >> 8);
}

/* Replay: byte i of the material into d's round; false when out of range. */
static bool material_set(fd_dealer *d, uint8_t mode, size_t i, uint8_t v)
{
    if (mode == FD_RECORD_MODE_ROUND) {
        if (i >= sizeof d->round.secret) {
            return false;
        }
        d->round.secret[i] = v;
        return true;
    }
    if (i < FD_COMMIT_SALT_SIZE) {
        d->round.salt[i] = v;
        return true;
    }
    i -= FD_COMMIT_SALT_SIZE;
    if (i / 2u >= (size_t)FD_SHOE_MAX_CARDS) {
        return false;
    }
    fd_card *c = &d->shoe.order[i / 2u];
    *c = (fd_card)(i % 2u == 0u ? ((*c & 0xFF00u) | v) : ((*c & 0x00FFu) | ((unsigned)v << 8)));
    return true;
}

static void material_hash(const fd_dealer *d, uint8_t mode, size_t len, uint8_t out[FD_SHA256_SIZE])
{
    fd_sha256_ctx h;
    fd_sha256_init(&h);
    for (size_t i = 0; i < len; i++) {
        const uint8_t b = material_at(d, mode, d->round.salt, i);
        fd_sha256_update(&h, &b, 1);
    }
    fd_sha256_final(&h, out);
}

/* ---- appends ---- */

/* Keeps the FD_REC_EVENTS_KEPT highest event seqs (the walk is not in seq
 * order); the keep policy's floor is the lowest of them. */
static void note_event(fd_persist *p, uint32_t seq)
{
    unsigned low = 0;
    for (unsigned i = 1; i < FD_REC_EVENTS_KEPT; i++) {
        if (p->events[i] < p->events[low]) {
            low = i;
        }
    }
    if (seq > p->events[low]) {
        p->events[low] = seq;
    }
    uint32_t floor = UINT32_MAX;
    for (unsigned i = 0; i < FD_REC_EVENTS_KEPT; i++) {
        if (p->events[i] != 0u && p->events[i] < floor) {
            floor = p->events[i];
        }
    }
    p->rules.event_floor = floor;
}

static bool is_event(uint8_t type)
{
    return type == FD_REC_POWER_ON || type == FD_REC_TIME_SET || type == FD_REC_FAULT || type == FD_REC_SELFTEST;
}

/* One record, or the journal's latched error as FD_ERR_NOT_READY. */
static fd_status append(fd_dealer *d, uint8_t type, const uint8_t *payload, size_t len, const uint8_t *secret,
                        size_t secret_len, uint32_t *seq)
{
    fd_persist *p = &d->persist;
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
        if (is_event(type)) {
            note_event(p, s);
        }
    }
    if (seq != NULL) {
        *seq = s;
    }
    return FD_OK;
}

/* A wipe that fails latches the error (the record was already durable). */
static void wipe(fd_dealer *d, uint32_t seq)
{
    fd_persist *p = &d->persist;
    if (p->attached && p->status == FD_OK && seq != 0u) {
        const fd_status st = fd_journal_wipe_secret(&p->journal, seq);
        if (st != FD_OK && st != FD_ERR_STATE) { /* FD_ERR_STATE: gone already */
            p->status = st;
        }
    }
}

void persist_event(fd_dealer *d, uint8_t type, fd_status st, uint16_t detail)
{
    uint8_t b[8] = {0};
    put16(b, (uint32_t)st);
    put16(b + 2, detail);
    put32(b + 4, d->persist.unix_s);
    (void)append(d, type, b, sizeof b, NULL, 0, NULL); /* best effort: a failure is latched */
}

void persist_power_on(fd_dealer *d, fd_status selftest)
{
    uint8_t b[8] = {0};
    b[0] = d->cfg.reset_cause;
    put32(b + 4, d->persist.unix_s);
    (void)append(d, FD_REC_POWER_ON, b, sizeof b, NULL, 0, NULL); /* best effort: a failure is latched */
    persist_event(d, FD_REC_SELFTEST, selftest, 0);
}

fd_status fd_dealer_time(fd_dealer *d, uint32_t unix_s)
{
    if (unix_s == 0u) {
        return FD_ERR_EMPTY;
    }
    uint8_t b[12] = {0};
    put32(b, unix_s);
    const fd_status st = append(d, FD_REC_TIME_SET, b, sizeof b, NULL, 0, NULL);
    if (st == FD_OK) {
        d->persist.unix_s = unix_s;
    }
    return st;
}

fd_status persist_round_opened(fd_dealer *d, uint32_t round_id, uint8_t mode, const fd_round_header *header,
                               size_t secret_len, const uint8_t salt[16], const uint8_t commitment[FD_SHA256_SIZE])
{
    fd_persist *p = &d->persist;
    const size_t len = material_len(mode, secret_len, d->shoe.count);
    const size_t parts = (len + FD_REC_SECRET_PART - 1u) / FD_REC_SECRET_PART;
    if (parts > FD_REC_MAX_PARTS) {
        return FD_ERR_TOO_LARGE; /* unreachable: FD_REC_MAX_PARTS covers the largest shoe */
    }
    p->rules.rounds.newest_round = round_id;
    uint32_t seqs[FD_REC_MAX_PARTS] = {0};
    uint8_t head[8] = {0};
    uint8_t part[FD_REC_SECRET_PART];
    put32(head, round_id);
    head[5] = (uint8_t)parts;
    head[6] = mode;
    fd_status st = FD_OK;
    for (size_t i = 0, at = 0; at < len && st == FD_OK; i++, at += FD_REC_SECRET_PART) {
        size_t n = len - at;
        if (n > FD_REC_SECRET_PART) {
            n = FD_REC_SECRET_PART;
        }
        for (size_t k = 0; k < n; k++) {
            part[k] = material_at(d, mode, salt, at + k);
        }
        head[4] = (uint8_t)i;
        st = append(d, FD_REC_ROUND_SECRET, head, sizeof head, part, n, &seqs[i]);
    }
    fd_wipe(part, sizeof part);
    if (st != FD_OK) {
        return st;
    }
    uint8_t b[56 + 4u * FD_REC_MAX_PARTS + FD_ROUND_DEVICE_ID_MAX + FD_REC_BEACON_SIZE] = {0};
    put32(b, round_id);
    b[4] = mode;
    b[5] = (uint8_t)d->shoe.kind;
    b[6] = d->shoe.decks;
    b[7] = d->shoe.jokers;
    put16(b + 8, d->shoe.count);
    put16(b + 10, d->shoe.cut);
    put16(b + 14, (uint32_t)len);
    b[16] = (uint8_t)parts;
    put32(b + 20, p->unix_s);
    memcpy(b + 24, commitment, FD_SHA256_SIZE);
    size_t n = 56;
    for (size_t i = 0; i < parts; i++, n += 4u) {
        put32(b + n, seqs[i]);
    }
    if (header != NULL) {
        b[12] = header->slot_mask;
        b[13] = header->device_id_len;
        memcpy(b + n, header->device_id, header->device_id_len);
        n += header->device_id_len;
        b[n] = header->beacon_slot;
        put32(b + n + 1u, (uint32_t)header->beacon_index);
        put32(b + n + 5u, (uint32_t)(header->beacon_index >> 32));
        n += FD_REC_BEACON_SIZE;
    }
    st = append(d, FD_REC_ROUND_OPENED, b, n, NULL, 0, NULL);
    return st;
}

fd_status persist_client_seed(fd_dealer *d, unsigned slot, const uint8_t *seed, size_t len)
{
    uint8_t b[8 + FD_ROUND_SEED_MAX] = {0};
    put32(b, d->round.id);
    b[4] = (uint8_t)slot;
    b[5] = (uint8_t)len;
    memcpy(b + 8, seed, len);
    return append(d, FD_REC_CLIENT_SEED, b, 8u + len, NULL, 0, NULL);
}

fd_status persist_seeds_closed(fd_dealer *d)
{
    uint8_t b[8] = {0};
    put32(b, d->round.id);
    return append(d, FD_REC_SEEDS_CLOSED, b, sizeof b, NULL, 0, NULL);
}

fd_status persist_dealt(fd_dealer *d, uint16_t first, unsigned total, unsigned players, bool burn)
{
    uint8_t b[16 + 2u * FD_REC_DEALT_MAX];
    fd_status st = FD_OK;
    for (unsigned k = 0; k < total && st == FD_OK; k += FD_REC_DEALT_MAX) {
        unsigned n = total - k;
        if (n > FD_REC_DEALT_MAX) {
            n = FD_REC_DEALT_MAX;
        }
        memset(b, 0, 16);
        put32(b, d->round.id);
        put16(b + 4, first);
        put16(b + 6, k);
        b[8] = (uint8_t)players;
        b[9] = burn ? 1u : 0u;
        b[10] = (uint8_t)n;
        b[11] = (uint8_t)d->shoe.kind; /* self-contained: RECALL prints it without its ROUND_OPENED */
        put32(b + 12, d->persist.unix_s);
        for (unsigned i = 0; i < n; i++) {
            put16(b + 16 + (size_t)2u * i, d->shoe.order[first + k + i]);
        }
        st = append(d, FD_REC_CARDS_DEALT, b, 16u + 2u * n, NULL, 0, NULL);
    }
    return st;
}

fd_status persist_reveal(fd_dealer *d)
{
    /* the summary; S (or salt and order) stays in the round's ROUND_SECRET
     * parts, public from now on, until compaction drops the hand */
    const uint8_t mode = d->round.mode;
    const size_t len = material_len(mode, d->round.secret_len, d->shoe.count);
    uint8_t s[80] = {0};
    put32(s, d->round.id);
    s[4] = mode;
    put16(s + 6, (uint32_t)len);
    put32(s + 8, d->persist.unix_s);
    memcpy(s + 12, d->round.commitment, FD_SHA256_SIZE);
    material_hash(d, mode, len, s + 44);
    put16(s + 76, d->shoe.position);
    return append(d, FD_REC_REVEAL, s, sizeof s, NULL, 0, NULL);
}

/* ---- the seed file ---- */

fd_status fd_dealer_seed_file_read(const fd_dealer *d, uint8_t *out, size_t size, size_t *len)
{
    const fd_persist *p = &d->persist;
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

fd_status fd_dealer_seed_file_write(fd_dealer *d, const uint8_t *seed, size_t len)
{
    fd_persist *p = &d->persist;
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
    uint8_t b[4] = {(uint8_t)len, 0, 0, 0};
    uint32_t seq = 0;
    const fd_status st = append(d, FD_REC_SEED_FILE, b, sizeof b, seed, len, &seq);
    if (st != FD_OK) {
        return st;
    }
    const uint32_t old = p->rules.seed_file_seq;
    p->rules.seed_file_seq = seq;
    memcpy(p->seed_file, seed, len);
    p->seed_file_len = (uint8_t)len;
    wipe(d, old); /* the old seed file must not outlive its successor */
    return FD_OK;
}

/* ---- replay at power-on ---- */

bool persist_seeds_complete(const fd_round *r)
{
    for (unsigned i = 0; i < FD_ROUND_SLOTS; i++) {
        if ((r->header.slot_mask & (1u << i)) != 0u && r->seeds.len[i] == 0u) {
            return false;
        }
    }
    return true;
}

/* The walk yields records in chain order, where a compaction copy stands
 * at its new place, not its original one: the replay depends on no order.
 * Pass 1 finds the newest round and whether it was revealed, the newest
 * seed file, the event window and the secret parts still on flash; pass 2
 * (only for an open round) gathers its parts, seeds and deals. */
#define STAGED_MAX (2u * FD_REC_MAX_PARTS)

typedef struct replay {
    fd_dealer *d;
    uint32_t newest_round;
    uint32_t opened_seq; /* orig_seq of its ROUND_OPENED */
    bool revealed;       /* a REVEAL of it exists */
    bool secret_ok;      /* every part of the open round read back */
    bool closed;         /* its order is fixed */
    uint16_t position;   /* cards of it journalled as dealt */
    uint8_t mode;
    uint8_t parts;
    uint32_t part_seq[FD_REC_MAX_PARTS];
    uint32_t available; /* bit i: part i read back (pass 2) */
    size_t secret_len;
    /* pass 1: secrets of the newest rounds still on flash, wiped unless the newest round's */
    uint32_t staged_round;
    uint8_t staged;
    uint32_t staged_seq[STAGED_MAX];
} replay;

static bool is_part_of_newest_round(const replay *r, uint32_t seq)
{
    for (unsigned i = 0; i < r->parts; i++) {
        if (r->part_seq[i] == seq) {
            return true;
        }
    }
    return false;
}

bool persist_opened_beacon(const uint8_t *b, size_t len, uint8_t *slot, uint64_t *index)
{
    if (len < 56u || b[16] > FD_REC_MAX_PARTS || b[13] > FD_ROUND_DEVICE_ID_MAX ||
        len != 56u + 4u * b[16] + b[13] + FD_REC_BEACON_SIZE) {
        return false;
    }
    const uint8_t *tail = b + len - FD_REC_BEACON_SIZE;
    *slot = tail[0];
    *index = get32(tail + 1) | ((uint64_t)get32(tail + 5) << 32);
    return true;
}

static void replay_opened(replay *r, const fd_journal_record *rec)
{
    fd_dealer *d = r->d;
    const uint8_t *b = rec->payload;
    const uint8_t parts = b[16];
    const uint8_t dev_len = b[13];
    uint8_t beacon_slot = FD_ROUND_NO_BEACON;
    uint64_t beacon_index = 0;
    /* a record written before beacons ends at the device id: no beacon */
    const bool has_beacon = persist_opened_beacon(b, rec->len, &beacon_slot, &beacon_index);
    if (rec->len < 56u || parts > FD_REC_MAX_PARTS || dev_len > FD_ROUND_DEVICE_ID_MAX ||
        (rec->len != 56u + 4u * parts + dev_len && !has_beacon) || get32(b) <= r->newest_round) {
        return; /* an older round (kept for RECALL), or not the dealer's record */
    }
    r->newest_round = get32(b);
    r->opened_seq = rec->orig_seq;
    r->revealed = false;
    r->mode = b[4];
    r->parts = parts;
    for (unsigned i = 0; i < parts; i++) {
        r->part_seq[i] = get32(b + 56 + (size_t)4u * i);
    }
    r->secret_len = get16(b + 14);
    d->round.id = r->newest_round;
    d->round.mode = b[4];
    memcpy(d->round.commitment, b + 24, FD_SHA256_SIZE);
    d->shoe.kind = (fd_deck_kind)b[5];
    d->shoe.decks = b[6];
    d->shoe.jokers = b[7];
    d->shoe.count = get16(b + 8);
    d->shoe.cut = get16(b + 10);
    memset(&d->round.header, 0, sizeof d->round.header);
    if (d->round.mode == FD_RECORD_MODE_ROUND) {
        fd_round_header *h = &d->round.header;
        h->device_id_len = dev_len;
        memcpy(h->device_id, b + 56 + (size_t)4u * parts, dev_len);
        h->round_id = r->newest_round;
        h->kind = d->shoe.kind;
        h->decks = d->shoe.decks;
        h->jokers = d->shoe.jokers;
        h->slot_mask = b[12];
        h->beacon_slot = beacon_slot;
        h->beacon_index = beacon_index;
    }
}

static fd_status replay_pass1(void *ctx, const fd_journal_record *rec)
{
    replay *r = ctx;
    fd_persist *p = &r->d->persist;
    const uint32_t id = rec->len >= 4u ? get32(rec->payload) : 0u;
    switch (rec->type) {
    case FD_REC_ROUND_OPENED: replay_opened(r, rec); break;
    case FD_REC_REVEAL: r->revealed = r->revealed || (id == r->newest_round && id != 0u); break;
    case FD_REC_ROUND_SECRET:
        if (rec->secret_state == FD_JOURNAL_SECRET_AVAILABLE && id >= r->staged_round) {
            if (id > r->staged_round) {
                r->staged_round = id;
                r->staged = 0;
            }
            if (r->staged < STAGED_MAX) {
                r->staged_seq[r->staged++] = rec->orig_seq;
            }
        }
        break;
    case FD_REC_SEED_FILE:
        if (rec->secret_state == FD_JOURNAL_SECRET_AVAILABLE && rec->secret_len <= FD_DEALER_SEED_FILE_MAX &&
            rec->orig_seq > p->rules.seed_file_seq) {
            memcpy(p->seed_file, rec->secret, rec->secret_len);
            p->seed_file_len = (uint8_t)rec->secret_len;
            p->rules.seed_file_seq = rec->orig_seq;
        }
        break;
    default:
        if (is_event(rec->type)) {
            note_event(p, rec->orig_seq);
        }
        break;
    }
    return FD_OK;
}

static fd_status replay_pass2(void *ctx, const fd_journal_record *rec)
{
    replay *r = ctx;
    fd_dealer *d = r->d;
    if (rec->len < 4u || get32(rec->payload) != r->newest_round) {
        return FD_OK;
    }
    const uint8_t *b = rec->payload;
    switch (rec->type) {
    case FD_REC_ROUND_SECRET:
        for (unsigned i = 0; i < r->parts; i++) {
            bool fits = r->part_seq[i] == rec->orig_seq && rec->secret_state == FD_JOURNAL_SECRET_AVAILABLE &&
                        rec->len >= 8u && b[4] == i && b[6] == r->mode;
            for (size_t k = 0; fits && k < rec->secret_len; k++) {
                fits = material_set(d, r->mode, (size_t)i * FD_REC_SECRET_PART + k, rec->secret[k]);
            }
            if (fits) {
                r->available |= 1u << i;
            }
        }
        break;
    case FD_REC_CLIENT_SEED:
        if (rec->len >= 8u && rec->len == 8u + b[5]) {
            /* each slot once: a refused seed was never journalled */
            (void)fd_round_seed_set(&d->round.seeds, &d->round.header, b[4], b + 8, b[5]);
        }
        break;
    case FD_REC_SEEDS_CLOSED: r->closed = true; break;
    case FD_REC_CARDS_DEALT:
        if (rec->len >= 16u) {
            const uint32_t end = (uint32_t)get16(b + 4) + get16(b + 6) + b[10];
            if (end > r->position) {
                r->position = (uint16_t)(end > 0xFFFFu ? 0xFFFFu : end);
            }
        }
        break;
    default: break;
    }
    return FD_OK;
}

/* The open round, restored: its commitment checks against what was read
 * back, the order is re-derived and dealing goes on after the last card
 * the journal holds. */
static bool restore_open_round(replay *r)
{
    fd_dealer *d = r->d;
    fd_shoe *s = &d->shoe;
    uint8_t check[FD_SHA256_SIZE];
    uint16_t per_deck = 0;
    bool ok = fd_deck_size(s->kind, s->jokers, &per_deck) == FD_OK && s->decks >= 1u && s->decks <= FD_SHOE_MAX_DECKS &&
              s->count == per_deck * s->decks;
    if (ok && d->round.mode == FD_RECORD_MODE_ROUND) {
        d->round.secret_len = (uint16_t)r->secret_len;
        ok = r->secret_len <= FD_DEALER_SECRET_MAX &&
             fd_round_commit(&d->round.header, d->round.secret, r->secret_len, check) == FD_OK &&
             memcmp(check, d->round.commitment, sizeof check) == 0;
        const uint16_t cut = s->cut;
        if (ok) {
            /* canonical order until the seeds close; then the derived one */
            ok = r->closed ? fd_round_deal_order(&d->round.header, d->round.secret, r->secret_len, &d->round.seeds, s,
                                                 NULL) == FD_OK
                           : fd_shoe_init(s, s->kind, s->decks, s->jokers) == FD_OK;
            s->cut = cut;
        }
    } else if (ok) {
        s->position = 0;
        s->shuffled = true;
        ok = fd_shoe_check(s) == FD_OK && r->secret_len == material_len(d->round.mode, 0, s->count) &&
             fd_commit_compute(d->round.salt, s->order, s->count, s->kind, check) == FD_OK &&
             memcmp(check, d->round.commitment, sizeof check) == 0;
    }
    ok = ok && r->position <= s->count;
    if (!ok) {
        return false;
    }
    d->round.closed = r->closed;
    s->position = r->position;
    d->round.revealed_rounds = d->round.id - 1u;
    d->round.state = r->closed ? FD_DEALER_ROUND_OPEN : FD_DEALER_SEEDING;
    d->persist.recovered = true;
    d->persist.recovered_position = r->position;
    return true;
}

static void report(fd_persist *p, fd_status st, const char *reason)
{
    p->status = st;
    p->report.status = st;
    p->report.reason = reason;
}

bool persist_mount(fd_dealer *d)
{
    fd_persist *p = &d->persist;
    if (d->cfg.storage == NULL) {
        return false;
    }
    p->attached = true;
    p->flash = *d->cfg.storage;
    p->rules.rounds.hands = FD_DEALER_KEEP_HANDS;
    p->rules.rounds.summaries = FD_DEALER_KEEP_SUMMARIES;
    uint8_t key[FD_SHA256_SIZE];
    fd_status st = d->cfg.storage_status;
    if (st == FD_OK && dealer_journal_key(&d->secret, key) != FD_OK) {
        report(p, FD_ERR_NOT_READY, "no device secret: no journal key");
        return false;
    }
    if (st == FD_OK && p->flash.geometry.page_count > FD_DEALER_JOURNAL_PAGES) {
        st = FD_ERR_TOO_LARGE;
    }
    if (st == FD_OK) {
        st = fd_journal_init(&p->journal, &p->flash, key, sizeof key, p->pages, fd_records_keep_rules, &p->rules);
    }
    fd_wipe(key, sizeof key);
    if (st != FD_OK) {
        report(p, st, "storage area unusable");
        return false;
    }
    static replay r; /* 190 bytes off the micro:bit's stack; the dealer is one */
    memset(&r, 0, sizeof r);
    r.d = d;
    /* cannot fail: d->round.seeds is never NULL */
    (void)fd_round_seeds_clear(&d->round.seeds);
    /* the first replay pass rides on the mount's one read of the flash */
    st = fd_journal_mount_walk(&p->journal, replay_pass1, &r, &p->report);
    const bool open = st == FD_OK && r.newest_round != 0u && !r.revealed;
    if (open) {
        st = fd_journal_walk(&p->journal, replay_pass2, &r, &p->report);
    }
    if (st != FD_OK) {
        p->status = st; /* report: the first bad record */
        /* what the replay took from the records before it: nothing of a
         * journal that failed is used */
        fd_wipe(p->seed_file, sizeof p->seed_file);
        p->seed_file_len = 0;
        p->rules.seed_file_seq = 0;
        memset(p->events, 0, sizeof p->events);
        p->rules.event_floor = 0;
        fd_wipe(&d->round, sizeof d->round);
        (void)fd_shoe_init(&d->shoe, FD_DECK_FRENCH, 1, 0); /* cannot fail: constant, valid arguments */
        return false;
    }
    p->rules.rounds.newest_round = r.newest_round;
    d->round.id = r.newest_round;
    d->round.revealed_rounds = r.newest_round;
    bool restored = false;
    if (open) {
        r.secret_ok = r.parts > 0u && r.available == (1u << r.parts) - 1u;
        r.closed = r.closed || d->round.mode != FD_RECORD_MODE_ROUND || persist_seeds_complete(&d->round);
        restored = r.secret_ok && restore_open_round(&r);
        if (!restored) {
            /* the open round cannot be revealed: never silently dropped */
            report(p, FD_ERR_CORRUPT, "open round's secret damaged");
            d->round.revealed_rounds = r.newest_round - 1u;
        }
    }
    /* a round that never opened (its SHUFFLE cut short): its secret goes now */
    for (unsigned i = 0; i < r.staged; i++) {
        if (!is_part_of_newest_round(&r, r.staged_seq[i])) {
            wipe(d, r.staged_seq[i]);
        }
    }
    if (!restored) {
        fd_wipe(d->round.secret, sizeof d->round.secret);
        fd_wipe(d->round.salt, sizeof d->round.salt);
        (void)fd_round_seeds_clear(&d->round.seeds);        /* cannot fail: never NULL */
        (void)fd_shoe_init(&d->shoe, FD_DECK_FRENCH, 1, 0); /* cannot fail: constant, valid arguments */
    }
    return restored;
}

fd_status fd_dealer_journal_head(const fd_dealer *d, uint8_t head[FD_SHA256_SIZE], uint32_t *next_seq)
{
    if (head == NULL || next_seq == NULL) {
        return FD_ERR_NULL;
    }
    if (!d->persist.attached || !d->persist.journal.mounted) {
        return FD_ERR_NOT_READY;
    }
    return fd_journal_head(&d->persist.journal, head, next_seq);
}

fd_status fd_dealer_journal_walk(fd_dealer *d, fd_journal_visit_fn visit, void *ctx)
{
    fd_persist *p = &d->persist;
    if (!p->attached || !p->journal.mounted) {
        return FD_ERR_NOT_READY;
    }
    return fd_journal_walk(&p->journal, visit, ctx, NULL);
}
