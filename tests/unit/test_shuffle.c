/* Shuffles: hand-computed results for scripted draws, invariants for
 * random ones, and every error path leaving the input untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/bounded.h"
#include "fairdeal/drbg.h"
#include "fairdeal/shuffle.h"
#include "perm.h"
#include "shuffle_v7m.h"
#include "shuffle_x86.h"
#include "stack_probe.h"
#include "test_rng.h"
#include "word.h"

/* A script of draws: pairs (j, bound) turned into words and bytes. */
typedef struct script {
    uint8_t bytes[64];
    test_script_rng src;
    fd_rng rng;
} script;

static void script_draws(script *s, const uint32_t *draws, const uint32_t *bounds, size_t count)
{
    uint32_t words[16];
    const size_t n = test_words_for_batches(draws, bounds, count, words);
    test_words_to_bytes(words, n, s->bytes);
    s->rng = test_script_rng_init(&s->src, s->bytes, 4u * n);
}

/* shared/seeds/001: Durstenfeld on 4 elements with j = 0, 1, 1 drawn at
 * i = 3, 2, 1: swap(3,0), swap(2,1), swap(1,1) -> D C B A. */
static void test_durstenfeld_walkthrough_u8(void **state)
{
    (void)state;
    script s;
    const uint32_t j[] = {0, 1, 1}, b[] = {4, 3, 2};
    script_draws(&s, j, b, 3);
    uint8_t a[4] = {'A', 'B', 'C', 'D'};
    assert_int_equal(fd_shuffle_u8(a, 4, &s.rng), FD_OK);
    assert_memory_equal(a, "DCBA", 4);
    assert_int_equal(s.src.pos, 4); /* bounds 4*3*2 fit one batched word */
}

static void test_durstenfeld_walkthrough_u16_and_generic(void **state)
{
    (void)state;
    script s;
    const uint32_t j[] = {0, 1, 1}, b[] = {4, 3, 2};
    script_draws(&s, j, b, 3);
    uint16_t a[4] = {1000, 2000, 3000, 4000};
    assert_int_equal(fd_shuffle_u16(a, 4, &s.rng), FD_OK);
    const uint16_t want[4] = {4000, 3000, 2000, 1000};
    assert_memory_equal(a, want, sizeof want);

    script_draws(&s, j, b, 3);
    /* 20-byte elements: swapped in more than one 16-byte chunk */
    char g[4][20] = {"aaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbb", "ccccccccccccccccccc", "ddddddddddddddddddd"};
    assert_int_equal(fd_shuffle(g, 4, 20, &s.rng), FD_OK);
    assert_string_equal(g[0], "ddddddddddddddddddd");
    assert_string_equal(g[1], "ccccccccccccccccccc");
    assert_string_equal(g[2], "bbbbbbbbbbbbbbbbbbb");
    assert_string_equal(g[3], "aaaaaaaaaaaaaaaaaaa");
}

/* Sattolo with j = 0 at i = 3, 2, 1 (bounds 3, 2, 1): 0123 -> 3120 -> 2130
 * -> 1230, the cycle 0->1->2->3->0. */
static void test_sattolo_scripted(void **state)
{
    (void)state;
    script s;
    const uint32_t j[] = {0, 0, 0}, b[] = {3, 2, 1};
    script_draws(&s, j, b, 3);
    uint8_t a[4] = {0, 1, 2, 3};
    assert_int_equal(fd_sattolo_u8(a, 4, &s.rng), FD_OK);
    const uint8_t want[4] = {1, 2, 3, 0};
    assert_memory_equal(a, want, 4);
}

/* Partial, n = 5, k = 2: position 0 takes 0 + 3, position 1 takes 1 + 0. */
static void test_partial_scripted(void **state)
{
    (void)state;
    script s;
    const uint32_t j[] = {3, 0}, b[] = {5, 4};
    script_draws(&s, j, b, 2);
    uint8_t a[5] = {0, 1, 2, 3, 4};
    assert_int_equal(fd_shuffle_partial_u8(a, 5, 2, &s.rng), FD_OK);
    const uint8_t want[5] = {3, 1, 2, 0, 4};
    assert_memory_equal(a, want, 5);
    assert_int_equal(s.src.pos, 4); /* k draws, batched into one word */
}

/* Inside-out, n = 4: j = 1 at i = 1, 0 at i = 2, 2 at i = 3 (drawn with
 * bounds 4, 3, 2 for i = 3, 2, 1): dst 0 -> 01 -> 210 -> 2130. */
static void test_copy_scripted(void **state)
{
    (void)state;
    script s;
    const uint32_t j[] = {2, 0, 1}, b[] = {4, 3, 2};
    script_draws(&s, j, b, 3);
    const uint16_t src[4] = {0, 1, 2, 3};
    uint16_t dst[4] = {9, 9, 9, 9};
    assert_int_equal(fd_shuffle_copy_u16(dst, src, 4, &s.rng), FD_OK);
    const uint16_t want[4] = {2, 1, 3, 0};
    assert_memory_equal(dst, want, sizeof want);
    const uint16_t src_again[4] = {0, 1, 2, 3};
    assert_memory_equal(src, src_again, sizeof src);
}

/* Floyd, n = 10, k = 3: j = 7, 8, 9 with draws t = 5, 5, 2 -> {5}, {5, 8}
 * (5 taken, so j = 8), {2, 5, 8}. */
static void test_sample_scripted(void **state)
{
    (void)state;
    script s;
    /* Floyd draws index by index (not batched): one word per draw */
    const uint32_t words[3] = {test_word_for(5, 8), test_word_for(5, 9), test_word_for(2, 10)};
    test_words_to_bytes(words, 3, s.bytes);
    s.rng = test_script_rng_init(&s.src, s.bytes, sizeof words);
    uint32_t out[3];
    assert_int_equal(fd_sample_indices(out, 3, 10, &s.rng), FD_OK);
    assert_int_equal(out[0], 2);
    assert_int_equal(out[1], 5);
    assert_int_equal(out[2], 8);
}

static void check_is_permutation(const uint16_t *a, size_t n)
{
    static uint8_t seen[FD_SHUFFLE_MAX_N];
    memset(seen, 0, sizeof seen);
    for (size_t i = 0; i < n; i++) {
        assert_true(a[i] < n);
        assert_int_equal(seen[a[i]], 0);
        seen[a[i]] = 1;
    }
}

static void test_random_results_are_permutations(void **state)
{
    (void)state;
    test_prng p;
    fd_rng rng = test_prng_init(&p, 42);
    static uint16_t a[FD_SHUFFLE_MAX_N];
    static uint16_t copy[FD_SHUFFLE_MAX_N];
    const size_t sizes[] = {1, 2, 3, 52, 312, FD_SHUFFLE_MAX_N};
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        size_t n = sizes[t];
        for (size_t i = 0; i < n; i++) {
            a[i] = (uint16_t)i;
        }
        assert_int_equal(fd_shuffle_u16(a, n, &rng), FD_OK);
        check_is_permutation(a, n);
        assert_int_equal(fd_shuffle_partial_u16(a, n, (n + 1u) / 2u, &rng), FD_OK);
        check_is_permutation(a, n);
        assert_int_equal(fd_shuffle_copy_u16(copy, a, n, &rng), FD_OK);
        check_is_permutation(copy, n);
        if (n >= 2u) {
            assert_int_equal(fd_sattolo_u16(a, n, &rng), FD_OK);
            check_is_permutation(a, n);
        }
    }
}

