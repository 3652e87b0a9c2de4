/* Silicon rules of on-chip flash for the storage drivers' tests (what
 * QEMU's instant NVMC does not show), on top of fake_regs.h:
 * - time: CPU clocks, advancing with each modelled register access, and
 *   SysTick counting them; its wrap interrupt runs at once while the CPU
 *   runs, but while the CPU stands (a flash operation halting it) wraps
 *   only pend, and all of them are taken as one when it resumes (NVIC: one
 *   pending bit), so the time base falls behind;
 * - the flash itself: a block of host memory mapped at the chip's flash
 *   address (the drivers program it through plain pointers), NOR rules
 *   (a program ANDs, an erase sets 0xFF), and the CPU halted for each
 *   erase and program for the datasheet's time.
 * The test's register hooks call fake_flash_tick for each access they
 * model and fake_flash_halt for a flash operation. */
#ifndef FAKE_FLASH_H
#define FAKE_FLASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Clocks since fake_flash_start, and how many SysTick wraps the time base
 * missed (taken as one pending interrupt after a halt). */
extern uint64_t fake_flash_now;
extern uint64_t fake_flash_wraps_lost;
/* When set and it returns false, a SysTick wrap's interrupt cannot be
 * taken now (masked by BASEPRI): it pends, and is taken at the first tick
 * the gate opens (wraps meanwhile are lost). Reset by fake_flash_start. */
extern bool (*fake_flash_systick_gate)(void);

/* Reset the clock and map `size` bytes of fresh flash (all 0x00, as never
 * written) at `addr`; SysTick's CVR and ICSR are modelled from here on. */
void fake_flash_start(uintptr_t addr, size_t size);
/* Unmap it. */
void fake_flash_stop(void);
/* A register access or other CPU work of `clocks`. */
void fake_flash_tick(uint64_t clocks);
/* The CPU stands for `clocks` (no interrupt runs meanwhile). */
void fake_flash_halt(uint64_t clocks);

#endif
