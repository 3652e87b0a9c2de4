/* fairdeal-tool verify: check a dealer transcript, or round lines.
 *
 * A transcript is the dealer's console output, taken in machine mode
 * (docs/PROTOCOL.md "Human and machine mode"). Only reply lines are read:
 * a line starting "OK " (so never a human-mode prompt-and-echo line, which
 * starts "> ", nor a banner line), and of those only NEW, SHUFFLE, SEED,
 * CLOSE, DEAL, BURN and REVEAL, each in its documented grammar (verify_text.h: exactly
 * the documented keys once each, numbers and hex strict). For every round:
 * a verifiable round's REVEAL is a docs/VERIFY.md round line with
 * SHUFFLE's header and commitment, exactly the seed slots SEED acknowledged,
 * that derives its order (fd_round_commit, fd_round_deal_order); a commit-only round's (SHUFFLE drbg / full) salt and
 * order hash to SHUFFLE's commit= (fd_commit_compute, docs/ROUND_RECORD.md)
 * and the order is the shoe NEW set up; every DEAL lists seats 1..players in
 * order, each card at its position once, with left= agreeing; every card
 * dealt is the order's card at its position; REVEAL's skipped= matches the
 * round's RECOVERED banners (check_skipped); no round is left unrevealed
 * or replaced by another. */
#include "verify.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fairdeal/commit.h"
#include "fairdeal/round.h"
#include "verify_text.h"

/* a 432-card verifiable REVEAL: S, 8 seeds and the order as ids, ~3.8 KB */
#define MAX_LINE 8192u

typedef struct transcript {
    /* the shoe NEW last set up (power-on: one French deck) */
    fd_deck_kind kind;
    uint8_t decks;
    uint8_t jokers;
    uint16_t shoe_cards;
    /* the open round */
    bool open;
    bool verifiable;
    char header[5][80]; /* a verifiable SHUFFLE's device, id, shoe, slots, beacon as printed */
    char id_text[16];
    unsigned long id;
    uint8_t acked; /* bit i: OK SEED acknowledged slot i */
    uint8_t commitment[FD_COMMIT_SIZE];
    uint16_t next; /* position of the next card dealt or burned */
    bool dealt_at[FD_SHOE_MAX_CARDS];
    char dealt[FD_SHOE_MAX_CARDS][FD_CARD_CODE_SIZE]; /* a burned card: not shown, not recorded */
    int16_t last_start;                               /* where the last DEAL or BURN reply shown began (-1: none) */
    /* per RECOVERED banner card P, at the first banner at P: the next
     * position the transcript had shown (-1: no banner at P), and
     * last_start then */
    int16_t cut_from[FD_SHOE_MAX_CARDS + 1u];
    int16_t cut_last[FD_SHOE_MAX_CARDS + 1u];
    fd_tool_skipped skipped; /* the REVEAL's skipped= */
    unsigned rounds;
    unsigned cards_dealt;
} transcript;

static transcript tr;
static fd_tool_round line_round;
static fd_round_record record;

static const char *const header_keys[] = {"device", "id", "shoe", "slots", "beacon"};

static void copy_text(char *out, size_t size, fd_tool_span s)
{
    const size_t n = s.n < size ? s.n : size - 1u;
    memcpy(out, s.p, n);
    out[n] = '\0';
}

static void on_new(fd_tool_span rest)
{
    static const char *const keys[] = {"deck", "decks", "jokers", "cards", NULL};
    fd_tool_fields f;
    fd_tool_fields_parse(rest, keys, NULL, &f);
    if (tr.open) {
        fd_tool_reject("round %lu was never revealed: NEW replaced its shoe", tr.id);
    }
    const fd_tool_span deck = fd_tool_get(&f, "deck");
    if (fd_deck_parse_kind(deck.p, deck.n, &tr.kind) != FD_OK) {
        fd_tool_reject("unknown deck kind in NEW reply");
    }
    tr.decks = (uint8_t)fd_tool_decimal("decks", fd_tool_get(&f, "decks"), 1, FD_SHOE_MAX_DECKS);
    tr.jokers = (uint8_t)fd_tool_decimal("jokers", fd_tool_get(&f, "jokers"), 0, tr.kind == FD_DECK_FRENCH ? 2u : 0u);
    uint16_t per_deck = 0;
    (void)fd_deck_size(tr.kind, tr.jokers, &per_deck); /* cannot fail: kind and jokers were checked */
    tr.shoe_cards = (uint16_t)(per_deck * tr.decks);
    if (fd_tool_decimal("cards", fd_tool_get(&f, "cards"), 1, FD_SHOE_MAX_CARDS) != tr.shoe_cards) {
        fd_tool_reject("NEW reply describes no valid shoe: cards= is not %u", tr.shoe_cards);
    }
}

