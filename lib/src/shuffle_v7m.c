/* The shuffles' hot loops in Thumb-2 (Cortex-M3/M4), see shuffle_v7m.h.
 * Written for the instruction count under the shuffles' fixed call pattern
 * (52 cards: 8 groups of 51 draws, 51 swaps); the C in shuffle.c is the
 * reference. Only registers hold secrets here: nothing is spilled. */
#include "shuffle_v7m.h"

#if FD_SHUFFLE_V7M
/* fd_decode_groups_v7m. r0 cursor, r1 len_end; r2 word, r3 len, r4 out,
 * r5 bound (ldm/stm of the cursor), r6 length then high half, r7 low part,
 * r8 product, r9 zero, r10 the acceptance threshold. Each group jumps
 * (tbb on its length L) into a straight run of twelve steps, entering at
 * step 12 - L: a step is umull, the draw stored, the bound decremented and
 * the product multiplied by it (not after the last step), four
 * instructions per draw against six in the C loop, which also pays a
 * compare and branch. The product starts at the first bound, so the
 * entry step needs no multiply. Acceptance as fd_batch_accept32_early:
 * low >= product, else low >= 2^32 mod product (udiv, rare). */
#define DRAW_STEP(n)                                                                                                   \
    ".Ld" #n ":\n"                                                                                                     \
    "    umull r7, r6, r7, r5\n"                                                                                       \
    "    strh r6, [r4], #2\n"                                                                                          \
    "    subs r5, r5, #1\n"
#define NEXT_STEP(n) "    mul r8, r8, r5\n" DRAW_STEP(n)
__asm__("    .syntax unified\n"
        "    .thumb\n"
        "    .pushsection .text.fd_decode_groups_v7m,\"ax\",%progbits\n"
        "    .global fd_decode_groups_v7m\n"
        "    .type fd_decode_groups_v7m, %function\n"
        "    .thumb_func\n"
        "    .align 2\n"
        "fd_decode_groups_v7m:\n"
        "    push {r4-r10, lr}\n"
        "    ldm r0, {r2-r5}\n"
        "    movs r9, #0\n"
        "1:\n"
        "    ldrb r6, [r3], #1\n"
        "    ldr r7, [r2]\n"
        "    mov r8, r5\n"
        "    tbb [pc, r6]\n"
        "2:\n"
        "    .byte (.Ld0 - 2b) / 2, (.Ld1 - 2b) / 2, (.Ld2 - 2b) / 2, (.Ld3 - 2b) / 2, (.Ld4 - 2b) / 2\n"
        "    .byte (.Ld5 - 2b) / 2, (.Ld6 - 2b) / 2, (.Ld7 - 2b) / 2, (.Ld8 - 2b) / 2, (.Ld9 - 2b) / 2\n"
        "    .byte (.Ld10 - 2b) / 2, (.Ld11 - 2b) / 2, (.Ld12 - 2b) / 2\n"
        "    .align 1\n" DRAW_STEP(12) NEXT_STEP(11) NEXT_STEP(10) NEXT_STEP(9) NEXT_STEP(8) NEXT_STEP(7) NEXT_STEP(6)
            NEXT_STEP(5) NEXT_STEP(4) NEXT_STEP(3) NEXT_STEP(2)
                NEXT_STEP(1) ".Ld0:\n"
                             "    cmp r7, r8\n"
                             "    bcc 4f\n"
                             "3:\n"
                             "    str r9, [r2], #4\n"
                             "    cmp r3, r1\n"
                             "    bne 1b\n"
                             "    stm r0, {r2-r5}\n"
                             "    movs r0, #1\n"
                             "    pop {r4-r10, pc}\n"
                             "4:\n"
                             "    rsb r10, r8, #0\n"
                             "    udiv r6, r10, r8\n"
                             "    mls r10, r8, r6, r10\n"
                             "    cmp r7, r10\n"
                             "    bcs 3b\n"
                             /* rejected: back to the group's start for the C redraw */
                             "    ldrb r6, [r3, #-1]!\n"
                             "    add r5, r5, r6\n"
                             "    sub r4, r4, r6, lsl #1\n"
                             "    stm r0, {r2-r5}\n"
                             "    movs r0, #0\n"
                             "    pop {r4-r10, pc}\n"
                             "    .size fd_decode_groups_v7m, . - fd_decode_groups_v7m\n"
                             "    .popsection\n");

/* fd_plan_groups_v7m. r0 plan, r1 &top[level], r2 2 + level (the cap
 * of a group's length), r3 bound, r4 left, r5 lengths out, r6 draws not
 * yet planned, ip the end of the lengths. Ten instructions per group and
 * four per step of the walk, against 15 and 7 for the C loop inlined in
 * draw_descending, which spilled. */
