#include "dealer.h"

#include <string.h>

#include "dealer_sources.h"
#include "fairdeal/selftest.h"
#include "word.h"

/* ---- the transition table (docs/PROTOCOL.md, "States") ---- */

#define ALLOW(next)                                                                                                    \
    {                                                                                                                  \
        FD_ALLOW, (next), NULL                                                                                         \
    }
#define REFUSE(why)                                                                                                    \
    {                                                                                                                  \
        FD_REFUSE_STATE, FD_DEALER_FACTORY, (why)                                                                      \
    }
#define FAULTED                                                                                                        \
    {                                                                                                                  \
        FD_REFUSE_FAULT, FD_DEALER_FACTORY, NULL                                                                       \
    }

static const char open_round[] = "round open: REVEAL first";
static const char not_shuffled[] = "not shuffled: SHUFFLE first";
static const char revealed[] = "order already revealed: SHUFFLE first";
static const char nothing_to_reveal[] = "no committed shuffle to reveal";
static const char seeding[] = "round open for seeds: CLOSE first";
static const char no_seeding[] = "no round open for seeds";

/* One row per command: for each state, whether the command may run there
 * and the state it then leads to. Every row names all seven states (a cell
 * left out would read as ALLOW(FD_DEALER_FACTORY)). SHUFFLE's `next` is ROUND_OPEN; a
 * verifiable round that accepts seeds goes to SEEDING instead, and SEED goes
 * to ROUND_OPEN when the last slot fills. */
#define STAYS /* allowed in every state, changing none */                                                              \
    {                                                                                                                  \
        [FD_DEALER_FACTORY] = ALLOW(FD_DEALER_FACTORY), [FD_DEALER_ROUND_OPEN] = ALLOW(FD_DEALER_ROUND_OPEN),          \
        [FD_DEALER_REVEALED] = ALLOW(FD_DEALER_REVEALED), [FD_DEALER_UNSHUFFLED] = ALLOW(FD_DEALER_UNSHUFFLED),        \
        [FD_DEALER_FAULT] = ALLOW(FD_DEALER_FAULT), [FD_DEALER_FAULT_ROUND_OPEN] = ALLOW(FD_DEALER_FAULT_ROUND_OPEN),  \
        [FD_DEALER_SEEDING] = ALLOW(FD_DEALER_SEEDING)                                                                 \
    }
#define NO_ROUND /* allowed while no round is open, changing no state */                                               \
    {                                                                                                                  \
        [FD_DEALER_FACTORY] = ALLOW(FD_DEALER_FACTORY), [FD_DEALER_ROUND_OPEN] = REFUSE(open_round),                   \
        [FD_DEALER_REVEALED] = ALLOW(FD_DEALER_REVEALED), [FD_DEALER_UNSHUFFLED] = ALLOW(FD_DEALER_UNSHUFFLED),        \
        [FD_DEALER_FAULT] = ALLOW(FD_DEALER_FAULT), [FD_DEALER_FAULT_ROUND_OPEN] = REFUSE(open_round),                 \
        [FD_DEALER_SEEDING] = REFUSE(open_round)                                                                       \
    }
