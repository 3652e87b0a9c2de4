/* Fake registers for compiling a board driver unchanged on the host
 * (forced in with -include before the driver's own headers): every
 * FD_REG32 access lands in a host-side table keyed by the real address,
 * after running the hook the test set for that address, which plays the
 * hardware's side effects (a flag that clears on read, a counter that
 * moves, registers that read as zero). The interrupt macros become
 * no-ops, and the "sleep until an interrupt" of a blocking read runs the
 * test's simulated interrupt instead (fake_irq). */
#ifndef FAKE_REGS_H
#define FAKE_REGS_H

#include <setjmp.h>
#include <stdint.h>

volatile uint32_t *fake_reg(uintptr_t addr);
#define FD_REG32(addr) (*fake_reg((uintptr_t)(addr)))

/* Runs before every access (read or write) to addr; slot is its storage. */
typedef void (*fake_hook)(uintptr_t addr, volatile uint32_t *slot);
void fake_reg_hook(uintptr_t addr, fake_hook hook);
/* Value without running the hook. */
uint32_t fake_reg_peek(uintptr_t addr);
void fake_reg_poke(uintptr_t addr, uint32_t value);
/* Forget every register and hook. */
void fake_regs_reset(void);
/* fake_regs_reset as a cmocka setup function. */
int fake_regs_setup(void **state);

/* SysTick as a counter that moves (100 clocks per access), as present but
 * frozen, or as absent (RAZ/WI, like the nRF51's SCS). */
void fake_systick_counts(void);
void fake_systick_frozen(void);
void fake_systick_absent(void);

/* The simulated interrupt a blocking wait delivers; the test fails if a
 * driver waits with none set (it would hang on hardware too), or waits
 * with interrupts unmasked (a byte could slip in between its check and
 * the sleep). */
extern void (*fake_irq)(void);
void fake_wait_irq(void);
/* PRIMASK as the fd_irq_* macros leave it (set: interrupts masked). */
extern int fake_irq_masked;

/* fd_board_refuse (cortex_m.h) records its reason here and jumps to
 * fake_refused, which a test sets with setjmp around hal_board_init. */
extern jmp_buf fake_refused;
extern const char *fake_refusal;
/* fd_system_reset (cortex_m.h) jumps there too, with "system reset". */
/* start() (hal_board_init) must refuse with a reason containing `reason`. */
void fake_expect_refusal(void (*start)(void), const char *reason);

#define fd_irq_disable() ((void)(fake_irq_masked = 1))
#define fd_irq_enable() ((void)(fake_irq_masked = 0))
#define fd_sleep_masked() fake_wait_irq()
#define fd_data_barrier() ((void)0)
/* BASEPRI as the STM32 flash driver leaves it (0: nothing masked). */
extern uint32_t fake_basepri;
#define stm32_basepri_set(v) ((void)(fake_basepri = (uint32_t)(v)))
/* The code address of the instruction that made the last register access
 * (the return address into the driver), for models of where code runs. */
extern const void *fake_reg_caller;

#endif
