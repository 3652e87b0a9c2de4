/* The journal: layout and power-cut rules are in docs/RELIABILITY.md.
 *
 * Page (page_size bytes): a 68-byte header, then records back to back.
 *   header: magic, page_seq, tail_seq, erase_count, first_seq, prev_head[32],
 *           tag[16] = HMAC(key, 'P' || the 52 bytes before it)
 * Record (word aligned, little-endian):
 *   type | flags << 8 | len << 16, seq, secret_len | check << 16,
 *   [orig_seq, source_seq] (flag 1: written for every record now, an
 *   original's source 0; older originals lack them), payload padded to 4,
 *   [SHA-256(secret), secret padded to 4], tag[16], commit word (0)
 *   tag = HMAC(key, 'R' || prev_head || the record up to the tag, secret
 *   bytes excluded); the new head is the full 32-byte HMAC. */
#include "fairdeal/journal.h"

#include <string.h>

#include "fairdeal/util.h"
#include "word.h"

#define PAGE_MAGIC FD_JOURNAL_PAGE_MAGIC
#define PAGE_TAGGED 52u
#define ERASED_WORD 0xFFFFFFFFu
#define COMMIT_WORD 0u
#define FLAG_COPY 0x01u
#define HDR_BASE 12u
#define HDR_COPY 8u
#define NO_PAGE UINT32_MAX
#define MIN_PAGE_SIZE 512u

typedef enum rec_result {
    REC_OK,
    REC_END,
    REC_TORN,
    REC_BAD
} rec_result;

typedef struct page_header {
    uint32_t magic;
    uint32_t page_seq;
    uint32_t tail_seq;
    uint32_t erase_count;
    uint32_t first_seq;
    uint8_t prev_head[FD_SHA256_SIZE];
    bool valid;
} page_header;

/* Where the parts of a record sit, from its start. */
typedef struct rec_layout {
    uint32_t hdr;
    uint32_t hash_off;
    uint32_t secret_off;
    uint32_t tagged;
    uint32_t tag_off;
    uint32_t commit_off;
    uint32_t size;
} rec_layout;

static uint32_t pad4(size_t n) { return (uint32_t)((n + 3u) & ~(size_t)3u); }

static rec_layout layout_of(size_t len, size_t secret_len, bool copy)
{
    rec_layout l;
    l.hdr = HDR_BASE + (copy ? HDR_COPY : 0u);
    l.hash_off = l.hdr + pad4(len);
    l.secret_off = l.hash_off + (secret_len > 0u ? FD_SHA256_SIZE : 0u);
    l.tagged = l.secret_off;
    l.tag_off = l.secret_off + pad4(secret_len);
    l.commit_off = l.tag_off + FD_JOURNAL_TAG_SIZE;
    l.size = l.commit_off + 4u;
    return l;
}

uint32_t fd_journal_record_size(size_t payload_len, size_t secret_len, bool copy)
{
    return layout_of(payload_len, secret_len, copy).size;
}

_Static_assert(HDR_BASE + FD_JOURNAL_TAG_SIZE + 4u == FD_JOURNAL_RECORD_OVERHEAD &&
                   HDR_COPY == FD_JOURNAL_COPY_OVERHEAD,
               "journal.h's record size macro is this layout");

/* Fletcher-16 over the header fields: tells a torn header from a flipped one
 * (every single-bit error changes it). The sums are reduced mod 255 once at
 * the end, which gives the same residues as reducing at every step (a
 * header's 18 bytes keep b under 2^17) without a division per byte: the
 * Cortex-M0 has no divide instruction, and every walk checks every header. */
static uint16_t header_check(const uint8_t *rec, uint32_t hdr_len)
{
    uint32_t a = 1u;
    uint32_t b = 0u;
    for (uint32_t i = 0; i < hdr_len; i++) {
        if (i == 10u || i == 11u) {
            continue; /* the check itself */
        }
        a += rec[i];
        b += a;
    }
    return (uint16_t)(((b % 255u) << 8) | (a % 255u));
}
_Static_assert(HDR_BASE + HDR_COPY <= 64u, "the unreduced Fletcher sums of a header fit 32 bits");

static bool equal_ct(const uint8_t *a, const uint8_t *b, size_t len)
{
    uint8_t diff = 0;
    for (size_t i = 0; i < len; i++) {
        diff = (uint8_t)(diff | (a[i] ^ b[i]));
    }
    return diff == 0u;
}

static uint8_t *buf8(fd_journal *j) { return (uint8_t *)j->buf; }

static uint32_t page_base(const fd_journal *j, uint32_t page) { return page * j->flash->geometry.page_size; }

static fd_status flash_read(fd_journal *j, uint32_t offset, void *out, size_t len)
{
    return j->flash->read(j->flash->ctx, offset, out, len);
}

static fd_status flash_program(fd_journal *j, uint32_t offset, const uint32_t *words, size_t count)
{
    j->stats_programs++;
    fd_status st = j->flash->program(j->flash->ctx, offset, words, count);
    if (st != FD_OK) {
        j->failed = true;
    }
    return st;
}

static void set_report(fd_journal_report *rep, fd_status st, uint32_t page, uint32_t offset, uint32_t seq,
                       const char *reason)
{
    if (rep != NULL) {
        rep->status = st;
        rep->page = page;
        rep->offset = offset;
        rep->seq = seq;
        rep->reason = reason;
    }
}

