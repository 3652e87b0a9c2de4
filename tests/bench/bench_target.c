/* On-target benchmark: executed instructions per operation, and stack
 * high-water marks, printed as table rows for docs/PERFORMANCE.md. Run it
 * under qemu-system-arm -icount shift=0,sleep=off, where one instruction is
 * one nanosecond of virtual time, so SysTick (FD_CPU_HZ) readings are
 * instruction counts: insns = ticks * 1e9 / FD_CPU_HZ. Each figure is the
 * mean over many repetitions (SysTick's resolution is 1e9/FD_CPU_HZ insns).
 * Entropy is a fixed test pattern: the benchmark measures cost, not chance. */
#include <stdint.h>
#include <string.h>

#include "chacha20_simd.h"
#include "console_say.h"
#include "protocol.h"
#include "fairdeal/bounded.h"
#include "fairdeal/drbg.h"
#include "fairdeal/journal.h"
#include "fairdeal/link.h"
#include "fairdeal/records.h"
#include "fairdeal/round.h"
#include "fairdeal/selftest.h"
#include "fairdeal/shuffle.h"
#include "fairdeal/util.h"
#include "fairdeal/x25519.h"
#include "fd_trng_config.h"
#include "hal/board.h"
#include "hal/console.h"
#include "hal/counter.h"
#include "fd_board_map.h"
#include "hal/storage.h"
#include "worst_fill.h"

extern uint32_t fd_stack_bottom[];

static uint32_t insns(uint32_t ticks) { return (uint32_t)((uint64_t)ticks * 1000000000u / FD_CPU_HZ); }

/* "| what suffix | instructions |" */
static void row2(const char *what, const char *suffix, uint32_t ticks, uint32_t reps)
{
    say("| ");
    say(what);
    say(suffix);
    say(" | ");
    say_u32(insns(ticks) / reps);
    say(" |\r\n");
}

/* "| what suffix | instructions per unit, one decimal |" */
static void row_tenths(const char *what, const char *suffix, uint32_t ticks, uint32_t units)
{
    const uint32_t tenths = (uint32_t)((uint64_t)insns(ticks) * 10u / units);
    say("| ");
    say(what);
    say(suffix);
    say(" | ");
    say_u32(tenths / 10u);
    say(".");
    say_u32(tenths % 10u);
    say(" |\r\n");
}

static fd_status pattern_entropy(void *ctx, uint8_t out[32])
{
    uint32_t *counter = ctx;
    for (uint32_t i = 0; i < 32u; i++) {
        out[i] = (uint8_t)(*counter * 131u + i * 7u);
    }
    (*counter)++;
    return FD_OK;
}

static fd_status pattern_samples(void *ctx, uint8_t *samples, size_t count)
{
    uint32_t *state = ctx;
    for (size_t i = 0; i < count; i++) {
        *state = *state * 1664525u + 1013904223u; /* varied, passes health tests */
        samples[i] = (uint8_t)(*state >> 24);
    }
    return FD_OK;
}

/* Stack painting: fill the unused stack below the current frame, run, and
 * find the deepest word touched. */
#define PAINT 0xC5C5C5C5u
static void paint_stack(void)
{
    volatile uint32_t here;
    uint32_t *p = fd_stack_bottom;
    uint32_t *limit = (uint32_t *)((uintptr_t)&here - 64u);
    while (p < limit) {
        *p++ = PAINT;
    }
}

static uint32_t stack_used_below(uintptr_t base)
{
    const uint32_t *p = fd_stack_bottom;
    while (*p == PAINT) {
        p++;
    }
    return (uint32_t)(base - (uintptr_t)p);
}

static fd_drbg drbg;
static uint32_t entropy_counter;
static fd_dealer dealer;
static fd_console console;

static void open_drbg(fd_drbg_kind kind)
{
    const fd_drbg_config cfg = {kind, false, 1u << 30, 0};
    /* benchmark: fixed valid inputs; the unit tests check the statuses */
    (void)fd_drbg_instantiate(&drbg, &cfg, pattern_entropy, &entropy_counter, NULL, 0);
}

