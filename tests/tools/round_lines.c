/* The C side of the verifier cross-check (tests/tools/test_verify.sh).
 *
 * usage: round_lines random COUNT SEED   COUNT random rounds of every shoe
 *            size (1..8 decks; kinds, jokers, device ids, slots, beacons,
 *            seeds and S lengths random), one round line each
 *        round_lines exhaust                 for n = 3, 52, 312, 432: a
 *            key, an S of fd_round_secret_min(n) bytes whose first 70 order
 *            bytes are all FF (each draw is rejected, so the draws run past
 *            the end of S into the keystream) and the order; verify.py
 *            exhaust checks them
 *        round_lines check FILE          verify every round line of FILE
 *            (inside its ```rounds block when it has one) with
 *            fd_round_verify, and require each of five tamperings (client
 *            seed, S, id, shoe, two cards swapped) to be rejected
 *        round_lines secret-min N        fd_round_secret_min(N)
 * Round lines: tools/verify.py. Exit 0 only if everything held. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairdeal/bounded.h"
#include "fairdeal/round.h"
#include "fairdeal/shuffle.h"
#include "test_rng.h"

typedef struct round_line {
    fd_round_header header;
    uint8_t secret[FD_ROUND_SECRET_MAX];
    size_t secret_len;
    fd_round_seeds seeds;
    uint8_t commitment[FD_SHA256_SIZE];
    fd_card order[FD_SHOE_MAX_CARDS];
    uint16_t count;
} round_line;

static void print_hex(const uint8_t *b, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        printf("%02x", b[i]);
    }
}

static void print_line(const round_line *r)
{
    const fd_round_header *h = &r->header;
    printf("device=");
    print_hex(h->device_id, h->device_id_len);
    printf(" id=%lu shoe=%s:%u:%u slots=%02x", (unsigned long)h->round_id, fd_deck_kind_name(h->kind), h->decks,
           h->jokers, h->slot_mask);
    if (h->beacon_slot == FD_ROUND_NO_BEACON) {
        printf(" beacon=none");
    } else {
        printf(" beacon=%u:%llu", h->beacon_slot, (unsigned long long)h->beacon_index);
    }
    printf(" secret=");
    print_hex(r->secret, r->secret_len);
    printf(" seeds=");
    const char *sep = "";
    for (unsigned s = 0; s < FD_ROUND_SLOTS; s++) {
        if (r->seeds.len[s] != 0u) {
            printf("%s%u:", sep, s);
            print_hex(r->seeds.seed[s], r->seeds.len[s]);
            sep = ";";
        }
    }
    printf("%s commitment=", *sep == '\0' ? "none" : "");
    print_hex(r->commitment, sizeof r->commitment);
    printf(" order=");
    for (uint16_t i = 0; i < r->count; i++) {
        printf("%s%u", i == 0u ? "" : ",", r->order[i]);
    }
    printf("\n");
}

static uint32_t below(const fd_rng *rng, uint32_t bound)
{
    uint32_t v;
    if (fd_uniform_u32(rng, bound, &v) != FD_OK) {
        exit(2);
    }
    return v;
}

static void fill(const fd_rng *rng, uint8_t *buf, size_t len)
{
    if (rng->fill(rng->ctx, buf, len) != FD_OK) {
        exit(2);
    }
}

static int random_rounds(unsigned long count, unsigned long long prng_seed)
{
    test_prng prng;
    const fd_rng rng = test_prng_init(&prng, prng_seed);
    static round_line r;
    static fd_shoe shoe;
    for (unsigned decks = 1; decks <= FD_SHOE_MAX_DECKS; decks++) {
        for (unsigned long k = 0; k < count; k++) {
            memset(&r, 0, sizeof r);
            fd_round_header *h = &r.header;
            h->device_id_len = (uint8_t)(1u + below(&rng, FD_ROUND_DEVICE_ID_MAX));
            fill(&rng, h->device_id, h->device_id_len);
            fill(&rng, (uint8_t *)&h->round_id, sizeof h->round_id);
            h->kind = (fd_deck_kind)(1u + below(&rng, 3u));
            h->decks = (uint8_t)decks;
            h->jokers = h->kind == FD_DECK_FRENCH ? (uint8_t)below(&rng, 3u) : 0u;
            h->slot_mask = (uint8_t)below(&rng, 256u);
            h->beacon_slot = FD_ROUND_NO_BEACON;
            if (h->slot_mask != 0u && below(&rng, 4u) == 0u) {
                do {
                    h->beacon_slot = (uint8_t)below(&rng, FD_ROUND_SLOTS);
                } while ((h->slot_mask & (1u << h->beacon_slot)) == 0u);
                fill(&rng, (uint8_t *)&h->beacon_index, sizeof h->beacon_index);
            }
            /* cannot fail: &r.seeds is never NULL */
            (void)fd_round_seeds_clear(&r.seeds);
            for (unsigned s = 0; s < FD_ROUND_SLOTS; s++) {
                uint8_t seed[FD_ROUND_SEED_MAX];
                const size_t len = 1u + below(&rng, FD_ROUND_SEED_MAX);
                fill(&rng, seed, len);
                if (below(&rng, 4u) != 0u) {
                    (void)fd_round_seed_set(&r.seeds, h, s, seed, len); /* refused outside the mask */
                }
            }
            uint16_t per_deck;
            /* kind and jokers were drawn from the valid ranges above */
            (void)fd_deck_size(h->kind, h->jokers, &per_deck);
            const size_t min = fd_round_secret_min((size_t)per_deck * decks);
            r.secret_len = min + below(&rng, 17u);
            fill(&rng, r.secret, r.secret_len);
            fd_status st = fd_round_deal_order(h, r.secret, r.secret_len, &r.seeds, &shoe, r.commitment);
            if (st != FD_OK) {
                fprintf(stderr, "round_lines: derivation failed: %s\n", fd_status_name(st));
                return 1;
            }
            memcpy(r.order, shoe.order, shoe.count * sizeof shoe.order[0]);
            r.count = shoe.count;
            print_line(&r);
        }
    }
    return 0;
}

