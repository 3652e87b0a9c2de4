/* The journal (lib/src/journal.c, lib/include/fairdeal/journal.h) against the
 * survivors of the mutants drawn by rule (docs/RELIABILITY.md, "Mutants drawn
 * by rule"): each test names the mutants it kills. The flash is the host flash
 * simulator (boards/host/storage.c: cuts, torn writes, nWRITE) behind a driver
 * that can fail one chosen read, program or erase call, as a real driver's
 * bus or verify error does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/journal.h"
#include "host_storage.h"

#define PAGE 512u /* the smallest page the journal takes */
#define MAX_PAGES 10u
#define MAX_SEEN 512u
/* A status the journal never makes itself, so a test tells the driver's
 * error from the journal's own (the nRF5x NVMC's FD_ERR_STATE and
 * FD_ERR_NOT_READY the journal returns too). */
#define DRIVER_FAILS FD_ERR_OVERRUN
#define KEPT 1u  /* the record type the keep policy of these tests keeps */
#define OTHER 2u /* and one it does not */

static const uint8_t key[32] = "fairdeal journal drawn test key";

/* ---- A driver that fails the n-th read, program or erase (from 1; 0: none). ---- */

typedef struct faulty {
    fd_flash flash; /* ctx = this */
    host_flash hf;
    uint64_t reads;
    uint64_t programs;
    uint64_t fail_read;
    uint64_t fail_program; /* fails without writing anything */
    uint64_t erases;
    uint64_t fail_erase; /* fails without erasing anything */
} faulty;

static fd_status faulty_erase(void *ctx, uint32_t page)
{
    faulty *f = ctx;
    if (++f->erases == f->fail_erase) {
        return DRIVER_FAILS;
    }
    return f->hf.flash.erase(f->hf.flash.ctx, page);
}

static fd_status faulty_program(void *ctx, uint32_t offset, const uint32_t *words, size_t count)
{
    faulty *f = ctx;
    if (++f->programs == f->fail_program) {
        return DRIVER_FAILS;
    }
    return f->hf.flash.program(f->hf.flash.ctx, offset, words, count);
}

static fd_status faulty_read(void *ctx, uint32_t offset, void *out, size_t len)
{
    faulty *f = ctx;
    if (++f->reads == f->fail_read) {
        return DRIVER_FAILS;
    }
    return f->hf.flash.read(f->hf.flash.ctx, offset, out, len);
}

static faulty fl;
static uint8_t mem[PAGE * MAX_PAGES];
static uint8_t saved[PAGE * MAX_PAGES];
static fd_journal j;
static fd_journal_page pages[MAX_PAGES];

/* A blank area of page_count pages. */
static void flash_open(uint32_t page_count)
{
    memset(&fl, 0, sizeof fl);
    assert_int_equal(host_flash_open(&fl.hf, mem, PAGE, page_count, NULL), FD_OK);
    fl.flash = fl.hf.flash;
    fl.flash.ctx = &fl;
    fl.flash.erase = faulty_erase;
    fl.flash.program = faulty_program;
    fl.flash.read = faulty_read;
}

static bool keep_kept(void *ctx, const fd_journal_record *record)
{
    (void)ctx;
    return record->type == KEPT;
}

/* A power-on: a new journal and page table on the same flash, mounted. */
static fd_status restart(bool keep)
{
    memset(pages, 0, sizeof pages);
    assert_int_equal(fd_journal_init(&j, &fl.flash, key, sizeof key, pages, keep ? keep_kept : NULL, NULL), FD_OK);
    return fd_journal_mount(&j, NULL);
}

/* Record n's payload: its number over len bytes. */
static fd_status append_n(uint8_t type, uint32_t n, size_t len, uint32_t *seq)
{
    uint8_t payload[64];
    assert_true(len <= sizeof payload);
    for (size_t i = 0; i < len; i++) {
        payload[i] = (uint8_t)(n + i);
    }
    return fd_journal_append(&j, type, payload, len, NULL, 0, seq);
}

/* ---- What a walk shows. ---- */

typedef struct seen {
    uint32_t count;
    uint32_t orig[MAX_SEEN];
    uint32_t seq[MAX_SEEN];
    uint32_t page[MAX_SEEN];
    uint8_t type[MAX_SEEN];
    uint32_t end; /* offset in the area after the newest record */
} seen;

