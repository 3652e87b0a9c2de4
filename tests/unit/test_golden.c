/* Golden outputs: SHA-256 digests of many shuffles from fixed seeds, for both
 * DRBGs and every shuffle entry point the dealer and fairdeal-tool use,
 * computed from the code before any speed work and checked in. Any change to
 * the DRBG streams, their key-erasure or reseed schedule, the size of the
 * requests the shuffles make, the batching or the swap order changes a
 * digest. The host runs the full counts and the short ones; the QEMU boards
 * and the sanitized host build run the short ones (same digests on every
 * platform, whichever ChaCha20 form it uses). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/drbg.h"
#include "fairdeal/sha256.h"
#include "fairdeal/shuffle.h"
#include "fairdeal/util.h"
#include "test_rng.h"

/* Shoe sizes 1..8 decks of 52 and the edge sizes 3, 432 (8 x 54), 512. */
static const uint16_t sizes[] = {3, 52, 104, 156, 208, 260, 312, 364, 416, 432, 512};
#define SIZES (sizeof sizes / sizeof sizes[0])

typedef enum entry {
    ENTRY_GENERIC, /* fd_shuffle, 3-byte elements */
    ENTRY_U8,
    ENTRY_U16,
    ENTRY_PARTIAL, /* k = n / 2 + 1 */
    ENTRY_SATTOLO,
    ENTRY_COPY,
    ENTRY_SAMPLE, /* k = n / 4 + 1 */
    ENTRIES
} entry;

static const char *const entry_names[ENTRIES] = {"generic", "u8", "u16", "partial", "sattolo", "copy", "sample"};
#if !defined(FD_TARGET_CORTEX_M)
static const char *const entry_enums[ENTRIES] = {"ENTRY_GENERIC", "ENTRY_U8",   "ENTRY_U16",   "ENTRY_PARTIAL",
                                                 "ENTRY_SATTOLO", "ENTRY_COPY", "ENTRY_SAMPLE"};
#endif

/* Reseeds every 1,000 generate calls, so the digests pin the reseed path. */
#define GOLDEN_RESEED_INTERVAL 1000u

/* One element of every array below per card; static: 16 KiB parts. */
static uint8_t generic[3u * FD_SHUFFLE_MAX_N];
static uint8_t bytes8[FD_SHUFFLE_MAX_N];
static uint16_t words16[FD_SHUFFLE_MAX_N];
static uint16_t identity16[FD_SHUFFLE_MAX_N];
static uint32_t sample[FD_SHUFFLE_MAX_N];
static fd_drbg drbg;

/* One shuffle of n cards from the identity; its output goes into h. */
static void shuffle_once(entry e, size_t n, const fd_rng *rng, fd_sha256_ctx *h)
{
    fd_status st = FD_ERR_RNG;
    switch (e) {
    case ENTRY_GENERIC:
        for (size_t i = 0; i < n; i++) {
            generic[3u * i] = (uint8_t)i;
            generic[3u * i + 1u] = (uint8_t)(i >> 8);
            generic[3u * i + 2u] = 0xA5;
        }
        st = fd_shuffle(generic, n, 3u, rng);
        fd_sha256_update(h, generic, 3u * n);
        break;
    case ENTRY_U8:
        for (size_t i = 0; i < n; i++) {
            bytes8[i] = (uint8_t)(i * 7u); /* distinct below 256 cards */
        }
        st = fd_shuffle_u8(bytes8, n, rng);
        fd_sha256_update(h, bytes8, n);
        break;
    case ENTRY_U16:
    case ENTRY_PARTIAL:
    case ENTRY_SATTOLO:
        memcpy(words16, identity16, n * sizeof words16[0]);
        st = e == ENTRY_U16       ? fd_shuffle_u16(words16, n, rng)
             : e == ENTRY_PARTIAL ? fd_shuffle_partial_u16(words16, n, n / 2u + 1u, rng)
                                  : fd_sattolo_u16(words16, n, rng);
        fd_sha256_update(h, words16, n * sizeof words16[0]); /* little-endian hosts and targets */
        break;
    case ENTRY_COPY:
        st = fd_shuffle_copy_u16(words16, identity16, n, rng);
        fd_sha256_update(h, words16, n * sizeof words16[0]);
        break;
    case ENTRY_SAMPLE:
        st = fd_sample_indices(sample, n / 4u + 1u, (uint32_t)n, rng);
        fd_sha256_update(h, sample, (n / 4u + 1u) * sizeof sample[0]);
        break;
    case ENTRIES: break;
    }
    assert_int_equal(st, FD_OK);
}

