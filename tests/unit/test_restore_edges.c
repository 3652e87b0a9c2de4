/* Restoring a round at its edges (docs/RELIABILITY.md, "The dealer writes
 * ahead"): the real dealer over the host flash simulator, powered off and
 * on again (RAM lost), then REVEAL, and the revealed round verified against
 * the commitment published at SHUFFLE (fd_round_verify). An open round with
 * every card dealt; the largest beacon index; a power cut at every flash
 * step of SHUFFLE (among them: between the round's secret parts and its
 * ROUND_OPENED); a power cut at every step of a round in which the journal
 * compacts and a seed file is superseded; a power cut at every step of a
 * DEAL (its positions marked SKIPPED) and the per-round SKIPPED limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dealer.h"
#include "fairdeal/journal.h"
#include "fairdeal/records.h"
#include "fairdeal/util.h"
#include "fd_board_map.h"
#include "host_storage.h"
#include "protocol.h"
#include "test_dealer_config.h"

#define PAGE FD_FLASH_PAGE_SIZE
#define PAGES FD_STORAGE_PAGES

static host_flash hf;
static uint8_t mem[PAGE * PAGES];
static fake_trng trng;
static fd_dealer dealer;
static fd_console console;
static capture out;
static uint64_t trng_seed = 100;

static void capture_write(void *ctx, const char *data, size_t len)
{
    capture *c = ctx;
    if (!capture_append(c, data, len)) {
        c->len = 0;
        (void)capture_append(c, data, len);
    }
}

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

/* Power on: a new dealer over the same flash (RAM is lost). */
static void power_on(void)
{
    host_flash_reboot(&hf);
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, trng_seed++);
    fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    cfg.storage = &hf.flash;
    cfg.storage_name = "test flash";
    cfg.reset_cause = 1;
    memset(&dealer, 0, sizeof dealer);
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK);
    fd_console_init(&console, &dealer, capture_write, &out, false, false);
    assert_int_equal(dealer.persist.status, FD_OK);
}

static void fresh_flash(void) { assert_int_equal(host_flash_open(&hf, mem, PAGE, PAGES, NULL), FD_OK); }

static const char *cmd(const char *line)
{
    out.len = 0;
    out.text[0] = '\0';
    fd_console_command(&console, line, strlen(line));
    return out.text;
}

static bool starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* REVEAL the open round; its commitment is the one published at SHUFFLE
 * and it verifies: the header, S and the seeds give the shoe's order. */
static void reveal_and_verify(const char *commitment_hex)
{
    const char *r = cmd("REVEAL");
    if (!starts(r, "OK REVEAL ")) {
        fail_msg("REVEAL: %s", r);
    }
    char after[80];
    assert_non_null(reply_field(r, "commitment", after, sizeof after));
    assert_string_equal(after, commitment_hex);
    uint8_t commitment[FD_SHA256_SIZE];
    size_t len = 0;
    assert_int_equal(fd_hex_decode(commitment_hex, strlen(commitment_hex), commitment, sizeof commitment, &len), FD_OK);
    const fd_round *rd = &dealer.round;
    assert_int_equal(fd_round_verify(&rd->header, rd->secret, rd->secret_len, &rd->seeds, commitment, dealer.shoe.order,
                                     dealer.shoe.count),
                     FD_OK);
}

/* A round whose every card was dealt (its DEALs journalled) is still open
 * after a restart, REVEALs with its commitment and verifies. */
static void test_open_round_with_every_card_dealt(void **state)
{
    (void)state;
    fresh_flash();
    power_on();
    char commitment[80];
    const char *r = cmd("SHUFFLE");
    assert_true(starts(r, "OK SHUFFLE mode=round "));
    assert_non_null(reply_field(r, "commitment", commitment, sizeof commitment));
    for (unsigned i = 0; i < 4u; i++) {
        r = cmd("DEAL 13");
        if (!starts(r, "OK DEAL")) {
            fail_msg("DEAL 13: %s", r);
        }
    }
    assert_int_equal(dealer.shoe.position, dealer.shoe.count);
    const uint32_t id = dealer.round.id;

    power_on();
    assert_true(fd_dealer_round_open(&dealer));
    assert_int_equal(dealer.round.id, id);
    reveal_and_verify(commitment);
}