/* state=seeding, or state=closed with label=seeded / house-only */
static void check_state(const fd_tool_fields *f)
{
    const fd_tool_span state = fd_tool_get(f, "state");
    const fd_tool_span label = fd_tool_get(f, "label");
    if (!fd_tool_is(state, "seeding") && !fd_tool_is(state, "closed")) {
        fd_tool_reject("malformed state=: not seeding or closed");
    }
    if ((label.p != NULL) != fd_tool_is(state, "closed") ||
        (label.p != NULL && !fd_tool_is(label, "seeded") && !fd_tool_is(label, "house-only"))) {
        fd_tool_reject("mislabelled: label= goes with state=closed, and is seeded or house-only");
    }
}

static void on_shuffle(fd_tool_span rest)
{
    static const char *const mode_only[] = {"mode", NULL};
    static const char *const any[] = {"device", "id",     "shoe",  "slots",      "beacon", "cards",
                                      "state",  "commit", "label", "commitment", NULL};
    static const char *const round_keys[] = {"mode",   "device", "id",         "shoe",  "slots",
                                             "beacon", "cards",  "commitment", "state", NULL};
    static const char *const round_optional[] = {"label", NULL};
    static const char *const commit_keys[] = {"id", "mode", "cards", "commit", NULL};
    fd_tool_fields f;
    fd_tool_fields_parse(rest, mode_only, any, &f);
    const fd_tool_span mode = fd_tool_get(&f, "mode");
    tr.verifiable = fd_tool_is(mode, "round");
    if (tr.verifiable) {
        fd_tool_fields_parse(rest, round_keys, round_optional, &f);
        fd_round_header h;
        memset(&h, 0, sizeof h);
        (void)fd_tool_hex("device", fd_tool_get(&f, "device"), h.device_id, 1, FD_ROUND_DEVICE_ID_MAX);
        fd_tool_shoe(fd_tool_get(&f, "shoe"), &h.kind, &h.decks, &h.jokers);
        if (h.kind != tr.kind || h.decks != tr.decks || h.jokers != tr.jokers) {
            fd_tool_reject("SHUFFLE shoe= is not the shoe NEW set up (%s:%u:%u)", fd_deck_kind_name(tr.kind), tr.decks,
                           tr.jokers);
        }
        (void)fd_tool_hex("slots", fd_tool_get(&f, "slots"), &h.slot_mask, 1, 1);
        fd_tool_beacon(fd_tool_get(&f, "beacon"), &h);
        (void)fd_tool_hex("commitment", fd_tool_get(&f, "commitment"), tr.commitment, FD_COMMIT_SIZE, FD_COMMIT_SIZE);
        check_state(&f);
        const fd_tool_span label = fd_tool_get(&f, "label");
        if (label.p != NULL && !fd_tool_is(label, "house-only")) {
            fd_tool_reject("mislabelled: a round closed at SHUFFLE is house-only");
        }
        for (size_t i = 0; i < sizeof header_keys / sizeof header_keys[0]; i++) {
            copy_text(tr.header[i], sizeof tr.header[i], fd_tool_get(&f, header_keys[i]));
        }
    } else if (fd_tool_is(mode, "drbg") || fd_tool_is(mode, "full")) {
        fd_tool_fields_parse(rest, commit_keys, NULL, &f);
        (void)fd_tool_hex("commit", fd_tool_get(&f, "commit"), tr.commitment, FD_COMMIT_SIZE, FD_COMMIT_SIZE);
    } else {
        fd_tool_reject("SHUFFLE mode= is not round, drbg or full");
    }
    const unsigned long id = (unsigned long)fd_tool_decimal("id", fd_tool_get(&f, "id"), 0, UINT32_MAX);
    if (tr.open) {
        fd_tool_reject("round %lu was never revealed: round %lu replaced it", tr.id, id);
    }
    if (fd_tool_decimal("cards", fd_tool_get(&f, "cards"), 1, FD_SHOE_MAX_CARDS) != tr.shoe_cards) {
        fd_tool_reject("round %lu: cards= is not %u, the cards of the shoe", id, tr.shoe_cards);
    }
    copy_text(tr.id_text, sizeof tr.id_text, fd_tool_get(&f, "id"));
    tr.open = true;
    tr.id = id;
    tr.acked = 0;
    tr.next = 0;
    memset(tr.dealt_at, 0, sizeof tr.dealt_at);
    tr.last_start = -1;
    for (size_t i = 0; i < sizeof tr.cut_from / sizeof tr.cut_from[0]; i++) {
        tr.cut_from[i] = -1;
    }
}

