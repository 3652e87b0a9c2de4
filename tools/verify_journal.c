/* fairdeal-tool verify --journal: a dump of the dealer's storage area (the
 * host dealer's --storage file, or a board's flash read out) checked with
 * the device key: every record's tag and the chain (an edited, dropped or
 * reordered record is reported with its page, offset and seq), then each
 * revealed round still held in full: its commitment recomputed from the
 * revealed material (S and the round header, or salt and order, in its
 * ROUND_SECRET parts), the REVEAL's hash of it, and every card the journal
 * says was dealt is the order's card at that position, no position twice.
 * Layout: docs/RECORDS.md. */
#include "verify_journal.h"

#include <stdio.h>
#include <string.h>

#include "dealer.h"
#include "fairdeal/commit.h"
#include "fairdeal/journal.h"
#include "fairdeal/records.h"
#include "fairdeal/round.h"
#include "fd_board_map.h"
#include "host_storage.h"

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8); }

static uint32_t le32(const uint8_t *p) { return le16(p) | (le16(p + 2) << 16); }

/* One round as the journal holds it. The walk yields records in chain
 * order, where compaction has moved older records after newer ones, so
 * rounds are gathered first and checked after the walk. */
typedef struct jround {
    uint32_t id;
    bool opened, revealed;
    uint8_t mode;
    fd_round_header header;
    uint8_t commitment[FD_SHA256_SIZE];
    fd_round_seeds seeds;
    uint16_t count;
    uint8_t parts;
    uint32_t have_parts; /* bit i: ROUND_SECRET part i read back */
    size_t material_len; /* from ROUND_OPENED */
    uint8_t material[FD_REC_MAX_PARTS * FD_REC_SECRET_PART];
    uint8_t reveal[80]; /* the REVEAL summary */
    bool dealt_at[FD_SHOE_MAX_CARDS];
    fd_card dealt[FD_SHOE_MAX_CARDS];
} jround;

#define MAX_ROUNDS 512u

typedef struct jwalk {
    uint32_t records;
    uint32_t rounds;
    uint32_t checked;
    char why[160];
} jwalk;

static jround rounds[MAX_ROUNDS]; /* large: static */
static fd_shoe shoe;

static fd_status bad(jwalk *w, uint32_t id, const char *why)
{
    (void)snprintf(w->why, sizeof w->why, "round %lu: %s", (unsigned long)id, why);
    return FD_ERR_CORRUPT;
}

static jround *round_of(jwalk *w, uint32_t id)
{
    for (uint32_t i = 0; i < w->rounds; i++) {
        if (rounds[i].id == id) {
            return &rounds[i];
        }
    }
    if (w->rounds == MAX_ROUNDS) {
        return NULL;
    }
    jround *r = &rounds[w->rounds++];
    memset(r, 0, sizeof *r);
    r->id = id;
    return r;
}

const char *fd_tool_revealed_order(uint8_t mode, const fd_round_header *header, const fd_round_seeds *seeds,
                                   uint16_t count, const uint8_t *material, size_t len,
                                   const uint8_t commitment[FD_SHA256_SIZE], fd_shoe *out)
{
    uint8_t got[FD_SHA256_SIZE];
    if (mode == FD_RECORD_MODE_ROUND) {
        if (fd_round_deal_order(header, material, len, seeds, out, got) != FD_OK) {
            return "the revealed S does not derive an order";
        }
    } else {
        if (count > FD_SHOE_MAX_CARDS || len != FD_COMMIT_SALT_SIZE + 2u * (size_t)count) {
            return "revealed order has the wrong length";
        }
        out->count = count;
        for (uint16_t i = 0; i < count; i++) {
            out->order[i] = (fd_card)le16(material + FD_COMMIT_SALT_SIZE + (size_t)2u * i);
        }
        if (fd_shoe_order_check(header->kind, header->decks, header->jokers, out->order, count) != FD_OK ||
            fd_commit_compute(material, out->order, count, header->kind, got) != FD_OK) {
            return "revealed order is not a permutation of the shoe";
        }
    }
    return memcmp(got, commitment, sizeof got) == 0 ? NULL : "commitment does not match its reveal";
}

