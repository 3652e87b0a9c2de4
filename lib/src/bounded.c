#include "fairdeal/bounded.h"

bool fd_lemire_map(uint32_t word, uint32_t bound, unsigned width, uint32_t *out)
{
    const uint64_t mask = (width >= 32u) ? 0xFFFFFFFFu : ((1u << width) - 1u);
    const uint64_t product = (uint64_t)word * bound;
    const uint64_t low = product & mask;
    if (low < bound) {
        /* (2^width - bound) mod bound: the count of words that would make
         * the high half non-uniform; only here do we pay for a division. */
        const uint64_t threshold = ((mask + 1u) - bound) % bound;
        if (low < threshold) {
            return false;
        }
    }
    *out = (uint32_t)(product >> width);
    return true;
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
    for (;;) {
        uint32_t word;
        fd_status st = fd_rng_u32(rng, &word);
        if (st != FD_OK) {
            return st;
        }
        uint32_t value;
        if (fd_lemire_map(word, bound, 32u, &value)) {
            *out = value;
            return FD_OK;
        }
    }
}