static void discard(void *ctx, const char *data, size_t len)
{
    (void)ctx;
    (void)data;
    (void)len;
}

static uint32_t measure_shuffle(unsigned n, uint32_t reps)
{
    static uint16_t cards[FD_SHOE_MAX_CARDS];
    for (unsigned i = 0; i < n; i++) {
        cards[i] = (uint16_t)i;
    }
    const fd_rng rng = fd_drbg_rng(&drbg);
    const uint32_t t0 = hal_counter_read();
    for (uint32_t r = 0; r < reps; r++) {
        /* benchmark: fixed valid inputs; the unit tests check the statuses */
        (void)fd_shuffle_u16(cards, n, &rng);
    }
    return hal_counter_read() - t0;
}

/* A whole verifiable round after the seeds are in: commitment, key, and
 * the order of a French shoe of `decks` decks from S of the minimum size. */
static uint32_t measure_round(uint8_t decks, uint32_t reps)
{
    static fd_shoe shoe;
    static uint8_t secret[FD_ROUND_SECRET_MAX];
    static fd_round_seeds seeds;
    const fd_round_header header = {"bench", 5, 1, FD_DECK_FRENCH, decks, 0, 0x03, FD_ROUND_NO_BEACON, 0};
    /* benchmark: fixed valid inputs; the unit tests check the statuses */
    (void)fd_round_seeds_clear(&seeds);
    (void)fd_round_seed_set(&seeds, &header, 0, (const uint8_t *)"a player's seed", 15);
    (void)fd_round_seed_set(&seeds, &header, 1, (const uint8_t *)"the table controller", 20);
    uint8_t commitment[FD_SHA256_SIZE];
    uint32_t ticks = 0;
    for (uint32_t r = 0; r < reps; r++) {
        (void)pattern_entropy(&entropy_counter, secret);
        memset(secret + 32, (int)r, sizeof secret - 32u);
        const uint32_t t0 = hal_counter_read();
        /* benchmark: fixed valid inputs; the unit tests check the statuses */
        (void)fd_round_deal_order(&header, secret, fd_round_secret_min(52u * decks), &seeds, &shoe, commitment);
        ticks += hal_counter_read() - t0;
    }
    return ticks;
}

/* Stand-ins of dealer-like sizes for the journal's own measurements (the
 * dealer's layouts are the codec's, fairdeal/records.h). */
#define OPENED_LEN 48u
#define SEED_LEN 32u
#define DEAL_LEN 22u
#define REVEAL_LEN 72u

/* The journal on the board's storage area: a dealer's write-ahead per
 * round (open with the seed as secret, 4 deals of 5 cards, reveal, wipe),
 * measured after 100 rounds have filled the area, so compaction is in. */
/* The dealer's journal state, borrowed while no dealer runs (fd_dealer_init
 * clears it): the micro:bit's 16 KiB hold one journal, not two. */
static fd_journal *const journal = &dealer.persist.journal;
static fd_journal_page *const journal_pages = dealer.persist.pages;
_Static_assert(FD_DEALER_JOURNAL_PAGES >= FD_STORAGE_PAGES, "the dealer's page table covers the area");

