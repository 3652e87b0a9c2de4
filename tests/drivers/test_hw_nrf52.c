/* nRF52840-DK board drivers (board.c, uarte.c, the shared HFXO start and
 * the SysTick time base) compiled unchanged on the host against fake
 * registers. EasyDMA is played by the test writing the received byte to
 * the address the driver put in RXD.PTR (the executable is linked
 * non-PIE so that 32-bit address is a real one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "hal/board.h"
#include "fake_console.h"
#include "hal/console.h"
#include "hal/watchdog.h"
#include "nrf52840.h"

#define A(base, off) ((uintptr_t)(base) + (off))
#define A_NVIC_ISER0 A(FD_SCS_BASE, 0x100u)
#define A_HFCLKSTART A(NRF_CLOCK_BASE, 0x000u)
#define A_HFCLKSTARTED A(NRF_CLOCK_BASE, 0x100u)
#define A_PIN_CNF(pin) A(NRF_GPIO_BASE, 0x700u + 4u * (pin))
#define A_OUTSET A(NRF_GPIO_BASE, 0x508u)
#define A_STARTRX A(UARTE0_BASE, 0x000u)
#define A_ENDRX A(UARTE0_BASE, 0x110u)
#define A_ERROR A(UARTE0_BASE, 0x124u)
#define A_INTENSET A(UARTE0_BASE, 0x304u)
#define A_ERRORSRC A(UARTE0_BASE, 0x480u)
#define A_ENABLE A(UARTE0_BASE, 0x500u)
#define A_BAUDRATE A(UARTE0_BASE, 0x524u)
#define A_RXD_PTR A(UARTE0_BASE, 0x534u)
#define A_RXD_MAXCNT A(UARTE0_BASE, 0x538u)
#define A_RXD_AMOUNT A(UARTE0_BASE, 0x53Cu)
#define A_CONFIG A(UARTE0_BASE, 0x56Cu)
#define A_STARTTX A(UARTE0_BASE, 0x008u)
#define A_STOPTX A(UARTE0_BASE, 0x00Cu)
#define A_ENDTX A(UARTE0_BASE, 0x120u)
#define A_TXD_MAXCNT A(UARTE0_BASE, 0x548u)

#define A_NRF_LFCLKSTARTED A(NRF_CLOCK_BASE, 0x104u)

#define ERR_OVERRUN 1u
#define ERR_PARITY 2u
#define ERR_FRAMING 4u
#define ERR_BREAK 8u

static bool crystal_works;
static unsigned startrx_count;
static uint32_t rx_pin_cnf_at_enable;
static uint32_t tx_level_at_enable;

static void hfclkstarted(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    if (crystal_works && fake_reg_peek(A_HFCLKSTART) != 0u) {
        *slot = 1u;
    }
}

static void startrx(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    if (*slot != 0u) { /* the driver wrote 1 since the last access */
        startrx_count++;
        *slot = 0u;
    }
}

static unsigned errorsrc_accesses;

static void errorsrc(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    (void)slot;
    errorsrc_accesses++;
}

static void enable(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    if (*slot == 0u) { /* before the enable write lands */
        rx_pin_cnf_at_enable = fake_reg_peek(A_PIN_CNF(DK_PIN_RX));
        tx_level_at_enable = fake_reg_peek(A_OUTSET);
    }
}

static void lfclkstarted(uintptr_t addr, volatile uint32_t *slot);

/* UICR is flash: a write needs NVMC CONFIG = WEN, and only clears bits. */
#define A_PSELRESET0 0x10001200u
#define A_PSELRESET1 0x10001204u
#define A_NVMC_READY A(0x4001E000u, 0x400u)
#define A_NVMC_CONFIG A(0x4001E000u, 0x504u)
static unsigned uicr_writes;
static uint32_t uicr_seen[2] = {UICR_ERASED, UICR_ERASED};

/* A write to either register lands when it differs from what was seen; the
 * driver polls READY after each, while WEN is still set. */
static void uicr_settle(void)
{
    const uintptr_t addr[2] = {A_PSELRESET0, A_PSELRESET1};
    for (size_t i = 0; i < 2u; i++) {
        uint32_t v = fake_reg_peek(addr[i]);
        if (v != uicr_seen[i]) {
            assert_int_equal(fake_reg_peek(A_NVMC_CONFIG), 1u); /* WEN */
            v &= uicr_seen[i];
            fake_reg_poke(addr[i], v);
            uicr_writes++;
        }
        uicr_seen[i] = v;
    }
}

static void uicr_write(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    (void)slot;
    uicr_settle();
}

static void nvmc_ready(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    uicr_settle();
    *slot = 1u;
}

/* NVIC ISER is write-1-to-set: every bit written stays set. */
static uint32_t iser0_set;

static void iser0(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    iser0_set |= *slot;
    *slot = iser0_set;
}

