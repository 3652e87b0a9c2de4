#include "fairdeal/sha256.h"

#include <string.h>

#include "sha256_internal.h"
#include "word.h"

/* Cortex-M3/M4 run the rounds in Thumb-2 (fd_sha256_rounds_v7m below):
 * the C is the reference and the code everywhere else; the known answers
 * (test_crypto, test_golden, test_lms) run on each board. */
#if defined(__GNUC__) && (defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__))
#define SHA256_V7M 1
#else
#define SHA256_V7M 0
#endif

#if !SHA256_V7M
static const uint32_t K[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};
#endif

const uint32_t fd_sha256_iv[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                  0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};

static inline uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32u - n)); }

/* FIPS 180-4 Section 4.1.2, with the round written once for eight
 * variable names (RND below): each round renames the working variables
 * instead of moving them, and the message schedule lives in a rolling
 * 16-word window with constant indices. Ch(e,f,g) = g ^ (e & (f ^ g)) and
 * Maj(a,b,c) = (a & b) | (c & (a | b)) are the same functions in fewer
 * operations. Figures: docs/PERFORMANCE.md "LMS/HSS signature verification". */
#define S0(a) (rotr((a), 2) ^ rotr((a), 13) ^ rotr((a), 22))
#define S1(e) (rotr((e), 6) ^ rotr((e), 11) ^ rotr((e), 25))
#define s0(x) (rotr((x), 7) ^ rotr((x), 18) ^ ((x) >> 3))
#define s1(x) (rotr((x), 17) ^ rotr((x), 19) ^ ((x) >> 10))
#define SCHED(i) (w[(i)&15u] += s1(w[((i) + 14u) & 15u]) + w[((i) + 9u) & 15u] + s0(w[((i) + 1u) & 15u]))
#define RND(a, b, c, d, e, f, g, h, i, wi)                                                                             \
    do {                                                                                                               \
        const uint32_t t1 = (h) + S1(e) + ((g) ^ ((e) & ((f) ^ (g)))) + k[(i)] + (wi);                                 \
        (d) += t1;                                                                                                     \
        (h) = t1 + S0(a) + (((a) & (b)) | ((c) & ((a) | (b))));                                                        \
    } while (0)
#define ROUNDS16(W)                                                                                                    \
    do {                                                                                                               \
        RND(a, b, c, d, e, f, g, h, 0, W(0));                                                                          \
        RND(h, a, b, c, d, e, f, g, 1, W(1));                                                                          \
        RND(g, h, a, b, c, d, e, f, 2, W(2));                                                                          \
        RND(f, g, h, a, b, c, d, e, 3, W(3));                                                                          \
        RND(e, f, g, h, a, b, c, d, 4, W(4));                                                                          \
        RND(d, e, f, g, h, a, b, c, 5, W(5));                                                                          \
        RND(c, d, e, f, g, h, a, b, 6, W(6));                                                                          \
        RND(b, c, d, e, f, g, h, a, 7, W(7));                                                                          \
        RND(a, b, c, d, e, f, g, h, 8, W(8));                                                                          \
        RND(h, a, b, c, d, e, f, g, 9, W(9));                                                                          \
        RND(g, h, a, b, c, d, e, f, 10, W(10));                                                                        \
        RND(f, g, h, a, b, c, d, e, 11, W(11));                                                                        \
        RND(e, f, g, h, a, b, c, d, 12, W(12));                                                                        \
        RND(d, e, f, g, h, a, b, c, 13, W(13));                                                                        \
        RND(c, d, e, f, g, h, a, b, 14, W(14));                                                                        \
        RND(b, c, d, e, f, g, h, a, 15, W(15));                                                                        \
    } while (0)

