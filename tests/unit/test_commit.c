/* The round commitment and the round record (lib/src/commit.c) against
 * known answers computed independently (tests/unit/gen_commit_vectors.py,
 * Python hashlib), and every way a record can be malformed or a revealed
 * round can lie: a flipped card, a duplicated card, a flipped salt bit, a
 * deal longer than the shoe. Runs on the host and on every QEMU board. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "commit_vectors.h"
#include "fairdeal/commit.h"

static fd_round_record rec; /* large: keep off the small target stacks */
static fd_round_record other;
static uint8_t buf[FD_RECORD_MAX_SIZE + 8u];

static void test_commitment_known_answers(void **state)
{
    (void)state;
    uint8_t out[FD_COMMIT_SIZE];
    assert_int_equal(fd_commit_compute(kat_salt1, kat_order1, 52, FD_DECK_FRENCH, out), FD_OK);
    assert_memory_equal(out, kat_commit1, sizeof out);
    assert_int_equal(fd_commit_compute(kat_salt2, kat_order2, 80, FD_DECK_SPANISH40, out), FD_OK);
    assert_memory_equal(out, kat_commit2, sizeof out);
    assert_int_equal(fd_commit_compute(kat_salt3, kat_order3, 162, FD_DECK_FRENCH, out), FD_OK);
    assert_memory_equal(out, kat_commit3, sizeof out);
    /* the same cards read as another deck kind are other codes, or none */
    assert_int_equal(fd_commit_compute(kat_salt1, kat_order1, 48, FD_DECK_SPANISH48, out), FD_OK);
    assert_memory_not_equal(out, kat_commit1, sizeof out);
}

typedef struct text {
    char s[64];
    size_t len;
} text;

