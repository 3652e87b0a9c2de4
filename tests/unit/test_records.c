/* The record codec (fairdeal/records.h): every record type's golden bytes
 * are read from docs/RECORDS.md ("Golden bytes") and must be exactly what
 * the encoder writes for the case below, and decode back to it; every
 * decoder refuses each wrong length and each out-of-range field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fairdeal/records.h"

#ifndef FD_RECORDS_DOC
#error "FD_RECORDS_DOC: the path of docs/RECORDS.md"
#endif

/* The golden row named `name` of docs/RECORDS.md, as bytes. */
static size_t golden(const char *name, uint8_t *out, size_t size)
{
    static char doc[1 << 17];
    FILE *f = fopen(FD_RECORDS_DOC, "rb");
    assert_non_null(f);
    const size_t n = fread(doc, 1, sizeof doc - 1u, f);
    (void)fclose(f);
    doc[n] = '\0';
    const char *section = strstr(doc, "## Golden bytes");
    assert_non_null(section);
    char key[48];
    snprintf(key, sizeof key, "\n| %s | `", name);
    const char *row = strstr(section, key);
    if (row == NULL) {
        fail_msg("docs/RECORDS.md has no golden row for %s", name);
    }
    const char *p = row + strlen(key);
    size_t len = 0;
    for (; *p != '`'; p++) {
        if (*p == ' ') {
            continue;
        }
        unsigned v = 0;
        assert_int_equal(sscanf(p, "%2x", &v), 1);
        assert_true(len < size);
        out[len++] = (uint8_t)v;
        p++;
    }
    return len;
}

static void same_as_doc(const char *name, const uint8_t *enc, size_t len)
{
    uint8_t doc[FD_JOURNAL_MAX_PAYLOAD];
    const size_t n = golden(name, doc, sizeof doc);
    if (n != len || memcmp(doc, enc, len) != 0) {
        char hex[2 * FD_JOURNAL_MAX_PAYLOAD + 1];
        for (size_t i = 0; i < len; i++) {
            snprintf(hex + 2 * i, 3, "%02x", enc[i]);
        }
        fail_msg("%s: the codec writes %s, docs/RECORDS.md says otherwise", name, hex);
    }
}

/* Every length but `good` (0 .. max + 1) refused by decode. */
#define REFUSES_OTHER_LENGTHS(decode, type, bytes, good, max)                                                          \
    do {                                                                                                               \
        type tmp_;                                                                                                     \
        for (size_t l = 0; l <= (max) + 1u; l++) {                                                                     \
            if (l != (good)) {                                                                                         \
                assert_int_equal(decode(bytes, l, &tmp_), FD_ERR_PARSE);                                               \
            }                                                                                                          \
        }                                                                                                              \
        assert_int_equal(decode(NULL, good, &tmp_), FD_ERR_PARSE);                                                     \
    } while (0)

static void test_events(void **state)
{
    (void)state;
    uint8_t b[16];
    const fd_rec_power_on on = {3, 1764288000u};
    size_t n = fd_rec_power_on_encode(&on, b);
    same_as_doc("POWER_ON", b, n);
    fd_rec_power_on on2;
    assert_int_equal(fd_rec_power_on_decode(b, n, &on2), FD_OK);
    assert_true(on2.cause == on.cause && on2.time == on.time);
    REFUSES_OTHER_LENGTHS(fd_rec_power_on_decode, fd_rec_power_on, b, n, n);

    const fd_rec_time_set t = {1764288000u};
    n = fd_rec_time_set_encode(&t, b);
    same_as_doc("TIME_SET", b, n);
    fd_rec_time_set t2;
    assert_int_equal(fd_rec_time_set_decode(b, n, &t2), FD_OK);
    assert_int_equal(t2.unix_s, t.unix_s);
    REFUSES_OTHER_LENGTHS(fd_rec_time_set_decode, fd_rec_time_set, b, n, n);
    memset(b, 0, 4);
    assert_int_equal(fd_rec_time_set_decode(b, n, &t2), FD_ERR_PARSE); /* TIME 0 is never sent */

    const fd_rec_event e = {FD_ERR_HEALTH, 2, 1764288000u};
    n = fd_rec_event_encode(&e, b);
    same_as_doc("FAULT", b, n);
    fd_rec_event e2;
    assert_int_equal(fd_rec_event_decode(b, n, &e2), FD_OK);
    assert_true(e2.status == e.status && e2.detail == e.detail && e2.time == e.time);
    REFUSES_OTHER_LENGTHS(fd_rec_event_decode, fd_rec_event, b, n, n);
}

