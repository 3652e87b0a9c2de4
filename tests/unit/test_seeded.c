/* One-call seeded randomness and the DRBG adapters: the stated derivation's
 * known answer (computed independently by tests/tools/seeded_vector.py),
 * split-independence of the stream, one seed bit changing everything, and
 * the attacker's cases: bad arguments change nothing, an unusable DRBG and
 * a request that fails part-way both hand out zeros, never partial output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/seeded.h"
#include "fairdeal/shuffle.h"
#include "seeded_vectors.h"

static const uint8_t kat_seed[FD_SEED_BYTES] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                                16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

static fd_chacha_drbg state_a; /* large: keep off the small target stacks */
static fd_chacha_drbg state_b;
static uint8_t out[sizeof seeded_kat_stream];

static void test_known_answer(void **st)
{
    (void)st;
    fd_rng rng;
    assert_int_equal(fd_rng_from_seed(&state_a, kat_seed, &rng), FD_OK);
    assert_int_equal(rng.fill(rng.ctx, out, sizeof out), FD_OK);
    assert_memory_equal(out, seeded_kat_stream, sizeof out);
}

static void test_stream_independent_of_request_sizes(void **st)
{
    (void)st;
    static const size_t pieces[] = {1, 3, 31, 1, 200, 4, 12, 5, 255};
    fd_rng rng;
    assert_int_equal(fd_rng_from_seed(&state_a, kat_seed, &rng), FD_OK);
    memset(out, 0, sizeof out);
    size_t done = 0;
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
        assert_int_equal(rng.fill(rng.ctx, out + done, pieces[i]), FD_OK);
        done += pieces[i];
    }
    assert_int_equal(done, sizeof out);
    assert_memory_equal(out, seeded_kat_stream, sizeof out);
}

static void test_one_seed_bit_changes_the_stream(void **st)
{
    (void)st;
    uint8_t seed[FD_SEED_BYTES];
    memcpy(seed, kat_seed, sizeof seed);
    seed[31] ^= 0x80u;
    fd_rng rng;
    assert_int_equal(fd_rng_from_seed(&state_a, seed, &rng), FD_OK);
    assert_int_equal(rng.fill(rng.ctx, out, 32), FD_OK);
    assert_memory_not_equal(out, seeded_kat_stream, 32);
}

static void test_same_seed_same_shuffle(void **st)
{
    (void)st;
    uint16_t a[52];
    uint16_t b[52];
    for (uint16_t i = 0; i < 52u; i++) {
        a[i] = i;
        b[i] = i;
    }
    fd_rng ra;
    fd_rng rb;
    assert_int_equal(fd_rng_from_seed(&state_a, kat_seed, &ra), FD_OK);
    assert_int_equal(fd_rng_from_seed(&state_b, kat_seed, &rb), FD_OK);
    assert_int_equal(fd_shuffle_u16(a, 52, &ra), FD_OK);
    assert_int_equal(fd_shuffle_u16(b, 52, &rb), FD_OK);
    assert_memory_equal(a, b, sizeof a);
    uint16_t sorted = 1;
    for (uint16_t i = 0; i < 52u; i++) {
        sorted = (uint16_t)(sorted & (a[i] == i));
    }
    assert_int_equal(sorted, 0);
}

static void test_bad_arguments_change_nothing(void **st)
{
    (void)st;
    fd_rng rng = {NULL, &state_b, NULL};
    memset(&state_a, 0x5A, sizeof state_a);
    fd_chacha_drbg before;
    memcpy(&before, &state_a, sizeof before);
    assert_int_equal(fd_rng_from_seed(NULL, kat_seed, &rng), FD_ERR_NULL);
    assert_int_equal(fd_rng_from_seed(&state_a, NULL, &rng), FD_ERR_NULL);
    assert_int_equal(fd_rng_from_seed(&state_a, kat_seed, NULL), FD_ERR_NULL);
    assert_memory_equal(&state_a, &before, sizeof before);
    assert_null(rng.fill);
    assert_true(rng.ctx == &state_b);

    assert_int_equal(fd_rng_from_seed(&state_a, kat_seed, &rng), FD_OK);
    assert_int_equal(rng.fill(rng.ctx, NULL, 1), FD_ERR_NULL);
    assert_int_equal(rng.fill(rng.ctx, out, 16), FD_OK);
    assert_memory_equal(out, seeded_kat_stream, 16); /* the NULL fill took nothing */
}

static void test_uninstantiated_hands_out_zeros(void **st)
{
    (void)st;
    fd_chacha_drbg_uninstantiate(&state_a);
    fd_rng rng = fd_chacha_drbg_rng(&state_a);
    memset(out, 0xAA, 64);
    assert_int_equal(rng.fill(rng.ctx, out, 64), FD_ERR_NOT_READY);
    static const uint8_t zeros[64];
    assert_memory_equal(out, zeros, 64);
    /* even an empty request reports the unusable DRBG */
    assert_int_equal(rng.fill(rng.ctx, out, 0), FD_ERR_NOT_READY);

    fd_hmac_drbg h;
    fd_hmac_drbg_uninstantiate(&h);
    rng = fd_hmac_drbg_rng(&h);
    memset(out, 0xAA, 64);
    assert_int_equal(rng.fill(rng.ctx, out, 64), FD_ERR_NOT_READY);
    assert_memory_equal(out, zeros, 64);
}