static void test_sattolo_always_single_cycle(void **state)
{
    (void)state;
    test_prng p;
    fd_rng rng = test_prng_init(&p, 7);
    for (size_t n = 2; n <= 16; n++) {
        for (int rep = 0; rep < 50; rep++) {
            uint8_t a[16];
            for (size_t i = 0; i < n; i++) {
                a[i] = (uint8_t)i;
            }
            assert_int_equal(fd_sattolo_u8(a, n, &rng), FD_OK);
            assert_true(test_perm_is_single_cycle(a, n));
        }
    }
}

static void test_sample_is_sorted_subset(void **state)
{
    (void)state;
    test_prng p;
    fd_rng rng = test_prng_init(&p, 9);
    static uint32_t out[FD_SHUFFLE_MAX_N];
    const uint32_t ns[] = {1, 5, 52, 1000, 0xFFFFFFFFu};
    for (size_t t = 0; t < 5; t++) {
        size_t k = ns[t] < FD_SHUFFLE_MAX_N ? ns[t] : FD_SHUFFLE_MAX_N;
        assert_int_equal(fd_sample_indices(out, k, ns[t], &rng), FD_OK);
        for (size_t i = 0; i < k; i++) {
            assert_true(out[i] < ns[t]);
            if (i > 0u) {
                assert_true(out[i - 1u] < out[i]);
            }
        }
    }
}

