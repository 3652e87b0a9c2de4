/* Typed-ahead bytes against flash stalls (docs/PROTOCOL.md "Flash stalls").
 *
 * QEMU's NVMC is instant and its UARTs never overrun; the chips are not.
 * This runs the real dealer and console (fd_dealer built for the board's
 * journal geometry, fd_console, the boards' receive ring rx_ring.c) over a
 * store that models one real board's flash (FD_STALL_BOARD: one executable
 * per board): its geometry (the board's board.cmake), and every erase
 * and program stalls the CPU for the datasheet's worst time (nRF51 RM
 * v3.0 / nRF52840 PS v1.7 NVMC: the CPU halts while the NVMC erases or
 * writes; RM0090 3.5: every flash read, instruction fetches included,
 * stalls while the STM32 erases or programs). While the CPU stands no
 * interrupt runs: bytes arriving then wait in the UART's own buffer (the
 * nRF51 UART's 6-byte FIFO; the STM32 USART's one DR byte; on the nRF52840
 * only the byte of the running one-byte EasyDMA transfer is counted, its RX
 * FIFO is left out so the model errs towards loss); one more is lost and
 * the UART flags it (overrun), as the drivers report it to the ring.
 *
 * A controller that follows the protocol (waits for each reply line before
 * it sends the next command, lines ended CR LF so the LF arrives during the
 * command) must lose nothing on any board, over enough rounds that the
 * journal erases pages; the model also checks that no erase or program
 * happens between a reply and the next command (the dealer's side of the
 * rule). A controller that types ahead loses bytes during the stalls, and
 * the loss is reported (ERR overrun), never silent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dealer.h"
#include "host_storage.h"
#include "protocol.h"
#include "rx_ring.h"
#include "test_dealer_config.h"

#define BYTE_NS 86806u /* 10 bits at 115200 baud */

typedef struct chip {
    const char *board;
    uint64_t erase_ns;   /* one page, datasheet maximum */
    uint64_t program_ns; /* one 32-bit word, datasheet maximum */
    unsigned uart_hold;  /* bytes the UART keeps while no interrupt runs */
} chip;

static const chip chips[] = {
    /* nRF51 RM v3.0 NVMC: page erase 22.3 ms, word 46 us; UART RXD FIFO 6 bytes */
    {"microbit", 22300000u, 46000u, 6u},
    /* nRF52840 PS v1.7 NVMC: page erase 85 ms, word 41 us */
    {"nrf52840-dk", 85000000u, 41000u, 1u},
    /* DS8626: 128 KiB sector erase 2 s at x32, word 100 us; RM0090 30.6.1: DR */
    {"stm32f407-discovery", 2000000000u, 100000u, 1u},
};

/* ---- time, the line and the UART ---- */
static const chip *cur;
static uint64_t now_ns;
static fd_rx_ring ring;

#define LINE_MAX_BYTES 200000u
static struct {
    uint8_t byte[LINE_MAX_BYTES];
    uint64_t at[LINE_MAX_BYTES];
    size_t count; /* scheduled */
    size_t next;  /* arrived */
} wire;

static uint8_t uart_buf[8];
static unsigned uart_used;
static bool uart_overrun;
static bool stalled;
static uint64_t bytes_during_stalls;
static uint64_t bytes_lost;

/* Every byte due by t reaches the UART; with the CPU running the interrupt
 * moves it into the ring at once. */
static void arrive_until(uint64_t t)
{
    while (wire.next < wire.count && wire.at[wire.next] <= t) {
        const uint8_t b = wire.byte[wire.next++];
        if (!stalled) {
            fd_rx_ring_put(&ring, b);
        } else if (uart_used < cur->uart_hold) {
            uart_buf[uart_used++] = b;
            bytes_during_stalls++;
        } else {
            uart_overrun = true;
            bytes_lost++;
        }
    }
}

/* The CPU stands for d ns; then the interrupt empties the UART, bytes
 * first, the overrun after them (as the drivers do). */
static void stall(uint64_t d)
{
    stalled = true;
    arrive_until(now_ns + d);
    now_ns += d;
    stalled = false;
    for (unsigned i = 0; i < uart_used; i++) {
        fd_rx_ring_put(&ring, uart_buf[i]);
    }
    uart_used = 0;
    if (uart_overrun) {
        fd_rx_ring_hw_lost(&ring);
        uart_overrun = false;
    }
}