static fd_rec_round_opened opened_case(void)
{
    fd_rec_round_opened o;
    memset(&o, 0, sizeof o);
    o.round_id = 7;
    o.mode = FD_RECORD_MODE_ROUND;
    o.kind = 0;
    o.decks = 1;
    o.jokers = 2;
    o.count = 54;
    o.cut = 10;
    o.slot_mask = 0x07;
    o.material_len = 20;
    o.parts = 1;
    o.time = 1764288000u;
    for (unsigned i = 0; i < FD_SHA256_SIZE; i++) {
        o.commitment[i] = (uint8_t)(0xC0u + i);
    }
    o.part_seq[0] = 0x0102;
    o.device_id_len = 4;
    memcpy(o.device_id, "\xde\xad\xbe\xef", 4);
    o.has_beacon = true;
    o.beacon_slot = 2;
    o.beacon_index = 0x0000000100000002u;
    return o;
}

static void test_round_opened(void **state)
{
    (void)state;
    uint8_t b[FD_REC_ROUND_OPENED_MAX + 8];
    fd_rec_round_opened o = opened_case();
    size_t n = fd_rec_round_opened_encode(&o, b);
    same_as_doc("ROUND_OPENED", b, n);
    static fd_rec_round_opened back;
    assert_int_equal(fd_rec_round_opened_decode(b, n, &back), FD_OK);
    assert_memory_equal(&back.commitment, o.commitment, FD_SHA256_SIZE);
    assert_true(back.round_id == 7u && back.count == 54u && back.cut == 10u && back.parts == 1u &&
                back.part_seq[0] == 0x0102u && back.has_beacon && back.beacon_slot == 2u &&
                back.beacon_index == o.beacon_index && back.device_id_len == 4u && back.slot_mask == 7u);
    /* only the exact lengths: without the beacon (drbg/full) or with its 9 bytes */
    for (size_t l = 0; l < sizeof b; l++) {
        const fd_status want = l == n || l == n - FD_REC_BEACON_SIZE ? FD_OK : FD_ERR_PARSE;
        assert_int_equal(fd_rec_round_opened_decode(b, l, &back), want);
    }
    assert_false(fd_rec_round_opened_decode(b, n - FD_REC_BEACON_SIZE, &back) == FD_OK && back.has_beacon);
    /* out of range: each field alone */
    const struct {
        size_t at;
        uint8_t v;
    } bad[] = {{16, 0},
               {16, FD_REC_MAX_PARTS + 1u},
               {13, FD_ROUND_DEVICE_ID_MAX + 1u},
               {4, 3},
               {8, 0},
               {9, 2},
               {10, 55},
               {14, 0},
               {14, 65}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t c[sizeof b];
        memcpy(c, b, n);
        c[bad[i].at] = bad[i].v;
        assert_int_equal(fd_rec_round_opened_decode(c, n, &back), FD_ERR_PARSE);
    }
    /* the largest one fits its buffer */
    o.parts = FD_REC_MAX_PARTS;
    o.material_len = (uint16_t)(FD_REC_MAX_PARTS * FD_REC_SECRET_PART);
    o.device_id_len = FD_ROUND_DEVICE_ID_MAX;
    assert_int_equal(fd_rec_round_opened_encode(&o, b), FD_REC_ROUND_OPENED_MAX);
    assert_int_equal(fd_rec_round_opened_decode(b, FD_REC_ROUND_OPENED_MAX, &back), FD_OK);
}

