/* libFuzzer target: the shuffle library's API with arbitrary sizes and
 * arguments and a random source that hands out the fuzzer's bytes (and may
 * fail on a chosen call). Checks: invalid arguments give an argument error
 * without touching the array or the source; a valid call either succeeds or
 * returns exactly the source's error with the array untouched; every
 * success is a permutation of the input (Sattolo: one n-cycle, sampling:
 * k distinct ascending indices below n); a shoe deals each card once. */
#include <stdbool.h>
#include <string.h>

#include "fairdeal/bounded.h"
#include "fairdeal/deck.h"
#include "fairdeal/shuffle.h"
#include "fuzz_support.h"
#include "test_rng.h"

#define MAX_ELEM 9u
#define SLOTS (FD_SHUFFLE_MAX_N + 8u)

static uint8_t array[SLOTS * MAX_ELEM];
static uint8_t original[SLOTS * MAX_ELEM];
static uint8_t copy_dst[SLOTS * MAX_ELEM];
static size_t elem_size; /* for the qsort comparator */

static int compare_elems(const void *a, const void *b) { return memcmp(a, b, elem_size); }

/* a[0..n) holds the same elements as b[0..n), in any order. */
static bool same_multiset(const uint8_t *a, const uint8_t *b, size_t n, size_t size)
{
    static uint8_t x[SLOTS * MAX_ELEM];
    static uint8_t y[SLOTS * MAX_ELEM];
    memcpy(x, a, n * size);
    memcpy(y, b, n * size);
    elem_size = size;
    qsort(x, n, size, compare_elems);
    qsort(y, n, size, compare_elems);
    return memcmp(x, y, n * size) == 0;
}

/* Element i of the identity array is i (little-endian, truncated to size). */
static void fill_identity(uint8_t *a, size_t slots, size_t size)
{
    for (size_t i = 0; i < slots; i++) {
        for (size_t b = 0; b < size; b++) {
            a[i * size + b] = b < sizeof(size_t) ? (uint8_t)(i >> (8u * b)) : 0u;
        }
    }
}

static size_t elem_index(const uint8_t *a, size_t i, size_t size)
{
    size_t v = 0;
    for (size_t b = 0; b < size && b < 2u; b++) {
        v |= (size_t)a[i * size + b] << (8u * b);
    }
    return v;
}

/* From the identity, position i now holds the index it came from: one cycle
 * through all n positions. Needs distinct elements (n <= 256 or size >= 2). */
static bool single_cycle(const uint8_t *a, size_t n, size_t size)
{
    size_t at = 0;
    for (size_t steps = 1; steps <= n; steps++) {
        at = elem_index(a, at, size);
        FUZZ_CHECK(at < n);
        if (at == 0u) {
            return steps == n;
        }
    }
    return false;
}

typedef enum op {
    OP_SHUFFLE,
    OP_SATTOLO,
    OP_PARTIAL,
    OP_COPY,
    OP_SAMPLE,
    OP_UNIFORM,
    OP_SHOE,
    OP_COUNT
} op;

typedef enum width {
    W_GENERIC,
    W_U8,
    W_U16
} width;

static fd_status call_shuffle(op o, width w, uint8_t *base, const uint8_t *src, size_t n, size_t k, size_t size,
                              const fd_rng *rng)
{
    switch (o) {
    case OP_SHUFFLE:
        return w == W_U8    ? fd_shuffle_u8(base, n, rng)
               : w == W_U16 ? fd_shuffle_u16((uint16_t *)(void *)base, n, rng)
                            : fd_shuffle(base, n, size, rng);
    case OP_SATTOLO:
        return w == W_U8    ? fd_sattolo_u8(base, n, rng)
               : w == W_U16 ? fd_sattolo_u16((uint16_t *)(void *)base, n, rng)
                            : fd_sattolo(base, n, size, rng);
    case OP_PARTIAL:
        return w == W_U8    ? fd_shuffle_partial_u8(base, n, k, rng)
               : w == W_U16 ? fd_shuffle_partial_u16((uint16_t *)(void *)base, n, k, rng)
                            : fd_shuffle_partial(base, n, k, size, rng);
    default:
        return w == W_U8    ? fd_shuffle_copy_u8(base, src, n, rng)
               : w == W_U16 ? fd_shuffle_copy_u16((uint16_t *)(void *)base, (const uint16_t *)(const void *)src, n, rng)
                            : fd_shuffle_copy(base, src, n, size, rng);
    }
}

