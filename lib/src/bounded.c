#include "fairdeal/bounded.h"

#include "fairdeal/util.h"
#include "word.h"

/* (hi, lo) = low * bound: the digit above `width` bits, and the new low
 * part below them in *low. */
FD_HOT_INLINE uint32_t split_digit(uint32_t hi, uint32_t lo, unsigned width, uint32_t *low)
{
    if (width >= 32u) {
        *low = lo;
        return hi;
    }
    *low = lo & ((1u << width) - 1u);
    return (hi << (32u - width)) | (lo >> width);
}

/* Lemire's test on the final low part of word * product: reject the
 * (2^width mod product) words whose low part is below that remainder. Only
 * a low part below the product can be one, so the division is paid only
 * then. A product of exactly 2^width (span 0) rejects nothing. */
static bool low_accepted(uint32_t low, uint32_t product, unsigned width)
{
    if (low >= product) {
        return true;
    }
    const uint32_t span = (width >= 32u ? 0u : (1u << width)) - product; /* 2^width - product */
    return low >= span % product;
}

bool fd_lemire_map(uint32_t word, uint32_t bound, unsigned width, uint32_t *out)
{
    uint32_t lo;
    const uint32_t hi = fd_mul_wide(word, bound, &lo);
    uint32_t low;
    const uint32_t value = split_digit(hi, lo, width, &low);
    if (!low_accepted(low, bound, width)) {
        return false;
    }
    *out = value;
    return true;
}

bool fd_batch_map(uint32_t word, uint32_t first_bound, size_t count, unsigned width, uint16_t *out)
{
    /* word * first_bound * (first_bound - 1) * ... in mixed radix: each high
     * part is one digit of floor(word * product / 2^width), most
     * significant first. */
    if (width >= 32u) {
        return fd_batch_map32(word, first_bound, count, out);
    }
    uint32_t low = word;
    uint32_t bound = first_bound;
    uint32_t product = 1;
    for (size_t i = 0; i < count; i++) {
        uint32_t lo;
        const uint32_t hi = fd_mul_wide_small(low, bound, &lo);
        out[i] = (uint16_t)split_digit(hi, lo, width, &low);
        product *= bound--;
    }
    return low_accepted(low, product, width);
}

fd_status fd_uniform_u32(const fd_rng *rng, uint32_t bound, uint32_t *out)
{
    if (rng == NULL || rng->fill == NULL || out == NULL) {
        return FD_ERR_NULL;
    }
    if (bound == 0u) {
        return FD_ERR_BOUND;
    }
    if (rng->uniform != NULL) {
        return rng->uniform(rng->ctx, bound, out);
    }
    /* fd_rng_u32's fill and load, with one wipe for all the words tried */
    uint32_t word; /* filled as bytes */
    uint32_t value = 0;
    fd_status st;
    do {
        st = rng->fill(rng->ctx, (uint8_t *)&word, sizeof word);
    } while (st == FD_OK && !fd_lemire_map(fd_load_le32_aligned(&word), bound, 32u, &value));
    fd_zero_word(&word);
    if (st == FD_OK) {
        *out = value;
    }
    return st;
}
