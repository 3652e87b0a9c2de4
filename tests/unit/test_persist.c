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
#include <unistd.h>
#include <cmocka.h>

#include "dealer.h"
#include "fd_board_map.h"
#include "host_storage.h"
#include "protocol.h"
#include "test_dealer_config.h"
#include "verify_journal.h"

#define PAGE FD_FLASH_PAGE_SIZE
#define PAGES FD_STORAGE_PAGES /* the micro:bit's budget (boards/host/board.cmake) */
#define HEX64 "8d3f0a61c2e94b57a6d0e1f2c3b4a5968778695a4b3c2d1e0f00112233445566"

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

/* The watchdog kicks the journal gives (fd_dealer_config.kick). */
static uint64_t kicks;

static void count_kick(void *ctx)
{
    (void)ctx;
    kicks++;
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
    cfg.kick = count_kick;
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

/* The dealer itself writes a seed file at every power-on (and every
 * FD_DEALER_SEED_FILE_PERIOD rounds: dealer_sources.c); these check the
 * store underneath: durable, newest kept, the previous one wiped. */
static void test_seed_file_durable_and_old_one_wiped(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    uint8_t a[32], b[40], got[64], boot[64];
    memset(a, 0xA5, sizeof a);
    memset(b, 0x3C, sizeof b);
    size_t len = 0;
    assert_int_equal(fd_dealer_seed_file_read(&dealer, boot, sizeof boot, &len), FD_OK); /* written at power-on */
    assert_int_equal(len, 32u);
    /* bad input changes nothing */
    assert_int_equal(fd_dealer_seed_file_write(&dealer, NULL, 32), FD_ERR_NULL);
    assert_int_equal(fd_dealer_seed_file_write(&dealer, a, 0), FD_ERR_EMPTY);
    assert_int_equal(fd_dealer_seed_file_write(&dealer, a, FD_DEALER_SEED_FILE_MAX + 1u), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_dealer_seed_file_read(&dealer, got, sizeof got, &len), FD_OK);
    assert_memory_equal(got, boot, 32);

    assert_int_equal(fd_dealer_seed_file_write(&dealer, a, sizeof a), FD_OK);
    assert_int_equal(fd_dealer_seed_file_read(&dealer, got, 31, &len), FD_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(fd_dealer_seed_file_read(&dealer, got, sizeof got, &len), FD_OK);
    assert_int_equal(len, sizeof a);
    assert_memory_equal(got, a, sizeof a);
    assert_non_null(memmem(mem, sizeof mem, a, sizeof a)); /* on flash */
    assert_null(memmem(mem, sizeof mem, boot, 32));        /* its predecessor wiped */

    assert_int_equal(fd_dealer_seed_file_write(&dealer, b, sizeof b), FD_OK);
    assert_null(memmem(mem, sizeof mem, a, sizeof a)); /* the old one is gone from flash */
    assert_int_equal(fd_dealer_seed_file_read(&dealer, got, sizeof got, &len), FD_OK);
    assert_int_equal(len, sizeof b);
    assert_memory_equal(got, b, sizeof b);
    /* the next power-up reads b (mixed into the DRBG) and replaces it at once */
    assert_int_equal(power_on(), FD_OK);
    assert_int_equal(fd_dealer_seed_file_read(&dealer, got, sizeof got, &len), FD_OK);
    assert_int_equal(len, 32u);
    assert_memory_not_equal(got, b, 32);
    assert_null(memmem(mem, sizeof mem, b, sizeof b));
}

/* The newest seed file survives compaction however many rounds follow. */
static void test_seed_file_kept_through_rotation(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    uint8_t newest[64];
    size_t len = 0;
    for (int i = 0; i < 150; i++) {
        assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
        assert_true(starts(cmd("DEAL 2 4"), "OK DEAL"));
        assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    }
    assert_true(hf.erases > 0u); /* the ring went round */
    assert_int_equal(fd_dealer_seed_file_read(&dealer, newest, sizeof newest, &len), FD_OK);
    assert_int_equal(len, 32u);
    assert_non_null(memmem(mem, sizeof mem, newest, len)); /* durable through the compactions */
    assert_int_equal(power_on(), FD_OK);
    assert_true(starts(cmd("STATUS"), "OK STATUS"));
    assert_non_null(strstr(out.text, " next_id=151 "));
    assert_non_null(strstr(out.text, " seedfile=saved"));
}

/* A journal that fails at power-on lends nothing to the dealer: not the
 * seed file its verified records before the damage hold (the replay's
 * first pass reads them while the mount verifies), and no round. */
static void test_failed_mount_lends_nothing(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    uint8_t a[32], got[64];
    memset(a, 0x5A, sizeof a);
    assert_int_equal(fd_dealer_seed_file_write(&dealer, a, sizeof a), FD_OK);
    assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
    assert_true(starts(cmd("DEAL 2"), "OK DEAL"));
    assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    /* damage a byte of the round's records, after the seed file */
    const uint8_t *at = memmem(mem, sizeof mem, a, sizeof a);
    assert_non_null(at);
    size_t off = (size_t)(at - mem) + sizeof a + 64u;
    while (mem[off] == 0xFFu || mem[off] == 0x00u) {
        off++;
    }
    mem[off] ^= 0x10u;
    assert_int_equal(power_on(), FD_OK);
    assert_true(starts(cmd("STATUS"), "OK STATUS"));
    assert_non_null(strstr(out.text, " journal=failed"));
    size_t len = 0;
    assert_int_equal(fd_dealer_seed_file_read(&dealer, got, sizeof got, &len), FD_ERR_EMPTY);
    assert_null(memmem(&dealer, sizeof dealer, a, sizeof a));
    assert_true(starts(cmd("SHUFFLE"), "ERR"));
}

/* ---- a power cut at every erase/program step of a dealer session ---- */

/* 24 rounds over every mode and command that writes ahead; the last round
 * is left open. "@SEEDFILE" writes a new seed file. */
static const char *const round_kinds[6][8] = {
    {"SHUFFLE", "DEAL 2 3", "BURN", "DEAL 1 3", "REVEAL", NULL},
    {"SHUFFLE slots=2", "SEED 0 a1b2", "SEED 1 c3d4", "DEAL 5", "REVEAL", NULL},
    {"@BEACON", "SEED 1 0102", "CLOSE", "DEAL 3 2", "REVEAL", NULL},
    {"SHUFFLE drbg", "DEAL 4", "TIME 1700000000", "DEAL 2", "REVEAL", NULL},
    {"SHUFFLE full", "DEAL 60", "DEAL 10 4", "@SEEDFILE", "REVEAL", NULL},
    {"NEW french 6", "SHUFFLE drbg", "DEAL 130", "REVEAL", "SHUFFLE", "DEAL 7 2", "REVEAL", "NEW french 1"},
};
#define SESSION_ROUNDS 24

/* What the dealer acknowledged (an OK reply) before the cut. */
typedef struct acked {
    uint32_t round; /* newest round whose SHUFFLE was acknowledged */
    bool open;      /* not revealed yet */
    uint8_t commitment[FD_COMMIT_SIZE];
    uint16_t shown;                   /* cards of it shown by DEAL/BURN replies */
    fd_card order[FD_SHOE_MAX_CARDS]; /* its order as dealt so far (0..shown) */
    fd_round_seeds seeds;             /* client seeds acknowledged */
    uint8_t seed_file[32];
    bool seed_file_set;
    uint32_t times; /* TIME commands acknowledged */
} acked;

static acked ack;
static uint8_t seed_file_counter;

/* One session line; false once the power is off (the cut happened). */
static bool session_line(const char *line)
{
    if (strcmp(line, "@SEEDFILE") == 0) {
        uint8_t sf[32];
        memset(sf, ++seed_file_counter, sizeof sf);
        if (fd_dealer_seed_file_write(&dealer, sf, sizeof sf) == FD_OK) {
            memcpy(ack.seed_file, sf, sizeof sf);
            ack.seed_file_set = true;
        }
        return !hf.cut;
    }
    char beacon[64]; /* a beacon index is used once: the next round's id above 1000000 */
    if (strcmp(line, "@BEACON") == 0) {
        snprintf(beacon, sizeof beacon, "SHUFFLE slots=3 beacon=2:%lu", 1000001ul + dealer.round.id);
        line = beacon;
    }
    const char *reply = cmd(line);
    if (starts(reply, "OK SHUFFLE")) {
        ack.round = dealer.round.id;
        ack.open = true;
        ack.shown = 0;
        memcpy(ack.commitment, dealer.round.commitment, sizeof ack.commitment);
        memset(&ack.seeds, 0, sizeof ack.seeds);
    } else if (starts(reply, "OK SEED")) {
        ack.seeds = dealer.round.seeds;
    } else if (starts(reply, "OK DEAL") || starts(reply, "OK BURN")) {
        ack.shown = dealer.shoe.position;
        memcpy(ack.order, dealer.shoe.order, sizeof ack.order);
    } else if (starts(reply, "OK REVEAL")) {
        ack.open = false;
    } else if (starts(reply, "OK TIME")) {
        ack.times++;
    }
    return !hf.cut;
}

/* Runs the session; returns the flash steps it took (no cut) or stops at the cut. */
static uint64_t run_session(void)
{
    memset(&ack, 0, sizeof ack);
    seed_file_counter = 0;
    for (int r = 0; r < SESSION_ROUNDS; r++) {
        const char *const *lines = round_kinds[r % 6];
        for (int i = 0; i < 8 && lines[i] != NULL; i++) {
            if (r == SESSION_ROUNDS - 1 && strcmp(lines[i], "REVEAL") == 0) {
                return hf.steps; /* the last round stays open */
            }
            if (!session_line(lines[i])) {
                return hf.steps;
            }
        }
    }
    return hf.steps;
}

typedef struct found {
    uint32_t times; /* TIME_SET records */
    bool revealed;  /* a REVEAL of ack.round with its commitment */
} found;

static fd_status scan(void *ctx, const fd_journal_record *rec)
{
    found *f = ctx;
    if (rec->type == FD_REC_TIME_SET) {
        f->times++;
    }
    if (rec->type == FD_REC_REVEAL && rec->len >= 44u && rec->payload[0] == (uint8_t)ack.round &&
        memcmp(rec->payload + 12, ack.commitment, FD_COMMIT_SIZE) == 0) {
        f->revealed = true;
    }
    return FD_OK;
}

/* After the power comes back: the invariants of docs/PROTOCOL.md "Power loss". */
static void check_after_cut(uint64_t k, bool torn)
{
    char where[160];
    snprintf(where, sizeof where, "cut after step %llu%s in '%.90s'", (unsigned long long)k, torn ? " (torn)" : "",
             out.text);
    assert_int_equal(power_on(), FD_OK);
    if (dealer.persist.status != FD_OK) {
        fail_msg("%s: journal failed at mount: %s", where, dealer.persist.report.reason);
    }
    /* ids: nothing acknowledged is lost, nothing repeats */
    if (dealer.round.id < ack.round || dealer.round.id > ack.round + 1u) {
        fail_msg("%s: newest round %u, acknowledged %u", where, dealer.round.id, ack.round);
    }
    found f = {0, false};
    assert_int_equal(fd_dealer_journal_walk(&dealer, scan, &f), FD_OK);
    if (ack.open && f.revealed) {
        /* the cut hit the REVEAL after its record was durable: the round is
         * revealed in the journal (RECALL shows it), only the reply was lost */
        ack.open = false;
    }
    if (ack.open && dealer.round.id == ack.round) {
        /* the acknowledged open round is back, revealable, nothing shown is dealt again */
        if (!fd_dealer_round_open(&dealer) || memcmp(dealer.round.commitment, ack.commitment, FD_COMMIT_SIZE) != 0) {
            fail_msg("%s: open round %u not recovered (state %d, id %u, last reply %s)", where, ack.round,
                     (int)dealer.round.state, dealer.round.id, out.text);
        }
        if (dealer.shoe.position < ack.shown) {
            fail_msg("%s: %u cards shown, dealing resumes at %u", where, ack.shown, dealer.shoe.position);
        }
        for (unsigned s = 0; s < FD_ROUND_SLOTS; s++) {
            if (ack.seeds.len[s] != 0u && (dealer.round.seeds.len[s] != ack.seeds.len[s] ||
                                           memcmp(dealer.round.seeds.seed[s], ack.seeds.seed[s], ack.seeds.len[s]))) {
                fail_msg("%s: client seed %u lost", where, s);
            }
        }
    }
    if (fd_dealer_round_open(&dealer)) {
        const uint16_t resumed = dealer.shoe.position;
        if (dealer.round.closed && resumed < dealer.shoe.count) {
            uint16_t first = 0;
            assert_int_equal(fd_dealer_deal(&dealer, 1, 1, &first), FD_OK);
            assert_int_equal(first, resumed); /* never a card before it */
        }
        if (!starts(cmd("REVEAL"), "OK REVEAL")) {
            fail_msg("%s: open round %u not revealable: %s", where, dealer.round.id, out.text);
        }
        if (dealer.round.id == ack.round && ack.open) {
            /* the revealed order is the one the shown cards came from */
            assert_memory_equal(dealer.shoe.order, ack.order, ack.shown * sizeof(fd_card));
        }
    }
    {
        /* power-up rewrites the seed file before anything derived from it is
         * used (docs/ENTROPY.md "Device secret, seed file and the dealer"): a durable one, never the acknowledged one again */
        uint8_t got[64];
        size_t len = 0;
        assert_int_equal(fd_dealer_seed_file_read(&dealer, got, sizeof got, &len), FD_OK);
        if (dealer.seed_file != FD_SEED_FILE_SAVED || len != 32u ||
            (ack.seed_file_set && memcmp(got, ack.seed_file, 32) == 0)) {
            fail_msg("%s: seed file not rewritten at power-up", where);
        }
    }
    if (f.times < ack.times) {
        fail_msg("%s: %u TIME records, %u acknowledged", where, f.times, ack.times);
    }
    /* a new round gets a new id */
    const uint32_t before = dealer.round.id;
    if (!starts(cmd("SHUFFLE"), "OK SHUFFLE") || dealer.round.id != before + 1u || dealer.round.id <= ack.round) {
        fail_msg("%s: SHUFFLE after the cut: %s", where, out.text);
    }
}

static void test_cut_at_every_step(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    hf.steps = 0; /* count from the session's first command... */
    fresh_flash();
    trng_seed = 1000;
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 999);
    fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    cfg.storage = &hf.flash;
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK); /* ...including power-on's records */
    fd_console_init(&console, &dealer, capture_write, &out, false, false);
    const uint64_t steps = run_session();
    assert_false(dealer.persist.status != FD_OK);
    /* kinds 0-4 open one round, kind 5 two (one in the last, cut short) */
    assert_true(ack.open && ack.round == SESSION_ROUNDS + SESSION_ROUNDS / 6 - 1u);
    unsigned cuts = 0;
    for (int torn = 0; torn < 2; torn++) {
        for (uint64_t k = 0; k < steps; k++) {
            fresh_flash();
            hf.cut_after = k;
            hf.torn = torn != 0;
            fake_trng_init(&trng, FAKE_TRNG_RANDOM, 999);
            assert_int_equal(fd_dealer_init(&dealer, &cfg) == FD_OK || hf.cut, true);
            fd_console_init(&console, &dealer, capture_write, &out, false, false);
            (void)run_session();
            assert_true(hf.cut); /* the cut really happened inside the session */
            check_after_cut(k, torn != 0);
            cuts++;
        }
    }
    printf("cut test: %llu erase/program steps in a %u-round session; %u cuts (clean and torn), every invariant held\n",
           (unsigned long long)steps, ack.round, cuts);
}

