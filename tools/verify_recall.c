/* fairdeal-tool verify --recall: a RECALL reply (docs/PROTOCOL.md) checked
 * without the device: the groups of one hand merged by id, then every hand
 * whose material was revealed recomputes its commitment (S with the round
 * header and seeds, or the salt and order) and its reveal hash, and every
 * card the hand lists is the order's card at its position, none twice. The
 * keyed chain itself is checked on the stored journal (verify --journal);
 * the recall carries its head and seq to compare. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairdeal/commit.h"
#include "fairdeal/records.h"
#include "fairdeal/sha256.h"
#include "fairdeal/util.h"
#include "verify_journal.h"

#define MAX_HANDS 128u
#define MAX_LINE (1u << 20)

typedef struct hand {
    uint32_t id;
    bool opened; /* mode, shoe, commitment, parts, device, slots seen */
    uint8_t mode;
    fd_round_header header;
    uint8_t commitment[FD_SHA256_SIZE];
    uint8_t parts;
    bool beacon; /* beacon=SLOT:INDEX seen (a record before beacons has none) */
    fd_round_seeds seeds;
    size_t part_len[FD_REC_MAX_PARTS];
    uint8_t part[FD_REC_MAX_PARTS][FD_REC_SECRET_PART];
    bool revealed; /* the REVEAL summary: its commitment and hash */
    uint8_t summary[FD_SHA256_SIZE];
    uint8_t reveal_hash[FD_SHA256_SIZE];
    uint16_t cards;
    bool dealt_at[FD_SHOE_MAX_CARDS];
    char dealt[FD_SHOE_MAX_CARDS][FD_CARD_CODE_SIZE];
} hand;

static hand hands[MAX_HANDS];
static uint32_t hand_count;
static char line[MAX_LINE];
static fd_shoe shoe;

static int reject(uint32_t id, const char *why)
{
    fprintf(stderr, "fairdeal-tool: verify: recall: hand %lu: %s\n", (unsigned long)id, why);
    return 1;
}

static hand *hand_of(uint32_t id)
{
    for (uint32_t i = 0; i < hand_count; i++) {
        if (hands[i].id == id) {
            return &hands[i];
        }
    }
    if (hand_count == MAX_HANDS) {
        return NULL;
    }
    hand *h = &hands[hand_count++];
    memset(h, 0, sizeof *h);
    h->id = id;
    return h;
}

static bool hex(const char *v, uint8_t *out, size_t size, size_t *len)
{
    return fd_hex_decode(v, strlen(v), out, size, len) == FD_OK;
}

static bool hex_exact(const char *v, uint8_t *out, size_t size)
{
    size_t len = 0;
    return hex(v, out, size, &len) && len == size;
}

/* "1:AS,2:KH,burn:2C" from position pos on. */
static bool parse_cards(hand *h, unsigned long pos, char *v)
{
    for (char *item = strtok(v, ","); item != NULL; item = strtok(NULL, ","), pos++) {
        const char *code = strchr(item, ':');
        if (code == NULL || pos >= FD_SHOE_MAX_CARDS || h->dealt_at[pos] || strlen(code + 1) >= FD_CARD_CODE_SIZE) {
            return false;
        }
        h->dealt_at[pos] = true;
        strcpy(h->dealt[pos], code + 1);
        h->cards++;
    }
    return true;
}

/* One "key=value" field of hand h. */
static bool field(hand *h, const char *key, char *v)
{
    size_t len = 0;
    if (strcmp(key, "mode") == 0) {
        h->mode = strcmp(v, "round") == 0  ? FD_RECORD_MODE_ROUND
                  : strcmp(v, "full") == 0 ? FD_RECORD_MODE_FULL
                                           : FD_RECORD_MODE_DRBG;
        h->opened = true;
        return strcmp(v, "round") == 0 || strcmp(v, "full") == 0 || strcmp(v, "drbg") == 0;
    }
    if (strcmp(key, "shoe") == 0) {
        char *colon = strchr(v, ':');
        unsigned decks = 0, jokers = 0;
        if (colon == NULL || sscanf(colon, ":%u:%u", &decks, &jokers) != 2 ||
            fd_deck_parse_kind(v, (size_t)(colon - v), &h->header.kind) != FD_OK) {
            return false;
        }
        h->header.decks = (uint8_t)decks;
        h->header.jokers = (uint8_t)jokers;
        return true;
    }
    if (strcmp(key, "commitment") == 0) {
        return hex_exact(v, h->commitment, sizeof h->commitment);
    }
    if (strcmp(key, "parts") == 0) {
        h->parts = (uint8_t)strtoul(v, NULL, 10);
        return h->parts >= 1u && h->parts <= FD_REC_MAX_PARTS;
    }
    if (strcmp(key, "device") == 0) {
        const bool ok = hex(v, h->header.device_id, sizeof h->header.device_id, &len);
        h->header.device_id_len = (uint8_t)len;
        return ok;
    }
    if (strcmp(key, "slots") == 0) {
        return hex_exact(v, &h->header.slot_mask, 1);
    }
    if (strcmp(key, "beacon") == 0) {
        char *end = NULL;
        const unsigned long slot = strtoul(v, &end, 10);
        if (end == v || *end != ':' || end[1] < '0' || end[1] > '9' || slot >= FD_ROUND_SLOTS) {
            return false;
        }
        const char *index = end + 1;
        errno = 0;
        h->header.beacon_index = strtoull(index, &end, 10);
        h->header.beacon_slot = (uint8_t)slot;
        h->beacon = true;
        return *end == '\0' && errno == 0;
    }
    if (strcmp(key, "seed") == 0) {
        const unsigned long slot = strtoul(v, NULL, 10);
        const char *colon = strchr(v, ':');
        if (colon == NULL || slot >= FD_ROUND_SLOTS || h->seeds.len[slot] != 0u ||
            !hex(colon + 1, h->seeds.seed[slot], FD_ROUND_SEED_MAX, &len) || len == 0u) {
            return false;
        }
        h->seeds.len[slot] = (uint8_t)len;
        return true;
    }
    if (strncmp(key, "cards@", 6) == 0) {
        return parse_cards(h, strtoul(key + 6, NULL, 10), v);
    }
    if (strncmp(key, "reveal", 6) == 0 && key[6] >= '0' && key[6] <= '9') {
        const unsigned long i = strtoul(key + 6, NULL, 10);
        return i < FD_REC_MAX_PARTS && h->part_len[i] == 0u &&
               hex(v, h->part[i], FD_REC_SECRET_PART, &h->part_len[i]) && h->part_len[i] > 0u;
    }
    if (strcmp(key, "revealed") == 0) {
        h->revealed = true;
        return hex_exact(v, h->summary, sizeof h->summary);
    }
    if (strcmp(key, "reveal_hash") == 0) {
        return hex_exact(v, h->reveal_hash, sizeof h->reveal_hash);
    }
    return strcmp(key, "seq") == 0 || strcmp(key, "head") == 0; /* the chain, after the last hand */
}