static void fuzz_shuffles(op o, fuzz_input *in, const fd_rng *rng, const test_script_rng *script)
{
    const uint8_t flags = fuzz_u8(in);
    const width w = (width)(flags % 3u);
    const bool null_base = (flags & 0x40u) != 0u && (flags & 0x80u) != 0u;
    const size_t n = fuzz_u16(in) % (FD_SHUFFLE_MAX_N + 4u);
    const size_t k = fuzz_u16(in) % (FD_SHUFFLE_MAX_N + 4u);
    const size_t size = w == W_U8 ? 1u : w == W_U16 ? 2u : fuzz_u8(in) % MAX_ELEM;
    const size_t slot_size = size == 0u ? 1u : size;
    /* 16-bit arrays must be aligned: array is static and slot_size 2 keeps it so */
    _Static_assert(_Alignof(uint16_t) <= 2, "uint16_t alignment");

    const bool null_rng = (flags & 0x30u) == 0x30u;
    const bool overlap = o == OP_COPY && (flags & 0x0Cu) == 0x0Cu; /* dst == src */
    fill_identity(array, SLOTS, slot_size);
    memset(copy_dst, 0xA5, sizeof copy_dst);
    memcpy(original, array, sizeof array);
    uint8_t *target = o == OP_COPY && !overlap ? copy_dst : array;
    uint8_t before_target[SLOTS * MAX_ELEM];
    memcpy(before_target, target, sizeof before_target);

    bool args_ok = n >= 1u && n <= FD_SHUFFLE_MAX_N && size >= 1u && !null_base && !null_rng && !overlap;
    if (o == OP_SATTOLO) {
        args_ok = args_ok && n >= 2u;
    }
    if (o == OP_PARTIAL) {
        args_ok = args_ok && k >= 1u && k <= n;
    }
    const fd_status st = call_shuffle(o, w, null_base ? NULL : target, array, n, k, size, null_rng ? NULL : rng);
    if (!args_ok) {
        FUZZ_CHECK(st != FD_OK && st != FD_ERR_RNG);
        FUZZ_CHECK(script->calls == 0u);
        FUZZ_CHECK(memcmp(before_target, target, sizeof before_target) == 0);
        return;
    }
    if (st != FD_OK) {
        FUZZ_CHECK(st == FD_ERR_RNG);
        FUZZ_CHECK(memcmp(before_target, target, sizeof before_target) == 0);
        return;
    }
    /* untouched beyond n */
    FUZZ_CHECK(memcmp(before_target + n * slot_size, target + n * slot_size, (SLOTS - n) * slot_size) == 0);
    FUZZ_CHECK(same_multiset(target, original, n, slot_size));
    if (o == OP_COPY) {
        FUZZ_CHECK(memcmp(array, original, sizeof array) == 0); /* source not modified */
    }
    if (o == OP_SATTOLO && (n <= 256u || slot_size >= 2u)) {
        FUZZ_CHECK(single_cycle(target, n, slot_size));
    }
}

static void fuzz_sample(fuzz_input *in, const fd_rng *rng, const test_script_rng *script)
{
    static uint32_t out[FD_SHUFFLE_MAX_N + 4u];
    const size_t k = fuzz_u16(in) % (FD_SHUFFLE_MAX_N + 4u);
    const uint32_t n = fuzz_u32(in) >> (fuzz_u8(in) % 32u);
    memset(out, 0x5A, sizeof out);
    const fd_status st = fd_sample_indices(out, k, n, rng);
    const bool args_ok = k >= 1u && n >= 1u && k <= FD_SHUFFLE_MAX_N && k <= n;
    if (!args_ok) {
        FUZZ_CHECK(st != FD_OK && st != FD_ERR_RNG && script->calls == 0u);
        return;
    }
    if (st != FD_OK) {
        FUZZ_CHECK(st == FD_ERR_RNG);
        for (size_t i = 0; i < k; i++) {
            FUZZ_CHECK(out[i] == 0u);
        }
        return;
    }
    for (size_t i = 0; i < k; i++) {
        FUZZ_CHECK(out[i] < n);
        FUZZ_CHECK(i == 0u || out[i - 1u] < out[i]);
    }
    FUZZ_CHECK(out[k] == 0x5A5A5A5Au);
}

