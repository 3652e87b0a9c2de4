/* The dealer's console over the link (firmware/link_console.c, docs/LINK.md
 * "The dealer's console over the link") against the survivors of the
 * mutants drawn by rule (docs/RELIABILITY.md, "Mutants drawn by rule"): the
 * real dealer over the host flash simulator and a controller made of the
 * library's own side of the link (fd_link_hello, fd_link_finish, seal and
 * open); each test names the mutant it kills. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dealer.h"
#include "fairdeal/link.h"
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
static fd_link controller;
static uint8_t wire[8192]; /* what the device sent */
static size_t wire_len;
static capture text; /* the cleartext console's replies */

static void wire_write(void *ctx, const char *data, size_t len)
{
    (void)ctx;
    assert_true(len <= sizeof wire - wire_len);
    memcpy(wire + wire_len, data, len);
    wire_len += len;
}

static void text_sink(void *ctx, const char *data, size_t len)
{
    (void)ctx;
    assert_true(capture_append(&text, data, len));
}

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

/* A dealer on a blank flash, its link console, a session opened by the
 * controller. */
static int setup(void **state)
{
    (void)state;
    assert_int_equal(host_flash_open(&hf, mem, PAGE, PAGES, NULL), FD_OK);
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 9);
    fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    cfg.storage = &hf.flash;
    cfg.storage_name = "test flash";
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK);
    fd_console_init(&console, &dealer, text_sink, NULL, false, false);
    fd_link_console_init(&lc, &console, wire_write, NULL, true);

    uint8_t psk[FD_NOISE_PSK_SIZE];
    uint8_t eph_key[FD_SHA256_SIZE];
    uint8_t e[FD_X25519_SIZE];
    memset(e, 0x5a, sizeof e);
    assert_int_equal(fd_link_derive_keys(dealer.secret.secret, sizeof dealer.secret.secret, psk, eph_key), FD_OK);
    fd_noise_handshake hs;
    uint8_t hello[FD_LINK_MAX_FRAME];
    size_t hello_len = 0;
    assert_int_equal(fd_link_hello(&hs, psk, e, hello, sizeof hello, &hello_len), FD_OK);
    wire_len = 0;
    for (size_t i = 0; i < hello_len; i++) {
        fd_link_console_feed(&lc, hello[i]);
    }
    uint8_t id[FD_LINK_MAX_PAYLOAD];
    size_t id_len = 0;
    assert_int_equal(fd_link_finish(&hs, wire, wire_len, &controller, id, sizeof id, &id_len), FD_OK);
    assert_true(id_len > 6u && memcmp(id, "OK ID ", 6) == 0);
    return 0;
}

/* Send one command line (len bytes, any) over the session; the device's
 * reply, every DATA frame it sent opened and joined, into reply (NUL
 * terminated); the number of frames. */
static size_t over_link(const char *line, size_t len, char *reply, size_t cap)
{
    uint8_t frame[FD_LINK_MAX_FRAME];
    size_t n = 0;
    assert_int_equal(fd_link_seal(&controller, (const uint8_t *)line, len, frame, sizeof frame, &n), FD_OK);
    wire_len = 0;
    for (size_t i = 0; i < n; i++) {
        fd_link_console_feed(&lc, frame[i]);
    }
    size_t frames = 0;
    size_t got = 0;
    for (size_t off = 0; off < wire_len;) {
        assert_true(wire_len - off > FD_LINK_HEADER_SIZE);
        assert_int_equal(wire[off], FD_LINK_MAGIC);
        assert_int_equal(wire[off + 1u], FD_LINK_DATA);
        const size_t size = FD_LINK_HEADER_SIZE + ((size_t)wire[off + 2u] << 8 | wire[off + 3u]);
        assert_true(size <= wire_len - off);
        uint8_t payload[FD_LINK_MAX_FRAME];
        size_t m = 0;
        assert_int_equal(fd_link_open(&controller, wire + off, size, payload, sizeof payload, &m), FD_OK);
        assert_true(m < cap - got);
        memcpy(reply + got, payload, m);
        got += m;
        off += size;
        frames++;
    }
    reply[got] = '\0';
    return frames;
}

/* The same line on the cleartext console (unlocked for it). */
static const char *cleartext(const char *line)
{
    text.len = 0;
    text.text[0] = '\0';
    const bool locked = console.locked;
    console.locked = false;
    fd_console_command(&console, line, strlen(line));
    console.locked = locked;
    return text.text;
}

/* link_console.c flush: "lc->tx_len = 0" with 1 (after a full payload the
 * next one starts one byte in: a stray byte in the reply). A reply longer
 * than one payload comes in several frames that join to exactly the reply
 * the cleartext console gives. */
static void test_long_reply_joins_exactly(void **state)
{
    (void)state;
    static char reply[4096];
    for (int round = 0; round < 2; round++) { /* two revealed rounds: RECALL takes three payloads */
        assert_int_equal(over_link("SHUFFLE", 7, reply, sizeof reply), 1u);
        assert_true(strncmp(reply, "OK SHUFFLE ", 11) == 0);
        assert_int_equal(over_link("DEAL 40", 7, reply, sizeof reply), 1u);
        assert_int_equal(over_link("REVEAL", 6, reply, sizeof reply), 1u);
        assert_true(strncmp(reply, "OK REVEAL ", 10) == 0);
    }
    const size_t frames = over_link("RECALL", 6, reply, sizeof reply);
    const char *want = cleartext("RECALL");
    assert_true(strlen(want) > 2u * FD_LINK_MAX_PAYLOAD);
    assert_int_equal(frames, (strlen(want) + FD_LINK_MAX_PAYLOAD - 1u) / FD_LINK_MAX_PAYLOAD);
    assert_string_equal(reply, want);
}

/* link_console.c line_ok: "(p[i] < 0x20u && p[i] != '\t') || p[i] >= 0x7Fu"
 * with && (every byte taken). docs/LINK.md: a command line over the link is
 * what the cleartext line reader could take, printable ASCII or tab; any
 * other byte is refused with ERR badbyte and runs nothing. */
static void test_control_and_high_bytes_refused(void **state)
{
    (void)state;
    static const char bad[] = "ERR badbyte a command line is printable ASCII, at most 144 characters\r\n";
    static const char *const lines[] = {"ID\x01", "ID\x1f", "ID\r", "ID\n", "ID\x7f", "ID\x80", "ID\xff", "\x1b[2J"};
    static char reply[4096];
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        assert_int_equal(over_link(lines[i], strlen(lines[i]), reply, sizeof reply), 1u);
        if (strcmp(reply, bad) != 0) {
            fail_msg("line %u: %s", (unsigned)i, reply);
        }
    }
    assert_int_equal(over_link("ID", 2, reply, sizeof reply), 1u);
    assert_true(strncmp(reply, "OK ID ", 6) == 0);
    assert_int_equal(over_link("ID\t", 3, reply, sizeof reply), 1u); /* a tab is a blank */
    assert_true(strncmp(reply, "OK ID ", 6) == 0);
    assert_int_equal(over_link(" ~", 2, reply, sizeof reply), 1u); /* the printable ends */
    assert_true(strncmp(reply, "ERR ", 4) == 0 && strcmp(reply, bad) != 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_reply_joins_exactly),
        cmocka_unit_test(test_control_and_high_bytes_refused),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
