/* Typed-ahead bytes during an STM32F407 sector erase (docs/HARDWARE.md
 * "Flash stalls"): the flash driver (flash.c), the USART2 console
 * (usart.c) and the vector table move (ram_vectors.c), compiled unchanged,
 * against fake registers with a model of RM0090 3.5's rule: while the
 * flash erases, every flash read stalls the bus until the erase ends.
 *
 * Where code runs is read from the build, not assumed: the host build puts
 * STM32_RAMFUNC functions in the section stm32_ramfunc (stm32f407.h), whose
 * bounds the linker exports (__start_/__stop_stm32_ramfunc); that is the
 * model's "SRAM code". Writable data (between __data_start and _end) is its
 * "SRAM data"; everything else (.text, .rodata) is flash. So:
 * - a register access made by code outside SRAM while the erase runs
 *   (fake_reg_caller: the return address into the driver) stalls the CPU
 *   until the erase ends;
 * - a USART2 interrupt is taken during the erase only if the table VTOR
 *   names is in SRAM and its IRQ 38 entry is SRAM code; otherwise it stalls
 *   too (the vector or the handler fetch) and is taken when the erase ends;
 * - SysTick's handler is in flash: its interrupt during the erase stalls
 *   the CPU unless BASEPRI holds it off (its priority from SHPR3);
 * - while the CPU stands, the USART keeps one byte in DR; the next one is an
 *   overrun (ORE, RM0090 30.6.1).
 * The erase takes 2 s (DS8626 t_ERASE128KB at x32); bytes arrive at 115200
 * baud, 10 bits each: one per 14,583 clocks at 168 MHz. The model's clock
 * moves 1,000 clocks per polled register access (coarse, so a 2 s erase
 * is polled 10^5 times, not 10^7; still 14 polls per byte). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "fake_console.h"
#include "fake_flash.h"
#include "hal/console.h"
#include "hal/storage.h"
#include "hal/watchdog.h"
#include "rx_ring.h"
#include "stm32f407.h"

#define HZ 168000000u
#define SECTOR 0x20000u
#define AREA 0x08060000u /* sector 7 */
#define ERASE_CLOCKS ((uint64_t)HZ * 2u)
#define WORD_CLOCKS ((uint64_t)HZ / 10000u) /* 100 us: DS8626 t_PROG at x32, max */
#define WINDOW_WORDS 1024u                  /* the words the program test writes */
#define BYTE_CLOCKS (HZ / 11520u)           /* 10 bits at 115200 baud */
#define STEP_CLOCKS 1000u
#define A_ACR 0x40023C00u
#define A_KEYR 0x40023C04u
#define A_SR 0x40023C0Cu
#define A_CR 0x40023C10u
#define CR_SER (1u << 1)
#define CR_STRT (1u << 16)
#define CR_LOCK (1u << 31)
#define SR_BSY (1u << 16)
#define A_USART_SR (USART2_BASE + 0x00u)
#define A_USART_DR (USART2_BASE + 0x04u)
#define A_CVR (FD_SCS_BASE + 0x018u)
#define A_VTOR (FD_SCS_BASE + 0xD08u)
#define A_SHPR3 (FD_SCS_BASE + 0xD20u)

extern const char __start_stm32_ramfunc[];
extern const char __stop_stm32_ramfunc[];
extern char __data_start[];
extern char _end[];

static bool ram_code(const void *p)
{
    const char *c = p;
    return c >= __start_stm32_ramfunc && c < __stop_stm32_ramfunc;
}
static bool ram_data(const void *p)
{
    const char *c = p;
    return c >= __data_start && c < _end;
}

void hal_watchdog_kick(void) {}

static void never(void) { fail_msg("an interrupt no driver enables"); }

/* the boot table of startup.c, as the host build lays it out: in .rodata */
/* clang-format off */
#define N8 never, never, never, never, never, never, never, never
const stm32_vector_fn stm32_flash_vectors[STM32_VECTORS] = {
    never, never, never, never, never, never, never, never,
    never, never, never, never, never, never, never, fd_systick_handler,
    N8, N8, N8, N8, never, never, never, never, never, never, /* IRQ 0-37 */
    stm32_usart2_irq_handler,                                 /* IRQ 38 */
    N8, N8, N8, N8, N8, never, never, never,                  /* IRQ 39-81 */
};
/* clang-format on */