/* ---- a beacon round across a power cut ---- */

/* The journal holds the beacon slot and index: the round recovered after a
 * cut recomputes the same commitment (recovery checks it), takes the
 * beacon value as SEED, and reveals with the beacon it committed to. */
static void test_beacon_round_across_a_cut(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    char before[80];
    char after[80];
    const char *r = cmd("SHUFFLE slots=2 beacon=1:1000000");
    assert_true(starts(r, "OK SHUFFLE mode=round "));
    assert_non_null(strstr(r, " slots=03 beacon=1:1000000 "));
    assert_non_null(reply_field(r, "commitment", before, sizeof before));
    assert_true(starts(cmd("SEED 0 706c61796572"), "OK SEED "));
    const uint32_t id = dealer.round.id;

    assert_int_equal(power_on(), FD_OK); /* the cut: RAM is lost */
    assert_int_equal(dealer.persist.status, FD_OK);
    assert_true(fd_dealer_round_open(&dealer));
    assert_int_equal(dealer.round.id, id);
    assert_int_equal(dealer.round.header.beacon_slot, 1);
    assert_int_equal(dealer.round.header.beacon_index, 1000000u);
    assert_true(starts(cmd("SEED 1 b3ac0e"), "OK SEED "));
    r = cmd("REVEAL");
    assert_true(starts(r, "OK REVEAL "));
    assert_non_null(strstr(r, " slots=03 beacon=1:1000000 "));
    assert_non_null(strstr(r, " seeds=0:706c61796572;1:b3ac0e "));
    assert_non_null(reply_field(r, "commitment", after, sizeof after));
    assert_string_equal(after, before);
    uint8_t commitment[FD_SHA256_SIZE];
    size_t len = 0;
    assert_int_equal(fd_hex_decode(before, strlen(before), commitment, sizeof commitment, &len), FD_OK);
    const fd_round *rd = &dealer.round;
    assert_int_equal(fd_round_verify(&rd->header, rd->secret, rd->secret_len, &rd->seeds, commitment, dealer.shoe.order,
                                     dealer.shoe.count),
                     FD_OK);
    /* and the same commitment does not verify without the beacon */
    fd_round_header none = rd->header;
    none.beacon_slot = FD_ROUND_NO_BEACON;
    none.beacon_index = 0;
    assert_int_not_equal(fd_round_verify(&none, rd->secret, rd->secret_len, &rd->seeds, commitment, dealer.shoe.order,
                                         dealer.shoe.count),
                         FD_OK);
}

