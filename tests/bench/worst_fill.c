/* The journal's worst-case fill for start-up: worst_fill.h. */
#include "worst_fill.h"

#include "fairdeal/records.h"

/* A one-card DEALT, the smallest record a session can write over and over. */
#define DEALT_BYTES FD_JOURNAL_RECORD_BYTES(FD_REC_DEALT_BASE + 2u, 0u, 1)
/* Open the last round only when the page being filled has less left than
 * its SHUFFLE, seeds, CUTs and 400 DEALs take, so that it fills the page
 * before its shoe runs out (a 128 KiB page holds about 2,500 DEALTs). */
#define OPEN_BELOW (400u * DEALT_BYTES)

static uint32_t free_pages(const fd_journal *j)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < j->flash->geometry.page_count; p++) {
        n += j->pages[p].page_seq == 0u || j->pages[p].page_seq < j->tail_page_seq ? 1u : 0u;
    }
    return n;
}

/* Compaction has left as few free pages as it ever does. */
static bool area_full(const fd_journal *j)
{
    return free_pages(j) <= FD_JOURNAL_RESERVE_PAGES(j->flash->geometry.page_count);
}

/* ... and the page being filled takes no further DEALT: the next one
 * opens a page and compacts, so the live range is at its widest now. */
static bool widest(const fd_journal *j)
{
    return area_full(j) && j->cur_offset + DEALT_BYTES > j->flash->geometry.page_size;
}

uint32_t worst_fill_live_records(const fd_dealer *d)
{
    const fd_journal *j = &d->persist.journal;
    for (uint32_t p = 0; p < j->flash->geometry.page_count; p++) {
        if (j->pages[p].page_seq == j->tail_page_seq) {
            return j->next_seq - j->pages[p].first_seq;
        }
    }
    return 0;
}

typedef struct filler {
    worst_fill_cmd_fn cmd;
    void *ctx;
    uint32_t sent;
    bool ok;
} filler;

static void send(filler *f, const char *line)
{
    if (f->ok) {
        f->ok = f->cmd(f->ctx, line);
        f->sent++;
    }
}

/* SHUFFLE a verifiable round, its eight one-byte seeds (the order is then
 * fixed) and its four CUTs. */
static void open_round(filler *f)
{
    send(f, "SHUFFLE slots=8");
    char seed[] = "SEED 0 00";
    for (char s = '0'; s < '8'; s++) {
        seed[5] = s;
        seed[8] = s;
        send(f, seed);
    }
    char cut[] = "CUT 400";
    for (unsigned c = 0; c < FD_REC_CUTS_MAX; c++) {
        cut[6] = (char)('0' + c);
        send(f, cut);
    }
}

uint32_t worst_fill(const fd_dealer *d, worst_fill_cmd_fn cmd, void *ctx)
{
    const fd_journal *j = &d->persist.journal;
    const uint32_t page_size = j->flash->geometry.page_size;
    const uint32_t per_page = page_size / DEALT_BYTES;
    /* the open round dealt to within two pages of DEALTs of its end */
    const uint32_t deep = FD_SHOE_MAX_CARDS - 1u > 2u * per_page ? FD_SHOE_MAX_CARDS - 1u - 2u * per_page : 0u;
    filler f = {cmd, ctx, 0, true};
    send(&f, "NEW french 8 2");
    /* bounded: an area of 256 pages of 128 KiB holds about 1,300 rounds */
    for (uint32_t rounds = 0; f.ok && rounds < 4096u; rounds++) {
        const bool last = area_full(j) && page_size - j->cur_offset < OPEN_BELOW;
        open_round(&f);
        uint32_t dealt = 0;
        for (; f.ok && dealt < FD_SHOE_MAX_CARDS - 1u; dealt++) {
            if (last && dealt >= deep && widest(j)) {
                return f.sent;
            }
            send(&f, "DEAL 1");
        }
        send(&f, "REVEAL");
    }
    return 0;
}
