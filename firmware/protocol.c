/* A transport: the dealer's contents are not visible here (dealer.h). */
#define FD_DEALER_OPAQUE
#include "protocol.h"

#include <string.h>

#include "fairdeal/util.h"
#include "program_verify.h"
#include "recall.h"
#include "update.h"

/* ---- output (reply.h) ---- */

static void put_card(const fd_writer *w, const fd_dealer *d, uint16_t position)
{
    char code[FD_CARD_CODE_SIZE];
    /* cannot fail: every card of a checked shoe formats into FD_CARD_CODE_SIZE */
    (void)fd_card_format(fd_dealer_card_at(d, position), fd_dealer_get_shoe(d)->kind, code);
    fd_put(w, code);
}

static void reply_err(const fd_writer *w, const char *code, const char *message)
{
    fd_put(w, "ERR ");
    fd_put(w, code);
    fd_put(w, " ");
    fd_put(w, message);
    fd_put(w, "\r\n");
}

static const char *fault_reason(const fd_dealer *d)
{
    if (fd_dealer_get_config(d)->release && fd_dealer_seed_file_state(d) == FD_SEED_FILE_UNSAVED) {
        return "seed file not saved or unreadable (release builds fail closed)";
    }
    switch (fd_dealer_fault_status(d)) {
    case FD_ERR_HEALTH:
        return fd_dealer_fault_health(d) == FD_HEALTH_RCT   ? "health test failed (repetition count)"
               : fd_dealer_fault_health(d) == FD_HEALTH_LAG ? "health test failed (repeating pattern)"
                                                            : "health test failed (adaptive proportion)";
    case FD_ERR_TRNG_HW: return "TRNG hardware error";
    case FD_ERR_TRNG_TIMEOUT: return "TRNG timeout";
    case FD_ERR_KAT: return "known-answer self-test failed";
    case FD_ERR_NOT_READY: return "start-up tests not passed";
    case FD_ERR_CORRUPT: return "memory integrity check failed";
    default: return fd_status_name(fd_dealer_fault_status(d));
    }
}

/* The journal's failure in words: the mount's finding or the write's status. */
static void put_journal_problem(const fd_dealer *d, const fd_writer *w)
{
    const fd_journal_report *report = fd_dealer_journal_report(d);
    fd_put(w, fd_status_name(fd_dealer_journal_status(d)));
    if (report->status != FD_OK && report->reason != NULL) {
        fd_put(w, " (");
        fd_put(w, report->reason);
        fd_put_field_u32(w, " at seq ", report->seq);
        fd_put_field_u32(w, " page ", report->page);
        fd_put(w, ")");
    }
}

/* ERR journal: nothing was carried out because it could not be journalled. */
static void reply_journal(const fd_dealer *d, const fd_writer *w)
{
    fd_put(w, "ERR journal ");
    put_journal_problem(d, w);
    fd_put(w, ": not carried out (nothing shown that is not journalled); restart the dealer\r\n");
}

/* " seq=<next seq> head=<chain head>": what a verifier compares with the
 * stored journal, so a dropped tail shows. */
static void put_chain(const fd_writer *w, const fd_dealer *d)
{
    if (!fd_dealer_journal_attached(d)) {
        return; /* a dealer without storage (library tests) */
    }
    uint8_t head[FD_SHA256_SIZE];
    uint32_t seq = 0;
    if (fd_dealer_journal_head(d, head, &seq) == FD_OK) {
        fd_put_field_u32(w, " seq=", seq);
        fd_put(w, " head=");
        fd_put_hex(w, head, sizeof head);
    } else {
        fd_put(w, " seq=none");
    }
}

/* " power_on_seq=<n>": the journal's next seq as this power-on found it
 * (docs/RECORDS.md "Detecting a rollback"). */
static void put_power_on_seq(const fd_writer *w, const fd_dealer *d)
{
    if (fd_dealer_journal_attached(d) && fd_dealer_power_on_seq(d) != 0u) {
        fd_put_field_u32(w, " power_on_seq=", fd_dealer_power_on_seq(d));
    }
}

/* ERR entropy (or ERR corrupt) with what to do next. */
static void reply_fault(const fd_dealer *d, const fd_writer *w)
{
    fd_put(w, fd_dealer_fault_status(d) == FD_ERR_CORRUPT ? "ERR corrupt " : "ERR entropy ");
    fd_put(w, fault_reason(d));
    fd_put(w, fd_dealer_round_open(d) ? "; REVEAL, then SELFTEST required\r\n" : "; SELFTEST required\r\n");
}

/* The reply to a refused or failed command: the table's reason for a
 * refusal (a refusal changes nothing, so the state is still the one the
 * command found), the fault otherwise. */
static void reply_status(const fd_dealer *d, fd_dealer_cmd cmd, fd_status st, const fd_writer *w)
{
    if (st == FD_ERR_NOT_READY && fd_dealer_journal_status(d) != FD_OK) {
        reply_journal(d, w);
    } else if (st == FD_ERR_BUFFER_TOO_SMALL && cmd == FD_CMD_SHUFFLE) {
        reply_err(w, "journal",
                  "this round at its largest does not fit the journal's free room: nothing committed; a smaller "
                  "shoe or fewer slots");
    } else if (st == FD_ERR_BUFFER_TOO_SMALL && cmd == FD_CMD_CUT) {
        reply_err(w, "journal", "this round's cut has moved as often as its journal reservation holds: it stays");
    } else if (st == FD_ERR_BUFFER_TOO_SMALL) {
        reply_err(w, "journal",
                  "this round was cut short by power loss as often as its journal reservation holds: REVEAL it");
    } else if (st == FD_ERR_STATE) {
        reply_err(w, "state", fd_dealer_refusal(d, cmd));
    } else if (st == FD_ERR_KAT) {
        reply_err(w, "selftest", "known-answer test failed; dealing disabled");
    } else {
        reply_fault(d, w);
    }
}

static const char *drbg_name(fd_drbg_kind kind) { return kind == FD_DRBG_HMAC_SHA256 ? "hmac-sha256" : "chacha20"; }

/* ---- parsing ---- */

#define MAX_TOKENS 5u

typedef struct token {
    const char *text;
    size_t len;
} token;

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static size_t tokenize(const char *line, size_t len, token *tokens)
{
    size_t count = 0;
    size_t i = 0;
    for (;;) {
        while (i < len && is_blank(line[i])) {
            i++;
        }
        if (i >= len) {
            return count;
        }
        if (count == MAX_TOKENS) {
            return MAX_TOKENS + 1u; /* too many */
        }
        const size_t start = i;
        while (i < len && !is_blank(line[i])) {
            i++;
        }
        tokens[count].text = line + start;
        tokens[count].len = i - start;
        count++;
    }
}

/* ASCII case change of one letter; other characters unchanged. */
static char shift_case(char c, char from_first, char to_first)
{
    if (c >= from_first && c <= (char)(from_first + 25)) {
        return (char)(to_first + (c - from_first));
    }
    return c;
}

static char upper(char c) { return shift_case(c, 'a', 'A'); }