/* The largest beacon index (2^64 - 1: its high 32 bits matter) survives a
 * restart: REVEAL names it and the round verifies with it, not with its
 * low half. */
static void test_largest_beacon_index_across_a_restart(void **state)
{
    (void)state;
    fresh_flash();
    power_on();
    char commitment[80];
    const char *r = cmd("SHUFFLE slots=1 beacon=0:18446744073709551615");
    if (!starts(r, "OK SHUFFLE mode=round ")) {
        fail_msg("SHUFFLE: %s", r);
    }
    assert_non_null(reply_field(r, "commitment", commitment, sizeof commitment));
    assert_true(starts(cmd("SEED 0 0badbeef"), "OK SEED "));

    power_on();
    assert_true(fd_dealer_round_open(&dealer));
    assert_true(dealer.round.header.beacon_index == UINT64_MAX);
    r = cmd("REVEAL");
    if (!starts(r, "OK REVEAL ")) {
        fail_msg("REVEAL: %s", r);
    }
    assert_non_null(strstr(r, " beacon=0:18446744073709551615 "));
    char after[80];
    assert_non_null(reply_field(r, "commitment", after, sizeof after));
    assert_string_equal(after, commitment);
    uint8_t c[FD_SHA256_SIZE];
    size_t len = 0;
    assert_int_equal(fd_hex_decode(commitment, strlen(commitment), c, sizeof c, &len), FD_OK);
    const fd_round *rd = &dealer.round;
    assert_int_equal(
        fd_round_verify(&rd->header, rd->secret, rd->secret_len, &rd->seeds, c, dealer.shoe.order, dealer.shoe.count),
        FD_OK);
    fd_round_header low = rd->header;
    low.beacon_index = UINT32_MAX;
    assert_int_not_equal(
        fd_round_verify(&low, rd->secret, rd->secret_len, &rd->seeds, c, dealer.shoe.order, dealer.shoe.count), FD_OK);
}

/* Secret parts of round `round` still available in the journal. */
typedef struct parts_count {
    uint32_t round;
    unsigned available;
} parts_count;

static fd_status count_parts(void *ctx, const fd_journal_record *rec)
{
    parts_count *c = ctx;
    fd_rec_round_secret h;
    if (rec->type == FD_REC_ROUND_SECRET && rec->secret_state == FD_JOURNAL_SECRET_AVAILABLE &&
        fd_rec_round_secret_decode(rec->payload, rec->len, &h) == FD_OK && h.round_id == c->round) {
        c->available++;
    }
    return FD_OK;
}

static unsigned parts_available(uint32_t round)
{
    parts_count c = {round, 0};
    fd_journal_report report;
    assert_int_equal(fd_journal_walk(&dealer.persist.journal, count_parts, &c, &report), FD_OK);
    return c.available;
}

/* A power cut at every erase/program step of a SHUFFLE (a round before it
 * revealed): after the restart either the round opened (its ROUND_OPENED
 * durable: it REVEALs with the commitment the dealer would have published
 * and verifies) or it never did (its secret parts are wiped, the next
 * SHUFFLE takes the same round id and its round REVEALs and verifies). */