/* Are bytes [from, page end) of page all erased? */
static fd_status rest_erased(fd_journal *j, uint32_t page, uint32_t from, bool *erased)
{
    uint32_t chunk[16];
    uint32_t size = j->flash->geometry.page_size;
    *erased = true;
    uint32_t off = from;
    while (off < size) {
        uint32_t aligned = off & ~3u;
        uint32_t n = size - aligned;
        if (n > (uint32_t)sizeof chunk) {
            n = (uint32_t)sizeof chunk;
        }
        fd_status st = flash_read(j, page_base(j, page) + aligned, chunk, n);
        if (st != FD_OK) {
            return st;
        }
        const uint8_t *b = (const uint8_t *)chunk;
        for (uint32_t i = off - aligned; i < n; i++) {
            if (b[i] != 0xFFu) {
                *erased = false;
                return FD_OK;
            }
        }
        off = aligned + n;
    }
    return FD_OK;
}

static void page_tag(const fd_journal *j, const uint8_t *header, uint8_t out[FD_SHA256_SIZE])
{
    fd_hmac_sha256_ctx c = j->keyed; /* the key's pads, hashed once at init */
    fd_hmac_sha256_update(&c, "P", 1);
    fd_hmac_sha256_update(&c, header, PAGE_TAGGED);
    fd_hmac_sha256_final(&c, out);
}

static fd_status read_page_header(fd_journal *j, uint32_t page, page_header *h)
{
    uint8_t *b = buf8(j);
    fd_status st = flash_read(j, page_base(j, page), b, FD_JOURNAL_PAGE_HEADER);
    if (st != FD_OK) {
        return st;
    }
    h->magic = fd_load_le32(b);
    h->page_seq = fd_load_le32(b + 4);
    h->tail_seq = fd_load_le32(b + 8);
    h->erase_count = fd_load_le32(b + 12);
    h->first_seq = fd_load_le32(b + 16);
    memcpy(h->prev_head, b + 20, FD_SHA256_SIZE);
    uint8_t tag[FD_SHA256_SIZE];
    page_tag(j, b, tag);
    h->valid = h->magic == PAGE_MAGIC && equal_ct(tag, b + PAGE_TAGGED, FD_JOURNAL_TAG_SIZE) && h->page_seq != 0u &&
               h->tail_seq != 0u && h->tail_seq <= h->page_seq && h->first_seq != 0u;
    return FD_OK;
}

static void record_tag(const fd_journal *j, const uint8_t prev[FD_SHA256_SIZE], const uint8_t *rec, uint32_t tagged,
                       uint8_t out[FD_SHA256_SIZE])
{
    fd_hmac_sha256_ctx c = j->keyed;
    fd_hmac_sha256_update(&c, "R", 1);
    fd_hmac_sha256_update(&c, prev, FD_SHA256_SIZE);
    fd_hmac_sha256_update(&c, rec, tagged);
    fd_hmac_sha256_final(&c, out);
}

static bool all_zero(const uint8_t *p, size_t len)
{
    uint8_t any = 0;
    for (size_t i = 0; i < len; i++) {
        any = (uint8_t)(any | p[i]);
    }
    return any == 0u;
}

/* The rest of a page from `from` decides what a record that did not read
 * back is: if_erased when only erased flash follows, else if_written. */
static fd_status judge_rest(fd_journal *j, uint32_t page, uint32_t from, rec_result if_erased, rec_result if_written,
                            rec_result *res)
{
    bool erased = false;
    fd_status st = rest_erased(j, page, from, &erased);
    *res = erased ? if_erased : if_written;
    return st;
}

/* With the header at page-relative off in the scratch buffer: its layout,
 * and when its fields are in range the whole record read in; valid when
 * they are and the header check matches. */
static fd_status load_record(fd_journal *j, uint32_t page, uint32_t off, rec_layout *l, bool *valid)
{
    uint8_t *b = buf8(j);
    uint32_t w0 = fd_load_le32(b);
    uint32_t w2 = fd_load_le32(b + 8);
    uint8_t flags = (uint8_t)(w0 >> 8);
    uint16_t len = (uint16_t)(w0 >> 16);
    uint16_t secret_len = (uint16_t)w2;
    *l = layout_of(len, secret_len, (flags & FLAG_COPY) != 0u);
    *valid = (flags & ~FLAG_COPY) == 0u && len <= FD_JOURNAL_MAX_PAYLOAD && secret_len <= FD_JOURNAL_MAX_SECRET &&
             l->size <= j->flash->geometry.page_size - off;
    if (!*valid) {
        return FD_OK;
    }
    fd_status st = flash_read(j, page_base(j, page) + off, b, l->size);
    *valid = header_check(b, l->hdr) == (uint16_t)(w2 >> 16);
    return st;
}

/* A loaded record's tag against the chain head prev: REC_OK with the new
 * head in head_out, else torn (cut before the commit word, nothing but
 * erased flash after it) or damaged. */
static fd_status check_tag(fd_journal *j, uint32_t page, uint32_t off, const rec_layout *l, const uint8_t *prev,
                           uint8_t *head_out, rec_result *res)
{
    const uint8_t *b = buf8(j);
    uint8_t tag[FD_SHA256_SIZE];
    record_tag(j, prev, b, l->tagged, tag);
    if (equal_ct(tag, b + l->tag_off, FD_JOURNAL_TAG_SIZE)) {
        memcpy(head_out, tag, FD_SHA256_SIZE);
        *res = REC_OK;
        return FD_OK;
    }
    if (fd_load_le32(b + l->commit_off) != ERASED_WORD) {
        *res = REC_BAD;
        return FD_OK;
    }
    return judge_rest(j, page, off + l->size, REC_TORN, REC_BAD, res);
}