static bool token_is(const token *t, const char *word)
{
    const size_t n = strlen(word);
    if (t->len != n) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (upper(t->text[i]) != upper(word[i])) {
            return false;
        }
    }
    return true;
}

/* Decimal, 1 to max_digits digits, no sign, at most 2^64 - 1. */
static bool parse_decimal64(const token *t, size_t max_digits, uint64_t *value)
{
    if (t->len == 0u || t->len > max_digits) {
        return false;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < t->len; i++) {
        if (t->text[i] < '0' || t->text[i] > '9') {
            return false;
        }
        const uint64_t digit = (uint64_t)(t->text[i] - '0');
        if (v > (UINT64_MAX - digit) / 10u) {
            return false;
        }
        v = v * 10u + digit;
    }
    *value = v;
    return true;
}

/* Decimal, 1 to max_digits digits (at most 10), no sign, at most 2^32 - 1. */
static bool parse_decimal(const token *t, size_t max_digits, uint32_t *value)
{
    uint64_t v = 0;
    if (max_digits > 10u || !parse_decimal64(t, max_digits, &v) || v > 0xFFFFFFFFu) {
        return false;
    }
    *value = (uint32_t)v;
    return true;
}

/* Decimal, 1 to 5 digits, no sign. */
static bool parse_number(const token *t, uint32_t *value) { return parse_decimal(t, 5, value); }

/* ---- commands: parse, call the core, format the result ---- */

struct command;

/* One command line being run. */
typedef struct request {
    fd_dealer *d;
    const token *t;
    size_t n; /* tokens, the command word included */
    const fd_writer *w;
    fd_console *console;       /* MODE changes the console, not the dealer */
    const struct command *row; /* the command's row of commands[] */
} request;

/* A row of the command table (commands[], below). */
typedef struct command {
    const char *word;
    void (*run)(const request *r);
    const char *help;  /* the usage HELP shows; NULL: not listed */
    fd_dealer_cmd cmd; /* its row of dealer.c's transition table: the states it runs in (FD_CMD_ANY: all) */
    fd_console_journal journal;
    bool no_session; /* allowed without an authenticated link session (docs/LINK.md) */
} command;

/* A command without arguments: false, and the usage reply, when it has some. */
static bool no_arguments(const request *r, const char *usage)
{
    if (r->n != 1u) {
        reply_err(r->w, "syntax", usage);
        return false;
    }
    return true;
}

/* The core's answer: true on success, else its reply has been written. */
static bool core_ok(const request *r, fd_status st);

/* Whether the command may run now, by its row and dealer.c's transition
 * table row cmd (a command with parts names the part's row); else its
 * refusal has been replied. For a command that must know before it
 * replies: the core's calls check the same table themselves. */
static bool admitted(const request *r, fd_dealer_cmd cmd);

static void cmd_help(const request *r);

static bool parse_deck(const token *t, fd_deck_kind *kind)
{
    char lower[12];
    if (t->len >= sizeof lower) {
        return false;
    }
    for (size_t i = 0; i < t->len; i++) {
        lower[i] = shift_case(t->text[i], 'A', 'a');
    }
    return fd_deck_parse_kind(lower, t->len, kind) == FD_OK;
}

static void cmd_new(const request *r)
{
    const fd_writer *w = r->w;
    fd_deck_kind kind;
    uint32_t decks = 1;
    uint32_t jokers = 0;
    if (r->n < 2u || r->n > 4u) {
        reply_err(w, "syntax", "usage: NEW <french|spanish40|spanish48> [decks] [jokers]");
    } else if (!parse_deck(&r->t[1], &kind)) {
        reply_err(w, "syntax", "unknown deck: use french, spanish40 or spanish48");
    } else if ((r->n >= 3u && !parse_number(&r->t[2], &decks)) || (r->n == 4u && !parse_number(&r->t[3], &jokers))) {
        reply_err(w, "syntax", "decks and jokers are decimal numbers");
    } else if (decks < 1u || decks > FD_SHOE_MAX_DECKS) {
        reply_err(w, "range", "decks must be 1 to 8");
    } else if (jokers > (kind == FD_DECK_FRENCH ? 2u : 0u)) {
        reply_err(w, "range", "jokers must be 0 to 2 (French decks only)");
    } else if (core_ok(r, fd_dealer_new(r->d, kind, decks, jokers))) {
        fd_put_field(w, "OK NEW deck=", fd_deck_kind_name(kind));
        fd_put_field_u32(w, " decks=", decks);
        fd_put_field_u32(w, " jokers=", jokers);
        fd_put_field_u32(w, " cards=", fd_dealer_get_shoe(r->d)->count);
        fd_put(w, "\r\n");
    }
}

/* The verifiable round's header fields, as docs/VERIFY.md's round lines
 * spell them. */
static void put_round_header(const fd_writer *w, const fd_dealer *d)
{
    const fd_round_header *h = &fd_dealer_get_round(d)->header;
    fd_put(w, " device=");
    fd_put_hex(w, h->device_id, h->device_id_len);
    fd_put_field_u32(w, " id=", h->round_id);
    fd_put_field(w, " shoe=", fd_deck_kind_name(h->kind));
    fd_put_field_u32(w, ":", h->decks);
    fd_put_field_u32(w, ":", h->jokers);
    fd_put(w, " slots=");
    fd_put_hex(w, &h->slot_mask, 1);
    if (h->beacon_slot == FD_ROUND_NO_BEACON) {
        fd_put(w, " beacon=none");
    } else {
        fd_put_beacon(w, h->beacon_slot, h->beacon_index);
    }
}

static void put_label(const fd_writer *w, const fd_dealer *d)
{
    fd_put(w, fd_round_house_only(&fd_dealer_get_round(d)->seeds) ? " label=house-only" : " label=seeded");
}

/* After a SEED or CLOSE: still open for seeds, or closed (and labelled). */
static void put_round_state(const fd_writer *w, const fd_dealer *d)
{
    if (fd_dealer_get_state(d) == FD_DEALER_SEEDING) {
        fd_put(w, " state=seeding\r\n");
    } else {
        fd_put(w, " state=closed");
        put_label(w, d);
        fd_put(w, "\r\n");
    }
}

/* ---- the device secret and lab mode (docs/PROTOCOL.md PROVISION, LAB) ---- */

/* True when rounds may be drawn, else the reply says why. */
static bool secret_ready(const request *r)
{
    switch (fd_dealer_secret_ready(r->d)) {
    case FD_OK: return true;
    case FD_ERR_CORRUPT:
        reply_err(r->w, "secret", "secret page damaged: dealing disabled (erase it with a programmer, then PROVISION)");
        return false;
    case FD_ERR_STATE: reply_err(r->w, "secret", "secret provisioned: restart the device to use it"); return false;
    default: reply_err(r->w, "secret", "not provisioned: PROVISION <64 hex> first (release build)"); return false;
    }
}

static void put_device_id(const fd_writer *w, const fd_dealer *d)
{
    uint8_t id[FD_DEVICE_ID_BYTES];
    if (fd_dealer_device_id(d, id)) {
        fd_put_hex(w, id, sizeof id);
    } else {
        fd_put(w, "none");
    }
}

