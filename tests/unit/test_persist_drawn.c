/* The dealer's write-ahead journal (firmware/persist.c, docs/RECORDS.md)
 * against the survivors of the mutants drawn by rule (docs/RELIABILITY.md,
 * "Mutants drawn by rule"): the real dealer over the host flash simulator,
 * powered off and on again (RAM lost), each test naming the mutant it
 * kills. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dealer.h"
#include "fd_board_map.h"
#include "host_storage.h"
#include "protocol.h"
#include "fairdeal/util.h"
#include "test_dealer_config.h"

#define PAGE FD_FLASH_PAGE_SIZE
#define PAGES FD_STORAGE_PAGES

static host_flash hf;
static uint8_t mem[PAGE * PAGES];
static fake_trng trng;
static fd_dealer dealer;
static fd_console console;
static capture out;
static uint64_t trng_seed = 40;

/* The dealer's flash: the simulator's, except that a program touching
 * [fail_from, fail_to) fails with fail_status and writes nothing. */
static fd_flash faulty;
static uint32_t fail_from;
static uint32_t fail_to;
static fd_status fail_status;
static unsigned failed_programs;

static fd_status faulty_erase(void *ctx, uint32_t page) { return hf.flash.erase(ctx, page); }

static fd_status faulty_program(void *ctx, uint32_t offset, const uint32_t *words, size_t count)
{
    if (offset < fail_to && offset + 4u * count > fail_from) {
        failed_programs++;
        return fail_status;
    }
    return hf.flash.program(ctx, offset, words, count);
}

static fd_status faulty_read(void *ctx, uint32_t offset, void *data, size_t len)
{
    return hf.flash.read(ctx, offset, data, len);
}

static void capture_write(void *ctx, const char *data, size_t len)
{
    capture *c = ctx;
    assert_true(capture_append(c, data, len));
}

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

static void fresh_flash(void)
{
    memset(mem, 0xFF, sizeof mem);
    assert_int_equal(host_flash_open(&hf, mem, PAGE, PAGES, NULL), FD_OK);
    faulty = hf.flash;
    faulty.erase = faulty_erase;
    faulty.program = faulty_program;
    faulty.read = faulty_read;
    fail_from = fail_to = 0;
    failed_programs = 0;
}

/* Power on: a new dealer over the same flash (RAM is lost). */
static void power_on(void)
{
    host_flash_reboot(&hf);
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, trng_seed++);
    fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    cfg.storage = &faulty;
    cfg.storage_name = "test flash";
    cfg.reset_cause = 1; /* power-on */
    memset(&dealer, 0, sizeof dealer);
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK);
    fd_console_init(&console, &dealer, capture_write, &out, false, false);
    assert_int_equal(fd_dealer_journal_status(&dealer), FD_OK);
}

/* One command line; its reply without CR LF. */
static const char *cmd(const char *line)
{
    out.len = 0;
    out.text[0] = '\0';
    fd_console_command(&console, line, strlen(line));
    assert_true(out.len >= 2u && strcmp(out.text + out.len - 2u, "\r\n") == 0);
    out.text[out.len - 2u] = '\0';
    return out.text;
}

static bool starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* The value of STATUS's field key. */
static const char *status_field(const char *key, char *value, size_t size)
{
    const char *r = cmd("STATUS");
    assert_true(starts(r, "OK STATUS "));
    if (reply_field(r, key, value, size) == NULL) {
        fail_msg("no %s= in %s", key, r);
    }
    return value;
}

/* persist.c restore_open_round: "revealed_rounds = j->round->id - 1u"
 * with 2u. docs/PROTOCOL.md STATUS: unrevealed counts the rounds committed
 * and not yet revealed, "0, or 1 while a round is open; never more": so
 * after a power cut with round 2 open, 1, and 0 once it is revealed. */
static void test_restored_round_is_the_one_unrevealed(void **state)
{
    (void)state;
    fresh_flash();
    power_on();
    char v[32];
    assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE "));
    assert_true(starts(cmd("REVEAL"), "OK REVEAL "));
    assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE "));
    assert_true(starts(cmd("DEAL 2 2"), "OK DEAL "));
    assert_string_equal(status_field("unrevealed", v, sizeof v), "1");

    power_on();
    assert_true(fd_dealer_round_open(&dealer));
    assert_int_equal(fd_dealer_get_round(&dealer)->id, 2u);
    assert_string_equal(status_field("unrevealed", v, sizeof v), "1");
    assert_true(starts(cmd("REVEAL"), "OK REVEAL "));
    assert_string_equal(status_field("unrevealed", v, sizeof v), "0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_restored_round_is_the_one_unrevealed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
