/* mps2-an386 watchdog (watchdog.c over the shared CMSDK APB driver) and
 * console (uart.c: the bounded transmit wait of tx_bound.c, the receive
 * wait that kicks) compiled unchanged against fake registers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <cmocka.h>

#include "apb_watchdog.h"
#include "hal/console.h"
#include "hal/reset.h"
#include "hal/watchdog.h"
#include "mps2.h"
#include "tx_bound.h"

#define A_WDOG(off) ((uintptr_t)WDOG_BASE + (off))
#define A_UART_DATA ((uintptr_t)UART0_BASE + 0x00u)
#define A_UART_STATE ((uintptr_t)UART0_BASE + 0x04u)

static unsigned accesses[4];
static void count_intclr(uintptr_t a, volatile uint32_t *s) { (void)a, (void)s, accesses[0]++; }
static void count_data(uintptr_t a, volatile uint32_t *s) { (void)a, (void)s, accesses[1]++; }

static int setup(void **state)
{
    for (size_t i = 0; i < sizeof accesses / sizeof accesses[0]; i++) {
        accesses[i] = 0;
    }
    return fake_regs_setup(state);
}

/* The driver keeps "running" across tests (one watchdog per boot): the
 * tests that need it stopped run first, in order. */
static void refuses_bad_timeouts_touching_nothing(void **state)
{
    (void)state;
    fake_reg_hook(A_WDOG(APB_WDOG_INTCLR), count_intclr);
    assert_int_equal(hal_watchdog_start(0u), FD_ERR_EMPTY);
    /* 2^32 clocks at 25 MHz per stage is 171.8 s: 344 s does not fit */
    assert_int_equal(hal_watchdog_start(344000u), FD_ERR_TOO_LARGE);
    assert_int_equal(fake_reg_peek(A_WDOG(APB_WDOG_CONTROL)), 0u);
    assert_int_equal(fake_reg_peek(A_WDOG(APB_WDOG_LOAD)), 0u);
    hal_watchdog_kick(); /* before a start: the block is not touched */
    assert_int_equal(accesses[0], 0u);
}

static void absent_block_reads_zero(uintptr_t a, volatile uint32_t *s)
{
    (void)a;
    *s = 0u;
}

static void a_block_that_reads_zero_is_not_ready(void **state)
{
    (void)state;
    fake_reg_hook(A_WDOG(APB_WDOG_CONTROL), absent_block_reads_zero);
    assert_int_equal(hal_watchdog_start(2000u), FD_ERR_NOT_READY);
    fake_reg_hook(A_WDOG(APB_WDOG_INTCLR), count_intclr);
    hal_watchdog_kick(); /* it did not start: kicks still touch nothing */
    assert_int_equal(accesses[0], 0u);
}

static void starts_two_stages_of_half_the_timeout_locked(void **state)
{
    (void)state;
    assert_int_equal(hal_watchdog_start(2000u), FD_OK);
    /* 1 s per stage at 25 MHz: LOAD + 1 = 25,000,000 clocks */
    assert_int_equal(fake_reg_peek(A_WDOG(APB_WDOG_LOAD)), 24999999u);
    assert_int_equal(fake_reg_peek(A_WDOG(APB_WDOG_CONTROL)), APB_WDOG_CONTROL_INTEN | APB_WDOG_CONTROL_RESEN);
    assert_int_not_equal(fake_reg_peek(A_WDOG(APB_WDOG_LOCK)), APB_WDOG_UNLOCK_KEY); /* left locked */
    assert_int_equal(hal_watchdog_start(2000u), FD_ERR_STATE);
    fake_reg_hook(A_WDOG(APB_WDOG_INTCLR), count_intclr);
    hal_watchdog_kick();
    assert_int_equal(accesses[0], 1u);
    assert_int_not_equal(fake_reg_peek(A_WDOG(APB_WDOG_LOCK)), APB_WDOG_UNLOCK_KEY);
}

static void nmi_notes_a_watchdog_reset_once(void **state)
{
    (void)state;
    assert_int_equal(hal_reset_cause_read(), HAL_RESET_UNKNOWN); /* no register: unknown */
    fake_reg_poke(A_WDOG(APB_WDOG_MIS), 1u);
    mps2_nmi_handler();
    assert_int_equal(hal_reset_cause_read(), HAL_RESET_WATCHDOG);
    assert_int_equal(hal_reset_cause_read(), HAL_RESET_UNKNOWN); /* reading took the note */
}

