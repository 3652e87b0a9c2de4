/* Strict reading of the verifiers' text inputs (verify_text.h). */
#include "verify_text.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fairdeal/sha256.h"

static char context[96];

void fd_tool_context(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(context, sizeof context, fmt, ap);
    va_end(ap);
}

_Noreturn void fd_tool_reject(const char *fmt, ...)
{
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    fprintf(stderr, "fairdeal-tool: verify: %s%s%s\n", context, context[0] != '\0' ? ": " : "", why);
    exit(1);
}

/* At most 24 bytes of s, non-printable bytes as '?': for error lines. */
static const char *shown(fd_tool_span s)
{
    static char out[4][28];
    static unsigned next;
    char *o = out[next++ % 4u];
    size_t i = 0;
    for (; i < s.n && i < 24u; i++) {
        o[i] = s.p[i] >= 0x20 && s.p[i] < 0x7F ? s.p[i] : '?';
    }
    o[i] = '\0';
    return o;
}

fd_tool_span fd_tool_str(const char *s) { return (fd_tool_span){s, strlen(s)}; }

bool fd_tool_is(fd_tool_span s, const char *lit) { return s.n == strlen(lit) && memcmp(s.p, lit, s.n) == 0; }

fd_tool_span fd_tool_next(fd_tool_span *rest, char sep, bool *more)
{
    const char *at = rest->n != 0u ? memchr(rest->p, sep, rest->n) : NULL;
    fd_tool_span piece = {rest->p, at != NULL ? (size_t)(at - rest->p) : rest->n};
    *more = at != NULL;
    rest->p += at != NULL ? piece.n + 1u : piece.n;
    rest->n -= at != NULL ? piece.n + 1u : piece.n;
    return piece;
}

static bool listed(fd_tool_span key, const char *const *list)
{
    for (; list != NULL && *list != NULL; list++) {
        if (fd_tool_is(key, *list)) {
            return true;
        }
    }
    return false;
}

void fd_tool_fields_parse(fd_tool_span text, const char *const *required, const char *const *optional,
                          fd_tool_fields *f)
{
    f->count = 0;
    bool more = text.n != 0u;
    while (more) {
        const fd_tool_span item = fd_tool_next(&text, ' ', &more);
        const char *eq = item.n != 0u ? memchr(item.p, '=', item.n) : NULL;
        if (eq == NULL || eq == item.p) {
            fd_tool_reject("malformed field '%s': not key=value", shown(item));
        }
        const fd_tool_span key = {item.p, (size_t)(eq - item.p)};
        if (!listed(key, required) && !listed(key, optional)) {
            fd_tool_reject("unknown key %s=", shown(key));
        }
        for (size_t i = 0; i < f->count; i++) {
            if (f->key[i].n == key.n && memcmp(f->key[i].p, key.p, key.n) == 0) {
                fd_tool_reject("duplicate key %s=", shown(key));
            }
        }
        if (f->count == FD_TOOL_MAX_FIELDS) {
            fd_tool_reject("malformed line: more than %u fields", FD_TOOL_MAX_FIELDS);
        }
        f->key[f->count] = key;
        f->value[f->count] = (fd_tool_span){eq + 1, item.n - key.n - 1u};
        f->count++;
    }
    for (; required != NULL && *required != NULL; required++) {
        if (fd_tool_get(f, *required).p == NULL) {
            fd_tool_reject("missing key %s=", *required);
        }
    }
}

fd_tool_span fd_tool_get(const fd_tool_fields *f, const char *key)
{
    for (size_t i = 0; i < f->count; i++) {
        if (fd_tool_is(f->key[i], key)) {
            return f->value[i];
        }
    }
    return (fd_tool_span){NULL, 0};
}

uint64_t fd_tool_decimal(const char *what, fd_tool_span s, uint64_t low, uint64_t high)
{
    bool digits = s.n >= 1u && (s.p[0] != '0' || s.n == 1u);
    for (size_t i = 0; digits && i < s.n; i++) {
        digits = s.p[i] >= '0' && s.p[i] <= '9';
    }
    if (!digits) {
        fd_tool_reject("%s=%s is not a decimal number", what, shown(s));
    }
    uint64_t v = 0;
    bool over = false;
    for (size_t i = 0; i < s.n && !over; i++) {
        const uint64_t digit = (uint64_t)(s.p[i] - '0');
        over = v > (UINT64_MAX - digit) / 10u;
        v = v * 10u + digit;
    }
    if (over || v < low || v > high) {
        fd_tool_reject("%s=%s out of range %llu..%llu", what, shown(s), (unsigned long long)low,
                       (unsigned long long)high);
    }
    return v;
}

