/* fairdeal: cards, decks and multi-deck shoes. Fixed storage, no heap.
 *
 * A card is a 16-bit id: copy * 64 + face. The copy (0..7) tells which deck
 * of a shoe it came from; the face is the card itself:
 *   French:  suit * 13 + rank, suits S H D C, ranks A 2-9 T J Q K; jokers
 *            are faces 52 and 53.
 *   Spanish: suit * 12 + (rank - 1), suits O C E B (oros, copas, espadas,
 *            bastos), ranks 1-12; the 40-card deck has no 8 or 9 (sota,
 *            caballo, rey are 10, 11, 12).
 * Codes: French "AS", "TD", "JK"; Spanish "1O", "12B". */
#ifndef FAIRDEAL_DECK_H
#define FAIRDEAL_DECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The deck a shoe is built from; see the card numbering above. */
typedef enum fd_deck_kind {
    FD_DECK_FRENCH = 1,
    FD_DECK_SPANISH40 = 2,
    FD_DECK_SPANISH48 = 3
} fd_deck_kind;

/* Most decks in one shoe (card copies 0..7). */
#define FD_SHOE_MAX_DECKS 8u
/* Largest deck: French with two jokers. */
#define FD_DECK_MAX_CARDS 54u
/* Capacity of fd_shoe.order (432, within FD_SHUFFLE_MAX_N). */
#define FD_SHOE_MAX_CARDS (FD_SHOE_MAX_DECKS * FD_DECK_MAX_CARDS)
#define FD_CARD_CODE_SIZE 4u /* longest code "12O" plus NUL */
/* card >> FD_CARD_COPY_SHIFT is the copy, the low 6 bits the face. */
#define FD_CARD_COPY_SHIFT 6u

/* A card id: copy * 64 + face (see above). */
typedef uint16_t fd_card;

/* Cards in one deck of this kind (jokers 0..2, French only).
 * Errors: FD_ERR_PARSE (unknown kind), FD_ERR_TOO_LARGE (jokers). */
FD_MUST_CHECK fd_status fd_deck_size(fd_deck_kind kind, unsigned jokers, uint16_t *size);

/* The deck kind named "french", "spanish40" or "spanish48". FD_ERR_PARSE. */
FD_MUST_CHECK fd_status fd_deck_parse_kind(const char *name, size_t len, fd_deck_kind *kind);
/* The name fd_deck_parse_kind accepts for kind, or "?" for an unknown kind;
 * a static string, never NULL. */
const char *fd_deck_kind_name(fd_deck_kind kind);

/* Code of a card for a deck kind into out[FD_CARD_CODE_SIZE].
 * Errors: FD_ERR_NULL, FD_ERR_PARSE (not a card of this kind, or a copy
 * number of FD_SHOE_MAX_DECKS or more: no shoe holds such a card). */
FD_MUST_CHECK fd_status fd_card_format(fd_card card, fd_deck_kind kind, char out[FD_CARD_CODE_SIZE]);

/* Parse a code (exactly len chars) back to its face (copy 0).
 * Errors: FD_ERR_NULL, FD_ERR_PARSE. */
FD_MUST_CHECK fd_status fd_card_parse(const char *code, size_t len, fd_deck_kind kind, fd_card *card);

/* One or more decks, their order and the deal position, in caller memory.
 * Callers may read every field; only the fd_shoe_* functions may change
 * them, since whether a shoe may be dealt from depends on it. */
typedef struct fd_shoe {
    /* Kind of every deck in the shoe. */
    fd_deck_kind kind;
    /* Decks in the shoe, 1..FD_SHOE_MAX_DECKS. */
    uint8_t decks;
    /* Jokers per deck, 0..2 (French only). */
    uint8_t jokers;
    uint16_t count;    /* cards in the shoe */
    uint16_t position; /* next card to deal; count = exhausted */
    uint16_t cut;      /* reshuffle due once position >= cut; 0 = no cut card */
    bool shuffled;     /* dealable: set only by a successful shuffle */
    /* order[0..count): the cards in deal order; the rest is unused. */
    fd_card order[FD_SHOE_MAX_CARDS];
} fd_shoe;

/* A fresh shoe in factory order (deck by deck, suit by suit, rank by rank),
 * not dealable until shuffled. decks 1..8, jokers 0..2 (French only).
 * Errors: FD_ERR_NULL, FD_ERR_PARSE, FD_ERR_TOO_LARGE, FD_ERR_EMPTY
 * (decks == 0). On error the shoe is unchanged. */
FD_MUST_CHECK fd_status fd_shoe_init(fd_shoe *shoe, fd_deck_kind kind, unsigned decks, unsigned jokers);

/* Shuffle all cards (Durstenfeld) and rewind the deal position. On any
 * error the order is unchanged and the shoe is left NOT dealable (a failed
 * shuffle never leaves an order anyone may deal from).
 * Errors: FD_ERR_NULL, the source's error. */
FD_MUST_CHECK fd_status fd_shoe_shuffle(fd_shoe *shoe, const fd_rng *rng);

/* Deal the next card. Errors: FD_ERR_NULL, FD_ERR_STATE (not shuffled),
 * FD_ERR_EXHAUSTED (no cards left). */
FD_MUST_CHECK fd_status fd_shoe_deal(fd_shoe *shoe, fd_card *card);

/* Place the cut card: a reshuffle is due after `cut` cards (0 removes it).
 * Errors: FD_ERR_NULL, FD_ERR_TOO_LARGE (cut > count). */
FD_MUST_CHECK fd_status fd_shoe_set_cut(fd_shoe *shoe, uint16_t cut);

/* Make the shoe not dealable (a revealed order, or one drawn from a source
 * that has since failed); order, position and cut stay as they are, and only
 * a successful fd_shoe_shuffle makes it dealable again. Errors: FD_ERR_NULL. */
FD_MUST_CHECK fd_status fd_shoe_invalidate(fd_shoe *shoe);

/* Whether order[0..count) holds each card of a shoe of `decks` decks of this
 * kind (with `jokers` jokers per deck) exactly once, in any order.
 * Errors: FD_ERR_NULL, FD_ERR_PARSE (not a valid composition),
 * FD_ERR_CORRUPT (a card missing, repeated or not of this shoe). */
FD_MUST_CHECK fd_status fd_shoe_order_check(fd_deck_kind kind, unsigned decks, unsigned jokers, const fd_card *order,
                                            uint16_t count);

/* Integrity of a shoe in memory: a valid composition, its order a
 * permutation of it (fd_shoe_order_check), position and cut within the
 * shoe. O(count), no randomness. Errors: FD_ERR_NULL, FD_ERR_CORRUPT. */
FD_MUST_CHECK fd_status fd_shoe_check(const fd_shoe *shoe);

/* Cards not yet dealt (count - position). Precondition: shoe non-NULL. */
uint16_t fd_shoe_remaining(const fd_shoe *shoe);
/* True once the cut card is reached (never when no cut card is placed).
 * Precondition: shoe non-NULL. */
bool fd_shoe_reshuffle_due(const fd_shoe *shoe);

#ifdef __cplusplus
}
#endif

#endif