/* A revealed round held in full: commitment from the material, reveal hash, dealt cards. */
static fd_status check_round(jwalk *w, jround *r)
{
    const uint8_t *b = r->reveal;
    if (memcmp(b + 12, r->commitment, FD_SHA256_SIZE) != 0) {
        return bad(w, r->id, "REVEAL's commitment is not ROUND_OPENED's");
    }
    if (r->parts == 0u || r->have_parts != (1u << r->parts) - 1u || le16(b + 6) != r->material_len) {
        return bad(w, r->id, "revealed material missing or incomplete");
    }
    uint8_t digest[FD_SHA256_SIZE];
    fd_sha256(r->material, r->material_len, digest);
    if (memcmp(digest, b + 44, FD_SHA256_SIZE) != 0) {
        return bad(w, r->id, "reveal hash does not match the revealed material");
    }
    const char *why = fd_tool_revealed_order(r->mode, &r->header, &r->seeds, r->count, r->material, r->material_len,
                                             r->commitment, &shoe);
    if (why != NULL) {
        return bad(w, r->id, why);
    }
    for (uint16_t i = 0; i < shoe.count; i++) {
        if (r->dealt_at[i] && r->dealt[i] != shoe.order[i]) {
            return bad(w, r->id, "a card recorded as dealt is not the order's card at its position");
        }
    }
    w->checked++;
    return FD_OK;
}

static fd_status visit(void *ctx, const fd_journal_record *rec)
{
    jwalk *w = ctx;
    const uint8_t *b = rec->payload;
    w->records++;
    const bool round_record = rec->type == FD_REC_ROUND_OPENED || rec->type == FD_REC_ROUND_SECRET ||
                              rec->type == FD_REC_CLIENT_SEED || rec->type == FD_REC_CARDS_DEALT ||
                              rec->type == FD_REC_REVEAL;
    if (!round_record || rec->len < 4u) {
        return FD_OK; /* events, the seed file, the journal's own */
    }
    const uint32_t id = le32(b);
    jround *r = round_of(w, id);
    if (r == NULL) {
        return bad(w, id, "more rounds than the verifier holds");
    }
    switch (rec->type) {
    case FD_REC_ROUND_OPENED: {
        const size_t base = rec->len < 56u ? 0u : 56u + 4u * b[16] + b[13];
        const bool has_beacon = rec->len == base + FD_REC_BEACON_SIZE; /* older records end at the device id */
        if (rec->len < 56u || b[16] > FD_REC_MAX_PARTS || b[13] > FD_ROUND_DEVICE_ID_MAX ||
            (rec->len != base && !has_beacon) || le16(b + 8) > FD_SHOE_MAX_CARDS) {
            return bad(w, id, "malformed ROUND_OPENED");
        }
        r->opened = true;
        r->mode = b[4];
        r->header.kind = (fd_deck_kind)b[5];
        r->header.decks = b[6];
        r->header.jokers = b[7];
        r->count = (uint16_t)le16(b + 8);
        r->header.slot_mask = b[12];
        r->header.device_id_len = b[13];
        r->material_len = le16(b + 14);
        r->parts = b[16];
        memcpy(r->header.device_id, b + 56 + 4u * b[16], b[13]);
        r->header.round_id = id;
        r->header.beacon_slot = has_beacon ? b[base] : FD_ROUND_NO_BEACON;
        r->header.beacon_index = has_beacon ? le32(b + base + 1u) | ((uint64_t)le32(b + base + 5u) << 32) : 0u;
        memcpy(r->commitment, b + 24, FD_SHA256_SIZE);
        return FD_OK;
    }
    case FD_REC_ROUND_SECRET:
        if (rec->len >= 8u && b[4] < FD_REC_MAX_PARTS && rec->secret_state == FD_JOURNAL_SECRET_AVAILABLE) {
            memcpy(r->material + (size_t)b[4] * FD_REC_SECRET_PART, rec->secret, rec->secret_len);
            r->have_parts |= 1u << b[4];
        }
        return FD_OK;
    case FD_REC_CLIENT_SEED:
        if (rec->len < 8u + b[5] || r->seeds.len[b[4] % FD_ROUND_SLOTS] != 0u || b[4] >= FD_ROUND_SLOTS || b[5] == 0u ||
            b[5] > FD_ROUND_SEED_MAX) {
            return bad(w, id, "client seed malformed or repeated");
        }
        memcpy(r->seeds.seed[b[4]], b + 8, b[5]);
        r->seeds.len[b[4]] = b[5];
        return FD_OK;
    case FD_REC_CARDS_DEALT: {
        const uint32_t n = b[10];
        if (rec->len < 16u + 2u * n) {
            return bad(w, id, "malformed CARDS_DEALT");
        }
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t pos = le16(b + 4) + le16(b + 6) + i;
            if (pos >= FD_SHOE_MAX_CARDS) {
                return bad(w, id, "card dealt beyond the shoe");
            }
            if (r->dealt_at[pos]) {
                return bad(w, id, "a card position dealt twice");
            }
            r->dealt_at[pos] = true;
            r->dealt[pos] = (fd_card)le16(b + 16 + 2u * i);
        }
        return FD_OK;
    }
    default: /* FD_REC_REVEAL */
        if (rec->len < 76u) {
            return bad(w, id, "malformed REVEAL");
        }
        r->revealed = true;
        memcpy(r->reveal, b, 76);
        return FD_OK;
    }
}

