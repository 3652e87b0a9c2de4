/* Model-based test of the dealer over its journal (docs/RECORDS.md
 * "Capacity", "Replay", "Wear") on one board's storage geometry (this file
 * is built once per geometry: FD_DEALER_JOURNAL_PAGES, _PAGE_SIZE): random
 * legal commands (every deck kind and size up to 8 decks + 2 jokers, every
 * mode, seeds, CLOSE, DEAL 1..n to 1..8 seats, BURN, CUT, TIME floods,
 * SELFTEST, REVEAL) with random power cuts (clean and torn) at a random
 * flash step. After every cut the dealer powers on over the flash and a
 * model of what was acknowledged says what must be there:
 * - never `ERR journal` (never exhausted, no round refused for space: the
 *   reservation at SHUFFLE never refuses, and what it counts as kept is
 *   never below what the journal keeps) but
 *   for DEAL/BURN in a round at the SKIPPED limit (docs/RECORDS.md
 *   "Replay": then it is revealed), the journal mounts clean;
 * - an acknowledged SHUFFLE's round is the newest, open unless its REVEAL
 *   was acknowledged (or was in flight), and its commitment is the one
 *   published; no acknowledged card is lost (dealing resumes at or after
 *   the acknowledged position), no revealed round is ever dealt from;
 * - no flash word is programmed more than twice between erases (the host
 *   store aborts on a third: FD_FLASH_WORD_WRITES).
 * A quarter of the rounds are dealt to their last card one card per DEAL
 * or BURN before their REVEAL (8-deck shoes among them: the capacity worst
 * case). Default: 20,000 commands per geometry; the environment variable
 * FD_MODEL_COMMANDS sets another count (the long run: 1000000). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dealer.h"
#include "host_storage.h"
#include "protocol.h"
#include "test_dealer_config.h"

#define PAGE FD_DEALER_JOURNAL_PAGE_SIZE
#define PAGES FD_DEALER_JOURNAL_PAGES

static host_flash hf;
static uint8_t mem[PAGE * PAGES];
static fake_trng trng;
static fd_dealer dealer;
static fd_console console;
static uint64_t trng_seed = 1;

static capture out;

static void capture_write(void *ctx, const char *data, size_t len) { (void)capture_append(ctx, data, len); }

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

static fd_status power_on(void)
{
    host_flash_reboot(&hf);
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, trng_seed++);
    fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    cfg.storage = &hf.flash;
    cfg.storage_name = "model flash";
    cfg.reset_cause = 1;
    const fd_status st = fd_dealer_init(&dealer, &cfg);
    fd_console_init(&console, &dealer, capture_write, &out, false, false);
    return st;
}

static const char *cmd(const char *line)
{
    out.len = 0;
    out.text[0] = '\0';
    fd_console_command(&console, line, strlen(line));
    return out.text;
}

static bool starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* The command in flight when power went (its reply is not acknowledged). */
static bool inflight_reveal;

/* xorshift64*: the test's own reproducible choices */
static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717u) >> 33) % n;
}

/* What the controller has seen acknowledged. */
typedef struct model {
    uint32_t round;   /* newest acknowledged SHUFFLE's id (0: none) */
    bool open;        /* its REVEAL not acknowledged */
    bool reveal_sent; /* a REVEAL of it was sent (maybe not acknowledged) */
    uint16_t dealt;   /* cards of it acknowledged as dealt */
    uint16_t count;   /* its shoe */
    bool seeding;     /* open for seeds */
    uint8_t slots;    /* its slot count (verifiable) */
    uint8_t seeded;   /* slots filled, in order */
    bool whole_shoe;  /* dealt to the last card before its REVEAL (the capacity worst case) */
    uint8_t commitment[FD_SHA256_SIZE];
} model;

static model m;
static uint64_t cuts, torn_cuts, commands, rounds, cards, skipped_full;

static void check_reservation(void);