static void cmd_provision(const request *r)
{
    uint8_t secret[FD_DEVICE_SECRET_BYTES];
    size_t len = 0;
    if (r->n != 2u || fd_hex_decode(r->t[1].text, r->t[1].len, secret, sizeof secret, &len) != FD_OK ||
        len != sizeof secret) {
        fd_wipe(secret, sizeof secret);
        reply_err(r->w, "syntax", "usage: PROVISION <64 hex digits: the 32-byte device secret>");
        return;
    }
    if (!admitted(r, r->row->cmd)) {
        fd_wipe(secret, sizeof secret);
        return;
    }
    uint8_t id[FD_DEVICE_ID_BYTES];
    const bool provisioned_before = fd_dealer_secret_ready(r->d) == FD_ERR_STATE; /* restart required */
    const fd_status st = fd_dealer_provision(r->d, secret, id);
    fd_wipe(secret, sizeof secret);
    if (st != FD_OK && !provisioned_before && fd_dealer_secret_ready(r->d) == FD_ERR_STATE) {
        /* the secret is on its page; erasing the test journal failed */
        fd_put(r->w, "ERR storage ");
        fd_put(r->w, fd_status_name(st));
        fd_put(r->w, ": secret written (device=");
        fd_put_hex(r->w, id, sizeof id);
        fd_put(r->w, "), the old journal not erased: restart; if the journal then fails its check, erase the storage "
                     "area\r\n");
        return;
    }
    switch (st) {
    case FD_OK:
        fd_put(r->w, "OK PROVISION device=");
        fd_put_hex(r->w, id, sizeof id);
        fd_put(r->w, " restart=required\r\n");
        break;
    case FD_ERR_STATE:
        if (fd_dealer_secret_origin(r->d) == FD_SECRET_PROVISIONED || provisioned_before) {
            reply_err(r->w, "state", "already provisioned: written once only");
        } else { /* the driver's error: the page was not written */
            reply_err(r->w, "storage", "state: the secret page could not be written");
        }
        break;
    case FD_ERR_EMPTY: reply_err(r->w, "range", "a secret of all 00 or all ff bytes is refused"); break;
    case FD_ERR_NOT_READY: reply_err(r->w, "state", "no secret page on this board"); break;
    case FD_ERR_CORRUPT: reply_err(r->w, "secret", "secret page damaged: erase it with a programmer"); break;
    default: reply_err(r->w, "storage", fd_status_name(st)); break;
    }
}

/* Lab chunk: raw samples or indices per call (the micro:bit's stack). */
#define LAB_CHUNK 64u
/* Most samples / indices per LAB line: a reply line stays under 8 KiB. */
#define LAB_RAW_MAX 2048u
#define LAB_CARDS_MAX 1024u

/* LAB RAW <n>: "OK LAB RAW n=<n> hex=<2n hex digits> end=ok" on one line
 * (end=<status> if the source failed part way; the capture is then void). */
static void lab_raw(const request *r, uint32_t n)
{
    uint8_t chunk[LAB_CHUNK];
    fd_status st = FD_OK;
    fd_put_field_u32(r->w, "OK LAB RAW n=", n);
    fd_put(r->w, " hex=");
    for (uint32_t done = 0; done < n && st == FD_OK; done += LAB_CHUNK) {
        const size_t take = n - done < LAB_CHUNK ? n - done : LAB_CHUNK;
        st = fd_dealer_lab_raw(r->d, chunk, take);
        if (st == FD_OK) {
            fd_put_hex(r->w, chunk, take);
        }
    }
    fd_put(r->w, " end=");
    fd_put(r->w, st == FD_OK ? "ok" : fd_status_name(st));
    fd_put(r->w, "\r\n");
}

/* LAB CARDS <n> [bound]: n indices uniform in [0, bound) (default: the
 * shoe's cards) from the default source, comma-separated decimal. */
static void lab_cards(const request *r, uint32_t n, uint32_t bound)
{
    uint16_t chunk[LAB_CHUNK];
    fd_status st = FD_OK;
    fd_put_field_u32(r->w, "OK LAB CARDS n=", n);
    fd_put_field_u32(r->w, " bound=", bound);
    fd_put(r->w, " idx=");
    for (uint32_t i = 0; i < n && st == FD_OK; i++) {
        if (i % LAB_CHUNK == 0u) {
            st = fd_dealer_lab_cards(r->d, bound, chunk, n - i < LAB_CHUNK ? n - i : LAB_CHUNK);
        }
        if (st == FD_OK) {
            fd_put(r->w, i > 0u ? "," : "");
            fd_put_u32(r->w, chunk[i % LAB_CHUNK]);
        }
    }
    fd_wipe(chunk, sizeof chunk);
    fd_put(r->w, " end=");
    fd_put(r->w, st == FD_OK ? "ok" : fd_status_name(st));
    fd_put(r->w, "\r\n");
}

static void cmd_lab(const request *r)
{
    const bool raw = r->n == 3u && token_is(&r->t[1], "raw");
    const bool cards = (r->n == 3u || r->n == 4u) && token_is(&r->t[1], "cards");
    uint32_t n = 0;
    uint32_t bound = fd_dealer_get_shoe(r->d)->count;
    if ((!raw && !cards) || !parse_number(&r->t[2], &n) || (r->n == 4u && !parse_number(&r->t[3], &bound))) {
        reply_err(r->w, "syntax", "usage: LAB RAW <n> | LAB CARDS <n> [bound]");
    } else if (n < 1u || n > (raw ? LAB_RAW_MAX : LAB_CARDS_MAX) || bound < 1u || bound > 65535u) {
        reply_err(r->w, "range", "n must be 1 to 2048 (RAW) or 1024 (CARDS), bound 1 to 65535");
    } else if (!admitted(r, raw ? FD_CMD_LAB_RAW : FD_CMD_LAB_CARDS)) {
        return;
    } else if (raw) {
        lab_raw(r, n);
    } else if (secret_ready(r)) {
        lab_cards(r, n, bound);
    }
}

/* The value of "name=value" when t is one, else false. */
static bool parse_field(const token *t, const char *name, token *value)
{
    const size_t n = strlen(name);
    if (t->len <= n + 1u || t->text[n] != '=') {
        return false;
    }
    const token word = {t->text, n};
    value->text = t->text + n + 1u;
    value->len = t->len - n - 1u;
    return token_is(&word, name);
}

/* "slots=N": N seed slots, 0..8. */
static bool parse_slots(const token *t, uint32_t *slots)
{
    token value;
    return parse_field(t, "slots", &value) && parse_number(&value, slots);
}

/* "beacon=SLOT:INDEX": the slot carrying the public beacon value of that
 * index (decimal, up to 2^64 - 1). */
static bool parse_beacon(const token *t, uint32_t *slot, uint64_t *index)
{
    token value;
    if (!parse_field(t, "beacon", &value)) {
        return false;
    }
    size_t colon = 0;
    while (colon < value.len && value.text[colon] != ':') {
        colon++;
    }
    const token slot_text = {value.text, colon};
    const token index_text = {value.text + colon + 1u, colon < value.len ? value.len - colon - 1u : 0u};
    return colon < value.len && parse_number(&slot_text, slot) && parse_decimal64(&index_text, 20, index);
}

