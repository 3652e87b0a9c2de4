#include "fairdeal/shuffle.h"

#include <string.h>

#include "fairdeal/bounded.h"
#include "fairdeal/util.h"
#include "word.h"

_Static_assert(FD_SHUFFLE_MAX_N <= UINT16_MAX, "draws are uint16_t and batch_top covers bounds up to 65535");

/* Draws for bounds first_bound, first_bound-1, ..., first_bound-count+1,
 * each uniform in [0, bound). All draws happen before any element moves.
 *
 * Byte sources are used in batches (fd_batch_map): consecutive bounds are
 * grouped greedily while their product fits in 32 bits, and each group costs
 * one word (52 cards: 10 words instead of 51). The words for up to 16
 * groups are fetched in one call, so a DRBG pays its per-call cost once per
 * 52-card shuffle; a rejected group fetches one more word at once. A source
 * with its own exact uniform draw (full-entropy mode) is asked index by
 * index instead: it spends only the bits each bound needs. */
#define GROUPS_PER_FILL 16u

/* The greedy grouping: a group starting at bound b takes the most
 * consecutive bounds b, b-1, ... whose product stays below 2^32 (at most b
 * of them, and never more than count). That length, for b <= 65535, is
 * min(b, 2 + the number of entries of batch_top that are >= b): entry i is
 * the largest b whose group holds i + 3 bounds. Shuffles visit bounds in
 * descending order, so the count of entries >= b only ever grows: a walk,
 * not a search, and no multiplication to plan a group. */
static const uint16_t batch_top[] = {1626, 257, 86, 42, 26, 19, 16, 14, 13, 12};
#define BATCH_TOP_LEN (sizeof batch_top / sizeof batch_top[0])

static size_t batch_len(uint32_t bound, size_t count, size_t *level)
{
    while (*level < BATCH_TOP_LEN && batch_top[*level] >= bound) {
        (*level)++;
    }
    size_t len = 2u + *level;
    if (len > bound) {
        len = bound;
    }
    return len < count ? len : count;
}

/* Two groups are decoded at once on 64-bit hosts, where their multiply
 * chains overlap in a wide out-of-order core. On Cortex-M the pair saved
 * 30 of 2,447 instructions per 52 cards (M4), cost on M0, and took 290
 * bytes of flash: one group at a time there. */
#if !defined(__x86_64__) && !defined(__aarch64__)
#define GROUPS_PER_DECODE 1u
/* One group: inlined on Cortex-M3/M4 (2,403 vs 2,493 instructions per 52
 * cards), a call on Thumb-1, whose eight low registers the inlined step
 * would spill (4,573 vs 4,878). */
#if FD_MUL_BY_HALVES
#define BATCH_MAP_ONE(word, bound, len, out) fd_batch_map((word), (bound), (len), 32u, (out))
#else
#define BATCH_MAP_ONE(word, bound, len, out) fd_batch_map32((word), (bound), (len), (out))
#endif
#else
#define GROUPS_PER_DECODE 2u

/* fd_batch_map32 for the groups at out[0..len) (bounds first_bound down)
 * and out[len..len+len2) (the bounds after them), from word and word2;
 * len2 may be 0. Returns bit 0 set if the first group was accepted, bit 1
 * if the second was (or is empty). */
FD_HOT_INLINE unsigned batch_pair(uint32_t word, uint32_t first_bound, size_t len, uint32_t word2, size_t len2,
                                  uint16_t *out)
{
    uint16_t *out2 = out + len;
    uint32_t bound = first_bound;
    uint32_t bound2 = first_bound - (uint32_t)len;
    uint32_t product = 1;
    uint32_t product2 = 1;
    const size_t both = len < len2 ? len : len2;
    size_t i = 0;
    for (; i < both; i++) {
        uint32_t lo;
        uint32_t lo2;
        out[i] = (uint16_t)fd_mul_wide_small(word, bound, &lo);
        out2[i] = (uint16_t)fd_mul_wide_small(word2, bound2, &lo2);
        word = lo;
        word2 = lo2;
        product *= bound--;
        product2 *= bound2--;
    }
    /* the longer group's rest */
    for (size_t k = i; k < len; k++) {
        uint32_t lo;
        out[k] = (uint16_t)fd_mul_wide_small(word, bound, &lo);
        word = lo;
        product *= bound--;
    }
    for (size_t k = i; k < len2; k++) {
        uint32_t lo2;
        out2[k] = (uint16_t)fd_mul_wide_small(word2, bound2, &lo2);
        word2 = lo2;
        product2 *= bound2--;
    }
    return (fd_batch_accept32(word, product) ? 1u : 0u) | (fd_batch_accept32(word2, product2) ? 2u : 0u);
}

