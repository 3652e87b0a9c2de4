/* fairdeal: a power-cut-safe, keyed, wear-levelled journal on NOR flash.
 *
 * Records (type, payload of up to FD_JOURNAL_MAX_PAYLOAD bytes, optionally an
 * erasable secret) are appended to a log that rotates over the pages of a
 * storage area. Every record is chained: tag_i = HMAC-SHA-256(key, head_{i-1}
 * || stored record bytes), head_i = tag_i (16 bytes of it are stored), so
 * without the device key nobody can edit, drop or reorder records undetected;
 * dropping the newest records shows only from outside, through the exported
 * head and sequence number. A secret enters the chain only as its SHA-256, so
 * it can be wiped after its reveal and the chain still verifies.
 *
 * Power cuts: a record is written in two program steps (body, then a commit
 * word). After a cut at any erase or program step, mount finds the last
 * complete record; an append that returned FD_OK is never lost. A page is
 * erased only when it is claimed for new records, after the live records the
 * caller's keep() callback names have been copied forward and a RETIRE record
 * has made the old page dead. The layout is in docs/RELIABILITY.md.
 *
 * No heap, no globals, no board code: the caller provides the flash (fd_flash),
 * the key and the page table. Not thread-safe. */
#ifndef FAIRDEAL_JOURNAL_H
#define FAIRDEAL_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/sha256.h"
#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The flash the journal runs on (a board's storage area). ---- */

typedef struct fd_flash_geometry {
    uint32_t page_size;   /* bytes per erase page, a multiple of 4, >= 512 */
    uint32_t page_count;  /* erase pages in the area */
    uint32_t write_unit;  /* bytes programmed at once: 4 (one aligned word) */
    uint8_t erased_value; /* what an erased byte reads: 0xFF on NOR flash */
} fd_flash_geometry;

/* Offsets are from the start of the area. program ANDs the words into flash
 * (bits only go 1 -> 0) and may be asked to program a word twice (a secret
 * wipe); erase sets a whole page to erased_value. Any failure is returned as
 * the driver's status and the journal stops writing until the next mount. */
typedef struct fd_flash {
    /* What the area looks like; fd_journal_init checks it. */
    fd_flash_geometry geometry;
    /* The driver's own state, first argument of every op. */
    void *ctx;
    /* Erase page (0-based within the area). */
    fd_status (*erase)(void *ctx, uint32_t page);
    /* AND count words into flash at offset, a multiple of 4. */
    fd_status (*program)(void *ctx, uint32_t offset, const uint32_t *words, size_t count);
    /* Copy len bytes at offset into out. */
    fd_status (*read)(void *ctx, uint32_t offset, void *out, size_t len);
} fd_flash;

/* ---- Limits and layout. ---- */

#define FD_JOURNAL_MAX_PAYLOAD 256u /* bytes of chained payload per record */
#define FD_JOURNAL_MAX_SECRET 64u   /* bytes of erasable secret per record */
#define FD_JOURNAL_MIN_KEY 16u      /* device key length, at least */
#define FD_JOURNAL_MIN_PAGES 4u     /* two live, two reserved for compaction */
/* Pages compaction keeps free in an area of n pages: 2, and 4 from 16
 * pages on, so that a power cut in the middle of copying a page of kept
 * records still leaves a page to finish it in (docs/RECORDS.md
 * "Capacity"). */
#define FD_JOURNAL_RESERVE_PAGES(n) ((n) >= 16u ? 4u : 2u)
/* Most pages an area may have; fd_journal_init refuses more (FD_ERR_STATE). */
#define FD_JOURNAL_MAX_PAGES 256u
#define FD_JOURNAL_PAGE_HEADER 68u        /* bytes at the start of every page */
#define FD_JOURNAL_PAGE_MAGIC 0x314A4446u /* "FDJ1": a page header's first word (little-endian) */
#define FD_JOURNAL_TAG_SIZE 16u           /* stored bytes of each record's HMAC */
/* Types 0xF0..0xFF belong to the journal itself (FD_JOURNAL_TYPE_RETIRE). */
#define FD_JOURNAL_TYPE_USER_MAX 0xEFu
/* The journal's own record: its 4-byte payload is the page_seq of the
 * page it makes dead, written before that page may be erased. */