static fd_status collect(void *ctx, const fd_journal_record *record)
{
    seen *s = ctx;
    assert_true(s->count < MAX_SEEN);
    s->orig[s->count] = record->orig_seq;
    s->seq[s->count] = record->seq;
    s->page[s->count] = record->page;
    s->type[s->count] = record->type;
    s->count++;
    s->end = record->offset + fd_journal_record_size(record->len, record->secret_len, true);
    return FD_OK;
}

static void walk_ok(seen *s)
{
    memset(s, 0, sizeof *s);
    fd_journal_report rep;
    fd_status st = fd_journal_walk(&j, collect, s, &rep);
    if (st != FD_OK) {
        fail_msg("walk: %s at page %u offset %u seq %u: %s", fd_status_name(st), (unsigned)rep.page,
                 (unsigned)rep.offset, (unsigned)rep.seq, rep.reason);
    }
}

static unsigned times_seen(const seen *s, uint32_t orig)
{
    unsigned n = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        n += s->orig[i] == orig ? 1u : 0u;
    }
    return n;
}

/* ---- A driver's read error is returned, never taken for a torn end. ---- */

/* Records written on a blank area of 6 pages (same payloads each time). */
static void three_records(void)
{
    flash_open(6);
    assert_int_equal(restart(false), FD_OK);
    for (uint32_t n = 0; n < 3u; n++) {
        assert_int_equal(append_n(OTHER, n, 24, NULL), FD_OK);
    }
}

/* The next append's body programmed, its commit word cut (complete: its
 * tag verifies, docs/RELIABILITY.md "Layout and the rules that make it
 * safe"); returns where it starts. */
static uint32_t append_cut_before_commit(uint32_t n)
{
    seen s;
    walk_ok(&s);
    fl.hf.cut_after = fl.hf.steps + 1u;
    assert_int_not_equal(append_n(OTHER, n, 24, NULL), FD_OK);
    host_flash_reboot(&fl.hf);
    return s.end;
}

typedef enum scenario {
    HEADER_CUT_SHORT,    /* the newest record's header cut after two words: torn */
    TAG_CUT_SHORT,       /* the newest record's body cut before its tag: torn */
    HEADER_FLIPPED,      /* a bit of a middle record's header flipped: damaged */
    UNCOMMITTED_FLIPPED, /* a complete record whose commit word was cut, with
                           records after it, a payload bit flipped: damaged */
    COMPACTED            /* records copied forward by compaction (each copy names its source) */
} scenario;

static const char *const scenario_name[] = {"header cut short", "tag cut short", "header flipped",
                                            "uncommitted record flipped", "compacted"};

/* Builds the scenario's flash; returns what a mount of it returns. */
static fd_status build(scenario sc)
{
    three_records();
    seen s;
    walk_ok(&s);
    switch (sc) {
    case HEADER_CUT_SHORT: {
        /* the first two words of a record header (type, flags, length;
         * seq), the program cut before the third */
        const uint32_t words[2] = {OTHER | 1u << 8 | 24u << 16, 4u};
        assert_int_equal(fl.hf.flash.program(fl.hf.flash.ctx, s.end, words, 2), FD_OK);
        return FD_OK;
    }
    case TAG_CUT_SHORT: {
        const uint32_t at = append_cut_before_commit(3);
        const uint32_t size = fd_journal_record_size(24, 0, true);
        memset(mem + at + size - 4u - FD_JOURNAL_TAG_SIZE, 0xFF, FD_JOURNAL_TAG_SIZE);
        return FD_OK;
    }
    case HEADER_FLIPPED: {
        const uint32_t second = PAGE * s.page[1] + FD_JOURNAL_PAGE_HEADER + fd_journal_record_size(24, 0, true);
        assert_int_equal(host_flash_flip(&fl.hf, 8u * (second + 4u)), FD_OK); /* its seq */
        return FD_ERR_CORRUPT;
    }
    case UNCOMMITTED_FLIPPED: {
        const uint32_t at = append_cut_before_commit(3);
        assert_int_equal(restart(false), FD_OK);
        for (uint32_t n = 4; n < 6u; n++) {
            assert_int_equal(append_n(OTHER, n, 24, NULL), FD_OK);
        }
        walk_ok(&s);
        assert_int_equal(s.count, 6); /* the uncommitted record is there, and two after it */
        assert_int_equal(s.page[5], s.page[3]);
        assert_int_equal(host_flash_flip(&fl.hf, 8u * (at + 20u + 5u)), FD_OK); /* a payload byte */
        return FD_ERR_CORRUPT;
    }
    case COMPACTED: {
        assert_int_equal(restart(true), FD_OK);
        for (uint32_t n = 3; fl.hf.erases < 12u; n++) {
            assert_int_equal(append_n(n % 3u == 0u ? KEPT : OTHER, n, 40, NULL), FD_OK);
        }
        walk_ok(&s);
        assert_true(s.orig[0] < s.seq[0]); /* the oldest record shown is a copy */
        return FD_OK;
    }
    }
    return FD_ERR_STATE;
}

