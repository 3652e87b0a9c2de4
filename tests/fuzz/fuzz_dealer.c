/* libFuzzer target: the dealer's console, byte by byte, over a fake TRNG that
 * may fail part-way. Input: byte 0 picks the DRBG and a TRNG fault scenario,
 * two bytes place the fault; every byte after that is console input.
 * After every reply: one well-formed line (printable ASCII, CR LF); an ERR (other than an entropy
 * fault) changed nothing; the shoe still holds exactly its deck's cards;
 * dealt cards are the next cards of the order, never one twice; nothing is
 * shuffled or dealt while an entropy fault is latched; a REVEAL verifies
 * against the commitment SHUFFLE published (a verifiable round: through
 * fd_round_verify); a verifiable round deals nothing before it closes, keeps
 * its header, S and commitment while open, and never replaces a filled seed
 * slot; no round disappears: a SHUFFLE never replaces an open round, and a committed round is always revealable
 * (checked on a copy after every fault and at the end of every input): its
 * REVEAL hashes to its commitment.
 * The journal: a second dealer with storage (the host flash simulator, the
 * micro:bit's 31 pages) gets the same bytes over the same source; none of
 * its replies is ERR journal (but a fifth CUT in a round), and at the end a dealer powered on over its
 * flash comes back with the same newest round id, the same round open or
 * not and, if open, its commitment, seeds, state and deal position. */
#include <stdbool.h>
#include <string.h>

#include "dealer.h"
#include "fd_board_map.h"
#include "host_storage.h"
#include "protocol.h"
#include "fairdeal/sha256.h"
#include "fairdeal/util.h"
#include "fake_trng.h"
#include "fuzz_support.h"
#include "test_dealer_config.h"

static void capture_write(void *ctx, const char *data, size_t len) { FUZZ_CHECK(capture_append(ctx, data, len)); }

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

static fake_trng trng;
static fd_dealer dealer;
static fd_dealer before;
static fd_dealer probe;
static fd_dealer pristine[2];
static fake_trng pristine_trng[2];

static void make_pristine(unsigned i, fd_drbg_kind kind)
{
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 0x5eed + i);
    const fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, kind);
    FUZZ_CHECK(fd_dealer_init(&pristine[i], &cfg) == FD_OK);
    pristine_trng[i] = trng;
}

static bool starts_with(const capture *c, const char *prefix)
{
    size_t n = strlen(prefix);
    return c->len >= n && memcmp(c->text, prefix, n) == 0;
}

static int compare_codes(const void *a, const void *b) { return strcmp(a, b); }

static int compare_cards(const void *a, const void *b)
{
    const fd_card x = *(const fd_card *)a;
    const fd_card y = *(const fd_card *)b;
    return (x > y) - (x < y);
}

/* The shoe holds exactly the cards of a fresh shoe of its kind. */
static void check_shoe_complete(const fd_shoe *s)
{
    static fd_shoe fresh;
    static fd_card have[FD_SHOE_MAX_CARDS];
    FUZZ_CHECK(fd_shoe_init(&fresh, s->kind, s->decks, s->jokers) == FD_OK);
    FUZZ_CHECK(fresh.count == s->count);
    FUZZ_CHECK(s->position <= s->count);
    memcpy(have, s->order, sizeof(fd_card) * s->count);
    qsort(have, s->count, sizeof have[0], compare_cards);
    qsort(fresh.order, fresh.count, sizeof fresh.order[0], compare_cards);
    FUZZ_CHECK(memcmp(have, fresh.order, sizeof(fd_card) * s->count) == 0);
}