/* The digest of `count` shuffles of every size in turn, from one DRBG
 * instantiated from the counting test source with the entry's name as
 * personalization. */
static void golden_digest(fd_drbg_kind kind, entry e, unsigned count, uint8_t out[FD_SHA256_SIZE])
{
    for (size_t i = 0; i < FD_SHUFFLE_MAX_N; i++) {
        identity16[i] = (uint16_t)i;
    }
    test_entropy_source src = {0, 0, FD_OK};
    const fd_drbg_config cfg = {kind, false, GOLDEN_RESEED_INTERVAL, 0};
    const char *name = entry_names[e];
    assert_int_equal(fd_drbg_instantiate(&drbg, &cfg, test_entropy_block, &src, (const uint8_t *)name, strlen(name)),
                     FD_OK);
    const fd_rng rng = fd_drbg_rng(&drbg);
    fd_sha256_ctx h;
    fd_sha256_init(&h);
    for (size_t s = 0; s < SIZES; s++) {
        for (unsigned c = 0; c < count; c++) {
            shuffle_once(e, sizes[s], &rng, &h);
        }
    }
    fd_sha256_final(&h, out);
    fd_drbg_uninstantiate(&drbg);
}

typedef struct golden {
    fd_drbg_kind kind;
    entry e;
    unsigned count;
    const char *digest; /* lowercase hex, from the code before the speed work */
} golden;

/* Short runs: the QEMU boards check these too. */
static const golden short_runs[] = {
#include "golden_short.inc"
};

/* The full counts run in the plain host build; under AddressSanitizer
 * (~5x slower) the short runs check the same code for memory errors. */
#if defined(FD_TARGET_CORTEX_M) || defined(__SANITIZE_ADDRESS__)
#define FD_GOLDEN_FULL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FD_GOLDEN_FULL 0
#endif
#endif
#if !defined(FD_GOLDEN_FULL)
#define FD_GOLDEN_FULL 1
#endif

#if FD_GOLDEN_FULL
/* 10,000 shuffles of every size on ChaCha20; HMAC_DRBG (~25x slower per
 * card, 4 us per generate call) runs 200 of each size to stay within a
 * couple of seconds. */
static const golden full_runs[] = {
#include "golden_full.inc"
};
#endif

/* Checks every run; the host prints each digest that differs (to review a
 * deliberate change), a board reports the index of the first. */
static void check_runs(const golden *runs, size_t count)
{
    size_t first_failure = count;
    for (size_t r = 0; r < count; r++) {
        uint8_t digest[FD_SHA256_SIZE];
        golden_digest(runs[r].kind, runs[r].e, runs[r].count, digest);
        char hex[2u * FD_SHA256_SIZE + 1u];
        assert_int_equal(fd_hex_encode(digest, sizeof digest, hex, sizeof hex), FD_OK);
        if (strcmp(hex, runs[r].digest) != 0) {
#if !defined(FD_TARGET_CORTEX_M)
            print_message("    {%s, %s, %u, \"%s\"},\n",
                          runs[r].kind == FD_DRBG_CHACHA20 ? "FD_DRBG_CHACHA20" : "FD_DRBG_HMAC_SHA256",
                          entry_enums[runs[r].e], runs[r].count, hex);
#endif
            if (first_failure == count) {
                first_failure = r;
            }
        }
    }
    assert_int_equal(first_failure, count);
}

static void test_short_runs_unchanged(void **state)
{
    (void)state;
    check_runs(short_runs, sizeof short_runs / sizeof short_runs[0]);
}

#if FD_GOLDEN_FULL
static void test_full_runs_unchanged(void **state)
{
    (void)state;
    check_runs(full_runs, sizeof full_runs / sizeof full_runs[0]);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_runs_unchanged),
#if FD_GOLDEN_FULL
        cmocka_unit_test(test_full_runs_unchanged),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
