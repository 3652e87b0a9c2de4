#include "fairdeal/shuffle.h"

#include <string.h>

#include "fairdeal/bounded.h"
#include "fairdeal/util.h"
#include "batch_x86.h"
#include "drbg_fast.h"
#include "shuffle_v7m.h"
#include "shuffle_x86.h"
#include "word.h"

_Static_assert(FD_SHUFFLE_MAX_N <= UINT16_MAX, "draws are uint16_t and batch_top covers bounds up to 65535");

/* Draws for bounds first_bound, first_bound-1, ..., first_bound-count+1,
 * each uniform in [0, bound). Elements move only once every draw is made,
 * except where the typed descending shuffles swap as drawn (x86-64, below:
 * each group once it is accepted, swapped back if a later call fails).
 *
 * Byte sources are used in batches (fd_batch_map): consecutive bounds are
 * grouped greedily while their product fits in 32 bits, and each group costs
 * one word (52 cards: 10 words instead of 51). The words for up to 16
 * groups are fetched in one call, so a DRBG pays its per-call cost once per
 * 52-card shuffle; a rejected group fetches one more word at once. A source
 * with its own exact uniform draw (full-entropy mode) is asked index by
 * index instead: it spends only the bits each bound needs. */
#define GROUPS_PER_FILL 16u
_Static_assert(GROUPS_PER_FILL == FD_BATCH_X86_GROUPS, "a full fill is what fd_batch_decode16_avx512 decodes");

/* The greedy grouping: a group starting at bound b takes the most
 * consecutive bounds b, b-1, ... whose product stays below 2^32 (at most b
 * of them, and never more than count). That length, for b <= 65535, is
 * min(b, 2 + the number of entries of batch_top that are >= b): entry i is
 * the largest b whose group holds i + 3 bounds; the final 0 is below every
 * bound and ends the walk. Shuffles visit bounds in descending order, so
 * the count of entries >= b only ever grows: a walk, not a search, and no
 * multiplication to plan a group. */
static const uint16_t batch_top[] = {1626, 257, 86, 42, 26, 19, 16, 14, 13, 12, 0};

/* One group at a time. Two at once (their multiply chains overlapped)
 * was tried: on x86-64 it was slower (312 cards 970 vs 925 ns, min of 15
 * rounds) once the acceptance test lost its branch; on Cortex-M4 it saved
 * 30 of 2,447 instructions for 290 bytes of flash, on M0 it cost. The step
 * is inlined, except on Thumb-1, whose eight low registers the inlined
 * step would spill (4,573 vs 4,878 instructions per 52 cards): there it is
 * a call to the width-32 step itself, not through fd_batch_map's width
 * dispatch, which kept one spill in the loop (4,250 -> 4,151). */
#if FD_MUL_BY_HALVES && defined(__GNUC__)
__attribute__((noinline)) static bool batch_map32_call(uint32_t word, uint32_t first_bound, size_t count, uint16_t *out)
{
    return fd_batch_map32(word, first_bound, count, out);
}
#define BATCH_MAP_ONE(word, bound, len, out) batch_map32_call((word), (bound), (len), (out))
#else
#define BATCH_MAP_ONE(word, bound, len, out) fd_batch_map32((word), (bound), (len), (out))
#endif

/* Swapping as drawn (shuffle_x86.h): x86-64's typed descending shuffles
 * swap each group's draws as soon as the group is accepted. On a CPU whose
 * swaps are slow (Zen 3: ~1.7 ns a swap, a swap's loads waiting for earlier
 * swaps' stores) the swaps' chain then overlaps the next groups' multiply
 * chains: 52 cards 146 -> 127 ns, 312 1,433 -> 1,255 ns (fastest of 12
 * alternations). On one whose swaps are fast (Zen 5: ~0.55 ns) the same
 * change measured slower (52 cards 104 -> 115-121 ns, 312 700 -> 755-779;
 * docs/performance-goals.md, fourth round): there the two phases stay. A
 * failed fill or redraw after some swaps undoes them (unswap_drawn), so the
 * array is left as it was. Cortex-M keeps the two phases: its swap loops
 * are tuned apart (the Thumb-2 one zeroes the draws as it goes). */

/* The array that draw_descending swaps as it draws: draws[t] is the partner
 * of position top - t; `done` draws swapped so far. */
typedef struct swap_as_drawn {
    void *a;     /* uint8_t or uint16_t elements */
    size_t size; /* 1 or 2 */
    size_t top;  /* n - 1 */
    size_t done; /* draws[0..done) swapped */
} swap_as_drawn;

/* Swaps of the len draws d[0..len): position i_top - k with d[k]. Inlined:
 * with a constant len (decode_fill_52) the loop unrolls. */