static int verify_now(void);

/* ---- a beacon index is used once per slot (docs/PROTOCOL.md "SHUFFLE") ---- */

/* A verifiable round with one seed slot carrying beacon `beacon`, revealed:
 * the SHUFFLE's reply. */
static void beacon_round(const char *beacon, char *reply, size_t size)
{
    char line[64];
    snprintf(line, sizeof line, "SHUFFLE slots=2 beacon=%s", beacon);
    snprintf(reply, size, "%s", cmd(line));
    if (starts(reply, "OK SHUFFLE")) {
        assert_true(starts(cmd("SEED 0 00112233"), "OK SEED"));
        assert_true(starts(cmd("SEED 1 44556677"), "OK SEED"));
        assert_true(starts(cmd("DEAL 2"), "OK DEAL"));
        assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    }
}

/* A SHUFFLE with `beacon` is refused with the range error naming the last
 * index, and nothing is committed: the journal, the round id and the state
 * are what they were. */
static void beacon_refused(const char *beacon, const char *last)
{
    uint8_t head[FD_SHA256_SIZE], head2[FD_SHA256_SIZE];
    uint32_t next = 0, next2 = 0;
    assert_int_equal(fd_dealer_journal_head(&dealer, head, &next), FD_OK);
    const uint32_t id = dealer.round.id;
    const fd_dealer_state before = fd_dealer_get_state(&dealer);
    char reply[160];
    beacon_round(beacon, reply, sizeof reply);
    char want[120];
    snprintf(want, sizeof want,
             "ERR range the beacon index must be greater than %s, the last this device used in slot ", last);
    if (!starts(reply, want)) {
        fail_msg("beacon=%s: %s", beacon, reply);
    }
    assert_int_equal(fd_dealer_journal_head(&dealer, head2, &next2), FD_OK);
    assert_int_equal(next2, next);
    assert_memory_equal(head2, head, sizeof head);
    assert_int_equal(dealer.round.id, id);
    assert_int_equal(fd_dealer_get_state(&dealer), before);
    /* the dealer's own check, below the console */
    assert_int_equal(fd_dealer_open_round(&dealer, 2, (unsigned)(beacon[0] - '0'), strtoull(beacon + 2, NULL, 10)),
                     FD_ERR_STATE);
    assert_int_equal(dealer.round.id, id);
}

static uint32_t beacon_copies;
static fd_status find_beacon_copy(void *ctx, const fd_journal_record *rec)
{
    (void)ctx;
    beacon_copies += rec->type == FD_REC_BEACON_INDEX && rec->seq != rec->orig_seq;
    return FD_OK;
}

/* Two rounds with beacon=0:5: the second refused; across a restart; across
 * compaction (the slot's BEACON_INDEX copied, every round record of its
 * round long dropped); 2^64 - 1 then anything refused. */
static void test_beacon_index_used_once(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    char reply[160];
    beacon_round("0:5", reply, sizeof reply);
    assert_true(starts(reply, "OK SHUFFLE"));
    beacon_refused("0:5", "5");
    beacon_refused("0:4", "5");
    beacon_round("1:5", reply, sizeof reply); /* another slot has its own */
    assert_true(starts(reply, "OK SHUFFLE"));
    beacon_round("0:6", reply, sizeof reply);
    assert_true(starts(reply, "OK SHUFFLE"));

    assert_int_equal(power_on(), FD_OK); /* a restart */
    beacon_refused("0:6", "6");
    beacon_refused("1:5", "5");
    beacon_round("0:7", reply, sizeof reply);
    assert_true(starts(reply, "OK SHUFFLE"));

    /* compaction: rounds without a beacon until slot 0's record was copied */
    for (int round = 0; beacon_copies == 0u; round++) {
        assert_true(round < 3000);
        assert_true(starts(cmd("SHUFFLE drbg"), "OK SHUFFLE"));
        assert_true(starts(cmd("DEAL 4"), "OK DEAL"));
        assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
        beacon_copies = 0;
        assert_int_equal(fd_dealer_journal_walk(&dealer, find_beacon_copy, NULL), FD_OK);
    }
    assert_int_equal(power_on(), FD_OK);
    assert_int_equal(dealer.persist.status, FD_OK);
    beacon_refused("0:7", "7");
    beacon_refused("1:5", "5");

    beacon_round("0:18446744073709551615", reply, sizeof reply); /* the largest index */
    assert_true(starts(reply, "OK SHUFFLE"));
    beacon_refused("0:18446744073709551615", "18446744073709551615");
    beacon_refused("0:0", "18446744073709551615");
    assert_int_equal(power_on(), FD_OK);
    beacon_refused("0:18446744073709551615", "18446744073709551615");
    assert_int_equal(verify_now(), 0);
}

/* ---- the micro:bit budget: its storage area (FD_STORAGE_PAGES of 1 KiB) ---- */

typedef struct census {
    uint32_t hands;     /* ROUND_OPENED records live (rounds held in full) */
    uint32_t summaries; /* REVEAL records live */
    uint32_t events;
    uint32_t bytes; /* flash the live records take */
} census;

static fd_status count_live(void *ctx, const fd_journal_record *rec)
{
    census *c = ctx;
    c->hands += rec->type == FD_REC_ROUND_OPENED;
    c->summaries += rec->type == FD_REC_REVEAL;
    c->events += rec->type == FD_REC_POWER_ON || rec->type == FD_REC_SELFTEST || rec->type == FD_REC_FAULT ||
                 rec->type == FD_REC_TIME_SET;

    c->bytes += fd_journal_record_size(rec->len, rec->secret_len, rec->seq != rec->orig_seq);
    return FD_OK;
}

