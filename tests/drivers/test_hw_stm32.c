/* STM32F407 board drivers (board.c clocks, trng.c, usart.c, SysTick time
 * base) compiled unchanged on the host against fake registers that play
 * RM0090's behaviour: HSERDY/PLLRDY follow HSEON/PLLON, SWS follows SW, the
 * RNG's rc_w0 status flags, USART flags cleared by reading DR; and the
 * silicon rules QEMU does not check: the flash needs its wait states for
 * HCLK before SYSCLK rises (RM0090 3.5.1 Table 10), 168 MHz needs VOS
 * scale 1 (5.1.4), PWR is reached only with its clock on, APB1 <= 42 MHz,
 * APB2 <= 84 MHz (6.2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "hal/board.h"
#include "fake_console.h"
#include "hal/console.h"
#include "hal/trng.h"
#include "rx_ring.h"
#include "stm32f407.h"

#define ADDR(reg_base, off) ((uintptr_t)(reg_base) + (off))
#define A_NVIC_ISER1 ADDR(FD_SCS_BASE, 0x104u)
#define A_RCC_CR ADDR(RCC_BASE, 0x00u)
#define A_RCC_PLLCFGR ADDR(RCC_BASE, 0x04u)
#define A_RCC_CFGR ADDR(RCC_BASE, 0x08u)
#define A_RCC_AHB2ENR ADDR(RCC_BASE, 0x34u)
#define A_RCC_APB1ENR ADDR(RCC_BASE, 0x40u)
#define A_PWR_CR 0x40007000u
#define A_FLASH_ACR 0x40023C00u
#define A_GPIOA_PUPDR ADDR(GPIOA_BASE, 0x0Cu)
#define A_GPIOA_MODER ADDR(GPIOA_BASE, 0x00u)
#define A_USART_SR ADDR(USART2_BASE, 0x00u)
#define A_USART_DR ADDR(USART2_BASE, 0x04u)
#define A_USART_BRR ADDR(USART2_BASE, 0x08u)
#define A_USART_CR1 ADDR(USART2_BASE, 0x0Cu)
#define A_RNG_CR ADDR(RNG_BASE, 0x00u)
#define A_RNG_SR ADDR(RNG_BASE, 0x04u)
#define A_RNG_DR ADDR(RNG_BASE, 0x08u)

static void never(void) { fail_msg("an interrupt no driver enables"); }

/* startup.c's boot table, as the host build lays it out */
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

/* ---- clocks: a SysTick that counts, crystal and PLL that may fail ---- */
static bool hse_works;
static bool pll_works;

static void rcc_cr(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    uint32_t v = *slot & ~(RCC_CR_HSERDY | RCC_CR_PLLRDY);
    if (hse_works && (v & RCC_CR_HSEON) != 0u) {
        v |= RCC_CR_HSERDY;
    }
    if (pll_works && (v & RCC_CR_PLLON) != 0u) {
        v |= RCC_CR_PLLRDY;
    }
    *slot = v;
}

/* What broke a silicon rule, for the test to report (NULL: nothing). */
static const char *clock_fault;

/* The clock tree as the registers set it (Hz); SYSCLK from SWS. */
static uint32_t sysclk_hz(void)
{
    const uint32_t sws = (fake_reg_peek(A_RCC_CFGR) >> 2) & 3u;
    if (sws == 1u) {
        return 8000000u; /* HSE */
    }
    if (sws == 2u) {
        const uint32_t pll = fake_reg_peek(A_RCC_PLLCFGR);
        const uint32_t in = (pll & RCC_PLLCFGR_PLLSRC_HSE) != 0u ? 8000000u : 16000000u;
        const uint32_t m = pll & 0x3Fu;
        const uint32_t n = (pll >> 6) & 0x1FFu;
        const uint32_t p = 2u * (((pll >> 16) & 3u) + 1u);
        return m == 0u ? 0u : (uint32_t)((uint64_t)in / m * n / p);
    }
    return 16000000u; /* HSI */
}

static uint32_t apb_div(uint32_t field) { return field < 4u ? 1u : 2u << (field - 4u); }
static uint32_t hclk_hz(void)
{
    const uint32_t hpre = (fake_reg_peek(A_RCC_CFGR) >> 4) & 0xFu;
    return sysclk_hz() / (hpre < 8u ? 1u : 2u << (hpre - 8u));
}
static uint32_t pclk1_hz(void) { return hclk_hz() / apb_div((fake_reg_peek(A_RCC_CFGR) >> 10) & 7u); }
static uint32_t pclk2_hz(void) { return hclk_hz() / apb_div((fake_reg_peek(A_RCC_CFGR) >> 13) & 7u); }

