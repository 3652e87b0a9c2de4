#include "fairdeal/deck.h"

#include <string.h>

#include "fairdeal/shuffle.h"

_Static_assert(FD_SHOE_MAX_CARDS <= FD_SHUFFLE_MAX_N, "fd_shoe_shuffle shuffles a full shoe in one call");
_Static_assert(FD_SHOE_MAX_CARDS <= UINT16_MAX, "count, position and cut are uint16_t");
_Static_assert(FD_SHOE_MAX_DECKS <= UINT8_MAX, "decks is uint8_t");
_Static_assert(FD_DECK_MAX_CARDS <= (1u << FD_CARD_COPY_SHIFT), "every face fits below the copy bits");
_Static_assert((FD_SHOE_MAX_DECKS << FD_CARD_COPY_SHIFT) - 1u <= UINT16_MAX, "every card id fits in fd_card");

static const char french_ranks[] = "A23456789TJQK";
static const char french_suits[] = "SHDC";
static const char spanish_suits[] = "OCEB";

fd_status fd_deck_size(fd_deck_kind kind, unsigned jokers, uint16_t *size)
{
    if (size == NULL) {
        return FD_ERR_NULL;
    }
    switch (kind) {
    case FD_DECK_FRENCH:
        if (jokers > 2u) {
            return FD_ERR_TOO_LARGE;
        }
        *size = (uint16_t)(52u + jokers);
        return FD_OK;
    case FD_DECK_SPANISH40:
    case FD_DECK_SPANISH48:
        if (jokers > 0u) {
            return FD_ERR_TOO_LARGE;
        }
        *size = kind == FD_DECK_SPANISH40 ? 40u : 48u;
        return FD_OK;
    }
    return FD_ERR_PARSE;
}

static const struct {
    const char *name;
    fd_deck_kind kind;
} kind_names[] = {{"french", FD_DECK_FRENCH}, {"spanish40", FD_DECK_SPANISH40}, {"spanish48", FD_DECK_SPANISH48}};

fd_status fd_deck_parse_kind(const char *name, size_t len, fd_deck_kind *kind)
{
    if (name == NULL || kind == NULL) {
        return FD_ERR_NULL;
    }
    for (size_t i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++) {
        if (strlen(kind_names[i].name) == len && memcmp(kind_names[i].name, name, len) == 0) {
            *kind = kind_names[i].kind;
            return FD_OK;
        }
    }
    return FD_ERR_PARSE;
}

const char *fd_deck_kind_name(fd_deck_kind kind)
{
    for (size_t i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++) {
        if (kind_names[i].kind == kind) {
            return kind_names[i].name;
        }
    }
    return "?";
}

static bool spanish_rank_in_deck(unsigned rank, fd_deck_kind kind)
{
    return rank >= 1u && rank <= 12u && !(kind == FD_DECK_SPANISH40 && (rank == 8u || rank == 9u));
}

fd_status fd_card_format(fd_card card, fd_deck_kind kind, char out[FD_CARD_CODE_SIZE])
{
    if (out == NULL) {
        return FD_ERR_NULL;
    }
    const unsigned face = card & ((1u << FD_CARD_COPY_SHIFT) - 1u);
    if ((card >> FD_CARD_COPY_SHIFT) >= FD_SHOE_MAX_DECKS) {
        return FD_ERR_PARSE;
    }
    if (kind == FD_DECK_FRENCH) {
        if (face == 52u || face == 53u) {
            memcpy(out, "JK", 3);
            return FD_OK;
        }
        if (face > 53u) {
            return FD_ERR_PARSE;
        }
        out[0] = french_ranks[face % 13u];
        out[1] = french_suits[face / 13u];
        out[2] = '\0';
        return FD_OK;
    }
    if (kind != FD_DECK_SPANISH40 && kind != FD_DECK_SPANISH48) {
        return FD_ERR_PARSE;
    }
    const unsigned rank = face % 12u + 1u;
    if (face >= 48u || !spanish_rank_in_deck(rank, kind)) {
        return FD_ERR_PARSE;
    }
    size_t i = 0;
    if (rank >= 10u) {
        out[i++] = '1';
    }
    out[i++] = (char)('0' + (int)(rank % 10u));
    out[i++] = spanish_suits[face / 12u];
    out[i] = '\0';
    return FD_OK;
}

static int index_of(const char *set, char c)
{
    for (int i = 0; set[i] != '\0'; i++) {
        if (set[i] == c) {
            return i;
        }
    }
    return -1;
}

fd_status fd_card_parse(const char *code, size_t len, fd_deck_kind kind, fd_card *card)
{
    if (code == NULL || card == NULL) {
        return FD_ERR_NULL;
    }
    if (kind == FD_DECK_FRENCH) {
        if (len == 2u && code[0] == 'J' && code[1] == 'K') {
            *card = 52u;
            return FD_OK;
        }
        if (len != 2u || code[0] == '\0') {
            return FD_ERR_PARSE;
        }
        int rank = index_of(french_ranks, code[0]);
        int suit = index_of(french_suits, code[1]);
        if (rank < 0 || suit < 0) {
            return FD_ERR_PARSE;
        }
        *card = (fd_card)(suit * 13 + rank);
        return FD_OK;
    }
    if (kind != FD_DECK_SPANISH40 && kind != FD_DECK_SPANISH48) {
        return FD_ERR_PARSE;
    }
    if (len < 2u || len > 3u || code[len - 1u] == '\0') {
        return FD_ERR_PARSE;
    }
    unsigned rank = 0;
    for (size_t i = 0; i + 1u < len; i++) {
        if (code[i] < '0' || code[i] > '9' || (i == 0u && code[i] == '0')) {
            return FD_ERR_PARSE;
        }
        rank = rank * 10u + (unsigned)(code[i] - '0');
    }
    int suit = index_of(spanish_suits, code[len - 1u]);
    if (suit < 0 || !spanish_rank_in_deck(rank, kind)) {
        return FD_ERR_PARSE;
    }
    *card = (fd_card)((unsigned)suit * 12u + rank - 1u);
    return FD_OK;
}

