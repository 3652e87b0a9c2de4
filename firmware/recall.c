/* A transport: the dealer's contents are not visible here (dealer.h). */
#define FD_DEALER_OPAQUE
#include "recall.h"

#include <string.h>

#include "fairdeal/records.h"

/* RECALL's walk. Records come in chain order, where compaction has moved a
 * hand's older records after newer ones: a hand can show as several
 * groups with the same id (docs/PROTOCOL.md); every record prints alone. */
typedef struct recall {
    const fd_writer *w;
    uint32_t from;  /* first round id shown */
    uint32_t group; /* id of the group being written; 0: none yet */
    uint32_t open;  /* rounds from this id on are not revealed: their S is never shown */
} recall;

static const char *mode_name(uint8_t mode)
{
    return mode == FD_RECORD_MODE_ROUND ? "round" : mode == FD_RECORD_MODE_FULL ? "full" : "drbg";
}

static void recall_opened(const fd_writer *w, const fd_rec_round_opened *o)
{
    fd_put_field(w, " mode=", mode_name(o->mode));
    fd_put_field(w, " shoe=", fd_deck_kind_name((fd_deck_kind)o->kind));
    fd_put_field_u32(w, ":", o->decks);
    fd_put_field_u32(w, ":", o->jokers);
    fd_put(w, " commitment=");
    fd_put_hex(w, o->commitment, FD_SHA256_SIZE);
    fd_put_field_u32(w, " parts=", o->parts);
    fd_put(w, " device=");
    fd_put_hex(w, o->device_id, o->device_id_len);
    fd_put(w, " slots=");
    fd_put_hex(w, &o->slot_mask, 1);
    if (o->has_beacon && o->beacon_slot != FD_ROUND_NO_BEACON) {
        fd_put_beacon(w, o->beacon_slot, o->beacon_index);
    }
}

/* " cards@P=SEAT:CARD,..." (a burn: "burn:CARD") */
static void recall_dealt(const fd_writer *w, const fd_rec_dealt *t)
{
    fd_put_field_u32(w, " cards@", t->first);
    fd_put(w, "=");
    for (uint32_t i = 0; i < t->cards; i++) {
        char code[FD_CARD_CODE_SIZE];
        if (i > 0u) {
            fd_put(w, ",");
        }
        if (t->players == 0u) {
            fd_put(w, "burn:");
        } else {
            fd_put_u32(w, (t->seat0 + i) % t->players + 1u);
            fd_put(w, ":");
        }
        const fd_status st = fd_card_format(t->card[i], (fd_deck_kind)t->kind, code);
        fd_put(w, st == FD_OK ? code : "?");
    }
}

static fd_status recall_visit(void *ctx, const fd_journal_record *rec)
{
    recall *c = ctx;
    static union {
        fd_rec_round_opened opened;
        fd_rec_round_secret secret;
        fd_rec_client_seed seed;
        fd_rec_dealt dealt;
        fd_rec_reveal reveal;
        fd_rec_skipped skipped;
    } u; /* off the micro:bit's stack */
    uint32_t id = 0;
    bool ok = fd_rec_round_id(rec->payload, rec->len, &id) == FD_OK && id >= c->from;
    switch (rec->type) {
    case FD_REC_ROUND_OPENED: ok = ok && fd_rec_round_opened_decode(rec->payload, rec->len, &u.opened) == FD_OK; break;
    case FD_REC_CLIENT_SEED: ok = ok && fd_rec_client_seed_decode(rec->payload, rec->len, &u.seed) == FD_OK; break;
    case FD_REC_DEALT: ok = ok && fd_rec_dealt_decode(rec->payload, rec->len, &u.dealt) == FD_OK; break;
    case FD_REC_REVEAL: ok = ok && fd_rec_reveal_decode(rec->payload, rec->len, &u.reveal) == FD_OK; break;
    case FD_REC_SKIPPED: ok = ok && fd_rec_skipped_decode(rec->payload, rec->len, &u.skipped) == FD_OK; break;
    case FD_REC_ROUND_SECRET:
        /* S of an unrevealed round is never shown */
        ok = ok && id < c->open && rec->secret_state == FD_JOURNAL_SECRET_AVAILABLE &&
             fd_rec_round_secret_decode(rec->payload, rec->len, &u.secret) == FD_OK;
        break;
    default: ok = false; break;
    }
    if (!ok) {
        return FD_OK;
    }
    if (id != c->group) {
        c->group = id;
        fd_put_field_u32(c->w, " | id=", id);
    }
    switch (rec->type) {
    case FD_REC_ROUND_OPENED: recall_opened(c->w, &u.opened); break;
    case FD_REC_CLIENT_SEED:
        fd_put_field_u32(c->w, " seed=", u.seed.slot);
        fd_put(c->w, ":");
        fd_put_hex(c->w, u.seed.seed, u.seed.len);
        break;
    case FD_REC_DEALT: recall_dealt(c->w, &u.dealt); break;
    case FD_REC_SKIPPED: /* one record: one range */
        fd_put(c->w, " skipped=");
        fd_put_positions(c->w, u.skipped.first, u.skipped.count);
        break;
    case FD_REC_ROUND_SECRET: /* part i of the revealed material: S, or salt and order */
        fd_put_field_u32(c->w, " reveal", u.secret.part);
        fd_put(c->w, "=");
        fd_put_hex(c->w, rec->secret, rec->secret_len);
        break;
    default: /* FD_REC_REVEAL: the summary, kept longest */
        fd_put(c->w, " revealed=");
        fd_put_hex(c->w, u.reveal.commitment, FD_SHA256_SIZE);
        fd_put(c->w, " reveal_hash=");
        fd_put_hex(c->w, u.reveal.material_hash, FD_SHA256_SIZE);
        break;
    }
    return FD_OK;
}