static void text_sink(void *ctx, const char *s, size_t n)
{
    text *t = ctx;
    assert_true(t->len + n < sizeof t->s);
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

static void test_order_text_and_errors(void **state)
{
    (void)state;
    static const fd_card cards[] = {0, 64 + 9, 52, 12};
    text t = {{0}, 0};
    assert_int_equal(fd_commit_order_text(cards, 4, FD_DECK_FRENCH, text_sink, &t), FD_OK);
    assert_string_equal(t.s, "AS TS JK KS");
    /* a card that is not of the kind: an error, and nothing written */
    static const fd_card spanish_bad[] = {0, 7}; /* face 7 is the 8 of oros: not in a 40-card deck */
    t.len = 0;
    assert_int_equal(fd_commit_order_text(spanish_bad, 2, FD_DECK_SPANISH40, text_sink, &t), FD_ERR_PARSE);
    assert_int_equal(t.len, 0);
    uint8_t out[FD_COMMIT_SIZE];
    memset(out, 0xA5, sizeof out);
    assert_int_equal(fd_commit_compute(kat_salt1, spanish_bad, 2, FD_DECK_SPANISH40, out), FD_ERR_PARSE);
    assert_int_equal(out[0], 0xA5);
    assert_int_equal(fd_commit_compute(NULL, cards, 4, FD_DECK_FRENCH, out), FD_ERR_NULL);
    assert_int_equal(fd_commit_compute(kat_salt1, cards, 4, FD_DECK_FRENCH, NULL), FD_ERR_NULL);
    assert_int_equal(fd_commit_order_text(NULL, 1, FD_DECK_FRENCH, text_sink, &t), FD_ERR_NULL);
    assert_int_equal(fd_commit_order_text(cards, 1, FD_DECK_FRENCH, NULL, &t), FD_ERR_NULL);
}

static void fill_revealed(fd_round_record *r)
{
    memset(r, 0, sizeof *r);
    r->round_id = 0x01020304u;
    r->kind = FD_DECK_FRENCH;
    r->decks = 1;
    r->jokers = 0;
    r->mode = FD_RECORD_MODE_FULL;
    memcpy(r->commitment, kat_commit1, FD_COMMIT_SIZE);
    r->revealed = true;
    memcpy(r->salt, kat_salt1, FD_COMMIT_SALT_SIZE);
    r->count = 52;
    memcpy(r->order, kat_order1, sizeof kat_order1);
    r->dealt = 5;
}

static void test_record_known_answers(void **state)
{
    (void)state;
    size_t len = 0;
    fill_revealed(&rec);
    assert_int_equal(fd_record_encode(&rec, buf, sizeof buf, &len), FD_OK);
    assert_int_equal(len, sizeof kat_record_revealed);
    assert_memory_equal(buf, kat_record_revealed, len);
    assert_int_equal(fd_record_verify(&rec), FD_OK);
    assert_int_equal(fd_record_decode(kat_record_revealed, sizeof kat_record_revealed, &other), FD_OK);
    assert_memory_equal(&other, &rec, sizeof rec);

    /* an open round: no salt, no order; verifiable only once revealed */
    memset(&rec, 0, sizeof rec);
    rec.round_id = 7;
    rec.kind = FD_DECK_SPANISH40;
    rec.decks = 2;
    rec.mode = FD_RECORD_MODE_DRBG;
    memcpy(rec.commitment, kat_commit2, FD_COMMIT_SIZE);
    assert_int_equal(fd_record_encode(&rec, buf, sizeof buf, &len), FD_OK);
    assert_int_equal(len, sizeof kat_record_open);
    assert_memory_equal(buf, kat_record_open, len);
    assert_int_equal(fd_record_decode(kat_record_open, sizeof kat_record_open, &other), FD_OK);
    assert_memory_equal(&other, &rec, sizeof rec);
    assert_int_equal(fd_record_verify(&other), FD_ERR_STATE);

    /* too small a buffer: an error at every size, nothing past the end */
    fill_revealed(&rec);
    for (size_t size = 0; size < sizeof kat_record_revealed; size += 37u) {
        memset(buf, 0xEE, sizeof buf);
        len = 99;
        assert_int_equal(fd_record_encode(&rec, buf, size, &len), FD_ERR_BUFFER_TOO_SMALL);
        assert_int_equal(len, 99);
        assert_int_equal(buf[size], 0xEE);
    }
    assert_int_equal(fd_record_encode(NULL, buf, sizeof buf, &len), FD_ERR_NULL);
    assert_int_equal(fd_record_decode(NULL, 1, &other), FD_ERR_NULL);
    assert_int_equal(fd_record_verify(NULL), FD_ERR_NULL);
}

/* Decode a copy of the revealed KAT record after `edit`; FD_ERR_PARSE
 * expected, and the output untouched. */
static void assert_rejected(size_t len)
{
    memset(&other, 0x5A, sizeof other);
    assert_int_equal(fd_record_decode(buf, len, &other), FD_ERR_PARSE);
    assert_int_equal(other.round_id, 0x5A5A5A5Au);
}

static void test_record_rejects_malformed(void **state)
{
    (void)state;
    const size_t n = sizeof kat_record_revealed;
    /* every truncation */
    memcpy(buf, kat_record_revealed, n);
    for (size_t len = 0; len < n; len += (len < 200u ? 1u : 61u)) {
        assert_rejected(len);
    }
    /* another version; a trailing byte */
    buf[0] = 2;
    assert_rejected(n);
    memcpy(buf, kat_record_revealed, n);
    buf[n] = 0;
    assert_rejected(n + 1u);
    /* an unknown critical tag (0x08) after DEALT */
    static const uint8_t unknown[] = {0x08, 0x00, 0x01, 0x00};
    memcpy(buf + n, unknown, sizeof unknown);
    assert_rejected(n + sizeof unknown);
    /* an unknown optional tag (0x80 and up) is skipped */
    static const uint8_t optional[] = {0x80, 0x00, 0x02, 0xAB, 0xCD};
    memcpy(buf + n, optional, sizeof optional);
    assert_int_equal(fd_record_decode(buf, n + sizeof optional, &other), FD_OK);
    assert_int_equal(fd_record_verify(&other), FD_OK);
    /* ROUND_ID's length wrong: 3 */
    memcpy(buf, kat_record_revealed, n);
    buf[3] = 3;
    assert_rejected(n);
    /* tags out of order: the open record with SHOE (bytes 8-13) and MODE
     * (14-17) swapped */
    memcpy(buf, kat_record_open, sizeof kat_record_open);
    memcpy(buf + 8, kat_record_open + 14, 4);
    memcpy(buf + 12, kat_record_open + 8, 6);
    assert_rejected(sizeof kat_record_open);
    /* a repeated tag: DEALT twice */
    memcpy(buf, kat_record_revealed, n);
    memcpy(buf + n, buf + n - 5u, 5);
    assert_rejected(n + 5u);
    /* SALT without ORDER: the open record with a SALT spliced in */
    const size_t m = sizeof kat_record_open;
    memcpy(buf, kat_record_open, m - 5u);
    static const uint8_t salt_tlv[3] = {0x05, 0x00, 0x10};
    memcpy(buf + m - 5u, salt_tlv, 3);
    memset(buf + m - 2u, 0, 16);
    memcpy(buf + m + 14u, kat_record_open + m - 5u, 5);
    assert_rejected(m + 19u);
    /* no COMMITMENT: required */
    memcpy(buf, kat_record_open, 18);          /* version, ROUND_ID, SHOE, MODE */
    memcpy(buf + 18, kat_record_open + 53, 5); /* DEALT */
    assert_rejected(23);
}

/* ORDER holds at most the largest shoe: FD_SHOE_MAX_CARDS cards decode, one
 * more is refused (it would not fit the record's order array). */
static void test_record_order_length_is_bounded(void **state)
{
    (void)state;
    fill_revealed(&rec);
    rec.count = FD_SHOE_MAX_CARDS;
    for (uint16_t i = 0; i < rec.count; i++) {
        rec.order[i] = i;
    }
    size_t len = 0;
    assert_int_equal(fd_record_encode(&rec, buf, sizeof buf, &len), FD_OK);
    assert_int_equal(fd_record_decode(buf, len, &other), FD_OK);
    assert_int_equal(other.count, FD_SHOE_MAX_CARDS);
    /* ORDER follows version, ROUND_ID, SHOE, MODE, COMMITMENT and SALT */
    const size_t order_at = 1u + 7u + 6u + 4u + (3u + FD_COMMIT_SIZE) + (3u + FD_COMMIT_SALT_SIZE);
    assert_int_equal(buf[order_at], FD_RECORD_TAG_ORDER);
    const size_t order_end = order_at + 3u + 2u * FD_SHOE_MAX_CARDS;
    memmove(buf + order_end + 2u, buf + order_end, len - order_end);
    buf[order_end] = 0x01u; /* one more card id: 0x01B0 */
    buf[order_end + 1u] = 0xB0u;
    const unsigned longer = 2u * (FD_SHOE_MAX_CARDS + 1u);
    buf[order_at + 1u] = (uint8_t)(longer >> 8);
    buf[order_at + 2u] = (uint8_t)longer;
    assert_rejected(len + 2u);
}

static void test_verify_catches_a_lying_reveal(void **state)
{
    (void)state;
    fill_revealed(&rec);
    assert_int_equal(fd_record_verify(&rec), FD_OK);
    /* two cards swapped: still the shoe, not the committed order */
    fd_card c = rec.order[3];
    rec.order[3] = rec.order[40];
    rec.order[40] = c;
    assert_int_equal(fd_record_verify(&rec), FD_ERR_CORRUPT);
    /* a card twice (and one missing): not the shoe */
    fill_revealed(&rec);
    rec.order[51] = rec.order[0];
    assert_int_equal(fd_record_verify(&rec), FD_ERR_CORRUPT);
    /* the commitment's last bit: every byte of it is compared */
    fill_revealed(&rec);
    rec.commitment[FD_COMMIT_SIZE - 1u] ^= 0x01u;
    assert_int_equal(fd_record_verify(&rec), FD_ERR_CORRUPT);
    /* one salt bit */
    fill_revealed(&rec);
    rec.salt[15] ^= 0x01u;
    assert_int_equal(fd_record_verify(&rec), FD_ERR_CORRUPT);
    /* more dealt than the shoe holds */
    fill_revealed(&rec);
    rec.dealt = 53;
    assert_int_equal(fd_record_verify(&rec), FD_ERR_CORRUPT);
    /* a shoe of another size */
    fill_revealed(&rec);
    rec.decks = 2;
    assert_int_equal(fd_record_verify(&rec), FD_ERR_CORRUPT);
    /* the 3-deck vector with its jokers passes; one joker more does not */
    memset(&rec, 0, sizeof rec);
    rec.kind = FD_DECK_FRENCH;
    rec.decks = 3;
    rec.jokers = 2;
    rec.revealed = true;
    rec.count = 162;
    memcpy(rec.order, kat_order3, sizeof kat_order3);
    memcpy(rec.salt, kat_salt3, sizeof kat_salt3);
    memcpy(rec.commitment, kat_commit3, sizeof kat_commit3);
    assert_int_equal(fd_record_verify(&rec), FD_OK);
    rec.jokers = 1;
    assert_int_equal(fd_record_verify(&rec), FD_ERR_CORRUPT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commitment_known_answers),      cmocka_unit_test(test_order_text_and_errors),
        cmocka_unit_test(test_record_known_answers),          cmocka_unit_test(test_record_rejects_malformed),
        cmocka_unit_test(test_verify_catches_a_lying_reveal), cmocka_unit_test(test_record_order_length_is_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