/* FD_SHA256_SMALL (a compile-time option, the bootloader's): the C rounds
 * as one 8-round body in a loop, on every target without the Thumb-2 rounds.
 *
 * The C rounds: two 16-round bodies (rounds 0-15 without the schedule
 * step, then 16-63 with it) on the host, where the space buys speed; one
 * body that tests the round group on Cortex-M0 (the same speed there in
 * 3.7 instead of 5.3 KiB). */
#if !defined(__arm__)
#define SHA256_TWO_BODIES 1
#else
#define SHA256_TWO_BODIES 0
#endif
#define W_LOADED(i) (w[(i)])
#define W_SCHEDULED(i) SCHED(i)
#define W_EITHER(i) (k == K ? w[(i)] : SCHED(i))

#if SHA256_V7M
/* fd_sha256_rounds in Thumb-2 (Cortex-M3/M4): a..h live in r4-r11 and are
 * renamed from round to round as in RND; the schedule window is a copy of
 * the words on the stack (wiped before return); r12 walks the round
 * constants. The barrel shifter folds the outer rotation of each Sigma:
 * S1(e) = ror(e ^ ror(e, 5) ^ ror(e, 19), 6), S0(a) = ror(a ^ ror(a, 11) ^
 * ror(a, 20), 2), so a round is 20 instructions and a schedule step 12. */
#define V7M_STR(x) #x
#define V7M_WLOAD(o) "    ldr r1, [sp, #" V7M_STR(o) "]\n"
#define V7M_WSCHED(o0, o1, o9, o14)                                                                                    \
    "    ldr r1, [sp, #" V7M_STR(o1) "]\n"                                                                             \
                                     "    ldr r2, [sp, #" V7M_STR(o14) "]\n"                                           \
                                                                       "    ror r0, r1, #7\n"                          \
                                                                       "    eor r0, r0, r1, ror #18\n"                 \
                                                                       "    eor r0, r0, r1, lsr #3\n"                  \
                                                                       "    ror lr, r2, #17\n"                         \
                                                                       "    eor lr, lr, r2, ror #19\n"                 \
                                                                       "    eor lr, lr, r2, lsr #10\n"                 \
                                                                       "    ldr r1, [sp, #" V7M_STR(                   \
                                                                           o0) "]\n"                                   \
                                                                               "    ldr r2, [sp, #" V7M_STR(           \
                                                                                   o9) "]\n"                           \
                                                                                       "    add r1, r1, r0\n"          \
                                                                                       "    add r1, r1, lr\n"          \
                                                                                       "    add r1, r1, r2\n"          \
                                                                                       "    str r1, [sp, #" V7M_STR(   \
                                                                                           o0) "]\n"
#define V7M_RND(a, b, c, d, e, f, g, h, W)                                                                             \
    W "    ldr r2, [r12], #4\n"                                                                                        \
      "    add " h ", " h ", r2\n"                                                                                     \
      "    add " h ", " h ", r1\n"                                                                                     \
      "    eor r0, " e ", " e ", ror #5\n"                                                                             \
      "    eor r0, r0, " e ", ror #19\n"                                                                               \
      "    add " h ", " h ", r0, ror #6\n"                                                                             \
      "    eor r0, " f ", " g "\n"                                                                                     \
      "    and r0, r0, " e "\n"                                                                                        \
      "    eor r0, r0, " g "\n"                                                                                        \
      "    add " h ", " h ", r0\n"                                                                                     \
      "    add " d ", " d ", " h "\n"                                                                                  \
      "    eor r0, " a ", " a ", ror #11\n"                                                                            \
      "    eor r0, r0, " a ", ror #20\n"                                                                               \
      "    add " h ", " h ", r0, ror #2\n"                                                                             \
      "    orr r0, " a ", " b "\n"                                                                                     \
      "    and r0, r0, " c "\n"                                                                                        \
      "    and r1, " a ", " b "\n"                                                                                     \
      "    orr r0, r0, r1\n"                                                                                           \
      "    add " h ", " h ", r0\n"
