/* fairdeal: player-verifiable rounds (docs/VERIFY.md). The full derivation, what
 * it proves and test vectors: docs/VERIFY.md; reference verifier:
 * tools/verify.py.
 *
 * The device draws a secret S, publishes commitment = SHA-256 of the round
 * header and S, and only then accepts client seeds. The order is a public
 * function of (S, client seeds, header): the shoe's canonical order,
 * shuffled by Durstenfeld with the exact full-entropy bounded integers of
 * fullentropy.h fed by the bytes S XOR K (then K alone, should they run
 * out), K = HMAC-SHA-256 in counter mode keyed by a hash of the round
 * header and the seeds (not of S). For every choice of seeds, S -> S XOR K
 * is a bijection, so a uniform S keeps every order reachable. */
#ifndef FAIRDEAL_ROUND_H
#define FAIRDEAL_ROUND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/deck.h"
#include "fairdeal/sha256.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FD_ROUND_VERSION 1u              /* the derivation version byte (docs/VERIFY.md) */
#define FD_ROUND_SLOTS 8u                /* client seed slots 0..7 */
#define FD_ROUND_SEED_MAX 64u            /* bytes per client seed */
#define FD_ROUND_DEVICE_ID_MAX 32u       /* longest device id, bytes */
#define FD_ROUND_NO_BEACON 0xFFu         /* beacon_slot when no beacon is used */
#define FD_ROUND_SECRET_MAX 544u         /* largest S accepted, bytes (secret_min(512) is 521) */
#define FD_ROUND_KEY_SIZE FD_SHA256_SIZE /* keystream key, bytes */

/* What the commitment binds, published before any client seed. */
typedef struct fd_round_header {
    uint8_t device_id[FD_ROUND_DEVICE_ID_MAX]; /* the first device_id_len bytes name the device */
    uint8_t device_id_len;                     /* 1..FD_ROUND_DEVICE_ID_MAX */
    uint32_t round_id;                         /* never repeats on a device */
    fd_deck_kind kind;                         /* the shoe: deck kind, decks, jokers */
    uint8_t decks;                             /* 1..FD_SHOE_MAX_DECKS */
    uint8_t jokers;                            /* per deck: French 0..2, Spanish 0 */
    uint8_t slot_mask;                         /* bit i set: slot i accepts a client seed; 0 = house-only */
    uint8_t beacon_slot;   /* a slot of slot_mask carrying a public beacon value, or FD_ROUND_NO_BEACON */
    uint64_t beacon_index; /* the beacon value's index (0 when no beacon) */
} fd_round_header;

/* The client seeds received; len[i] == 0: slot i was not filled. */
typedef struct fd_round_seeds {
    uint8_t len[FD_ROUND_SLOTS];                     /* seed length per slot, 0..FD_ROUND_SEED_MAX */
    uint8_t seed[FD_ROUND_SLOTS][FD_ROUND_SEED_MAX]; /* the first len[i] bytes of seed[i] */
} fd_round_seeds;

/* Fewest bytes of S for n cards: ceil((sum_{i=2..n} ceil(log2 i) + 64) / 8),
 * at least log2(n!) + 64 bits. n in 1..FD_SHUFFLE_MAX_N, else 0. */
size_t fd_round_secret_min(size_t n);

/* Checks a header: device id length, shoe (as fd_shoe_init), beacon slot in
 * slot_mask (or none, with index 0). Errors: FD_ERR_NULL, FD_ERR_PARSE,
 * FD_ERR_TOO_LARGE, FD_ERR_EMPTY. */
FD_MUST_CHECK fd_status fd_round_header_check(const fd_round_header *header);

/* commitment = SHA-256 of the domain string, the header encoding, len(S)
 * and S (docs/VERIFY.md §3). Preconditions: a valid header, S of
 * fd_round_secret_min(shoe size)..FD_ROUND_SECRET_MAX bytes. Errors:
 * FD_ERR_NULL, the header's errors, FD_ERR_TOO_FEW / FD_ERR_TOO_LARGE
 * (secret length); out is written only on success. */
FD_MUST_CHECK fd_status fd_round_commit(const fd_round_header *header, const uint8_t *secret, size_t secret_len,
                                        uint8_t out[FD_SHA256_SIZE]);