/* One random legal command; the model follows the acknowledged reply. */
static void one_command(void)
{
    char line[160];
    const char *r = NULL;
    commands++;
    if (!m.open) {
        const uint32_t pick = rnd(10);
        if (pick < 2u) {
            static const char *const kinds[] = {"french", "spanish40", "spanish48"};
            const uint32_t k = rnd(3);
            const uint32_t decks = rnd(4) == 0u ? 8u : 1u + rnd(8);
            const uint32_t jokers = k == 0u ? rnd(3) : 0u;
            snprintf(line, sizeof line, "NEW %s %u %u", kinds[k], (unsigned)decks, (unsigned)jokers);
            r = cmd(line);
            if (hf.cut) {
                return;
            }
            assert_true(starts(r, "OK NEW"));
            return;
        }
        if (pick < 3u) {
            r = cmd(rnd(2) == 0u ? "TIME 1800000000" : "SELFTEST");
            if (hf.cut) {
                return;
            }
            assert_true(starts(r, "OK"));
            return;
        }
        const uint32_t mode = rnd(4);
        uint8_t slots = 0;
        if (mode == 0u) {
            r = cmd("SHUFFLE drbg");
            if (hf.cut) {
                return;
            }
        } else if (mode == 1u && dealer.shoe.count <= 104u) {
            r = cmd("SHUFFLE full");
            if (hf.cut) {
                return;
            } /* every index from the TRNG: kept to small shoes for speed */
        } else {
            slots = (uint8_t)rnd(9);
            snprintf(line, sizeof line, "SHUFFLE slots=%u", (unsigned)slots);
            r = cmd(line);
            if (hf.cut) {
                return;
            }
        }
        if (!starts(r, "OK SHUFFLE")) {
            /* the reservation (docs/RECORDS.md "Capacity") never refuses a legal round on a board's area */
            fail_msg("SHUFFLE refused: %s", r);
        }
        check_reservation();
        memset(&m, 0, sizeof m);
        m.round = dealer.round.id;
        m.open = true;
        m.count = dealer.shoe.count;
        m.slots = slots;
        m.seeding = slots > 0u;
        memcpy(m.commitment, dealer.round.commitment, FD_SHA256_SIZE);
        m.whole_shoe = rnd(4) == 0u;
        rounds++;
        return;
    }
    const uint32_t pick = rnd(100);
    if (m.seeding) {
        if (pick < 70u && m.seeded < m.slots) {
            char hex[129];
            const uint32_t n = 1u + rnd(64);
            for (uint32_t i = 0; i < n; i++) {
                snprintf(hex + 2 * i, 3, "%02x", (unsigned)rnd(256));
            }
            snprintf(line, sizeof line, "SEED %u %s", (unsigned)m.seeded, hex);
            r = cmd(line);
            if (hf.cut) {
                return;
            }
            if (!starts(r, "OK SEED")) {
                fail_msg("%s: %s", line, r);
            }
            m.seeded++;
            m.seeding = m.seeded < m.slots;
        } else if (pick < 85u) {
            r = cmd("CLOSE");
            if (hf.cut) {
                return;
            }
            assert_true(starts(r, "OK CLOSE"));
            m.seeding = false;
        } else {
            m.reveal_sent = true;
            inflight_reveal = true;
            r = cmd("REVEAL");
            if (hf.cut) {
                return;
            }
            assert_true(starts(r, "OK REVEAL"));
            m.open = false;
        }
        return;
    }
    const uint16_t left = (uint16_t)(m.count - m.dealt);
    if (dealer.persist.round_skipped >= FD_REC_SKIPPED_MAX && left > 0u && pick < 50u) {
        /* a round cut short by power loss FD_REC_SKIPPED_MAX times deals no more (an empty shoe
         * answers ERR exhausted first) */
        r = cmd(pick < 25u ? "BURN" : "DEAL 1");
        if (hf.cut) {
            return;
        }
        if (!starts(r, "ERR journal this round was cut short by power loss")) {
            fail_msg("after %llu commands, a DEAL/BURN in a round at the SKIPPED limit (dealt %u of %u): %s",
                     (unsigned long long)commands, (unsigned)m.dealt, (unsigned)m.count, r);
        }
        skipped_full++;
        return;
    }
    if ((pick < 3u && !m.whole_shoe) || left == 0u || dealer.persist.round_skipped >= FD_REC_SKIPPED_MAX) {
        m.reveal_sent = true;
        inflight_reveal = true;
        r = cmd("REVEAL");
        if (hf.cut) {
            return;
        }
        assert_true(starts(r, "OK REVEAL"));
        m.open = false;
        return;
    }
    if (pick < 6u) {
        snprintf(line, sizeof line, "CUT %u", (unsigned)rnd(m.count + 1u));
        r = cmd(line);
        if (hf.cut) {
            return;
        }
        assert_true(starts(r, "OK CUT") || starts(r, "ERR journal this round's cut has moved"));
        return;
    }
    if (pick < 12u) {
        for (uint32_t i = rnd(50); i > 0u && !hf.cut; i--) {
            const char *t = cmd("TIME 1800000001");
            assert_true(hf.cut || starts(t, "OK TIME"));
        }
        return;
    }
    if (pick < 25u) {
        r = cmd("BURN");
        if (hf.cut) {
            return;
        }
        if (!starts(r, "OK BURN")) {
            fail_msg("BURN: %s", r);
        }
        m.dealt++;
        cards++;
        return;
    }
    /* mostly one card per DEAL (a shoe dealt card by card), sometimes more */
    const uint32_t players = rnd(3) == 0u && !m.whole_shoe ? 1u + rnd(8) : 1u;
    uint32_t n = rnd(4) == 0u && !m.whole_shoe ? 1u + rnd(5) : 1u;
    while (n * players > left && n > 1u) {
        n--;
    }
    if (n * players > left) {
        r = cmd("BURN");
        if (hf.cut) {
            return;
        }
        assert_true(starts(r, "OK BURN"));
        m.dealt++;
        cards++;
        return;
    }
    snprintf(line, sizeof line, "DEAL %u %u", (unsigned)n, (unsigned)players);
    r = cmd(line);
    if (hf.cut) {
        return;
    }
    if (!starts(r, "OK DEAL")) {
        fail_msg("%s (left %u): %s", line, (unsigned)left, r);
    }
    m.dealt = (uint16_t)(m.dealt + n * players);
    cards += n * players;
}