#define FD_JOURNAL_TYPE_RETIRE 0xF0u

/* Bytes of the journal's own that every page and record carry: the page
 * header; per record the header (12), the tag (16) and the commit word (4);
 * a compaction copy's 8 more (orig_seq, source seq); a secret's SHA-256. */
#define FD_JOURNAL_RECORD_OVERHEAD 32u
#define FD_JOURNAL_COPY_OVERHEAD 8u           /* a compaction copy's orig_seq and source seq */
#define FD_JOURNAL_PAD4(n) (((n) + 3u) & ~3u) /* n rounded up to a whole word */
/* Flash bytes of one record, as a constant expression (capacity models and
 * their _Static_asserts); fd_journal_record_size is the same. */
#define FD_JOURNAL_RECORD_BYTES(payload_len, secret_len, copy)                                                         \
    (FD_JOURNAL_RECORD_OVERHEAD + ((copy) ? FD_JOURNAL_COPY_OVERHEAD : 0u) + FD_JOURNAL_PAD4(payload_len) +            \
     ((secret_len) > 0u ? FD_SHA256_SIZE + FD_JOURNAL_PAD4(secret_len) : 0u))
/* The RETIRE record compaction writes for each page it retires. */
#define FD_JOURNAL_RETIRE_BYTES FD_JOURNAL_RECORD_BYTES(4u, 0u, 1)

/* Flash bytes one record takes: header, padded payload, secret hash and
 * secret when secret_len > 0, tag, commit word. copy: the long header
 * (8 more bytes: orig_seq, source seq) every record is written with now;
 * without, the short header of records written before (still read). */
uint32_t fd_journal_record_size(size_t payload_len, size_t secret_len, bool copy);

/* What a read found in a record's secret part. */
typedef enum fd_journal_secret_state {
    FD_JOURNAL_SECRET_NONE = 0,      /* the record has no secret part */
    FD_JOURNAL_SECRET_AVAILABLE = 1, /* stored and matches its chained hash */
    FD_JOURNAL_SECRET_WIPED = 2,     /* all zero: wiped after the reveal */
    FD_JOURNAL_SECRET_DAMAGED = 3    /* neither: a wipe cut short, or tampered */
} fd_journal_secret_state;

/* One record as read back. seq is its place in the chain; orig_seq the seq it
 * was first written under (differs only for a copy made by compaction, which
 * is the same record, re-attested). */
typedef struct fd_journal_record {
    /* Place in the chain (a compaction copy gets a new one). */
    uint32_t seq;
    /* seq the record was first written under. */
    uint32_t orig_seq;
    /* Caller's type, 0..FD_JOURNAL_TYPE_USER_MAX, or the journal's own. */
    uint8_t type;
    /* Bytes used in payload. */
    uint16_t len;
    /* payload[0..len): the chained data. */
    uint8_t payload[FD_JOURNAL_MAX_PAYLOAD];
    fd_journal_secret_state secret_state; /* judged on verified reads */
    /* Bytes of secret stored (0: none), whatever its state. */
    uint16_t secret_len;
    uint8_t secret[FD_JOURNAL_MAX_SECRET]; /* valid when AVAILABLE */
    uint8_t secret_hash[FD_SHA256_SIZE];   /* chained; valid when secret_len > 0 */
    uint32_t page;                         /* where it is stored (for reports and wipes) */
    uint32_t offset;                       /* from the start of the area */
} fd_journal_record;

/* Compaction asks the caller whether a record on the page about to be erased
 * must survive (copied forward, same payload and secret). The dealer keeps
 * the last hands in full, the last round summaries and every unrevealed
 * round (docs/RECORDS.md). Must be deterministic for a given record. */
typedef bool (*fd_journal_keep_fn)(void *ctx, const fd_journal_record *record);

/* Called once per record a walk, mount, compaction or wipe reads, so a
 * caller can kick its watchdog inside every long walk (the library makes
 * no HAL calls). Must not call back into the journal. */