static void measure_journal(void)
{
    static const uint8_t key[32] = "bench device key, not a secret.";
    static const hal_storage_area area = {FD_STORAGE_ADDR, FD_FLASH_PAGE_SIZE, FD_STORAGE_PAGES};
    static fd_flash flash;
    fd_records_policy policy = {0, 10, 100};
    if (hal_storage_open(&area, &flash) != FD_OK) {
        say("| journal: storage unavailable | 0 |\r\n");
        return;
    }
    for (uint32_t p = 0; p < FD_STORAGE_PAGES; p++) {
        (void)flash.erase(flash.ctx, p);
    }
    /* benchmark: fixed valid inputs; the unit tests check the statuses */
    (void)fd_journal_init(journal, &flash, key, sizeof key, journal_pages, fd_records_keep, &policy);
    (void)fd_journal_mount(journal, NULL);
    uint32_t t_open = 0;
    uint32_t t_deal = 0;
    uint32_t t_reveal = 0;
    uint32_t t_wipe = 0;
    uint32_t programs = 0;
    uint32_t erases = 0;
    const uint32_t warm = 100;
    const uint32_t rounds = 100;
    for (uint32_t round = 1; round <= warm + rounds; round++) {
        uint8_t open[OPENED_LEN] = {0};
        uint8_t seed[SEED_LEN];
        uint8_t reveal[REVEAL_LEN] = {0};
        memset(seed, (int)round, sizeof seed);
        open[0] = (uint8_t)round;
        reveal[0] = (uint8_t)round;
        policy.newest_round = round;
        if (round == warm + 1u) {
            programs = journal->stats_programs;
            erases = journal->stats_erases;
        }
        uint32_t seq = 0;
        uint32_t t0 = hal_counter_read();
        /* benchmark: fixed valid inputs; the unit tests check the statuses */
        (void)fd_journal_append(journal, FD_REC_ROUND_OPENED, open, sizeof open, seed, sizeof seed, &seq);
        uint32_t t1 = hal_counter_read();
        for (uint32_t d = 0; d < 4u; d++) {
            uint8_t deal[DEAL_LEN] = {(uint8_t)round, 0, 0, 0, (uint8_t)(5u * d), 0, (uint8_t)d, 5};
            /* benchmark: fixed valid inputs; the unit tests check the statuses */
            (void)fd_journal_append(journal, FD_REC_DEALT, deal, sizeof deal, NULL, 0, NULL);
        }
        uint32_t t2 = hal_counter_read();
        /* benchmark: fixed valid inputs; the unit tests check the statuses */
        (void)fd_journal_append(journal, FD_REC_REVEAL, reveal, sizeof reveal, NULL, 0, NULL);
        uint32_t t3 = hal_counter_read();
        /* benchmark: fixed valid inputs; the unit tests check the statuses */
        (void)fd_journal_wipe_secret(journal, seq);
        uint32_t t4 = hal_counter_read();
        if (round > warm) {
            t_open += t1 - t0;
            t_deal += t2 - t1;
            t_reveal += t3 - t2;
            t_wipe += t4 - t3;
        }
    }
    row2("journal: ROUND_OPENED with the seed as secret (append)", "", t_open, rounds);
    row2("journal: a 22-byte DEALT (5 cards), the DEAL write-ahead (append)", "", t_deal, 4u * rounds);
    row2("journal: REVEAL (append)", "", t_reveal, rounds);
    row2("journal: wipe the round's secret", "", t_wipe, rounds);
    say("| journal: flash programs per round (7 appends, wipe, compaction) | ");
    say_u32((journal->stats_programs - programs) / rounds);
    say(" |\r\n| journal: page erases per 100 rounds | ");
    say_u32(journal->stats_erases - erases);
    say(" |\r\n");
    uint32_t t0 = hal_counter_read();
    /* benchmark: fixed valid inputs; the unit tests check the statuses */
    (void)fd_journal_mount(journal, NULL);
    row2("journal: mount (verify every record of the full area)", "", hal_counter_read() - t0, 1);
}

/* The worst-case fill's commands, through the console: true on an OK reply. */
static char fill_reply[3];
static size_t fill_reply_len;

static void fill_capture(void *ctx, const char *data, size_t len)
{
    (void)ctx;
    for (size_t i = 0; i < len && fill_reply_len < sizeof fill_reply; i++) {
        fill_reply[fill_reply_len++] = data[i];
    }
}

static bool fill_cmd(void *ctx, const char *line)
{
    (void)ctx;
    fill_reply_len = 0;
    fd_console_command(&console, line, strlen(line));
    return fill_reply_len == sizeof fill_reply && memcmp(fill_reply, "OK ", 3) == 0;
}