/* Codes of a DEAL reply ("7H QS" or "1:7H,2C 2:QS") up to " left=". */
static size_t dealt_codes(const capture *c, char codes[][FD_CARD_CODE_SIZE], size_t max)
{
    const char *p = c->text + strlen("OK DEAL ");
    const char *end = strstr(p, " left=");
    FUZZ_CHECK(end != NULL);
    size_t n = 0;
    while (p < end) {
        const char *tok = p;
        while (p < end && *p != ' ' && *p != ',') {
            p++;
        }
        const char *colon = memchr(tok, ':', (size_t)(p - tok));
        if (colon != NULL) {
            tok = colon + 1;
        }
        size_t len = (size_t)(p - tok);
        FUZZ_CHECK(len > 0u && len < FD_CARD_CODE_SIZE && n < max);
        memcpy(codes[n], tok, len);
        codes[n][len] = '\0';
        n++;
        if (p < end) {
            p++;
        }
    }
    return n;
}

static void check_deal(const capture *c, uint16_t from, uint16_t to, const fd_shoe *s)
{
    static char got[FD_SHOE_MAX_CARDS][FD_CARD_CODE_SIZE];
    static char want[FD_SHOE_MAX_CARDS][FD_CARD_CODE_SIZE];
    const size_t n = dealt_codes(c, got, FD_SHOE_MAX_CARDS);
    FUZZ_CHECK(to > from && n == (size_t)(to - from));
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(fd_card_format(s->order[from + i], s->kind, want[i]) == FD_OK);
    }
    qsort(got, n, sizeof got[0], compare_codes);
    qsort(want, n, sizeof want[0], compare_codes);
    FUZZ_CHECK(memcmp(got, want, n * sizeof got[0]) == 0);
}

/* A verifiable round's REVEAL: the commitment printed is SHUFFLE's, the
 * order printed (card ids) is the shoe's, and S, the seeds and the header
 * derive both. */
static void check_reveal_round(const capture *c, const fd_dealer *was, const fd_dealer *now)
{
    char hex[2u * FD_SHA256_SIZE + 1u];
    FUZZ_CHECK(fd_hex_encode(was->round.commitment, FD_SHA256_SIZE, hex, sizeof hex) == FD_OK);
    const char *commitment = strstr(c->text, " commitment=");
    FUZZ_CHECK(commitment != NULL && strncmp(commitment + 12, hex, 2u * FD_SHA256_SIZE) == 0);
    FUZZ_CHECK(memcmp(&now->round.header, &was->round.header, sizeof was->round.header) == 0);
    FUZZ_CHECK(fd_round_verify(&now->round.header, now->round.secret, now->round.secret_len, &now->round.seeds,
                               was->round.commitment, now->shoe.order, now->shoe.count) == FD_OK);
    const char *p = strstr(c->text, " order=");
    FUZZ_CHECK(p != NULL);
    p += 7;
    for (size_t i = 0; i < now->shoe.count; i++) {
        char *end = NULL;
        FUZZ_CHECK(strtoul(p, &end, 10) == now->shoe.order[i]);
        FUZZ_CHECK(*end == (i + 1u < now->shoe.count ? ',' : ' '));
        p = end + 1;
    }
    const char *label = fd_round_house_only(&now->round.seeds) ? "label=house-only\r\n" : "label=seeded\r\n";
    FUZZ_CHECK((size_t)(c->text + c->len - p) == strlen(label) && memcmp(p, label, strlen(label)) == 0);
}

/* While a verifiable round is open its header, S and commitment stay, and a
 * filled seed slot keeps its seed. */
static void check_round_kept(const fd_dealer *was, const fd_dealer *now)
{
    if (!fd_dealer_round_open(was) || was->round.mode != FD_RECORD_MODE_ROUND) {
        return;
    }
    FUZZ_CHECK(now->round.id == was->round.id && now->round.mode == FD_RECORD_MODE_ROUND);
    FUZZ_CHECK(memcmp(&now->round.header, &was->round.header, sizeof was->round.header) == 0);
    FUZZ_CHECK(memcmp(now->round.secret, was->round.secret, sizeof was->round.secret) == 0);
    FUZZ_CHECK(memcmp(now->round.commitment, was->round.commitment, sizeof was->round.commitment) == 0);
    for (unsigned i = 0; i < FD_ROUND_SLOTS; i++) {
        if (was->round.seeds.len[i] != 0u) {
            FUZZ_CHECK(now->round.seeds.len[i] == was->round.seeds.len[i] &&
                       memcmp(now->round.seeds.seed[i], was->round.seeds.seed[i], FD_ROUND_SEED_MAX) == 0);
        }
    }
}