static void cmd_shuffle(const request *r)
{
    const bool full = r->n == 2u && token_is(&r->t[1], "full");
    const bool drbg = r->n == 2u && token_is(&r->t[1], "drbg");
    uint32_t slots = 0;
    const bool beacon = r->n == 3u;
    uint32_t beacon_slot = FD_ROUND_NO_BEACON;
    uint64_t beacon_index = 0;
    if (r->n > 3u || (r->n >= 2u && !full && !drbg && !parse_slots(&r->t[1], &slots)) ||
        (beacon && !parse_beacon(&r->t[2], &beacon_slot, &beacon_index))) {
        reply_err(r->w, "syntax", "usage: SHUFFLE [slots=0-8 [beacon=SLOT:INDEX]|drbg|full]");
        return;
    }
    if (slots > FD_ROUND_SLOTS) {
        reply_err(r->w, "range", "slots must be 0 to 8");
        return;
    }
    if (beacon && beacon_slot >= slots) {
        reply_err(r->w, "range", "the beacon slot must be one of this round's slots");
        return;
    }
    uint64_t last = 0;
    if (beacon && fd_dealer_beacon_last(r->d, beacon_slot, &last) && beacon_index <= last) {
        /* nothing is drawn or journalled: the index was used (docs/PROTOCOL.md "SHUFFLE") */
        fd_put(r->w, "ERR range the beacon index must be greater than ");
        fd_put_u64(r->w, last);
        fd_put_field_u32(r->w, ", the last this device used in slot ", beacon_slot);
        fd_put(r->w, "\r\n");
        return;
    }
    if (fd_dealer_admit(r->d, r->row->cmd) == FD_OK && !secret_ready(r)) {
        return;
    }
    if (full || drbg) {
        if (!core_ok(r, fd_dealer_shuffle(r->d, full))) {
            return;
        }
        fd_put_field_u32(r->w, "OK SHUFFLE id=", fd_dealer_get_round(r->d)->id);
        fd_put(r->w, full ? " mode=full" : " mode=drbg");
        fd_put_field_u32(r->w, " cards=", fd_dealer_get_shoe(r->d)->count);
        fd_put(r->w, " commit=");
        fd_put_hex(r->w, fd_dealer_get_round(r->d)->commitment, FD_COMMIT_SIZE);
        fd_put(r->w, "\r\n");
        return;
    }
    if (!core_ok(r, fd_dealer_open_round(r->d, slots, beacon_slot, beacon_index))) {
        return;
    }
    fd_put(r->w, "OK SHUFFLE mode=round");
    put_round_header(r->w, r->d);
    fd_put_field_u32(r->w, " cards=", fd_dealer_get_shoe(r->d)->count);
    fd_put(r->w, " commitment=");
    fd_put_hex(r->w, fd_dealer_get_round(r->d)->commitment, FD_COMMIT_SIZE);
    put_round_state(r->w, r->d);
}

static void cmd_seed(const request *r)
{
    uint32_t slot = 0;
    uint8_t seed[FD_ROUND_SEED_MAX];
    size_t len = 0;
    if (r->n != 3u || !parse_number(&r->t[1], &slot) ||
        fd_hex_decode(r->t[2].text, r->t[2].len, seed, sizeof seed, &len) != FD_OK) {
        reply_err(r->w, "syntax", "usage: SEED <slot> <hex, 1 to 64 bytes>");
        return;
    }
    const fd_status st = fd_dealer_seed(r->d, slot, seed, len);
    if (st == FD_ERR_BOUND) {
        reply_err(r->w, "range", "slot not accepted by this round");
    } else if (st == FD_ERR_EXHAUSTED) {
        reply_err(r->w, "state", "slot already filled: a seed is never replaced");
    } else if (st == FD_ERR_EMPTY || st == FD_ERR_TOO_LARGE) {
        reply_err(r->w, "range", "a seed is 1 to 64 bytes");
    } else if (core_ok(r, st)) {
        fd_put_field_u32(r->w, "OK SEED id=", fd_dealer_get_round(r->d)->id);
        fd_put_field_u32(r->w, " slot=", slot);
        put_round_state(r->w, r->d);
    }
}

static void cmd_close(const request *r)
{
    if (!no_arguments(r, "usage: CLOSE")) {
        return;
    }
    if (core_ok(r, fd_dealer_close(r->d))) {
        fd_put_field_u32(r->w, "OK CLOSE id=", fd_dealer_get_round(r->d)->id);
        put_round_state(r->w, r->d);
    }
}

static void reply_left(const fd_dealer *d, const fd_writer *w)
{
    fd_put(w, " left=");
    fd_put_u32(w, fd_shoe_remaining(fd_dealer_get_shoe(d)));
    if (fd_shoe_reshuffle_due(fd_dealer_get_shoe(d))) {
        fd_put(w, " reshuffle=due");
    }
    fd_put(w, "\r\n");
}

static void reply_exhausted(const fd_dealer *d, const fd_writer *w)
{
    fd_put(w, "ERR exhausted only ");
    fd_put_u32(w, fd_shoe_remaining(fd_dealer_get_shoe(d)));
    fd_put(w, " cards left\r\n");
}

/* Round-robin: card k of the deal goes to player k mod players; the reply
 * lists the cards player by player. */
static void reply_deal(const fd_dealer *d, uint16_t first, uint32_t count, uint32_t players, const fd_writer *w)
{
    fd_put(w, "OK DEAL");
    for (uint32_t p = 0; p < players; p++) {
        fd_put(w, " ");
        if (players > 1u) {
            fd_put_u32(w, p + 1u);
            fd_put(w, ":");
        }
        for (uint32_t c = 0; c < count; c++) {
            if (c > 0u) {
                fd_put(w, players > 1u ? "," : " ");
            }
            put_card(w, d, (uint16_t)(first + c * players + p));
        }
    }
    reply_left(d, w);
}

static void cmd_deal(const request *r)
{
    uint32_t count = 0;
    uint32_t players = 1;
    if (r->n < 2u || r->n > 3u || !parse_number(&r->t[1], &count) ||
        (r->n == 3u && !parse_number(&r->t[2], &players))) {
        reply_err(r->w, "syntax", "usage: DEAL <n> [players]");
    } else if (count < 1u || count > FD_SHOE_MAX_CARDS) {
        reply_err(r->w, "range", "n must be 1 to 432");
    } else if (players < 1u || players > FD_DEALER_MAX_PLAYERS) {
        reply_err(r->w, "range", "players must be 1 to 8");
    } else {
        uint16_t first = 0;
        const fd_status st = fd_dealer_deal(r->d, count, players, &first);
        if (st == FD_OK) {
            reply_deal(r->d, first, count, players, r->w);
        } else if (st == FD_ERR_EXHAUSTED) {
            reply_exhausted(r->d, r->w);
        } else {
            (void)core_ok(r, st);
        }
    }
}