static fd_journal_secret_state secret_state_of(const fd_journal_record *r, const uint8_t *stored)
{
    uint8_t h[FD_SHA256_SIZE];
    fd_sha256(r->secret, r->secret_len, h);
    if (equal_ct(h, r->secret_hash, FD_SHA256_SIZE)) {
        return FD_JOURNAL_SECRET_AVAILABLE;
    }
    return all_zero(stored, pad4(r->secret_len)) ? FD_JOURNAL_SECRET_WIPED : FD_JOURNAL_SECRET_DAMAGED;
}

/* j->rec from the loaded record; only verified reads judge its secret. */
static void fill_record(fd_journal *j, const rec_layout *l, uint32_t page, uint32_t off, bool verified)
{
    const uint8_t *b = buf8(j);
    uint32_t w0 = fd_load_le32(b);
    fd_journal_record *r = &j->rec;
    r->type = (uint8_t)w0;
    r->len = (uint16_t)(w0 >> 16);
    r->seq = fd_load_le32(b + 4);
    r->orig_seq = l->hdr > HDR_BASE ? fd_load_le32(b + 12) : r->seq;
    memcpy(r->payload, b + l->hdr, r->len);
    r->secret_len = (uint16_t)fd_load_le32(b + 8);
    r->secret_state = FD_JOURNAL_SECRET_NONE;
    if (r->secret_len > 0u) {
        memcpy(r->secret_hash, b + l->hash_off, FD_SHA256_SIZE);
        memcpy(r->secret, b + l->secret_off, r->secret_len);
        if (verified) {
            r->secret_state = secret_state_of(r, b + l->secret_off);
        }
    }
    r->page = page;
    r->offset = page_base(j, page) + off;
}

/* Read the record at page-relative off into j->rec. With prev non-NULL the
 * tag is checked and head_out receives the new head; without, only the
 * header check (for locating records). size_out: bytes it takes. */
static fd_status read_record(fd_journal *j, uint32_t page, uint32_t off, const uint8_t *prev, uint8_t *head_out,
                             rec_result *res, uint32_t *size_out)
{
    *size_out = 0;
    if (j->kick != NULL) {
        j->kick(j->kick_ctx); /* every walk, mount, compaction and wipe reads records here */
    }
    if (off + HDR_BASE > j->flash->geometry.page_size) {
        return judge_rest(j, page, off, REC_END, REC_TORN, res);
    }
    fd_status st = flash_read(j, page_base(j, page) + off, buf8(j), HDR_BASE);
    if (st != FD_OK) {
        return st;
    }
    if (fd_load_le32(buf8(j)) == ERASED_WORD) {
        return judge_rest(j, page, off, REC_END, REC_BAD, res);
    }
    rec_layout l;
    bool valid = false;
    st = load_record(j, page, off, &l, &valid);
    if (st != FD_OK) {
        return st;
    }
    if (!valid) {
        /* a header cut short (a copy's is 20 bytes) leaves everything after
         * it erased; a complete one has its payload or tag there */
        return judge_rest(j, page, off + HDR_BASE + HDR_COPY, REC_TORN, REC_BAD, res);
    }
    if (prev != NULL) {
        st = check_tag(j, page, off, &l, prev, head_out, res);
        if (st != FD_OK || *res != REC_OK) {
            return st;
        }
    }
    fill_record(j, &l, page, off, prev != NULL);
    *size_out = l.size;
    *res = REC_OK;
    return FD_OK;
}

/* The copy's source seq (for de-duplication) into source, 0 for an
 * original; a read error is the driver's status, never taken for an
 * original (mount and walk return it). */
static fd_status copy_source(fd_journal *j, const fd_journal_record *r, uint32_t *source)
{
    uint8_t w[4];
    *source = 0u;
    if (r->seq == r->orig_seq) {
        return FD_OK;
    }
    fd_status st = flash_read(j, r->offset + 16u, w, 4);
    if (st == FD_OK) {
        *source = fd_load_le32(w);
    }
    return st;
}

static uint32_t find_page(const fd_journal *j, uint32_t page_seq, unsigned *found)
{
    uint32_t at = NO_PAGE;
    *found = 0;
    for (uint32_t p = 0; p < j->flash->geometry.page_count; p++) {
        if (j->pages[p].page_seq == page_seq) {
            at = p;
            (*found)++;
        }
    }
    return at;
}

typedef struct scan_state {
    uint8_t head[FD_SHA256_SIZE];
    uint32_t next_seq;
    uint32_t newest;
    uint32_t tail;
    uint32_t cur_page;
    uint32_t cur_offset;
    uint32_t last_copied;
} scan_state;

/* Call fn for each record of a page that parses (header check only, no
 * tag), in order, until one does not; j->rec holds it, size is its length.
 * For locating records only: nothing read this way is trusted. */
typedef fd_status (*parsed_fn)(fd_journal *j, void *ctx, uint32_t size);

static fd_status for_each_parsed(fd_journal *j, uint32_t page, parsed_fn fn, void *ctx)
{
    for (uint32_t off = FD_JOURNAL_PAGE_HEADER;;) {
        rec_result res = REC_BAD;
        uint32_t size = 0;
        fd_status st = read_record(j, page, off, NULL, NULL, &res, &size);
        if (st != FD_OK || res != REC_OK) {
            return st;
        }
        st = fn(j, ctx, size);
        if (st != FD_OK) {
            return st;
        }
        off += size;
    }
}

typedef struct retired_search {
    uint32_t below; /* newest page seq */
    uint32_t retired;
} retired_search;