static void test_cut_between_secret_parts_and_opened(void **state)
{
    (void)state;
    /* the steps a SHUFFLE takes, from a clean run */
    fresh_flash();
    power_on();
    assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
    assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    const uint64_t before = hf.steps;
    assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
    const uint64_t steps = hf.steps - before;
    assert_true(steps >= 2u);
    unsigned opened = 0;
    unsigned dropped = 0;
    for (uint64_t k = 0; k < steps; k++) {
        fresh_flash();
        power_on();
        assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
        assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
        const uint32_t last = dealer.round.id;
        hf.cut_after = hf.steps + k;
        const char *r = cmd("SHUFFLE"); /* its reply, if any, never reaches anyone */
        (void)r;

        power_on();
        if (fd_dealer_round_open(&dealer)) {
            opened++;
            assert_int_equal(dealer.round.id, last + 1u);
            assert_true(parts_available(last + 1u) >= 1u); /* the count's control */
            char commitment[80];
            snprintf(commitment, sizeof commitment, "%s", "");
            for (unsigned i = 0; i < FD_SHA256_SIZE; i++) {
                snprintf(commitment + 2u * i, 3, "%02x", dealer.round.commitment[i]);
            }
            reveal_and_verify(commitment);
        } else {
            dropped++;
            assert_int_equal(dealer.round.id, last);
            assert_int_equal(parts_available(last + 1u), 0); /* a round never opened: its secret goes */
            char commitment[80];
            r = cmd("SHUFFLE");
            if (!starts(r, "OK SHUFFLE mode=round ")) {
                fail_msg("SHUFFLE after the cut at step %u: %s", (unsigned)k + 1u, r);
            }
            assert_int_equal(dealer.round.id, last + 1u);
            assert_non_null(reply_field(r, "commitment", commitment, sizeof commitment));
            reveal_and_verify(commitment);
        }
    }
    assert_true(dropped >= 2u); /* nothing written, and the secret parts written without ROUND_OPENED */
    print_message("SHUFFLE: %u flash steps; cut after each: %u opened, %u dropped\n", (unsigned)steps, opened, dropped);
}

/* ---- a deal journalled but perhaps never shown (docs/RECORDS.md "Replay") ---- */

typedef struct skipped_count {
    uint32_t round;
    unsigned n;
    uint16_t first;
    uint16_t count;
} skipped_count;

static fd_status count_skipped(void *ctx, const fd_journal_record *rec)
{
    skipped_count *c = ctx;
    fd_rec_skipped k;
    if (rec->type == FD_REC_SKIPPED && fd_rec_skipped_decode(rec->payload, rec->len, &k) == FD_OK &&
        k.round_id == c->round) {
        c->n++;
        c->first = k.first;
        c->count = k.count;
    }
    return FD_OK;
}

/* The SKIPPED records of round `round` in the journal (the last one read in c). */
static skipped_count skipped_records(uint32_t round)
{
    skipped_count c = {round, 0, 0, 0};
    fd_journal_report report;
    assert_int_equal(fd_journal_walk(&dealer.persist.journal, count_skipped, &c, &report), FD_OK);
    return c;
}

static void shuffle(char commitment[80])
{
    if (!fd_dealer_round_open(&dealer)) {
        assert_true(starts(cmd("NEW french 3"), "OK NEW")); /* 156 cards: a DEAL of two DEALT records */
    }
    const char *r = cmd("SHUFFLE");
    if (!starts(r, "OK SHUFFLE mode=round ")) {
        fail_msg("SHUFFLE: %s", r);
    }
    assert_non_null(reply_field(r, "commitment", commitment, 80));
}

/* A power cut at every flash step of a DEAL of 130 cards (two DEALT
 * records) after an acknowledged DEAL 3: after the restart the newest
 * deal journalled (DEAL 3 when nothing of the cut one was; else the first
 * record's 120 or all 130 positions) is the round's one SKIPPED record, a
 * second restart adds none, dealing goes on
 * after them and the round REVEALs and verifies. A deal followed by any
 * other record (here a CUT) was acknowledged: nothing is marked. */