static const fd_transition table[FD_CMD_COUNT][FD_DEALER_STATE_COUNT] = {
    [FD_CMD_ANY] = STAYS,
    [FD_CMD_NEW] =
        {
            [FD_DEALER_FACTORY] = ALLOW(FD_DEALER_FACTORY),
            [FD_DEALER_ROUND_OPEN] = REFUSE(open_round),
            [FD_DEALER_REVEALED] = ALLOW(FD_DEALER_FACTORY),
            [FD_DEALER_UNSHUFFLED] = ALLOW(FD_DEALER_FACTORY),
            [FD_DEALER_FAULT] = ALLOW(FD_DEALER_FAULT),
            [FD_DEALER_FAULT_ROUND_OPEN] = REFUSE(open_round),
            [FD_DEALER_SEEDING] = REFUSE(open_round),
        },
    [FD_CMD_SHUFFLE] =
        {
            [FD_DEALER_FACTORY] = ALLOW(FD_DEALER_ROUND_OPEN),
            [FD_DEALER_ROUND_OPEN] = REFUSE(open_round),
            [FD_DEALER_REVEALED] = ALLOW(FD_DEALER_ROUND_OPEN),
            [FD_DEALER_UNSHUFFLED] = ALLOW(FD_DEALER_ROUND_OPEN),
            [FD_DEALER_FAULT] = FAULTED,
            [FD_DEALER_FAULT_ROUND_OPEN] = FAULTED,
            [FD_DEALER_SEEDING] = REFUSE(open_round),
        },
    [FD_CMD_DEAL] =
        {
            [FD_DEALER_FACTORY] = REFUSE(not_shuffled),
            [FD_DEALER_ROUND_OPEN] = ALLOW(FD_DEALER_ROUND_OPEN),
            [FD_DEALER_REVEALED] = REFUSE(revealed),
            [FD_DEALER_UNSHUFFLED] = REFUSE(not_shuffled),
            [FD_DEALER_FAULT] = FAULTED,
            [FD_DEALER_FAULT_ROUND_OPEN] = FAULTED,
            [FD_DEALER_SEEDING] = REFUSE(seeding),
        },
    [FD_CMD_BURN] =
        {
            [FD_DEALER_FACTORY] = REFUSE(not_shuffled),
            [FD_DEALER_ROUND_OPEN] = ALLOW(FD_DEALER_ROUND_OPEN),
            [FD_DEALER_REVEALED] = REFUSE(revealed),
            [FD_DEALER_UNSHUFFLED] = REFUSE(not_shuffled),
            [FD_DEALER_FAULT] = FAULTED,
            [FD_DEALER_FAULT_ROUND_OPEN] = FAULTED,
            [FD_DEALER_SEEDING] = REFUSE(seeding),
        },
    [FD_CMD_CUT] = STAYS,
    [FD_CMD_REVEAL] =
        {
            [FD_DEALER_FACTORY] = REFUSE(nothing_to_reveal),
            [FD_DEALER_ROUND_OPEN] = ALLOW(FD_DEALER_REVEALED),
            [FD_DEALER_REVEALED] = REFUSE(nothing_to_reveal),
            [FD_DEALER_UNSHUFFLED] = REFUSE(nothing_to_reveal),
            [FD_DEALER_FAULT] = REFUSE(nothing_to_reveal),
            [FD_DEALER_FAULT_ROUND_OPEN] = ALLOW(FD_DEALER_FAULT),
            [FD_DEALER_SEEDING] = ALLOW(FD_DEALER_REVEALED),
        },
    [FD_CMD_SELFTEST] =
        {
            [FD_DEALER_FACTORY] = ALLOW(FD_DEALER_FACTORY),
            [FD_DEALER_ROUND_OPEN] = REFUSE(open_round),
            [FD_DEALER_REVEALED] = ALLOW(FD_DEALER_REVEALED),
            [FD_DEALER_UNSHUFFLED] = ALLOW(FD_DEALER_UNSHUFFLED),
            [FD_DEALER_FAULT] = ALLOW(FD_DEALER_UNSHUFFLED),
            [FD_DEALER_FAULT_ROUND_OPEN] = REFUSE(open_round),
            [FD_DEALER_SEEDING] = REFUSE(open_round),
        },
    [FD_CMD_QUIT] =
        {
            [FD_DEALER_FACTORY] = ALLOW(FD_DEALER_FACTORY),
            [FD_DEALER_ROUND_OPEN] = REFUSE(open_round),
            [FD_DEALER_REVEALED] = ALLOW(FD_DEALER_REVEALED),
            [FD_DEALER_UNSHUFFLED] = ALLOW(FD_DEALER_UNSHUFFLED),
            [FD_DEALER_FAULT] = ALLOW(FD_DEALER_FAULT),
            [FD_DEALER_FAULT_ROUND_OPEN] = REFUSE(open_round),
            [FD_DEALER_SEEDING] = REFUSE(open_round),
        },
    [FD_CMD_SEED] =
        {
            [FD_DEALER_FACTORY] = REFUSE(no_seeding),
            [FD_DEALER_ROUND_OPEN] = REFUSE(no_seeding),
            [FD_DEALER_REVEALED] = REFUSE(no_seeding),
            [FD_DEALER_UNSHUFFLED] = REFUSE(no_seeding),
            [FD_DEALER_FAULT] = FAULTED,
            [FD_DEALER_FAULT_ROUND_OPEN] = FAULTED,
            [FD_DEALER_SEEDING] = ALLOW(FD_DEALER_SEEDING),
        },
    [FD_CMD_CLOSE] =
        {
            [FD_DEALER_FACTORY] = REFUSE(no_seeding),
            [FD_DEALER_ROUND_OPEN] = REFUSE(no_seeding),
            [FD_DEALER_REVEALED] = REFUSE(no_seeding),
            [FD_DEALER_UNSHUFFLED] = REFUSE(no_seeding),
            [FD_DEALER_FAULT] = FAULTED,
            [FD_DEALER_FAULT_ROUND_OPEN] = FAULTED,
            [FD_DEALER_SEEDING] = ALLOW(FD_DEALER_ROUND_OPEN),
        },
    [FD_CMD_PROVISION] = NO_ROUND,
    [FD_CMD_IDLE] = NO_ROUND,
    [FD_CMD_LAB_RAW] = NO_ROUND, /* raw samples of a failing source too */
    [FD_CMD_LAB_CARDS] =
        {
            [FD_DEALER_FACTORY] = ALLOW(FD_DEALER_FACTORY),
            [FD_DEALER_ROUND_OPEN] = REFUSE(open_round),
            [FD_DEALER_REVEALED] = ALLOW(FD_DEALER_REVEALED),
            [FD_DEALER_UNSHUFFLED] = ALLOW(FD_DEALER_UNSHUFFLED),
            [FD_DEALER_FAULT] = FAULTED,
            [FD_DEALER_FAULT_ROUND_OPEN] = REFUSE(open_round),
            [FD_DEALER_SEEDING] = REFUSE(open_round),
        },
};

/* The journal's hooks work on the dealer's persist, round and shoe (persist.h). */
#define JOURNAL(d) (&(const fd_persist_ctx){&(d)->persist, &(d)->round, &(d)->shoe})

const fd_transition *fd_dealer_transition(fd_dealer_state state, fd_dealer_cmd cmd) { return &table[cmd][state]; }

