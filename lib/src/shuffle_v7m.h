/* Internal: the shuffles' hot loops in Thumb-2 assembly for Cortex-M3/M4
 * (shuffle_v7m.c): decoding the planned groups' words into draws, and the
 * typed Durstenfeld swaps. shuffle.c's C stays the reference and the code
 * everywhere else; the unit tests on the Cortex-M3/M4 boards compare these
 * with it (test_shuffle: test_v7m_forms_agree). */
#ifndef FAIRDEAL_SHUFFLE_V7M_H
#define FAIRDEAL_SHUFFLE_V7M_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) && (defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__))
#define FD_SHUFFLE_V7M 1
#else
#define FD_SHUFFLE_V7M 0
#endif

#if FD_SHUFFLE_V7M
/* Where decoding stands: the next group's word and length, where its draws
 * go and its first bound. The field order is the assembly's (ldm/stm). */
typedef struct {
    uint32_t *word;
    const uint8_t *len;
    uint16_t *out;
    uint32_t bound;
} fd_decode_cursor;

/* Decodes groups from c up to len_end (at least one group: c->len <
 * len_end; each length 1..12, each group's product of bounds below 2^32)
 * as fd_batch_map32 does, zeroing each accepted group's word. Returns 1
 * when all were accepted (c at len_end); 0 at the first rejected group, c
 * then at that group (its word kept, out and bound as at its start; its
 * draws in out are to be overwritten). */
uint32_t fd_decode_groups_v7m(fd_decode_cursor *c, const uint8_t *len_end);

/* Planning: groups from bound down, as shuffle.c's plan_groups. The
 * field order is the assembly's (ldm). */
typedef struct {
    const uint16_t *top; /* shuffle.c's batch_top, ending in 0 */
    uint32_t level;      /* in and out: entries of top known to be >= bound */
    uint32_t bound;      /* the first group's first bound, >= left */
    uint32_t left;       /* draws left, >= 1 */
    uint8_t *group_len;  /* out: FD_PLAN_GROUPS_V7M lengths at most */
    uint32_t drawn;      /* out: draws the groups cover */
} fd_plan_v7m;

#define FD_PLAN_GROUPS_V7M 16u

/* Plans up to FD_PLAN_GROUPS_V7M greedy groups (each as long as the bound
 * allows, 2 + the entries of top >= its first bound, the last one cut to
 * the draws left): their lengths into p->group_len, the level reached into
 * p->level, the draws covered into p->drawn. Returns how many groups. */
uint32_t fd_plan_groups_v7m(fd_plan_v7m *p);

/* Durstenfeld's swaps a[i] <-> a[draws[n-1-i]] for i = n-1 .. 1, in that
 * order, zeroing each draw as it is used (so no separate wipe of the
 * draws). n >= 1; draws word-aligned (zeroed four at a time with strd). */
void fd_swaps_u8_v7m(uint8_t *a, size_t n, uint16_t *draws);
void fd_swaps_u16_v7m(uint16_t *a, size_t n, uint16_t *draws);
#endif

#endif