/* NOLINTBEGIN(bugprone-macro-parentheses): T is a type, which cannot be parenthesized */
#define SWAP_RUN(T)                                                                                                    \
    do {                                                                                                               \
        T *a = base;                                                                                                   \
        for (size_t k = 0; k < len; k++) {                                                                             \
            const size_t j = d[k]; /* before the stores, which for the compiler might change d */                      \
            const T x = a[i_top - k];                                                                                  \
            a[i_top - k] = a[j];                                                                                       \
            a[j] = x;                                                                                                  \
        }                                                                                                              \
    } while (0)
/* NOLINTEND(bugprone-macro-parentheses) */
FD_HOT_INLINE void swap_run(void *base, size_t size, size_t i_top, size_t len, const uint16_t *d)
{
    if (size == 1u) {
        SWAP_RUN(uint8_t);
    } else {
        SWAP_RUN(uint16_t);
    }
}
#undef SWAP_RUN

/* Swaps the next len draws, d[0..len) (draws[done .. done + len)). */
FD_HOT_INLINE void swap_next(swap_as_drawn *s, const uint16_t *d, size_t len)
{
    swap_run(s->a, s->size, s->top - s->done, len, d);
    s->done += len;
}

/* Swaps the draws before draws[upto] not swapped yet (draws is the draw
 * buffer's start): a fill decoded at once (AVX-512). */
FD_HOT_INLINE void swap_drawn(swap_as_drawn *s, const uint16_t *draws, size_t upto)
{
    swap_next(s, draws + s->done, upto - s->done);
}

/* Undoes the swaps made so far, last first (a swap is its own inverse). */
static void unswap_drawn(swap_as_drawn *s, const uint16_t *draws)
{
    while (s->done > 0u) {
        s->done--;
        swap_run(s->a, s->size, s->top - s->done, 1u, draws + s->done);
    }
}

/* rng->fill(rng->ctx, buf, len). On x86-64 a request the ChaCha20 DRBG's
 * buffer already holds is served inline (drbg_fast.h, same effects): the
 * callback, fd_drbg_generate and the mechanism's output step cost ~33
 * cycles per request (312 cards: 14.7 requests). */
FD_HOT_INLINE fd_status fill_bytes(const fd_rng *rng, uint8_t *buf, size_t len)
{
#if defined(__x86_64__)
    if (rng->fill == fd_drbg_fill && rng->ctx != NULL && fd_drbg_generate_buffered(rng->ctx, buf, len)) {
        return FD_OK;
    }
#endif
    return rng->fill(rng->ctx, buf, len);
}

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
        st = fill_bytes(rng, slot, 4u);
    } while (st == FD_OK && !fd_batch_map32(fd_load_le32(slot), first_bound, len, out));
    return st;
}

/* Up to GROUPS_PER_FILL groups from bound down, covering at most left
 * (1 <= left <= bound: draw_descending's callers never draw more values
 * than the first bound, and both go down by each group's length, so the
 * cap at b above is the cap at left here) draws: their lengths into
 * group_len, how many draws they cover into *drawn; returns how many
 * groups. */
static size_t plan_groups(uint32_t bound, size_t left, size_t *level, uint8_t *group_len, size_t *drawn)
{
#if FD_SHUFFLE_V7M
    /* Thumb-2: in assembly (52 cards: planning 195 -> 137 instructions, draw_descending no longer spills) */
    _Static_assert(FD_PLAN_GROUPS_V7M == GROUPS_PER_FILL, "the assembly's end of the lengths");
    fd_plan_v7m p = {batch_top, (uint32_t)*level, bound, (uint32_t)left, group_len, 0};
    const size_t groups = fd_plan_groups_v7m(&p);
    *level = p.level;
    *drawn = p.drawn;
    return groups;
#else
    size_t lvl = *level;
    size_t rest = left;
    uint8_t *len_out = group_len;
    do {
        while (batch_top[lvl] >= bound) {
            lvl++;
        }
        const size_t len = 2u + lvl < rest ? 2u + lvl : rest;
        *len_out++ = (uint8_t)len;
        bound -= (uint32_t)len;
        rest -= len;
    } while (rest > 0u && len_out < group_len + GROUPS_PER_FILL);
    *level = lvl;
    *drawn = left - rest;
    return (size_t)(len_out - group_len);
#endif
}

/* The draws of `groups` planned groups from their words (a rejected
 * group's word replaced in its slot), bounds from bound down, into out;
 * each word is zeroed once its group is accepted (cheaper than wiping the
 * buffer afterwards: 52 cards M4 2,044 -> 1,978, M0 3,977 -> 3,910).
 * Not inlined: on its own it keeps its loop in registers (Cortex-M4: the
 * inlined form spilled the group pointer, the bound and the output). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static fd_status
decode_groups(const fd_rng *rng, uint32_t *words, const uint8_t *group_len, size_t groups, uint32_t bound,
              uint16_t *restrict out, swap_as_drawn *swaps)
{
#if FD_SHUFFLE_V7M
    /* Thumb-2: the accepted groups in assembly (52 cards: 447 -> 319
     * instructions), a rejected one redrawn here, then on. */
    (void)swaps; /* NULL: no swaps as drawn on Cortex-M */
    fd_decode_cursor c = {words, group_len, out, bound};
    const uint8_t *const end = group_len + groups;
    while (!fd_decode_groups_v7m(&c, end)) {
        const size_t len = *c.len++;
        const fd_status st = redraw_group(rng, c.bound, len, c.out, (uint8_t *)c.word);
        if (st != FD_OK) {
            return st;
        }
        *c.word++ = 0;
        c.out += len;
        c.bound -= (uint32_t)len;
        if (c.len == end) {
            break;
        }
    }
    return FD_OK;