/* ---- the controller ---- */
static bool waits_for_replies;
static const char *const *script;
static size_t script_lines;
static size_t sent;     /* lines scheduled */
static size_t replies;  /* reply lines seen since the banner */
static bool counting;   /* the banner is over */
static bool reply_open; /* a reply came and the next command has not started */
static uint64_t flash_ops_after_reply;
static uint64_t overrun_replies;
static uint64_t ok_replies;
static char pending[512];
static size_t pending_len;

static void schedule_line(const char *text, uint64_t start)
{
    const size_t n = strlen(text);
    uint64_t t = start > now_ns ? start : now_ns;
    if (wire.count > 0u && wire.at[wire.count - 1u] + BYTE_NS > t) {
        t = wire.at[wire.count - 1u] + BYTE_NS; /* one byte after another */
    }
    assert_true(wire.count + n + 2u <= LINE_MAX_BYTES);
    for (size_t i = 0; i < n + 2u; i++) {
        wire.byte[wire.count] = i < n ? (uint8_t)text[i] : (i == n ? (uint8_t)'\r' : (uint8_t)'\n');
        wire.at[wire.count++] = t + (uint64_t)(i + 1u) * BYTE_NS;
    }
}

static void send_next(void)
{
    if (sent < script_lines) {
        schedule_line(script[sent++], now_ns);
    }
}

/* The dealer's output: each complete reply line, the moment it is written. */
static void console_out(void *ctx, const char *data, size_t len)
{
    (void)ctx;
    for (size_t i = 0; i < len; i++) {
        if (pending_len < sizeof pending - 1u) {
            pending[pending_len++] = data[i];
        }
        if (data[i] != '\n') {
            continue;
        }
        pending[pending_len] = '\0';
        if (counting && (strncmp(pending, "OK ", 3) == 0 || strncmp(pending, "ERR ", 4) == 0)) {
            replies++;
            ok_replies += strncmp(pending, "OK ", 3) == 0 ? 1u : 0u;
            overrun_replies += strstr(pending, "ERR overrun") == pending ? 1u : 0u;
            reply_open = true;
            if (waits_for_replies) {
                send_next();
            }
        }
        pending_len = 0;
    }
}

/* ---- the store: the host flash simulator, stalling ---- */
static host_flash hf;
static fd_flash stalling;
static uint8_t mem[FD_STALL_PAGE_SIZE * FD_STALL_PAGES];
static uint64_t erases;

static fd_status stall_erase(void *ctx, uint32_t page)
{
    (void)ctx;
    flash_ops_after_reply += reply_open ? 1u : 0u;
    erases++;
    stall(cur->erase_ns);
    return hf.flash.erase(hf.flash.ctx, page);
}

static fd_status stall_program(void *ctx, uint32_t offset, const uint32_t *words, size_t count)
{
    (void)ctx;
    flash_ops_after_reply += reply_open ? 1u : 0u;
    stall(cur->program_ns * count);
    return hf.flash.program(hf.flash.ctx, offset, words, count);
}

static fd_status stall_read(void *ctx, uint32_t offset, void *out, size_t len)
{
    (void)ctx;
    return hf.flash.read(hf.flash.ctx, offset, out, len);
}

/* ---- the dealer ---- */
static fake_trng trng;
static fd_dealer dealer;
static fd_console console;

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

/* The firmware's main loop: read the ring, sleep until the next byte when
 * it is empty, a loss goes to fd_console_lost. */
static void run(void)
{
    for (;;) {
        uint8_t b = 0;
        const fd_status st = fd_rx_ring_get(&ring, &b);
        if (st == FD_ERR_EXHAUSTED) {
            if (wire.next == wire.count) {
                return;
            }
            if (wire.at[wire.next] > now_ns) {
                now_ns = wire.at[wire.next];
            }
            arrive_until(now_ns);
            continue;
        }
        if (b != '\r' && b != '\n') {
            reply_open = false; /* the next command has begun */
        }
        if (st == FD_ERR_OVERRUN) {
            fd_console_lost(&console);
        } else {
            (void)fd_console_feed(&console, b);
        }
    }
}

static const char *const round_lines[] = {"SHUFFLE drbg", "DEAL 5", "DEAL 5", "DEAL 5", "DEAL 5", "REVEAL"};
#define ROUND_LINES (sizeof round_lines / sizeof round_lines[0])
static const char *lines[60000];