/* REVEAL's salt and order hash to the commitment SHUFFLE published, and the
 * order is the shoe's. */
static void check_reveal(const capture *c, const fd_dealer *was, const fd_dealer *now)
{
    if (was->round.mode == FD_RECORD_MODE_ROUND) {
        check_reveal_round(c, was, now);
        return;
    }
    const fd_shoe *s = &now->shoe;
    const char *salt = strstr(c->text, " salt=");
    const char *order = strstr(c->text, " order=");
    FUZZ_CHECK(salt != NULL && order != NULL && order - salt == 6 + 32);
    salt += 6;
    order += 7;
    const size_t order_len = (size_t)(c->text + c->len - 2 - order); /* without CR LF */
    uint8_t digest[FD_SHA256_SIZE];
    fd_sha256_ctx h;
    fd_sha256_init(&h);
    fd_sha256_update(&h, salt, 32);
    fd_sha256_update(&h, " ", 1);
    fd_sha256_update(&h, order, order_len);
    fd_sha256_final(&h, digest);
    FUZZ_CHECK(memcmp(digest, was->round.commitment, sizeof digest) == 0);
    const char *p = order;
    for (size_t i = 0; i < s->count; i++) {
        char code[FD_CARD_CODE_SIZE];
        FUZZ_CHECK(fd_card_format(s->order[i], s->kind, code) == FD_OK);
        size_t len = strlen(code);
        FUZZ_CHECK(strncmp(p, code, len) == 0);
        p += len;
        FUZZ_CHECK(*p == (i + 1u < s->count ? ' ' : '\r'));
        p++;
    }
}

static void check_reply(const capture *c)
{
    if (getenv("FUZZ_VERBOSE") != NULL) {
        fprintf(stderr, "reply: %.*s", (int)c->len, c->text);
    }
    FUZZ_CHECK(c->len >= 5u && c->text[c->len - 2] == '\r' && c->text[c->len - 1] == '\n');
    for (size_t i = 0; i + 2u < c->len; i++) {
        FUZZ_CHECK(c->text[i] >= 0x20 && c->text[i] < 0x7F);
    }
    FUZZ_CHECK(starts_with(c, "OK ") || starts_with(c, "ERR "));
    FUZZ_CHECK(c->text[c->len - 3] != ' ');
}