/* fd_journal_mount's errors include "a driver's read error" (journal.h):
 * whichever read of a mount fails, the mount returns the driver's status.
 * On a torn newest record and on a damaged one that must be told from a torn
 * one (docs/RELIABILITY.md "Layout and the rules that make it safe": only
 * erased flash after it), a read failing while the rest of the page is
 * judged must not pass for erased flash: the mount would then succeed, and
 * over a damaged record it would drop every record after it.
 * Kills journal.c "return judge_rest(j, page, off + HDR_BASE + HDR_COPY, ...)"
 * with its status ignored (the header judged), "st = check_tag(...)" ignored
 * (the tag judged) and walk_page's "st = read_record(...)" ignored. On a
 * compacted journal the read of a copy's source seq failing must not make
 * the copy pass for an original (it found a bug: the mount returned FD_OK). */
static void test_mount_returns_every_read_error(void **state)
{
    (void)state;
    for (int sc = HEADER_CUT_SHORT; sc <= COMPACTED; sc++) {
        const fd_status clean = build((scenario)sc);
        memcpy(saved, mem, sizeof saved);
        fl.reads = 0;
        assert_int_equal(restart(false), clean);
        const uint64_t reads = fl.reads;
        assert_true(reads > 10u);
        for (uint64_t k = 1; k <= reads; k++) {
            memcpy(mem, saved, sizeof mem);
            fl.reads = 0;
            fl.fail_read = k;
            const fd_status st = restart(false);
            if (st != DRIVER_FAILS) {
                fail_msg("%s: read %u of %u failed, the mount returned %s", scenario_name[sc], (unsigned)k,
                         (unsigned)reads, fd_status_name(st));
            }
        }
        fl.fail_read = 0;
    }
}

/* ---- A driver's program error is returned, never acknowledged. ---- */

#define SESSION 60u

static fd_status session_append(uint32_t n, uint32_t *seq)
{
    return append_n(n % 3u == 0u ? KEPT : OTHER, n, 20u + 8u * (n % 5u), seq);
}

/* Sessions of SESSION appends on 6 pages (compaction included), the k-th
 * driver call counted by *calls failing (*fail = k) for each k up to the
 * count a clean session makes: the append it belongs to returns the
 * driver's status (with stays_failed, so does the next), and every record
 * acknowledged before it (that keep names or compaction has not reached)
 * is there after a restart. */
static void each_call_fails_once(const char *what, uint64_t *fail, const uint64_t *calls, bool stays_failed)
{
    flash_open(6);
    assert_int_equal(restart(true), FD_OK);
    for (uint32_t n = 0; n < SESSION; n++) {
        assert_int_equal(session_append(n, NULL), FD_OK);
    }
    const uint64_t total = *calls;
    assert_true(fl.hf.erases > 6u); /* compaction ran */
    for (uint64_t k = 1; k <= total; k++) {
        flash_open(6);
        assert_int_equal(restart(true), FD_OK);
        *fail = k;
        uint32_t acked[SESSION];
        uint8_t acked_type[SESSION];
        uint32_t n = 0;
        for (; n < SESSION; n++) {
            const fd_status st = session_append(n, &acked[n]);
            if (*calls >= k) {
                if (st != DRIVER_FAILS) {
                    fail_msg("%s %u of %u failed in append %u, which returned %s", what, (unsigned)k, (unsigned)total,
                             (unsigned)n, fd_status_name(st));
                }
                break;
            }
            assert_int_equal(st, FD_OK);
            acked_type[n] = n % 3u == 0u ? KEPT : OTHER;
        }
        assert_true(n < SESSION);
        if (stays_failed) {
            assert_int_not_equal(session_append(n + 1u, NULL), FD_OK); /* failed: nothing more */
        }
        *fail = 0;
        assert_int_equal(restart(true), FD_OK);
        seen s;
        walk_ok(&s);
        uint32_t oldest_other = UINT32_MAX; /* compaction dropped the others before it */
        for (uint32_t i = 0; i < s.count; i++) {
            oldest_other = s.type[i] == OTHER && s.orig[i] < oldest_other ? s.orig[i] : oldest_other;
        }
        for (uint32_t i = 0; i < n; i++) {
            if (acked_type[i] == KEPT || acked[i] >= oldest_other) {
                assert_int_equal(times_seen(&s, acked[i]), 1);
            }
        }
    }
}

