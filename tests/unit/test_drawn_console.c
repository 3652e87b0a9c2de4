/* Direct tests written against survivors of the mutants drawn by rule in
 * the console (firmware/protocol.c; docs/RELIABILITY.md, "Mutants drawn by
 * rule"): each names the mutant it kills. Linked with
 * --wrap=fd_chacha20_block so the dealer's known-answer self-test can be
 * made to fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dealer.h"
#include "fairdeal/chacha20.h"
#include "fairdeal/status.h"
#include "protocol.h"
#include "test_dealer_config.h"

void __real_fd_chacha20_block(const uint8_t key[FD_CHACHA20_KEY_SIZE], uint32_t counter,
                              const uint8_t nonce[FD_CHACHA20_NONCE_SIZE], uint8_t out[FD_CHACHA20_BLOCK_SIZE]);
void __wrap_fd_chacha20_block(const uint8_t key[FD_CHACHA20_KEY_SIZE], uint32_t counter,
                              const uint8_t nonce[FD_CHACHA20_NONCE_SIZE], uint8_t out[FD_CHACHA20_BLOCK_SIZE]);
static bool chacha_broken;

void __wrap_fd_chacha20_block(const uint8_t key[FD_CHACHA20_KEY_SIZE], uint32_t counter,
                              const uint8_t nonce[FD_CHACHA20_NONCE_SIZE], uint8_t out[FD_CHACHA20_BLOCK_SIZE])
{
    __real_fd_chacha20_block(key, counter, nonce, out);
    if (chacha_broken) {
        out[3] ^= 0x10u; /* one bit of the first 16 bytes the self-test compares */
    }
}

static fake_trng trng;
static fd_dealer dealer;
static fd_console console;
static capture out;

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

static void capture_write(void *ctx, const char *data, size_t len) { assert_true(capture_append(ctx, data, len)); }

static int fresh(void **state)
{
    (void)state;
    chacha_broken = false;
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 34);
    return 0;
}

static fd_status start_dealer(void)
{
    const fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    const fd_status st = fd_dealer_init(&dealer, &cfg);
    fd_console_init(&console, &dealer, capture_write, &out, false, false);
    return st;
}

static const char *cmd(const char *line)
{
    const char *r = console_cmd(&console, &out, line);
    assert_non_null(r);
    return r;
}

/* protocol.c fault_reason: FD_ERR_KAT's "known-answer self-test failed" to
 * "" (the power-on banner of a dealer whose cipher fails its known answer
 * gives an empty reason: the operator cannot tell it from any other fault). */
static void test_a_failed_known_answer_is_named(void **state)
{
    (void)state;
    chacha_broken = true;
    assert_int_equal(start_dealer(), FD_ERR_KAT);
    assert_true(fd_dealer_in_fault(&dealer));
    assert_string_equal(cmd("SHUFFLE"), "ERR selftest known-answer test failed; dealing disabled");
    out.len = 0;
    fd_console_start(&console);
    assert_non_null(strstr(out.text, "*** ENTROPY FAULT: known-answer self-test failed. Dealing is disabled"));
    /* the cipher healthy again, SELFTEST clears the fault */
    chacha_broken = false;
    assert_true(strncmp(cmd("SELFTEST"), "OK ", 3) == 0);
    assert_false(fd_dealer_in_fault(&dealer));
}

/* protocol.c lab_cards: fd_dealer_lab_cards's status ignored (a source that
 * fails during LAB CARDS reported "end=ok" with the wiped draws, zeros,
 * as indices: a capture that looks valid and is not). The reply must carry
 * no index and end with the failure, and the dealer is in fault. */
static void test_lab_cards_reports_a_failing_source(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(), FD_OK);
    const char *r = cmd("LAB CARDS 8 52");
    assert_true(strncmp(r, "OK LAB CARDS n=8 bound=52 idx=", 30) == 0);
    assert_non_null(strstr(r, " end=ok"));
    trng.fault_at = trng.delivered + 1u;
    trng.fault_status = FD_ERR_TRNG_HW;
    r = cmd("LAB CARDS 8 52");
    char end[32];
    assert_non_null(reply_field(r, "end", end, sizeof end));
    assert_string_not_equal(end, "ok");
    assert_string_equal(end, fd_status_name(fd_dealer_fault_status(&dealer)));
    assert_non_null(strstr(r, " idx= end="));
    assert_true(fd_dealer_in_fault(&dealer));
}

/* protocol.c cmd_time: "r->n != 2u || !parse_decimal(...) || unix_s == 0u"
 * with the first two joined by && before "unix_s == 0u" (TIME 0 taken as a
 * time, and a bad line refused only when it leaves unix_s 0): every refused
 * form gets the usage reply and changes nothing. */
static void test_time_refuses_zero_and_bad_lines(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(), FD_OK);
    static const char *const bad[] = {"TIME 0", "TIME", "TIME 4294967296", "TIME 5 6", "TIME 12x", "TIME -1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_string_equal(cmd(bad[i]), "ERR syntax usage: TIME <unix seconds, 1 to 4294967295>");
    }
}

/* protocol.c fault_reason: FD_ERR_NOT_READY's "start-up tests not passed"
 * to "" (a TRNG that never started, as the STM32's read reports, leaves the
 * power-on banner without a reason). */
static void test_a_source_not_ready_is_named(void **state)
{
    (void)state;
    trng.fault_at = 1u;
    trng.fault_every = 1u;
    trng.fault_status = FD_ERR_NOT_READY;
    assert_int_equal(start_dealer(), FD_ERR_NOT_READY);
    assert_int_equal(fd_dealer_fault_status(&dealer), FD_ERR_NOT_READY);
    out.len = 0;
    fd_console_start(&console);
    assert_non_null(strstr(out.text, "*** ENTROPY FAULT: start-up tests not passed. Dealing is disabled"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_a_failed_known_answer_is_named, fresh),
        cmocka_unit_test_setup(test_lab_cards_reports_a_failing_source, fresh),
        cmocka_unit_test_setup(test_time_refuses_zero_and_bad_lines, fresh),
        cmocka_unit_test_setup(test_a_source_not_ready_is_named, fresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
