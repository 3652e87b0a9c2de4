/* The dealer's console protocol, driven byte by byte through fd_console_feed
 * exactly as the firmware's main loop does, with a fake TRNG: scripted
 * sessions with every reply checked, a table of bad input (each gets its own
 * ERR code and changes nothing), fail-closed behaviour when the TRNG fails,
 * and a long random session checking that every shuffle deals each card of
 * the shoe exactly once and that every commitment verifies after REVEAL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dealer.h"
#include "protocol.h"
#include "fairdeal/sha256.h"
#include "fairdeal/util.h"
#include "fake_trng.h"
#include "test_dealer_config.h"

/* The device id of the marked development secret (no secret page bound):
 * SHA-256("fairdeal/device-id" || test secret), first 8 bytes. */
#define TEST_DEVICE_ID "1e32457ab70fef54"

/* ---- harness ---- */

static void capture_write(void *ctx, const char *data, size_t len) { assert_true(capture_append(ctx, data, len)); }

static fd_dealer dealer;
static fd_dealer snapshot;
static fd_console console;
static fake_trng trng;
static capture out;

static unsigned restarts;
static fd_status restart_result;

static fd_status fake_restart(void *ctx)
{
    assert_true(ctx == &trng);
    restarts++;
    return restart_result;
}

/* A fresh fake source, then (separately, so a fault can be placed before
 * power-on) the dealer's init over it. */
static void prepare_source(fake_trng_mode mode)
{
    restarts = 0;
    restart_result = FD_OK;
    fake_trng_init(&trng, mode, 0x5eed);
}

static fd_status init_dealer(fd_drbg_kind kind)
{
    const fd_dealer_config cfg = test_dealer_config(&trng, fake_restart, kind);
    const fd_status st = fd_dealer_init(&dealer, &cfg);
    fd_console_init(&console, &dealer, capture_write, &out, false, false);
    return st;
}

static fd_status start_dealer(fd_drbg_kind kind, fake_trng_mode mode)
{
    prepare_source(mode);
    return init_dealer(kind);
}

/* Feed raw bytes; return what the dealer wrote. */
static const char *feed_bytes(const char *bytes, size_t len)
{
    out.len = 0;
    out.text[0] = '\0';
    for (size_t i = 0; i < len; i++) {
        /* the replies captured in out are what the tests check, errors included */
        (void)fd_console_feed(&console, (uint8_t)bytes[i]);
    }
    return out.text;
}

/* Send one command line; check there is exactly one well-formed reply line
 * and return it without its CR LF. */
static const char *cmd(const char *line)
{
    const char *reply = console_cmd(&console, &out, line);
    assert_non_null(reply);
    return reply;
}

static bool starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

static void assert_reply_starts(const char *reply, const char *prefix)
{
    if (!starts_with(reply, prefix)) {
        fprintf(stderr, "reply \"%s\" does not start with \"%s\"\n", reply, prefix);
        fail();
    }
}

/* The value of "key=" in a reply (up to the next space), or NULL. */
static const char *field(const char *reply, const char *key, char *value, size_t size)
{
    return reply_field(reply, key, value, size);
}

static unsigned long field_num(const char *reply, const char *key)
{
    char v[32];
    assert_non_null(field(reply, key, v, sizeof v));
    return strtoul(v, NULL, 10);
}

static void take_snapshot(void) { memcpy(&snapshot, &dealer, sizeof dealer); }

/* The whole dealer, byte for byte. */
static void assert_unchanged(void) { assert_memory_equal(&snapshot, &dealer, sizeof dealer); }

/* The banner, as a console in machine mode writes it. */
static void banner(capture *b)
{
    fd_console c;
    b->len = 0;
    b->text[0] = '\0';
    fd_console_init(&c, &dealer, capture_write, b, false, false);
    fd_console_start(&c);
}

/* A REVEAL reply's commitment, recomputed from its salt and order exactly as
 * docs/PROTOCOL.md tells a player to: sha256(salt_hex + " " + order). */
static void assert_commitment_verifies(const char *reveal, const char *commit_hex)
{
    char salt[40];
    assert_non_null(field(reveal, "salt", salt, sizeof salt));
    assert_int_equal(strlen(salt), 32);
    const char *order = strstr(reveal, " order=");
    assert_non_null(order);
    order += 7;
    fd_sha256_ctx h;
    uint8_t digest[32];
    char hex[65];
    fd_sha256_init(&h);
    fd_sha256_update(&h, salt, 32);
    fd_sha256_update(&h, " ", 1);
    fd_sha256_update(&h, order, strlen(order));
    fd_sha256_final(&h, digest);
    assert_int_equal(fd_hex_encode(digest, 32, hex, sizeof hex), FD_OK);
    assert_string_equal(hex, commit_hex);
}

/* Split "c1 c2 c3" (or "1:a,b 2:c,d") into codes. */
static size_t split_codes(const char *text, char codes[][4], size_t max)
{
    size_t n = 0;
    const char *p = text;
    while (*p != '\0') {
        while (*p == ' ' || *p == ',') {
            p++;
        }
        if (*p == '\0') {
            break;
        }
        const char *colon = strchr(p, ':');
        const size_t len = strcspn(p, " ,");
        if (colon != NULL && (size_t)(colon - p) < len) {
            p = colon + 1;
            continue;
        }
        assert_true(len >= 2u && len <= 3u);
        assert_true(n < max);
        memcpy(codes[n], p, len);
        codes[n][len] = '\0';
        n++;
        p += len;
    }
    return n;
}

/* The cards of a DEAL reply, between "OK DEAL" and " left=". */
static size_t dealt_codes(const char *reply, char codes[][4], size_t max)
{
    char body[2048];
    assert_reply_starts(reply, "OK DEAL ");
    const char *end = strstr(reply, " left=");
    assert_non_null(end);
    const size_t n = (size_t)(end - (reply + 8));
    assert_true(n < sizeof body);
    memcpy(body, reply + 8, n);
    body[n] = '\0';
    return split_codes(body, codes, max);
}

/* ---- scripted sessions ---- */

static void test_session_script(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    capture b;
    banner(&b);
    const char *text = b.text;
    assert_non_null(strstr(text, "fairdeal dealer " FAIRDEAL_VERSION_STRING " board=test drbg=chacha20\r\n"));
    assert_non_null(strstr(text, "entropy: fake, health tests RCT 11, APT 177/512\r\n"));
    assert_null(strstr(text, "EMULATION ONLY"));
    assert_null(strstr(text, "FAULT"));

    assert_reply_starts(cmd("HELP"), "OK HELP NEW <french|spanish40|spanish48>");
    assert_string_equal(
        cmd("status"),
        "OK STATUS board=test deck=french decks=1 cards=52 left=0 state=factory shuffles=0 "
        "cut=0 reshuffle=no entropy=ok health=ok reseeds=0 raw_samples=1536 drbg=chacha20 revealed=0 unrevealed=0 "
        "secret=test device=" TEST_DEVICE_ID " seedfile=none");
    assert_string_equal(cmd("DEAL 1"), "ERR state not shuffled: SHUFFLE first");
    assert_string_equal(cmd("REVEAL"), "ERR state no committed shuffle to reveal");
    assert_string_equal(cmd("NEW spanish40 2"), "OK NEW deck=spanish40 decks=2 jokers=0 cards=80");
    assert_string_equal(cmd("CUT 70"), "OK CUT 70");

    const char *r = cmd("SHUFFLE drbg");
    assert_reply_starts(r, "OK SHUFFLE id=1 mode=drbg cards=80 commit=");
    char commit[80];
    assert_non_null(field(r, "commit", commit, sizeof commit));
    assert_int_equal(strlen(commit), 64);

    char first[16][4];
    char players[16][4];
    assert_int_equal(dealt_codes(cmd("DEAL 5"), first, 16), 5);
    assert_int_equal(field_num(out.text, "left"), 75);
    r = cmd("DEAL 2 3");
    assert_reply_starts(r, "OK DEAL 1:");
    assert_non_null(strstr(r, " 2:"));
    assert_non_null(strstr(r, " 3:"));
    assert_int_equal(dealt_codes(r, players, 16), 6);
    assert_string_equal(cmd("BURN"), "OK BURN left=68");
    assert_string_equal(
        cmd("STATUS"),
        "OK STATUS board=test deck=spanish40 decks=2 cards=80 left=68 state=shuffled shuffles=1 "
        "cut=70 reshuffle=no entropy=ok health=ok reseeds=1 raw_samples=2048 drbg=chacha20 revealed=0 unrevealed=1 "
        "secret=test device=" TEST_DEVICE_ID " seedfile=none");

    r = cmd("REVEAL");
    assert_reply_starts(r, "OK REVEAL id=1 salt=");
    assert_commitment_verifies(r, commit);
    char order[80][4];
    assert_int_equal(split_codes(strstr(r, " order=") + 7, order, 80), 80);
    for (size_t i = 0; i < 5u; i++) {
        assert_string_equal(first[i], order[i]);
    }
    /* round-robin: player p's c-th card is the (5 + c * 3 + p)-th of the order;
     * the reply lists player 1's cards, then player 2's, then player 3's */
    for (size_t p = 0; p < 3u; p++) {
        for (size_t c = 0; c < 2u; c++) {
            assert_string_equal(players[p * 2u + c], order[5u + c * 3u + p]);
        }
    }
    /* two 40-card decks: each code exactly twice */
    for (size_t i = 0; i < 80u; i++) {
        unsigned same = 0;
        for (size_t j = 0; j < 80u; j++) {
            same += strcmp(order[i], order[j]) == 0 ? 1u : 0u;
        }
        assert_int_equal(same, 2);
    }
    assert_string_equal(cmd("DEAL 1"), "ERR state order already revealed: SHUFFLE first");
    assert_string_equal(cmd("REVEAL"), "ERR state no committed shuffle to reveal");
    assert_reply_starts(cmd("STATUS"), "OK STATUS board=test deck=spanish40 decks=2 cards=80 left=0 state=revealed");

    r = cmd("shuffle FULL");
    assert_reply_starts(r, "OK SHUFFLE id=2 mode=full cards=80 commit=");
    assert_non_null(field(r, "commit", commit, sizeof commit));
    char many[80][4];
    assert_int_equal(dealt_codes(cmd("DEAL 70"), many, 80), 70);
    assert_string_equal(cmd("STATUS") + strlen("OK STATUS board=test deck=spanish40 decks=2 cards=80 left=10 "),
                        "state=shuffled shuffles=2 cut=70 reshuffle=due entropy=ok health=ok reseeds=1 "
                        "raw_samples=2560 drbg=chacha20 revealed=1 unrevealed=1 secret=test device=" TEST_DEVICE_ID
                        " seedfile=none");
    assert_string_equal(cmd("DEAL 11"), "ERR exhausted only 10 cards left");
    assert_reply_starts(cmd("DEAL 10"), "OK DEAL ");
    assert_int_equal(field_num(out.text, "left"), 0);
    assert_string_equal(cmd("BURN"), "ERR exhausted no cards left");
    assert_commitment_verifies(cmd("REVEAL"), commit);
    assert_string_equal(cmd("NEW FRENCH 1 2"), "OK NEW deck=french decks=1 jokers=2 cards=54");
    assert_reply_starts(cmd("SELFTEST"), "OK SELFTEST kat=pass startup=pass samples=");
    assert_string_equal(cmd("QUIT"), "OK BYE");
    assert_true(dealer.quit);
}

