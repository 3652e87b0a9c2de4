/* fairdeal-tool verify: check a dealer transcript (its reply lines, as the
 * console printed them; echo, prompts and banner lines are skipped). For
 * every round: the SHUFFLE commitment is SHA-256 of REVEAL's salt and
 * order (fd_commit_compute), the order is a permutation of the shoe NEW set
 * up, every card dealt is the order's next card, and no round is left
 * unrevealed or replaced by another. The checks are the library's (the
 * round record, lib/include/fairdeal/commit.h); the tests recompute them
 * independently with sha256sum. */
#include "verify.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fairdeal/commit.h"
#include "fairdeal/round.h"
#include "fairdeal/util.h"

/* a 432-card verifiable REVEAL: S, 8 seeds and the order as ids, ~3.8 KB */
#define MAX_LINE 8192u

typedef struct transcript {
    unsigned long line_no;
    /* the shoe NEW last set up (power-on: one French deck) */
    fd_deck_kind kind;
    unsigned decks;
    unsigned jokers;
    uint16_t shoe_cards;
    /* the open round */
    bool open;
    bool verifiable;       /* a SHUFFLE mode=round: checked by fd_round_verify */
    char header_text[160]; /* its SHUFFLE's " device=... beacon=..." fields, as printed */
    unsigned long id;
    uint8_t commitment[FD_COMMIT_SIZE];
    uint16_t dealt;
    char dealt_codes[FD_SHOE_MAX_CARDS][FD_CARD_CODE_SIZE]; /* "" = burned, face down */
    unsigned rounds;
    unsigned cards_dealt;
} transcript;

static transcript tr;
static fd_round_record record;

