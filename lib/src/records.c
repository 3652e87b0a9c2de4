/* The dealer's journal records: the codec (the layouts of docs/RECORDS.md,
 * written down here and nowhere else) and compaction's keep policy. */
#include "fairdeal/records.h"

#include <string.h>

#include "fairdeal/commit.h"
#include "word.h"

/* ---- sizes pinned: a layout change must change docs/RECORDS.md too ---- */
_Static_assert(FD_REC_POWER_ON_SIZE == 8u, "POWER_ON");
_Static_assert(FD_REC_TIME_SET_SIZE == 12u, "TIME_SET");
_Static_assert(FD_REC_EVENT_SIZE == 8u, "FAULT, SELFTEST");
_Static_assert(FD_REC_ROUND_OPENED_BASE == 24u + FD_SHA256_SIZE, "ROUND_OPENED: the part seqs at 56");
_Static_assert(FD_REC_ROUND_OPENED_MAX == 153u, "ROUND_OPENED: the longest");
_Static_assert(FD_REC_REVEAL_SIZE == 12u + 2u * FD_SHA256_SIZE + 4u, "REVEAL: 76 u16 dealt, 78-79 zero");
_Static_assert(FD_REC_DEALT_BASE == 9u && FD_REC_DEALT_MAX <= FD_JOURNAL_MAX_PAYLOAD,
               "DEALT: 6 cards (u8), 7 players | seat0 << 4, 8 deck kind, 9 the cards");
_Static_assert(FD_REC_CUT_SIZE == 8u, "CUT");
_Static_assert(FD_REC_SEEDS_CLOSED_SIZE == 8u, "SEEDS_CLOSED");
_Static_assert(FD_REC_ROUND_SECRET_SIZE == 8u, "ROUND_SECRET");
_Static_assert(FD_REC_SEED_FILE_SIZE == 4u, "SEED_FILE");
_Static_assert(FD_REC_CLIENT_SEED_BASE == 8u, "CLIENT_SEED");
_Static_assert(FD_REC_DEALT_CARDS_MAX < 256u && FD_REC_DEALT_PLAYERS_MAX < 16u,
               "DEALT packs players and seat0 in 4 bits each");
_Static_assert(FD_REC_BEACON_INDEX_SIZE == 12u, "BEACON_INDEX: 0 slot, 1-3 zero, 4 index (u64)");
_Static_assert(FD_REC_SKIPPED_SIZE == 8u, "SKIPPED: 0 round id, 4 first (u16), 6 count (u16)");
_Static_assert(FD_REC_LINK_SESSION_SIZE == 8u, "LINK_SESSION: 0 limit (u64)");
_Static_assert(FD_REC_MAX_PARTS *FD_REC_SECRET_PART <= UINT16_MAX, "material length is a u16");

fd_status fd_rec_round_id(const uint8_t *payload, size_t len, uint32_t *round_id)
{
    if (payload == NULL || round_id == NULL || len < 4u) {
        return FD_ERR_PARSE;
    }
    *round_id = fd_load_le32(payload);
    return FD_OK;
}

fd_card fd_rec_material_card(const uint8_t *material, uint16_t i)
{
    return fd_load_le16(material + FD_COMMIT_SALT_SIZE + 2u * (size_t)i);
}

static fd_status sized(const uint8_t *b, size_t len, size_t want, const void *out)
{
    return b != NULL && out != NULL && len == want ? FD_OK : FD_ERR_PARSE;
}

size_t fd_rec_power_on_encode(const fd_rec_power_on *in, uint8_t out[FD_REC_POWER_ON_SIZE])
{
    memset(out, 0, FD_REC_POWER_ON_SIZE);
    out[0] = in->cause;
    fd_store_le32(out + 4, in->time);
    return FD_REC_POWER_ON_SIZE;
}