static void cmd_burn(const request *r)
{
    if (!no_arguments(r, "usage: BURN")) {
        return;
    }
    const fd_status st = fd_dealer_burn(r->d);
    if (st == FD_OK) {
        fd_put(r->w, "OK BURN");
        reply_left(r->d, r->w);
    } else if (st == FD_ERR_EXHAUSTED) {
        reply_err(r->w, "exhausted", "no cards left");
    } else {
        (void)core_ok(r, st);
    }
}

static void cmd_cut(const request *r)
{
    uint32_t cut = 0;
    if (r->n != 2u || !parse_number(&r->t[1], &cut)) {
        reply_err(r->w, "syntax", "usage: CUT <n> (0 removes the cut card)");
        return;
    }
    if (cut > fd_dealer_get_shoe(r->d)->count) {
        reply_err(r->w, "range", "cut beyond the last card");
        return;
    }
    const fd_status st = fd_dealer_cut(r->d, (uint16_t)cut);
    if (st != FD_OK) {
        (void)core_ok(r, st); /* the journal's refusal or failure */
        return;
    }
    fd_put(r->w, "OK CUT ");
    fd_put_u32(r->w, cut);
    fd_put(r->w, "\r\n");
}

static void write_sink(void *ctx, const char *s, size_t n)
{
    const fd_writer *w = ctx;
    w->fn(w->ctx, s, n);
}

/* A verifiable round's REVEAL: after "OK REVEAL", exactly a docs/VERIFY.md
 * round line (card ids in dealing order), then the label. */
static void reveal_round(const fd_writer *w, const fd_dealer *d)
{
    const fd_round *rd = fd_dealer_get_round(d);
    fd_put(w, "OK REVEAL");
    put_round_header(w, d);
    fd_put(w, " secret=");
    fd_put_hex(w, rd->secret, rd->secret_len);
    fd_put(w, " seeds=");
    const char *sep = "";
    for (unsigned i = 0; i < FD_ROUND_SLOTS; i++) {
        if (rd->seeds.len[i] != 0u) {
            fd_put(w, sep);
            fd_put_u32(w, i);
            fd_put(w, ":");
            fd_put_hex(w, rd->seeds.seed[i], rd->seeds.len[i]);
            sep = ";";
        }
    }
    if (sep[0] == '\0') {
        fd_put(w, "none");
    }
    fd_put(w, " commitment=");
    fd_put_hex(w, rd->commitment, sizeof rd->commitment);
    fd_put(w, " order=");
    for (uint16_t i = 0; i < fd_dealer_get_shoe(d)->count; i++) {
        if (i > 0u) {
            fd_put(w, ",");
        }
        fd_put_u32(w, fd_dealer_card_at(d, i));
    }
    fd_recall_skipped_write(w, d);
    put_chain(w, d);
    put_label(w, d);
    fd_put(w, "\r\n");
}

static void cmd_reveal(const request *r)
{
    if (!no_arguments(r, "usage: REVEAL")) {
        return;
    }
    if (!core_ok(r, fd_dealer_reveal(r->d))) {
        return;
    }
    const fd_round *round = fd_dealer_get_round(r->d);
    const fd_shoe *shoe = fd_dealer_get_shoe(r->d);
    if (round->mode == FD_RECORD_MODE_ROUND) {
        reveal_round(r->w, r->d);
        return;
    }
    fd_put(r->w, "OK REVEAL id=");
    fd_put_u32(r->w, round->id);
    put_chain(r->w, r->d); /* before the order: order_text runs to the end of the line */
    fd_recall_skipped_write(r->w, r->d);
    fd_put(r->w, " salt=");
    fd_put_hex(r->w, round->salt, sizeof round->salt);
    fd_put(r->w, " order=");
    /* cannot fail: the order comes from the dealer's checked, shuffled shoe */
    (void)fd_commit_order_text(shoe->order, shoe->count, shoe->kind, write_sink, (void *)r->w);
    fd_put(r->w, "\r\n");
}

static const char *state_name(fd_dealer_state s)
{
    static const char *const names[FD_DEALER_STATE_COUNT] = {
        [FD_DEALER_FACTORY] = "factory",   [FD_DEALER_ROUND_OPEN] = "shuffled",
        [FD_DEALER_REVEALED] = "revealed", [FD_DEALER_UNSHUFFLED] = "unshuffled",
        [FD_DEALER_FAULT] = "unshuffled",  [FD_DEALER_FAULT_ROUND_OPEN] = "committed",
        [FD_DEALER_SEEDING] = "seeding",
    };
    return names[s];
}

static const char *health_name(const fd_dealer *d)
{
    const fd_health_failure hf = fd_dealer_in_fault(d) ? fd_dealer_fault_health(d) : FD_HEALTH_NONE;
    return hf == FD_HEALTH_RCT   ? "rct-fail"
           : hf == FD_HEALTH_APT ? "apt-fail"
           : hf == FD_HEALTH_LAG ? "lag-fail"
                                 : "ok";
}

static void cmd_status(const request *r)
{
    const fd_writer *w = r->w;
    const fd_dealer *d = r->d;
    if (!no_arguments(r, "usage: STATUS")) {
        return;
    }
    const fd_dealer_config *cfg = fd_dealer_get_config(d);
    const fd_shoe *shoe = fd_dealer_get_shoe(d);
    const fd_round *round = fd_dealer_get_round(d);
    const fd_dealer_state s = fd_dealer_get_state(d);
    fd_put_field(w, "OK STATUS board=", cfg->board);
    fd_put_field(w, " deck=", fd_deck_kind_name(shoe->kind));
    fd_put_field_u32(w, " decks=", shoe->decks);
    fd_put_field_u32(w, " cards=", shoe->count);
    fd_put_field_u32(w, " left=", s == FD_DEALER_ROUND_OPEN ? fd_shoe_remaining(shoe) : 0u);
    fd_put_field(w, " state=", state_name(s));
    fd_put_field_u32(w, " shuffles=", round->id);
    fd_put_field_u32(w, " cut=", shoe->cut);
    fd_put(w, fd_shoe_reshuffle_due(shoe) ? " reshuffle=due" : " reshuffle=no");
    fd_put_field(w, " entropy=",
                 fd_dealer_in_fault(d) ? (fd_dealer_fault_status(d) == FD_ERR_CORRUPT ? "memory-fault" : "fault")
                                       : "ok");
    fd_put_field(w, " health=", health_name(d));
    fd_put_field_u32(w, " reseeds=", fd_dealer_reseeds(d));
    fd_put_field_u32(w, " raw_samples=", fd_dealer_raw_samples(d));
    fd_put_field(w, " drbg=", drbg_name(cfg->drbg_kind));
    fd_put_field_u32(w, " revealed=", round->revealed_rounds);
    fd_put_field_u32(w, " unrevealed=", fd_dealer_unrevealed_rounds(d));
    fd_put_field(w, " secret=", fd_device_secret_origin_name(fd_dealer_secret_origin(d)));
    fd_put(w, " device=");
    put_device_id(w, d);
    static const char *const seed_file_names[] = {"none", "saved", "unsaved"};
    fd_put_field(w, " seedfile=", seed_file_names[fd_dealer_seed_file_state(d)]);
    if (cfg->image_hash != NULL) { /* the banner's image line (docs/SECURITY.md "Boot") */
        fd_put(w, " image=0x");
        fd_put_hex_u32(w, cfg->image_version);
        fd_put(w, " image_hash=");
        fd_put_hex(w, cfg->image_hash, FD_SHA256_SIZE);
    }
    if (fd_dealer_journal_attached(d)) {
        put_power_on_seq(w, d);
        fd_put_field_u32(w, " next_id=", round->id + 1u);
        fd_put(w, fd_dealer_journal_status(d) == FD_OK ? " journal=ok" : " journal=failed");
        put_chain(w, d);
    }
    fd_put(w, "\r\n");
}

