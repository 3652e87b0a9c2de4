/* The fairness harness: accepts fairdeal's shuffles and convicts unfair ones,
 * with the same code for both.
 *
 * Subjects: Durstenfeld, Sattolo, partial (k = n) and inside-out (copy), all
 * drawing from the ChaCha20 DRBG, the verifiable round's mapping
 * (docs/VERIFY.md, S from the DRBG) and the combined source, the dealer's
 * default (a round per shuffle, at reduced sizes: each round runs a fresh
 * TRNG window through the health tests). Controls, each standing for a product bug:
 * the naive shuffle (j uniform in [0, n-1] at every step), Durstenfeld with
 * Sattolo's bound (j in [0, i-1]), Durstenfeld with j = r % (i+1) from a
 * 16-bit word, Durstenfeld driven by a 16-bit LCG, a DRBG instantiated from
 * 32 bits before every shuffle, and the production seeding path (the real
 * fd_entropy + fd_drbg, instantiated as the dealer does) fed by a TRNG whose
 * output is fixed by 16 bits of power-on state, 5 shuffles per boot.
 * Tests: all orders for n = 3..8 (Sattolo: only the (n-1)! cycles), the
 * card-by-position matrix for 52 cards and a 312-card shoe, the rank
 * correlation of start and end positions (also at n = 512), neighbours (a
 * directly before b), successive-shuffle independence (position in shuffle t
 * against t+1) and repeated decks among all 52-card shuffles (whole orders
 * compared through a 128-bit hash). Fair subjects must pass every test under
 * Holm-Bonferroni at family-wise alpha 0.001; every control must be rejected
 * with p < 1e-6.
 *
 * Null laws: a shuffle adds a whole permutation matrix to the position table
 * (and to the successive-shuffle table), so Pearson's X^2 there is
 * (n/(n-1)) chi2((n-1)^2), not chi2((n-1)^2): the statistic reported is
 * X^2 (n-1)/n against (n-1)^2 degrees of freedom (docs/FAIRNESS.md derives
 * it). The neighbours table has E[X^2] = (n-1)^2 too. --calibrate runs every
 * fair test hundreds of times at small sizes and checks the p-values are
 * uniform (Kolmogorov-Smirnov), so a wrong null cannot come back unnoticed.
 *
 * Speed: each test's shuffles are split into SHARDS independent streams (own
 * DRBG, own counts) taken in turn by up to --threads threads (default 2)
 * and merged; the DRBG is read through a 4 KiB buffer (the ChaCha20
 * DRBG's output bytes do not depend on how requests are cut, so the fair
 * subjects see the same stream).
 *
 * usage: fairness [--full] [--seed HEX] [--out DIR] [--scale-down K]
 *                 [--threads T] [--calibrate] [--power] [--bytes COUNT]
 *                 [--only TEXT]
 *   default: the quick sizes (the default test run); --full: 10^8 shuffles
 *   for n = 8, 10^7 for 52 cards, the articles' tables and the power table;
 *   --out writes report.md and gnuplot data into DIR; --calibrate: the null
 *   calibration only; --power: the power table only; --bytes: COUNT bytes
 *   of the combined subject's XOR stream on stdout (0: endless), for the
 *   external batteries (tests/stats/batteries.sh); --only: just the tests
 *   whose "subject/test" contains TEXT ("durstenfeld/stream n=52", "/orders"),
 *   for profiling one test (no articles, heat map or power table);
 *   subjects left out get no verdict. Exit 0 only if every
 *   fair subject passes and every control is rejected (calibration: every
 *   fair test's p-values uniform). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chisq.h"
#include "fairdeal/bounded.h"
#include "fairdeal/combined.h"
#include "fairdeal/drbg.h"
#include "fairdeal/entropy.h"
#include "fairdeal/round.h"
#include "fairdeal/sha256.h"
#include "fairdeal/shuffle.h"
#include "fairdeal/util.h"
#include "fake_trng.h"
#include "perm.h"

#define MAX_N 512u /* FD_SHUFFLE_MAX_N */
#define FAMILY_ALPHA 1e-3
#define CONTROL_P 1e-6
/* streams per test: fixed, so results do not depend on the thread count;
 * more than the threads, so a thread held back does not hold its test */
#define SHARDS 8u
#define MAX_MATRIX_N 312u /* above this the position matrix has too few counts per cell */
#define BOOT_BITS 16u     /* power-on state of the weak TRNG */
#define SHUFFLES_PER_BOOT 5u

static unsigned thread_count = 2;
static const char *only_tests; /* --only: run the tests whose "subject/test" contains this */

