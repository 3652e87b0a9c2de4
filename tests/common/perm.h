/* Permutation helpers for tests: rank an order of 0..n-1 (n <= 12) to an
 * index in [0, n!), and the naive biased shuffle (the negative control:
 * it lives here, never in lib/). */
#ifndef FD_TEST_PERM_H
#define FD_TEST_PERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/rng.h"

uint32_t test_factorial(unsigned n);
uint32_t test_perm_rank(const uint8_t *order, size_t n);
void test_perm_unrank(uint32_t rank, uint8_t *order, size_t n);
bool test_perm_is_single_cycle(const uint8_t *order, size_t n);
/* Swaps every position i with j uniform in [0, n-1]: biased for n > 2. */
fd_status test_naive_shuffle(void *base, size_t n, size_t size, const fd_rng *rng); /* size <= 16 */
fd_status test_naive_shuffle_u8(uint8_t *a, size_t n, const fd_rng *rng);

#endif