/* ---- parsing round lines ---- */

static const char *field(const char *line, const char *name)
{
    const size_t len = strlen(name);
    for (const char *p = line; (p = strstr(p, name)) != NULL; p++) {
        if ((p == line || p[-1] == ' ') && p[len] == '=') {
            return p + len + 1;
        }
    }
    return NULL;
}

static size_t token_len(const char *p, const char *stops) { return strcspn(p, stops); }

static int hex_field(const char *line, const char *name, uint8_t *out, size_t size, size_t *len)
{
    const char *p = field(line, name);
    return p != NULL && fd_hex_decode(p, token_len(p, " \n"), out, size, len) == FD_OK ? 0 : -1;
}

static int parse_line(const char *line, round_line *r)
{
    memset(r, 0, sizeof *r);
    fd_round_header *h = &r->header;
    size_t len;
    if (hex_field(line, "device", h->device_id, sizeof h->device_id, &len) != 0) {
        return -1;
    }
    h->device_id_len = (uint8_t)len;
    const char *p = field(line, "id");
    const char *shoe = field(line, "shoe");
    const char *slots = field(line, "slots");
    const char *beacon = field(line, "beacon");
    const char *seeds = field(line, "seeds");
    const char *order = field(line, "order");
    if (p == NULL || shoe == NULL || slots == NULL || beacon == NULL || seeds == NULL || order == NULL) {
        return -1;
    }
    h->round_id = (uint32_t)strtoul(p, NULL, 10);
    if (fd_deck_parse_kind(shoe, token_len(shoe, ":"), &h->kind) != FD_OK) {
        return -1;
    }
    unsigned decks, jokers, mask;
    if (sscanf(shoe + token_len(shoe, ":"), ":%u:%u", &decks, &jokers) != 2 || sscanf(slots, "%x", &mask) != 1) {
        return -1;
    }
    h->decks = (uint8_t)decks;
    h->jokers = (uint8_t)jokers;
    h->slot_mask = (uint8_t)mask;
    h->beacon_slot = FD_ROUND_NO_BEACON;
    if (strncmp(beacon, "none", 4) != 0) {
        unsigned slot;
        unsigned long long index;
        if (sscanf(beacon, "%u:%llu", &slot, &index) != 2) {
            return -1;
        }
        h->beacon_slot = (uint8_t)slot;
        h->beacon_index = index;
    }
    if (hex_field(line, "secret", r->secret, sizeof r->secret, &r->secret_len) != 0 ||
        hex_field(line, "commitment", r->commitment, sizeof r->commitment, &len) != 0 || len != FD_SHA256_SIZE) {
        return -1;
    }
    if (strncmp(seeds, "none", 4) != 0) {
        for (const char *s = seeds; *s != ' ' && *s != '\0'; s += *s == ';') {
            char *end;
            const unsigned long slot = strtoul(s, &end, 10);
            if (*end != ':' || slot >= FD_ROUND_SLOTS) {
                return -1;
            }
            const size_t hex_len = token_len(end + 1, "; \n");
            if (fd_hex_decode(end + 1, hex_len, r->seeds.seed[slot], FD_ROUND_SEED_MAX, &len) != FD_OK) {
                return -1;
            }
            r->seeds.len[slot] = (uint8_t)len;
            s = end + 1 + hex_len;
        }
    }
    for (const char *c = order; *c >= '0' && *c <= '9'; c += *c == ',') {
        char *end;
        if (r->count >= FD_SHOE_MAX_CARDS) {
            return -1;
        }
        r->order[r->count++] = (fd_card)strtoul(c, &end, 10);
        c = end;
    }
    return 0;
}

static fd_status verify(const round_line *r)
{
    return fd_round_verify(&r->header, r->secret, r->secret_len, &r->seeds, r->commitment, r->order, r->count);
}

