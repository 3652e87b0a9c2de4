/* Internal word helpers for the library's hot paths: little-endian loads
 * and stores, and the full 64-bit product of two 32-bit words as two
 * halves. Bounded integers need one product per index; keeping both halves
 * in 32-bit registers avoids 64-bit shifts and masks, which are library
 * calls on Cortex-M0. */
#ifndef FAIRDEAL_WORD_H
#define FAIRDEAL_WORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Inlined even at -Os: each is a handful of instructions on a hot path. */
#if defined(__GNUC__)
#define FD_HOT_INLINE static inline __attribute__((always_inline))
#else
#define FD_HOT_INLINE static inline
#endif

/* Little-endian targets that allow unaligned word access move a word in
 * one instruction; the others assemble it byte by byte. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                       \
    (defined(__ARM_FEATURE_UNALIGNED) || defined(__x86_64__) || defined(__i386__))
#define FD_LE_UNALIGNED 1
#else
#define FD_LE_UNALIGNED 0
#endif

FD_HOT_INLINE uint16_t fd_load_le16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

FD_HOT_INLINE void fd_store_le16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

FD_HOT_INLINE uint32_t fd_load_le32(const uint8_t *p)
{
#if FD_LE_UNALIGNED
    uint32_t v;
    __builtin_memcpy(&v, p, sizeof v); /* one load: plain memcpy is a call under -ffreestanding */
    return v;
#else
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
#endif
}

FD_HOT_INLINE void fd_store_le32(uint8_t *p, uint32_t v)
{
#if FD_LE_UNALIGNED
    __builtin_memcpy(p, &v, sizeof v);
#else
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
#endif
}

/* Big-endian (network order: RFC 8554's LMS/HSS fields). */
FD_HOT_INLINE uint32_t fd_load_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

FD_HOT_INLINE void fd_store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

FD_HOT_INLINE void fd_store_be16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

/* a * b as (high, low) halves from 16x16 products: the portable form, and
 * the one Thumb-1 uses (it has no 32x32->64 multiply, and libgcc's 64x64
 * __aeabi_lmul costs several times as much). */
FD_HOT_INLINE uint32_t fd_mul_halves(uint32_t a, uint32_t b, uint32_t *lo)
{
    const uint32_t ll = (a & 0xFFFFu) * (b & 0xFFFFu);
    const uint32_t hl = (a >> 16) * (b & 0xFFFFu);
    const uint32_t lh = (a & 0xFFFFu) * (b >> 16);
    const uint32_t hh = (a >> 16) * (b >> 16);
    const uint32_t mid = (ll >> 16) + (hl & 0xFFFFu) + (lh & 0xFFFFu);
    *lo = (mid << 16) | (ll & 0xFFFFu);
    return hh + (hl >> 16) + (lh >> 16) + (mid >> 16);
}

/* The same for b < 2^16 (every shuffle bound): two products. */
FD_HOT_INLINE uint32_t fd_mul_halves_small(uint32_t a, uint32_t b, uint32_t *lo)
{
    const uint32_t ll = (a & 0xFFFFu) * b;
    const uint32_t hl = (a >> 16) * b; /* below 2^32 - 2^16 */
    *lo = (hl << 16) + ll;
    return (hl + (ll >> 16)) >> 16;
}

#if defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_BASE__)
#define FD_MUL_BY_HALVES 1
#else
#define FD_MUL_BY_HALVES 0
#endif

/* Returns the high half of a * b and stores the low half in *lo. */
FD_HOT_INLINE uint32_t fd_mul_wide(uint32_t a, uint32_t b, uint32_t *lo)
{
#if FD_MUL_BY_HALVES
    return fd_mul_halves(a, b, lo);
#else
    const uint64_t p = (uint64_t)a * b;
    *lo = (uint32_t)p;
    return (uint32_t)(p >> 32);
#endif
}

/* fd_mul_wide for b < 2^16. */
FD_HOT_INLINE uint32_t fd_mul_wide_small(uint32_t a, uint32_t b, uint32_t *lo)
{
#if FD_MUL_BY_HALVES
    return fd_mul_halves_small(a, b, lo);
#else
    return fd_mul_wide(a, b, lo);
#endif
}

