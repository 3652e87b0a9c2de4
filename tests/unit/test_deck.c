/* Decks and shoes: sizes, every card code both ways, factory order, shuffles
 * that are permutations of the shoe, dealing to exhaustion, the cut card, and
 * every error path leaving the shoe untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/deck.h"
#include "test_rng.h"

static fd_shoe shoe_a; /* large: keep off the small target stacks */
static fd_shoe shoe_b;

static void test_deck_sizes(void **state)
{
    (void)state;
    uint16_t n = 0;
    assert_int_equal(fd_deck_size(FD_DECK_FRENCH, 0, &n), FD_OK);
    assert_int_equal(n, 52);
    assert_int_equal(fd_deck_size(FD_DECK_FRENCH, 2, &n), FD_OK);
    assert_int_equal(n, 54);
    assert_int_equal(fd_deck_size(FD_DECK_SPANISH40, 0, &n), FD_OK);
    assert_int_equal(n, 40);
    assert_int_equal(fd_deck_size(FD_DECK_SPANISH48, 0, &n), FD_OK);
    assert_int_equal(n, 48);
    n = 7;
    assert_int_equal(fd_deck_size(FD_DECK_FRENCH, 3, &n), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_deck_size(FD_DECK_SPANISH40, 1, &n), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_deck_size((fd_deck_kind)9, 0, &n), FD_ERR_PARSE);
    assert_int_equal(n, 7);
    assert_int_equal(fd_deck_size(FD_DECK_FRENCH, 0, NULL), FD_ERR_NULL);
}

static void test_kind_names(void **state)
{
    (void)state;
    fd_deck_kind k = FD_DECK_FRENCH;
    assert_int_equal(fd_deck_parse_kind("spanish40", 9, &k), FD_OK);
    assert_int_equal(k, FD_DECK_SPANISH40);
    assert_int_equal(fd_deck_parse_kind("spanish48", 9, &k), FD_OK);
    assert_int_equal(k, FD_DECK_SPANISH48);
    assert_int_equal(fd_deck_parse_kind("french", 6, &k), FD_OK);
    assert_int_equal(k, FD_DECK_FRENCH);
    assert_int_equal(fd_deck_parse_kind("spanish", 7, &k), FD_ERR_PARSE);
    assert_int_equal(fd_deck_parse_kind("french", 5, &k), FD_ERR_PARSE);
    assert_int_equal(fd_deck_parse_kind("FRENCH", 6, &k), FD_ERR_PARSE);
    assert_int_equal(k, FD_DECK_FRENCH);
    assert_int_equal(fd_deck_parse_kind(NULL, 0, &k), FD_ERR_NULL);
    assert_string_equal(fd_deck_kind_name(FD_DECK_SPANISH48), "spanish48");
    assert_string_equal(fd_deck_kind_name((fd_deck_kind)0), "?");
}