/* journal.h: append's FD_OK "means it is on flash (acknowledged)"; a
 * driver's status is returned (fd_flash: "Any failure is returned as the
 * driver's status"). Whichever program call of a session with compaction
 * fails, the append it belongs to returns the driver's status, and every
 * record acknowledged before it (that keep names or compaction has not
 * reached) is there after a restart. Kills journal.c "st = flash_program(j,
 * at, j->buf, l.commit_off / 4u)" ignored: the body lost, its commit word
 * written and the append acknowledged. */
static void test_append_returns_every_program_error(void **state)
{
    (void)state;
    each_call_fails_once("program", &fl.fail_program, &fl.programs, false);
}

/* journal.h: the journal fails closed on a driver's error. Whichever erase
 * of a session with compaction fails (a page claimed for an append, or for
 * a compaction's copies), the append that needed the page returns the
 * driver's status, nothing is acknowledged after it, and every record
 * acknowledged before it is there after a restart. Kills journal.c open_page's
 * "j->flash->erase(j->flash->ctx, p)" status ignored: the page's header and
 * the record went onto a page that was never erased (blank here, so the
 * append was acknowledged; on a used page the program goes over old bits). */
static void test_append_returns_every_erase_error(void **state)
{
    (void)state;
    each_call_fails_once("erase", &fl.fail_erase, &fl.erases, true);
}

/* ---- Erase counts are the pages' headers', after a restart too. ---- */

/* fd_journal_wear gives the area's erase counts, which each page's header
 * carries (docs/RELIABILITY.md "Layout ...": "its erase count"): a restart
 * with a new page table (the caller's memory, as at power-on) reads back
 * the same counts. Kills journal.c "j->pages[p].erase_count = h.valid ?
 * h.erase_count : 0u;" deleted (every page written since a restart would
 * start counting from the page table's stale value). */
static void test_wear_survives_a_restart(void **state)
{
    (void)state;
    flash_open(6);
    assert_int_equal(restart(false), FD_OK);
    for (uint32_t n = 0; fl.hf.erases < 20u; n++) {
        assert_int_equal(append_n(OTHER, n, 40, NULL), FD_OK);
    }
    uint32_t min = 0;
    uint32_t max = 0;
    uint64_t total = 0;
    assert_int_equal(fd_journal_wear(&j, &min, &max, &total), FD_OK);
    assert_int_equal(total, fl.hf.erases);
    assert_true(min >= 3u);
    assert_true(max <= min + 2u);
    assert_int_equal(restart(false), FD_OK);
    uint32_t min2 = 0;
    uint32_t max2 = 0;
    uint64_t total2 = 0;
    assert_int_equal(fd_journal_wear(&j, &min2, &max2, &total2), FD_OK);
    assert_int_equal(min2, min);
    assert_int_equal(max2, max);
    assert_int_equal(total2, total);
    /* and the next page claimed counts on from its header */
    const uint64_t erases = fl.hf.erases;
    for (uint32_t n = 0; fl.hf.erases == erases; n++) {
        assert_int_equal(append_n(OTHER, n, 40, NULL), FD_OK);
    }
    assert_int_equal(restart(false), FD_OK);
    assert_int_equal(fd_journal_wear(&j, &min2, &max2, &total2), FD_OK);
    assert_int_equal(total2, total + 1u);
}

/* ---- A compaction cut short and resumed copies each record once. ---- */

#define RESUME_PAGES 6u
#define RECORD_LEN 60u /* 100 bytes with the journal's: 4 to a 512-byte page */

/* The first two records are kept, the rest not. */
static fd_status resume_append(uint32_t n, uint32_t *seq)
{
    return append_n(n < 2u ? KEPT : OTHER, n, RECORD_LEN, seq);
}

/* docs/RELIABILITY.md "Layout ...": "Copies carry their original seq and
 * their source, so a walk shows each record once whether or not the cut came
 * before RETIRE, and a restarted compaction resumes after the last copy".
 * A cut at every step of the append that first compacts; after it a
 * power-on, an append that fits the page (no compaction), another power-on,
 * and appends until compaction has retired the page: every record is
 * shown once, the kept ones always. Kills journal.c take_record's "if
 * (source > out->last_copied)" made "if (1)": a mount whose newest record
 * is not a copy then forgets the copies already made, and the resumed
 * compaction copies them again (each shown twice). */