static int setup(void **state)
{
    (void)state;
    fake_regs_reset();
    crystal_works = true;
    startrx_count = 0;
    iser0_set = 0u;
    uicr_writes = 0u;
    uicr_seen[0] = uicr_seen[1] = 18u;
    fake_reg_poke(A_PSELRESET0, 18u); /* a DK whose reset pin is set up */
    fake_reg_poke(A_PSELRESET1, 18u);
    fake_reg_hook(A_NVMC_READY, nvmc_ready);
    fake_reg_hook(A_PSELRESET0, uicr_write);
    fake_reg_hook(A_PSELRESET1, uicr_write);
    fake_reg_hook(A_NVIC_ISER0, iser0);
    fake_systick_counts();
    fake_reg_hook(A_HFCLKSTARTED, hfclkstarted);
    fake_reg_hook(A_NRF_LFCLKSTARTED, lfclkstarted);
    fake_reg_hook(A_STARTRX, startrx);
    fake_reg_hook(A_ENABLE, enable);
    fake_reg_hook(A_ERRORSRC, errorsrc);
    return 0;
}

static void boot(void)
{
    if (setjmp(fake_refused) != 0) {
        fail_msg("refused: %s", fake_refusal);
    }
    hal_board_init();
    (void)*fake_reg(A_STARTRX);    /* count the STARTRX the init wrote */
    (void)*fake_reg(A_NVIC_ISER0); /* and the last ISER write */
}

/* One byte arrives; errorsrc != 0 means the UARTE flagged it. */
static void line_receives(uint8_t byte, uint32_t errorsrc)
{
    const uint32_t ptr = fake_reg_peek(A_RXD_PTR);
    assert_int_equal(fake_reg_peek(A_RXD_MAXCNT), 1u);
    *(volatile uint8_t *)(uintptr_t)ptr = byte;
    fake_reg_poke(A_RXD_AMOUNT, 1u);
    fake_reg_poke(A_ENDRX, 1u);
    fake_reg_poke(A_ERRORSRC, errorsrc); /* cleared by the last write-back */
    if (errorsrc != 0u) {
        fake_reg_poke(A_ERROR, 1u);
    }
    errorsrc_accesses = 0;
    const unsigned before = startrx_count;
    nrf52_uarte_irq_handler();
    (void)*fake_reg(A_STARTRX);
    assert_int_equal(startrx_count, before + 1u); /* next transfer armed */
    assert_int_equal(fake_reg_peek(A_ENDRX), 0u);
    assert_int_equal(fake_reg_peek(A_ERROR), 0u);
    /* ERRORSRC is write-1-to-clear: on an error the driver read it and
     * wrote back exactly the bits it saw */
    assert_int_equal(errorsrc_accesses, errorsrc != 0u ? 2u : 0u);
    assert_int_equal(fake_reg_peek(A_ERRORSRC), errorsrc);
}

static void test_uarte_setup_matches_the_product_specification(void **state)
{
    (void)state;
    boot();
    assert_int_equal(fake_reg_peek(A_BAUDRATE), 0x01D60000u); /* not the UART's 0x01D7E000 */
    assert_int_equal(fake_reg_peek(A_CONFIG), 0u);            /* 8N1, no flow control */
    assert_int_equal(fake_reg_peek(A_ENABLE), 8u);
    /* GPIO set before the peripheral was enabled: RX input with pull-up,
     * TX driven high */
    assert_int_equal(rx_pin_cnf_at_enable, 3u << 2);
    assert_int_equal(tx_level_at_enable, 1u << DK_PIN_TX);
    assert_int_equal(fake_reg_peek(A_INTENSET), (1u << 4) | (1u << 9));
    assert_int_equal(fake_reg_peek(A_NVIC_ISER0), (1u << 2) | (1u << 17)); /* UARTE0, RTC1 */
    assert_int_equal(startrx_count, 1u);
    assert_int_equal(fake_reg_peek(A_HFCLKSTART), 1u);           /* HFXO requested */
    assert_int_equal(fake_reg_peek(A(0x4001E000u, 0x540u)), 1u); /* ICACHECNF: instruction cache on */
}

static void test_uarte_bytes_arrive_in_order(void **state)
{
    (void)state;
    boot();
    line_receives('h', 0u);
    line_receives('i', 0u);
    fake_console_expect("hi");
}

static void test_uarte_errors_are_losses_never_data(void **state)
{
    (void)state;
    boot();
    const uint32_t errors[] = {ERR_OVERRUN, ERR_PARITY, ERR_FRAMING, ERR_BREAK, ERR_FRAMING | ERR_BREAK};
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        line_receives('a', 0u);
        line_receives('?', errors[i]);
        fake_console_expect("a");
        fake_console_expect_overrun();
        line_receives('b', 0u);
        fake_console_expect("b");
    }
}