static void test_round_records(void **state)
{
    (void)state;
    uint8_t b[FD_JOURNAL_MAX_PAYLOAD];
    const fd_rec_round_secret h = {7, 1, 2, FD_RECORD_MODE_DRBG};
    size_t n = fd_rec_round_secret_encode(&h, b);
    same_as_doc("ROUND_SECRET", b, n);
    fd_rec_round_secret h2;
    assert_int_equal(fd_rec_round_secret_decode(b, n, &h2), FD_OK);
    assert_true(h2.round_id == 7u && h2.part == 1u && h2.parts == 2u && h2.mode == FD_RECORD_MODE_DRBG);
    REFUSES_OTHER_LENGTHS(fd_rec_round_secret_decode, fd_rec_round_secret, b, n, n);
    b[4] = 2; /* part == parts */
    assert_int_equal(fd_rec_round_secret_decode(b, n, &h2), FD_ERR_PARSE);

    fd_rec_client_seed c = {7, 1, 5, {0}};
    memcpy(c.seed, "alice", 5);
    n = fd_rec_client_seed_encode(&c, b);
    same_as_doc("CLIENT_SEED", b, n);
    fd_rec_client_seed c2;
    assert_int_equal(fd_rec_client_seed_decode(b, n, &c2), FD_OK);
    assert_true(c2.slot == 1u && c2.len == 5u && memcmp(c2.seed, "alice", 5) == 0);
    REFUSES_OTHER_LENGTHS(fd_rec_client_seed_decode, fd_rec_client_seed, b, n, FD_REC_CLIENT_SEED_MAX);
    b[4] = FD_ROUND_SLOTS;
    assert_int_equal(fd_rec_client_seed_decode(b, n, &c2), FD_ERR_PARSE);

    const fd_rec_seeds_closed sc = {7};
    n = fd_rec_seeds_closed_encode(&sc, b);
    same_as_doc("SEEDS_CLOSED", b, n);
    REFUSES_OTHER_LENGTHS(fd_rec_seeds_closed_decode, fd_rec_seeds_closed, b, n, n);

    fd_rec_reveal r = {7, FD_RECORD_MODE_ROUND, 20, 1764288000u, {0}, {0}, 12};
    for (unsigned i = 0; i < FD_SHA256_SIZE; i++) {
        r.commitment[i] = (uint8_t)(0xC0u + i);
        r.material_hash[i] = (uint8_t)(0x40u + i);
    }
    n = fd_rec_reveal_encode(&r, b);
    same_as_doc("REVEAL", b, n);
    fd_rec_reveal r2;
    assert_int_equal(fd_rec_reveal_decode(b, n, &r2), FD_OK);
    assert_true(r2.dealt == 12u && r2.material_len == 20u && memcmp(r2.material_hash, r.material_hash, 32) == 0);
    REFUSES_OTHER_LENGTHS(fd_rec_reveal_decode, fd_rec_reveal, b, n, n);

    const fd_rec_seed_file f = {48};
    n = fd_rec_seed_file_encode(&f, b);
    same_as_doc("SEED_FILE", b, n);
    REFUSES_OTHER_LENGTHS(fd_rec_seed_file_decode, fd_rec_seed_file, b, n, n);

    const fd_rec_cut k = {7, 26};
    n = fd_rec_cut_encode(&k, b);
    same_as_doc("CUT", b, n);
    fd_rec_cut k2;
    assert_int_equal(fd_rec_cut_decode(b, n, &k2), FD_OK);
    assert_true(k2.round_id == 7u && k2.cut == 26u);
    REFUSES_OTHER_LENGTHS(fd_rec_cut_decode, fd_rec_cut, b, n, n);

    const fd_rec_beacon_index bi = {2, 0x0000000100000002u};
    n = fd_rec_beacon_index_encode(&bi, b);
    same_as_doc("BEACON_INDEX", b, n);
    fd_rec_beacon_index bi2;
    assert_int_equal(fd_rec_beacon_index_decode(b, n, &bi2), FD_OK);
    assert_true(bi2.slot == 2u && bi2.index == bi.index);
    REFUSES_OTHER_LENGTHS(fd_rec_beacon_index_decode, fd_rec_beacon_index, b, n, n);
    b[0] = FD_ROUND_SLOTS; /* no such slot */
    assert_int_equal(fd_rec_beacon_index_decode(b, n, &bi2), FD_ERR_PARSE);

    const fd_rec_link_session ls = {0x0000000100000200u};
    n = fd_rec_link_session_encode(&ls, b);
    same_as_doc("LINK_SESSION", b, n);
    fd_rec_link_session ls2;
    assert_int_equal(fd_rec_link_session_decode(b, n, &ls2), FD_OK);
    assert_true(ls2.limit == ls.limit);
    REFUSES_OTHER_LENGTHS(fd_rec_link_session_decode, fd_rec_link_session, b, n, n);

    const fd_rec_skipped sk = {7, 300, 3};
    n = fd_rec_skipped_encode(&sk, b);
    same_as_doc("SKIPPED", b, n);
    fd_rec_skipped sk2;
    assert_int_equal(fd_rec_skipped_decode(b, n, &sk2), FD_OK);
    assert_true(sk2.round_id == 7u && sk2.first == 300u && sk2.count == 3u);
    REFUSES_OTHER_LENGTHS(fd_rec_skipped_decode, fd_rec_skipped, b, n, n);
    const fd_rec_skipped bad[] = {{7, 300, 0}, {7, FD_SHOE_MAX_CARDS - 1u, 2}, {7, FD_SHOE_MAX_CARDS, 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        n = fd_rec_skipped_encode(&bad[i], b);
        assert_int_equal(fd_rec_skipped_decode(b, n, &sk2), FD_ERR_PARSE);
    }
    const fd_rec_skipped last = {7, FD_SHOE_MAX_CARDS - 1u, 1}; /* the shoe's last card */
    n = fd_rec_skipped_encode(&last, b);
    assert_int_equal(fd_rec_skipped_decode(b, n, &sk2), FD_OK);
}

/* Compaction keeps the newest BEACON_INDEX of each slot and no other. */
static void test_keep_newest_beacon_per_slot(void **state)
{
    (void)state;
    fd_records_rules rules;
    memset(&rules, 0, sizeof rules);
    static fd_journal_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FD_REC_BEACON_INDEX;
    const fd_rec_beacon_index bi = {3, 5};
    rec.len = (uint16_t)fd_rec_beacon_index_encode(&bi, rec.payload);
    rec.orig_seq = 40;
    assert_false(fd_records_keep_rules(&rules, &rec)); /* the slot has none */
    rules.beacon_seq[3] = 40;
    assert_true(fd_records_keep_rules(&rules, &rec));
    rules.beacon_seq[3] = 41; /* a newer one of the slot */
    assert_false(fd_records_keep_rules(&rules, &rec));
    rules.beacon_seq[2] = 40; /* another slot's newest: not this record's */
    assert_false(fd_records_keep_rules(&rules, &rec));
    rec.len--; /* malformed */
    rules.beacon_seq[3] = 40;
    assert_false(fd_records_keep_rules(&rules, &rec));
}

/* Compaction keeps the newest LINK_SESSION and no other. */
static void test_keep_newest_link_session(void **state)
{
    (void)state;
    fd_records_rules rules;
    memset(&rules, 0, sizeof rules);
    static fd_journal_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FD_REC_LINK_SESSION;
    const fd_rec_link_session ls = {512};
    rec.len = (uint16_t)fd_rec_link_session_encode(&ls, rec.payload);
    rec.orig_seq = 40;
    assert_false(fd_records_keep_rules(&rules, &rec)); /* none journalled */
    rules.link_seq = 40;
    assert_true(fd_records_keep_rules(&rules, &rec));
    rules.link_seq = 41; /* a newer one */
    assert_false(fd_records_keep_rules(&rules, &rec));
}

static void test_dealt(void **state)
{
    (void)state;
    uint8_t b[FD_REC_DEALT_MAX + 4];
    static fd_rec_dealt t, t2;
    memset(&t, 0, sizeof t);
    t.round_id = 7;
    t.first = 300;
    t.cards = 3;
    t.players = 4;
    t.seat0 = 2;
    t.kind = 0;
    t.card[0] = 0x0104;
    t.card[1] = 0x0233;
    t.card[2] = 0x0001;
    size_t n = fd_rec_dealt_encode(&t, b);
    same_as_doc("DEALT", b, n);
    assert_int_equal(fd_rec_dealt_decode(b, n, &t2), FD_OK);
    assert_true(t2.first == 300u && t2.cards == 3u && t2.players == 4u && t2.seat0 == 2u && t2.card[1] == 0x0233u);
    REFUSES_OTHER_LENGTHS(fd_rec_dealt_decode, fd_rec_dealt, b, n, FD_REC_DEALT_MAX);
    /* a burn: one card, no seat */
    t.players = 0;
    t.seat0 = 0;
    t.cards = 1;
    n = fd_rec_dealt_encode(&t, b);
    same_as_doc("DEALT (BURN)", b, n);
    assert_int_equal(fd_rec_dealt_decode(b, n, &t2), FD_OK);
    assert_true(t2.players == 0u && t2.cards == 1u);
    /* out of range */
    uint8_t c[sizeof b];
    memcpy(c, b, n);
    c[7] = 0x10; /* a burn with a seat */
    assert_int_equal(fd_rec_dealt_decode(c, n, &t2), FD_ERR_PARSE);
    memcpy(c, b, n);
    c[7] = 0x33; /* seat 3 of 3 */
    assert_int_equal(fd_rec_dealt_decode(c, n, &t2), FD_ERR_PARSE);
    memcpy(c, b, n);
    c[4] = (uint8_t)FD_SHOE_MAX_CARDS; /* past the largest shoe */
    c[5] = (uint8_t)(FD_SHOE_MAX_CARDS >> 8);
    assert_int_equal(fd_rec_dealt_decode(c, n, &t2), FD_ERR_PARSE);
    /* the largest: 120 cards */
    t.players = 8;
    t.first = 0;
    t.cards = FD_REC_DEALT_CARDS_MAX;
    assert_int_equal(fd_rec_dealt_encode(&t, b), FD_REC_DEALT_MAX);
    assert_int_equal(fd_rec_dealt_decode(b, FD_REC_DEALT_MAX, &t2), FD_OK);
}

/* The capacity model's per-record sizes are the journal's. */
static void test_capacity_units(void **state)
{
    (void)state;
    for (size_t p = 0; p <= FD_JOURNAL_MAX_PAYLOAD; p += 7u) {
        for (size_t s = 0; s <= FD_JOURNAL_MAX_SECRET; s += 13u) {
            assert_int_equal(FD_JOURNAL_RECORD_BYTES(p, s, 0), fd_journal_record_size(p, s, false));
            assert_int_equal(FD_JOURNAL_RECORD_BYTES(p, s, 1), fd_journal_record_size(p, s, true));
        }
    }
    assert_int_equal(FD_REC_CAP_KEPT(FD_REC_DEALT_BASE + 2u, 0u), 52u);
    assert_int_equal(FD_REC_CAP_LARGEST, 196u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_round_opened),
        cmocka_unit_test(test_round_records),
        cmocka_unit_test(test_dealt),
        cmocka_unit_test(test_capacity_units),
        cmocka_unit_test(test_keep_newest_beacon_per_slot),
        cmocka_unit_test(test_keep_newest_link_session),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
