/* Timing-budget measurements for one real board (docs/HARDWARE.md "Timing
 * budget"), run on a QEMU board with the same core (FD_BUDGET_QEMU_BOARD in
 * the real board's board.cmake) under -icount shift=0,sleep=off, where
 * one instruction is one nanosecond and the time base's readings convert
 * to instruction counts. The journal lives on the real board's storage
 * geometry (FD_BUDGET_PAGE_SIZE x FD_BUDGET_PAGES): the board's own flash
 * where the QEMU board has the same one (the micro:bit), else a RAM store
 * in this image with NOR rules (erase to 0xFF, program ANDs). Entropy is a
 * fixed pattern at the real board's health-test constants (its H); the
 * raw samples read are counted, not timed.
 *
 * The session drives the dealer through its console as a controller
 * would, to the journal's worst cases: rounds to the kept summaries, then
 * the kept full hands and an open round, each at the largest shoe
 * (FD_SHOE_MAX_CARDS) dealt one card per DEAL (the commands' worst, with
 * the most kept); then, over the area erased again, the worst-case fill
 * for start-up (tests/bench/worst_fill.c: the most records in the widest
 * live range, an open round) and a power-on over it (the mount's
 * figure). For each kind of operation it prints the most
 * instructions, page erases, programmed words and raw samples any one
 * command took (each maximum on its own: their sum bounds the worst
 * command), the same for the longest stretch between two watchdog kicks
 * (what the watchdog sees: hal_watchdog_kick is wrapped at link time, so
 * kicks made inside the journal's walks count), and the real board's
 * facts; scripts/budget.py turns these into times and checks each stretch
 * against a quarter of the watchdog. */
#include <stdint.h>
#include <string.h>

#include "console_say.h"
#include "dealer.h"
#include "fd_board_map.h"
#include "fd_trng_config.h"
#include "hal/counter.h"
#include "hal/storage.h"
#include "hal/watchdog.h"
#include "persist.h"
#include "protocol.h"
#include "worst_fill.h"

#define STORE_BYTES ((uint32_t)FD_BUDGET_PAGE_SIZE * FD_BUDGET_PAGES)

/* ---- the store, counted ---- */
static fd_flash inner;
static fd_flash counted;
static uint32_t erases;
static uint32_t words;
static uint32_t ops; /* erase and program calls */

#if FD_BUDGET_RAM_STORE
static uint32_t ram[STORE_BYTES / 4u];

static fd_status ram_erase(void *ctx, uint32_t page)
{
    (void)ctx;
    if (page >= FD_BUDGET_PAGES) {
        return FD_ERR_TOO_LARGE;
    }
    memset((uint8_t *)ram + (size_t)page * FD_BUDGET_PAGE_SIZE, 0xFF, FD_BUDGET_PAGE_SIZE);
    return FD_OK;
}

static fd_status ram_program(void *ctx, uint32_t offset, const uint32_t *w, size_t count)
{
    (void)ctx;
    if (w == NULL || offset % 4u != 0u || offset > STORE_BYTES || count > (STORE_BYTES - offset) / 4u) {
        return FD_ERR_TOO_LARGE;
    }
    for (size_t i = 0; i < count; i++) {
        ram[offset / 4u + i] &= w[i];
    }
    return FD_OK;
}

static fd_status ram_read(void *ctx, uint32_t offset, void *out, size_t len)
{
    (void)ctx;
    if (out == NULL || offset > STORE_BYTES || len > STORE_BYTES - offset) {
        return FD_ERR_TOO_LARGE;
    }
    memcpy(out, (const uint8_t *)ram + offset, len);
    return FD_OK;
}

static fd_status open_store(void)
{
    inner.geometry.page_size = FD_BUDGET_PAGE_SIZE;
    inner.geometry.page_count = FD_BUDGET_PAGES;
    inner.geometry.write_unit = 4;
    inner.geometry.erased_value = 0xFF;
    inner.ctx = NULL;
    inner.erase = ram_erase;
    inner.program = ram_program;
    inner.read = ram_read;
    return FD_OK;
}
#else
_Static_assert(FD_BUDGET_PAGE_SIZE == FD_FLASH_PAGE_SIZE && FD_BUDGET_PAGES == FD_STORAGE_PAGES,
               "the QEMU board's own store must have the real board's geometry");