/* 400 rounds of a 4-seat table (52 cards, 2 cards each, then 5 board
 * cards, a burn, a client seed every other round, TIME and SELFTEST every
 * 25), restarted every 50: the ring holds the promised hands, summaries
 * and events, RECALL 10 shows every card of the last 10 hands, LOG the
 * events. Prints what it holds and what a round costs. */
static void test_microbit_budget(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    uint64_t programs_at_100 = 0, erases_at_100 = 0;
    for (int r = 1; r <= 400; r++) {
        if (r % 50 == 0) {
            assert_int_equal(power_on(), FD_OK);
        }
        if (r == 100) {
            programs_at_100 = hf.programs;
            erases_at_100 = hf.erases;
        }
        if (r % 2 == 0) {
            assert_true(starts(cmd("SHUFFLE slots=1"), "OK SHUFFLE"));
            assert_true(starts(cmd("SEED 0 0123456789abcdef"), "OK SEED"));
        } else {
            assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
        }
        assert_true(starts(cmd("DEAL 2 4"), "OK DEAL"));
        assert_true(starts(cmd("BURN"), "OK BURN"));
        assert_true(starts(cmd("DEAL 5"), "OK DEAL"));
        if (!starts(cmd("REVEAL"), "OK REVEAL")) {
            fail_msg("round %d: %s", r, out.text);
        }
        if (r % 25 == 0) {
            assert_true(starts(cmd("TIME 1800000000"), "OK TIME"));
            assert_true(starts(cmd("SELFTEST"), "OK SELFTEST"));
        }
    }
    census c = {0, 0, 0, 0};
    assert_int_equal(fd_dealer_journal_walk(&dealer, count_live, &c), FD_OK);
    assert_true(c.hands >= FD_DEALER_KEEP_HANDS);
    assert_true(c.summaries >= FD_DEALER_KEEP_SUMMARIES);
    assert_true(c.events >= 20u);
    /* RECALL 10: the hands kept in full, each with its commitment, cards
     * for every seat and its reveal; the older ones as their summaries */
    const char *recall = cmd("RECALL 10");
    assert_true(starts(recall, "OK RECALL newest=400 n=10"));
    unsigned hands = 0;
    for (unsigned id = 391; id <= 400; id++) {
        /* a hand may come in several groups (compaction moves records): merge them */
        char tag[16];
        snprintf(tag, sizeof tag, " | id=%u ", id);
        bool commitment = false, seat1 = false, seat4 = false, burn = false, reveal = false, summary = false;
        for (const char *p = strstr(recall, tag); p != NULL; p = strstr(p + 1, tag)) {
            const char *end = strstr(p + 1, " | id=");
            const size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
            char one[2048];
            assert_true(len < sizeof one);
            memcpy(one, p, len);
            one[len] = '\0';
            commitment = commitment || strstr(one, " commitment=") != NULL;
            seat1 = seat1 || strstr(one, "=1:") != NULL;
            seat4 = seat4 || strstr(one, ",4:") != NULL;
            burn = burn || strstr(one, "burn:") != NULL;
            reveal = reveal || strstr(one, " reveal0=") != NULL;
            summary = summary || strstr(one, " revealed=") != NULL;
        }
        if (!summary || (id > 400u - FD_DEALER_KEEP_HANDS && !(commitment && seat1 && seat4 && burn && reveal))) {
            fail_msg("RECALL 10: hand %u incomplete: %s", id, recall);
        }
        hands += commitment && seat1 && seat4 && burn && reveal ? 1u : 0u;
    }
    assert_true(hands >= FD_DEALER_KEEP_HANDS);
    assert_true(starts(cmd("LOG 20"), "OK LOG n=20 | seq="));
    /* a long open round: its records are copied forward by compaction
     * while it is open, and it still comes back whole after a restart */
    assert_true(starts(cmd("NEW french 8"), "OK NEW"));
    assert_true(starts(cmd("SHUFFLE slots=2"), "OK SHUFFLE"));
    uint8_t commitment[FD_COMMIT_SIZE];
    memcpy(commitment, dealer.round.commitment, sizeof commitment);
    assert_true(starts(cmd("SEED 1 77"), "OK SEED"));
    assert_true(starts(cmd("SEED 0 66"), "OK SEED"));
    const uint64_t erases = hf.erases;
    /* the whole shoe, one card per DEAL: no share of the journal runs out
     * (docs/RECORDS.md "Capacity") */
    const uint32_t cap = dealer.shoe.count;
    for (uint32_t i = 0; i < cap; i++) {
        if (!starts(cmd(i % 7u == 3u ? "BURN" : "DEAL 1"), i % 7u == 3u ? "OK BURN" : "OK DEAL")) {
            fail_msg("card %u of %u of the open round: %s", i, cap, out.text);
        }
    }
    assert_true(starts(cmd("DEAL 1"), "ERR exhausted"));
    assert_true(hf.erases > erases); /* the ring went round under the open round */
    fd_card dealt[FD_SHOE_MAX_CARDS];
    memcpy(dealt, dealer.shoe.order, sizeof dealt);
    assert_int_equal(power_on(), FD_OK);
    assert_int_equal(dealer.persist.status, FD_OK);
    assert_true(fd_dealer_round_open(&dealer) && dealer.round.id == 401u && dealer.shoe.position == cap);
    assert_memory_equal(dealer.round.commitment, commitment, sizeof commitment);
    assert_memory_equal(dealer.shoe.order, dealt, cap * sizeof(fd_card));
    if (!starts(cmd("REVEAL"), "OK REVEAL")) {
        fail_msg("REVEAL of the long round: %s", out.text);
    }
    assert_non_null(strstr(out.text, " seeds=0:66;1:77 "));
    uint32_t min = 0, max = 0;
    uint64_t total = 0;
    assert_int_equal(fd_journal_wear(&dealer.persist.journal, &min, &max, &total), FD_OK);
    printf("micro:bit budget (%u pages of %u B): holds %u hands in full, %u summaries, %u events (%u B live); "
           "per round %.1f programs, %.2f erases; erase counts %u..%u; a %u-card shoe dealt card by card\n",
           PAGES, PAGE, c.hands, c.summaries, c.events, c.bytes, (double)(hf.programs - programs_at_100) / 300.0,
           (double)(hf.erases - erases_at_100) / 300.0, min, max, cap);
}

/* ---- the reproductions (docs/RECORDS.md "Replay", "Capacity") ---- */

/* `fairdeal-tool verify --journal` on the flash as it is now: its exit code. */
static int verify_now(void)
{
    static const char path[] = "test_persist_journal.bin";
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(mem, 1, sizeof mem, f), sizeof mem);
    assert_int_equal(fclose(f), 0);
    uint8_t key[FD_SHA256_SIZE];
    assert_int_equal(fd_persist_journal_key(&dealer.secret, key), FD_OK);
    const int rc = fd_tool_verify_journal(path, key, sizeof key);
    (void)remove(path);
    return rc;
}

typedef struct order_probe {
    uint32_t opened_at, reveal_at, at; /* walk positions of round 1's records */
} order_probe;

static fd_status probe_order(void *ctx, const fd_journal_record *rec)
{
    order_probe *o = ctx;
    o->at++;
    uint32_t id = 0;
    if (fd_rec_round_id(rec->payload, rec->len, &id) == FD_OK && id == 1u) {
        o->opened_at = rec->type == FD_REC_ROUND_OPENED ? o->at : o->opened_at;
        o->reveal_at = rec->type == FD_REC_REVEAL ? o->at : o->reveal_at;
    }
    return FD_OK;
}

