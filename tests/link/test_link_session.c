/* The link's session counter in the journal (docs/LINK.md "Keys"): the real
 * dealer and its link console over the host flash simulator, with a TRNG
 * that repeats itself at every power-on (the same samples after each
 * restart: "stuck" as far as the link can tell), and one HELLO replayed to
 * it. The device's ephemeral key then depends only on the counter, so a
 * repeated WELCOME would mean a reused counter. Checked: counters come in
 * journalled blocks of FD_LINK_SESSION_BLOCK (one LINK_SESSION record per
 * block, none per session), restored at mount, and never reused after a
 * power cut at any flash step of a reservation (clean and torn cuts), nor
 * across compaction (the newest LINK_SESSION is kept). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dealer.h"
#include "fairdeal/link.h"
#include "fairdeal/util.h"
#include "fd_board_map.h"
#include "host_storage.h"
#include "link_console.h"
#include "protocol.h"
#include "test_dealer_config.h"

#define PAGE FD_FLASH_PAGE_SIZE
#define PAGES FD_STORAGE_PAGES

static host_flash hf;
static uint8_t mem[PAGE * PAGES];
static fake_trng trng;
static fd_dealer dealer;
static fd_console console;
static fd_link_console lc;
static uint8_t wire[4096];
static size_t wire_len;
static uint8_t hello[FD_LINK_MAX_FRAME];
static size_t hello_len;

static void wire_write(void *ctx, const char *data, size_t len)
{
    (void)ctx;
    if (len <= sizeof wire - wire_len) {
        memcpy(wire + wire_len, data, len);
        wire_len += len;
    }
}

static capture text;

static void text_sink(void *ctx, const char *data, size_t len)
{
    (void)ctx;
    if (!capture_append(&text, data, len)) {
        text.len = 0;
    }
}

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

/* Power on: a new dealer over the same flash, the TRNG as at every power-on. */
static void power_on(void)
{
    host_flash_reboot(&hf);
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 7);
    fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    cfg.storage = &hf.flash;
    cfg.storage_name = "test flash";
    memset(&dealer, 0, sizeof dealer);
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK);
    assert_int_equal(dealer.persist.status, FD_OK);
    fd_console_init(&console, &dealer, text_sink, NULL, false, false);
    fd_link_console_init(&lc, &console, wire_write, NULL, true);
}

static void fresh_flash(void) { assert_int_equal(host_flash_open(&hf, mem, PAGE, PAGES, NULL), FD_OK); }

/* One HELLO, the same every time (a controller's, recorded and replayed):
 * made under the development test secret's PSK. */
static void make_hello(void)
{
    uint8_t psk[FD_NOISE_PSK_SIZE];
    uint8_t eph_key[FD_SHA256_SIZE];
    uint8_t e[FD_X25519_SIZE];
    memset(e, 0x5a, sizeof e);
    assert_int_equal(fd_link_derive_keys(dealer.secret.secret, sizeof dealer.secret.secret, psk, eph_key), FD_OK);
    fd_noise_handshake hs;
    assert_int_equal(fd_link_hello(&hs, psk, e, hello, sizeof hello, &hello_len), FD_OK);
}

/* Feed the HELLO; true when a WELCOME came back, its ephemeral key in eph. */
static bool handshake(uint8_t eph[FD_X25519_SIZE])
{
    wire_len = 0;
    for (size_t i = 0; i < hello_len; i++) {
        fd_link_console_feed(&lc, hello[i]);
    }
    if (wire_len == 0) {
        return false;
    }
    assert_true(wire_len > FD_LINK_HEADER_SIZE + FD_X25519_SIZE);
    assert_int_equal(wire[1], FD_LINK_WELCOME);
    memcpy(eph, wire + FD_LINK_HEADER_SIZE, FD_X25519_SIZE);
    return true;
}

/* Ephemeral keys seen on this flash so far. */
static uint8_t seen[600][FD_X25519_SIZE];
static size_t seen_count;

static void fresh_key(const uint8_t eph[FD_X25519_SIZE], const char *when)
{
    for (size_t i = 0; i < seen_count; i++) {
        if (memcmp(seen[i], eph, FD_X25519_SIZE) == 0) {
            fail_msg("%s: the device's ephemeral key of handshake %u came again (a session counter reused)", when,
                     (unsigned)i);
        }
    }
    assert_true(seen_count < sizeof seen / sizeof seen[0]);
    memcpy(seen[seen_count++], eph, FD_X25519_SIZE);
}