static int check_hand(hand *h, uint32_t *verified)
{
    static uint8_t material[FD_REC_MAX_PARTS * FD_REC_SECRET_PART];
    size_t len = 0;
    bool complete = h->opened && h->parts > 0u;
    for (unsigned i = 0; i < FD_REC_MAX_PARTS; i++) {
        if (i < h->parts) {
            complete = complete && h->part_len[i] > 0u;
            memcpy(material + len, h->part[i], h->part_len[i]);
            len += h->part_len[i];
        } else if (h->part_len[i] != 0u) {
            return reject(h->id, "more reveal parts than the round has");
        }
    }
    if (!complete) {
        return len == 0u || !h->opened ? 0 : reject(h->id, "reveal parts missing");
    }
    uint16_t per_deck = 0;
    if (fd_deck_size(h->header.kind, h->header.jokers, &per_deck) != FD_OK) {
        return reject(h->id, "unknown shoe");
    }
    h->header.round_id = h->id;
    if (!h->beacon) {
        h->header.beacon_slot = FD_ROUND_NO_BEACON;
        h->header.beacon_index = 0;
    }
    const char *why = fd_tool_revealed_order(h->mode, &h->header, &h->seeds, (uint16_t)(per_deck * h->header.decks),
                                             material, len, h->commitment, &shoe);
    if (why != NULL) {
        return reject(h->id, why);
    }
    uint8_t digest[FD_SHA256_SIZE];
    fd_sha256(material, len, digest);
    if (h->revealed &&
        (memcmp(h->summary, h->commitment, sizeof digest) != 0 || memcmp(h->reveal_hash, digest, sizeof digest) != 0)) {
        return reject(h->id, "the REVEAL summary does not match the revealed material");
    }
    for (uint16_t i = 0; i < FD_SHOE_MAX_CARDS; i++) {
        char code[FD_CARD_CODE_SIZE];
        if (h->dealt_at[i] && (i >= shoe.count || fd_card_format(shoe.order[i], h->header.kind, code) != FD_OK ||
                               strcmp(code, h->dealt[i]) != 0)) {
            return reject(h->id, "a card listed as dealt is not the order's card at its position");
        }
    }
    (*verified)++;
    return 0;
}

int fd_tool_verify_recall(FILE *in)
{
    hand_count = 0;
    while (fgets(line, sizeof line, in) != NULL && strncmp(line, "OK RECALL ", 10) != 0) {
    }
    if (strncmp(line, "OK RECALL ", 10) != 0) {
        fprintf(stderr, "fairdeal-tool: verify: recall: no OK RECALL line\n");
        return 1;
    }
    line[strcspn(line, "\r\n")] = '\0';
    char *group = strstr(line, " | ");
    while (group != NULL) {
        group += 3;
        char *next = strstr(group, " | ");
        if (next != NULL) {
            *next = '\0';
        }
        unsigned long id = 0;
        if (sscanf(group, "id=%lu", &id) != 1) {
            fprintf(stderr, "fairdeal-tool: verify: recall: a group without id=\n");
            return 1;
        }
        hand *h = hand_of((uint32_t)id);
        if (h == NULL) {
            return reject((uint32_t)id, "more hands than the verifier holds");
        }
        for (char *tok = group; tok != NULL;) {
            char *space = strchr(tok, ' ');
            if (space != NULL) {
                *space = '\0';
            }
            char *eq = strchr(tok, '=');
            if (eq == NULL) {
                return reject(h->id, "a field without '='");
            }
            *eq = '\0';
            if (strcmp(tok, "id") != 0 && !field(h, tok, eq + 1)) {
                return reject(h->id, "a malformed or repeated field");
            }
            tok = space != NULL ? space + 1 : NULL;
        }
        group = next;
    }
    uint32_t verified = 0;
    for (uint32_t i = 0; i < hand_count; i++) {
        if (check_hand(&hands[i], &verified) != 0) {
            return 1;
        }
    }
    printf("OK recall hands=%lu verified=%lu\n", (unsigned long)hand_count, (unsigned long)verified);
    return 0;
}