static void test_argument_errors_change_nothing(void **state)
{
    (void)state;
    test_prng p;
    fd_rng rng = test_prng_init(&p, 1);
    fd_rng broken = {NULL, NULL, NULL};
    uint8_t a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const uint8_t orig[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    uint8_t dst[8] = {9, 9, 9, 9, 9, 9, 9, 9};
    static uint8_t big[FD_SHUFFLE_MAX_N + 1u];

    assert_int_equal(fd_shuffle_u8(NULL, 8, &rng), FD_ERR_NULL);
    assert_int_equal(fd_shuffle_u8(a, 8, NULL), FD_ERR_NULL);
    assert_int_equal(fd_shuffle_u8(a, 8, &broken), FD_ERR_NULL);
    assert_int_equal(fd_shuffle_u8(a, 0, &rng), FD_ERR_EMPTY);
    assert_int_equal(fd_shuffle_u8(big, FD_SHUFFLE_MAX_N + 1u, &rng), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_shuffle(a, 8, 0, &rng), FD_ERR_ELEM_SIZE);

    assert_int_equal(fd_sattolo_u8(a, 1, &rng), FD_ERR_TOO_FEW);
    assert_int_equal(fd_sattolo_u8(a, 0, &rng), FD_ERR_TOO_FEW);
    assert_int_equal(fd_sattolo_u8(NULL, 8, &rng), FD_ERR_NULL);
    assert_int_equal(fd_sattolo(a, 8, 0, &rng), FD_ERR_ELEM_SIZE);
    assert_int_equal(fd_sattolo_u8(big, FD_SHUFFLE_MAX_N + 1u, &rng), FD_ERR_TOO_LARGE);

    assert_int_equal(fd_shuffle_partial_u8(a, 8, 9, &rng), FD_ERR_K_GT_N);
    assert_int_equal(fd_shuffle_partial_u8(a, 8, 0, &rng), FD_ERR_EMPTY);
    assert_int_equal(fd_shuffle_partial_u8(NULL, 8, 2, &rng), FD_ERR_NULL);
    assert_int_equal(fd_shuffle_partial(a, 8, 2, 0, &rng), FD_ERR_ELEM_SIZE);

    assert_int_equal(fd_shuffle_copy_u8(NULL, a, 8, &rng), FD_ERR_NULL);
    assert_int_equal(fd_shuffle_copy_u8(dst, NULL, 8, &rng), FD_ERR_NULL);
    assert_int_equal(fd_shuffle_copy_u8(dst, a, 0, &rng), FD_ERR_EMPTY);
    assert_int_equal(fd_shuffle_copy_u8(a + 2, a, 4, &rng), FD_ERR_OVERLAP);
    assert_int_equal(fd_shuffle_copy_u8(a, a + 3, 4, &rng), FD_ERR_OVERLAP);
    assert_int_equal(fd_shuffle_copy(dst, a, 8, 0, &rng), FD_ERR_ELEM_SIZE);

    uint32_t out[4] = {7, 7, 7, 7};
    assert_int_equal(fd_sample_indices(NULL, 2, 8, &rng), FD_ERR_NULL);
    assert_int_equal(fd_sample_indices(out, 0, 8, &rng), FD_ERR_EMPTY);
    assert_int_equal(fd_sample_indices(out, 2, 0, &rng), FD_ERR_EMPTY);
    assert_int_equal(fd_sample_indices(out, 5, 4, &rng), FD_ERR_K_GT_N);
    assert_int_equal(fd_sample_indices(out, FD_SHUFFLE_MAX_N + 1u, 0xFFFFFFFFu, &rng), FD_ERR_TOO_LARGE);
    assert_int_equal(out[0], 7);

    assert_memory_equal(a, orig, 8);
    const uint8_t nines[8] = {9, 9, 9, 9, 9, 9, 9, 9};
    assert_memory_equal(dst, nines, 8);
    assert_int_equal(p.state, 1); /* not one random byte was consumed */
}

/* The source fails part-way: the shuffles fetch batched words 16 groups per
 * call, so 300 elements need several calls and the second one fails after
 * the first 16 groups were drawn; Floyd draws per index and fails on its
 * third. Nothing drawn is applied. */
static uint8_t big[300];
static uint8_t big_orig[300];
static uint8_t big_dst[300];

static void test_source_failure_changes_nothing(void **state)
{
    (void)state;
    /* the first call takes at most 16 group words; the second fails */
    static uint8_t bytes[4u * 16u];
    memset(bytes, 0x5A, sizeof bytes);
    test_script_rng s;
    fd_rng rng;
    for (size_t i = 0; i < sizeof big; i++) {
        big[i] = big_orig[i] = (uint8_t)i;
        big_dst[i] = 9;
    }
    rng = test_script_rng_init(&s, bytes, sizeof bytes);
    s.fail_on_call = 2;
    assert_int_equal(fd_shuffle_u8(big, sizeof big, &rng), FD_ERR_RNG);
    assert_int_equal(s.calls, 2);
    assert_memory_equal(big, big_orig, sizeof big);
    rng = test_script_rng_init(&s, bytes, sizeof bytes);
    s.fail_on_call = 2;
    assert_int_equal(fd_sattolo_u8(big, sizeof big, &rng), FD_ERR_RNG);
    assert_memory_equal(big, big_orig, sizeof big);
    rng = test_script_rng_init(&s, bytes, sizeof bytes);
    s.fail_on_call = 2;
    assert_int_equal(fd_shuffle_partial_u8(big, sizeof big, 250, &rng), FD_ERR_RNG);
    assert_memory_equal(big, big_orig, sizeof big);
    rng = test_script_rng_init(&s, bytes, sizeof bytes);
    s.fail_on_call = 2;
    assert_int_equal(fd_shuffle_copy_u8(big_dst, big, sizeof big, &rng), FD_ERR_RNG);
    for (size_t i = 0; i < sizeof big; i++) {
        assert_int_equal(big_dst[i], 9);
    }
    rng = test_script_rng_init(&s, bytes, sizeof bytes);
    s.fail_on_call = 3;
    uint32_t out[4] = {7, 7, 7, 7};
    assert_int_equal(fd_sample_indices(out, 4, 100, &rng), FD_ERR_RNG);
    const uint32_t zeros[4] = {0, 0, 0, 0};
    assert_memory_equal(out, zeros, sizeof zeros);
    /* a failure on the first call of a small shuffle, too */
    uint8_t a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const uint8_t orig[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    rng = test_script_rng_init(&s, bytes, sizeof bytes);
    s.fail_on_call = 1;
    assert_int_equal(fd_shuffle_u8(a, 8, &rng), FD_ERR_RNG);
    assert_memory_equal(a, orig, 8);
}

static uint16_t order16[312];
static uint16_t generic16[312];

/* A test_prng that fails on call number fail_on_call (1-based; 0 =
 * never), counting calls; with `watched` set (n elements of order16, or of
 * big when bytes), it also counts the calls made after an element had
 * moved (the array starts as 0, 1, ..., n-1). */
typedef struct failing_prng {
    test_prng prng;
    fd_rng inner;
    size_t calls;
    size_t fail_on_call;
    size_t watched;
    int bytes;
    size_t calls_after_a_move;
} failing_prng;

static bool array_moved(const failing_prng *f)
{
    for (size_t i = 0; i < f->watched; i++) {
        if ((f->bytes ? big[i] : order16[i]) != (uint16_t)i) {
            return true;
        }
    }
    return false;
}

static fd_status failing_prng_fill(void *ctx, uint8_t *buf, size_t len)
{
    failing_prng *f = ctx;
    f->calls++;
    f->calls_after_a_move += array_moved(f) ? 1u : 0u;
    return f->calls == f->fail_on_call ? FD_ERR_RNG : f->inner.fill(f->inner.ctx, buf, len);
}

static fd_rng failing_prng_init(failing_prng *f, uint64_t seed, size_t fail_on_call)
{
    f->inner = test_prng_init(&f->prng, seed);
    f->calls = 0;
    f->fail_on_call = fail_on_call;
    f->watched = 0;
    f->bytes = 0;
    f->calls_after_a_move = 0;
    return (fd_rng){failing_prng_fill, f, NULL};
}

/* The forms of the typed descending shuffles: the public functions (the
 * form this CPU uses) and, on x86-64, each form forced. */
enum {
    FORM_PUBLIC,
    FORM_TWO_PHASES,
    FORM_AS_DRAWN
};
#if FD_SWAP_AS_DRAWN
#define TYPED_FORMS 3
#else
#define TYPED_FORMS 1
#endif

/* A typed descending shuffle (u16 when wide, else u8) in the given form. */
static fd_status typed_shuffle(int form, bool sattolo, int wide, void *a, size_t n, const fd_rng *rng)
{
#if FD_SWAP_AS_DRAWN
    if (form != FORM_PUBLIC) {
        const bool as_drawn = form == FORM_AS_DRAWN;
        return wide ? fd_descending_u16_form(a, n, rng, sattolo, as_drawn)
                    : fd_descending_u8_form(a, n, rng, sattolo, as_drawn);
    }
#else
    (void)form;
#endif
    if (wide) {
        return sattolo ? fd_sattolo_u16(a, n, rng) : fd_shuffle_u16(a, n, rng);
    }
    return sattolo ? fd_sattolo_u8(a, n, rng) : fd_shuffle_u8(a, n, rng);
}

/* One typed descending shuffle of n elements (u8 when wide == 0) in the
 * given form from seed, failing on call fail_on (0: never) into order16 as
 * 16-bit values; returns its status, the source's calls and how many of
 * them came after an element had moved. */
static fd_status typed_descending(int form, bool sattolo, int wide, size_t n, uint64_t seed, size_t fail_on,
                                  size_t *calls, size_t *calls_after_a_move)
{
    failing_prng f;
    const fd_rng rng = failing_prng_init(&f, seed, fail_on);
    f.watched = n;
    f.bytes = !wide;
    fd_status st;
    if (wide) {
        for (size_t i = 0; i < n; i++) {
            order16[i] = (uint16_t)i;
        }
        st = typed_shuffle(form, sattolo, 1, order16, n, &rng);
    } else {
        for (size_t i = 0; i < n; i++) {
            big[i] = (uint8_t)i;
        }
        st = typed_shuffle(form, sattolo, 0, big, n, &rng);
        for (size_t i = 0; i < n; i++) {
            order16[i] = big[i];
        }
    }
    *calls = f.calls;
    *calls_after_a_move = f.calls_after_a_move;
    return st;
}

/* The typed descending shuffles in each form (on x86-64 swapping as drawn,
 * which undoes its swaps when a later fill or redraw fails, and in two
 * phases, each forced, besides the form this CPU uses) against the generic
 * ones (all draws first, then the swaps, on every platform): the same
 * order from the same source; and a source failing on any one of the calls
 * a typed shuffle makes leaves the array as it was; and the source sees
 * the array move before its last call only when swapping as drawn. Sizes:
 * one group (8), the general path (13; 14, the first swapped as drawn; 53;
 * 200: several fills), the 52-card deck's fixed plan, a 312-card shoe. */
static void test_typed_shuffles_match_generic_and_undo_on_failure(void **state)
{
    (void)state;
    static const size_t sizes[] = {8, 13, 14, 52, 53, 200, 312};
    unsigned failures_checked = 0;
    for (int form = 0; form < TYPED_FORMS; form++) {
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            const size_t n = sizes[z];
            for (int wide = 0; wide < 2; wide++) {
                if (!wide && n > 256u) {
                    continue;
                }
                for (unsigned run = 0; run < 8u; run++) { /* half of the 52-card decks have a redraw */
                    const int sattolo = (int)(run % 2u);
                    const uint64_t seed = 1000u + 100u * n + 10u * (uint64_t)wide + run;
                    size_t calls = 0;
                    size_t after_a_move = 0;
                    assert_int_equal(typed_descending(form, sattolo, wide, n, seed, 0, &calls, &after_a_move), FD_OK);
                    /* the form is the one asked for: two phases move nothing
                     * before the last call; swapping as drawn moves elements
                     * before the second fill of a long shuffle */
                    if (form == FORM_TWO_PHASES) {
                        assert_int_equal(after_a_move, 0);
                    } else if (form == FORM_AS_DRAWN && n >= 200u) {
                        assert_true(after_a_move >= 1u);
                    }
                    failing_prng f;
                    const fd_rng rng = failing_prng_init(&f, seed, 0);
                    for (size_t i = 0; i < n; i++) {
                        generic16[i] = (uint16_t)i;
                    }
                    assert_int_equal(sattolo ? fd_sattolo(generic16, n, sizeof generic16[0], &rng)
                                             : fd_shuffle(generic16, n, sizeof generic16[0], &rng),
                                     FD_OK);
                    assert_int_equal(f.calls, calls);
                    assert_memory_equal(order16, generic16, n * sizeof order16[0]);
                    for (size_t k = 1; k <= calls; k++) {
                        size_t made = 0;
                        assert_int_equal(typed_descending(form, sattolo, wide, n, seed, k, &made, &after_a_move),
                                         FD_ERR_RNG);
                        assert_int_equal(made, k);
                        for (size_t i = 0; i < n; i++) {
                            assert_int_equal(order16[i], i);
                        }
                        failures_checked++;
                    }
                }
            }
        }
    }
    /* 335 per form with these seeds: a 312-card shoe makes over ten calls */
    assert_true(failures_checked >= 300u * TYPED_FORMS);
}

/* A 52-card deck (on x86-64 drawn by a straight-line decoder of its fixed
 * plan, decode_fill_52), a 12-card one (one group: draw_one_group) and a
 * 13-card one (the general path): each group's word aimed at its acceptance
 * threshold (accepted) and at the reachable low part just below it
 * (rejected, redrawn from the next word), one group at a time, every other
 * word accepted. The draws must be the greedy batches' (fd_batch_map) and
 * the source called once, or twice for the redraw; a failed redraw leaves
 * the deck as it was. */
static void check_groups_at_thresholds(uint32_t n, size_t want_groups)
{
    uint32_t first[16];
    uint32_t len[16];
    size_t groups = 0;
    for (uint32_t b = n, left = n - 1u; left > 0u; groups++) { /* the greedy groups */
        uint64_t product = 1;
        uint32_t l = 0;
        while (l < left && product * (b - l) <= UINT32_MAX) {
            product *= b - l;
            l++;
        }
        first[groups] = b;
        len[groups] = l;
        b -= l;
        left -= l;
    }
    assert_int_equal(groups, want_groups);
    unsigned rejected_cases = 0;
    for (size_t g = 0; g < groups; g++) {
        uint32_t product = 1;
        for (uint32_t k = 0; k < len[g]; k++) {
            product *= first[g] - k;
        }
        const uint32_t threshold = (uint32_t)((UINT64_C(1) << 32) % product);
        const uint32_t step = 1u << __builtin_ctz(product); /* final low parts are multiples of it */
        for (int below = 0; below < 2; below++) {
            if (below && threshold < step) {
                continue;
            }
            uint32_t words[9];
            for (size_t i = 0; i < 9u; i++) {
                words[i] = 0xFFFFFFFFu; /* final low part 2^32 - product: accepted by every group */
            }
            words[g] = test_word_for_low(product, threshold - (below ? step : 0u));
            uint8_t bytes[36];
            test_words_to_bytes(words, 9, bytes);
            uint8_t want[52];
            uint8_t got[52];
            for (uint8_t i = 0; i < n; i++) {
                want[i] = got[i] = i;
            }
            uint16_t draws[51];
            for (size_t h = 0, at = 0; h < groups; at += len[h], h++) {
                const bool accepted = fd_batch_map(words[h], first[h], len[h], 32, draws + at);
                assert_true(accepted == (h != g || !below));
                if (!accepted) {
                    assert_true(fd_batch_map(words[groups], first[h], len[h], 32, draws + at)); /* the next word */
                }
            }
            for (size_t t = 0; t + 1u < n; t++) {
                const uint8_t x = want[n - 1u - t];
                want[n - 1u - t] = want[draws[t]];
                want[draws[t]] = x;
            }
            test_script_rng s;
            fd_rng rng = test_script_rng_init(&s, bytes, sizeof bytes);
            assert_int_equal(fd_shuffle_u8(got, n, &rng), FD_OK);
            assert_memory_equal(got, want, n);
            assert_int_equal(s.calls, below ? 2u : 1u);
            if (below) {
                rejected_cases++;
                uint8_t kept[52];
                memcpy(kept, got, n);
                rng = test_script_rng_init(&s, bytes, sizeof bytes);
                s.fail_on_call = 2; /* the redraw fails */
                assert_int_equal(fd_shuffle_u8(got, n, &rng), FD_ERR_RNG);
                assert_memory_equal(got, kept, n);
            }
        }
    }
    assert_true(rejected_cases >= (want_groups + 1u) / 2u);
}

static void test_deck_of_52_at_each_group_threshold(void **state)
{
    (void)state;
    check_groups_at_thresholds(52, 8); /* x86-64: decode_fill_52 */
    check_groups_at_thresholds(12, 1); /* draw_one_group */
    check_groups_at_thresholds(13, 2);
}

/* The generic partial shuffle (any element size) deals what the typed one
 * deals from the same bytes: same draws, same partners (i + draw). */
static void test_partial_generic_matches_typed(void **state)
{
    (void)state;
    static const size_t ks[] = {1, 7, 25, 51, 52};
    for (size_t c = 0; c < sizeof ks / sizeof ks[0]; c++) {
        test_prng p;
        test_prng q;
        fd_rng typed = test_prng_init(&p, 40u + c);
        fd_rng generic = test_prng_init(&q, 40u + c);
        uint8_t a[52];
        uint8_t b[52];
        for (uint8_t i = 0; i < 52u; i++) {
            a[i] = b[i] = i;
        }
        assert_int_equal(fd_shuffle_partial_u8(a, 52, ks[c], &typed), FD_OK);
        assert_int_equal(fd_shuffle_partial(b, 52, ks[c], 1, &generic), FD_OK);
        assert_memory_equal(a, b, 52);
        uint8_t seen[52] = {0};
        for (size_t i = 0; i < 52u; i++) {
            seen[a[i]]++;
        }
        for (size_t i = 0; i < 52u; i++) {
            assert_int_equal(seen[i], 1);
        }
    }
}

/* Every n: scripted draws encoded by the greedy rule as the tests state it
 * (test_words_for_batches, independent of the library) must come back as
 * the same swaps, one word per group: a grouping that differed anywhere
 * would decode other digits. */
#if defined(FD_TARGET_CORTEX_M)
#define GREEDY_MAX_N 64u /* 10 KiB of scripts at 512 would not fit a 16 KiB part; the host runs all */
#else
#define GREEDY_MAX_N FD_SHUFFLE_MAX_N
#endif
#if defined(__x86_64__) /* the inline path exists there only (shuffle.c's fill_bytes) */
/* The DRBG's fill, called as an opaque callback: the shuffles cannot tell
 * it is the DRBG and never serve its requests inline. */
static fd_status drbg_via_callback(void *ctx, uint8_t *buf, size_t len) { return fd_drbg_generate(ctx, buf, len); }

static void assert_same_drbg_state(const fd_drbg *a, const fd_drbg *b)
{
    assert_int_equal(a->instantiated, b->instantiated);
    assert_int_equal(a->reseeds, b->reseeds);
    assert_int_equal(a->bytes_since_reseed, b->bytes_since_reseed);
    if (a->cfg.kind == FD_DRBG_CHACHA20) {
        assert_int_equal(a->u.chacha.reseed_counter, b->u.chacha.reseed_counter);
        assert_int_equal(a->u.chacha.pos, b->u.chacha.pos);
        assert_memory_equal(a->u.chacha.key, b->u.chacha.key, sizeof a->u.chacha.key);
        assert_memory_equal(a->u.chacha.buffer, b->u.chacha.buffer, sizeof a->u.chacha.buffer);
    } else {
        assert_memory_equal(&a->u.hmac, &b->u.hmac, sizeof a->u.hmac);
    }
}

/* Where the shuffles recognise fd_drbg_rng's fill and serve buffered
 * ChaCha20 words inline (x86-64, drbg_fast.h), every shuffle, its status
 * and the DRBG's whole state afterwards equal those of the same DRBG
 * called through an opaque callback: under every reseed policy (a reseed
 * due by count or by bytes must not be skipped by the inline path, a
 * prediction-resistant DRBG must reseed before every request), for
 * HMAC_DRBG, and for a DRBG never instantiated or already wiped. */
static void test_drbg_served_inline_as_through_callback(void **state)
{
    (void)state;
    const fd_drbg_config configs[] = {
        {FD_DRBG_CHACHA20, false, 1u << 20, 0},   {FD_DRBG_CHACHA20, false, 3, 0},
        {FD_DRBG_CHACHA20, false, 1u << 20, 100}, {FD_DRBG_CHACHA20, true, 1u << 20, 0},
        {FD_DRBG_HMAC_SHA256, false, 5, 0},
    };
    static const size_t sizes[] = {52, 312, 2, 512, 53, 1, 416, 7};
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        static fd_drbg inline_d;
        static fd_drbg callback_d;
        test_entropy_source e1 = {0, 0, FD_OK};
        test_entropy_source e2 = {0, 0, FD_OK};
        assert_int_equal(fd_drbg_instantiate(&inline_d, &configs[c], test_entropy_block, &e1, NULL, 0), FD_OK);
        assert_int_equal(fd_drbg_instantiate(&callback_d, &configs[c], test_entropy_block, &e2, NULL, 0), FD_OK);
        const fd_rng inline_rng = fd_drbg_rng(&inline_d);
        const fd_rng callback_rng = {drbg_via_callback, &callback_d, NULL};
        for (size_t k = 0; k < 60u; k++) {
            const size_t n = sizes[k % (sizeof sizes / sizeof sizes[0])];
            uint16_t a[512];
            uint16_t b[512];
            for (size_t i = 0; i < n; i++) {
                a[i] = b[i] = (uint16_t)i;
            }
            if (k % 3u == 2u) {
                assert_int_equal(fd_shuffle_partial_u16(a, n, (n + 1u) / 2u, &inline_rng),
                                 fd_shuffle_partial_u16(b, n, (n + 1u) / 2u, &callback_rng));
            } else {
                assert_int_equal(fd_shuffle_u16(a, n, &inline_rng), FD_OK);
                assert_int_equal(fd_shuffle_u16(b, n, &callback_rng), FD_OK);
            }
            assert_memory_equal(a, b, n * sizeof a[0]);
            assert_same_drbg_state(&inline_d, &callback_d);
        }
        fd_drbg_uninstantiate(&inline_d);
        fd_drbg_uninstantiate(&callback_d);
    }
    /* wiped (never instantiated alike): refused, the cards untouched */
    static fd_drbg wiped;
    fd_drbg_uninstantiate(&wiped);
    const fd_rng wiped_rng = fd_drbg_rng(&wiped);
    uint8_t cards[52];
    for (uint8_t i = 0; i < 52u; i++) {
        cards[i] = i;
    }
    assert_int_equal(fd_shuffle_u8(cards, 52, &wiped_rng), FD_ERR_NOT_READY);
    const fd_rng no_drbg = fd_drbg_rng(NULL);
    assert_int_equal(fd_shuffle_u8(cards, 52, &no_drbg), FD_ERR_NULL);
    for (uint8_t i = 0; i < 52u; i++) {
        assert_int_equal(cards[i], i);
    }
}
#endif