fd_status fd_shoe_init(fd_shoe *shoe, fd_deck_kind kind, unsigned decks, unsigned jokers)
{
    if (shoe == NULL) {
        return FD_ERR_NULL;
    }
    uint16_t per_deck;
    fd_status st = fd_deck_size(kind, jokers, &per_deck);
    if (st != FD_OK) {
        return st;
    }
    if (decks == 0u) {
        return FD_ERR_EMPTY;
    }
    if (decks > FD_SHOE_MAX_DECKS) {
        return FD_ERR_TOO_LARGE;
    }
    shoe->kind = kind;
    shoe->decks = (uint8_t)decks;
    shoe->jokers = (uint8_t)jokers;
    shoe->count = (uint16_t)(per_deck * decks);
    shoe->position = 0;
    shoe->cut = 0;
    shoe->shuffled = false;
    size_t n = 0;
    for (unsigned copy = 0; copy < decks; copy++) {
        for (unsigned face = 0; face < 54u; face++) {
            char code[FD_CARD_CODE_SIZE];
            if (fd_card_format((fd_card)face, kind, code) != FD_OK) {
                continue;
            }
            if (kind == FD_DECK_FRENCH && face >= 52u + jokers) {
                continue;
            }
            shoe->order[n++] = (fd_card)((copy << FD_CARD_COPY_SHIFT) | face);
        }
    }
    return FD_OK;
}

fd_status fd_shoe_shuffle(fd_shoe *shoe, const fd_rng *rng)
{
    if (shoe == NULL) {
        return FD_ERR_NULL;
    }
    shoe->shuffled = false;
    fd_status st = fd_shuffle_u16(shoe->order, shoe->count, rng);
    if (st != FD_OK) {
        return st;
    }
    shoe->position = 0;
    shoe->shuffled = true;
    return FD_OK;
}

fd_status fd_shoe_deal(fd_shoe *shoe, fd_card *card)
{
    if (shoe == NULL || card == NULL) {
        return FD_ERR_NULL;
    }
    if (!shoe->shuffled) {
        return FD_ERR_STATE;
    }
    if (shoe->position >= shoe->count) {
        return FD_ERR_EXHAUSTED;
    }
    *card = shoe->order[shoe->position++];
    return FD_OK;
}

fd_status fd_shoe_set_cut(fd_shoe *shoe, uint16_t cut)
{
    if (shoe == NULL) {
        return FD_ERR_NULL;
    }
    if (cut > shoe->count) {
        return FD_ERR_TOO_LARGE;
    }
    shoe->cut = cut;
    return FD_OK;
}

fd_status fd_shoe_invalidate(fd_shoe *shoe)
{
    if (shoe == NULL) {
        return FD_ERR_NULL;
    }
    shoe->shuffled = false;
    return FD_OK;
}

fd_status fd_shoe_order_check(fd_deck_kind kind, unsigned decks, unsigned jokers, const fd_card *order, uint16_t count)
{
    if (order == NULL) {
        return FD_ERR_NULL;
    }
    uint16_t per_deck;
    if (fd_deck_size(kind, jokers, &per_deck) != FD_OK || decks == 0u || decks > FD_SHOE_MAX_DECKS) {
        return FD_ERR_PARSE;
    }
    if (count != per_deck * decks) {
        return FD_ERR_CORRUPT;
    }
    /* one bit per possible card id: copy (3 bits) and face (6 bits) */
    uint32_t seen[(FD_SHOE_MAX_DECKS << FD_CARD_COPY_SHIFT) / 32u] = {0};
    const unsigned face_mask = (1u << FD_CARD_COPY_SHIFT) - 1u;
    for (uint16_t i = 0; i < count; i++) {
        const unsigned card = order[i];
        const unsigned face = card & face_mask;
        char code[FD_CARD_CODE_SIZE];
        if ((card >> FD_CARD_COPY_SHIFT) >= decks || fd_card_format(order[i], kind, code) != FD_OK ||
            (kind == FD_DECK_FRENCH && face >= 52u + jokers)) {
            return FD_ERR_CORRUPT;
        }
        const uint32_t bit = (uint32_t)1u << (card % 32u);
        if ((seen[card / 32u] & bit) != 0u) {
            return FD_ERR_CORRUPT;
        }
        seen[card / 32u] |= bit;
    }
    return FD_OK; /* count distinct cards of the shoe, and the shoe has count cards */
}

fd_status fd_shoe_check(const fd_shoe *shoe)
{
    if (shoe == NULL) {
        return FD_ERR_NULL;
    }
    if (shoe->count > FD_SHOE_MAX_CARDS || shoe->position > shoe->count || shoe->cut > shoe->count) {
        return FD_ERR_CORRUPT;
    }
    const fd_status st = fd_shoe_order_check(shoe->kind, shoe->decks, shoe->jokers, shoe->order, shoe->count);
    return st == FD_OK ? FD_OK : FD_ERR_CORRUPT;
}

uint16_t fd_shoe_remaining(const fd_shoe *shoe) { return (uint16_t)(shoe->count - shoe->position); }

bool fd_shoe_reshuffle_due(const fd_shoe *shoe) { return shoe->cut != 0u && shoe->position >= shoe->cut; }