/* "OK SEED id= slot= state= [label=]" and "OK CLOSE id= state= label=" of
 * the open verifiable round; SEED's slot must be in REVEAL's seeds=. */
static void on_seed_or_close(fd_tool_span rest, bool seed)
{
    static const char *const seed_keys[] = {"id", "slot", "state", NULL};
    static const char *const close_keys[] = {"id", "state", "label", NULL};
    static const char *const optional[] = {"label", NULL};
    fd_tool_fields f;
    fd_tool_fields_parse(rest, seed ? seed_keys : close_keys, seed ? optional : NULL, &f);
    if (!tr.open || !tr.verifiable) {
        fd_tool_reject("%s outside a verifiable round", seed ? "SEED" : "CLOSE");
    }
    if (fd_tool_decimal("id", fd_tool_get(&f, "id"), 0, UINT32_MAX) != tr.id) {
        fd_tool_reject("round %lu: %s id= differ from SHUFFLE's", tr.id, seed ? "SEED" : "CLOSE");
    }
    if (seed) {
        const unsigned slot = (unsigned)fd_tool_decimal("slot", fd_tool_get(&f, "slot"), 0, FD_ROUND_SLOTS - 1u);
        if (((tr.acked >> slot) & 1u) != 0u) {
            fd_tool_reject("round %lu: seed slot %u acknowledged twice", tr.id, slot);
        }
        tr.acked = (uint8_t)(tr.acked | (1u << slot));
    }
    check_state(&f);
}

static void on_seed(fd_tool_span rest) { on_seed_or_close(rest, true); }

static void on_close(fd_tool_span rest) { on_seed_or_close(rest, false); }

/* A card code of the shoe NEW set up. */
static fd_card card_of(fd_tool_span code)
{
    fd_card face = 0;
    if (code.n == 0u || code.n >= FD_CARD_CODE_SIZE || fd_card_parse(code.p, code.n, tr.kind, &face) != FD_OK ||
        (face >= 52u && tr.jokers == 0u)) {
        fd_tool_reject("'%.*s' is not a card of the shoe", (int)(code.n > 8u ? 8u : code.n), code.p);
    }
    return face;
}

static void dealt(fd_tool_span code, uint16_t at)
{
    (void)card_of(code);
    if (at >= tr.shoe_cards) {
        fd_tool_reject("round %lu: more cards dealt than the shoe holds", tr.id);
    }
    tr.dealt_at[at] = true;
    copy_text(tr.dealt[at], sizeof tr.dealt[at], code);
}

/* left= (and reshuffle=due) after count more cards */
static void check_left(const fd_tool_fields *f, uint16_t count)
{
    const fd_tool_span reshuffle = fd_tool_get(f, "reshuffle");
    if (reshuffle.p != NULL && !fd_tool_is(reshuffle, "due")) {
        fd_tool_reject("malformed reshuffle=: only reshuffle=due");
    }
    const uint64_t left = fd_tool_decimal("left", fd_tool_get(f, "left"), 0, FD_SHOE_MAX_CARDS);
    if ((unsigned)tr.next + count > tr.shoe_cards || left != (uint64_t)(tr.shoe_cards - tr.next - count)) {
        fd_tool_reject("round %lu: left=%llu does not agree with %u cards dealt of %u", tr.id, (unsigned long long)left,
                       (unsigned)tr.next + count, tr.shoe_cards);
    }
}