/* Start-up at the journal's worst-case fill (tests/bench/worst_fill.c,
 * docs/PERFORMANCE.md "Journal start-up at the worst-case fill"): the
 * records a power-on walks, one verified walk of them (fd_journal_walk,
 * no visitor), and the dealer's power-on over them (mount with the
 * replay, the open round restored, the power-on's records) beyond a
 * power-on without a journal. */
static void measure_worst_start(const fd_dealer_config *base_cfg)
{
    static const hal_storage_area area = {FD_STORAGE_ADDR, FD_FLASH_PAGE_SIZE, FD_STORAGE_PAGES};
    static fd_flash flash;
    if (hal_storage_open(&area, &flash) != FD_OK) {
        say("| journal: worst-case fill: storage unavailable | 0 |\r\n");
        return;
    }
    for (uint32_t p = 0; p < FD_STORAGE_PAGES; p++) {
        (void)flash.erase(flash.ctx, p); /* benchmark: fixed valid inputs */
    }
    fd_dealer_config cfg = *base_cfg;
    cfg.storage = &flash;
    (void)fd_dealer_init(&dealer, &cfg); /* benchmark: fixed valid inputs */
    fd_console_init(&console, &dealer, fill_capture, NULL, false, false);
    const uint32_t commands = worst_fill(&dealer, fill_cmd, NULL);
    if (commands == 0u) {
        say("| journal: worst-case fill refused a command | 0 |\r\n");
        return;
    }
    say("| journal: worst-case fill: commands sent, records in the live range | ");
    say_u32(commands);
    say(" / ");
    say_u32(worst_fill_live_records(&dealer));
    say(" |\r\n");
    uint32_t t0 = hal_counter_read();
    (void)fd_journal_walk(&dealer.persist.journal, NULL, NULL, NULL); /* benchmark: a valid journal */
    row2("journal: one verified walk of the worst-case fill", "", hal_counter_read() - t0, 1);
    t0 = hal_counter_read();
    (void)fd_journal_mount(&dealer.persist.journal, NULL); /* benchmark: a valid journal; writes nothing */
    row2("journal: mount of the worst-case fill (the walk, the page table, no replay)", "", hal_counter_read() - t0, 1);
    t0 = hal_counter_read();
    (void)fd_dealer_init(&dealer, base_cfg); /* benchmark: fixed valid inputs */
    const uint32_t plain = hal_counter_read() - t0;
    t0 = hal_counter_read();
    (void)fd_dealer_init(&dealer, &cfg);
    const uint32_t replayed = hal_counter_read() - t0;
    if (!dealer.persist.recovered || dealer.persist.status != FD_OK) {
        say("| dealer power-on at the worst-case fill: open round not restored | 0 |\r\n");
        return;
    }
    row2("dealer power-on at the worst-case fill: mount, replay, restore (beyond power-on without a journal)", "",
         replayed > plain ? replayed - plain : 0u, 1);
    /* of which the seed file's wipe: a scan of every page's record headers
     * (a seq no record has: the whole scan, nothing programmed) */
    t0 = hal_counter_read();
    (void)fd_journal_wipe_secret(&dealer.persist.journal, UINT32_MAX - 1u); /* FD_ERR_STATE: none has it */
    row2("journal: a secret wipe's scan of the worst-case fill (headers only, power-on's seed file)", "",
         hal_counter_read() - t0, 1);
}

/* The dealer's DEAL with and without its write-ahead (the CARDS_DEALT
 * record on the board's storage area, before the reply): 8 DEALs of 5
 * cards into one round, per DEAL; the flash programs and erases they took. */