/* ---- the erase ---- */
static uint64_t busy_until; /* 0: idle */
static uint64_t stalled_clocks;
static unsigned erases;
static unsigned words_programmed;
static uint32_t shadow[WINDOW_WORDS]; /* what the flash holds */

static bool busy(void) { return busy_until != 0u && fake_flash_now < busy_until; }

static void deliver(bool cpu_runs);

/* The CPU stands until the erase ends; bytes due meanwhile reach the USART
 * only; then the pending interrupt runs. */
static void stall(void)
{
    const uint64_t d = busy_until - fake_flash_now;
    stalled_clocks += d;
    busy_until = 0u;
    fake_flash_halt(d);
    deliver(false);
    deliver(true);
}

/* Code at `pc` runs its next instruction. */
static void runs_at(const void *pc)
{
    if (busy() && !ram_code(pc)) {
        stall();
    }
}

/* ---- the line and USART2 ---- */
static uint8_t line[512];
static size_t line_len;
static size_t line_next;
static uint64_t line_start;
static bool in_isr;
static unsigned isr_during_erase;
static unsigned systick_during_erase;

static void usart_gets(uint8_t b)
{
    const uint32_t sr = fake_reg_peek(A_USART_SR);
    if ((sr & USART_SR_RXNE) != 0u) {
        fake_reg_poke(A_USART_SR, sr | USART_SR_ORE); /* DR keeps the older byte */
        return;
    }
    fake_reg_poke(A_USART_DR, b);
    fake_reg_poke(A_USART_SR, sr | USART_SR_RXNE);
}

/* The USART2 interrupt, through the table VTOR names. */
static void take_usart_irq(void)
{
    const uint32_t vtor = fake_reg_peek(A_VTOR);
    const stm32_vector_fn *table = vtor == 0u ? stm32_flash_vectors : (const stm32_vector_fn *)(uintptr_t)vtor;
    const stm32_vector_fn handler = table[16u + USART2_IRQN];
    if (busy() && (!ram_data(table) || !ram_code((const void *)(uintptr_t)handler))) {
        stall(); /* the vector or the handler's first fetch waits for the erase */
        return;  /* stall() ran the interrupt */
    }
    isr_during_erase += busy() ? 1u : 0u;
    in_isr = true;
    handler();
    in_isr = false;
}

/* Bytes due by now reach the USART; with the CPU running, its interrupt. */
static void deliver(bool cpu_runs)
{
    for (;;) {
        if (cpu_runs && !in_isr && (fake_reg_peek(A_USART_SR) & (USART_SR_RXNE | USART_SR_ORE)) != 0u &&
            (fake_reg_peek(USART2_BASE + 0x0Cu) & USART_CR1_RXNEIE) != 0u && !fake_irq_masked) {
            take_usart_irq();
            continue;
        }
        if (line_next >= line_len || line_start + (line_next + 1u) * BYTE_CLOCKS > fake_flash_now) {
            return;
        }
        usart_gets(line[line_next++]);
    }
}

static void elapse(uint64_t clocks)
{
    fake_flash_tick(clocks);
    if (busy_until != 0u && fake_flash_now >= busy_until) {
        busy_until = 0u;
    }
    deliver(true);
}

/* SysTick's handler (fd_systick_handler) is in flash: taken during the
 * erase it stalls the CPU, unless BASEPRI masks its priority. */
static bool systick_gate(void)
{
    const uint32_t prio = fake_reg_peek(A_SHPR3) >> 24;
    if (fake_basepri != 0u && prio >= fake_basepri) {
        return false;
    }
    if (busy() && !ram_code((const void *)(uintptr_t)fd_systick_handler)) {
        systick_during_erase++;
        stall();
    }
    return true;
}

/* ---- registers ---- */
/* A word the driver wrote into the mapped sector since the last access:
 * programmed (NOR: ANDed) with PG set, BSY for 100 us. */
