#include "dealer.h"

#include <string.h>

#include "fairdeal/selftest.h"
#include "fairdeal/sha256.h"
#include "fairdeal/shuffle.h"
#include "fairdeal/util.h"

/* ---- output helpers (no printf: it would pull in the heap) ---- */

typedef struct writer {
    fd_write_fn fn;
    void *ctx;
} writer;

static void put(const writer *w, const char *s) { w->fn(w->ctx, s, strlen(s)); }

static void put_u32(const writer *w, uint32_t v)
{
    char digits[10];
    w->fn(w->ctx, digits, fd_dec_encode(v, digits));
}

static void put_hex(const writer *w, const uint8_t *bin, size_t len)
{
    char hex[2u * 32u + 1u];
    while (len > 0u) {
        size_t n = len < 32u ? len : 32u;
        (void)fd_hex_encode(bin, n, hex, sizeof hex);
        w->fn(w->ctx, hex, 2u * n);
        bin += n;
        len -= n;
    }
}

static void reply_err(const writer *w, const char *code, const char *message)
{
    put(w, "ERR ");
    put(w, code);
    put(w, " ");
    put(w, message);
    put(w, "\r\n");
}

/* ---- entropy plumbing ---- */

static fd_status entropy_block(void *ctx, uint8_t out[32]) { return fd_entropy_get(ctx, out); }

static const char *fault_reason(const fd_dealer *d)
{
    switch (d->fault_status) {
    case FD_ERR_HEALTH:
        return d->fault_health == FD_HEALTH_RCT   ? "health test failed (repetition count)"
               : d->fault_health == FD_HEALTH_LAG ? "health test failed (repeating pattern)"
                                                  : "health test failed (adaptive proportion)";
    case FD_ERR_TRNG_HW:
        return "TRNG hardware error";
    case FD_ERR_TRNG_TIMEOUT:
        return "TRNG timeout";
    case FD_ERR_KAT:
        return "known-answer self-test failed";
    case FD_ERR_NOT_READY:
        return "start-up tests not passed";
    default:
        return fd_status_name(d->fault_status);
    }
}

static void enter_fault(fd_dealer *d, fd_status why)
{
    d->fault = true;
    d->fault_status = why;
    d->fault_health = d->entropy.health_failure;
    /* nothing drawn from the failing source may be dealt or reused */
    d->shoe.shuffled = false;
    d->committed = false;
    fd_fullentropy_clear(&d->full);
    fd_drbg_uninstantiate(&d->drbg);
}

/* KATs, source restart, start-up health tests, fresh DRBG. On success
 * clears the fault. */
static fd_status run_selftest(fd_dealer *d)
{
    fd_status st = fd_selftest_kat();
    if (st == FD_OK && d->cfg.restart_source != NULL) {
        st = d->cfg.restart_source(d->cfg.read_ctx);
    }
    if (st == FD_OK) {
        st = fd_entropy_startup(&d->entropy);
    }
    if (st == FD_OK) {
        const fd_drbg_config dc = {d->cfg.drbg_kind, false, 1u << 20, 0};
        static const uint8_t pers[] = "fairdeal dealer";
        st = fd_drbg_instantiate(&d->drbg, &dc, entropy_block, &d->entropy, pers, sizeof pers - 1u);
    }
    if (st == FD_OK) {
        fd_fullentropy_clear(&d->full);
        d->fault = false;
        d->fault_status = FD_OK;
        d->fault_health = FD_HEALTH_NONE;
    } else {
        enter_fault(d, st);
    }
    return st;
}

fd_status fd_dealer_init(fd_dealer *d, const fd_dealer_config *cfg)
{
    if (d == NULL || cfg == NULL || cfg->read_samples == NULL) {
        return FD_ERR_NULL;
    }
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    (void)fd_shoe_init(&d->shoe, FD_DECK_FRENCH, 1, 0);
    d->factory = true;
    fd_status st = fd_entropy_init(&d->entropy, cfg->read_samples, cfg->read_ctx, &cfg->health,
                                   cfg->samples_per_block);
    if (st != FD_OK) {
        enter_fault(d, st);
        return st;
    }
    const fd_rng bytes = fd_entropy_rng(&d->entropy);
    (void)fd_fullentropy_init(&d->full, &bytes);
    return run_selftest(d);
}

static const char *drbg_name(fd_drbg_kind kind)
{
    return kind == FD_DRBG_HMAC_SHA256 ? "hmac-sha256" : "chacha20";
}