static fd_status note_retire(fd_journal *j, void *ctx, uint32_t size)
{
    retired_search *rs = ctx;
    uint8_t commit[4];
    fd_status st = flash_read(j, j->rec.offset + size - 4u, commit, 4);
    /* committed: its body was complete (a torn one would not verify) */
    if (st == FD_OK && j->rec.type == FD_JOURNAL_TYPE_RETIRE && j->rec.len == 4u &&
        fd_load_le32(commit) != ERASED_WORD) {
        uint32_t v = fd_load_le32(j->rec.payload);
        if (v < rs->below && v > rs->retired) {
            rs->retired = v;
        }
    }
    return st;
}

/* Largest RETIRE victim named by records on pages [from, to] (unverified:
 * pass 2 must meet it again, verified). */
static fd_status find_retired(fd_journal *j, uint32_t from, uint32_t to, uint32_t *retired)
{
    retired_search rs = {to, 0};
    for (uint32_t s = from; s <= to && s != 0u; s++) {
        unsigned n = 0;
        uint32_t p = find_page(j, s, &n);
        fd_status st = n == 1u ? for_each_parsed(j, p, note_retire, &rs) : FD_OK;
        if (st != FD_OK) {
            return st;
        }
    }
    *retired = rs.retired;
    return FD_OK;
}

static fd_status corrupt(fd_journal_report *rep, uint32_t page, uint32_t offset, uint32_t seq, const char *why)
{
    set_report(rep, FD_ERR_CORRUPT, page, offset, seq, why);
    return FD_ERR_CORRUPT;
}

/* Every page header into the page table; the newest valid page and the
 * highest erase count seen. */
static fd_status load_page_table(fd_journal *j, scan_state *out, uint32_t *max_erase)
{
    page_header h;
    for (uint32_t p = 0; p < j->flash->geometry.page_count; p++) {
        fd_status st = read_page_header(j, p, &h);
        if (st != FD_OK) {
            return st;
        }
        j->pages[p].page_seq = h.valid ? h.page_seq : 0u;
        j->pages[p].erase_count = h.valid ? h.erase_count : 0u;
        j->pages[p].first_seq = h.valid ? h.first_seq : 0u;
        if (h.valid && h.erase_count > *max_erase) {
            *max_erase = h.erase_count;
        }
        if (h.valid && h.page_seq > out->newest) {
            out->newest = h.page_seq;
            out->cur_page = p;
        }
    }
    return FD_OK;
}

/* The oldest live page: the newest header's tail, past any page a RETIRE
 * record names (retired: the largest, unverified until the walk). */
static fd_status find_tail(fd_journal *j, scan_state *out, uint32_t *retired)
{
    page_header h;
    fd_status st = read_page_header(j, out->cur_page, &h);
    if (st == FD_OK) {
        st = find_retired(j, h.tail_seq, out->newest, retired);
    }
    if (st == FD_OK) {
        out->tail = *retired >= h.tail_seq ? *retired + 1u : h.tail_seq;
    }
    return st;
}

/* A walk of the live range: the caller's visitor and report, what it has
 * built so far. */
typedef struct live_walk {
    fd_journal *j;
    fd_journal_visit_fn visit;
    void *ctx;
    fd_journal_report *rep;
    scan_state *out;
    uint32_t tail_first;       /* first seq of the oldest live page */
    uint32_t verified_retired; /* largest page seq a verified RETIRE names */
} live_walk;

/* The one page holding page_seq s, its header continuing the chain (the
 * tail page starts it). */
static fd_status enter_page(live_walk *w, uint32_t s, uint32_t *page)
{
    fd_journal *j = w->j;
    scan_state *out = w->out;
    unsigned n = 0;
    uint32_t p = find_page(j, s, &n);
    if (n != 1u) {
        return corrupt(w->rep, p, p == NO_PAGE ? 0u : page_base(j, p), out->next_seq,
                       n == 0u ? "page missing from the live range" : "page sequence repeated");
    }
    page_header h;
    fd_status st = read_page_header(j, p, &h);
    if (st != FD_OK) {
        return st;
    }
    if (s == out->tail) {
        memcpy(out->head, h.prev_head, FD_SHA256_SIZE);
        out->next_seq = h.first_seq;
        w->tail_first = h.first_seq;
    } else if (h.first_seq != out->next_seq || !equal_ct(h.prev_head, out->head, FD_SHA256_SIZE)) {
        return corrupt(w->rep, p, page_base(j, p), out->next_seq, "page does not continue the chain");
    }
    *page = p;
    return FD_OK;
}

/* A verified record, j->rec, whose tag made head: next in the chain, then
 * noted (RETIRE) or visited (each record once: a copy stands in for an
 * original that is no longer live). */
static fd_status take_record(live_walk *w, const uint8_t head[FD_SHA256_SIZE])
{
    const fd_journal_record *r = &w->j->rec;
    scan_state *out = w->out;
    if (r->seq != out->next_seq) {
        return corrupt(w->rep, r->page, r->offset, out->next_seq, "record out of sequence");
    }
    memcpy(out->head, head, FD_SHA256_SIZE);
    out->next_seq++;
    uint32_t source = 0u;
    fd_status st = copy_source(w->j, r, &source);
    if (st != FD_OK) {
        return st;
    }
    if (source > out->last_copied) {
        out->last_copied = source;
    }
    if (r->type == FD_JOURNAL_TYPE_RETIRE) {
        uint32_t v = r->len == 4u ? fd_load_le32(r->payload) : 0u;
        w->verified_retired = v > w->verified_retired ? v : w->verified_retired;
        return FD_OK;
    }
    if (w->visit != NULL && (source == 0u || source < w->tail_first)) {
        return w->visit(w->ctx, r);
    }
    return FD_OK;
}