/* Refused in release builds in every state (docs/PROTOCOL.md "LAB"): lab
 * mode is for development builds only. */
static const char release_only_refusal[] = "lab mode is refused in release builds";
static bool refused_in_release(fd_dealer_cmd cmd) { return cmd == FD_CMD_LAB_RAW || cmd == FD_CMD_LAB_CARDS; }

fd_status fd_dealer_admit(const fd_dealer *d, fd_dealer_cmd cmd)
{
    if (d->cfg.release && refused_in_release(cmd)) {
        return FD_ERR_STATE;
    }
    switch (fd_dealer_transition(d->round.state, cmd)->verdict) {
    case FD_ALLOW: return FD_OK;
    case FD_REFUSE_STATE: return FD_ERR_STATE;
    default: return d->fault_status;
    }
}

const char *fd_dealer_refusal(const fd_dealer *d, fd_dealer_cmd cmd)
{
    return d->cfg.release && refused_in_release(cmd) ? release_only_refusal
                                                     : fd_dealer_transition(d->round.state, cmd)->why;
}

/* FD_OK and the table entry when the command may run, else its refusal. */
static fd_status admit(const fd_dealer *d, fd_dealer_cmd cmd, const fd_transition **t)
{
    *t = fd_dealer_transition(d->round.state, cmd);
    return fd_dealer_admit(d, cmd);
}

/* ---- critical memory: a checksum over the round and the shoe's fields ---- */

/* v big-endian at p (word.h); its width, to advance by. */
static size_t store_be32(uint8_t *p, uint32_t v)
{
    fd_store_be32(p, v);
    return 4;
}

/* FNV-1a, 32 bits: each step is a bijection of the running value, so any
 * change confined to one byte always changes the result, and wider damage
 * goes unseen with probability about 2^-32. A guard against failing RAM and
 * stray writes, not against an attacker who can write memory (he could
 * recompute any checksum); cheap enough for every deal. */
