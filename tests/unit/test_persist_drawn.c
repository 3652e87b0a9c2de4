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
#include "fairdeal/journal.h"
#include "fairdeal/records.h"
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

/* The events LOG n shows: its " | seq=" groups. */
static unsigned log_events(unsigned n)
{
    char line[16];
    snprintf(line, sizeof line, "LOG %u", n);
    const char *r = cmd(line);
    assert_true(starts(r, "OK LOG "));
    unsigned k = 0;
    for (const char *g = strstr(r, " | seq="); g != NULL; g = strstr(g + 1, " | seq=")) {
        k++;
    }
    return k;
}

/* persist.c note_event: "unsigned low = 0" with 1 (the first slot of a
 * kind never replaced: its oldest event kept for ever). docs/PROTOCOL.md
 * LOG: the last n events; the journal keeps the last 8 of each kind. Ten
 * power-ons (a POWER_ON and a SELFTEST each): LOG n shows n events up to
 * the 16 kept, and LOG 32 those 16, the newest 8 power-ons; also after
 * the next power-on's replay. */
static void test_log_keeps_the_newest_events(void **state)
{
    (void)state;
    fresh_flash();
    for (unsigned i = 0; i < 10u; i++) {
        power_on();
    }
    for (unsigned pass = 0; pass < 2u; pass++) {
        for (unsigned n = 1; n <= 16u; n++) {
            assert_int_equal(log_events(n), n);
        }
        assert_int_equal(log_events(32), 16u);
        const char *r = cmd("LOG 32");
        unsigned power_ons = 0;
        for (const char *g = strstr(r, " power-on cause="); g != NULL; g = strstr(g + 1, " power-on cause=")) {
            power_ons++;
        }
        assert_int_equal(power_ons, 8u);
        /* the replay takes the same events back */
        assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE "));
        assert_true(starts(cmd("REVEAL"), "OK REVEAL "));
        power_on();
    }
}

/* A wipe of the seed file the dealer holds that the flash refuses with
 * status, then a power-on. dealer.h fd_dealer_seed_file_write: FD_OK means
 * the new seed file is durable and the previous one is then wiped;
 * persist.h: a write that fails latches the journal's error. The old one
 * is still in flash: STATUS says journal=failed, LOG is refused, and the
 * next power-on wipes it. */
static void seed_file_wipe_refused(fd_status status)
{
    fresh_flash();
    power_on();
    uint8_t old[FD_DEALER_SEED_FILE_MAX];
    size_t len = 0;
    assert_int_equal(fd_dealer_seed_file_read(&dealer, old, sizeof old, &len), FD_OK);
    const uint8_t *at = memmem(mem, sizeof mem, old, len);
    assert_non_null(at);
    fail_from = (uint32_t)(at - mem);
    fail_to = fail_from + (uint32_t)len;
    fail_status = status;
    char v[32];
    assert_string_equal(status_field("journal", v, sizeof v), "ok");

    uint8_t next[FD_DEALER_SEED_FILE_MAX];
    memset(next, 0x5A, len);
    assert_int_equal(fd_dealer_seed_file_write(&dealer, next, len), FD_OK);
    assert_true(failed_programs > 0u);
    assert_non_null(memmem(mem, sizeof mem, old, len)); /* not wiped */
    assert_int_not_equal(fd_dealer_journal_status(&dealer), FD_OK);
    assert_string_equal(status_field("journal", v, sizeof v), "failed");
    assert_true(starts(cmd("LOG"), "ERR journal "));

    fail_from = fail_to = 0;
    power_on();
    assert_null(memmem(mem, sizeof mem, old, len));
    assert_string_equal(status_field("journal", v, sizeof v), "ok");
}

/* persist.c wipe: "if (st != FD_OK && st != FD_ERR_STATE)" with 0 (a
 * failed wipe not latched): the flash says FD_ERR_NOT_READY (the nRF5x
 * NVMC's time-out). */
static void test_failed_seed_file_wipe_latches(void **state)
{
    (void)state;
    seed_file_wipe_refused(FD_ERR_NOT_READY);
}

/* The flash says FD_ERR_STATE (the STM32F4's FLASH_SR error bits, the host
 * simulator's power cut), which fd_journal_wipe_secret also returns for a
 * record whose secret is gone: the journal failed, so this one is latched
 * too. */
static void test_wipe_refused_with_the_state_status_latches(void **state)
{
    (void)state;
    seed_file_wipe_refused(FD_ERR_STATE);
}

/* The walk order of the open round's CUT records: their cut values in
 * the order RECALL and the replay read them. */
typedef struct cut_order {
    unsigned n;
    uint16_t cut[8];
    uint32_t seq[8];
} cut_order;

