/* Random sources for tests: scripted bytes (exact, hand-checked results)
 * and a fast deterministic PRNG (statistical smoke tests only). */
#ifndef FD_TEST_RNG_H
#define FD_TEST_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/rng.h"

/* Hands out bytes[0..len) in order; once they run out, or on the call
 * numbered fail_on_call (1-based; 0 = never), it fails with FD_ERR_RNG. */
typedef struct test_script_rng {
    const uint8_t *bytes;
    size_t len;
    size_t pos;
    size_t calls;
    size_t fail_on_call;
} test_script_rng;

fd_rng test_script_rng_init(test_script_rng *s, const uint8_t *bytes, size_t len);

/* A 32-bit word that Lemire's method maps to exactly j for this bound (it
 * sits in the middle of j's bucket, far from the rejection zone). */
uint32_t test_word_for(uint32_t j, uint32_t bound);

/* The words a shuffle needs to draw exactly j[t] in [0, bounds[t]) for
 * t < count from a byte source: bounds grouped greedily while their product
 * fits in 32 bits, one word per group (as lib/src/shuffle.c batches them),
 * each in the middle of its bucket. Returns the number of words. */
size_t test_words_for_batches(const uint32_t *j, const uint32_t *bounds, size_t count, uint32_t *words);

/* A word w with w * product = low (mod 2^32): a batch word whose final low
 * part is low (a group's final low part is its word times the product of
 * its bounds, mod 2^32), to aim words at an acceptance threshold. low must
 * be a multiple of the power of two in product (product != 0); every
 * threshold 2^32 mod product is. */
uint32_t test_word_for_low(uint32_t product, uint32_t low);

/* Store words little-endian into bytes (4 per word), as fd_rng_u32 reads. */
void test_words_to_bytes(const uint32_t *words, size_t count, uint8_t *bytes);

/* A full-entropy block source for fd_drbg (an fd_entropy_fn): block number
 * `calls` is that byte repeated; from call fail_on on (0 = never) it returns
 * `failure` instead. */
typedef struct test_entropy_source {
    unsigned calls;
    unsigned fail_on;
    fd_status failure;
} test_entropy_source;

fd_status test_entropy_block(void *ctx, uint8_t out[32]);

/* splitmix64: fast, deterministic, NOT cryptographic. */
typedef struct test_prng {
    uint64_t state;
} test_prng;

fd_rng test_prng_init(test_prng *p, uint64_t seed);

#endif
