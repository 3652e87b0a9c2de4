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

static int setup(void **state)
{
    (void)state;
    fake_regs_reset();
    crystal_works = true;
    startrx_count = 0;
    fake_systick_counts();
    fake_reg_hook(A_HFCLKSTARTED, hfclkstarted);
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
    (void)*fake_reg(A_STARTRX); /* count the STARTRX the init wrote */
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
    assert_int_equal(fake_reg_peek(A_NVIC_ISER0), 1u << 2);
    assert_int_equal(startrx_count, 1u);
    assert_int_equal(fake_reg_peek(A_HFCLKSTART), 1u); /* HFXO requested */
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