static void measure_dealer_deal(const fd_dealer_config *base_cfg, uintptr_t base)
{
    static const hal_storage_area area = {FD_STORAGE_ADDR, FD_FLASH_PAGE_SIZE, FD_STORAGE_PAGES};
    static fd_flash flash;
    for (int journalled = 0; journalled < 2; journalled++) {
        fd_dealer_config cfg = *base_cfg;
        if (journalled != 0) {
            if (hal_storage_open(&area, &flash) != FD_OK) {
                say("| dealer DEAL 5: storage unavailable | 0 |\r\n");
                return;
            }
            for (uint32_t p = 0; p < FD_STORAGE_PAGES; p++) {
                (void)flash.erase(flash.ctx, p); /* benchmark: fixed valid inputs */
            }
            cfg.storage = &flash;
            paint_stack();
        }
        /* benchmark: fixed valid inputs; the unit tests check the statuses */
        (void)fd_dealer_init(&dealer, &cfg);
        fd_console_init(&console, &dealer, discard, NULL, false, false);
        fd_console_command(&console, "SHUFFLE", 7);
        const uint32_t programs = dealer.persist.journal.stats_programs;
        const uint32_t erases = dealer.persist.journal.stats_erases;
        const uint32_t t0 = hal_counter_read();
        for (int i = 0; i < 8; i++) {
            fd_console_command(&console, "DEAL 5", 6);
        }
        const uint32_t ticks = hal_counter_read() - t0;
        if (fd_shoe_remaining(&dealer.shoe) != 52u - 40u) {
            say("| dealer DEAL 5 failed | 0 |\r\n");
            return;
        }
        if (journalled == 0) {
            row2("dealer DEAL 5 (check, deal, reply), no journal", "", ticks, 8);
        } else {
            row2("dealer DEAL 5 with its write-ahead (DEALT on flash before the reply)", "", ticks, 8);
            say("| dealer DEAL 5 write-ahead: flash programs / erases per DEAL (x100) | ");
            say_u32((dealer.persist.journal.stats_programs - programs) * 100u / 8u);
            say(" / ");
            say_u32((dealer.persist.journal.stats_erases - erases) * 100u / 8u);
            say(" |\r\n");
            /* power-on over a journal holding this open round (the erased
             * rest of the area walked too) against power-on without one */
            uint32_t t1 = hal_counter_read();
            (void)fd_dealer_init(&dealer, base_cfg); /* benchmark: fixed valid inputs */
            const uint32_t plain = hal_counter_read() - t1;
            t1 = hal_counter_read();
            (void)fd_dealer_init(&dealer, &cfg);
            const uint32_t replayed = hal_counter_read() - t1;
            row2("dealer power-on: mount, replay and restore an open round (beyond power-on without a journal)", "",
                 replayed > plain ? replayed - plain : 0u, 1);
            say("| stack: dealer with its journal: mount and replay, SHUFFLE, DEAL (bytes) | ");
            say_u32(stack_used_below(base));
            say(" |\r\n");
        }
    }
}

/* One house-only verifiable SHUFFLE of the dealer's current shoe, then its
 * REVEAL: instructions and raw TRNG samples (those the entropy pool did not
 * already hold). */
static void measure_dealer_round(const char *what)
{
    const uint32_t samples = dealer.entropy.raw_samples;
    const uint32_t t0 = hal_counter_read();
    fd_console_command(&console, "SHUFFLE", 7);
    const uint32_t t = insns(hal_counter_read() - t0); /* was printed in raw timer ticks */
    if (fd_dealer_get_state(&dealer) != FD_DEALER_ROUND_OPEN) {
        say("| dealer verifiable SHUFFLE failed: ");
        say(fd_status_name(dealer.fault_status));
        say(" |\r\n");
        return;
    }
    const uint32_t read = dealer.entropy.raw_samples - samples;
    say("| dealer default SHUFFLE, ");
    say(what);
    say(" = TRNG XOR DRBG after a fresh window, commitment, order) | ");
    say_u32(t);
    say(" |\r\n| raw TRNG samples read by it | ");
    say_u32(read);
    say(" |\r\n");
    if (strcmp(hal_board_name(), "microbit") == 0) {
        /* the nRF51 RNG with bias correction: about 660 us per sample (nRF51
         * reference manual, RNG); the CPU at one instruction per clock */
        say("| its time on the micro:bit, estimated: instructions / 16 MHz + samples x 660 us (ms) | ");
        say_u32(t / (FD_CPU_HZ / 1000u) + (read * 660u) / 1000u);
        say(" |\r\n");
    }
    fd_console_command(&console, "REVEAL", 6);
}