static void test_every_n_decodes_greedy_groups(void **state)
{
    (void)state;
    static uint16_t a[GREEDY_MAX_N];
    static uint16_t want[GREEDY_MAX_N];
    static uint32_t bounds[GREEDY_MAX_N];
    static uint32_t j[GREEDY_MAX_N];
    static uint32_t words[GREEDY_MAX_N];
    static uint8_t bytes[4u * GREEDY_MAX_N];
    test_prng p;
    const fd_rng draws = test_prng_init(&p, 77);
    for (uint32_t n = 2; n <= GREEDY_MAX_N; n++) {
        for (int sattolo = 0; sattolo < 2; sattolo++) {
            for (uint32_t t = 0; t + 1u < n; t++) {
                bounds[t] = sattolo ? n - 1u - t : n - t; /* partner of position n-1-t */
                assert_int_equal(fd_uniform_u32(&draws, bounds[t], &j[t]), FD_OK);
            }
            for (uint32_t i = 0; i < n; i++) {
                a[i] = want[i] = (uint16_t)i;
            }
            for (uint32_t t = 0; t + 1u < n; t++) {
                const uint16_t x = want[n - 1u - t];
                want[n - 1u - t] = want[j[t]];
                want[j[t]] = x;
            }
            const size_t count = test_words_for_batches(j, bounds, n - 1u, words);
            test_words_to_bytes(words, count, bytes);
            test_script_rng src;
            const fd_rng rng = test_script_rng_init(&src, bytes, 4u * count);
            assert_int_equal(sattolo ? fd_sattolo_u16(a, n, &rng) : fd_shuffle_u16(a, n, &rng), FD_OK);
            assert_memory_equal(a, want, n * sizeof a[0]);
            assert_int_equal(src.pos, 4u * count);
        }
    }
}