typedef struct census {
    uint32_t bytes[20];
    uint32_t count[20];
    uint32_t kept_bytes;
    uint32_t hand[FD_PERSIST_HAND_RING]; /* kept hand bytes of round id - age, by age */
} census;

static fd_status count_live(void *ctx, const fd_journal_record *rec)
{
    census *c = ctx;
    const uint32_t t = rec->type < 20u ? rec->type : 19u;
    const uint32_t size = fd_journal_record_size(rec->len, rec->secret_len, rec->seq != rec->orig_seq);
    c->bytes[t] += size;
    c->count[t]++;
    uint32_t id = 0;
    if (fd_records_keep_rules(&dealer.persist.rules, rec)) {
        c->kept_bytes += FD_JOURNAL_RECORD_BYTES(rec->len, rec->secret_len, 1);
        if (fd_rec_hand_type(rec->type) && fd_rec_round_id(rec->payload, rec->len, &id) == FD_OK &&
            id <= dealer.round.id && dealer.round.id - id < FD_PERSIST_HAND_RING) {
            c->hand[dealer.round.id - id] += FD_JOURNAL_RECORD_BYTES(rec->len, rec->secret_len, 1);
        }
    }
    return FD_OK;
}

static uint64_t reservations;

/* After an acknowledged SHUFFLE: the reservation's count of what
 * compaction keeps (fd_persist_kept_before, fd_persist_hand_bytes) is never
 * below what the journal holds and the keep rules name (docs/RECORDS.md
 * "Capacity"), so the room it reserved is really there. */
