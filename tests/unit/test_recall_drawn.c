/* RECALL and LOG (firmware/recall.c, docs/PROTOCOL.md) against the
 * survivors of the mutants drawn by rule (docs/RELIABILITY.md, "Mutants
 * drawn by rule"): the real dealer over the host flash simulator, each
 * test naming the mutant it kills. */
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
#include "recall.h"
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

/* A new dealer on a blank flash, its journal mounted; its fd_dealer_init
 * status (the TRNG in mode at power-on). */
static fd_status power_on(fake_trng_mode mode)
{
    memset(mem, 0xFF, sizeof mem);
    assert_int_equal(host_flash_open(&hf, mem, PAGE, PAGES, NULL), FD_OK);
    fake_trng_init(&trng, mode, 3);
    fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    cfg.storage = &hf.flash;
    cfg.storage_name = "test flash";
    cfg.reset_cause = 1; /* power-on */
    const fd_status st = fd_dealer_init(&dealer, &cfg);
    fd_console_init(&console, &dealer, capture_write, &out, false, false);
    return st;
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

/* The " | " group of reply r that holds text (up to the next " | ", or
 * to the reply's " seq=N head=" end), copied into group; fails when none. */
static const char *group_with(const char *r, const char *text, char *group, size_t size)
{
    for (const char *g = strstr(r, " | "); g != NULL; g = strstr(g + 3, " | ")) {
        const char *end = strstr(g + 3, " | ");
        size_t n = end != NULL ? (size_t)(end - g) : strlen(g);
        if (end == NULL) {
            const char *tail = strstr(g + 3, " seq=");
            n = tail != NULL ? (size_t)(tail - g) : n;
        }
        assert_true(n < size);
        memcpy(group, g, n);
        group[n] = '\0';
        if (strstr(group, text) != NULL) {
            return group;
        }
    }
    fail_msg("no group with '%s' in: %s", text, r);
    return NULL;
}

/* recall.c log_event: "if (rec->type == FD_REC_FAULT)" with != (a FAULT's
 * detail left out, a SELFTEST given one). docs/PROTOCOL.md LOG: "fault
 * status=health detail=1", "selftest result=ok", nothing more. */
static void test_log_fault_detail_only_on_faults(void **state)
{
    (void)state;
    assert_int_equal(power_on(FAKE_TRNG_RANDOM), FD_OK);
    trng.mode = FAKE_TRNG_STUCK; /* the next draw fails its health test */
    assert_true(starts(cmd("SHUFFLE drbg"), "ERR entropy health test failed"));
    const char *r = cmd("LOG 32");
    char g[256];
    assert_string_equal(group_with(r, " selftest ", g, sizeof g), " | seq=3 selftest result=ok");
    assert_string_equal(group_with(r, " fault ", g, sizeof g), " | seq=4 fault status=health detail=1");
}

/* recall.c log_visit: "rec->orig_seq >= c->floor && time != 0u" with ||
 * (" time>=0" on every event before any TIME, and the times of events
 * below the floor shown). docs/PROTOCOL.md LOG: time>= only when a TIME was
 * sent in that power-on. */
static void test_log_time_only_when_known(void **state)
{
    (void)state;
    assert_int_equal(power_on(FAKE_TRNG_RANDOM), FD_OK);
    const char *r = cmd("LOG 32");
    assert_true(starts(r, "OK LOG n=32 | seq=2 power-on cause=power-on | seq=3 selftest result=ok seq="));
    assert_null(strstr(r, "time>="));
    assert_true(starts(cmd("TIME 1700000000"), "OK TIME unix=1700000000 "));
    trng.mode = FAKE_TRNG_STUCK;
    assert_true(starts(cmd("SHUFFLE drbg"), "ERR entropy "));
    r = cmd("LOG 32");
    char g[256];
    assert_string_equal(group_with(r, " fault ", g, sizeof g),
                        " | seq=5 fault status=health detail=1 time>=1700000000");
    assert_null(strstr(group_with(r, " power-on ", g, sizeof g), "time>="));
    assert_null(strstr(group_with(r, " selftest ", g, sizeof g), "time>="));
    /* the newest event alone: the fault's time, nothing of those below the floor */
    r = cmd("LOG 1");
    assert_true(starts(r, "OK LOG n=1 | seq=5 fault status=health detail=1 time>=1700000000 seq="));
}

/* recall.c fd_recall_log_write: "c.floor == 0u ? FD_OK : walk" with 1u (an
 * event at seq 1 never shown). A TRNG that fails at the first power-on: no
 * seed file was written, so the power-on is the journal's first record. */
static void test_log_shows_the_first_record(void **state)
{
    (void)state;
    assert_int_equal(power_on(FAKE_TRNG_STUCK), FD_ERR_HEALTH);
    const char *r = cmd("LOG 32");
    assert_true(starts(r, "OK LOG n=32 | seq=1 power-on cause=power-on | seq=2 selftest result=health | seq=3 fault "
                          "status=health detail=1 seq=4 head="));
}

/* recall.c fd_recall_write: the walk's status ignored (FD_OK). A journal
 * damaged after mount: RECALL ends with the walk's error (docs/PROTOCOL.md
 * RECALL, protocol.c end_walk_reply), as LOG does; without a journal
 * fd_recall_write is FD_ERR_NOT_READY (recall.h). */
static void test_recall_reports_a_damaged_journal(void **state)
{
    (void)state;
    assert_int_equal(power_on(FAKE_TRNG_RANDOM), FD_OK);
    const char *r = cmd("SHUFFLE");
    char hex[65];
    assert_non_null(reply_field(r, "commitment", hex, sizeof hex));
    uint8_t commitment[32];
    size_t n = 0;
    assert_int_equal(fd_hex_decode(hex, 64, commitment, sizeof commitment, &n), FD_OK);
    assert_true(starts(cmd("DEAL 3"), "OK DEAL "));
    r = cmd("RECALL");
    assert_non_null(strstr(r, " | id=1 mode=round "));
    assert_null(strstr(r, " | ERR "));
    /* one bit of the ROUND_OPENED record's commitment on flash */
    uint8_t *at = memmem(mem, sizeof mem, commitment, sizeof commitment);
    assert_non_null(at);
    at[5] ^= 1u;
    r = cmd("RECALL");
    assert_true(starts(r, "OK RECALL newest=1 n=10 | ERR corrupt seq="));

    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 3);
    const fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK);
    const fd_writer w = {capture_write, &out};
    out.len = 0;
    assert_int_equal(fd_recall_write(&w, &dealer, 1), FD_ERR_NOT_READY);
    assert_int_equal(out.len, 0u);
}

