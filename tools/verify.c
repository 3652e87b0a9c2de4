/* fairdeal-tool verify: check a dealer transcript (its reply lines, as the
 * console printed them; echo, prompts and banner lines are skipped). For
 * every round: the SHUFFLE commitment is SHA-256 of REVEAL's salt and
 * order (fd_commit_compute), the order is a permutation of the shoe NEW set
 * up, every card dealt is the order's next card, and no round is left
 * unrevealed or replaced by another. The checks are the library's (the
 * round record, lib/include/fairdeal/commit.h); the tests recompute them
 * independently with sha256sum. */
#include "verify.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fairdeal/commit.h"
#include "fairdeal/util.h"

#define MAX_LINE 4096u

typedef struct transcript {
    unsigned long line_no;
    /* the shoe NEW last set up (power-on: one French deck) */
    fd_deck_kind kind;
    unsigned decks;
    unsigned jokers;
    uint16_t shoe_cards;
    /* the open round */
    bool open;
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
    char hex[80];
    size_t len = 0;
    (void)field(line, "commit", hex, sizeof hex);
    if (fd_hex_decode(hex, strlen(hex), tr.commitment, sizeof tr.commitment, &len) != FD_OK ||
        len != FD_COMMIT_SIZE) {
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

static void on_reveal(const char *line)
{
    if (!tr.open) {
        reject("REVEAL outside a round");
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
    for (uint16_t i = 0; i < tr.dealt; i++) {
        char code[FD_CARD_CODE_SIZE];
        /* cannot fail: the order was just checked to be a permutation of the shoe */
        (void)fd_card_format(record.order[i], tr.kind, code);
        if (tr.dealt_codes[i][0] != '\0' && strcmp(code, tr.dealt_codes[i]) != 0) {
            reject("round %lu: dealt card %u was %s, the order's next card is %s", tr.id, i + 1u,
                   tr.dealt_codes[i], code);
        }
    }
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