/* Every record of page p along the chain, up to its end or a torn append
 * (on the newest page: where the next append goes). */
static fd_status walk_page(live_walk *w, uint32_t p, bool newest)
{
    fd_journal *j = w->j;
    for (uint32_t off = FD_JOURNAL_PAGE_HEADER;;) {
        rec_result res = REC_BAD;
        uint32_t size = 0;
        uint8_t head[FD_SHA256_SIZE];
        fd_status st = read_record(j, p, off, w->out->head, head, &res, &size);
        if (st != FD_OK) {
            return st;
        }
        if (res == REC_BAD) {
            return corrupt(w->rep, p, page_base(j, p) + off, w->out->next_seq, "record fails its check");
        }
        if (res != REC_OK) {
            if (newest) {
                w->out->cur_offset = res == REC_END ? off : j->flash->geometry.page_size;
            }
            return FD_OK;
        }
        st = take_record(w, head);
        if (st != FD_OK) {
            return st;
        }
        off += size;
    }
}

/* The live pages, tail to newest; a page a RETIRE named (retired) must be
 * retired by a verified one too. */
static fd_status walk_live(live_walk *w, uint32_t retired)
{
    scan_state *out = w->out;
    for (uint32_t s = out->tail; s <= out->newest; s++) {
        uint32_t p = NO_PAGE;
        fd_status st = enter_page(w, s, &p);
        if (st == FD_OK) {
            st = walk_page(w, p, s == out->newest);
        }
        if (st != FD_OK) {
            return st;
        }
    }
    if (retired != 0u && retired + 1u == out->tail && w->verified_retired < retired) {
        return corrupt(w->rep, out->cur_page, 0, out->next_seq, "retired page not retired in the chain");
    }
    return FD_OK;
}

/* A page whose header is damaged but which holds records newer than the
 * chain: the newest page's header was hit, not a cut. Unused pages are
 * counted as worn as the most worn one. */
static fd_status check_unused_pages(fd_journal *j, const scan_state *out, uint32_t max_erase, fd_journal_report *rep)
{
    for (uint32_t p = 0; p < j->flash->geometry.page_count; p++) {
        if (j->pages[p].page_seq != 0u) {
            continue;
        }
        j->pages[p].erase_count = max_erase;
        rec_result res = REC_BAD;
        uint32_t size = 0;
        fd_status st = read_record(j, p, FD_JOURNAL_PAGE_HEADER, NULL, NULL, &res, &size);
        if (st != FD_OK) {
            return st;
        }
        if (res == REC_OK && j->rec.seq >= out->next_seq) {
            return corrupt(rep, p, page_base(j, p), out->next_seq, "records under a damaged page header");
        }
    }
    return FD_OK;
}

static fd_status scan(fd_journal *j, fd_journal_visit_fn visit, void *ctx, fd_journal_report *rep, scan_state *out)
{
    uint32_t max_erase = 0;
    set_report(rep, FD_OK, 0, 0, 0, "ok");
    memset(out, 0, sizeof *out);
    out->next_seq = 1;
    out->cur_page = NO_PAGE;
    fd_status st = load_page_table(j, out, &max_erase);
    if (st == FD_OK && out->newest != 0u) {
        uint32_t retired = 0;
        st = find_tail(j, out, &retired);
        if (st == FD_OK) {
            live_walk w = {j, visit, ctx, rep, out, 0, 0};
            st = walk_live(&w, retired);
        }
    }
    return st == FD_OK ? check_unused_pages(j, out, max_erase, rep) : st;
}

fd_status fd_journal_init(fd_journal *j, const fd_flash *flash, const void *key, size_t key_len, fd_journal_page *pages,
                          fd_journal_keep_fn keep, void *keep_ctx)
{
    if (j == NULL || flash == NULL || key == NULL || pages == NULL || flash->erase == NULL || flash->program == NULL ||
        flash->read == NULL) {
        return FD_ERR_NULL;
    }
    if (key_len < FD_JOURNAL_MIN_KEY) {
        return FD_ERR_EMPTY;
    }
    if (key_len > 64u) {
        return FD_ERR_TOO_LARGE;
    }
    const fd_flash_geometry *g = &flash->geometry;
    if (g->page_size < MIN_PAGE_SIZE || g->page_size % 4u != 0u || g->page_size > (1u << 20) ||
        g->page_count < FD_JOURNAL_MIN_PAGES || g->page_count > FD_JOURNAL_MAX_PAGES || g->write_unit != 4u ||
        g->erased_value != 0xFFu) {
        return FD_ERR_STATE;
    }
    memset(j, 0, sizeof *j);
    j->flash = flash;
    fd_hmac_sha256_init(&j->keyed, key, key_len);
    j->pages = pages;
    j->keep = keep;
    j->keep_ctx = keep_ctx;
    j->cur_page = NO_PAGE;
    return FD_OK;
}

void fd_journal_set_kick(fd_journal *j, fd_journal_kick_fn kick, void *ctx)
{
    if (j != NULL) {
        j->kick = kick;
        j->kick_ctx = ctx;
    }
}

/* The scratch buffer and j->rec hold the last record read or written,
 * secret included: nothing of it stays in RAM once a call returns. */
static void forget_scratch(fd_journal *j)
{
    fd_wipe(j->buf, sizeof j->buf);
    fd_wipe(&j->rec, sizeof j->rec);
}

