#include "fairdeal/commit.h"

#include <string.h>

/* One pass; stops at the first card that is not of kind. */
static fd_status emit_order(const fd_card *order, uint16_t count, fd_deck_kind kind, fd_text_sink sink, void *ctx)
{
    char code[FD_CARD_CODE_SIZE];
    for (uint16_t i = 0; i < count; i++) {
        if (fd_card_format(order[i], kind, code) != FD_OK) {
            return FD_ERR_PARSE;
        }
        if (i > 0u) {
            sink(ctx, " ", 1);
        }
        sink(ctx, code, strlen(code));
    }
    return FD_OK;
}

static void discard(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    (void)text;
    (void)len;
}

fd_status fd_commit_order_text(const fd_card *order, uint16_t count, fd_deck_kind kind, fd_text_sink sink, void *ctx)
{
    if ((order == NULL && count > 0u) || sink == NULL) {
        return FD_ERR_NULL;
    }
    /* a dry run first: a reply is never cut short half-way */
    const fd_status st = emit_order(order, count, kind, discard, NULL);
    return st == FD_OK ? emit_order(order, count, kind, sink, ctx) : st;
}

static void hash_sink(void *ctx, const char *text, size_t len) { fd_sha256_update(ctx, text, len); }

fd_status fd_commit_compute(const uint8_t salt[FD_COMMIT_SALT_SIZE], const fd_card *order, uint16_t count,
                            fd_deck_kind kind, uint8_t out[FD_COMMIT_SIZE])
{
    if (salt == NULL || out == NULL) {
        return FD_ERR_NULL;
    }
    char salt_hex[2u * FD_COMMIT_SALT_SIZE + 1u];
    /* cannot fail: salt_hex holds exactly 2 * FD_COMMIT_SALT_SIZE + 1 characters */
    (void)fd_hex_encode(salt, FD_COMMIT_SALT_SIZE, salt_hex, sizeof salt_hex);
    fd_sha256_ctx h;
    fd_sha256_init(&h);
    fd_sha256_update(&h, salt_hex, sizeof salt_hex - 1u);
    fd_sha256_update(&h, " ", 1);
    const fd_status st = order == NULL && count > 0u ? FD_ERR_NULL : emit_order(order, count, kind, hash_sink, &h);
    if (st != FD_OK) {
        fd_wipe(&h, sizeof h);
        return st;
    }
    fd_sha256_final(&h, out);
    return FD_OK;
}

/* ---- record ---- */

typedef struct writer {
    uint8_t *out;
    size_t size;
    size_t len;
    bool overflow;
} writer;

static void put_byte(writer *w, unsigned v)
{
    if (w->len < w->size) {
        w->out[w->len] = (uint8_t)v;
    } else {
        w->overflow = true;
    }
    w->len++;
}

static void put_u16(writer *w, unsigned v)
{
    put_byte(w, (v >> 8) & 0xFFu);
    put_byte(w, v & 0xFFu);
}

static void put_tlv(writer *w, fd_record_tag tag, const uint8_t *value, size_t len)
{
    put_byte(w, (unsigned)tag);
    put_u16(w, (unsigned)len);
    for (size_t i = 0; i < len; i++) {
        put_byte(w, value[i]);
    }
}

/* NOLINTNEXTLINE(readability-non-const-parameter): out is written through the writer */
fd_status fd_record_encode(const fd_round_record *record, uint8_t *out, size_t out_size, size_t *len)
{
    if (record == NULL || out == NULL || len == NULL) {
        return FD_ERR_NULL;
    }
    if (record->count > FD_SHOE_MAX_CARDS) {
        return FD_ERR_PARSE;
    }
    writer w = {out, out_size, 0, false};
    put_byte(&w, FD_RECORD_VERSION);
    const uint8_t id[4] = {(uint8_t)(record->round_id >> 24), (uint8_t)(record->round_id >> 16),
                           (uint8_t)(record->round_id >> 8), (uint8_t)record->round_id};
    put_tlv(&w, FD_RECORD_TAG_ROUND_ID, id, sizeof id);
    const uint8_t shoe[3] = {(uint8_t)record->kind, record->decks, record->jokers};
    put_tlv(&w, FD_RECORD_TAG_SHOE, shoe, sizeof shoe);
    put_tlv(&w, FD_RECORD_TAG_MODE, &record->mode, 1);
    put_tlv(&w, FD_RECORD_TAG_COMMITMENT, record->commitment, FD_COMMIT_SIZE);
    if (record->revealed) {
        put_tlv(&w, FD_RECORD_TAG_SALT, record->salt, FD_COMMIT_SALT_SIZE);
        put_byte(&w, FD_RECORD_TAG_ORDER);
        put_u16(&w, 2u * record->count);
        for (uint16_t i = 0; i < record->count; i++) {
            put_u16(&w, record->order[i]);
        }
    }
    put_byte(&w, FD_RECORD_TAG_DEALT);
    put_u16(&w, 2u);
    put_u16(&w, record->dealt);
    if (w.overflow) {
        return FD_ERR_BUFFER_TOO_SMALL; /* bytes past out_size were never written */
    }
    *len = w.len;
    return FD_OK;
}