static void check_after_reply(const capture *c)
{
    const fd_dealer *d = &dealer;
    check_reply(c);
    check_shoe_complete(&d->shoe);
    FUZZ_CHECK(fd_dealer_unrevealed_rounds(d) == (fd_dealer_round_open(d) ? 1u : 0u));
    if (starts_with(c, "ERR entropy") || starts_with(c, "ERR corrupt")) {
        FUZZ_CHECK(fd_dealer_in_fault(d));
        FUZZ_CHECK(fd_dealer_round_open(d) == fd_dealer_round_open(&before));
        FUZZ_CHECK(!d->shoe.shuffled || before.shoe.shuffled);
        FUZZ_CHECK(d->shoe.position == before.shoe.position);
        FUZZ_CHECK(memcmp(d->shoe.order, before.shoe.order, sizeof d->shoe.order) == 0);
    } else if (starts_with(c, "ERR ")) {
        FUZZ_CHECK(memcmp(&before, d, sizeof before) == 0);
    }
    if (fd_dealer_in_fault(&before)) {
        FUZZ_CHECK(!starts_with(c, "OK SHUFFLE") && !starts_with(c, "OK DEAL") && !starts_with(c, "OK BURN"));
    }
    if (!starts_with(c, "OK REVEAL")) {
        check_round_kept(&before, d);
    }
    const bool seeding = fd_dealer_get_state(d) == FD_DEALER_SEEDING;
    if (starts_with(c, "OK SHUFFLE")) {
        /* open for seeds: nothing dealable yet; otherwise a fresh order */
        FUZZ_CHECK(d->shoe.shuffled != seeding && d->shoe.position == 0u && fd_dealer_round_open(d));
        FUZZ_CHECK(!fd_dealer_round_open(&before)); /* never replaces an open round */
        FUZZ_CHECK(d->round.id == before.round.id + 1u);
    } else if (starts_with(c, "OK SEED") || starts_with(c, "OK CLOSE")) {
        FUZZ_CHECK(fd_dealer_get_state(&before) == FD_DEALER_SEEDING && !before.shoe.shuffled);
        FUZZ_CHECK(d->shoe.shuffled != seeding && d->shoe.position == 0u);
        FUZZ_CHECK(starts_with(c, "OK SEED") || !seeding);
    } else if (starts_with(c, "OK DEAL")) {
        FUZZ_CHECK(before.shoe.shuffled && fd_dealer_get_state(&before) == FD_DEALER_ROUND_OPEN);
        check_deal(c, before.shoe.position, d->shoe.position, &d->shoe);
    } else if (starts_with(c, "OK BURN")) {
        FUZZ_CHECK(before.shoe.shuffled && fd_dealer_get_state(&before) == FD_DEALER_ROUND_OPEN);
        FUZZ_CHECK(d->shoe.position == before.shoe.position + 1u);
    } else if (starts_with(c, "OK REVEAL")) {
        FUZZ_CHECK(fd_dealer_round_open(&before) && !fd_dealer_round_open(d) && !d->shoe.shuffled);
        check_reveal(c, &before, d);
    } else {
        /* nothing else moves the deal position forward */
        FUZZ_CHECK(d->shoe.position <= before.shoe.position || d->shoe.position == 0u);
    }
}

/* An open round can be revealed now, and its REVEAL verifies (on a copy:
 * the session goes on undisturbed). */
static void check_revealable(void)
{
    if (!fd_dealer_round_open(&dealer)) {
        return;
    }
    probe = dealer;
    fd_console c;
    capture reply = {{0}, 0};
    fd_console_init(&c, &probe, capture_write, &reply, false, false);
    fd_console_command(&c, "REVEAL", 6);
    check_reply(&reply);
    FUZZ_CHECK(starts_with(&reply, "OK REVEAL"));
    check_reveal(&reply, &dealer, &probe);
}

/* ---- the same session written ahead to a journal ---- */

static host_flash flash;
static uint8_t flash_mem[FD_FLASH_PAGE_SIZE * FD_STORAGE_PAGES];
static fd_dealer journalled; /* never copied: its journal points into it */
static fake_trng journalled_trng;
static fd_console journalled_console;
static capture journalled_reply;

static void start_journalled(fd_drbg_kind kind)
{
    FUZZ_CHECK(host_flash_open(&flash, flash_mem, FD_FLASH_PAGE_SIZE, FD_STORAGE_PAGES, NULL) == FD_OK);
    journalled_trng = trng; /* the same source, the same scenario */
    fd_dealer_config cfg = test_dealer_config(&journalled_trng, restart_ok, kind);
    cfg.storage = &flash.flash;
    (void)fd_dealer_init(&journalled, &cfg); /* the fault scenario may fail it: checked below */
    FUZZ_CHECK(journalled.persist.status == FD_OK);
    fd_console_init(&journalled_console, &journalled, capture_write, &journalled_reply, false, false);
}

static void feed_journalled(uint8_t byte)
{
    journalled_reply.len = 0;
    if (fd_console_feed(&journalled_console, byte)) {
        /* the one journal refusal a healthy flash gives: a fifth CUT in a round */
        FUZZ_CHECK(!starts_with(&journalled_reply, "ERR journal") ||
                   starts_with(&journalled_reply, "ERR journal this round's cut has moved"));
    }
}

