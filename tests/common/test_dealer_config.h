/* What every host dealer test shares: the dealer configuration (the fake
 * TRNG with the microbit's health cutoffs, H = 2 bits per sample) and a
 * buffer that captures the dealer's replies. Header-only: only targets that
 * link fd_dealer include it. */
#ifndef FD_TEST_DEALER_CONFIG_H
#define FD_TEST_DEALER_CONFIG_H

#include <stdbool.h>
#include <string.h>

#include "dealer.h"
#include "fake_trng.h"

typedef struct capture {
    char text[8192];
    size_t len;
} capture;

/* Append a reply and keep the text NUL-terminated; false, and nothing
 * written, when it would not fit. */
static inline bool capture_append(capture *c, const char *data, size_t len)
{
    if (len >= sizeof c->text - c->len) {
        return false;
    }
    memcpy(c->text + c->len, data, len);
    c->len += len;
    c->text[c->len] = '\0';
    return true;
}

static inline fd_dealer_config test_dealer_config(fake_trng *trng, fd_source_restart_fn restart, fd_drbg_kind kind)
{
    const fd_dealer_config cfg = {
        .read_samples = fake_trng_read,
        .restart_source = restart,
        .read_ctx = trng,
        .health = {11, 512, 177, 1024, 10, 177},
        .samples_per_block = 160,
        .drbg_kind = kind,
        .board = "test",
        .trng_name = "fake",
        .emulation_only = false,
    };
    return cfg;
}

#endif