static void deliver_k(void) { line_receives('k', 0u); }

static void test_uarte_read_sleeps_until_the_interrupt(void **state)
{
    (void)state;
    boot();
    fake_irq = deliver_k;
    fake_console_expect("k");
}

/* ENDTX follows STARTTX: the DMA finishes as soon as it is started. */
static void endtx_follows_starttx(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    *slot = fake_reg_peek(A_STARTTX);
}

static void test_uarte_stuck_transmit_is_bounded_and_counted(void **state)
{
    (void)state;
    boot();
    const uint32_t before = hal_console_tx_dropped();
    hal_console_write("stuck", 5u); /* ENDTX never comes */
    assert_int_equal(hal_console_tx_dropped() - before, 5u);
    assert_int_equal(fake_reg_peek(A_STOPTX), 1u); /* the buffer is released before reuse */
    fake_reg_poke(A_STOPTX, 0u);
    fake_reg_hook(A_ENDTX, endtx_follows_starttx);
    hal_console_write("ok", 2u);
    assert_int_equal(fake_reg_peek(A_TXD_MAXCNT), 2u);
    assert_int_equal(fake_reg_peek(A_STOPTX), 0u);
    assert_int_equal(hal_console_tx_dropped() - before, 5u);
}

/* ---- idle: what the CPU's sleep does on the nRF52 (silicon, not QEMU) ----
 * Rules the model plays, from the nRF52840 PS v1.7:
 * - SysTick does not count while the CPU sleeps in WFI/WFE (CPU chapter:
 *   the SysTick clock is stopped in sleep; RTIC, Mbed OS and NuttX users hit
 *   the same), so its wrap interrupt never wakes an idle CPU.
 * - The WDT counts its 32.768 kHz ticks in sleep when CONFIG.SLEEP is set
 *   (WDT chapter), and resets the chip CRV + 1 ticks after the last reload.
 * - RTC1 counts LFCLK (only once LFCLK was started: the RTC does not request
 *   it) and its TICK event, enabled in INTENSET and the NVIC, wakes the CPU
 *   every (PRESCALER + 1) / 32768 s (RTC chapter).
 * Time is kept in LFCLK ticks; the model fails the test with the reset the
 * chip would make. */
#define A_LFCLKSTART A(NRF_CLOCK_BASE, 0x008u)
#define A_LFCLKSTARTED A(NRF_CLOCK_BASE, 0x104u)
#define A_WDT_START A(NRF_WDT_BASE, 0x000u)
#define A_WDT_RUNSTATUS A(NRF_WDT_BASE, 0x400u)
#define A_WDT_CRV A(NRF_WDT_BASE, 0x504u)
#define A_WDT_CONFIG A(NRF_WDT_BASE, 0x50Cu)
#define A_WDT_RR0 A(NRF_WDT_BASE, 0x600u)
#define A_RTC1(off) A(0x40011000u, (off))
#define A_NVIC_ISER0_RTC1 A_NVIC_ISER0
#define RTC1_IRQN_BIT (1u << 17)

static uint64_t now_ticks;       /* LFCLK ticks since the watchdog started */
static uint64_t last_kick_ticks; /* the WDT's last reload */
static uint64_t byte_at_ticks;   /* when the test's byte arrives */

static void lfclkstarted(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    if (fake_reg_peek(A_LFCLKSTART) != 0u) {
        *slot = 1u;
    }
}

static void wdt_runstatus(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    *slot = fake_reg_peek(A_WDT_START) & 1u;
}

static void wdt_rr0(uintptr_t addr, volatile uint32_t *slot)
{
    (void)addr;
    if (*slot == WDT_RR_RELOAD && fake_reg_peek(A_WDT_RUNSTATUS) != 0u) {
        last_kick_ticks = now_ticks;
        *slot = 0u;
    }
}

/* LFCLK ticks from now to the next wake-up of an idle CPU; 0: none. */
static uint64_t next_wake(void)
{
    const bool rtc_runs = fake_reg_peek(A_LFCLKSTARTED) != 0u && fake_reg_peek(A_RTC1(0x000u)) != 0u;
    const bool tick_irq =
        (fake_reg_peek(A_RTC1(0x304u)) & 1u) != 0u && (fake_reg_peek(A_NVIC_ISER0_RTC1) & RTC1_IRQN_BIT) != 0u;
    if (rtc_runs && tick_irq) {
        return (uint64_t)(fake_reg_peek(A_RTC1(0x508u)) & 0xFFFu) + 1u;
    }
    return 0u; /* SysTick: stopped in sleep; UARTE: no byte comes */
}