/* The link (docs/LINK.md): one X25519, the device's whole handshake (HELLO
 * read, ephemeral derived, WELCOME written: two X25519 and the hashing), a
 * DATA frame sealed and opened with the smallest payload and with a
 * 254-byte one (the per-byte cost is the slope between the 64- and the
 * 256-byte bucket), and the stack below the caller's buffers. Everything
 * lives on this frame: the micro:bit's static RAM is spoken for. */
struct link_bench {
    uint8_t psk[32], eph[32], e_ctl[32], e_dev[32], trng[32], pub[32];
    uint8_t hello[128], welcome[128], frame[FD_LINK_HEADER_SIZE + 256u + FD_AEAD_TAG_SIZE];
    uint8_t payload[256];
    fd_noise_handshake hs;
    fd_link dev, ctl;
};

static void measure_link(void)
{
    static const uint8_t secret[32] = "bench device secret.............";
    struct link_bench b;
    memset(&b, 0, sizeof b);
    const uintptr_t base = (uintptr_t)&b; /* callees' frames lie below it */
    size_t n = 0, wn = 0, fn = 0, pn = 0;
    /* benchmark: fixed valid inputs; the unit tests check the statuses */
    (void)fd_link_derive_keys(secret, sizeof secret, b.psk, b.eph);
    fd_link_ephemeral(b.eph, b.trng, 1, b.e_ctl);
    uint32_t t0 = hal_counter_read();
    for (uint32_t r = 0; r < 4u; r++)
        fd_x25519_public(b.pub, b.e_ctl);
    row2("link: X25519, one scalar multiplication", "", hal_counter_read() - t0, 4);
    (void)fd_link_hello(&b.hs, b.psk, b.e_ctl, b.hello, sizeof b.hello, &n);
    t0 = hal_counter_read();
    for (uint32_t r = 0; r < 2u; r++) {
        fd_link_ephemeral(b.eph, b.trng, 100u + r, b.e_dev);
        (void)fd_link_accept(b.psk, b.e_dev, b.hello, n, (const uint8_t *)"FAIRDEAL bench", 14, &b.dev, b.welcome,
                             sizeof b.welcome, &wn);
    }
    row2("link: device handshake (HELLO in, ephemeral, WELCOME out)", "", hal_counter_read() - t0, 2);
    (void)fd_link_finish(&b.hs, b.welcome, wn, &b.ctl, b.payload, sizeof b.payload, &pn);
    static const uint32_t sizes[2] = {0, 254};
    uint32_t seal_ticks[2], open_ticks[2];
    for (unsigned k = 0; k < 2u; k++) {
        seal_ticks[k] = 0;
        open_ticks[k] = 0;
        for (uint32_t r = 0; r < 20u; r++) {
            memset(b.payload, 'A', sizes[k]);
            t0 = hal_counter_read();
            (void)fd_link_seal(&b.dev, b.payload, sizes[k], b.frame, sizeof b.frame, &fn);
            const uint32_t t1 = hal_counter_read();
            (void)fd_link_open(&b.ctl, b.frame, fn, b.payload, sizeof b.payload, &pn);
            open_ticks[k] += hal_counter_read() - t1;
            seal_ticks[k] += t1 - t0;
        }
    }
    row2("link: seal a DATA frame, 0-byte payload (64-byte bucket)", "", seal_ticks[0], 20);
    row2("link: seal a DATA frame, 254-byte payload (256-byte bucket)", "", seal_ticks[1], 20);
    row2("link: open a DATA frame, 0-byte payload (64-byte bucket)", "", open_ticks[0], 20);
    row2("link: open a DATA frame, 254-byte payload (256-byte bucket)", "", open_ticks[1], 20);
    row_tenths("link: seal, per padded byte (slope 64 -> 256)", "", seal_ticks[1] - seal_ticks[0], 20u * 192u);
    row_tenths("link: open, per padded byte (slope 64 -> 256)", "", open_ticks[1] - open_ticks[0], 20u * 192u);
    (void)fd_link_hello(&b.hs, b.psk, b.e_ctl, b.hello, sizeof b.hello, &n);
    paint_stack();
    fd_link_ephemeral(b.eph, b.trng, 200, b.e_dev);
    (void)fd_link_accept(b.psk, b.e_dev, b.hello, n, (const uint8_t *)"FAIRDEAL bench", 14, &b.dev, b.welcome,
                         sizeof b.welcome, &wn);
    say("| stack: link device handshake, below its caller's buffers (bytes) | ");
    say_u32(stack_used_below(base));
    say(" |\r\n");
    (void)fd_link_finish(&b.hs, b.welcome, wn, &b.ctl, b.payload, sizeof b.payload, &pn); /* unmeasured */
    (void)fd_link_seal(&b.ctl, b.payload, 254, b.frame, sizeof b.frame, &fn);
    paint_stack();
    (void)fd_link_open(&b.dev, b.frame, fn, b.payload, sizeof b.payload, &pn);
    (void)fd_link_seal(&b.dev, b.payload, pn, b.frame, sizeof b.frame, &fn);
    say("| stack: link open and seal of a frame, below its caller's buffers (bytes) | ");
    say_u32(stack_used_below(base));
    say(" |\r\n");
    say("| link: sizeof(fd_link), the state of an open session (bytes) | ");
    say_u32((uint32_t)sizeof(fd_link));
    say(" |\r\n");
}