static void settle_program(uint32_t cr)
{
    volatile uint32_t *flash_words = (volatile uint32_t *)(uintptr_t)AREA;
    for (size_t i = 0; i < WINDOW_WORDS; i++) {
        const uint32_t now = flash_words[i];
        if (now == shadow[i]) {
            continue;
        }
        assert_true((cr & 1u) != 0u && (cr & CR_LOCK) == 0u && (cr & (3u << 8)) == (2u << 8)); /* PG, x32 */
        assert_int_equal(busy_until, 0u);                                                      /* one word at a time */
        shadow[i] &= now;
        flash_words[i] = shadow[i];
        words_programmed++;
        busy_until = fake_flash_now + WORD_CLOCKS;
        if (line_start == UINT64_MAX / 2u) {
            line_start = fake_flash_now; /* the controller types from here */
        }
    }
}

static void flash_reg(uintptr_t addr, volatile uint32_t *slot)
{
    runs_at(fake_reg_caller);
    uint32_t cr = fake_reg_peek(A_CR);
    settle_program(cr);
    if (fake_reg_peek(A_KEYR) == 0xCDEF89ABu) {
        cr &= ~CR_LOCK; /* KEY1 then KEY2 (the driver writes them in order) */
        fake_reg_poke(A_KEYR, 0u);
    }
    if ((cr & CR_STRT) != 0u) {
        assert_true((cr & CR_SER) != 0u && (cr & CR_LOCK) == 0u);
        assert_int_equal((cr >> 3) & 0xFu, 7u);
        assert_int_equal(busy_until, 0u);
        cr &= ~CR_STRT;
        erases++;
        busy_until = fake_flash_now + ERASE_CLOCKS;
        memset((void *)(uintptr_t)AREA, 0xFF, SECTOR);
        memset(shadow, 0xFF, sizeof shadow);
        if (line_start == UINT64_MAX / 2u) {
            line_start = fake_flash_now; /* the controller types from here */
        }
    }
    fake_reg_poke(A_CR, cr);
    elapse(addr == A_SR ? STEP_CLOCKS : 10u);
    if (addr == A_SR) {
        *slot = busy() ? SR_BSY : 0u;
    }
}

static void cvr(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    runs_at(fake_reg_caller);
    elapse(10u);
    *slot = (uint32_t)(SYSTICK_RVR_MAX - fake_flash_now % (SYSTICK_RVR_MAX + 1u));
}

static void usart_reg(uintptr_t addr, volatile uint32_t *slot)
{
    (void)slot;
    if (!in_isr) {
        runs_at(fake_reg_caller);
    }
    if (addr == A_USART_DR) {
        fake_reg_poke(A_USART_SR, fake_reg_peek(A_USART_SR) & ~(USART_SR_RXNE | USART_SR_ORE));
    }
}

static hal_storage_area area = {AREA, SECTOR, 1u};
static fd_flash flash;

static void type_ahead(size_t n)
{
    assert_true(n <= sizeof line);
    for (size_t i = 0; i < n; i++) {
        line[i] = (uint8_t)('!' + i % 90u);
    }
    line_len = n;
    line_next = 0u;
    line_start = UINT64_MAX / 2u; /* from the erase's start */
}

static int setup(void **state)
{
    (void)state;
    fake_regs_reset();
    fake_flash_start(AREA, SECTOR);
    fake_flash_systick_gate = systick_gate;
    busy_until = 0u;
    stalled_clocks = 0u;
    erases = isr_during_erase = systick_during_erase = words_programmed = 0u;
    memset(shadow, 0, sizeof shadow); /* fresh mapping: zeros */
    in_isr = false;
    line_len = line_next = 0u;
    fake_reg_poke(A_CR, CR_LOCK);
    fake_reg_hook(A_ACR, flash_reg);
    fake_reg_hook(A_KEYR, flash_reg);
    fake_reg_hook(A_SR, flash_reg);
    fake_reg_hook(A_CR, flash_reg);
    fake_reg_hook(A_CVR, cvr);
    fake_reg_hook(A_USART_SR, usart_reg);
    fake_reg_hook(A_USART_DR, usart_reg);
    stm32_usart2_init(USART_BRR_115200_PLL);
    assert_int_equal(hal_storage_open(&area, &flash), FD_OK);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fake_flash_stop();
    return 0;
}

