/* The ChaCha20 block function on ARMv6-M (Cortex-M0/M0+, Thumb-1), in
 * assembly: fd_chacha20_blocks_v6m (declared in chacha20_simd.h), the form
 * the DRBG's four-block refill and fd_chacha20_block use on these cores.
 *
 * Thumb-1 has eight low registers, no rotated operands and no rotation by
 * an immediate, so the shape differs from the Thumb-2 form:
 * - r4..r7 hold the four rotation amounts (RORS by a register rotates by
 *   its low byte mod 32); r0..r3 hold the one quarter-round being worked
 *   on, twelve ALU instructions.
 * - The sixteen words live in two 64-byte stack buffers, X and Y, laid out
 *   so that every quarter-round's four words are adjacent: X holds the
 *   column groups (group i = words i, 4+i, 8+i, 12+i at X + 16i), Y the
 *   diagonal groups (group j = words j, 4+(j+1)%4, 8+(j+2)%4, 12+(j+3)%4).
 *   A quarter-round loads its group with one LDM (the base register is in
 *   the list, so no fifth register is needed) and stores each result
 *   straight into its slot of the other buffer: six moves per
 *   quarter-round, none of them register shuffles. The last column group
 *   and the first diagonal group share word 3, the last diagonal group and
 *   the first column group word 0: those stay in r0.
 * - The double-round count rides in r4's upper bits (r4 = 16 + 32k
 *   rotates by 16 for every k): SUBS #32 counts and sets the flags, so the
 *   loop needs no counter register.
 * - T (64 bytes) is the input transposed once per call into column groups;
 *   each block copies it into X, adds it back at the end (the feed-forward)
 *   and bumps its counter word.
 * X, Y and T are zeroed before returning; r4..r7 are restored, r0..r3 are
 * left zero (AAPCS: r0..r3 and r12 are the caller's to lose; r8..r12 are
 * not used). test_chacha20_blocks4_forms_agree compares it with the C
 * reference on the micro:bit, test_chacha20_v6m_* with RFC 8439's vectors
 * and for stack hygiene. */
#include "chacha20_simd.h"

#if FD_CHACHA20_V6M

/* Frame (bytes from sp): X 0..63, Y 64..127, T 128..191, out 192, blocks
 * left 196. */
