/* Typed-ahead bytes during nRF52840 flash operations (docs/HARDWARE.md
 * "Flash stalls"): the NVMC driver (boards/common/nrf5x/nvmc.c) and the
 * UARTE console (uarte.c), compiled unchanged for the nRF52840
 * (FD_NRF_CONSOLE_HOLD), against fake registers with the silicon's rules:
 * - NVMC (PS v1.7 NVMC chapter): the CPU is halted while a page erases
 *   (85 ms) or a word is written (41 us); no interrupt runs meanwhile;
 * - UARTE (PS v1.7 6.34.4 "Reception"): STARTRX latches RXD.PTR and
 *   RXD.MAXCNT; EasyDMA writes each received byte to RAM without the CPU,
 *   halted or not; a full buffer raises ENDRX and the receiver has nowhere
 *   to write until the next STARTRX: bytes then wait in the RX FIFO (4
 *   here: the PS's "up to four bytes after STOPRX"), the next one is an
 *   OVERRUN error (ERROR event, ERRORSRC bit 0); STOPRX ends the transfer
 *   (ENDRX with RXD.AMOUNT) then RXTO; FLUSHRX moves the FIFO to RAM
 *   (ENDRX, RXD.AMOUNT); ENDRX and ERROR interrupt the CPU when it runs and
 *   the NVIC line is enabled (ISER/ICER).
 * Bytes arrive at 115200 baud, 10 bits each: one per 5,555 clocks at
 * 64 MHz; each register access is 10 clocks of CPU time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "fake_console.h"
#include "fake_flash.h"
#include "hal/console.h"
#include "hal/storage.h"
#include "hal/watchdog.h"
#include "nrf52840.h"
#include "rx_ring.h"

#define HZ 64000000u
#define PAGE 4096u
#define AREA 0x00080000u
#define ERASE_CLOCKS ((uint64_t)HZ / 1000u * 85u)
#define WORD_CLOCKS ((uint64_t)HZ / 1000000u * 41u)
#define BYTE_CLOCKS (HZ / 11520u)
#define FIFO 4u
#define U(off) (UARTE0_BASE + (off))
#define A_STARTRX U(0x000u)
#define A_STOPRX U(0x004u)
#define A_FLUSHRX U(0x02Cu)
#define A_ENDRX U(0x110u)
#define A_ERROR U(0x124u)
#define A_RXTO U(0x144u)
#define A_INTENSET U(0x304u)
#define A_ERRORSRC U(0x480u)
#define A_RXD_PTR U(0x534u)
#define A_RXD_MAXCNT U(0x538u)
#define A_RXD_AMOUNT U(0x53Cu)
#define A_ISER0 (FD_SCS_BASE + 0x100u)
#define A_ICER0 (FD_SCS_BASE + 0x180u)
#define A_READY (NVMC_BASE + 0x400u)
#define A_CONFIG (NVMC_BASE + 0x504u)
#define A_ERASEPAGE (NVMC_BASE + 0x508u)
#define A_CODEPAGESIZE 0x10000010u
#define A_CODESIZE 0x10000014u
#define UARTE_BIT (1u << UARTE0_IRQN)

void hal_watchdog_kick(void) {}

/* ---- the line ---- */
static uint8_t line[512];
static size_t line_len;
static size_t line_next;
static uint64_t line_start;
static size_t line_framing_error_at; /* index of a byte flagged damaged */

/* ---- the UARTE ---- */
static struct {
    bool active;
    uint32_t ptr, maxcnt, amount;
    uint8_t fifo[FIFO];
    unsigned fifo_n;
    bool nvic_on;
} u;
/* ERRORSRC, write 1 to clear: what the hardware holds, what was shown (a
 * write of other bits than shown clears them; the driver's write-back of
 * exactly what it read is test_hw_nrf52.c's check) */
static uint32_t errorsrc_hw;
static uint32_t errorsrc_shown;
static bool halted;
static bool in_isr;
static unsigned dma_while_halted;
static unsigned overruns;

static void end_transfer(void)
{
    fake_reg_poke(A_RXD_AMOUNT, u.amount);
    fake_reg_poke(A_ENDRX, 1u);
    u.active = false;
}

static void dma(uint8_t b)
{
    *(volatile uint8_t *)(uintptr_t)(u.ptr + u.amount) = b;
    u.amount++;
    dma_while_halted += halted ? 1u : 0u;
    if (u.amount == u.maxcnt) {
        end_transfer();
    }
}

