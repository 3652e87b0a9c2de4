/* The fairness harness: accepts fairdeal's shuffles and convicts unfair ones,
 * with the same code and sample sizes for both.
 *
 * Subjects: Durstenfeld, Sattolo, partial (k = n) and inside-out (copy), all
 * drawing from the ChaCha20 DRBG, and the verifiable round's mapping
 * (docs/VERIFY.md, S from the DRBG); negative controls: the naive shuffle (j
 * uniform in [0, n-1] at every step), Durstenfeld with j = r % (i+1) from a
 * 16-bit word, and Durstenfeld driven by a 16-bit LCG reseeded per shuffle.
 * Tests: all orders for n = 3..8 (Sattolo: only the (n-1)! cycles), the
 * card-by-position matrix for 52 cards and a 312-card shoe, the rank
 * correlation of start and end positions (also at n = 512), neighbours (a
 * directly before b), successive-shuffle independence (position in shuffle t
 * against t+1) and repeated decks among all 52-card shuffles (a small state
 * repeats decks). Fair subjects must pass every test under Holm-Bonferroni at
 * family-wise alpha 0.001; every control must be rejected with p < 1e-6.
 * The naive control is also checked against its exact distribution for
 * n = 3 and 4 (all n^n paths enumerated): bias exactly where theory says.
 *
 * usage: fairness [--full] [--seed HEX] [--out DIR] [--scale-down K]
 *   default: the quick sizes (the default test run); --full: 10^8 shuffles
 *   for n = 8, 10^7 for 52 cards, the articles' table; --out writes
 *   report.md and gnuplot data files into DIR. Exit 0 only if every fair
 *   subject passes and every control is rejected. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chisq.h"
#include "fairdeal/bounded.h"
#include "fairdeal/drbg.h"
#include "fairdeal/round.h"
#include "fairdeal/sha256.h"
#include "fairdeal/shuffle.h"
#include "fairdeal/util.h"
#include "perm.h"

#define MAX_N 512u /* FD_SHUFFLE_MAX_N */
#define FAMILY_ALPHA 1e-3
#define CONTROL_P 1e-6

/* ---- the random source: ChaCha20 DRBG seeded from SHA-256(seed || i) ---- */

static uint8_t seed_bytes[64];
static size_t seed_len;
static uint64_t seed_blocks;

static fd_status seeded_entropy(void *ctx, uint8_t out[32])
{
    (void)ctx;
    fd_sha256_ctx h;
    fd_sha256_init(&h);
    fd_sha256_update(&h, seed_bytes, seed_len);
    fd_sha256_update(&h, &seed_blocks, sizeof seed_blocks);
    fd_sha256_final(&h, out);
    seed_blocks++;
    return FD_OK;
}

static fd_drbg drbg;
static fd_rng fair;

static void reseed_source(const char *label)
{
    seed_blocks = 0;
    const fd_drbg_config cfg = {FD_DRBG_CHACHA20, false, 1ull << 40, 0};
    if (fd_drbg_instantiate(&drbg, &cfg, seeded_entropy, NULL, (const uint8_t *)label, strlen(label)) != FD_OK) {
        fprintf(stderr, "fairness: DRBG instantiate failed\n");
        exit(2);
    }
    fair = fd_drbg_rng(&drbg);
}

static uint32_t fair_u32(void)
{
    uint32_t v;
    if (fd_rng_u32(&fair, &v) != FD_OK) {
        exit(2);
    }
    return v;
}

/* ---- subjects ---- */

typedef void (*shuffle_fn)(uint16_t *a, size_t n);

static void must(fd_status st)
{
    if (st != FD_OK) {
        fprintf(stderr, "fairness: shuffle failed: %s\n", fd_status_name(st));
        exit(2);
    }
}

static void durstenfeld(uint16_t *a, size_t n) { must(fd_shuffle_u16(a, n, &fair)); }
static void sattolo(uint16_t *a, size_t n) { must(fd_sattolo_u16(a, n, &fair)); }
static void partial_all(uint16_t *a, size_t n) { must(fd_shuffle_partial_u16(a, n, n, &fair)); }
static void inside_out(uint16_t *a, size_t n)
{
    uint16_t src[MAX_N];
    memcpy(src, a, n * sizeof *a);
    must(fd_shuffle_copy_u16(a, src, n, &fair));
}
static void naive(uint16_t *a, size_t n) { must(test_naive_shuffle(a, n, sizeof *a, &fair)); }