fd_status fd_rec_power_on_decode(const uint8_t *b, size_t len, fd_rec_power_on *out)
{
    if (sized(b, len, FD_REC_POWER_ON_SIZE, out) != FD_OK) {
        return FD_ERR_PARSE;
    }
    out->cause = b[0];
    out->time = fd_load_le32(b + 4);
    return FD_OK;
}

size_t fd_rec_time_set_encode(const fd_rec_time_set *in, uint8_t out[FD_REC_TIME_SET_SIZE])
{
    memset(out, 0, FD_REC_TIME_SET_SIZE);
    fd_store_le32(out, in->unix_s);
    return FD_REC_TIME_SET_SIZE;
}

fd_status fd_rec_time_set_decode(const uint8_t *b, size_t len, fd_rec_time_set *out)
{
    if (sized(b, len, FD_REC_TIME_SET_SIZE, out) != FD_OK || fd_load_le32(b) == 0u) {
        return FD_ERR_PARSE;
    }
    out->unix_s = fd_load_le32(b);
    return FD_OK;
}

size_t fd_rec_event_encode(const fd_rec_event *in, uint8_t out[FD_REC_EVENT_SIZE])
{
    fd_store_le16(out, in->status);
    fd_store_le16(out + 2, in->detail);
    fd_store_le32(out + 4, in->time);
    return FD_REC_EVENT_SIZE;
}

fd_status fd_rec_event_decode(const uint8_t *b, size_t len, fd_rec_event *out)
{
    if (sized(b, len, FD_REC_EVENT_SIZE, out) != FD_OK) {
        return FD_ERR_PARSE;
    }
    out->status = fd_load_le16(b);
    out->detail = fd_load_le16(b + 2);
    out->time = fd_load_le32(b + 4);
    return FD_OK;
}

size_t fd_rec_round_opened_encode(const fd_rec_round_opened *in, uint8_t out[FD_REC_ROUND_OPENED_MAX])
{
    memset(out, 0, FD_REC_ROUND_OPENED_BASE);
    fd_store_le32(out, in->round_id);
    out[4] = in->mode;
    out[5] = in->kind;
    out[6] = in->decks;
    out[7] = in->jokers;
    fd_store_le16(out + 8, in->count);
    fd_store_le16(out + 10, in->cut);
    out[12] = in->slot_mask;
    out[13] = in->device_id_len;
    fd_store_le16(out + 14, in->material_len);
    out[16] = in->parts;
    fd_store_le32(out + 20, in->time);
    memcpy(out + 24, in->commitment, FD_SHA256_SIZE);
    size_t n = FD_REC_ROUND_OPENED_BASE;
    for (unsigned i = 0; i < in->parts && i < FD_REC_MAX_PARTS; i++, n += 4u) {
        fd_store_le32(out + n, in->part_seq[i]);
    }
    const size_t d = in->device_id_len <= FD_ROUND_DEVICE_ID_MAX ? in->device_id_len : FD_ROUND_DEVICE_ID_MAX;
    memcpy(out + n, in->device_id, d);
    n += d;
    if (in->has_beacon) {
        out[n] = in->beacon_slot;
        fd_store_le32(out + n + 1u, (uint32_t)in->beacon_index);
        fd_store_le32(out + n + 5u, (uint32_t)(in->beacon_index >> 32));
        n += FD_REC_BEACON_SIZE;
    }
    return n;
}

