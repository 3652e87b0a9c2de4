#include <stdbool.h>

#include "cortex_m.h"
#include "fd_board_map.h"
#include "hal/board.h"
#include "hal/console.h"

static void say(const char *s) { hal_console_write(s, __builtin_strlen(s)); }

static void put_hex(uint32_t v)
{
    static const char digits[] = "0123456789abcdef";
    char out[8];
    for (int i = 7; i >= 0; i--) {
        out[i] = digits[v & 0xFu];
        v >>= 4;
    }
    hal_console_write(out, sizeof out);
}

void fd_fault_report(const uint32_t *frame, uint32_t vector);

_Noreturn void fd_board_refuse(const char *why)
{
    hal_console_write("\r\nFATAL ", 8);
    hal_console_write(why, __builtin_strlen(why));
    hal_console_write("\r\nDEALING STOPPED\r\n", 19);
    hal_board_exit(FD_EXIT_BOARD);
}

/* The stacked exception frame (r0-r3, r12, lr, pc, xpsr) is on whichever
 * stack was active: EXC_RETURN bit 2 in lr says which. Thumb-1 only, so the
 * same stub serves Cortex-M0 and M4. */
__attribute__((naked)) void fd_fault_handler(void)
{
    __asm volatile("movs r0, #4\n"
                   "mov r1, lr\n"
                   "tst r0, r1\n"
                   "beq 1f\n"
                   "mrs r0, psp\n"
                   "b 2f\n"
                   "1: mrs r0, msp\n"
                   "2: mrs r1, ipsr\n"
                   "ldr r2, =fd_fault_report\n"
                   "bx r2\n");
}

#if defined(FD_SEMIHOSTING)
/* A semihosting call is the Thumb instruction bkpt 0xab. Without QEMU's
 * semihosting switch (or a debugger) it is a debug event nobody takes, so
 * it escalates to HardFault with the stacked pc on the bkpt itself. */
#define SEMIHOST_BKPT 0xBEABu

extern const uint8_t fd_flash_origin[];
extern const uint8_t fd_flash_limit[];

static bool is_semihosting_trap(uint32_t pc)
{
    /* read only inside this image's flash (below it, pc - base wraps high):
     * a wild pc must not fault again */
    const uint32_t base = (uint32_t)(uintptr_t)fd_flash_origin;
    const uint32_t size = (uint32_t)((uintptr_t)fd_flash_limit - (uintptr_t)fd_flash_origin);
    if (pc - base > size - 2u || (pc & 1u) != 0u) {
        return false;
    }
    return *(const volatile uint16_t *)(uintptr_t)pc == SEMIHOST_BKPT;
}
#endif

void fd_fault_report(const uint32_t *frame, uint32_t vector)
{
#if defined(FD_SEMIHOSTING)
    if (is_semihosting_trap(frame[6])) {
        say("\r\nFAULT semihosting is off: run QEMU with -semihosting-config enable=on,target=native"
            "\r\nDEALING STOPPED\r\n");
        /* Without semihosting the image cannot hand QEMU an exit status, and
         * a quiet halt would hang the run: a fault inside this HardFault
         * handler is a lockup, on which QEMU aborts (status 134) right after
         * the message above. On a real core it halts until reset. */
        __asm volatile("udf #0");
    }
#endif
    static const char *const names[] = {"?", "?", "NMI", "HardFault", "MemManage", "BusFault", "UsageFault"};
    vector &= 0x1FFu;
    say("\r\nFAULT ");
    say(vector < 7u ? names[vector] : "Unexpected");
    say(" pc=");
    put_hex(frame[6]);
    say(" vector=");
    put_hex(vector);
    say("\r\nDEALING STOPPED\r\n");
    hal_board_exit(FD_EXIT_FAULT);
}
