/* Host benchmark: time per 52-card shuffle and per 312-card shoe, fairdeal
 * against baselines compiled into the same program and run side by side,
 * alternating, several rounds; medians and ratios to std::shuffle. Timings
 * are wall-clock (CLOCK_MONOTONIC) and noisy: read the ratios. Not a test.
 * usage: bench_host [rounds] [shuffles_per_round] */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fairdeal/bounded.h"
#include "fairdeal/drbg.h"
#include "fairdeal/shuffle.h"

void baseline_std_shuffle(uint8_t *cards, unsigned n);
void baseline_std_shuffle_u16(uint16_t *cards, unsigned n);

static volatile uint32_t sink;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* A fixed, known seed: the benchmark measures speed, not entropy. */
static fd_status bench_entropy(void *ctx, uint8_t out[32])
{
    uint32_t *counter = ctx;
    for (int i = 0; i < 32; i++) {
        out[i] = (uint8_t)(*counter * 31u + (uint32_t)i);
    }
    (*counter)++;
    return FD_OK;
}

static fd_drbg chacha;
static fd_drbg hmac;

static void open_drbg(fd_drbg *d, fd_drbg_kind kind)
{
    static uint32_t counter;
    const fd_drbg_config cfg = {kind, false, 1ull << 48, 0};
    if (fd_drbg_instantiate(d, &cfg, bench_entropy, &counter, NULL, 0) != FD_OK) {
        fprintf(stderr, "DRBG instantiate failed\n");
        exit(1);
    }
}

typedef void (*shuffle_fn)(uint16_t *cards, unsigned n);

static void fd_chacha(uint16_t *c, unsigned n)
{
    const fd_rng rng = fd_drbg_rng(&chacha);
    (void)fd_shuffle_u16(c, n, &rng);
}

static void fd_hmac(uint16_t *c, unsigned n)
{
    const fd_rng rng = fd_drbg_rng(&hmac);
    (void)fd_shuffle_u16(c, n, &rng);
}

/* fairdeal's single-index path: one 32-bit word and one Lemire step per
 * index, as before batching. */
static void fd_chacha_per_index(uint16_t *c, unsigned n)
{
    const fd_rng rng = fd_drbg_rng(&chacha);
    for (unsigned i = n - 1u; i > 0u; i--) {
        uint32_t j;
        (void)fd_uniform_u32(&rng, i + 1u, &j);
        const uint16_t t = c[i];
        c[i] = c[j];
        c[j] = t;
    }
}

static void std_mt19937(uint16_t *c, unsigned n) { baseline_std_shuffle_u16(c, n); }

/* Biased, for scale only. */
static void naive_rand_mod(uint16_t *c, unsigned n)
{
    for (unsigned i = n - 1u; i > 0u; i--) {
        const unsigned j = (unsigned)rand() % (i + 1u);
        const uint16_t t = c[i];
        c[i] = c[j];
        c[j] = t;
    }
}

static const struct {
    const char *name;
    shuffle_fn fn;
} contenders[] = {
    {"std::shuffle + std::mt19937 (baseline)", std_mt19937},
    {"fairdeal, ChaCha20 DRBG (batched)", fd_chacha},
    {"fairdeal, HMAC_DRBG-SHA256 (batched)", fd_hmac},
    {"fairdeal, ChaCha20, per-index Lemire", fd_chacha_per_index},
    {"naive rand() % n (biased, for scale)", naive_rand_mod},
};
#define CONTENDERS (sizeof contenders / sizeof contenders[0])

static int compare_double(const void *a, const void *b)
{
    const double x = *(const double *)a;
    const double y = *(const double *)b;
    return (x > y) - (x < y);
}

static void run(unsigned n, unsigned rounds, unsigned shuffles)
{
    static double samples[CONTENDERS][64];
    uint16_t cards[512];
    for (unsigned i = 0; i < n; i++) {
        cards[i] = (uint16_t)i;
    }
    for (unsigned r = 0; r < rounds; r++) {
        for (size_t c = 0; c < CONTENDERS; c++) { /* alternate: noise hits all alike */
            const double t0 = now_ns();
            for (unsigned s = 0; s < shuffles; s++) {
                contenders[c].fn(cards, n);
            }
            samples[c][r] = (now_ns() - t0) / shuffles;
            sink += cards[0];
        }
    }
    double median[CONTENDERS];
    for (size_t c = 0; c < CONTENDERS; c++) {
        qsort(samples[c], rounds, sizeof(double), compare_double);
        median[c] = samples[c][rounds / 2u];
    }
    printf("\n| %u cards: contender | median ns/shuffle | min | max | speed vs std::shuffle |\n", n);
    printf("|---|---:|---:|---:|---:|\n");
    for (size_t c = 0; c < CONTENDERS; c++) {
        printf("| %s | %.0f | %.0f | %.0f | %.2fx |\n", contenders[c].name, median[c], samples[c][0],
               samples[c][rounds - 1u], median[0] / median[c]);
    }
}

int main(int argc, char **argv)
{
    const unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 9u;
    const unsigned shuffles = argc > 2 ? (unsigned)atoi(argv[2]) : 200000u;
    if (rounds < 1u || rounds > 64u || shuffles < 1u) {
        fprintf(stderr, "usage: bench_host [rounds 1-64] [shuffles_per_round]\n");
        return 2;
    }
    open_drbg(&chacha, FD_DRBG_CHACHA20);
    open_drbg(&hmac, FD_DRBG_HMAC_SHA256);
    srand(1);
    printf("rounds=%u shuffles_per_round=%u (52 cards), %u (312 cards)\n", rounds, shuffles, shuffles / 6u);
    run(52, rounds, shuffles);
    run(312, rounds, shuffles / 6u);
    return 0;
}
