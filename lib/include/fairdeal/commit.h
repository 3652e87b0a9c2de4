/* fairdeal: the round commitment and the versioned round record.
 *
 * A dealer commits to a shuffled order before the first card and reveals it
 * when the round ends; anyone holding the reply lines (or a record) can
 * check that the revealed order is the committed one. Formats: docs/ROUND_RECORD.md. */
#ifndef FAIRDEAL_COMMIT_H
#define FAIRDEAL_COMMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/deck.h"
#include "fairdeal/sha256.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of a round's salt. */
#define FD_COMMIT_SALT_SIZE 16u
/* Bytes of a commitment (a SHA-256 digest). */
#define FD_COMMIT_SIZE FD_SHA256_SIZE

/* Receives text piece by piece (a hash, a UART, a buffer). */
typedef void (*fd_text_sink)(void *ctx, const char *text, size_t len);

/* The order as text: the card codes of order[0..count), separated by single
 * spaces, no terminator. Every card is checked first: on error the sink has
 * received nothing. Errors: FD_ERR_NULL, FD_ERR_PARSE (a card not of kind). */
FD_MUST_CHECK fd_status fd_commit_order_text(const fd_card *order, uint16_t count, fd_deck_kind kind, fd_text_sink sink,
                                             void *ctx);

/* commitment = SHA-256(salt as 32 lowercase hex digits || " " || order text),
 * exactly the two fields a REVEAL reply prints. out is written only on
 * success. Errors: FD_ERR_NULL, FD_ERR_PARSE (a card not of kind). */
FD_MUST_CHECK fd_status fd_commit_compute(const uint8_t salt[FD_COMMIT_SALT_SIZE], const fd_card *order, uint16_t count,
                                          fd_deck_kind kind, uint8_t out[FD_COMMIT_SIZE]);

/* ---- the round record: one versioned format for a round ---- */

/* The record format's version byte. */
#define FD_RECORD_VERSION 1u
/* version byte + every TLV of version 1 with a full 432-card order */
#define FD_RECORD_MAX_SIZE 1024u

/* TLV tags of version 1 (docs/ROUND_RECORD.md). */
typedef enum fd_record_tag {
    FD_RECORD_TAG_ROUND_ID = 0x01,   /* 4 bytes, big-endian */
    FD_RECORD_TAG_SHOE = 0x02,       /* kind, decks, jokers: 1 byte each */
    FD_RECORD_TAG_MODE = 0x03,       /* 1 byte: fd_record_mode */
    FD_RECORD_TAG_COMMITMENT = 0x04, /* 32 bytes */
    FD_RECORD_TAG_SALT = 0x05,       /* 16 bytes; with ORDER, only once revealed */
    FD_RECORD_TAG_ORDER = 0x06,      /* 2 bytes per card id, big-endian, dealing order */
    FD_RECORD_TAG_DEALT = 0x07       /* 2 bytes, big-endian: cards dealt or burned from the top */
} fd_record_tag;

/* How the round's order was drawn. */
typedef enum fd_record_mode {
    FD_RECORD_MODE_DRBG = 0, /* a freshly reseeded DRBG */
    FD_RECORD_MODE_FULL = 1, /* full entropy straight from the conditioned TRNG */
    FD_RECORD_MODE_ROUND = 2 /* a player-verifiable round (fairdeal/round.h, docs/VERIFY.md) */
} fd_record_mode;

/* One round, decoded. */
typedef struct fd_round_record {
    uint32_t round_id;                  /* the id of SHUFFLE and REVEAL */
    fd_deck_kind kind;                  /* the shoe's deck kind */
    uint8_t decks;                      /* decks in the shoe, 1-8 */
    uint8_t jokers;                     /* jokers per deck, 0-2 */
    uint8_t mode;                       /* an fd_record_mode */
    uint8_t commitment[FD_COMMIT_SIZE]; /* published by SHUFFLE */
    bool revealed;                      /* salt, count and order are present */
    uint8_t salt[FD_COMMIT_SALT_SIZE];  /* published by REVEAL */
    uint16_t count;                     /* cards in order */
    fd_card order[FD_SHOE_MAX_CARDS];   /* the dealing order, published by REVEAL */
    uint16_t dealt;                     /* cards dealt or burned from the top */
} fd_round_record;

/* Serialise: the version byte, then the TLVs (tag, 2-byte big-endian length,
 * value) in increasing tag order, each at most once; SALT and ORDER only
 * when revealed. Errors: FD_ERR_NULL, FD_ERR_PARSE (count above
 * FD_SHOE_MAX_CARDS), FD_ERR_BUFFER_TOO_SMALL; out and *len are written
 * only on success. */
FD_MUST_CHECK fd_status fd_record_encode(const fd_round_record *record, uint8_t *out, size_t out_size, size_t *len);

/* Parse a record. Tags 0x80-0xFF are optional extensions and are skipped
 * when unknown; an unknown tag below 0x80, a tag out of order or repeated,
 * a wrong length, a missing required field (ROUND_ID, SHOE, MODE,
 * COMMITMENT, DEALT; SALT and ORDER together or not at all), another version
 * or trailing bytes are FD_ERR_PARSE. Errors: FD_ERR_NULL, FD_ERR_PARSE;
 * *record is written only on success. */
FD_MUST_CHECK fd_status fd_record_decode(const uint8_t *in, size_t len, fd_round_record *record);

/* Check a revealed round: its order is a permutation of its shoe
 * (fd_shoe_order_check), no more cards were dealt than it holds, and the
 * salt and order hash to the commitment. Errors: FD_ERR_NULL, FD_ERR_STATE
 * (not revealed), FD_ERR_CORRUPT (any check failed). */
FD_MUST_CHECK fd_status fd_record_verify(const fd_round_record *record);

#ifdef __cplusplus
}
#endif

#endif