static fd_status open_store(void)
{
    static const hal_storage_area area = {FD_STORAGE_ADDR, FD_FLASH_PAGE_SIZE, FD_STORAGE_PAGES};
    return hal_storage_open(&area, &inner);
}
#endif

static fd_status counted_erase(void *ctx, uint32_t page)
{
    (void)ctx;
    erases++;
    ops++;
    return inner.erase(inner.ctx, page);
}

static fd_status counted_program(void *ctx, uint32_t offset, const uint32_t *w, size_t count)
{
    (void)ctx;
    words += (uint32_t)count;
    ops++;
    return inner.program(inner.ctx, offset, w, count);
}

static fd_status counted_read(void *ctx, uint32_t offset, void *out, size_t len)
{
    (void)ctx;
    return inner.read(inner.ctx, offset, out, len);
}

/* ---- entropy: a fixed pattern, counted ---- */
static uint32_t samples;

static fd_status pattern_samples(void *ctx, uint8_t *out, size_t count)
{
    uint32_t *state = ctx;
    for (size_t i = 0; i < count; i++) {
        *state = *state * 1664525u + 1013904223u; /* varied, passes health tests */
        out[i] = (uint8_t)(*state >> 24);
    }
    samples += (uint32_t)count;
    return FD_OK;
}

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

/* ---- the worst of each kind ---- */
typedef struct cost {
    uint64_t insns;
    uint32_t erases;
    uint32_t words;
    uint32_t samples;
    uint32_t ops;
} cost;

enum {
    K_POWER_ON_EMPTY,
    K_POWER_ON_BARE,
    K_POWER_ON_FULL,
    K_SHUFFLE,
    K_DEAL,
    K_REVEAL,
    K_OTHER,
    K_COUNT
};
static const char *const kind_name[K_COUNT] = {"power_on_empty", "power_on_bare", "power_on_full", "shuffle",
                                               "deal",           "reveal",        "other"};
static cost worst[K_COUNT];   /* whole commands */
static cost stretch[K_COUNT]; /* between watchdog kicks */
static uint32_t most_kicks[K_COUNT];

typedef struct mark {
    uint32_t t, e, w, s, o;
} mark;
static mark whole;
static mark since_kick;
static int running = -1; /* the kind being measured, or -1 */
static uint32_t kicks;

static void set_mark(mark *m)
{
    m->e = erases;
    m->w = words;
    m->s = samples;
    m->o = ops;
    m->t = hal_counter_read();
}

static void account(cost *into, const mark *from)
{
    const uint32_t ticks = hal_counter_read() - from->t;
    const cost c = {(uint64_t)ticks * 1000000000u / FD_CPU_HZ, erases - from->e, words - from->w, samples - from->s,
                    ops - from->o};
    into->insns = c.insns > into->insns ? c.insns : into->insns;
    into->erases = c.erases > into->erases ? c.erases : into->erases;
    into->words = c.words > into->words ? c.words : into->words;
    into->samples = c.samples > into->samples ? c.samples : into->samples;
    into->ops = c.ops > into->ops ? c.ops : into->ops;
}

/* Linked with -Wl,--wrap=hal_watchdog_kick: every kick ends a stretch. */
void __real_hal_watchdog_kick(void);
void __wrap_hal_watchdog_kick(void);
void __wrap_hal_watchdog_kick(void)
{
    if (running >= 0) {
        account(&stretch[running], &since_kick);
        kicks++;
        set_mark(&since_kick);
    }
    __real_hal_watchdog_kick();
}

static void start(int kind)
{
    running = kind;
    kicks = 0;
    set_mark(&since_kick);
    set_mark(&whole);
}

