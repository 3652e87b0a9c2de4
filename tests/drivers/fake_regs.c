#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "cortex_m.h"
#include "fake_regs.h"

#define FAKE_REGS_MAX 256u

static struct {
    uintptr_t addr;
    volatile uint32_t value;
    fake_hook hook;
} regs[FAKE_REGS_MAX];
static size_t used;

void (*fake_irq)(void);
int fake_irq_masked;
uint32_t fake_basepri;
const void *fake_reg_caller;
jmp_buf fake_refused;
const char *fake_refusal;

_Noreturn void fd_board_refuse(const char *why)
{
    fake_refusal = why;
    longjmp(fake_refused, 1);
}

_Noreturn void fd_system_reset(void)
{
    fake_refusal = "system reset";
    longjmp(fake_refused, 2);
}

static size_t find(uintptr_t addr)
{
    for (size_t i = 0; i < used; i++) {
        if (regs[i].addr == addr) {
            return i;
        }
    }
    assert_true(used < FAKE_REGS_MAX);
    regs[used].addr = addr;
    regs[used].value = 0u;
    regs[used].hook = NULL;
    return used++;
}

__attribute__((noinline)) volatile uint32_t *fake_reg(uintptr_t addr)
{
    fake_reg_caller = __builtin_return_address(0);
    const size_t i = find(addr);
    if (regs[i].hook != NULL) {
        regs[i].hook(addr, &regs[i].value);
    }
    return &regs[i].value;
}

void fake_expect_refusal(void (*start)(void), const char *reason)
{
    if (setjmp(fake_refused) == 0) {
        start();
        fail_msg("started, but should have refused: %s", reason);
    }
    assert_non_null(strstr(fake_refusal, reason));
}

void fake_reg_hook(uintptr_t addr, fake_hook hook) { regs[find(addr)].hook = hook; }

uint32_t fake_reg_peek(uintptr_t addr) { return regs[find(addr)].value; }

void fake_reg_poke(uintptr_t addr, uint32_t value) { regs[find(addr)].value = value; }

void fake_regs_reset(void)
{
    used = 0;
    fake_irq = NULL;
    fake_irq_masked = 0;
    fake_basepri = 0u;
    fake_refusal = NULL;
}

int fake_regs_setup(void **state)
{
    (void)state;
    fake_regs_reset();
    return 0;
}

void fake_wait_irq(void)
{
    assert_non_null(fake_irq); /* a driver waiting for a byte nobody sends */
    assert_true(fake_irq_masked);
    void (*irq)(void) = fake_irq;
    fake_irq = NULL; /* one interrupt per wait unless the test re-arms it */
    irq();
}

static void systick_counts(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    *slot = (*slot - 100u) & SYSTICK_RVR_MAX;
}

static void systick_absent(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    *slot = 0u; /* what was written is gone by the next access */
}

void fake_systick_counts(void) { fake_reg_hook(FD_SCS_BASE + 0x018u, systick_counts); }

void fake_systick_frozen(void) { fake_reg_hook(FD_SCS_BASE + 0x018u, NULL); }

void fake_systick_absent(void)
{
    fake_reg_hook(FD_SCS_BASE + 0x010u, systick_absent);
    fake_reg_hook(FD_SCS_BASE + 0x014u, systick_absent);
    fake_reg_hook(FD_SCS_BASE + 0x018u, systick_absent);
}
