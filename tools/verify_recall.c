/* fairdeal-tool verify --recall: a RECALL reply (docs/PROTOCOL.md) checked
 * without the device. Strict (verify_text.h): the reply is
 * "OK RECALL newest=N n=N" then " | id=N ..." groups and the chain's
 * "seq= head=" at the end; every field of a hand is written once (seed=
 * once per slot, cards@P once per position), numbers and hex strict. The
 * groups of one hand are merged by id (compaction can split a hand), then:
 * a hand with anything but its REVEAL summary carries its ROUND_OPENED
 * fields (mode= first of all: no hand is checked without its mode); its
 * seeds sit in slots its header accepts; every cards@ group lists seats
 * 1..players in order (card k of a DEAL goes to seat k mod players + 1), a
 * burn only alone; every hand whose material was revealed recomputes its
 * commitment (S with the round header and seeds, or the salt and order),
 * its reveal hash, and every card listed is the order's card at its
 * position. Each skipped= (one per SKIPPED record: one range) is one deal
 * the hand lists: the cards@ groups of its records, each but the last of
 * 120 cards (docs/RECORDS.md "Replay"); at most 4 per hand, disjoint
 * (docs/PROTOCOL.md "Power loss").
 * The keyed chain itself is checked on the stored journal
 * (verify --journal); the recall carries its head and seq to compare. */
#include <stdio.h>
#include <string.h>

#include "fairdeal/commit.h"
#include "fairdeal/records.h"
#include "fairdeal/sha256.h"
#include "verify_journal.h"
#include "verify_text.h"

#define MAX_HANDS 128u
#define MAX_LINE (1u << 20)

/* ROUND_OPENED's fields, in the order they are checked */
enum {
    F_MODE,
    F_SHOE,
    F_COMMITMENT,
    F_PARTS,
    F_DEVICE,
    F_SLOTS,
    F_BEACON,
    F_REVEALED,
    F_HASH,
    F_COUNT
};
static const char *const single_keys[F_COUNT] = {"mode",  "shoe",   "commitment", "parts",      "device",
                                                 "slots", "beacon", "revealed",   "reveal_hash"};

typedef struct hand {
    uint32_t id;
    fd_tool_span single[F_COUNT];      /* .p == NULL: not written */
    fd_tool_span seed[FD_ROUND_SLOTS]; /* by slot */
    fd_tool_span part[FD_REC_MAX_PARTS];
    bool material; /* anything but the REVEAL summary was written */
    bool dealt_at[FD_SHOE_MAX_CARDS];
    fd_tool_span dealt[FD_SHOE_MAX_CARDS];
    uint16_t group_len[FD_SHOE_MAX_CARDS]; /* the cards of the cards@ group starting here (0: none) */
    fd_tool_skipped skipped;               /* the skipped= ranges, as listed */
} hand;

static hand hands[MAX_HANDS];
static uint32_t hand_count;
static char line[MAX_LINE];
static fd_shoe shoe;

static hand *hand_of(uint32_t id)
{
    for (uint32_t i = 0; i < hand_count; i++) {
        if (hands[i].id == id) {
            return &hands[i];
        }
    }
    if (hand_count == MAX_HANDS) {
        fd_tool_reject("more hands than the verifier holds (%u)", MAX_HANDS);
    }
    hand *h = &hands[hand_count++];
    memset(h, 0, sizeof *h);
    h->id = id;
    return h;
}

/* "1:AS,2:KH,1:2C,2:TD" (seats cycle 1..players) or "burn:2C" from position pos on. */
static void read_cards(hand *h, fd_tool_span pos_text, fd_tool_span v)
{
    const unsigned pos = (unsigned)fd_tool_decimal("cards@", pos_text, 0, FD_SHOE_MAX_CARDS - 1u);
    unsigned seats[FD_SHOE_MAX_CARDS];
    fd_tool_span codes[FD_SHOE_MAX_CARDS];
    unsigned n = 0;
    unsigned players = 0;
    bool burn = false;
    bool more = true;
    while (more) {
        fd_tool_span item = fd_tool_next(&v, ',', &more);
        bool has_code = false;
        const fd_tool_span seat = fd_tool_next(&item, ':', &has_code);
        if (!has_code || n == FD_SHOE_MAX_CARDS) {
            fd_tool_reject("malformed cards@%u: not SEAT:CARD,...", pos);
        }
        burn = burn || fd_tool_is(seat, "burn");
        seats[n] = fd_tool_is(seat, "burn") ? 0u : (unsigned)fd_tool_decimal("seat", seat, 1, 8);
        players = seats[n] > players ? seats[n] : players;
        codes[n++] = item;
    }
    if (burn && n != 1u) {
        fd_tool_reject("cards@%u: a burn within a deal (a BURN is one card, alone)", pos);
    }
    for (unsigned k = 0; !burn && k < n; k++) {
        if (seats[k] != k % players + 1u || n % players != 0u) {
            fd_tool_reject("cards@%u: seat %u at card %u (seats 1..%u in order, each as often)", pos, seats[k], k,
                           players);
        }
    }
    if (pos + n > FD_SHOE_MAX_CARDS) {
        fd_tool_reject("position %u written twice or beyond the shoe", FD_SHOE_MAX_CARDS);
    }
    h->group_len[pos] = (uint16_t)n;
    for (unsigned k = 0; k < n; k++) {
        if (pos + k >= FD_SHOE_MAX_CARDS || h->dealt_at[pos + k]) {
            fd_tool_reject("position %u written twice or beyond the shoe", pos + k);
        }
        h->dealt_at[pos + k] = true;
        h->dealt[pos + k] = codes[k];
    }
}

