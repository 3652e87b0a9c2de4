/* The C library routines the bootloader calls (SHA-256's buffers, the
 * checks' comparisons, its start's .data and .bss), small: newlib's are
 * unrolled for speed and take 468 bytes of the bootloader's 8 KiB
 * (docs/PERFORMANCE.md "Bootloader"). Built without loop-to-call
 * rewriting (bootloader/CMakeLists.txt), so no loop here becomes a call to
 * itself. memcpy and memset move words when the pointers are aligned:
 * SHA-256 copies whole blocks, and the wipes after every hash (fd_wipe,
 * fd_sha256_wipe_frames) clear frames and contexts: by bytes they took
 * about a quarter of a boot check. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0u) {
        for (; n >= 4u; n -= 4u, d += 4, s += 4) {
            *(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
        }
    }
    while (n-- > 0u) {
        *d++ = *s++;
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    uint8_t *d = dst;
    if (((uintptr_t)d & 3u) == 0u) {
        const uint32_t w = 0x01010101u * (uint8_t)c;
        for (; n >= 4u; n -= 4u, d += 4) {
            *(uint32_t *)(void *)d = w;
        }
    }
    while (n-- > 0u) {
        *d++ = (uint8_t)c;
    }
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const uint8_t *p = a;
    const uint8_t *q = b;
    for (; n > 0u; n--, p++, q++) {
        if (*p != *q) {
            return *p < *q ? -1 : 1;
        }
    }
    return 0;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n] != '\0') {
        n++;
    }
    return n;
}