static void test_cut_at_every_step_of_a_deal(void **state)
{
    (void)state;
    char commitment[80];
    fresh_flash();
    power_on();
    shuffle(commitment);
    assert_true(starts(cmd("DEAL 3"), "OK DEAL"));
    const uint64_t before = hf.steps;
    assert_true(starts(cmd("DEAL 65 2"), "OK DEAL"));
    const uint64_t steps = hf.steps - before;
    assert_true(steps >= 2u);
    unsigned none = 0;
    unsigned part = 0;
    unsigned all = 0;
    for (uint64_t k = 0; k <= steps; k++) {
        fresh_flash();
        power_on();
        shuffle(commitment);
        assert_true(starts(cmd("DEAL 3"), "OK DEAL"));
        hf.cut_after = hf.steps + k; /* k == steps: the deal complete, its reply lost */
        (void)cmd("DEAL 65 2");
        hf.cut_after = HOST_FLASH_NEVER;

        power_on();
        assert_true(fd_dealer_round_open(&dealer));
        const uint16_t pos = dealer.shoe.position;
        const fd_persist *p = &dealer.persist;
        assert_int_equal(p->round_skipped, 1);
        if (pos == 3u) {
            /* nothing of it journalled: DEAL 3 is the newest record, and
             * the journal cannot tell its reply went out */
            none++;
            assert_int_equal(p->skipped_first[0], 0);
            assert_int_equal(p->skipped_count[0], 3);
        } else {
            assert_true(pos == 123u || pos == 133u);
            part += pos == 123u;
            all += pos == 133u;
            assert_int_equal(p->skipped_first[0], 3);
            assert_int_equal(p->skipped_count[0], pos - 3u);
        }
        skipped_count c = skipped_records(dealer.round.id);
        assert_int_equal(c.n, p->round_skipped);

        power_on(); /* marked once: the SKIPPED (and POWER_ON) followed the deal */
        assert_int_equal(dealer.shoe.position, pos);
        assert_int_equal(skipped_records(dealer.round.id).n, c.n);
        assert_int_equal(dealer.persist.round_skipped, c.n);
        assert_true(starts(cmd("DEAL 1"), "OK DEAL"));
        assert_int_equal(dealer.shoe.position, pos + 1u);
        reveal_and_verify(commitment);
    }
    assert_true(none >= 1u && part >= 1u && all >= 1u);
    print_message("DEAL 65 2: %u flash steps; cut after each: %u none, %u first record, %u both skipped\n",
                  (unsigned)steps, none, part, all);

    /* the control: an acknowledged deal followed by a record */
    fresh_flash();
    power_on();
    shuffle(commitment);
    assert_true(starts(cmd("DEAL 2"), "OK DEAL"));
    assert_true(starts(cmd("CUT 20"), "OK CUT"));
    power_on();
    assert_int_equal(dealer.persist.round_skipped, 0);
    assert_int_equal(skipped_records(dealer.round.id).n, 0);
    reveal_and_verify(commitment);
}

/* FD_REC_SKIPPED_MAX restarts each right after a DEAL: each deal is one
 * SKIPPED; then the round deals no more (DEAL and BURN refused, also after
 * another restart) and REVEALs and verifies. */
static void test_skipped_limit(void **state)
{
    (void)state;
    char commitment[80];
    fresh_flash();
    power_on();
    shuffle(commitment);
    for (unsigned i = 0; i < FD_REC_SKIPPED_MAX; i++) {
        assert_true(starts(cmd("DEAL 1 2"), "OK DEAL"));
        power_on();
        assert_int_equal(dealer.persist.round_skipped, i + 1u);
        assert_int_equal(dealer.persist.skipped_first[i], 2u * i);
        assert_int_equal(dealer.persist.skipped_count[i], 2);
    }
    for (unsigned pass = 0; pass < 2u; pass++) {
        const char *r = cmd("DEAL 1");
        if (!starts(r, "ERR journal this round was cut short by power loss")) {
            fail_msg("DEAL past the limit: %s", r);
        }
        assert_true(starts(cmd("BURN"), "ERR journal this round was cut short"));
        assert_int_equal(dealer.shoe.position, 2u * FD_REC_SKIPPED_MAX);
        power_on();
        assert_int_equal(dealer.persist.round_skipped, FD_REC_SKIPPED_MAX);
    }
    assert_int_equal(skipped_records(dealer.round.id).n, FD_REC_SKIPPED_MAX);
    reveal_and_verify(commitment);
    assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE")); /* the next round deals */
    assert_int_equal(dealer.persist.round_skipped, 0);
    assert_true(starts(cmd("DEAL 1"), "OK DEAL"));
}

/* ---- a seed file superseded while the journal compacts ---- */

#define MAX_ROUNDS 400u
#define MAX_SEED_FILES 64u

static uint64_t round_steps[MAX_ROUNDS + 1u]; /* flash steps before round i */
static uint8_t seed_files[MAX_SEED_FILES][FD_ROOT_BYTES];
static unsigned seed_file_count;