static void swap16(uint16_t *a, size_t i, size_t j)
{
    uint16_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* Control: modulo reduction of a 16-bit word (what rand() % n does). */
static void modulo16(uint16_t *a, size_t n)
{
    uint32_t w = 0;
    unsigned left = 0;
    for (size_t i = n - 1u; i > 0u; i--) {
        if (left == 0u) {
            w = fair_u32();
            left = 2;
        }
        const uint32_t r = w & 0xFFFFu;
        w >>= 16;
        left--;
        swap16(a, i, r % (uint32_t)(i + 1u));
    }
}

/* Control: a 16-bit LCG (a = 25173, c = 13849) seeded per shuffle from the
 * fair source, index by multiply-shift: at most 65,536 distinct decks. */
static void lcg16(uint16_t *a, size_t n)
{
    uint32_t x = fair_u32() & 0xFFFFu;
    for (size_t i = n - 1u; i > 0u; i--) {
        x = (25173u * x + 13849u) & 0xFFFFu;
        swap16(a, i, (x * (uint32_t)(i + 1u)) >> 16);
    }
}

/* Verifiable rounds (docs/VERIFY.md): S from the fair source, where the
 * dealer's TRNG stands, and an all-zero keystream key, as if an adversary
 * chose every client seed: the order bytes are S XOR K, fair whatever K is. */
static void verifiable_round(uint16_t *a, size_t n)
{
    static const uint8_t key[FD_ROUND_KEY_SIZE];
    uint8_t secret[FD_ROUND_SECRET_MAX];
    const size_t len = fd_round_secret_min(n);
    must(fair.fill(fair.ctx, secret, len));
    must(fd_round_shuffle_u16(a, n, key, secret, len));
}

typedef struct subject {
    const char *name;
    shuffle_fn shuffle;
    bool control;
    bool cycles_only;
} subject;

static const subject subjects[] = {
    {"durstenfeld", durstenfeld, false, false},
    {"sattolo", sattolo, false, true},
    {"partial k=n", partial_all, false, false},
    {"inside-out", inside_out, false, false},
    {"naive (control)", naive, true, false},
    {"modulo 16-bit (control)", modulo16, true, false},
    {"LCG 16-bit state (control)", lcg16, true, false},
    {"verifiable round", verifiable_round, false, false},
};
#define SUBJECTS (sizeof subjects / sizeof subjects[0])

/* ---- results ---- */

typedef struct result {
    const subject *who;
    char test[48];
    double stat;
    double df;
    double p;
    char note[96];
} result;

static result results[256];
static size_t result_count;

static result *add_result(const subject *who, const char *test, double stat, double df, double p)
{
    result *r = &results[result_count++];
    r->who = who;
    (void)snprintf(r->test, sizeof r->test, "%s", test);
    r->stat = stat;
    r->df = df;
    r->p = p;
    r->note[0] = '\0';
    return r;
}

static void identity(uint16_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        a[i] = (uint16_t)i;
    }
}

/* ---- test 1: all orders ---- */

static uint64_t order_counts[40320];

static void count_orders(const subject *s, size_t n, uint64_t shuffles, uint64_t *counts, uint64_t *non_cycles)
{
    const uint32_t cells = test_factorial((unsigned)n);
    memset(counts, 0, cells * sizeof *counts);
    *non_cycles = 0;
    uint16_t a[8];
    uint8_t small[8];
    for (uint64_t t = 0; t < shuffles; t++) {
        identity(a, n);
        s->shuffle(a, n);
        for (size_t i = 0; i < n; i++) {
            small[i] = (uint8_t)a[i];
        }
        if (s->cycles_only && !test_perm_is_single_cycle(small, n)) {
            (*non_cycles)++;
        }
        counts[test_perm_rank(small, n)]++;
    }
}