#define V7M_ROUNDS16_LOADED                                                                                            \
    V7M_RND("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", V7M_WLOAD(0))                                            \
    V7M_RND("r11", "r4", "r5", "r6", "r7", "r8", "r9", "r10", V7M_WLOAD(4))                                            \
    V7M_RND("r10", "r11", "r4", "r5", "r6", "r7", "r8", "r9", V7M_WLOAD(8))                                            \
    V7M_RND("r9", "r10", "r11", "r4", "r5", "r6", "r7", "r8", V7M_WLOAD(12))                                           \
    V7M_RND("r8", "r9", "r10", "r11", "r4", "r5", "r6", "r7", V7M_WLOAD(16))                                           \
    V7M_RND("r7", "r8", "r9", "r10", "r11", "r4", "r5", "r6", V7M_WLOAD(20))                                           \
    V7M_RND("r6", "r7", "r8", "r9", "r10", "r11", "r4", "r5", V7M_WLOAD(24))                                           \
    V7M_RND("r5", "r6", "r7", "r8", "r9", "r10", "r11", "r4", V7M_WLOAD(28))                                           \
    V7M_RND("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", V7M_WLOAD(32))                                           \
    V7M_RND("r11", "r4", "r5", "r6", "r7", "r8", "r9", "r10", V7M_WLOAD(36))                                           \
    V7M_RND("r10", "r11", "r4", "r5", "r6", "r7", "r8", "r9", V7M_WLOAD(40))                                           \
    V7M_RND("r9", "r10", "r11", "r4", "r5", "r6", "r7", "r8", V7M_WLOAD(44))                                           \
    V7M_RND("r8", "r9", "r10", "r11", "r4", "r5", "r6", "r7", V7M_WLOAD(48))                                           \
    V7M_RND("r7", "r8", "r9", "r10", "r11", "r4", "r5", "r6", V7M_WLOAD(52))                                           \
    V7M_RND("r6", "r7", "r8", "r9", "r10", "r11", "r4", "r5", V7M_WLOAD(56))                                           \
    V7M_RND("r5", "r6", "r7", "r8", "r9", "r10", "r11", "r4", V7M_WLOAD(60))
#define V7M_ROUNDS16_SCHEDULED                                                                                         \
    V7M_RND("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", V7M_WSCHED(0, 4, 36, 56))                                \
    V7M_RND("r11", "r4", "r5", "r6", "r7", "r8", "r9", "r10", V7M_WSCHED(4, 8, 40, 60))                                \
    V7M_RND("r10", "r11", "r4", "r5", "r6", "r7", "r8", "r9", V7M_WSCHED(8, 12, 44, 0))                                \
    V7M_RND("r9", "r10", "r11", "r4", "r5", "r6", "r7", "r8", V7M_WSCHED(12, 16, 48, 4))                               \
    V7M_RND("r8", "r9", "r10", "r11", "r4", "r5", "r6", "r7", V7M_WSCHED(16, 20, 52, 8))                               \
    V7M_RND("r7", "r8", "r9", "r10", "r11", "r4", "r5", "r6", V7M_WSCHED(20, 24, 56, 12))                              \
    V7M_RND("r6", "r7", "r8", "r9", "r10", "r11", "r4", "r5", V7M_WSCHED(24, 28, 60, 16))                              \
    V7M_RND("r5", "r6", "r7", "r8", "r9", "r10", "r11", "r4", V7M_WSCHED(28, 32, 0, 20))                               \
    V7M_RND("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", V7M_WSCHED(32, 36, 4, 24))                               \
    V7M_RND("r11", "r4", "r5", "r6", "r7", "r8", "r9", "r10", V7M_WSCHED(36, 40, 8, 28))                               \
    V7M_RND("r10", "r11", "r4", "r5", "r6", "r7", "r8", "r9", V7M_WSCHED(40, 44, 12, 32))                              \
    V7M_RND("r9", "r10", "r11", "r4", "r5", "r6", "r7", "r8", V7M_WSCHED(44, 48, 16, 36))                              \
    V7M_RND("r8", "r9", "r10", "r11", "r4", "r5", "r6", "r7", V7M_WSCHED(48, 52, 20, 40))                              \
    V7M_RND("r7", "r8", "r9", "r10", "r11", "r4", "r5", "r6", V7M_WSCHED(52, 56, 24, 44))                              \
    V7M_RND("r6", "r7", "r8", "r9", "r10", "r11", "r4", "r5", V7M_WSCHED(56, 60, 28, 48))                              \
    V7M_RND("r5", "r6", "r7", "r8", "r9", "r10", "r11", "r4", V7M_WSCHED(60, 0, 32, 52))
