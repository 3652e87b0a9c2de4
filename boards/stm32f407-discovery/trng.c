/* STM32F407 RNG: 32-bit words, split into four 8-bit raw samples.
 *
 * Error bits are never ignored, and a word is used only if the status read
 * AFTER it shows no error, current or sticky. RM0090 24.3.2: after a seed
 * error "if a value is available in the RNG_DR register, it must not be
 * used"; SECS can clear again while SEIS stays set, so SEIS and CEIS count
 * too. Any error (or an all-zero word, which the F4's RNG gives when its
 * clock or analog seed is off; a healthy source does so once in 2^32
 * words) fails the read with FD_ERR_TRNG_HW, runs the manual's recovery
 * (clear SEIS/CEIS, clear and set RNGEN), and leaves the driver
 * uninitialised: the caller must hal_trng_init again (which discards the
 * first word and re-checks the PLL) and pass the start-up tests again. */
#include <stdbool.h>

#include "hal/trng.h"
#include "stm32f407.h"

#define RNG_SR_ERRORS (RNG_SR_CECS | RNG_SR_SECS | RNG_SR_CEIS | RNG_SR_SEIS)

/* One word takes 40 RNG clocks (under 1 us at 48 MHz); 1 ms is ample. */
#define TRNG_TIMEOUT_CLOCKS (STM32_HCLK_HZ / 1000u)

static bool trng_started;

static fd_status fail(fd_status st)
{
    trng_started = false;
    /* SEIS and CEIS are rc_w0: writing 1 to the other bits changes nothing. */
    RNG_SR = ~(RNG_SR_SEIS | RNG_SR_CEIS);
    RNG_CR &= ~RNG_CR_RNGEN;
    RNG_CR |= RNG_CR_RNGEN;
    return st;
}

/* The next word, accepted only if the status after reading it is clean. */
static fd_status next_word(uint32_t *word)
{
    const uint32_t start = fd_timebase_read();
    for (;;) {
        const uint32_t sr = RNG_SR;
        if ((sr & RNG_SR_ERRORS) != 0u) {
            return fail(FD_ERR_TRNG_HW);
        }
        if ((sr & RNG_SR_DRDY) != 0u) {
            break;
        }
        if (fd_timebase_read() - start > TRNG_TIMEOUT_CLOCKS) {
            return fail(FD_ERR_TRNG_TIMEOUT);
        }
    }
    const uint32_t value = RNG_DR;
    if ((RNG_SR & RNG_SR_ERRORS) != 0u || value == 0u) {
        return fail(FD_ERR_TRNG_HW);
    }
    *word = value;
    return FD_OK;
}

fd_status hal_trng_init(void)
{
    trng_started = false;
    /* The PLL is the system clock and the RNG's 48 MHz (board.c); it is
     * not restarted here (RM0090 6.3.1: PLLON cannot be cleared while the
     * PLL drives SYSCLK). Unlocked: no RNG clock, fail closed. */
    if ((RCC_CR & RCC_CR_PLLRDY) == 0u) {
        return FD_ERR_TRNG_HW;
    }
    RCC_AHB2ENR |= RCC_AHB2ENR_RNGEN;
    /* ES0182 2.1.13 (delay after an RCC peripheral clock enabling): a
     * register access right after the enable can be lost. ST's "dummy
     * read" workaround has been shown not to suffice on the F407; DSB
     * does. */
    fd_data_barrier();
    RNG_CR = 0u;
    RNG_SR = 0u; /* clear CEIS and SEIS */
    RNG_CR = RNG_CR_RNGEN;
    /* The first word after enabling is discarded as the manual advises. */
    uint32_t first;
    fd_status st = next_word(&first);
    if (st != FD_OK) {
        return st;
    }
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
        uint32_t word;
        fd_status st = next_word(&word);
        if (st != FD_OK) {
            return st;
        }
        for (unsigned b = 0; b < 4u && i < count; b++, i++) {
            samples[i] = (uint8_t)(word >> (8u * b));
        }
    }
    return FD_OK;
}