/* Stack hygiene (docs/ENTROPY.md "Wipes"): after a 52-card shuffle, none of the random
 * words it fetched and no run of four of its draw indices is left in the
 * stack region it used (stack_probe.h). */
#if STACK_PROBE_WORKS

TEST_NOINLINE static fd_status shuffle_52(uint16_t *cards, const fd_rng *rng, int form)
{
    for (uint16_t i = 0; i < 52u; i++) {
        cards[i] = i;
    }
    return typed_shuffle(form, false, 1, cards, 52, rng);
}

/* 50 of 52 cards: the general decoding path (the 52-card fixed plan on
 * x86-64 covers a whole deck only). */
TEST_NOINLINE static fd_status deal_50_of_52(uint16_t *cards, const fd_rng *rng)
{
    for (uint16_t i = 0; i < 52u; i++) {
        cards[i] = i;
    }
    return fd_shuffle_partial_u16(cards, 52, 50, rng);
}

enum {
    SHUFFLE_52,
    DEAL_50_OF_52,
    SHUFFLE_100
};

/* Runs one shuffle (what) from a fresh ChaCha20 DRBG, then makes the same
 * DRBG's first len bytes (at most 160) again and looks for each of their
 * words below: none may be left. Its own frame is the probe's depth. */
TEST_NOINLINE static void drbg_words_gone(int what, int form, size_t len)
{
    static fd_drbg d;
    static uint8_t out[160];
    const fd_drbg_config cfg = {FD_DRBG_CHACHA20, false, 1000, 0};
    test_entropy_source e = {0, 0, FD_OK};
    const fd_rng rng = fd_drbg_rng(&d);
    assert_true(len <= sizeof out);
    assert_int_equal(fd_drbg_instantiate(&d, &cfg, test_entropy_block, &e, NULL, 0), FD_OK);
    scrub_stack();
    fd_status st;
    if (what == SHUFFLE_52) {
        st = shuffle_52(order16, &rng, form);
    } else if (what == DEAL_50_OF_52) {
        st = deal_50_of_52(order16, &rng);
    } else {
        st = typed_shuffle(form, false, 1, order16, 100, &rng);
    }
    assert_int_equal(st, FD_OK);
    e.calls = 0;
    assert_int_equal(fd_drbg_instantiate(&d, &cfg, test_entropy_block, &e, NULL, 0), FD_OK);
    assert_int_equal(fd_drbg_generate(&d, out, len), FD_OK);
    fd_drbg_uninstantiate(&d);
    for (size_t w = 0; w < len; w += 4u) {
        assert_false(stack_holds(out + w, 4u));
    }
}