size_t fd_tool_hex(const char *what, fd_tool_span s, uint8_t *out, size_t low, size_t high)
{
    bool ok = s.n % 2u == 0u;
    for (size_t i = 0; ok && i < s.n; i++) {
        ok = (s.p[i] >= '0' && s.p[i] <= '9') || (s.p[i] >= 'a' && s.p[i] <= 'f');
    }
    if (!ok) {
        fd_tool_reject("%s= is not lower-case hex", what);
    }
    const size_t len = s.n / 2u;
    if (len < low || len > high) {
        fd_tool_reject("%s= out of range: %zu bytes, not %zu..%zu", what, len, low, high);
    }
    for (size_t i = 0; i < len; i++) {
        const char hi = s.p[2u * i], lo = s.p[2u * i + 1u];
        out[i] = (uint8_t)(((hi <= '9' ? hi - '0' : hi - 'a' + 10) << 4) | (lo <= '9' ? lo - '0' : lo - 'a' + 10));
    }
    return len;
}

void fd_tool_shoe(fd_tool_span s, fd_deck_kind *kind, uint8_t *decks, uint8_t *jokers)
{
    bool more = false;
    const fd_tool_span name = fd_tool_next(&s, ':', &more);
    const fd_tool_span d = more ? fd_tool_next(&s, ':', &more) : (fd_tool_span){NULL, 0};
    if (!more || memchr(s.p, ':', s.n) != NULL) {
        fd_tool_reject("malformed shoe: not kind:decks:jokers");
    }
    if (fd_deck_parse_kind(name.p, name.n, kind) != FD_OK) {
        fd_tool_reject("unknown deck kind %s", shown(name));
    }
    *decks = (uint8_t)fd_tool_decimal("decks", d, 1, FD_SHOE_MAX_DECKS);
    *jokers = (uint8_t)fd_tool_decimal("jokers", s, 0, *kind == FD_DECK_FRENCH ? 2u : 0u);
}

void fd_tool_beacon(fd_tool_span s, fd_round_header *h)
{
    h->beacon_slot = FD_ROUND_NO_BEACON;
    h->beacon_index = 0;
    if (fd_tool_is(s, "none")) {
        return;
    }
    bool more = false;
    const fd_tool_span slot = fd_tool_next(&s, ':', &more);
    if (!more) {
        fd_tool_reject("malformed beacon=%s: not SLOT:INDEX or none", shown(slot));
    }
    const unsigned n = (unsigned)fd_tool_decimal("beacon slot", slot, 0, FD_ROUND_SLOTS - 1u);
    h->beacon_index = fd_tool_decimal("beacon index", s, 0, UINT64_MAX);
    if (((h->slot_mask >> n) & 1u) == 0u) {
        fd_tool_reject("beacon slot %u not accepted by slots=%02x", n, h->slot_mask);
    }
    h->beacon_slot = (uint8_t)n;
}

void fd_tool_seed(fd_tool_span s, const fd_round_header *h, fd_round_seeds *seeds)
{
    bool more = false;
    const fd_tool_span slot = fd_tool_next(&s, ':', &more);
    if (!more) {
        fd_tool_reject("malformed seed '%s': not SLOT:HEX", shown(slot));
    }
    const unsigned n = (unsigned)fd_tool_decimal("seed slot", slot, 0, FD_ROUND_SLOTS - 1u);
    if (seeds->len[n] != 0u) {
        fd_tool_reject("seeds: duplicate slot %u", n);
    }
    for (unsigned later = n + 1u; later < FD_ROUND_SLOTS; later++) {
        if (seeds->len[later] != 0u) {
            fd_tool_reject("seeds: slots out of order (%u after %u)", n, later);
        }
    }
    if (((h->slot_mask >> n) & 1u) == 0u) {
        fd_tool_reject("seed slot %u not accepted by slots=%02x", n, h->slot_mask);
    }
    seeds->len[n] = (uint8_t)fd_tool_hex("seed", s, seeds->seed[n], 1, FD_ROUND_SEED_MAX);
}

static const char *const round_keys[] = {"device", "id",         "shoe",  "slots", "beacon",
                                         "secret", "commitment", "order", "seeds", NULL};
static const char *const reveal_keys[] = {"seq", "head", "label", "skipped", NULL};

void fd_tool_skipped_parse(fd_tool_span s, size_t cards, fd_tool_skipped *out)
{
    size_t items = 1;
    for (size_t i = 0; i < s.n; i++) {
        items += s.p[i] == ',' ? 1u : 0u;
    }
    if (items > FD_REC_SKIPPED_MAX) {
        fd_tool_reject("skipped= more than %u ranges", FD_REC_SKIPPED_MAX);
    }
    out->count = 0;
    bool more = true;
    while (more) {
        fd_tool_span item = fd_tool_next(&s, ',', &more);
        const fd_tool_span whole = item;
        bool dash = false;
        const fd_tool_span first_text = fd_tool_next(&item, '-', &dash);
        const uint64_t first = fd_tool_decimal("skipped", first_text, 0, cards - 1u);
        const uint64_t last = dash ? fd_tool_decimal("skipped", item, 0, cards - 1u) : first;
        if (dash && last <= first) {
            fd_tool_reject("skipped= range %s is not ascending", shown(whole));
        }
        if (out->count > 0u && first <= out->last[out->count - 1u]) {
            fd_tool_reject("skipped= ranges overlap or are out of order");
        }
        out->first[out->count] = (uint16_t)first;
        out->last[out->count] = (uint16_t)last;
        out->count++;
    }
}