void fd_dealer_banner(const fd_dealer *d, fd_write_fn out, void *ctx)
{
    const writer w = {out, ctx};
    put(&w, "fairdeal dealer " FD_DEALER_VERSION " board=");
    put(&w, d->cfg.board);
    put(&w, " drbg=");
    put(&w, drbg_name(d->cfg.drbg_kind));
    put(&w, "\r\nentropy: ");
    put(&w, d->cfg.trng_name);
    put(&w, ", health tests RCT ");
    put_u32(&w, d->cfg.health.rct_cutoff);
    put(&w, ", APT ");
    put_u32(&w, d->cfg.health.apt_cutoff);
    put(&w, "/");
    put_u32(&w, d->cfg.health.apt_window);
    put(&w, "\r\n");
    if (d->cfg.emulation_only) {
        put(&w, "*** EMULATION ONLY: entropy is the host's, read through semihosting. "
                "Not a hardware TRNG: never use this build at a table. ***\r\n");
    }
    if (d->fault) {
        put(&w, "*** ENTROPY FAULT: ");
        put(&w, fault_reason(d));
        put(&w, ". Dealing is disabled until SELFTEST passes. ***\r\n");
    }
    put(&w, "Type HELP for commands.\r\n");
}

/* ---- parsing ---- */

#define MAX_TOKENS 5u

typedef struct token {
    const char *text;
    size_t len;
} token;

static size_t tokenize(const char *line, size_t len, token *tokens)
{
    size_t count = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && (line[i] == ' ' || line[i] == '\t')) {
            i++;
        }
        if (i >= len) {
            break;
        }
        size_t start = i;
        while (i < len && line[i] != ' ' && line[i] != '\t') {
            i++;
        }
        if (count == MAX_TOKENS) {
            return MAX_TOKENS + 1u; /* too many */
        }
        tokens[count].text = line + start;
        tokens[count].len = i - start;
        count++;
    }
    return count;
}

static bool token_is(const token *t, const char *word)
{
    size_t n = strlen(word);
    if (t->len != n) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char c = t->text[i];
        if (c >= 'a' && c <= 'z') {
            c = (char)(c - 'a' + 'A');
        }
        char u = word[i];
        if (u >= 'a' && u <= 'z') {
            u = (char)(u - 'a' + 'A');
        }
        if (c != u) {
            return false;
        }
    }
    return true;
}

/* Decimal, 1 to 5 digits, no sign. */
static bool parse_number(const token *t, uint32_t *value)
{
    if (t->len == 0u || t->len > 5u) {
        return false;
    }
    uint32_t v = 0;
    for (size_t i = 0; i < t->len; i++) {
        if (t->text[i] < '0' || t->text[i] > '9') {
            return false;
        }
        v = v * 10u + (uint32_t)(t->text[i] - '0');
    }
    *value = v;
    return true;
}

/* ---- the order as text: the committed message and the REVEAL listing ---- */

typedef void (*text_sink)(void *ctx, const char *s, size_t n);

static void emit_order(const fd_dealer *d, text_sink sink, void *ctx)
{
    for (uint16_t i = 0; i < d->shoe.count; i++) {
        char code[FD_CARD_CODE_SIZE];
        (void)fd_card_format(d->shoe.order[i], d->shoe.kind, code);
        if (i > 0u) {
            sink(ctx, " ", 1);
        }
        sink(ctx, code, strlen(code));
    }
}

static void hash_sink(void *ctx, const char *s, size_t n) { fd_sha256_update(ctx, s, n); }

/* commitment = SHA-256(salt as 32 lowercase hex chars || " " || order text) */
static void compute_commitment(fd_dealer *d)
{
    char salt_hex[33];
    (void)fd_hex_encode(d->salt, sizeof d->salt, salt_hex, sizeof salt_hex);
    fd_sha256_ctx h;
    fd_sha256_init(&h);
    fd_sha256_update(&h, salt_hex, 32);
    fd_sha256_update(&h, " ", 1);
    emit_order(d, hash_sink, &h);
    fd_sha256_final(&h, d->commitment);
}

/* ---- commands ---- */

static void reply_entropy_fault(const fd_dealer *d, const writer *w)
{
    put(w, "ERR entropy ");
    put(w, fault_reason(d));
    put(w, "; SELFTEST required\r\n");
}

static void cmd_help(const writer *w)
{
    put(w, "OK HELP NEW <french|spanish40|spanish48> [decks 1-8] [jokers 0-2] | SHUFFLE [full] | "
           "DEAL <n> [players 1-8] | BURN | CUT <n> | REVEAL | STATUS | SELFTEST | HELP | QUIT\r\n");
}