#endif

/* A rejected group: fresh words until one is accepted, each fetched into
 * the group's spent slot of the fill buffer (wiped with it, so no copy of
 * a random word stays on the stack). */
#if defined(__GNUC__)
__attribute__((noinline)) /* rare: kept out of the draw loop's registers (M0 4,667 -> 4,573) */
#endif
static fd_status
redraw_group(const fd_rng *rng, uint32_t first_bound, size_t len, uint16_t *out, uint8_t slot[4])
{
    fd_status st;
    do {
        st = rng->fill(rng->ctx, slot, 4u);
    } while (st == FD_OK && !fd_batch_map32(fd_load_le32(slot), first_bound, len, out));
    return st;
}

/* On FD_OK draws[0..count) hold the draws; on an error they hold nothing
 * (wiped). Either way the source's words used here are wiped. */
/* NOLINTNEXTLINE(readability-function-cognitive-complexity): the hot loop, kept whole for speed */
static fd_status draw_descending(const fd_rng *rng, uint32_t first_bound, size_t count, uint16_t *draws)
{
    fd_status st = FD_OK;
    if (rng->uniform != NULL) {
        for (size_t t = 0; t < count && st == FD_OK; t++) {
            uint32_t j = 0; /* stays 0 when the source fails */
            st = fd_uniform_u32(rng, first_bound - (uint32_t)t, &j);
            draws[t] = (uint16_t)j;
        }
        if (st != FD_OK) {
            fd_wipe(draws, count * sizeof draws[0]);
        }
        return st;
    }
    uint8_t words[4u * GROUPS_PER_FILL];
    uint8_t group_len[GROUPS_PER_FILL];
    size_t level = 0;
    uint16_t *out = draws;
    uint16_t *const end = draws + count;
    uint32_t bound = first_bound; /* bound of *out */
    while (out < end && st == FD_OK) {
        /* plan up to GROUPS_PER_FILL groups, fetch their words in one call */
        size_t groups = 0;
        uint32_t b = bound;
        for (size_t left = (size_t)(end - out); left > 0u && groups < GROUPS_PER_FILL; groups++) {
            const size_t len = batch_len(b, left, &level);
            group_len[groups] = (uint8_t)len;
            b -= (uint32_t)len;
            left -= len;
        }
        st = rng->fill(rng->ctx, words, 4u * groups);
        for (size_t g = 0; g < groups && st == FD_OK; g += GROUPS_PER_DECODE) {
            const size_t len = group_len[g];
            const uint32_t word = fd_load_le32(words + 4u * g);
#if GROUPS_PER_DECODE == 2u
            const size_t len2 = g + 1u < groups ? group_len[g + 1u] : 0u;
            const uint32_t word2 = len2 > 0u ? fd_load_le32(words + 4u * (g + 1u)) : 0u;
            const unsigned accepted = batch_pair(word, bound, len, word2, len2, out);
#else
            const size_t len2 = 0u;
            const unsigned accepted = BATCH_MAP_ONE(word, bound, len, out) ? 3u : 2u;
#endif
            if ((accepted & 1u) == 0u) {
                st = redraw_group(rng, bound, len, out, words + 4u * g);
            }
            if ((accepted & 2u) == 0u && st == FD_OK) {
                st = redraw_group(rng, bound - (uint32_t)len, len2, out + len, words + 4u * (g + 1u));
            }
            out += len + len2;
            bound -= (uint32_t)(len + len2);
        }
    }
    fd_wipe(words, sizeof words);
    if (st != FD_OK) {
        fd_wipe(draws, count * sizeof draws[0]);
    }
    return st;
}

static void swap_elems(uint8_t *base, size_t i, size_t j, size_t size)
{
    if (i == j) {
        return;
    }
    uint8_t *a = base + i * size;
    uint8_t *b = base + j * size;
    if (size == 1u) {
        uint8_t t = *a;
        *a = *b;
        *b = t;
        return;
    }
    if (size == 2u) {
        uint16_t t;
        uint16_t u;
        memcpy(&t, a, 2u);
        memcpy(&u, b, 2u);
        memcpy(a, &u, 2u);
        memcpy(b, &t, 2u);
        return;
    }
    /* Fixed 16-byte chunks: no VLA, no heap, any element size. */
    uint8_t tmp[16];
    while (size > 0u) {
        size_t chunk = size < sizeof tmp ? size : sizeof tmp;
        memcpy(tmp, a, chunk);
        memcpy(a, b, chunk);
        memcpy(b, tmp, chunk);
        a += chunk;
        b += chunk;
        size -= chunk;
    }
}