static void test_dealing_to_the_last_card(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_HMAC_SHA256, FAKE_TRNG_RANDOM), FD_OK);
    assert_string_equal(cmd("NEW french 1 1"), "OK NEW deck=french decks=1 jokers=1 cards=53");
    char commit[80];
    assert_non_null(field(cmd("SHUFFLE drbg"), "commit", commit, sizeof commit));
    char dealt[53][4];
    size_t n = dealt_codes(cmd("DEAL 13 4"), dealt, 53);
    assert_int_equal(n, 52);
    assert_string_equal(cmd("DEAL 2"), "ERR exhausted only 1 cards left");
    n += dealt_codes(cmd("DEAL 1"), dealt + n, 53 - n);
    assert_int_equal(n, 53);
    assert_int_equal(field_num(out.text, "left"), 0);
    /* every card of the shoe exactly once */
    for (fd_card face = 0; face < 53u; face++) {
        char code[FD_CARD_CODE_SIZE];
        assert_int_equal(fd_card_format(face, FD_DECK_FRENCH, code), FD_OK);
        unsigned seen = 0;
        for (size_t i = 0; i < n; i++) {
            seen += strcmp(code, dealt[i]) == 0 ? 1u : 0u;
        }
        assert_int_equal(seen, 1);
    }
    assert_commitment_verifies(cmd("REVEAL"), commit);
    assert_non_null(strstr(cmd("STATUS"), " drbg=hmac-sha256"));
}

static void test_line_handling(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    /* CR LF is one line ending; empty lines get no reply */
    assert_string_equal(feed_bytes("\r\n\n\r", 4), "");
    assert_string_equal(feed_bytes("CUT 5\r\n", 7), "OK CUT 5\r\n");
    assert_string_equal(feed_bytes("  cut\t 6  \r", 11), "OK CUT 6\r\n");
    /* a line of exactly the maximum is accepted */
    char line[FD_CONSOLE_MAX_LINE + 2u];
    memset(line, ' ', sizeof line);
    memcpy(line, "CUT 7", 5);
    line[FD_CONSOLE_MAX_LINE] = '\n';
    assert_string_equal(feed_bytes(line, FD_CONSOLE_MAX_LINE + 1u), "OK CUT 7\r\n");
    /* one more character and the whole line goes, even though its first 80
     * characters would be a valid command */
    memcpy(line, "CUT 8", 5);
    line[FD_CONSOLE_MAX_LINE] = '9';
    line[FD_CONSOLE_MAX_LINE + 1u] = '\n';
    take_snapshot();
    assert_string_equal(feed_bytes(line, FD_CONSOLE_MAX_LINE + 2u),
                        "ERR toolong line longer than 144 characters discarded\r\n");
    assert_unchanged();
    /* the next line is parsed afresh */
    assert_string_equal(feed_bytes("CUT 9\n", 6), "OK CUT 9\r\n");
}

/* ---- bad input: each has its own code and changes nothing ---- */

typedef struct bad_case {
    const char *bytes;
    size_t len; /* 0 = strlen */
    const char *reply_prefix;
} bad_case;

static const bad_case bad_always[] = {
    {"FOO\n", 0, "ERR unknown "},
    {"DEALS 1\n", 0, "ERR unknown "},
    {"1\n", 0, "ERR unknown "},
    {"HELP me\n", 0, "ERR syntax "},
    {"NEW\n", 0, "ERR syntax "},
    {"NEW poker\n", 0, "ERR syntax "},
    {"NEW frenchfrenchfrench\n", 0, "ERR syntax "},
    {"NEW french x\n", 0, "ERR syntax "},
    {"NEW french -1\n", 0, "ERR syntax "},
    {"NEW french +1\n", 0, "ERR syntax "},
    {"NEW french 123456\n", 0, "ERR syntax "},
    {"NEW french 1 0 0\n", 0, "ERR syntax "},
    {"NEW french 0\n", 0, "ERR range "},
    {"NEW french 9\n", 0, "ERR range "},
    {"NEW french 99999\n", 0, "ERR range "},
    {"NEW french 1 3\n", 0, "ERR range "},
    {"NEW spanish40 1 1\n", 0, "ERR range "},
    {"NEW spanish48 8 2\n", 0, "ERR range "},
    {"SHUFFLE now\n", 0, "ERR syntax "},
    {"SHUFFLE full full\n", 0, "ERR syntax "},
    {"DEAL\n", 0, "ERR syntax "},
    {"DEAL x\n", 0, "ERR syntax "},
    {"DEAL 1x\n", 0, "ERR syntax "},
    {"DEAL -1\n", 0, "ERR syntax "},
    {"DEAL 1 2 3\n", 0, "ERR syntax "},
    {"DEAL 0\n", 0, "ERR range "},
    {"DEAL 433\n", 0, "ERR range "},
    {"DEAL 99999\n", 0, "ERR range "},
    {"DEAL 1 0\n", 0, "ERR range "},
    {"DEAL 1 9\n", 0, "ERR range "},
    {"BURN 1\n", 0, "ERR syntax "},
    {"CUT\n", 0, "ERR syntax "},
    {"CUT 1 2\n", 0, "ERR syntax "},
    {"CUT 53\n", 0, "ERR range "},
    {"REVEAL all\n", 0, "ERR syntax "},
    {"STATUS now\n", 0, "ERR syntax "},
    {"SELFTEST now\n", 0, "ERR syntax "},
    {"QUIT now\n", 0, "ERR syntax "},
    {"A B C D E F\n", 0, "ERR syntax too many arguments"},
    {"STA\0TUS\n", 8, "ERR badbyte "},
    {"\0\n", 2, "ERR badbyte "},
    {"DEAL 1\x01\n", 0, "ERR badbyte "},
    {"DEAL \xc3\xa9\n", 0, "ERR badbyte "},
    {"STATUS\x7f\n", 0, "ERR badbyte "},
    {"\x1b[A\n", 0, "ERR badbyte "},
    {"\xff\xfe\n", 0, "ERR badbyte "},
    {"STATUS                                                                            "
     "                                                                X\n",
     0, "ERR toolong "},
    {"SEED\n", 0, "ERR syntax "},
    {"SEED 0 0g\n", 0, "ERR syntax "},
    {"SEED 0 abc\n", 0, "ERR syntax "},
    {"CLOSE now\n", 0, "ERR syntax "},
    {"SHUFFLE slots=9\n", 0, "ERR range "},
    {"SHUFFLE slots=\n", 0, "ERR syntax "},
    {"SHUFFLE slots=1 full\n", 0, "ERR syntax "},
};

static void run_bad_cases(const bad_case *cases, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const size_t len = cases[i].len != 0u ? cases[i].len : strlen(cases[i].bytes);
        take_snapshot();
        const char *reply = feed_bytes(cases[i].bytes, len);
        if (!starts_with(reply, cases[i].reply_prefix) || strstr(reply, "\r\n") != reply + strlen(reply) - 2u) {
            fprintf(stderr, "case %zu: reply \"%s\", expected \"%s...\"\n", i, reply, cases[i].reply_prefix);
            fail();
        }
        assert_unchanged();
    }
}

#define RUN_BAD(table) run_bad_cases((table), sizeof(table) / sizeof((table)[0]))

static void test_bad_input_changes_nothing(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);

    /* factory order, never shuffled */
    RUN_BAD(bad_always);
    static const bad_case factory[] = {
        {"DEAL 1\n", 0, "ERR state "},
        {"BURN\n", 0, "ERR state "},
        {"REVEAL\n", 0, "ERR state "},
        {"SEED 0 00\n", 0, "ERR state no round open for seeds"},
        {"CLOSE\n", 0, "ERR state no round open for seeds"},
    };
    RUN_BAD(factory);

    /* shuffled, 50 of 52 dealt */
    assert_reply_starts(cmd("SHUFFLE drbg"), "OK SHUFFLE");
    assert_reply_starts(cmd("DEAL 25 2"), "OK DEAL");
    RUN_BAD(bad_always);
    static const bad_case nearly_empty[] = {
        {"DEAL 3\n", 0, "ERR exhausted only 2 cards left"},
        {"DEAL 2 2\n", 0, "ERR exhausted "},
        {"DEAL 1 3\n", 0, "ERR exhausted "},
    };
    RUN_BAD(nearly_empty);
    assert_reply_starts(cmd("DEAL 2"), "OK DEAL");
    static const bad_case empty[] = {
        {"DEAL 1\n", 0, "ERR exhausted "},
        {"BURN\n", 0, "ERR exhausted "},
    };
    RUN_BAD(empty);

    /* revealed */
    assert_reply_starts(cmd("REVEAL"), "OK REVEAL");
    RUN_BAD(bad_always);
    static const bad_case revealed[] = {
        {"DEAL 1\n", 0, "ERR state "},
        {"BURN\n", 0, "ERR state "},
        {"REVEAL\n", 0, "ERR state "},
    };
    RUN_BAD(revealed);

    /* entropy fault */
    trng.mode = FAKE_TRNG_STUCK;
    assert_reply_starts(cmd("SHUFFLE drbg"), "ERR entropy ");
    RUN_BAD(bad_always);
    static const bad_case faulted[] = {
        {"SHUFFLE drbg\n", 0, "ERR entropy health test failed (repetition count); SELFTEST required"},
        {"SHUFFLE full\n", 0, "ERR entropy "},
        {"DEAL 1\n", 0, "ERR entropy "},
        {"BURN\n", 0, "ERR entropy "},
        {"REVEAL\n", 0, "ERR state "},
    };
    RUN_BAD(faulted);
}

/* ---- fail closed ---- */

static void test_fault_mid_session_needs_selftest(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    assert_reply_starts(cmd("SHUFFLE drbg"), "OK SHUFFLE id=1");
    assert_reply_starts(cmd("DEAL 5"), "OK DEAL");
    assert_reply_starts(cmd("REVEAL"), "OK REVEAL id=1"); /* the next SHUFFLE needs the round closed */
    /* the source sticks from the next sample on */
    trng.switch_at = trng.delivered;
    trng.later_mode = FAKE_TRNG_STUCK;
    trng.value = 0x55;
    assert_string_equal(cmd("SHUFFLE drbg"), "ERR entropy health test failed (repetition count); SELFTEST required");
    assert_reply_starts(cmd("DEAL 1"), "ERR entropy ");
    assert_reply_starts(cmd("BURN"), "ERR entropy ");
    assert_string_equal(cmd("REVEAL"), "ERR state no committed shuffle to reveal");
    const char *r = cmd("STATUS");
    assert_non_null(strstr(r, " left=0 state=unshuffled "));
    assert_non_null(strstr(r, " entropy=fault health=rct-fail "));
    /* NEW does not clear the fault */
    assert_reply_starts(cmd("NEW french"), "OK NEW");
    assert_non_null(strstr(cmd("STATUS"), " left=0 state=unshuffled shuffles=1 "));
    assert_reply_starts(cmd("SHUFFLE full"), "ERR entropy ");
    /* SELFTEST fails while the source is still stuck */
    assert_reply_starts(cmd("SELFTEST"), "ERR entropy health test failed (repetition count)");
    assert_reply_starts(cmd("SHUFFLE drbg"), "ERR entropy ");
    /* repaired source: SELFTEST passes, dealing needs a fresh shuffle */
    trng.switch_at = 0;
    assert_string_equal(cmd("SELFTEST"), "OK SELFTEST kat=pass startup=pass samples=1536");
    assert_non_null(strstr(cmd("STATUS"), " entropy=ok health=ok "));
    assert_string_equal(cmd("DEAL 1"), "ERR state not shuffled: SHUFFLE first");
    assert_reply_starts(cmd("SHUFFLE drbg"), "OK SHUFFLE id=2");
    assert_reply_starts(cmd("DEAL 52"), "OK DEAL");
}