static void cmd_new(fd_dealer *d, const token *t, size_t n, const writer *w)
{
    if (n < 2u || n > 4u) {
        reply_err(w, "syntax", "usage: NEW <french|spanish40|spanish48> [decks] [jokers]");
        return;
    }
    fd_deck_kind kind;
    char lower[12];
    if (t[1].len >= sizeof lower) {
        reply_err(w, "syntax", "unknown deck: use french, spanish40 or spanish48");
        return;
    }
    for (size_t i = 0; i < t[1].len; i++) {
        char c = t[1].text[i];
        if (c >= 'A' && c <= 'Z') {
            c = (char)(c - 'A' + 'a');
        }
        lower[i] = c;
    }
    if (fd_deck_parse_kind(lower, t[1].len, &kind) != FD_OK) {
        reply_err(w, "syntax", "unknown deck: use french, spanish40 or spanish48");
        return;
    }
    uint32_t decks = 1;
    uint32_t jokers = 0;
    if ((n >= 3u && !parse_number(&t[2], &decks)) || (n == 4u && !parse_number(&t[3], &jokers))) {
        reply_err(w, "syntax", "decks and jokers are decimal numbers");
        return;
    }
    if (decks < 1u || decks > FD_SHOE_MAX_DECKS) {
        reply_err(w, "range", "decks must be 1 to 8");
        return;
    }
    if (jokers > (kind == FD_DECK_FRENCH ? 2u : 0u)) {
        reply_err(w, "range", "jokers must be 0 to 2 (French decks only)");
        return;
    }
    (void)fd_shoe_init(&d->shoe, kind, decks, jokers);
    d->factory = true;
    d->committed = false;
    d->revealed = false;
    put(w, "OK NEW deck=");
    put(w, fd_deck_kind_name(kind));
    put(w, " decks=");
    put_u32(w, decks);
    put(w, " jokers=");
    put_u32(w, jokers);
    put(w, " cards=");
    put_u32(w, d->shoe.count);
    put(w, "\r\n");
}

static void cmd_shuffle(fd_dealer *d, const token *t, size_t n, const writer *w)
{
    bool full = false;
    if (n == 2u && token_is(&t[1], "full")) {
        full = true;
    } else if (n != 1u) {
        reply_err(w, "syntax", "usage: SHUFFLE [full]");
        return;
    }
    if (d->fault) {
        reply_entropy_fault(d, w);
        return;
    }
    fd_rng rng;
    fd_status st = FD_OK;
    if (full) {
        rng = fd_fullentropy_rng(&d->full);
    } else {
        /* fresh entropy into the DRBG before every shuffle */
        st = fd_drbg_reseed(&d->drbg, NULL, 0);
        rng = fd_drbg_rng(&d->drbg);
    }
    if (st == FD_OK) {
        st = rng.fill(rng.ctx, d->salt, sizeof d->salt);
    }
    if (st == FD_OK) {
        st = fd_shoe_shuffle(&d->shoe, &rng);
    }
    if (st != FD_OK) {
        enter_fault(d, st);
        reply_entropy_fault(d, w);
        return;
    }
    d->shuffle_id++;
    d->factory = false;
    d->committed = true;
    d->revealed = false;
    d->last_full = full;
    compute_commitment(d);
    put(w, "OK SHUFFLE id=");
    put_u32(w, d->shuffle_id);
    put(w, full ? " mode=full" : " mode=drbg");
    put(w, " cards=");
    put_u32(w, d->shoe.count);
    put(w, " commit=");
    put_hex(w, d->commitment, sizeof d->commitment);
    put(w, "\r\n");
}

static bool check_dealable(const fd_dealer *d, const writer *w)
{
    if (d->fault) {
        reply_entropy_fault(d, w);
        return false;
    }
    if (d->revealed) {
        reply_err(w, "state", "order already revealed: SHUFFLE first");
        return false;
    }
    if (!d->shoe.shuffled) {
        reply_err(w, "state", "not shuffled: SHUFFLE first");
        return false;
    }
    return true;
}

static void reply_left(const fd_dealer *d, const writer *w)
{
    put(w, " left=");
    put_u32(w, fd_shoe_remaining(&d->shoe));
    if (fd_shoe_reshuffle_due(&d->shoe)) {
        put(w, " reshuffle=due");
    }
    put(w, "\r\n");
}