static void fuzz_uniform(fuzz_input *in, const fd_rng *rng)
{
    const uint32_t bound = fuzz_u32(in) >> (fuzz_u8(in) % 32u);
    uint32_t out = 0xFFFFFFFFu;
    const fd_status st = fd_uniform_u32(rng, bound, &out);
    if (bound == 0u) {
        FUZZ_CHECK(st == FD_ERR_BOUND && out == 0xFFFFFFFFu);
    } else if (st == FD_OK) {
        FUZZ_CHECK(out < bound);
    } else {
        FUZZ_CHECK(st == FD_ERR_RNG && out == 0xFFFFFFFFu);
    }
    /* the batched map agrees with its contract at every width */
    const unsigned w = 1u + fuzz_u8(in) % 32u;
    const uint32_t word = w == 32u ? fuzz_u32(in) : fuzz_u32(in) & ((1u << w) - 1u);
    const uint32_t first = 1u + (uint32_t)fuzz_u16(in) % 65535u;
    uint16_t outs[FD_BATCH_MAX];
    size_t count = 0;
    uint64_t product = 1;
    const size_t wanted = 1u + fuzz_u8(in) % FD_BATCH_MAX;
    while (count < wanted && count < first && product * (first - count) <= (1ull << w)) {
        product *= first - count;
        count++;
    }
    if (count > 0u && product < (1ull << 32) && fd_batch_map(word, first, count, w, outs)) {
        for (size_t i = 0; i < count; i++) {
            FUZZ_CHECK(outs[i] < first - i);
        }
    }
}

static void fuzz_shoe(fuzz_input *in, const fd_rng *rng)
{
    static fd_shoe shoe;
    static fd_shoe was;
    static fd_card dealt[FD_SHOE_MAX_CARDS];
    const fd_deck_kind kind = (fd_deck_kind)(fuzz_u8(in) % 5u);
    const unsigned decks = fuzz_u8(in) % 10u;
    const unsigned jokers = fuzz_u8(in) % 4u;
    memset(&shoe, 0x77, sizeof shoe);
    was = shoe;
    uint16_t deck_size = 0;
    const bool known = fd_deck_size(kind, jokers, &deck_size) == FD_OK;
    const fd_status st = fd_shoe_init(&shoe, kind, decks, jokers);
    if (!known || decks == 0u || decks > FD_SHOE_MAX_DECKS) {
        FUZZ_CHECK(st != FD_OK && memcmp(&shoe, &was, sizeof shoe) == 0);
        return;
    }
    FUZZ_CHECK(st == FD_OK && shoe.count == deck_size * decks && !shoe.shuffled);
    fd_card none;
    FUZZ_CHECK(fd_shoe_deal(&shoe, &none) == FD_ERR_STATE);
    was = shoe;
    if (fd_shoe_shuffle(&shoe, rng) != FD_OK) {
        FUZZ_CHECK(memcmp(shoe.order, was.order, sizeof shoe.order) == 0 && !shoe.shuffled);
        FUZZ_CHECK(fd_shoe_deal(&shoe, &none) == FD_ERR_STATE);
        return;
    }
    const uint16_t cut = fuzz_u16(in) % (uint16_t)(shoe.count + 2u);
    const fd_status cut_st = fd_shoe_set_cut(&shoe, cut);
    FUZZ_CHECK((cut <= shoe.count) == (cut_st == FD_OK));
    size_t n = 0;
    fd_card c;
    fd_status deal_st;
    while ((deal_st = fd_shoe_deal(&shoe, &c)) == FD_OK) {
        FUZZ_CHECK(n < shoe.count);
        dealt[n++] = c;
        FUZZ_CHECK(fd_shoe_remaining(&shoe) == shoe.count - n);
    }
    FUZZ_CHECK(deal_st == FD_ERR_EXHAUSTED && n == shoe.count);
    FUZZ_CHECK(same_multiset((const uint8_t *)dealt, (const uint8_t *)was.order, n, sizeof(fd_card)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size, 0};
    const op o = (op)(fuzz_u8(&in) % OP_COUNT);
    const uint8_t fail_on = fuzz_u8(&in);
    /* the arguments come first, the source's bytes are the rest */
    fuzz_input args = in;
    args.len = in.pos + 12u < size ? in.pos + 12u : size;
    const size_t rng_from = args.len;
    test_script_rng script;
    fd_rng rng = test_script_rng_init(&script, data + rng_from, size - rng_from);
    script.fail_on_call = fail_on % 16u;
    switch (o) {
    case OP_SAMPLE: fuzz_sample(&args, &rng, &script); break;
    case OP_UNIFORM: fuzz_uniform(&args, &rng); break;
    case OP_SHOE: fuzz_shoe(&args, &rng); break;
    default: fuzz_shuffles(o, &args, &rng, &script); break;
    }
    return 0;
}