static fd_status check_array(const void *base, size_t n, size_t size, const fd_rng *rng)
{
    if (base == NULL || rng == NULL || rng->fill == NULL) {
        return FD_ERR_NULL;
    }
    if (size == 0u) {
        return FD_ERR_ELEM_SIZE;
    }
    if (n == 0u) {
        return FD_ERR_EMPTY;
    }
    if (n > FD_SHUFFLE_MAX_N) {
        return FD_ERR_TOO_LARGE;
    }
    return FD_OK;
}

/* Checks and all draws of Durstenfeld's shuffle: draws[t] is the partner
 * of position n-1-t (i = n-1 .. 1 uses bound i+1 = n .. 2). */
static fd_status durstenfeld_draws(const void *base, size_t n, size_t size, const fd_rng *rng, uint16_t *draws)
{
    fd_status st = check_array(base, n, size, rng);
    if (st != FD_OK) {
        return st;
    }
    return draw_descending(rng, (uint32_t)n, n - 1u, draws);
}

fd_status fd_shuffle(void *base, size_t n, size_t size, const fd_rng *rng)
{
    uint16_t draws[FD_SHUFFLE_MAX_N];
    fd_status st = durstenfeld_draws(base, n, size, rng, draws);
    if (st != FD_OK) {
        return st;
    }
    for (size_t t = 0; t + 1u < n; t++) {
        swap_elems(base, n - 1u - t, draws[t], size);
    }
    fd_wipe(draws, (n - 1u) * sizeof draws[0]);
    return FD_OK;
}

fd_status fd_sattolo(void *base, size_t n, size_t size, const fd_rng *rng)
{
    fd_status st = check_array(base, n, size, rng);
    if (st == FD_ERR_EMPTY || (st == FD_OK && n < 2u)) {
        return FD_ERR_TOO_FEW;
    }
    if (st != FD_OK) {
        return st;
    }
    uint16_t draws[FD_SHUFFLE_MAX_N];
    /* i = n-1 .. 1 uses bound i = n-1 .. 1 */
    st = draw_descending(rng, (uint32_t)n - 1u, n - 1u, draws);
    if (st != FD_OK) {
        return st;
    }
    for (size_t t = 0; t + 1u < n; t++) {
        swap_elems(base, n - 1u - t, draws[t], size);
    }
    fd_wipe(draws, (n - 1u) * sizeof draws[0]);
    return FD_OK;
}

fd_status fd_shuffle_partial(void *base, size_t n, size_t k, size_t size, const fd_rng *rng)
{
    fd_status st = check_array(base, n, size, rng);
    if (st != FD_OK) {
        return st;
    }
    if (k == 0u) {
        return FD_ERR_EMPTY;
    }
    if (k > n) {
        return FD_ERR_K_GT_N;
    }
    uint16_t draws[FD_SHUFFLE_MAX_N];
    /* position i = 0 .. k-1 takes a[i + uniform(n - i)] */
    st = draw_descending(rng, (uint32_t)n, k, draws);
    if (st != FD_OK) {
        return st;
    }
    for (size_t i = 0; i < k; i++) {
        swap_elems(base, i, i + draws[i], size);
    }
    fd_wipe(draws, k * sizeof draws[0]);
    return FD_OK;
}

static int ranges_overlap(const uint8_t *a, const uint8_t *b, size_t len)
{
    /* Compare as integers: relational operators on unrelated pointers are UB. */
    uintptr_t pa = (uintptr_t)a;
    uintptr_t pb = (uintptr_t)b;
    return (pa < pb + len) && (pb < pa + len);
}

fd_status fd_shuffle_copy(void *dst, const void *src, size_t n, size_t size, const fd_rng *rng)
{
    if (dst == NULL) {
        return FD_ERR_NULL;
    }
    fd_status st = check_array(src, n, size, rng);
    if (st != FD_OK) {
        return st;
    }
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (ranges_overlap(d, s, n * size)) {
        return FD_ERR_OVERLAP;
    }
    uint16_t draws[FD_SHUFFLE_MAX_N];
    /* i = 1 .. n-1 uses bound i+1; drawn descending, so i = n-1-t */
    st = draw_descending(rng, (uint32_t)n, n - 1u, draws);
    if (st != FD_OK) {
        return st;
    }
    memcpy(d, s, size);
    for (size_t i = 1; i < n; i++) {
        size_t j = draws[n - 1u - i];
        if (j != i) {
            memcpy(d + i * size, d + j * size, size);
        }
        memcpy(d + j * size, s + i * size, size);
    }
    fd_wipe(draws, (n - 1u) * sizeof draws[0]);
    return FD_OK;
}