static uint32_t fnv1a(uint32_t h, const uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

/* Over every field a deal relies on, written out field by field (no struct
 * padding). The order itself is covered by fd_shoe_check (a permutation of
 * the shoe) and, at REVEAL, by the commitment. */
static uint32_t round_checksum(const fd_dealer *d)
{
    uint8_t buf[48];
    size_t n = 0;
    n += store_be32(buf + n, (uint32_t)d->round.state);
    n += store_be32(buf + n, d->round.id);
    n += store_be32(buf + n, d->round.revealed_rounds);
    buf[n++] = d->round.mode;
    buf[n++] = d->round.closed ? 1u : 0u;
    buf[n++] = d->shoe.shuffled ? 1u : 0u;
    buf[n++] = (uint8_t)d->shoe.kind;
    buf[n++] = d->shoe.decks;
    buf[n++] = d->shoe.jokers;
    n += store_be32(buf + n, ((uint32_t)d->shoe.count << 16) | d->shoe.position);
    n += store_be32(buf + n, d->shoe.cut);
    n += store_be32(buf + n, (uint32_t)d->fault_status);
    n += store_be32(buf + n, d->round.secret_len);
    uint32_t h = fnv1a(2166136261u, buf, n);
    h = fnv1a(h, d->round.salt, sizeof d->round.salt);
    h = fnv1a(h, d->round.commitment, sizeof d->round.commitment);
    /* the verifiable round's fields are hashed as stored: the header and
     * seeds are memset before use, so their padding is fixed */
    h = fnv1a(h, (const uint8_t *)&d->round.header, sizeof d->round.header);
    h = fnv1a(h, d->round.secret, sizeof d->round.secret);
    return fnv1a(h, (const uint8_t *)&d->round.seeds, sizeof d->round.seeds);
}

/* Every change to the round or the shoe ends here. */
static void seal(fd_dealer *d, fd_dealer_state next)
{
    d->round.state = next;
    d->round.check = round_checksum(d);
}

fd_status fd_dealer_check(const fd_dealer *d)
{
    if ((unsigned)d->round.state >= FD_DEALER_STATE_COUNT || round_checksum(d) != d->round.check ||
        fd_shoe_check(&d->shoe) != FD_OK) {
        return FD_ERR_CORRUPT;
    }
    return FD_OK;
}

/* ---- fail closed ---- */

static void enter_fault(fd_dealer *d, fd_status why)
{
    const bool open = fd_dealer_round_open(d);
    d->fault_status = why;
    d->fault_health = d->entropy.health_failure;
    /* nothing drawn from the failing source may be dealt or reused; the open
     * round's order stays for REVEAL */
    /* cannot fail: d->shoe is never NULL */
    (void)fd_shoe_invalidate(&d->shoe);
    fd_fullentropy_clear(&d->full);
    fd_combined_clear(&d->combined);
    fd_drbg_uninstantiate(&d->drbg);
    seal(d, open ? FD_DEALER_FAULT_ROUND_OPEN : FD_DEALER_FAULT);
    fd_persist_event(JOURNAL(d), FD_REC_FAULT, why, (uint16_t)d->fault_health);
}

/* KATs, source restart, start-up health tests, fresh DRBG. */
static fd_status run_selftest(fd_dealer *d)
{
    fd_status st = fd_selftest_kat();
    if (st == FD_OK && d->cfg.restart_source != NULL) {
        st = d->cfg.restart_source(d->cfg.read_ctx);
    }
    if (st == FD_OK) {
        st = fd_entropy_startup(&d->entropy);
    }
    if (st == FD_OK) {
        /* DRBG with the device secret and seed file; the next seed file durable first */
        st = fd_dealer_start_sources(d);
    }
    if (st == FD_OK) {
        fd_fullentropy_clear(&d->full);
    }
    return st;
}

fd_status fd_dealer_init(fd_dealer *d, const fd_dealer_config *cfg)
{
    if (d == NULL || cfg == NULL || cfg->read_samples == NULL) {
        return FD_ERR_NULL;
    }
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    /* cannot fail: constant, valid arguments */
    (void)fd_shoe_init(&d->shoe, FD_DECK_FRENCH, 1, 0);
    fd_dealer_load_secret(d);
    /* ids, the open round (state and shoe), the seed file: before anything
     * draws entropy or the transport says a word */
    const bool resumed = fd_persist_mount(JOURNAL(d), d->cfg.storage, d->cfg.storage_status, &d->secret, d->cfg.kick);
    uint8_t mounted_head[FD_SHA256_SIZE];
    if (fd_dealer_journal_head(d, mounted_head, &d->persist.power_on_seq) != FD_OK) {
        d->persist.power_on_seq = 0; /* no journal mounted */
    }
    fd_status st = fd_entropy_init(&d->entropy, cfg->read_samples, cfg->read_ctx, &cfg->health, cfg->samples_per_block);
    if (st == FD_OK) {
        const fd_rng bytes = fd_entropy_rng(&d->entropy);
        /* cannot fail: both pointers are non-NULL; a source fault shows at the first draw */
        (void)fd_fullentropy_init(&d->full, &bytes);
        st = run_selftest(d);
    }
    fd_persist_power_on(JOURNAL(d), d->cfg.reset_cause, st);
    if (st != FD_OK) {
        enter_fault(d, st);
        return st;
    }
    seal(d, resumed ? d->round.state : FD_DEALER_FACTORY);
    return FD_OK;
}

/* ---- commands ---- */

fd_status fd_dealer_new(fd_dealer *d, fd_deck_kind kind, unsigned decks, unsigned jokers)
{
    const fd_transition *t;
    fd_status st = admit(d, FD_CMD_NEW, &t);
    if (st == FD_OK) {
        st = fd_shoe_init(&d->shoe, kind, decks, jokers); /* unchanged on error */
    }
    if (st == FD_OK) {
        seal(d, t->next);
    }
    return st;
}

fd_status fd_dealer_shuffle(fd_dealer *d, bool full)
{
    const fd_transition *t;
    fd_status st = admit(d, FD_CMD_SHUFFLE, &t);
    if (st != FD_OK) {
        return st;
    }
    st = fd_dealer_secret_ready(d);
    if (st != FD_OK) {
        return st;
    }
    const uint8_t mode = full ? FD_RECORD_MODE_FULL : FD_RECORD_MODE_DRBG;
    /* the round's journal reservation, before anything is drawn (docs/RECORDS.md "Capacity") */
    st = fd_persist_reserve(JOURNAL(d), d->round.id + 1u, mode, 0, 0);
    if (st != FD_OK) {
        return st;
    }
    /* fresh samples for every round, whichever the mode */
    fd_rng rng;
    st = fd_dealer_begin_round(d, full ? FD_SOURCE_FULL : FD_SOURCE_DRBG, &rng);
    uint8_t salt[FD_COMMIT_SALT_SIZE];
    if (st == FD_OK) {
        st = rng.fill(rng.ctx, salt, sizeof salt);
    }
    if (st == FD_OK) {
        st = fd_shoe_shuffle(&d->shoe, &rng);
    }
    if (st != FD_OK) {
        fd_wipe(salt, sizeof salt);
        enter_fault(d, st);
        return st;
    }
    uint8_t commitment[FD_COMMIT_SIZE];
    /* cannot fail: the shoe was just shuffled and checked */
    (void)fd_commit_compute(salt, d->shoe.order, d->shoe.count, d->shoe.kind, commitment);
    st = fd_persist_round_opened(JOURNAL(d), d->round.id + 1u, mode, NULL, 0, salt, commitment);
    if (st != FD_OK) {
        /* not journalled, so never committed: the order is dropped */
        fd_wipe(salt, sizeof salt);
        (void)fd_shoe_invalidate(&d->shoe); /* cannot fail: d->shoe is never NULL */
        seal(d, d->round.state);
        return st;
    }
    d->round.id++;
    d->round.mode = mode;
    d->round.closed = true;
    memcpy(d->round.salt, salt, sizeof salt);
    fd_wipe(salt, sizeof salt);
    memcpy(d->round.commitment, commitment, sizeof commitment);
    seal(d, t->next);
    return FD_OK;
}

/* A fresh verifiable round's fields: everything but state, counters and check. */
static void clear_round_fields(fd_round *r)
{
    fd_wipe(r->salt, sizeof r->salt);
    fd_wipe(r->secret, sizeof r->secret);
    memset(&r->header, 0, sizeof r->header);
    /* cannot fail: r->seeds is never NULL */
    (void)fd_round_seeds_clear(&r->seeds);
    r->secret_len = 0;
}

fd_status fd_dealer_open_round(fd_dealer *d, unsigned slots, unsigned beacon_slot, uint64_t beacon_index)
{
    const fd_transition *t;
    fd_status st = admit(d, FD_CMD_SHUFFLE, &t);
    if (st != FD_OK) {
        return st;
    }
    if (slots > FD_ROUND_SLOTS) {
        return FD_ERR_TOO_LARGE;
    }
    /* the beacon names one of this round's slots; none carries no index */
    if (beacon_slot == FD_ROUND_NO_BEACON ? beacon_index != 0u : beacon_slot >= slots) {
        return FD_ERR_BOUND;
    }
    /* a beacon index is used once per slot (docs/PROTOCOL.md "SHUFFLE") */
    uint64_t last = 0;
    if (beacon_slot != FD_ROUND_NO_BEACON && fd_dealer_beacon_last(d, beacon_slot, &last) && beacon_index <= last) {
        return FD_ERR_STATE;
    }
    st = fd_dealer_secret_ready(d);
    if (st != FD_OK) {
        return st;
    }
    fd_round_header h;
    memset(&h, 0, sizeof h);
    h.device_id_len = FD_DEVICE_ID_BYTES; /* derived from the device secret */
    memcpy(h.device_id, d->secret.id, FD_DEVICE_ID_BYTES);
    h.round_id = d->round.id + 1u;
    h.kind = d->shoe.kind;
    h.decks = d->shoe.decks;
    h.jokers = d->shoe.jokers;
    h.slot_mask = (uint8_t)((1u << slots) - 1u);
    h.beacon_slot = (uint8_t)beacon_slot;
    h.beacon_index = beacon_index;
    const size_t secret_len = fd_round_secret_min(d->shoe.count);
    if (secret_len > FD_DEALER_SECRET_MAX) {
        return FD_ERR_TOO_LARGE; /* unreachable: FD_DEALER_SECRET_MAX covers the largest shoe */
    }
    st = fd_persist_reserve(JOURNAL(d), h.round_id, FD_RECORD_MODE_ROUND, secret_len, slots);
    if (st != FD_OK) {
        return st; /* the journal cannot hold this round at its largest: nothing drawn or written */
    }
    /* No round is open, so the last round's fields (already revealed) give
     * way; S is drawn in place to keep 431 bytes off the stack. S comes from
     * the combined source: full-entropy TRNG blocks read from now on (a
     * DRBG alone would cap what S can be) XOR the DRBG (a source that
     * turned deterministic alone cannot predict it). */
    clear_round_fields(&d->round);
    fd_rng rng;
    st = fd_dealer_begin_round(d, FD_SOURCE_COMBINED, &rng);
    if (st == FD_OK) {
        st = rng.fill(rng.ctx, d->round.secret, secret_len);
        fd_combined_clear(&d->combined); /* no carried randomness outlives the draw */
    }
    if (st == FD_OK) {
        st = fd_round_commit(&h, d->round.secret, secret_len, d->round.commitment);
    }
    if (st != FD_OK) {
        fd_wipe(d->round.secret, sizeof d->round.secret);
        enter_fault(d, st);
        return st;
    }
    st = fd_persist_round_opened(JOURNAL(d), h.round_id, FD_RECORD_MODE_ROUND, &h, secret_len, NULL,
                                 d->round.commitment);
    if (st != FD_OK) {
        /* not journalled, so never committed: S goes, the state stays */
        fd_wipe(d->round.secret, sizeof d->round.secret);
        seal(d, d->round.state);
        return st;
    }
    d->round.id = h.round_id;
    d->round.mode = FD_RECORD_MODE_ROUND;
    d->round.closed = false;
    memcpy(&d->round.header, &h, sizeof h);
    d->round.secret_len = (uint16_t)secret_len;
    /* canonical order, nothing dealable before the order is fixed */
    const uint16_t cut = d->shoe.cut;
    /* cannot fail: the current shoe's own kind, decks and jokers, and a cut it held */
    (void)fd_shoe_init(&d->shoe, h.kind, h.decks, h.jokers);
    (void)fd_shoe_set_cut(&d->shoe, cut);
    seal(d, FD_DEALER_SEEDING);
    return slots == 0u ? fd_dealer_close(d) : FD_OK;
}

/* Fixes the order: a pure function of the stored round, no entropy. */
static fd_status derive_order(fd_dealer *d)
{
    const uint16_t cut = d->shoe.cut; /* placed while seeds were open */
    const fd_status st =
        fd_round_deal_order(&d->round.header, d->round.secret, d->round.secret_len, &d->round.seeds, &d->shoe, NULL);
    if (st == FD_OK) {
        /* cannot fail: the derived order has the count the cut was placed on */
        (void)fd_shoe_set_cut(&d->shoe, cut);
        d->round.closed = true;
    }
    return st;
}

fd_status fd_dealer_seed(fd_dealer *d, unsigned slot, const uint8_t *seed, size_t len)
{
    const fd_transition *t;
    const fd_status st = admit(d, FD_CMD_SEED, &t);
    if (st != FD_OK) {
        return st;
    }
    if (slot >= FD_ROUND_SLOTS || (d->round.header.slot_mask & (1u << slot)) == 0u) {
        return FD_ERR_BOUND;
    }
    if (d->round.seeds.len[slot] != 0u) {
        return FD_ERR_EXHAUSTED;
    }
    if (seed == NULL) {
        return FD_ERR_NULL;
    }
    if (fd_dealer_check(d) != FD_OK) {
        enter_fault(d, FD_ERR_CORRUPT);
        return FD_ERR_CORRUPT;
    }
    if (len == 0u) {
        return FD_ERR_EMPTY;
    }
    if (len > FD_ROUND_SEED_MAX) {
        return FD_ERR_TOO_LARGE;
    }
    const fd_status logged = fd_persist_client_seed(JOURNAL(d), slot, seed, len);
    if (logged != FD_OK) {
        return logged;
    }
    const fd_status set = fd_round_seed_set(&d->round.seeds, &d->round.header, slot, seed, len);
    if (set != FD_OK) {
        return set; /* unreachable: slot and length were checked above */
    }
    seal(d, t->next);
    return fd_persist_seeds_complete(&d->round) ? fd_dealer_close(d) : FD_OK;
}

fd_status fd_dealer_close(fd_dealer *d)
{
    const fd_transition *t;
    fd_status st = admit(d, FD_CMD_CLOSE, &t);
    if (st != FD_OK) {
        return st;
    }
    if (fd_dealer_check(d) != FD_OK) {
        enter_fault(d, FD_ERR_CORRUPT);
        return FD_ERR_CORRUPT;
    }
    if (!fd_persist_seeds_complete(&d->round)) {
        /* the replay knows a full set of seeds closes by itself */
        st = fd_persist_seeds_closed(JOURNAL(d));
        if (st != FD_OK) {
            return st;
        }
    }
    st = derive_order(d);
    if (st != FD_OK) {
        enter_fault(d, FD_ERR_CORRUPT); /* the stored round no longer derives: memory damage */
        return FD_ERR_CORRUPT;
    }
    seal(d, t->next);
    return FD_OK;
}

/* Memory is checked before any card leaves the shoe; a mismatch fails
 * closed and keeps the round revealable. */
static fd_status check_before_deal(fd_dealer *d)
{
    if (fd_dealer_check(d) != FD_OK) {
        enter_fault(d, FD_ERR_CORRUPT);
        return FD_ERR_CORRUPT;
    }
    return FD_OK;
}

fd_status fd_dealer_deal(fd_dealer *d, unsigned count, unsigned players, uint16_t *first)
{
    const fd_transition *t;
    fd_status st = admit(d, FD_CMD_DEAL, &t);
    if (st != FD_OK) {
        return st;
    }
    if (first == NULL) {
        return FD_ERR_NULL;
    }
    if (count == 0u || players == 0u) {
        return FD_ERR_EMPTY;
    }
    if (count > FD_SHOE_MAX_CARDS || players > FD_DEALER_MAX_PLAYERS) {
        return FD_ERR_TOO_LARGE;
    }
    st = check_before_deal(d);
    if (st != FD_OK) {
        return st;
    }
    if (count * players > fd_shoe_remaining(&d->shoe)) {
        return FD_ERR_EXHAUSTED;
    }
    st = fd_persist_dealt(JOURNAL(d), d->shoe.position, count * players, players, false);
    if (st != FD_OK) {
        return st;
    }
    *first = d->shoe.position;
    for (unsigned k = 0; k < count * players; k++) {
        fd_card dealt;
        /* cannot fail: count * players <= remaining cards was checked above */
        (void)fd_shoe_deal(&d->shoe, &dealt);
    }
    seal(d, t->next);
    return FD_OK;
}

fd_status fd_dealer_burn(fd_dealer *d)
{
    const fd_transition *t;
    fd_status st = admit(d, FD_CMD_BURN, &t);
    if (st == FD_OK) {
        st = check_before_deal(d);
    }
    if (st == FD_OK && fd_shoe_remaining(&d->shoe) == 0u) {
        st = FD_ERR_EXHAUSTED;
    }
    if (st == FD_OK) {
        st = fd_persist_dealt(JOURNAL(d), d->shoe.position, 1, 1, true);
    }
    if (st != FD_OK) {
        return st;
    }
    fd_card burned;
    st = fd_shoe_deal(&d->shoe, &burned);
    if (st == FD_OK) {
        seal(d, t->next);
    }
    return st;
}

fd_status fd_dealer_cut(fd_dealer *d, uint16_t cut)
{
    const fd_transition *t;
    fd_status st = admit(d, FD_CMD_CUT, &t);
    if (st == FD_OK && cut > d->shoe.count) {
        st = FD_ERR_TOO_LARGE;
    }
    if (st == FD_OK && fd_dealer_round_open(d) && cut != d->shoe.cut) {
        st = fd_persist_cut(JOURNAL(d), cut); /* the open round's cut survives a restart */
    }
    if (st == FD_OK) {
        st = fd_shoe_set_cut(&d->shoe, cut);
    }
    if (st == FD_OK) {
        seal(d, t->next);
    }
    return st;
}

fd_status fd_dealer_reveal(fd_dealer *d)
{
    const fd_transition *t;
    fd_status st = admit(d, FD_CMD_REVEAL, &t);
    if (st != FD_OK) {
        return st;
    }
    /* the material is the same before and after the order is derived */
    st = fd_persist_reveal(JOURNAL(d));
    if (st != FD_OK) {
        return st;
    }
    if (d->round.mode == FD_RECORD_MODE_ROUND && !d->round.closed) {
        /* still open for seeds (or faulted while open): the order is fixed
         * by what was received, so the reply can publish it */
        (void)derive_order(d);
    }
    (void)fd_shoe_invalidate(&d->shoe); /* a revealed order is never dealt from */
    d->round.revealed_rounds++;
    seal(d, t->next);
    return FD_OK;
}

fd_status fd_dealer_selftest(fd_dealer *d, uint32_t *samples)
{
    const fd_transition *t;
    fd_status st = admit(d, FD_CMD_SELFTEST, &t);
    if (st != FD_OK) {
        return st;
    }
    if (samples == NULL) {
        return FD_ERR_NULL;
    }
    const uint32_t before = d->entropy.raw_samples;
    st = run_selftest(d);
    fd_persist_event(JOURNAL(d), FD_REC_SELFTEST, st, 0);
    if (st != FD_OK) {
        enter_fault(d, st);
        return st;
    }
    *samples = d->entropy.raw_samples - before;
    fd_dealer_state next = t->next;
    if (fd_shoe_check(&d->shoe) != FD_OK) {
        /* leaving a memory fault: the shoe cannot be trusted, start afresh */
        if (fd_shoe_init(&d->shoe, d->shoe.kind, d->shoe.decks, d->shoe.jokers) != FD_OK) {
            /* cannot fail: constant, valid arguments */
            (void)fd_shoe_init(&d->shoe, FD_DECK_FRENCH, 1, 0);
        }
        next = FD_DEALER_FACTORY;
    }
    d->fault_status = FD_OK;
    d->fault_health = FD_HEALTH_NONE;
    seal(d, next);
    return FD_OK;
}

fd_status fd_dealer_quit(fd_dealer *d)
{
    const fd_transition *t;
    const fd_status st = admit(d, FD_CMD_QUIT, &t);
    if (st == FD_OK) {
        d->quit = true;
    }
    return st;
}

/* ---- the device secret and lab mode (docs/PROTOCOL.md PROVISION, LAB) ---- */

/* A development build's journal is keyed with the public test secret: it
 * proves nothing, and the new secret's key could not read it (the dealer
 * would refuse rounds over a journal it cannot verify). It stops taking
 * records now and is erased; the next power-up formats it afresh under the
 * new key. A power cut before the erase ends leaves a journal that fails
 * its check: rounds refused until the storage area is erased. */
static fd_status forget_test_journal(fd_dealer *d)
{
    fd_persist *p = &d->persist;
    if (d->secret.origin != FD_SECRET_TEST || !p->attached) {
        return FD_OK;
    }
    p->status = FD_ERR_STATE;
    fd_status st = FD_OK;
    for (uint32_t page = 0; page < p->flash.geometry.page_count && st == FD_OK; page++) {
        st = p->flash.erase(p->flash.ctx, page);
    }
    return st;
}

fd_status fd_dealer_provision(fd_dealer *d, const uint8_t secret[FD_DEVICE_SECRET_BYTES],
                              uint8_t id[FD_DEVICE_ID_BYTES])
{
    const fd_transition *t;
    fd_status st = admit(d, FD_CMD_PROVISION, &t);
    if (st != FD_OK) {
        return st;
    }
    if (d->cfg.secret_page == NULL) {
        return FD_ERR_NOT_READY;
    }
    st = fd_device_secret_provision(d->cfg.secret_page, secret, id);
    if (st == FD_OK) {
        d->restart_required = true;
        st = forget_test_journal(d);
    }
    return st;
}

fd_status fd_dealer_lab_raw(fd_dealer *d, uint8_t *samples, size_t count)
{
    const fd_status st = fd_dealer_admit(d, FD_CMD_LAB_RAW);
    if (st != FD_OK) {
        return st;
    }
    if (samples == NULL) {
        return FD_ERR_NULL;
    }
    return d->cfg.read_samples(d->cfg.read_ctx, samples, count);
}

fd_status fd_dealer_lab_cards(fd_dealer *d, uint32_t bound, uint16_t *out, size_t count)
{
    fd_status st = fd_dealer_admit(d, FD_CMD_LAB_CARDS);
    if (st == FD_OK && out == NULL) {
        st = FD_ERR_NULL;
    }
    if (st == FD_OK && (bound == 0u || bound > UINT16_MAX + 1u)) {
        st = FD_ERR_BOUND;
    }
    if (st == FD_OK) {
        st = fd_dealer_secret_ready(d);
    }
    if (st != FD_OK) {
        return st;
    }
    fd_rng rng;
    st = fd_dealer_begin_round(d, FD_SOURCE_COMBINED, &rng);
    for (size_t i = 0; i < count && st == FD_OK; i++) {
        uint32_t v = 0;
        st = rng.uniform(rng.ctx, bound, &v);
        out[i] = (uint16_t)v;
    }
    fd_combined_clear(&d->combined);
    if (st != FD_OK) {
        fd_wipe(out, count * sizeof *out);
        enter_fault(d, st);
    }
    return st;
}

/* ---- queries ---- */

fd_card fd_dealer_card_at(const fd_dealer *d, uint16_t i) { return d->shoe.order[i]; }

fd_dealer_state fd_dealer_get_state(const fd_dealer *d) { return d->round.state; }

bool fd_dealer_in_fault(const fd_dealer *d)
{
    return d->round.state == FD_DEALER_FAULT || d->round.state == FD_DEALER_FAULT_ROUND_OPEN;
}

bool fd_dealer_round_open(const fd_dealer *d)
{
    return d->round.state == FD_DEALER_ROUND_OPEN || d->round.state == FD_DEALER_FAULT_ROUND_OPEN ||
           d->round.state == FD_DEALER_SEEDING;
}

uint32_t fd_dealer_unrevealed_rounds(const fd_dealer *d) { return d->round.id - d->round.revealed_rounds; }

/* ---- read-only views ---- */

const fd_dealer_config *fd_dealer_get_config(const fd_dealer *d) { return &d->cfg; }

const fd_shoe *fd_dealer_get_shoe(const fd_dealer *d) { return &d->shoe; }

const fd_round *fd_dealer_get_round(const fd_dealer *d) { return &d->round; }

fd_status fd_dealer_fault_status(const fd_dealer *d) { return d->fault_status; }

fd_health_failure fd_dealer_fault_health(const fd_dealer *d) { return d->fault_health; }

fd_secret_origin fd_dealer_secret_origin(const fd_dealer *d) { return d->secret.origin; }

bool fd_dealer_device_id(const fd_dealer *d, uint8_t id[FD_DEVICE_ID_BYTES])
{
    if (!fd_device_secret_usable(&d->secret)) {
        return false;
    }
    memcpy(id, d->secret.id, FD_DEVICE_ID_BYTES);
    return true;
}

fd_seed_file_state fd_dealer_seed_file_state(const fd_dealer *d) { return d->seed_file; }

uint32_t fd_dealer_raw_samples(const fd_dealer *d) { return d->entropy.raw_samples; }

uint32_t fd_dealer_reseeds(const fd_dealer *d) { return d->drbg.reseeds; }

bool fd_dealer_quit_requested(const fd_dealer *d) { return d->quit; }

/* ---- the journal's calls (persist.h), for the transports ---- */

fd_status fd_dealer_time(fd_dealer *d, uint32_t unix_s) { return fd_persist_time(JOURNAL(d), unix_s); }

bool fd_dealer_beacon_last(const fd_dealer *d, unsigned slot, uint64_t *index)
{
    return fd_persist_beacon_last(&d->persist, slot, index);
}

fd_status fd_dealer_seed_file_read(const fd_dealer *d, uint8_t *out, size_t size, size_t *len)
{
    return fd_persist_seed_file_read(&d->persist, out, size, len);
}

fd_status fd_dealer_seed_file_write(fd_dealer *d, const uint8_t *seed, size_t len)
{
    return fd_persist_seed_file_write(&d->persist, seed, len);
}

fd_status fd_dealer_journal_head(const fd_dealer *d, uint8_t head[FD_SHA256_SIZE], uint32_t *next_seq)
{
    return fd_persist_journal_head(&d->persist, head, next_seq);
}

fd_status fd_dealer_journal_walk(fd_dealer *d, fd_journal_visit_fn visit, void *ctx)
{
    return fd_persist_journal_walk(&d->persist, visit, ctx);
}

uint32_t fd_dealer_event_floor(const fd_dealer *d, uint32_t n) { return fd_persist_event_floor(&d->persist, n); }

bool fd_dealer_skipped(const fd_dealer *d, uint32_t i, uint16_t *first, uint16_t *count)
{
    return fd_persist_skipped(&d->persist, i, first, count);
}

uint64_t fd_dealer_link_limit(const fd_dealer *d) { return d->persist.link_limit; }

fd_status fd_dealer_link_keys(const fd_dealer *d, uint8_t psk[FD_NOISE_PSK_SIZE], uint8_t eph_key[FD_SHA256_SIZE])
{
    const fd_status st = fd_link_derive_keys(d->secret.secret, sizeof d->secret.secret, psk, eph_key);
    return st == FD_OK && !fd_device_secret_usable(&d->secret) ? FD_ERR_NOT_READY : st;
}

fd_status fd_dealer_link_reserve(fd_dealer *d, uint64_t limit) { return fd_persist_link_reserve(&d->persist, limit); }

bool fd_dealer_journal_attached(const fd_dealer *d) { return d->persist.attached; }

fd_status fd_dealer_journal_status(const fd_dealer *d) { return d->persist.status; }

const fd_journal_report *fd_dealer_journal_report(const fd_dealer *d) { return &d->persist.report; }

uint32_t fd_dealer_power_on_seq(const fd_dealer *d) { return d->persist.power_on_seq; }

bool fd_dealer_recovered(const fd_dealer *d, uint16_t *position)
{
    *position = d->persist.recovered_position;
    return d->persist.recovered;
}