static void cmd_selftest(const request *r)
{
    if (!no_arguments(r, "usage: SELFTEST")) {
        return;
    }
    uint32_t samples = 0;
    if (!core_ok(r, fd_dealer_selftest(r->d, &samples))) {
        return;
    }
    fd_put(r->w, "OK SELFTEST kat=pass startup=pass samples=");
    fd_put_u32(r->w, samples);
    fd_put(r->w, "\r\n");
}

static void cmd_quit(const request *r)
{
    if (!no_arguments(r, "usage: QUIT")) {
        return;
    }
    if (core_ok(r, fd_dealer_quit(r->d))) {
        fd_put(r->w, "OK BYE\r\n");
    }
}

/* VERIFY <seed hex>: program verification (docs/PROTOCOL.md VERIFY) */
static void cmd_verify(const request *r)
{
    uint8_t seed[FD_PROGRAM_VERIFY_SEED_MAX];
    uint8_t mac[FD_SHA256_SIZE];
    size_t len = 0;
    uint32_t bytes = 0;
    if (r->n != 2u || fd_hex_decode(r->t[1].text, r->t[1].len, seed, sizeof seed, &len) != FD_OK || len == 0u) {
        reply_err(r->w, "syntax", "usage: VERIFY <seed: 2-128 hex digits>");
    } else if (fd_program_verify(seed, len, mac, &bytes) != FD_OK) {
        reply_err(r->w, "state", "program verification needs the device's flash");
    } else {
        fd_put(r->w, "OK VERIFY hmac=");
        fd_put_hex(r->w, mac, sizeof mac);
        fd_put_field_u32(r->w, " bytes=", bytes);
        fd_put(r->w, "\r\n");
    }
}

/* ID: who this is, for a controller before or without a session
 * (docs/LINK.md "Roles"); also the WELCOME payload. */
static void cmd_id(const request *r)
{
    if (!no_arguments(r, "usage: ID")) {
        return;
    }
    fd_put_field(r->w, "OK ID version=", FAIRDEAL_VERSION_STRING);
    fd_put_field(r->w, " board=", fd_dealer_get_config(r->d)->board);
    fd_put_field(r->w, " secret=", fd_device_secret_origin_name(fd_dealer_secret_origin(r->d)));
    fd_put(r->w, " device=");
    put_device_id(r->w, r->d);
    put_chain(r->w, r->d);
    fd_put(r->w, "\r\n");
}

/* UPDATE <BEGIN|DATA|END> ...: update.c's (docs/PROTOCOL.md UPDATE), given the words after UPDATE */
static void cmd_update(const request *r)
{
    const char *from = r->n > 1u ? r->t[1].text : r->t[0].text + r->t[0].len;
    const token *last = &r->t[r->n - 1u];
    fd_update_command(r->d, r->w, from, (size_t)(last->text + last->len - from));
}

/* ---- TIME, RECALL, LOG: the journal ---- */

static void cmd_time(const request *r)
{
    uint32_t unix_s = 0;
    if (r->n != 2u || !parse_decimal(&r->t[1], 10, &unix_s) || unix_s == 0u) {
        reply_err(r->w, "syntax", "usage: TIME <unix seconds, 1 to 4294967295>");
        return;
    }
    if (!core_ok(r, fd_dealer_time(r->d, unix_s))) {
        return;
    }
    fd_put_field_u32(r->w, "OK TIME unix=", unix_s);
    put_chain(r->w, r->d);
    fd_put(r->w, "\r\n");
}

/* An optional count argument: dflt when absent, 1..max. */
static bool parse_count(const request *r, uint32_t dflt, uint32_t max, const char *usage, uint32_t *n)
{
    *n = dflt;
    if (r->n > 2u || (r->n == 2u && (!parse_number(&r->t[1], n) || *n < 1u || *n > max))) {
        reply_err(r->w, "syntax", usage);
        return false;
    }
    return true;
}

/* The end of a RECALL or LOG line: the walk's error if it stopped (the
 * journal no longer verifies), then the chain head. */
static void end_walk_reply(const request *r, fd_status st)
{
    if (st != FD_OK) {
        fd_put(r->w, " | ERR ");
        fd_put(r->w, fd_status_name(st));
    }
    put_chain(r->w, r->d);
    fd_put(r->w, "\r\n");
}

static void cmd_recall(const request *r)
{
    uint32_t n = 0;
    const uint32_t most = fd_persist_keep_summaries;
    if (!parse_count(r, most < FD_REC_HANDS_MAX ? most : FD_REC_HANDS_MAX, most, "usage: RECALL [hands 1-100]", &n)) {
        return;
    }
    if (!admitted(r, r->row->cmd)) {
        return;
    }
    const uint32_t newest = fd_dealer_get_round(r->d)->id;
    fd_put_field_u32(r->w, "OK RECALL newest=", newest);
    fd_put_field_u32(r->w, " n=", n);
    end_walk_reply(r, fd_recall_write(r->w, r->d, newest >= n ? newest - n + 1u : 1u));
}

static void cmd_log(const request *r)
{
    uint32_t n = 0;
    if (!parse_count(r, 20u, FD_REC_EVENTS_KEPT, "usage: LOG [events 1-32]", &n)) {
        return;
    }
    if (!admitted(r, r->row->cmd)) {
        return;
    }
    fd_put_field_u32(r->w, "OK LOG n=", n);
    end_walk_reply(r, fd_recall_log_write(r->w, r->d, n));
}

#if defined(FD_DEALER_TEST_COMMANDS)
/* Test images only (dealer_test, firmware/CMakeLists.txt; never built for
 * release): HANG stops the dealer in a loop that never kicks the watchdog,
 * so a QEMU test proves the watchdog resets it and it comes back
 * (tests/qemu/watchdog_reset.sh). */
static void cmd_hang(const request *r)
{
    if (!no_arguments(r, "usage: HANG")) {
        return;
    }
    fd_put(r->w, "OK HANG\r\n");
    for (;;) {
    }
}
#endif