/* One round of the session; false when a command failed (after a cut). */
static bool one_round(void)
{
    return starts(cmd("SHUFFLE"), "OK SHUFFLE") && starts(cmd("DEAL 2 4"), "OK DEAL") &&
           starts(cmd("REVEAL"), "OK REVEAL");
}

static void note_seed_file(void)
{
    if (seed_file_count == 0u ||
        memcmp(seed_files[seed_file_count - 1u], dealer.persist.seed_file, FD_ROOT_BYTES) != 0) {
        assert_true(seed_file_count < MAX_SEED_FILES);
        memcpy(seed_files[seed_file_count++], dealer.persist.seed_file, FD_ROOT_BYTES);
    }
}

/* The first round of the session in which the journal erases a page
 * (compaction) and the dealer writes a seed file (every
 * FD_DEALER_SEED_FILE_PERIOD rounds), superseding the last one; then a
 * power cut at every flash step of that round. After the restart: the
 * journal mounts, no seed file the session wrote is left anywhere in flash
 * (the power-on wrote the next one and the superseded ones are wiped,
 * compaction copies included), a round left open REVEALs and verifies,
 * and the next round does too. */
static void test_superseded_seed_file_during_compaction(void **state)
{
    (void)state;
    fresh_flash();
    trng_seed = 500;
    power_on();
    seed_file_count = 0;
    note_seed_file();
    unsigned target = MAX_ROUNDS;
    for (unsigned i = 0; i < MAX_ROUNDS && target == MAX_ROUNDS; i++) {
        round_steps[i] = hf.steps;
        const uint64_t erases = hf.erases;
        const uint32_t written = dealer.seed_files_written;
        assert_true(one_round());
        note_seed_file();
        if (hf.erases > erases && dealer.seed_files_written > written) {
            target = i;
            round_steps[i + 1u] = hf.steps;
        }
    }
    if (target == MAX_ROUNDS) {
        fail_msg("no round of %u both compacts and writes a seed file", MAX_ROUNDS);
    }
    const unsigned files = seed_file_count;
    unsigned opened = 0;
    for (uint64_t k = round_steps[target]; k < round_steps[target + 1u]; k++) {
        fresh_flash();
        trng_seed = 500;
        power_on();
        for (unsigned i = 0; i < target; i++) {
            assert_true(one_round());
        }
        assert_true(hf.steps == round_steps[target]); /* the same session, step for step */
        hf.cut_after = k;
        (void)one_round();

        power_on();
        if (fd_dealer_round_open(&dealer)) {
            opened++;
            char commitment[80];
            for (unsigned i = 0; i < FD_SHA256_SIZE; i++) {
                snprintf(commitment + 2u * i, 3, "%02x", dealer.round.commitment[i]);
            }
            reveal_and_verify(commitment);
        }
        for (unsigned f = 0; f < files; f++) {
            if (memmem(mem, sizeof mem, seed_files[f], FD_ROOT_BYTES) != NULL) {
                fail_msg("cut after step %u of round %u: seed file %u of %u still in flash", (unsigned)k, target + 1u,
                         f + 1u, files);
            }
        }
        char commitment[80];
        const char *r = cmd("SHUFFLE");
        if (!starts(r, "OK SHUFFLE mode=round ")) {
            fail_msg("SHUFFLE after the cut at step %u: %s", (unsigned)k, r);
        }
        assert_non_null(reply_field(r, "commitment", commitment, sizeof commitment));
        reveal_and_verify(commitment);
    }
    print_message("round %u compacts and writes seed file %u: %u cuts, %u left a round open\n", target + 1u, files,
                  (unsigned)(round_steps[target + 1u] - round_steps[target]), opened);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_round_with_every_card_dealt),
        cmocka_unit_test(test_largest_beacon_index_across_a_restart),
        cmocka_unit_test(test_cut_between_secret_parts_and_opened),
        cmocka_unit_test(test_superseded_seed_file_during_compaction),
        cmocka_unit_test(test_cut_at_every_step_of_a_deal),
        cmocka_unit_test(test_skipped_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