static void erase_while_typing(size_t n)
{
    type_ahead(n);
    assert_int_equal(flash.erase(flash.ctx, 0), FD_OK);
    assert_int_equal(erases, 1u);
    assert_int_equal(fake_basepri, 0u); /* everything unmasked again */
    printf("typed %zu bytes into a 2 s erase: %u interrupts taken during it, %llu clocks stalled, %llu SysTick "
           "wraps lost\n",
           n, isr_during_erase, (unsigned long long)stalled_clocks, (unsigned long long)fake_flash_wraps_lost);
}

static void expect_typed(size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        uint8_t b = 0;
        assert_int_equal(hal_console_read(&b), FD_OK);
        assert_int_equal(b, line[i]);
    }
}

/* The ring's capacity typed ahead into an erase: all of it arrives, each
 * byte taken by the SRAM-resident handler while the erase runs. */
static void test_bytes_typed_during_a_sector_erase_all_arrive(void **state)
{
    (void)state;
    stm32_vectors_to_ram();
    erase_while_typing(FD_RX_RING_SIZE);
    assert_int_equal(stalled_clocks, 0u);
    assert_int_equal(isr_during_erase, FD_RX_RING_SIZE);
    assert_int_equal(systick_during_erase, 0u); /* held off by BASEPRI */
    /* 2 s is 20 wraps: one pends and is counted at the end, 19 are lost
     * (the time base falls behind: timeouts run long, never short) */
    assert_int_equal(fake_flash_wraps_lost, 19u);
    assert_int_equal(line_next, line_len);
    expect_typed(0, FD_RX_RING_SIZE);
}

/* More than the ring holds: the rest is lost, and reported. */
static void test_typing_past_the_ring_is_reported(void **state)
{
    (void)state;
    stm32_vectors_to_ram();
    erase_while_typing(FD_RX_RING_SIZE + 40u);
    assert_int_equal(stalled_clocks, 0u);
    expect_typed(0, FD_RX_RING_SIZE);
    fake_console_expect_overrun();
}

/* Bytes typed during a run of word programs (100 us each, reads stalled
 * meanwhile): all arrive, none waits for a program to end. */
static void test_bytes_typed_during_word_programs_all_arrive(void **state)
{
    (void)state;
    stm32_vectors_to_ram();
    assert_int_equal(flash.erase(flash.ctx, 0), FD_OK);
    static uint32_t words[WINDOW_WORDS];
    for (size_t i = 0; i < WINDOW_WORDS; i++) {
        words[i] = (uint32_t)i; /* none left erased */
    }
    type_ahead(200u);
    stalled_clocks = 0u;
    isr_during_erase = 0u;
    assert_int_equal(flash.program(flash.ctx, 0, words, WINDOW_WORDS), FD_OK);
    printf("typed 200 bytes into %u word programs: %u interrupts taken while busy, %llu clocks stalled\n",
           words_programmed, isr_during_erase, (unsigned long long)stalled_clocks);
    assert_int_equal(words_programmed, WINDOW_WORDS);
    assert_int_equal(fake_basepri, 0u);
    assert_int_equal(stalled_clocks, 0u);
    assert_int_equal(line_next, line_len); /* all sent during the programs */
    expect_typed(0, 200u);
    for (size_t i = 0; i < WINDOW_WORDS; i++) {
        assert_int_equal(shadow[i], words[i]);
    }
}

/* The model is not a constant: with VTOR left on the boot table in flash
 * (no stm32_vectors_to_ram), the first byte stalls the CPU for the rest of
 * the erase; the USART holds one byte and flags the overrun. */
static void test_a_vector_table_in_flash_stalls_and_loses(void **state)
{
    (void)state;
    erase_while_typing(64u);
    assert_true(stalled_clocks > ERASE_CLOCKS / 2u);
    assert_int_equal(isr_during_erase, 0u);
    expect_typed(0, 1u);
    fake_console_expect_overrun();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_bytes_typed_during_a_sector_erase_all_arrive, setup, teardown),
        cmocka_unit_test_setup_teardown(test_typing_past_the_ring_is_reported, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bytes_typed_during_word_programs_all_arrive, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_vector_table_in_flash_stalls_and_loses, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