#else
    for (size_t g = 0; g < groups; g++) {
        const size_t len = group_len[g];
        if (!BATCH_MAP_ONE(fd_load_le32_aligned(&words[g]), bound, len, out)) {
            const fd_status st = redraw_group(rng, bound, len, out, (uint8_t *)&words[g]);
            if (st != FD_OK) {
                return st;
            }
        }
        words[g] = 0; /* spent: zeroed at once, as the DRBG zeroes what it hands out */
        if (FD_SWAP_AS_DRAWN && swaps != NULL) {
            swap_next(swaps, out, len);
        }
        out += len;
        bound -= (uint32_t)len;
    }
    return FD_OK;
#endif
}

#if FD_BATCH_X86
/* A full fill of sixteen groups of 3 bounds then of 4, or of 4 then of 5
 * (shoes of 312 to 512 cards: bounds 512 down to about 45), with AVX-512:
 * decoded at once (fd_batch_decode16_avx512), then the rejected groups
 * redrawn in order. Returns false, having done nothing, for any other
 * fill or CPU. Same fill calls in the same order: decoding consumes no
 * bytes. */
static bool decode_fill_avx512(const fd_rng *rng, uint32_t *words, const uint8_t *group_len, size_t groups,
                               uint32_t bound, uint16_t *out, fd_status *st)
{
    const size_t len = group_len[0];
    if (groups != GROUPS_PER_FILL || (len != 3u && len != 4u) || !fd_batch_x86_has_avx512()) {
        return false;
    }
    size_t shorter = 0;
    for (size_t g = 0; g < groups; g++) {
        if (group_len[g] == len && shorter == g) {
            shorter++;
        } else if (group_len[g] != len + 1u) {
            return false;
        }
    }
    /* the mask first, from the products of the bounds: the branches on it
     * resolve before the draws' multiply chains end (312 cards -12 ns) */
    uint32_t rejected = fd_batch_rejected16_avx512(words, len, shorter, bound);
    fd_batch_decode16_avx512(words, len, shorter, bound, out);
    memset(words, 0, GROUPS_PER_FILL * sizeof words[0]); /* spent (all sixteen), as the DRBG zeroes what it hands out */
    *st = FD_OK;
    while (rejected != 0u && *st == FD_OK) {
        const unsigned g = (unsigned)__builtin_ctz(rejected);
        rejected &= rejected - 1u;
        const size_t at = (len + 1u) * g - (g < shorter ? g : shorter);
        *st = redraw_group(rng, bound - (uint32_t)at, group_len[g], out + at, (uint8_t *)&words[g]);
        words[g] = 0;
    }
    return true;
}
#endif

#if FD_BATCH_X86
/* One group of a fixed plan: len (a constant, at most 8) steps from bound
 * b0; the draws into out, the final low part returned. Written out, not a
 * loop: each step folds to a multiply, and the static analyser sees every
 * draw written. */
#define FIXED_STEP(k)                                                                                                  \
    if ((k) < len) {                                                                                                   \
        const uint64_t m = (uint64_t)low * (b0 - (k));                                                                 \
        out[k] = (uint16_t)(m >> 32);                                                                                  \
        low = (uint32_t)m;                                                                                             \
    }
FD_HOT_INLINE uint32_t fixed_group(uint32_t low, uint32_t b0, unsigned len, uint16_t *out)
{
    FIXED_STEP(0u)
    FIXED_STEP(1u)
    FIXED_STEP(2u)
    FIXED_STEP(3u)
    FIXED_STEP(4u)
    FIXED_STEP(5u)
    FIXED_STEP(6u)
    FIXED_STEP(7u)
    return low;
}
#undef FIXED_STEP

/* A fixed plan group's swaps (swap_run with a constant len, at most 8,
 * and element size): written out, as the compiler does not unroll the
 * loop (Zen 3, 52 cards: 139 ns with the loop, 127 written out). */
#define FIXED_SWAP(k)                                                                                                  \
    if ((k) < len) {                                                                                                   \
        swap_run(base, size, i_top - (k), 1u, d + (k));                                                                \
    }