/* Blocks: one journal write per FD_LINK_SESSION_BLOCK sessions, restored at
 * the next power-on (the first value there is the next block's). */
static void test_counter_blocks_across_restarts(void **state)
{
    (void)state;
    uint8_t eph[FD_X25519_SIZE];
    fresh_flash();
    power_on();
    make_hello();
    seen_count = 0;
    uint64_t steps = hf.steps;
    assert_true(handshake(eph));
    fresh_key(eph, "first");
    assert_true(hf.steps > steps); /* the first block reserved */
    assert_true(dealer.persist.link_limit == FD_LINK_SESSION_BLOCK);
    steps = hf.steps;
    for (unsigned i = 1; i < FD_LINK_SESSION_BLOCK; i++) {
        assert_true(handshake(eph));
        fresh_key(eph, "within the block");
    }
    assert_true(hf.steps == steps); /* no flash written per session */
    assert_true(handshake(eph));    /* the next block */
    fresh_key(eph, "the second block");
    assert_true(hf.steps > steps);
    assert_true(dealer.persist.link_limit == 2u * FD_LINK_SESSION_BLOCK);
    for (unsigned boot = 0; boot < 3u; boot++) {
        power_on();
        assert_true(dealer.persist.link_limit == (2u + boot) * FD_LINK_SESSION_BLOCK);
        assert_true(handshake(eph));
        fresh_key(eph, "after a restart");
    }
}

/* A power cut at every flash step of a reservation: the handshake that
 * reserves either answers (its block durable) or does not (nothing used);
 * after the restart no counter comes again. */
static void test_cut_at_every_step_of_a_reservation(void **state)
{
    (void)state;
    uint8_t eph[FD_X25519_SIZE];
    fresh_flash();
    power_on();
    make_hello();
    assert_true(handshake(eph));
    power_on();
    const uint64_t before = hf.steps;
    assert_true(handshake(eph));
    const uint64_t steps = hf.steps - before;
    assert_true(steps >= 1u);
    unsigned answered = 0;
    unsigned refused = 0;
    for (uint64_t k = 0; k <= steps; k++) {
        fresh_flash();
        power_on();
        seen_count = 0;
        assert_true(handshake(eph));
        fresh_key(eph, "before the cut");
        power_on();
        hf.torn = k % 2u == 1u;
        hf.cut_after = hf.steps + k;
        if (handshake(eph)) {
            answered++;
            fresh_key(eph, "the reserving handshake");
        } else {
            refused++;
        }
        hf.cut_after = HOST_FLASH_NEVER;
        hf.torn = false;
        power_on();
        assert_int_equal(dealer.persist.status, FD_OK);
        for (unsigned i = 0; i < 3u; i++) {
            if (!handshake(eph)) {
                fail_msg("no WELCOME after the cut at step %u", (unsigned)k + 1u);
            }
            fresh_key(eph, "after the cut");
        }
    }
    assert_true(answered >= 1u && refused >= 1u);
    print_message("reservation: %u flash steps; cut after each: %u answered, %u refused\n", (unsigned)steps, answered,
                  refused);
}

/* Compaction keeps the newest LINK_SESSION: rounds fill the journal until
 * it has compacted, and the counter still moves on after a restart. */
static void test_counter_survives_compaction(void **state)
{
    (void)state;
    uint8_t eph[FD_X25519_SIZE];
    fresh_flash();
    power_on();
    make_hello();
    seen_count = 0;
    assert_true(handshake(eph));
    fresh_key(eph, "first");
    console.locked = false; /* the rounds as a session would run them */
    const uint32_t tail = dealer.persist.journal.tail_page_seq;
    for (unsigned i = 0; i < 1000u && dealer.persist.journal.tail_page_seq == tail; i++) {
        const char *lines[] = {"SHUFFLE", "DEAL 52", "REVEAL"};
        for (unsigned j = 0; j < 3u; j++) {
            text.len = 0;
            fd_console_command(&console, lines[j], strlen(lines[j]));
            if (strncmp(text.text, "OK ", 3) != 0) {
                fail_msg("%s: %s", lines[j], text.text);
            }
        }
    }
    assert_true(dealer.persist.journal.tail_page_seq != tail); /* the page of the first LINK_SESSION compacted */
    assert_true(dealer.round.id > 10u);
    power_on();
    assert_true(dealer.persist.link_limit == FD_LINK_SESSION_BLOCK);
    assert_true(handshake(eph));
    fresh_key(eph, "after compaction and a restart");
}