static void stop(void)
{
    account(&worst[running], &whole);
    account(&stretch[running], &since_kick);
    most_kicks[running] = kicks > most_kicks[running] ? kicks : most_kicks[running];
    running = -1;
}

/* ---- the dealer and its console ---- */
static fd_dealer dealer;
static fd_console console;
static char reply[160];
static size_t reply_len;
static uint32_t lcg;

static void capture(void *ctx, const char *data, size_t len)
{
    (void)ctx;
    for (size_t i = 0; i < len && reply_len < sizeof reply - 1u; i++) {
        reply[reply_len++] = data[i];
    }
    reply[reply_len] = '\0';
}

/* The dealer's kick, as main.c gives it: through hal_watchdog_kick, so the
 * wrap above sees every kick the journal's walks make. */
static void kick_watchdog(void *ctx)
{
    (void)ctx;
    hal_watchdog_kick();
}

static fd_dealer_config config(bool journal)
{
    const fd_dealer_config cfg = {.read_samples = pattern_samples,
                                  .restart_source = restart_ok,
                                  .read_ctx = &lcg,
                                  .health = FD_TRNG_HEALTH_CONFIG,
                                  .samples_per_block = FD_TRNG_SAMPLES_PER_BLOCK,
                                  .drbg_kind = FD_DRBG_CHACHA20,
                                  .board = FD_BUDGET_BOARD,
                                  .trng_name = "pattern",
                                  .storage = journal ? &counted : NULL,
                                  .storage_name = "budget store",
                                  .kick = kick_watchdog};
    return cfg;
}

/* Power-on to the prompt: the dealer's start-up and its banner. */
static void power_on(bool journal, int kind)
{
    const fd_dealer_config cfg = config(journal);
    start(kind);
    /* the measurement; the session's replies show any failure */
    (void)fd_dealer_init(&dealer, &cfg);
    fd_console_init(&console, &dealer, capture, NULL, false, false);
    reply_len = 0;
    fd_console_start(&console);
    stop();
}

static uint32_t failures;

static void fail(const char *line)
{
    failures++;
    say("BUDGET error ");
    say(line);
    say(" -> ");
    say(reply);
    say("\r\n");
}

/* One command; true when it was answered OK. */
static bool cmd(const char *line, int kind)
{
    reply_len = 0;
    reply[0] = '\0';
    start(kind);
    fd_console_command(&console, line, strlen(line));
    stop();
    return strncmp(reply, "OK ", 3) == 0;
}

static void must(const char *line, int kind)
{
    if (!cmd(line, kind)) {
        fail(line);
    }
}

/* The worst-case fill's commands, each measured as its kind. */
static bool fill_cmd(void *ctx, const char *line)
{
    (void)ctx;
    const int kind = strncmp(line, "SHUFFLE", 7) == 0  ? K_SHUFFLE
                     : strncmp(line, "DEAL", 4) == 0   ? K_DEAL
                     : strncmp(line, "REVEAL", 6) == 0 ? K_REVEAL
                                                       : K_OTHER;
    return cmd(line, kind);
}

/* A round at the largest shoe, one card per DEAL until the dealer refuses
 * or the shoe is empty; its DEAL count. */
static uint32_t full_round(const char *shuffle, bool reveal)
{
    must("NEW french 8 2", K_OTHER);
    must(shuffle, K_SHUFFLE);
    uint32_t deals = 0;
    while (deals < FD_SHOE_MAX_CARDS && cmd("DEAL 1", K_DEAL)) {
        deals++;
    }
    if (reveal) {
        must("REVEAL", K_REVEAL);
    }
    return deals;
}

static void say_u64(uint64_t v)
{
    if (v >= 1000000000u) {
        say_u32((uint32_t)(v / 1000000000u));
        char digits[10];
        uint32_t low = (uint32_t)(v % 1000000000u);
        for (int i = 8; i >= 0; i--) {
            digits[i] = (char)('0' + low % 10u);
            low /= 10u;
        }
        hal_console_write(digits, 9);
    } else {
        say_u32((uint32_t)v);
    }
}