static void test_shuffle_leaves_no_secrets_on_stack(void **state)
{
    (void)state;
    /* control: the probe finds a word a previous frame left */
    leave_word_behind(0x5EC2E7A5u);
    assert_true(stack_holds_word(0x5EC2E7A5u));

    /* scripted draws: the words and the draw indices are known (all in
     * this frame, above the probed region; 16 KiB parts have no RAM to
     * spare for more statics) */
    uint32_t j[51];
    uint32_t bounds[51];
    uint32_t words[16]; /* 10 groups for 52 cards */
    uint8_t bytes[4u * 16u];
    uint16_t cards[52];
    test_prng p;
    const fd_rng draws = test_prng_init(&p, 18);
    for (uint32_t t = 0; t < 51u; t++) {
        bounds[t] = 52u - t;
        assert_int_equal(fd_uniform_u32(&draws, bounds[t], &j[t]), FD_OK);
    }
    const size_t count = test_words_for_batches(j, bounds, 51, words);
    test_words_to_bytes(words, count, bytes);
    test_script_rng src;
    for (int form = 0; form < TYPED_FORMS; form++) { /* on x86-64 swapping as drawn and not, each forced */
        const fd_rng scripted = test_script_rng_init(&src, bytes, 4u * count);
        scrub_stack();
        assert_int_equal(shuffle_52(cards, &scripted, form), FD_OK);
        for (size_t w = 0; w < count; w++) {
            assert_false(stack_holds_word(words[w]));
        }
        for (size_t t = 0; t + 4u <= 51u; t++) {
            uint8_t run[8];
            for (size_t k = 0; k < 4u; k++) {
                run[2u * k] = (uint8_t)j[t + k];
                run[2u * k + 1u] = (uint8_t)(j[t + k] >> 8);
            }
            assert_false(stack_holds(run, sizeof run));
        }
    }

    /* a small deck (one group, draw_one_group): its word */
    for (uint32_t t = 0; t < 7u; t++) {
        bounds[t] = 8u - t;
        assert_int_equal(fd_uniform_u32(&draws, bounds[t], &j[t]), FD_OK);
    }
    assert_int_equal(test_words_for_batches(j, bounds, 7, words), 1);
    test_words_to_bytes(words, 1, bytes);
    const fd_rng small = test_script_rng_init(&src, bytes, 4u);
    scrub_stack();
    assert_int_equal(fd_shuffle_u16(cards, 8, &small), FD_OK);
    assert_false(stack_holds_word(words[0]));

    /* one bounded integer and one raw word: theirs (a rejected word, then
     * an accepted one, for the bounded integer) */
    const uint32_t kept[3] = {0u /* low part 0 < 2^32 mod 7: rejected */, 0x9E3779B9u, 0x7F4A7C15u};
    for (size_t w = 0; w < 3u; w++) {
        words[w] = kept[w];
    }
    test_words_to_bytes(words, 3, bytes);
    memset(words, 0, sizeof words);
    const fd_rng three = test_script_rng_init(&src, bytes, 12u);
    uint32_t value = 0;
    scrub_stack();
    assert_int_equal(fd_uniform_u32(&three, 7u, &value), FD_OK);
    assert_int_equal(src.calls, 2);
    assert_false(stack_holds(
        bytes + 4,
        4)); /* the bytes as scripted: stack_holds_word's own call could leave a word it is given on Thumb-1 */
    scrub_stack();
    const fd_status raw = fd_rng_u32(&three, &value);
    assert_false(stack_holds(bytes + 8, 4));
    assert_int_equal(raw, FD_OK);
    assert_memory_equal(&value, bytes + 8, 4); /* after the probe: an assertion's frame holds what it compares */

    /* the ChaCha20 DRBG: its output words, predicted afterwards by the same
     * DRBG instantiated again from the same source; a 52-card deck in each
     * form, 50 of 52 cards through the general decoding path, and a
     * 100-card shuffle (two fills of the general path, on x86-64 swapped as
     * drawn; the first's words under the second's) in each form */
    for (int form = 0; form < TYPED_FORMS; form++) {
        drbg_words_gone(SHUFFLE_52, form, 64);   /* the fill (40 bytes) and any redraws after it */
        drbg_words_gone(SHUFFLE_100, form, 160); /* about 29 groups' words and the redraws */
    }
    drbg_words_gone(DEAL_50_OF_52, FORM_PUBLIC, 64);
}

/* A test_prng source that keeps every word it hands out (in static
 * storage, not on the stack) and, when a fill of more than one word
 * starts after the first, looks for the words of the calls before in the
 * live stack between itself and the test: the shuffle must have zeroed
 * each spent word before it fetches the next fill. Seen while the frames
 * are live, so what later frames would overwrite does not matter. */
typedef struct watching_source {
    test_prng prng;
    fd_rng inner;
    const void *top;
    size_t handed;       /* words handed out so far */
    size_t checks;       /* fills that looked */
    size_t found;        /* earlier words seen in the live stack */
    size_t calls;        /* calls so far */
    size_t fail_on_call; /* 1-based; 0 = never */
} watching_source;
static uint8_t handed_words[4u * 192u];

static fd_status watching_fill(void *ctx, uint8_t *buf, size_t len)
{
    watching_source *w = ctx;
    if (++w->calls == w->fail_on_call) {
        return FD_ERR_RNG;
    }
    if (len > 4u && w->handed > 0u) {
        w->checks++;
        for (size_t i = 0; i < w->handed; i++) {
            w->found += (size_t)live_stack_holds(w->top, handed_words + 4u * i, 4u);
        }
    }
    const fd_status st = w->inner.fill(w->inner.ctx, buf, len);
    if (st == FD_OK && len % 4u == 0u && 4u * w->handed + len <= sizeof handed_words) {
        memcpy(handed_words + 4u * w->handed, buf, len);
        w->handed += len / 4u;
    }
    scrub_stack(); /* the source's own frame below, where the next look starts */
    return st;
}

/* Shoes of 100, 200 (bytes) and 312 cards, Durstenfeld and Sattolo, in
 * each form: before each fill after the first, no word of an earlier fill
 * or redraw is left in the shuffle's frames (the general path's words[g]
 * zeroing, the vector fill's memset, the Thumb-2 decoder's). */
static void test_spent_words_gone_before_next_fill(void **state)
{
    (void)state;
    static const size_t sizes[] = {100, 200, 312};
    uint8_t top = 0;
    size_t checks = 0;
    for (int form = 0; form < TYPED_FORMS; form++) {
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            for (int sattolo = 0; sattolo < 2; sattolo++) {
                const size_t n = sizes[z];
                watching_source w = {{0}, {NULL, NULL, NULL}, &top, 0, 0, 0, 0, 0};
                w.inner = test_prng_init(&w.prng, 77u + n + (uint64_t)sattolo);
                const fd_rng rng = {watching_fill, &w, NULL};
                for (size_t i = 0; i < n; i++) {
                    order16[i] = (uint16_t)i;
                    big[i % sizeof big] = (uint8_t)i;
                }
                const fd_status st = n == 200u ? typed_shuffle(form, sattolo, 0, big, n, &rng)
                                               : typed_shuffle(form, sattolo, 1, order16, n, &rng);
                assert_int_equal(st, FD_OK);
                assert_true(w.checks >= 1u);
                assert_int_equal(w.found, 0);
                checks += w.checks;
            }
        }
    }
    assert_true(checks >= 8u * TYPED_FORMS);
}

static uint16_t recovered_draws[312];
static uint16_t position_of[312];

