/* Quick statistical smoke test (host): every fair shuffle passes a
 * chi-square over all orders of 3 and 4 elements, and the naive control
 * fails it, at the same sample size, with the same code. Seeds are fixed,
 * so the verdicts are reproducible. The chi-square p-value code is checked
 * against known values first. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "chisq.h"
#include "fairdeal/shuffle.h"
#include "perm.h"
#include "test_rng.h"

#define SHUFFLES 300000u
#define FAIR_P_MIN 1e-6 /* a fair shuffle failing: one run in a million */
#define UNFAIR_P_MAX 1e-6

typedef fd_status (*shuffle_fn)(uint8_t *a, size_t n, const fd_rng *rng);

static fd_status copy_shuffle(uint8_t *a, size_t n, const fd_rng *rng)
{
    uint8_t src[16];
    memcpy(src, a, n);
    return fd_shuffle_copy_u8(a, src, n, rng);
}

static fd_status full_partial(uint8_t *a, size_t n, const fd_rng *rng) { return fd_shuffle_partial_u8(a, n, n, rng); }

static fd_status generic_3byte(uint8_t *a, size_t n, const fd_rng *rng)
{
    uint8_t wide[16][3];
    for (size_t i = 0; i < n; i++) {
        wide[i][0] = a[i];
        wide[i][1] = (uint8_t)~a[i];
        wide[i][2] = a[i];
    }
    fd_status st = fd_shuffle(wide, n, 3, rng);
    for (size_t i = 0; i < n; i++) {
        a[i] = wide[i][0];
    }
    return st;
}

static double orders_pvalue(shuffle_fn fn, size_t n, uint64_t seed, uint64_t *counts)
{
    test_prng p;
    fd_rng rng = test_prng_init(&p, seed);
    uint32_t cells = test_factorial((unsigned)n);
    memset(counts, 0, cells * sizeof *counts);
    for (uint32_t s = 0; s < SHUFFLES; s++) {
        uint8_t a[8];
        for (size_t i = 0; i < n; i++) {
            a[i] = (uint8_t)i;
        }
        assert_int_equal(fn(a, n, &rng), FD_OK);
        counts[test_perm_rank(a, n)]++;
    }
    return test_chisq_pvalue(test_chisq_uniform(counts, cells), cells - 1.0);
}

/* Ranks are a bijection onto [0, n!) and the inverse of unrank (itself
 * written from the digits, independently of rank). */