int main(void)
{
    say("bench board=");
    say(hal_board_name());
    say(" cpu_hz=");
    say_u32(FD_CPU_HZ);
    say("\r\n| operation | instructions |\r\n|---|---:|\r\n");

    /* calibration: a 2-instruction loop, 200,000 times */
    uint32_t t0 = hal_counter_read();
    uint32_t loops = 200000u;
    __asm volatile(".syntax unified\n1: subs %0, %0, #1\n bne 1b" : "+l"(loops) : : "cc");
    row2("calibration: 400,000 known instructions (subs/bne loop), per 1000", "", hal_counter_read() - t0, 1000);

    static const struct {
        fd_drbg_kind kind;
        const char *name;
    } drbgs[] = {{FD_DRBG_CHACHA20, "ChaCha20"}, {FD_DRBG_HMAC_SHA256, "HMAC_DRBG"}};
    for (size_t k = 0; k < 2u; k++) {
        open_drbg(drbgs[k].kind);
        const uint32_t reps = drbgs[k].kind == FD_DRBG_CHACHA20 ? 200u : 20u;
        row2("52-card shuffle incl. DRBG output, ", drbgs[k].name, measure_shuffle(52, reps), reps);
        row2("312-card shoe incl. DRBG output, ", drbgs[k].name, measure_shuffle(312, reps / 4u), reps / 4u);
        const fd_rng rng = fd_drbg_rng(&drbg);
        uint32_t v;
        t0 = hal_counter_read();
        for (uint32_t r = 0; r < 10u * reps; r++) {
            /* benchmark: fixed valid inputs; the unit tests check the statuses */
            (void)fd_uniform_u32(&rng, 52u, &v);
        }
        row2("one bounded integer (bound 52), ", drbgs[k].name, hal_counter_read() - t0, 10u * reps);
        static uint8_t out[1024];
        t0 = hal_counter_read();
        for (uint32_t r = 0; r < reps / 4u; r++) {
            /* benchmark: fixed valid inputs; the unit tests check the statuses */
            (void)fd_drbg_generate(&drbg, out, sizeof out);
        }
        row_tenths("DRBG output byte (1 KiB requests), ", drbgs[k].name, hal_counter_read() - t0,
                   (reps / 4u) * (uint32_t)sizeof out);
        fd_drbg_uninstantiate(&drbg);
    }

    /* ChaCha20 alone: the DRBG's four-block refill, without the key erasure
     * (32 of every 256 bytes) and the copy out that the row above includes. */
    static uint32_t state[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u, 1, 2, 3, 4, 5, 6, 7, 8};
    static uint32_t blocks[64];
    t0 = hal_counter_read();
    for (uint32_t r = 0; r < 50u; r++) {
        fd_chacha20_blocks4(state, blocks);
        state[4] ^= blocks[0];
    }
    row_tenths("ChaCha20 keystream byte (four-block refill)", "", hal_counter_read() - t0, 50u * 256u);

    row2("verifiable round, 52 cards (commitment, key, order from 40 bytes of S)", "", measure_round(1, 20), 20);
    row2("verifiable round, 312 cards (commitment, key, order from 296 bytes of S)", "", measure_round(6, 5), 5);
    t0 = hal_counter_read();
    /* benchmark: fixed valid inputs; the unit tests check the statuses */
    (void)fd_selftest_kat();
    row2("power-on known-answer self-test (all KATs, verifiable round included)", "", hal_counter_read() - t0, 1);

    /* stack: a 52-card shuffle, and the dealer's busiest commands */
    volatile uint32_t base_marker;
    const uintptr_t base = (uintptr_t)&base_marker;
    open_drbg(FD_DRBG_CHACHA20);
    paint_stack();
    (void)measure_shuffle(52, 1);
    say("| stack: 52-card shuffle incl. DRBG (bytes) | ");
    say_u32(stack_used_below(base));
    say(" |\r\n");

    uint32_t lcg = 1;
    const fd_dealer_config cfg = {.read_samples = pattern_samples,
                                  .read_ctx = &lcg,
                                  .health = FD_TRNG_HEALTH_CONFIG,
                                  .samples_per_block = FD_TRNG_SAMPLES_PER_BLOCK,
                                  .drbg_kind = FD_DRBG_CHACHA20,
                                  .board = "bench",
                                  .trng_name = "pattern"};
    paint_stack();
    /* benchmark: fixed valid inputs; the unit tests check the statuses */
    (void)fd_dealer_init(&dealer, &cfg);
    fd_console_init(&console, &dealer, discard, NULL, false, false);
    fd_console_command(&console, "SHUFFLE drbg", 12);
    const uint32_t first_shuffle_samples = dealer.entropy.raw_samples;
    /* a round ends only by REVEAL: each SHUFFLE follows one; the verifiable
     * round takes two 64-byte seeds (the longest SEED lines) */
    static const char *const session[] = {"REVEAL",
                                          "NEW french 8 2",
                                          "SHUFFLE drbg",
                                          "DEAL 20 8",
                                          "REVEAL",
                                          "SHUFFLE full",
                                          "STATUS",
                                          "REVEAL",
                                          "SHUFFLE slots=8",
                                          "SEED 0 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
                                          "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
                                          "SEED 7 ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"
                                          "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100",
                                          "CLOSE",
                                          "DEAL 20 8",
                                          "REVEAL",
                                          "SELFTEST",
                                          "HELP"};
    for (size_t i = 0; i < sizeof session / sizeof session[0]; i++) {
        fd_console_command(&console, session[i], strlen(session[i]));
    }
    say("| stack: dealer init + command loop, 432-card shoe (bytes) | ");
    say_u32(stack_used_below(base));
    say(" |\r\n");
    t0 = hal_counter_read();
    fd_console_command(&console, "SHUFFLE drbg", 12);
    row2("dealer SHUFFLE drbg of 432 cards (reseed, salt, shuffle, commitment)", "", hal_counter_read() - t0, 1);
    fd_console_command(&console, "REVEAL", 6);
    measure_dealer_round("432 cards (431 B of S");
    fd_console_command(&console, "NEW french 1", 12);
    measure_dealer_round("52 cards (40 B of S");
    say("| raw TRNG samples, power-on to first SHUFFLE (measured) | ");
    say_u32(first_shuffle_samples);
    say(" |\r\n");
    measure_dealer_deal(&cfg, base);
    paint_stack();
    measure_journal();
    say("| stack: journal append, compaction and mount (bytes) | ");
    say_u32(stack_used_below(base));
    say(" |\r\n");
    measure_worst_start(&cfg);
    measure_link();
    return 0;
}