static bool wanted(const char *who, const char *test)
{
    char name[160];
    (void)snprintf(name, sizeof name, "%s/%s", who, test);
    return only_tests == NULL || strstr(name, only_tests) != NULL;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_now(void) /* CPU time of every thread of the process */
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *must_alloc(size_t count, size_t size)
{
    void *p = calloc(count, size); /* host test tool: the heap is fine here */
    if (p == NULL) {
        fprintf(stderr, "fairness: out of memory\n");
        exit(2);
    }
    return p;
}

static void must(fd_status st)
{
    if (st != FD_OK) {
        fprintf(stderr, "fairness: library call failed: %s\n", fd_status_name(st));
        exit(2);
    }
}

/* ---- the random source: a ChaCha20 DRBG per stream, seeded from
 * SHA-256(seed || block counter) with the stream's label as personalization ---- */

static uint8_t seed_bytes[64];
static size_t seed_len;

typedef struct source {
    fd_drbg drbg;
    uint64_t seed_blocks;
    uint8_t buf[4096];
    size_t pos;
    fd_rng rng;
    /* state of the stateful controls */
    fd_drbg weak;   /* DRBG from 32 bits per shuffle */
    fake_trng trng; /* production seeding with a weak TRNG */
    fd_entropy entropy;
    fd_drbg boot;
    unsigned boot_left;
    uint16_t prev[MAX_N]; /* previous order, for the reuse control */
    bool have_prev;
    /* the combined source (its own TRNG, pipeline and DRBG) */
    fake_trng combined_trng;
    fd_entropy combined_entropy;
    fd_drbg combined_drbg;
    fd_combined combined;
    bool have_combined;
} source;

static fd_status seeded_entropy(void *ctx, uint8_t out[32])
{
    source *s = ctx;
    fd_sha256_ctx h;
    fd_sha256_init(&h);
    fd_sha256_update(&h, seed_bytes, seed_len);
    fd_sha256_update(&h, &s->seed_blocks, sizeof s->seed_blocks);
    fd_sha256_final(&h, out);
    s->seed_blocks++;
    return FD_OK;
}

static fd_status buffered_fill(void *ctx, uint8_t *out, size_t len)
{
    source *s = ctx;
    if (len == 4u && s->pos + 4u <= sizeof s->buf) { /* one word (fd_uniform_u32): inline, not a libc call */
        memcpy(out, s->buf + s->pos, 4u);
        s->pos += 4u;
        return FD_OK;
    }
    while (len > 0u) {
        if (s->pos == sizeof s->buf) {
            fd_status st = fd_drbg_generate(&s->drbg, s->buf, sizeof s->buf);
            if (st != FD_OK) {
                return st;
            }
            s->pos = 0;
        }
        const size_t take = len < sizeof s->buf - s->pos ? len : sizeof s->buf - s->pos;
        memcpy(out, s->buf + s->pos, take);
        s->pos += take;
        out += take;
        len -= take;
    }
    return FD_OK;
}

static source *source_new(const char *label)
{
    source *s = must_alloc(1, sizeof *s);
    const fd_drbg_config cfg = {FD_DRBG_CHACHA20, false, 1ull << 40, 0};
    must(fd_drbg_instantiate(&s->drbg, &cfg, seeded_entropy, s, (const uint8_t *)label, strlen(label)));
    s->pos = sizeof s->buf;
    s->rng = (fd_rng){buffered_fill, s, NULL};
    return s;
}

/* The next 4 bytes of the stream, little-endian (what fd_rng_u32 gives),
 * without the call through the fill pointer. */
static uint32_t source_u32(source *s)
{
    if (s->pos + 4u > sizeof s->buf) {
        uint32_t v;
        must(fd_rng_u32(&s->rng, &v));
        return v;
    }
    const uint8_t *b = s->buf + s->pos;
    s->pos += 4u;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* ---- subjects ---- */

typedef void (*shuffle_fn)(uint16_t *a, size_t n, source *s);

static void swap16(uint16_t *a, size_t i, size_t j)
{
    const uint16_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

static void durstenfeld(uint16_t *a, size_t n, source *s) { must(fd_shuffle_u16(a, n, &s->rng)); }
static void sattolo(uint16_t *a, size_t n, source *s) { must(fd_sattolo_u16(a, n, &s->rng)); }
static void partial_all(uint16_t *a, size_t n, source *s) { must(fd_shuffle_partial_u16(a, n, n, &s->rng)); }
static void inside_out(uint16_t *a, size_t n, source *s)
{
    uint16_t src[MAX_N];
    memcpy(src, a, n * sizeof *a);
    must(fd_shuffle_copy_u16(a, src, n, &s->rng));
}
static void naive(uint16_t *a, size_t n, source *s) { must(test_naive_shuffle(a, n, sizeof *a, &s->rng)); }

/* Verifiable rounds (docs/VERIFY.md): S from the fair source, where the
 * dealer's TRNG stands, and an all-zero keystream key, as if an adversary
 * chose every client seed: the order bytes are S XOR K, fair whatever K is. */
static void verifiable_round(uint16_t *a, size_t n, source *s)
{
    static const uint8_t key[FD_ROUND_KEY_SIZE];
    uint8_t secret[FD_ROUND_SECRET_MAX];
    const size_t len = fd_round_secret_min(n);
    must(s->rng.fill(s->rng.ctx, secret, len));
    must(fd_round_shuffle_u16(a, n, key, secret, len));
}

/* Control: the off-by-one that turns Durstenfeld into Sattolo, j in [0, i-1]. */
static void sattolo_bound(uint16_t *a, size_t n, source *s)
{
    for (size_t i = n - 1u; i > 0u; i--) {
        uint32_t j;
        must(fd_uniform_u32(&s->rng, (uint32_t)i, &j));
        swap16(a, i, j);
    }
}

/* Control: modulo reduction of a k-bit word (what rand() % n does). Each
 * 32-bit word of the stream gives 32/k of them (k = 8 or 16), as 16-bit
 * rand() calls would: the same law at half (or a quarter of) the keystream;
 * the rest of the last word is dropped. */
static void modulo_bits(uint16_t *a, size_t n, source *s, unsigned bits)
{
    const uint32_t mask = (uint32_t)((1ull << bits) - 1u);
    uint32_t word = 0;
    unsigned left = 0;
    for (size_t i = n - 1u; i > 0u; i--) {
        if (left == 0u) {
            word = source_u32(s);
            left = 32u / bits;
        }
        const uint32_t r = word & mask;
        word >>= bits;
        left--;
        swap16(a, i, r % (uint32_t)(i + 1u));
    }
}

static void modulo16(uint16_t *a, size_t n, source *s) { modulo_bits(a, n, s, 16); }
static void modulo8(uint16_t *a, size_t n, source *s) { modulo_bits(a, n, s, 8); }

/* Control: a 16-bit LCG (a = 25173, c = 13849) seeded per shuffle from the
 * fair source, index by multiply-shift: at most 65,536 distinct decks. */
static void lcg16(uint16_t *a, size_t n, source *s)
{
    uint32_t x = source_u32(s) & 0xFFFFu;
    for (size_t i = n - 1u; i > 0u; i--) {
        x = (25173u * x + 13849u) & 0xFFFFu;
        swap16(a, i, (x * (uint32_t)(i + 1u)) >> 16);
    }
}

/* Control: a DRBG instantiated from 32 bits of entropy before every shuffle
 * (entropy input and nonce both from the same 32 bits). */
static fd_status entropy_from_32_bits(void *ctx, uint8_t out[32])
{
    memset(out, 0, 32);
    memcpy(out, ctx, 4u);
    return FD_OK;
}

static unsigned weak_seed_bits = 32; /* the power spot check lowers it */

static void reseed32(uint16_t *a, size_t n, source *s)
{
    const uint32_t bits = source_u32(s) & (uint32_t)((1ull << weak_seed_bits) - 1u);
    const uint8_t seed[4] = {(uint8_t)bits, (uint8_t)(bits >> 8), (uint8_t)(bits >> 16), (uint8_t)(bits >> 24)};
    const fd_drbg_config cfg = {FD_DRBG_CHACHA20, false, 1u << 20, 0};
    must(fd_drbg_instantiate(&s->weak, &cfg, entropy_from_32_bits, (void *)seed, NULL, 0));
    const fd_rng rng = fd_drbg_rng(&s->weak);
    must(fd_shuffle_u16(a, n, &rng));
}

/* Control: the production seeding path with a weak source. A TRNG whose
 * samples are a fixed function of BOOT_BITS bits of power-on state (a fake
 * TRNG seeded from them: every health test passes) feeds the real pipeline,
 * configured and instantiated as firmware/dealer.c does: fd_entropy (the
 * microbit's health cutoffs, 160 samples per block), start-up tests, a
 * ChaCha20 fd_drbg with the dealer's personalization; then per shuffle a
 * reseed from the pipeline, the 16-byte salt, the shuffle. */
static fd_status pipeline_block(void *ctx, uint8_t out[32]) { return fd_entropy_get(ctx, out); }

/* The micro:bit's pipeline as the dealer configures it: health cutoffs for
 * its claimed 2 bits of min-entropy per sample, 160 samples per block. */
static const fd_health_config dealer_health = {11, 512, 177, 1024, 10, 177};
#define DEALER_SAMPLES_PER_BLOCK 160u
static const uint8_t dealer_personalization[] = "fairdeal dealer";

static void weak_boot(uint16_t *a, size_t n, source *s)
{
    if (s->boot_left == 0u) {
        fake_trng_init(&s->trng, FAKE_TRNG_RANDOM, source_u32(s) & ((1u << BOOT_BITS) - 1u));
        must(fd_entropy_init(&s->entropy, fake_trng_read, &s->trng, &dealer_health, DEALER_SAMPLES_PER_BLOCK));
        must(fd_entropy_startup(&s->entropy));
        const fd_drbg_config cfg = {FD_DRBG_CHACHA20, false, 1u << 20, 0};
        must(fd_drbg_instantiate(&s->boot, &cfg, pipeline_block, &s->entropy, dealer_personalization,
                                 sizeof dealer_personalization - 1u));
        s->boot_left = SHUFFLES_PER_BOOT;
    }
    s->boot_left--;
    must(fd_drbg_reseed(&s->boot, NULL, 0));
    const fd_rng rng = fd_drbg_rng(&s->boot);
    uint8_t salt[16];
    must(rng.fill(rng.ctx, salt, sizeof salt));
    must(fd_shuffle_u16(a, n, &rng));
}

/* The combined source (lib/src/combined.c), the dealer's default: each
 * round begins (fresh TRNG window, no carried bits) and draws its shuffle
 * from conditioned TRNG blocks XOR a ChaCha20 DRBG stream. The raw TRNG is
 * the tests' fake (tests/common/fake_trng.c, uniform bytes from a seeded
 * PRNG): deterministic, so the report can be reproduced, and healthy at the
 * dealer's cutoffs with a margin (8 bits of min-entropy per sample against
 * the 2 claimed), so ~10^10 samples raise no false alarm; a source exactly
 * at the claim would latch a fault about once per 2^20 windows, which the
 * dealer rightly stops on, and which would end a run. The DRBG is
 * instantiated from the stream's own seed, independent of the TRNG, as the
 * construction requires. Both are seeded per stream from the harness's
 * generator, so the subject's streams are independent. */
static fd_combined *combined_of(source *s)
{
    if (!s->have_combined) {
        fake_trng_init(&s->combined_trng, FAKE_TRNG_RANDOM, (uint64_t)source_u32(s) << 32 | source_u32(s));
        must(fd_entropy_init(&s->combined_entropy, fake_trng_read, &s->combined_trng, &dealer_health,
                             DEALER_SAMPLES_PER_BLOCK));
        must(fd_entropy_startup(&s->combined_entropy));
        const fd_drbg_config cfg = {FD_DRBG_CHACHA20, false, 1u << 20, 0};
        must(fd_drbg_instantiate(&s->combined_drbg, &cfg, seeded_entropy, s, dealer_personalization,
                                 sizeof dealer_personalization - 1u));
        must(fd_combined_init(&s->combined, &s->combined_entropy, &s->combined_drbg));
        s->have_combined = true;
    }
    return &s->combined;
}

/* The combined XOR stream itself, for the external batteries: `count`
 * bytes (0: until stdout closes) from one stream of the subject's source. */
static int write_combined_bytes(uint64_t count)
{
    source *s = source_new("combined/bytes");
    const fd_rng bytes = fd_combined_bytes(combined_of(s));
    uint8_t buf[4096];
    bool endless = count == 0u;
    while (endless || count > 0u) {
        const size_t take = !endless && count < sizeof buf ? (size_t)count : sizeof buf;
        must(bytes.fill(bytes.ctx, buf, take));
        if (fwrite(buf, 1, take, stdout) != take) {
            break; /* the reader closed the pipe (dieharder stops reading when done) */
        }
        count -= endless ? 0u : take;
    }
    free(s);
    return 0;
}

static void combined(uint16_t *a, size_t n, source *s)
{
    fd_combined *c = combined_of(s);
    must(fd_combined_begin_round(c));
    const fd_rng rng = fd_combined_rng(c);
    must(fd_shuffle_u16(a, n, &rng));
}

/* Control: the previous order reused, only the last steps of Durstenfeld
 * skipped: positions 0 and 1 (the top two cards) keep the previous order's
 * leftovers (i = 1 is never done). The input order is ignored. */
static void reuse_top(uint16_t *a, size_t n, source *s)
{
    if (!s->have_prev) {
        for (size_t i = 0; i < n; i++) {
            s->prev[i] = (uint16_t)i;
        }
        s->have_prev = true;
    }
    memcpy(a, s->prev, n * sizeof *a);
    for (size_t i = n - 1u; i > 1u; i--) {
        uint32_t j;
        must(fd_uniform_u32(&s->rng, (uint32_t)i + 1u, &j));
        swap16(a, i, j);
    }
    memcpy(s->prev, a, n * sizeof *a);
}

enum {
    STREAM_52 = 1,
    STREAM_312 = 2,
    STREAM_512 = 4,
    STREAM_ALL = 7
};

typedef struct subject {
    const char *name;
    shuffle_fn shuffle;
    bool control;
    bool cycles_only;
    bool orders;        /* the all-orders tests n = 3..8 */
    unsigned streams;   /* STREAM_* sizes; 312 for controls only in the full run when full_312 */
    uint64_t decks;     /* 52-card decks, fixed (0: the run's size) */
    const char *mimics; /* the product bug a control stands for */
    /* sizes divided by these in the quick and the full run (0: not divided),
     * for a subject whose every shuffle costs far more than the others' */
    unsigned quick_divisor;
    unsigned full_divisor;
} subject;

static const subject subjects[] = {
    {"durstenfeld", durstenfeld, false, false, true, STREAM_ALL, 0, NULL, 0, 0},
    {"sattolo", sattolo, false, true, true, 0, 0, NULL, 0, 0},
    {"partial k=n", partial_all, false, false, true, STREAM_ALL, 0, NULL, 0, 0},
    {"inside-out", inside_out, false, false, true, STREAM_ALL, 0, NULL, 0, 0},
    /* n = 512 watches modulo bias growing with n; the verifiable round's
     * exact draws have none, and 10^6 of its 512-card rounds (17 HMAC
     * blocks each) would double the quick run */
    {"verifiable round", verifiable_round, false, false, true, STREAM_52 | STREAM_312, 0, NULL, 0, 0},
    {"combined (dealer default)", combined, false, false, true, STREAM_52 | STREAM_312, 0, NULL, 10, 50},
    {"naive (control)", naive, true, false, true, STREAM_ALL, 0, "j drawn from all n positions at every step", 0, 0},
    {"Sattolo bound (control)", sattolo_bound, true, false, true, STREAM_52, 0,
     "off by one in Durstenfeld: j in [0, i-1] (only cycles)", 0, 0},
    {"modulo 16-bit (control)", modulo16, true, false, true, STREAM_ALL, 0, "j = r % (i+1) with a 16-bit r", 0, 0},
    {"LCG 16-bit state (control)", lcg16, true, false, true, STREAM_ALL, 0, "a 16-bit generator state per shuffle", 0,
     0},
    {"DRBG from 32 bits per shuffle (control)", reseed32, true, false, false, STREAM_52, 300000,
     "a DRBG instantiated from 32 bits of entropy before every shuffle", 0, 0},
    {"weak TRNG at boot, production path (control)", weak_boot, true, false, false, STREAM_52, 10000,
     "fd_entropy + fd_drbg as the dealer runs them, fed by a TRNG with 16 bits of power-on state (5 shuffles per "
     "boot)",
     0, 0},
    {"top two cards reused (control)", reuse_top, true, false, false, STREAM_52, 0,
     "the previous order kept in positions 0-1 (last Durstenfeld step skipped)", 0, 0},
};
#define SUBJECTS (sizeof subjects / sizeof subjects[0])

static uint64_t subject_divisor(const subject *who, bool full)
{
    const unsigned d = full ? who->full_divisor : who->quick_divisor;
    return d > 1u ? d : 1u;
}

static const subject *subject_of(shuffle_fn fn)
{
    for (size_t i = 0; i < SUBJECTS; i++) {
        if (subjects[i].shuffle == fn) {
            return &subjects[i];
        }
    }
    fprintf(stderr, "fairness: no such subject\n");
    exit(2);
}

/* ---- results ---- */

typedef struct result {
    const subject *who;
    char test[48];
    double stat;
    double df;
    double p;
    char note[112];
} result;

static result results[512];
static size_t result_count;

static result *add_result(const subject *who, const char *test, double stat, double df, double p)
{
    if (result_count == sizeof results / sizeof results[0]) {
        fprintf(stderr, "fairness: too many results\n");
        exit(2);
    }
    result *r = &results[result_count++];
    r->who = who;
    (void)snprintf(r->test, sizeof r->test, "%s", test);
    r->stat = stat;
    r->df = df;
    r->p = p;
    r->note[0] = '\0';
    return r;
}

typedef struct timing {
    const subject *who;
    char test[48];
    uint64_t shuffles;
    double seconds;
    double cpu_seconds;
} timing;

static timing timings[256];
static size_t timing_count;

static void add_timing(const subject *who, const char *test, uint64_t shuffles, double seconds, double cpu_seconds)
{
    if (timing_count < sizeof timings / sizeof timings[0]) {
        timings[timing_count] = (timing){who, "", shuffles, seconds, cpu_seconds};
        (void)snprintf(timings[timing_count].test, sizeof timings[timing_count].test, "%s", test);
        timing_count++;
    }
}

static void identity(uint16_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        a[i] = (uint16_t)i;
    }
}

/* ---- running shards on threads ---- */

typedef void *(*shard_fn)(void *);

typedef struct shard_queue {
    shard_fn fn;
    char *args;
    size_t size;
    size_t count;
    atomic_size_t next;
} shard_queue;

static void *shard_worker(void *arg)
{
    shard_queue *q = arg;
    for (size_t i = atomic_fetch_add(&q->next, 1u); i < q->count; i = atomic_fetch_add(&q->next, 1u)) {
        (void)q->fn(q->args + i * q->size);
    }
    return NULL;
}

/* Runs fn on count argument blocks of `size` bytes on up to thread_count
 * threads, each taking the next block when it is done with one: on a
 * shared machine a thread held back delays its test by one block, not by
 * half of it. */
static void run_shards(shard_fn fn, void *args, size_t size, size_t count)
{
    shard_queue q = {fn, args, size, count, 0};
    atomic_init(&q.next, 0u);
    pthread_t threads[8];
    size_t started = 0;
    while (started + 1u < thread_count && started + 1u < count && started < 8u) {
        if (pthread_create(&threads[started], NULL, shard_worker, &q) != 0) {
            break;
        }
        started++;
    }
    (void)shard_worker(&q);
    for (size_t i = 0; i < started; i++) {
        pthread_join(threads[i], NULL);
    }
}

static void stream_label(char *out, size_t len, const char *who, const char *test, size_t shard)
{
    (void)snprintf(out, len, "%s/%s/%zu", who, test, shard);
}

/* ---- test 1: all orders ---- */

typedef struct orders_tally {
    const subject *who;
    size_t n;
    uint64_t shuffles;
    char label[128];
    uint64_t *counts; /* n! */
} orders_tally;

static void *orders_shard(void *arg)
{
    orders_tally *t = arg;
    source *s = source_new(t->label);
    /* locals: a count store could alias the tally's own fields, so these
     * would be reloaded after every increment */
    const size_t n = t->n;
    const shuffle_fn shuffle = t->who->shuffle;
    uint64_t *const counts = t->counts;
    uint16_t a[8];
    uint8_t small[8];
    for (uint64_t k = t->shuffles; k > 0u; k--) {
        identity(a, n);
        shuffle(a, n, s);
        for (size_t i = 0; i < n; i++) {
            small[i] = (uint8_t)a[i];
        }
        counts[test_perm_rank(small, n)]++; /* non-cycles are counted from the table (orders_verdict) */
    }
    free(s);
    return NULL;
}

/* Counts every order of n over `shuffles` shuffles split into SHARDS streams
 * labelled by `test`; counts must hold n! entries. */
static void count_orders(const subject *who, const char *test, size_t n, uint64_t shuffles, uint64_t *counts)
{
    orders_tally shard[SHARDS];
    const uint32_t cells = test_factorial((unsigned)n);
    for (size_t i = 0; i < SHARDS; i++) {
        shard[i] = (orders_tally){who, n, shuffles / SHARDS + (i < shuffles % SHARDS ? 1u : 0u), "", NULL};
        stream_label(shard[i].label, sizeof shard[i].label, who->name, test, i);
        shard[i].counts = must_alloc(cells, sizeof *counts);
    }
    run_shards(orders_shard, shard, sizeof shard[0], SHARDS);
    memset(counts, 0, cells * sizeof *counts);
    for (size_t i = 0; i < SHARDS; i++) {
        for (uint32_t r = 0; r < cells; r++) {
            counts[r] += shard[i].counts[r];
        }
        free(shard[i].counts);
    }
}

typedef struct verdict {
    double stat;
    double df;
    double p;
    double worst; /* worst cell in sigmas */
} verdict;

/* Pearson over an expected-uniform table, and the worst cell in sigmas. */
static double table_chisq(const uint32_t *counts, size_t cells, double expected, double *worst_sigma)
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

/* Orders: multinomial, chi2(cells - 1); Sattolo: over its (n-1)! cycles only,
 * and any non-cycle (counted from the table into *non_cycles) is a certain
 * failure. */
static verdict orders_verdict(const uint64_t *counts, size_t n, bool cycles_only, size_t *cells_used,
                              uint64_t *non_cycles)
{
    const uint32_t cells = test_factorial((unsigned)n);
    verdict v = {0};
    if (!cycles_only) {
        v.stat = test_chisq_uniform(counts, cells);
        v.df = cells - 1.0;
        v.p = test_chisq_pvalue(v.stat, v.df);
        *cells_used = cells;
        return v;
    }
    static _Thread_local uint64_t cycle_counts[5040];
    size_t k = 0;
    uint8_t order[8];
    *non_cycles = 0;
    for (uint32_t r = 0; r < cells; r++) {
        test_perm_unrank(r, order, n);
        if (test_perm_is_single_cycle(order, n)) {
            cycle_counts[k++] = counts[r];
        } else {
            *non_cycles += counts[r];
        }
    }
    v.stat = test_chisq_uniform(cycle_counts, k);
    v.df = (double)k - 1.0;
    v.p = *non_cycles > 0u ? 0.0 : test_chisq_pvalue(v.stat, v.df);
    *cells_used = k;
    return v;
}

static uint64_t order_counts[40320];

static void test_orders(const subject *s, size_t n, uint64_t shuffles)
{
    char name[48];
    (void)snprintf(name, sizeof name, "orders n=%zu", n);
    if (!wanted(s->name, name)) {
        return;
    }
    const double t0 = now();
    const double c0 = cpu_now();
    count_orders(s, name, n, shuffles, order_counts);
    add_timing(s, name, shuffles, now() - t0, cpu_now() - c0);
    size_t cells;
    uint64_t non_cycles = 0;
    const verdict v = orders_verdict(order_counts, n, s->cycles_only, &cells, &non_cycles);
    result *res = add_result(s, name, v.stat, v.df, v.p);
    if (s->cycles_only) {
        (void)snprintf(res->note, sizeof res->note, "%zu cycles, %llu non-cycles", cells,
                       (unsigned long long)non_cycles);
    }
}

/* ---- tests 2-6 over one stream of n-card shuffles ---- */

typedef struct hash128 {
    uint64_t hi;
    uint64_t lo;
} hash128;

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* 128-bit hash of a 52-card order: the order packed 6 bits per card into 5
 * words, folded by two lanes of a bijective mixer with different keys. A
 * chance collision among M fair decks has probability ~ M^2 / 2^129. */
static inline uint64_t pack6(const uint16_t *a, size_t count) /* count constant: unrolled, in a register */
{
    uint64_t x = 0;
    for (size_t q = 0; q < count; q++) {
        x |= (uint64_t)a[q] << (6u * q);
    }
    return x;
}

static hash128 order_hash(const uint16_t *a)
{
    const uint64_t words[5] = {pack6(a, 11), pack6(a + 11, 11), pack6(a + 22, 11), pack6(a + 33, 11), pack6(a + 44, 8)};
    hash128 h = {0x243F6A8885A308D3ull, 0x13198A2E03707344ull};
    for (size_t i = 0; i < 5u; i++) {
        h.hi = mix64(h.hi ^ words[i]) + 0x9E3779B97F4A7C15ull;
        h.lo = mix64((h.lo ^ words[4u - i]) * 0xD6E8FEB86659FD93ull) + 0xA0761D6478BD642Full;
    }
    return h;
}

static int compare_hash(const void *a, const void *b)
{
    const hash128 *x = a;
    const hash128 *y = b;
    if (x->hi != y->hi) {
        return x->hi < y->hi ? -1 : 1;
    }
    return (x->lo > y->lo) - (x->lo < y->lo);
}

typedef struct stream_tally {
    const subject *who;
    size_t n;
    uint64_t shuffles;
    char label[128];
    /* 32-bit cells: half the cache of 64-bit ones (the 312-card table is
     * 389 KB), and no cell can pass its stream's shuffles (< 2^32) */
    uint32_t *pos;   /* n * n, when n <= MAX_MATRIX_N */
    uint32_t *next;  /* 52 * 52 adjacent pairs (deck only) */
    uint32_t *indep; /* 52 * 52 position in t against t+1 (deck only) */
    uint64_t pairs;  /* successive pairs counted */
    uint64_t rank_sum;
    hash128 *hashes;  /* deck only */
    uint64_t repeats; /* repeated decks, merged totals only */
} stream_tally;

/* keep_hashes: room for each deck's hash (a stream's own tally; a merged
 * total keeps only the repeat count) */
static void stream_tally_init(stream_tally *t, const subject *who, size_t n, uint64_t shuffles, bool keep_hashes)
{
    if (shuffles >= UINT32_MAX) {
        fprintf(stderr, "fairness: %llu shuffles overflow a 32-bit count\n", (unsigned long long)shuffles);
        exit(2);
    }
    memset(t, 0, sizeof *t);
    t->who = who;
    t->n = n;
    t->shuffles = shuffles;
    if (n <= MAX_MATRIX_N) {
        t->pos = must_alloc(n * n, sizeof *t->pos);
    }
    if (n == 52u) {
        t->next = must_alloc(52u * 52u, sizeof *t->next);
        t->indep = must_alloc(52u * 52u, sizeof *t->indep);
        t->hashes = keep_hashes ? must_alloc(shuffles + 1u, sizeof *t->hashes) : NULL;
    }
}

static void stream_tally_free(stream_tally *t)
{
    free(t->pos);
    free(t->next);
    free(t->indep);
    free(t->hashes);
}

/* One 52-card order's deck-only tallies: neighbours, its inverse (where
 * each card went), the successive-shuffle table against the previous
 * order's inverse (k > 0) and its hash. */
static void tally_deck(stream_tally *t, const uint16_t *a, uint16_t *where, const uint16_t *where_before, uint64_t k)
{
    uint32_t *const next = t->next;
    for (size_t p = 0; p < 51u; p++) {
        next[(size_t)a[p] * 52u + a[p + 1u]]++;
        where[a[p]] = (uint16_t)p;
    }
    where[a[51]] = 51u;
    t->hashes[k] = order_hash(a);
    if (k > 0u) {
        uint32_t *const indep = t->indep;
        for (size_t c = 0; c < 52u; c++) {
            indep[(size_t)where_before[c] * 52u + where[c]]++;
        }
        t->pairs++;
    }
}

/* Runs t->shuffles shuffles from a fresh stream and tallies them. */
static void tally_stream(stream_tally *t, const subject *who, const char *label)
{
    source *s = source_new(label);
    uint16_t a[MAX_N];
    uint16_t where[2][52]; /* this order's inverse and the previous one's, alternating */
    const size_t n = t->n;
    const bool deck = n == 52u;
    uint32_t *const pos = t->pos;
    uint64_t rank_sum = 0;
    for (uint64_t k = 0; k < t->shuffles; k++) {
        identity(a, n);
        who->shuffle(a, n, s);
        uint64_t spearman = 0;
        for (size_t p = 0; p < n; p++) {
            spearman += (uint64_t)a[p] * p;
        }
        rank_sum += spearman;
        if (pos != NULL) {
            for (size_t p = 0; p < n; p++) {
                pos[(size_t)a[p] * n + p]++;
            }
        }
        if (deck) {
            tally_deck(t, a, where[k & 1u], where[(k & 1u) ^ 1u], k);
        }
    }
    t->rank_sum = rank_sum;
    free(s);
}

static bool hash_less(const hash128 *x, const hash128 *y) { return x->hi < y->hi || (x->hi == y->hi && x->lo < y->lo); }

/* Insertion sort: the buckets below hold ~16 hashes (libc's qsort
 * allocated and called through a pointer for each); a large bucket (a
 * control's few decks, many times over) still goes to qsort. */
static void sort_small(hash128 *h, uint64_t m)
{
    if (m > 64u) {
        qsort(h, m, sizeof *h, compare_hash);
        return;
    }
    for (uint64_t i = 1; i < m; i++) {
        const hash128 x = h[i];
        uint64_t j = i;
        for (; j > 0u && hash_less(&x, &h[j - 1u]); j--) {
            h[j] = h[j - 1u];
        }
        h[j] = x;
    }
}

/* Sorts m hashes: one counting pass on the top bits (the hashes are
 * uniform: ~16 per bucket), then each small bucket by insertion; faster
 * than one qsort over 10^7 hashes. */
static void sort_hashes(hash128 *h, uint64_t m)
{
    unsigned bits = 1;
    while (bits < 24u && (m >> (bits + 4u)) > 0u) {
        bits++;
    }
    const size_t buckets = (size_t)1 << bits;
    uint64_t *start = must_alloc(buckets + 1u, sizeof *start);
    hash128 *tmp = must_alloc(m + 1u, sizeof *tmp);
    for (uint64_t i = 0; i < m; i++) {
        start[(h[i].hi >> (64u - bits)) + 1u]++;
    }
    for (size_t b = 0; b < buckets; b++) {
        start[b + 1u] += start[b];
    }
    for (uint64_t i = 0; i < m; i++) {
        tmp[start[h[i].hi >> (64u - bits)]++] = h[i];
    }
    uint64_t first = 0;
    for (size_t b = 0; b < buckets; b++) { /* start[b] is now the end of bucket b */
        sort_small(tmp + first, start[b] - first);
        first = start[b];
    }
    memcpy(h, tmp, m * sizeof *h);
    free(tmp);
    free(start);
}

static void *stream_shard(void *arg)
{
    stream_tally *t = arg;
    tally_stream(t, t->who, t->label);
    if (t->hashes != NULL) {
        sort_hashes(t->hashes, t->shuffles); /* on the shard's thread */
    }
    return NULL;
}

/* Repeats among k sorted lists taken together: the hashes equal to the
 * one before them in the merged order (walked, never copied). */
static uint64_t count_repeats(hash128 *const *lists, const uint64_t *counts, size_t k)
{
    uint64_t at[SHARDS] = {0};
    uint64_t repeats = 0;
    bool have_prev = false;
    hash128 prev = {0, 0};
    for (;;) {
        size_t best = k;
        for (size_t i = 0; i < k; i++) {
            if (at[i] < counts[i] && (best == k || hash_less(&lists[i][at[i]], &lists[best][at[best]]))) {
                best = i;
            }
        }
        if (best == k) {
            return repeats;
        }
        const hash128 h = lists[best][at[best]++];
        repeats += have_prev && h.hi == prev.hi && h.lo == prev.lo;
        prev = h;
        have_prev = true;
    }
}

static void stream_tally_merge(stream_tally *into, const stream_tally *from)
{
    const size_t n = into->n;
    if (into->pos != NULL) {
        for (size_t i = 0; i < n * n; i++) {
            into->pos[i] += from->pos[i];
        }
    }
    if (n == 52u) {
        for (size_t i = 0; i < 52u * 52u; i++) {
            into->next[i] += from->next[i];
            into->indep[i] += from->indep[i];
        }
    }
    into->pairs += from->pairs;
    into->rank_sum += from->rank_sum;
}

/* Position matrix: X^2 (n-1)/n against chi2((n-1)^2) (a shuffle adds a
 * permutation matrix: X^2 is (n/(n-1)) chi2((n-1)^2) for a fair shuffle). */
static verdict permutation_table_verdict(const uint32_t *counts, size_t n, uint64_t matrices)
{
    verdict v;
    const double nn = (double)n;
    v.stat = table_chisq(counts, n * n, (double)matrices / nn, &v.worst) * (nn - 1.0) / nn;
    v.df = (nn - 1.0) * (nn - 1.0);
    v.p = test_chisq_pvalue(v.stat, v.df);
    return v;
}

/* Rank correlation of start index and final position: S = sum c * pos(c) has
 * mean n ((n-1)/2)^2 and variance (n (n^2-1) / 12)^2 / (n-1) for a uniform
 * order; a bias toward small indices (modulo reduction) moves it. */
static verdict rank_verdict(uint64_t rank_sum, size_t n, uint64_t shuffles)
{
    verdict v = {0};
    const double nn = (double)n;
    const double mean_s = nn * (nn - 1.0) * (nn - 1.0) / 4.0;
    const double sd_s = nn * (nn * nn - 1.0) / 12.0 / sqrt(nn - 1.0);
    v.stat = ((double)rank_sum / (double)shuffles - mean_s) / (sd_s / sqrt((double)shuffles));
    v.p = erfc(fabs(v.stat) / sqrt(2.0));
    return v;
}

/* Neighbours: each ordered pair (a, b), a != b, is adjacent in a shuffle with
 * probability 1/n, so E[X^2] = n(n-1) (1 - 1/n) = (n-1)^2: that is the df. */
static verdict neighbours_verdict(const uint32_t *next, uint64_t shuffles)
{
    static _Thread_local uint32_t pairs[52 * 51];
    size_t k = 0;
    for (size_t x = 0; x < 52u; x++) {
        for (size_t y = 0; y < 52u; y++) {
            if (x != y) {
                pairs[k++] = next[x * 52u + y];
            }
        }
    }
    verdict v;
    v.stat = table_chisq(pairs, k, (double)shuffles / 52.0, &v.worst);
    v.df = 51.0 * 51.0;
    v.p = test_chisq_pvalue(v.stat, v.df);
    return v;
}

/* Repeated decks: a fair shuffle repeats with probability ~ M^2 / (2 * 52!),
 * the 128-bit hash adds M^2 / 2^129; Poisson tail P(X >= repeats)
 * (count_repeats over the sorted hashes). */
static verdict repeats_verdict(uint64_t repeats, uint64_t shuffles)
{
    const double lambda = (double)shuffles * (double)shuffles / 2.0 * (ldexp(1.0, -128) + exp(-lgamma(53.0)));
    verdict v = {0};
    v.stat = (double)repeats;
    v.p = repeats == 0u ? 1.0 : test_gamma_p((double)repeats, lambda);
    return v;
}

static void run_stream(const subject *who, size_t n, uint64_t shuffles, stream_tally *total, const char *test)
{
    stream_tally shard[SHARDS];
    for (size_t i = 0; i < SHARDS; i++) {
        stream_tally_init(&shard[i], who, n, shuffles / SHARDS + (i < shuffles % SHARDS ? 1u : 0u), true);
        stream_label(shard[i].label, sizeof shard[i].label, who->name, test, i);
    }
    run_shards(stream_shard, shard, sizeof shard[0], SHARDS);
    stream_tally_init(total, who, n, shuffles, false);
    hash128 *lists[SHARDS];
    uint64_t counts[SHARDS];
    for (size_t i = 0; i < SHARDS; i++) {
        stream_tally_merge(total, &shard[i]);
        lists[i] = shard[i].hashes;
        counts[i] = shard[i].shuffles;
    }
    total->repeats = n == 52u ? count_repeats(lists, counts, SHARDS) : 0u;
    for (size_t i = 0; i < SHARDS; i++) {
        stream_tally_free(&shard[i]);
    }
}

static uint32_t heat_counts[2][52 * 52]; /* positions at 52 cards: durstenfeld, modulo 16-bit */

static void test_stream(const subject *s, size_t n, uint64_t shuffles)
{
    char name[48];
    (void)snprintf(name, sizeof name, "stream n=%zu", n);
    if (!wanted(s->name, name)) {
        return;
    }
    const double t0 = now();
    const double c0 = cpu_now();
    stream_tally t;
    run_stream(s, n, shuffles, &t, name);
    add_timing(s, name, shuffles, now() - t0, cpu_now() - c0);
    result *r;
    if (t.pos != NULL) {
        const verdict v = permutation_table_verdict(t.pos, n, shuffles);
        (void)snprintf(name, sizeof name, "positions n=%zu", n);
        r = add_result(s, name, v.stat, v.df, v.p);
        (void)snprintf(r->note, sizeof r->note, "X^2 (n-1)/n; worst cell %.2f sigma", v.worst);
        if (n == 52u && (s->shuffle == durstenfeld || s->shuffle == modulo16)) {
            memcpy(heat_counts[s->shuffle == durstenfeld ? 0 : 1], t.pos, sizeof heat_counts[0]);
        }
    }
    const verdict rank = rank_verdict(t.rank_sum, n, shuffles);
    (void)snprintf(name, sizeof name, "rank correlation n=%zu", n);
    r = add_result(s, name, rank.stat, 0.0, rank.p);
    (void)snprintf(r->note, sizeof r->note, "z = %.2f (Spearman rho x sqrt(M))", rank.stat);
    if (n == 52u) {
        const verdict nb = neighbours_verdict(t.next, shuffles);
        r = add_result(s, "neighbours n=52", nb.stat, nb.df, nb.p);
        (void)snprintf(r->note, sizeof r->note, "worst pair %.2f sigma", nb.worst);
        const verdict succ = permutation_table_verdict(t.indep, 52, t.pairs);
        r = add_result(s, "successive shuffles n=52", succ.stat, succ.df, succ.p);
        (void)snprintf(r->note, sizeof r->note, "X^2 (n-1)/n over %llu pairs; worst cell %.2f sigma",
                       (unsigned long long)t.pairs, succ.worst);
        const verdict rep = repeats_verdict(t.repeats, shuffles);
        r = add_result(s, "repeated decks n=52", rep.stat, 0.0, rep.p);
        (void)snprintf(r->note, sizeof r->note, "%llu repeats in %llu decks", (unsigned long long)t.repeats,
                       (unsigned long long)shuffles);
    }
    stream_tally_free(&t);
}

/* ---- calibration: every fair test's p-values must be uniform ---- */

enum calib_kind {
    CAL_ORDERS,
    CAL_POSITIONS,
    CAL_RANK,
    CAL_NEIGHBOURS,
    CAL_SUCCESSIVE,
    CAL_REPEATS
};

typedef struct calib_case {
    const char *name;
    enum calib_kind kind;
    const subject *who;
    size_t n;
    uint64_t shuffles;
} calib_case;

typedef struct calib_job {
    const calib_case *c;
    size_t first;
    size_t count;
    double *p;     /* corrected null */
    double *p_old; /* the uncorrected null the audit found (positions/successive: unscaled; neighbours: df n(n-1)-1) */
} calib_job;

static void *calib_shard(void *arg)
{
    calib_job *job = arg;
    const calib_case *c = job->c;
    for (size_t rep = job->first; rep < job->first + job->count; rep++) {
        char label[128];
        (void)snprintf(label, sizeof label, "calibration/%s/%zu", c->name, rep);
        if (c->kind == CAL_ORDERS) {
            orders_tally t = {c->who, c->n, c->shuffles, "", NULL};
            memcpy(t.label, label, sizeof label);
            t.counts = must_alloc(test_factorial((unsigned)c->n), sizeof *t.counts);
            orders_shard(&t);
            size_t cells;
            uint64_t non_cycles;
            job->p[rep] = orders_verdict(t.counts, c->n, c->who->cycles_only, &cells, &non_cycles).p;
            job->p_old[rep] = job->p[rep];
            free(t.counts);
            continue;
        }
        stream_tally t;
        stream_tally_init(&t, c->who, c->n, c->shuffles, true);
        tally_stream(&t, c->who, label);
        verdict v = {0};
        const double nn = (double)c->n;
        switch (c->kind) {
        case CAL_POSITIONS:
            v = permutation_table_verdict(t.pos, c->n, c->shuffles);
            job->p_old[rep] = test_chisq_pvalue(v.stat * nn / (nn - 1.0), v.df);
            break;
        case CAL_SUCCESSIVE:
            v = permutation_table_verdict(t.indep, 52, t.pairs);
            job->p_old[rep] = test_chisq_pvalue(v.stat * 52.0 / 51.0, v.df);
            break;
        case CAL_NEIGHBOURS:
            v = neighbours_verdict(t.next, c->shuffles);
            job->p_old[rep] = test_chisq_pvalue(v.stat, 52.0 * 51.0 - 1.0);
            break;
        case CAL_REPEATS: {
            sort_hashes(t.hashes, c->shuffles);
            v = repeats_verdict(count_repeats(&t.hashes, &c->shuffles, 1), c->shuffles);
            job->p_old[rep] = v.p;
            break;
        }
        case CAL_RANK:
        default:
            v = rank_verdict(t.rank_sum, c->n, c->shuffles);
            job->p_old[rep] = v.p;
            break;
        }
        job->p[rep] = v.p;
        stream_tally_free(&t);
    }
    return NULL;
}

static void run_reps(const calib_case *c, size_t reps, double *p, double *p_old)
{
    calib_job jobs[SHARDS];
    for (size_t k = 0; k < SHARDS; k++) {
        jobs[k] = (calib_job){c, k * reps / SHARDS, (k + 1u) * reps / SHARDS - k * reps / SHARDS, p, p_old};
    }
    run_shards(calib_shard, jobs, sizeof jobs[0], SHARDS);
}

#define CALIBRATION_REPS 400u
#define CALIBRATION_ALPHA 1e-3

/* Returns true when every case's p-values pass KS at CALIBRATION_ALPHA. */
static bool calibrate(FILE *report)
{
    const subject *durst = subject_of(durstenfeld);
    const subject *satt = subject_of(sattolo);
    /* sizes: about 10 expected counts per cell */
    const calib_case cases[] = {
        {"orders n=3", CAL_ORDERS, durst, 3, 60},
        {"orders n=4", CAL_ORDERS, durst, 4, 240},
        {"orders n=5", CAL_ORDERS, durst, 5, 1200},
        {"orders n=6", CAL_ORDERS, durst, 6, 7200},
        {"Sattolo cycles n=5", CAL_ORDERS, satt, 5, 240},
        {"positions n=8", CAL_POSITIONS, durst, 8, 80},
        {"positions n=52", CAL_POSITIONS, durst, 52, 520},
        {"positions n=312", CAL_POSITIONS, durst, 312, 3120},
        {"rank correlation n=52", CAL_RANK, durst, 52, 200},
        {"rank correlation n=512", CAL_RANK, durst, 512, 200},
        {"neighbours n=52", CAL_NEIGHBOURS, durst, 52, 520},
        {"successive shuffles n=52", CAL_SUCCESSIVE, durst, 52, 521},
    };
    const size_t reps = CALIBRATION_REPS;
    bool ok = true;
    fprintf(report,
            "| test | size per run | runs | KS distance | KS p (corrected null) | KS p (uncorrected null) | verdict |\n"
            "|---|---|---|---|---|---|---|\n");
    double *p = must_alloc(reps, sizeof *p);
    double *p_old = must_alloc(reps, sizeof *p_old);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run_reps(&cases[i], reps, p, p_old);
        double d;
        double d_old;
        const double ks = test_ks_uniform(p, reps, &d);
        const double ks_old = test_ks_uniform(p_old, reps, &d_old);
        const bool pass = ks >= CALIBRATION_ALPHA;
        ok = ok && pass;
        const bool changed =
            cases[i].kind == CAL_POSITIONS || cases[i].kind == CAL_SUCCESSIVE || cases[i].kind == CAL_NEIGHBOURS;
        char old_text[32] = "(same)";
        if (changed) {
            (void)snprintf(old_text, sizeof old_text, "%.3g", ks_old);
        }
        fprintf(report, "| %s | %llu shuffles | %zu | %.4f | %.3g | %s | %s |\n", cases[i].name,
                (unsigned long long)cases[i].shuffles, reps, d, ks, old_text, pass ? "uniform" : "NOT UNIFORM");
    }
    free(p);
    free(p_old);
    fprintf(report, "\nCalibration: %s (each KS p must be >= %.0e).\n",
            ok ? "every fair test's p-values are uniform" : "A NULL LAW IS WRONG", CALIBRATION_ALPHA);
    return ok;
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

/* Pearson's X^2 of counts against expected probabilities prob[] (sum 1). */
static double chisq_against(const uint64_t *counts, const double *prob, size_t cells, uint64_t total)
{
    double stat = 0.0;
    for (size_t i = 0; i < cells; i++) {
        const double e = (double)total * prob[i];
        const double d = (double)counts[i] - e;
        stat += d * d / e;
    }
    return stat;
}

static const subject exact_fit = {"naive vs its exact law", NULL, false, false, false, 0, 0, NULL, 0, 0};

/* The naive control's measured orders against the exact law: must fit. */
static void test_naive_matches_exact(const subject *naive_subject, size_t n, uint64_t shuffles, FILE *report)
{
    static uint64_t ways[24];
    static double prob[24];
    naive_exact(n, ways);
    count_orders(naive_subject, "exact law", n, shuffles, order_counts);
    const uint32_t cells = test_factorial((unsigned)n);
    const double paths = pow((double)n, (double)n);
    fprintf(report, "\nNaive shuffle, n = %zu: %.0f paths onto %u orders, %llu shuffles\n\n", n, paths, cells,
            (unsigned long long)shuffles);
    fprintf(report,
            "| order | exact ways | exact P | measured | expected | deviation %% |\n|---|---|---|---|---|---|\n");
    for (uint32_t r = 0; r < cells; r++) {
        prob[r] = (double)ways[r] / paths;
        const double expected = (double)shuffles * prob[r];
        uint8_t order[8];
        char text[16];
        order_label(r, n, order, text);
        fprintf(report, "| %s | %llu | %llu/%.0f | %llu | %.0f | %+.3f |\n", text, (unsigned long long)ways[r],
                (unsigned long long)ways[r], paths, (unsigned long long)order_counts[r], expected,
                100.0 * ((double)order_counts[r] - expected) / expected);
    }
    const double stat = chisq_against(order_counts, prob, cells, shuffles);
    char name[48];
    (void)snprintf(name, sizeof name, "naive fits exact law n=%zu", n);
    result *res = add_result(&exact_fit, name, stat, cells - 1.0, test_chisq_pvalue(stat, cells - 1.0));
    (void)snprintf(res->note, sizeof res->note, "goodness of fit to the enumerated law");
}

/* ---- the articles' experiment ---- */

typedef struct article_figure {
    size_t n;
    uint64_t shuffles;
    double fair;  /* the article's "mean deviation" for random.shuffle (Durstenfeld), % (0: not published) */
    double naive; /* for its faulty (naive) shuffle, % */
} article_figure;

/* shared/seeds/000_8bff28124ed9f00f.txt: "desviación media" figures */
static const article_figure article_figures[] = {
    {3, 600000, 0.039, 0.0},
    {3, 2400000, 0.017, 1.869},
    {4, 2400000, 0.009, 0.541},
    {4, 48000, 0.069, 0.554},
};

static const subject articles_exact = {"articles' tables", NULL, false, false, false, 0, 0, NULL, 0, 0};

static void articles_table(const article_figure *fig, const char *out_dir, FILE *report)
{
    const size_t n = fig->n;
    const uint64_t shuffles = fig->shuffles;
    static const shuffle_fn picks[] = {durstenfeld, sattolo, inside_out, naive};
    static const char *const column[] = {"durstenfeld", "sattolo", "inside-out", "naive"};
    static uint64_t ways[24];
    naive_exact(n, ways);
    const uint32_t cells = test_factorial((unsigned)n);
    static uint64_t counts[4][24];
    char test[48];
    (void)snprintf(test, sizeof test, "articles n=%zu M=%llu", n, (unsigned long long)shuffles);
    for (size_t k = 0; k < 4u; k++) {
        count_orders(subject_of(picks[k]), test, n, shuffles, counts[k]);
    }
    const double paths = pow((double)n, (double)n);
    const double cycles = test_factorial((unsigned)n - 1u);
    fprintf(report, "\n%zu cards, %llu shuffles: count per order, deviation from ideal in %%\n\n", n,
            (unsigned long long)shuffles);
    fprintf(report,
            "| order | ideal | durstenfeld | sattolo (ideal %.0f on cycles) | inside-out | naive | naive exact |\n",
            (double)shuffles / cycles);
    fprintf(report, "|---|---|---|---|---|---|---|\n");
    double abs_dev[4] = {0}; /* sum of |count - ideal| */
    FILE *dat = NULL;
    if (out_dir != NULL) {
        char path[512];
        (void)snprintf(path, sizeof path, "%s/articles_n%zu_%llu.dat", out_dir, n, (unsigned long long)shuffles);
        dat = fopen(path, "w");
    }
    const double ideal = (double)shuffles / cells;
    const double ideal_cycle = (double)shuffles / cycles;
    const double two_sigma = 200.0 * sqrt((1.0 - 1.0 / cells) / ideal);
    double prob_naive[24];
    double prob_uniform[24];
    for (uint32_t r = 0; r < cells; r++) {
        uint8_t order[8];
        char text[16];
        order_label(r, n, order, text);
        const bool cycle = test_perm_is_single_cycle(order, n);
        fprintf(report, "| %s | %.0f |", text, ideal);
        double dev[4];
        for (size_t k = 0; k < 4u; k++) {
            const double want = k == 1u ? (cycle ? ideal_cycle : 0.0) : ideal;
            dev[k] = want > 0.0 ? 100.0 * ((double)counts[k][r] - want) / want : 0.0;
            abs_dev[k] += fabs((double)counts[k][r] - want);
            fprintf(report, " %llu (%+.3f%%) |", (unsigned long long)counts[k][r], dev[k]);
        }
        prob_naive[r] = (double)ways[r] / paths;
        prob_uniform[r] = 1.0 / cells;
        const double exact = (double)shuffles * prob_naive[r];
        const double exact_dev = 100.0 * (exact - ideal) / ideal;
        fprintf(report, " %.0f (%+.3f%%) |\n", exact, exact_dev);
        if (dat != NULL) {
            /* order, % deviation: durstenfeld, inside-out, naive; naive exact law; 2 sigma */
            fprintf(dat, "%s %.4f %.4f %.4f %.4f %.4f\n", text, dev[0], dev[2], dev[3], exact_dev, two_sigma);
        }
    }
    fprintf(report, "| mean abs. deviation / ideal | | %.3f%% | %.3f%% | %.3f%% | %.3f%% | |\n",
            100.0 * abs_dev[0] / cells / ideal, 100.0 * abs_dev[1] / cycles / ideal_cycle,
            100.0 * abs_dev[2] / cells / ideal, 100.0 * abs_dev[3] / cells / ideal);
    fprintf(
        report,
        "| **article-normalised mean deviation** (mean abs. deviation / shuffles) | | %.3f%% | | %.3f%% | %.3f%% | |\n",
        100.0 * abs_dev[0] / cells / (double)shuffles, 100.0 * abs_dev[2] / cells / (double)shuffles,
        100.0 * abs_dev[3] / cells / (double)shuffles);
    char fair_text[16] = "not published";
    char naive_text[16] = "not published";
    if (fig->fair > 0.0) {
        (void)snprintf(fair_text, sizeof fair_text, "%.3f%%", fig->fair);
    }
    if (fig->naive > 0.0) {
        (void)snprintf(naive_text, sizeof naive_text, "%.3f%%", fig->naive);
    }
    fprintf(report, "| the article's published figure | | %s (its Fisher-Yates / random.shuffle) | | | %s | |\n",
            fair_text, naive_text);
    if (dat != NULL) {
        fclose(dat);
    }
    /* the tables assert: naive fits its exact law, the fair columns fit uniform (Sattolo on its cycles) */
    for (size_t k = 0; k < 4u; k++) {
        double stat;
        double df = cells - 1.0;
        char name[48];
        (void)snprintf(name, sizeof name, "%s n=%zu M=%llu", column[k], n, (unsigned long long)shuffles);
        if (k == 3u) {
            stat = chisq_against(counts[k], prob_naive, cells, shuffles);
            (void)snprintf(name, sizeof name, "naive = exact law n=%zu M=%llu", n, (unsigned long long)shuffles);
        } else if (k == 1u) {
            size_t used;
            uint64_t non_cycles;
            const verdict v = orders_verdict(counts[k], n, true, &used, &non_cycles);
            result *res = add_result(&articles_exact, name, v.stat, v.df, v.p);
            (void)snprintf(res->note, sizeof res->note, "uniform over the cycles");
            continue;
        } else {
            stat = chisq_against(counts[k], prob_uniform, cells, shuffles);
        }
        result *res = add_result(&articles_exact, name, stat, df, test_chisq_pvalue(stat, df));
        (void)snprintf(res->note, sizeof res->note, k == 3u ? "goodness of fit to the enumerated law" : "uniform");
    }
}

/* ---- power: how large a bug each test sees, computed ---- */

typedef struct power_sizes {
    uint64_t orders_small; /* n = 3..7 */
    uint64_t orders_8;
    uint64_t decks;
    uint64_t shoes;
    uint64_t max;
} power_sizes;

/* The law of one draw j in [0, b) at Durstenfeld's step with bound b = i+1. */
typedef enum draw_law {
    LAW_MOD8, /* r % b, r uniform on 8 bits */
    LAW_MOD16,
    LAW_MOD32,
    LAW_SATTOLO,  /* j uniform in [0, b-2] */
    LAW_FROM1,    /* j uniform in [1, b-1] */
    LAW_NOREJECT, /* floor(w b / 2^32), w uniform on 32 bits, no rejection */
} draw_law;

static const char *const law_names[] = {
    "modulo, 8-bit word",      "modulo, 16-bit word",
    "modulo, 32-bit word",     "off by one: Sattolo bound j in [0, i-1]",
    "off by one: j in [1, i]", "missing rejection, one word per draw",
};

static void law_probabilities(draw_law law, uint32_t b, double *q)
{
    switch (law) {
    case LAW_MOD8:
    case LAW_MOD16:
    case LAW_MOD32: {
        const unsigned bits = law == LAW_MOD8 ? 8u : law == LAW_MOD16 ? 16u : 32u;
        const uint64_t words = 1ull << bits;
        for (uint32_t j = 0; j < b; j++) {
            q[j] = (double)(words / b + (j < words % b ? 1u : 0u)) / (double)words;
        }
        break;
    }
    case LAW_SATTOLO:
        for (uint32_t j = 0; j < b; j++) {
            q[j] = j + 1u < b ? 1.0 / (b - 1u) : 0.0;
        }
        break;
    case LAW_FROM1:
        for (uint32_t j = 0; j < b; j++) {
            q[j] = j > 0u ? 1.0 / (b - 1u) : 0.0;
        }
        break;
    case LAW_NOREJECT:
    default:
        for (uint32_t j = 0; j < b; j++) {
            const uint64_t lo = (((uint64_t)j << 32) + b - 1u) / b;
            const uint64_t hi = ((((uint64_t)j + 1u) << 32) + b - 1u) / b;
            q[j] = (double)(hi - lo) / 4294967296.0;
        }
        break;
    }
}

/* P[c * n + p]: probability that card c (starting at position c) ends at p,
 * for Durstenfeld with the given draw law, steps i = n-1 down to stop+1 (stop
 * = 0: the whole shuffle). Exact: one card's position is a Markov chain. */
static void position_law(draw_law law, bool fair, size_t n, size_t stop, double *P)
{
    double *q = must_alloc(n * n, sizeof *q); /* q[i * n + j] for the step at position i */
    for (size_t i = 1; i < n; i++) {
        if (fair) {
            for (size_t j = 0; j <= i; j++) {
                q[i * n + j] = 1.0 / (double)(i + 1u);
            }
        } else {
            law_probabilities(law, (uint32_t)i + 1u, q + i * n);
        }
    }
    double *d = must_alloc(n, sizeof *d);
    for (size_t c = 0; c < n; c++) {
        memset(d, 0, n * sizeof *d);
        d[c] = 1.0;
        for (size_t i = n - 1u; i > stop; i--) {
            const double *qi = q + i * n;
            double to_i = 0.0;
            for (size_t x = 0; x <= i; x++) {
                to_i += d[x] * qi[x];
            }
            const double at_i = d[i];
            for (size_t x = 0; x < i; x++) {
                d[x] = d[x] * (1.0 - qi[x]) + at_i * qi[x];
            }
            d[i] = to_i;
        }
        memcpy(P + c * n, d, n * sizeof *d);
    }
    free(d);
    free(q);
}

/* Probability of every order of n <= 8 under independent draws of a law. */
static void orders_law_rec(draw_law law, uint8_t *a, size_t n, size_t i, double prob, double *out)
{
    if (i == 0u) {
        out[test_perm_rank(a, n)] += prob;
        return;
    }
    double q[8];
    law_probabilities(law, (uint32_t)i + 1u, q);
    for (size_t j = 0; j <= i; j++) {
        if (q[j] > 0.0) {
            uint8_t t = a[i];
            a[i] = a[j];
            a[j] = t;
            orders_law_rec(law, a, n, i - 1u, prob * q[j], out);
            a[j] = a[i];
            a[i] = t;
        }
    }
}

/* Orders of n <= 8 from fairdeal's batched draw with its rejection step
 * removed: one 32-bit word w gives v = floor(w * n! / 2^32) and the draws are
 * v's mixed-radix digits (bounds n .. 2, most significant first); without
 * rejection v takes ceil((v+1) 2^32 / n!) - ceil(v 2^32 / n!) words. */
static void orders_law_batched_noreject(size_t n, double *out)
{
    const uint64_t product = test_factorial((unsigned)n);
    memset(out, 0, product * sizeof *out);
    for (uint64_t v = 0; v < product; v++) {
        const uint64_t words = (((v + 1u) << 32) + product - 1u) / product - ((v << 32) + product - 1u) / product;
        uint8_t a[8];
        for (size_t i = 0; i < n; i++) {
            a[i] = (uint8_t)i;
        }
        uint64_t rest = v;
        uint64_t radix = product;
        for (size_t i = n - 1u; i > 0u; i--) {
            radix /= i + 1u;
            const size_t j = (size_t)(rest / radix);
            rest %= radix;
            const uint8_t t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        out[test_perm_rank(a, n)] += (double)words / 4294967296.0;
    }
}

/* Upper tail of chi2(df) beyond x, and its inverse by bisection. */
static double chisq_critical(double df, double alpha)
{
    double lo = 0.0;
    double hi = df + 100.0 * sqrt(2.0 * df) + 200.0;
    for (int k = 0; k < 200; k++) {
        const double mid = 0.5 * (lo + hi);
        if (test_chisq_pvalue(mid, df) > alpha) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return hi;
}

/* P(noncentral chi2(df, lambda) > crit), Patnaik's two-moment approximation. */
static double noncentral_power(double df, double lambda, double crit)
{
    const double h = (df + 2.0 * lambda) / (df + lambda);
    const double nu = (df + lambda) * (df + lambda) / (df + 2.0 * lambda);
    return test_gamma_q(nu / 2.0, crit / (2.0 * h));
}

/* Noncentrality for which a chi2(df) test at alpha has the given power. */
static double lambda_for_power(double df, double alpha, double power)
{
    const double crit = chisq_critical(df, alpha);
    double lo = 0.0;
    double hi = 1.0;
    while (noncentral_power(df, hi, crit) < power) {
        hi *= 2.0;
    }
    for (int k = 0; k < 200; k++) {
        const double mid = 0.5 * (lo + hi);
        if (noncentral_power(df, mid, crit) < power) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return hi;
}

static double normal_quantile_upper(double alpha) /* z with P(Z > z) = alpha */
{
    double lo = 0.0;
    double hi = 40.0;
    for (int k = 0; k < 200; k++) {
        const double mid = 0.5 * (lo + hi);
        if (0.5 * erfc(mid / sqrt(2.0)) > alpha) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return hi;
}

typedef struct power_row {
    char family[96];
    char test[40];
    double m50; /* shuffles for 50% power (INFINITY: the test has no power) */
    double m99;
    uint64_t quick;
    uint64_t full;
} power_row;

static power_row power_rows[160];
static size_t power_row_count;

static void add_power(const char *family, const char *test, double m50, double m99, uint64_t quick, uint64_t full)
{
    if (power_row_count < sizeof power_rows / sizeof power_rows[0]) {
        power_row *r = &power_rows[power_row_count++];
        (void)snprintf(r->family, sizeof r->family, "%s", family);
        (void)snprintf(r->test, sizeof r->test, "%s", test);
        r->m50 = m50;
        r->m99 = m99;
        r->quick = quick;
        r->full = full;
    }
}

/* A chi2 test with per-shuffle noncentrality lambda1. */
static void add_chisq_power(const char *family, const char *test, double df, double lambda1, uint64_t quick,
                            uint64_t full)
{
    if (!(lambda1 > 0.0)) {
        add_power(family, test, INFINITY, INFINITY, quick, full);
        return;
    }
    add_power(family, test, lambda_for_power(df, CONTROL_P, 0.5) / lambda1,
              lambda_for_power(df, CONTROL_P, 0.99) / lambda1, quick, full);
}

/* The two-sided rank test with per-shuffle shift z1 (in sigmas of one shuffle). */
static void add_rank_power(const char *family, const char *test, double z1, uint64_t quick, uint64_t full)
{
    const double zc = normal_quantile_upper(CONTROL_P / 2.0);
    const double z99 = normal_quantile_upper(0.01);
    if (!(fabs(z1) > 0.0)) {
        add_power(family, test, INFINITY, INFINITY, quick, full);
        return;
    }
    add_power(family, test, pow(zc / fabs(z1), 2.0), pow((zc + z99) / fabs(z1), 2.0), quick, full);
}

/* Position table, rank correlation and successive-shuffle tables of one law at n cards. */
static void power_of_positions(const char *family, draw_law law, size_t n, uint64_t quick, uint64_t full, bool matrix,
                               bool successive)
{
    double *P = must_alloc(n * n, sizeof *P);
    position_law(law, false, n, 0, P);
    const double nn = (double)n;
    char test[40];
    if (matrix) {
        double sum = 0.0;
        for (size_t i = 0; i < n * n; i++) {
            sum += (P[i] - 1.0 / nn) * (P[i] - 1.0 / nn);
        }
        (void)snprintf(test, sizeof test, "positions n=%zu", n);
        add_chisq_power(family, test, (nn - 1.0) * (nn - 1.0), nn * sum * (nn - 1.0) / nn, quick, full);
    }
    double mean = 0.0;
    for (size_t c = 0; c < n; c++) {
        for (size_t p = 0; p < n; p++) {
            mean += (double)c * (double)p * P[c * n + p];
        }
    }
    const double mean0 = nn * (nn - 1.0) * (nn - 1.0) / 4.0;
    const double sd0 = nn * (nn * nn - 1.0) / 12.0 / sqrt(nn - 1.0);
    (void)snprintf(test, sizeof test, "rank correlation n=%zu", n);
    add_rank_power(family, test, (mean - mean0) / sd0, quick, full);
    if (successive) {
        /* independent shuffles from the same start: pair (p, q) has
         * probability sum_c P[c][p] P[c][q] / n per card */
        double sum = 0.0;
        for (size_t p = 0; p < n; p++) {
            for (size_t q2 = 0; q2 < n; q2++) {
                double e = 0.0;
                for (size_t c = 0; c < n; c++) {
                    e += P[c * n + p] * P[c * n + q2];
                }
                sum += (e - 1.0 / nn) * (e - 1.0 / nn);
            }
        }
        add_chisq_power(family, "successive shuffles n=52", (nn - 1.0) * (nn - 1.0), nn * sum * (nn - 1.0) / nn, quick,
                        full);
    }
    free(P);
}

static double orders_lambda(const double *prob, size_t cells)
{
    double lambda = 0.0;
    for (size_t r = 0; r < cells; r++) {
        lambda += (prob[r] - 1.0 / (double)cells) * (prob[r] - 1.0 / (double)cells) * (double)cells;
    }
    return lambda;
}

static void power_of_orders(const char *family, const double *prob, size_t n, const power_sizes *qs,
                            const power_sizes *fs)
{
    const size_t cells = test_factorial((unsigned)n);
    char test[40];
    (void)snprintf(test, sizeof test, "orders n=%zu", n);
    add_chisq_power(family, test, (double)cells - 1.0, orders_lambda(prob, cells),
                    n == 8u ? qs->orders_8 : qs->orders_small, n == 8u ? fs->orders_8 : fs->orders_small);
}

static void format_count(double m, char *out, size_t len)
{
    if (!isfinite(m)) {
        (void)snprintf(out, len, "no power");
    } else if (m < 1e6) {
        (void)snprintf(out, len, "%.0f", ceil(m));
    } else {
        (void)snprintf(out, len, "%.2g", m);
    }
}

static const char *reach(double m, uint64_t size) { return m <= (double)size ? "yes" : "no"; }

/* Simulated rejection rate (p < CONTROL_P) over runs at a computed size. */
typedef struct spot_check {
    const char *what;
    const calib_case c;
    double predicted;
} spot_check;

static void run_reps(const calib_case *c, size_t reps, double *p, double *p_old);

static const subject modulo8_subject = {"modulo 8-bit", modulo8, true, false, false, STREAM_52, 0, NULL, 0, 0};

static bool power_report(FILE *report, const power_sizes *qs, const power_sizes *fs, bool spot)
{
    power_row_count = 0;
    static const draw_law laws[] = {LAW_MOD8, LAW_MOD16, LAW_MOD32, LAW_SATTOLO, LAW_FROM1, LAW_NOREJECT};
    for (size_t l = 0; l < sizeof laws / sizeof laws[0]; l++) {
        const char *family = law_names[laws[l]];
        for (size_t n = 3; n <= 8u; n++) {
            double prob[40320] = {0};
            uint8_t a[8];
            for (size_t i = 0; i < n; i++) {
                a[i] = (uint8_t)i;
            }
            orders_law_rec(laws[l], a, n, n - 1u, 1.0, prob);
            power_of_orders(family, prob, n, qs, fs);
        }
        power_of_positions(family, laws[l], 52, qs->decks, fs->decks, true, true);
        power_of_positions(family, laws[l], 312, qs->shoes, fs->shoes, true, false);
        power_of_positions(family, laws[l], 512, qs->max, fs->max, false, false);
    }
    {
        const char *family = "missing rejection in the batched draw (one word per group)";
        static double prob[40320];
        for (size_t n = 3; n <= 8u; n++) {
            orders_law_batched_noreject(n, prob);
            power_of_orders(family, prob, n, qs, fs);
        }
    }
    /* reuse of the previous order: Durstenfeld steps i = r .. 1 skipped, so
     * positions 0..r keep what the previous order left there */
    for (size_t r = 1; r <= 4u; r *= 2u) {
        char family[96];
        (void)snprintf(family, sizeof family, "previous order reused: last %zu step(s) skipped (top %zu cards)", r,
                       r + 1u);
        double *T = must_alloc(52u * 52u, sizeof *T);
        position_law(LAW_MOD32, true, 52, r, T);
        double sum = 0.0;
        for (size_t i = 0; i < 52u * 52u; i++) {
            sum += (T[i] - 1.0 / 52.0) * (T[i] - 1.0 / 52.0);
        }
        add_chisq_power(family, "successive shuffles n=52", 51.0 * 51.0, 52.0 * sum * 51.0 / 52.0, qs->decks,
                        fs->decks);
        free(T);
    }
    fprintf(report,
            "Shuffles a test needs to convict a bug (p < %.0e, the controls' bar) with 50%% and 99%% power, "
            "computed exactly from the bug's law (orders: every draw path enumerated; positions, rank "
            "correlation, successive shuffles: each card's position as an exact Markov chain; noncentral "
            "chi-square by Patnaik's approximation, the rank test's z as normal). \"yes\" when the quick "
            "or full run's size reaches it. Tests without a row for a family have no power against it "
            "(the bug leaves that statistic's law unchanged); neighbours and repeated decks are not computed "
            "for draw-law bugs (second order).\n\n",
            CONTROL_P);
    fprintf(report, "| bug | test | shuffles for 50%% | for 99%% | quick size | 50%% / 99%% in quick | full size | "
                    "50%% / 99%% in full |\n"
                    "|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < power_row_count; i++) {
        const power_row *r = &power_rows[i];
        if (!isfinite(r->m50)) {
            continue;
        }
        char m50[32];
        char m99[32];
        format_count(r->m50, m50, sizeof m50);
        format_count(r->m99, m99, sizeof m99);
        fprintf(report, "| %s | %s | %s | %s | %.2g | %s / %s | %.2g | %s / %s |\n", r->family, r->test, m50, m99,
                (double)r->quick, reach(r->m50, r->quick), reach(r->m99, r->quick), (double)r->full,
                reach(r->m50, r->full), reach(r->m99, r->full));
    }
    /* reduced state: only repeated decks see it; b-bit seeds give C(M, 2) / 2^b expected repeats */
    fprintf(report,
            "\nReduced state: a b-bit seed makes a 52-card deck repeat with C(M, 2) / 2^b expected repeats "
            "among M decks (fair: M^2 / 2^129 with the 128-bit hash, so one repeat is already p < 1e-30). "
            "Largest b convicted by the repeated-decks test (no other test sees a reduced state):\n\n"
            "| seeding | 50%% power, quick (%.0e decks) | 99%%, quick | 50%%, full (%.0e decks) | 99%%, full |\n"
            "|---|---|---|---|---|\n",
            (double)qs->decks, (double)fs->decks);
    const uint64_t per_shuffle_quick = 300000u; /* the reseed control's fixed size */
    const double ln2 = log(2.0);
    const double ln100 = log(100.0);
#define BITS(m, l) (log2((double)(m) * ((double)(m)-1.0) / 2.0 / (l)))
    fprintf(report, "| b bits per shuffle | %.1f (%.1f at the 32-bit control's %.0e) | %.1f | %.1f | %.1f |\n",
            BITS(qs->decks, ln2), BITS(per_shuffle_quick, ln2), (double)per_shuffle_quick, BITS(qs->decks, ln100),
            BITS(fs->decks, ln2), BITS(fs->decks, ln100));
    fprintf(report, "| b bits per boot, %u shuffles per boot | %.1f | %.1f | %.1f | %.1f |\n", SHUFFLES_PER_BOOT,
            BITS(qs->decks / SHUFFLES_PER_BOOT, ln2), BITS(qs->decks / SHUFFLES_PER_BOOT, ln100),
            BITS(fs->decks / SHUFFLES_PER_BOOT, ln2), BITS(fs->decks / SHUFFLES_PER_BOOT, ln100));
#undef BITS
    if (!spot) {
        return true;
    }
    /* spot checks: simulate some rows at their computed 50% size */
    double m_mod8 = 0.0;
    double m_reuse = 0.0;
    for (size_t i = 0; i < power_row_count; i++) {
        if (strcmp(power_rows[i].family, law_names[LAW_MOD8]) == 0 &&
            strcmp(power_rows[i].test, "positions n=52") == 0) {
            m_mod8 = power_rows[i].m50;
        }
        if (strncmp(power_rows[i].family, "previous order reused: last 1 ", 30) == 0) {
            m_reuse = power_rows[i].m50;
        }
    }
    const unsigned seed_bits = 24;
    const double m_seed = ceil(sqrt(2.0 * ln2 * ldexp(1.0, (int)seed_bits)) + 0.5);
    static const subject seeds_subject = {
        "DRBG from 24 bits per shuffle", reseed32, true, false, false, STREAM_52, 0, NULL, 0, 0};
    const spot_check checks[] = {
        {"modulo 8-bit, positions n=52",
         {"spot/mod8", CAL_POSITIONS, &modulo8_subject, 52, (uint64_t)ceil(m_mod8)},
         0.5},
        {"top 2 cards reused, successive n=52",
         {"spot/reuse", CAL_SUCCESSIVE, subject_of(reuse_top), 52, (uint64_t)ceil(m_reuse) + 1u},
         0.5},
        {"24-bit seed per shuffle, repeated decks",
         {"spot/seed24", CAL_REPEATS, &seeds_subject, 52, (uint64_t)m_seed},
         0.5},
    };
    const size_t reps = 200;
    double *p = must_alloc(reps, sizeof *p);
    double *p_old = must_alloc(reps, sizeof *p_old);
    bool ok = true;
    fprintf(report,
            "\nSpot checks by simulation (%zu runs at the computed 50%% size; binomial sd %.1f%%):\n\n"
            "| bug and test | shuffles per run | predicted | convicted (p < %.0e) |\n|---|---|---|---|\n",
            reps, 100.0 * sqrt(0.25 / (double)reps), CONTROL_P);
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        weak_seed_bits = checks[i].c.who == &seeds_subject ? seed_bits : 32u;
        run_reps(&checks[i].c, reps, p, p_old);
        size_t convicted = 0;
        for (size_t k = 0; k < reps; k++) {
            convicted += p[k] < CONTROL_P;
        }
        const double rate = (double)convicted / (double)reps;
        /* within 4 binomial sd of the prediction */
        const bool near = fabs(rate - checks[i].predicted) <= 4.0 * sqrt(0.25 / (double)reps);
        ok = ok && near;
        fprintf(report, "| %s | %llu | %.0f%% | %.1f%%%s |\n", checks[i].what, (unsigned long long)checks[i].c.shuffles,
                100.0 * checks[i].predicted, 100.0 * rate, near ? "" : " (OFF)");
    }
    weak_seed_bits = 32u;
    free(p);
    free(p_old);
    return ok;
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
    static result *fair_results[512];
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

/* 52 x 52 positions as z-scores, (count - expected) / sqrt(expected):
 * Durstenfeld and the 16-bit modulo control as measured, and the modulo
 * control's exact bias at this many decks (its expected z). */
static void write_heat_map(const char *out_dir, uint64_t decks)
{
    char path[512];
    (void)snprintf(path, sizeof path, "%s/heat_52.dat", out_dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        return;
    }
    static double exact[52 * 52];
    position_law(LAW_MOD16, false, 52, 0, exact);
    const double e = (double)decks / 52.0;
    for (size_t c = 0; c < 52u; c++) {
        for (size_t p = 0; p < 52u; p++) {
            fprintf(f, "%zu %zu %.3f %.3f %.4f\n", c, p, ((double)heat_counts[0][c * 52u + p] - e) / sqrt(e),
                    ((double)heat_counts[1][c * 52u + p] - e) / sqrt(e),
                    ((double)decks * exact[c * 52u + p] - e) / sqrt(e));
        }
        fprintf(f, "\n");
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    bool full = false;
    bool calibrate_only = false;
    bool power_only = false;
    bool bytes_only = false;
    uint64_t bytes_count = 0;
    const char *out_dir = NULL;
    const char *seed_hex = "fa1dea15eed0";
    unsigned long scale_down = 1; /* the sanitizer build divides the sizes (it is 5x slower) */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--full") == 0) {
            full = true;
        } else if (strcmp(argv[i], "--calibrate") == 0) {
            calibrate_only = true;
        } else if (strcmp(argv[i], "--power") == 0) {
            power_only = true;
        } else if (strcmp(argv[i], "--bytes") == 0 && i + 1 < argc) {
            bytes_count = strtoull(argv[++i], NULL, 10);
            bytes_only = true;
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed_hex = argv[++i];
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only_tests = argv[++i];
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            thread_count = (unsigned)strtoul(argv[++i], NULL, 10);
            thread_count = thread_count < 1u ? 1u : thread_count > 8u ? 8u : thread_count;
        } else if (strcmp(argv[i], "--scale-down") == 0 && i + 1 < argc) {
            scale_down = strtoul(argv[++i], NULL, 10);
            if (scale_down == 0u) {
                scale_down = 1u;
            }
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out_dir = argv[++i];
        } else {
            fprintf(stderr, "usage: fairness [--full] [--seed HEX] [--out DIR] [--scale-down K] [--threads T] "
                            "[--calibrate] [--power] [--bytes COUNT] [--only TEXT]\n");
            return 2;
        }
    }
    parse_seed(seed_hex);
    if (bytes_only) {
        return write_combined_bytes(bytes_count);
    }
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
    const double start = now();
    const uint64_t orders_small = (full ? 10000000u : 300000u) / scale_down; /* n = 3..7 */
    const uint64_t orders_8 = (full ? 100000000u : 1000000u) / scale_down;
    const uint64_t deck_shuffles = (full ? 10000000u : 100000u) / scale_down;
    const uint64_t shoe_shuffles = (full ? 2000000u : 200000u) / scale_down;
    const uint64_t max_shuffles = (full ? 10000000u : 1000000u) / scale_down; /* n = 512: bias grows with n */
    const power_sizes quick_sizes = {300000u, 1000000u, 100000u, 200000u, 1000000u};
    const power_sizes full_sizes = {10000000u, 100000000u, 10000000u, 2000000u, 10000000u};
    if (calibrate_only) {
        fprintf(report,
                "## Calibration of the null laws\n\nSeed `%s`; %u runs per test at small sizes (Durstenfeld; "
                "Sattolo for its cycles test); the p-values of a correct null are uniform.\n\n",
                seed_hex, CALIBRATION_REPS);
        const bool ok = calibrate(report);
        fprintf(report, "\nwall time %.1f s\n", now() - start);
        if (report != stdout) {
            fclose(report);
        }
        return ok ? 0 : 1;
    }
    if (power_only) {
        const bool ok = power_report(report, &quick_sizes, &full_sizes, true);
        if (report != stdout) {
            fclose(report);
        }
        return ok ? 0 : 1;
    }
    fprintf(report,
            "## Sizes and seed\n\nmode %s, seed `%s`; orders: %llu shuffles for n = 3..7, %llu for n = 8; "
            "52 cards: %llu; 312-card shoe: %llu; 512 (the largest n): %llu; controls with a fixed size say so. "
            "Family-wise alpha %.0e (Holm-Bonferroni over the fair tests); controls must reach p < %.0e. "
            "Each test runs as %u independent streams on %u threads.\n",
            full ? "full" : "quick", seed_hex, (unsigned long long)orders_small, (unsigned long long)orders_8,
            (unsigned long long)deck_shuffles, (unsigned long long)shoe_shuffles, (unsigned long long)max_shuffles,
            FAMILY_ALPHA, CONTROL_P, SHARDS, thread_count);
    for (size_t s = 0; s < SUBJECTS; s++) {
        if (subject_divisor(&subjects[s], full) > 1u) {
            fprintf(report,
                    "The %s subject runs at 1/%llu of these sizes: each of its rounds reads a fresh TRNG window "
                    "through the health tests, as the dealer does (the Throughput section has its cost).\n",
                    subjects[s].name, (unsigned long long)subject_divisor(&subjects[s], full));
        }
    }

    for (size_t s = 0; s < SUBJECTS; s++) {
        const subject *sub = &subjects[s];
        const uint64_t div = subject_divisor(sub, full);
        if (sub->orders) {
            for (size_t n = 3; n <= 8u; n++) {
                test_orders(sub, n, (n == 8u ? orders_8 : orders_small) / div);
            }
        }
        if (sub->streams & STREAM_52) {
            test_stream(sub, 52, sub->decks != 0u ? sub->decks : deck_shuffles / div);
        }
        if (sub->streams & STREAM_312) {
            test_stream(sub, 312, shoe_shuffles / div);
        }
        if (sub->streams & STREAM_512) {
            test_stream(sub, FD_SHUFFLE_MAX_N, max_shuffles / div);
        }
        fprintf(stderr, "fairness: %s done (%.1f s)\n", sub->name, now() - start);
    }
    if (wanted(subject_of(naive)->name, "exact law")) {
        fprintf(report, "\n## Exact law of the naive shuffle\n");
        test_naive_matches_exact(subject_of(naive), 3, orders_small, report);
        test_naive_matches_exact(subject_of(naive), 4, orders_small, report);
    }
    if (full && only_tests == NULL) {
        fprintf(report, "\n## The articles' experiment\n");
        for (size_t i = 0; i < sizeof article_figures / sizeof article_figures[0]; i++) {
            articles_table(&article_figures[i], out_dir, report);
        }
        if (out_dir != NULL) {
            write_heat_map(out_dir, deck_shuffles);
        }
    }

    size_t family = 0;
    const bool fair_ok = holm_passes(FAMILY_ALPHA, &family);
    bool controls_ok = true;
    fprintf(report, "\n## Results\n\n| subject | test | statistic | df | p-value | verdict | note |\n"
                    "|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < result_count; i++) {
        const result *r = &results[i];
        const char *verdict_text = r->who->control ? (r->p < CONTROL_P ? "rejected" : "not rejected by this test")
                                                   : (r->p < FAMILY_ALPHA / (double)family ? "FAIL" : "pass");
        fprintf(report, "| %s | %s | %.1f | %.0f | %.3g | %s | %s |\n", r->who->name, r->test, r->stat, r->df, r->p,
                verdict_text, r->note);
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
        if (by[0] == '\0' && only_tests != NULL) {
            continue; /* left out by --only */
        }
        if (subjects[s].control) {
            const bool rejected = min_p < CONTROL_P;
            controls_ok = controls_ok && rejected;
            fprintf(report, "- %s: %s (smallest p = %.3g, %s); stands for: %s\n", subjects[s].name,
                    rejected ? "REJECTED, as it must be" : "NOT REJECTED: the harness failed to convict it", min_p, by,
                    subjects[s].mimics);
        } else {
            fprintf(report, "- %s: smallest p = %.3g (%s)\n", subjects[s].name, min_p, by);
        }
    }
    fprintf(report, "- fair family: %zu tests, Holm-Bonferroni at %.0e: %s\n", family, FAMILY_ALPHA,
            fair_ok ? "every fair shuffle passes" : "A FAIR TEST FAILED");
    fprintf(report,
            "\n## Throughput\n\nPer test (its shuffles, %u streams on %u threads, and its tallies): wall time and "
            "shuffles per second of wall time, and per CPU-second (all threads; the figure that does not depend on "
            "what else the machine runs).\n\n"
            "| subject | test | shuffles | wall s | shuffles/s | CPU s | shuffles per CPU-s "
            "|\n|---|---|---|---|---|---|---|\n",
            SHARDS, thread_count);
    for (size_t i = 0; i < timing_count; i++) {
        const timing *t = &timings[i];
        fprintf(report, "| %s | %s | %llu | %.2f | %.3g | %.2f | %.3g |\n", t->who->name, t->test,
                (unsigned long long)t->shuffles, t->seconds, (double)t->shuffles / t->seconds, t->cpu_seconds,
                (double)t->shuffles / t->cpu_seconds);
    }
    bool power_ok = true;
    if (full && only_tests == NULL) {
        fprintf(report, "\n## Power\n\n");
        power_ok = power_report(report, &quick_sizes, &full_sizes, true);
    }
    fprintf(report, "\nHarness wall time: %.0f s.\n", now() - start);
    if (report != stdout) {
        fclose(report);
    }
    fprintf(stderr, "fairness: fair %s, controls %s (%.1f s)\n", fair_ok ? "pass" : "FAIL",
            controls_ok ? "rejected" : "NOT rejected", now() - start);
    return fair_ok && controls_ok && power_ok ? 0 : 1;
}
