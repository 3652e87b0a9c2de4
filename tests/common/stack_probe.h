/* Stack hygiene probes (docs/ENTROPY.md "Wipes"): what a call left in the stack region
 * below its caller. scrub_stack() zeroes the region first; afterwards
 * stack_holds() reads it through a probe frame at the same depth (its array
 * is never written: it holds what the frames in between left), so compiler
 * spills are found too. Call both from the test function itself, around
 * the call under test, with nothing deeper in between. */
#ifndef FAIRDEAL_TEST_STACK_PROBE_H
#define FAIRDEAL_TEST_STACK_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "test_rng.h"

/* AddressSanitizer gives each frame's arrays redzones (and may move them to
 * a fake stack), so a probe frame does not see what the one before left:
 * the plain host build and the QEMU boards run these probes, ASan does not. */
#if defined(__SANITIZE_ADDRESS__)
#define STACK_PROBE_WORKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STACK_PROBE_WORKS 0
#endif
#endif
#if !defined(STACK_PROBE_WORKS)
#define STACK_PROBE_WORKS 1
#endif

#if STACK_PROBE_WORKS
/* Bytes probed below the caller: 2 KiB on Cortex-M (a 52-card shuffle's
 * frames take about 1.7 KiB), 8 KiB on the host. */
#if defined(FD_TARGET_CORTEX_M)
#define PROBE_BYTES 2048u
#else
#define PROBE_BYTES 8192u
#endif

/* For the function that makes the call under test and probes after it: its
 * own frame, at a fixed depth (an inlined one would move the probes). */
#if defined(__GNUC__)
#define TEST_NOINLINE __attribute__((noinline))
#else
#define TEST_NOINLINE
#endif

/* A frame that leaves w behind (the probes' control). */
void leave_word_behind(uint32_t w);

/* Zero the region below the caller, so that what the probe finds there
 * afterwards was left by the call in between. */
void scrub_stack(void);

/* 1 if the region below the caller holds the len bytes of pattern. */
int stack_holds(const uint8_t *pattern, size_t len);

/* 1 if the live stack from this call's frame up to top (the address of a
 * local of a frame further up, the test function's) holds the len bytes
 * of pattern: called from a callback the code under test makes (a random
 * source's fill), it sees the buffers of the frames in between while they
 * are live, whatever later frames would overwrite. pattern must not be on
 * the stack. */
int live_stack_holds(const void *top, const uint8_t *pattern, size_t len);

/* 1 if the region holds w as the little-endian bytes a word store leaves
 * (inline: the probe's frame stays at the caller's depth). */
static inline int stack_holds_word(uint32_t w)
{
    uint8_t b[4];
    test_words_to_bytes(&w, 1, b);
    return stack_holds(b, sizeof b);
}
#endif

#endif
