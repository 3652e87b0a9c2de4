/* Typed-ahead bytes against flash stalls (docs/PROTOCOL.md "Flash stalls",
 * docs/HARDWARE.md "Flash stalls").
 *
 * QEMU's NVMC is instant and its UARTs never overrun; the chips are not.
 * This runs the real dealer and console (fd_dealer built for the board's
 * journal geometry, fd_console, the boards' receive ring rx_ring.c) over a
 * store that models one real board's flash (FD_STALL_BOARD: one executable
 * per board): its geometry (the board's board.cmake), and every erase
 * and program stalls the CPU for the datasheet's worst time (nRF51 RM
 * v3.0 / nRF52840 PS v1.7 NVMC: the CPU halts while the NVMC erases or
 * writes; RM0090 3.5: every flash read, instruction fetches included,
 * stalls while the STM32 erases or programs). What each board's console
 * does meanwhile is its driver's, shown on the fake registers:
 * - micro:bit: no interrupt runs; the nRF51 UART's 6-byte FIFO holds bytes,
 *   the next is an overrun (test_hw_uart_microbit.c);
 * - nRF52840-DK: the UARTE receives by EasyDMA into a 256-byte buffer
 *   while the CPU is halted, put into the ring after the operation
 *   (test_flash_hold_nrf52.c);
 * - STM32F4DISCOVERY: the USART2 handler and the wait run from SRAM, so
 *   bytes go to the ring during the stall (test_flash_ram_stm32.c).
 * Past what the board keeps, bytes are lost and the loss reported (the
 * UART's overrun or the ring's), never silent.
 *
 * A controller that follows the protocol (waits for each reply line before
 * it sends the next command, lines ended CR LF so the LF arrives during the
 * command) must lose nothing on any board, over enough rounds that the
 * journal erases pages; the model also checks that no erase or program
 * happens between a reply and the next command (the dealer's side of the
 * rule). A controller that types a round ahead (its six commands at once,
 * then waits for their replies) loses nothing where the board keeps the
 * bytes of a stall, and loses bytes, reported, on the micro:bit. One that
 * types its whole session ahead loses bytes on every board, reported. */
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
    unsigned uart_hold;  /* bytes the console keeps while the CPU stands */
    bool isr_runs;       /* its receive interrupt runs during the stall */
} chip;

static const chip chips[] = {
    /* nRF51 RM v3.0 NVMC: page erase 22.3 ms, word 46 us; UART RXD FIFO 6 bytes */
    {"microbit", 22300000u, 46000u, 6u, false},
    /* nRF52840 PS v1.7 NVMC: page erase 85 ms, word 41 us; the EasyDMA hold buffer */
    {"nrf52840-dk", 85000000u, 41000u, FD_RX_RING_SIZE, false},
    /* DS8626: 128 KiB sector erase 2 s at x32, word 100 us; handler in SRAM */
    {"stm32f407-discovery", 2000000000u, 100000u, 0u, true},
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

static uint8_t uart_buf[FD_RX_RING_SIZE];
static unsigned uart_used;
static bool uart_overrun;
static bool stalled;
static uint64_t bytes_during_stalls;
static uint64_t bytes_lost;

/* Every byte due by t reaches the UART; with the CPU running the interrupt
 * moves it into the ring at once. */
static void to_ring(uint8_t b)
{
    if (ring.loss || ring.head - ring.tail >= FD_RX_RING_SIZE) {
        bytes_lost++; /* the ring's own loss, reported by it */
    }
    fd_rx_ring_put(&ring, b);
}

static void arrive_until(uint64_t t)
{
    while (wire.next < wire.count && wire.at[wire.next] <= t) {
        const uint8_t b = wire.byte[wire.next++];
        if (!stalled || cur->isr_runs) {
            bytes_during_stalls += stalled ? 1u : 0u;
            to_ring(b);
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
        to_ring(uart_buf[i]);
    }
    uart_used = 0;
    if (uart_overrun) {
        fd_rx_ring_hw_lost(&ring);
        uart_overrun = false;
    }
}

/* ---- the controller ---- */
/* How the controller sends: each command after the last one's reply, a
 * round's commands at once after the last round's replies, or all at once. */
typedef enum {
    WAIT_EACH,
    WAIT_ROUND,
    TYPE_ALL
} pace;
static pace pacing;
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

static void send_round(void);
#define ROUND_LINES 6u      /* round_lines below */
static size_t round_awaits; /* replies the round still waits for */

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
            if (pacing == WAIT_EACH) {
                send_next();
            } else if (pacing == WAIT_ROUND && --round_awaits == 0u) {
                send_round();
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
            if (wire.next == wire.count && pacing == WAIT_ROUND && sent < script_lines) {
                send_round(); /* replies missing (lines lost whole): the controller's timeout */
                continue;
            }
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

static const char *const round_lines[ROUND_LINES] = {"SHUFFLE drbg", "DEAL 5", "DEAL 5", "DEAL 5", "DEAL 5", "REVEAL"};

static void send_round(void)
{
    round_awaits = ROUND_LINES;
    for (size_t i = 0; i < ROUND_LINES; i++) {
        send_next();
    }
}
static const char *lines[60000];

static void session(const chip *c, pace how, size_t rounds)
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
    pacing = how;

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
    if (how == WAIT_EACH) {
        send_next(); /* the banner is out: the first command */
    } else if (how == WAIT_ROUND) {
        send_round();
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
            session(c, WAIT_EACH, rounds);
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

/* A round typed ahead (54 bytes): safe where the board keeps a stall's
 * bytes (docs/HARDWARE.md "Flash stalls": up to 256 on the nRF52840 and
 * the STM32), lost and reported on the micro:bit. */
static void test_a_round_typed_ahead(void **state)
{
    (void)state;
    const chip *c = this_chip();
    size_t round_bytes = 0;
    for (size_t i = 0; i < ROUND_LINES; i++) {
        round_bytes += strlen(round_lines[i]) + 2u;
    }
    size_t rounds = 40;
    do {
        session(c, WAIT_ROUND, rounds);
        rounds *= 2u;
    } while (erases < 2u && rounds * ROUND_LINES <= sizeof lines / sizeof lines[0]);
    printf("%s, a round (%zu bytes) typed ahead: %zu commands, %llu erases, %llu bytes arrived during stalls, %llu "
           "lost, %llu ERR overrun, %llu OK\n",
           c->board, round_bytes, sent, (unsigned long long)erases, (unsigned long long)bytes_during_stalls,
           (unsigned long long)bytes_lost, (unsigned long long)overrun_replies, (unsigned long long)ok_replies);
    assert_true(erases >= 2u);
    assert_true(bytes_during_stalls > round_bytes); /* more than a line end per stall */
    if (c->isr_runs || c->uart_hold >= round_bytes) {
        assert_int_equal(bytes_lost, 0u);
        assert_int_equal(overrun_replies, 0u);
        assert_int_equal(ok_replies, script_lines);
    } else {
        assert_true(bytes_lost > 0u);
        assert_true(overrun_replies > 0u);
    }
}

/* The whole session typed ahead (~2 KB): more than any board keeps, so
 * bytes are lost on every board: reported, never silent. */
static void test_typed_ahead_bytes_lost_in_a_stall_are_reported(void **state)
{
    (void)state;
    const chip *c = this_chip();
    {
        session(c, TYPE_ALL, 40);
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
        cmocka_unit_test(test_a_round_typed_ahead),
        cmocka_unit_test(test_typed_ahead_bytes_lost_in_a_stall_are_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