static void idle_sleep(void)
{
    const uint64_t wake = next_wake();
    uint64_t until = wake != 0u ? now_ticks + wake : UINT64_MAX;
    const bool byte_first = byte_at_ticks <= until;
    if (byte_first) {
        until = byte_at_ticks;
    }
    const bool wdt_in_sleep =
        fake_reg_peek(A_WDT_RUNSTATUS) != 0u && (fake_reg_peek(A_WDT_CONFIG) & WDT_CONFIG_SLEEP_RUN) != 0u;
    const uint64_t deadline = last_kick_ticks + (uint64_t)fake_reg_peek(A_WDT_CRV) + 1u;
    if (wdt_in_sleep && until >= deadline) {
        fail_msg("WDT reset after %.1f s idle: %s", (double)(deadline) / WDT_LFCLK_HZ,
                 wake == 0u ? "nothing wakes the sleeping CPU (SysTick stops in sleep)" : "wake-ups too rare");
    }
    now_ticks = until;
    if (byte_first) {
        line_receives('x', 0u);
        return;
    }
    fake_reg_poke(A_RTC1(0x100u), 1u); /* EVENTS_TICK */
    nrf52_rtc1_irq_handler();
    assert_int_equal(fake_reg_peek(A_RTC1(0x100u)), 0u); /* cleared, or it wakes again at once */
    fake_irq = idle_sleep;
}

/* The dealer's idle: watchdog started as main() does, then a command waited
 * for 60 s with no byte on the line. On the chip this reset every 4 s. */
static void test_idle_for_60_s_survives_the_watchdog(void **state)
{
    (void)state;
    fake_reg_hook(A_WDT_RUNSTATUS, wdt_runstatus);
    fake_reg_hook(A_WDT_RR0, wdt_rr0);
    now_ticks = 0u;
    last_kick_ticks = 0u;
    byte_at_ticks = 60u * WDT_LFCLK_HZ;
    boot();
    assert_int_equal(hal_watchdog_start(4000u), FD_OK);
    fake_irq = idle_sleep;
    fake_console_expect("x");
    assert_true(now_ticks == byte_at_ticks);
}

static void test_board_refuses_without_lfclk(void **state)
{
    (void)state;
    /* LFCLKSTARTED never comes: nothing could wake the idle CPU */
    fake_reg_hook(A_LFCLKSTARTED, NULL);
    fake_expect_refusal(hal_board_init, "LFCLK");
}

/* The DK's RESET button (P0.18) needs UICR.PSELRESET[0..1] programmed; on
 * an erased UICR the board programs both and resets to apply them. */
static void test_pin_reset_programmed_once_then_reset(void **state)
{
    (void)state;
    uicr_seen[0] = uicr_seen[1] = UICR_ERASED;
    fake_reg_poke(A_PSELRESET0, UICR_ERASED);
    fake_reg_poke(A_PSELRESET1, UICR_ERASED);
    fake_expect_refusal(hal_board_init, "system reset");
    (void)*fake_reg(A_PSELRESET0);
    (void)*fake_reg(A_PSELRESET1);
    assert_int_equal(fake_reg_peek(A_PSELRESET0), 18u);
    assert_int_equal(fake_reg_peek(A_PSELRESET1), 18u);
    assert_int_equal(uicr_writes, 2u);
    assert_int_equal(fake_reg_peek(A_NVMC_CONFIG), 0u); /* back to read-only */
    /* after the reset: already set, nothing written, no reset */
    boot();
    assert_int_equal(uicr_writes, 2u);
    /* another firmware's choice (P0.21) is left alone */
    uicr_seen[0] = uicr_seen[1] = 21u;
    fake_reg_poke(A_PSELRESET0, 21u);
    fake_reg_poke(A_PSELRESET1, 21u);
    boot();
    assert_int_equal(uicr_writes, 2u);
}

static void test_board_refuses_without_systick(void **state)
{
    (void)state;
    fake_systick_absent();
    fake_expect_refusal(hal_board_init, "SysTick");
}

static void test_board_refuses_without_crystal(void **state)
{
    (void)state;
    crystal_works = false;
    fake_expect_refusal(hal_board_init, "HFXO");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_uarte_setup_matches_the_product_specification, setup),
        cmocka_unit_test_setup(test_uarte_bytes_arrive_in_order, setup),
        cmocka_unit_test_setup(test_uarte_errors_are_losses_never_data, setup),
        cmocka_unit_test_setup(test_uarte_read_sleeps_until_the_interrupt, setup),
        cmocka_unit_test_setup(test_uarte_stuck_transmit_is_bounded_and_counted, setup),
        cmocka_unit_test_setup(test_board_refuses_without_systick, setup),
        cmocka_unit_test_setup(test_board_refuses_without_crystal, setup),
        cmocka_unit_test_setup(test_idle_for_60_s_survives_the_watchdog, setup),
        cmocka_unit_test_setup(test_board_refuses_without_lfclk, setup),
        cmocka_unit_test_setup(test_pin_reset_programmed_once_then_reset, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
