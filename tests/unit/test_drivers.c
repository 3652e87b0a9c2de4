/* The board's own HAL drivers, on the board itself (QEMU) and on the host:
 * the TRNG delivers samples that pass the SP 800-90B health tests with the
 * board's own cutoffs, rejects bad arguments, and the counter advances. The
 * console's receive direction is covered end to end by the dealer test
 * (tests/qemu/dealer_e2e.sh), which types a whole session on the UART. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "console_say.h"
#include "fairdeal/health.h"
#include "fairdeal/util.h"
#include "fd_trng_config.h"
#include "hal/board.h"
#include "hal/console.h"
#include "hal/counter.h"
#include "hal/trng.h"

#define SAMPLES 4096u
#define CHUNK 64u

static void test_trng_samples_pass_health_tests(void **state)
{
    (void)state;
    const fd_health_config cfg = FD_TRNG_HEALTH_CONFIG;
    fd_health health;
    assert_int_equal(fd_health_init(&health, &cfg), FD_OK);
    assert_int_equal(hal_trng_init(), FD_OK);
    uint32_t histogram[256] = {0};
    uint8_t chunk[CHUNK];
    const uint32_t start = hal_counter_read();
    for (uint32_t done = 0; done < SAMPLES; done += CHUNK) {
        assert_int_equal(hal_trng_read(chunk, CHUNK), FD_OK);
        for (size_t i = 0; i < CHUNK; i++) {
            assert_int_equal(fd_health_feed(&health, chunk[i]), FD_OK);
            histogram[chunk[i]]++;
        }
    }
    const uint32_t elapsed = hal_counter_read() - start;
    /* 4096 uniform bytes hit ~255 of 256 values; a stuck or narrow driver
     * (e.g. one that reads a 1-bit field) hits few. */
    unsigned distinct = 0;
    for (size_t v = 0; v < 256u; v++) {
        distinct += histogram[v] != 0u ? 1u : 0u;
    }
    assert_true(distinct >= 200u);
    say("    trng: ");
    say_u32(SAMPLES);
    say(" samples passed RCT/APT, ");
    say_u32(distinct);
    say(" distinct values, ");
    say_u32(elapsed);
    say(" counter units (");
    say(hal_counter_unit());
    say(")\r\n");
}

/* Runs first: before hal_trng_init nothing is read. */
static void test_trng_rejects_null_and_uninitialised(void **state)
{
    (void)state;
    uint8_t one = 0xA5;
    assert_int_equal(hal_trng_read(&one, 1), FD_ERR_NOT_READY);
    assert_int_equal(one, 0xA5);
    assert_int_equal(hal_trng_init(), FD_OK);
    assert_int_equal(hal_trng_read(NULL, 1), FD_ERR_NULL);
    assert_int_equal(hal_trng_read(&one, 0), FD_OK); /* nothing asked, nothing read */
    assert_int_equal(one, 0xA5);
    assert_non_null(hal_trng_name());
    assert_true(strlen(hal_trng_name()) > 0u);
}

static void test_counter_advances(void **state)
{
    (void)state;
    const uint32_t a = hal_counter_read();
    volatile uint32_t sink = 0;
    for (uint32_t i = 0; i < 100000u; i++) {
        sink = sink + i;
    }
    const uint32_t b = hal_counter_read();
    assert_true(b - a > 0u);
    assert_true(b - a < 0x80000000u); /* forward, not a wrap backwards */
}

static void test_board_identity(void **state)
{
    (void)state;
    assert_non_null(hal_board_name());
    assert_true(strlen(hal_board_name()) > 0u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trng_rejects_null_and_uninitialised),
        cmocka_unit_test(test_trng_samples_pass_health_tests),
        cmocka_unit_test(test_counter_advances),
        cmocka_unit_test(test_board_identity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