/* After the walk: every revealed round held in full is checked. */
static fd_status check_rounds(jwalk *w)
{
    for (uint32_t i = 0; i < w->rounds; i++) {
        jround *r = &rounds[i];
        if (r->opened && r->revealed) {
            const fd_status st = check_round(w, r);
            if (st != FD_OK) {
                return st;
            }
        }
    }
    return FD_OK;
}

static uint8_t image[1u << 20];
static fd_journal_page pages[FD_JOURNAL_MAX_PAGES];
static fd_journal journal;
static jwalk walk;

int fd_tool_verify_journal(const char *path, const uint8_t *key, size_t key_len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "fairdeal-tool: verify: cannot open journal '%s'\n", path);
        return 2;
    }
    static uint8_t data[sizeof image];
    const size_t size = fread(data, 1, sizeof data, f);
    (void)fclose(f);
    const uint32_t page = FD_FLASH_PAGE_SIZE;
    if (size == 0u || size % page != 0u || size / page > FD_JOURNAL_MAX_PAGES) {
        fprintf(stderr, "fairdeal-tool: verify: '%s' is not a storage area of %u-byte pages\n", path, page);
        return 1;
    }
    host_flash hf;
    if (host_flash_open(&hf, image, page, (uint32_t)(size / page), NULL) != FD_OK) {
        fprintf(stderr, "fairdeal-tool: verify: cannot map the journal\n");
        return 1;
    }
    memcpy(image, data, size);
    fd_journal_report rep;
    memset(&walk, 0, sizeof walk);
    fd_status st = fd_journal_init(&journal, &hf.flash, key, key_len, pages, NULL, NULL);
    if (st == FD_OK) {
        st = fd_journal_mount(&journal, &rep);
    }
    if (st == FD_OK) {
        st = fd_journal_walk(&journal, visit, &walk, &rep);
    }
    if (st == FD_OK) {
        st = check_rounds(&walk);
    }
    if (st != FD_OK) {
        if (walk.why[0] != '\0') {
            fprintf(stderr, "fairdeal-tool: verify: journal: %s\n", walk.why);
        } else {
            fprintf(stderr, "fairdeal-tool: verify: journal: %s at page %lu offset %lu seq %lu (%s)\n",
                    rep.reason != NULL ? rep.reason : "?", (unsigned long)rep.page, (unsigned long)rep.offset,
                    (unsigned long)rep.seq, fd_status_name(st));
        }
        return 1;
    }
    uint8_t head[FD_SHA256_SIZE];
    uint32_t next = 0;
    (void)fd_journal_head(&journal, head, &next); /* cannot fail: mounted just now */
    printf("OK journal records=%lu rounds_checked=%lu seq=%lu head=", (unsigned long)walk.records,
           (unsigned long)walk.checked, (unsigned long)next);
    for (size_t i = 0; i < sizeof head; i++) {
        printf("%02x", head[i]);
    }
    printf("\n");
    return 0;
}
