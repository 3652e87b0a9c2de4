/* Internal: the ChaCha20 DRBG's output step without the argument checks,
 * for fd_drbg_generate, which has made them already (the shuffles call it
 * for every few words, so the second round of checks was a cost per draw
 * group). */
#ifndef FAIRDEAL_CHACHA_DRBG_OUTPUT_H
#define FAIRDEAL_CHACHA_DRBG_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/chacha20.h"
#include "chacha20_simd.h"
#include "word.h"

/* fd_chacha_drbg_generate without additional input, after its checks:
 * d instantiated, out valid for len bytes, len <= FD_CHACHA_DRBG_MAX_REQUEST.
 * Same bytes, refills and reseed counter as fd_chacha_drbg_generate.
 * Errors: FD_ERR_RESEED_REQUIRED (nothing output). */
fd_status fd_chacha_drbg_output(fd_chacha_drbg *d, uint8_t *out, size_t len);

#if FD_CHACHA20_V7M
/* Copies `words` words from src (word-aligned) to out (any alignment) and
 * zeroes them in src: the DRBG handing out buffered words. Four per pass
 * with ldm, stm of four zeroed registers, and stm to out when it is
 * word-aligned (unaligned str otherwise, which ARMv7-M allows): 1.25
 * instructions per word aligned, 2.25 not, against 6 for the C loop.
 * Thumb-2 assembly in chacha20.c. */
void fd_chacha_take_words_v7m(uint32_t *src, uint8_t *out, size_t words);
#endif

/* Hand out `words` buffered words from byte pos (a multiple of 4) and
 * zero each at once. */
FD_HOT_INLINE void fd_chacha_drbg_take_words(fd_chacha_drbg *d, size_t pos, uint8_t *out, size_t words)
{
    uint32_t *w = &d->buffer[pos / 4u];
#if FD_CHACHA20_V7M
    fd_chacha_take_words_v7m(w, out, words);
#else
#if defined(__x86_64__)
    /* 16-byte pieces, so the shuffles' vector load of them
     * (fd_batch_decode16_avx512) is forwarded from these stores instead of
     * waiting for four 4-byte ones to reach the cache: 312 cards -10 ns */
    for (; words >= 4u; words -= 4u, w += 4, out += 16) {
        __builtin_memcpy(out, w, 16);
        __builtin_memset(w, 0, 16);
    }
#endif
    for (size_t i = 0; i < words; i++) {
        fd_store_le32(out + 4u * i, w[i]);
        w[i] = 0;
    }
#endif
}

/* fd_chacha_drbg_output's common case, inline: when len is whole words
 * and the buffer holds them at a word boundary, hands them out (same
 * bytes, position and reseed counter) and returns true; otherwise does
 * nothing and returns false. Precondition: no reseed due (reseed_counter
 * <= reseed_interval), out valid for len bytes. */
FD_HOT_INLINE bool fd_chacha_drbg_take_buffered(fd_chacha_drbg *d, uint8_t *out, size_t len)
{
    const size_t pos = d->pos;
    if (((pos | len) % 4u) != 0u || len > (size_t)FD_CHACHA_DRBG_BUFFER - pos) {
        return false;
    }
    fd_chacha_drbg_take_words(d, pos, out, len / 4u);
    d->pos = (uint16_t)(pos + len);
    d->reseed_counter++;
    return true;
}

#endif
