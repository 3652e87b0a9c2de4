/* Internal: a fill's batch groups (shuffle.c's draw loop) decoded at once
 * with AVX-512 on x86-64, when the fill is sixteen groups of three or four
 * bounds, or of four or five, the shorter ones first (bounds 512 down to
 * about 45: shoes of 312 to 512 cards spend most of their draws there).
 * Scalar decoding is a chain of dependent multiplies per group and one
 * integer division per group for the acceptance threshold (x86-64's
 * divider takes one every ~6 cycles on Zen 5). Here the groups sit in the
 * 64-bit lanes of two registers, so one multiply instruction steps eight
 * groups, and each group's threshold, 2^32 mod the product of its bounds,
 * comes from a double-precision division of eight lanes: the quotient
 * floor(2^32 / product) of a correctly rounded division is exact (2^32 /
 * product lies at least 1 / product from any integer it is not, far more
 * than half an ulp), and 2^32 - quotient * product is then exact. Tests
 * compare it with the scalar decoder (fd_batch_map32). */
#ifndef FAIRDEAL_BATCH_X86_H
#define FAIRDEAL_BATCH_X86_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) && defined(__GNUC__)
#define FD_BATCH_X86 1
#else
#define FD_BATCH_X86 0
#endif

/* Groups one call decodes. */
#define FD_BATCH_X86_GROUPS 16u

#if FD_BATCH_X86
/* Sixteen groups, the first `shorter` (0..16) of len (3 or 4)
 * consecutive bounds and the rest of len + 1, from first_bound down (a
 * group of 3 from at most 1626, of 4 from at most 257, of 5 from at most
 * 86: products below 2^32), each decoded from words[g] as fd_batch_map32
 * does, their draws one after the other to out (16 * (len + 1) - shorter
 * of them), a rejected group's too (fd_batch_rejected16_avx512 says
 * which, for the caller to replace). Only on a CPU with AVX-512 F, BW, DQ
 * and VL (fd_batch_x86_has_avx512). */
void fd_batch_decode16_avx512(const uint32_t *words, size_t len, size_t shorter, uint32_t first_bound, uint16_t *out);

/* The rejections of the fill fd_batch_decode16_avx512 decodes (same
 * arguments): bit g set when group g's word is rejected (fd_batch_map32
 * false). From the products of the groups' bounds, known before the
 * words: only one multiply and a compare wait for them, so a branch on
 * the mask resolves before the draws' chains end. Same CPU requirement. */
uint32_t fd_batch_rejected16_avx512(const uint32_t *words, size_t len, size_t shorter, uint32_t first_bound);

/* Whether this CPU runs fd_batch_decode16_avx512 (asked each time: the
 * library keeps no globals). */
static inline int fd_batch_x86_has_avx512(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}
#endif

#endif