static void test_resumed_compaction_copies_each_record_once(void **state)
{
    (void)state;
    /* the append that first compacts, and its steps */
    flash_open(RESUME_PAGES);
    assert_int_equal(restart(true), FD_OK);
    uint32_t first = 0;
    uint64_t steps = 0;
    for (uint32_t n = 0; steps == 0u; n++) {
        const uint64_t before = fl.hf.steps;
        assert_int_equal(resume_append(n, NULL), FD_OK);
        if (fl.hf.steps - before > 4u) { /* more than claiming a page and the record */
            first = n;
            steps = fl.hf.steps - before;
        }
    }
    for (uint64_t k = 0; k < steps; k++) {
        flash_open(RESUME_PAGES);
        assert_int_equal(restart(true), FD_OK);
        uint32_t kept[2] = {0, 0};
        for (uint32_t n = 0; n < first; n++) {
            assert_int_equal(resume_append(n, n < 2u ? &kept[n] : NULL), FD_OK);
        }
        fl.hf.cut_after = fl.hf.steps + k;
        assert_int_not_equal(resume_append(first, NULL), FD_OK);
        host_flash_reboot(&fl.hf);
        assert_int_equal(restart(true), FD_OK);
        assert_int_equal(append_n(OTHER, 1000, 4, NULL), FD_OK);
        assert_int_equal(restart(true), FD_OK);
        for (uint32_t n = first + 1u; n < first + 13u; n++) {
            assert_int_equal(resume_append(n, NULL), FD_OK);
        }
        assert_int_equal(restart(true), FD_OK);
        seen s;
        walk_ok(&s);
        for (uint32_t i = 0; i < s.count; i++) {
            if (times_seen(&s, s.orig[i]) != 1u) {
                fail_msg("cut after step %u of %u: record %u shown %u times", (unsigned)k, (unsigned)steps,
                         (unsigned)s.orig[i], times_seen(&s, s.orig[i]));
            }
        }
        assert_int_equal(times_seen(&s, kept[0]), 1);
        assert_int_equal(times_seen(&s, kept[1]), 1);
    }
}

/* ---- Pages are claimed free, wherever they are. ---- */

/* journal.h: pages are erased "only when claimed", and a page is claimed
 * only when free (docs/RELIABILITY.md "Layout ..."): a live page is never
 * erased to make room. The journal finds its pages by their headers, not
 * their place, so an area that grows (a new flash map giving the storage
 * more pages, the added ones blank) keeps its journal; when the live pages
 * wrapped round the old end, the page after the next free ones is live,
 * and the journal must go on to the added pages, not erase it. Kills
 * journal.c open_page's "while (!page_free(j, p))" made "while (0)". */
static void test_grown_area_claims_only_free_pages(void **state)
{
    (void)state;
    const uint32_t old_pages = 8u;
    flash_open(old_pages);
    assert_int_equal(restart(false), FD_OK);
    seen s;
    uint32_t n = 0;
    for (;; n++) {
        assert_true(n < 400u);
        assert_int_equal(append_n(OTHER, n, 40, NULL), FD_OK);
        walk_ok(&s);
        /* wrapped: the newest record's page before the oldest one's */
        if (s.page[s.count - 1u] < s.page[0]) {
            break;
        }
    }
    /* the same pages, and two more after them */
    memcpy(saved, mem, (size_t)PAGE * old_pages);
    flash_open(old_pages + 2u);
    memcpy(mem, saved, (size_t)PAGE * old_pages);
    assert_int_equal(restart(false), FD_OK);
    uint32_t seqs[80];
    for (uint32_t i = 0; i < 80u; i++) {
        assert_int_equal(append_n(OTHER, n + 1u + i, 40, &seqs[i]), FD_OK);
    }
    assert_int_equal(restart(false), FD_OK);
    walk_ok(&s);
    for (uint32_t i = 80u - 20u; i < 80u; i++) {
        assert_int_equal(times_seen(&s, seqs[i]), 1);
    }
    uint32_t on_added = 0;
    for (uint32_t i = 0; i < s.count; i++) {
        on_added += s.page[i] >= old_pages ? 1u : 0u;
    }
    assert_true(on_added > 0u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mount_returns_every_read_error),
        cmocka_unit_test(test_append_returns_every_program_error),
        cmocka_unit_test(test_append_returns_every_erase_error),
        cmocka_unit_test(test_wear_survives_a_restart),
        cmocka_unit_test(test_resumed_compaction_copies_each_record_once),
        cmocka_unit_test(test_grown_area_claims_only_free_pages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