/* Forged HELLOs (another PSK, or altered) take no session counter: no
 * journal write and no WELCOME however many come; the genuine one after
 * them opens the session with the block's first counter. */
static void test_forged_hellos_write_nothing(void **state)
{
    (void)state;
    uint8_t eph[FD_X25519_SIZE];
    fresh_flash();
    power_on();
    uint8_t psk[FD_NOISE_PSK_SIZE];
    memset(psk, 0x33, sizeof psk);
    uint8_t e[FD_X25519_SIZE];
    memset(e, 0x44, sizeof e);
    uint8_t forged[FD_LINK_MAX_FRAME];
    size_t forged_len = 0;
    fd_noise_handshake hs;
    assert_int_equal(fd_link_hello(&hs, psk, e, forged, sizeof forged, &forged_len), FD_OK);
    make_hello();
    const uint64_t steps = hf.steps;
    for (unsigned i = 0; i < 2u * FD_LINK_SESSION_BLOCK + 1u; i++) {
        wire_len = 0;
        for (size_t j = 0; j < forged_len; j++) {
            fd_link_console_feed(&lc, forged[j]);
        }
        hello[FD_LINK_HEADER_SIZE + 40u] ^= 1u; /* the genuine one altered in its payload */
        const bool answered = handshake(eph);
        hello[FD_LINK_HEADER_SIZE + 40u] ^= 1u;
        assert_false(answered);
    }
    assert_true(hf.steps == steps);
    assert_true(dealer.persist.link_limit == 0u);
    assert_int_equal(lc.refused, 2u * (2u * FD_LINK_SESSION_BLOCK + 1u));
    assert_true(handshake(eph));
    assert_true(dealer.persist.link_limit == FD_LINK_SESSION_BLOCK);
}

/* The reply to one cleartext line, the console as it is. */
static const char *line(const char *l)
{
    text.len = 0;
    text.text[0] = '\0';
    fd_console_command(&console, l, strlen(l));
    return text.text;
}

/* Outside a session (docs/LINK.md "Roles"): every state-changing command
 * is refused with nothing changed; ID, HELP and VERIFY answer. */
static void test_locked_console_refuses_orders(void **state)
{
    (void)state;
    static const char *const orders[] = {
        "NEW spanish48", "SHUFFLE",         "SEED 0 aa",  "CLOSE",     "CUT 5",  "DEAL 1", "BURN", "REVEAL",
        "SELFTEST",      "TIME 1700000000", "MODE human", "LAB RAW 4", "STATUS", "RECALL", "LOG",  "QUIT",
    };
    fresh_flash();
    power_on();
    assert_true(strncmp(line("SHUFFLE"), "OK SHUFFLE", 10) == 0); /* a round open: DEAL, CUT, REVEAL could run */
    char before[1024];
    (void)snprintf(before, sizeof before, "%s", line("STATUS"));
    const uint32_t seq = dealer.persist.journal.next_seq;
    console.locked = true;
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++) {
        const char *r = line(orders[i]);
        if (strncmp(r, "ERR link ", 9) != 0) {
            fail_msg("%s outside a session: %s", orders[i], r);
        }
    }
    assert_true(strncmp(line("ID"), "OK ID ", 6) == 0);
    assert_true(strncmp(line("HELP"), "OK HELP ", 8) == 0);
    assert_true(strncmp(line("VERIFY 00"), "ERR state program verification", 30) == 0); /* the host has no flash */
    /* the first PROVISION: refused without the physical act, taken to the
     * dealer with it (which refuses it for its own reasons here) */
    static const char provision[] = "PROVISION 8d3f0a61c2e94b57a6d0e1f2c3b4a5968778695a4b3c2d1e0f00112233445566";
    assert_true(strncmp(line(provision), "ERR link ", 9) == 0);
    dealer.cfg.presence = true;
    assert_true(strncmp(line(provision), "ERR link ", 9) != 0);
    dealer.cfg.presence = false;
    assert_false(dealer.quit);
    assert_int_equal(dealer.persist.journal.next_seq, seq);
    console.locked = false;
    assert_string_equal(line("STATUS"), before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counter_blocks_across_restarts),
        cmocka_unit_test(test_cut_at_every_step_of_a_reservation),
        cmocka_unit_test(test_counter_survives_compaction),
        cmocka_unit_test(test_forged_hellos_write_nothing),
        cmocka_unit_test(test_locked_console_refuses_orders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