fd_status fd_rec_round_opened_decode(const uint8_t *b, size_t len, fd_rec_round_opened *out)
{
    if (b == NULL || out == NULL || len < FD_REC_ROUND_OPENED_BASE) {
        return FD_ERR_PARSE;
    }
    const uint8_t parts = b[16];
    const uint8_t d = b[13];
    const size_t base = FD_REC_ROUND_OPENED_BASE + 4u * (size_t)parts + d;
    const uint16_t material_len = fd_load_le16(b + 14);
    const uint16_t count = fd_load_le16(b + 8);
    if (parts == 0u || parts > FD_REC_MAX_PARTS || d > FD_ROUND_DEVICE_ID_MAX ||
        (len != base && len != base + FD_REC_BEACON_SIZE) || b[4] > FD_RECORD_MODE_ROUND || count == 0u ||
        count > FD_SHOE_MAX_CARDS || fd_load_le16(b + 10) > count || material_len == 0u ||
        (material_len + FD_REC_SECRET_PART - 1u) / FD_REC_SECRET_PART != parts) {
        return FD_ERR_PARSE;
    }
    memset(out, 0, sizeof *out);
    out->round_id = fd_load_le32(b);
    out->mode = b[4];
    out->kind = b[5];
    out->decks = b[6];
    out->jokers = b[7];
    out->count = count;
    out->cut = fd_load_le16(b + 10);
    out->slot_mask = b[12];
    out->device_id_len = d;
    out->material_len = material_len;
    out->parts = parts;
    out->time = fd_load_le32(b + 20);
    memcpy(out->commitment, b + 24, FD_SHA256_SIZE);
    for (unsigned i = 0; i < parts; i++) {
        out->part_seq[i] = fd_load_le32(b + FD_REC_ROUND_OPENED_BASE + (size_t)4u * i);
    }
    memcpy(out->device_id, b + FD_REC_ROUND_OPENED_BASE + 4u * (size_t)parts, d);
    out->has_beacon = len == base + FD_REC_BEACON_SIZE;
    out->beacon_slot = out->has_beacon ? b[base] : FD_ROUND_NO_BEACON;
    out->beacon_index =
        out->has_beacon ? fd_load_le32(b + base + 1u) | ((uint64_t)fd_load_le32(b + base + 5u) << 32) : 0u;
    return FD_OK;
}

size_t fd_rec_round_secret_encode(const fd_rec_round_secret *in, uint8_t out[FD_REC_ROUND_SECRET_SIZE])
{
    fd_store_le32(out, in->round_id);
    out[4] = in->part;
    out[5] = in->parts;
    out[6] = in->mode;
    out[7] = 0;
    return FD_REC_ROUND_SECRET_SIZE;
}

fd_status fd_rec_round_secret_decode(const uint8_t *b, size_t len, fd_rec_round_secret *out)
{
    if (sized(b, len, FD_REC_ROUND_SECRET_SIZE, out) != FD_OK || b[5] == 0u || b[5] > FD_REC_MAX_PARTS ||
        b[4] >= b[5] || b[6] > FD_RECORD_MODE_ROUND) {
        return FD_ERR_PARSE;
    }
    out->round_id = fd_load_le32(b);
    out->part = b[4];
    out->parts = b[5];
    out->mode = b[6];
    return FD_OK;
}

size_t fd_rec_client_seed_encode(const fd_rec_client_seed *in, uint8_t out[FD_REC_CLIENT_SEED_MAX])
{
    const size_t n = in->len <= FD_ROUND_SEED_MAX ? in->len : FD_ROUND_SEED_MAX;
    fd_store_le32(out, in->round_id);
    out[4] = in->slot;
    out[5] = (uint8_t)n;
    out[6] = 0;
    out[7] = 0;
    memcpy(out + FD_REC_CLIENT_SEED_BASE, in->seed, n);
    return FD_REC_CLIENT_SEED_BASE + n;
}

fd_status fd_rec_client_seed_decode(const uint8_t *b, size_t len, fd_rec_client_seed *out)
{
    if (b == NULL || out == NULL || len < FD_REC_CLIENT_SEED_BASE || b[4] >= FD_ROUND_SLOTS || b[5] == 0u ||
        b[5] > FD_ROUND_SEED_MAX || len != FD_REC_CLIENT_SEED_BASE + (size_t)b[5]) {
        return FD_ERR_PARSE;
    }
    out->round_id = fd_load_le32(b);
    out->slot = b[4];
    out->len = b[5];
    memcpy(out->seed, b + FD_REC_CLIENT_SEED_BASE, b[5]);
    return FD_OK;
}

