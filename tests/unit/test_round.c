/* Player-verifiable rounds: the known answer (docs/VERIFY.md vector 1),
 * bad input refused without effect, each cheat a verifier must catch, the
 * secret sizes that keep every order reachable, and the self-test catching
 * a wrong mapping. The cross-check with tools/verify.py: test_verify.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "fairdeal/fullentropy.h"
#include "fairdeal/round.h"
#include "fairdeal/selftest.h"
#include "fairdeal/shuffle.h"
#include "test_rng.h"

static const fd_round_header kat_header = {"fairdeal-kat", 12, 1, FD_DECK_FRENCH, 1, 0, 0x01, FD_ROUND_NO_BEACON, 0};
static uint8_t kat_secret[FD_ROUND_SECRET_MAX];
static fd_round_seeds kat_seeds;
static fd_shoe shoe_a;
static fd_shoe shoe_b;

static int setup(void **state)
{
    (void)state;
    for (unsigned i = 0; i < sizeof kat_secret; i++) {
        kat_secret[i] = (uint8_t)i;
    }
    if (fd_round_seeds_clear(&kat_seeds) != FD_OK) {
        return -1;
    }
    return fd_round_seed_set(&kat_seeds, &kat_header, 0, (const uint8_t *)"player", 6) == FD_OK ? 0 : -1;
}

static void test_known_answer(void **state)
{
    (void)state;
    uint8_t commitment[32];
    assert_int_equal(fd_round_deal_order(&kat_header, kat_secret, 40, &kat_seeds, &shoe_a, commitment), FD_OK);
    assert_true(shoe_a.shuffled);
    assert_int_equal(shoe_a.position, 0);
    assert_int_equal(fd_round_selftest_answer(commitment, shoe_a.order, shoe_a.count), FD_OK);
    assert_int_equal(fd_round_verify(&kat_header, kat_secret, 40, &kat_seeds, commitment, shoe_a.order, 52), FD_OK);
    assert_int_equal(fd_selftest_kat(), FD_OK);
    assert_int_equal(fd_round_selftest(), FD_OK);
    assert_false(fd_round_house_only(&kat_seeds));
}

/* The self-test's comparison catches a wrong mapping: the same order bytes
 * through Lemire's method instead of the exact one, one swapped card, a
 * short order, a changed commitment. */
static void test_selftest_catches_wrong_mapping(void **state)
{
    (void)state;
    uint8_t commitment[32];
    assert_int_equal(fd_round_deal_order(&kat_header, kat_secret, 40, &kat_seeds, &shoe_a, commitment), FD_OK);

    test_prng prng;
    const fd_rng other = test_prng_init(&prng, 1);
    assert_int_equal(fd_shoe_init(&shoe_b, FD_DECK_FRENCH, 1, 0), FD_OK);
    assert_int_equal(fd_shoe_shuffle(&shoe_b, &other), FD_OK);
    assert_int_equal(fd_round_selftest_answer(commitment, shoe_b.order, shoe_b.count), FD_ERR_KAT);

    shoe_b = shoe_a;
    const fd_card t = shoe_b.order[10];
    shoe_b.order[10] = shoe_b.order[11];
    shoe_b.order[11] = t;
    assert_int_equal(fd_round_selftest_answer(commitment, shoe_b.order, shoe_b.count), FD_ERR_KAT);
    assert_int_equal(fd_round_selftest_answer(commitment, shoe_a.order, 51), FD_ERR_KAT);
    commitment[31] ^= 1u;
    assert_int_equal(fd_round_selftest_answer(commitment, shoe_a.order, shoe_a.count), FD_ERR_KAT);
}

/* A Durstenfeld over the same key and S but fed through Lemire's bounded
 * integers (fd_rng without the exact draw) gives another order: the KAT
 * pins the bounded-integer method, not only the keystream. */