static fd_status scan_reported(fd_journal *j, fd_journal_visit_fn visit, void *ctx, fd_journal_report *report,
                               scan_state *s)
{
    fd_status st = scan(j, visit, ctx, report, s);
    forget_scratch(j);
    if (st != FD_OK && st != FD_ERR_CORRUPT) {
        set_report(report, st, 0, 0, 0, "read failed or stopped by the visitor");
    }
    return st;
}

/* A call from a visitor or keep would reuse the scratch the caller's
 * walk is reading: refused, nothing changed. */
static fd_status refuse_reentry(fd_journal_report *report)
{
    set_report(report, FD_ERR_STATE, 0, 0, 0, "called back from a visitor or keep");
    return FD_ERR_STATE;
}

fd_status fd_journal_walk(fd_journal *j, fd_journal_visit_fn visit, void *ctx, fd_journal_report *report)
{
    if (j == NULL || j->flash == NULL) {
        return FD_ERR_NULL;
    }
    if (j->busy) {
        return refuse_reentry(report);
    }
    scan_state s;
    j->busy = true;
    fd_status st = scan_reported(j, visit, ctx, report, &s);
    j->busy = false;
    if (st != FD_OK && j->mounted) {
        j->failed = true; /* flash no longer matches what was mounted */
    }
    return st;
}

fd_status fd_journal_mount(fd_journal *j, fd_journal_report *report)
{
    return fd_journal_mount_walk(j, NULL, NULL, report);
}

fd_status fd_journal_mount_walk(fd_journal *j, fd_journal_visit_fn visit, void *ctx, fd_journal_report *report)
{
    if (j == NULL || j->flash == NULL) {
        return FD_ERR_NULL;
    }
    if (j->busy) {
        return refuse_reentry(report);
    }
    j->mounted = false;
    scan_state s;
    j->busy = true;
    fd_status st = scan_reported(j, visit, ctx, report, &s);
    j->busy = false;
    if (st != FD_OK) {
        return st;
    }
    memcpy(j->head, s.head, FD_SHA256_SIZE);
    j->next_seq = s.next_seq;
    j->newest_page_seq = s.newest;
    j->tail_page_seq = s.tail;
    j->cur_page = s.cur_page;
    j->cur_offset = s.newest == 0u ? j->flash->geometry.page_size : s.cur_offset;
    j->last_copied = s.last_copied;
    j->failed = false;
    j->mounted = true;
    return FD_OK;
}

static uint32_t reserve_pages(const fd_journal *j) { return FD_JOURNAL_RESERVE_PAGES(j->flash->geometry.page_count); }

static bool page_free(const fd_journal *j, uint32_t p)
{
    return j->pages[p].page_seq == 0u || j->pages[p].page_seq < j->tail_page_seq;
}

static uint32_t free_pages(const fd_journal *j)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < j->flash->geometry.page_count; p++) {
        n += page_free(j, p) ? 1u : 0u;
    }
    return n;
}

/* Claim the next free page in ring order: erase it, write its header. */
static fd_status open_page(fd_journal *j)
{
    const fd_flash_geometry *g = &j->flash->geometry;
    uint32_t free_count = free_pages(j);
    if (free_count == 0u) {
        return FD_ERR_EXHAUSTED;
    }
    uint32_t p = j->cur_page == NO_PAGE ? 0u : (j->cur_page + 1u) % g->page_count;
    while (!page_free(j, p)) {
        p = (p + 1u) % g->page_count;
    }
    j->stats_erases++;
    fd_status st = j->flash->erase(j->flash->ctx, p);
    if (st != FD_OK) {
        j->failed = true;
        return st;
    }
    uint32_t page_seq = j->newest_page_seq + 1u;
    uint32_t tail = j->newest_page_seq == 0u ? page_seq : j->tail_page_seq;
    uint32_t erase_count = j->pages[p].erase_count + 1u;
    j->pages[p].page_seq = 0u; /* erased: nothing until its header is on flash */
    j->pages[p].erase_count = erase_count;
    uint8_t *b = buf8(j);
    fd_store_le32(b, PAGE_MAGIC);
    fd_store_le32(b + 4, page_seq);
    fd_store_le32(b + 8, tail);
    fd_store_le32(b + 12, erase_count);
    fd_store_le32(b + 16, j->next_seq);
    memcpy(b + 20, j->head, FD_SHA256_SIZE);
    uint8_t tag[FD_SHA256_SIZE];
    page_tag(j, b, tag);
    memcpy(b + PAGE_TAGGED, tag, FD_JOURNAL_TAG_SIZE);
    st = flash_program(j, page_base(j, p), j->buf, FD_JOURNAL_PAGE_HEADER / 4u);
    if (st != FD_OK) {
        return st;
    }
    j->pages[p].page_seq = page_seq;
    j->pages[p].first_seq = j->next_seq;
    j->newest_page_seq = page_seq;
    j->tail_page_seq = tail;
    j->cur_page = p;
    j->cur_offset = FD_JOURNAL_PAGE_HEADER;
    return FD_OK;
}

/* Open pages, without compaction, until size bytes fit in the current
 * one (compaction copying into them; bounded by the page count). */
static fd_status open_pages(fd_journal *j, uint32_t size)
{
    for (uint32_t opened = 0; j->cur_page == NO_PAGE || j->cur_offset + size > j->flash->geometry.page_size; opened++) {
        fd_status st = opened < j->flash->geometry.page_count ? open_page(j) : FD_ERR_EXHAUSTED;
        if (st != FD_OK) {
            j->failed = true;
            return st;
        }
    }
    return FD_OK;
}

/* Write one record where make_room left space (a copy when src is not
 * NULL: orig_seq, secret hash and stored secret bytes are taken from it). */