static void start(void)
{
    u.ptr = fake_reg_peek(A_RXD_PTR);
    u.maxcnt = fake_reg_peek(A_RXD_MAXCNT);
    assert_true(u.maxcnt > 0u);
    u.amount = 0u;
    u.active = true;
}

static void from_fifo(void)
{
    unsigned k = 0;
    while (k < u.fifo_n && u.active) {
        dma(u.fifo[k++]);
    }
    memmove(u.fifo, u.fifo + k, u.fifo_n - k);
    u.fifo_n -= k;
}

static void byte_arrives(uint8_t b)
{
    if (u.active && u.fifo_n == 0u) {
        dma(b);
    } else if (u.fifo_n < FIFO) {
        u.fifo[u.fifo_n++] = b;
    } else {
        overruns++;
        errorsrc_hw |= 1u;
        fake_reg_poke(A_ERRORSRC, errorsrc_hw);
        errorsrc_shown = errorsrc_hw;
        fake_reg_poke(A_ERROR, 1u);
    }
}

/* Tasks and NVIC writes since the last access take effect. */
static void settle_uarte(void)
{
    const uint32_t written = fake_reg_peek(A_ERRORSRC);
    if (written != errorsrc_shown) {
        errorsrc_hw &= ~written;
    }
    fake_reg_poke(A_ERRORSRC, errorsrc_hw);
    errorsrc_shown = errorsrc_hw;
    if (fake_reg_peek(A_STOPRX) != 0u) {
        fake_reg_poke(A_STOPRX, 0u);
        if (u.active) {
            end_transfer();
        }
        fake_reg_poke(A_RXTO, 1u);
    }
    if (fake_reg_peek(A_FLUSHRX) != 0u) {
        fake_reg_poke(A_FLUSHRX, 0u);
        start();
        from_fifo();
        if (u.active) {
            end_transfer();
        }
    }
    if (fake_reg_peek(A_STARTRX) != 0u) {
        fake_reg_poke(A_STARTRX, 0u);
        start();
        from_fifo();
    }
    if ((fake_reg_peek(A_ICER0) & UARTE_BIT) != 0u) {
        u.nvic_on = false;
        fake_reg_poke(A_ICER0, 0u);
    }
    if ((fake_reg_peek(A_ISER0) & UARTE_BIT) != 0u) {
        u.nvic_on = true;
        fake_reg_poke(A_ISER0, 0u);
    }
}

/* Bytes due by now arrive; with the CPU running, the interrupt. */
static void deliver(void)
{
    for (;;) {
        if (!halted && !in_isr && u.nvic_on && (fake_reg_peek(A_INTENSET) & (1u << 4 | 1u << 9)) != 0u &&
            (fake_reg_peek(A_ENDRX) != 0u || fake_reg_peek(A_ERROR) != 0u)) {
            in_isr = true;
            nrf52_uarte_irq_handler();
            in_isr = false;
            settle_uarte();
            continue;
        }
        if (line_next >= line_len || line_start == UINT64_MAX ||
            line_start + (line_next + 1u) * BYTE_CLOCKS > fake_flash_now) {
            return;
        }
        byte_arrives(line[line_next]);
        if (line_next == line_framing_error_at) {
            errorsrc_hw |= 4u; /* FRAMING */
            fake_reg_poke(A_ERRORSRC, errorsrc_hw);
            errorsrc_shown = errorsrc_hw;
            fake_reg_poke(A_ERROR, 1u);
        }
        line_next++;
    }
}

static void cpu_halts(uint64_t clocks)
{
    halted = true;
    const uint64_t end = fake_flash_now + clocks;
    while (fake_flash_now < end) { /* bytes in order while it stands */
        const uint64_t step = end - fake_flash_now < BYTE_CLOCKS ? end - fake_flash_now : BYTE_CLOCKS;
        fake_flash_halt(step);
        deliver();
    }
    halted = false;
}

/* ---- the NVMC over the mapped page ---- */
static uint32_t shadow[PAGE / 4u];
static unsigned erases;
static unsigned words_written;
static uint64_t erase_start;

static volatile uint32_t *page_words(void) { return (volatile uint32_t *)(uintptr_t)AREA; }

