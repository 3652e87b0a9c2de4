/* A fake raw TRNG for tests: healthy random samples or a chosen fault,
 * presented as an fd_sample_read_fn. Deterministic (seeded). */
#ifndef FD_FAKE_TRNG_H
#define FD_FAKE_TRNG_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/status.h"

typedef enum fake_trng_mode {
    FAKE_TRNG_RANDOM,  /* uniform bytes */
    FAKE_TRNG_STUCK,   /* every sample == value */
    FAKE_TRNG_PATTERN, /* pattern[0..pattern_len) repeated */
    FAKE_TRNG_BIASED,  /* each bit 1 with probability p1_per_mille/1000 */
    FAKE_TRNG_SCRIPT,  /* script[0..script_len) then fails FD_ERR_TRNG_HW */
    FAKE_TRNG_COUNTER, /* sample i (0-based) is i & 0xff */
} fake_trng_mode;

typedef struct fake_trng {
    fake_trng_mode mode;
    uint8_t value;
    const uint8_t *pattern;
    size_t pattern_len;
    unsigned p1_per_mille;
    uint64_t prng;
    /* Faults on top of the mode, by sample index (0 = off): the read that
     * would deliver sample number fault_at (1-based) fails with
     * fault_status instead; fault_every > 0 repeats that every so many. */
    uint64_t fault_at;
    uint64_t fault_every;
    fd_status fault_status;
    /* Switch to mode `later_mode` once `switch_at` samples were delivered. */
    uint64_t switch_at;
    fake_trng_mode later_mode;
    uint64_t delivered;
    uint64_t faults;
} fake_trng;

void fake_trng_init(fake_trng *t, fake_trng_mode mode, uint64_t seed);
fd_status fake_trng_read(void *ctx, uint8_t *samples, size_t count);

#endif