static void rcc_cfgr(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    uint32_t v = *slot;
    if ((v & RCC_CFGR_SW_MASK) == 2u && (fake_reg_peek(A_RCC_CR) & RCC_CR_PLLRDY) == 0u) {
        v &= ~RCC_CFGR_SW_MASK; /* no switch to an unlocked PLL */
    }
    *slot = (v & ~RCC_CFGR_SWS_MASK) | ((v & RCC_CFGR_SW_MASK) << 2);
    /* RM0090 Table 10 at 2.7-3.6 V: one wait state per started 30 MHz */
    const uint32_t hclk = hclk_hz();
    const uint32_t needed = hclk == 0u ? 0u : (hclk - 1u) / 30000000u;
    if (clock_fault == NULL && (fake_reg_peek(A_FLASH_ACR) & 7u) < needed) {
        clock_fault = "HCLK raised before the flash wait states (RM0090 3.5.1)";
    }
    if (clock_fault == NULL && hclk > 144000000u && (fake_reg_peek(A_PWR_CR) & PWR_CR_VOS_SCALE1) == 0u) {
        clock_fault = "HCLK over 144 MHz without VOS scale 1 (RM0090 5.1.4)";
    }
    if (clock_fault == NULL && (pclk1_hz() > 42000000u || pclk2_hz() > 84000000u)) {
        clock_fault = "APB1 over 42 MHz or APB2 over 84 MHz (RM0090 6.2)";
    }
}

static void pwr_cr(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    if ((fake_reg_peek(A_RCC_APB1ENR) & RCC_APB1ENR_PWREN) == 0u) {
        *slot = 0u; /* unclocked: writes are lost, reads give 0 */
    }
}

/* ---- the RNG ---- */
#define MAX_WORDS 8u
static struct {
    uint32_t words[MAX_WORDS];
    bool seed_error_after[MAX_WORDS]; /* sticky SEIS set once this word is read */
    size_t count, next;
    bool secs, seis, ceis; /* current seed error, sticky seed/clock error */
    bool never_ready;
    uint32_t last_sr; /* what the model last put in SR */
    unsigned rngen_off_seen;
} rng;

static void rng_sr(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    if (*slot != rng.last_sr) { /* the driver wrote SR: rc_w0 */
        if ((*slot & RNG_SR_SEIS) == 0u) {
            rng.seis = false;
        }
        if ((*slot & RNG_SR_CEIS) == 0u) {
            rng.ceis = false;
        }
    }
    uint32_t v = 0u;
    if ((fake_reg_peek(A_RNG_CR) & RNG_CR_RNGEN) != 0u && !rng.never_ready && rng.next < rng.count) {
        v |= RNG_SR_DRDY;
    }
    v |= rng.secs ? RNG_SR_SECS : 0u;
    v |= rng.seis ? RNG_SR_SEIS : 0u;
    v |= rng.ceis ? RNG_SR_CEIS : 0u;
    *slot = v;
    rng.last_sr = v;
}

/* Let the model see the driver's last write to SR (hooks run before an
 * access, so a write is seen at the next one). */
static void rng_settle(void) { (void)*fake_reg(A_RNG_SR); }

static void rng_dr(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    assert_true(rng.next < rng.count); /* never read DR without DRDY */
    *slot = rng.words[rng.next];
    if (rng.seed_error_after[rng.next]) {
        rng.seis = true; /* SECS already clear again: only the sticky bit */
    }
    rng.next++;
}

static void rng_cr(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    if ((*slot & RNG_CR_RNGEN) == 0u) {
        rng.rngen_off_seen++;
    }
}

/* ---- the USART: reading DR clears RXNE and the error flags ---- */
static void usart_dr(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    (void)slot;
    fake_reg_poke(A_USART_SR, fake_reg_peek(A_USART_SR) &
                                  ~(USART_SR_RXNE | USART_SR_ORE | USART_SR_FE | USART_SR_NF | USART_SR_PE));
}

static void line_receives(uint8_t byte, uint32_t flags)
{
    fake_reg_poke(A_USART_DR, byte);
    fake_reg_poke(A_USART_SR, USART_SR_TXE | USART_SR_RXNE | flags);
    stm32_usart2_irq_handler();
    assert_int_equal(fake_reg_peek(A_USART_SR) & USART_SR_RXNE, 0u); /* handled */
}