fd_status fd_sample_indices(uint32_t *out, size_t k, uint32_t n, const fd_rng *rng)
{
    if (out == NULL || rng == NULL || rng->fill == NULL) {
        return FD_ERR_NULL;
    }
    if (k == 0u || n == 0u) {
        return FD_ERR_EMPTY;
    }
    if (k > FD_SHUFFLE_MAX_N) {
        return FD_ERR_TOO_LARGE;
    }
    if (k > n) {
        return FD_ERR_K_GT_N;
    }
    /* Floyd: for j = n-k .. n-1 draw t uniform in [0, j]; take t unless
     * already chosen, else take j. Draw every t first (into out). */
    for (size_t s = 0; s < k; s++) {
        uint32_t bound = n - (uint32_t)k + (uint32_t)s + 1u;
        fd_status st = fd_uniform_u32(rng, bound, &out[s]);
        if (st != FD_OK) {
            memset(out, 0, k * sizeof *out);
            return st;
        }
    }
    /* out[0..s) is the sorted set so far; out[s] still holds draw t_s. */
    for (size_t s = 0; s < k; s++) {
        const uint32_t t = out[s];
        const uint32_t j = n - (uint32_t)k + (uint32_t)s;
        size_t lo = 0;
        size_t hi = s;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2u;
            if (out[mid] < t) {
                lo = mid + 1u;
            } else {
                hi = mid;
            }
        }
        if (lo < s && out[lo] == t) {
            out[s] = j; /* j exceeds every earlier choice: stays sorted */
        } else {
            memmove(&out[lo + 1u], &out[lo], (s - lo) * sizeof *out);
            out[lo] = t;
        }
    }
    return FD_OK;
}

/* Typed fast paths for the dealer's card arrays: same draws as fd_shuffle,
 * plain swaps. */
fd_status fd_shuffle_u8(uint8_t *a, size_t n, const fd_rng *rng)
{
    uint16_t draws[FD_SHUFFLE_MAX_N];
    const fd_status st = durstenfeld_draws(a, n, 1u, rng, draws);
    if (st == FD_OK) {
        for (size_t t = 0; t + 1u < n; t++) {
            const uint8_t x = a[n - 1u - t];
            a[n - 1u - t] = a[draws[t]];
            a[draws[t]] = x;
        }
        fd_wipe(draws, (n - 1u) * sizeof draws[0]);
    }
    return st;
}

fd_status fd_shuffle_u16(uint16_t *a, size_t n, const fd_rng *rng)
{
    uint16_t draws[FD_SHUFFLE_MAX_N];
    const fd_status st = durstenfeld_draws(a, n, 2u, rng, draws);
    if (st == FD_OK) {
        for (size_t t = 0; t + 1u < n; t++) {
            const uint16_t x = a[n - 1u - t];
            a[n - 1u - t] = a[draws[t]];
            a[draws[t]] = x;
        }
        fd_wipe(draws, (n - 1u) * sizeof draws[0]);
    }
    return st;
}

fd_status fd_sattolo_u8(uint8_t *a, size_t n, const fd_rng *rng) { return fd_sattolo(a, n, 1u, rng); }
fd_status fd_sattolo_u16(uint16_t *a, size_t n, const fd_rng *rng) { return fd_sattolo(a, n, 2u, rng); }
fd_status fd_shuffle_partial_u8(uint8_t *a, size_t n, size_t k, const fd_rng *rng)
{
    return fd_shuffle_partial(a, n, k, 1u, rng);
}
fd_status fd_shuffle_partial_u16(uint16_t *a, size_t n, size_t k, const fd_rng *rng)
{
    return fd_shuffle_partial(a, n, k, 2u, rng);
}
fd_status fd_shuffle_copy_u8(uint8_t *dst, const uint8_t *src, size_t n, const fd_rng *rng)
{
    return fd_shuffle_copy(dst, src, n, 1u, rng);
}
fd_status fd_shuffle_copy_u16(uint16_t *dst, const uint16_t *src, size_t n, const fd_rng *rng)
{
    return fd_shuffle_copy(dst, src, n, 2u, rng);
}
