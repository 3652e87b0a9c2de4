#include "stack_probe.h"

#if STACK_PROBE_WORKS
#include <string.h>

/* The compiler must assume the asm reads and writes *p: the stores stay,
 * and the never-written probe is not "uninitialized" to it. */
#define TEST_ESCAPE(p) __asm__ __volatile__("" : : "r"(p) : "memory")

__attribute__((noinline)) void leave_word_behind(uint32_t w)
{
    uint32_t frame[64];
    for (unsigned i = 0; i < 64u; i++) {
        frame[i] = i == 40u ? w : 0u;
    }
    TEST_ESCAPE(frame);
}

__attribute__((noinline)) void scrub_stack(void)
{
    uint8_t region[PROBE_BYTES];
    memset(region, 0, sizeof region);
    TEST_ESCAPE(region);
}

__attribute__((noinline)) int stack_holds(const uint8_t *pattern, size_t len)
{
    uint8_t probe[PROBE_BYTES];
    TEST_ESCAPE(probe);
    for (size_t i = 0; i + len <= PROBE_BYTES; i++) {
        size_t k = 0;
        while (k < len && probe[i + k] == pattern[k]) {
            k++;
        }
        if (k == len) {
            return 1;
        }
    }
    return 0;
}
__attribute__((noinline)) int live_stack_holds(const void *top, const uint8_t *pattern, size_t len)
{
    uint8_t here = 0;
    TEST_ESCAPE(&here);
    /* the addresses as integers: the frames in between are not one object */
    const uintptr_t to = (uintptr_t)top;
    for (uintptr_t at = (uintptr_t)&here; at + len <= to; at++) {
        const volatile uint8_t *p = (const volatile uint8_t *)at;
        size_t k = 0;
        while (k < len && p[k] == pattern[k]) {
            k++;
        }
        if (k == len) {
            return 1;
        }
    }
    return 0;
}
#else
/* ISO C wants a declaration in every translation unit. */
typedef int stack_probe_unused;
#endif