static fd_status write_record(fd_journal *j, uint8_t type, const uint8_t *payload, size_t len, const uint8_t *secret,
                              size_t secret_len, const fd_journal_record *src, uint32_t *seq)
{
    /* Every record is written in the long header (orig_seq, source seq;
     * an original: its own seq, 0), so a copy takes the bytes its original
     * took: compaction never needs more room than it frees
     * (docs/RECORDS.md "Capacity"). Short headers still read. */
    rec_layout l = layout_of(len, secret_len, true);
    uint8_t *b = buf8(j);
    memset(b, 0, l.size);
    fd_store_le32(b, (uint32_t)type | (FLAG_COPY << 8) | ((uint32_t)len << 16));
    fd_store_le32(b + 4, j->next_seq);
    fd_store_le32(b + 12, src != NULL ? src->orig_seq : j->next_seq);
    fd_store_le32(b + 16, src != NULL ? src->seq : 0u);
    if (len > 0u) {
        memcpy(b + l.hdr, payload, len);
    }
    if (secret_len > 0u) {
        if (src != NULL) {
            memcpy(b + l.hash_off, src->secret_hash, FD_SHA256_SIZE);
        } else {
            fd_sha256(secret, secret_len, b + l.hash_off);
        }
        memcpy(b + l.secret_off, secret, secret_len);
    }
    fd_store_le32(b + 8, (uint32_t)secret_len); /* the check covers it */
    fd_store_le32(b + 8, (uint32_t)secret_len | ((uint32_t)header_check(b, l.hdr) << 16));
    uint8_t tag[FD_SHA256_SIZE];
    record_tag(j, j->head, b, l.tagged, tag);
    memcpy(b + l.tag_off, tag, FD_JOURNAL_TAG_SIZE);
    uint32_t at = page_base(j, j->cur_page) + j->cur_offset;
    fd_status st = flash_program(j, at, j->buf, l.commit_off / 4u);
    if (st == FD_OK) {
        const uint32_t commit = COMMIT_WORD;
        st = flash_program(j, at + l.commit_off, &commit, 1);
    }
    if (st != FD_OK) { /* the record in j->buf is wiped by the caller (forget_scratch) */
        return st;
    }
    memcpy(j->head, tag, FD_SHA256_SIZE);
    if (seq != NULL) {
        *seq = j->next_seq;
    }
    j->next_seq++;
    j->cur_offset += l.size;
    return FD_OK;
}

/* Copy j->rec (a verified record of the page being retired) forward when
 * keep() names it and no earlier, cut compaction already copied it. */
static fd_status copy_if_kept(fd_journal *j)
{
    const fd_journal_record *r = &j->rec;
    if (r->type == FD_JOURNAL_TYPE_RETIRE || r->seq <= j->last_copied || j->keep == NULL || !j->keep(j->keep_ctx, r)) {
        return FD_OK;
    }
    uint32_t source = r->seq;
    fd_status st = open_pages(j, fd_journal_record_size(r->len, r->secret_len, true));
    if (st == FD_OK) {
        st = write_record(j, r->type, r->payload, r->len, r->secret, r->secret_len, r, NULL);
    }
    if (st == FD_OK) {
        j->last_copied = source;
    }
    return st;
}

/* Every record of page victim, verified along its chain, offered to
 * copy_if_kept; a torn end stops it, a damaged record is FD_ERR_CORRUPT. */
static fd_status copy_kept(fd_journal *j, uint32_t victim)
{
    page_header h;
    fd_status st = read_page_header(j, victim, &h);
    if (st != FD_OK) {
        return st;
    }
    uint8_t chain[FD_SHA256_SIZE];
    memcpy(chain, h.prev_head, FD_SHA256_SIZE);
    for (uint32_t off = FD_JOURNAL_PAGE_HEADER; st == FD_OK;) {
        rec_result res = REC_BAD;
        uint32_t size = 0;
        st = read_record(j, victim, off, chain, chain, &res, &size);
        if (st != FD_OK || res == REC_END || res == REC_TORN) {
            break;
        }
        if (res == REC_BAD) {
            return FD_ERR_CORRUPT;
        }
        off += size;
        st = copy_if_kept(j);
    }
    return st;
}

/* The RETIRE record that makes the tail page dead, then the tail moves. */
static fd_status retire_tail(fd_journal *j)
{
    uint8_t victim_seq[4];
    fd_store_le32(victim_seq, j->tail_page_seq);
    fd_status st = open_pages(j, fd_journal_record_size(4, 0, true));
    if (st == FD_OK) {
        st = write_record(j, FD_JOURNAL_TYPE_RETIRE, victim_seq, 4, NULL, 0, NULL, NULL);
    }
    if (st == FD_OK) {
        j->tail_page_seq++;
    }
    return st;
}

/* Copy forward what keep() names from the oldest page, retire it; repeat
 * while fewer than reserve_pages(j) pages are free. Pages from `protect` on
 * (the page that held the newest record when the append began) are never
 * retired: an area too full to make room fails rather than churning
 * through the ring and dropping the newest records. */
static fd_status compact(fd_journal *j, uint32_t protect)
{
    fd_status st = FD_OK;
    for (uint32_t rounds = 0; st == FD_OK && free_pages(j) < reserve_pages(j) && j->tail_page_seq < protect &&
                              rounds < j->flash->geometry.page_count;
         rounds++) {
        unsigned n = 0;
        uint32_t victim = find_page(j, j->tail_page_seq, &n);
        st = n == 1u ? copy_kept(j, victim) : FD_ERR_CORRUPT;
        if (st == FD_OK) {
            st = retire_tail(j);
        }
    }
    if (st != FD_OK) {
        j->failed = true;
    }
    return st;
}