/* One line on stderr, exit 1: the transcript does not verify. */
static _Noreturn void reject(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fairdeal-tool: verify: line %lu: ", tr.line_no);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* The value of " key=" in a reply, as a NUL-terminated copy. */
static const char *field(const char *line, const char *key, char *value, size_t size)
{
    char pattern[24];
    (void)snprintf(pattern, sizeof pattern, " %s=", key);
    const char *p = strstr(line, pattern);
    if (p == NULL) {
        reject("reply without %s=: %.40s", key, line);
    }
    p += strlen(pattern);
    const size_t n = strcspn(p, " ");
    if (n >= size) {
        reject("%s= too long", key);
    }
    memcpy(value, p, n);
    value[n] = '\0';
    return value;
}

static unsigned long field_number(const char *line, const char *key)
{
    char v[16];
    (void)field(line, key, v, sizeof v);
    char *end = NULL;
    const unsigned long n = strtoul(v, &end, 10);
    if (v[0] < '0' || v[0] > '9' || *end != '\0') {
        reject("%s=%s is not a number", key, v);
    }
    return n;
}

static void on_new(const char *line)
{
    if (tr.open) {
        reject("round %lu was never revealed: NEW replaced its shoe", tr.id);
    }
    char kind[16];
    (void)field(line, "deck", kind, sizeof kind);
    if (fd_deck_parse_kind(kind, strlen(kind), &tr.kind) != FD_OK) {
        reject("unknown deck %s", kind);
    }
    tr.decks = (unsigned)field_number(line, "decks");
    tr.jokers = (unsigned)field_number(line, "jokers");
    uint16_t per_deck = 0;
    if (fd_deck_size(tr.kind, tr.jokers, &per_deck) != FD_OK || tr.decks < 1u || tr.decks > FD_SHOE_MAX_DECKS ||
        field_number(line, "cards") != (unsigned long)per_deck * tr.decks) {
        reject("NEW reply describes no valid shoe");
    }
    tr.shoe_cards = (uint16_t)(per_deck * tr.decks);
}

static void on_shuffle(const char *line)
{
    const unsigned long id = field_number(line, "id");
    if (tr.open) {
        reject("round %lu was never revealed: round %lu replaced it", tr.id, id);
    }
    if (field_number(line, "cards") != tr.shoe_cards) {
        reject("round %lu shuffles %lu cards, the shoe holds %u", id, field_number(line, "cards"), tr.shoe_cards);
    }
    tr.verifiable = strstr(line, " mode=round ") != NULL;
    if (tr.verifiable) {
        const char *from = strstr(line, " device=");
        const char *to = strstr(line, " cards=");
        if (from == NULL || to == NULL || to < from || (size_t)(to - from) >= sizeof tr.header_text) {
            reject("round %lu: SHUFFLE mode=round without its header fields", id);
        }
        memcpy(tr.header_text, from, (size_t)(to - from));
        tr.header_text[to - from] = '\0';
    }
    char hex[80];
    size_t len = 0;
    (void)field(line, tr.verifiable ? "commitment" : "commit", hex, sizeof hex);
    if (fd_hex_decode(hex, strlen(hex), tr.commitment, sizeof tr.commitment, &len) != FD_OK || len != FD_COMMIT_SIZE) {
        reject("round %lu: commit= is not 64 hex digits", id);
    }
    tr.open = true;
    tr.id = id;
    tr.dealt = 0;
}

static void deal_one(const char *code, size_t len, uint16_t at)
{
    if (at >= tr.shoe_cards || len >= FD_CARD_CODE_SIZE) {
        reject("round %lu: more cards dealt than the shoe holds", tr.id);
    }
    memcpy(tr.dealt_codes[at], code, len);
    tr.dealt_codes[at][len] = '\0';
}

/* "OK DEAL 7H QS" or "OK DEAL 1:7H,2C 2:QS,TD": card c of player p is card
 * c * players + p of the deal. */
static void on_deal(const char *line)
{
    if (!tr.open) {
        reject("DEAL outside a round");
    }
    const char *body = line + strlen("OK DEAL ");
    const char *end = strstr(body, " left=");
    if (end == NULL) {
        reject("DEAL reply without left=");
    }
    unsigned players = 0;
    for (const char *p = body; p < end; p++) {
        players += *p == ':' ? 1u : 0u;
    }
    if (players == 0u) {
        players = 1;
    }
    unsigned player = 0;
    unsigned card = 0;
    unsigned total = 0;
    const char *p = body;
    while (p < end) {
        const char *colon = memchr(p, ':', (size_t)(end - p));
        const char *space = memchr(p, ' ', (size_t)(end - p));
        if (colon != NULL && (space == NULL || colon < space)) {
            player = (unsigned)strtoul(p, NULL, 10) - 1u;
            card = 0;
            p = colon + 1;
        }
        const size_t len = strcspn(p, players > 1u ? ", " : " ");
        const size_t take = (size_t)(end - p) < len ? (size_t)(end - p) : len;
        deal_one(p, take, (uint16_t)(tr.dealt + card * players + player));
        card++;
        total++;
        p += take;
        if (p < end) {
            p++;
        }
        if (players == 1u) {
            player = 0;
        }
    }
    tr.dealt = (uint16_t)(tr.dealt + total);
    tr.cards_dealt += total;
}

static void on_burn(void)
{
    if (!tr.open) {
        reject("BURN outside a round");
    }
    deal_one("", 0, tr.dealt);
    tr.dealt++;
}

/* The order's codes to card ids: the k-th copy of a face is deck k's. Both
 * jokers of a French deck read "JK": the j-th is face 52 + j mod jokers of
 * deck j / jokers. */
static fd_card card_id(fd_card face, uint8_t copies[64], unsigned *jokers_seen)
{
    if (tr.kind == FD_DECK_FRENCH && face == 52u && tr.jokers > 0u) {
        const unsigned j = (*jokers_seen)++;
        return (fd_card)(((j / tr.jokers) << FD_CARD_COPY_SHIFT) | (52u + j % tr.jokers));
    }
    if (copies[face] >= FD_SHOE_MAX_DECKS) {
        reject("order is not a permutation of the shoe (round %lu)", tr.id);
    }
    return (fd_card)(((unsigned)copies[face]++ << FD_CARD_COPY_SHIFT) | face);
}

static void parse_order(const char *text)
{
    uint8_t copies[64] = {0};
    unsigned jokers_seen = 0;
    record.count = 0;
    const char *p = text;
    while (*p != '\0') {
        const size_t len = strcspn(p, " ");
        fd_card face = 0;
        if (record.count >= FD_SHOE_MAX_CARDS || fd_card_parse(p, len, tr.kind, &face) != FD_OK) {
            reject("round %lu: order holds '%.*s', not a card of the shoe", tr.id, (int)(len > 8u ? 8u : len), p);
        }
        record.order[record.count++] = card_id(face, copies, &jokers_seen);
        p += len;
        if (*p == ' ') {
            p++;
        }
    }
}

static void hex_field(const char *line, const char *key, uint8_t *out, size_t size, size_t *len)
{
    static char hex[2u * FD_ROUND_SECRET_MAX + 1u];
    (void)field(line, key, hex, sizeof hex);
    if (fd_hex_decode(hex, strlen(hex), out, size, len) != FD_OK) {
        reject("round %lu: %s= is not hex of at most %u bytes", tr.id, key, (unsigned)size);
    }
}

/* "0:ab;3:cdef" or "none" */
static void parse_seeds(const char *line, fd_round_seeds *seeds)
{
    static char text[FD_ROUND_SLOTS * (2u * FD_ROUND_SEED_MAX + 3u) + 1u];
    /* cannot fail: seeds is never NULL */
    (void)fd_round_seeds_clear(seeds);
    (void)field(line, "seeds", text, sizeof text);
    if (strcmp(text, "none") == 0) {
        return;
    }
    for (char *item = strtok(text, ";"); item != NULL; item = strtok(NULL, ";")) {
        char *colon = strchr(item, ':');
        size_t len = 0;
        const unsigned long slot = strtoul(item, NULL, 10);
        if (colon == NULL || colon != item + 1 || slot >= FD_ROUND_SLOTS || seeds->len[slot] != 0u ||
            fd_hex_decode(colon + 1, strlen(colon + 1), seeds->seed[slot], FD_ROUND_SEED_MAX, &len) != FD_OK ||
            len == 0u) {
            reject("round %lu: malformed seeds=", tr.id);
        }
        seeds->len[slot] = (uint8_t)len;
    }
}

/* "beacon=SLOT:INDEX" or "beacon=none"; fd_round_verify checks the slot
 * against the slot mask. */
static void parse_beacon(const char *line, fd_round_header *h)
{
    char text[32];
    (void)field(line, "beacon", text, sizeof text);
    h->beacon_slot = FD_ROUND_NO_BEACON;
    h->beacon_index = 0;
    if (strcmp(text, "none") == 0) {
        return;
    }
    char *colon = strchr(text, ':');
    char *end = NULL;
    const unsigned long slot = strtoul(text, &end, 10);
    if (colon == NULL || end != colon || text[0] < '0' || text[0] > '9' || slot >= FD_ROUND_SLOTS || colon[1] < '0' ||
        colon[1] > '9') {
        reject("round %lu: malformed beacon=", tr.id);
    }
    errno = 0;
    h->beacon_index = strtoull(colon + 1, &end, 10);
    if (*end != '\0' || errno != 0) {
        reject("round %lu: malformed beacon=", tr.id);
    }
    h->beacon_slot = (uint8_t)slot;
}

/* A verifiable round's REVEAL: the header fields are SHUFFLE's, then
 * fd_round_verify (commitment and the derived order), then the deal. */
static void on_reveal_round(const char *line)
{
    if (strstr(line, tr.header_text) != line + strlen("OK REVEAL")) {
        reject("round %lu: REVEAL's device, id, shoe, slots or beacon differ from SHUFFLE's", tr.id);
    }
    fd_round_header h;
    memset(&h, 0, sizeof h);
    size_t len = 0;
    hex_field(line, "device", h.device_id, sizeof h.device_id, &len);
    h.device_id_len = (uint8_t)len;
    h.round_id = (uint32_t)field_number(line, "id");
    h.kind = tr.kind;
    h.decks = (uint8_t)tr.decks;
    h.jokers = (uint8_t)tr.jokers;
    hex_field(line, "slots", &h.slot_mask, 1, &len);
    parse_beacon(line, &h);
    char shoe[32];
    char expect[32];
    (void)snprintf(expect, sizeof expect, "%s:%u:%u", fd_deck_kind_name(tr.kind), tr.decks, tr.jokers);
    if (strcmp(field(line, "shoe", shoe, sizeof shoe), expect) != 0 || len != 1u) {
        reject("round %lu: shoe=%s, NEW set up %s", tr.id, shoe, expect);
    }
    static uint8_t secret[FD_ROUND_SECRET_MAX];
    size_t secret_len = 0;
    hex_field(line, "secret", secret, sizeof secret, &secret_len);
    static fd_round_seeds seeds;
    parse_seeds(line, &seeds);
    uint8_t commitment[FD_COMMIT_SIZE];
    hex_field(line, "commitment", commitment, sizeof commitment, &len);
    if (len != FD_COMMIT_SIZE || memcmp(commitment, tr.commitment, sizeof commitment) != 0) {
        reject("round %lu: REVEAL's commitment is not the one SHUFFLE published", tr.id);
    }
    static char order[FD_SHOE_MAX_CARDS * 4u + 1u];
    (void)field(line, "order", order, sizeof order);
    uint16_t count = 0;
    for (char *id = strtok(order, ","); id != NULL; id = strtok(NULL, ",")) {
        char *end = NULL;
        const unsigned long v = strtoul(id, &end, 10);
        if (*end != '\0' || v > 0xFFFFu || count >= FD_SHOE_MAX_CARDS) {
            reject("round %lu: malformed order=", tr.id);
        }
        record.order[count++] = (fd_card)v;
    }
    if (fd_round_verify(&h, secret, secret_len, &seeds, commitment, record.order, count) != FD_OK) {
        reject("round %lu: S, seeds and header do not derive the revealed order and commitment", tr.id);
    }
    const bool house_only = fd_round_house_only(&seeds);
    if (strstr(line, house_only ? " label=house-only" : " label=seeded") == NULL) {
        reject("round %lu: mislabelled (it is %s)", tr.id, house_only ? "house-only" : "seeded");
    }
    record.count = count;
}

static void check_dealt(void)
{
    for (uint16_t i = 0; i < tr.dealt; i++) {
        char code[FD_CARD_CODE_SIZE];
        /* cannot fail: the order was just checked to be a permutation of the shoe */
        (void)fd_card_format(record.order[i], tr.kind, code);
        if (tr.dealt_codes[i][0] != '\0' && strcmp(code, tr.dealt_codes[i]) != 0) {
            reject("round %lu: dealt card %u was %s, the order's next card is %s", tr.id, i + 1u, tr.dealt_codes[i],
                   code);
        }
    }
}

static void on_reveal(const char *line)
{
    if (!tr.open) {
        reject("REVEAL outside a round");
    }
    if (tr.verifiable) {
        memset(&record, 0, sizeof record);
        on_reveal_round(line);
        check_dealt();
        tr.open = false;
        tr.rounds++;
        return;
    }
    if (field_number(line, "id") != tr.id) {
        reject("REVEAL id=%lu, the open round is %lu", field_number(line, "id"), tr.id);
    }
    char salt[40];
    size_t len = 0;
    (void)field(line, "salt", salt, sizeof salt);
    memset(&record, 0, sizeof record);
    if (fd_hex_decode(salt, strlen(salt), record.salt, sizeof record.salt, &len) != FD_OK ||
        len != FD_COMMIT_SALT_SIZE) {
        reject("round %lu: salt= is not 32 hex digits", tr.id);
    }
    const char *order = strstr(line, " order=");
    if (order == NULL) {
        reject("REVEAL reply without order=");
    }
    parse_order(order + strlen(" order="));
    record.round_id = (uint32_t)tr.id;
    record.kind = tr.kind;
    record.decks = (uint8_t)tr.decks;
    record.jokers = (uint8_t)tr.jokers;
    memcpy(record.commitment, tr.commitment, FD_COMMIT_SIZE);
    record.revealed = true;
    record.dealt = tr.dealt;
    if (fd_shoe_order_check(tr.kind, tr.decks, tr.jokers, record.order, record.count) != FD_OK) {
        reject("order is not a permutation of the shoe (round %lu)", tr.id);
    }
    uint8_t digest[FD_COMMIT_SIZE];
    /* cannot fail: the order was just checked to be a permutation of the shoe */
    (void)fd_commit_compute(record.salt, record.order, record.count, record.kind, digest);
    if (memcmp(digest, tr.commitment, sizeof digest) != 0) {
        reject("round %lu: commitment does not match the revealed salt and order", tr.id);
    }
    check_dealt();
    if (fd_record_verify(&record) != FD_OK) {
        reject("round %lu: the round record does not verify", tr.id);
    }
    tr.open = false;
    tr.rounds++;
}

static bool starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

static void on_line(char *line)
{
    line[strcspn(line, "\r\n")] = '\0';
    while (starts(line, "> ")) {
        line += 2; /* human mode's prompt */
    }
    if (starts(line, "OK NEW ")) {
        on_new(line);
    } else if (starts(line, "OK SHUFFLE ")) {
        on_shuffle(line);
    } else if (starts(line, "OK DEAL ")) {
        on_deal(line);
    } else if (starts(line, "OK BURN ")) {
        on_burn();
    } else if (starts(line, "OK REVEAL ")) {
        on_reveal(line);
    }
}

int fd_tool_verify(FILE *in)
{
    static char line[MAX_LINE];
    memset(&tr, 0, sizeof tr);
    tr.kind = FD_DECK_FRENCH;
    tr.decks = 1;
    tr.shoe_cards = 52;
    while (fgets(line, sizeof line, in) != NULL) {
        tr.line_no++;
        if (strchr(line, '\n') == NULL && !feof(in)) {
            reject("line longer than %u characters", MAX_LINE - 1u);
        }
        on_line(line);
    }
    if (tr.open) {
        reject("round %lu was never revealed", tr.id);
    }
    if (tr.rounds == 0u) {
        reject("no revealed round in the transcript");
    }
    printf("OK verify rounds=%u dealt=%u\n", tr.rounds, tr.cards_dealt);
    return 0;
}