static void test_orders(const subject *s, size_t n, uint64_t shuffles)
{
    uint64_t non_cycles;
    count_orders(s, n, shuffles, order_counts, &non_cycles);
    const uint32_t cells = test_factorial((unsigned)n);
    char name[48];
    (void)snprintf(name, sizeof name, "orders n=%zu", n);
    if (!s->cycles_only) {
        const double stat = test_chisq_uniform(order_counts, cells);
        add_result(s, name, stat, cells - 1.0, test_chisq_pvalue(stat, cells - 1.0));
        return;
    }
    /* only the (n-1)! single cycles, each equally often */
    static uint64_t cycle_counts[5040];
    size_t k = 0;
    uint8_t order[8];
    for (uint32_t r = 0; r < cells; r++) {
        test_perm_unrank(r, order, n);
        if (test_perm_is_single_cycle(order, n)) {
            cycle_counts[k++] = order_counts[r];
        }
    }
    const double stat = test_chisq_uniform(cycle_counts, k);
    result *res = add_result(s, name, stat, (double)k - 1.0, non_cycles > 0u ? 0.0 : test_chisq_pvalue(stat, (double)k - 1.0));
    (void)snprintf(res->note, sizeof res->note, "%zu cycles, %llu non-cycles", k, (unsigned long long)non_cycles);
}

/* ---- tests 2-6 over one stream of n-card shuffles ---- */

#define MAX_MATRIX_N 312u /* above this the position matrix has too few counts per cell */
static uint64_t pos_counts[MAX_MATRIX_N * MAX_MATRIX_N];
static uint64_t next_counts[52 * 52];
static uint64_t indep_counts[52 * 52];

static int compare_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a;
    const uint64_t y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Pearson over an expected-uniform table, and the worst cell in sigmas. */
static double table_chisq(const uint64_t *counts, size_t cells, double expected, double *worst_sigma)
{
    double stat = 0.0;
    *worst_sigma = 0.0;
    for (size_t i = 0; i < cells; i++) {
        const double d = (double)counts[i] - expected;
        stat += d * d / expected;
        const double z = fabs(d) / sqrt(expected);
        *worst_sigma = z > *worst_sigma ? z : *worst_sigma;
    }
    return stat;
}