__asm__("    .syntax unified\n"
        "    .thumb\n"
        "    .pushsection .text.fd_sha256_rounds_v7m,\"ax\",%progbits\n"
        "    .global fd_sha256_rounds_v7m\n"
        "    .type fd_sha256_rounds_v7m, %function\n"
        "    .thumb_func\n"
        "    .align 2\n"
        "fd_sha256_rounds_v7m:\n"
        "    push {r4-r11, lr}\n"
        "    sub sp, sp, #68\n"
        "    str r0, [sp, #64]\n"
        "    mov r0, sp\n"
        "    ldm r1!, {r2, r3, r12, lr}\n"
        "    stm r0!, {r2, r3, r12, lr}\n"
        "    ldm r1!, {r2, r3, r12, lr}\n"
        "    stm r0!, {r2, r3, r12, lr}\n"
        "    ldm r1!, {r2, r3, r12, lr}\n"
        "    stm r0!, {r2, r3, r12, lr}\n"
        "    ldm r1!, {r2, r3, r12, lr}\n"
        "    stm r0!, {r2, r3, r12, lr}\n"
        "    ldr r0, [sp, #64]\n"
        "    ldm r0, {r4-r11}\n"
        "    adr.w r12, .Lsha256_k\n" V7M_ROUNDS16_LOADED "1:\n" V7M_ROUNDS16_SCHEDULED "    adr.w r0, .Lsha256_k_end\n"
        "    cmp r12, r0\n"
        "    bne 1b\n"
        "    ldr r0, [sp, #64]\n"
        "    ldm r0, {r1, r2, r3, r12}\n"
        "    add r4, r4, r1\n"
        "    add r5, r5, r2\n"
        "    add r6, r6, r3\n"
        "    add r7, r7, r12\n"
        "    add r1, r0, #16\n"
        "    ldm r1, {r1, r2, r3, r12}\n"
        "    add r8, r8, r1\n"
        "    add r9, r9, r2\n"
        "    add r10, r10, r3\n"
        "    add r11, r11, r12\n"
        "    stm r0, {r4-r11}\n"
        "    movs r1, #0\n"
        "    movs r2, #0\n"
        "    movs r3, #0\n"
        "    mov r12, #0\n"
        "    mov r0, sp\n"
        "    stm r0!, {r1, r2, r3, r12}\n"
        "    stm r0!, {r1, r2, r3, r12}\n"
        "    stm r0!, {r1, r2, r3, r12}\n"
        "    stm r0!, {r1, r2, r3, r12}\n"
        "    add sp, sp, #68\n"
        "    pop {r4-r11, pc}\n"
        "    .align 2\n"
        ".Lsha256_k:\n"
        "    .word 0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5\n"
        "    .word 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174\n"
        "    .word 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da\n"
        "    .word 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967\n"
        "    .word 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85\n"
        "    .word 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070\n"
        "    .word 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3\n"
        "    .word 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2\n"
        ".Lsha256_k_end:\n"
        "    .size fd_sha256_rounds_v7m, . - fd_sha256_rounds_v7m\n"
        "    .popsection\n");
void fd_sha256_rounds_v7m(uint32_t state[8], const uint32_t words[16]);
#endif

