/* STM32F407 RNG: 32-bit words, split into four 8-bit raw samples.
 *
 * Error bits are never ignored. A clock error (CECS: RNG clock below
 * HCLK/16) or a seed error (SECS: more than 64 equal bits or 32 alternating
 * pairs in the analog seed) fails the read with FD_ERR_TRNG_HW. For a seed
 * error we also run the recovery RM0090 prescribes (clear SEIS, toggle
 * RNGEN, discard until DRDY) so a later re-initialisation can succeed; the
 * caller still sees the failure and must pass the start-up tests again. */
#include <stdbool.h>

#include "hal/trng.h"
#include "stm32f407.h"

/* One word takes 40 RNG clocks (under 1 us at 48 MHz); 1 ms is ample. */
#define TRNG_TIMEOUT_CLOCKS (STM32_HCLK_HZ / 1000u)

static bool trng_started;

static fd_status wait_ready(void)
{
    const uint32_t start = fd_systick_read();
    for (;;) {
        uint32_t sr = RNG_SR;
        if ((sr & (RNG_SR_CECS | RNG_SR_CEIS)) != 0u) {
            RNG_SR = ~RNG_SR_CEIS; /* rc_w0: writing 0 clears */
            return FD_ERR_TRNG_HW;
        }
        if ((sr & (RNG_SR_SECS | RNG_SR_SEIS)) != 0u) {
            RNG_SR = ~RNG_SR_SEIS;
            RNG_CR &= ~RNG_CR_RNGEN;
            RNG_CR |= RNG_CR_RNGEN;
            return FD_ERR_TRNG_HW;
        }
        if ((sr & RNG_SR_DRDY) != 0u) {
            return FD_OK;
        }
        if (fd_systick_read() - start > TRNG_TIMEOUT_CLOCKS) {
            return FD_ERR_TRNG_TIMEOUT;
        }
    }
}

fd_status hal_trng_init(void)
{
    RCC_AHB2ENR |= RCC_AHB2ENR_RNGEN;
    RNG_CR = 0u;
    RNG_SR = 0u; /* clear CEIS and SEIS */
    RNG_CR = RNG_CR_RNGEN;
    /* The first word after enabling is discarded as the manual advises. */
    fd_status st = wait_ready();
    if (st != FD_OK) {
        trng_started = false;
        return st;
    }
    (void)RNG_DR;
    trng_started = true;
    return FD_OK;
}

fd_status hal_trng_read(uint8_t *samples, size_t count)
{
    if (samples == NULL) {
        return FD_ERR_NULL;
    }
    if (!trng_started) {
        return FD_ERR_NOT_READY;
    }
    size_t i = 0;
    while (i < count) {
        fd_status st = wait_ready();
        if (st != FD_OK) {
            trng_started = false; /* re-initialise before any further use */
            return st;
        }
        uint32_t word = RNG_DR;
        /* A zero word can follow an undetected seed error (errata-style
         * caution): re-check the status after reading. */
        if ((RNG_SR & (RNG_SR_SECS | RNG_SR_CECS)) != 0u) {
            trng_started = false;
            return FD_ERR_TRNG_HW;
        }
        for (unsigned b = 0; b < 4u && i < count; b++, i++) {
            samples[i] = (uint8_t)(word >> (8u * b));
        }
    }
    return FD_OK;
}