static void test_fault_inside_full_entropy_shuffle(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    assert_reply_starts(cmd("NEW french 8 2"), "OK NEW");
    assert_reply_starts(cmd("SHUFFLE drbg"), "OK SHUFFLE id=1");
    assert_reply_starts(cmd("DEAL 3"), "OK DEAL");
    assert_reply_starts(cmd("REVEAL"), "OK REVEAL id=1");
    const fd_shoe before = dealer.shoe;
    /* a 432-card shoe needs ~3,400 bits: 14 blocks of 160 samples. Fail the
     * hardware after about half of them. */
    trng.fault_at = trng.delivered + 1200u;
    trng.fault_status = FD_ERR_TRNG_HW;
    assert_string_equal(cmd("SHUFFLE full"), "ERR entropy TRNG hardware error; SELFTEST required");
    assert_int_equal(trng.faults, 1);
    assert_memory_equal(dealer.shoe.order, before.order, sizeof before.order); /* nothing half-shuffled */
    assert_false(dealer.shoe.shuffled);
    assert_reply_starts(cmd("DEAL 1"), "ERR entropy TRNG hardware error");
    assert_string_equal(cmd("SELFTEST"), "OK SELFTEST kat=pass startup=pass samples=1536");
    assert_reply_starts(cmd("SHUFFLE full"), "OK SHUFFLE id=2 mode=full cards=432");
}

static void test_fault_during_reseed_and_timeouts(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_HMAC_SHA256, FAKE_TRNG_RANDOM), FD_OK);
    /* The next sample times out. Reseeds may first use conditioned blocks
     * still pooled from earlier, healthy windows (at most
     * FD_ENTROPY_POOL_BLOCKS); the first SHUFFLE that reads the source fails. */
    trng.fault_at = trng.delivered + 1u;
    trng.fault_status = FD_ERR_TRNG_TIMEOUT;
    unsigned ok_shuffles = 0;
    while (starts_with(cmd("SHUFFLE drbg"), "OK SHUFFLE")) {
        assert_reply_starts(cmd("REVEAL"), "OK REVEAL");
        ok_shuffles++;
        assert_true(ok_shuffles <= FD_ENTROPY_POOL_BLOCKS);
        assert_int_equal(trng.faults, 0);
    }
    assert_string_equal(out.text, "ERR entropy TRNG timeout; SELFTEST required");
    assert_int_equal(trng.faults, 1);
    assert_reply_starts(cmd("DEAL 1"), "ERR entropy TRNG timeout");
    assert_non_null(strstr(cmd("STATUS"), " entropy=fault health=ok "));
    assert_reply_starts(cmd("SELFTEST"), "OK SELFTEST");
    /* a biased source fails the adaptive proportion test */
    trng.mode = FAKE_TRNG_BIASED;
    trng.p1_per_mille = 900; /* P(0xFF) = 0.43 against 2^-H = 0.25 */
    assert_string_equal(cmd("SELFTEST"), "ERR entropy health test failed (adaptive proportion); SELFTEST required");
    assert_non_null(strstr(cmd("STATUS"), " health=apt-fail "));
}

/* SELFTEST restarts the source (a driver's recovery sequence); a source
 * that will not restart keeps the dealer closed. */
static void test_selftest_restarts_the_source(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    assert_int_equal(restarts, 1);
    restart_result = FD_ERR_TRNG_HW;
    assert_string_equal(cmd("SELFTEST"), "ERR entropy TRNG hardware error; SELFTEST required");
    assert_int_equal(restarts, 2);
    assert_reply_starts(cmd("SHUFFLE drbg"), "ERR entropy TRNG hardware error");
    restart_result = FD_OK;
    assert_reply_starts(cmd("SELFTEST"), "OK SELFTEST");
    assert_int_equal(restarts, 3);
    assert_reply_starts(cmd("SHUFFLE drbg"), "OK SHUFFLE");
}

/* The full-entropy draw state keeps source bytes and a partial range (z, m)
 * between shuffles. Bits read before a fault, or before SELFTEST restarts
 * the source, must never be spent after it: both leave the state as
 * fd_fullentropy_init does (buffer wiped and empty, z = 0, m = 1). */
static void assert_full_entropy_state_fresh(void)
{
    static const uint8_t zeros[sizeof dealer.full.buffer];
    assert_memory_equal(dealer.full.buffer, zeros, sizeof zeros);
    assert_int_equal(dealer.full.buffer_pos, sizeof dealer.full.buffer);
    assert_true(dealer.full.z == 0u);
    assert_true(dealer.full.m == 1u);
}

static void assert_full_entropy_state_in_use(void)
{
    assert_true(dealer.full.m > 1u || dealer.full.buffer_pos < sizeof dealer.full.buffer);
}

static void test_fault_and_selftest_forget_buffered_bits(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    assert_reply_starts(cmd("SHUFFLE full"), "OK SHUFFLE id=1 mode=full");
    assert_full_entropy_state_in_use();
    assert_reply_starts(cmd("REVEAL"), "OK REVEAL id=1");
    assert_reply_starts(cmd("SELFTEST"), "OK SELFTEST");
    assert_full_entropy_state_fresh();
    assert_reply_starts(cmd("SHUFFLE full"), "OK SHUFFLE id=2 mode=full");
    assert_reply_starts(cmd("REVEAL"), "OK REVEAL id=2");
    assert_full_entropy_state_in_use();
    /* the source sticks: a DRBG reseed faults, not a full-entropy draw (the
     * first reseeds may still use blocks pooled from healthy windows) */
    trng.switch_at = trng.delivered;
    trng.later_mode = FAKE_TRNG_STUCK;
    trng.value = 0x55;
    const char *r = cmd("SHUFFLE drbg");
    for (unsigned i = 0; i < FD_ENTROPY_POOL_BLOCKS && starts_with(r, "OK SHUFFLE"); i++) {
        assert_reply_starts(cmd("REVEAL"), "OK REVEAL");
        assert_full_entropy_state_in_use();
        r = cmd("SHUFFLE drbg");
    }
    assert_reply_starts(r, "ERR entropy health test failed (repetition count)");
    assert_full_entropy_state_fresh();
}

static void test_fault_at_power_on(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_STUCK), FD_ERR_HEALTH);
    capture b;
    banner(&b);
    assert_non_null(strstr(b.text, "*** ENTROPY FAULT: health test failed (repetition count). Dealing is "
                                   "disabled until SELFTEST passes. ***\r\n"));
    assert_reply_starts(cmd("SHUFFLE drbg"), "ERR entropy ");
    assert_reply_starts(cmd("DEAL 1"), "ERR entropy ");
    trng.mode = FAKE_TRNG_RANDOM;
    assert_reply_starts(cmd("SELFTEST"), "OK SELFTEST");
    assert_reply_starts(cmd("SHUFFLE drbg"), "OK SHUFFLE id=1");
}

static void test_emulation_banner_and_null_config(void **state)
{
    (void)state;
    assert_int_equal(fd_dealer_init(NULL, NULL), FD_ERR_NULL);
    fd_dealer_config cfg = {0};
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_ERR_NULL);
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    dealer.cfg.emulation_only = true;
    capture b;
    banner(&b);
    assert_non_null(strstr(b.text, "*** EMULATION ONLY"));
}

/* ---- the fault matrix (docs/RELIABILITY.md) ---- */

typedef enum fault_phase {
    PHASE_STARTUP,     /* inside the power-on start-up tests */
    PHASE_RESEED,      /* from a SHUFFLE's DRBG reseed on */
    PHASE_FULL_SHUFFLE /* in the middle of a 432-card full-entropy SHUFFLE */
} fault_phase;

typedef struct fault_case {
    const char *name;
    fault_phase phase;
    fake_trng_mode mode; /* the source after onset (RANDOM: read errors only) */
    uint8_t value;
    size_t pattern_len;
    unsigned p1_per_mille;
    fd_status read_error; /* FD_OK: none */
    uint64_t error_every; /* 0: once */
    const char *reason;   /* in the ERR reply */
    uint32_t bound;       /* documented worst case, faulty samples read before detection */
    bool persists;        /* SELFTEST must fail until healed (a biased source
                                 * can pass 1,024 start-up samples: the APT only
                                 * counts each window's first value) */
} fault_case;

/* the first 3 make the period-3 row; the first 64 (pseudo-random, with
 * repeats) the period-64 row; bytes 64.. (filled by fill_long_pattern)
 * the long-period rows */
#define MATRIX_PATTERN_LEN 512u
static uint8_t matrix_pattern[MATRIX_PATTERN_LEN] = {
    0x3C, 0x96, 0xE1, 0x52, 0x0B, 0xC7, 0x7E, 0x29, 0x96, 0xD4, 0x61, 0x18, 0xAF, 0x3C, 0x85, 0xF2,
    0x4D, 0x90, 0x27, 0xBB, 0x6A, 0x13, 0xE8, 0x5F, 0xC1, 0x34, 0x9D, 0x76, 0x0E, 0xA2, 0x5F, 0xD9,
    0x88, 0x21, 0xF6, 0x4B, 0xB0, 0x67, 0x1C, 0xE3, 0x9A, 0x35, 0xCE, 0x70, 0x07, 0xAD, 0x58, 0xF1,
    0x42, 0x9F, 0x2B, 0xD6, 0x6D, 0x14, 0xBE, 0x81, 0x3A, 0xC5, 0x79, 0x02, 0xE7, 0x4E, 0x93, 0xFC};

static const fault_case fault_matrix[] = {
    {"stuck at 0", PHASE_RESEED, FAKE_TRNG_STUCK, 0x00, 0, 0, FD_OK, 0, "(repetition count)", 11, true},
    {"stuck at 1", PHASE_RESEED, FAKE_TRNG_STUCK, 0xFF, 0, 0, FD_OK, 0, "(repetition count)", 11, true},
    {"pattern, period 3", PHASE_RESEED, FAKE_TRNG_PATTERN, 0, 3, 0, FD_OK, 0, "(repeating pattern)", 19, true},
    {"pattern, period 9", PHASE_RESEED, FAKE_TRNG_PATTERN, 0, 9, 0, FD_OK, 0, "(repeating pattern)", 25, true},
    {"pattern, period 64", PHASE_RESEED, FAKE_TRNG_PATTERN, 0, 64, 0, FD_OK, 0, "(repeating pattern)", 80, true},
    {"counter i & 0xff", PHASE_RESEED, FAKE_TRNG_COUNTER, 0, 0, 0, FD_OK, 0, "(repeating pattern)", 16, true},
    {"pattern, period 128", PHASE_RESEED, FAKE_TRNG_PATTERN, 0, 128, 0, FD_OK, 0, "(repeating pattern)", 512, true},
    {"pattern, period 200", PHASE_RESEED, FAKE_TRNG_PATTERN, 0, 200, 0, FD_OK, 0, "(repeating pattern)", 1024, true},
    {"bias P(1) = 0.9", PHASE_RESEED, FAKE_TRNG_BIASED, 0, 0, 900, FD_OK, 0, "health test failed", 20480, false},
    {"intermittent HW error", PHASE_RESEED, FAKE_TRNG_RANDOM, 0, 0, 0, FD_ERR_TRNG_HW, 97, "hardware error", 0, true},
    {"timeout", PHASE_RESEED, FAKE_TRNG_RANDOM, 0, 0, 0, FD_ERR_TRNG_TIMEOUT, 0, "timeout", 0, false},
    {"stuck during start-up", PHASE_STARTUP, FAKE_TRNG_STUCK, 0x42, 0, 0, FD_OK, 0, "(repetition count)", 11, true},
    {"HW error during start-up", PHASE_STARTUP, FAKE_TRNG_RANDOM, 0, 0, 0, FD_ERR_TRNG_HW, 0, "hardware error", 0,
     false},
    {"stuck mid full shuffle", PHASE_FULL_SHUFFLE, FAKE_TRNG_STUCK, 0x00, 0, 0, FD_OK, 0, "(repetition count)", 11,
     true},
    {"bias mid full shuffle", PHASE_FULL_SHUFFLE, FAKE_TRNG_BIASED, 0, 0, 900, FD_OK, 0, "health test failed", 20480,
     false},
    {"HW error mid full shuffle", PHASE_FULL_SHUFFLE, FAKE_TRNG_RANDOM, 0, 0, 0, FD_ERR_TRNG_HW, 0, "hardware error", 0,
     false},
    {"timeout mid full shuffle", PHASE_FULL_SHUFFLE, FAKE_TRNG_RANDOM, 0, 0, 0, FD_ERR_TRNG_TIMEOUT, 0, "timeout", 0,
     false},
};

