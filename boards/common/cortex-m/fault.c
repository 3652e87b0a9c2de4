#include "cortex_m.h"
#include "hal/board.h"
#include "hal/console.h"

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

void fd_fault_report(const uint32_t *frame, uint32_t vector)
{
    static const char *const names[] = {"?", "?", "NMI", "HardFault", "MemManage", "BusFault", "UsageFault"};
    vector &= 0x1FFu;
    const char *name = vector < 7u ? names[vector] : "Unexpected";
    hal_console_write("\r\nFAULT ", 8);
    hal_console_write(name, __builtin_strlen(name));
    hal_console_write(" pc=", 4);
    put_hex(frame[6]);
    hal_console_write(" vector=", 8);
    put_hex(vector);
    hal_console_write("\r\nDEALING STOPPED\r\n", 19);
    hal_board_exit(FD_EXIT_FAULT);
}