static void test_french_codes(void **state)
{
    (void)state;
    char code[FD_CARD_CODE_SIZE];
    assert_int_equal(fd_card_format(0, FD_DECK_FRENCH, code), FD_OK);
    assert_string_equal(code, "AS");
    assert_int_equal(fd_card_format(13u * 2u + 9u, FD_DECK_FRENCH, code), FD_OK);
    assert_string_equal(code, "TD");
    assert_int_equal(fd_card_format(51, FD_DECK_FRENCH, code), FD_OK);
    assert_string_equal(code, "KC");
    assert_int_equal(fd_card_format(53, FD_DECK_FRENCH, code), FD_OK);
    assert_string_equal(code, "JK");
    /* the copy bits name the deck of a shoe, not the card */
    assert_int_equal(fd_card_format((fd_card)((7u << FD_CARD_COPY_SHIFT) | 14u), FD_DECK_FRENCH, code), FD_OK);
    assert_string_equal(code, "2H");
    assert_int_equal(fd_card_format(54, FD_DECK_FRENCH, code), FD_ERR_PARSE);
    /* found by fuzz_cards: a copy number no shoe can hold */
    assert_int_equal(fd_card_format((fd_card)(8u << FD_CARD_COPY_SHIFT), FD_DECK_FRENCH, code), FD_ERR_PARSE);
    assert_int_equal(fd_card_format(0, FD_DECK_FRENCH, NULL), FD_ERR_NULL);
    for (fd_card face = 0; face < 52u; face++) {
        fd_card back = 999;
        assert_int_equal(fd_card_format(face, FD_DECK_FRENCH, code), FD_OK);
        assert_int_equal(strlen(code), 2);
        assert_int_equal(fd_card_parse(code, 2, FD_DECK_FRENCH, &back), FD_OK);
        assert_int_equal(back, face);
    }
    fd_card c = 999;
    assert_int_equal(fd_card_parse("JK", 2, FD_DECK_FRENCH, &c), FD_OK);
    assert_int_equal(c, 52);
    static const char *const bad[] = {"", "A", "1S", "AX", "as", "ASS", "10S", "KJ", "A\0"};
    c = 999;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const size_t len = i == 8u ? 2u : strlen(bad[i]);
        assert_int_equal(fd_card_parse(bad[i], len, FD_DECK_FRENCH, &c), FD_ERR_PARSE);
    }
    assert_int_equal(c, 999);
    assert_int_equal(fd_card_parse(NULL, 2, FD_DECK_FRENCH, &c), FD_ERR_NULL);
    assert_int_equal(fd_card_parse("AS", 2, FD_DECK_FRENCH, NULL), FD_ERR_NULL);
}

static void test_spanish_codes(void **state)
{
    (void)state;
    char code[FD_CARD_CODE_SIZE];
    assert_int_equal(fd_card_format(0, FD_DECK_SPANISH48, code), FD_OK);
    assert_string_equal(code, "1O");
    assert_int_equal(fd_card_format(11, FD_DECK_SPANISH40, code), FD_OK);
    assert_string_equal(code, "12O");
    assert_int_equal(fd_card_format(3u * 12u + 9u, FD_DECK_SPANISH40, code), FD_OK);
    assert_string_equal(code, "10B");
    /* the 40-card deck has no 8 or 9 */
    assert_int_equal(fd_card_format(7, FD_DECK_SPANISH40, code), FD_ERR_PARSE);
    assert_int_equal(fd_card_format(7, FD_DECK_SPANISH48, code), FD_OK);
    assert_string_equal(code, "8O");
    assert_int_equal(fd_card_format(48, FD_DECK_SPANISH48, code), FD_ERR_PARSE);
    for (int k = FD_DECK_SPANISH40; k <= FD_DECK_SPANISH48; k++) {
        unsigned valid = 0;
        for (fd_card face = 0; face < 48u; face++) {
            if (fd_card_format(face, (fd_deck_kind)k, code) != FD_OK) {
                continue;
            }
            valid++;
            fd_card back = 999;
            assert_int_equal(fd_card_parse(code, strlen(code), (fd_deck_kind)k, &back), FD_OK);
            assert_int_equal(back, face);
        }
        assert_int_equal(valid, k == FD_DECK_SPANISH40 ? 40 : 48);
    }
    static const char *const bad[] = {"", "O", "0O", "13O", "01O", "1X", "8E", "123O", "1o", "AS"};
    fd_card c = 999;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(fd_card_parse(bad[i], strlen(bad[i]), FD_DECK_SPANISH40, &c), FD_ERR_PARSE);
    }
    assert_int_equal(c, 999);
    assert_int_equal(fd_card_parse("8E", 2, FD_DECK_SPANISH48, &c), FD_OK);
    assert_int_equal(c, 2u * 12u + 7u);
}