static void test_mapping_is_pinned(void **state)
{
    (void)state;
    uint8_t commitment[32], key[32];
    assert_int_equal(fd_round_commit(&kat_header, kat_secret, 40, commitment), FD_OK);
    assert_int_equal(fd_round_key(&kat_header, &kat_seeds, key), FD_OK);
    assert_int_equal(fd_shoe_init(&shoe_a, FD_DECK_FRENCH, 1, 0), FD_OK);
    shoe_b = shoe_a;
    assert_int_equal(fd_round_shuffle_u16(shoe_a.order, 52, key, kat_secret, 40), FD_OK);
    assert_int_equal(fd_round_selftest_answer(commitment, shoe_a.order, 52), FD_OK);
    /* the S XOR K bytes as a plain byte source */
    uint8_t bytes[256];
    test_script_rng script;
    memcpy(bytes, kat_secret, 40);
    fd_hmac_sha256_ctx h;
    for (unsigned block = 0; block < 8u; block++) {
        const uint8_t label[] = "fairdeal/round/stream\0\x01\0\0\0\0";
        uint8_t msg[sizeof label - 1u];
        memcpy(msg, label, sizeof msg);
        msg[sizeof msg - 1u] = (uint8_t)block;
        uint8_t k[32];
        fd_hmac_sha256_init(&h, key, 32);
        fd_hmac_sha256_update(&h, msg, sizeof msg);
        fd_hmac_sha256_final(&h, k);
        for (unsigned i = 0; i < 32u; i++) {
            const unsigned p = block * 32u + i;
            bytes[p] = (uint8_t)((p < 40u ? kat_secret[p] : 0u) ^ k[i]);
        }
    }
    /* the same bytes through fd_fullentropy reproduce the round's order ... */
    const fd_rng plain = test_script_rng_init(&script, bytes, sizeof bytes);
    fd_fullentropy fe;
    assert_int_equal(fd_fullentropy_init(&fe, &plain), FD_OK);
    const fd_rng exact = fd_fullentropy_rng(&fe);
    fd_shoe copy = shoe_b;
    assert_int_equal(fd_shuffle_u16(copy.order, 52, &exact), FD_OK);
    assert_memory_equal(copy.order, shoe_a.order, 52 * sizeof(fd_card));
    /* ... and through Lemire's method they do not */
    const fd_rng lemire = test_script_rng_init(&script, bytes, sizeof bytes);
    assert_int_equal(fd_shuffle_u16(shoe_b.order, 52, &lemire), FD_OK);
    assert_int_equal(fd_round_selftest_answer(commitment, shoe_b.order, 52), FD_ERR_KAT);
}

static void test_secret_sizes_keep_every_order_reachable(void **state)
{
    (void)state;
    assert_int_equal(fd_round_secret_min(0), 0);
    assert_int_equal(fd_round_secret_min(FD_SHUFFLE_MAX_N + 1u), 0);
    assert_int_equal(fd_round_secret_min(1), 8);
    assert_int_equal(fd_round_secret_min(52), 40);
    assert_int_equal(fd_round_secret_min(312), 296);
    assert_int_equal(fd_round_secret_min(432), 431);
    double log2_factorial = 0.0;
    for (size_t n = 1; n <= FD_SHUFFLE_MAX_N; n++) {
        log2_factorial += log2((double)n);
        /* Bytes the exact method reads when every draw is accepted depend
         * only on the bounds (m evolves without looking at z): all orders
         * are reached on such paths, so S must cover them. */
        uint64_t m = 1, z = 0;
        size_t reads = 0;
        for (size_t bound = n; bound >= 2u; bound--) {
            while (m < (1ull << 56)) {
                m <<= 8;
                reads++;
            }
            uint32_t x;
            z = 0;
            assert_true(fd_fullentropy_split(&z, &m, (uint32_t)bound, &x));
        }
        assert_true(reads <= fd_round_secret_min(n));
        assert_true((double)fd_round_secret_min(n) * 8.0 >= log2_factorial + 64.0);
    }
}

