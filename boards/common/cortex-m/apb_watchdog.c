/* The CMSDK / Stellaris APB watchdog (apb_watchdog.h). */
#include "apb_watchdog.h"

#include "cortex_m.h"

#define REG(base, off) FD_REG32((base) + (off))

/* Two words no power-up pattern is likely to hold by chance (2^-64), the
 * second the complement of the first so that all-zero or all-one RAM is
 * never a note. */
#define NOTE_MAGIC 0x57444F47u /* "WDOG" */
static uint32_t note[2] __attribute__((section(".noinit")));
/* Kicks touch the block only once it runs (the LM3S6965 faults on a
 * clock-gated peripheral, and unit-test images never start it). */
static bool running;

fd_status fd_apb_watchdog_start(uintptr_t base, uint32_t clock_hz, uint32_t timeout_ms)
{
    if (timeout_ms == 0u) {
        return FD_ERR_EMPTY;
    }
    const uint64_t half = (uint64_t)clock_hz * timeout_ms / 2000u;
    if (half == 0u || half > 0x100000000ull) {
        return FD_ERR_TOO_LARGE;
    }
    if ((REG(base, APB_WDOG_CONTROL) & APB_WDOG_CONTROL_INTEN) != 0u) {
        return FD_ERR_STATE; /* the Stellaris block ignores CONTROL writes from now on */
    }
    const uint32_t load = (uint32_t)(half - 1u); /* it counts LOAD..0: LOAD + 1 clocks */
    REG(base, APB_WDOG_LOCK) = APB_WDOG_UNLOCK_KEY;
    REG(base, APB_WDOG_LOAD) = load;
    REG(base, APB_WDOG_CONTROL) = APB_WDOG_CONTROL_RESEN | APB_WDOG_CONTROL_INTEN;
    REG(base, APB_WDOG_LOCK) = 0u; /* any value but the key locks */
    const uint32_t want = APB_WDOG_CONTROL_RESEN | APB_WDOG_CONTROL_INTEN;
    if ((REG(base, APB_WDOG_CONTROL) & want) != want || REG(base, APB_WDOG_LOAD) != load) {
        return FD_ERR_NOT_READY;
    }
    running = true;
    return FD_OK;
}

bool fd_apb_watchdog_kick(uintptr_t base)
{
    if (!running) {
        return false;
    }
    REG(base, APB_WDOG_LOCK) = APB_WDOG_UNLOCK_KEY;
    REG(base, APB_WDOG_INTCLR) = 1u;
    REG(base, APB_WDOG_LOCK) = 0u;
    /* a kick after the first stage means the dealer lives: no reset is coming */
    note[0] = 0u;
    return true;
}

bool fd_apb_watchdog_fired(uintptr_t base) { return (REG(base, APB_WDOG_MIS) & 1u) != 0u; }

void fd_apb_watchdog_note(void)
{
    note[0] = NOTE_MAGIC;
    note[1] = ~NOTE_MAGIC;
}

bool fd_apb_watchdog_take(void)
{
    const bool noted = note[0] == NOTE_MAGIC && note[1] == ~NOTE_MAGIC;
    note[0] = 0u;
    note[1] = 0u;
    return noted;
}