static void test_factory_order(void **state)
{
    (void)state;
    char code[FD_CARD_CODE_SIZE];
    assert_int_equal(fd_shoe_init(&shoe_a, FD_DECK_FRENCH, 2, 2), FD_OK);
    assert_int_equal(shoe_a.count, 108);
    assert_false(shoe_a.shuffled);
    assert_int_equal(fd_card_format(shoe_a.order[0], shoe_a.kind, code), FD_OK);
    assert_string_equal(code, "AS");
    assert_int_equal(fd_card_format(shoe_a.order[53], shoe_a.kind, code), FD_OK);
    assert_string_equal(code, "JK");
    assert_int_equal(shoe_a.order[54], 1u << FD_CARD_COPY_SHIFT); /* AS of the second deck */
    assert_int_equal(fd_shoe_init(&shoe_a, FD_DECK_SPANISH40, 8, 0), FD_OK);
    assert_int_equal(shoe_a.count, 320);
    assert_int_equal(fd_card_format(shoe_a.order[7], shoe_a.kind, code), FD_OK);
    assert_string_equal(code, "10O");
    /* every card distinct */
    for (uint16_t i = 0; i < shoe_a.count; i++) {
        for (uint16_t j = (uint16_t)(i + 1u); j < shoe_a.count; j++) {
            assert_int_not_equal(shoe_a.order[i], shoe_a.order[j]);
        }
    }
}

static void test_shoe_init_errors_change_nothing(void **state)
{
    (void)state;
    assert_int_equal(fd_shoe_init(&shoe_a, FD_DECK_SPANISH48, 3, 0), FD_OK);
    memcpy(&shoe_b, &shoe_a, sizeof shoe_a);
    assert_int_equal(fd_shoe_init(&shoe_a, FD_DECK_FRENCH, 0, 0), FD_ERR_EMPTY);
    assert_int_equal(fd_shoe_init(&shoe_a, FD_DECK_FRENCH, 9, 0), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_shoe_init(&shoe_a, FD_DECK_FRENCH, 1, 3), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_shoe_init(&shoe_a, FD_DECK_SPANISH40, 1, 1), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_shoe_init(&shoe_a, (fd_deck_kind)0, 1, 0), FD_ERR_PARSE);
    assert_int_equal(fd_shoe_init(NULL, FD_DECK_FRENCH, 1, 0), FD_ERR_NULL);
    assert_memory_equal(&shoe_a, &shoe_b, sizeof shoe_a);
}

/* The multiset of cards is the factory shoe's, whatever the order. */
static void assert_same_cards(const fd_shoe *a, const fd_shoe *b)
{
    assert_int_equal(a->count, b->count);
    for (uint16_t i = 0; i < a->count; i++) {
        unsigned found = 0;
        for (uint16_t j = 0; j < b->count; j++) {
            found += a->order[i] == b->order[j] ? 1u : 0u;
        }
        assert_int_equal(found, 1);
    }
}

static void test_shuffle_deal_exhaust(void **state)
{
    (void)state;
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 42);
    assert_int_equal(fd_shoe_init(&shoe_b, FD_DECK_FRENCH, 6, 0), FD_OK);
    assert_int_equal(fd_shoe_init(&shoe_a, FD_DECK_FRENCH, 6, 0), FD_OK);
    fd_card c = 0;
    assert_int_equal(fd_shoe_deal(&shoe_a, &c), FD_ERR_STATE); /* not shuffled */
    assert_int_equal(fd_shoe_shuffle(&shoe_a, &rng), FD_OK);
    assert_true(shoe_a.shuffled);
    assert_memory_not_equal(shoe_a.order, shoe_b.order, 312u * sizeof(fd_card));
    assert_same_cards(&shoe_a, &shoe_b);
    assert_int_equal(fd_shoe_remaining(&shoe_a), 312);
    for (uint16_t i = 0; i < 312u; i++) {
        assert_int_equal(fd_shoe_deal(&shoe_a, &c), FD_OK);
        assert_int_equal(c, shoe_a.order[i]);
    }
    assert_int_equal(fd_shoe_remaining(&shoe_a), 0);
    c = 7;
    assert_int_equal(fd_shoe_deal(&shoe_a, &c), FD_ERR_EXHAUSTED);
    assert_int_equal(c, 7);
    assert_int_equal(fd_shoe_deal(NULL, &c), FD_ERR_NULL);
    assert_int_equal(fd_shoe_deal(&shoe_a, NULL), FD_ERR_NULL);
    /* a reshuffle rewinds the deal position */
    assert_int_equal(fd_shoe_shuffle(&shoe_a, &rng), FD_OK);
    assert_int_equal(fd_shoe_remaining(&shoe_a), 312);
    assert_same_cards(&shoe_a, &shoe_b);
}