/* "OK DEAL 7H QS left=50" or "OK DEAL 1:7H,2C 2:QS,TD left=48": card c of
 * seat p (1..players, in order) is card c * players + p - 1 of the deal. */
static void on_deal(fd_tool_span rest)
{
    static const char *const keys[] = {"left", NULL};
    static const char *const optional[] = {"reshuffle", NULL};
    if (!tr.open) {
        fd_tool_reject("DEAL outside a round");
    }
    /* the cards end where the first key=value field starts */
    fd_tool_span cards = rest;
    fd_tool_span fields = {rest.p + rest.n, 0};
    fd_tool_span walk = rest;
    bool more = rest.n != 0u;
    while (more) {
        const char *start = walk.p;
        const fd_tool_span word = fd_tool_next(&walk, ' ', &more);
        if (word.n != 0u && memchr(word.p, '=', word.n) != NULL) {
            fields = (fd_tool_span){start, (size_t)(rest.p + rest.n - start)};
            cards.n = start == rest.p ? 0u : (size_t)(start - rest.p) - 1u;
            break;
        }
    }
    fd_tool_fields f;
    fd_tool_fields_parse(fields, keys, optional, &f);
    if (cards.n == 0u) {
        fd_tool_reject("malformed DEAL reply: no cards");
    }
    const bool seats = memchr(cards.p, ':', cards.n) != NULL;
    unsigned players = 0;
    size_t per_seat = 0;
    walk = cards;
    more = true;
    while (more) {
        fd_tool_span group = fd_tool_next(&walk, ' ', &more);
        if (group.n == 0u) {
            fd_tool_reject("malformed DEAL reply: an empty field");
        }
        players++;
        if (!seats) {
            dealt(group, (uint16_t)(tr.next + players - 1u));
            continue;
        }
        bool has_cards = false;
        const fd_tool_span seat = fd_tool_next(&group, ':', &has_cards);
        char want[12];
        (void)snprintf(want, sizeof want, "%u", players);
        if (!has_cards || !fd_tool_is(seat, want)) {
            fd_tool_reject("seat '%.*s' where seat %u was due (seats 1..players in order)",
                           (int)(seat.n > 8u ? 8u : seat.n), seat.p, players);
        }
        size_t n = 0;
        bool next_card = true;
        while (next_card) {
            (void)fd_tool_next(&group, ',', &next_card);
            n++;
        }
        if (players > 1u && n != per_seat) {
            fd_tool_reject("seats hold different numbers of cards");
        }
        per_seat = n;
    }
    uint16_t total = (uint16_t)players;
    if (seats) {
        if (per_seat * players > FD_SHOE_MAX_CARDS) {
            fd_tool_reject("round %lu: more cards dealt than the shoe holds", tr.id);
        }
        total = (uint16_t)(per_seat * players);
        walk = cards;
        more = true;
        for (unsigned p = 0; more; p++) {
            fd_tool_span group = fd_tool_next(&walk, ' ', &more);
            bool next_card = true;
            (void)fd_tool_next(&group, ':', &next_card);
            for (unsigned c = 0; next_card; c++) {
                dealt(fd_tool_next(&group, ',', &next_card), (uint16_t)(tr.next + c * players + p));
            }
        }
    }
    check_left(&f, total);
    tr.last_start = (int16_t)tr.next;
    tr.next = (uint16_t)(tr.next + total);
    tr.cards_dealt += total;
}

static void on_burn(fd_tool_span rest)
{
    static const char *const keys[] = {"left", NULL};
    static const char *const optional[] = {"reshuffle", NULL};
    fd_tool_fields f;
    fd_tool_fields_parse(rest, keys, optional, &f);
    if (!tr.open) {
        fd_tool_reject("BURN outside a round");
    }
    check_left(&f, 1);
    tr.last_start = (int16_t)tr.next;
    tr.next++; /* a burned card is not counted as dealt */
}