static void cmd_deal(fd_dealer *d, const token *t, size_t n, const writer *w)
{
    uint32_t count = 0;
    uint32_t players = 1;
    if (n < 2u || n > 3u || !parse_number(&t[1], &count) || (n == 3u && !parse_number(&t[2], &players))) {
        reply_err(w, "syntax", "usage: DEAL <n> [players]");
        return;
    }
    if (count < 1u || count > FD_SHOE_MAX_CARDS) {
        reply_err(w, "range", "n must be 1 to 432");
        return;
    }
    if (players < 1u || players > FD_DEALER_MAX_PLAYERS) {
        reply_err(w, "range", "players must be 1 to 8");
        return;
    }
    if (!check_dealable(d, w)) {
        return;
    }
    const uint32_t total = count * players;
    if (total > fd_shoe_remaining(&d->shoe)) {
        put(w, "ERR exhausted only ");
        put_u32(w, fd_shoe_remaining(&d->shoe));
        put(w, " cards left\r\n");
        return;
    }
    /* Round-robin: card k goes to player k mod players. Shown per player. */
    const uint16_t start = d->shoe.position;
    put(w, "OK DEAL");
    for (uint32_t p = 0; p < players; p++) {
        put(w, " ");
        if (players > 1u) {
            put_u32(w, p + 1u);
            put(w, ":");
        }
        for (uint32_t c = 0; c < count; c++) {
            char code[FD_CARD_CODE_SIZE];
            (void)fd_card_format(d->shoe.order[start + c * players + p], d->shoe.kind, code);
            if (c > 0u) {
                put(w, players > 1u ? "," : " ");
            }
            put(w, code);
        }
    }
    for (uint32_t k = 0; k < total; k++) {
        fd_card dealt;
        (void)fd_shoe_deal(&d->shoe, &dealt);
    }
    reply_left(d, w);
}

static void cmd_burn(fd_dealer *d, size_t n, const writer *w)
{
    if (n != 1u) {
        reply_err(w, "syntax", "usage: BURN");
        return;
    }
    if (!check_dealable(d, w)) {
        return;
    }
    fd_card burned;
    if (fd_shoe_deal(&d->shoe, &burned) != FD_OK) {
        reply_err(w, "exhausted", "no cards left");
        return;
    }
    put(w, "OK BURN");
    reply_left(d, w);
}

static void cmd_cut(fd_dealer *d, const token *t, size_t n, const writer *w)
{
    uint32_t cut = 0;
    if (n != 2u || !parse_number(&t[1], &cut)) {
        reply_err(w, "syntax", "usage: CUT <n> (0 removes the cut card)");
        return;
    }
    if (cut > d->shoe.count) {
        reply_err(w, "range", "cut beyond the last card");
        return;
    }
    (void)fd_shoe_set_cut(&d->shoe, (uint16_t)cut);
    put(w, "OK CUT ");
    put_u32(w, cut);
    put(w, "\r\n");
}

static void write_sink(void *ctx, const char *s, size_t n)
{
    const writer *w = ctx;
    w->fn(w->ctx, s, n);
}

static void cmd_reveal(fd_dealer *d, size_t n, const writer *w)
{
    if (n != 1u) {
        reply_err(w, "syntax", "usage: REVEAL");
        return;
    }
    if (!d->committed) {
        reply_err(w, "state", "no committed shuffle to reveal");
        return;
    }
    d->committed = false;
    d->revealed = true;
    d->shoe.shuffled = false; /* a revealed order is never dealt from */
    put(w, "OK REVEAL id=");
    put_u32(w, d->shuffle_id);
    put(w, " salt=");
    put_hex(w, d->salt, sizeof d->salt);
    put(w, " order=");
    emit_order(d, write_sink, (void *)w);
    put(w, "\r\n");
}

static const char *shoe_state(const fd_dealer *d)
{
    if (d->revealed) {
        return "revealed";
    }
    if (d->shoe.shuffled) {
        return "shuffled";
    }
    return d->factory ? "factory" : "unshuffled";
}

static void cmd_status(const fd_dealer *d, size_t n, const writer *w)
{
    if (n != 1u) {
        reply_err(w, "syntax", "usage: STATUS");
        return;
    }
    put(w, "OK STATUS board=");
    put(w, d->cfg.board);
    put(w, " deck=");
    put(w, fd_deck_kind_name(d->shoe.kind));
    put(w, " decks=");
    put_u32(w, d->shoe.decks);
    put(w, " cards=");
    put_u32(w, d->shoe.count);
    put(w, " left=");
    put_u32(w, d->shoe.shuffled ? fd_shoe_remaining(&d->shoe) : 0u);
    put(w, " state=");
    put(w, shoe_state(d));
    put(w, " shuffles=");
    put_u32(w, d->shuffle_id);
    put(w, " cut=");
    put_u32(w, d->shoe.cut);
    put(w, fd_shoe_reshuffle_due(&d->shoe) ? " reshuffle=due" : " reshuffle=no");
    put(w, " entropy=");
    put(w, d->fault ? "fault" : "ok");
    put(w, " health=");
    const fd_health_failure hf = d->fault ? d->fault_health : FD_HEALTH_NONE;
    put(w, hf == FD_HEALTH_RCT   ? "rct-fail"
           : hf == FD_HEALTH_APT ? "apt-fail"
           : hf == FD_HEALTH_LAG ? "lag-fail"
                                 : "ok");
    put(w, " reseeds=");
    put_u32(w, d->drbg.reseeds);
    put(w, " raw_samples=");
    put_u32(w, d->entropy.raw_samples);
    put(w, " drbg=");
    put(w, drbg_name(d->cfg.drbg_kind));
    put(w, "\r\n");
}

