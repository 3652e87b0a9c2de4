#include "fake_flash.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "cortex_m.h"
#include "fake_regs.h"

uint64_t fake_flash_now;
uint64_t fake_flash_wraps_lost;
bool (*fake_flash_systick_gate)(void);
static bool wrap_pending;
static void *mapped;
static size_t mapped_size;

#define WRAP (SYSTICK_RVR_MAX + 1u)

/* SysTick counts down from RVR_MAX, reloading every 2^24 clocks. */
static void cvr(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    fake_flash_tick(10u);
    *slot = (uint32_t)(SYSTICK_RVR_MAX - fake_flash_now % WRAP);
}

static void icsr(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    *slot = 0u; /* every wrap's interrupt has run (or been lost) by now */
}

void fake_flash_tick(uint64_t clocks)
{
    const uint64_t before = fake_flash_now / WRAP;
    fake_flash_now += clocks;
    const uint64_t wraps = fake_flash_now / WRAP - before;
    if (fake_flash_systick_gate != NULL && (wraps > 0u || wrap_pending) && !fake_flash_systick_gate()) {
        if (wraps > 0u) { /* one pending bit: a second wrap meanwhile is lost */
            fake_flash_wraps_lost += wrap_pending ? wraps : wraps - 1u;
            wrap_pending = true;
        }
        return;
    }
    if (wrap_pending) {
        wrap_pending = false;
        fd_systick_handler();
    }
    for (uint64_t w = 0; w < wraps; w++) {
        fd_systick_handler(); /* the CPU runs: each wrap's interrupt is taken */
    }
}

void fake_flash_halt(uint64_t clocks)
{
    const uint64_t before = fake_flash_now / WRAP;
    fake_flash_now += clocks;
    const uint64_t wraps = fake_flash_now / WRAP - before;
    if (wraps > 0u) {
        fd_systick_handler(); /* one pending bit: taken once on resuming */
        fake_flash_wraps_lost += wraps - 1u;
    }
}

void fake_flash_start(uintptr_t addr, size_t size)
{
    fake_flash_stop(); /* a failed test's mapping */
    fake_flash_now = 0u;
    fake_flash_wraps_lost = 0u;
    fake_flash_systick_gate = NULL;
    wrap_pending = false;
    mapped = mmap((void *)addr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    assert_true(mapped == (void *)addr);
    mapped_size = size;
    fake_reg_hook(FD_SCS_BASE + 0x018u, cvr);
    fake_reg_hook(FD_SCS_BASE + 0xD04u, icsr);
    assert_int_equal(fd_timebase_start(), FD_OK);
}

void fake_flash_stop(void)
{
    if (mapped != NULL) {
        assert_int_equal(munmap(mapped, mapped_size), 0);
        mapped = NULL;
    }
}