static void settle_nvmc(void)
{
    const uint32_t erase = fake_reg_peek(A_ERASEPAGE);
    if (erase != 0u) {
        assert_int_equal(erase, AREA);
        assert_int_equal(fake_reg_peek(A_CONFIG), NVMC_CONFIG_EEN);
        fake_reg_poke(A_ERASEPAGE, 0u);
        for (size_t i = 0; i < PAGE / 4u; i++) {
            shadow[i] = 0xFFFFFFFFu;
            page_words()[i] = 0xFFFFFFFFu;
        }
        erases++;
        erase_start = fake_flash_now;
        line_start = line_start == UINT64_MAX ? fake_flash_now : line_start;
        cpu_halts(ERASE_CLOCKS);
    }
    for (size_t i = 0; i < PAGE / 4u; i++) {
        if (page_words()[i] != shadow[i]) {
            assert_int_equal(fake_reg_peek(A_CONFIG), NVMC_CONFIG_WEN);
            shadow[i] &= page_words()[i];
            page_words()[i] = shadow[i];
            words_written++;
            line_start = line_start == UINT64_MAX ? fake_flash_now : line_start;
            cpu_halts(WORD_CLOCKS);
        }
    }
}

static void any_reg(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    (void)slot;
    settle_uarte();
    settle_nvmc();
    if (!in_isr) {
        fake_flash_tick(10u);
        deliver();
    }
    fake_reg_poke(A_READY, 1u); /* the CPU ran again only once the NVMC was done */
}

static void cvr(uintptr_t addr, volatile uint32_t *slot)
{
    any_reg(addr, slot);
    *slot = (uint32_t)(SYSTICK_RVR_MAX - fake_flash_now % (SYSTICK_RVR_MAX + 1u));
}

static hal_storage_area area = {AREA, PAGE, 1u};
static fd_flash flash;

static int setup(void **state)
{
    (void)state;
    fake_regs_reset();
    fake_flash_start(AREA, PAGE);
    memset(&u, 0, sizeof u);
    memset(shadow, 0, sizeof shadow);
    halted = in_isr = false;
    errorsrc_hw = errorsrc_shown = 0u;
    dma_while_halted = overruns = erases = words_written = 0u;
    line_len = line_next = 0u;
    line_start = UINT64_MAX;
    line_framing_error_at = SIZE_MAX;
    const uintptr_t hooked[] = {A_STARTRX, A_STOPRX,   A_FLUSHRX, A_ENDRX,      A_ERROR,
                                A_RXTO,    A_ERRORSRC, A_RXD_PTR, A_RXD_MAXCNT, A_RXD_AMOUNT,
                                A_ISER0,   A_ICER0,    A_READY,   A_CONFIG,     A_ERASEPAGE};
    for (size_t i = 0; i < sizeof hooked / sizeof hooked[0]; i++) {
        fake_reg_hook(hooked[i], any_reg);
    }
    fake_reg_hook(FD_SCS_BASE + 0x018u, cvr);
    fake_reg_poke(A_CODEPAGESIZE, PAGE);
    fake_reg_poke(A_CODESIZE, 256u);
    nrf52_uarte_init();
    (void)*fake_reg(A_READY); /* the init's STARTRX and ISER take effect */
    assert_true(u.active && u.nvic_on);
    assert_int_equal(hal_storage_open(&area, &flash), FD_OK);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fake_flash_stop();
    return 0;
}

static void type_ahead(size_t n)
{
    assert_true(n <= sizeof line);
    for (size_t i = 0; i < n; i++) {
        line[i] = (uint8_t)('!' + i % 90u);
    }
    line_len = n;
    line_next = 0u;
    line_start = UINT64_MAX; /* from the next flash operation's start */
}

static void expect_typed(size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        uint8_t b = 0;
        assert_int_equal(hal_console_read(&b), FD_OK);
        assert_int_equal(b, line[i]);
    }
}

static void erase_while_typing(size_t n)
{
    type_ahead(n);
    assert_int_equal(flash.erase(flash.ctx, 0), FD_OK);
    (void)*fake_reg(A_READY); /* the last writes take effect */
    assert_int_equal(erases, 1u);
    assert_true(u.nvic_on && u.active);
    assert_int_equal(u.maxcnt, 1u); /* one-byte transfers again */
    printf("typed %zu bytes into an 85 ms page erase: %u written by EasyDMA while the CPU was halted, %u overruns\n", n,
           dma_while_halted, overruns);
}

/* A ring's worth typed during a page erase: all of it arrives. */
static void test_bytes_typed_during_a_page_erase_all_arrive(void **state)
{
    (void)state;
    erase_while_typing(FD_RX_RING_SIZE);
    assert_int_equal(line_next, line_len); /* all sent during the erase */
    assert_int_equal(overruns, 0u);
    expect_typed(0, FD_RX_RING_SIZE);
}