static void cmd_selftest(fd_dealer *d, size_t n, const writer *w)
{
    if (n != 1u) {
        reply_err(w, "syntax", "usage: SELFTEST");
        return;
    }
    const bool was_dealable = d->shoe.shuffled;
    const uint32_t before = d->entropy.raw_samples;
    fd_status st = run_selftest(d);
    if (st == FD_ERR_KAT) {
        reply_err(w, "selftest", "known-answer test failed; dealing disabled");
        return;
    }
    if (st != FD_OK) {
        reply_entropy_fault(d, w);
        return;
    }
    d->shoe.shuffled = was_dealable;
    put(w, "OK SELFTEST kat=pass startup=pass samples=");
    put_u32(w, d->entropy.raw_samples - before);
    put(w, "\r\n");
}

void fd_dealer_command(fd_dealer *d, const char *line, size_t len, fd_write_fn out, void *ctx)
{
    const writer w = {out, ctx};
    token t[MAX_TOKENS];
    size_t n = tokenize(line, len, t);
    d->commands++;
    if (n == 0u) {
        reply_err(&w, "syntax", "empty command");
        return;
    }
    if (n > MAX_TOKENS) {
        reply_err(&w, "syntax", "too many arguments");
        return;
    }
    if (token_is(&t[0], "HELP")) {
        if (n != 1u) {
            reply_err(&w, "syntax", "usage: HELP");
            return;
        }
        cmd_help(&w);
    } else if (token_is(&t[0], "NEW")) {
        cmd_new(d, t, n, &w);
    } else if (token_is(&t[0], "SHUFFLE")) {
        cmd_shuffle(d, t, n, &w);
    } else if (token_is(&t[0], "DEAL")) {
        cmd_deal(d, t, n, &w);
    } else if (token_is(&t[0], "BURN")) {
        cmd_burn(d, n, &w);
    } else if (token_is(&t[0], "CUT")) {
        cmd_cut(d, t, n, &w);
    } else if (token_is(&t[0], "REVEAL")) {
        cmd_reveal(d, n, &w);
    } else if (token_is(&t[0], "STATUS")) {
        cmd_status(d, n, &w);
    } else if (token_is(&t[0], "SELFTEST")) {
        cmd_selftest(d, n, &w);
    } else if (token_is(&t[0], "QUIT")) {
        if (n != 1u) {
            reply_err(&w, "syntax", "usage: QUIT");
            return;
        }
        d->quit = true;
        put(&w, "OK BYE\r\n");
    } else {
        reply_err(&w, "unknown", "unknown command; HELP lists them");
    }
}

bool fd_dealer_feed(fd_dealer *d, uint8_t byte, fd_write_fn out, void *ctx)
{
    fd_linebuf *lb = &d->line;
    if (byte == '\n' || byte == '\r') {
        const writer w = {out, ctx};
        bool replied = true;
        if (lb->too_long) {
            d->commands++;
            reply_err(&w, "toolong", "line longer than 80 characters discarded");
        } else if (lb->bad_byte) {
            d->commands++;
            reply_err(&w, "badbyte", "NUL, control or non-ASCII byte: line discarded");
        } else if (lb->len > 0u) {
            fd_dealer_command(d, lb->text, lb->len, out, ctx);
        } else {
            replied = false; /* empty line, or the LF of a CR LF pair */
        }
        lb->len = 0;
        lb->too_long = false;
        lb->bad_byte = false;
        return replied;
    }
    if ((byte < 0x20u && byte != '\t') || byte >= 0x7Fu) {
        lb->bad_byte = true;
    } else if (lb->len >= FD_DEALER_MAX_LINE) {
        lb->too_long = true;
    } else {
        lb->text[lb->len++] = (char)byte;
    }
    return false;
}