static void check_dealt(void)
{
    for (uint16_t i = 0; i < tr.next; i++) {
        char code[FD_CARD_CODE_SIZE];
        if (!tr.dealt_at[i]) {
            continue; /* burned */
        }
        if (i >= record.count || fd_card_format(record.order[i], tr.kind, code) != FD_OK ||
            strcmp(code, tr.dealt[i]) != 0) {
            fd_tool_reject("round %lu: dealt card %u was %s, the order's card there is %s", tr.id, i + 1u, tr.dealt[i],
                           i < record.count ? code : "none");
        }
    }
}

/* skipped= against the round's power cuts (docs/VERIFY.md section 10). A
 * power cut marks the journal's newest deal: the one it hid (from the next
 * position shown to the banner's card P - 1) or, when it hid none, the last
 * one shown. So every range ends at a RECOVERED banner's P - 1 and starts at
 * that cut's deal, and every position a cut hid is in a range. */
static void check_skipped(void)
{
    const fd_tool_skipped *k = &tr.skipped;
    for (unsigned i = 0; i < k->count; i++) {
        const unsigned at = k->last[i] + 1u;
        if (tr.cut_from[at] < 0) {
            fd_tool_reject("round %lu: skipped=%u-%u ends at no power cut", tr.id, k->first[i], k->last[i]);
        }
        const int16_t want = tr.cut_from[at] < (int16_t)at ? tr.cut_from[at] : tr.cut_last[at];
        if ((int)k->first[i] != want) {
            fd_tool_reject("round %lu: skipped=%u-%u does not start where the cut deal started", tr.id, k->first[i],
                           k->last[i]);
        }
    }
    for (unsigned at = 0; at <= tr.shoe_cards; at++) {
        const int16_t shown = tr.cut_from[at];
        bool covered = shown < 0 || shown == (int16_t)at;
        for (unsigned i = 0; i < k->count && !covered; i++) {
            covered = k->last[i] + 1u == at;
        }
        if (!covered) {
            fd_tool_reject("round %lu: positions %d-%u hidden by a power cut are not in skipped=", tr.id, shown,
                           at - 1u);
        }
    }
}

/* A verifiable round's REVEAL: a round line with SHUFFLE's header. */
static void on_reveal_round(fd_tool_span rest)
{
    fd_tool_round_parse(rest, &line_round);
    for (size_t i = 0; i < sizeof header_keys / sizeof header_keys[0]; i++) {
        if (!fd_tool_is(fd_tool_get(&line_round.f, header_keys[i]), tr.header[i])) {
            fd_tool_reject("round %lu: REVEAL's device, id, shoe, slots or beacon differ from SHUFFLE's", tr.id);
        }
    }
    if (memcmp(line_round.commitment, tr.commitment, FD_COMMIT_SIZE) != 0) {
        fd_tool_reject("round %lu: REVEAL's commitment is not the one SHUFFLE published", tr.id);
    }
    for (unsigned slot = 0; slot < FD_ROUND_SLOTS; slot++) {
        if ((line_round.seeds.len[slot] != 0u) != (((tr.acked >> slot) & 1u) != 0u)) {
            fd_tool_reject("round %lu: %s (slot %u): seeds= slots are not the slots SEED acknowledged", tr.id,
                           line_round.seeds.len[slot] != 0u ? "a seed the dealer never accepted is revealed"
                                                            : "a seed the dealer accepted is missing",
                           slot);
        }
    }
    fd_tool_round_verify(&line_round);
    tr.skipped = line_round.skipped;
    record.count = line_round.count;
    memcpy(record.order, line_round.order, sizeof record.order[0] * line_round.count);
}

/* The order's codes to card ids: the k-th copy of a face is deck k's; the
 * j-th "JK" is face 52 + j mod jokers of deck j / jokers. */
static fd_card card_id(fd_card face, uint8_t copies[64], unsigned *jokers_seen)
{
    if (face == 52u) {
        const unsigned j = (*jokers_seen)++;
        return (fd_card)((((j / tr.jokers) & 7u) << FD_CARD_COPY_SHIFT) | (52u + j % tr.jokers));
    }
    return (fd_card)(((unsigned)(copies[face]++ & 7u) << FD_CARD_COPY_SHIFT) | face);
}