/* A revealed round never comes back: SHUFFLE, DEAL 5, forty TIMEs, REVEAL,
 * forty power-ups, then power-ups of ten TIMEs and a STATUS until compaction has copied the
 * round's ROUND_OPENED past its REVEAL (checked: the case the replay once
 * read as "open"), and on: never RECOVERED, DEAL refused, verify passes. */
static void test_revealed_round_never_returns(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
    assert_true(starts(cmd("DEAL 5"), "OK DEAL"));
    for (int i = 0; i < 40; i++) {
        assert_true(starts(cmd("TIME 1800000000"), "OK TIME"));
    }
    /* TIMEs no longer fill a page: 40 power-ups with the round open put
     * the REVEAL pages after ROUND_OPENED with garbage between, as the 40
     * TIMEs once did */
    for (int i = 0; i < 40; i++) {
        assert_int_equal(power_on(), FD_OK);
        assert_true(dealer.persist.recovered && fd_dealer_round_open(&dealer));
        assert_true(starts(cmd("TIME 1800000000"), "OK TIME"));
    }
    assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    unsigned after = 0; /* power-ups with ROUND_OPENED walked after REVEAL */
    unsigned ups = 0;
    for (; ups < 3000u && after < 3u; ups++) {
        assert_int_equal(power_on(), FD_OK);
        assert_false(dealer.persist.recovered);
        assert_false(fd_dealer_round_open(&dealer));
        for (int i = 0; i < 10; i++) {
            assert_true(starts(cmd("TIME 1800000000"), "OK TIME"));
        }
        assert_true(starts(cmd("STATUS"), "OK STATUS"));
        assert_true(starts(cmd("DEAL 3"), "ERR state"));
        order_probe o = {0, 0, 0};
        assert_int_equal(fd_dealer_journal_walk(&dealer, probe_order, &o), FD_OK);
        assert_true(o.reveal_at != 0u);
        after += o.opened_at > o.reveal_at ? 1u : 0u;
    }
    assert_true(after >= 3u); /* the case the old replay got wrong was met */
    assert_int_equal(verify_now(), 0);
    printf("resurrection: %u power-ups, ROUND_OPENED walked after its REVEAL in %u of them; never reopened\n", ups,
           after);
}

/* Forged records the dealer never writes, under the device key: a DEALT
 * after its round's REVEAL, a second REVEAL. verify --journal rejects each. */
static void test_verify_rejects_deals_after_reveal(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
    assert_true(starts(cmd("DEAL 2 2"), "OK DEAL"));
    assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    assert_int_equal(verify_now(), 0);
    static uint8_t saved[sizeof mem];
    memcpy(saved, mem, sizeof mem);
    /* a DEALT of the next position of round 1, after its REVEAL */
    static fd_rec_dealt t;
    memset(&t, 0, sizeof t);
    t.round_id = 1;
    t.first = 4;
    t.cards = 1;
    t.players = 1;
    t.card[0] = dealer.shoe.order[4];
    uint8_t b[FD_REC_DEALT_MAX];
    assert_int_equal(
        fd_journal_append(&dealer.persist.journal, FD_REC_DEALT, b, fd_rec_dealt_encode(&t, b), NULL, 0, NULL), FD_OK);
    assert_int_equal(verify_now(), 1);
    /* a second REVEAL of round 1 */
    memcpy(mem, saved, sizeof mem);
    assert_int_equal(power_on(), FD_OK);
    fd_rec_reveal r;
    memset(&r, 0, sizeof r);
    r.round_id = 1;
    uint8_t rb[FD_REC_REVEAL_SIZE];
    assert_int_equal(
        fd_journal_append(&dealer.persist.journal, FD_REC_REVEAL, rb, fd_rec_reveal_encode(&r, rb), NULL, 0, NULL),
        FD_OK);
    assert_int_equal(verify_now(), 1);
}

/* `fairdeal-tool verify --journal` on the flash as it is now, with what it
 * prints: its stdout and stderr into out and err (NUL-terminated). */
static int verify_printed(char *out_text, size_t out_size, char *err_text, size_t err_size)
{
    FILE *o = tmpfile();
    FILE *e = tmpfile();
    assert_non_null(o);
    assert_non_null(e);
    assert_int_equal(fflush(stdout), 0);
    assert_int_equal(fflush(stderr), 0);
    const int saved_out = dup(STDOUT_FILENO);
    const int saved_err = dup(STDERR_FILENO);
    assert_true(saved_out >= 0 && saved_err >= 0);
    assert_true(dup2(fileno(o), STDOUT_FILENO) >= 0 && dup2(fileno(e), STDERR_FILENO) >= 0);
    const int rc = verify_now();
    (void)fflush(stdout);
    (void)fflush(stderr);
    assert_true(dup2(saved_out, STDOUT_FILENO) >= 0 && dup2(saved_err, STDERR_FILENO) >= 0);
    (void)close(saved_out);
    (void)close(saved_err);
    rewind(o);
    rewind(e);
    out_text[fread(out_text, 1, out_size - 1u, o)] = '\0';
    err_text[fread(err_text, 1, err_size - 1u, e)] = '\0';
    (void)fclose(o);
    (void)fclose(e);
    return rc;
}

/* Appends a record to the dealer's journal under the device key (a record
 * the dealer never writes). */
static void forge(uint8_t type, const uint8_t *payload, size_t len)
{
    assert_int_equal(fd_journal_append(&dealer.persist.journal, type, payload, len, NULL, 0, NULL), FD_OK);
}

/* docs/PROTOCOL.md STATUS: the dealer's `seq`/`head` are to be compared "with
 * `fairdeal-tool verify --journal` on a dump", whose success is "one OK line
 * on stdout" (tools/verify_journal.h): its seq= and head= are the dealer's,
 * all 32 bytes of the head in hex.
 * Kills tools/verify_journal.c "for (size_t i = 0; i < sizeof head; i++)"
 * 0 -> 1: the head's first byte is left out of the OK line. */
static void test_verify_ok_line_carries_the_whole_head(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
    assert_true(starts(cmd("DEAL 2"), "OK DEAL"));
    assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    uint8_t head[FD_SHA256_SIZE];
    uint32_t next = 0;
    assert_int_equal(fd_journal_head(&dealer.persist.journal, head, &next), FD_OK);
    char want[128];
    int at = snprintf(want, sizeof want, " seq=%lu head=", (unsigned long)next);
    for (size_t i = 0; i < sizeof head; i++) {
        at += snprintf(want + at, sizeof want - (size_t)at, "%02x", head[i]);
    }
    (void)snprintf(want + at, sizeof want - (size_t)at, "\n");
    static char o[512], e[512];
    assert_int_equal(verify_printed(o, sizeof o, e, sizeof e), 0);
    assert_non_null(strstr(o, want));
}

/* `fairdeal-tool verify --journal` fails with exactly one stderr line:
 * "round <round_id>: <reason>". */
static void assert_verify_rejects_round(uint32_t round_id, const char *reason)
{
    static char o[512], e[512];
    char want[160];
    (void)snprintf(want, sizeof want, "fairdeal-tool: verify: journal: round %lu: %s\n", (unsigned long)round_id,
                   reason);
    assert_int_equal(verify_printed(o, sizeof o, e, sizeof e), 1);
    assert_string_equal(e, want);
}

/* docs/RECORDS.md "Replay": `fairdeal-tool verify --journal` rejects "a
 * position dealt twice"; a rejection is "1 with one line on stderr naming
 * the first bad record or round" (tools/verify_journal.h). A DEALT of position 0 again, the same card, before
 * the REVEAL: rejected, the reason on stderr.
 * Kills tools/verify_journal.c "return bad(w, r->id, "a card position dealt
 * twice");" status ignored: the repeat is taken and the journal verifies; and
 * "fprintf(stderr, "fairdeal-tool: verify: journal: %s\n", walk.why);"
 * deleted: the rejection says nothing. */