/* Bytes 64.. of the matrix pattern: xorshift bytes, fixed. */
static void fill_long_pattern(void)
{
    uint32_t x = 0x6b8b4567u;
    for (size_t i = 64; i < MATRIX_PATTERN_LEN; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        matrix_pattern[i] = (uint8_t)(x >> 24);
    }
}

/* Make the source go bad from sample number `onset` (1-based) on. */
static void inject(const fault_case *fc, uint64_t onset)
{
    if (fc->read_error != FD_OK) {
        trng.fault_at = onset;
        trng.fault_every = fc->error_every;
        trng.fault_status = fc->read_error;
    } else {
        trng.switch_at = onset - 1u; /* switch_at counts samples already delivered */
        trng.later_mode = fc->mode;
        trng.value = fc->value;
        trng.pattern = matrix_pattern;
        trng.pattern_len = fc->pattern_len;
        trng.p1_per_mille = fc->p1_per_mille;
    }
}

static void heal(void)
{
    trng.fault_at = 0;
    trng.switch_at = 0;
    trng.mode = FAKE_TRNG_RANDOM;
}

/* Faulty samples read up to and including the one that failed a health
 * test (the health tests restart with the start-up tests: at power-on,
 * sample 1 of the fake source is the tests' sample 1). Read errors: 0. */
static uint32_t detection_latency(const fault_case *fc, uint64_t onset)
{
    if (fc->read_error != FD_OK) {
        return 0;
    }
    assert_int_equal(dealer.entropy.health.failure != FD_HEALTH_NONE, true);
    return (uint32_t)(dealer.entropy.health.failed_at_sample - onset + 1u);
}

/* One row: the fault is seen within its bound, the dealer fails closed,
 * nothing is dealt from the affected shuffle, and only a passing SELFTEST
 * (once the source is good again) brings dealing back. */
static uint32_t run_fault_case(const fault_case *fc, uint64_t seed, unsigned detected_by[4])
{
    uint64_t onset = 0;
    const char *r;
    if (fc->phase == PHASE_STARTUP) {
        prepare_source(FAKE_TRNG_RANDOM);
        trng.prng = seed;
        onset = 200;
        inject(fc, onset);
        assert_int_not_equal(init_dealer(FD_DRBG_CHACHA20), FD_OK);
        r = cmd("SHUFFLE drbg");
    } else {
        assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
        trng.prng = seed;
        if (fc->phase == PHASE_FULL_SHUFFLE) {
            assert_reply_starts(cmd("NEW french 8 2"), "OK NEW");
        }
        assert_reply_starts(cmd("SHUFFLE drbg"), "OK SHUFFLE");
        assert_reply_starts(cmd("DEAL 5"), "OK DEAL");
        assert_reply_starts(cmd("REVEAL"), "OK REVEAL"); /* consumes no samples */
        onset = trng.delivered + (fc->phase == PHASE_FULL_SHUFFLE ? 700u : 1u);
        inject(fc, onset);
        /* pooled blocks from windows that passed before the onset may serve a
         * few reseeds; the first SHUFFLE that reads the source must fail */
        r = cmd(fc->phase == PHASE_FULL_SHUFFLE ? "SHUFFLE full" : "SHUFFLE drbg");
        for (int i = 0; i < 64 && starts_with(r, "OK SHUFFLE"); i++) {
            assert_reply_starts(cmd("DEAL 1"), "OK DEAL");
            assert_reply_starts(cmd("REVEAL"), "OK REVEAL");
            r = cmd("SHUFFLE drbg");
        }
    }
    assert_reply_starts(r, "ERR entropy ");
    assert_non_null(strstr(r, fc->reason));
    assert_true(fd_dealer_in_fault(&dealer));
    assert_false(dealer.shoe.shuffled);
    const uint32_t latency = detection_latency(fc, onset);
    detected_by[fc->read_error != FD_OK ? 0u : (unsigned)dealer.entropy.health.failure]++;
    assert_true(latency <= fc->bound);
    assert_non_null(strstr(cmd("STATUS"), " left=0 "));
    assert_non_null(strstr(cmd("STATUS"), " entropy=fault "));
    assert_reply_starts(cmd("DEAL 1"), "ERR entropy ");
    assert_reply_starts(cmd("BURN"), "ERR entropy ");
    assert_reply_starts(cmd("SHUFFLE drbg"), "ERR entropy ");
    if (fc->persists) {
        assert_reply_starts(cmd("SELFTEST"), "ERR entropy ");
    }
    heal();
    assert_reply_starts(cmd("SHUFFLE drbg"), "ERR entropy "); /* latched: healing alone is not enough */
    assert_reply_starts(cmd("DEAL 1"), "ERR entropy ");
    assert_reply_starts(cmd("SELFTEST"), "OK SELFTEST kat=pass startup=pass");
    assert_reply_starts(cmd("DEAL 1"), "ERR state");
    assert_reply_starts(cmd("SHUFFLE drbg"), "OK SHUFFLE");
    assert_reply_starts(cmd("DEAL 1"), "OK DEAL");
    return latency;
}

static void test_fault_matrix(void **state)
{
    (void)state;
    const char *env = getenv("FD_FAULT_SEEDS");
    const unsigned seeds = env != NULL ? (unsigned)strtoul(env, NULL, 10) : 200u;
    fill_long_pattern();
    printf("| fault | when | reply contains | caught by | bound (samples) | latency min / mean / max over %u seeds |\n",
           seeds);
    printf("|---|---|---|---|---|---|\n");
    static const char *const phases[] = {"start-up", "SHUFFLE reseed", "mid full-entropy SHUFFLE"};
    for (size_t i = 0; i < sizeof fault_matrix / sizeof fault_matrix[0]; i++) {
        const fault_case *fc = &fault_matrix[i];
        uint32_t lo = UINT32_MAX;
        uint32_t hi = 0;
        uint64_t sum = 0;
        unsigned detected_by[4] = {0};
        for (unsigned s = 0; s < seeds; s++) {
            const uint32_t l = run_fault_case(fc, 1000u + s, detected_by);
            lo = l < lo ? l : lo;
            hi = l > hi ? l : hi;
            sum += l;
        }
        char by[64];
        if (detected_by[0] > 0u) {
            (void)snprintf(by, sizeof by, "driver (read error)");
        } else {
            (void)snprintf(by, sizeof by, "%s%s%s", detected_by[FD_HEALTH_RCT] ? "RCT " : "",
                           detected_by[FD_HEALTH_APT] ? "APT " : "", detected_by[FD_HEALTH_LAG] ? "predictor " : "");
            by[strlen(by) - 1u] = '\0';
        }
        printf("| %s | %s | `%s` | %s | %u | %u / %.1f / %u |\n", fc->name, phases[fc->phase], fc->reason, by,
               fc->bound, lo, (double)sum / seeds, hi);
    }
}

/* ---- a long random session ---- */

typedef struct model {
    char factory[FD_SHOE_MAX_CARDS][4]; /* codes of the shoe in factory order */
    unsigned count;
    char dealt[FD_SHOE_MAX_CARDS][4]; /* in shoe order */
    unsigned dealt_count;
    bool committed;
    char commit[80];
    unsigned shuffles;
    unsigned full_rounds; /* shuffles dealt to the last card */
    unsigned reveals;
    unsigned errors;
} model;

static model m;

static int compare_codes(const void *a, const void *b) { return strcmp(a, b); }

static void model_new_shoe(const char *reply)
{
    char kind[16];
    assert_non_null(field(reply, "deck", kind, sizeof kind));
    fd_deck_kind k;
    assert_int_equal(fd_deck_parse_kind(kind, strlen(kind), &k), FD_OK);
    fd_shoe s;
    assert_int_equal(fd_shoe_init(&s, k, (unsigned)field_num(reply, "decks"), (unsigned)field_num(reply, "jokers")),
                     FD_OK);
    assert_int_equal(s.count, field_num(reply, "cards"));
    m.count = s.count;
    for (unsigned i = 0; i < s.count; i++) {
        assert_int_equal(fd_card_format(s.order[i], k, m.factory[i]), FD_OK);
    }
    m.dealt_count = 0;
    m.committed = false;
}

/* Each code occurs among codes[0..n) at most as often as in the factory
 * shoe ('?' = burned, unknown until REVEAL); with n = the shoe's size and no
 * burned cards, that is: every card exactly once. */
static void assert_within_the_shoe(char (*codes)[4], unsigned n)
{
    static char x[FD_SHOE_MAX_CARDS][4];
    static char y[FD_SHOE_MAX_CARDS][4];
    unsigned known = 0;
    for (unsigned i = 0; i < n; i++) {
        if (codes[i][0] != '?') {
            memcpy(x[known++], codes[i], 4);
        }
    }
    memcpy(y, m.factory, m.count * 4u);
    qsort(x, known, 4, compare_codes);
    qsort(y, m.count, 4, compare_codes);
    unsigned j = 0;
    for (unsigned i = 0; i < known; i++) {
        while (j < m.count && strcmp(y[j], x[i]) < 0) {
            j++;
        }
        assert_true(j < m.count);
        assert_string_equal(y[j], x[i]); /* present, and not used up by an earlier copy */
        j++;
    }
    if (n == m.count && known == n) {
        assert_memory_equal(x, y, n * 4u);
    }
}

static uint64_t soak_state = 0x243F6A8885A308D3ull;
static uint32_t soak_next(uint32_t bound)
{
    soak_state = soak_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((soak_state >> 33) % bound); /* test driver only: bias irrelevant */
}

