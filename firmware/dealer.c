#include "dealer.h"

#include <string.h>

#include "fairdeal/selftest.h"

/* ---- the transition table (docs/PROTOCOL.md, "States") ---- */

#define ALLOW(next) {FD_ALLOW, (next), NULL}
#define REFUSE(why) {FD_REFUSE_STATE, FD_DEALER_FACTORY, (why)}
#define FAULTED {FD_REFUSE_FAULT, FD_DEALER_FACTORY, NULL}

static const char open_round[] = "round open: REVEAL first";
static const char not_shuffled[] = "not shuffled: SHUFFLE first";
static const char revealed[] = "order already revealed: SHUFFLE first";
static const char nothing_to_reveal[] = "no committed shuffle to reveal";

/* Rows: states; columns: HELP NEW SHUFFLE DEAL BURN CUT REVEAL STATUS SELFTEST QUIT. */
static const fd_transition table[FD_DEALER_STATE_COUNT][FD_CMD_COUNT] = {
    [FD_DEALER_FACTORY] = {ALLOW(FD_DEALER_FACTORY), ALLOW(FD_DEALER_FACTORY), ALLOW(FD_DEALER_ROUND_OPEN),
                           REFUSE(not_shuffled), REFUSE(not_shuffled), ALLOW(FD_DEALER_FACTORY),
                           REFUSE(nothing_to_reveal), ALLOW(FD_DEALER_FACTORY), ALLOW(FD_DEALER_FACTORY),
                           ALLOW(FD_DEALER_FACTORY)},
    [FD_DEALER_ROUND_OPEN] = {ALLOW(FD_DEALER_ROUND_OPEN), REFUSE(open_round), REFUSE(open_round),
                              ALLOW(FD_DEALER_ROUND_OPEN), ALLOW(FD_DEALER_ROUND_OPEN), ALLOW(FD_DEALER_ROUND_OPEN),
                              ALLOW(FD_DEALER_REVEALED), ALLOW(FD_DEALER_ROUND_OPEN), REFUSE(open_round),
                              REFUSE(open_round)},
    [FD_DEALER_REVEALED] = {ALLOW(FD_DEALER_REVEALED), ALLOW(FD_DEALER_FACTORY), ALLOW(FD_DEALER_ROUND_OPEN),
                            REFUSE(revealed), REFUSE(revealed), ALLOW(FD_DEALER_REVEALED),
                            REFUSE(nothing_to_reveal), ALLOW(FD_DEALER_REVEALED), ALLOW(FD_DEALER_REVEALED),
                            ALLOW(FD_DEALER_REVEALED)},
    [FD_DEALER_UNSHUFFLED] = {ALLOW(FD_DEALER_UNSHUFFLED), ALLOW(FD_DEALER_FACTORY), ALLOW(FD_DEALER_ROUND_OPEN),
                              REFUSE(not_shuffled), REFUSE(not_shuffled), ALLOW(FD_DEALER_UNSHUFFLED),
                              REFUSE(nothing_to_reveal), ALLOW(FD_DEALER_UNSHUFFLED),
                              ALLOW(FD_DEALER_UNSHUFFLED), ALLOW(FD_DEALER_UNSHUFFLED)},
    [FD_DEALER_FAULT] = {ALLOW(FD_DEALER_FAULT), ALLOW(FD_DEALER_FAULT), FAULTED, FAULTED, FAULTED,
                         ALLOW(FD_DEALER_FAULT), REFUSE(nothing_to_reveal), ALLOW(FD_DEALER_FAULT),
                         ALLOW(FD_DEALER_UNSHUFFLED), ALLOW(FD_DEALER_FAULT)},
    [FD_DEALER_FAULT_ROUND_OPEN] = {ALLOW(FD_DEALER_FAULT_ROUND_OPEN), REFUSE(open_round), FAULTED, FAULTED, FAULTED,
                                    ALLOW(FD_DEALER_FAULT_ROUND_OPEN), ALLOW(FD_DEALER_FAULT),
                                    ALLOW(FD_DEALER_FAULT_ROUND_OPEN), REFUSE(open_round), REFUSE(open_round)},
};

const fd_transition *fd_dealer_transition(fd_dealer_state state, fd_dealer_cmd cmd)
{
    return &table[state][cmd];
}