static void test_stream(const subject *s, size_t n, uint64_t shuffles)
{
    static uint64_t *hashes;
    static uint16_t a[MAX_N];
    static uint16_t where[MAX_N];
    static uint16_t where_before[MAX_N];
    const bool deck = n == 52u;
    const bool matrix = n <= MAX_MATRIX_N;
    if (matrix) {
        memset(pos_counts, 0, n * n * sizeof *pos_counts);
    }
    memset(next_counts, 0, sizeof next_counts);
    memset(indep_counts, 0, sizeof indep_counts);
    if (deck) {
        hashes = realloc(hashes, shuffles * sizeof *hashes); /* host test tool: the heap is fine here */
        if (hashes == NULL) {
            exit(2);
        }
    }
    double rank_sum = 0.0;
    for (uint64_t t = 0; t < shuffles; t++) {
        identity(a, n);
        s->shuffle(a, n);
        uint64_t spearman = 0;
        for (size_t p = 0; p < n; p++) {
            if (matrix) {
                pos_counts[(size_t)a[p] * n + p]++;
            }
            where[a[p]] = (uint16_t)p;
            spearman += (uint64_t)a[p] * p;
        }
        rank_sum += (double)spearman;
        if (deck) {
            uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a over the order */
            for (size_t p = 0; p + 1u < n; p++) {
                next_counts[(size_t)a[p] * 52u + a[p + 1u]]++;
            }
            for (size_t p = 0; p < n; p++) {
                h = (h ^ a[p]) * 0x100000001b3ull;
            }
            hashes[t] = h;
            if (t > 0u) {
                for (size_t c = 0; c < n; c++) {
                    indep_counts[(size_t)where_before[c] * 52u + where[c]]++;
                }
            }
            memcpy(where_before, where, sizeof where);
        }
    }
    char name[48];
    double worst;
    double stat;
    result *r;
    if (matrix) {
        (void)snprintf(name, sizeof name, "positions n=%zu", n);
        stat = table_chisq(pos_counts, n * n, (double)shuffles / (double)n, &worst);
        const double df = ((double)n - 1.0) * ((double)n - 1.0);
        r = add_result(s, name, stat, df, test_chisq_pvalue(stat, df));
        (void)snprintf(r->note, sizeof r->note, "worst cell %.2f sigma", worst);
    }
    /* rank correlation of start index and final position: S = sum c * pos(c)
     * has mean n ((n-1)/2)^2 and variance (n (n^2-1) / 12)^2 / (n-1) for a
     * uniform order; a bias toward small indices (modulo reduction) moves it */
    const double nn = (double)n;
    const double mean_s = nn * (nn - 1.0) * (nn - 1.0) / 4.0;
    const double sd_s = nn * (nn * nn - 1.0) / 12.0 / sqrt(nn - 1.0);
    const double z = (rank_sum / (double)shuffles - mean_s) / (sd_s / sqrt((double)shuffles));
    (void)snprintf(name, sizeof name, "rank correlation n=%zu", n);
    r = add_result(s, name, z, 0.0, erfc(fabs(z) / sqrt(2.0)));
    (void)snprintf(r->note, sizeof r->note, "z = %.2f (Spearman rho x sqrt(M))", z);
    if (!deck) {
        return;
    }
    /* neighbours: each ordered pair (a, b), a != b, is adjacent with
     * expectation shuffles * 51 / (52 * 51) = shuffles / 52 */
    static uint64_t pairs[52 * 51];
    size_t k = 0;
    for (size_t x = 0; x < 52u; x++) {
        for (size_t y = 0; y < 52u; y++) {
            if (x != y) {
                pairs[k++] = next_counts[x * 52u + y];
            }
        }
    }
    stat = table_chisq(pairs, k, (double)shuffles / 52.0, &worst);
    r = add_result(s, "neighbours n=52", stat, (double)k - 1.0, test_chisq_pvalue(stat, (double)k - 1.0));
    (void)snprintf(r->note, sizeof r->note, "worst pair %.2f sigma", worst);
    stat = table_chisq(indep_counts, 52u * 52u, (double)(shuffles - 1u) * 52.0 / (52.0 * 52.0), &worst);
    r = add_result(s, "successive shuffles n=52", stat, 51.0 * 51.0, test_chisq_pvalue(stat, 51.0 * 51.0));
    (void)snprintf(r->note, sizeof r->note, "worst cell %.2f sigma", worst);
    /* repeated decks: a fair shuffle repeats with probability ~ M^2 / 2^226
     * (the 64-bit hash adds M^2 / 2^65); Poisson tail P(X >= repeats) */
    qsort(hashes, shuffles, sizeof *hashes, compare_u64);
    uint64_t repeats = 0;
    for (uint64_t t = 1; t < shuffles; t++) {
        repeats += hashes[t] == hashes[t - 1u];
    }
    const double lambda = (double)shuffles * (double)shuffles / 2.0 * (ldexp(1.0, -65) + ldexp(1.0, -225));
    const double p = repeats == 0u ? 1.0 : test_gamma_p((double)repeats, lambda);
    r = add_result(s, "repeated decks n=52", (double)repeats, 0.0, p);
    (void)snprintf(r->note, sizeof r->note, "%llu repeats in %llu decks", (unsigned long long)repeats,
                   (unsigned long long)shuffles);
}

/* ---- exact distribution of the naive shuffle: all n^n paths ---- */

/* The order of rank r, and its name as letters ("ACB"), as the articles print it. */
static void order_label(uint32_t r, size_t n, uint8_t order[8], char text[16])
{
    test_perm_unrank(r, order, n);
    for (size_t i = 0; i < n; i++) {
        text[i] = (char)('A' + order[i]);
    }
    text[n] = '\0';
}