static void soak_one(void)
{
    char line[96];
    const unsigned left = m.committed ? m.count - m.dealt_count : 0u;
    const uint32_t pick = soak_next(100);
    bool is_deal = false;
    unsigned want = 0;
    unsigned players = 1;
    if (pick < 3u) {
        static const char *const kinds[] = {"french", "spanish40", "spanish48", "French", "piquet"};
        (void)snprintf(line, sizeof line, "NEW %s %u %u", kinds[soak_next(5)], soak_next(10), soak_next(3));
    } else if (pick < 10u) {
        (void)snprintf(line, sizeof line, "SHUFFLE%s", soak_next(8) == 0u ? " full" : " drbg");
    } else if (pick < 55u) {
        is_deal = true;
        players = soak_next(4) + 1u;
        want = soak_next(6) + 1u;
        if (left > 0u && left < 12u && soak_next(2) == 0u) {
            want = left; /* finish the shoe */
            players = 1;
        }
        if (players == 1u) {
            (void)snprintf(line, sizeof line, "DEAL %u", want);
        } else {
            (void)snprintf(line, sizeof line, "DEAL %u %u", want, players);
        }
    } else if (pick < 62u) {
        (void)snprintf(line, sizeof line, "BURN");
        is_deal = true;
        want = 1;
    } else if (pick < 66u) {
        (void)snprintf(line, sizeof line, "REVEAL");
    } else if (pick < 70u) {
        (void)snprintf(line, sizeof line, "CUT %u", soak_next(m.count + 3u));
    } else if (pick < 80u) {
        (void)snprintf(line, sizeof line, "STATUS");
    } else {
        static const char *const junk[] = {"DEAL",   "DEAL 0",   "deal 1 9", "SHUFFLE x", "XYZZY", "NEW",
                                           "CUT -1", "REVEAL 1", "BURN 2",   "DEAL 500",  "HELP"};
        (void)snprintf(line, sizeof line, "%s", junk[soak_next(11)]);
    }

    take_snapshot();
    const char *r = cmd(line);
    if (r[0] == 'E') {
        m.errors++;
        assert_unchanged();
        assert_false(starts_with(r, "ERR entropy"));
        if (is_deal && m.committed && want * players > left) {
            assert_reply_starts(r, "ERR exhausted");
        }
        return;
    }
    if (starts_with(r, "OK NEW")) {
        model_new_shoe(r);
    } else if (starts_with(r, "OK SHUFFLE")) {
        m.shuffles++;
        assert_int_equal(field_num(r, "id"), m.shuffles);
        assert_int_equal(field_num(r, "cards"), m.count);
        assert_non_null(field(r, "commit", m.commit, sizeof m.commit));
        m.committed = true;
        m.dealt_count = 0;
    } else if (starts_with(r, "OK DEAL")) {
        static char codes[FD_SHOE_MAX_CARDS][4];
        const size_t n = dealt_codes(r, codes, FD_SHOE_MAX_CARDS);
        assert_int_equal(n, want * players);
        /* reorder player-major reply into shoe order */
        for (unsigned c = 0; c < want; c++) {
            for (unsigned p = 0; p < players; p++) {
                memcpy(m.dealt[m.dealt_count + c * players + p], codes[p * want + c], 4);
            }
        }
        m.dealt_count += (unsigned)n;
        assert_int_equal(field_num(r, "left"), m.count - m.dealt_count);
        assert_within_the_shoe(m.dealt, m.dealt_count);
        if (m.dealt_count == m.count) {
            m.full_rounds++;
        }
    } else if (starts_with(r, "OK BURN")) {
        m.dealt[m.dealt_count][0] = '?'; /* burned: revealed order tells which */
        m.dealt_count++;
        assert_int_equal(field_num(r, "left"), m.count - m.dealt_count);
    } else if (starts_with(r, "OK REVEAL")) {
        assert_true(m.committed);
        assert_commitment_verifies(r, m.commit);
        static char order[FD_SHOE_MAX_CARDS][4];
        const size_t n = split_codes(strstr(r, " order=") + 7, order, FD_SHOE_MAX_CARDS);
        assert_int_equal(n, m.count);
        assert_within_the_shoe(order, (unsigned)n);
        for (unsigned i = 0; i < m.dealt_count; i++) {
            if (m.dealt[i][0] != '?') {
                assert_string_equal(m.dealt[i], order[i]);
            }
        }
        m.committed = false;
        m.reveals++;
    } else if (starts_with(r, "OK STATUS")) {
        assert_int_equal(field_num(r, "left"), m.committed ? m.count - m.dealt_count : 0u);
        assert_int_equal(field_num(r, "shuffles"), m.shuffles);
        assert_int_equal(field_num(r, "cards"), m.count);
        /* no round disappears: every shuffle is revealed or still open */
        assert_int_equal(field_num(r, "revealed"), m.reveals);
        assert_int_equal(field_num(r, "unrevealed"), m.committed ? 1u : 0u);
    }
}

static void test_long_random_session(void **state)
{
    (void)state;
    const char *env = getenv("FD_SOAK_COMMANDS");
    const unsigned long commands = env != NULL ? strtoul(env, NULL, 10) : 100000ul;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    memset(&m, 0, sizeof m);
    model_new_shoe(cmd("NEW french 1"));
    for (unsigned long i = 0; i < commands; i++) {
        soak_one();
    }
    printf("soak: %lu commands, %u shuffles, %u dealt to the last card, %u reveals verified, %u errors\n", commands,
           m.shuffles, m.full_rounds, m.reveals, m.errors);
    assert_true(m.full_rounds > commands / 1000u);
    assert_true(m.reveals > commands / 100u);
}

/* ---- no round disappears (docs/PROTOCOL.md "Round") ---- */

/* Each command that would replace, re-test or abandon an open round is
 * refused, whichever SHUFFLE mode is asked for; after a memory fault the
 * SHUFFLEs meet the fault first. */
static void refuse_dropping_the_round(bool memory_fault)
{
    static const char *const drops[] = {"NEW french", "SELFTEST", "QUIT"};
    static const char *const shuffles[] = {"SHUFFLE", "SHUFFLE slots=1", "SHUFFLE drbg", "SHUFFLE full"};
    for (size_t i = 0; i < sizeof drops / sizeof drops[0]; i++) {
        assert_string_equal(cmd(drops[i]), "ERR state round open: REVEAL first");
    }
    for (size_t i = 0; i < sizeof shuffles / sizeof shuffles[0]; i++) {
        if (memory_fault) {
            assert_reply_starts(cmd(shuffles[i]), "ERR corrupt ");
        } else {
            assert_string_equal(cmd(shuffles[i]), "ERR state round open: REVEAL first");
        }
    }
    assert_false(dealer.quit);
    /* a transport's command that must not run beside a round (FD_CMD_IDLE),
     * PROVISION and LAB are refused too, fault or not */
    static const char *const idle[] = {"PROVISION 8d3f0a61c2e94b57a6d0e1f2c3b4a5968778695a4b3c2d1e0f00112233445566",
                                       "LAB RAW 4", "LAB CARDS 4"};
    for (size_t i = 0; i < sizeof idle / sizeof idle[0]; i++) {
        take_snapshot();
        assert_string_equal(cmd(idle[i]), "ERR state round open: REVEAL first");
        assert_unchanged();
    }
    assert_int_equal(fd_dealer_admit(&dealer, FD_CMD_IDLE), FD_ERR_STATE);
}

/* Every way to drop an open round, tried by a dishonest operator: each is
 * refused, or (a fault) stops dealing but keeps the round revealable; the
 * REVEAL that finally comes verifies against the commitment. */
static void test_no_round_disappears(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    char commit[80];
    assert_non_null(field(cmd("SHUFFLE drbg"), "commit", commit, sizeof commit));
    char first[2][4];
    assert_int_equal(dealt_codes(cmd("DEAL 2"), first, 2), 2);
    take_snapshot();
    refuse_dropping_the_round(false);
    assert_unchanged();
    assert_non_null(strstr(cmd("STATUS"), " state=shuffled shuffles=1 "));
    assert_non_null(strstr(out.text, " revealed=0 unrevealed=1"));

    /* a fault (memory corrupted under the dealer) stops dealing, keeps the round */
    dealer.shoe.order[10] = dealer.shoe.order[11]; /* a card twice, one missing */
    const fd_card lost_card = snapshot.shoe.order[10];
    assert_string_equal(cmd("DEAL 1"), "ERR corrupt memory integrity check failed; REVEAL, then SELFTEST required");
    assert_true(fd_dealer_in_fault(&dealer));
    assert_int_equal(dealer.shoe.position, 2);
    assert_reply_starts(cmd("BURN"), "ERR corrupt ");
    refuse_dropping_the_round(true);
    assert_non_null(strstr(cmd("STATUS"), " left=0 state=committed shuffles=1 "));
    assert_non_null(strstr(out.text, " entropy=memory-fault "));
    assert_non_null(strstr(out.text, " revealed=0 unrevealed=1"));
    /* REVEAL publishes what is in memory: the cards dealt are its first, and
     * the corruption shows (it no longer hashes to the commitment) */
    const char *r = cmd("REVEAL");
    assert_reply_starts(r, "OK REVEAL id=1 ");
    char order[52][4];
    assert_int_equal(split_codes(strstr(r, " order=") + 7, order, 52), 52);
    assert_string_equal(order[0], first[0]);
    assert_string_equal(order[1], first[1]);
    char lost_code[FD_CARD_CODE_SIZE];
    assert_int_equal(fd_card_format(lost_card, FD_DECK_FRENCH, lost_code), FD_OK);
    assert_string_not_equal(order[10], lost_code);
    assert_non_null(strstr(cmd("STATUS"), " revealed=1 unrevealed=0"));
    /* out of the fault: a fresh shoe, since the old one cannot be trusted */
    assert_reply_starts(cmd("SELFTEST"), "OK SELFTEST");
    assert_non_null(strstr(cmd("STATUS"), " state=factory "));
    assert_int_equal(fd_shoe_check(&dealer.shoe), FD_OK);

    /* an entropy fault can only strike with no round open (SHUFFLE and
     * SELFTEST need one closed), and leaves nothing unrevealed */
    assert_non_null(field(cmd("SHUFFLE drbg"), "commit", commit, sizeof commit));
    assert_commitment_verifies(cmd("REVEAL"), commit);
    trng.mode = FAKE_TRNG_STUCK;
    assert_reply_starts(cmd("SHUFFLE drbg"), "ERR entropy ");
    assert_non_null(strstr(cmd("STATUS"), " revealed=2 unrevealed=0"));
    assert_string_equal(cmd("REVEAL"), "ERR state no committed shuffle to reveal");
    trng.mode = FAKE_TRNG_RANDOM;
    assert_reply_starts(cmd("SELFTEST"), "OK SELFTEST");
    assert_non_null(field(cmd("SHUFFLE drbg"), "commit", commit, sizeof commit));
    assert_commitment_verifies(cmd("REVEAL"), commit);
    assert_string_equal(cmd("QUIT"), "OK BYE");
}

/* The verifiable round's states: open for seeds (SEEDING), then closed and
 * dealing. Every way to drop it is refused, a filled slot is never
 * replaced, no card leaves before CLOSE, and a memory fault while seeds are
 * open still ends in a REVEAL that publishes S and the seeds. */