static void test_verify_rejects_a_position_dealt_twice(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
    assert_true(starts(cmd("DEAL 2 2"), "OK DEAL"));
    static fd_rec_dealt t;
    memset(&t, 0, sizeof t);
    t.round_id = dealer.round.id;
    t.first = 0;
    t.cards = 1;
    t.players = 1;
    t.card[0] = dealer.shoe.order[0];
    uint8_t b[FD_REC_DEALT_MAX];
    forge(FD_REC_DEALT, b, fd_rec_dealt_encode(&t, b));
    assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    assert_verify_rejects_round(t.round_id, "a card position dealt twice");
}

/* docs/PROTOCOL.md `SEED`: "A filled slot is never replaced" (docs/VERIFY.md:
 * slots are filled "each at most once"): a journal with a second CLIENT_SEED
 * of a filled slot, even with the same bytes, is rejected, with the reason
 * "client seed malformed or repeated" on stderr.
 * Kills tools/verify_journal.c "fd_rec_client_seed_decode(...) != FD_OK ||
 * r->seeds.len[c.slot] != 0u" || -> &&: a well-formed repeat is taken and the
 * journal verifies. */
static void test_verify_rejects_a_repeated_client_seed(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    assert_true(starts(cmd("SHUFFLE slots=1"), "OK SHUFFLE"));
    assert_true(starts(cmd("SEED 0 a1b2"), "OK SEED"));
    assert_true(starts(cmd("DEAL 2"), "OK DEAL"));
    fd_rec_client_seed c;
    memset(&c, 0, sizeof c);
    c.round_id = dealer.round.id;
    c.slot = 0;
    c.len = 2;
    c.seed[0] = 0xa1;
    c.seed[1] = 0xb2;
    uint8_t b[FD_REC_CLIENT_SEED_MAX];
    forge(FD_REC_CLIENT_SEED, b, fd_rec_client_seed_encode(&c, b));
    assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    assert_verify_rejects_round(c.round_id, "client seed malformed or repeated");
}

/* tools/verify_journal.h fd_tool_revealed_order: "NULL when the material
 * gives the commitment, else why not". A mode-2 round whose revealed S is
 * shorter than fd_round_secret_min derives no order: the reason says so.
 * Kills tools/verify_journal.c "the revealed S does not derive an order" ->
 * "": the rejection names no reason. */
static void test_revealed_order_names_an_s_that_derives_nothing(void **state)
{
    (void)state;
    static const fd_round_header header = {.device_id = "fairdeal-kat",
                                           .device_id_len = 12,
                                           .round_id = 1,
                                           .kind = FD_DECK_FRENCH,
                                           .decks = 1,
                                           .jokers = 0,
                                           .slot_mask = 0,
                                           .beacon_slot = FD_ROUND_NO_BEACON,
                                           .beacon_index = 0};
    static const fd_round_seeds seeds;
    static const uint8_t s[1] = {0};
    static const uint8_t commitment[FD_SHA256_SIZE];
    static fd_shoe order;
    const char *why =
        fd_tool_revealed_order(FD_RECORD_MODE_ROUND, &header, &seeds, 52, s, sizeof s, commitment, &order);
    assert_non_null(why);
    assert_string_equal(why, "the revealed S does not derive an order");
}

/* The evening of play that bricked the dealer: rounds of SHUFFLE slots=2,
 * two 16-byte seeds, sixteen DEAL 3, REVEAL, 400 in one run and 200 with a
 * restart before each; then 8-deck seeded rounds dealt one card per DEAL
 * with a TIME flood in each. Never an ERR, and the journal verifies. */
static void test_steady_rounds(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    for (int round = 1; round <= 600; round++) {
        if (round > 400) {
            assert_int_equal(power_on(), FD_OK);
        }
        if (!starts(cmd("SHUFFLE slots=2"), "OK SHUFFLE")) {
            fail_msg("round %d: %s", round, out.text);
        }
        assert_true(starts(cmd("SEED 0 00112233445566778899aabbccddeeff"), "OK SEED"));
        assert_true(starts(cmd("SEED 1 ffeeddccbbaa99887766554433221100"), "OK SEED"));
        for (int k = 0; k < 16; k++) {
            if (!starts(cmd("DEAL 3"), "OK DEAL")) {
                fail_msg("round %d deal %d: %s", round, k, out.text);
            }
        }
        if (!starts(cmd("REVEAL"), "OK REVEAL")) {
            fail_msg("round %d: %s", round, out.text);
        }
    }
    assert_true(starts(cmd("NEW french 8 2"), "OK NEW"));
    for (int round = 0; round < 8; round++) {
        assert_true(starts(cmd("SHUFFLE slots=3"), "OK SHUFFLE"));
        assert_true(starts(cmd("SEED 0 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"), "OK SEED"));
        assert_true(starts(cmd("SEED 1 77"), "OK SEED"));
        assert_true(starts(cmd("SEED 2 66"), "OK SEED"));
        for (uint32_t i = 0; i < dealer.shoe.count; i++) {
            if (!starts(cmd("DEAL 1"), "OK DEAL")) {
                fail_msg("8-deck round %d card %u: %s", round, i, out.text);
            }
            if (i % 100u == 0u) {
                for (int k = 0; k < 40; k++) {
                    assert_true(starts(cmd("TIME 1800000000"), "OK TIME"));
                }
            }
        }
        if (!starts(cmd("REVEAL"), "OK REVEAL")) {
            fail_msg("8-deck round %d: %s", round, out.text);
        }
        assert_int_equal(power_on(), FD_OK);
    }
    assert_int_equal(dealer.persist.status, FD_OK);
    assert_int_equal(verify_now(), 0);
    uint32_t min = 0, max = 0;
    uint64_t total = 0;
    assert_int_equal(fd_journal_wear(&dealer.persist.journal, &min, &max, &total), FD_OK);
    printf("steady rounds: 600 small rounds (200 with restarts) and 8 seeded 8-deck shoes dealt card by card: "
           "%llu erases (%u..%u per page)\n",
           (unsigned long long)total, min, max);
}

/* Every long walk kicks the watchdog: the mount once per record it reads
 * (at least once per live record), compaction while it copies. */
static fd_status count_record(void *ctx, const fd_journal_record *rec)
{
    (void)rec;
    (*(uint32_t *)ctx)++;
    return FD_OK;
}

static void test_watchdog_kicked_in_walks(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    uint64_t most_between = 0; /* kicks in the last append that compacted */
    for (int round = 0; round < 300; round++) {
        assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
        const uint32_t tail = dealer.persist.journal.tail_page_seq;
        const uint64_t before = kicks;
        assert_true(starts(cmd("DEAL 2 4"), "OK DEAL"));
        if (dealer.persist.journal.tail_page_seq != tail) {
            assert_true(kicks > before); /* the DEAL's append compacted: it kicked */
            most_between = kicks - before;
        }
        assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    }
    assert_true(most_between > 0u); /* a compaction was met */
    uint32_t live = 0;
    assert_int_equal(fd_dealer_journal_walk(&dealer, count_record, &live), FD_OK);
    kicks = 0;
    assert_int_equal(power_on(), FD_OK);
    assert_true(kicks >= live); /* the mount's one walk: a kick per record */
    printf("watchdog: %llu kicks in a mount of %u live records\n", (unsigned long long)kicks, live);
}

/* The wear budget (docs/RECORDS.md "Wear"): floods of TIME and SELFTEST
 * erase nothing; events of each kind survive a flood of another (LOG);
 * CUT is journalled, restored, and limited per round. Prints the erases a
 * round costs: a 4-seat round, an 8-deck shoe dealt card by card, an
 * 8-deck SHUFFLE/REVEAL loop (the most bytes per command). */
