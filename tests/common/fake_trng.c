#include "fake_trng.h"

#include <string.h>

static uint64_t next64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void fake_trng_init(fake_trng *t, fake_trng_mode mode, uint64_t seed)
{
    memset(t, 0, sizeof *t);
    t->mode = mode;
    t->prng = seed;
    t->fault_status = FD_ERR_TRNG_HW;
    t->p1_per_mille = 500;
}

static uint8_t sample(fake_trng *t, fake_trng_mode mode)
{
    switch (mode) {
    case FAKE_TRNG_STUCK: return t->value;
    case FAKE_TRNG_PATTERN:
    case FAKE_TRNG_SCRIPT: return t->pattern[t->delivered % t->pattern_len];
    case FAKE_TRNG_COUNTER: return (uint8_t)t->delivered;
    case FAKE_TRNG_BIASED: {
        uint8_t v = 0;
        for (unsigned b = 0; b < 8u; b++) {
            if (next64(&t->prng) % 1000u < t->p1_per_mille) {
                v = (uint8_t)(v | (1u << b));
            }
        }
        return v;
    }
    case FAKE_TRNG_RANDOM:
    default: return (uint8_t)next64(&t->prng);
    }
}

fd_status fake_trng_read(void *ctx, uint8_t *samples, size_t count)
{
    fake_trng *t = ctx;
    for (size_t i = 0; i < count; i++) {
        const uint64_t index = t->delivered + 1u;
        if (t->fault_at != 0u && index >= t->fault_at &&
            (index == t->fault_at || (t->fault_every != 0u && (index - t->fault_at) % t->fault_every == 0u))) {
            t->faults++;
            t->delivered++; /* the faulty sample slot is consumed */
            return t->fault_status;
        }
        if (t->mode == FAKE_TRNG_SCRIPT && t->delivered >= t->pattern_len) {
            return FD_ERR_TRNG_HW;
        }
        fake_trng_mode mode = (t->switch_at != 0u && t->delivered >= t->switch_at) ? t->later_mode : t->mode;
        samples[i] = sample(t, mode);
        t->delivered++;
    }
    return FD_OK;
}