static void test_verifiable_round_never_disappears(void **state)
{
    (void)state;
    assert_int_equal(fd_round_secret_min(FD_SHOE_MAX_CARDS), FD_DEALER_SECRET_MAX);
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    char commitment[80];
    const char *r = cmd("SHUFFLE slots=2");
    assert_reply_starts(r, "OK SHUFFLE mode=round device=" TEST_DEVICE_ID
                           " id=1 shoe=french:1:0 slots=03 beacon=none cards=52 ");
    assert_non_null(field(r, "commitment", commitment, sizeof commitment));
    assert_non_null(strstr(r, " state=seeding"));
    take_snapshot();
    assert_string_equal(cmd("DEAL 1"), "ERR state round open for seeds: CLOSE first");
    assert_string_equal(cmd("BURN"), "ERR state round open for seeds: CLOSE first");
    refuse_dropping_the_round(false);
    assert_string_equal(cmd("SEED 2 aa"), "ERR range slot not accepted by this round");
    assert_reply_starts(cmd("SEED 0 "
                            "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
                            "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff01"),
                        "ERR syntax "); /* 65 bytes */
    assert_unchanged();
    assert_string_equal(cmd("SEED 0 aa"), "OK SEED id=1 slot=0 state=seeding");
    assert_string_equal(cmd("SEED 0 bb"), "ERR state slot already filled: a seed is never replaced");
    assert_int_equal(dealer.round.seeds.seed[0][0], 0xaa);
    assert_non_null(strstr(cmd("STATUS"), " left=0 state=seeding shuffles=1 "));
    assert_non_null(strstr(out.text, " revealed=0 unrevealed=1"));

    /* memory damaged while seeds are open: seeding stops, the round stays */
    dealer.round.secret[0] ^= 1u;
    assert_string_equal(cmd("SEED 1 cc"), "ERR corrupt memory integrity check failed; REVEAL, then SELFTEST required");
    assert_reply_starts(cmd("CLOSE"), "ERR corrupt ");
    refuse_dropping_the_round(true);
    assert_non_null(strstr(cmd("STATUS"), " state=committed "));
    r = cmd("REVEAL");
    assert_reply_starts(r, "OK REVEAL device=" TEST_DEVICE_ID " id=1 shoe=french:1:0 slots=03 beacon=none secret=");
    assert_non_null(strstr(r, " seeds=0:aa commitment="));
    assert_non_null(strstr(r, " label=seeded"));
    /* the damage shows: S no longer matches the commitment */
    assert_int_equal(fd_round_verify(&dealer.round.header, dealer.round.secret, dealer.round.secret_len,
                                     &dealer.round.seeds, dealer.round.commitment, dealer.shoe.order,
                                     dealer.shoe.count),
                     FD_ERR_CORRUPT);
    assert_non_null(strstr(cmd("STATUS"), " revealed=1 unrevealed=0"));
    assert_reply_starts(cmd("SELFTEST"), "OK SELFTEST");

    /* the last slot filled closes the round; seeds are refused from then on */
    assert_non_null(field(cmd("SHUFFLE slots=1"), "commitment", commitment, sizeof commitment));
    assert_string_equal(cmd("SEED 0 706c61796572"), "OK SEED id=2 slot=0 state=closed label=seeded");
    assert_string_equal(cmd("SEED 0 00"), "ERR state no round open for seeds");
    assert_string_equal(cmd("CLOSE"), "ERR state no round open for seeds");
    char first[2][4];
    assert_int_equal(dealt_codes(cmd("DEAL 2"), first, 2), 2);
    assert_reply_starts(cmd("REVEAL"), "OK REVEAL device=" TEST_DEVICE_ID " id=2 ");
    assert_non_null(strstr(out.text, " seeds=0:706c61796572 commitment="));
    assert_int_equal(fd_round_verify(&dealer.round.header, dealer.round.secret, dealer.round.secret_len,
                                     &dealer.round.seeds, dealer.round.commitment, dealer.shoe.order,
                                     dealer.shoe.count),
                     FD_OK);
    char code[FD_CARD_CODE_SIZE];
    assert_int_equal(fd_card_format(dealer.shoe.order[1], FD_DECK_FRENCH, code), FD_OK);
    assert_string_equal(code, first[1]);

    /* REVEAL straight from seeding: the order is fixed by what was received */
    assert_reply_starts(cmd("SHUFFLE slots=8"), "OK SHUFFLE mode=round");
    r = cmd("REVEAL");
    assert_reply_starts(r, "OK REVEAL device=" TEST_DEVICE_ID " id=3 shoe=french:1:0 slots=ff beacon=none ");
    assert_non_null(strstr(r, " seeds=none "));
    assert_non_null(strstr(r, " label=house-only"));
    /* house-only: SHUFFLE alone is closed at once */
    assert_reply_starts(cmd("SHUFFLE"), "OK SHUFFLE mode=round device=" TEST_DEVICE_ID " id=4 ");
    assert_non_null(strstr(out.text, " slots=00 "));
    assert_non_null(strstr(out.text, " state=closed label=house-only"));
    assert_reply_starts(cmd("DEAL 1"), "OK DEAL ");
    assert_reply_starts(cmd("REVEAL"), "OK REVEAL device=" TEST_DEVICE_ID " id=4 ");
    assert_non_null(strstr(cmd("STATUS"), " revealed=4 unrevealed=0"));
}

/* A beacon slot: the header names slot 1 and index 1000000 before any
 * seed; the published commitment verifies only with that beacon, the
 * beacon value arrives as SEED 1, and the REVEAL repeats it. A malformed
 * beacon or one naming a slot the round does not accept changes nothing. */
static void test_beacon_round(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    take_snapshot();
    static const char *const refused[][2] = {
        {"SHUFFLE slots=2 beacon=2:5", "ERR range "},
        {"SHUFFLE slots=0 beacon=0:5", "ERR range "},
        {"SHUFFLE slots=2 beacon=255:0", "ERR range "},
        {"SHUFFLE slots=2 beacon=1", "ERR syntax "},
        {"SHUFFLE slots=2 beacon=:5", "ERR syntax "},
        {"SHUFFLE slots=2 beacon=1:", "ERR syntax "},
        {"SHUFFLE slots=2 beacon=1:-5", "ERR syntax "},
        {"SHUFFLE slots=2 beacon=1:5x", "ERR syntax "},
        {"SHUFFLE slots=2 beacon=1:18446744073709551616", "ERR syntax "}, /* 2^64 */
        {"SHUFFLE slots=2 beacon=none", "ERR syntax "},
        {"SHUFFLE slots=2 beacon=1:5 x", "ERR syntax "},
        {"SHUFFLE beacon=0:5", "ERR syntax "},
        {"SHUFFLE drbg beacon=0:5", "ERR syntax "},
        {"SHUFFLE slots=2 beacons=1:5", "ERR syntax "},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_reply_starts(cmd(refused[i][0]), refused[i][1]);
        assert_unchanged();
    }
    /* the core refuses the same on its own */
    assert_int_equal(fd_dealer_open_round(&dealer, 2, 2, 5), FD_ERR_BOUND);
    assert_int_equal(fd_dealer_open_round(&dealer, 2, FD_ROUND_NO_BEACON, 5), FD_ERR_BOUND);
    assert_unchanged();

    char commitment_hex[80];
    const char *r = cmd("SHUFFLE slots=2 beacon=1:1000000");
    assert_reply_starts(r, "OK SHUFFLE mode=round device=" TEST_DEVICE_ID
                           " id=1 shoe=french:1:0 slots=03 beacon=1:1000000 cards=52 ");
    assert_non_null(field(r, "commitment", commitment_hex, sizeof commitment_hex));
    uint8_t commitment[FD_SHA256_SIZE];
    size_t len = 0;
    assert_int_equal(fd_hex_decode(commitment_hex, strlen(commitment_hex), commitment, sizeof commitment, &len), FD_OK);
    assert_string_equal(cmd("SEED 0 706c61796572"), "OK SEED id=1 slot=0 state=seeding");
    assert_string_equal(cmd("SEED 1 b3ac0e"), "OK SEED id=1 slot=1 state=closed label=seeded");
    r = cmd("REVEAL");
    assert_reply_starts(r,
                        "OK REVEAL device=" TEST_DEVICE_ID " id=1 shoe=french:1:0 slots=03 beacon=1:1000000 secret=");
    assert_non_null(strstr(r, " seeds=0:706c61796572;1:b3ac0e commitment="));

    /* the header a verifier rebuilds from the published line */
    fd_round_header h;
    memset(&h, 0, sizeof h);
    h.device_id_len = FD_DEVICE_ID_BYTES;
    memcpy(h.device_id, dealer.secret.id, FD_DEVICE_ID_BYTES);
    h.round_id = 1;
    h.kind = FD_DECK_FRENCH;
    h.decks = 1;
    h.slot_mask = 0x03;
    h.beacon_slot = 1;
    h.beacon_index = 1000000u;
    const fd_round *rd = &dealer.round;
    assert_int_equal(
        fd_round_verify(&h, rd->secret, rd->secret_len, &rd->seeds, commitment, dealer.shoe.order, dealer.shoe.count),
        FD_OK);
    /* the commitment binds the beacon: another index, slot or none fails */
    h.beacon_index = 1000001u;
    assert_int_not_equal(
        fd_round_verify(&h, rd->secret, rd->secret_len, &rd->seeds, commitment, dealer.shoe.order, dealer.shoe.count),
        FD_OK);
    h.beacon_index = 1000000u;
    h.beacon_slot = 0;
    assert_int_not_equal(
        fd_round_verify(&h, rd->secret, rd->secret_len, &rd->seeds, commitment, dealer.shoe.order, dealer.shoe.count),
        FD_OK);
    h.beacon_slot = FD_ROUND_NO_BEACON;
    h.beacon_index = 0;
    assert_int_not_equal(
        fd_round_verify(&h, rd->secret, rd->secret_len, &rd->seeds, commitment, dealer.shoe.order, dealer.shoe.count),
        FD_OK);
    /* a changed beacon value is a changed seed: the order no longer verifies */
    fd_round_seeds seeds = rd->seeds;
    seeds.seed[1][0] ^= 1u;
    h.beacon_slot = 1;
    h.beacon_index = 1000000u;
    assert_int_not_equal(
        fd_round_verify(&h, rd->secret, rd->secret_len, &seeds, commitment, dealer.shoe.order, dealer.shoe.count),
        FD_OK);

    /* the largest index round-trips */
    assert_reply_starts(cmd("SHUFFLE slots=1 beacon=0:18446744073709551615"),
                        "OK SHUFFLE mode=round device=" TEST_DEVICE_ID
                        " id=2 shoe=french:1:0 slots=01 beacon=0:18446744073709551615 cards=52 ");
    assert_int_equal(dealer.round.header.beacon_index, UINT64_MAX);
    assert_reply_starts(cmd("REVEAL"), "OK REVEAL device=" TEST_DEVICE_ID
                                       " id=2 shoe=french:1:0 slots=01 beacon=0:18446744073709551615 ");
}

/* The transition table itself: with a round open, NEW, SHUFFLE, SELFTEST
 * and QUIT are refused and only REVEAL leads to a state without one; no
 * command opens a round but SHUFFLE; only SELFTEST leaves a fault; a
 * refusal says why. */
static void test_transition_table_keeps_rounds(void **state)
{
    (void)state;
    for (int s = 0; s < FD_DEALER_STATE_COUNT; s++) {
        const bool open = s == FD_DEALER_ROUND_OPEN || s == FD_DEALER_FAULT_ROUND_OPEN || s == FD_DEALER_SEEDING;
        const bool fault = s == FD_DEALER_FAULT || s == FD_DEALER_FAULT_ROUND_OPEN;
        for (int c = 0; c < FD_CMD_COUNT; c++) {
            const fd_transition *t = fd_dealer_transition((fd_dealer_state)s, (fd_dealer_cmd)c);
            assert_non_null(t);
            if (t->verdict == FD_REFUSE_STATE) {
                assert_non_null(t->why);
                continue;
            }
            if (t->verdict == FD_REFUSE_FAULT) {
                assert_true(fault);
                continue;
            }
            const bool next_open = t->next == FD_DEALER_ROUND_OPEN || t->next == FD_DEALER_FAULT_ROUND_OPEN ||
                                   t->next == FD_DEALER_SEEDING;
            if (open) {
                /* nothing replaces, re-tests or abandons an open round */
                assert_true(c != FD_CMD_NEW && c != FD_CMD_SHUFFLE && c != FD_CMD_SELFTEST && c != FD_CMD_QUIT &&
                            c != FD_CMD_PROVISION && c != FD_CMD_LAB_RAW && c != FD_CMD_LAB_CARDS && c != FD_CMD_IDLE);
                assert_true(next_open || c == FD_CMD_REVEAL);
            } else {
                assert_true(!next_open || c == FD_CMD_SHUFFLE);
            }
            /* only SELFTEST leaves a fault; no command enters one by success */
            const bool next_fault = t->next == FD_DEALER_FAULT || t->next == FD_DEALER_FAULT_ROUND_OPEN;
            assert_true(next_fault == fault || (fault && c == FD_CMD_SELFTEST));
        }
    }
}

/* Corrupting any round-critical field, or the shoe, is caught before the
 * next card leaves; the dealer fails closed with the round revealable. */
