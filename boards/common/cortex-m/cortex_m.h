/* Shared Cortex-M pieces every Arm board folder uses: reset, faults,
 * SysTick counter, semihosting. Registers are the Armv6-M/v7-M ones. */
#ifndef FD_CORTEX_M_H
#define FD_CORTEX_M_H

#include <stdint.h>

#define FD_REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

#define SYSTICK_CSR FD_REG32(0xE000E010u)
#define SYSTICK_RVR FD_REG32(0xE000E014u)
#define SYSTICK_CVR FD_REG32(0xE000E018u)
#define NVIC_ISER0 FD_REG32(0xE000E100u)
#define SCB_ICSR FD_REG32(0xE000ED04u)
#define SCB_ICSR_PENDSTSET (1u << 26)
#define SCB_CPACR FD_REG32(0xE000ED88u)

/* Reset: copy .data, clear .bss, enable the FPU if FD_HAS_FPU, call
 * hal_board_init() and main, then hal_board_exit(main's return). Every board's vector table points
 * its reset entry here. */
void fd_reset_handler(void);

/* Every fault vector points here: prints "FAULT <name> pc=<hex>" on the
 * console and stops through hal_board_exit(FD_EXIT_FAULT). A semihosting
 * call made without semihosting (QEMU run without -semihosting-config) is
 * recognised instead: it prints the switch to use and locks up, which
 * stops QEMU with a nonzero status. */
void fd_fault_handler(void);
#define FD_EXIT_FAULT 99

/* Start SysTick free-running on the processor clock (24 bits, counting
 * down) with a wrap interrupt that extends it; fd_systick_read() gives the
 * 32-bit count of elapsed processor clocks. */
void fd_systick_start(void);
/* Call from thread mode only (it keeps the last reading). */
uint32_t fd_systick_read(void);
void fd_systick_handler(void);

/* Sleep until an interrupt comes, losing no wake-up: call with interrupts
 * masked (cpsid i) after finding nothing to do; WFI wakes on a pending
 * interrupt even while masked, the handler runs, and this returns masked
 * again for the next check. */
static inline void fd_sleep_masked(void) { __asm volatile("wfi\n cpsie i\n cpsid i" ::: "memory"); }

/* The first flash address after the image (sections.ld). */
extern const uint8_t fd_image_end[];

/* ARM semihosting (bkpt 0xab). Only usable under a debugger or QEMU with
 * -semihosting-config enable=on; on bare hardware it faults. */
int fd_semihost_open(const char *path, int mode);
int fd_semihost_read(int handle, void *buf, int len); /* bytes NOT read */
_Noreturn void fd_semihost_exit(int code);

#endif