size_t fd_rec_seeds_closed_encode(const fd_rec_seeds_closed *in, uint8_t out[FD_REC_SEEDS_CLOSED_SIZE])
{
    memset(out, 0, FD_REC_SEEDS_CLOSED_SIZE);
    fd_store_le32(out, in->round_id);
    return FD_REC_SEEDS_CLOSED_SIZE;
}

fd_status fd_rec_seeds_closed_decode(const uint8_t *b, size_t len, fd_rec_seeds_closed *out)
{
    if (sized(b, len, FD_REC_SEEDS_CLOSED_SIZE, out) != FD_OK) {
        return FD_ERR_PARSE;
    }
    out->round_id = fd_load_le32(b);
    return FD_OK;
}

size_t fd_rec_reveal_encode(const fd_rec_reveal *in, uint8_t out[FD_REC_REVEAL_SIZE])
{
    memset(out, 0, FD_REC_REVEAL_SIZE);
    fd_store_le32(out, in->round_id);
    out[4] = in->mode;
    fd_store_le16(out + 6, in->material_len);
    fd_store_le32(out + 8, in->time);
    memcpy(out + 12, in->commitment, FD_SHA256_SIZE);
    memcpy(out + 44, in->material_hash, FD_SHA256_SIZE);
    fd_store_le16(out + 76, in->dealt);
    return FD_REC_REVEAL_SIZE;
}

fd_status fd_rec_reveal_decode(const uint8_t *b, size_t len, fd_rec_reveal *out)
{
    if (sized(b, len, FD_REC_REVEAL_SIZE, out) != FD_OK || b[4] > FD_RECORD_MODE_ROUND ||
        fd_load_le16(b + 76) > FD_SHOE_MAX_CARDS) {
        return FD_ERR_PARSE;
    }
    out->round_id = fd_load_le32(b);
    out->mode = b[4];
    out->material_len = fd_load_le16(b + 6);
    out->time = fd_load_le32(b + 8);
    memcpy(out->commitment, b + 12, FD_SHA256_SIZE);
    memcpy(out->material_hash, b + 44, FD_SHA256_SIZE);
    out->dealt = fd_load_le16(b + 76);
    return FD_OK;
}

size_t fd_rec_seed_file_encode(const fd_rec_seed_file *in, uint8_t out[FD_REC_SEED_FILE_SIZE])
{
    memset(out, 0, FD_REC_SEED_FILE_SIZE);
    out[0] = in->len;
    return FD_REC_SEED_FILE_SIZE;
}

fd_status fd_rec_seed_file_decode(const uint8_t *b, size_t len, fd_rec_seed_file *out)
{
    if (sized(b, len, FD_REC_SEED_FILE_SIZE, out) != FD_OK || b[0] == 0u || b[0] > FD_JOURNAL_MAX_SECRET) {
        return FD_ERR_PARSE;
    }
    out->len = b[0];
    return FD_OK;
}

size_t fd_rec_dealt_encode(const fd_rec_dealt *in, uint8_t out[FD_REC_DEALT_MAX])
{
    unsigned n = in->cards;
    if (n > FD_REC_DEALT_CARDS_MAX) {
        n = FD_REC_DEALT_CARDS_MAX;
    }
    fd_store_le32(out, in->round_id);
    fd_store_le16(out + 4, in->first);
    out[6] = (uint8_t)n;
    out[7] = (uint8_t)((in->players & 0x0Fu) | ((in->seat0 & 0x0Fu) << 4));
    out[8] = in->kind;
    for (unsigned i = 0; i < n; i++) {
        fd_store_le16(out + FD_REC_DEALT_BASE + (size_t)2u * i, in->card[i]);
    }
    return FD_REC_DEALT_BASE + 2u * (size_t)n;
}