/* recall.c log_visit: "on.cause < 7u ? reset_causes[on.cause] : \"?\"" with
 * 8u (cause 7 read past the end of the names). docs/RECORDS.md POWER_ON
 * names causes 0..6 (hal/reset.h); any other byte, such as a cause a later
 * board reports, is shown as "?", and the next cause by its name. */
static void test_log_unknown_reset_cause(void **state)
{
    (void)state;
    memset(mem, 0xFF, sizeof mem);
    assert_int_equal(host_flash_open(&hf, mem, PAGE, PAGES, NULL), FD_OK);
    static const uint8_t causes[] = {7, 6, 255};
    for (unsigned i = 0; i < sizeof causes; i++) {
        host_flash_reboot(&hf);
        fake_trng_init(&trng, FAKE_TRNG_RANDOM, 3u + i);
        fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
        cfg.storage = &hf.flash;
        cfg.storage_name = "test flash";
        cfg.reset_cause = causes[i];
        assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK);
        fd_console_init(&console, &dealer, capture_write, &out, false, false);
    }
    const char *r = cmd("LOG 32");
    assert_true(starts(r, "OK LOG n=32 | seq=2 power-on cause=? | seq=3 selftest result=ok | seq=5 power-on "
                          "cause=lockup | seq=6 selftest result=ok | seq=8 power-on cause=? | seq=9 selftest "
                          "result=ok seq=10 head="));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_log_fault_detail_only_on_faults), cmocka_unit_test(test_log_time_only_when_known),
        cmocka_unit_test(test_log_shows_the_first_record),      cmocka_unit_test(test_recall_reports_a_damaged_journal),
        cmocka_unit_test(test_log_unknown_reset_cause),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