/* Power off, power on over the same flash: the round state is back. */
static void check_recovered(fd_drbg_kind kind)
{
    static fd_dealer after;
    static fake_trng after_trng;
    fake_trng_init(&after_trng, FAKE_TRNG_RANDOM, 0xa5);
    fd_dealer_config cfg = test_dealer_config(&after_trng, restart_ok, kind);
    cfg.storage = &flash.flash;
    FUZZ_CHECK(fd_dealer_init(&after, &cfg) == FD_OK);
    FUZZ_CHECK(after.persist.status == FD_OK);
    FUZZ_CHECK(after.round.id == journalled.round.id);
    FUZZ_CHECK(fd_dealer_round_open(&after) == fd_dealer_round_open(&journalled));
    if (!fd_dealer_round_open(&after)) {
        return;
    }
    FUZZ_CHECK(memcmp(after.round.commitment, journalled.round.commitment, FD_COMMIT_SIZE) == 0);
    FUZZ_CHECK(after.round.mode == journalled.round.mode);
    if (after.round.mode == FD_RECORD_MODE_ROUND) { /* a drbg/full round leaves the last seeds in place, unused */
        FUZZ_CHECK(memcmp(&after.round.seeds, &journalled.round.seeds, sizeof after.round.seeds) == 0);
    }
    FUZZ_CHECK(after.shoe.position == journalled.shoe.position);
    FUZZ_CHECK(after.round.closed == journalled.round.closed);
    if (after.round.closed) {
        FUZZ_CHECK(memcmp(after.shoe.order, journalled.shoe.order, sizeof(fd_card) * after.shoe.count) == 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    if (!ready) {
        make_pristine(0, FD_DRBG_CHACHA20);
        make_pristine(1, FD_DRBG_HMAC_SHA256);
        ready = true;
    }
    fuzz_input in = {data, size, 0};
    const uint8_t setup = fuzz_u8(&in);
    const unsigned kind = setup & 1u;
    const uint64_t fault_offset = 1u + (uint64_t)fuzz_u16(&in) * 4u;
    dealer = pristine[kind];
    trng = pristine_trng[kind];
    const uint64_t at = trng.delivered + fault_offset;
    switch ((setup >> 1) & 7u) {
    case 4:
        trng.fault_at = at;
        trng.fault_status = FD_ERR_TRNG_HW;
        break;
    case 5:
        trng.fault_at = at;
        trng.fault_every = 1u + (setup >> 4);
        trng.fault_status = FD_ERR_TRNG_HW;
        break;
    case 6:
        trng.fault_at = at;
        trng.fault_status = FD_ERR_TRNG_TIMEOUT;
        break;
    case 7:
        trng.switch_at = at;
        trng.later_mode = FAKE_TRNG_STUCK;
        trng.value = setup;
        break;
    default: break; /* a healthy source */
    }

    start_journalled(kind == 0u ? FD_DRBG_CHACHA20 : FD_DRBG_HMAC_SHA256);
    static capture reply;
    fd_console console;
    fd_console_init(&console, &dealer, capture_write, &reply, false, false);
    while (fuzz_left(&in) > 0u) {
        const uint8_t byte = fuzz_u8(&in);
        if (!journalled.quit) {
            feed_journalled(byte);
        }
        before = dealer;
        reply.len = 0;
        if (fd_console_feed(&console, byte)) {
            check_after_reply(&reply);
            if (fd_dealer_in_fault(&dealer)) {
                check_revealable();
            }
        } else {
            FUZZ_CHECK(reply.len == 0u);
        }
        if (dealer.quit) {
            FUZZ_CHECK(!fd_dealer_round_open(&dealer));
            break;
        }
    }
    check_revealable();
    check_recovered(kind == 0u ? FD_DRBG_CHACHA20 : FD_DRBG_HMAC_SHA256);
    return 0;
}
