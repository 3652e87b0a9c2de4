/* Internal: the forms of the ChaCha20 block function, and four blocks at
 * once, the DRBG's refill (its key changes after every four blocks, so four
 * is the most it can use). The portable C form (chacha20_simd.c) is the
 * reference on every target; x86-64 adds an SSE2 form (the baseline ISA,
 * four blocks in parallel lanes) and an AVX2 form (two blocks per 256-bit
 * register), chosen at run time; ARMv7-M has a Thumb-2 form (chacha20.c),
 * ARMv6-M a Thumb-1 form (chacha20_v6m.c).
 * Tests compare every form the CPU can run with the reference. */
#ifndef FAIRDEAL_CHACHA20_SIMD_H
#define FAIRDEAL_CHACHA20_SIMD_H

#include <stdint.h>

#if defined(__x86_64__) && defined(__GNUC__)
#define FD_CHACHA20_X86 1
#else
#define FD_CHACHA20_X86 0
#endif

/* Thumb-2 cores (ARMv7-M, ARMv7E-M): the rounds in assembly (chacha20.c). */
#if defined(__GNUC__) && (defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__))
#define FD_CHACHA20_V7M 1
#else
#define FD_CHACHA20_V7M 0
#endif

/* Thumb-1 cores (ARMv6-M: Cortex-M0/M0+): the rounds in assembly
 * (chacha20_v6m.c). */
#if defined(__GNUC__) && defined(__ARM_ARCH_6M__)
#define FD_CHACHA20_V6M 1
#else
#define FD_CHACHA20_V6M 0
#endif

/* One block, portable C: x = 20 rounds of in, plus in, with extra added
 * to the counter word (32-bit, wrapping). in and x must not overlap. */
void fd_chacha20_block_ref(const uint32_t in[16], uint32_t extra, uint32_t x[16]);

/* Blocks for counters in[12] + 0 .. 3 (32-bit, wrapping) of the state in
 * (constants, key, counter, nonce as RFC 8439 words): out[16 * b + i] is word
 * i of block b. in and out must not overlap. */
void fd_chacha20_blocks4_ref(const uint32_t in[16], uint32_t out[64]);
#if FD_CHACHA20_X86
void fd_chacha20_blocks4_sse2(const uint32_t in[16], uint32_t out[64]);
void fd_chacha20_blocks4_avx2(const uint32_t in[16], uint32_t out[64]); /* only if the CPU has AVX2 */
#endif
#if FD_CHACHA20_V6M
/* blocks (>= 1) blocks for counters in[12] + 0 .. blocks - 1 (wrapping), laid
 * out as fd_chacha20_blocks4's; ARMv6-M assembly. in and out must not
 * overlap. */
void fd_chacha20_blocks_v6m(const uint32_t in[16], uint32_t *out, uint32_t blocks);
#endif

/* The fastest form this CPU runs (the reference's code off x86-64, with
 * the Thumb-2 rounds on ARMv7-M, the Thumb-1 ones on ARMv6-M). */
void fd_chacha20_blocks4(const uint32_t in[16], uint32_t out[64]);

#endif
