/* nRF51 / nRF52 RNG (same registers at the same base on both): one raw
 * byte per VALRDY event, bias correction (DERCEN) on. Polled with a timeout
 * measured on the board's time base (SysTick on the nRF52, TIMER0 on the
 * nRF51, which has no SysTick), so it holds on silicon and under QEMU with
 * or without -icount. The board defines FD_CPU_HZ and FD_TRNG_NAME. */
#include <stdbool.h>

#include "hal/trng.h"
#include "nrf5x.h"

/* With DERCEN a byte takes about 677 us at worst on the nRF51 (QEMU: 660)
 * and 120 us typical on the nRF52. The bound is 250 ms, not a few ms,
 * because under QEMU on a loaded host the RNG's timer can fire tens of ms
 * of virtual time late (seen: 10 ms timeouts with 6 QEMUs on 2 cores); a
 * dead RNG is still reported within a quarter of a second. */
#define TRNG_TIMEOUT_CLOCKS (FD_CPU_HZ / 4u)

/* Between polls the loop spins without touching the bus. Under QEMU every
 * register access takes the emulator's global lock, and back-to-back
 * polling starved the thread that runs its timers, so the RNG's bytes came
 * late and the timeout fired on a loaded host (test_drivers on the
 * microbit, 10 QEMUs on 2 cores: 6 of 25 runs timed out, 0 of 25 with the
 * spin). On silicon it delays noticing a byte by at most a few hundred
 * clocks (~25 us at 16 MHz; a byte takes ~677 us on the nRF51). */
#define POLL_SPIN 64u

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
        const uint32_t start = fd_timebase_read();
        while (RNG_EVENTS_VALRDY == 0u) {
            if (fd_timebase_read() - start > TRNG_TIMEOUT_CLOCKS) {
                return FD_ERR_TRNG_TIMEOUT;
            }
            for (volatile uint32_t spin = 0; spin < POLL_SPIN; spin = spin + 1u) {
            }
        }
        samples[i] = (uint8_t)RNG_VALUE;
        RNG_EVENTS_VALRDY = 0u;
    }
    return FD_OK;
}