/* Each tampering of a verified round must fail; returns the number accepted. */
static int tamperings_accepted(const round_line *good, unsigned long number)
{
    static round_line bad;
    int accepted = 0;
    for (unsigned what = 0; what < 5u; what++) {
        bad = *good;
        if (what == 0u) {
            unsigned slot = 0;
            while (slot < FD_ROUND_SLOTS && bad.seeds.len[slot] == 0u) {
                slot++;
            }
            if (slot < FD_ROUND_SLOTS) {
                bad.seeds.seed[slot][0] ^= 1u;
            } else { /* house-only: a seed appearing afterwards must not verify either */
                slot = 0;
                while (slot + 1u < FD_ROUND_SLOTS && (bad.header.slot_mask & (1u << slot)) == 0u) {
                    slot++;
                }
                bad.seeds.len[slot] = 1;
            }
        } else if (what == 1u) {
            bad.secret[0] ^= 1u;
        } else if (what == 2u) {
            bad.header.round_id++;
        } else if (what == 3u) {
            bad.header.decks = (uint8_t)(bad.header.decks % FD_SHOE_MAX_DECKS + 1u);
        } else {
            const fd_card first = bad.order[0];
            bad.order[0] = bad.order[bad.count - 1u];
            bad.order[bad.count - 1u] = first;
        }
        if (verify(&bad) == FD_OK) {
            fprintf(stderr, "line %lu: tampering %u was accepted\n", number, what);
            accepted++;
        }
    }
    return accepted;
}

static int check_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    static char line[16384];
    static round_line r;
    unsigned long number = 0, rounds = 0, failures = 0;
    int in_block = 0, has_block = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        number++;
        if (strncmp(line, "```rounds", 9) == 0) {
            in_block = has_block = 1;
            continue;
        }
        if (strncmp(line, "```", 3) == 0) {
            in_block = 0;
            continue;
        }
        if ((has_block && !in_block) || strncmp(line, "device=", 7) != 0) {
            continue;
        }
        rounds++;
        fd_status st = FD_ERR_PARSE;
        if (parse_line(line, &r) != 0 || (st = verify(&r)) != FD_OK) {
            fprintf(stderr, "line %lu: does not verify: %s\n", number, fd_status_name(st));
            failures++;
            continue;
        }
        failures += (unsigned long)tamperings_accepted(&r, number);
    }
    fclose(f);
    printf("round_lines: %lu rounds, %lu failures\n", rounds, failures);
    return rounds != 0u && failures == 0u ? 0 : 1;
}

static int exhaust_lines(void)
{
    static const size_t sizes[] = {3, 52, 312, 432};
    uint8_t key[FD_ROUND_KEY_SIZE];
    for (unsigned i = 0; i < sizeof key; i++) {
        key[i] = (uint8_t)i;
    }
    static uint8_t keystream[96];
    for (uint8_t block = 0; block < 3u; block++) {
        const uint8_t label[] = {'f',
                                 'a',
                                 'i',
                                 'r',
                                 'd',
                                 'e',
                                 'a',
                                 'l',
                                 '/',
                                 'r',
                                 'o',
                                 'u',
                                 'n',
                                 'd',
                                 '/',
                                 's',
                                 't',
                                 'r',
                                 'e',
                                 'a',
                                 'm',
                                 0,
                                 FD_ROUND_VERSION,
                                 0,
                                 0,
                                 0,
                                 block};
        fd_hmac_sha256(key, sizeof key, label, sizeof label, &keystream[32u * block]);
    }
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const size_t n = sizes[k];
        const size_t len = fd_round_secret_min(n);
        static uint8_t secret[FD_ROUND_SECRET_MAX];
        static uint16_t order[FD_SHUFFLE_MAX_N];
        for (size_t i = 0; i < len; i++) {
            secret[i] = i < 70u ? (uint8_t)(keystream[i] ^ 0xFFu) : (uint8_t)(i * 29u);
        }
        for (size_t i = 0; i < n; i++) {
            order[i] = (uint16_t)i;
        }
        if (fd_round_shuffle_u16(order, n, key, secret, len) != FD_OK) {
            return 1;
        }
        printf("n=%zu key=", n);
        print_hex(key, sizeof key);
        printf(" secret=");
        print_hex(secret, len);
        printf(" order=");
        for (size_t i = 0; i < n; i++) {
            printf("%s%u", i == 0u ? "" : ",", order[i]);
        }
        printf("\n");
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "exhaust") == 0) {
        return exhaust_lines();
    }
    if (argc == 4 && strcmp(argv[1], "random") == 0) {
        return random_rounds(strtoul(argv[2], NULL, 10), strtoull(argv[3], NULL, 16));
    }
    if (argc == 3 && strcmp(argv[1], "check") == 0) {
        return check_file(argv[2]);
    }
    if (argc == 3 && strcmp(argv[1], "secret-min") == 0) {
        printf("%zu\n", fd_round_secret_min(strtoul(argv[2], NULL, 10)));
        return 0;
    }
    fprintf(stderr, "usage: round_lines random COUNT SEED | check FILE | exhaust | secret-min N\n");
    return 2;
}