static void test_bad_input_changes_nothing(void **state)
{
    (void)state;
    uint8_t commitment[32];
    memset(commitment, 0xAA, sizeof commitment);
    fd_round_header h = kat_header;
    assert_int_equal(fd_round_commit(&h, kat_secret, 39, commitment), FD_ERR_TOO_FEW);
    assert_int_equal(fd_round_commit(&h, kat_secret, FD_ROUND_SECRET_MAX + 1u, commitment), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_round_commit(&h, NULL, 40, commitment), FD_ERR_NULL);
    assert_int_equal(fd_round_commit(NULL, kat_secret, 40, commitment), FD_ERR_NULL);
    h.device_id_len = 0;
    assert_int_equal(fd_round_commit(&h, kat_secret, 40, commitment), FD_ERR_EMPTY);
    h.device_id_len = FD_ROUND_DEVICE_ID_MAX + 1u;
    assert_int_equal(fd_round_commit(&h, kat_secret, 40, commitment), FD_ERR_TOO_LARGE);
    h = kat_header;
    h.decks = 0;
    assert_int_equal(fd_round_commit(&h, kat_secret, 40, commitment), FD_ERR_EMPTY);
    h.decks = 9;
    assert_int_equal(fd_round_commit(&h, kat_secret, 400, commitment), FD_ERR_TOO_LARGE);
    h = kat_header;
    h.kind = FD_DECK_SPANISH40;
    h.jokers = 1;
    assert_int_equal(fd_round_commit(&h, kat_secret, 40, commitment), FD_ERR_TOO_LARGE);
    h = kat_header;
    h.beacon_slot = 1; /* not an accepted slot */
    assert_int_equal(fd_round_commit(&h, kat_secret, 40, commitment), FD_ERR_PARSE);
    h.beacon_slot = FD_ROUND_NO_BEACON;
    h.beacon_index = 5; /* an index without a beacon */
    assert_int_equal(fd_round_commit(&h, kat_secret, 40, commitment), FD_ERR_PARSE);
    h = kat_header;
    h.decks = 8; /* 416 cards need 406 bytes of S */
    assert_int_equal(fd_round_commit(&h, kat_secret, 405, commitment), FD_ERR_TOO_FEW);
    for (unsigned i = 0; i < sizeof commitment; i++) {
        assert_int_equal(commitment[i], 0xAA);
    }

    fd_round_seeds seeds = kat_seeds;
    uint8_t big[FD_ROUND_SEED_MAX + 1u] = {0};
    assert_int_equal(fd_round_seed_set(&seeds, &kat_header, 0, big, 1), FD_ERR_STATE); /* filled: never replaced */
    assert_int_equal(fd_round_seed_set(&seeds, &kat_header, 1, big, 1), FD_ERR_STATE); /* not accepted */
    assert_int_equal(fd_round_seed_set(&seeds, &kat_header, 8, big, 1), FD_ERR_STATE);
    h = kat_header;
    h.slot_mask = 0x03;
    assert_int_equal(fd_round_seed_set(&seeds, &h, 1, big, 0), FD_ERR_EMPTY);
    assert_int_equal(fd_round_seed_set(&seeds, &h, 1, big, sizeof big), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_round_seed_set(&seeds, &h, 1, NULL, 1), FD_ERR_NULL);
    assert_memory_equal(&seeds, &kat_seeds, sizeof seeds);
    assert_int_equal(fd_round_seed_set(&seeds, &h, 1, big, FD_ROUND_SEED_MAX), FD_OK);

    /* a seed in a slot the commitment did not name, or an overlong one */
    uint8_t key[32];
    seeds = kat_seeds;
    seeds.len[3] = 1;
    assert_int_equal(fd_round_commit(&kat_header, kat_secret, 40, commitment), FD_OK);
    assert_int_equal(fd_round_key(&kat_header, &seeds, key), FD_ERR_STATE);
    seeds = kat_seeds;
    seeds.len[0] = FD_ROUND_SEED_MAX + 1u;
    assert_int_equal(fd_round_key(&kat_header, &seeds, key), FD_ERR_TOO_LARGE);

    /* a failed derivation leaves the shoe as it was */
    assert_int_equal(fd_shoe_init(&shoe_a, FD_DECK_SPANISH40, 2, 0), FD_OK);
    shoe_b = shoe_a;
    assert_int_equal(fd_round_deal_order(&kat_header, kat_secret, 39, &kat_seeds, &shoe_a, NULL), FD_ERR_TOO_FEW);
    assert_int_equal(fd_round_deal_order(&kat_header, kat_secret, 40, &seeds, &shoe_a, NULL), FD_ERR_TOO_LARGE);
    assert_memory_equal(&shoe_a, &shoe_b, sizeof shoe_a);

    uint16_t a[4] = {0, 1, 2, 3};
    assert_int_equal(fd_round_shuffle_u16(a, 0, key, kat_secret, 40), FD_ERR_EMPTY);
    assert_int_equal(fd_round_shuffle_u16(a, 4, key, kat_secret, 7), FD_ERR_TOO_FEW);
    assert_int_equal(fd_round_shuffle_u16(a, FD_SHUFFLE_MAX_N + 1u, key, kat_secret, 40), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_round_shuffle_u16(NULL, 4, key, kat_secret, 40), FD_ERR_NULL);
    assert_int_equal(a[0] + 10 * a[1] + 100 * a[2] + 1000 * a[3], 3210);
}