__asm__("    .syntax unified\n"
        "    .thumb\n"
        "    .pushsection .text.fd_chacha20_blocks_v6m,\"ax\",%progbits\n"
        /* One quarter-round on a = r0, b = r1, c = r2, d = r3. */
        "    .macro fd_v6m_quarter\n"
        "    adds r0, r0, r1\n"
        "    eors r3, r0\n"
        "    rors r3, r4\n"
        "    adds r2, r2, r3\n"
        "    eors r1, r2\n"
        "    rors r1, r5\n"
        "    adds r0, r0, r1\n"
        "    eors r3, r0\n"
        "    rors r3, r6\n"
        "    adds r2, r2, r3\n"
        "    eors r1, r2\n"
        "    rors r1, r7\n"
        "    .endm\n"
        /* Column quarter-round i: X group i in, results to their diagonal
         * groups in Y. Word 0 (i = 0) is already in r0; word 3 (i = 3) stays
         * in r0 for diagonal group 3. */
        "    .macro fd_v6m_column i\n"
        "    .if \\i == 0\n"
        "    add r1, sp, #4\n"
        "    ldm r1, {r1-r3}\n"
        "    .else\n"
        "    add r0, sp, #16 * \\i\n"
        "    ldm r0, {r0-r3}\n"
        "    .endif\n"
        "    fd_v6m_quarter\n"
        "    .if \\i != 3\n"
        "    str r0, [sp, #64 + 16 * \\i]\n"
        "    .endif\n"
        "    str r1, [sp, #64 + 16 * ((\\i + 3) % 4) + 4]\n"
        "    str r2, [sp, #64 + 16 * ((\\i + 2) % 4) + 8]\n"
        "    str r3, [sp, #64 + 16 * ((\\i + 1) % 4) + 12]\n"
        "    .endm\n"
        /* Diagonal quarter-round j: Y group j in, results to their column
         * groups in X. Word 3 (j = 3) is already in r0; word 0 (j = 0)
         * stays in r0 for the next column group 0. */
        "    .macro fd_v6m_diagonal j\n"
        "    .if \\j == 3\n"
        "    add r1, sp, #64 + 48 + 4\n"
        "    ldm r1, {r1-r3}\n"
        "    .else\n"
        "    add r0, sp, #64 + 16 * \\j\n"
        "    ldm r0, {r0-r3}\n"
        "    .endif\n"
        "    fd_v6m_quarter\n"
        "    .if \\j != 0\n"
        "    str r0, [sp, #16 * \\j]\n"
        "    .endif\n"
        "    str r1, [sp, #16 * ((\\j + 1) % 4) + 4]\n"
        "    str r2, [sp, #16 * ((\\j + 2) % 4) + 8]\n"
        "    str r3, [sp, #16 * ((\\j + 3) % 4) + 12]\n"
        "    .endm\n"
        /* Row k of the input (r4..r7 = in[4k..4k+3]) into T's column groups. */
        "    .macro fd_v6m_transpose k\n"
        "    str r4, [sp, #128 + 4 * \\k]\n"
        "    str r5, [sp, #128 + 16 + 4 * \\k]\n"
        "    str r6, [sp, #128 + 32 + 4 * \\k]\n"
        "    str r7, [sp, #128 + 48 + 4 * \\k]\n"
        "    .endm\n"
        /* Column group i of X plus that of T, to out[i], out[4+i], ... */
        "    .macro fd_v6m_feed_forward i\n"
        "    add r0, sp, #16 * \\i\n"
        "    ldm r0, {r0-r3}\n"
        "    add r4, sp, #128 + 16 * \\i\n"
        "    ldm r4, {r4-r7}\n"
        "    adds r0, r0, r4\n"
        "    adds r1, r1, r5\n"
        "    adds r2, r2, r6\n"
        "    adds r3, r3, r7\n"
        "    ldr r4, [sp, #192]\n"
        "    str r0, [r4, #4 * \\i]\n"
        "    str r1, [r4, #16 + 4 * \\i]\n"
        "    str r2, [r4, #32 + 4 * \\i]\n"
        "    str r3, [r4, #48 + 4 * \\i]\n"
        "    .endm\n"
        "    .global fd_chacha20_blocks_v6m\n"
        "    .type fd_chacha20_blocks_v6m, %function\n"
        "    .thumb_func\n"
        "    .align 2\n"
        "fd_chacha20_blocks_v6m:\n"
        "    push {r4-r7, lr}\n"
        "    sub sp, sp, #200\n"
        "    str r1, [sp, #192]\n"
        "    str r2, [sp, #196]\n"
        "    ldm r0!, {r4-r7}\n"
        "    fd_v6m_transpose 0\n"
        "    ldm r0!, {r4-r7}\n"
        "    fd_v6m_transpose 1\n"
        "    ldm r0!, {r4-r7}\n"
        "    fd_v6m_transpose 2\n"
        "    ldm r0!, {r4-r7}\n"
        "    fd_v6m_transpose 3\n"
        "2:\n"
        "    add r0, sp, #128\n"
        "    mov r1, sp\n"
        "    ldm r0!, {r2-r5}\n"
        "    stm r1!, {r2-r5}\n"
        "    ldm r0!, {r2-r5}\n"
        "    stm r1!, {r2-r5}\n"
        "    ldm r0!, {r2-r5}\n"
        "    stm r1!, {r2-r5}\n"
        "    ldm r0!, {r2-r5}\n"
        "    stm r1!, {r2-r5}\n"
        "    ldr r4, =16 + 32 * 9\n"
        "    movs r5, #20\n"
        "    movs r6, #24\n"
        "    movs r7, #25\n"
        "    ldr r0, [sp, #0]\n"
        "1:\n"
        "    fd_v6m_column 0\n"
        "    fd_v6m_column 1\n"
        "    fd_v6m_column 2\n"
        "    fd_v6m_column 3\n"
        "    fd_v6m_diagonal 3\n"
        "    fd_v6m_diagonal 2\n"
        "    fd_v6m_diagonal 1\n"
        "    fd_v6m_diagonal 0\n"
        "    subs r4, #32\n"
        "    bcc 3f\n"
        "    b 1b\n"
        "3:\n"
        "    str r0, [sp, #0]\n"
        "    fd_v6m_feed_forward 0\n"
        "    fd_v6m_feed_forward 1\n"
        "    fd_v6m_feed_forward 2\n"
        "    fd_v6m_feed_forward 3\n"
        "    adds r4, #64\n"
        "    str r4, [sp, #192]\n"
        "    ldr r0, [sp, #128 + 12]\n"
        "    adds r0, #1\n"
        "    str r0, [sp, #128 + 12]\n"
        "    ldr r0, [sp, #196]\n"
        "    subs r0, #1\n"
        "    str r0, [sp, #196]\n"
        "    beq 4f\n"
        "    b 2b\n"
        "4:\n"
        /* r0 is 0 here: four zero registers wipe X, Y and T. */
        "    movs r1, #0\n"
        "    movs r2, #0\n"
        "    movs r3, #0\n"
        "    mov r4, sp\n"
        "    .rept 12\n"
        "    stm r4!, {r0-r3}\n"
        "    .endr\n"
        "    add sp, sp, #200\n"
        "    pop {r4-r7, pc}\n"
        "    .ltorg\n"
        "    .size fd_chacha20_blocks_v6m, . - fd_chacha20_blocks_v6m\n"
        "    .purgem fd_v6m_quarter\n"
        "    .purgem fd_v6m_column\n"
        "    .purgem fd_v6m_diagonal\n"
        "    .purgem fd_v6m_transpose\n"
        "    .purgem fd_v6m_feed_forward\n"
        "    .popsection\n");

#else
/* ISO C wants a declaration in every translation unit. */
typedef int fd_chacha20_v6m_unused;
#endif
