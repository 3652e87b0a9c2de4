/* fairdeal: unbiased bounded integers (Lemire's multiply-and-reject).
 *
 * Never modulo, never floating point: a uniform word x is multiplied by the
 * bound; the high half is the result and the low half decides, exactly, the
 * rare words that must be rejected. The rejection threshold (a division) is
 * computed only when the low half falls below the bound. */
#ifndef FAIRDEAL_BOUNDED_H
#define FAIRDEAL_BOUNDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A uniform integer in [0, bound), bound in [1, 2^32-1].
 * Errors: FD_ERR_NULL, FD_ERR_BOUND (bound == 0), the source's error.
 * *out is written only on FD_OK. */
FD_MUST_CHECK fd_status fd_uniform_u32(const fd_rng *rng, uint32_t bound, uint32_t *out);

/* Lemire's step at word width `width` (1..32) for one word in [0, 2^width)
 * and a bound in [1, 2^width - 1]: returns true and sets *out when the word
 * is accepted, false when it must be rejected. fd_uniform_u32 is this at
 * width 32; it is exported so tests can enumerate every word at a small
 * width and prove exact uniformity. Preconditions are the caller's. */
bool fd_lemire_map(uint32_t word, uint32_t bound, unsigned width, uint32_t *out);

/* Most indices one word can give in fd_batch_map: 12! < 2^32 < 13!. */
#define FD_BATCH_MAX 12u

/* Several bounded integers from one word (Brackett-Rozinsky and Lemire,
 * "Batched Ranged Random Integer Generation", 2024), for the descending
 * bounds a shuffle uses: out[i] uniform in [0, first_bound - i) for
 * i < count, all independent. The product P = first_bound *
 * (first_bound - 1) * ... (count factors) must be at most 2^width and
 * below 2^32. One multiply per index; the final low part decides rejection
 * of the whole batch, exactly as Lemire's method does for the single bound
 * P. Returns false when the word must be rejected (then out holds nothing
 * meaningful). width 1..32, count 1..FD_BATCH_MAX, count <= first_bound <=
 * 65535; preconditions are the caller's. */
bool fd_batch_map(uint32_t word, uint32_t first_bound, size_t count, unsigned width, uint16_t *out);

#ifdef __cplusplus
}
#endif

#endif