/* What a dishonest dealer would try after the commitment: each is caught. */
static void test_cheats_are_rejected(void **state)
{
    (void)state;
    uint8_t commitment[32];
    assert_int_equal(fd_round_deal_order(&kat_header, kat_secret, 40, &kat_seeds, &shoe_a, commitment), FD_OK);
    const fd_card *order = shoe_a.order;

    fd_round_seeds seeds = kat_seeds;
    seeds.seed[0][5] ^= 0x20; /* "playeR" */
    assert_int_equal(fd_round_verify(&kat_header, kat_secret, 40, &seeds, commitment, order, 52), FD_ERR_CORRUPT);
    seeds = kat_seeds;
    seeds.len[0] = 5; /* "playe": the length prefix binds */
    assert_int_equal(fd_round_verify(&kat_header, kat_secret, 40, &seeds, commitment, order, 52), FD_ERR_CORRUPT);
    assert_int_equal(fd_round_seeds_clear(&seeds), FD_OK); /* pretend no seed came: house-only */
    assert_true(fd_round_house_only(&seeds));
    assert_int_equal(fd_round_verify(&kat_header, kat_secret, 40, &seeds, commitment, order, 52), FD_ERR_CORRUPT);

    uint8_t secret[41];
    memcpy(secret, kat_secret, 41);
    secret[39] ^= 0x80;
    assert_int_equal(fd_round_verify(&kat_header, secret, 40, &kat_seeds, commitment, order, 52), FD_ERR_CORRUPT);
    secret[39] ^= 0x80; /* one more byte of S is another S */
    assert_int_equal(fd_round_verify(&kat_header, secret, 41, &kat_seeds, commitment, order, 52), FD_ERR_CORRUPT);

    fd_round_header h = kat_header;
    h.round_id = 2;
    assert_int_equal(fd_round_verify(&h, kat_secret, 40, &kat_seeds, commitment, order, 52), FD_ERR_CORRUPT);
    h = kat_header;
    h.jokers = 1; /* another shoe */
    assert_int_equal(fd_round_verify(&h, kat_secret, 41, &kat_seeds, commitment, order, 52), FD_ERR_CORRUPT);
    h = kat_header;
    h.device_id[0] = 'F';
    assert_int_equal(fd_round_verify(&h, kat_secret, 40, &kat_seeds, commitment, order, 52), FD_ERR_CORRUPT);
    h = kat_header;
    h.slot_mask = 0x03; /* more slots than were committed */
    assert_int_equal(fd_round_verify(&h, kat_secret, 40, &kat_seeds, commitment, order, 52), FD_ERR_CORRUPT);

    shoe_b = shoe_a;
    const fd_card t = shoe_b.order[0];
    shoe_b.order[0] = shoe_b.order[51];
    shoe_b.order[51] = t;
    assert_int_equal(fd_round_verify(&kat_header, kat_secret, 40, &kat_seeds, commitment, shoe_b.order, 52),
                     FD_ERR_CORRUPT);
    assert_int_equal(fd_round_verify(&kat_header, kat_secret, 40, &kat_seeds, commitment, order, 51), FD_ERR_CORRUPT);
    commitment[0] ^= 1u;
    assert_int_equal(fd_round_verify(&kat_header, kat_secret, 40, &kat_seeds, commitment, order, 52), FD_ERR_CORRUPT);
}

/* Each card id of the shoe exactly as often in both orders. */
static bool same_cards(const fd_card *a, const fd_card *b, size_t n)
{
    int balance[FD_SHOE_MAX_DECKS << FD_CARD_COPY_SHIFT] = {0};
    for (size_t i = 0; i < n; i++) {
        balance[a[i]]++;
        balance[b[i]]--;
    }
    for (size_t i = 0; i < sizeof balance / sizeof balance[0]; i++) {
        if (balance[i] != 0) {
            return false;
        }
    }
    return true;
}

