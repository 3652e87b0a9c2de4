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

bool fd_batch_map(uint32_t word, const uint32_t *bounds, size_t count, uint64_t product, unsigned width,
                  uint32_t *out)
{
    const uint64_t mask = (width >= 32u) ? 0xFFFFFFFFu : ((1u << width) - 1u);
    /* r * bounds[0] * ... * bounds[i] in mixed radix: each high part is one
     * digit of floor(word * product / 2^width), most significant first. */
    uint64_t low = word;
    for (size_t i = 0; i < count; i++) {
        const uint64_t m = low * bounds[i];
        out[i] = (uint32_t)(m >> width);
        low = m & mask;
    }
    if (low < product) {
        const uint64_t threshold = ((mask + 1u) - product) % product;
        if (low < threshold) {
            return false;
        }
    }
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
