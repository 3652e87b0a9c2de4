#include "perm.h"

#include <string.h>

#include "fairdeal/bounded.h"

uint32_t test_factorial(unsigned n)
{
    uint32_t f = 1;
    for (unsigned i = 2; i <= n; i++) {
        f *= i;
    }
    return f;
}

/* Lehmer code: digit i counts the later elements smaller than order[i]. */
uint32_t test_perm_rank(const uint8_t *order, size_t n)
{
    uint32_t rank = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t smaller = 0;
        for (size_t k = i + 1u; k < n; k++) {
            smaller += order[k] < order[i] ? 1u : 0u;
        }
        rank = rank * (uint32_t)(n - i) + smaller;
    }
    return rank;
}

void test_perm_unrank(uint32_t rank, uint8_t *order, size_t n)
{
    uint8_t digits[16];
    if (n > sizeof digits) {
        return; /* outside the precondition; also tells -O3 the arrays' bound */
    }
    for (size_t i = n; i-- > 0;) {
        uint32_t radix = (uint32_t)(n - i);
        digits[i] = (uint8_t)(rank % radix);
        rank /= radix;
    }
    uint8_t avail[16];
    for (size_t i = 0; i < n; i++) {
        avail[i] = (uint8_t)i;
    }
    size_t left = n;
    for (size_t i = 0; i < n; i++) {
        size_t d = digits[i];
        order[i] = avail[d];
        for (size_t k = d; k + 1u < left; k++) {
            avail[k] = avail[k + 1u];
        }
        left--;
    }
}

bool test_perm_is_single_cycle(const uint8_t *order, size_t n)
{
    size_t len = 0;
    size_t at = 0;
    do {
        at = order[at];
        len++;
    } while (at != 0u && len <= n);
    return len == n;
}

fd_status test_naive_shuffle(void *base, size_t n, size_t size, const fd_rng *rng)
{
    uint8_t *a = base;
    uint8_t tmp[16];
    if (size > sizeof tmp) {
        return FD_ERR_ELEM_SIZE;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t j;
        fd_status st = fd_uniform_u32(rng, (uint32_t)n, &j);
        if (st != FD_OK) {
            return st;
        }
        if (size == 2u) { /* constant sizes: inline moves, not three libc calls (the fairness harness's u16) */
            memcpy(tmp, a + i * 2u, 2u);
            memcpy(a + i * 2u, a + (size_t)j * 2u, 2u);
            memcpy(a + (size_t)j * 2u, tmp, 2u);
            continue;
        }
        memcpy(tmp, a + i * size, size);
        memcpy(a + i * size, a + (size_t)j * size, size);
        memcpy(a + (size_t)j * size, tmp, size);
    }
    return FD_OK;
}

fd_status test_naive_shuffle_u8(uint8_t *a, size_t n, const fd_rng *rng) { return test_naive_shuffle(a, n, 1, rng); }
