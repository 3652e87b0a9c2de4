#include <stdbool.h>
#include <stddef.h>

#include "hal/board.h"
#include "nrf52840.h"

#define NVMC_TIMEOUT_CLOCKS (FD_CPU_HZ / 100u) /* a word takes 41 us at most */

static bool nvmc_ready(void)
{
    const uint32_t start = fd_timebase_read();
    while ((NVMC_READY & NVMC_READY_READY) == 0u) {
        if (fd_timebase_read() - start > NVMC_TIMEOUT_CLOCKS) {
            return false;
        }
    }
    return true;
}

/* The DK's RESET button works only once UICR.PSELRESET[0] and [1] name
 * P0.18 (PS v1.7, UICR PSELRESET; Nordic's SystemInit does the same under
 * CONFIG_GPIO_AS_PINRESET). An erased register is programmed once, then the
 * chip resets so the new value is read. A register holding anything else
 * was chosen by someone else and is left (a UICR bit goes 1 -> 0 only; the
 * other direction erases all of UICR). */
static void pin_reset_enable(void)
{
    volatile uint32_t *const regs[2] = {&UICR_PSELRESET0, &UICR_PSELRESET1};
    bool programmed = false;
    for (size_t i = 0; i < 2u; i++) {
        if (*regs[i] != UICR_ERASED || !nvmc_ready()) {
            continue;
        }
        NVMC_CONFIG = NVMC_CONFIG_WEN;
        if (nvmc_ready()) {
            *regs[i] = UICR_PSELRESET_P0_18;
            programmed = nvmc_ready();
        }
        NVMC_CONFIG = NVMC_CONFIG_REN;
        (void)nvmc_ready();
    }
    if (programmed) {
        fd_system_reset();
    }
}

void hal_board_init(void)
{
    /* Console first, so a refusal below can be read. */
    nrf52_uarte_init();
    if (fd_timebase_start() != FD_OK) {
        fd_board_refuse("SysTick time base absent or stopped");
    }
    pin_reset_enable();
    /* The flash's instruction cache is off at reset (PS v1.7, NVMC
     * ICACHECNF); the budget's x1.5 margin for wait states assumes it on
     * (docs/HARDWARE.md "Timing budget"). */
    NVMC_ICACHECNF = NVMC_ICACHECNF_CACHEEN;
    if (nrf5x_hfxo_start() != FD_OK) {
        fd_board_refuse("32 MHz crystal (HFXO) did not start");
    }
    if (nrf52_idle_wake_start() != FD_OK) {
        fd_board_refuse("32.768 kHz clock (LFCLK) did not start: nothing would wake the idle CPU");
    }
    fd_irq_enable();
}