static int setup(void **state)
{
    (void)state;
    fake_regs_reset();
    memset(&rng, 0, sizeof rng);
    hse_works = true;
    pll_works = true;
    fake_systick_counts();
    fake_reg_hook(A_RCC_CR, rcc_cr);
    fake_reg_hook(A_RCC_CFGR, rcc_cfgr);
    fake_reg_poke(A_RCC_PLLCFGR, 0x24003010u); /* reset value */
    clock_fault = NULL;
    fake_reg_hook(A_PWR_CR, pwr_cr);
    fake_reg_hook(A_RNG_SR, rng_sr);
    fake_reg_hook(A_RNG_DR, rng_dr);
    fake_reg_hook(A_RNG_CR, rng_cr);
    fake_reg_hook(A_USART_DR, usart_dr);
    assert_int_equal(fd_timebase_start(), FD_OK);
    return 0;
}

static void rng_words(const uint32_t *words, size_t count)
{
    memcpy(rng.words, words, count * sizeof words[0]);
    rng.count = count;
    rng.next = 0;
}

static void start_rng(void)
{
    assert_int_equal(stm32_clocks_start(), FD_OK);
    assert_int_equal(hal_trng_init(), FD_OK);
    rng.rngen_off_seen = 0;
}

static void test_rng_words_split_little_endian_after_discarding_first(void **state)
{
    (void)state;
    const uint32_t words[] = {0x5A5A5A5Au, 0x44332211u, 0x88776655u};
    rng_words(words, 3);
    start_rng();
    uint8_t out[6];
    assert_int_equal(hal_trng_read(out, sizeof out), FD_OK);
    const uint8_t want[] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66};
    assert_memory_equal(out, want, sizeof want);
}

/* RM0090 24.3.2: a word read after a seed error must not be used, and SECS
 * can be clear again while the sticky SEIS stays set. */
static void test_rng_word_after_sticky_seed_error_is_discarded(void **state)
{
    (void)state;
    const uint32_t words[] = {0x5A5A5A5Au, 0xDDCCBBAAu, 0x01020304u};
    rng_words(words, 3);
    rng.seed_error_after[1] = true;
    start_rng();
    uint8_t out[4] = {0};
    assert_int_equal(hal_trng_read(out, sizeof out), FD_ERR_TRNG_HW);
    const uint8_t untouched[4] = {0};
    assert_memory_equal(out, untouched, sizeof out);
    /* the recovery ran: SEIS cleared, RNGEN cleared then set again */
    rng_settle();
    assert_false(rng.seis);
    assert_true(rng.rngen_off_seen > 0u);
    assert_true((fake_reg_peek(A_RNG_CR) & RNG_CR_RNGEN) != 0u);
    /* and nothing more is read until the caller initialises again */
    assert_int_equal(hal_trng_read(out, sizeof out), FD_ERR_NOT_READY);
}

static void test_rng_zero_word_is_rejected(void **state)
{
    (void)state;
    const uint32_t words[] = {0x5A5A5A5Au, 0u, 0x01020304u};
    rng_words(words, 3);
    start_rng();
    uint8_t out[4] = {0xEE, 0xEE, 0xEE, 0xEE};
    assert_int_equal(hal_trng_read(out, sizeof out), FD_ERR_TRNG_HW);
    assert_int_equal(out[0], 0xEE);
    assert_int_equal(hal_trng_read(out, sizeof out), FD_ERR_NOT_READY);
}

static void test_rng_current_seed_error_and_clock_error_fail(void **state)
{
    (void)state;
    const uint32_t words[] = {0x5A5A5A5Au, 0x01020304u, 0x05060708u, 0x0A0B0C0Du};
    rng_words(words, 4);
    start_rng();
    uint8_t out[4];
    rng.secs = true;
    rng.seis = true;
    assert_int_equal(hal_trng_read(out, sizeof out), FD_ERR_TRNG_HW);
    rng.secs = false;
    assert_int_equal(hal_trng_init(), FD_OK); /* recovered: the next word is discarded */
    rng.ceis = true;
    assert_int_equal(hal_trng_read(out, sizeof out), FD_ERR_TRNG_HW);
    rng_settle();
    assert_false(rng.ceis); /* CEIS cleared by the recovery */
}