static void test_wear_budget(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    uint64_t e0 = hf.erases;
    for (int i = 0; i < 10000; i++) {
        assert_true(starts(cmd("TIME 1800000000"), "OK TIME"));
    }
    assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
    for (int i = 0; i < 10000; i++) {
        assert_true(starts(cmd("TIME 1800000001"), "OK TIME"));
    }
    const uint64_t flood = hf.erases - e0;
    assert_true(flood <= 1u); /* 20,000 TIMEs: two records, at most one page turn */
    assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    /* SELFTEST restarts the sources: one seed file (140 bytes) each, its
     * SELFTEST record once per round and power-on */
    e0 = hf.erases;
    for (int i = 0; i < 300; i++) {
        assert_true(starts(cmd("SELFTEST"), "OK SELFTEST"));
    }
    const double selftest = (double)(hf.erases - e0) / 300.0;
    assert_true(selftest <= 0.2);
    assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
    /* CUT: journalled while the round is open, restored, 4 per round */
    assert_true(starts(cmd("CUT 3"), "OK CUT"));
    assert_int_equal(power_on(), FD_OK);
    assert_true(fd_dealer_round_open(&dealer) && dealer.shoe.cut == 3u);
    assert_true(starts(cmd("CUT 3"), "OK CUT")); /* unchanged: nothing written */
    assert_true(starts(cmd("CUT 4"), "OK CUT"));
    assert_true(starts(cmd("CUT 5"), "OK CUT"));
    assert_true(starts(cmd("CUT 6"), "OK CUT"));
    assert_true(starts(cmd("CUT 7"), "ERR journal this round's cut has moved"));
    assert_int_equal(dealer.shoe.cut, 6u);
    assert_int_equal(power_on(), FD_OK);
    assert_int_equal(dealer.shoe.cut, 6u);
    assert_true(starts(cmd("CUT 7"), "ERR journal")); /* the count survives the restart */
    assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    /* events per kind: power-ons and self-tests stay in LOG through 100 rounds of TIMEs */
    for (int i = 0; i < 100; i++) {
        assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
        assert_true(starts(cmd("TIME 1800000002"), "OK TIME"));
        assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    }
    const char *log = cmd("LOG 32");
    assert_true(starts(log, "OK LOG n=32"));
    assert_non_null(strstr(log, "power-on cause="));
    assert_non_null(strstr(log, "selftest result="));
    assert_non_null(strstr(log, "time-set unix=1800000002"));
    /* erases per round, measured */
    e0 = hf.erases;
    for (int i = 0; i < 200; i++) {
        assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
        assert_true(starts(cmd("DEAL 2 4"), "OK DEAL"));
        assert_true(starts(cmd("BURN"), "OK BURN"));
        assert_true(starts(cmd("DEAL 5"), "OK DEAL"));
        assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    }
    const double small = (double)(hf.erases - e0) / 200.0;
    assert_true(starts(cmd("NEW french 8 2"), "OK NEW"));
    e0 = hf.erases;
    for (int i = 0; i < 4; i++) {
        assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
        for (uint32_t k = 0; k < dealer.shoe.count; k++) {
            assert_true(starts(cmd("DEAL 1"), "OK DEAL"));
        }
        assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    }
    const double shoe = (double)(hf.erases - e0) / 4.0;
    e0 = hf.erases;
    for (int i = 0; i < 100; i++) {
        assert_true(starts(cmd("SHUFFLE"), "OK SHUFFLE"));
        assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    }
    const double loop = (double)(hf.erases - e0) / 100.0;
    /* the budgets docs/RECORDS.md states (1 KiB pages) */
    assert_true(small <= 1.0 && shoe <= 40.0 && loop <= 4.0);
    printf("wear (98 x 1 KiB): 20,000 TIMEs %llu erases; SELFTEST %.3f erases each; 4-seat round %.2f erases; "
           "8-deck shoe card by card %.1f; 8-deck SHUFFLE+REVEAL %.2f\n",
           (unsigned long long)flood, selftest, small, shoe, loop);
}

/* A full 8-deck + 2-joker seeded shoe dealt one card per command, with a
 * power cut (clean, and torn every third) at every erase/program step of
 * the dealing: each time the dealer powers on over the flash, the round
 * is back with its commitment, no acknowledged card lost or dealt twice,
 * and the shoe is dealt to its end and revealed; the journal verifies. */
static uint8_t shoe_image[sizeof mem];
static host_flash shoe_flash; /* the store's state with it: programs per word since erase */

static void test_whole_shoe_cut_at_every_step(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    assert_true(starts(cmd("NEW french 8 2"), "OK NEW"));
    assert_true(starts(cmd("SHUFFLE slots=2"), "OK SHUFFLE"));
    assert_true(starts(cmd("SEED 0 00112233445566778899aabbccddeeff"), "OK SEED"));
    assert_true(starts(cmd("SEED 1 ffeeddccbbaa99887766554433221100"), "OK SEED"));
    uint8_t commitment[FD_SHA256_SIZE];
    memcpy(commitment, dealer.round.commitment, sizeof commitment);
    static fd_card order[FD_SHOE_MAX_CARDS];
    memcpy(order, dealer.shoe.order, sizeof order);
    const uint16_t count = dealer.shoe.count;
    assert_int_equal(count, 432u);
    memcpy(shoe_image, mem, sizeof mem);
    shoe_flash = hf;
    /* the uncut run: how many flash steps the dealing takes */
    const uint64_t start = hf.steps;
    for (uint16_t i = 0; i < count; i++) {
        assert_true(starts(cmd(i % 9u == 4u ? "BURN" : "DEAL 1"), "OK"));
    }
    const uint64_t steps = hf.steps - start;
    uint64_t cuts = 0;
    for (uint64_t k = 0; k < steps; k++) {
        memcpy(mem, shoe_image, sizeof mem);
        hf = shoe_flash;
        assert_int_equal(power_on(), FD_OK);
        assert_true(fd_dealer_round_open(&dealer));
        hf.cut_after = hf.steps + k;
        hf.torn = k % 3u == 1u;
        hf.tear_state = (uint32_t)(k * 2654435761u + 1u);
        uint16_t sent_ok = dealer.shoe.position;
        while (!hf.cut) {
            const char *r = cmd(sent_ok % 9u == 4u ? "BURN" : "DEAL 1");
            if (!hf.cut) {
                assert_true(starts(r, "OK"));
                sent_ok++;
            }
        }
        cuts++;
        assert_int_equal(power_on(), FD_OK);
        assert_int_equal(dealer.persist.status, FD_OK);
        assert_true(fd_dealer_round_open(&dealer) && dealer.round.id == 1u);
        assert_memory_equal(dealer.round.commitment, commitment, sizeof commitment);
        /* the cut command's card may have been journalled: at most one more */
        assert_true(dealer.shoe.position == sent_ok || dealer.shoe.position == sent_ok + 1u);
        assert_memory_equal(dealer.shoe.order, order, sizeof(fd_card) * count);
        if (k % 64u == 0u || k + 1u == steps) {
            /* now and then the rest of the shoe, the REVEAL and the check */
            while (dealer.shoe.position < count) {
                assert_true(starts(cmd("DEAL 1"), "OK DEAL"));
            }
            assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
            assert_int_equal(verify_now(), 0);
        }
    }
    printf("whole shoe: 432 cards one per command, %llu flash steps, a cut at each (every third torn): "
           "resumed and revealed\n",
           (unsigned long long)cuts);
}

/* SHUFFLE's reservation (docs/RECORDS.md "Capacity") on an area smaller
 * than the one the dealer is built for (52 of its 98 pages: room for one
 * 8-deck shoe dealt card by card and what is kept beside it, not two): a
 * round that cannot fit at its largest beside the revealed hand kept in
 * full is refused before anything is drawn or written, with a clear ERR
 * journal, and nothing changes (flash, dealer state, the previous round);
 * a smaller round fits, and once the big hand ages out of the kept
 * window the 8-deck shoe fits again. The dealer never runs out: without
 * the reservation the second 8-deck round is accepted and its 349th DEAL
 * answers ERR journal exhausted. */