/* A commit-only round's REVEAL: "id= [seq= head=] salt= order=CODE CODE ...". */
static void on_reveal_commit(fd_tool_span rest)
{
    static const char *const keys[] = {"id", "salt", NULL};
    static const char *const optional[] = {"seq", "head", "skipped", NULL};
    const char *at = NULL;
    for (size_t i = 0; i + 7u <= rest.n && at == NULL; i++) {
        at = memcmp(rest.p + i, " order=", 7) == 0 ? rest.p + i : NULL;
    }
    if (at == NULL) {
        fd_tool_reject("missing key order=");
    }
    fd_tool_fields f;
    fd_tool_fields_parse((fd_tool_span){rest.p, (size_t)(at - rest.p)}, keys, optional, &f);
    if (!fd_tool_is(fd_tool_get(&f, "id"), tr.id_text)) {
        fd_tool_reject("round %lu: REVEAL's id= differ from SHUFFLE's", tr.id);
    }
    uint8_t scratch[FD_SHA256_SIZE];
    if (fd_tool_get(&f, "seq").p != NULL) {
        (void)fd_tool_decimal("seq", fd_tool_get(&f, "seq"), 0, UINT32_MAX);
    }
    if (fd_tool_get(&f, "head").p != NULL) {
        (void)fd_tool_hex("head", fd_tool_get(&f, "head"), scratch, FD_SHA256_SIZE, FD_SHA256_SIZE);
    }
    if (fd_tool_get(&f, "skipped").p != NULL) {
        fd_tool_skipped_parse(fd_tool_get(&f, "skipped"), tr.shoe_cards, &tr.skipped);
    }
    memset(&record, 0, sizeof record);
    (void)fd_tool_hex("salt", fd_tool_get(&f, "salt"), record.salt, FD_COMMIT_SALT_SIZE, FD_COMMIT_SALT_SIZE);
    fd_tool_span order = {at + 7, rest.n - (size_t)(at + 7 - rest.p)};
    uint8_t copies[64] = {0};
    unsigned jokers_seen = 0;
    bool more = true;
    while (more) {
        const fd_card face = card_of(fd_tool_next(&order, ' ', &more));
        if (record.count == FD_SHOE_MAX_CARDS) {
            fd_tool_reject("round %lu: order is not a permutation of the shoe", tr.id);
        }
        record.order[record.count++] = card_id(face, copies, &jokers_seen);
    }
    if (fd_shoe_order_check(tr.kind, tr.decks, tr.jokers, record.order, record.count) != FD_OK) {
        fd_tool_reject("round %lu: order is not a permutation of the shoe", tr.id);
    }
    uint8_t digest[FD_COMMIT_SIZE];
    /* cannot fail: the order was just checked to be a permutation of the shoe */
    (void)fd_commit_compute(record.salt, record.order, record.count, tr.kind, digest);
    if (memcmp(digest, tr.commitment, sizeof digest) != 0) {
        fd_tool_reject("round %lu: commitment does not match the revealed salt and order", tr.id);
    }
    record.round_id = (uint32_t)tr.id;
    record.kind = tr.kind;
    record.decks = tr.decks;
    record.jokers = tr.jokers;
    memcpy(record.commitment, tr.commitment, FD_COMMIT_SIZE);
    record.revealed = true;
    record.dealt = tr.next;
    if (fd_record_verify(&record) != FD_OK) {
        fd_tool_reject("round %lu: the round record does not verify", tr.id);
    }
}

static void on_reveal(fd_tool_span rest)
{
    if (!tr.open) {
        fd_tool_reject("REVEAL outside a round");
    }
    memset(&record, 0, sizeof record);
    memset(&tr.skipped, 0, sizeof tr.skipped);
    if (tr.verifiable) {
        on_reveal_round(rest);
    } else {
        on_reveal_commit(rest);
    }
    check_skipped();
    check_dealt();
    tr.open = false;
    tr.rounds++;
}

/* The banner after a power cut (docs/PROTOCOL.md "Power loss"): "*** RECOVERED
 * open round id=N after a power cut at card P: ...". Cards up to position P
 * were journalled as dealt; those whose reply was lost are not in the
 * transcript, and dealing continues at P. */