/* Every shoe size gives a permutation of its canonical order, and the
 * beacon's slot and index are bound by the commitment. */
static void test_every_shoe_and_beacon(void **state)
{
    (void)state;
    fd_round_header h = kat_header;
    h.slot_mask = 0x81;
    h.beacon_slot = 7;
    h.beacon_index = 123456789;
    const fd_deck_kind kinds[] = {FD_DECK_FRENCH, FD_DECK_SPANISH40, FD_DECK_SPANISH48};
    for (unsigned k = 0; k < 3u; k++) {
        for (uint8_t decks = 1; decks <= FD_SHOE_MAX_DECKS; decks++) {
            h.kind = kinds[k];
            h.decks = decks;
            h.jokers = kinds[k] == FD_DECK_FRENCH ? 2u : 0u;
            assert_int_equal(fd_shoe_init(&shoe_b, h.kind, decks, h.jokers), FD_OK);
            const size_t len = fd_round_secret_min(shoe_b.count);
            uint8_t c1[32], c2[32];
            assert_int_equal(fd_round_deal_order(&h, kat_secret, len, &kat_seeds, &shoe_a, c1), FD_OK);
            assert_int_equal(shoe_a.count, shoe_b.count);
            assert_true(same_cards(shoe_a.order, shoe_b.order, shoe_a.count));
            assert_memory_not_equal(shoe_a.order, shoe_b.order, shoe_a.count * sizeof(fd_card));
            fd_round_header other = h;
            other.beacon_index++;
            assert_int_equal(fd_round_commit(&other, kat_secret, len, c2), FD_OK);
            assert_memory_not_equal(c1, c2, 32);
        }
    }
}

/* Commitment and key both change with every header field a verifier reads,
 * down to the high bits of the round id and the beacon index, and a seed is
 * bound to its slot. */
static void assert_header_bound(const fd_round_header *a, const fd_round_header *b)
{
    uint8_t c1[32], c2[32], k1[FD_ROUND_KEY_SIZE], k2[FD_ROUND_KEY_SIZE];
    assert_int_equal(fd_round_commit(a, kat_secret, 60, c1), FD_OK);
    assert_int_equal(fd_round_commit(b, kat_secret, 60, c2), FD_OK);
    assert_memory_not_equal(c1, c2, sizeof c1);
    assert_int_equal(fd_round_key(a, &kat_seeds, k1), FD_OK);
    assert_int_equal(fd_round_key(b, &kat_seeds, k2), FD_OK);
    assert_memory_not_equal(k1, k2, sizeof k1);
}

static void test_every_header_field_is_bound(void **state)
{
    (void)state;
    fd_round_header a = kat_header;
    a.slot_mask = 0x03;
    a.beacon_slot = 1;
    a.beacon_index = 5;
    fd_round_header b = a;
    b.jokers = 1;
    assert_header_bound(&a, &b);
    b = a;
    b.round_id = a.round_id + 0x10000u;
    assert_header_bound(&a, &b);
    b = a;
    b.beacon_index = a.beacon_index + 0x100000000ull;
    assert_header_bound(&a, &b);
    /* the same seed in slot 0 or in slot 1 */
    fd_round_seeds in_slot1;
    assert_int_equal(fd_round_seeds_clear(&in_slot1), FD_OK);
    assert_int_equal(fd_round_seed_set(&in_slot1, &a, 1, (const uint8_t *)"player", 6), FD_OK);
    uint8_t k0[FD_ROUND_KEY_SIZE], k1[FD_ROUND_KEY_SIZE];
    assert_int_equal(fd_round_key(&a, &kat_seeds, k0), FD_OK);
    assert_int_equal(fd_round_key(&a, &in_slot1, k1), FD_OK);
    assert_memory_not_equal(k0, k1, sizeof k0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_answer),
        cmocka_unit_test(test_selftest_catches_wrong_mapping),
        cmocka_unit_test(test_mapping_is_pinned),
        cmocka_unit_test(test_secret_sizes_keep_every_order_reachable),
        cmocka_unit_test(test_bad_input_changes_nothing),
        cmocka_unit_test(test_cheats_are_rejected),
        cmocka_unit_test(test_every_shoe_and_beacon),
        cmocka_unit_test(test_every_header_field_is_bound),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
