#include "test_rng.h"

#include <string.h>

static fd_status script_fill(void *ctx, uint8_t *buf, size_t len)
{
    test_script_rng *s = ctx;
    s->calls++;
    if (s->fail_on_call != 0u && s->calls == s->fail_on_call) {
        return FD_ERR_RNG;
    }
    if (len > s->len - s->pos) {
        return FD_ERR_RNG;
    }
    memcpy(buf, s->bytes + s->pos, len);
    s->pos += len;
    return FD_OK;
}

fd_rng test_script_rng_init(test_script_rng *s, const uint8_t *bytes, size_t len)
{
    s->bytes = bytes;
    s->len = len;
    s->pos = 0;
    s->calls = 0;
    s->fail_on_call = 0;
    return (fd_rng){script_fill, s, NULL};
}

fd_status test_entropy_block(void *ctx, uint8_t out[32])
{
    test_entropy_source *s = ctx;
    s->calls++;
    if (s->fail_on != 0u && s->calls >= s->fail_on) {
        return s->failure;
    }
    memset(out, (int)(s->calls & 0xFFu), 32);
    return FD_OK;
}

uint32_t test_word_for(uint32_t j, uint32_t bound)
{
    return (uint32_t)((((uint64_t)j << 33) + (1ull << 32)) / (2u * (uint64_t)bound));
}

size_t test_words_for_batches(const uint32_t *j, const uint32_t *bounds, size_t count, uint32_t *words)
{
    size_t n = 0;
    size_t t = 0;
    while (t < count) {
        uint64_t product = 1;
        uint64_t value = 0; /* the group's digits, first most significant */
        size_t k = 0;
        while (t + k < count && k < 32u && product * bounds[t + k] <= (1ull << 32)) {
            product *= bounds[t + k];
            value = value * bounds[t + k] + j[t + k];
            k++;
        }
        /* the last word w with floor(w * product / 2^32) == value: its low
         * part is at least 2^32 - product >= 2^32 mod product, so Lemire's
         * test accepts it for any product */
        words[n++] = (uint32_t)((((value + 1u) << 32) - 1u) / product);
        t += k;
    }
    return n;
}

void test_words_to_bytes(const uint32_t *words, size_t count, uint8_t *bytes)
{
    for (size_t i = 0; i < count; i++) {
        for (unsigned b = 0; b < 4u; b++) {
            bytes[4u * i + b] = (uint8_t)(words[i] >> (8u * b));
        }
    }
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static fd_status prng_fill(void *ctx, uint8_t *buf, size_t len)
{
    test_prng *p = ctx;
    while (len > 0u) {
        uint64_t v = splitmix64(&p->state);
        size_t chunk = len < 8u ? len : 8u;
        memcpy(buf, &v, chunk);
        buf += chunk;
        len -= chunk;
    }
    return FD_OK;
}

fd_rng test_prng_init(test_prng *p, uint64_t seed)
{
    p->state = seed;
    return (fd_rng){prng_fill, p, NULL};
}

uint32_t test_word_for_low(uint32_t product, uint32_t low)
{
    const unsigned e = (unsigned)__builtin_ctz(product);
    const uint32_t odd = product >> e;
    uint32_t inverse = odd; /* correct to 3 bits; Newton doubles the correct low bits each step */
    for (int i = 0; i < 4; i++) {
        inverse *= 2u - odd * inverse;
    }
    return (low >> e) * inverse;
}