/* The draws of a Durstenfeld shuffle of 0, 1, ..., n-1 that ended as
 * order16[0..n): at i = n-1 down to 1 the partner is where order16[i]'s
 * element stands then. Into recovered_draws[0..n-1). */
static void draws_from_order(size_t n)
{
    for (size_t i = 0; i < n; i++) {
        generic16[i] = (uint16_t)i;
        position_of[i] = (uint16_t)i;
    }
    for (size_t i = n - 1u; i > 0u; i--) {
        const uint16_t j = position_of[order16[i]];
        recovered_draws[n - 1u - i] = j;
        const uint16_t x = generic16[i];
        generic16[i] = generic16[j];
        generic16[j] = x;
        position_of[generic16[i]] = (uint16_t)i;
        position_of[generic16[j]] = j;
    }
}

/* An n-card Durstenfeld shuffle (u16) in `form` from seed whose source
 * fails on its last call: afterwards no word it handed out and no four
 * draws in a row are left below (the error paths wipe both). Returns 0
 * when the seed's shuffle makes one call only (nothing fails after a
 * draw), 1 when checked. Its own frame is the probe's depth. */
TEST_NOINLINE static int check_failed_shuffle_leaves_nothing(size_t n, int form, uint64_t seed)
{
    uint8_t top = 0;
    watching_source w = {{0}, {NULL, NULL, NULL}, &top, 0, 0, 0, 0, 0};
    w.inner = test_prng_init(&w.prng, seed);
    fd_rng rng = {watching_fill, &w, NULL};
    for (size_t i = 0; i < n; i++) {
        order16[i] = (uint16_t)i;
    }
    assert_int_equal(typed_shuffle(form, false, 1, order16, n, &rng), FD_OK);
    if (w.calls < 2u) {
        return 0;
    }
    draws_from_order(n);
    const size_t handed = w.handed;
    const size_t last = w.calls;
    w = (watching_source){{0}, {NULL, NULL, NULL}, &top, 0, 0, 0, 0, last};
    w.inner = test_prng_init(&w.prng, seed);
    for (size_t i = 0; i < n; i++) {
        order16[i] = (uint16_t)i;
    }
    scrub_stack();
    assert_int_equal(typed_shuffle(form, false, 1, order16, n, &rng), FD_ERR_RNG);
    for (size_t i = 0; i < handed; i++) {
        assert_false(stack_holds(handed_words + 4u * i, 4u));
    }
    /* runs whose bounds are all 32 or more: four draws below 32 in a row
     * (bytes such as 03 00 00 00 01 00 ...) are found among any frame's
     * small integers */
    for (size_t t = 0; t + 4u + 31u <= n; t++) {
        uint8_t run[8];
        for (size_t k = 0; k < 4u; k++) {
            run[2u * k] = (uint8_t)recovered_draws[t + k];
            run[2u * k + 1u] = (uint8_t)(recovered_draws[t + k] >> 8);
        }
        assert_false(stack_holds(run, sizeof run));
    }
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(order16[i], i);
    }
    return 1;
}

/* A failing source leaves no secret either: 52 cards whose last redraw
 * fails (the deck's fixed plan on x86-64) and 100 and 312 cards whose last
 * call fails, in each form. */
static void test_failed_shuffle_leaves_no_secrets(void **state)
{
    (void)state;
    static const size_t sizes[] = {52, 100, 312};
    for (int form = 0; form < TYPED_FORMS; form++) {
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            int checked = 0;
            for (uint64_t seed = 1; seed < 40u && checked < 2; seed++) {
                checked += check_failed_shuffle_leaves_nothing(sizes[z], form, 500u + seed);
            }
            assert_int_equal(checked, 2);
        }
    }
}
#endif

#if FD_SHUFFLE_V7M
/* The Thumb-2 loops against the C reference they replace, on this board:
 * decoding (fd_batch_map32 per group, the word zeroed once accepted) for
 * random plans of every length 1..12 and random words, with groups forced
 * to be rejected (word 0 fails whenever 2^32 mod the product is not 0) and
 * products that accept everything (a lone bound 1, powers of two); the
 * swaps (with the draws zeroed, nothing else touched) for every n up to
 * FD_SHUFFLE_MAX_N. */
static uint32_t below(const fd_rng *rng, uint32_t bound)
{
    uint32_t v = 0;
    assert_int_equal(fd_uniform_u32(rng, bound, &v), FD_OK);
    return v;
}

/* The longest group from bound (at most 12, at most bound) whose product
 * of bounds stays below 2^32. */
static uint32_t longest_group(uint32_t bound)
{
    uint64_t product = 1;
    uint32_t len = 0;
    while (len < 12u && len < bound && product * (bound - len) <= 0xFFFFFFFFu) {
        product *= bound - len;
        len++;
    }
    return len;
}

static void test_v7m_decode_agrees(void **state)
{
    (void)state;
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 7007);
    enum {
        GROUPS = 16
    };
    unsigned rejected = 0;
    unsigned accepted = 0;
    for (unsigned trial = 0; trial < 3000u; trial++) {
        uint32_t words[GROUPS + 1];
        uint32_t want_words[GROUPS];
        uint8_t len[GROUPS];
        uint16_t out[12u * GROUPS + 1u];
        uint16_t want[12u * GROUPS + 1u];
        const uint32_t first = trial % 5u == 0u ? 2u + below(&rng, 65534u) : 1u + below(&rng, FD_SHUFFLE_MAX_N);
        uint32_t bound = first;
        size_t groups = 0;
        while (groups < 1u + below(&rng, GROUPS) && bound > 0u) {
            const uint32_t max = longest_group(bound);
            const uint32_t l = trial % 3u == 0u ? max : 1u + below(&rng, max);
            len[groups] = (uint8_t)l;
            assert_int_equal(fd_rng_u32(&rng, &words[groups]), FD_OK);
            if (below(&rng, 8u) == 0u) {
                words[groups] = below(&rng, 2u) == 0u ? 0u : 0xFFFFFFFFu;
            }
            bound -= l;
            groups++;
        }
        words[groups] = 0x5A5A5A5Au; /* beyond the last group: never touched */
        out[12u * GROUPS] = want[12u * GROUPS] = 0xA5A5u;
        memcpy(want_words, words, sizeof want_words);
        /* the reference: groups until the first rejected one */
        size_t ref_done = 0;
        size_t drawn = 0;
        bound = first;
        for (; ref_done < groups; ref_done++) {
            if (!fd_batch_map32(want_words[ref_done], bound, len[ref_done], want + drawn)) {
                break;
            }
            want_words[ref_done] = 0;
            drawn += len[ref_done];
            bound -= len[ref_done];
        }
        fd_decode_cursor c = {words, len, out, first};
        const uint32_t all = fd_decode_groups_v7m(&c, len + groups);
        assert_int_equal(all, ref_done == groups);
        assert_true(c.word == words + ref_done);
        assert_true(c.len == len + ref_done);
        assert_true(c.out == out + drawn);
        assert_int_equal(c.bound, bound);
        assert_memory_equal(out, want, drawn * sizeof out[0]);
        assert_memory_equal(words, want_words, groups * sizeof words[0]);
        assert_int_equal(words[groups], 0x5A5A5A5Au);
        assert_int_equal(out[12u * GROUPS], 0xA5A5u);
        rejected += ref_done < groups;
        accepted += ref_done == groups;
    }
    /* vectors: a lone bound 1 and products 2 accept word 0; 65535
     * (2^32 mod it = 1) and 52..48 (2^32 mod 311,875,200 = 240,589,696)
     * reject it */
    const struct {
        uint32_t bound;
        uint8_t len;
        uint32_t all;
    } vectors[] = {{1, 1, 1}, {2, 1, 1}, {2, 2, 1}, {65535, 1, 0}, {52, 5, 0}};
    for (size_t v = 0; v < sizeof vectors / sizeof vectors[0]; v++) {
        uint32_t word = 0;
        uint16_t out[12];
        fd_decode_cursor c = {&word, &vectors[v].len, out, vectors[v].bound};
        assert_int_equal(fd_decode_groups_v7m(&c, &vectors[v].len + 1), vectors[v].all);
        assert_int_equal(c.bound, vectors[v].all ? vectors[v].bound - vectors[v].len : vectors[v].bound);
    }
    assert_true(rejected > 100u && accepted > 100u); /* both ends exercised */
}