static void test_rank_inverts_unrank(void **state)
{
    (void)state;
    static uint8_t hit[40320];
    for (size_t n = 1; n <= 8u; n++) {
        const uint32_t cells = test_factorial((unsigned)n);
        memset(hit, 0, cells);
        for (uint32_t r = 0; r < cells; r++) {
            uint8_t order[8];
            test_perm_unrank(r, order, n);
            uint8_t seen = 0;
            for (size_t i = 0; i < n; i++) {
                seen |= (uint8_t)(1u << order[i]);
            }
            assert_int_equal(seen, (1u << n) - 1u); /* a permutation of 0..n-1 */
            assert_int_equal(test_perm_rank(order, n), r);
            hit[r]++;
        }
        for (uint32_t r = 0; r < cells; r++) {
            assert_int_equal(hit[r], 1);
        }
    }
    const uint8_t last12[12] = {11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}; /* 12! - 1, the largest rank */
    assert_int_equal(test_perm_rank(last12, 12), 479001599u);
    const uint8_t first12[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    assert_int_equal(test_perm_rank(first12, 12), 0);
}

static void test_gamma_known_values(void **state)
{
    (void)state;
    /* chi-square upper tails from standard tables */
    assert_true(fabs(test_chisq_pvalue(3.841458820694124, 1) - 0.05) < 1e-9);
    assert_true(fabs(test_chisq_pvalue(11.070497693516351, 5) - 0.05) < 1e-9);
    assert_true(fabs(test_chisq_pvalue(20.515005652432873, 5) - 0.001) < 1e-9);
    assert_true(fabs(test_chisq_pvalue(49.72823247308903, 23) - 0.001) < 1e-9);
    assert_true(fabs(test_chisq_pvalue(124.34211340400407, 100) - 0.05) < 1e-9);
    /* P(1, x) = 1 - e^-x; P(0.5, x) = erf(sqrt(x)) */
    assert_true(fabs(test_gamma_p(1.0, 2.0) - (1.0 - exp(-2.0))) < 1e-12);
    assert_true(fabs(test_gamma_p(0.5, 0.7) - erf(sqrt(0.7))) < 1e-12);
    assert_true(fabs(test_gamma_q(3.0, 30.0) - exp(-30.0) * (1.0 + 30.0 + 450.0)) < 1e-20);
}

static void test_fair_shuffles_pass(void **state)
{
    (void)state;
    static uint64_t counts[24];
    const shuffle_fn fair[] = {fd_shuffle_u8, copy_shuffle, full_partial, generic_3byte};
    for (size_t f = 0; f < 4; f++) {
        for (size_t n = 3; n <= 4; n++) {
            double pv = orders_pvalue(fair[f], n, 1000u + f * 10u + n, counts);
            assert_true(pv > FAIR_P_MIN);
        }
    }
}

static void test_naive_control_fails(void **state)
{
    (void)state;
    static uint64_t counts[24];
    for (size_t n = 3; n <= 4; n++) {
        double pv = orders_pvalue(test_naive_shuffle_u8, n, 77u + n, counts);
        assert_true(pv < UNFAIR_P_MAX);
    }
}

/* The naive shuffle on 3 cards: 27 equally likely paths onto 6 orders.
 * Measured counts must fit the exact 4/27 and 5/27 distribution. */
static void test_naive_matches_exact_distribution(void **state)
{
    (void)state;
    static uint64_t counts[6];
    uint32_t paths[6] = {0};
    for (uint32_t code = 0; code < 27u; code++) {
        uint8_t a[3] = {0, 1, 2};
        uint32_t c = code;
        for (size_t i = 0; i < 3; i++) {
            size_t j = c % 3u;
            c /= 3u;
            uint8_t t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        paths[test_perm_rank(a, 3)]++;
    }
    unsigned fours = 0;
    unsigned fives = 0;
    for (size_t r = 0; r < 6; r++) {
        fours += paths[r] == 4u;
        fives += paths[r] == 5u;
    }
    assert_int_equal(fours, 3);
    assert_int_equal(fives, 3);
    (void)orders_pvalue(test_naive_shuffle_u8, 3, 5, counts);
    double stat = 0.0;
    for (size_t r = 0; r < 6; r++) {
        double expected = SHUFFLES * paths[r] / 27.0;
        stat += ((double)counts[r] - expected) * ((double)counts[r] - expected) / expected;
    }
    assert_true(test_chisq_pvalue(stat, 5) > FAIR_P_MIN);
}

static void test_sattolo_only_cycles_uniformly(void **state)
{
    (void)state;
    test_prng p;
    fd_rng rng = test_prng_init(&p, 4242);
    uint64_t counts[24] = {0};
    for (uint32_t s = 0; s < SHUFFLES; s++) {
        uint8_t a[4] = {0, 1, 2, 3};
        assert_int_equal(fd_sattolo_u8(a, 4, &rng), FD_OK);
        counts[test_perm_rank(a, 4)]++;
    }
    uint64_t cycles[6];
    size_t c = 0;
    for (uint32_t r = 0; r < 24; r++) {
        uint8_t order[4];
        test_perm_unrank(r, order, 4);
        if (test_perm_is_single_cycle(order, 4)) {
            cycles[c++] = counts[r];
        } else {
            assert_int_equal(counts[r], 0);
        }
    }
    assert_int_equal(c, 6);
    assert_true(test_chisq_pvalue(test_chisq_uniform(cycles, 6), 5) > FAIR_P_MIN);
}

static void test_partial_and_sample_uniform(void **state)
{
    (void)state;
    test_prng p;
    fd_rng rng = test_prng_init(&p, 99);
    uint64_t kperm[16] = {0};  /* 4*3 ordered pairs, indexed a*4+b */
    uint64_t subset[16] = {0}; /* pairs a<b indexed a*4+b */
    for (uint32_t s = 0; s < SHUFFLES; s++) {
        uint8_t a[4] = {0, 1, 2, 3};
        assert_int_equal(fd_shuffle_partial_u8(a, 4, 2, &rng), FD_OK);
        kperm[a[0] * 4u + a[1]]++;
        uint32_t out[2];
        assert_int_equal(fd_sample_indices(out, 2, 4, &rng), FD_OK);
        subset[out[0] * 4u + out[1]]++;
    }
    uint64_t k_cells[12];
    uint64_t s_cells[6];
    size_t kc = 0;
    size_t sc = 0;
    for (unsigned x = 0; x < 4; x++) {
        for (unsigned y = 0; y < 4; y++) {
            if (x != y) {
                k_cells[kc++] = kperm[x * 4u + y];
            }
            if (x < y) {
                s_cells[sc++] = subset[x * 4u + y];
            } else {
                assert_int_equal(subset[x * 4u + y], 0);
            }
        }
    }
    assert_true(test_chisq_pvalue(test_chisq_uniform(k_cells, 12), 11) > FAIR_P_MIN);
    assert_true(test_chisq_pvalue(test_chisq_uniform(s_cells, 6), 5) > FAIR_P_MIN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank_inverts_unrank),
        cmocka_unit_test(test_gamma_known_values),
        cmocka_unit_test(test_fair_shuffles_pass),
        cmocka_unit_test(test_naive_control_fails),
        cmocka_unit_test(test_naive_matches_exact_distribution),
        cmocka_unit_test(test_sattolo_only_cycles_uniformly),
        cmocka_unit_test(test_partial_and_sample_uniform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