static void naive_exact(size_t n, uint64_t *ways)
{
    const uint32_t cells = test_factorial((unsigned)n);
    memset(ways, 0, cells * sizeof *ways);
    uint32_t paths = 1;
    for (size_t i = 0; i < n; i++) {
        paths *= (uint32_t)n;
    }
    for (uint32_t path = 0; path < paths; path++) {
        uint8_t a[8];
        for (size_t i = 0; i < n; i++) {
            a[i] = (uint8_t)i;
        }
        uint32_t rest = path;
        for (size_t i = 0; i < n; i++) {
            const size_t j = rest % n;
            rest /= (uint32_t)n;
            const uint8_t t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        ways[test_perm_rank(a, n)]++;
    }
}

/* The naive control's measured orders against the exact law: must fit. */
static void test_naive_matches_exact(const subject *naive_subject, size_t n, uint64_t shuffles, FILE *report)
{
    static uint64_t ways[24];
    naive_exact(n, ways);
    uint64_t non_cycles;
    count_orders(naive_subject, n, shuffles, order_counts, &non_cycles);
    const uint32_t cells = test_factorial((unsigned)n);
    const double paths = pow((double)n, (double)n);
    double stat = 0.0;
    fprintf(report, "\nNaive shuffle, n = %zu: %.0f paths onto %u orders, %llu shuffles\n\n", n, paths, cells,
            (unsigned long long)shuffles);
    fprintf(report, "| order | exact ways | exact P | measured | expected | deviation %% |\n|---|---|---|---|---|---|\n");
    for (uint32_t r = 0; r < cells; r++) {
        const double expected = (double)shuffles * (double)ways[r] / paths;
        const double d = (double)order_counts[r] - expected;
        stat += d * d / expected;
        uint8_t order[8];
        char text[16];
        order_label(r, n, order, text);
        fprintf(report, "| %s | %llu | %llu/%.0f | %llu | %.0f | %+.3f |\n", text, (unsigned long long)ways[r],
                (unsigned long long)ways[r], paths, (unsigned long long)order_counts[r], expected, 100.0 * d / expected);
    }
    char name[48];
    (void)snprintf(name, sizeof name, "naive fits exact law n=%zu", n);
    static const subject exact_fit = {"naive vs its exact law", NULL, false, false};
    result *res = add_result(&exact_fit, name, stat, cells - 1.0, test_chisq_pvalue(stat, cells - 1.0));
    (void)snprintf(res->note, sizeof res->note, "goodness of fit to the enumerated law");
}

/* ---- the articles' experiment ---- */

static void articles_table(size_t n, uint64_t shuffles, const char *out_dir, FILE *report)
{
    static const size_t picks[] = {0, 1, 3, 4}; /* durstenfeld, sattolo, inside-out, naive */
    static uint64_t ways[24];
    naive_exact(n, ways);
    const uint32_t cells = test_factorial((unsigned)n);
    static uint64_t counts[4][24];
    for (size_t k = 0; k < 4u; k++) {
        uint64_t non_cycles;
        reseed_source(subjects[picks[k]].name);
        count_orders(&subjects[picks[k]], n, shuffles, counts[k], &non_cycles);
    }
    fprintf(report, "\n%zu cards, %llu shuffles: count per order, deviation from ideal in %%\n\n", n,
            (unsigned long long)shuffles);
    fprintf(report, "| order | ideal | durstenfeld | sattolo (ideal %llu on cycles) | inside-out | naive | naive exact |\n",
            (unsigned long long)(shuffles / test_factorial((unsigned)n - 1u)));
    fprintf(report, "|---|---|---|---|---|---|---|\n");
    double mean_dev[4] = {0};
    FILE *dat = NULL;
    if (out_dir != NULL) {
        char path[512];
        (void)snprintf(path, sizeof path, "%s/articles_n%zu_%llu.dat", out_dir, n, (unsigned long long)shuffles);
        dat = fopen(path, "w");
    }
    const double ideal = (double)shuffles / cells;
    const double ideal_cycle = (double)shuffles / test_factorial((unsigned)n - 1u);
    for (uint32_t r = 0; r < cells; r++) {
        uint8_t order[8];
        char text[16];
        order_label(r, n, order, text);
        const bool cycle = test_perm_is_single_cycle(order, n);
        fprintf(report, "| %s | %.0f |", text, ideal);
        for (size_t k = 0; k < 4u; k++) {
            const double want = k == 1u ? (cycle ? ideal_cycle : 0.0) : ideal;
            const double dev = want > 0.0 ? 100.0 * ((double)counts[k][r] - want) / want : 0.0;
            if (want > 0.0) {
                mean_dev[k] += fabs(dev);
            }
            fprintf(report, " %llu (%+.3f%%) |", (unsigned long long)counts[k][r], dev);
        }
        const double exact = (double)shuffles * (double)ways[r] / pow((double)n, (double)n);
        fprintf(report, " %.0f (%+.3f%%) |\n", exact, 100.0 * (exact - ideal) / ideal);
        if (dat != NULL) {
            fprintf(dat, "%s %.0f %llu %llu %llu %llu %.1f\n", text, ideal, (unsigned long long)counts[0][r],
                    (unsigned long long)counts[1][r], (unsigned long long)counts[2][r],
                    (unsigned long long)counts[3][r], exact);
        }
    }
    const double cycles = test_factorial((unsigned)n - 1u);
    fprintf(report, "| mean abs. deviation | | %.3f%% | %.3f%% | %.3f%% | %.3f%% | |\n", mean_dev[0] / cells,
            mean_dev[1] / cycles, mean_dev[2] / cells, mean_dev[3] / cells);
    if (dat != NULL) {
        fclose(dat);
    }
}

/* ---- Holm-Bonferroni over the fair family ---- */

static int compare_p(const void *a, const void *b)
{
    const double x = (*(const result *const *)a)->p;
    const double y = (*(const result *const *)b)->p;
    return (x > y) - (x < y);
}

/* True if no fair hypothesis is rejected at family-wise alpha. */
static bool holm_passes(double alpha, size_t *family)
{
    static result *fair_results[256];
    size_t m = 0;
    for (size_t i = 0; i < result_count; i++) {
        if (!results[i].who->control) {
            fair_results[m++] = &results[i];
        }
    }
    qsort(fair_results, m, sizeof fair_results[0], compare_p);
    *family = m;
    /* Holm steps down from the smallest p: H(i) is rejected while
     * p(i) < alpha / (m - i). Nothing is rejected iff the first step keeps. */
    return m == 0u || fair_results[0]->p >= alpha / (double)m;
}

static void parse_seed(const char *hex)
{
    if (fd_hex_decode(hex, strlen(hex), seed_bytes, sizeof seed_bytes, &seed_len) != FD_OK || seed_len == 0u) {
        fprintf(stderr, "fairness: --seed wants 1 to 64 bytes of hex\n");
        exit(2);
    }
}

int main(int argc, char **argv)
{
    bool full = false;
    const char *out_dir = NULL;
    const char *seed_hex = "fa1dea15eed0";
    unsigned long scale_down = 1; /* the sanitizer build divides the sizes (it is 5x slower) */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--full") == 0) {
            full = true;
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed_hex = argv[++i];
        } else if (strcmp(argv[i], "--scale-down") == 0 && i + 1 < argc) {
            scale_down = strtoul(argv[++i], NULL, 10);
            if (scale_down == 0u) {
                scale_down = 1u;
            }
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out_dir = argv[++i];
        } else {
            fprintf(stderr, "usage: fairness [--full] [--seed HEX] [--out DIR] [--scale-down K]\n");
            return 2;
        }
    }
    parse_seed(seed_hex);
    FILE *report = stdout;
    char path[512];
    if (out_dir != NULL) {
        (void)snprintf(path, sizeof path, "%s/report.md", out_dir);
        report = fopen(path, "w");
        if (report == NULL) {
            perror(path);
            return 2;
        }
    }
    const uint64_t orders_small = (full ? 10000000u : 300000u) / scale_down; /* n = 3..7 */
    const uint64_t orders_8 = (full ? 100000000u : 1000000u) / scale_down;
    const uint64_t deck_shuffles = (full ? 10000000u : 100000u) / scale_down;
    const uint64_t shoe_shuffles = (full ? 2000000u : 200000u) / scale_down;
    const uint64_t max_shuffles = (full ? 10000000u : 1000000u) / scale_down; /* n = 512: bias grows with n */
    fprintf(report, "## Sizes and seed\n\nmode %s, seed `%s`; orders: %llu shuffles for n = 3..7, %llu for n = 8; "
                    "52 cards: %llu; 312-card shoe: %llu; 512 (the largest n): %llu. Family-wise alpha %.0e (Holm-Bonferroni over the fair "
                    "tests); controls must reach p < %.0e.\n",
            full ? "full" : "quick", seed_hex, (unsigned long long)orders_small, (unsigned long long)orders_8,
            (unsigned long long)deck_shuffles, (unsigned long long)shoe_shuffles, (unsigned long long)max_shuffles,
            FAMILY_ALPHA, CONTROL_P);

    for (size_t s = 0; s < SUBJECTS; s++) {
        const subject *sub = &subjects[s];
        reseed_source(sub->name);
        for (size_t n = 3; n <= 8u; n++) {
            test_orders(sub, n, n == 8u ? orders_8 : orders_small);
        }
        if (!sub->cycles_only) {
            test_stream(sub, 52, deck_shuffles);
            test_stream(sub, 312, shoe_shuffles);
            /* n = 512 watches modulo bias growing with n; the verifiable
             * round's exact draws have none, and 10^6 of its 512-card
             * rounds (17 HMAC blocks each) would double the quick run */
            if (sub->shuffle != verifiable_round) {
                test_stream(sub, FD_SHUFFLE_MAX_N, max_shuffles);
            }
        }
        fprintf(stderr, "fairness: %s done\n", sub->name);
    }
    fprintf(report, "\n## Exact law of the naive shuffle\n");
    reseed_source("naive exact");
    test_naive_matches_exact(&subjects[4], 3, orders_small, report);
    test_naive_matches_exact(&subjects[4], 4, orders_small, report);

    size_t family = 0;
    const bool fair_ok = holm_passes(FAMILY_ALPHA, &family);
    bool controls_ok = true;
    fprintf(report, "\n## Results\n\n| subject | test | statistic | df | p-value | verdict | note |\n"
                    "|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < result_count; i++) {
        const result *r = &results[i];
        const char *verdict = r->who->control ? (r->p < CONTROL_P ? "rejected" : "not rejected by this test")
                                              : (r->p < FAMILY_ALPHA / (double)family ? "FAIL" : "pass");
        fprintf(report, "| %s | %s | %.1f | %.0f | %.3g | %s | %s |\n", r->who->name, r->test, r->stat, r->df, r->p,
                verdict, r->note);
    }
    fprintf(report, "\n## Verdicts\n\n");
    for (size_t s = 0; s < SUBJECTS; s++) {
        double min_p = 1.0;
        const char *by = "";
        for (size_t i = 0; i < result_count; i++) {
            if (results[i].who == &subjects[s] && results[i].p <= min_p) {
                min_p = results[i].p;
                by = results[i].test;
            }
        }
        if (subjects[s].control) {
            const bool rejected = min_p < CONTROL_P;
            controls_ok = controls_ok && rejected;
            fprintf(report, "- %s: %s (smallest p = %.3g, %s)\n", subjects[s].name,
                    rejected ? "REJECTED, as it must be" : "NOT REJECTED: the harness failed to convict it", min_p, by);
        } else {
            fprintf(report, "- %s: smallest p = %.3g (%s)\n", subjects[s].name, min_p, by);
        }
    }
    fprintf(report, "- fair family: %zu tests, Holm-Bonferroni at %.0e: %s\n", family, FAMILY_ALPHA,
            fair_ok ? "every fair shuffle passes" : "A FAIR TEST FAILED");
    if (full) {
        fprintf(report, "\n## The articles' experiment\n");
        articles_table(3, 600000u, out_dir, report);
        articles_table(3, 2400000u, out_dir, report);
        articles_table(4, 2400000u, out_dir, report);
    }
    if (report != stdout) {
        fclose(report);
    }
    fprintf(stderr, "fairness: fair %s, controls %s\n", fair_ok ? "pass" : "FAIL", controls_ok ? "rejected" : "NOT rejected");
    return fair_ok && controls_ok ? 0 : 1;
}
