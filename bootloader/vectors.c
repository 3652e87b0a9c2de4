/* The bootloader's vector table (bootloader/main.c): the stack, reset, the
 * built-in public key's address in entry 7 and fd_update_check's in entry 8
 * (both reserved by the architecture, never taken: the signed dealer checks
 * updates with the bootloader's key and code, docs/SECURITY.md "Updates"),
 * and every other entry to one handler. Cortex-M0 (the nRF51): fd_boot_forward,
 * which serves the application once it runs. Cortex-M3/M4: the fault
 * handler for faults, a masking return for interrupts (they wait for the
 * application, bootloader/main.c), and SysTick counts the time base the
 * console's timeouts use. */
#include <stdint.h>

#define FD_BOOT_KEY_DEFINE 1
#include "boot_key.h"
#include "cortex_m.h"

extern uint32_t fd_stack_top[];
void fd_boot_reset(void);
typedef void (*vector_fn)(void);

#define FD_BOOT_VECTORS (16 + 64) /* the core's 16 and the most IRQs of the three boards (LM3S: 64) */

#if defined(__ARM_ARCH_6M__)
void fd_boot_forward(void);
#define O fd_boot_forward
#define T fd_boot_forward
#define I fd_boot_forward
#else
void fd_boot_mask_irq(void);
#define O fd_fault_handler
#define T fd_systick_handler
#define I fd_boot_mask_irq
#endif
#define I8 I, I, I, I, I, I, I, I
#if defined(FD_BOOT_UPDATES)
#include "fairdeal/update.h"
#define CHECK (vector_fn)(uintptr_t) fd_update_check
#else
#define CHECK O
#endif

/* clang-format off: the table reads as the vector layout */
__attribute__((section(".vectors"), used)) static const vector_fn vectors[FD_BOOT_VECTORS] = {
    (vector_fn)(uintptr_t)fd_stack_top,
    fd_boot_reset,
    O,
    O,
    O,
    O,
    O,
    (vector_fn)(uintptr_t)fd_boot_key, /* 7: reserved; the key (docs/SECURITY.md "Updates") */
    CHECK,                             /* 8: reserved; the check of slot B (the same) */
    O,
    O,
    O,
    O,
    O,
    O,
    T, /* 2..15: NMI .. SysTick */
    I8,
    I8,
    I8,
    I8,
    I8,
    I8,
    I8,
    I8, /* 64 IRQs */
};
/* clang-format on */
_Static_assert(sizeof vectors / sizeof vectors[0] == FD_BOOT_VECTORS, "every entry set");