/* Open pages until size bytes fit in the current one, compacting whenever
 * fewer than reserve_pages(j) are free. Compaction that copies as much as it
 * frees makes no room: bounded, then a full area (FD_ERR_EXHAUSTED). */
static fd_status make_room(fd_journal *j, uint32_t size)
{
    const uint32_t protect = j->newest_page_seq;
    for (uint32_t opened = 0; j->cur_page == NO_PAGE || j->cur_offset + size > j->flash->geometry.page_size; opened++) {
        fd_status st = opened < j->flash->geometry.page_count ? open_page(j) : FD_ERR_EXHAUSTED;
        if (st == FD_OK && free_pages(j) < reserve_pages(j)) {
            st = compact(j, protect);
        }
        if (st != FD_OK) {
            j->failed = true;
            return st;
        }
    }
    return FD_OK;
}

fd_status fd_journal_append(fd_journal *j, uint8_t type, const void *payload, size_t len, const void *secret,
                            size_t secret_len, uint32_t *seq)
{
    if (j == NULL || (payload == NULL && len > 0u) || (secret == NULL && secret_len > 0u)) {
        return FD_ERR_NULL;
    }
    if (len > FD_JOURNAL_MAX_PAYLOAD || secret_len > FD_JOURNAL_MAX_SECRET) {
        return FD_ERR_TOO_LARGE;
    }
    if (type > FD_JOURNAL_TYPE_USER_MAX) {
        return FD_ERR_PARSE;
    }
    if (j->busy) {
        return FD_ERR_STATE;
    }
    if (!j->mounted || j->failed) {
        return FD_ERR_NOT_READY;
    }
    j->busy = true;
    fd_status st = make_room(j, fd_journal_record_size(len, secret_len, true));
    if (st == FD_OK) {
        st = write_record(j, type, payload, len, secret, secret_len, NULL, seq);
    }
    forget_scratch(j); /* compaction read and copied records through it */
    j->busy = false;
    return st;
}

typedef struct wipe_target {
    uint32_t orig_seq;
    bool found;
} wipe_target;

/* nWRITE (hal/storage.h): a word is programmed at most twice between
 * erases, here once by its record and once by this wipe, which therefore
 * programs only the words of an intact secret (its hash matches) that are
 * not yet zero, one at a time in order. A location whose wipe was cut is
 * neither intact nor zero: it is left as it is until its page is erased,
 * because which of its words the cut tore cannot be told from flash, and
 * programming that one again would be its third program. */
static fd_status wipe_one(fd_journal *j, void *ctx, uint32_t size)
{
    static const uint32_t zero = 0;
    wipe_target *w = ctx;
    const fd_journal_record *r = &j->rec;
    if (r->orig_seq != w->orig_seq || r->secret_len == 0u) {
        return FD_OK;
    }
    w->found = true;
    if (secret_state_of(r, r->secret) != FD_JOURNAL_SECRET_AVAILABLE) {
        return FD_OK; /* wiped, or a wipe of it was cut (above) */
    }
    /* the secret ends before the tag and commit word, whichever header the record has */
    const uint32_t secret_off = size - FD_JOURNAL_TAG_SIZE - 4u - pad4(r->secret_len);
    fd_status st = FD_OK;
    for (uint32_t i = 0; i < r->secret_len && st == FD_OK; i += 4u) {
        const uint32_t n = r->secret_len - i < 4u ? r->secret_len - i : 4u; /* the padding is zero */
        if (!all_zero(r->secret + i, n)) {
            st = flash_program(j, r->offset + secret_off + i, &zero, 1);
        }
    }
    return st;
}

fd_status fd_journal_wipe_secret(fd_journal *j, uint32_t orig_seq)
{
    if (j == NULL) {
        return FD_ERR_NULL;
    }
    if (j->busy) {
        return FD_ERR_STATE;
    }
    if (!j->mounted || j->failed) {
        return FD_ERR_NOT_READY;
    }
    wipe_target w = {orig_seq, false};
    fd_status st = FD_OK;
    for (uint32_t p = 0; p < j->flash->geometry.page_count && st == FD_OK; p++) {
        st = j->pages[p].page_seq != 0u ? for_each_parsed(j, p, wipe_one, &w) : FD_OK;
    }
    forget_scratch(j);
    if (st != FD_OK) {
        return st;
    }
    return w.found ? FD_OK : FD_ERR_STATE;
}

fd_status fd_journal_head(const fd_journal *j, uint8_t head[FD_SHA256_SIZE], uint32_t *next_seq)
{
    if (j == NULL || head == NULL || next_seq == NULL) {
        return FD_ERR_NULL;
    }
    if (!j->mounted) {
        return FD_ERR_NOT_READY;
    }
    memcpy(head, j->head, FD_SHA256_SIZE);
    *next_seq = j->next_seq;
    return FD_OK;
}

fd_status fd_journal_wear(const fd_journal *j, uint32_t *min, uint32_t *max, uint64_t *total)
{
    if (j == NULL || min == NULL || max == NULL || total == NULL) {
        return FD_ERR_NULL;
    }
    if (!j->mounted) {
        return FD_ERR_NOT_READY;
    }
    *min = UINT32_MAX;
    *max = 0;
    *total = 0;
    for (uint32_t p = 0; p < j->flash->geometry.page_count; p++) {
        uint32_t c = j->pages[p].erase_count;
        *min = c < *min ? c : *min;
        *max = c > *max ? c : *max;
        *total += c;
    }
    return FD_OK;
}