/* One "key=value" field of hand h. */
static void read_field(hand *h, fd_tool_span key, fd_tool_span v)
{
    for (unsigned i = 0; i < F_COUNT; i++) {
        if (fd_tool_is(key, single_keys[i])) {
            if (h->single[i].p != NULL) {
                fd_tool_reject("duplicate key %s=", single_keys[i]);
            }
            h->single[i] = v;
            h->material = h->material || (i != F_REVEALED && i != F_HASH);
            return;
        }
    }
    h->material = true;
    if (fd_tool_is(key, "seed")) {
        bool more = false;
        fd_tool_span rest = v;
        const unsigned slot =
            (unsigned)fd_tool_decimal("seed slot", fd_tool_next(&rest, ':', &more), 0, FD_ROUND_SLOTS - 1u);
        if (!more) {
            fd_tool_reject("malformed seed=: not SLOT:HEX");
        }
        if (h->seed[slot].p != NULL) {
            fd_tool_reject("seed=: duplicate slot %u", slot);
        }
        h->seed[slot] = v;
        return;
    }
    if (fd_tool_is(key, "skipped")) {
        fd_tool_skipped one;
        fd_tool_skipped_parse(v, FD_SHOE_MAX_CARDS, &one);
        if (one.count != 1u) {
            fd_tool_reject("skipped= more than one range in one field (one per SKIPPED record)");
        }
        if (h->skipped.count == FD_REC_SKIPPED_MAX) {
            fd_tool_reject("skipped= more than %u ranges", FD_REC_SKIPPED_MAX);
        }
        h->skipped.first[h->skipped.count] = one.first[0];
        h->skipped.last[h->skipped.count] = one.last[0];
        h->skipped.count++;
        return;
    }
    if (key.n > 6u && memcmp(key.p, "cards@", 6) == 0) {
        read_cards(h, (fd_tool_span){key.p + 6, key.n - 6u}, v);
        return;
    }
    if (key.n > 6u && memcmp(key.p, "reveal", 6) == 0) {
        const unsigned i =
            (unsigned)fd_tool_decimal("reveal part", (fd_tool_span){key.p + 6, key.n - 6u}, 0, FD_REC_MAX_PARTS - 1u);
        if (h->part[i].p != NULL) {
            fd_tool_reject("duplicate key reveal%u=", i);
        }
        h->part[i] = v;
        return;
    }
    fd_tool_reject("unknown key %.*s=", (int)(key.n > 16u ? 16u : key.n), key.p);
}

/* The hand's skipped= ranges: disjoint, each one deal's cards@ groups. */
static void check_skipped(const hand *h)
{
    const fd_tool_skipped *k = &h->skipped;
    for (unsigned i = 0; i < k->count; i++) {
        for (unsigned j = 0; j < k->count; j++) {
            if (i != j && k->first[i] <= k->last[j] && k->first[j] <= k->last[i]) {
                fd_tool_reject("skipped= ranges overlap or are out of order");
            }
        }
        for (unsigned p = k->first[i]; p <= k->last[i]; p++) {
            if (!h->dealt_at[p]) {
                fd_tool_reject("skipped=%u-%u: position %u was never dealt", k->first[i], k->last[i], p);
            }
        }
        unsigned at = k->first[i];
        unsigned len = FD_REC_DEALT_CARDS_MAX;
        while (at <= k->last[i] && len == FD_REC_DEALT_CARDS_MAX) { /* a deal's records: all but the last of 120 */
            len = h->group_len[at];
            at += len;
        }
        if (at != k->last[i] + 1u || len == 0u) {
            fd_tool_reject("skipped=%u-%u is not one deal the hand lists", k->first[i], k->last[i]);
        }
    }
}