static void test_corrupt_memory_fails_closed(void **state)
{
    (void)state;
    for (unsigned target = 0; target < 7u; target++) {
        assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
        assert_reply_starts(cmd("NEW spanish48 2"), "OK NEW");
        char commit[80];
        assert_non_null(field(cmd("SHUFFLE drbg"), "commit", commit, sizeof commit));
        assert_reply_starts(cmd("DEAL 3"), "OK DEAL");
        assert_int_equal(fd_dealer_check(&dealer), FD_OK);
        switch (target) {
        case 0: dealer.round.id ^= 1u; break;               /* a different round */
        case 1: dealer.shoe.position--; break;              /* deal a card again */
        case 2: dealer.round.commitment[7] ^= 0x20u; break; /* a different promise */
        case 3: dealer.round.salt[0] ^= 1u; break;
        case 4: dealer.shoe.order[50] = 0x3Fu; break;  /* not a card of the deck */
        case 5: dealer.round.revealed_rounds++; break; /* hide an unrevealed round */
        default: dealer.shoe.count--; break;           /* a short shoe */
        }
        assert_int_equal(fd_dealer_check(&dealer), FD_ERR_CORRUPT);
        take_snapshot();
        assert_reply_starts(cmd(target % 2u == 0u ? "DEAL 1" : "BURN"), "ERR corrupt memory integrity check failed");
        assert_int_equal(dealer.shoe.position, snapshot.shoe.position);
        assert_true(fd_dealer_round_open(&dealer));
        assert_reply_starts(cmd("DEAL 1"), "ERR corrupt ");
        assert_reply_starts(cmd("REVEAL"), "OK REVEAL");
        assert_reply_starts(cmd("SELFTEST"), "OK SELFTEST");
        assert_reply_starts(cmd("SHUFFLE drbg"), "OK SHUFFLE");
        assert_reply_starts(cmd("DEAL 1"), "OK DEAL");
    }
    /* an untouched round passes the check before every deal */
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    assert_reply_starts(cmd("SHUFFLE drbg"), "OK SHUFFLE");
    for (int i = 0; i < 52; i++) {
        assert_reply_starts(cmd("BURN"), "OK BURN");
    }
}

/* ---- the console: modes and lost bytes ---- */

/* ---- direct tests written against surviving mutants (tests/mutation) ---- */

/* One byte of a field the memory checksum must cover, flipped: caught, and
 * caught no more once flipped back. */
static void assert_checksum_covers(uint8_t *byte, uint8_t flip)
{
    assert_int_equal(fd_dealer_check(&dealer), FD_OK);
    *byte ^= flip;
    assert_int_equal(fd_dealer_check(&dealer), FD_ERR_CORRUPT);
    *byte ^= flip;
    assert_int_equal(fd_dealer_check(&dealer), FD_OK);
}

/* Every field a deal or a REVEAL relies on, including those the order
 * check cannot see (flags, cut card, verifiable-round fields), is under the
 * checksum: a stray write to any of them fails closed. */
static void test_checksum_covers_every_round_field(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    assert_reply_starts(cmd("CUT 20"), "OK CUT");
    assert_reply_starts(cmd("SHUFFLE slots=2"), "OK SHUFFLE mode=round");
    assert_string_equal(cmd("SEED 0 aa"), "OK SEED id=1 slot=0 state=seeding");
    assert_checksum_covers((uint8_t *)&dealer.shoe.shuffled, 1u);
    assert_checksum_covers((uint8_t *)&dealer.round.closed, 1u);
    assert_checksum_covers(&dealer.round.mode, 1u);
    assert_checksum_covers((uint8_t *)&dealer.shoe.cut, 1u);
    assert_checksum_covers((uint8_t *)&dealer.shoe.position, 1u);
    assert_checksum_covers(&dealer.shoe.decks, 1u);
    assert_checksum_covers(&dealer.shoe.jokers, 1u);
    assert_checksum_covers(&dealer.round.secret[0], 0x80u);
    assert_checksum_covers(&dealer.round.secret[dealer.round.secret_len - 1u], 1u);
    assert_checksum_covers((uint8_t *)&dealer.round.secret_len, 1u);
    assert_checksum_covers(&dealer.round.header.slot_mask, 4u);
    assert_checksum_covers(&dealer.round.header.decks, 1u);
    assert_checksum_covers(&dealer.round.seeds.seed[0][0], 1u);
    assert_checksum_covers(&dealer.round.seeds.len[1], 1u);
    assert_checksum_covers(&dealer.round.salt[0], 1u);
    assert_checksum_covers(&dealer.round.commitment[31], 1u);
    /* CLOSE checks memory before deriving the order: a damaged S never
     * becomes a dealable order (the seal after it would bless the damage) */
    dealer.round.secret[3] ^= 1u;
    assert_string_equal(cmd("CLOSE"), "ERR corrupt memory integrity check failed; REVEAL, then SELFTEST required");
    assert_true(fd_dealer_in_fault(&dealer));
    assert_false(dealer.round.closed);
}

/* A fault leaves nothing to deal and no DRBG state behind; REVEAL leaves
 * the revealed order not dealable; SELFTEST leaves no fault status behind. */
static void test_fault_and_reveal_leave_nothing_usable(void **state)
{
    (void)state;
    static const uint8_t zeros[sizeof dealer.drbg];
    uint8_t bytes[4];
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    assert_reply_starts(cmd("SHUFFLE drbg"), "OK SHUFFLE id=1");
    assert_reply_starts(cmd("DEAL 2"), "OK DEAL");
    assert_true(dealer.shoe.shuffled);
    dealer.round.salt[5] ^= 1u;
    assert_reply_starts(cmd("DEAL 1"), "ERR corrupt memory integrity check failed");
    assert_false(dealer.shoe.shuffled);
    assert_memory_equal(&dealer.drbg, zeros, sizeof zeros);
    assert_int_equal(fd_drbg_generate(&dealer.drbg, bytes, sizeof bytes), FD_ERR_NOT_READY);
    assert_int_equal(dealer.fault_status, FD_ERR_CORRUPT);
    assert_reply_starts(cmd("REVEAL"), "OK REVEAL id=1");
    assert_reply_starts(cmd("SELFTEST"), "OK SELFTEST");
    assert_int_equal(dealer.fault_status, FD_OK);
    assert_int_equal(dealer.fault_health, FD_HEALTH_NONE);
    assert_reply_starts(cmd("SHUFFLE drbg"), "OK SHUFFLE id=2");
    assert_true(dealer.shoe.shuffled);
    assert_reply_starts(cmd("REVEAL"), "OK REVEAL id=2");
    assert_false(dealer.shoe.shuffled);
}

/* REVEAL of a round still open for seeds publishes the order those seeds
 * fix, and it verifies. */
static void test_reveal_while_seeding_derives_the_order(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    assert_reply_starts(cmd("SHUFFLE slots=2"), "OK SHUFFLE mode=round");
    assert_string_equal(cmd("SEED 1 c0ffee"), "OK SEED id=1 slot=1 state=seeding");
    assert_reply_starts(cmd("REVEAL"), "OK REVEAL device=");
    assert_non_null(strstr(out.text, " id=1 shoe=french:1:0 slots=03 "));
    assert_int_equal(fd_round_verify(&dealer.round.header, dealer.round.secret, dealer.round.secret_len,
                                     &dealer.round.seeds, dealer.round.commitment, dealer.shoe.order,
                                     dealer.shoe.count),
                     FD_OK);
    /* a cut placed while seeds are open stays where it was put once the
     * last seed closes the round */
    assert_reply_starts(cmd("SHUFFLE slots=1"), "OK SHUFFLE mode=round");
    assert_string_equal(cmd("CUT 30"), "OK CUT 30");
    assert_string_equal(cmd("SEED 0 aa"), "OK SEED id=2 slot=0 state=closed label=seeded");
    assert_non_null(strstr(cmd("STATUS"), " cut=30"));
}

static void test_human_and_machine_modes(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    /* a board's UART in human mode: banner, prompt, echo */
    fd_console_init(&console, &dealer, capture_write, &out, true, true);
    out.len = 0;
    fd_console_start(&console);
    assert_non_null(strstr(out.text, "Type HELP for commands.\r\n> "));
    assert_string_equal(feed_bytes("CUT 5\r", 6), "CUT 5\r\nOK CUT 5\r\n> ");
    assert_string_equal(feed_bytes("\n", 1), "");       /* the LF of CR LF: the prompt is out already */
    assert_string_equal(feed_bytes("\n", 1), "\r\n> "); /* a blank line: a new prompt */
    /* a host terminal echoes by itself: prompt only */
    fd_console_init(&console, &dealer, capture_write, &out, true, false);
    assert_string_equal(feed_bytes("CUT 6\n", 6), "OK CUT 6\r\n> ");
    assert_string_equal(feed_bytes("mode machine\n", 13), "OK MODE machine\r\n");
    /* machine mode: exactly one reply line per command line, nothing else */
    assert_string_equal(feed_bytes("CUT 7\r\nCUT 8\n\n  \t \nSTATUS x\n", 28),
                        "OK CUT 7\r\nOK CUT 8\r\nERR syntax usage: STATUS\r\n");
    assert_string_equal(feed_bytes("MODE robot\n", 11), "ERR syntax usage: MODE <human|machine>\r\n");
    assert_string_equal(feed_bytes("MODE human\n", 11), "OK MODE human\r\n> ");
    assert_string_equal(feed_bytes("QUIT\n", 5), "OK BYE\r\n");
}

/* HELP is made from the command table: every command it lists is one the
 * console knows (a wrong argument gets a usage or state error, never ERR
 * unknown), with nothing changed; a word it does not list is unknown. */
static void test_help_lists_the_command_table(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    char help[512];
    (void)snprintf(help, sizeof help, "%s", cmd("HELP"));
    assert_true(strncmp(help, "OK HELP ", 8) == 0);
    unsigned listed = 0;
    for (char *entry = help + 7; entry != NULL; entry = strstr(entry + 1, " | ")) {
        char word[16] = "";
        assert_int_equal(sscanf(entry + (entry[1] == '|' ? 3 : 1), "%15[A-Z]", word), 1);
        char line[24];
        (void)snprintf(line, sizeof line, "%s ?", word);
        take_snapshot();
        assert_reply_starts(cmd(line), "ERR syntax"); /* known: its usage or argument error */
        assert_unchanged();
        listed++;
    }
    assert_int_equal(listed, 21);
    assert_reply_starts(cmd("HANG"), "ERR unknown"); /* a test image's command, never in a dealer */
}

/* The table's session column (docs/PROTOCOL.md "Commands"): a locked
 * console (no authenticated link session) runs ID, HELP and VERIFY, in any
 * case, and refuses every other command with ERR link, changing nothing. */
static void test_session_column(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    console.locked = true;
    static const char *const open[] = {"HELP", "help", "ID", "VERIFY 00ff", "verify"};
    static const char *const gated[] = {"DEAL 1", "SHUFFLE", "STATUS", "NEW french", "MODE human", "TIME 5", "QUIT"};
    for (size_t i = 0; i < sizeof open / sizeof open[0]; i++) {
        assert_true(strncmp(cmd(open[i]), "ERR link", 8) != 0);
    }
    for (size_t i = 0; i < sizeof gated / sizeof gated[0]; i++) {
        take_snapshot();
        assert_reply_starts(cmd(gated[i]), "ERR link ");
        assert_unchanged();
    }
    console.locked = false;
}

/* Echo injection (docs/PROTOCOL.md "Human and machine mode"): in human
 * mode every echoed line follows the "> " prompt, whatever line ends the
 * sender uses, so a typed "OK BURN left=49" can never start an output line
 * the way a reply does: the lines starting "OK " or "ERR " are exactly the
 * replies. */
