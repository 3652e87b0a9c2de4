/* The journal on the host flash simulator: appends and remounts, the keyed
 * chain against an attacker who rewrites flash (edit, drop, reorder, replay,
 * wrong key), secrets wiped after the reveal, a power cut at EVERY erase and
 * program step of a 24-round dealer session (clean and torn), random bit
 * flips, and the dealer's budget rotating for 10^4 rounds (10^5 with
 * FD_JOURNAL_ROUNDS=100000, label "long"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fairdeal/journal.h"
#include "fairdeal/records.h"
#include "fairdeal/sha256.h"
#include "fd_board_map.h"
#include "host_storage.h"

#define PAGE 1024u
/* Stand-ins of dealer-like sizes for the journal's own tests (the dealer's
 * layouts are the codec's, tested in test_records.c): an opening record
 * with a 32-byte seed as its secret, a deal, an event. */
#define OPENED_LEN 48u
#define SEED_LEN 32u
#define DEAL_LEN 18u
#define EVENT_LEN 8u
#define MAX_PAGES 100u
/* The micro:bit budget: the host's flash map mirrors the micro:bit's
 * (boards/host/board.cmake): FD_STORAGE_PAGES of 1 KiB. */
#define MICROBIT_PAGES FD_STORAGE_PAGES
_Static_assert(FD_FLASH_PAGE_SIZE == PAGE && FD_STORAGE_PAGES <= MAX_PAGES, "host flash map is the micro:bit's");

static const uint8_t key[32] = "fairdeal test device key 0123456";

typedef struct rig {
    host_flash hf;
    uint8_t mem[PAGE * MAX_PAGES];
    fd_journal j;
    fd_journal_page pages[MAX_PAGES];
    fd_records_policy policy;
} rig;

static rig r1; /* large: static */