static void test_shuffle_reservation_refuses_what_cannot_fit(void **state)
{
    (void)state;
    enum {
        SMALL = 52
    };
    memset(mem, 0xFF, sizeof mem); /* the pages past the small area stay blank (verify_now reads them all) */
    assert_int_equal(host_flash_open(&hf, mem, PAGE, SMALL, NULL), FD_OK);
    assert_int_equal(power_on(), FD_OK);
    assert_int_equal(FD_DEALER_KEEP_HANDS, 2u); /* one revealed hand kept in full */
    assert_true(starts(cmd("NEW french 8 2"), "OK NEW"));
    assert_true(starts(cmd("SHUFFLE drbg"), "OK SHUFFLE")); /* an empty journal: it fits */
    for (unsigned i = 0; i < FD_SHOE_MAX_CARDS; i++) {
        const char *r = cmd("DEAL 1");
        if (!starts(r, "OK DEAL")) {
            fail_msg("card %u: %s", i, r);
        }
    }
    assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    assert_true(fd_persist_hand_bytes(&dealer.persist, 1) > 22000u); /* 432 DEALT records and the round's others */
    static const char *const big[] = {"SHUFFLE drbg", "SHUFFLE full", "SHUFFLE slots=8", "SHUFFLE slots=0"};
    static uint8_t before[PAGE * SMALL];
    static fd_dealer dealer_before;
    for (unsigned i = 0; i < sizeof big / sizeof big[0]; i++) {
        memcpy(before, mem, sizeof before);
        memcpy(&dealer_before, &dealer, sizeof dealer);
        const uint64_t steps = hf.steps;
        const char *r = cmd(big[i]);
        if (!starts(r, "ERR journal this round at its largest does not fit the journal's free room: nothing "
                       "committed")) {
            fail_msg("%s beside a kept 8-deck hand on %u pages: %s", big[i], (unsigned)SMALL, r);
        }
        assert_int_equal(hf.steps, steps); /* not a word programmed or erased */
        assert_memory_equal(mem, before, sizeof before);
        assert_memory_equal(&dealer, &dealer_before, sizeof dealer); /* nothing drawn, nothing changed */
    }
    assert_int_equal(dealer.persist.status, FD_OK);
    assert_true(starts(cmd("NEW french 1 0"), "OK NEW"));
    assert_true(starts(cmd("SHUFFLE slots=8"), "OK SHUFFLE")); /* a 52-card round fits beside it */
    assert_int_equal(dealer.round.id, 2u);
    assert_true(starts(cmd("CLOSE"), "OK CLOSE"));
    assert_true(starts(cmd("DEAL 5 2"), "OK DEAL"));
    assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    /* round 1's hand is no longer kept in full: the 8-deck shoe fits again */
    assert_true(starts(cmd("NEW french 8 2"), "OK NEW"));
    assert_true(starts(cmd("SHUFFLE drbg"), "OK SHUFFLE"));
    for (unsigned i = 0; i < FD_SHOE_MAX_CARDS; i++) {
        assert_true(starts(cmd(i % 2u == 0u ? "DEAL 1" : "BURN"), "OK"));
    }
    assert_true(starts(cmd("REVEAL"), "OK REVEAL"));
    /* and the count survives a restart: the replay finds the same bytes */
    const uint32_t kept = fd_persist_kept_before(&dealer.persist, 4);
    assert_int_equal(power_on(), FD_OK);
    assert_int_equal(fd_persist_kept_before(&dealer.persist, 4), kept);
    assert_true(starts(cmd("NEW french 8 2"), "OK NEW"));
    assert_true(starts(cmd("SHUFFLE drbg"), "ERR journal this round at its largest"));
    assert_int_equal(verify_now(), 0);
    fresh_flash();
}

/* ---- the command table's journal column (docs/PROTOCOL.md "Commands") ---- */

/* Every command of the table, in an order where each succeeds (those the
 * host cannot carry out, VERIFY, UPDATE and PROVISION without a secret
 * page, are refused): a row marked FD_CONSOLE_JOURNAL_WRITES must succeed
 * here and append a record before its reply; every other row appends
 * none, whatever it answers. A command missing from the script fails the
 * test, so a new row is checked too. */
static const char *const every_command[] = {
    "HELP",        "ID",         "STATUS",      "MODE machine", "TIME 1700000000",
    "NEW french",  "LAB RAW 16", "VERIFY 0011", "UPDATE END",   "SHUFFLE slots=2",
    "SEED 0 0011", "CLOSE",      "CUT 10",      "DEAL 2 2",     "BURN",
    "REVEAL",      "SELFTEST",   "RECALL",      "LOG",          ("PROVISION " HEX64),
    "QUIT",
};

static uint32_t next_seq(void)
{
    uint8_t head[FD_SHA256_SIZE];
    uint32_t seq = 0;
    assert_int_equal(fd_dealer_journal_head(&dealer, head, &seq), FD_OK);
    return seq;
}

static void test_journal_column_matches_what_each_command_writes(void **state)
{
    (void)state;
    fresh_flash();
    assert_int_equal(power_on(), FD_OK);
    bool covered[64] = {false};
    for (size_t i = 0; i < sizeof every_command / sizeof every_command[0]; i++) {
        const char *line = every_command[i];
        const size_t word_len = strcspn(line, " ");
        const char *word = NULL;
        fd_console_journal journal = FD_CONSOLE_JOURNAL_NONE;
        size_t row = 0;
        while (fd_console_command_row(row, &word, &journal) &&
               !(strlen(word) == word_len && strncmp(word, line, word_len) == 0)) {
            row++;
        }
        if (word == NULL || row >= sizeof covered / sizeof covered[0] || strncmp(word, line, word_len) != 0) {
            fail_msg("%s: no row of the command table", line);
        }
        covered[row] = true;
        const uint32_t before = next_seq();
        const char *reply = cmd(line);
        const uint32_t after = next_seq();
        if (journal == FD_CONSOLE_JOURNAL_WRITES && (!starts(reply, "OK") || after <= before)) {
            fail_msg("%s (journalled): %u record(s) written; reply %s", line, (unsigned)(after - before), reply);
        }
        if (journal != FD_CONSOLE_JOURNAL_WRITES && after != before) {
            fail_msg("%s (not journalled): %u record(s) written; reply %s", line, (unsigned)(after - before), reply);
        }
    }
    const char *word = NULL;
    fd_console_journal journal = FD_CONSOLE_JOURNAL_NONE;
    for (size_t row = 0; fd_console_command_row(row, &word, &journal); row++) {
        if (row >= sizeof covered / sizeof covered[0] || !covered[row]) {
            fail_msg("row %s is not in the script", word);
        }
    }
    fresh_flash();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_file_without_journal),
        cmocka_unit_test(test_seed_file_durable_and_old_one_wiped),
        cmocka_unit_test(test_seed_file_kept_through_rotation),
        cmocka_unit_test(test_failed_mount_lends_nothing),
        cmocka_unit_test(test_beacon_round_across_a_cut),
        cmocka_unit_test(test_beacon_index_used_once),
        cmocka_unit_test(test_cut_at_every_step),
        cmocka_unit_test(test_microbit_budget),
        cmocka_unit_test(test_revealed_round_never_returns),
        cmocka_unit_test(test_verify_rejects_deals_after_reveal),
        cmocka_unit_test(test_verify_ok_line_carries_the_whole_head),
        cmocka_unit_test(test_verify_rejects_a_position_dealt_twice),
        cmocka_unit_test(test_verify_rejects_a_repeated_client_seed),
        cmocka_unit_test(test_revealed_order_names_an_s_that_derives_nothing),
        cmocka_unit_test(test_steady_rounds),
        cmocka_unit_test(test_watchdog_kicked_in_walks),
        cmocka_unit_test(test_wear_budget),
        cmocka_unit_test(test_whole_shoe_cut_at_every_step),
        cmocka_unit_test(test_shuffle_reservation_refuses_what_cannot_fit),
        cmocka_unit_test(test_journal_column_matches_what_each_command_writes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