/* Lemire's acceptance of a batch at width 32: the final low part must not
 * fall below 2^32 mod product. product 1 (an empty batch) accepts
 * everything. Any low >= product passes (the remainder is below product),
 * so where a division is dear (Cortex-M0 has none; libgcc's costs ~40
 * instructions) it is paid only for a low below product. On x86-64 the
 * division is always made: whether low < product is a coin toss for the
 * shuffles' groups (their products come close to 2^32), and the
 * mispredicted branch cost more than the division (host, 312 cards: 1,058
 * -> 975 ns, min of 15 rounds; callgrind's branch model: 89 -> 68
 * mispredictions per shuffle). */
FD_HOT_INLINE bool fd_batch_accept32_divide(uint32_t low, uint32_t product) { return low >= (0u - product) % product; }

/* The same test, dividing only when low is below the product (rare). */
FD_HOT_INLINE bool fd_batch_accept32_early(uint32_t low, uint32_t product)
{
    return low >= product || low >= (0u - product) % product;
}

/* Both forms are compiled on every target so the host tests check the one
 * each target uses (test_bounded). */
FD_HOT_INLINE bool fd_batch_accept32(uint32_t low, uint32_t product)
{
#if defined(__x86_64__)
    return fd_batch_accept32_divide(low, product);
#else
    return fd_batch_accept32_early(low, product);
#endif
}

/* fd_batch_map32 on 16-bit limbs, for cores without a 32x32->64 multiply
 * (Cortex-M0): the running low part is kept as its two halves, so each
 * index costs two 16x16 products and no recombination: with low = H:L,
 * low * bound = (H * bound + (L * bound >> 16)) : (L * bound & 0xFFFF),
 * the index is the top half of the first part and the new H its bottom
 * half (H * bound + 2^16 - 1 < 2^32 for H, bound < 2^16). The same values
 * and verdict as the 64-bit form (test_batch_map32_limbs). Requires
 * first_bound < 2^16 and 1 <= count <= first_bound. */
FD_HOT_INLINE bool fd_batch_map32_limbs(uint32_t word, uint32_t first_bound, size_t count, uint16_t *out)
{
    uint32_t high = word >> 16;
    uint32_t low = word & 0xFFFFu;
    uint32_t product = 1;
    uint32_t bound = first_bound;
    const uint32_t last = first_bound - (uint32_t)count;
    do {
        const uint32_t low_part = low * bound;
        const uint32_t high_part = high * bound + (low_part >> 16);
        *out++ = (uint16_t)(high_part >> 16);
        high = high_part & 0xFFFFu;
        low = low_part & 0xFFFFu;
        product *= bound;
    } while (--bound != last);
    return fd_batch_accept32((high << 16) | low, product);
}

/* fd_batch_map at width 32 (count >= 1, as there), inlined into the
 * shuffles' draw loop (the exported fd_batch_map calls it): one multiply
 * per index. The loop runs on the bound alone: umull, store, multiply,
 * decrement, compare and branch on Cortex-M4. */
FD_HOT_INLINE bool fd_batch_map32(uint32_t word, uint32_t first_bound, size_t count, uint16_t *out)
{
#if FD_MUL_BY_HALVES
    return fd_batch_map32_limbs(word, first_bound, count, out);
#else
    uint32_t low = word;
    uint32_t product = 1;
    uint32_t bound = first_bound;
    const uint32_t last = first_bound - (uint32_t)count;
    do {
        uint32_t lo;
        *out++ = (uint16_t)fd_mul_wide_small(low, bound, &lo);
        low = lo;
        product *= bound;
    } while (--bound != last);
    return fd_batch_accept32(low, product);
#endif
}

/* fd_load_le32 of a word-aligned buffer: one load on every little-endian
 * target, Cortex-M0 included (which cannot load a word unaligned). */
FD_HOT_INLINE uint32_t fd_load_le32_aligned(const uint32_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return *p;
#else
    return fd_load_le32((const uint8_t *)p);
#endif
}

/* One spent random word zeroed in place: a volatile store, which the
 * compiler must keep (a call of fd_wipe and of memset cost more than the
 * rest of a small draw: 3-card shuffle 15 -> 10 ns with the rest of
 * draw_one_group). */
FD_HOT_INLINE void fd_zero_word(uint32_t *w) { *(volatile uint32_t *)w = 0; }

#endif