fd_status fd_rec_dealt_decode(const uint8_t *b, size_t len, fd_rec_dealt *out)
{
    if (b == NULL || out == NULL || len < FD_REC_DEALT_BASE) {
        return FD_ERR_PARSE;
    }
    const uint16_t first = fd_load_le16(b + 4);
    const uint8_t n = b[6];
    const uint8_t players = b[7] & 0x0Fu;
    const uint8_t seat0 = (uint8_t)(b[7] >> 4);
    if (n == 0u || n > FD_REC_DEALT_CARDS_MAX || len != FD_REC_DEALT_BASE + 2u * (size_t)n ||
        (uint32_t)first + n > FD_SHOE_MAX_CARDS || (players == 0u && (n != 1u || seat0 != 0u)) ||
        (players != 0u && seat0 >= players)) {
        return FD_ERR_PARSE;
    }
    out->round_id = fd_load_le32(b);
    out->first = first;
    out->cards = n;
    out->players = players;
    out->seat0 = seat0;
    out->kind = b[8];
    for (unsigned i = 0; i < n; i++) {
        out->card[i] = fd_load_le16(b + FD_REC_DEALT_BASE + (size_t)2u * i);
    }
    return FD_OK;
}

size_t fd_rec_cut_encode(const fd_rec_cut *in, uint8_t out[FD_REC_CUT_SIZE])
{
    memset(out, 0, FD_REC_CUT_SIZE);
    fd_store_le32(out, in->round_id);
    fd_store_le16(out + 4, in->cut);
    return FD_REC_CUT_SIZE;
}

fd_status fd_rec_cut_decode(const uint8_t *b, size_t len, fd_rec_cut *out)
{
    if (sized(b, len, FD_REC_CUT_SIZE, out) != FD_OK || fd_load_le16(b + 4) > FD_SHOE_MAX_CARDS) {
        return FD_ERR_PARSE;
    }
    out->round_id = fd_load_le32(b);
    out->cut = fd_load_le16(b + 4);
    return FD_OK;
}

size_t fd_rec_beacon_index_encode(const fd_rec_beacon_index *in, uint8_t out[FD_REC_BEACON_INDEX_SIZE])
{
    memset(out, 0, FD_REC_BEACON_INDEX_SIZE);
    out[0] = in->slot;
    fd_store_le32(out + 4, (uint32_t)in->index);
    fd_store_le32(out + 8, (uint32_t)(in->index >> 32));
    return FD_REC_BEACON_INDEX_SIZE;
}

fd_status fd_rec_beacon_index_decode(const uint8_t *b, size_t len, fd_rec_beacon_index *out)
{
    if (sized(b, len, FD_REC_BEACON_INDEX_SIZE, out) != FD_OK || b[0] >= FD_ROUND_SLOTS) {
        return FD_ERR_PARSE;
    }
    out->slot = b[0];
    out->index = fd_load_le32(b + 4) | ((uint64_t)fd_load_le32(b + 8) << 32);
    return FD_OK;
}

size_t fd_rec_link_session_encode(const fd_rec_link_session *in, uint8_t out[FD_REC_LINK_SESSION_SIZE])
{
    fd_store_le32(out, (uint32_t)in->limit);
    fd_store_le32(out + 4, (uint32_t)(in->limit >> 32));
    return FD_REC_LINK_SESSION_SIZE;
}

fd_status fd_rec_link_session_decode(const uint8_t *b, size_t len, fd_rec_link_session *out)
{
    if (sized(b, len, FD_REC_LINK_SESSION_SIZE, out) != FD_OK) {
        return FD_ERR_PARSE;
    }
    out->limit = fd_load_le32(b) | ((uint64_t)fd_load_le32(b + 4) << 32);
    return FD_OK;
}

size_t fd_rec_skipped_encode(const fd_rec_skipped *in, uint8_t out[FD_REC_SKIPPED_SIZE])
{
    fd_store_le32(out, in->round_id);
    fd_store_le16(out + 4, in->first);
    fd_store_le16(out + 6, in->count);
    return FD_REC_SKIPPED_SIZE;
}