static void check_hand(hand *h, uint32_t *verified)
{
    static uint8_t material[FD_REC_MAX_PARTS * FD_REC_SECRET_PART];
    fd_tool_context("recall: hand %lu", (unsigned long)h->id);
    if (!h->material) {
        return; /* only the REVEAL summary is kept: nothing to recompute */
    }
    check_skipped(h);
    for (unsigned i = 0; i < F_BEACON; i++) { /* beacon= only for a round that named one */
        if (h->single[i].p == NULL) {
            fd_tool_reject("missing key %s=", single_keys[i]);
        }
    }
    uint8_t mode = 0;
    if (fd_tool_is(h->single[F_MODE], "round")) {
        mode = FD_RECORD_MODE_ROUND;
    } else if (fd_tool_is(h->single[F_MODE], "full")) {
        mode = FD_RECORD_MODE_FULL;
    } else if (fd_tool_is(h->single[F_MODE], "drbg")) {
        mode = FD_RECORD_MODE_DRBG;
    } else {
        fd_tool_reject("malformed mode=: not round, drbg or full");
    }
    fd_round_header hd;
    memset(&hd, 0, sizeof hd);
    hd.round_id = h->id;
    fd_tool_shoe(h->single[F_SHOE], &hd.kind, &hd.decks, &hd.jokers);
    uint8_t commitment[FD_SHA256_SIZE];
    (void)fd_tool_hex("commitment", h->single[F_COMMITMENT], commitment, FD_SHA256_SIZE, FD_SHA256_SIZE);
    const unsigned parts = (unsigned)fd_tool_decimal("parts", h->single[F_PARTS], 1, FD_REC_MAX_PARTS);
    hd.device_id_len = (uint8_t)fd_tool_hex("device", h->single[F_DEVICE], hd.device_id,
                                            mode == FD_RECORD_MODE_ROUND ? 1u : 0u, FD_ROUND_DEVICE_ID_MAX);
    (void)fd_tool_hex("slots", h->single[F_SLOTS], &hd.slot_mask, 1, 1);
    hd.beacon_slot = FD_ROUND_NO_BEACON;
    if (h->single[F_BEACON].p != NULL) {
        fd_tool_beacon(h->single[F_BEACON], &hd);
    }
    fd_round_seeds seeds;
    (void)fd_round_seeds_clear(&seeds); /* cannot fail: not NULL */
    for (unsigned slot = 0; slot < FD_ROUND_SLOTS; slot++) {
        if (h->seed[slot].p != NULL) {
            fd_tool_seed(h->seed[slot], &hd, &seeds);
        }
    }
    size_t len = 0;
    unsigned have = 0;
    for (unsigned i = 0; i < FD_REC_MAX_PARTS; i++) {
        if (h->part[i].p == NULL) {
            continue;
        }
        if (i >= parts) {
            fd_tool_reject("reveal%u= beyond the round's parts=%u", i, parts);
        }
        have++;
    }
    uint8_t summary[FD_SHA256_SIZE];
    uint8_t reveal_hash[FD_SHA256_SIZE];
    if (h->single[F_REVEALED].p != NULL) {
        (void)fd_tool_hex("revealed", h->single[F_REVEALED], summary, FD_SHA256_SIZE, FD_SHA256_SIZE);
    }
    if (h->single[F_HASH].p != NULL) {
        (void)fd_tool_hex("reveal_hash", h->single[F_HASH], reveal_hash, FD_SHA256_SIZE, FD_SHA256_SIZE);
    }
    if (have == 0u) {
        return; /* not revealed (the open round) */
    }
    if (have != parts) {
        fd_tool_reject("reveal parts missing: %u of parts=%u", have, parts);
    }
    for (unsigned i = 0; i < parts; i++) {
        len += fd_tool_hex("reveal", h->part[i], material + len, 1, FD_REC_SECRET_PART);
    }
    uint16_t per_deck = 0;
    (void)fd_deck_size(hd.kind, hd.jokers, &per_deck); /* cannot fail: the shoe was checked */
    const char *why =
        fd_tool_revealed_order(mode, &hd, &seeds, (uint16_t)(per_deck * hd.decks), material, len, commitment, &shoe);
    if (why != NULL) {
        fd_tool_reject("%s", why);
    }
    uint8_t digest[FD_SHA256_SIZE];
    fd_sha256(material, len, digest);
    if (h->single[F_REVEALED].p != NULL && memcmp(summary, commitment, sizeof digest) != 0) {
        fd_tool_reject("revealed= is not the hand's commitment");
    }
    if (h->single[F_HASH].p != NULL && memcmp(reveal_hash, digest, sizeof digest) != 0) {
        fd_tool_reject("reveal hash does not match the revealed material");
    }
    for (uint16_t i = 0; i < FD_SHOE_MAX_CARDS; i++) {
        char code[FD_CARD_CODE_SIZE];
        if (h->dealt_at[i] && (i >= shoe.count || fd_card_format(shoe.order[i], hd.kind, code) != FD_OK ||
                               !fd_tool_is(h->dealt[i], code))) {
            fd_tool_reject("dealt card at position %u is not the order's card there", i);
        }
    }
    (*verified)++;
}