static fd_status note_cut(void *ctx, const fd_journal_record *rec)
{
    cut_order *o = ctx;
    fd_rec_cut c;
    if (rec->type == FD_REC_CUT && fd_rec_cut_decode(rec->payload, rec->len, &c) == FD_OK) {
        assert_true(o->n < 8u);
        o->cut[o->n] = c.cut;
        o->seq[o->n] = rec->orig_seq;
        o->n++;
    }
    return FD_OK;
}

static cut_order cuts_in_walk_order(void)
{
    cut_order o = {0, {0}, {0}};
    assert_int_equal(fd_dealer_journal_walk(&dealer, note_cut, &o), FD_OK);
    return o;
}

/* persist.c replay_visit: "fd_rec_cut_decode(...) == FD_OK && rec->orig_seq
 * > r->cut_seq" with || (the last CUT walked wins, not the newest).
 * docs/PROTOCOL.md CUT: a changed cut is journalled and comes back after a
 * power cut; docs/RECORDS.md "Replay": the walk is not in seq order, as
 * compaction copies a hand's older records after newer ones. An open round
 * cut at 30, pages of power-ons later at 40, then power-ons until
 * compaction has copied the first CUT after the second: every power-on
 * restores cut=40. */
static void test_newest_cut_wins_after_compaction(void **state)
{
    (void)state;
    fresh_flash();
    power_on();
    assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE "));
    assert_true(starts(cmd("DEAL 2 2"), "OK DEAL "));
    assert_string_equal(cmd("CUT 30"), "OK CUT 30");
    for (unsigned i = 0; i < 12u; i++) {
        power_on();
    }
    assert_string_equal(cmd("CUT 40"), "OK CUT 40");
    char v[32];
    unsigned replays = 0; /* power-ons that walked the older CUT last */
    for (unsigned i = 0; i < 2000u && replays == 0u; i++) {
        /* the power-on's own appends may compact: what the next one replays */
        const cut_order o = cuts_in_walk_order();
        assert_int_equal(o.n, 2u);
        assert_true((o.cut[0] == 40u) == (o.seq[0] > o.seq[1]));
        replays += o.cut[0] == 40u;
        power_on();
        assert_true(fd_dealer_round_open(&dealer));
        assert_string_equal(status_field("cut", v, sizeof v), "40");
    }
    assert_int_equal(replays, 1u);
    assert_true(starts(cmd("REVEAL"), "OK REVEAL "));
}

/* persist.h fd_persist_round_opened: FD_ERR_TOO_LARGE and nothing written
 * when the round's material fills no ROUND_SECRET part or more than
 * FD_REC_MAX_PARTS (the records' part table holds that many). Kills
 * persist.c "parts == 0u || parts > FD_REC_MAX_PARTS" with && (never true:
 * a round of no parts, or of 15 parts read past S and written past the
 * part table, would be journalled). */
static void test_round_material_outside_the_parts_is_refused(void **state)
{
    (void)state;
    fresh_flash();
    power_on();
    const fd_persist_ctx ctx = {&dealer.persist, &dealer.round, &dealer.shoe};
    fd_round_header h;
    memset(&h, 0, sizeof h);
    h.slot_mask = 1u;
    static const uint8_t salt[16];
    static const uint8_t commitment[FD_SHA256_SIZE];
    /* any program from here on fails, and is counted */
    fail_from = 0;
    fail_to = PAGE * PAGES;
    fail_status = FD_ERR_OVERRUN;
    const size_t lens[] = {0u, FD_REC_MAX_PARTS * FD_REC_SECRET_PART + 1u};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        assert_int_equal(fd_persist_round_opened(&ctx, 1u, FD_RECORD_MODE_ROUND, &h, lens[i], salt, commitment),
                         FD_ERR_TOO_LARGE);
        assert_int_equal(failed_programs, 0u);
    }
    /* the largest material still goes in: the bound is the table's */
    fail_from = fail_to = 0;
    assert_true(starts(cmd("NEW french 8 2"), "OK NEW "));
    assert_true(starts(cmd("SHUFFLE slots=1"), "OK SHUFFLE mode=round"));
    assert_int_equal(failed_programs, 0u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_restored_round_is_the_one_unrevealed),
        cmocka_unit_test(test_log_keeps_the_newest_events),
        cmocka_unit_test(test_failed_seed_file_wipe_latches),
        cmocka_unit_test(test_wipe_refused_with_the_state_status_latches),
        cmocka_unit_test(test_newest_cut_wins_after_compaction),
        cmocka_unit_test(test_round_material_outside_the_parts_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
