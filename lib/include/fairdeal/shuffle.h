/* fairdeal: unbiased shuffles and sampling, all O(n), no heap.
 *
 * Every function first validates its arguments; an invalid argument or a
 * failing random source returns an error with the array as it was: nothing
 * half-shuffled is ever returned. Most draw all the random indices they
 * need before they move an element. On x86-64 the typed Durstenfeld and
 * Sattolo shuffles (fd_shuffle_u8/u16, fd_sattolo_u8/u16, n > 13) may swap
 * elements between calls of the source (on CPUs where that is faster) and
 * swap them back if a later call fails: the source's callback must not read
 * or change the array being shuffled, nor may another thread during the
 * call. The cost of the guarantee is a stack buffer of FD_SHUFFLE_MAX_N
 * 16-bit indices (1 KiB).
 *
 * Generic functions take an element size in bytes (any size >= 1); the _u8
 * and _u16 forms are the same algorithms for byte and 16-bit arrays. */
#ifndef FAIRDEAL_SHUFFLE_H
#define FAIRDEAL_SHUFFLE_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest n any shuffle accepts: an 8-deck shoe of 54 cards is 432. */
#define FD_SHUFFLE_MAX_N 512u

/* Durstenfeld's Fisher-Yates, in place: for i = n-1 down to 1, swap a[i]
 * with a[j], j uniform in [0, i]. Each of the n! orders has probability 1/n!.
 * Errors: FD_ERR_NULL, FD_ERR_EMPTY (n == 0), FD_ERR_TOO_LARGE
 * (n > FD_SHUFFLE_MAX_N), FD_ERR_ELEM_SIZE (size == 0), the source's error. */
FD_MUST_CHECK fd_status fd_shuffle(void *base, size_t n, size_t size, const fd_rng *rng);
/* fd_shuffle for an array of bytes; same errors except FD_ERR_ELEM_SIZE. */
FD_MUST_CHECK fd_status fd_shuffle_u8(uint8_t *a, size_t n, const fd_rng *rng);
/* fd_shuffle for an array of uint16_t (such as fd_card). */
FD_MUST_CHECK fd_status fd_shuffle_u16(uint16_t *a, size_t n, const fd_rng *rng);

/* Sattolo's algorithm, in place: j uniform in [0, i-1], so the result is a
 * uniformly random single n-cycle ((n-1)! outcomes; no element stays put).
 * Errors: as fd_shuffle, plus FD_ERR_TOO_FEW for n < 2 (n == 0 included). */
FD_MUST_CHECK fd_status fd_sattolo(void *base, size_t n, size_t size, const fd_rng *rng);
/* fd_sattolo for an array of bytes. */
FD_MUST_CHECK fd_status fd_sattolo_u8(uint8_t *a, size_t n, const fd_rng *rng);
/* fd_sattolo for an array of uint16_t. */
FD_MUST_CHECK fd_status fd_sattolo_u16(uint16_t *a, size_t n, const fd_rng *rng);

/* Partial shuffle: afterwards a[0..k) is a uniformly random k-permutation of
 * the n elements (dealing k cards without shuffling the rest); a[k..n) holds
 * the others in unspecified order. k == n is a full shuffle.
 * Errors: as fd_shuffle, plus FD_ERR_EMPTY (k == 0), FD_ERR_K_GT_N. */
FD_MUST_CHECK fd_status fd_shuffle_partial(void *base, size_t n, size_t k, size_t size, const fd_rng *rng);
/* fd_shuffle_partial for an array of bytes. */
FD_MUST_CHECK fd_status fd_shuffle_partial_u8(uint8_t *a, size_t n, size_t k, const fd_rng *rng);
/* fd_shuffle_partial for an array of uint16_t. */
FD_MUST_CHECK fd_status fd_shuffle_partial_u16(uint16_t *a, size_t n, size_t k, const fd_rng *rng);

/* Inside-out shuffle: dst[0..n) becomes a uniformly random order of
 * src[0..n); src is not modified. The buffers must not overlap.
 * Errors: as fd_shuffle, plus FD_ERR_OVERLAP. On error dst is untouched. */
FD_MUST_CHECK fd_status fd_shuffle_copy(void *dst, const void *src, size_t n, size_t size, const fd_rng *rng);
/* fd_shuffle_copy for arrays of bytes. */
FD_MUST_CHECK fd_status fd_shuffle_copy_u8(uint8_t *dst, const uint8_t *src, size_t n, const fd_rng *rng);
/* fd_shuffle_copy for arrays of uint16_t. */
FD_MUST_CHECK fd_status fd_shuffle_copy_u16(uint16_t *dst, const uint16_t *src, size_t n, const fd_rng *rng);

/* A uniformly random k-subset of {0, ..., n-1}, without replacement, written
 * to out[0..k) in ascending order (Floyd's algorithm: k draws, O(k^2) worst
 * case insertion, k <= FD_SHUFFLE_MAX_N). n may be up to 2^32 - 1.
 * Errors: FD_ERR_NULL, FD_ERR_EMPTY (k or n == 0), FD_ERR_TOO_LARGE
 * (k > FD_SHUFFLE_MAX_N), FD_ERR_K_GT_N, the source's error. out is output
 * only: on a source error it is zero-filled, never left partly chosen. */
FD_MUST_CHECK fd_status fd_sample_indices(uint32_t *out, size_t k, uint32_t n, const fd_rng *rng);

#ifdef __cplusplus
}
#endif

#endif