static void cmd_mode(const request *r)
{
    fd_console *c = r->console;
    if (r->n == 2u && token_is(&r->t[1], "human") && fd_dealer_get_config(r->d)->release) {
        /* a release build has no echo, hence nothing a transcript could
         * mistake for a reply (docs/PROTOCOL.md "Human and machine mode") */
        reply_err(r->w, "state", "human mode is refused in release builds: machine mode only");
    } else if (r->n == 2u && token_is(&r->t[1], "human")) {
        c->human = true;
        fd_put(r->w, "OK MODE human\r\n");
    } else if (r->n == 2u && token_is(&r->t[1], "machine")) {
        c->human = false;
        fd_put(r->w, "OK MODE machine\r\n");
    } else {
        reply_err(r->w, "syntax", "usage: MODE <human|machine>");
    }
}

/* The commands: one row each, in HELP's order (docs/PROTOCOL.md
 * "Commands"); HELP is made from the rows, and the row says when the
 * command may run. Adding a command is a row here, its handler, its
 * section of docs/PROTOCOL.md and its tests; a command outside the core
 * names FD_CMD_ANY (the default) or FD_CMD_IDLE (refused while a round is
 * open: its handler calls admitted() after its syntax checks), and only a
 * new kind of state change adds a row to dealer.c's transition table. */

static const command commands[] = {
    {.word = "NEW",
     .run = cmd_new,
     .help = "NEW <french|spanish40|spanish48> [decks 1-8] [jokers 0-2]",
     .cmd = FD_CMD_NEW},
    {.word = "SHUFFLE",
     .run = cmd_shuffle,
     .help = "SHUFFLE [slots=0-8 [beacon=SLOT:INDEX]|drbg|full]",
     .cmd = FD_CMD_SHUFFLE,
     .journal = FD_CONSOLE_JOURNAL_WRITES},
    {.word = "SEED",
     .run = cmd_seed,
     .help = "SEED <slot> <hex>",
     .cmd = FD_CMD_SEED,
     .journal = FD_CONSOLE_JOURNAL_WRITES},
    {.word = "CLOSE", .run = cmd_close, .help = "CLOSE", .cmd = FD_CMD_CLOSE, .journal = FD_CONSOLE_JOURNAL_WRITES},
    {.word = "DEAL",
     .run = cmd_deal,
     .help = "DEAL <n> [players 1-8]",
     .cmd = FD_CMD_DEAL,
     .journal = FD_CONSOLE_JOURNAL_WRITES},
    {.word = "BURN", .run = cmd_burn, .help = "BURN", .cmd = FD_CMD_BURN, .journal = FD_CONSOLE_JOURNAL_WRITES},
    {.word = "CUT", .run = cmd_cut, .help = "CUT <n>", .cmd = FD_CMD_CUT, .journal = FD_CONSOLE_JOURNAL_WRITES},
    {.word = "REVEAL", .run = cmd_reveal, .help = "REVEAL", .cmd = FD_CMD_REVEAL, .journal = FD_CONSOLE_JOURNAL_WRITES},
    {.word = "STATUS", .run = cmd_status, .help = "STATUS"},
    {.word = "SELFTEST",
     .run = cmd_selftest,
     .help = "SELFTEST",
     .cmd = FD_CMD_SELFTEST,
     .journal = FD_CONSOLE_JOURNAL_WRITES},
    {.word = "MODE", .run = cmd_mode, .help = "MODE <human|machine>"},
    {.word = "PROVISION", .run = cmd_provision, .help = "PROVISION <64 hex>", .cmd = FD_CMD_PROVISION},
    {.word = "LAB", .run = cmd_lab, .help = "LAB <raw|cards> <n> [bound]", .cmd = FD_CMD_LAB_RAW},
    {.word = "TIME", .run = cmd_time, .help = "TIME <unix seconds>", .journal = FD_CONSOLE_JOURNAL_WRITES},
    {.word = "RECALL", .run = cmd_recall, .help = "RECALL [hands]", .journal = FD_CONSOLE_JOURNAL_READS},
    {.word = "LOG", .run = cmd_log, .help = "LOG [events]", .journal = FD_CONSOLE_JOURNAL_READS},
    {.word = "VERIFY", .run = cmd_verify, .help = "VERIFY <seed hex>", .no_session = true},
    {.word = "UPDATE", .run = cmd_update, .help = "UPDATE <BEGIN n|DATA off hex|END>"},
    {.word = "ID", .run = cmd_id, .help = "ID", .no_session = true},
    {.word = "HELP", .run = cmd_help, .help = "HELP", .no_session = true},
    {.word = "QUIT", .run = cmd_quit, .help = "QUIT", .cmd = FD_CMD_QUIT},
#if defined(FD_DEALER_TEST_COMMANDS)
    {.word = "HANG", .run = cmd_hang, .help = NULL}, /* test images only: not listed */
#endif
};

static bool core_ok(const request *r, fd_status st)
{
    if (st != FD_OK) {
        reply_status(r->d, r->row->cmd, st, r->w);
    }
    return st == FD_OK;
}

static bool admitted(const request *r, fd_dealer_cmd cmd)
{
    if (r->row->journal == FD_CONSOLE_JOURNAL_READS &&
        (!fd_dealer_journal_attached(r->d) || fd_dealer_journal_status(r->d) != FD_OK)) {
        reply_journal(r->d, r->w);
        return false;
    }
    const fd_status st = fd_dealer_admit(r->d, cmd);
    if (st != FD_OK) {
        reply_status(r->d, cmd, st, r->w);
    }
    return st == FD_OK;
}

bool fd_console_command_row(size_t i, const char **word, fd_console_journal *journal)
{
    if (i >= sizeof commands / sizeof commands[0]) {
        return false;
    }
    *word = commands[i].word;
    *journal = commands[i].journal;
    return true;
}

/* The row of the command word t, or NULL. */
static const command *find_command(const token *t)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (token_is(t, commands[i].word)) {
            return &commands[i];
        }
    }
    return NULL;
}

static void cmd_help(const request *r)
{
    if (!no_arguments(r, "usage: HELP")) {
        return;
    }
    fd_put(r->w, "OK HELP");
    const char *sep = " ";
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (commands[i].help != NULL) {
            fd_put(r->w, sep);
            fd_put(r->w, commands[i].help);
            sep = " | ";
        }
    }
    fd_put(r->w, "\r\n");
}

void fd_console_command(fd_console *c, const char *line, size_t len)
{
    const fd_writer w = {c->out, c->out_ctx};
    token t[MAX_TOKENS];
    const size_t n = tokenize(line, len, t);
    if (n == 0u) {
        reply_err(&w, "syntax", "empty command");
        return;
    }
    if (n > MAX_TOKENS) {
        reply_err(&w, "syntax", "too many arguments");
        return;
    }
    const command *row = find_command(&t[0]);
    if (row == NULL) {
        reply_err(&w, "unknown", "unknown command; HELP lists them");
        return;
    }
    /* the first PROVISION: while no secret is provisioned there is no PSK,
     * so it takes the board's physical act instead (docs/LINK.md
     * "Provisioning and controller keys") */
    const bool first_use = row->cmd == FD_CMD_PROVISION &&
                           fd_dealer_secret_origin(c->dealer) != FD_SECRET_PROVISIONED &&
                           fd_dealer_get_config(c->dealer)->presence;
    if (c->locked && !row->no_session && !first_use) {
        reply_err(&w, "link", "outside an authenticated link session only ID, HELP and VERIFY run");
        return;
    }
    const request r = {c->dealer, t, n, &w, c, row};
    row->run(&r);
}