static void test_failed_shuffle_is_not_dealable(void **state)
{
    (void)state;
    test_prng p;
    const fd_rng good = test_prng_init(&p, 7);
    assert_int_equal(fd_shoe_init(&shoe_a, FD_DECK_FRENCH, 1, 0), FD_OK);
    assert_int_equal(fd_shoe_shuffle(&shoe_a, &good), FD_OK);
    fd_card c;
    assert_int_equal(fd_shoe_deal(&shoe_a, &c), FD_OK);
    memcpy(&shoe_b, &shoe_a, sizeof shoe_a);
    /* the source dies after a few words: in the middle of the shuffle */
    static const uint8_t few[40] = {1, 2, 3};
    test_script_rng s;
    const fd_rng dying = test_script_rng_init(&s, few, sizeof few);
    assert_int_equal(fd_shoe_shuffle(&shoe_a, &dying), FD_ERR_RNG);
    assert_false(shoe_a.shuffled);
    assert_memory_equal(shoe_a.order, shoe_b.order, sizeof shoe_a.order);
    assert_int_equal(fd_shoe_deal(&shoe_a, &c), FD_ERR_STATE);
    assert_int_equal(fd_shoe_shuffle(NULL, &good), FD_ERR_NULL);
    assert_int_equal(fd_shoe_shuffle(&shoe_a, NULL), FD_ERR_NULL);
}

static void test_cut_card(void **state)
{
    (void)state;
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 3);
    assert_int_equal(fd_shoe_init(&shoe_a, FD_DECK_SPANISH40, 1, 0), FD_OK);
    assert_int_equal(fd_shoe_set_cut(&shoe_a, 41), FD_ERR_TOO_LARGE);
    assert_int_equal(shoe_a.cut, 0);
    assert_int_equal(fd_shoe_set_cut(NULL, 1), FD_ERR_NULL);
    assert_int_equal(fd_shoe_set_cut(&shoe_a, 30), FD_OK);
    assert_int_equal(fd_shoe_shuffle(&shoe_a, &rng), FD_OK);
    fd_card c;
    for (int i = 0; i < 29; i++) {
        assert_int_equal(fd_shoe_deal(&shoe_a, &c), FD_OK);
        assert_false(fd_shoe_reshuffle_due(&shoe_a));
    }
    assert_int_equal(fd_shoe_deal(&shoe_a, &c), FD_OK);
    assert_true(fd_shoe_reshuffle_due(&shoe_a));
    assert_int_equal(fd_shoe_set_cut(&shoe_a, 0), FD_OK);
    assert_false(fd_shoe_reshuffle_due(&shoe_a));
}