/* The next " | "-separated piece of *rest; *more false at the end. */
static fd_tool_span next_group(fd_tool_span *rest, bool *more)
{
    for (size_t i = 0; i + 3u <= rest->n; i++) {
        if (memcmp(rest->p + i, " | ", 3) == 0) {
            const fd_tool_span group = {rest->p, i};
            rest->p += i + 3u;
            rest->n -= i + 3u;
            *more = true;
            return group;
        }
    }
    const fd_tool_span group = *rest;
    rest->p += rest->n;
    rest->n = 0;
    *more = false;
    return group;
}

int fd_tool_verify_recall(FILE *in)
{
    static const char *const head_keys[] = {"newest", "n", NULL};
    static const char *const head_and_chain[] = {"newest", "n", "seq", "head", NULL};
    static const char *const chain_keys[] = {"seq", "head", NULL};
    hand_count = 0;
    size_t len = 0;
    bool found = false;
    fd_tool_context("recall");
    while (!found && fd_tool_read_line(in, line, sizeof line, &len)) {
        found = strncmp(line, "OK RECALL ", 10) == 0;
    }
    if (!found) {
        fd_tool_reject("no OK RECALL line");
    }
    fd_tool_span rest = {line + 10, len - 10u};
    bool more = false;
    fd_tool_span group = next_group(&rest, &more);
    fd_tool_fields f;
    fd_tool_fields_parse(group, more ? head_keys : head_and_chain, NULL, &f);
    const uint64_t newest = fd_tool_decimal("newest", fd_tool_get(&f, "newest"), 0, UINT32_MAX);
    const uint64_t n = fd_tool_decimal("n", fd_tool_get(&f, "n"), 1, 100);
    while (more) {
        group = next_group(&rest, &more);
        bool fields_left = group.n != 0u;
        const fd_tool_span first = fd_tool_next(&group, ' ', &fields_left);
        if (first.n < 4u || memcmp(first.p, "id=", 3) != 0) {
            fd_tool_reject("malformed group: it does not start with id=");
        }
        const uint32_t id = (uint32_t)fd_tool_decimal("id", (fd_tool_span){first.p + 3, first.n - 3u}, 0, UINT32_MAX);
        fd_tool_context("recall: hand %lu", (unsigned long)id);
        hand *h = hand_of(id);
        fd_tool_span chain = {group.p + group.n, 0};
        while (fields_left) {
            const char *start = group.p;
            fd_tool_span item = fd_tool_next(&group, ' ', &fields_left);
            bool has_value = false;
            const fd_tool_span key = fd_tool_next(&item, '=', &has_value);
            if (!has_value || key.n == 0u) {
                fd_tool_reject("malformed field: not key=value");
            }
            if (!more && (fd_tool_is(key, "seq") || fd_tool_is(key, "head"))) {
                chain = (fd_tool_span){start, (size_t)(group.p + group.n - start)};
                break; /* the chain's seq= head= end the last group */
            }
            read_field(h, key, item);
        }
        if (!more) {
            fd_tool_fields_parse(chain, chain_keys, NULL, &f);
        }
    }
    fd_tool_context("recall");
    uint8_t head[FD_SHA256_SIZE];
    (void)fd_tool_decimal("seq", fd_tool_get(&f, "seq"), 0, UINT32_MAX);
    (void)fd_tool_hex("head", fd_tool_get(&f, "head"), head, FD_SHA256_SIZE, FD_SHA256_SIZE);
    for (uint32_t i = 0; i < hand_count; i++) { /* RECALL n lists the rounds newest-n+1..newest */
        if (hands[i].id > newest || hands[i].id + n <= newest) {
            fd_tool_reject("hand %lu is outside newest=%llu n=%llu", (unsigned long)hands[i].id,
                           (unsigned long long)newest, (unsigned long long)n);
        }
    }
    uint32_t verified = 0;
    for (uint32_t i = 0; i < hand_count; i++) {
        check_hand(&hands[i], &verified);
    }
    printf("OK recall hands=%lu verified=%lu\n", (unsigned long)hand_count, (unsigned long)verified);
    return 0;
}