void fd_sha256_rounds(uint32_t state[8], const uint32_t words[16])
{
#if SHA256_V7M
    fd_sha256_rounds_v7m(state, words);
#else
    uint32_t w[16]; /* a copy in this frame: Cortex-M0 reaches it sp-relative, one register freed */
    memcpy(w, words, sizeof w);
    uint32_t a = state[0];
    uint32_t b = state[1];
    uint32_t c = state[2];
    uint32_t d = state[3];
    uint32_t e = state[4];
    uint32_t f = state[5];
    uint32_t g = state[6];
    uint32_t h = state[7];
#if defined(FD_SHA256_SMALL)
    /* Eight rounds in a loop (docs/PERFORMANCE.md "Bootloader"): after
     * eight renamings a..h are back in place; the next eight schedule words
     * go into the window before each group from round 16 on. */
    for (unsigned i = 0; i < 64u; i += 8u) {
        for (unsigned j = i; j >= 16u && j < i + 8u; j++) {
            (void)SCHED(j);
        }
        const uint32_t *k = K + i;
        const uint32_t *x = w + (i & 8u);
        RND(a, b, c, d, e, f, g, h, 0, x[0]);
        RND(h, a, b, c, d, e, f, g, 1, x[1]);
        RND(g, h, a, b, c, d, e, f, 2, x[2]);
        RND(f, g, h, a, b, c, d, e, 3, x[3]);
        RND(e, f, g, h, a, b, c, d, 4, x[4]);
        RND(d, e, f, g, h, a, b, c, 5, x[5]);
        RND(c, d, e, f, g, h, a, b, 6, x[6]);
        RND(b, c, d, e, f, g, h, a, 7, x[7]);
    }
#elif SHA256_TWO_BODIES
    const uint32_t *k = K;
    ROUNDS16(W_LOADED);
    for (k = K + 16; k < K + 64; k += 16) {
        ROUNDS16(W_SCHEDULED);
    }
#else
    for (const uint32_t *k = K; k < K + 64; k += 16) {
        ROUNDS16(W_EITHER);
    }
#endif
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
    fd_wipe(w, sizeof w);
#endif
}

/* The compression's spilled working variables and schedule words (its
 * input chaining value: in an HMAC, a midstate keyed by the secret) stay in
 * the frames of the calls that made them. A call of this right after them,
 * from the same frame, zeroes the region below the caller where their
 * frames were (docs/RELIABILITY.md, "Secrets off the stack"): 320 bytes,
 * more than the C rounds (224 bytes on x86-64 and Cortex-M0), and than
 * update's and the compression's frames together. */
__attribute__((noinline)) void fd_sha256_wipe_frames(void)
{
    uint8_t frames[320];
    fd_wipe(frames, sizeof frames);
}

void fd_sha256_compress(uint32_t state[8], const uint8_t block[64])
{
    uint32_t w[16];
    for (size_t i = 0; i < 16u; i++) {
        w[i] = __builtin_bswap32(fd_load_le32(block + 4u * i)); /* ldr + rev where unaligned loads work */
    }
    fd_sha256_rounds(state, w);
    fd_wipe(w, sizeof w);
#if !SHA256_V7M
    fd_sha256_wipe_frames(); /* the C rounds' spills (the Thumb-2 rounds keep a..h in registers) */
#endif
}

void fd_sha256_init(fd_sha256_ctx *ctx)
{
    memcpy(ctx->h, fd_sha256_iv, sizeof fd_sha256_iv);
    ctx->total_len = 0;
    ctx->block_len = 0;
}