/* Starts an empty seed set (every slot unfilled). FD_ERR_NULL. */
FD_MUST_CHECK fd_status fd_round_seeds_clear(fd_round_seeds *seeds);

/* Fills slot `slot` once; a filled slot is never replaced. Errors:
 * FD_ERR_NULL, FD_ERR_EMPTY (len 0), FD_ERR_TOO_LARGE (len above
 * FD_ROUND_SEED_MAX), FD_ERR_STATE (slot not in the header's slot_mask, or
 * already filled). On error nothing changes. */
FD_MUST_CHECK fd_status fd_round_seed_set(fd_round_seeds *seeds, const fd_round_header *header, unsigned slot,
                                          const uint8_t *seed, size_t len);

/* True when no client seed was supplied: the round proves nothing beyond
 * its commitment and is labelled house-only. */
bool fd_round_house_only(const fd_round_seeds *seeds);

/* The keystream key: SHA-256 of the domain string, the header encoding and
 * every slot of slot_mask with its length-prefixed seed. Not of S or the
 * commitment: with the key independent of S, S -> S XOR K is a bijection.
 * Errors: FD_ERR_NULL, the header's errors, FD_ERR_STATE (a seed in a slot
 * outside slot_mask), FD_ERR_TOO_LARGE (a seed length above the maximum). */
FD_MUST_CHECK fd_status fd_round_key(const fd_round_header *header, const fd_round_seeds *seeds,
                                     uint8_t key[FD_ROUND_KEY_SIZE]);

/* Durstenfeld over a[0..n) driven by the round's byte stream (S XOR K, then
 * K) through fd_fullentropy: the mapping every round uses, exported for the
 * fairness harness and the self-test. Errors: FD_ERR_NULL, FD_ERR_EMPTY,
 * FD_ERR_TOO_LARGE (n above FD_SHUFFLE_MAX_N, secret above the maximum),
 * FD_ERR_TOO_FEW (secret shorter than fd_round_secret_min(n)); a is
 * unchanged on error. */
FD_MUST_CHECK fd_status fd_round_shuffle_u16(uint16_t *a, size_t n, const uint8_t key[FD_ROUND_KEY_SIZE],
                                             const uint8_t *secret, size_t secret_len);

/* The round's order: commitment, key, then the shoe in canonical order
 * (fd_shoe_init) shuffled by fd_round_shuffle_u16; the shoe is dealable on
 * success. Every input is checked before the shoe is touched, so an error
 * leaves it unchanged. commitment_out may be NULL. Errors: FD_ERR_NULL,
 * those of fd_round_commit and fd_round_key. */
FD_MUST_CHECK fd_status fd_round_deal_order(const fd_round_header *header, const uint8_t *secret, size_t secret_len,
                                            const fd_round_seeds *seeds, fd_shoe *shoe,
                                            uint8_t commitment_out[FD_SHA256_SIZE]);

/* A player's check of a revealed round: the published commitment matches
 * (header, S) and the revealed order (count cards) is the one the
 * derivation gives. FD_OK, FD_ERR_CORRUPT on any mismatch, or the
 * derivation's errors for malformed input. */
FD_MUST_CHECK fd_status fd_round_verify(const fd_round_header *header, const uint8_t *secret, size_t secret_len,
                                        const fd_round_seeds *seeds, const uint8_t commitment[FD_SHA256_SIZE],
                                        const fd_card *order, uint16_t count);

/* Power-on known answer of the whole path, client seed -> key -> keystream
 * -> exact bounded integers -> permutation: docs/VERIFY.md vector 1 (52
 * cards) recomputed and compared by fd_round_selftest_answer. Stack about
 * 2 KiB. FD_OK or FD_ERR_KAT. */
FD_MUST_CHECK fd_status fd_round_selftest(void);

/* Compares a commitment and an order with vector 1's, as fd_round_selftest
 * does; exported so tests can show that a wrong mapping is caught.
 * FD_OK or FD_ERR_KAT. */
FD_MUST_CHECK fd_status fd_round_selftest_answer(const uint8_t commitment[FD_SHA256_SIZE], const uint16_t *order,
                                                 size_t count);

#ifdef __cplusplus
}
#endif

#endif