static void say_cost(const char *what, int kind, const cost *c)
{
    say("BUDGET ");
    say(what);
    say(" ");
    say(kind_name[kind]);
    say(" insns=");
    say_u64(c->insns);
    say(" erases=");
    say_u32(c->erases);
    say(" words=");
    say_u32(c->words);
    say(" samples=");
    say_u32(c->samples);
    say(" ops=");
    say_u32(c->ops);
    say("\r\n");
}

static void fact(const char *key, uint32_t value)
{
    say("BUDGET fact ");
    say(key);
    say(" ");
    say_u32(value);
    say("\r\n");
}

int main(void)
{
    say("BUDGET board " FD_BUDGET_BOARD "\r\n");
    fact("cpu_hz", FD_BUDGET_CPU_HZ);
    fact("watchdog_ms", FD_BUDGET_WATCHDOG_MS);
    fact("erase_us", FD_BUDGET_ERASE_US);
    fact("program_ns", FD_BUDGET_PROGRAM_NS);
    fact("sample_ns", FD_BUDGET_SAMPLE_NS);
    fact("op_ns", FD_BUDGET_OP_NS);
    fact("page_size", FD_BUDGET_PAGE_SIZE);
    fact("pages", FD_BUDGET_PAGES);
    if (open_store() != FD_OK) {
        say("BUDGET error storage\r\n");
        return 1;
    }
    counted = inner;
    counted.ctx = NULL;
    counted.erase = counted_erase;
    counted.program = counted_program;
    counted.read = counted_read;
    for (uint32_t p = 0; p < FD_BUDGET_PAGES; p++) {
        (void)inner.erase(inner.ctx, p); /* a fresh, erased area; not counted */
    }

    power_on(false, K_POWER_ON_BARE);
    power_on(true, K_POWER_ON_EMPTY);
    /* rounds to the kept summaries (52 cards, one DEAL each) */
    for (uint32_t r = 0; r < FD_DEALER_KEEP_SUMMARIES; r++) {
        must("SHUFFLE drbg", K_SHUFFLE);
        must("DEAL 5", K_DEAL);
        must("REVEAL", K_REVEAL);
    }
    /* the kept full hands, each SHUFFLE form at the largest shoe */
    static const char *const forms[] = {"SHUFFLE", "SHUFFLE full", "SHUFFLE drbg"};
    uint32_t most_deals = 0;
    for (uint32_t r = 0; r < FD_DEALER_KEEP_HANDS; r++) {
        const uint32_t deals = full_round(forms[r % 3u], true);
        most_deals = deals > most_deals ? deals : most_deals;
    }
    /* and an open round, dealt to its last card */
    const uint32_t open_deals = full_round("SHUFFLE", false);
    fact("deals_per_round", most_deals > open_deals ? most_deals : open_deals);
    fact("erases_in_session", erases);
    /* the worst-case fill for start-up, over the area erased again */
    for (uint32_t p = 0; p < FD_BUDGET_PAGES; p++) {
        (void)inner.erase(inner.ctx, p); /* not counted */
    }
    power_on(true, K_POWER_ON_EMPTY);
    if (worst_fill(&dealer, fill_cmd, NULL) == 0u) {
        fail("the worst-case fill");
    }
    fact("fill_live_records", worst_fill_live_records(&dealer));
    power_on(false, K_POWER_ON_BARE);
    power_on(true, K_POWER_ON_FULL);
    if (!fd_dealer_round_open(&dealer) || !dealer.persist.recovered) {
        reply_len = 0;
        fail("power-on over the full journal: the open round was not resumed");
    }
    for (int k = 0; k < K_COUNT; k++) {
        say_cost("cost", k, &worst[k]);
        say_cost("stretch", k, &stretch[k]);
        say("BUDGET kicks ");
        say(kind_name[k]);
        say(" ");
        say_u32(most_kicks[k]);
        say("\r\n");
    }
    say(failures == 0u ? "BUDGET end\r\n" : "BUDGET failed\r\n");
    return failures == 0u ? 0 : 1;
}