void fd_sha256_update(fd_sha256_ctx *ctx, const void *data, size_t len)
{
    const uint8_t *p = data;
    ctx->total_len += len;
    while (len > 0u) {
        if (ctx->block_len == 0u && len >= FD_SHA256_BLOCK) {
            fd_sha256_compress(ctx->h, p);
            p += FD_SHA256_BLOCK;
            len -= FD_SHA256_BLOCK;
            continue;
        }
        size_t take = FD_SHA256_BLOCK - ctx->block_len;
        if (take > len) {
            take = len;
        }
        memcpy(ctx->block + ctx->block_len, p, take);
        ctx->block_len += take;
        p += take;
        len -= take;
        if (ctx->block_len == FD_SHA256_BLOCK) {
            fd_sha256_compress(ctx->h, ctx->block);
            ctx->block_len = 0;
        }
    }
}

void fd_sha256_final(fd_sha256_ctx *ctx, uint8_t out[FD_SHA256_SIZE])
{
    const uint64_t bits = ctx->total_len * 8u;
    uint8_t pad[FD_SHA256_BLOCK + 8u] = {0x80};
    size_t pad_len = (ctx->block_len < 56u) ? (56u - ctx->block_len) : (120u - ctx->block_len);
    for (unsigned i = 0; i < 8u; i++) {
        pad[pad_len + i] = (uint8_t)(bits >> (56u - 8u * i));
    }
    fd_sha256_update(ctx, pad, pad_len + 8u);
    for (size_t i = 0; i < 8u; i++) {
        out[4u * i] = (uint8_t)(ctx->h[i] >> 24);
        out[4u * i + 1u] = (uint8_t)(ctx->h[i] >> 16);
        out[4u * i + 2u] = (uint8_t)(ctx->h[i] >> 8);
        out[4u * i + 3u] = (uint8_t)ctx->h[i];
    }
    fd_wipe(ctx, sizeof *ctx);
    fd_sha256_wipe_frames();
}

void fd_sha256(const void *data, size_t len, uint8_t out[FD_SHA256_SIZE])
{
    fd_sha256_ctx ctx;
    fd_sha256_init(&ctx);
    fd_sha256_update(&ctx, data, len);
    fd_sha256_final(&ctx, out);
}

void fd_hmac_sha256_init(fd_hmac_sha256_ctx *ctx, const void *key, size_t key_len)
{
    uint8_t k[FD_SHA256_BLOCK] = {0};
    if (key_len > FD_SHA256_BLOCK) {
        fd_sha256(key, key_len, k);
    } else if (key_len > 0u) {
        memcpy(k, key, key_len);
    }
    for (unsigned i = 0; i < FD_SHA256_BLOCK; i++) {
        k[i] ^= 0x36u;
    }
    fd_sha256_init(&ctx->inner);
    fd_sha256_update(&ctx->inner, k, sizeof k);
    for (unsigned i = 0; i < FD_SHA256_BLOCK; i++) {
        k[i] ^= 0x36u ^ 0x5cu;
    }
    fd_sha256_init(&ctx->outer);
    fd_sha256_update(&ctx->outer, k, sizeof k);
    fd_wipe(k, sizeof k);
}

void fd_hmac_sha256_update(fd_hmac_sha256_ctx *ctx, const void *data, size_t len)
{
    fd_sha256_update(&ctx->inner, data, len);
}

void fd_hmac_sha256_final(fd_hmac_sha256_ctx *ctx, uint8_t out[FD_SHA256_SIZE])
{
    uint8_t inner[FD_SHA256_SIZE];
    fd_sha256_final(&ctx->inner, inner);
    fd_sha256_update(&ctx->outer, inner, sizeof inner);
    fd_sha256_final(&ctx->outer, out);
    fd_wipe(inner, sizeof inner);
}

void fd_hmac_sha256(const void *key, size_t key_len, const void *data, size_t len, uint8_t out[FD_SHA256_SIZE])
{
    fd_hmac_sha256_ctx ctx;
    fd_hmac_sha256_init(&ctx, key, key_len);
    fd_hmac_sha256_update(&ctx, data, len);
    fd_hmac_sha256_final(&ctx, out);
}
