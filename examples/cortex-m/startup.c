/* Minimal bare-metal start for QEMU's mps2-an386 (Cortex-M4): vector table,
 * .data/.bss set-up, semihosting output and exit (SYS_WRITE0, and
 * SYS_EXIT_EXTENDED with ADP_Stopped_ApplicationExit to carry the status). */
#include <stddef.h>
#include <stdint.h>

#include "board.h"

extern uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];

static int semihost(int op, const void *arg)
{
    int result;
    __asm volatile("mov r0, %1\n\tmov r1, %2\n\tbkpt 0xab\n\tmov %0, r0"
                   : "=r"(result)
                   : "r"(op), "r"(arg)
                   : "r0", "r1", "memory");
    return result;
}

void board_print(const char *s) { (void)semihost(0x04, s); }

static _Noreturn void board_exit(int status)
{
    const uint32_t args[2] = {0x20026u, (uint32_t)status};
    (void)semihost(0x20, args);
    for (;;) {
    }
}

void reset_handler(void);
static void fault_handler(void) { board_exit(99); }

/* ARMv7-M exception numbers 1..15 (ARMv7-M ARM B1.5.2); 7-10 and 13 are
 * reserved. Nothing here enables an interrupt: every other entry is a fault. */
typedef struct vector_table {
    uint32_t *initial_sp;
    void (*handlers[15])(void);
} vector_table;

__attribute__((section(".vectors"), used)) const vector_table vectors = {
    _estack,
    {reset_handler,                                                             /* 1 Reset */
     fault_handler, fault_handler, fault_handler, fault_handler, fault_handler, /* 2-6 NMI..UsageFault */
     NULL, NULL, NULL, NULL,                                                    /* 7-10 reserved */
     fault_handler, fault_handler, NULL, fault_handler, fault_handler}}; /* SVCall, DebugMon, -, PendSV, SysTick */

void reset_handler(void)
{
    for (uint32_t *src = _sidata, *dst = _sdata; dst < _edata;) {
        *dst++ = *src++;
    }
    for (uint32_t *dst = _sbss; dst < _ebss;) {
        *dst++ = 0;
    }
    board_exit(app_main());
}