static void rig_open(rig *r, uint32_t pages, uint32_t hands, uint32_t summaries)
{
    assert_int_equal(host_flash_open(&r->hf, r->mem, PAGE, pages, NULL), FD_OK);
    r->policy = (fd_records_policy){0, hands, summaries};
    assert_int_equal(fd_journal_init(&r->j, &r->hf.flash, key, sizeof key, r->pages, fd_records_keep, &r->policy),
                     FD_OK);
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- A scripted dealer session, as a list of operations. ---- */

typedef enum op_kind {
    OP_APPEND,
    OP_WIPE
} op_kind;

typedef struct op {
    op_kind kind;
    uint8_t type;
    uint32_t round;
    uint16_t len;
    uint8_t payload[OPENED_LEN + 8];
    uint8_t secret[SEED_LEN];
    uint16_t secret_len;
} op;

#define MAX_OPS 60000u
static op ops[MAX_OPS];
static size_t n_ops;

static void seed_of(uint32_t round, uint8_t seed[SEED_LEN])
{
    uint8_t in[4];
    put32(in, round);
    fd_sha256(in, sizeof in, seed);
}

static op *add_op(op_kind kind, uint8_t type, uint32_t round, uint16_t len)
{
    assert_true(n_ops < MAX_OPS);
    op *o = &ops[n_ops++];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->type = type;
    o->round = round;
    o->len = len;
    if (len >= 4u) {
        put32(o->payload, round);
    }
    return o;
}

/* Rounds first..last: open (commitment; the seed as its erasable secret),
 * 2..5 deals of 3 cards, some events, reveal, wipe. */
static void script_rounds(uint32_t first, uint32_t last)
{
    uint32_t position = 0;
    for (uint32_t round = first; round <= last; round++) {
        uint8_t seed[SEED_LEN];
        seed_of(round, seed);
        op *o = add_op(OP_APPEND, FD_REC_ROUND_OPENED, round, OPENED_LEN);
        fd_sha256(seed, sizeof seed, o->payload + 4); /* stand-in commitment */
        o->payload[4] ^= 0x5Au;
        memcpy(o->secret, seed, sizeof seed);
        o->secret_len = SEED_LEN;
        unsigned deals = 2u + round % 4u;
        for (unsigned d = 0; d < deals; d++) {
            o = add_op(OP_APPEND, FD_REC_DEALT, round, DEAL_LEN);
            o->payload[4] = (uint8_t)position;
            o->payload[5] = (uint8_t)(position >> 8);
            o->payload[6] = (uint8_t)d; /* seat */
            o->payload[7] = 3;
            for (unsigned c = 0; c < 3u; c++) {
                o->payload[12 + 2 * c] = (uint8_t)(seed[position % 32u] + c);
            }
            position += 3u;
        }
        if (round % 5u == 0u) {
            add_op(OP_APPEND, FD_REC_SELFTEST, round, EVENT_LEN);
        }
        if (round % 7u == 0u) {
            add_op(OP_APPEND, FD_REC_FAULT, round, EVENT_LEN);
        }
        o = add_op(OP_APPEND, FD_REC_REVEAL, round,
                   72u /* a summary-sized record: the session these tests were tuned on */);
        memcpy(o->payload + 36, seed, sizeof seed);
        add_op(OP_WIPE, FD_REC_ROUND_OPENED, round, 0);
        position = 0;
    }
}

static void script_session(uint32_t rounds)
{
    n_ops = 0;
    add_op(OP_APPEND, FD_REC_POWER_ON, 0, FD_REC_POWER_ON_SIZE);
    script_rounds(1, rounds);
}

/* What happened while running: seqs of each round's secret, acked seqs. */
#define MAX_SEQ 4096u
typedef struct run_log {
    uint32_t secret_seq[1024];
    uint32_t last_acked_seq;
    uint8_t acked_type[2 * MAX_SEQ];
    size_t done; /* operations acknowledged */
} run_log;

static fd_status run_op(rig *r, const op *o, run_log *log)
{
    if (o->kind == OP_WIPE) {
        return fd_journal_wipe_secret(&r->j, log->secret_seq[o->round % 1024u]);
    }
    if (o->type == FD_REC_ROUND_OPENED) {
        r->policy.newest_round = o->round;
    }
    uint32_t seq = 0;
    fd_status st =
        fd_journal_append(&r->j, o->type, o->payload, o->len, o->secret_len ? o->secret : NULL, o->secret_len, &seq);
    if (st == FD_OK) {
        log->last_acked_seq = seq;
        if (seq < 2u * MAX_SEQ) {
            log->acked_type[seq] = o->type;
        }
        if (o->type == FD_REC_ROUND_OPENED) {
            log->secret_seq[o->round % 1024u] = seq;
        }
    }
    return st;
}

/* Run ops[from..to) until one fails; returns its status. */
static fd_status run_ops(rig *r, size_t from, size_t to, run_log *log)
{
    for (size_t i = from; i < to; i++) {
        fd_status st = run_op(r, &ops[i], log);
        if (st != FD_OK) {
            return st;
        }
        log->done = i + 1u;
    }
    return FD_OK;
}

/* ---- Reading the journal back. ---- */

typedef struct seen {
    uint32_t count;
    uint32_t orig[MAX_SEQ];
    uint32_t seq[MAX_SEQ];
    uint8_t type[MAX_SEQ];
    uint8_t digest[MAX_SEQ][8];
    uint8_t secret_state[MAX_SEQ];
    uint32_t round[MAX_SEQ];
    uint32_t newest_round;
} seen;

static fd_status collect(void *ctx, const fd_journal_record *rec)
{
    seen *s = ctx;
    assert_true(s->count < MAX_SEQ);
    uint32_t i = s->count++;
    s->orig[i] = rec->orig_seq;
    s->seq[i] = rec->seq;
    s->type[i] = rec->type;
    uint8_t d[32];
    fd_sha256(rec->payload, rec->len, d);
    memcpy(s->digest[i], d, 8);
    s->secret_state[i] = (uint8_t)rec->secret_state;
    s->round[i] = rec->len >= 4u ? get32(rec->payload) : 0u;
    if (rec->type == FD_REC_ROUND_OPENED && get32(rec->payload) > s->newest_round) {
        s->newest_round = get32(rec->payload);
    }
    return FD_OK;
}

static fd_status walk(rig *r, seen *s, fd_journal_report *rep)
{
    memset(s, 0, sizeof *s);
    return fd_journal_walk(&r->j, collect, s, rep);
}

static int find_orig(const seen *s, uint32_t orig)
{
    for (uint32_t i = 0; i < s->count; i++) {
        if (s->orig[i] == orig) {
            return (int)i;
        }
    }
    return -1;
}

static void op_digest(const op *o, uint8_t out[8])
{
    uint8_t d[32];
    fd_sha256(o->payload, o->len, d);
    memcpy(out, d, 8);
}

/* ---- Basic behaviour. ---- */

static void test_init_errors(void **state)
{
    (void)state;
    rig *r = &r1;
    assert_int_equal(host_flash_open(&r->hf, r->mem, PAGE, 8, NULL), FD_OK);
    assert_int_equal(fd_journal_init(NULL, &r->hf.flash, key, 32, r->pages, NULL, NULL), FD_ERR_NULL);
    assert_int_equal(fd_journal_init(&r->j, &r->hf.flash, key, 15, r->pages, NULL, NULL), FD_ERR_EMPTY);
    assert_int_equal(fd_journal_init(&r->j, &r->hf.flash, key, 65, r->pages, NULL, NULL), FD_ERR_TOO_LARGE);
    fd_flash bad = r->hf.flash;
    bad.geometry.page_count = 3;
    assert_int_equal(fd_journal_init(&r->j, &bad, key, 32, r->pages, NULL, NULL), FD_ERR_STATE);
    bad = r->hf.flash;
    bad.geometry.page_size = 256;
    assert_int_equal(fd_journal_init(&r->j, &bad, key, 32, r->pages, NULL, NULL), FD_ERR_STATE);
    bad = r->hf.flash;
    bad.geometry.erased_value = 0x00;
    assert_int_equal(fd_journal_init(&r->j, &bad, key, 32, r->pages, NULL, NULL), FD_ERR_STATE);
    assert_int_equal(fd_journal_init(&r->j, &r->hf.flash, key, 32, r->pages, NULL, NULL), FD_OK);
    uint8_t p[FD_JOURNAL_MAX_PAYLOAD + 1] = {0};
    assert_int_equal(fd_journal_append(&r->j, 1, p, 4, NULL, 0, NULL), FD_ERR_NOT_READY);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    assert_int_equal(fd_journal_append(&r->j, 1, p, FD_JOURNAL_MAX_PAYLOAD + 1, NULL, 0, NULL), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_journal_append(&r->j, 1, p, 4, p, FD_JOURNAL_MAX_SECRET + 1, NULL), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_journal_append(&r->j, FD_JOURNAL_TYPE_RETIRE, p, 4, NULL, 0, NULL), FD_ERR_PARSE);
    assert_int_equal(fd_journal_append(&r->j, 1, NULL, 4, NULL, 0, NULL), FD_ERR_NULL);
    assert_int_equal(fd_journal_wipe_secret(&r->j, 1), FD_ERR_STATE);
    /* nothing was written by the refused calls */
    assert_int_equal(r->hf.steps, 0);
}

/* The journal on a file-backed flash, mounted; its head and next seq. */
static void open_file_journal(rig *r, const char *path, uint8_t head[32], uint32_t *next)
{
    assert_int_equal(host_flash_open(&r->hf, r->mem, PAGE, 8, path), FD_OK);
    assert_int_equal(fd_journal_init(&r->j, &r->hf.flash, key, 32, r->pages, NULL, NULL), FD_OK);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    assert_int_equal(fd_journal_head(&r->j, head, next), FD_OK);
}

static void test_append_remount_and_file(void **state)
{
    (void)state;
    rig *r = &r1;
    char path[] = "/tmp/fd_journal_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path); /* a unique name: the store creates its file only where none is */
    uint8_t head[32];
    uint32_t next = 0;
    open_file_journal(r, path, head, &next);
    assert_int_equal(next, 1);
    for (uint32_t i = 1; i <= 50; i++) {
        uint8_t p[40];
        memset(p, (int)i, sizeof p);
        uint32_t seq = 0;
        assert_int_equal(fd_journal_append(&r->j, (uint8_t)(1 + i % 9), p, i % 41u, NULL, 0, &seq), FD_OK);
        assert_int_equal(seq, i);
    }
    assert_int_equal(fd_journal_head(&r->j, head, &next), FD_OK);
    host_flash_close(&r->hf);
    /* a new process: the file alone */
    memset(r->mem, 0, sizeof r->mem);
    uint8_t head2[32];
    uint32_t next2 = 0;
    open_file_journal(r, path, head2, &next2);
    assert_int_equal(next2, 51);
    assert_memory_equal(head, head2, 32);
    seen s;
    assert_int_equal(walk(r, &s, NULL), FD_OK);
    assert_int_equal(s.count, 50);
    for (uint32_t i = 0; i < 50; i++) {
        assert_int_equal(s.seq[i], i + 1);
        assert_int_equal(s.type[i], 1 + (i + 1) % 9);
    }
    host_flash_close(&r->hf);
    unlink(path);
}

static void test_secret_wipe(void **state)
{
    (void)state;
    rig *r = &r1;
    rig_open(r, 8, 10, 100);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    uint8_t round[4] = {7, 0, 0, 0};
    uint8_t seed[32];
    seed_of(7, seed);
    uint32_t seq = 0;
    assert_int_equal(fd_journal_append(&r->j, FD_REC_ROUND_OPENED, round, 4, seed, 32, &seq), FD_OK);
    assert_int_equal(fd_journal_append(&r->j, FD_REC_REVEAL, round, 4, NULL, 0, NULL), FD_OK);
    seen s;
    assert_int_equal(walk(r, &s, NULL), FD_OK);
    assert_int_equal(s.secret_state[0], FD_JOURNAL_SECRET_AVAILABLE);
    /* the seed is on flash before the wipe: what a dump shows */
    assert_non_null(memmem(r->mem, sizeof r->mem, seed, 32));
    assert_int_equal(fd_journal_wipe_secret(&r->j, seq), FD_OK);
    assert_null(memmem(r->mem, sizeof r->mem, seed, 32));
    assert_int_equal(fd_journal_wipe_secret(&r->j, seq), FD_OK);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    assert_int_equal(walk(r, &s, NULL), FD_OK);
    assert_int_equal(s.secret_state[0], FD_JOURNAL_SECRET_WIPED);
    assert_int_equal(s.count, 2);
}

/* ---- The attacker who can rewrite flash but lacks the key. ---- */

/* A session on 8 pages, then the image to attack. */
static seen base_seen;
static uint8_t base_image[PAGE * MAX_PAGES];

static void make_base(rig *r, uint32_t rounds)
{
    rig_open(r, 8, 10, 100);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    script_session(rounds);
    run_log log;
    memset(&log, 0, sizeof log);
    assert_int_equal(run_ops(r, 0, n_ops, &log), FD_OK);
    assert_int_equal(walk(r, &base_seen, NULL), FD_OK);
    memcpy(base_image, r->mem, sizeof base_image);
}

static fd_status remount_report(rig *r, fd_journal_report *rep)
{
    assert_int_equal(fd_journal_init(&r->j, &r->hf.flash, key, 32, r->pages, fd_records_keep, &r->policy), FD_OK);
    return fd_journal_mount(&r->j, rep);
}

/* Offset of the n-th record of page 0 and its size. */
static uint32_t record_at(const uint8_t *mem, uint32_t n, uint32_t *size)
{
    uint32_t off = FD_JOURNAL_PAGE_HEADER;
    for (;;) {
        uint32_t w0 = get32(mem + off);
        uint32_t w2 = get32(mem + off + 8);
        *size = fd_journal_record_size(w0 >> 16, w2 & 0xFFFFu, ((w0 >> 8) & 1u) != 0u);
        if (n-- == 0u) {
            return off;
        }
        off += *size;
    }
}

/* A RETIRE record naming page_seq victim as someone without the key can
 * write it: header, its check, payload and commit word right, tag not. */
static void plant_retire(uint8_t *at, uint32_t victim)
{
    const uint32_t size = fd_journal_record_size(4, 0, false);
    memset(at, 0xA5, size);
    put32(at, FD_JOURNAL_TYPE_RETIRE | 4u << 16);
    put32(at + 4, 1);
    put32(at + 12, victim);
    uint32_t a = 1;
    uint32_t b = 0;
    for (uint32_t i = 0; i < 12u; i++) { /* Fletcher-16 over the header but its check field */
        if (i != 10u && i != 11u) {
            a = (a + (i < 8u ? at[i] : 0u)) % 255u;
            b = (b + a) % 255u;
        }
    }
    put32(at + 8, (b << 8 | a) << 16);
    put32(at + size - 4u, 0); /* committed */
}

static void test_tamper_detected(void **state)
{
    (void)state;
    rig *r = &r1;
    make_base(r, 8);
    fd_journal_report rep;
    uint32_t size = 0;

    /* edit one payload byte of record 4 (programming a bit to 0 needs no key) */
    uint32_t off = record_at(r->mem, 4, &size);
    r->mem[off + 12] = (uint8_t)(r->mem[off + 12] & 0xF0u);
    assert_int_equal(remount_report(r, &rep), FD_ERR_CORRUPT);
    assert_int_equal(rep.seq, 5);
    assert_int_equal(rep.offset, off);
    assert_string_equal(rep.reason, "record fails its check");

    /* drop record 4: later records moved down, the page end re-erased */
    memcpy(r->mem, base_image, sizeof base_image);
    memmove(r->mem + off, r->mem + off + size, PAGE - off - size);
    memset(r->mem + PAGE - size, 0xFF, size);
    assert_int_equal(remount_report(r, &rep), FD_ERR_CORRUPT);
    assert_int_equal(rep.seq, 5);

    /* swap records 3 and 4 (two deals of the same size) */
    memcpy(r->mem, base_image, sizeof base_image);
    uint32_t size3 = 0;
    uint32_t off3 = record_at(r->mem, 3, &size3);
    assert_int_equal(size3, size);
    uint8_t tmp[512];
    memcpy(tmp, r->mem + off3, size);
    memcpy(r->mem + off3, r->mem + off, size);
    memcpy(r->mem + off, tmp, size);
    assert_int_equal(remount_report(r, &rep), FD_ERR_CORRUPT);
    assert_int_equal(rep.seq, 4);

    /* renumber a record's seq (header check fixed up too: still caught) */
    memcpy(r->mem, base_image, sizeof base_image);
    put32(r->mem + off + 4, 99);
    assert_int_equal(remount_report(r, &rep), FD_ERR_CORRUPT);

    /* erase the oldest page: the newer header names it as live */
    memcpy(r->mem, base_image, sizeof base_image);
    assert_int_equal(remount_report(r, &rep), FD_OK);
    assert_true(r->j.newest_page_seq >= 3u && r->j.tail_page_seq == 1u);
    memset(r->mem, 0xFF, PAGE);
    assert_int_equal(remount_report(r, &rep), FD_ERR_CORRUPT);
    assert_string_equal(rep.reason, "page missing from the live range");

    /* a second copy of the newest page in a free page's place */
    memcpy(r->mem, base_image, sizeof base_image);
    assert_int_equal(remount_report(r, &rep), FD_OK);
    uint32_t newest = r->j.cur_page;
    uint32_t spare = (newest + 1u) % 8u;
    assert_true(r->j.pages[spare].page_seq == 0u || r->j.pages[spare].page_seq < r->j.tail_page_seq);
    memcpy(r->mem + spare * PAGE, r->mem + newest * PAGE, PAGE);
    assert_int_equal(remount_report(r, &rep), FD_ERR_CORRUPT);
    assert_string_equal(rep.reason, "page sequence repeated");

    /* the oldest page dropped by a RETIRE record planted in it (its header
     * check right, its tag not: the walk then skips that page unverified) */
    memcpy(r->mem, base_image, sizeof base_image);
    assert_int_equal(remount_report(r, &rep), FD_OK);
    uint32_t tail_page = 0;
    while (r->j.pages[tail_page].page_seq != r->j.tail_page_seq) {
        tail_page++;
    }
    plant_retire(r->mem + tail_page * PAGE + FD_JOURNAL_PAGE_HEADER, r->j.tail_page_seq);
    assert_int_equal(remount_report(r, &rep), FD_ERR_CORRUPT);
    assert_string_equal(rep.reason, "retired page not retired in the chain");

    /* the wrong key: nothing verifies, and it is not taken for a blank area */
    memcpy(r->mem, base_image, sizeof base_image);
    static const uint8_t other[32] = "not the device key 0123456789ab";
    assert_int_equal(fd_journal_init(&r->j, &r->hf.flash, other, 32, r->pages, NULL, NULL), FD_OK);
    assert_int_equal(fd_journal_mount(&r->j, &rep), FD_ERR_CORRUPT);

    /* truncation of the newest record mounts, but the exported head moves:
     * that is how it shows from outside */
    memcpy(r->mem, base_image, sizeof base_image);
    assert_int_equal(remount_report(r, &rep), FD_OK);
    uint8_t head[32];
    uint32_t next = 0;
    assert_int_equal(fd_journal_head(&r->j, head, &next), FD_OK);
    uint32_t cur = r->j.cur_page;
    uint32_t last_off = r->j.cur_offset;
    uint32_t poff = FD_JOURNAL_PAGE_HEADER;
    uint32_t prev = poff;
    while (poff < last_off) {
        uint32_t w0 = get32(r->mem + cur * PAGE + poff);
        uint32_t w2 = get32(r->mem + cur * PAGE + poff + 8);
        prev = poff;
        poff += fd_journal_record_size(w0 >> 16, w2 & 0xFFFFu, ((w0 >> 8) & 1u) != 0u);
    }
    memset(r->mem + cur * PAGE + prev, 0xFF, PAGE - prev);
    assert_int_equal(remount_report(r, &rep), FD_OK);
    uint8_t head2[32];
    uint32_t next2 = 0;
    assert_int_equal(fd_journal_head(&r->j, head2, &next2), FD_OK);
    assert_int_equal(next2, next - 1);
    assert_memory_not_equal(head, head2, 32);
}

/* Replays from an older image: one page put back is caught; the whole old
 * image is a valid older state (a rollback), which only the exported head
 * and seq can show. */
static uint8_t old_image[PAGE * MAX_PAGES];

static void test_replay_detected(void **state)
{
    (void)state;
    rig *r = &r1;
    rig_open(r, 8, 10, 100);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    script_session(8);
    run_log log;
    memset(&log, 0, sizeof log);
    size_t half = n_ops / 2u;
    assert_int_equal(run_ops(r, 0, half, &log), FD_OK);
    /* stop where the current page still has room for the next record */
    while (r->j.cur_offset + fd_journal_record_size(ops[half].len, ops[half].secret_len, false) > PAGE) {
        assert_int_equal(run_ops(r, half, half + 1u, &log), FD_OK);
        half++;
    }
    memcpy(old_image, r->mem, sizeof old_image);
    uint32_t old_page = r->j.cur_page;
    uint8_t old_head[32];
    uint32_t old_next = 0;
    assert_int_equal(fd_journal_head(&r->j, old_head, &old_next), FD_OK);
    assert_int_equal(run_ops(r, half, n_ops, &log), FD_OK);
    /* the page that was being written then has filled since */
    assert_true(r->j.cur_page != old_page);
    assert_memory_not_equal(r->mem + old_page * PAGE, old_image + old_page * PAGE, PAGE);

    fd_journal_report rep;
    memcpy(r->mem + old_page * PAGE, old_image + old_page * PAGE, PAGE);
    assert_int_equal(remount_report(r, &rep), FD_ERR_CORRUPT);
    assert_string_equal(rep.reason, "page does not continue the chain");

    memcpy(r->mem, old_image, sizeof old_image);
    assert_int_equal(remount_report(r, &rep), FD_OK);
    uint8_t head[32];
    uint32_t next = 0;
    assert_int_equal(fd_journal_head(&r->j, head, &next), FD_OK);
    assert_int_equal(next, old_next);
    assert_memory_equal(head, old_head, 32);
}

/* ---- Power cuts at every step. ---- */

#define CUT_ROUNDS 24u
#define CUT_PAGES 7u
#define CUT_HANDS 2u
#define CUT_SUMMARIES 16u

/* The uncut reference: live orig seqs after each operation. */
typedef struct reference {
    uint8_t live[1024][MAX_SEQ / 8];
    uint8_t type[MAX_SEQ];
    uint8_t digest[MAX_SEQ][8];
    uint32_t round[MAX_SEQ];
    uint32_t op_seq[1024]; /* seq each append got */
    uint64_t steps;
} reference;

/* The session's, and a continuation's after a recovery (check_after_cut
 * judges against the one ref points to). */
static reference refs[2];
static reference *ref = &refs[0];

static bool live_in(size_t after_op, uint32_t orig) { return (ref->live[after_op][orig / 8u] >> (orig % 8u)) & 1u; }

/* What a walk finds live after op i (i = 0: before the first). */
static void note_live(rig *r, size_t i)
{
    static seen s;
    assert_int_equal(walk(r, &s, NULL), FD_OK);
    for (uint32_t k = 0; k < s.count; k++) {
        ref->live[i][s.orig[k] / 8u] = (uint8_t)(ref->live[i][s.orig[k] / 8u] | (1u << (s.orig[k] % 8u)));
    }
}

/* Op i, uncut: the seq it got, what it wrote, what is live after it. */
static void reference_op(rig *r, size_t i, run_log *log)
{
    uint32_t before = log->last_acked_seq;
    assert_int_equal(run_ops(r, i, i + 1u, log), FD_OK);
    const op *o = &ops[i];
    if (o->kind == OP_APPEND) {
        assert_true(log->last_acked_seq > before && log->last_acked_seq < MAX_SEQ);
        ref->type[log->last_acked_seq] = o->type;
        ref->round[log->last_acked_seq] = o->round;
        ref->op_seq[i] = log->last_acked_seq;
        op_digest(o, ref->digest[log->last_acked_seq]);
    }
    note_live(r, i + 1u);
}

static void build_reference(rig *r)
{
    rig_open(r, CUT_PAGES, CUT_HANDS, CUT_SUMMARIES);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    run_log log;
    memset(&log, 0, sizeof log);
    memset(ref, 0, sizeof *ref);
    assert_true(n_ops < 1024u);
    note_live(r, 0);
    for (size_t i = 0; i < n_ops; i++) {
        reference_op(r, i, &log);
    }
    ref->steps = r->hf.steps;
    /* compaction copied records forward: the cut test covers copies too */
    seen s;
    assert_int_equal(walk(r, &s, NULL), FD_OK);
    unsigned copies = 0;
    for (uint32_t k = 0; k < s.count; k++) {
        copies += s.seq[k] != s.orig[k];
    }
    print_message("reference session: %u live records at the end, %u of them copies, last copied seq %u\n", s.count,
                  copies, r->j.last_copied);
    assert_true(copies > 0u);
    uint32_t lo = 0;
    uint32_t hi = 0;
    uint64_t total = 0;
    assert_int_equal(fd_journal_wear(&r->j, &lo, &hi, &total), FD_OK);
    /* the session wraps the area several times: compaction is exercised */
    assert_true(hi >= 2u);
    assert_true(r->j.tail_page_seq > CUT_PAGES);
}

static seen after_cut;

static void check_after_cut(rig *r, const run_log *log, size_t done)
{
    fd_journal_report rep;
    assert_int_equal(fd_journal_init(&r->j, &r->hf.flash, key, 32, r->pages, fd_records_keep, &r->policy), FD_OK);
    if (fd_journal_mount(&r->j, &rep) != FD_OK) {
        fail_msg("mount after a cut: %s at page %u offset %u seq %u (after %zu ops, step %llu)", rep.reason, rep.page,
                 rep.offset, rep.seq, done, (unsigned long long)r->hf.steps);
    }
    seen *s = &after_cut;
    assert_int_equal(walk(r, s, NULL), FD_OK);
    size_t next_op = done < n_ops ? done + 1u : done;
    /* no acknowledged record the uncut run still holds is lost */
    for (uint32_t orig = 1; orig <= log->last_acked_seq; orig++) {
        if (live_in(next_op, orig) && live_in(done, orig) && find_orig(s, orig) < 0) {
            fail_msg("acknowledged record %u lost (after %zu ops)", orig, done);
        }
    }
    /* nothing else appears, and every record reads as written */
    for (uint32_t k = 0; k < s->count; k++) {
        uint32_t orig = s->orig[k];
        if (orig > log->last_acked_seq) {
            /* the interrupted append itself, complete on flash */
            assert_true(done < n_ops && ops[done].kind == OP_APPEND);
            assert_int_equal(orig, ref->op_seq[done]);
            assert_int_equal(s->type[k], ops[done].type);
            continue;
        }
        assert_true(live_in(done, orig) || live_in(next_op, orig));
        assert_int_equal(s->type[k], ref->type[orig]);
        assert_memory_equal(s->digest[k], ref->digest[orig], 8);
        for (uint32_t m = k + 1; m < s->count; m++) {
            assert_int_not_equal(s->orig[m], orig); /* each record once */
        }
    }
    /* every opened round can still be revealed: its reveal or its secret */
    for (uint32_t k = 0; k < s->count; k++) {
        if (s->type[k] != FD_REC_ROUND_OPENED) {
            continue;
        }
        uint32_t round = ref->round[s->orig[k]];
        bool revealed = false;
        bool secret = false;
        for (uint32_t m = 0; m < s->count; m++) {
            uint32_t o = s->orig[m];
            if (o < MAX_SEQ && ref->round[o] == round) {
                revealed |= s->type[m] == FD_REC_REVEAL;
                secret |= s->type[m] == FD_REC_ROUND_OPENED && s->secret_state[m] == FD_JOURNAL_SECRET_AVAILABLE;
            }
        }
        if (!revealed && !secret) {
            fail_msg("round %u cannot be revealed after a cut (after %zu ops)", round, done);
        }
    }
    /* the open round's deals: every acknowledged one is there, so dealing
     * resumes after the last position and no card is dealt twice */
    for (uint32_t orig = 1; orig <= log->last_acked_seq; orig++) {
        if (ref->type[orig] == FD_REC_DEALT && ref->round[orig] == s->newest_round) {
            assert_true(find_orig(s, orig) >= 0);
        }
    }
    /* life goes on: the next record gets a fresh seq and the chain verifies */
    r->policy.newest_round = s->newest_round;
    uint8_t p[8] = {0};
    uint32_t seq = 0;
    assert_int_equal(fd_journal_append(&r->j, FD_REC_POWER_ON, p, sizeof p, NULL, 0, &seq), FD_OK);
    assert_true(seq > log->last_acked_seq);
    for (uint32_t k = 0; k < s->count; k++) {
        assert_true(seq > s->seq[k]);
    }
    assert_int_equal(fd_journal_init(&r->j, &r->hf.flash, key, 32, r->pages, fd_records_keep, &r->policy), FD_OK);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
}

/* Tear patterns tried at each step (the clean cut is one more). */
#define TEARS_PER_STEP 8u

/* ops[from..) on a mounted journal with a cut after step k (clean or
 * torn, tear pattern n), power back on, and check what mounts. */
static void cut_and_check(rig *r, size_t from, run_log *log, uint64_t k, bool torn, uint64_t n)
{
    r->hf.cut_after = k;
    r->hf.torn = torn;
    r->hf.tear_state = (uint32_t)(n * 2654435761u + 1u);
    fd_status st = run_ops(r, from, n_ops, log);
    assert_int_not_equal(st, FD_OK); /* the cut must land inside the session */
    assert_true(r->hf.cut);
    host_flash_reboot(&r->hf);
    check_after_cut(r, log, log->done);
}

static void cut_everywhere(bool torn, uint64_t *cuts)
{
    rig *r = &r1;
    for (uint64_t n = 0; n < ref->steps * (torn ? TEARS_PER_STEP : 1u); n++) {
        rig_open(r, CUT_PAGES, CUT_HANDS, CUT_SUMMARIES);
        assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
        run_log log;
        memset(&log, 0, sizeof log);
        cut_and_check(r, 0, &log, torn ? n / TEARS_PER_STEP : n, torn, n);
        (*cuts)++;
    }
}

static void test_power_cut_every_step(void **state)
{
    (void)state;
    script_session(CUT_ROUNDS);
    ref = &refs[0];
    build_reference(&r1);
    uint64_t clean = 0;
    uint64_t torn = 0;
    cut_everywhere(false, &clean);
    cut_everywhere(true, &torn);
    assert_int_equal(clean, ref->steps);
    assert_int_equal(torn, ref->steps * TEARS_PER_STEP);
    print_message("power cuts: %zu operations, %llu erase/program steps; %llu clean cuts and %llu torn (%u tear "
                  "patterns per step), "
                  "every one remounted with nothing acknowledged lost\n",
                  n_ops, (unsigned long long)ref->steps, (unsigned long long)clean, (unsigned long long)torn,
                  TEARS_PER_STEP);
}

/* ---- A second cut while recovering from the first. ---- */

/* Steps after the recovery (its power-on record, the interrupted
 * operation again, a compaction it resumes) at which a second cut comes. */
#define RECOVERY_STEPS 12u

/* The state check_after_cut leaves: the image, what is acknowledged (the
 * power-on record and a cut append that landed too), the keep policy. */
typedef struct recovered {
    uint8_t image[PAGE * CUT_PAGES];
    run_log log;
    fd_records_policy policy;
    size_t from; /* the interrupted operation, issued again */
} recovered;

static recovered recovery;

static void save_recovery(rig *r, const run_log *log)
{
    memcpy(recovery.image, r->mem, sizeof recovery.image);
    recovery.log = *log;
    uint8_t head[32];
    uint32_t next = 0;
    assert_int_equal(fd_journal_head(&r->j, head, &next), FD_OK);
    recovery.log.last_acked_seq = next - 1u;
    recovery.policy = r->policy;
    recovery.from = log->done;
}

static void open_recovery(rig *r, run_log *log)
{
    rig_open(r, CUT_PAGES, CUT_HANDS, CUT_SUMMARIES);
    memcpy(r->mem, recovery.image, sizeof recovery.image);
    r->policy = recovery.policy;
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    *log = recovery.log;
}

/* The uncut continuation of the recovery into refs[1], op by op, until
 * RECOVERY_STEPS have passed and one op more; the records from before are
 * read back from the image. Returns the steps it took. */
static uint64_t build_continuation(rig *r)
{
    ref = &refs[1];
    memset(ref, 0, sizeof *ref);
    run_log log;
    open_recovery(r, &log);
    seen *s = &after_cut;
    assert_int_equal(walk(r, s, NULL), FD_OK);
    for (uint32_t k = 0; k < s->count; k++) {
        ref->type[s->orig[k]] = s->type[k];
        ref->round[s->orig[k]] = s->round[k];
        memcpy(ref->digest[s->orig[k]], s->digest[k], 8);
    }
    note_live(r, recovery.from);
    unsigned past = 0;
    for (size_t i = recovery.from; i < n_ops && past < 2u; i++) {
        reference_op(r, i, &log);
        past += r->hf.steps >= RECOVERY_STEPS ? 1u : 0u;
    }
    ref->steps = r->hf.steps;
    return r->hf.steps;
}

/* Every first cut of the session (clean, and torn with one pattern), the
 * recovery (mount, power-on record), the session resumed with the
 * interrupted operation issued again, and a second cut, clean and torn, at
 * each of the first RECOVERY_STEPS steps after it: the same checks. */
static void test_power_cut_during_recovery(void **state)
{
    (void)state;
    rig *r = &r1;
    script_session(CUT_ROUNDS);
    ref = &refs[0];
    build_reference(r);
    const uint64_t first_cuts = 2u * refs[0].steps;
    uint64_t second_cuts = 0;
    for (uint64_t n = 0; n < first_cuts; n++) {
        ref = &refs[0];
        rig_open(r, CUT_PAGES, CUT_HANDS, CUT_SUMMARIES);
        assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
        run_log log;
        memset(&log, 0, sizeof log);
        cut_and_check(r, 0, &log, n / 2u, (n & 1u) != 0u, n);
        save_recovery(r, &log);
        uint64_t steps = build_continuation(r);
        for (uint64_t m = 0; m < 2u * RECOVERY_STEPS && m / 2u < steps; m++) {
            open_recovery(r, &log);
            cut_and_check(r, recovery.from, &log, m / 2u, (m & 1u) != 0u, n * 64u + m);
            second_cuts++;
        }
    }
    print_message("power cuts during recovery: %llu first cuts (%llu steps, clean and torn), each followed by second "
                  "cuts at the first %u steps of the recovery (clean and torn): %llu runs, nothing acknowledged lost\n",
                  (unsigned long long)first_cuts, (unsigned long long)refs[0].steps, RECOVERY_STEPS,
                  (unsigned long long)second_cuts);
    assert_true(second_cuts > first_cuts * RECOVERY_STEPS);
}

/* ---- Random bit flips. ---- */

static bool same_records(const seen *a, const seen *b, bool *secret_damaged)
{
    *secret_damaged = false;
    if (a->count != b->count) {
        return false;
    }
    for (uint32_t i = 0; i < a->count; i++) {
        if (a->seq[i] != b->seq[i] || a->orig[i] != b->orig[i] || a->type[i] != b->type[i] ||
            memcmp(a->digest[i], b->digest[i], 8) != 0) {
            return false;
        }
        if (a->secret_state[i] != b->secret_state[i]) {
            if (b->secret_state[i] != FD_JOURNAL_SECRET_DAMAGED) {
                return false;
            }
            *secret_damaged = true;
        }
    }
    return true;
}

static void test_bit_flips_detected(void **state)
{
    (void)state;
    rig *r = &r1;
    /* the wrapped 8-page session, ending with an unrevealed round */
    script_session(CUT_ROUNDS);
    n_ops -= 3; /* stop before the last reveal: a live secret on flash */
    rig_open(r, CUT_PAGES, CUT_HANDS, CUT_SUMMARIES);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    run_log log;
    memset(&log, 0, sizeof log);
    assert_int_equal(run_ops(r, 0, n_ops, &log), FD_OK);
    assert_int_equal(walk(r, &base_seen, NULL), FD_OK);
    memcpy(base_image, r->mem, sizeof base_image);
    uint32_t x = 12345;
    unsigned at_mount = 0;
    unsigned secret = 0;
    unsigned harmless = 0;
    const unsigned flips = 4000;
    seen *s = &after_cut;
    for (unsigned i = 0; i < flips; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        uint64_t bit = x % (CUT_PAGES * PAGE * 8u);
        memcpy(r->mem, base_image, sizeof base_image);
        assert_int_equal(host_flash_flip(&r->hf, bit), FD_OK);
        if (remount_report(r, NULL) == FD_ERR_CORRUPT) {
            at_mount++;
            continue;
        }
        assert_int_equal(walk(r, s, NULL), FD_OK);
        bool damaged = false;
        if (!same_records(&base_seen, s, &damaged)) {
            fail_msg("bit %llu flipped went unnoticed", (unsigned long long)bit);
        }
        if (damaged) {
            secret++;
        } else {
            harmless++;
        }
    }
    print_message("bit flips: %u random, %u caught at mount, %u shown as a damaged secret, %u harmless "
                  "(free or dead pages, commit words)\n",
                  flips, at_mount, secret, harmless);
    assert_true(at_mount > flips / 2u);
}

/* ---- The dealer's budget, rotating. ---- */

static void test_rotation(void **state)
{
    (void)state;
    rig *r = &r1;
    const char *env = getenv("FD_JOURNAL_ROUNDS");
    uint32_t rounds = env != NULL ? (uint32_t)strtoul(env, NULL, 10) : 10000u;
    rig_open(r, MICROBIT_PAGES, 10, 100);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    run_log log;
    memset(&log, 0, sizeof log);
    uint64_t appends = 0;
    unsigned min_summaries = UINT32_MAX;
    unsigned min_hands = UINT32_MAX;
    const uint32_t batch = 500;
    for (uint32_t first = 1; first <= rounds; first += batch) {
        uint32_t last = first + batch - 1u > rounds ? rounds : first + batch - 1u;
        n_ops = 0;
        script_rounds(first, last);
        assert_int_equal(run_ops(r, 0, n_ops, &log), FD_OK);
        appends += n_ops;
        if (first == 1u) {
            /* a reboot in the middle: remount and carry on */
            assert_int_equal(remount_report(r, NULL), FD_OK);
        }
        /* what the area holds at every checkpoint, not just at the end */
        assert_int_equal(walk(r, &after_cut, NULL), FD_OK);
        unsigned summaries = 0;
        unsigned hands = 0;
        for (uint32_t k = 0; k < after_cut.count; k++) {
            summaries += after_cut.type[k] == FD_REC_REVEAL;
            hands += after_cut.type[k] == FD_REC_ROUND_OPENED;
        }
        if (last >= 100u) {
            min_summaries = summaries < min_summaries ? summaries : min_summaries;
            min_hands = hands < min_hands ? hands : min_hands;
        }
    }
    assert_true(min_summaries >= 100u && min_hands >= 10u);
    assert_int_equal(remount_report(r, NULL), FD_OK);
    seen *s = &after_cut;
    assert_int_equal(walk(r, s, NULL), FD_OK);
    /* the last 10 hands in full, the last 100 summaries */
    unsigned reveals = 0;
    unsigned opened = 0;
    for (uint32_t k = 0; k < s->count; k++) {
        if (s->type[k] == FD_REC_REVEAL) {
            reveals++;
        }
        if (s->type[k] == FD_REC_ROUND_OPENED) {
            opened++;
        }
    }
    assert_true(reveals >= 100u);
    assert_true(opened >= 10u);
    for (uint32_t round = rounds - 99u; round <= rounds; round++) {
        unsigned reveal = 0;
        unsigned open = 0;
        unsigned deals = 0;
        for (uint32_t k = 0; k < s->count; k++) {
            if (s->round[k] == round) {
                reveal += s->type[k] == FD_REC_REVEAL;
                open += s->type[k] == FD_REC_ROUND_OPENED;
                deals += s->type[k] == FD_REC_DEALT;
            }
        }
        assert_int_equal(reveal, 1);
        if (round + 10u > rounds) { /* the hand in full: every deal to every seat */
            assert_int_equal(open, 1);
            assert_int_equal(deals, 2u + round % 4u);
        }
    }
    uint32_t lo = 0;
    uint32_t hi = 0;
    uint64_t total = 0;
    assert_int_equal(fd_journal_wear(&r->j, &lo, &hi, &total), FD_OK);
    assert_true(hi - lo <= 1u); /* the ring wears every page alike */
    print_message("rotation: %u rounds, %llu records on %u x %u-byte pages: %llu erases (max %u per page, min %u), "
                  "%llu programs; %u round summaries and %u full hands held (never fewer than %u and %u)\n",
                  rounds, (unsigned long long)appends, MICROBIT_PAGES, PAGE, (unsigned long long)r->hf.erases, hi, lo,
                  (unsigned long long)r->hf.programs, reveals, opened, min_summaries, min_hands);
}

/* fuzz_journal's first find (corpus/journal/journal-seq-not-past-acked-*),
 * step by step: two records on a fresh journal; bit 0 of byte 71 (the first
 * record's length) and bit 4 of byte 32 (the page header's prev_head)
 * flipped. Either flip alone is caught at mount, as is every other single
 * flip in the page header and the first record's header. Both together leave
 * a page whose header does not verify and whose first record does not parse:
 * what a cut while claiming a page leaves too, so it mounts as a journal
 * truncated to before that page. That shows from outside only, as the next
 * seq and head exported before it (journal.h); the fuzzer checks its
 * invariants with at most one flip. */
static void damaged_two_records(rig *r, const uint32_t *flip_bits, size_t flips, uint8_t head[32], uint32_t *next)
{
    rig_open(r, 6, 10, 100);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    uint8_t payload[58];
    uint8_t secret[32];
    memset(payload, 0x5A, sizeof payload);
    memset(secret, 0x33, sizeof secret);
    uint32_t seq = 0;
    assert_int_equal(fd_journal_append(&r->j, FD_REC_REVEAL, payload, 4, secret, sizeof secret, &seq), FD_OK);
    assert_int_equal(seq, 1);
    for (size_t i = 0; i < flips; i++) {
        assert_int_equal(host_flash_flip(&r->hf, flip_bits[i]), FD_OK);
    }
    assert_int_equal(fd_journal_append(&r->j, 9, payload, sizeof payload, secret, sizeof secret, &seq), FD_OK);
    assert_int_equal(seq, 2);
    assert_int_equal(fd_journal_head(&r->j, head, next), FD_OK);
}

static void test_damaged_newest_page(void **state)
{
    (void)state;
    rig *r = &r1;
    const uint32_t first_record_len = 71u * 8u;
    const uint32_t page_prev_head = 32u * 8u + 4u;
    uint8_t head[32];
    uint32_t next = 0;
    fd_journal_report rep;

    damaged_two_records(r, &page_prev_head, 1, head, &next);
    assert_int_equal(remount_report(r, &rep), FD_ERR_CORRUPT);
    assert_string_equal(rep.reason, "records under a damaged page header");
    damaged_two_records(r, &first_record_len, 1, head, &next);
    assert_int_equal(remount_report(r, &rep), FD_ERR_CORRUPT);
    assert_string_equal(rep.reason, "record fails its check");

    /* every single flip in the header and the first record's header */
    damaged_two_records(r, NULL, 0, head, &next);
    memcpy(base_image, r->mem, 6u * PAGE);
    unsigned caught = 0;
    for (uint32_t bit = 0; bit < (FD_JOURNAL_PAGE_HEADER + 12u) * 8u; bit++) {
        memcpy(r->mem, base_image, 6u * PAGE);
        assert_int_equal(host_flash_flip(&r->hf, bit), FD_OK);
        fd_status st = remount_report(r, &rep);
        if (st == FD_ERR_CORRUPT) {
            caught++;
            continue;
        }
        fail_msg("bit %u flipped: mount %d, not caught", (unsigned)bit, (int)st);
    }
    assert_int_equal(caught, (FD_JOURNAL_PAGE_HEADER + 12u) * 8u);

    /* both: the page reads as half claimed; the exported seq and head
     * go back, which is how the outside sees it */
    const uint32_t both[2] = {first_record_len, page_prev_head};
    damaged_two_records(r, both, 2, head, &next);
    assert_int_equal(next, 3);
    assert_int_equal(remount_report(r, &rep), FD_OK);
    uint8_t head2[32];
    uint32_t next2 = 0;
    assert_int_equal(fd_journal_head(&r->j, head2, &next2), FD_OK);
    assert_int_equal(next2, 1);
    assert_memory_not_equal(head, head2, 32);
}

/* Live records that no longer fit fail closed: nothing written, an error. */
static void test_full_of_live_records(void **state)
{
    (void)state;
    rig *r = &r1;
    rig_open(r, 8, 1000, 1000); /* keep everything: cannot fit */
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    n_ops = 0;
    script_rounds(1, 200);
    run_log log;
    memset(&log, 0, sizeof log);
    assert_int_equal(run_ops(r, 0, n_ops, &log), FD_ERR_EXHAUSTED);
    uint8_t p[8] = {0};
    assert_int_equal(fd_journal_append(&r->j, FD_REC_FAULT, p, 8, NULL, 0, NULL), FD_ERR_NOT_READY);
    /* what was acknowledged is all there */
    assert_int_equal(remount_report(r, NULL), FD_OK);
    seen *s = &after_cut;
    assert_int_equal(walk(r, s, NULL), FD_OK);
    unsigned kept = 0; /* the policy keeps every round record */
    for (uint32_t orig = 1; orig <= log.last_acked_seq; orig++) {
        uint8_t t = log.acked_type[orig];
        if (t == FD_REC_ROUND_OPENED || t == FD_REC_DEALT || t == FD_REC_REVEAL) {
            assert_true(find_orig(s, orig) >= 0);
            kept++;
        }
    }
    assert_true(kept > 50u);
}

/* ---- direct tests written against surviving mutants (tests/mutation) ---- */

static rig r2; /* a second journal beside r1 */

/* The head commits to the whole history, not to the last record alone: two
 * journals whose newest records are identical but whose first differ end on
 * different heads. */
static void test_head_commits_to_the_whole_history(void **state)
{
    (void)state;
    const uint8_t first[2][4] = {{1, 0, 0, 0}, {2, 0, 0, 0}};
    const uint8_t last[4] = {3, 0, 0, 0};
    uint8_t head[2][32];
    rig *const rigs[2] = {&r1, &r2};
    for (int i = 0; i < 2; i++) {
        rig_open(rigs[i], 8, 10, 100);
        assert_int_equal(fd_journal_mount(&rigs[i]->j, NULL), FD_OK);
        assert_int_equal(fd_journal_append(&rigs[i]->j, FD_REC_REVEAL, first[i], 4, NULL, 0, NULL), FD_OK);
        assert_int_equal(fd_journal_append(&rigs[i]->j, FD_REC_REVEAL, last, 4, NULL, 0, NULL), FD_OK);
        uint32_t next = 0;
        assert_int_equal(fd_journal_head(&rigs[i]->j, head[i], &next), FD_OK);
        assert_int_equal(next, 3);
    }
    assert_memory_not_equal(head[0], head[1], 32);
}

static bool keep_secrets(void *ctx, const fd_journal_record *rec)
{
    (void)ctx;
    return rec->secret_len > 0u;
}

/* A secret written is in no RAM buffer of the journal afterwards, nor after
 * a walk or a mount read it back, nor after compaction copied it; once its
 * record has been copied forward, the wipe reaches the copy. */
static void test_secret_wipe_reaches_copies_and_ram(void **state)
{
    (void)state;
    rig *r = &r1;
    assert_int_equal(host_flash_open(&r->hf, r->mem, PAGE, 6, NULL), FD_OK);
    assert_int_equal(fd_journal_init(&r->j, &r->hf.flash, key, sizeof key, r->pages, keep_secrets, NULL), FD_OK);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    uint8_t round[4] = {9, 0, 0, 0};
    uint8_t seed[32];
    seed_of(9, seed);
    uint32_t seq = 0;
    assert_int_equal(fd_journal_append(&r->j, FD_REC_ROUND_OPENED, round, 4, seed, 32, &seq), FD_OK);
    assert_null(memmem(r->j.buf, sizeof r->j.buf, seed, 32));
    static seen s;
    int at = -1;
    for (unsigned i = 0; i < 400u; i++) {
        assert_int_equal(fd_journal_append(&r->j, FD_REC_REVEAL, round, 4, NULL, 0, NULL), FD_OK);
        assert_null(memmem(&r->j, sizeof r->j, seed, 32)); /* compaction copies it */
        assert_int_equal(walk(r, &s, NULL), FD_OK);
        assert_null(memmem(&r->j, sizeof r->j, seed, 32));
        at = find_orig(&s, seq);
        assert_true(at >= 0);
        if (s.seq[at] != seq) {
            break; /* the live record is now a copy */
        }
    }
    assert_true(s.seq[at] != seq);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    assert_null(memmem(&r->j, sizeof r->j, seed, 32));
    assert_non_null(memmem(r->mem, PAGE * 6u, seed, 32));
    assert_int_equal(fd_journal_wipe_secret(&r->j, seq), FD_OK);
    assert_null(memmem(r->mem, PAGE * 6u, seed, 32));
    assert_null(memmem(&r->j, sizeof r->j, seed, 32));
}

static fd_status stop_at_third(void *ctx, const fd_journal_record *rec)
{
    (void)rec;
    unsigned *n = ctx;
    return ++*n == 3u ? FD_ERR_STATE : FD_OK;
}

/* fd_journal_mount_walk: the records fd_journal_walk visits (copies made by
 * compaction included) and the position fd_journal_mount takes, from one
 * read; a visitor's error or a damaged record leaves the journal unmounted. */
static void test_mount_walk_is_mount_plus_walk(void **state)
{
    (void)state;
    rig *r = &r1;
    rig_open(r, 6, 2, 4);
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    uint8_t secret[32];
    for (uint32_t i = 1; i <= 150; i++) {
        uint8_t round[4];
        put32(round, i);
        seed_of(i, secret);
        uint32_t opened = 0;
        r->policy.newest_round = i;
        assert_int_equal(fd_journal_append(&r->j, FD_REC_ROUND_OPENED, round, 4, secret, 32, &opened), FD_OK);
        assert_int_equal(fd_journal_append(&r->j, FD_REC_REVEAL, round, 4, NULL, 0, NULL), FD_OK);
        if (i > 1u) { /* round 1 keeps its secret: compaction copies it forward */
            assert_int_equal(fd_journal_wipe_secret(&r->j, opened), FD_OK);
        }
    }
    static seen walked, visited;
    assert_int_equal(walk(r, &walked, NULL), FD_OK);
    uint8_t head[32], head2[32];
    uint32_t next = 0, next2 = 0;
    assert_int_equal(fd_journal_head(&r->j, head, &next), FD_OK);
    bool copies = false;
    for (uint32_t i = 0; i < walked.count; i++) {
        copies = copies || walked.seq[i] != walked.orig[i];
    }
    assert_true(copies); /* compaction has run: copies stand in for originals */

    assert_int_equal(fd_journal_init(&r->j, &r->hf.flash, key, sizeof key, r->pages, fd_records_keep, &r->policy),
                     FD_OK);
    memset(&visited, 0, sizeof visited);
    assert_int_equal(fd_journal_mount_walk(&r->j, collect, &visited, NULL), FD_OK);
    assert_memory_equal(&walked, &visited, sizeof walked);
    assert_int_equal(fd_journal_head(&r->j, head2, &next2), FD_OK);
    assert_memory_equal(head, head2, sizeof head);
    assert_int_equal(next, next2);
    assert_int_equal(fd_journal_append(&r->j, FD_REC_REVEAL, secret, 4, NULL, 0, NULL), FD_OK);

    /* the visitor stops it: not mounted */
    unsigned n = 0;
    assert_int_equal(fd_journal_mount_walk(&r->j, stop_at_third, &n, NULL), FD_ERR_STATE);
    assert_int_equal(n, 3);
    assert_int_equal(fd_journal_append(&r->j, FD_REC_REVEAL, secret, 4, NULL, 0, NULL), FD_ERR_NOT_READY);
    /* a damaged record: corrupt, not mounted, reported */
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    bool damaged = false;
    for (uint32_t p = 0; p < 6u && !damaged; p++) {
        if (r->pages[p].page_seq != 0u && r->pages[p].page_seq >= r->j.tail_page_seq) {
            r->mem[p * PAGE + FD_JOURNAL_PAGE_HEADER + 24u] ^= 0x01u; /* the first record's payload */
            damaged = true;
        }
    }
    assert_true(damaged);
    fd_journal_report rep;
    memset(&visited, 0, sizeof visited);
    assert_int_equal(fd_journal_mount_walk(&r->j, collect, &visited, &rep), FD_ERR_CORRUPT);
    assert_int_equal(rep.status, FD_ERR_CORRUPT);
    assert_int_equal(fd_journal_append(&r->j, FD_REC_REVEAL, secret, 4, NULL, 0, NULL), FD_ERR_NOT_READY);
}

/* A visitor or keep that calls back into the journal it is serving: every
 * call is refused with FD_ERR_STATE, the flash is unchanged by it, and the
 * walk (or append) that called it completes as without the call-back. */
typedef struct reentry {
    fd_journal *j;
    unsigned calls;
    fd_status worst; /* FD_OK while every call-back was refused with FD_ERR_STATE */
} reentry;

static void note_refused(reentry *e, fd_status st)
{
    if (st != FD_ERR_STATE) {
        e->worst = st == FD_OK ? FD_ERR_RNG : st; /* FD_OK here means it was allowed */
    }
}

static fd_status call_back_visit(void *ctx, const fd_journal_record *rec)
{
    reentry *e = ctx;
    const uint8_t payload[4] = {7, 7, 7, 7};
    fd_journal_report rep;
    e->calls++;
    note_refused(e, fd_journal_append(e->j, FD_REC_REVEAL, payload, 4, NULL, 0, NULL));
    note_refused(e, fd_journal_walk(e->j, NULL, NULL, &rep));
    note_refused(e, rep.status);
    note_refused(e, fd_journal_mount(e->j, NULL));
    note_refused(e, fd_journal_mount_walk(e->j, NULL, NULL, NULL));
    note_refused(e, fd_journal_wipe_secret(e->j, rec->orig_seq));
    return FD_OK;
}

static reentry keep_reentry;

static bool call_back_keep(void *ctx, const fd_journal_record *rec)
{
    (void)ctx;
    const uint8_t payload[4] = {8, 8, 8, 8};
    keep_reentry.calls++;
    note_refused(&keep_reentry, fd_journal_append(keep_reentry.j, FD_REC_REVEAL, payload, 4, NULL, 0, NULL));
    note_refused(&keep_reentry, fd_journal_walk(keep_reentry.j, NULL, NULL, NULL));
    return rec->secret_len > 0u;
}

static void test_call_back_from_visitor_or_keep_refused(void **state)
{
    (void)state;
    rig *r = &r1;
    static uint8_t before[PAGE * 6u];
    static seen plain, visited;
    assert_int_equal(host_flash_open(&r->hf, r->mem, PAGE, 6, NULL), FD_OK);
    assert_int_equal(fd_journal_init(&r->j, &r->hf.flash, key, sizeof key, r->pages, call_back_keep, NULL), FD_OK);
    keep_reentry = (reentry){&r->j, 0, FD_OK};
    assert_int_equal(fd_journal_mount(&r->j, NULL), FD_OK);
    uint8_t round[4] = {1, 0, 0, 0};
    uint8_t secret[32];
    seed_of(1, secret);
    assert_int_equal(fd_journal_append(&r->j, FD_REC_ROUND_OPENED, round, 4, secret, 32, NULL), FD_OK);
    for (unsigned i = 0; i < 300u; i++) { /* enough to compact: keep is asked */
        assert_int_equal(fd_journal_append(&r->j, FD_REC_REVEAL, round, 4, NULL, 0, NULL), FD_OK);
    }
    assert_true(keep_reentry.calls > 0u);
    assert_int_equal(keep_reentry.worst, FD_OK);

    memcpy(before, r->mem, sizeof before);
    assert_int_equal(walk(r, &plain, NULL), FD_OK);
    uint8_t head[32], head2[32];
    uint32_t next = 0, next2 = 0;
    assert_int_equal(fd_journal_head(&r->j, head, &next), FD_OK);
    reentry e = {&r->j, 0, FD_OK};
    assert_int_equal(fd_journal_walk(&r->j, call_back_visit, &e, NULL), FD_OK);
    assert_int_equal(e.calls, plain.count);
    assert_int_equal(e.worst, FD_OK);
    assert_memory_equal(before, r->mem, sizeof before);
    assert_int_equal(fd_journal_head(&r->j, head2, &next2), FD_OK);
    assert_memory_equal(head, head2, sizeof head);
    assert_int_equal(next, next2);

    e = (reentry){&r->j, 0, FD_OK};
    assert_int_equal(fd_journal_mount_walk(&r->j, call_back_visit, &e, NULL), FD_OK);
    assert_int_equal(e.calls, plain.count);
    assert_int_equal(e.worst, FD_OK);
    assert_memory_equal(before, r->mem, sizeof before);
    /* and the journal works on afterwards */
    assert_int_equal(walk(r, &visited, NULL), FD_OK);
    assert_memory_equal(&plain, &visited, sizeof plain);
    assert_int_equal(fd_journal_append(&r->j, FD_REC_REVEAL, round, 4, NULL, 0, NULL), FD_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_errors),
        cmocka_unit_test(test_append_remount_and_file),
        cmocka_unit_test(test_secret_wipe),
        cmocka_unit_test(test_tamper_detected),
        cmocka_unit_test(test_replay_detected),
        cmocka_unit_test(test_power_cut_every_step),
        cmocka_unit_test(test_bit_flips_detected),
        cmocka_unit_test(test_rotation),
        cmocka_unit_test(test_full_of_live_records),
        cmocka_unit_test(test_damaged_newest_page),
        cmocka_unit_test(test_power_cut_during_recovery),
        cmocka_unit_test(test_head_commits_to_the_whole_history),
        cmocka_unit_test(test_secret_wipe_reaches_copies_and_ram),
        cmocka_unit_test(test_mount_walk_is_mount_plus_walk),
        cmocka_unit_test(test_call_back_from_visitor_or_keep_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
