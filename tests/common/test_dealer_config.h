/* The dealer configuration every host dealer test uses: the fake TRNG with
 * the microbit's health cutoffs (H = 2 bits per sample). Header-only: only
 * targets that link fd_dealer include it. */
#ifndef FD_TEST_DEALER_CONFIG_H
#define FD_TEST_DEALER_CONFIG_H

#include "dealer.h"
#include "fake_trng.h"

static inline fd_dealer_config test_dealer_config(fake_trng *trng, fd_source_restart_fn restart, fd_drbg_kind kind)
{
    const fd_dealer_config cfg = {
        .read_samples = fake_trng_read,
        .restart_source = restart,
        .read_ctx = trng,
        .health = {11, 512, 177, 1024},
        .samples_per_block = 160,
        .drbg_kind = kind,
        .board = "test",
        .trng_name = "fake",
        .emulation_only = false,
    };
    return cfg;
}

#endif