FD_HOT_INLINE void fixed_swaps(void *base, size_t size, size_t i_top, unsigned len, const uint16_t *d)
{
    FIXED_SWAP(0u)
    FIXED_SWAP(1u)
    FIXED_SWAP(2u)
    FIXED_SWAP(3u)
    FIXED_SWAP(4u)
    FIXED_SWAP(5u)
    FIXED_SWAP(6u)
    FIXED_SWAP(7u)
}
#undef FIXED_SWAP

/* The 52-card deck's plan (bound 52, 51 draws: what plan_groups makes of
 * it): its eight groups, their first bounds, where their draws go, and
 * 2^32 mod the product of their bounds (test_deck_of_52_at_each_group_threshold
 * aims a word at each threshold and just below; test_golden pins the draws),
 * as X(group, first bound, length, first draw, threshold). */
#define PLAN52(X)                                                                                                      \
    X(0, 52, 5, 0, 240589696u)                                                                                         \
    X(1, 47, 5, 5, 61295656u)                                                                                          \
    X(2, 42, 6, 10, 518001376u)                                                                                        \
    X(3, 36, 6, 16, 87736576u)                                                                                         \
    X(4, 30, 6, 22, 19787296u)                                                                                         \
    X(5, 24, 7, 28, 806238976u)                                                                                        \
    X(6, 17, 8, 35, 374250496u)                                                                                        \
    X(7, 9, 8, 43, 282496u)
#define PLAN52_GROUPS 8u
typedef struct fixed_plan_group {
    uint8_t bound;
    uint8_t len;
    uint8_t at;
} fixed_plan_group;
#define PLAN52_ENTRY(g, bound, len, at, threshold) {bound, len, at},
static const fixed_plan_group plan52[PLAN52_GROUPS] = {PLAN52(PLAN52_ENTRY)};
/* the group's bit in the rejected mask; constants only, so every draw's
 * place is known where it is written */
#define PLAN52_STEP(g, bound, len, at, threshold)                                                                      \
    | ((uint32_t)(fixed_group(words[g], bound, len, out + (at)) < (threshold)) << (g))
/* one group when swapping as drawn: a rejected group is redrawn at once
 * (the redraws still come in group order, after the one fill), then the
 * group is swapped */
#define PLAN52_SWAP_STEP(g, bound, len, at, threshold)                                                                 \
    if (fixed_group(words[g], bound, len, out + (at)) < (threshold)) {                                                 \
        st = redraw_group(rng, bound, len, out + (at), (uint8_t *)&words[g]);                                          \
        if (st != FD_OK) {                                                                                             \
            swaps->done = (at); /* the groups before this one */                                                       \
            return st;                                                                                                 \
        }                                                                                                              \
    }                                                                                                                  \
    fd_zero_word(&words[g]); /* a plain store would be dead here: nothing reads words after */                         \
    fixed_swaps(elems, elem_size, 51u - (at), len, out + (at));

/* decode_fill_52 swapping each group as drawn, for elements of elem_size
 * bytes (a constant where it is inlined: every group's swaps unroll). out
 * is restrict: the swaps' stores cannot change a draw, so none is reloaded
 * after them (Zen 3, 52 cards: 167 ns without it, slower than
 * the two phases; 127 with it). */
FD_HOT_INLINE fd_status decode_fill_52_swapping(const fd_rng *rng, uint32_t *words, uint16_t *restrict out,
                                                swap_as_drawn *swaps, size_t elem_size)
{
    void *const elems = swaps->a;
    fd_status st;
    PLAN52(PLAN52_SWAP_STEP)
    swaps->done = 51u;
    return FD_OK;
}

/* x86-64: a 52-card shuffle's draws from its one fill of eight words,
 * straight-line (the eight multiply chains side by side, constant bounds
 * and thresholds: no planning, no division, no loop per group), then the
 * rejected groups redrawn in order. The same draws and fill calls as
 * decode_groups (test_golden): 52 cards ~106 -> ~92 ns. With swaps, each
 * group is swapped as drawn (decode_fill_52_swapping). */
static fd_status decode_fill_52(const fd_rng *rng, uint32_t *words, uint16_t *out, swap_as_drawn *swaps)
{
    if (swaps != NULL) {
        return swaps->size == 1u ? decode_fill_52_swapping(rng, words, out, swaps, 1u)
                                 : decode_fill_52_swapping(rng, words, out, swaps, 2u);
    }
    fd_status st = FD_OK;
    uint32_t rejected = 0u PLAN52(PLAN52_STEP);
    memset(words, 0, PLAN52_GROUPS * sizeof words[0]); /* spent, as the DRBG zeroes what it hands out */
    while (rejected != 0u && st == FD_OK) {
        const fixed_plan_group *g = &plan52[__builtin_ctz(rejected)];
        rejected &= rejected - 1u;
        st = redraw_group(rng, g->bound, g->len, out + g->at, (uint8_t *)&words[0]);
        words[0] = 0;
    }
    return st;
}
#endif