/* ---- the console: banner, line assembly, echo and prompt ---- */

void fd_console_init(fd_console *c, fd_dealer *d, fd_write_fn out, void *ctx, bool human, bool echo)
{
    memset(c, 0, sizeof *c);
    c->dealer = d;
    c->out = out;
    c->out_ctx = ctx;
    c->human = human && !fd_dealer_get_config(d)->release; /* a release build is in machine mode only */
    c->echo = echo;
}

static void prompt(const fd_console *c)
{
    if (c->human) {
        c->out(c->out_ctx, "> ", 2);
    }
}

static void put_journal_banner(const fd_writer *w, const fd_dealer *d)
{
    const fd_dealer_config *cfg = fd_dealer_get_config(d);
    uint16_t recovered_at = 0;
    if (!fd_dealer_journal_attached(d)) {
        return;
    }
    fd_put(w, "journal: ");
    fd_put(w, cfg->storage_name != NULL ? cfg->storage_name : "?");
    put_power_on_seq(w, d);
    put_chain(w, d);
    fd_put(w, "\r\n");
    if (cfg->storage_volatile) {
        fd_put(w, "*** JOURNAL IN MEMORY ONLY: nothing survives a power cut or exit. ***\r\n");
    }
    if (fd_dealer_journal_status(d) != FD_OK) {
        fd_put(w, "*** JOURNAL FAILED: ");
        put_journal_problem(d, w);
        fd_put(w, ". Rounds are refused. ***\r\n");
    } else if (fd_dealer_recovered(d, &recovered_at)) {
        fd_put_field_u32(w, "*** RECOVERED open round id=", fd_dealer_get_round(d)->id);
        fd_put_field_u32(w, " after a power cut at card ", recovered_at);
        fd_put(w, ": DEAL continues, REVEAL reveals. ***\r\n");
    }
}

void fd_console_start(const fd_console *c)
{
    const fd_writer w = {c->out, c->out_ctx};
    const fd_dealer *d = c->dealer;
    const fd_dealer_config *cfg = fd_dealer_get_config(d);
    uint8_t id[FD_DEVICE_ID_BYTES];
    fd_put(&w, "fairdeal dealer " FAIRDEAL_VERSION_STRING " board=");
    fd_put(&w, cfg->board);
    fd_put(&w, " drbg=");
    fd_put(&w, drbg_name(cfg->drbg_kind));
    fd_put(&w, "\r\nentropy: ");
    fd_put(&w, cfg->trng_name);
    fd_put(&w, ", health tests RCT ");
    fd_put_u32(&w, cfg->health.rct_cutoff);
    fd_put(&w, ", APT ");
    fd_put_u32(&w, cfg->health.apt_cutoff);
    fd_put(&w, "/");
    fd_put_u32(&w, cfg->health.apt_window);
    fd_put(&w, "\r\n");
    fd_put_field(&w, "device: ", fd_device_secret_origin_name(fd_dealer_secret_origin(d)));
    fd_put(&w, " secret, id ");
    put_device_id(&w, d);
    fd_put(&w, "\r\n");
    if (fd_dealer_secret_origin(d) == FD_SECRET_TEST) {
        fd_put(&w, "*** secret=test: the public development secret, not provisioned. Never use this build at a table. "
                   "***\r\n");
    } else if (!fd_dealer_device_id(d, id)) {
        fd_put(&w, "*** NO DEVICE SECRET: dealing is disabled until the device is provisioned. ***\r\n");
    }
    if (cfg->emulation_only) {
        fd_put(&w, "*** EMULATION ONLY: entropy is the host's, read through semihosting. "
                   "Not a hardware TRNG: never use this build at a table. ***\r\n");
    }
    put_journal_banner(&w, d);
    if (fd_dealer_in_fault(d)) {
        fd_put(&w, "*** ENTROPY FAULT: ");
        fd_put(&w, fault_reason(d));
        fd_put(&w, ". Dealing is disabled until SELFTEST passes. ***\r\n");
    }
    fd_put(&w, "Type HELP for commands.\r\n");
    prompt(c);
}

void fd_console_lost(fd_console *c) { c->line.overrun = true; }

static bool line_blank(const fd_linebuf *lb)
{
    for (size_t i = 0; i < lb->len; i++) {
        if (!is_blank(lb->text[i])) {
            return false;
        }
    }
    return true;
}

/* A line has ended: its one reply, or none for a blank line. */
static bool end_line(fd_console *c)
{
    fd_linebuf *lb = &c->line;
    const fd_writer w = {c->out, c->out_ctx};
    bool replied = true;
    if (lb->overrun) {
        reply_err(&w, "overrun", "received bytes lost: line discarded");
    } else if (lb->too_long) {
        reply_err(&w, "toolong", "line longer than 144 characters discarded");
    } else if (lb->bad_byte) {
        reply_err(&w, "badbyte", "NUL, control or non-ASCII byte: line discarded");
    } else if (!line_blank(lb)) {
        fd_console_command(c, lb->text, lb->len);
    } else {
        replied = false; /* empty or blank line, or the LF of a CR LF pair */
    }
    lb->len = 0;
    lb->too_long = false;
    lb->bad_byte = false;
    lb->overrun = false;
    return replied;
}

/* Human mode's echo: every echoed line follows a prompt, so no echo can
 * start a line the way a reply does ("OK ...", "ERR ..."). A line end is
 * echoed as CR LF; the LF of a CR LF pair is not echoed again. */
static void echo_byte(const fd_console *c, uint8_t byte)
{
    if (!c->human || !c->echo) {
        return;
    }
    if (byte == '\r' || (byte == '\n' && !c->after_cr)) {
        c->out(c->out_ctx, "\r\n", 2);
    } else if (byte >= 0x20u && byte < 0x7Fu) {
        c->out(c->out_ctx, (const char *)&byte, 1);
    }
}

bool fd_console_feed(fd_console *c, uint8_t byte)
{
    fd_linebuf *lb = &c->line;
    echo_byte(c, byte);
    const bool lf_of_crlf = byte == '\n' && c->after_cr;
    c->after_cr = byte == '\r';
    if (byte == '\n' || byte == '\r') {
        const bool replied = end_line(c);
        /* after a reply, and in human mode after a blank line too (not after
         * the LF of a CR LF pair: its prompt is out already) */
        if ((replied || !lf_of_crlf) && !fd_dealer_quit_requested(c->dealer)) {
            prompt(c);
        }
        return replied;
    }
    if ((byte < 0x20u && byte != '\t') || byte >= 0x7Fu) {
        lb->bad_byte = true;
    } else if (lb->len >= FD_CONSOLE_MAX_LINE) {
        lb->too_long = true;
    } else {
        lb->text[lb->len] = (char)byte;
        lb->len = (uint8_t)(lb->len + 1u);
    }
    return false;
}
