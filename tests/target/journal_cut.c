/* The journal across a stand-in for a power cut under QEMU (driven by
 * tests/qemu/journal_cut.sh): mount what the previous run left in the
 * board's storage area, report where it stands, reveal a round left open,
 * then run dealer-like rounds (open with the seed as secret, 3 deals,
 * reveal, wipe), printing "ACK" after each acknowledged append, until the
 * script freezes QEMU and saves the flash, or for n rounds ("RUN n" on the
 * console; 0 = until stopped). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "console_say.h"
#include "fairdeal/journal.h"
#include "fairdeal/records.h"
#include "fairdeal/util.h"
#include "hal/board.h"
#include "hal/console.h"
#include "fd_board_map.h"
#include "hal/storage.h"

/* Stand-ins of dealer-like sizes for the journal's own measurements (the
 * dealer's layouts are the codec's, fairdeal/records.h). */
#define OPENED_LEN 48u
#define SEED_LEN 32u
#define DEAL_LEN 22u
#define REVEAL_LEN 72u

static const uint8_t key[32] = "fairdeal QEMU power-cut test key";
static const hal_storage_area area = {FD_STORAGE_ADDR, FD_FLASH_PAGE_SIZE, FD_STORAGE_PAGES};
static fd_flash flash;
static fd_journal journal;
static fd_journal_page pages[FD_STORAGE_PAGES];
static fd_records_policy policy = {0, 10, 100};

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The newest round, whether its seed is still there, whether revealed. */
typedef struct standing {
    uint32_t last_round;
    uint32_t open_seq; /* its ROUND_OPENED, for the wipe */
    bool seed_available;
    bool revealed;
    uint8_t seed[SEED_LEN];
} standing;

static fd_status visit(void *ctx, const fd_journal_record *r)
{
    standing *s = ctx;
    if (r->len < 4u) {
        return FD_OK;
    }
    uint32_t round = le32(r->payload);
    if (r->type == FD_REC_ROUND_OPENED && round >= s->last_round) {
        s->last_round = round;
        s->open_seq = r->orig_seq;
        s->seed_available = r->secret_state == FD_JOURNAL_SECRET_AVAILABLE;
        s->revealed = false;
        memcpy(s->seed, r->secret, sizeof s->seed);
    } else if (r->type == FD_REC_REVEAL && round == s->last_round) {
        s->revealed = true;
    }
    return FD_OK;
}

static void fail(const char *what, fd_status st)
{
    say("FAIL ");
    say(what);
    say(" ");
    say(fd_status_name(st));
    say("\r\n");
    hal_board_exit(1);
}

static void append(uint8_t type, const uint8_t *payload, size_t len, const uint8_t *secret, size_t secret_len,
                   uint32_t round, uint32_t *seq_out)
{
    uint32_t seq = 0;
    fd_status st = fd_journal_append(&journal, type, payload, len, secret, secret_len, &seq);
    if (st != FD_OK) {
        fail("append", st);
    }
    say("ACK seq=");
    say_u32(seq);
    say(" type=");
    say_u32(type);
    say(" round=");
    say_u32(round);
    say("\r\n");
    if (seq_out != NULL) {
        *seq_out = seq;
    }
}

static void reveal(uint32_t round, const uint8_t seed[SEED_LEN], uint32_t open_seq)
{
    uint8_t payload[REVEAL_LEN] = {0};
    payload[0] = (uint8_t)round;
    payload[1] = (uint8_t)(round >> 8);
    memcpy(payload + 36, seed, SEED_LEN);
    append(FD_REC_REVEAL, payload, sizeof payload, NULL, 0, round, NULL);
    fd_status st = fd_journal_wipe_secret(&journal, open_seq);
    if (st != FD_OK) {
        fail("wipe", st);
    }
}

static uint32_t read_run_count(void)
{
    uint32_t n = 0;
    uint8_t c = 0;
    while (hal_console_read(&c) == FD_OK && c != '\n') {
        if (c >= '0' && c <= '9') {
            n = n * 10u + (uint32_t)(c - '0');
        }
    }
    return n;
}

int main(void)
{
    fd_status st = hal_storage_open(&area, &flash);
    if (st == FD_OK) {
        st = fd_journal_init(&journal, &flash, key, sizeof key, pages, fd_records_keep, &policy);
    }
    fd_journal_report rep = {FD_OK, 0, 0, 0, "ok"};
    if (st == FD_OK) {
        st = fd_journal_mount(&journal, &rep);
    }
    if (st != FD_OK) {
        say("MOUNT ");
        say(rep.reason);
        say(" seq=");
        say_u32(rep.seq);
        say("\r\n");
        fail("mount", st);
    }
    standing s;
    memset(&s, 0, sizeof s);
    st = fd_journal_walk(&journal, visit, &s, NULL);
    if (st != FD_OK) {
        fail("walk", st);
    }
    uint8_t head[32];
    uint32_t next = 0;
    /* only next is printed; the walk above already proved the journal mounts */
    (void)fd_journal_head(&journal, head, &next);
    bool open = s.last_round != 0u && !s.revealed;
    say("RESUMED next=");
    say_u32(next);
    say(" last_round=");
    say_u32(s.last_round);
    say(open ? " open=1\r\n" : " open=0\r\n");
    policy.newest_round = s.last_round;
    if (open) {
        if (!s.seed_available) {
            fail("open round without its seed", FD_ERR_CORRUPT);
        }
        reveal(s.last_round, s.seed, s.open_seq);
        say("REVEALED round=");
        say_u32(s.last_round);
        say("\r\n");
    }
    uint32_t rounds = read_run_count();
    for (uint32_t round = s.last_round + 1u; rounds == 0u || round <= s.last_round + rounds; round++) {
        uint8_t seed[SEED_LEN];
        fd_sha256(&round, sizeof round, seed);
        uint8_t opened[OPENED_LEN] = {0};
        opened[0] = (uint8_t)round;
        opened[1] = (uint8_t)(round >> 8);
        fd_sha256(seed, sizeof seed, opened + 4); /* stand-in commitment */
        policy.newest_round = round;
        uint32_t open_seq = 0;
        append(FD_REC_ROUND_OPENED, opened, sizeof opened, seed, sizeof seed, round, &open_seq);
        for (uint32_t d = 0; d < 3u; d++) {
            uint8_t deal[DEAL_LEN] = {(uint8_t)round, (uint8_t)(round >> 8), 0, 0, (uint8_t)(5u * d), 0, (uint8_t)d, 5};
            append(FD_REC_DEALT, deal, sizeof deal, NULL, 0, round, NULL);
        }
        reveal(round, seed, open_seq);
    }
    say("DONE\r\n");
    return 0;
}
