/* fairdeal-tool verify --journal: a dump of the dealer's storage area (the
 * host dealer's --storage file, or a board's flash read out) checked with
 * the device key: every record's tag and the chain (an edited, dropped or
 * reordered record is reported with its page, offset and seq), then each
 * revealed round still held in full: its commitment recomputed from the
 * revealed material (S and the round header, or salt and order, in its
 * ROUND_SECRET parts), the REVEAL's hash of it, and every card the journal
 * says was dealt is the order's card at that position, no position twice,
 * none dealt after the REVEAL, one REVEAL per round. Records are decoded
 * by the codec (fairdeal/records.h; docs/RECORDS.md). */
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
    fd_rec_reveal reveal; /* the REVEAL summary */
    uint32_t reveal_seq;  /* its orig_seq */
    uint32_t last_dealt;  /* orig_seq of its newest DEALT */
    bool dealt_at[FD_SHOE_MAX_CARDS];
    fd_card dealt[FD_SHOE_MAX_CARDS];
} jround;

#define MAX_ROUNDS 512u

typedef struct jwalk {
    uint32_t records;
    uint32_t rounds;
    uint32_t checked;
    uint32_t partial; /* revealed rounds compaction has partly dropped: not checked */
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
            out->order[i] = fd_rec_material_card(material, i);
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
    const fd_rec_reveal *v = &r->reveal;
    if (memcmp(v->commitment, r->commitment, FD_SHA256_SIZE) != 0) {
        return bad(w, r->id, "REVEAL's commitment is not ROUND_OPENED's");
    }
    if (v->material_len != r->material_len) {
        return bad(w, r->id, "REVEAL's material length is not ROUND_OPENED's");
    }
    if (r->have_parts != (1u << r->parts) - 1u) {
        w->partial++; /* compaction drops a hand page by page: what is left is not a whole hand */
        return FD_OK;
    }
    uint8_t digest[FD_SHA256_SIZE];
    fd_sha256(r->material, r->material_len, digest);
    if (memcmp(digest, v->material_hash, FD_SHA256_SIZE) != 0) {
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

static fd_status visit_opened(jwalk *w, jround *r, const fd_journal_record *rec)
{
    static fd_rec_round_opened o;
    if (fd_rec_round_opened_decode(rec->payload, rec->len, &o) != FD_OK) {
        return bad(w, r->id, "malformed ROUND_OPENED");
    }
    if (r->opened) {
        return bad(w, r->id, "ROUND_OPENED twice");
    }
    r->opened = true;
    r->mode = o.mode;
    r->header.kind = (fd_deck_kind)o.kind;
    r->header.decks = o.decks;
    r->header.jokers = o.jokers;
    r->count = o.count;
    r->header.slot_mask = o.slot_mask;
    r->header.device_id_len = o.device_id_len;
    r->material_len = o.material_len;
    r->parts = o.parts;
    memcpy(r->header.device_id, o.device_id, o.device_id_len);
    r->header.round_id = r->id;
    r->header.beacon_slot = o.beacon_slot;
    r->header.beacon_index = o.beacon_index;
    memcpy(r->commitment, o.commitment, FD_SHA256_SIZE);
    return FD_OK;
}

static fd_status visit_dealt(jwalk *w, jround *r, const fd_journal_record *rec)
{
    static fd_rec_dealt t;
    if (fd_rec_dealt_decode(rec->payload, rec->len, &t) != FD_OK) {
        return bad(w, r->id, "malformed DEALT");
    }
    for (uint32_t i = 0; i < t.cards; i++) {
        const uint32_t pos = t.first + i;
        if (r->dealt_at[pos]) {
            return bad(w, r->id, "a card position dealt twice");
        }
        r->dealt_at[pos] = true;
        r->dealt[pos] = t.card[i];
    }
    r->last_dealt = rec->orig_seq > r->last_dealt ? rec->orig_seq : r->last_dealt;
    return FD_OK;
}

static fd_status visit(void *ctx, const fd_journal_record *rec)
{
    jwalk *w = ctx;
    w->records++;
    const bool round_record = rec->type == FD_REC_ROUND_OPENED || rec->type == FD_REC_ROUND_SECRET ||
                              rec->type == FD_REC_CLIENT_SEED || rec->type == FD_REC_DEALT ||
                              rec->type == FD_REC_CARDS_DEALT || rec->type == FD_REC_REVEAL;
    uint32_t id = 0;
    if (!round_record || fd_rec_round_id(rec->payload, rec->len, &id) != FD_OK) {
        return FD_OK; /* events, CUT, the seed file, the journal's own */
    }
    jround *r = round_of(w, id);
    if (r == NULL) {
        return bad(w, id, "more rounds than the verifier holds");
    }
    switch (rec->type) {
    case FD_REC_ROUND_OPENED: return visit_opened(w, r, rec);
    case FD_REC_ROUND_SECRET: {
        fd_rec_round_secret h;
        if (fd_rec_round_secret_decode(rec->payload, rec->len, &h) != FD_OK) {
            return bad(w, id, "malformed ROUND_SECRET");
        }
        if (rec->secret_state == FD_JOURNAL_SECRET_AVAILABLE) {
            memcpy(r->material + (size_t)h.part * FD_REC_SECRET_PART, rec->secret, rec->secret_len);
            r->have_parts |= 1u << h.part;
        }
        return FD_OK;
    }
    case FD_REC_CLIENT_SEED: {
        fd_rec_client_seed c;
        if (fd_rec_client_seed_decode(rec->payload, rec->len, &c) != FD_OK || r->seeds.len[c.slot] != 0u) {
            return bad(w, id, "client seed malformed or repeated");
        }
        memcpy(r->seeds.seed[c.slot], c.seed, c.len);
        r->seeds.len[c.slot] = c.len;
        return FD_OK;
    }
    case FD_REC_DEALT: return visit_dealt(w, r, rec);
    case FD_REC_CARDS_DEALT: return bad(w, id, "CARDS_DEALT: a retired record layout");
    default: /* FD_REC_REVEAL */
        if (r->revealed) {
            return bad(w, id, "a second REVEAL of the round");
        }
        if (fd_rec_reveal_decode(rec->payload, rec->len, &r->reveal) != FD_OK) {
            return bad(w, id, "malformed REVEAL");
        }
        r->revealed = true;
        r->reveal_seq = rec->orig_seq;
        return FD_OK;
    }
}

/* After the walk: no card dealt after its round's REVEAL (by when each was
 * first written: compaction moves records, never their seqs), and every
 * revealed round held in full is checked. */
static fd_status check_rounds(jwalk *w)
{
    for (uint32_t i = 0; i < w->rounds; i++) {
        jround *r = &rounds[i];
        if (r->revealed && r->last_dealt > r->reveal_seq) {
            return bad(w, r->id, "cards dealt after the round's REVEAL");
        }
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
    printf("OK journal records=%lu rounds_checked=%lu rounds_partial=%lu seq=%lu head=", (unsigned long)walk.records,
           (unsigned long)walk.checked, (unsigned long)walk.partial, (unsigned long)next);
    for (size_t i = 0; i < sizeof head; i++) {
        printf("%02x", head[i]);
    }
    printf("\n");
    return 0;
}