static void test_rng_that_never_gets_ready_times_out(void **state)
{
    (void)state;
    const uint32_t words[] = {0x5A5A5A5Au, 0x01020304u};
    rng_words(words, 2);
    start_rng();
    rng.never_ready = true;
    uint8_t out[1];
    assert_int_equal(hal_trng_read(out, sizeof out), FD_ERR_TRNG_TIMEOUT);
}

static void test_rng_init_fails_closed_without_the_pll(void **state)
{
    (void)state;
    const uint32_t words[] = {0x5A5A5A5Au, 0x01020304u};
    rng_words(words, 2);
    pll_works = false;
    assert_int_equal(stm32_clocks_start(), FD_ERR_NOT_READY);
    /* unlocked: no RNG clock, so init fails before touching the RNG */
    assert_int_equal(hal_trng_init(), FD_ERR_TRNG_HW);
    assert_int_equal(fake_reg_peek(A_RCC_AHB2ENR) & RCC_AHB2ENR_RNGEN, 0u);
    /* and the core stayed on the HSI with its prescalers at 1 */
    assert_int_equal(fake_reg_peek(A_RCC_CFGR) & (RCC_CFGR_SWS_MASK | RCC_CFGR_PRESCALERS_MASK), 0u);
}

/* The rated speed: SYSCLK 168 MHz from the PLL on HSE (the figure the
 * time base, the UART and docs/HARDWARE.md's timing budget assume), with
 * the flash, regulator and bus rules kept on the way there. */
static void test_board_runs_at_168_mhz_from_the_pll(void **state)
{
    (void)state;
    if (setjmp(fake_refused) != 0) {
        fail_msg("refused: %s", fake_refusal);
    }
    hal_board_init();
    if (clock_fault != NULL) {
        fail_msg("%s", clock_fault);
    }
    assert_int_equal(hclk_hz(), 168000000u);
    assert_int_equal(hclk_hz(), FD_CPU_HZ);
    assert_int_equal(pclk1_hz(), 42000000u);
    assert_int_equal(pclk2_hz(), 84000000u);
    /* HSE / M 4 = 2 MHz VCO input, * N 168 = 336 MHz, / P 2 = 168 MHz,
     * / Q 7 = the RNG's 48 MHz; reserved bit 29 of the reset value kept */
    assert_int_equal(fake_reg_peek(A_RCC_PLLCFGR), 0x20000000u | 4u | (168u << 6) | (1u << 22) | (7u << 24));
    const uint32_t acr = fake_reg_peek(A_FLASH_ACR);
    assert_int_equal(acr & 7u, 5u);
    assert_int_equal(acr & (FLASH_ACR_PRFTEN | FLASH_ACR_ICEN | FLASH_ACR_DCEN),
                     FLASH_ACR_PRFTEN | FLASH_ACR_ICEN | FLASH_ACR_DCEN);
    /* the UART rate recomputed for PCLK1: within 0.5% of 115200 */
    const uint32_t brr = fake_reg_peek(A_USART_BRR);
    const uint32_t baud = (uint32_t)((uint64_t)pclk1_hz() * 16u / (16u * brr));
    assert_true(baud > 114624u && baud < 115776u);
    const uint32_t cr1 = fake_reg_peek(A_USART_CR1);
    assert_int_equal(cr1, USART_CR1_UE | USART_CR1_TE | USART_CR1_RE | USART_CR1_RXNEIE);
    assert_int_equal(fake_reg_peek(A_NVIC_ISER1), 1u << (USART2_IRQN - 32u));
    assert_int_equal((fake_reg_peek(A_GPIOA_PUPDR) >> 6) & 3u, 1u); /* PA3 pull-up */
    assert_int_equal((fake_reg_peek(A_GPIOA_MODER) >> 4) & 0xFu, 0xAu);
    /* the vector table copied to SRAM and VTOR on it (docs/HARDWARE.md
     * "Flash stalls"); SysTick below USART2, so BASEPRI can hold it off */
    assert_int_equal(fake_reg_peek(FD_SCS_BASE + 0xD08u), (uint32_t)(uintptr_t)stm32_ram_vectors);
    assert_memory_equal(stm32_ram_vectors, stm32_flash_vectors, sizeof stm32_ram_vectors);
    assert_int_equal(fake_reg_peek(FD_SCS_BASE + 0xD20u) >> 24, STM32_PRIO_FLASH_CODE);
}