#if FD_BATCH_X86
/* A whole 52-card deck: one fill of its eight groups' words, decoded. On
 * an error the words are wiped, the draws left to the caller. */
static fd_status draw_deck_52(const fd_rng *rng, uint16_t *draws, swap_as_drawn *swaps)
{
    uint32_t words[PLAN52_GROUPS]; /* filled as bytes */
    fd_status st = fill_bytes(rng, (uint8_t *)words, sizeof words);
    if (st == FD_OK) {
        st = decode_fill_52(rng, words, draws, swaps);
    }
    if (st != FD_OK) {
        fd_wipe(words, sizeof words);
    }
    return st;
}
#endif

/* Bounds up to this are one group: 12! < 2^32 (batch_top's last entry),
 * so plan_groups would make a single group of every draw. */
#define ONE_GROUP_MAX_BOUND 12u
_Static_assert(ONE_GROUP_MAX_BOUND == 12u && 479001600ull <= UINT32_MAX, "12! fits a word");

/* draw_descending for first_bound <= ONE_GROUP_MAX_BOUND (count >= 1):
 * the one group's word, no planning and no fill loop (3 to 8 cards: most
 * of a shuffle's cost was the general path's set-up). The same fill
 * calls and draws. */
static fd_status draw_one_group(const fd_rng *rng, uint32_t first_bound, size_t count, uint16_t *draws)
{
    uint32_t word; /* filled as bytes */
    fd_status st = fill_bytes(rng, (uint8_t *)&word, sizeof word);
    if (st == FD_OK && !BATCH_MAP_ONE(fd_load_le32_aligned(&word), first_bound, count, draws)) {
        st = redraw_group(rng, first_bound, count, draws, (uint8_t *)&word);
    }
    fd_zero_word(&word); /* spent, as the DRBG zeroes what it hands out */
    return st;
}

/* draw_descending's draws from a full-entropy source or through the
 * general fill loop; swaps as below. On an error the draws are left for
 * the caller to undo and wipe. */