typedef void (*fd_journal_kick_fn)(void *ctx);

/* Per-page state the caller provides: one entry per page of the area. */
typedef struct fd_journal_page {
    uint32_t page_seq;    /* 0: unused (erased, stale or damaged) */
    uint32_t erase_count; /* erases seen for this page (from its header) */
    uint32_t first_seq;   /* seq of its first record */
} fd_journal_page;

/* What mount or verify found wrong: the first bad place, in walk order. */
typedef struct fd_journal_report {
    /* FD_OK, or the error mount/walk returned. */
    fd_status status;
    uint32_t page;      /* physical page index */
    uint32_t offset;    /* byte offset in the area */
    uint32_t seq;       /* seq expected there */
    const char *reason; /* short stable text, "ok" when status is FD_OK */
} fd_journal_report;

/* A journal bound to its flash, key and page table, in caller memory;
 * holds the keyed HMAC state, as secret as the key. Owned by the library:
 * do not rely on the contents of this type (use fd_journal_head and
 * fd_journal_wear; stats_* are for benchmarks). */
typedef struct fd_journal {
    /* configuration (fd_journal_init) */
    const fd_flash *flash;
    fd_hmac_sha256_ctx keyed; /* HMAC state after the key (as secret as it) */
    /* The caller's page table, geometry.page_count entries. */
    fd_journal_page *pages;
    /* Compaction's keep policy; NULL keeps nothing. */
    fd_journal_keep_fn keep;
    /* First argument of keep. */
    void *keep_ctx;
    /* fd_journal_set_kick's; NULL: none. */
    fd_journal_kick_fn kick;
    /* First argument of kick. */
    void *kick_ctx;
    /* state after mount */
    bool mounted;
    bool failed; /* a write failed: remount before writing again */
    bool busy;   /* inside walk, mount, append or wipe (a visitor or keep calling back) */
    /* Chain head: the full tag of the newest record. */
    uint8_t head[FD_SHA256_SIZE];
    /* seq the next appended record gets. */
    uint32_t next_seq;
    uint32_t newest_page_seq; /* 0 before the first page */
    uint32_t tail_page_seq;   /* oldest live page */
    uint32_t cur_page;        /* physical page receiving records */
    uint32_t cur_offset;      /* next free byte in it; page_size: full */
    uint32_t last_copied;     /* highest source seq compaction has copied */
    uint32_t stats_erases;    /* since init: for benchmarks */
    /* Program calls since init: for benchmarks. */
    uint32_t stats_programs;
    /* scratch, kept here so callers' stacks stay small */
    uint32_t buf[(FD_JOURNAL_PAGE_HEADER + 20u + FD_JOURNAL_MAX_PAYLOAD + FD_SHA256_SIZE + FD_JOURNAL_TAG_SIZE + 4u +
                  FD_JOURNAL_MAX_SECRET) /
                 4u];
    /* The record last read, scratch for walks and compaction. */
    fd_journal_record rec;
} fd_journal;

/* Bind a journal to its flash, key and page table (pages[geometry.page_count]).
 * keep may be NULL (compaction then keeps nothing). Touches no flash.
 * Errors: FD_ERR_NULL; FD_ERR_EMPTY / FD_ERR_TOO_LARGE (key shorter than
 * FD_JOURNAL_MIN_KEY or longer than 64); FD_ERR_STATE (geometry the journal
 * cannot use: page size, page count, write unit 4, erased value 0xFF). */
FD_MUST_CHECK fd_status fd_journal_init(fd_journal *j, const fd_flash *flash, const void *key, size_t key_len,
                                        fd_journal_page *pages, fd_journal_keep_fn keep, void *keep_ctx);

/* Call kick (may be NULL: none) with ctx once per record every later
 * walk, mount, append (compaction) and wipe reads. Touches no flash.
 * j must be initialised (fd_journal_init clears it). */
void fd_journal_set_kick(fd_journal *j, fd_journal_kick_fn kick, void *ctx);