fd_status fd_rec_skipped_decode(const uint8_t *b, size_t len, fd_rec_skipped *out)
{
    if (sized(b, len, FD_REC_SKIPPED_SIZE, out) != FD_OK) {
        return FD_ERR_PARSE;
    }
    const uint16_t first = fd_load_le16(b + 4);
    const uint16_t count = fd_load_le16(b + 6);
    if (count == 0u || (uint32_t)first + count > FD_SHOE_MAX_CARDS) {
        return FD_ERR_PARSE;
    }
    out->round_id = fd_load_le32(b);
    out->first = first;
    out->count = count;
    return FD_OK;
}

/* ---- compaction's keep policy ---- */

bool fd_rec_event_kind_of(uint8_t type, fd_rec_event_kind *kind)
{
    switch (type) {
    case FD_REC_POWER_ON: *kind = FD_REC_KIND_POWER_ON; return true;
    case FD_REC_TIME_SET: *kind = FD_REC_KIND_TIME_SET; return true;
    case FD_REC_FAULT: *kind = FD_REC_KIND_FAULT; return true;
    case FD_REC_SELFTEST: *kind = FD_REC_KIND_SELFTEST; return true;
    default: return false;
    }
}

bool fd_rec_hand_type(uint8_t type)
{
    switch (type) {
    case FD_REC_ROUND_OPENED:
    case FD_REC_ROUND_SECRET:
    case FD_REC_CLIENT_SEED:
    case FD_REC_SEEDS_CLOSED:
    case FD_REC_CARDS_DEALT:
    case FD_REC_DEALT:
    case FD_REC_CUT:
    case FD_REC_SKIPPED:
    case FD_REC_ROUND_CLOSED: return true;
    default: return false;
    }
}

bool fd_records_keep(void *policy, const fd_journal_record *record)
{
    const fd_records_policy *p = policy;
    uint32_t round = 0;
    if (p == NULL || record == NULL || fd_rec_round_id(record->payload, record->len, &round) != FD_OK) {
        return false;
    }
    uint32_t age = p->newest_round >= round ? p->newest_round - round : 0u;
    if (record->type == FD_REC_REVEAL) {
        return age < p->summaries;
    }
    if (record->type == FD_REC_ROUND_SECRET) {
        return age < p->hands && record->secret_state != FD_JOURNAL_SECRET_WIPED;
    }
    if (record->type == FD_REC_ROUND_OPENED) {
        return age < p->hands || record->secret_state == FD_JOURNAL_SECRET_AVAILABLE;
    }
    return fd_rec_hand_type(record->type) && age < p->hands;
}

bool fd_records_keep_rules(void *rules, const fd_journal_record *record)
{
    fd_records_rules *r = rules;
    if (r == NULL || record == NULL) {
        return false;
    }
    fd_rec_event_kind kind = FD_REC_KIND_POWER_ON;
    if (fd_rec_event_kind_of(record->type, &kind)) {
        return r->event_floor[kind] != 0u && record->orig_seq >= r->event_floor[kind];
    }
    if (record->type == FD_REC_SEED_FILE) {
        return r->seed_file_seq != 0u && record->orig_seq == r->seed_file_seq &&
               record->secret_state == FD_JOURNAL_SECRET_AVAILABLE;
    }
    if (record->type == FD_REC_BEACON_INDEX) {
        fd_rec_beacon_index bi;
        return fd_rec_beacon_index_decode(record->payload, record->len, &bi) == FD_OK && r->beacon_seq[bi.slot] != 0u &&
               record->orig_seq == r->beacon_seq[bi.slot];
    }
    if (record->type == FD_REC_LINK_SESSION) {
        return r->link_seq != 0u && record->orig_seq == r->link_seq;
    }
    return fd_records_keep(&r->rounds, record);
}