static void session(const chip *c, bool waits, size_t rounds)
{
    cur = c;
    now_ns = 0;
    memset(&wire, 0, sizeof wire);
    uart_used = 0;
    uart_overrun = false;
    stalled = false;
    bytes_during_stalls = bytes_lost = 0;
    sent = replies = 0;
    counting = reply_open = false;
    flash_ops_after_reply = overrun_replies = ok_replies = erases = 0;
    pending_len = 0;
    fd_rx_ring_init(&ring);
    assert_true(rounds * ROUND_LINES <= sizeof lines / sizeof lines[0]);
    for (size_t r = 0; r < rounds; r++) {
        for (size_t i = 0; i < ROUND_LINES; i++) {
            lines[r * ROUND_LINES + i] = round_lines[i];
        }
    }
    script = lines;
    script_lines = rounds * ROUND_LINES;
    waits_for_replies = waits;

    memset(mem, 0xFF, sizeof mem); /* erased flash */
    assert_int_equal(host_flash_open(&hf, mem, FD_STALL_PAGE_SIZE, FD_STALL_PAGES, NULL), FD_OK);
    stalling = hf.flash;
    stalling.ctx = NULL;
    stalling.erase = stall_erase;
    stalling.program = stall_program;
    stalling.read = stall_read;

    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 29);
    fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    cfg.storage = &stalling;
    cfg.storage_name = c->board;
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK); /* start-up: flash work before the banner */
    assert_int_equal(dealer.persist.status, FD_OK);         /* the journal took the geometry */
    fd_console_init(&console, &dealer, console_out, NULL, false, false);
    fd_console_start(&console);
    counting = true;
    reply_open = false;
    if (waits) {
        send_next(); /* the banner is out: the first command */
    } else {
        while (sent < script_lines) {
            send_next();
        }
    }
    run();
}

/* The protocol's promise (docs/PROTOCOL.md "Flash stalls"). */
/* The board under test's row. */
static const chip *this_chip(void)
{
    for (size_t i = 0; i < sizeof chips / sizeof chips[0]; i++) {
        if (strcmp(chips[i].board, FD_STALL_BOARD) == 0) {
            return &chips[i];
        }
    }
    fail_msg("no stall figures for %s", FD_STALL_BOARD);
    return NULL;
}

static void test_a_controller_that_waits_loses_nothing(void **state)
{
    (void)state;
    const chip *c = this_chip();
    {
        /* enough rounds that the journal turns pages and erases */
        size_t rounds = 40;
        do {
            session(c, true, rounds);
            rounds *= 2u;
        } while (erases < 2u && rounds * ROUND_LINES <= sizeof lines / sizeof lines[0]);
        printf("%s: %zu commands, %llu erases, %.1f s of flash stalls modelled, %llu bytes held by the UART "
               "during stalls, %llu lost\n",
               c->board, sent, (unsigned long long)erases, (double)now_ns / 1e9,
               (unsigned long long)bytes_during_stalls, (unsigned long long)bytes_lost);
        assert_true(erases >= 2u);             /* the stalls that matter happened */
        assert_true(bytes_during_stalls > 0u); /* and bytes arrived during them (the LFs) */
        assert_int_equal(bytes_lost, 0u);
        assert_int_equal(overrun_replies, 0u);
        assert_int_equal(replies, script_lines); /* one reply per command */
        assert_int_equal(ok_replies, script_lines);
        assert_int_equal(flash_ops_after_reply, 0u); /* no flash work after a reply */
    }
}

/* Typing ahead during a stall loses bytes: reported, never silent. */
static void test_typed_ahead_bytes_lost_in_a_stall_are_reported(void **state)
{
    (void)state;
    const chip *c = this_chip();
    {
        session(c, false, 40);
        printf("%s typing ahead: %zu commands sent, %llu bytes lost, %llu ERR overrun, %llu OK\n", c->board, sent,
               (unsigned long long)bytes_lost, (unsigned long long)overrun_replies, (unsigned long long)ok_replies);
        assert_true(bytes_lost > 0u);
        assert_true(overrun_replies > 0u);
        assert_true(ok_replies + overrun_replies <= script_lines);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_controller_that_waits_loses_nothing),
        cmocka_unit_test(test_typed_ahead_bytes_lost_in_a_stall_are_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