#if defined(__GNUC__)
__attribute__((noinline)) /* out of draw_descending: its frame and saved registers cost the small shuffles ~1 ns */
#endif
static fd_status
draw_descending_into(const fd_rng *rng, uint32_t first_bound, size_t count, uint16_t *draws, swap_as_drawn *swaps)
{
    fd_status st = FD_OK;
    if (rng->uniform != NULL) {
        for (size_t t = 0; t < count && st == FD_OK; t++) {
            uint32_t j = 0; /* stays 0 when the source fails */
            st = fd_uniform_u32(rng, first_bound - (uint32_t)t, &j);
            draws[t] = (uint16_t)j;
        }
        return st;
    }
    uint32_t words[GROUPS_PER_FILL]; /* filled as bytes; aligned, so each is one load (fd_load_le32_aligned) */
    uint8_t group_len[GROUPS_PER_FILL];
    size_t level = 0;
    uint16_t *out = draws;
    size_t left = count;
    uint32_t bound = first_bound; /* bound of *out */
    while (left > 0u && st == FD_OK) {
        /* up to GROUPS_PER_FILL groups, their words fetched in one call */
        size_t drawn = 0;
        const size_t groups = plan_groups(bound, left, &level, group_len, &drawn);
        st = fill_bytes(rng, (uint8_t *)words, 4u * groups);
#if FD_BATCH_X86
        if (st == FD_OK && !decode_fill_avx512(rng, words, group_len, groups, bound, out, &st)) {
#else
        if (st == FD_OK) {
#endif
            st = decode_groups(rng, words, group_len, groups, bound, out, swaps);
        }
        out += drawn;
        bound -= (uint32_t)drawn;
        left -= drawn;
        if (FD_SWAP_AS_DRAWN && swaps != NULL && st == FD_OK) {
            swap_drawn(swaps, draws, (size_t)(out - draws)); /* a fill decoded at once (AVX-512) */
        }
    }
    if (st != FD_OK) {
        fd_wipe(words, sizeof words); /* a failed fill or redraw may have left words anywhere in it */
    }
    return st;
}

/* On FD_OK draws[0..count) hold the draws; on an error they hold nothing
 * (wiped). Either way the source's words used here are wiped. With swaps
 * (x86-64's typed descending shuffles from a byte source, first bound
 * above ONE_GROUP_MAX_BOUND; NULL otherwise) each draw is also swapped as
 * soon as it is final, and on an error those swaps are undone: the array
 * is as it was. */
static fd_status draw_descending(const fd_rng *rng, uint32_t first_bound, size_t count, uint16_t *draws,
                                 swap_as_drawn *swaps)
{
    fd_status st;
    if (first_bound <= ONE_GROUP_MAX_BOUND && count > 0u && rng->uniform == NULL) {
        st = draw_one_group(rng, first_bound, count, draws);
#if FD_BATCH_X86
    } else if (first_bound == 52u && count == 51u && rng->uniform == NULL) {
        st = draw_deck_52(rng, draws, swaps);
#endif
    } else {
        st = draw_descending_into(rng, first_bound, count, draws, swaps);
    }
    if (st != FD_OK) {
        if (FD_SWAP_AS_DRAWN && swaps != NULL) {
            unswap_drawn(swaps, draws);
        }
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
static fd_status durstenfeld_draws(const void *base, size_t n, size_t size, const fd_rng *rng, uint16_t *draws,
                                   swap_as_drawn *swaps)
{
    fd_status st = check_array(base, n, size, rng);
    if (st != FD_OK) {
        return st;
    }
    return draw_descending(rng, (uint32_t)n, n - 1u, draws, swaps);
}

/* Checks and all draws of Sattolo's shuffle: draws[t] is the partner of
 * position n-1-t (i = n-1 .. 1 uses bound i = n-1 .. 1); the swaps are
 * Durstenfeld's. */
static fd_status sattolo_draws(const void *a, size_t n, size_t size, const fd_rng *rng, uint16_t *draws,
                               swap_as_drawn *swaps)
{
    const fd_status st = check_array(a, n, size, rng);
    if (st == FD_ERR_EMPTY || (st == FD_OK && n < 2u)) {
        return FD_ERR_TOO_FEW;
    }
    return st == FD_OK ? draw_descending(rng, (uint32_t)n - 1u, n - 1u, draws, swaps) : st;
}

/* Checks and all draws of the partial shuffle: position i < k takes
 * a[i + draws[i]], draws[i] uniform in [0, n - i). */
static fd_status partial_draws(const void *a, size_t n, size_t k, size_t size, const fd_rng *rng, uint16_t *draws)
{
    const fd_status st = check_array(a, n, size, rng);
    if (st != FD_OK) {
        return st;
    }
    if (k == 0u) {
        return FD_ERR_EMPTY;
    }
    if (k > n) {
        return FD_ERR_K_GT_N;
    }
    return draw_descending(rng, (uint32_t)n, k, draws, NULL);
}

fd_status fd_shuffle(void *base, size_t n, size_t size, const fd_rng *rng)
{
    uint16_t draws[FD_SHUFFLE_MAX_N];
    fd_status st = durstenfeld_draws(base, n, size, rng, draws, NULL);
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
    uint16_t draws[FD_SHUFFLE_MAX_N];
    const fd_status st = sattolo_draws(base, n, size, rng, draws, NULL);
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
    uint16_t draws[FD_SHUFFLE_MAX_N];
    const fd_status st = partial_draws(base, n, k, size, rng, draws);
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

/* The inside-out copy (Durstenfeld's "inside-out" form): element i of src
 * goes to draws[n-1-i]'s place, whose element moves up to i. */
FD_HOT_INLINE void inside_out(uint8_t *d, const uint8_t *s, size_t n, size_t size, const uint16_t *draws)
{
    memcpy(d, s, size);
    for (size_t i = 1; i < n; i++) {
        size_t j = draws[n - 1u - i];
        if (j != i) {
            memcpy(d + i * size, d + j * size, size);
        }
        memcpy(d + j * size, s + i * size, size);
    }
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
    st = draw_descending(rng, (uint32_t)n, n - 1u, draws, NULL);
    if (st != FD_OK) {
        return st;
    }
    /* a constant size turns each element copy into one move (a call of
     * memcpy per element was most of an inside-out shuffle's time) */
    switch (size) {
    case 1u: inside_out(d, s, n, 1u, draws); break;
    case 2u: inside_out(d, s, n, 2u, draws); break;
    default: inside_out(d, s, n, size, draws); break;
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

/* The swap loops are a call on Thumb-1 (FD_MUL_BY_HALVES), where the
 * inlined loop spilled a register inside the loop (52 cards on M0: 4,347 ->
 * 4,250 instructions); inlined elsewhere. */
#if FD_MUL_BY_HALVES && defined(__GNUC__)
#define SWAPS_FN static __attribute__((noinline))
#else
#define SWAPS_FN FD_HOT_INLINE
#endif

/* Durstenfeld's swaps for the draws of durstenfeld_draws, on elements of
 * type T: a[i] <-> a[draws[n-1-i]] for i = n-1 .. 1, in that order. Pointers
 * walk a down and draws up (the indexed form cost 9.5 instructions per
 * swap on Cortex-M4, this 7), two swaps per pass after an odd one (52
 * cards: M4 2,087 -> 2,044, M0 4,077 -> 3,977, x86-64 -100). */
/* NOLINTBEGIN(bugprone-macro-parentheses): T is a type, which cannot be parenthesized */
#define DEFINE_SWAPS(name, T)                                                                                          \
    SWAPS_FN void name(T *a, size_t n, const uint16_t *draws)                                                          \
    {                                                                                                                  \
        T *p = a + n - 1u;                                                                                             \
        if ((n - 1u) % 2u != 0u) {                                                                                     \
            const uint16_t j = *draws++;                                                                               \
            const T x = *p;                                                                                            \
            *p-- = a[j];                                                                                               \
            a[j] = x;                                                                                                  \
        }                                                                                                              \
        if (p > a) {                                                                                                   \
            do {                                                                                                       \
                const uint16_t j = draws[0];                                                                           \
                const T x = p[0];                                                                                      \
                p[0] = a[j];                                                                                           \
                a[j] = x;                                                                                              \
                const uint16_t k = draws[1];                                                                           \
                const T y = p[-1];                                                                                     \
                p[-1] = a[k];                                                                                          \
                a[k] = y;                                                                                              \
                draws += 2;                                                                                            \
                p -= 2;                                                                                                \
            } while (p > a);                                                                                           \
        }                                                                                                              \
    }
/* NOLINTEND(bugprone-macro-parentheses) */
DEFINE_SWAPS(swaps_u8, uint8_t)
DEFINE_SWAPS(swaps_u16, uint16_t)

/* The typed swaps, then the draws wiped. On Thumb-2 the assembly zeroes
 * each draw as it uses it: no second pass over them (52 cards: the swaps
 * and the draws' wipe 389 + 84 -> 310 instructions). */
#if FD_SHUFFLE_V7M
#define SWAPS_AND_WIPE_U8(a, n, draws) fd_swaps_u8_v7m((a), (n), (draws))
#define SWAPS_AND_WIPE_U16(a, n, draws) fd_swaps_u16_v7m((a), (n), (draws))
#else
#define SWAPS_AND_WIPE_U8(a, n, draws)                                                                                 \
    do {                                                                                                               \
        swaps_u8((a), (n), (draws));                                                                                   \
        fd_wipe((draws), ((n)-1u) * sizeof(draws)[0]);                                                                 \
    } while (0)
#define SWAPS_AND_WIPE_U16(a, n, draws)                                                                                \
    do {                                                                                                               \
        swaps_u16((a), (n), (draws));                                                                                  \
        fd_wipe((draws), ((n)-1u) * sizeof(draws)[0]);                                                                 \
    } while (0)
#endif

/* Whether this CPU's typed descending shuffles swap as drawn: on x86-64
 * without AVX-512. The property that decides (how fast a swap's loads get
 * past earlier swaps' stores) has no CPUID bit; of the two CPUs measured,
 * Zen 3 (AVX2) gains and Zen 5 (AVX-512) loses, so AVX-512 stands for the
 * newer cores (an assumption for the CPUs not measured, where either form
 * gives the same output). */
FD_HOT_INLINE bool swap_as_drawn_here(void)
{
#if FD_SWAP_AS_DRAWN
    return !fd_batch_x86_has_avx512();
#else
    return false;
#endif
}

/* When a typed descending shuffle swaps: after all draws, as drawn, or as
 * this CPU does it faster (swap_as_drawn_here). */
typedef enum {
    SWAPS_AFTER,
    SWAPS_AS_DRAWN,
    SWAPS_AS_CPU_PREFERS
} swap_form;

/* The draws of a typed descending shuffle (Durstenfeld's or Sattolo's);
 * *swapped says whether they were swapped as drawn: as the form says, from
 * a byte source, past one group (n > 13: a first bound of 13 or more; one
 * group's few swaps are faster in the unrolled loop after the draws:
 * 8 cards 26.5 vs 23.3 ns; the CPU is asked only then). */
FD_HOT_INLINE fd_status descending_draws(void *a, size_t n, size_t size, const fd_rng *rng, bool sattolo,
                                         swap_form form, uint16_t *draws, bool *swapped)
{
    swap_as_drawn *swaps_made = NULL;
#if FD_SWAP_AS_DRAWN
    swap_as_drawn swaps;
    if (form != SWAPS_AFTER && n > ONE_GROUP_MAX_BOUND + 1u && rng != NULL && rng->uniform == NULL &&
        (form == SWAPS_AS_DRAWN || swap_as_drawn_here())) {
        swaps = (swap_as_drawn){a, size, n - 1u, 0u};
        swaps_made = &swaps;
    }
#else
    (void)form;
#endif
    *swapped = swaps_made != NULL;
    return sattolo ? sattolo_draws(a, n, size, rng, draws, swaps_made)
                   : durstenfeld_draws(a, n, size, rng, draws, swaps_made);
}

/* Typed fast paths for the dealer's card arrays: Durstenfeld's or
 * Sattolo's draws (as fd_shuffle and fd_sattolo), then the typed swaps,
 * which are the same for both (a call of the generic element swap per
 * draw was most of a small shuffle's time). */
FD_HOT_INLINE fd_status descending_u8(uint8_t *a, size_t n, const fd_rng *rng, bool sattolo, swap_form form)
{
    _Alignas(uint32_t) uint16_t draws[FD_SHUFFLE_MAX_N]; /* word-aligned for the Thumb-2 swaps' zeroing */
    bool swapped;
    const fd_status st = descending_draws(a, n, 1u, rng, sattolo, form, draws, &swapped);
    if (st == FD_OK && swapped) {
        fd_wipe(draws, (n - 1u) * sizeof draws[0]);
    } else if (st == FD_OK) {
        SWAPS_AND_WIPE_U8(a, n, draws);
    }
    return st;
}

FD_HOT_INLINE fd_status descending_u16(uint16_t *a, size_t n, const fd_rng *rng, bool sattolo, swap_form form)
{
    _Alignas(uint32_t) uint16_t draws[FD_SHUFFLE_MAX_N]; /* word-aligned for the Thumb-2 swaps' zeroing */
    bool swapped;
    const fd_status st = descending_draws(a, n, 2u, rng, sattolo, form, draws, &swapped);
    if (st == FD_OK && swapped) {
        fd_wipe(draws, (n - 1u) * sizeof draws[0]);
    } else if (st == FD_OK) {
        SWAPS_AND_WIPE_U16(a, n, draws);
    }
    return st;
}

fd_status fd_shuffle_u8(uint8_t *a, size_t n, const fd_rng *rng)
{
    return descending_u8(a, n, rng, false, SWAPS_AS_CPU_PREFERS);
}
fd_status fd_shuffle_u16(uint16_t *a, size_t n, const fd_rng *rng)
{
    return descending_u16(a, n, rng, false, SWAPS_AS_CPU_PREFERS);
}
fd_status fd_sattolo_u8(uint8_t *a, size_t n, const fd_rng *rng)
{
    return descending_u8(a, n, rng, true, SWAPS_AS_CPU_PREFERS);
}
fd_status fd_sattolo_u16(uint16_t *a, size_t n, const fd_rng *rng)
{
    return descending_u16(a, n, rng, true, SWAPS_AS_CPU_PREFERS);
}

#if FD_SWAP_AS_DRAWN
fd_status fd_descending_u8_form(uint8_t *a, size_t n, const fd_rng *rng, bool sattolo, bool as_drawn)
{
    return descending_u8(a, n, rng, sattolo, as_drawn ? SWAPS_AS_DRAWN : SWAPS_AFTER);
}
fd_status fd_descending_u16_form(uint16_t *a, size_t n, const fd_rng *rng, bool sattolo, bool as_drawn)
{
    return descending_u16(a, n, rng, sattolo, as_drawn ? SWAPS_AS_DRAWN : SWAPS_AFTER);
}
#endif

/* The partial shuffle's swaps on elements of type T: a[i] <-> a[i +
 * draws[i]] for i < k, then the draws wiped. */
/* NOLINTBEGIN(bugprone-macro-parentheses): T is a type, which cannot be parenthesized */
#define DEFINE_PARTIAL_SWAPS(name, T)                                                                                  \
    SWAPS_FN void name(T *a, size_t k, uint16_t *draws)                                                                \
    {                                                                                                                  \
        for (size_t i = 0; i < k; i++) {                                                                               \
            T *const q = a + i + draws[i];                                                                             \
            const T x = a[i];                                                                                          \
            a[i] = *q;                                                                                                 \
            *q = x;                                                                                                    \
        }                                                                                                              \
        fd_wipe(draws, k * sizeof draws[0]);                                                                           \
    }
/* NOLINTEND(bugprone-macro-parentheses) */
DEFINE_PARTIAL_SWAPS(partial_swaps_u8, uint8_t)
DEFINE_PARTIAL_SWAPS(partial_swaps_u16, uint16_t)

fd_status fd_shuffle_partial_u8(uint8_t *a, size_t n, size_t k, const fd_rng *rng)
{
    uint16_t draws[FD_SHUFFLE_MAX_N];
    const fd_status st = partial_draws(a, n, k, 1u, rng, draws);
    if (st == FD_OK) {
        partial_swaps_u8(a, k, draws);
    }
    return st;
}

fd_status fd_shuffle_partial_u16(uint16_t *a, size_t n, size_t k, const fd_rng *rng)
{
    uint16_t draws[FD_SHUFFLE_MAX_N];
    const fd_status st = partial_draws(a, n, k, 2u, rng, draws);
    if (st == FD_OK) {
        partial_swaps_u16(a, k, draws);
    }
    return st;
}
fd_status fd_shuffle_copy_u8(uint8_t *dst, const uint8_t *src, size_t n, const fd_rng *rng)
{
    return fd_shuffle_copy(dst, src, n, 1u, rng);
}
fd_status fd_shuffle_copy_u16(uint16_t *dst, const uint16_t *src, size_t n, const fd_rng *rng)
{
    return fd_shuffle_copy(dst, src, n, 2u, rng);
}