static void test_hmac_adapter_is_one_generate(void **st)
{
    (void)st;
    fd_hmac_drbg h1;
    fd_hmac_drbg h2;
    assert_int_equal(fd_hmac_drbg_instantiate(&h1, kat_seed, 32, kat_seed, 16, NULL, 0, 2), FD_OK);
    assert_int_equal(fd_hmac_drbg_instantiate(&h2, kat_seed, 32, kat_seed, 16, NULL, 0, 2), FD_OK);
    uint8_t direct[100];
    assert_int_equal(fd_hmac_drbg_generate(&h1, direct, sizeof direct, NULL, 0), FD_OK);
    const fd_rng rng = fd_hmac_drbg_rng(&h2);
    assert_int_equal(rng.fill(rng.ctx, out, sizeof direct), FD_OK);
    assert_memory_equal(out, direct, sizeof direct);
    /* interval 2: one more fill, then the adapter must not reseed by itself */
    assert_int_equal(rng.fill(rng.ctx, out, 8), FD_OK);
    memset(out, 0xAA, 8);
    assert_int_equal(rng.fill(rng.ctx, out, 8), FD_ERR_RESEED_REQUIRED);
    static const uint8_t zeros[8];
    assert_memory_equal(out, zeros, 8);
}

#if !defined(FD_TARGET_CORTEX_M)
/* Requests above one generate's limit (64 KiB: host only). */
static uint8_t big[FD_HMAC_DRBG_MAX_REQUEST + 40u];
static uint8_t big_ref[FD_HMAC_DRBG_MAX_REQUEST + 40u];

static void test_large_requests_split(void **st)
{
    (void)st;
    fd_rng rng;
    assert_int_equal(fd_rng_from_seed(&state_a, kat_seed, &rng), FD_OK);
    assert_int_equal(rng.fill(rng.ctx, big, sizeof big), FD_OK);
    assert_memory_equal(big, seeded_kat_stream, sizeof seeded_kat_stream);
    assert_int_equal(fd_chacha_drbg_instantiate(&state_b, kat_seed, 32, NULL, 0, NULL, 0, 10), FD_OK);
    assert_int_equal(fd_chacha_drbg_generate(&state_b, big_ref, FD_CHACHA_DRBG_MAX_REQUEST, NULL, 0), FD_OK);
    assert_int_equal(fd_chacha_drbg_generate(&state_b, big_ref + FD_CHACHA_DRBG_MAX_REQUEST, 40, NULL, 0), FD_OK);
    assert_memory_equal(big, big_ref, sizeof big);

    fd_hmac_drbg h1;
    fd_hmac_drbg h2;
    assert_int_equal(fd_hmac_drbg_instantiate(&h1, kat_seed, 32, NULL, 0, NULL, 0, 10), FD_OK);
    assert_int_equal(fd_hmac_drbg_instantiate(&h2, kat_seed, 32, NULL, 0, NULL, 0, 10), FD_OK);
    assert_int_equal(fd_hmac_drbg_generate(&h1, big_ref, FD_HMAC_DRBG_MAX_REQUEST, NULL, 0), FD_OK);
    assert_int_equal(fd_hmac_drbg_generate(&h1, big_ref + FD_HMAC_DRBG_MAX_REQUEST, 40, NULL, 0), FD_OK);
    const fd_rng hr = fd_hmac_drbg_rng(&h2);
    assert_int_equal(hr.fill(hr.ctx, big, sizeof big), FD_OK);
    assert_memory_equal(big, big_ref, sizeof big);
}

/* The second piece fails: the first piece's bytes must not survive. */
static void test_failure_part_way_leaves_no_output(void **st)
{
    (void)st;
    fd_hmac_drbg h;
    assert_int_equal(fd_hmac_drbg_instantiate(&h, kat_seed, 32, NULL, 0, NULL, 0, 1), FD_OK);
    fd_rng rng = fd_hmac_drbg_rng(&h);
    memset(big, 0xAA, sizeof big);
    assert_int_equal(rng.fill(rng.ctx, big, sizeof big), FD_ERR_RESEED_REQUIRED);
    static const uint8_t zeros[sizeof big];
    assert_memory_equal(big, zeros, sizeof big);

    assert_int_equal(fd_chacha_drbg_instantiate(&state_a, kat_seed, 32, NULL, 0, NULL, 0, 1), FD_OK);
    rng = fd_chacha_drbg_rng(&state_a);
    memset(big, 0xAA, sizeof big);
    assert_int_equal(rng.fill(rng.ctx, big, sizeof big), FD_ERR_RESEED_REQUIRED);
    assert_memory_equal(big, zeros, sizeof big);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_answer),
        cmocka_unit_test(test_stream_independent_of_request_sizes),
        cmocka_unit_test(test_one_seed_bit_changes_the_stream),
        cmocka_unit_test(test_same_seed_same_shuffle),
        cmocka_unit_test(test_bad_arguments_change_nothing),
        cmocka_unit_test(test_uninstantiated_hands_out_zeros),
        cmocka_unit_test(test_hmac_adapter_is_one_generate),
#if !defined(FD_TARGET_CORTEX_M)
        cmocka_unit_test(test_large_requests_split),
        cmocka_unit_test(test_failure_part_way_leaves_no_output),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