static unsigned get_u16(const uint8_t *p) { return ((unsigned)p[0] << 8) | p[1]; }

/* The fixed length of a known tag's value; 0 for ORDER (checked apart). */
static size_t known_length(unsigned tag)
{
    switch (tag) {
    case FD_RECORD_TAG_ROUND_ID: return 4u;
    case FD_RECORD_TAG_SHOE: return 3u;
    case FD_RECORD_TAG_MODE: return 1u;
    case FD_RECORD_TAG_COMMITMENT: return FD_COMMIT_SIZE;
    case FD_RECORD_TAG_SALT: return FD_COMMIT_SALT_SIZE;
    case FD_RECORD_TAG_DEALT: return 2u;
    default: return 0u;
    }
}

static bool value_valid(unsigned tag, size_t vlen)
{
    if (tag >= 0x80u) {
        return true; /* optional extension: skipped */
    }
    if (tag == FD_RECORD_TAG_ORDER) {
        return vlen % 2u == 0u && vlen / 2u <= (size_t)FD_SHOE_MAX_CARDS;
    }
    const size_t want = known_length(tag);
    return want != 0u && vlen == want;
}

/* Pass 1: structure only. Returns the set of tags seen (bit = tag, < 0x80). */
static fd_status scan(const uint8_t *in, size_t len, uint32_t *seen)
{
    if (len < 1u || in[0] != FD_RECORD_VERSION) {
        return FD_ERR_PARSE;
    }
    size_t pos = 1;
    unsigned last = 0;
    *seen = 0;
    while (pos < len) {
        if (len - pos < 3u) {
            return FD_ERR_PARSE;
        }
        const unsigned tag = in[pos];
        const size_t vlen = get_u16(in + pos + 1u);
        if (tag <= last || len - pos - 3u < vlen || !value_valid(tag, vlen)) {
            return FD_ERR_PARSE;
        }
        if (tag < 32u) {
            *seen |= (uint32_t)1u << tag;
        }
        last = tag;
        pos += 3u + vlen;
    }
    const uint32_t required = (1u << FD_RECORD_TAG_ROUND_ID) | (1u << FD_RECORD_TAG_SHOE) | (1u << FD_RECORD_TAG_MODE) |
                              (1u << FD_RECORD_TAG_COMMITMENT) | (1u << FD_RECORD_TAG_DEALT);
    const uint32_t reveal = (1u << FD_RECORD_TAG_SALT) | (1u << FD_RECORD_TAG_ORDER);
    if ((*seen & required) != required || ((*seen & reveal) != 0u && (*seen & reveal) != reveal)) {
        return FD_ERR_PARSE;
    }
    return FD_OK;
}

fd_status fd_record_decode(const uint8_t *in, size_t len, fd_round_record *record)
{
    if (in == NULL || record == NULL) {
        return FD_ERR_NULL;
    }
    uint32_t seen;
    if (scan(in, len, &seen) != FD_OK) {
        return FD_ERR_PARSE;
    }
    memset(record, 0, sizeof *record);
    record->revealed = (seen & (1u << FD_RECORD_TAG_SALT)) != 0u;
    size_t pos = 1;
    while (pos < len) {
        const unsigned tag = in[pos];
        const size_t vlen = get_u16(in + pos + 1u);
        const uint8_t *v = in + pos + 3u;
        switch (tag) {
        case FD_RECORD_TAG_ROUND_ID:
            record->round_id = ((uint32_t)v[0] << 24) | ((uint32_t)v[1] << 16) | ((uint32_t)v[2] << 8) | v[3];
            break;
        case FD_RECORD_TAG_SHOE:
            record->kind = (fd_deck_kind)v[0];
            record->decks = v[1];
            record->jokers = v[2];
            break;
        case FD_RECORD_TAG_MODE: record->mode = v[0]; break;
        case FD_RECORD_TAG_COMMITMENT: memcpy(record->commitment, v, FD_COMMIT_SIZE); break;
        case FD_RECORD_TAG_SALT: memcpy(record->salt, v, FD_COMMIT_SALT_SIZE); break;
        case FD_RECORD_TAG_ORDER:
            record->count = (uint16_t)(vlen / 2u);
            for (size_t i = 0; i < vlen / 2u; i++) {
                record->order[i] = (fd_card)get_u16(v + 2u * i);
            }
            break;
        case FD_RECORD_TAG_DEALT: record->dealt = (uint16_t)get_u16(v); break;
        default: break; /* an optional extension this version does not know */
        }
        pos += 3u + vlen;
    }
    return FD_OK;
}

fd_status fd_record_verify(const fd_round_record *record)
{
    if (record == NULL) {
        return FD_ERR_NULL;
    }
    if (!record->revealed) {
        return FD_ERR_STATE;
    }
    if (fd_shoe_order_check(record->kind, record->decks, record->jokers, record->order, record->count) != FD_OK ||
        record->dealt > record->count) {
        return FD_ERR_CORRUPT;
    }
    uint8_t digest[FD_COMMIT_SIZE];
    if (fd_commit_compute(record->salt, record->order, record->count, record->kind, digest) != FD_OK ||
        memcmp(digest, record->commitment, sizeof digest) != 0) {
        return FD_ERR_CORRUPT;
    }
    return FD_OK;
}