static void check_reservation(void)
{
    static census c;
    memset(&c, 0, sizeof c);
    assert_int_equal(fd_journal_walk(&dealer.persist.journal, count_live, &c, NULL), FD_OK);
    const uint32_t id = dealer.round.id;
    for (uint32_t age = 0; age < FD_DEALER_KEEP_HANDS && age < id; age++) {
        if (fd_persist_hand_bytes(&dealer.persist, id - age) < c.hand[age]) {
            fail_msg("round %u: the reservation counts %u hand bytes, the journal keeps %u", (unsigned)(id - age),
                     (unsigned)fd_persist_hand_bytes(&dealer.persist, id - age), (unsigned)c.hand[age]);
        }
    }
    const uint32_t counted = fd_persist_kept_before(&dealer.persist, id) + fd_persist_hand_bytes(&dealer.persist, id);
    if (c.kept_bytes > counted) {
        fail_msg("round %u: kept %u bytes, the reservation counted %u", (unsigned)id, (unsigned)c.kept_bytes,
                 (unsigned)counted);
    }
    reservations++;
}

static void print_census(void)
{
    census c;
    memset(&c, 0, sizeof c);
    (void)fd_journal_walk(&dealer.persist.journal, count_live, &c, NULL);
    fprintf(stderr, "live: kept %u bytes (model allows %u); round %u hands %u summaries %u\n", c.kept_bytes,
            (unsigned)FD_REC_CAP_LIVE(FD_DEALER_KEEP_SUMMARIES, FD_DEALER_KEEP_HANDS - 1u), dealer.round.id,
            FD_DEALER_KEEP_HANDS, FD_DEALER_KEEP_SUMMARIES);
    const fd_journal *j = &dealer.persist.journal;
    unsigned free_pages = 0;
    for (unsigned p = 0; p < PAGES; p++) {
        free_pages += j->pages[p].page_seq == 0u || j->pages[p].page_seq < j->tail_page_seq ? 1u : 0u;
    }
    fprintf(stderr, "  tail %u newest %u free %u cur_page %u cur_offset %u last_copied %u next_seq %u\n",
            j->tail_page_seq, j->newest_page_seq, free_pages, j->cur_page, j->cur_offset, j->last_copied, j->next_seq);
    for (unsigned t = 0; t < 20u; t++) {
        if (c.count[t] != 0u) {
            fprintf(stderr, "  type %u: %u records, %u bytes\n", t, c.count[t], c.bytes[t]);
        }
    }
}