static void test_board_refuses_without_the_pll(void **state)
{
    (void)state;
    pll_works = false;
    fake_expect_refusal(hal_board_init, "PLL");
    assert_int_equal(fake_reg_peek(A_USART_BRR), USART_BRR_115200_HSI);
    assert_int_equal(hclk_hz(), 16000000u);
}

static void test_board_refuses_without_systick(void **state)
{
    (void)state;
    fake_systick_absent();
    fake_expect_refusal(hal_board_init, "SysTick");
    /* the refusal is printed at the rate of the clock actually running */
    assert_int_equal(fake_reg_peek(A_USART_BRR), USART_BRR_115200_HSI);
}

static void test_board_refuses_a_stuck_systick(void **state)
{
    (void)state;
    fake_systick_frozen();
    assert_int_equal(fd_timebase_start(), FD_ERR_NOT_READY);
}

static void test_board_refuses_without_crystal(void **state)
{
    (void)state;
    hse_works = false;
    fake_expect_refusal(hal_board_init, "HSE");
    assert_int_equal(hclk_hz(), 16000000u);
    assert_int_equal(fake_reg_peek(A_USART_BRR), USART_BRR_115200_HSI);
}

/* ---- console receive ---- */

static void test_usart_overrun_reported_after_the_good_byte(void **state)
{
    (void)state;
    line_receives('A', 0u);
    line_receives('B', USART_SR_ORE); /* B is good; the byte after it was lost */
    fake_console_expect("AB");
    fake_console_expect_overrun();
    line_receives('C', 0u);
    fake_console_expect("C");
}

static void test_usart_damaged_bytes_never_pass_as_data(void **state)
{
    (void)state;
    const uint32_t errors[] = {USART_SR_FE, USART_SR_NF, USART_SR_PE};
    for (size_t i = 0; i < 3u; i++) {
        line_receives('x', 0u);
        line_receives('?', errors[i]);
        fake_console_expect("x");
        fake_console_expect_overrun();
        line_receives('y', 0u);
        fake_console_expect("y");
    }
}

static void test_usart_full_ring_reports_loss_in_order(void **state)
{
    (void)state;
    for (unsigned i = 0; i < FD_RX_RING_SIZE + 3u; i++) {
        line_receives((uint8_t)('a' + i % 26u), 0u);
    }
    for (unsigned i = 0; i < FD_RX_RING_SIZE; i++) {
        uint8_t b = 0;
        assert_int_equal(hal_console_read(&b), FD_OK);
        assert_int_equal(b, (uint8_t)('a' + i % 26u));
    }
    fake_console_expect_overrun(); /* reported once, with nothing after it yet */
    line_receives('z', 0u);
    fake_console_expect("z");
}

static void deliver_q(void) { line_receives('q', 0u); }

static void test_usart_read_sleeps_until_the_interrupt(void **state)
{
    (void)state;
    fake_irq = deliver_q;
    fake_console_expect("q");
    uint8_t *none = NULL;
    assert_int_equal(hal_console_read(none), FD_ERR_NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_rng_words_split_little_endian_after_discarding_first, setup),
        cmocka_unit_test_setup(test_rng_word_after_sticky_seed_error_is_discarded, setup),
        cmocka_unit_test_setup(test_rng_zero_word_is_rejected, setup),
        cmocka_unit_test_setup(test_rng_current_seed_error_and_clock_error_fail, setup),
        cmocka_unit_test_setup(test_rng_that_never_gets_ready_times_out, setup),
        cmocka_unit_test_setup(test_rng_init_fails_closed_without_the_pll, setup),
        cmocka_unit_test_setup(test_board_runs_at_168_mhz_from_the_pll, setup),
        cmocka_unit_test_setup(test_board_refuses_without_the_pll, setup),
        cmocka_unit_test_setup(test_board_refuses_without_systick, setup),
        cmocka_unit_test_setup(test_board_refuses_a_stuck_systick, setup),
        cmocka_unit_test_setup(test_board_refuses_without_crystal, setup),
        cmocka_unit_test_setup(test_usart_overrun_reported_after_the_good_byte, setup),
        cmocka_unit_test_setup(test_usart_damaged_bytes_never_pass_as_data, setup),
        cmocka_unit_test_setup(test_usart_full_ring_reports_loss_in_order, setup),
        cmocka_unit_test_setup(test_usart_read_sleeps_until_the_interrupt, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