void fd_recall_skipped_write(const fd_writer *w, const fd_dealer *d)
{
    uint16_t first = 0;
    uint16_t count = 0;
    for (uint32_t i = 0; fd_dealer_skipped(d, i, &first, &count); i++) {
        fd_put(w, i == 0u ? " skipped=" : ",");
        fd_put_positions(w, first, count);
    }
}

fd_status fd_recall_write(const fd_writer *w, fd_dealer *d, uint32_t from)
{
    const uint32_t newest = fd_dealer_get_round(d)->id;
    recall c = {w, from, 0, fd_dealer_round_open(d) ? newest : newest + 1u};
    return fd_dealer_journal_walk(d, recall_visit, &c);
}

typedef struct log_walk {
    const fd_writer *w;
    uint32_t floor;  /* first event seq shown */
    uint32_t unix_s; /* the last TIME of the power-on being walked */
} log_walk;

static const char *const reset_causes[] = {"unknown", "power-on", "pin", "watchdog", "software", "brown-out", "lockup"};

/* One FAULT or SELFTEST line. */
static void log_event(const log_walk *c, const fd_journal_record *rec, const fd_rec_event *e)
{
    fd_put_field_u32(c->w, " | seq=", rec->orig_seq);
    fd_put(c->w, rec->type == FD_REC_FAULT ? " fault status=" : " selftest result=");
    fd_put(c->w, e->status == 0u ? "ok" : fd_status_name((fd_status)e->status));
    if (rec->type == FD_REC_FAULT) {
        fd_put_field_u32(c->w, " detail=", e->detail);
    }
}

static fd_status log_visit(void *ctx, const fd_journal_record *rec)
{
    log_walk *c = ctx;
    fd_rec_power_on on;
    fd_rec_time_set t;
    fd_rec_event e;
    uint32_t time = 0;
    if (rec->type == FD_REC_POWER_ON && fd_rec_power_on_decode(rec->payload, rec->len, &on) == FD_OK) {
        c->unix_s = 0; /* a TIME holds for the power-on it was sent in */
        if (rec->orig_seq >= c->floor) {
            fd_put_field_u32(c->w, " | seq=", rec->orig_seq);
            fd_put_field(c->w, " power-on cause=", on.cause < 7u ? reset_causes[on.cause] : "?");
        }
        time = on.time;
    } else if (rec->type == FD_REC_TIME_SET && fd_rec_time_set_decode(rec->payload, rec->len, &t) == FD_OK) {
        c->unix_s = t.unix_s;
        if (rec->orig_seq >= c->floor) {
            fd_put_field_u32(c->w, " | seq=", rec->orig_seq);
            fd_put_field_u32(c->w, " time-set unix=", t.unix_s);
        }
        return FD_OK;
    } else if ((rec->type == FD_REC_FAULT || rec->type == FD_REC_SELFTEST) &&
               fd_rec_event_decode(rec->payload, rec->len, &e) == FD_OK) {
        if (rec->orig_seq >= c->floor) {
            log_event(c, rec, &e);
        }
        time = e.time;
    } else {
        return FD_OK;
    }
    /* events carry the last TIME sent since power-on: the event is not older */
    if (rec->orig_seq >= c->floor && time != 0u) {
        fd_put_field_u32(c->w, " time>=", time);
    }
    return FD_OK;
}

fd_status fd_recall_log_write(const fd_writer *w, fd_dealer *d, uint32_t n)
{
    /* from the n-th newest event's seq on */
    log_walk c = {w, fd_dealer_event_floor(d, n), 0};
    return c.floor == 0u ? FD_OK : fd_dealer_journal_walk(d, log_visit, &c);
}