static void test_invalidate_and_integrity_check(void **state)
{
    (void)state;
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 11);
    assert_int_equal(fd_shoe_init(&shoe_a, FD_DECK_SPANISH48, 2, 0), FD_OK);
    assert_int_equal(fd_shoe_check(&shoe_a), FD_OK);
    assert_int_equal(fd_shoe_shuffle(&shoe_a, &rng), FD_OK);
    assert_int_equal(fd_shoe_check(&shoe_a), FD_OK);
    fd_card c;
    assert_int_equal(fd_shoe_deal(&shoe_a, &c), FD_OK);
    memcpy(&shoe_b, &shoe_a, sizeof shoe_a);
    /* invalidate: not dealable, nothing else moves */
    assert_int_equal(fd_shoe_invalidate(&shoe_a), FD_OK);
    assert_false(shoe_a.shuffled);
    assert_int_equal(fd_shoe_deal(&shoe_a, &c), FD_ERR_STATE);
    assert_int_equal(shoe_a.position, shoe_b.position);
    assert_memory_equal(shoe_a.order, shoe_b.order, sizeof shoe_a.order);
    assert_int_equal(fd_shoe_invalidate(NULL), FD_ERR_NULL);
    assert_int_equal(fd_shoe_shuffle(&shoe_a, &rng), FD_OK); /* only a shuffle makes it dealable */
    assert_true(shoe_a.shuffled);

    /* each kind of damage is caught */
    memcpy(&shoe_b, &shoe_a, sizeof shoe_a);
    shoe_b.order[5] = shoe_b.order[6]; /* a card twice */
    assert_int_equal(fd_shoe_check(&shoe_b), FD_ERR_CORRUPT);
    memcpy(&shoe_b, &shoe_a, sizeof shoe_a);
    shoe_b.order[5] = (fd_card)(2u << FD_CARD_COPY_SHIFT); /* a third deck's card in a 2-deck shoe */
    assert_int_equal(fd_shoe_check(&shoe_b), FD_ERR_CORRUPT);
    memcpy(&shoe_b, &shoe_a, sizeof shoe_a);
    shoe_b.order[5] = 48u; /* not a Spanish face */
    assert_int_equal(fd_shoe_check(&shoe_b), FD_ERR_CORRUPT);
    memcpy(&shoe_b, &shoe_a, sizeof shoe_a);
    shoe_b.order[5] ^= 0x8000u; /* a high bit flipped */
    assert_int_equal(fd_shoe_check(&shoe_b), FD_ERR_CORRUPT);
    memcpy(&shoe_b, &shoe_a, sizeof shoe_a);
    shoe_b.position = (uint16_t)(shoe_b.count + 1u);
    assert_int_equal(fd_shoe_check(&shoe_b), FD_ERR_CORRUPT);
    memcpy(&shoe_b, &shoe_a, sizeof shoe_a);
    shoe_b.cut = 500;
    assert_int_equal(fd_shoe_check(&shoe_b), FD_ERR_CORRUPT);
    memcpy(&shoe_b, &shoe_a, sizeof shoe_a);
    shoe_b.decks = 9;
    assert_int_equal(fd_shoe_check(&shoe_b), FD_ERR_CORRUPT);
    memcpy(&shoe_b, &shoe_a, sizeof shoe_a);
    shoe_b.kind = (fd_deck_kind)7;
    assert_int_equal(fd_shoe_check(&shoe_b), FD_ERR_CORRUPT);
    memcpy(&shoe_b, &shoe_a, sizeof shoe_a);
    shoe_b.count = 4000;
    assert_int_equal(fd_shoe_check(&shoe_b), FD_ERR_CORRUPT);
    assert_int_equal(fd_shoe_check(NULL), FD_ERR_NULL);

    /* the order check on its own: jokers count, composition must be valid */
    assert_int_equal(fd_shoe_init(&shoe_b, FD_DECK_FRENCH, 8, 2), FD_OK);
    assert_int_equal(fd_shoe_order_check(FD_DECK_FRENCH, 8, 2, shoe_b.order, shoe_b.count), FD_OK);
    assert_int_equal(fd_shoe_order_check(FD_DECK_FRENCH, 8, 1, shoe_b.order, shoe_b.count), FD_ERR_CORRUPT);
    assert_int_equal(fd_shoe_order_check(FD_DECK_FRENCH, 8, 3, shoe_b.order, shoe_b.count), FD_ERR_PARSE);
    assert_int_equal(fd_shoe_order_check(FD_DECK_FRENCH, 0, 0, shoe_b.order, 0), FD_ERR_PARSE);
    assert_int_equal(fd_shoe_order_check(FD_DECK_FRENCH, 1, 0, NULL, 52), FD_ERR_NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deck_sizes),
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_french_codes),
        cmocka_unit_test(test_spanish_codes),
        cmocka_unit_test(test_factory_order),
        cmocka_unit_test(test_shoe_init_errors_change_nothing),
        cmocka_unit_test(test_shuffle_deal_exhaust),
        cmocka_unit_test(test_failed_shuffle_is_not_dealable),
        cmocka_unit_test(test_cut_card),
        cmocka_unit_test(test_invalidate_and_integrity_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