/* Called for each live record, oldest first; a status other than FD_OK
 * stops the walk and is returned. The record lives in the journal's
 * scratch: a visitor (or keep) must not call back into the same journal;
 * such a call returns FD_ERR_STATE and changes nothing. */
typedef fd_status (*fd_journal_visit_fn)(void *ctx, const fd_journal_record *record);

/* Read and verify the whole stored journal, then position for appends.
 * Never writes (a torn tail or a blank area is dealt with by the next
 * append). A blank or never-used area mounts empty. Errors: FD_ERR_NULL;
 * FD_ERR_CORRUPT with the first bad record in report (report may be NULL);
 * a driver's read error; FD_ERR_STATE (called from a visitor or keep of
 * this journal). The journal refuses appends until mounted. */
FD_MUST_CHECK fd_status fd_journal_mount(fd_journal *j, fd_journal_report *report);

/* fd_journal_mount that also calls visit (may be NULL) for each live record
 * as fd_journal_walk does, in the same single read of the flash: a power-on
 * that replays the journal reads and verifies it once, not twice. If the
 * mount fails, visit may already have seen the records before the first
 * bad one (as in a failed walk); a status other than FD_OK from visit
 * stops the mount and is returned. Errors: as fd_journal_mount. */
FD_MUST_CHECK fd_status fd_journal_mount_walk(fd_journal *j, fd_journal_visit_fn visit, void *ctx,
                                              fd_journal_report *report);

/* Append a record; FD_OK means it is on flash (acknowledged).
 * type <= FD_JOURNAL_TYPE_USER_MAX; payload[0..len) with len <=
 * FD_JOURNAL_MAX_PAYLOAD; secret may be NULL with secret_len 0, else
 * secret_len <= FD_JOURNAL_MAX_SECRET. seq (may be NULL) receives the
 * record's sequence number. Errors: FD_ERR_NULL; FD_ERR_TOO_LARGE;
 * FD_ERR_PARSE (reserved type); FD_ERR_NOT_READY (not mounted, or a write
 * failed since); FD_ERR_EXHAUSTED (live records fill the area: nothing
 * written); a driver's status (the record may or may not be on flash:
 * remount to know); FD_ERR_STATE (called from a visitor or keep of this
 * journal: nothing written). */
FD_MUST_CHECK fd_status fd_journal_append(fd_journal *j, uint8_t type, const void *payload, size_t len,
                                          const void *secret, size_t secret_len, uint32_t *seq);

/* The verifier: walk the stored journal from its oldest live page with the
 * key, checking every tag, the chain, page order and the live range, and
 * call visit (may be NULL) for each live record, oldest first, copies made
 * by compaction in place of their originals (each record once). Works on a
 * mounted journal or one only initialised (e.g. a dump read by a tool).
 * Errors: as fd_journal_mount, with the first bad record in report. */
FD_MUST_CHECK fd_status fd_journal_walk(fd_journal *j, fd_journal_visit_fn visit, void *ctx, fd_journal_report *report);

/* Wipe the secret of the record first written as orig_seq, in every place it
 * is stored (copies made by compaction and dead pages not yet erased too):
 * programs its secret bytes to zero, no erase, and the chain still verifies.
 * Wiping again is harmless. Errors: FD_ERR_NOT_READY; FD_ERR_STATE (no
 * stored record with that seq has a secret, or called from a visitor or
 * keep of this journal); a driver's status. */
FD_MUST_CHECK fd_status fd_journal_wipe_secret(fd_journal *j, uint32_t orig_seq);

/* The chain head (after the newest record) and the next sequence number,
 * for export in STATUS and REVEAL. Errors: FD_ERR_NULL, FD_ERR_NOT_READY. */
FD_MUST_CHECK fd_status fd_journal_head(const fd_journal *j, uint8_t head[FD_SHA256_SIZE], uint32_t *next_seq);

/* Erase counts: min, max and total over the area's pages (wear levelling).
 * Errors: FD_ERR_NULL, FD_ERR_NOT_READY. */
FD_MUST_CHECK fd_status fd_journal_wear(const fd_journal *j, uint32_t *min, uint32_t *max, uint64_t *total);

#ifdef __cplusplus
}
#endif

#endif