/* Planning against the greedy definition (each group as long as its
 * product of bounds stays below 2^32, the last cut to the draws left, 16
 * groups per call), call after call through whole shuffles, with the walk
 * table derived here from the same definition. */
static void test_v7m_plan_agrees(void **state)
{
    (void)state;
    uint16_t top[11]; /* entry i: the largest bound whose group holds i + 3 bounds; then 0 */
    uint32_t b = 65535;
    for (uint32_t i = 0; i < 10u; i++) {
        while (longest_group(b) < i + 3u) {
            b--;
        }
        top[i] = (uint16_t)b;
    }
    top[10] = 0;
    assert_int_equal(top[0], 1626); /* b (b-1) (b-2) < 2^32 */
    assert_int_equal(top[9], 12);   /* 12! < 2^32 */
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 7009);
    /* vectors: draws left equal to a group's cap, a 52-card deck, the
     * largest bounds, 16 groups per call */
    static const uint32_t vectors[][2] = {{100, 4}, {100, 8}, {52, 51}, {12, 12}, {65535, 1}, {65535, 40}, {512, 511}};
    const unsigned n_vectors = sizeof vectors / sizeof vectors[0];
    for (unsigned trial = 0; trial < 400u + n_vectors; trial++) {
        const uint32_t n = trial < n_vectors  ? vectors[trial][0]
                           : trial % 4u == 0u ? 1u + below(&rng, 65535u)
                                              : 1u + below(&rng, FD_SHUFFLE_MAX_N);
        uint32_t rest = trial < n_vectors ? vectors[trial][1] : 1u + below(&rng, n < 2000u ? n : 2000u);
        uint32_t bound = n;
        uint32_t level = 0;
        while (rest > 0u) {
            uint8_t lens[FD_PLAN_GROUPS_V7M + 1u];
            lens[FD_PLAN_GROUPS_V7M] = 0xEE;
            fd_plan_v7m plan = {top, level, bound, rest, lens, 0};
            const uint32_t groups = fd_plan_groups_v7m(&plan);
            uint32_t g = 0;
            uint32_t last_bound = bound;
            const uint32_t before = rest;
            while (rest > 0u && g < FD_PLAN_GROUPS_V7M) {
                const uint32_t want = longest_group(bound) < rest ? longest_group(bound) : rest;
                assert_int_equal(lens[g], want);
                last_bound = bound;
                bound -= want;
                rest -= want;
                g++;
            }
            assert_int_equal(groups, g);
            assert_int_equal(plan.drawn, before - rest);
            assert_int_equal(lens[FD_PLAN_GROUPS_V7M], 0xEE);
            uint32_t at_least = 0;
            while (top[at_least] >= last_bound) {
                at_least++;
            }
            assert_int_equal(plan.level, at_least);
            level = plan.level;
        }
    }
}

static void test_v7m_swaps_agree(void **state)
{
    (void)state;
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 7008);
    _Alignas(uint32_t) static uint16_t draws[FD_SHUFFLE_MAX_N + 2u];
    static uint16_t a16[FD_SHUFFLE_MAX_N + 1u];
    static uint16_t want16[FD_SHUFFLE_MAX_N + 1u];
    static uint8_t a8[FD_SHUFFLE_MAX_N + 1u];
    static uint8_t want8[FD_SHUFFLE_MAX_N + 1u];
    static uint16_t zeros[FD_SHUFFLE_MAX_N];
    for (uint32_t n = 1; n <= FD_SHUFFLE_MAX_N; n++) {
        for (int wide = 0; wide < 2; wide++) {
            for (uint32_t i = 0; i <= n; i++) {
                a16[i] = want16[i] = (uint16_t)(0x1234u * i + 7u);
                a8[i] = want8[i] = (uint8_t)(31u * i + 5u);
            }
            for (uint32_t t = 0; t + 1u < n; t++) {
                draws[t] = (uint16_t)below(&rng, n - t);
            }
            draws[n - 1u] = draws[n] = 0xBEEFu;
            for (uint32_t t = 0; t + 1u < n; t++) {
                const uint32_t i = n - 1u - t;
                const uint16_t x = want16[i];
                want16[i] = want16[draws[t]];
                want16[draws[t]] = x;
                const uint8_t y = want8[i];
                want8[i] = want8[draws[t]];
                want8[draws[t]] = y;
            }
            if (wide) {
                fd_swaps_u16_v7m(a16, n, draws);
                assert_memory_equal(a16, want16, (n + 1u) * sizeof a16[0]);
            } else {
                fd_swaps_u8_v7m(a8, n, draws);
                assert_memory_equal(a8, want8, n + 1u);
            }
            assert_memory_equal(draws, zeros, (n - 1u) * sizeof draws[0]);
            assert_int_equal(draws[n - 1u], 0xBEEFu);
            assert_int_equal(draws[n], 0xBEEFu);
        }
    }
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_n_decodes_greedy_groups),
        cmocka_unit_test(test_deck_of_52_at_each_group_threshold),
        cmocka_unit_test(test_partial_generic_matches_typed),
        cmocka_unit_test(test_durstenfeld_walkthrough_u8),
        cmocka_unit_test(test_durstenfeld_walkthrough_u16_and_generic),
        cmocka_unit_test(test_sattolo_scripted),
        cmocka_unit_test(test_partial_scripted),
        cmocka_unit_test(test_copy_scripted),
        cmocka_unit_test(test_sample_scripted),
        cmocka_unit_test(test_random_results_are_permutations),
        cmocka_unit_test(test_sattolo_always_single_cycle),
        cmocka_unit_test(test_sample_is_sorted_subset),
        cmocka_unit_test(test_argument_errors_change_nothing),
        cmocka_unit_test(test_source_failure_changes_nothing),
        cmocka_unit_test(test_typed_shuffles_match_generic_and_undo_on_failure),
#if defined(__x86_64__)
        cmocka_unit_test(test_drbg_served_inline_as_through_callback),
#endif
#if STACK_PROBE_WORKS
        cmocka_unit_test(test_shuffle_leaves_no_secrets_on_stack),
        cmocka_unit_test(test_spent_words_gone_before_next_fill),
        cmocka_unit_test(test_failed_shuffle_leaves_no_secrets),
#endif
#if FD_SHUFFLE_V7M
        cmocka_unit_test(test_v7m_decode_agrees),
        cmocka_unit_test(test_v7m_plan_agrees),
        cmocka_unit_test(test_v7m_swaps_agree),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
