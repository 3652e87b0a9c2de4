/* Host benchmark: time per 52-card shuffle and per 312-card shoe, fairdeal
 * against baselines compiled into the same program and run side by side,
 * alternating, several rounds; medians and ratios to std::shuffle; then ns
 * per element at 52, 312, 432 and 512 cards, and ChaCha20 per byte (each
 * refill form, the DRBG's output, the single-block function) in ns and in
 * time-stamp-counter ticks. Timings are wall-clock (CLOCK_MONOTONIC) and
 * noisy: read the ratios. Not a test.
 * usage: bench_host [rounds] [shuffles_per_round] */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chacha20_simd.h"
#include "fairdeal/bounded.h"
#include "fairdeal/chacha20.h"
#include "fairdeal/drbg.h"
#include "fairdeal/shuffle.h"

#if defined(__x86_64__)
#include <x86intrin.h>
/* The time-stamp counter: a constant-rate reference clock on current x86
 * CPUs, not core cycles (this VM exposes no cycle counter to perf). */
static uint64_t ticks(void) { return __rdtsc(); }
#define HAVE_TICKS 1
#else
static uint64_t ticks(void) { return 0; }
#define HAVE_TICKS 0
#endif

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
    /* benchmark: fixed valid inputs; the unit tests check the statuses */
    (void)fd_shuffle_u16(c, n, &rng);
}

static void fd_hmac(uint16_t *c, unsigned n)
{
    const fd_rng rng = fd_drbg_rng(&hmac);
    /* benchmark: fixed valid inputs; the unit tests check the statuses */
    (void)fd_shuffle_u16(c, n, &rng);
}

/* fairdeal's single-index path: one 32-bit word and one Lemire step per
 * index, as before batching. */
static void fd_chacha_per_index(uint16_t *c, unsigned n)
{
    const fd_rng rng = fd_drbg_rng(&chacha);
    for (unsigned i = n - 1u; i > 0u; i--) {
        uint32_t j;
        /* benchmark: fixed valid inputs; the unit tests check the statuses */
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
    /* The fastest rounds are the ones the other load on a shared machine
     * hit least: their ratio is the steadier one there. */
    printf(
        "\n| %u cards: contender | median ns/shuffle | min | max | speed vs std::shuffle | speed, fastest rounds |\n",
        n);
    printf("|---|---:|---:|---:|---:|---:|\n");
    for (size_t c = 0; c < CONTENDERS; c++) {
        printf("| %s | %.0f | %.0f | %.0f | %.2fx | %.2fx |\n", contenders[c].name, median[c], samples[c][0],
               samples[c][rounds - 1u], median[0] / median[c], samples[0][0] / samples[c][0]);
    }
}

/* ns per element for std::shuffle and the ChaCha20 shuffle at the shoe
 * sizes, alternating as in run(). */
static void run_per_element(unsigned rounds, unsigned shuffles)
{
    static const unsigned sizes[] = {52, 312, 432, 512};
    printf("\n### Per card at the shoe sizes (medians, same alternation)\n");
    printf(
        "\n| cards | std::shuffle ns/card | fairdeal ChaCha20 ns/card | speed vs std::shuffle | speed, fastest rounds "
        "|\n");
    printf("|---:|---:|---:|---:|---:|\n");
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        const unsigned n = sizes[z];
        const unsigned reps = shuffles * 52u / n;
        uint16_t cards[512];
        for (unsigned i = 0; i < n; i++) {
            cards[i] = (uint16_t)i;
        }
        double samples[2][64];
        for (unsigned r = 0; r < rounds; r++) {
            for (int c = 0; c < 2; c++) {
                const double t0 = now_ns();
                for (unsigned s = 0; s < reps; s++) {
                    (c == 0 ? std_mt19937 : fd_chacha)(cards, n);
                }
                samples[c][r] = (now_ns() - t0) / reps / n;
                sink += cards[0];
            }
        }
        qsort(samples[0], rounds, sizeof(double), compare_double);
        qsort(samples[1], rounds, sizeof(double), compare_double);
        const double std_ns = samples[0][rounds / 2u];
        const double fd_ns = samples[1][rounds / 2u];
        printf("| %u | %.2f | %.2f | %.2fx | %.2fx |\n", n, std_ns, fd_ns, std_ns / fd_ns,
               samples[0][0] / samples[1][0]);
    }
}

typedef void (*blocks4_fn)(const uint32_t in[16], uint32_t out[64]);

/* ChaCha20 cost per byte: median ns and ticks over rounds of `bytes`. */
static void per_byte(const char *name, int form, blocks4_fn fn, unsigned rounds, size_t bytes)
{
    static uint32_t in[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u, 1, 2, 3, 4, 5, 6, 7, 8};
    static uint32_t out[64];
    static uint8_t buf[1024];
    double ns[64];
    double tk[64];
    for (unsigned r = 0; r < rounds; r++) {
        const double t0 = now_ns();
        const uint64_t k0 = ticks();
        size_t done = 0;
        while (done < bytes) {
            if (form == 0) {
                fn(in, out);
                in[4] ^= out[5]; /* a dependency, so no call is skipped */
                done += sizeof out;
            } else if (form == 1) {
                /* benchmark: fixed valid inputs; the unit tests check the statuses */
                (void)fd_drbg_generate(&chacha, buf, sizeof buf);
                done += sizeof buf;
            } else {
                fd_chacha20_block(buf, (uint32_t)done, buf + 32, buf);
                done += 64u;
            }
        }
        tk[r] = (double)(ticks() - k0) / (double)done;
        ns[r] = (now_ns() - t0) / (double)done;
    }
    sink += out[0] + buf[0];
    qsort(ns, rounds, sizeof(double), compare_double);
    qsort(tk, rounds, sizeof(double), compare_double);
    if (HAVE_TICKS) {
        printf("| %s | %.2f | %.2f |\n", name, ns[rounds / 2u], tk[rounds / 2u]);
    } else {
        printf("| %s | %.2f | n/a |\n", name, ns[rounds / 2u]);
    }
}

static void run_chacha(unsigned rounds)
{
    const size_t bytes = 1u << 20;
    printf("\n### ChaCha20 per byte (medians of %u runs over 1 MiB)\n\n", rounds);
    printf("TSC ticks are the x86 time-stamp counter, a constant-rate reference\n"
           "clock, not core cycles: this VM gives perf no cycle counter.\n");
    printf("\n| ChaCha20 | ns/byte | TSC ticks/byte |\n");
    printf("|---|---:|---:|\n");
    per_byte("four-block refill, portable C (reference)", 0, fd_chacha20_blocks4_ref, rounds, bytes);
#if FD_CHACHA20_X86
    per_byte("four-block refill, SSE2", 0, fd_chacha20_blocks4_sse2, rounds, bytes);
    if (__builtin_cpu_supports("avx2")) {
        per_byte("four-block refill, AVX2", 0, fd_chacha20_blocks4_avx2, rounds, bytes);
    }
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) {
        per_byte("four-block refill, AVX-512", 0, fd_chacha20_blocks4_avx512, rounds, bytes);
    }
#endif
    per_byte("DRBG output, 1 KiB requests (refill form chosen at run time)", 1, NULL, rounds, bytes);
    per_byte("fd_chacha20_block (one block, portable C, bytes in and out)", 2, NULL, rounds, bytes);
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
    run_per_element(rounds, shuffles / 4u);
    run_chacha(rounds);
    return 0;
}