__asm__("    .syntax unified\n"
        "    .thumb\n"
        "    .pushsection .text.fd_plan_groups_v7m,\"ax\",%progbits\n"
        "    .global fd_plan_groups_v7m\n"
        "    .type fd_plan_groups_v7m, %function\n"
        "    .thumb_func\n"
        "    .align 2\n"
        "fd_plan_groups_v7m:\n"
        "    push {r4-r7, lr}\n"
        "    ldm r0, {r1-r5}\n"
        "    add r1, r1, r2, lsl #1\n"
        "    adds r2, r2, #2\n"
        "    add ip, r5, #16\n"
        "    mov r6, r4\n"
        "2:\n"
        "    ldrh r7, [r1]\n"
        "    cmp r7, r3\n"
        "    bcs 5f\n"
        "3:\n"
        "    cmp r6, r2\n"
        "    bls 6f\n"
        "    strb r2, [r5], #1\n"
        "    subs r3, r3, r2\n"
        "    subs r6, r6, r2\n"
        "    cmp r5, ip\n"
        "    bne 2b\n"
        "    b 7f\n"
        "5:\n" /* the walk: one more entry >= bound */
        "    ldrh r7, [r1, #2]!\n"
        "    adds r2, r2, #1\n"
        "    cmp r7, r3\n"
        "    bcs 5b\n"
        "    b 3b\n"
        "6:\n" /* the last group: what is left */
        "    strb r6, [r5], #1\n"
        "    movs r6, #0\n"
        "7:\n"
        "    ldr r7, [r0]\n"
        "    subs r1, r1, r7\n"
        "    lsrs r1, r1, #1\n"
        "    subs r4, r4, r6\n"
        "    str r1, [r0, #4]\n"
        "    str r4, [r0, #20]\n"
        "    ldr r7, [r0, #16]\n"
        "    subs r0, r5, r7\n"
        "    pop {r4-r7, pc}\n"
        "    .size fd_plan_groups_v7m, . - fd_plan_groups_v7m\n"
        "    .popsection\n");

/* The typed swaps. r0 a, r1 p, r2 draws, r3 zero. Four swaps per pass,
 * p at a[i-3] so the fourth swap's store walks p down (5.75 instructions
 * per swap against 7 for the C loop), the four draws zeroed with one strd;
 * then the last 0..3 one at a time, each draw zeroed by a strh. `ld`/`st`
 * are the element's load and store, `idx` scales a draw to a byte offset,
 * e1..e4 are 1..4 elements in bytes. */
#define SWAPS_V7M(name, ld, st, idx, e1, e2, e3, e4)                                                                   \
    __asm__("    .syntax unified\n"                                                                                    \
            "    .thumb\n"                                                                                             \
            "    .pushsection .text." #name ",\"ax\",%progbits\n"                                                      \
            "    .global " #name "\n"                                                                                  \
            "    .type " #name ", %function\n"                                                                         \
            "    .thumb_func\n"                                                                                        \
            "    .align 2\n" #name ":\n"                                                                               \
            "    push {r4-r6, lr}\n"                                                                                   \
            "    add r1, r0, r1" idx "\n"                                                                              \
            "    subs r1, r1, #" e4 "\n"                                                                               \
            "    movs r3, #0\n"                                                                                        \
            "    cmp r1, r0\n"                                                                                         \
            "    bls 2f\n"                                                                                             \
            "1:\n"                                                                                                     \
            "    ldrh r4, [r2]\n"                                                                                      \
            "    " ld " r5, [r1, #" e3 "]\n"                                                                           \
            "    " ld " r6, [r0, r4" idx "]\n"                                                                         \
            "    " st " r6, [r1, #" e3 "]\n"                                                                           \
            "    " st " r5, [r0, r4" idx "]\n"                                                                         \
            "    ldrh r4, [r2, #2]\n"                                                                                  \
            "    " ld " r5, [r1, #" e2 "]\n"                                                                           \
            "    " ld " r6, [r0, r4" idx "]\n"                                                                         \
            "    " st " r6, [r1, #" e2 "]\n"                                                                           \
            "    " st " r5, [r0, r4" idx "]\n"                                                                         \
            "    ldrh r4, [r2, #4]\n"                                                                                  \
            "    " ld " r5, [r1, #" e1 "]\n"                                                                           \
            "    " ld " r6, [r0, r4" idx "]\n"                                                                         \
            "    " st " r6, [r1, #" e1 "]\n"                                                                           \
            "    " st " r5, [r0, r4" idx "]\n"                                                                         \
            "    ldrh r4, [r2, #6]\n"                                                                                  \
            "    " ld " r5, [r1]\n"                                                                                    \
            "    " ld " r6, [r0, r4" idx "]\n"                                                                         \
            "    " st " r6, [r1], #-" e4 "\n"                                                                          \
            "    " st " r5, [r0, r4" idx "]\n"                                                                         \
            "    strd r3, r3, [r2], #8\n"                                                                              \
            "    cmp r1, r0\n"                                                                                         \
            "    bhi 1b\n"                                                                                             \
            "2:\n"                                                                                                     \
            "    adds r1, r1, #" e3 "\n"                                                                               \
            "    cmp r1, r0\n"                                                                                         \
            "    bls 4f\n"                                                                                             \
            "3:\n"                                                                                                     \
            "    ldrh r4, [r2]\n"                                                                                      \
            "    strh r3, [r2], #2\n"                                                                                  \
            "    " ld " r5, [r1]\n"                                                                                    \
            "    " ld " r6, [r0, r4" idx "]\n"                                                                         \
            "    " st " r6, [r1], #-" e1 "\n"                                                                          \
            "    " st " r5, [r0, r4" idx "]\n"                                                                         \
            "    cmp r1, r0\n"                                                                                         \
            "    bhi 3b\n"                                                                                             \
            "4:\n"                                                                                                     \
            "    pop {r4-r6, pc}\n"                                                                                    \
            "    .size " #name ", . - " #name "\n"                                                                     \
            "    .popsection\n")
SWAPS_V7M(fd_swaps_u8_v7m, "ldrb", "strb", "", "1", "2", "3", "4");
SWAPS_V7M(fd_swaps_u16_v7m, "ldrh", "strh", ", lsl #1", "2", "4", "6", "8");
#endif