static void on_recovered(fd_tool_span rest)
{
    static const char at_card[] = " after a power cut at card ";
    bool more = false;
    const fd_tool_span id = fd_tool_next(&rest, ' ', &more);
    if (!more || rest.n < sizeof at_card - 2u || memcmp(rest.p, at_card + 1, sizeof at_card - 2u) != 0) {
        fd_tool_reject("malformed RECOVERED banner");
    }
    rest.p += sizeof at_card - 2u;
    rest.n -= sizeof at_card - 2u;
    const char *colon = memchr(rest.p, ':', rest.n);
    const uint64_t round = fd_tool_decimal("id", id, 0, UINT32_MAX);
    const uint64_t position = fd_tool_decimal(
        "card", (fd_tool_span){rest.p, colon != NULL ? (size_t)(colon - rest.p) : rest.n}, 0, FD_SHOE_MAX_CARDS);
    if (!tr.open || round != tr.id) {
        return; /* a round this transcript did not see open: its REVEAL is refused below */
    }
    if (position < tr.next || position > tr.shoe_cards) {
        fd_tool_reject("round %lu: a power cut at card %llu, but %u cards were dealt", tr.id,
                       (unsigned long long)position, tr.next);
    }
    if (tr.cut_from[position] < 0) {
        tr.cut_from[position] = (int16_t)tr.next;
        tr.cut_last[position] = tr.last_start;
    }
    tr.next = (uint16_t)position;
}

static void on_line(fd_tool_span line)
{
    static const struct {
        const char *word;
        void (*read)(fd_tool_span rest);
    } replies[] = {{"NEW", on_new},   {"SHUFFLE", on_shuffle}, {"SEED", on_seed},    {"CLOSE", on_close},
                   {"DEAL", on_deal}, {"BURN", on_burn},       {"REVEAL", on_reveal}};
    static const char recovered[] = "*** RECOVERED open round id=";
    if (line.n > sizeof recovered - 1u && memcmp(line.p, recovered, sizeof recovered - 1u) == 0) {
        on_recovered((fd_tool_span){line.p + sizeof recovered - 1u, line.n - (sizeof recovered - 1u)});
        return;
    }
    bool more = false;
    fd_tool_span rest = line;
    if (!fd_tool_is(fd_tool_next(&rest, ' ', &more), "OK") || !more) {
        return; /* not a reply this verifier reads: ERR, banner, human mode's prompt and echo */
    }
    const fd_tool_span word = fd_tool_next(&rest, ' ', &more);
    for (size_t i = 0; i < sizeof replies / sizeof replies[0]; i++) {
        if (fd_tool_is(word, replies[i].word)) {
            replies[i].read(more ? rest : (fd_tool_span){rest.p, 0});
            return;
        }
    }
}

int fd_tool_verify(FILE *in)
{
    static char line[MAX_LINE];
    memset(&tr, 0, sizeof tr);
    tr.kind = FD_DECK_FRENCH;
    tr.decks = 1;
    tr.shoe_cards = 52;
    unsigned long line_no = 0;
    size_t len = 0;
    fd_tool_context("line 1");
    while (fd_tool_read_line(in, line, sizeof line, &len)) {
        fd_tool_context("line %lu", ++line_no);
        on_line((fd_tool_span){line, len});
    }
    if (tr.open) {
        fd_tool_reject("round %lu was never revealed", tr.id);
    }
    if (tr.rounds == 0u) {
        fd_tool_reject("no revealed round in the transcript");
    }
    printf("OK verify rounds=%u dealt=%u\n", tr.rounds, tr.cards_dealt);
    return 0;
}

int fd_tool_verify_rounds(FILE *in)
{
    static char line[MAX_LINE];
    unsigned long line_no = 0;
    unsigned rounds = 0;
    size_t len = 0;
    fd_tool_context("line 1");
    while (fd_tool_read_line(in, line, sizeof line, &len)) {
        fd_tool_context("line %lu", ++line_no);
        if (len == 0u || line[0] == '#') {
            continue;
        }
        fd_tool_round_parse((fd_tool_span){line, len}, &line_round);
        fd_tool_round_verify(&line_round);
        rounds++;
    }
    if (rounds == 0u) {
        fd_tool_reject("no round line");
    }
    printf("OK verify rounds=%u\n", rounds);
    return 0;
}
