/* Internal: the ChaCha20 DRBG's output step without the argument checks,
 * for fd_drbg_generate, which has made them already (the shuffles call it
 * for every few words, so the second round of checks was a cost per draw
 * group). */
#ifndef FAIRDEAL_CHACHA_DRBG_OUTPUT_H
#define FAIRDEAL_CHACHA_DRBG_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/chacha20.h"

/* fd_chacha_drbg_generate without additional input, after its checks:
 * d instantiated, out valid for len bytes, len <= FD_CHACHA_DRBG_MAX_REQUEST.
 * Same bytes, refills and reseed counter as fd_chacha_drbg_generate.
 * Errors: FD_ERR_RESEED_REQUIRED (nothing output). */
fd_status fd_chacha_drbg_output(fd_chacha_drbg *d, uint8_t *out, size_t len);

#endif
