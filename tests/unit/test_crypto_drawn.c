/* Direct tests against the survivors of the mutants drawn by rule in the
 * library's crypto and round code (docs/RELIABILITY.md, "Mutants drawn by
 * rule"): each names the mutant it kills. Linked with --wrap=fd_sha256 so
 * the known-answer self-test can be shown a wrong SHA-256 digest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/chacha20.h"
#include "fairdeal/round.h"
#include "fairdeal/selftest.h"
#include "fairdeal/sha256.h"
#include "fairdeal/status.h"

/* ---- the self-test shown a wrong SHA-256 digest ---- */

void __real_fd_sha256(const void *data, size_t len, uint8_t out[FD_SHA256_SIZE]);
void __wrap_fd_sha256(const void *data, size_t len, uint8_t out[FD_SHA256_SIZE]);
static bool sha256_broken;

void __wrap_fd_sha256(const void *data, size_t len, uint8_t out[FD_SHA256_SIZE])
{
    __real_fd_sha256(data, len, out);
    if (sha256_broken) {
        out[31] ^= 0x01u; /* one bit of the 32 bytes the self-test compares */
    }
}

/* selftest.c: "ok && memcmp(out, sha256_abc, 32) == 0" with || (the
 * SHA-256 known answer ignored while nothing failed before it). The
 * header: FD_ERR_KAT if any answer is wrong. */
static void test_selftest_fails_on_a_wrong_sha256_digest(void **state)
{
    (void)state;
    assert_int_equal(fd_selftest_kat(), FD_OK);
    sha256_broken = true;
    const fd_status st = fd_selftest_kat();
    sha256_broken = false;
    assert_int_equal(st, FD_ERR_KAT);
    assert_int_equal(fd_selftest_kat(), FD_OK);
}

/* ---- ChaCha20 DRBG reseed: missing inputs ---- */

static void instantiate(fd_chacha_drbg *d)
{
    uint8_t seed[FD_CHACHA_DRBG_MIN_ENTROPY];
    for (unsigned i = 0; i < sizeof seed; i++) {
        seed[i] = (uint8_t)(0x40u + i);
    }
    assert_int_equal(fd_chacha_drbg_instantiate(d, seed, sizeof seed, NULL, 0, NULL, 0, 100), FD_OK);
}

/* chacha20.c reseed: "d == NULL || entropy == NULL || !input_ok(addl,
 * addl_len)" with the first two joined to the third by && (a missing
 * entropy input let through whenever the additional input is fine, a
 * missing additional input whenever the entropy is there). The header:
 * errors as fd_hmac_drbg_reseed, FD_ERR_NULL for a missing pointer before
 * any length is looked at; the refused call changes nothing (the next
 * output is a twin's that saw no such call). */
static void test_chacha_reseed_refuses_missing_inputs(void **state)
{
    (void)state;
    fd_chacha_drbg d;
    fd_chacha_drbg twin;
    instantiate(&d);
    instantiate(&twin);
    uint8_t entropy[FD_CHACHA_DRBG_MIN_ENTROPY];
    memset(entropy, 0x5A, sizeof entropy);
    assert_int_equal(fd_chacha_drbg_reseed(&d, NULL, 0, NULL, 0), FD_ERR_NULL);
    assert_int_equal(fd_chacha_drbg_reseed(&d, NULL, sizeof entropy, NULL, 0), FD_ERR_NULL);
    assert_int_equal(fd_chacha_drbg_reseed(&d, entropy, sizeof entropy, NULL, 1), FD_ERR_NULL);
    assert_int_equal(fd_chacha_drbg_reseed(NULL, entropy, sizeof entropy, NULL, 0), FD_ERR_NULL);
    uint8_t a[48];
    uint8_t b[48];
    assert_int_equal(fd_chacha_drbg_generate(&d, a, sizeof a, NULL, 0), FD_OK);
    assert_int_equal(fd_chacha_drbg_generate(&twin, b, sizeof b, NULL, 0), FD_OK);
    assert_memory_equal(a, b, sizeof a);
    fd_chacha_drbg_uninstantiate(&d);
    fd_chacha_drbg_uninstantiate(&twin);
}

/* ---- round seeds: a missing seed set or header ---- */

/* round.c fd_round_seed_set: "seeds == NULL || header == NULL" with &&
 * (either one missing let through alone). The header: FD_ERR_NULL, and on
 * error nothing changes. */
static void test_round_seed_set_refuses_a_missing_seed_set_or_header(void **state)
{
    (void)state;
    fd_round_header header;
    memset(&header, 0, sizeof header);
    header.slot_mask = 0x01u;
    fd_round_seeds seeds;
    assert_int_equal(fd_round_seeds_clear(&seeds), FD_OK);
    const uint8_t seed[4] = {1, 2, 3, 4};
    assert_int_equal(fd_round_seed_set(&seeds, NULL, 0, seed, 0), FD_ERR_NULL);
    assert_int_equal(fd_round_seed_set(NULL, &header, 0, seed, 0), FD_ERR_NULL);
    assert_int_equal(fd_round_seed_set(&seeds, NULL, 0, seed, sizeof seed), FD_ERR_NULL);
    assert_int_equal(fd_round_seed_set(NULL, &header, 0, seed, sizeof seed), FD_ERR_NULL);
    assert_true(fd_round_house_only(&seeds));                                          /* nothing filled */
    assert_int_equal(fd_round_seed_set(&seeds, &header, 0, seed, sizeof seed), FD_OK); /* the control */
    assert_int_equal(seeds.len[0], sizeof seed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_selftest_fails_on_a_wrong_sha256_digest),
        cmocka_unit_test(test_chacha_reseed_refuses_missing_inputs),
        cmocka_unit_test(test_round_seed_set_refuses_a_missing_seed_set_or_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