/* After a power cut: the dealer back over the flash against the model. */
static void check_recovery(bool cut_in_command)
{
    assert_int_equal(power_on(), FD_OK);
    if (dealer.persist.status != FD_OK) {
        print_census();
        fail_msg("journal failed after a cut: %s (%s) after %llu commands", fd_status_name(dealer.persist.status),
                 dealer.persist.report.reason, (unsigned long long)commands);
    }
    if (m.round == 0u) {
        assert_true(dealer.round.id <= 1u); /* a SHUFFLE in flight may have landed */
        if (dealer.round.id == 1u) {
            m.round = 1;
            m.open = fd_dealer_round_open(&dealer);
            m.count = dealer.shoe.count;
            m.dealt = dealer.shoe.position;
            m.seeding = dealer.round.state == FD_DEALER_SEEDING;
            memcpy(m.commitment, dealer.round.commitment, FD_SHA256_SIZE);
        }
        return;
    }
    if (!m.open) {
        /* revealed (acknowledged): never open again; a SHUFFLE in flight may have opened the next */
        assert_true(dealer.round.id == m.round || (cut_in_command && dealer.round.id == m.round + 1u));
        if (dealer.round.id == m.round) {
            assert_false(fd_dealer_round_open(&dealer));
            return;
        }
        memset(&m, 0, sizeof m);
        m.round = dealer.round.id;
        m.open = fd_dealer_round_open(&dealer);
        m.count = dealer.shoe.count;
        m.dealt = dealer.shoe.position;
        m.seeding = dealer.round.state == FD_DEALER_SEEDING;
        memcpy(m.commitment, dealer.round.commitment, FD_SHA256_SIZE);
        return;
    }
    assert_int_equal(dealer.round.id, m.round);
    if (!fd_dealer_round_open(&dealer)) {
        assert_true(inflight_reveal && cut_in_command); /* only the REVEAL in flight closes it */
        m.open = false;
        return;
    }
    assert_memory_equal(dealer.round.commitment, m.commitment, FD_SHA256_SIZE);
    assert_int_equal(dealer.shoe.count, m.count);
    /* no acknowledged card lost: dealing resumes at or after it */
    assert_true(dealer.shoe.position >= m.dealt);
    m.dealt = dealer.shoe.position;
    m.seeding = dealer.round.state == FD_DEALER_SEEDING;
    m.reveal_sent = false;
    if (!m.seeding) {
        m.seeded = m.slots; /* closed: no more seeds */
    } else {
        m.seeded = 0;
        for (unsigned i = 0; i < FD_ROUND_SLOTS && dealer.round.seeds.len[i] != 0u; i++) {
            m.seeded++;
        }
    }
}

static void test_random_commands_and_cuts(void **state)
{
    (void)state;
    const char *env = getenv("FD_MODEL_COMMANDS");
    const uint64_t total = env != NULL ? strtoull(env, NULL, 10) : 20000u;
    rng_state = 0x9E3779B97F4A7C15u ^ (uint64_t)PAGE * PAGES;
    assert_int_equal(host_flash_open(&hf, mem, PAGE, PAGES, NULL), FD_OK);
    assert_true(hf.word_writes_max == 2u && hf.overprogram_abort);
    assert_int_equal(power_on(), FD_OK);
    memset(&m, 0, sizeof m);
    while (commands < total) {
        /* a cut within the next few hundred flash steps, clean or torn */
        hf.cut_after = hf.steps + 1u + rnd(400);
        hf.torn = rnd(2) == 0u;
        hf.tear_state = (uint32_t)rnd(0xFFFFFFFFu) | 1u;
        bool cut_in_command = false;
        while (!hf.cut && commands < total) {
            const model saved = m;
            inflight_reveal = false;
            one_command();
            if (hf.cut) {
                m = saved; /* a command cut short acknowledged nothing */
                cut_in_command = true;
            }
        }
        if (hf.cut) {
            cuts++;
            torn_cuts += hf.torn ? 1u : 0u;
            check_recovery(cut_in_command);
        }
    }
    hf.cut_after = HOST_FLASH_NEVER;
    assert_int_equal(hf.overprograms, 0u);
    uint32_t lo = 0, hi = 0;
    uint64_t erases = 0;
    assert_int_equal(fd_journal_wear(&dealer.persist.journal, &lo, &hi, &erases), FD_OK);
    printf("model (%u x %u B): %llu commands, %llu rounds, %llu cards, %llu power cuts (%llu torn), every one "
           "recovered as acknowledged; %llu DEAL/BURN refused in rounds at the SKIPPED limit; %llu reservations "
           "checked against the journal; erases per page %u..%u\n",
           (unsigned)PAGES, (unsigned)PAGE, (unsigned long long)commands, (unsigned long long)rounds,
           (unsigned long long)cards, (unsigned long long)cuts, (unsigned long long)torn_cuts,
           (unsigned long long)skipped_full, (unsigned long long)reservations, lo, hi);
    assert_true(skipped_full > 0u); /* the limit was reached and held */
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_random_commands_and_cuts)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