static void a_kick_after_the_first_stage_cancels_the_note(void **state)
{
    (void)state;
    fake_reg_poke(A_WDOG(APB_WDOG_MIS), 1u);
    mps2_nmi_handler();
    hal_watchdog_kick(); /* the dealer lived after all: no reset is coming */
    assert_int_equal(hal_reset_cause_read(), HAL_RESET_UNKNOWN);
}

static void call_nmi(void) { mps2_nmi_handler(); }

static void an_nmi_without_a_time_out_refuses(void **state)
{
    (void)state;
    fake_expect_refusal(call_nmi, "NMI without a watchdog time-out");
    assert_int_equal(hal_reset_cause_read(), HAL_RESET_UNKNOWN);
}

/* ---- transmit: a stuck TX_FULL costs one bound, then bytes drop fast ---- */
static void tx_stuck(uintptr_t a, volatile uint32_t *s)
{
    (void)a;
    accesses[2]++;
    *s = UART_STATE_TX_FULL;
}

/* STATE reads `counting` for the next polls_left reads, then `done`. */
static unsigned polls_left;
static uint32_t counting, done;
static void state_after_countdown(uintptr_t a, volatile uint32_t *s)
{
    (void)a;
    *s = polls_left > 0u ? counting : done;
    if (polls_left > 0u) {
        polls_left--;
    }
}

static void tx_busy_for(unsigned polls)
{
    polls_left = polls;
    counting = UART_STATE_TX_FULL;
    done = 0u;
    fake_reg_hook(A_UART_STATE, state_after_countdown);
}

static void a_stuck_transmitter_drops_and_counts(void **state)
{
    (void)state;
    const uint32_t before = hal_console_tx_dropped();
    fake_reg_hook(A_UART_STATE, tx_stuck);
    fake_reg_hook(A_UART_DATA, count_data);
    hal_console_write("abc", 3u);
    assert_int_equal(accesses[1], 0u);                    /* nothing written to DATA */
    assert_int_equal(accesses[2], FD_UART_TX_POLLS + 2u); /* one full bound, then one poll per byte */
    assert_int_equal(hal_console_tx_dropped() - before, 3u);

    /* still busy: one poll, dropped */
    tx_busy_for(1000u);
    hal_console_write("d", 1u);
    assert_int_equal(hal_console_tx_dropped() - before, 4u);
    /* it recovers: the byte goes, and a later busy spell gets the full bound again */
    tx_busy_for(0u);
    hal_console_write("e", 1u);
    assert_int_equal(fake_reg_peek(A_UART_DATA), 'e');
    tx_busy_for(1000u);
    hal_console_write("f", 1u);
    assert_int_equal(fake_reg_peek(A_UART_DATA), 'f');
    assert_int_equal(accesses[1], 2u);
    assert_int_equal(hal_console_tx_dropped() - before, 4u);
}

static void a_slow_transmitter_loses_nothing(void **state)
{
    (void)state;
    const uint32_t before = hal_console_tx_dropped();
    tx_busy_for(0u);
    hal_console_write("x", 1u); /* clears a stuck state left by an earlier test */
    tx_busy_for(FD_UART_TX_POLLS - 1u);
    hal_console_write("y", 1u);
    assert_int_equal(fake_reg_peek(A_UART_DATA), 'y');
    assert_int_equal(hal_console_tx_dropped(), before);
}

/* ---- receive: waiting for a command kicks the watchdog ---- */
static void the_receive_wait_kicks(void **state)
{
    (void)state;
    polls_left = 50u;
    counting = 0u;
    done = UART_STATE_RX_FULL;
    fake_reg_hook(A_UART_STATE, state_after_countdown);
    fake_reg_poke(A_UART_DATA, 'Q');
    fake_reg_hook(A_WDOG(APB_WDOG_INTCLR), count_intclr);
    uint8_t byte = 0;
    assert_int_equal(hal_console_read(&byte), FD_OK);
    assert_int_equal(byte, 'Q');
    assert_true(accesses[0] >= 50u); /* started by an earlier test: every empty poll kicked */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(refuses_bad_timeouts_touching_nothing, setup),
        cmocka_unit_test_setup(a_block_that_reads_zero_is_not_ready, setup),
        cmocka_unit_test_setup(starts_two_stages_of_half_the_timeout_locked, setup),
        cmocka_unit_test_setup(nmi_notes_a_watchdog_reset_once, setup),
        cmocka_unit_test_setup(a_kick_after_the_first_stage_cancels_the_note, setup),
        cmocka_unit_test_setup(an_nmi_without_a_time_out_refuses, setup),
        cmocka_unit_test_setup(a_stuck_transmitter_drops_and_counts, setup),
        cmocka_unit_test_setup(a_slow_transmitter_loses_nothing, setup),
        cmocka_unit_test_setup(the_receive_wait_kicks, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