void fd_tool_round_parse(fd_tool_span text, fd_tool_round *r)
{
    memset(r, 0, sizeof *r);
    fd_tool_fields_parse(text, round_keys, reveal_keys, &r->f);
    fd_round_header *h = &r->header;
    h->device_id_len =
        (uint8_t)fd_tool_hex("device", fd_tool_get(&r->f, "device"), h->device_id, 1, FD_ROUND_DEVICE_ID_MAX);
    h->round_id = (uint32_t)fd_tool_decimal("id", fd_tool_get(&r->f, "id"), 0, UINT32_MAX);
    fd_tool_shoe(fd_tool_get(&r->f, "shoe"), &h->kind, &h->decks, &h->jokers);
    (void)fd_tool_hex("slots", fd_tool_get(&r->f, "slots"), &h->slot_mask, 1, 1);
    fd_tool_beacon(fd_tool_get(&r->f, "beacon"), h);
    uint16_t per_deck = 0;
    (void)fd_deck_size(h->kind, h->jokers, &per_deck); /* cannot fail: the shoe was checked */
    const size_t n = (size_t)per_deck * h->decks;
    r->secret_len =
        fd_tool_hex("secret", fd_tool_get(&r->f, "secret"), r->secret, fd_round_secret_min(n), FD_ROUND_SECRET_MAX);
    (void)fd_round_seeds_clear(&r->seeds); /* cannot fail: not NULL */
    fd_tool_span seeds = fd_tool_get(&r->f, "seeds");
    if (!fd_tool_is(seeds, "none")) {
        bool more = true;
        while (more) {
            fd_tool_seed(fd_tool_next(&seeds, ';', &more), h, &r->seeds);
        }
    }
    (void)fd_tool_hex("commitment", fd_tool_get(&r->f, "commitment"), r->commitment, FD_SHA256_SIZE, FD_SHA256_SIZE);
    fd_tool_span order = fd_tool_get(&r->f, "order");
    bool more = true;
    while (more) {
        const fd_tool_span id = fd_tool_next(&order, ',', &more);
        const fd_card card = (fd_card)fd_tool_decimal("order", id, 0, FD_SHOE_MAX_DECKS * 64u - 1u);
        if (r->count == FD_SHOE_MAX_CARDS) {
            fd_tool_reject("order does not match: more than %u cards", FD_SHOE_MAX_CARDS);
        }
        r->order[r->count++] = card;
    }
    const fd_tool_span seq = fd_tool_get(&r->f, "seq");
    if (seq.p != NULL) {
        (void)fd_tool_decimal("seq", seq, 0, UINT32_MAX);
    }
    const fd_tool_span head = fd_tool_get(&r->f, "head");
    uint8_t digest[FD_SHA256_SIZE];
    if (head.p != NULL) {
        (void)fd_tool_hex("head", head, digest, FD_SHA256_SIZE, FD_SHA256_SIZE);
    }
    const fd_tool_span skipped = fd_tool_get(&r->f, "skipped");
    if (skipped.p != NULL) {
        fd_tool_skipped_parse(skipped, n, &r->skipped);
    }
    const fd_tool_span label = fd_tool_get(&r->f, "label");
    const bool house_only = fd_round_house_only(&r->seeds);
    if (label.p != NULL && !fd_tool_is(label, house_only ? "house-only" : "seeded")) {
        fd_tool_reject("mislabelled: label=%s, the round is %s", shown(label), house_only ? "house-only" : "seeded");
    }
}

void fd_tool_round_verify(const fd_tool_round *r)
{
    uint8_t commitment[FD_SHA256_SIZE];
    static fd_shoe shoe;
    if (fd_round_commit(&r->header, r->secret, r->secret_len, commitment) != FD_OK ||
        memcmp(commitment, r->commitment, sizeof commitment) != 0) {
        fd_tool_reject("round %lu: commitment does not match the header and S", (unsigned long)r->header.round_id);
    }
    if (fd_round_deal_order(&r->header, r->secret, r->secret_len, &r->seeds, &shoe, NULL) != FD_OK ||
        shoe.count != r->count || memcmp(shoe.order, r->order, sizeof r->order[0] * r->count) != 0) {
        fd_tool_reject("round %lu: order does not match the one S, the seeds and the header derive",
                       (unsigned long)r->header.round_id);
    }
}

bool fd_tool_read_line(FILE *in, char *buf, size_t size, size_t *len)
{
    size_t n = 0;
    int c = getc(in);
    if (c == EOF) {
        return false;
    }
    while (c != EOF && c != '\n') {
        if (n + 1u >= size) {
            fd_tool_reject("line longer than %zu characters", size - 1u);
        }
        buf[n++] = (char)c;
        c = getc(in);
    }
    if (n > 0u && buf[n - 1u] == '\r') {
        n--;
    }
    buf[n] = '\0';
    *len = n;
    return true;
}
