/* Shared Cortex-M pieces every Arm board folder uses: reset, faults,
 * time base, semihosting. Registers are the Armv6-M/v7-M ones. */
#ifndef FD_CORTEX_M_H
#define FD_CORTEX_M_H

#include <stdint.h>

#include "fairdeal/status.h"

/* Every register access goes through FD_REG32, which the host tests
 * override (tests/drivers/fake_regs.h) to compile a driver unchanged
 * against fake registers with simulated hardware side effects. */
#ifndef FD_REG32
#define FD_REG32(addr) (*(volatile uint32_t *)(uintptr_t)(addr))
#endif

#define FD_SCS_BASE 0xE000E000u /* System Control Space */
#define SYSTICK_CSR FD_REG32(FD_SCS_BASE + 0x010u)
#define SYSTICK_CSR_ENABLE_TICKINT_CPUCLK 0x7u
#define SYSTICK_RVR FD_REG32(FD_SCS_BASE + 0x014u)
#define SYSTICK_RVR_MAX 0x00FFFFFFu
#define SYSTICK_CVR FD_REG32(FD_SCS_BASE + 0x018u)
#define NVIC_ISER0 FD_REG32(FD_SCS_BASE + 0x100u)
#define NVIC_ISER(n) FD_REG32(FD_SCS_BASE + 0x100u + 4u * (n))
#define NVIC_ICER0 FD_REG32(FD_SCS_BASE + 0x180u)
#define NVIC_ICER(n) FD_REG32(FD_SCS_BASE + 0x180u + 4u * (n))
#define NVIC_ICPR(n) FD_REG32(FD_SCS_BASE + 0x280u + 4u * (n))
#define SCB_ICSR_PENDSTCLR (1u << 25)
#define SCB_VTOR FD_REG32(FD_SCS_BASE + 0xD08u) /* Armv7-M only: the nRF51 (v6-M) has none */
#define SCB_ICSR FD_REG32(FD_SCS_BASE + 0xD04u)
#define SCB_ICSR_PENDSTSET (1u << 26)
#define SCB_CPACR FD_REG32(FD_SCS_BASE + 0xD88u)
#define SCB_AIRCR FD_REG32(FD_SCS_BASE + 0xD0Cu)
#define SCB_AIRCR_SYSRESETREQ 0x05FA0004u /* VECTKEY and SYSRESETREQ */

/* Reset: copy .data, clear .bss, enable the FPU if FD_HAS_FPU, call
 * hal_board_init() and main, then hal_board_exit(main's return). Every board's vector table points
 * its reset entry here. */
void fd_reset_handler(void);

/* Release builds (FD_DEBUG_LOCK): lock the debug port, first thing after
 * reset (docs/SECURITY.md "Debug lock"). Each board's FD_DEBUG_LOCK_DRIVER
 * defines it; it may reset the chip to make a new lock level take effect. */
void fd_debug_lock(void);

/* Every fault vector points here: prints "FAULT <name> pc=<hex>" on the
 * console and stops through hal_board_exit(FD_EXIT_FAULT). A semihosting
 * call made without semihosting (QEMU run without -semihosting-config) is
 * recognised instead: it prints the switch to use and locks up, which
 * stops QEMU with a nonzero status. */
void fd_fault_handler(void);
#define FD_EXIT_FAULT 99

/* The board's time base: a free-running 32-bit count of FD_CPU_HZ clocks
 * that every timeout and hal_counter_read() use. SysTick boards link
 * systick.c (24-bit SysTick on the processor clock, extended by its wrap
 * interrupt, vector fd_systick_handler); the nRF51, which has no SysTick,
 * sets FD_TIMEBASE_DRIVER to boards/microbit/timer0.c (TIMER0, 32 bits at
 * 16 MHz). fd_timebase_start() starts it and checks that it is really
 * there: it returns FD_ERR_NOT_READY when the counter's registers read
 * back as absent or it does not move, and the board must then refuse to
 * run (fd_board_refuse). fd_timebase_read() is for thread mode only. */
fd_status fd_timebase_start(void);
uint32_t fd_timebase_read(void);
void fd_systick_handler(void);

/* Start-up failed: print "FATAL <why>" and "DEALING STOPPED" on the
 * console and stop through hal_board_exit(FD_EXIT_BOARD). */
_Noreturn void fd_board_refuse(const char *why);
#define FD_EXIT_BOARD 98

/* Reset the chip now (AIRCR.SYSRESETREQ, Armv6-M/Armv7-M ARM "Application
 * Interrupt and Reset Control Register"); the reset cause reads SOFTWARE. */
_Noreturn void fd_system_reset(void);

/* Interrupt masking, sleep and barrier, overridable like FD_REG32 (the
 * host tests have no PRIMASK; their sleep delivers a simulated interrupt). */
#ifndef fd_irq_disable
#define fd_irq_disable() __asm volatile("cpsid i" ::: "memory")
#define fd_irq_enable() __asm volatile("cpsie i" ::: "memory")
/* Data synchronization barrier: the write before it has completed. */
#define fd_data_barrier() __asm volatile("dsb" ::: "memory")
/* Sleep until an interrupt comes, losing no wake-up: call with interrupts
 * masked (cpsid i) after finding nothing to do; WFI wakes on a pending
 * interrupt even while masked, the handler runs, and this returns masked
 * again for the next check. */
static inline void fd_sleep_masked(void) { __asm volatile("wfi\n cpsie i\n cpsid i" ::: "memory"); }
#endif

/* The first flash address after the image (sections.ld). */
extern const uint8_t fd_image_end[];

/* ARM semihosting (bkpt 0xab). Only usable under a debugger or QEMU with
 * -semihosting-config enable=on; on bare hardware it faults. */
int fd_semihost_open(const char *path, int mode);
int fd_semihost_read(int handle, void *buf, int len); /* bytes NOT read */
_Noreturn void fd_semihost_exit(int code);

#endif
