/* nRF51 / nRF52 RNG (same registers at the same base on both): one raw
 * byte per VALRDY event, bias correction (DERCEN) on. Polled with a timeout
 * measured on SysTick, so it holds under QEMU with or without -icount.
 * The board defines FD_CPU_HZ and FD_TRNG_NAME. */
#include <stdbool.h>

#include "cortex_m.h"
#include "hal/trng.h"

#define NRF_RNG_BASE 0x4000D000u
#define RNG_TASKS_START FD_REG32(NRF_RNG_BASE + 0x000u)
#define RNG_TASKS_STOP FD_REG32(NRF_RNG_BASE + 0x004u)
#define RNG_EVENTS_VALRDY FD_REG32(NRF_RNG_BASE + 0x100u)
#define RNG_CONFIG FD_REG32(NRF_RNG_BASE + 0x504u)
#define RNG_CONFIG_DERCEN 0x1u
#define RNG_VALUE FD_REG32(NRF_RNG_BASE + 0x508u)

/* With DERCEN a byte takes about 677 us at worst on the nRF51 (QEMU: 660)
 * and 120 us typical on the nRF52. The bound is 250 ms, not a few ms,
 * because under QEMU on a loaded host the RNG's timer can fire tens of ms
 * of virtual time late (seen: 10 ms timeouts with 6 QEMUs on 2 cores); a
 * dead RNG is still reported within a quarter of a second. */
#define TRNG_TIMEOUT_CLOCKS (FD_CPU_HZ / 4u)

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
