/* nRF51 RNG: one raw byte per VALRDY event, bias correction (DERCEN) on.
 * Polled with a timeout measured on SysTick, so it holds under QEMU with or
 * without -icount. */
#include <stdbool.h>

#include "hal/trng.h"
#include "nrf51.h"

/* With DERCEN the nRF51 needs about 677 us per byte at worst (QEMU: 660);
 * 10 ms is fifteen times that. */
#define TRNG_TIMEOUT_CLOCKS (NRF51_CPU_HZ / 100u)

static bool trng_started;

fd_status hal_trng_init(void)
{
    RNG_TASKS_STOP = 1u;
    RNG_CONFIG = RNG_CONFIG_DERCEN;
    RNG_EVENTS_VALRDY = 0u;
    RNG_TASKS_START = 1u;
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
    for (size_t i = 0; i < count; i++) {
        const uint32_t start = fd_systick_read();
        while (RNG_EVENTS_VALRDY == 0u) {
            if (fd_systick_read() - start > TRNG_TIMEOUT_CLOCKS) {
                return FD_ERR_TRNG_TIMEOUT;
            }
        }
        samples[i] = (uint8_t)RNG_VALUE;
        RNG_EVENTS_VALRDY = 0u;
    }
    return FD_OK;
}

const char *hal_trng_name(void) { return "nRF51 RNG (bias correction on)"; }