/* FD_OK and the table entry when the command may run, else its refusal. */
static fd_status admit(const fd_dealer *d, fd_dealer_cmd cmd, const fd_transition **t)
{
    *t = fd_dealer_transition(d->round.state, cmd);
    switch ((*t)->verdict) {
    case FD_ALLOW:
        return FD_OK;
    case FD_REFUSE_STATE:
        return FD_ERR_STATE;
    default:
        return d->fault_status;
    }
}

/* ---- critical memory: a checksum over the round and the shoe's fields ---- */

static size_t put_u32_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
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
    uint8_t buf[40];
    size_t n = 0;
    n += put_u32_be(buf + n, (uint32_t)d->round.state);
    n += put_u32_be(buf + n, d->round.id);
    n += put_u32_be(buf + n, d->round.revealed_rounds);
    buf[n++] = d->round.full ? 1u : 0u;
    buf[n++] = d->shoe.shuffled ? 1u : 0u;
    buf[n++] = (uint8_t)d->shoe.kind;
    buf[n++] = d->shoe.decks;
    buf[n++] = d->shoe.jokers;
    n += put_u32_be(buf + n, ((uint32_t)d->shoe.count << 16) | d->shoe.position);
    n += put_u32_be(buf + n, d->shoe.cut);
    n += put_u32_be(buf + n, (uint32_t)d->fault_status);
    uint32_t h = fnv1a(2166136261u, buf, n);
    h = fnv1a(h, d->round.salt, sizeof d->round.salt);
    return fnv1a(h, d->round.commitment, sizeof d->round.commitment);
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
    fd_drbg_uninstantiate(&d->drbg);
    seal(d, open ? FD_DEALER_FAULT_ROUND_OPEN : FD_DEALER_FAULT);
}

static fd_status entropy_block(void *ctx, uint8_t out[32]) { return fd_entropy_get(ctx, out); }

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
        const fd_drbg_config dc = {d->cfg.drbg_kind, false, 1u << 20, 0};
        static const uint8_t pers[] = "fairdeal dealer";
        st = fd_drbg_instantiate(&d->drbg, &dc, entropy_block, &d->entropy, pers, sizeof pers - 1u);
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
    fd_status st = fd_entropy_init(&d->entropy, cfg->read_samples, cfg->read_ctx, &cfg->health,
                                   cfg->samples_per_block);
    if (st == FD_OK) {
        const fd_rng bytes = fd_entropy_rng(&d->entropy);
        /* cannot fail: both pointers are non-NULL; a source fault shows at the first draw */
        (void)fd_fullentropy_init(&d->full, &bytes);
        st = run_selftest(d);
    }
    if (st != FD_OK) {
        enter_fault(d, st);
        return st;
    }
    seal(d, FD_DEALER_FACTORY);
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
    fd_rng rng;
    if (full) {
        rng = fd_fullentropy_rng(&d->full);
    } else {
        /* fresh entropy into the DRBG before every shuffle */
        st = fd_drbg_reseed(&d->drbg, NULL, 0);
        rng = fd_drbg_rng(&d->drbg);
    }
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
    d->round.id++;
    d->round.full = full;
    memcpy(d->round.salt, salt, sizeof salt);
    fd_wipe(salt, sizeof salt);
    /* cannot fail: the shoe was just shuffled and checked */
    (void)fd_commit_compute(d->round.salt, d->shoe.order, d->shoe.count, d->shoe.kind, d->round.commitment);
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
    const fd_status st = admit(d, FD_CMD_REVEAL, &t);
    if (st != FD_OK) {
        return st;
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

/* ---- queries ---- */

fd_card fd_dealer_card_at(const fd_dealer *d, uint16_t i) { return d->shoe.order[i]; }

fd_dealer_state fd_dealer_get_state(const fd_dealer *d) { return d->round.state; }

bool fd_dealer_in_fault(const fd_dealer *d)
{
    return d->round.state == FD_DEALER_FAULT || d->round.state == FD_DEALER_FAULT_ROUND_OPEN;
}

bool fd_dealer_round_open(const fd_dealer *d)
{
    return d->round.state == FD_DEALER_ROUND_OPEN || d->round.state == FD_DEALER_FAULT_ROUND_OPEN;
}

uint32_t fd_dealer_unrevealed_rounds(const fd_dealer *d) { return d->round.id - d->round.revealed_rounds; }