static void test_echo_never_starts_a_line(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    fd_console_init(&console, &dealer, capture_write, &out, true, true);
    out.len = 0;
    fd_console_start(&console);
    static const char typed[] = "SHUFFLE\r\n\nOK BURN left=49\r\n\r\rOK DEAL AS left=51\nx\r\n"
                                "\n\nERR state\rDEAL 1\n  \nOK REVEAL id=1\r";
    const char *text = feed_bytes(typed, sizeof typed - 1u);
    unsigned replies = 0;
    for (const char *line = text; *line != '\0'; line = strchr(line, '\n') + 1) {
        if (strncmp(line, "OK ", 3) == 0 || strncmp(line, "ERR ", 4) == 0) {
            replies++;
        }
        if (strchr(line, '\n') == NULL) {
            break;
        }
    }
    /* SHUFFLE, DEAL 1, x and the four typed "replies" (each ERR unknown) */
    assert_int_equal(replies, 7);
    assert_null(strstr(text, "\nOK BURN"));
    assert_null(strstr(text, "\nOK DEAL AS"));
    assert_null(strstr(text, "\nOK REVEAL"));
    assert_non_null(strstr(text, "> OK BURN left=49\r\nERR unknown"));
}

/* A release build is in machine mode only: it starts there even on a
 * terminal, and MODE human is refused, changing nothing. */
static void test_release_refuses_human_mode(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    dealer.cfg.release = true; /* the console reads only this of the config */
    fd_console_init(&console, &dealer, capture_write, &out, true, true);
    assert_false(console.human);
    assert_string_equal(feed_bytes("MODE human\n", 11),
                        "ERR state human mode is refused in release builds: machine mode only\r\n");
    assert_false(console.human);
    assert_string_equal(feed_bytes("CUT 5\n", 6), "OK CUT 5\r\n"); /* no echo, no prompt */
    assert_string_equal(feed_bytes("MODE machine\n", 13), "OK MODE machine\r\n");
}

/* Bytes lost on the line: the damaged line is discarded up to its end and
 * answered ERR overrun; a splice ("DEAL 1" + "00") never runs. */
static void test_overrun_discards_the_line(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    assert_reply_starts(cmd("NEW french 2"), "OK NEW");
    assert_reply_starts(cmd("SHUFFLE drbg"), "OK SHUFFLE");
    take_snapshot();
    (void)feed_bytes("DEAL 1", 6);
    fd_console_lost(&console);
    assert_string_equal(feed_bytes("00\n", 3), "ERR overrun received bytes lost: line discarded\r\n");
    assert_unchanged();
    /* lost at the very start of a line, and a lost line end of its own */
    fd_console_lost(&console);
    assert_string_equal(feed_bytes("\n", 1), "ERR overrun received bytes lost: line discarded\r\n");
    /* an overrun outranks a too-long or bad-byte line; the next line is fresh */
    (void)feed_bytes("STATUS\x01", 7);
    fd_console_lost(&console);
    assert_reply_starts(feed_bytes("\nDEAL 1\n", 8), "ERR overrun received bytes lost: line discarded\r\nOK DEAL ");
}

/* ---- a second transport: length-prefixed binary frames over the same core ---- */

/* Request: [len][op][args...], len counting op and args. Reply: [len][status]
 * [payload...]. Ops: 1 NEW kind decks jokers, 2 SHUFFLE full, 3 DEAL n
 * players, 4 REVEAL, 5 SELFTEST. Payloads: SHUFFLE id (4, big-endian) +
 * commitment (32); DEAL card ids (2 each, big-endian, in shoe order); REVEAL
 * salt (16) + order (2 per card). A test-only framing: what matters is that
 * it drives fd_dealer's typed calls with no text in between. */
typedef struct frame {
    uint8_t bytes[2u + 16u + 2u * FD_SHOE_MAX_CARDS];
    size_t len;
} frame;

static void frame_put(frame *f, uint32_t v, size_t width)
{
    for (size_t i = width; i-- > 0u;) {
        f->bytes[f->len++] = (uint8_t)(v >> (8u * i));
    }
}

static void frame_cards(frame *f, const fd_dealer *d, uint16_t from, uint16_t count)
{
    for (uint16_t i = 0; i < count; i++) {
        frame_put(f, fd_dealer_card_at(d, (uint16_t)(from + i)), 2);
    }
}

static void binary_transport(fd_dealer *d, const uint8_t *req, frame *reply)
{
    const uint8_t *a = req + 2;
    uint16_t first = 0;
    uint32_t samples = 0;
    fd_status st = FD_ERR_PARSE;
    reply->len = 2;
    switch (req[1]) {
    case 1: st = fd_dealer_new(d, (fd_deck_kind)a[0], a[1], a[2]); break;
    case 2:
        st = fd_dealer_shuffle(d, a[0] != 0u);
        if (st == FD_OK) {
            frame_put(reply, d->round.id, 4);
            memcpy(reply->bytes + reply->len, d->round.commitment, FD_COMMIT_SIZE);
            reply->len += FD_COMMIT_SIZE;
        }
        break;
    case 3:
        st = fd_dealer_deal(d, a[0], a[1], &first);
        if (st == FD_OK) {
            frame_cards(reply, d, first, (uint16_t)(a[0] * a[1]));
        }
        break;
    case 4:
        st = fd_dealer_reveal(d);
        if (st == FD_OK) {
            memcpy(reply->bytes + reply->len, d->round.salt, FD_COMMIT_SALT_SIZE);
            reply->len += FD_COMMIT_SALT_SIZE;
            frame_cards(reply, d, 0, d->shoe.count);
        }
        break;
    case 5: st = fd_dealer_selftest(d, &samples); break;
    default: break;
    }
    reply->bytes[0] = (uint8_t)(reply->len - 1u > 255u ? 255u : reply->len - 1u);
    reply->bytes[1] = (uint8_t)st;
}

static void test_binary_transport_drives_the_same_core(void **state)
{
    (void)state;
    assert_int_equal(start_dealer(FD_DRBG_CHACHA20, FAKE_TRNG_RANDOM), FD_OK);
    static frame reply;
    static const uint8_t new_shoe[] = {4, 1, FD_DECK_SPANISH40, 3, 0};
    static const uint8_t shuffle[] = {2, 2, 1};
    static const uint8_t deal[] = {3, 3, 4, 2};
    static const uint8_t reveal[] = {1, 4};
    static const uint8_t selftest[] = {1, 5};
    binary_transport(&dealer, new_shoe, &reply);
    assert_int_equal(reply.bytes[1], FD_OK);
    binary_transport(&dealer, shuffle, &reply);
    assert_int_equal(reply.bytes[1], FD_OK);
    assert_int_equal(reply.len, 2u + 4u + 32u);
    uint8_t commitment[FD_COMMIT_SIZE];
    memcpy(commitment, reply.bytes + 6, sizeof commitment);
    assert_int_equal(reply.bytes[5], 1); /* round id 1 */
    binary_transport(&dealer, deal, &reply);
    assert_int_equal(reply.bytes[1], FD_OK);
    fd_card dealt[8];
    for (size_t i = 0; i < 8u; i++) {
        dealt[i] = (fd_card)((reply.bytes[2u + 2u * i] << 8) | reply.bytes[3u + 2u * i]);
    }
    /* typed calls check their arguments and change nothing when wrong */
    uint16_t first = 0;
    take_snapshot();
    assert_int_equal(fd_dealer_deal(&dealer, 1, 1, NULL), FD_ERR_NULL);
    assert_int_equal(fd_dealer_deal(&dealer, 0, 1, &first), FD_ERR_EMPTY);
    assert_int_equal(fd_dealer_deal(&dealer, 1, 9, &first), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_dealer_deal(&dealer, 433, 1, &first), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_dealer_deal(&dealer, 60, 2, &first), FD_ERR_EXHAUSTED);
    assert_int_equal(fd_dealer_cut(&dealer, 121), FD_ERR_TOO_LARGE);
    assert_unchanged();
    /* the state machine is the transport's too: no new round over an open one */
    binary_transport(&dealer, new_shoe, &reply);
    assert_int_equal(reply.bytes[1], FD_ERR_STATE);
    binary_transport(&dealer, shuffle, &reply);
    assert_int_equal(reply.bytes[1], FD_ERR_STATE);
    binary_transport(&dealer, selftest, &reply);
    assert_int_equal(reply.bytes[1], FD_ERR_STATE);
    /* and the text console sees the same round */
    assert_non_null(strstr(cmd("STATUS"), " cards=120 left=112 state=shuffled shuffles=1 "));
    binary_transport(&dealer, reveal, &reply);
    assert_int_equal(reply.bytes[1], FD_OK);
    assert_int_equal(reply.len, 2u + 16u + 2u * 120u);
    fd_card order[120];
    for (size_t i = 0; i < 120u; i++) {
        order[i] = (fd_card)((reply.bytes[18u + 2u * i] << 8) | reply.bytes[19u + 2u * i]);
    }
    assert_memory_equal(order, dealt, sizeof dealt);
    assert_int_equal(fd_shoe_order_check(FD_DECK_SPANISH40, 3, 0, order, 120), FD_OK);
    uint8_t again[FD_COMMIT_SIZE];
    assert_int_equal(fd_commit_compute(reply.bytes + 2, order, 120, FD_DECK_SPANISH40, again), FD_OK);
    assert_memory_equal(again, commitment, sizeof again);
    binary_transport(&dealer, reveal, &reply);
    assert_int_equal(reply.bytes[1], FD_ERR_STATE);
    uint32_t samples = 0;
    assert_int_equal(fd_dealer_selftest(&dealer, NULL), FD_ERR_NULL);
    binary_transport(&dealer, selftest, &reply);
    assert_int_equal(reply.bytes[1], FD_OK);
    assert_int_equal(fd_dealer_selftest(&dealer, &samples), FD_OK);
    assert_int_equal(samples, 1536);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_session_script),
        cmocka_unit_test(test_dealing_to_the_last_card),
        cmocka_unit_test(test_line_handling),
        cmocka_unit_test(test_bad_input_changes_nothing),
        cmocka_unit_test(test_fault_mid_session_needs_selftest),
        cmocka_unit_test(test_fault_inside_full_entropy_shuffle),
        cmocka_unit_test(test_fault_during_reseed_and_timeouts),
        cmocka_unit_test(test_selftest_restarts_the_source),
        cmocka_unit_test(test_fault_and_selftest_forget_buffered_bits),
        cmocka_unit_test(test_fault_at_power_on),
        cmocka_unit_test(test_fault_matrix),
        cmocka_unit_test(test_emulation_banner_and_null_config),
        cmocka_unit_test(test_no_round_disappears),
        cmocka_unit_test(test_transition_table_keeps_rounds),
        cmocka_unit_test(test_verifiable_round_never_disappears),
        cmocka_unit_test(test_beacon_round),
        cmocka_unit_test(test_corrupt_memory_fails_closed),
        cmocka_unit_test(test_checksum_covers_every_round_field),
        cmocka_unit_test(test_fault_and_reveal_leave_nothing_usable),
        cmocka_unit_test(test_reveal_while_seeding_derives_the_order),
        cmocka_unit_test(test_human_and_machine_modes),
        cmocka_unit_test(test_echo_never_starts_a_line),
        cmocka_unit_test(test_help_lists_the_command_table),
        cmocka_unit_test(test_session_column),
        cmocka_unit_test(test_release_refuses_human_mode),
        cmocka_unit_test(test_overrun_discards_the_line),
        cmocka_unit_test(test_binary_transport_drives_the_same_core),
        cmocka_unit_test(test_long_random_session),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