/* More than the buffer holds: the rest is lost, and reported. */
static void test_typing_past_the_ring_is_reported(void **state)
{
    (void)state;
    erase_while_typing(FD_RX_RING_SIZE + 40u);
    assert_true(overruns > 0u);
    expect_typed(0, FD_RX_RING_SIZE);
    fake_console_expect_overrun();
}

/* A damaged byte during the erase: its place in the buffer is unknown, so
 * everything received meanwhile counts as lost, each damaged line reported
 * once (rx_ring.h), and nothing of it runs as a command. */
static void test_a_damaged_byte_during_an_erase_loses_the_held_bytes(void **state)
{
    (void)state;
    static const char typed[] = "AB\r\nCD";
    memcpy(line, typed, sizeof typed - 1u);
    line_len = sizeof typed - 1u;
    line_next = 0u;
    line_start = UINT64_MAX;
    line_framing_error_at = 1u; /* 'B' */
    assert_int_equal(flash.erase(flash.ctx, 0), FD_OK);
    (void)*fake_reg(A_READY);
    assert_int_equal(line_next, line_len);
    fake_console_expect_overrun(); /* the line "AB" */
    fake_console_expect("\n");
    fake_console_expect_overrun(); /* "CD", not ended */
}

/* A run of word writes (each halting the CPU 41 us) while typing. */
static void test_bytes_typed_during_word_writes_all_arrive(void **state)
{
    (void)state;
    assert_int_equal(flash.erase(flash.ctx, 0), FD_OK);
    static uint32_t words[PAGE / 4u];
    for (size_t i = 0; i < PAGE / 4u; i++) {
        words[i] = (uint32_t)i; /* none left erased */
    }
    type_ahead(200u);
    dma_while_halted = 0u;
    assert_int_equal(flash.program(flash.ctx, 0, words, PAGE / 4u), FD_OK);
    (void)*fake_reg(A_READY);
    printf("typed 200 bytes into %u word writes: %u written by EasyDMA while the CPU was halted, %u overruns\n",
           words_written, dma_while_halted, overruns);
    assert_int_equal(words_written, PAGE / 4u);
    assert_int_equal(overruns, 0u);
    /* the rest of the line arrives after, in one-byte transfers */
    while (line_next < line_len) {
        fake_flash_tick(BYTE_CLOCKS);
        deliver();
    }
    expect_typed(0, 200u);
}

/* A byte typed after the flash work is over: read back as sent, so no
 * loss was recorded for the work before it. */
static void expect_one_byte_after(uint8_t b)
{
    line[0] = b;
    line_len = 1u;
    line_next = 0u;
    line_start = fake_flash_now;
    while (line_next < line_len) {
        fake_flash_tick(BYTE_CLOCKS);
        deliver();
    }
    const char text[2] = {(char)b, '\0'};
    fake_console_expect(text);
}

/* Word writes hold the console as erases do (docs/HARDWARE.md "Flash
 * stalls": the driver holds it around each erase and write): the bytes
 * typed meanwhile go by EasyDMA into the hold buffer, which the release
 * hands to the ring in order, and the release reports no loss, with bytes
 * typed and without. */
static void test_word_writes_hold_the_console_and_lose_nothing(void **state)
{
    (void)state;
    assert_int_equal(flash.erase(flash.ctx, 0), FD_OK);
    static const uint32_t words[4] = {1u, 2u, 3u, 4u};
    assert_int_equal(flash.program(flash.ctx, 0, words, 1u), FD_OK); /* nothing typed */
    (void)*fake_reg(A_READY);
    expect_one_byte_after('Z');
    type_ahead(3u);
    assert_int_equal(flash.program(flash.ctx, 4, words + 1, 3u), FD_OK);
    (void)*fake_reg(A_READY);
    assert_int_equal(words_written, 4u);
    assert_int_equal(u.maxcnt, 1u); /* one-byte transfers again */
    while (line_next < line_len) {
        fake_flash_tick(BYTE_CLOCKS);
        deliver();
    }
    assert_int_equal(overruns, 0u);
    expect_typed(0, 3u);
    expect_one_byte_after('Y');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_bytes_typed_during_a_page_erase_all_arrive, setup, teardown),
        cmocka_unit_test_setup_teardown(test_typing_past_the_ring_is_reported, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_damaged_byte_during_an_erase_loses_the_held_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bytes_typed_during_word_writes_all_arrive, setup, teardown),
        cmocka_unit_test_setup_teardown(test_word_writes_hold_the_console_and_lose_nothing, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
