#include "fairdeal/round.h"

#include <string.h>

#include "fairdeal/fullentropy.h"
#include "fairdeal/shuffle.h"
#include "fairdeal/util.h"

/* Domain strings (each hashed with a trailing NUL): docs/VERIFY.md §2. */
static const char ds_commit[] = "fairdeal/round/commit";
static const char ds_key[] = "fairdeal/round/key";
static const char ds_stream[] = "fairdeal/round/stream";

#define SPARE_BITS 64u

static unsigned bit_length(size_t v)
{
    unsigned bits = 0;
    while (v != 0u) {
        bits++;
        v >>= 1;
    }
    return bits;
}

size_t fd_round_secret_min(size_t n)
{
    if (n == 0u || n > FD_SHUFFLE_MAX_N) {
        return 0;
    }
    size_t bits = SPARE_BITS;
    for (size_t i = 2; i <= n; i++) {
        bits += bit_length(i - 1u); /* ceil(log2 i) */
    }
    return (bits + 7u) / 8u;
}

static void put_be(uint8_t *out, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) {
        out[i] = (uint8_t)(v >> (8u * (bytes - 1u - i)));
    }
}

fd_status fd_round_header_check(const fd_round_header *header)
{
    if (header == NULL) {
        return FD_ERR_NULL;
    }
    if (header->device_id_len == 0u) {
        return FD_ERR_EMPTY;
    }
    if (header->device_id_len > FD_ROUND_DEVICE_ID_MAX) {
        return FD_ERR_TOO_LARGE;
    }
    uint16_t per_deck;
    fd_status st = fd_deck_size(header->kind, header->jokers, &per_deck);
    if (st != FD_OK) {
        return st;
    }
    if (header->decks == 0u) {
        return FD_ERR_EMPTY;
    }
    if (header->decks > FD_SHOE_MAX_DECKS) {
        return FD_ERR_TOO_LARGE;
    }
    if (header->beacon_slot == FD_ROUND_NO_BEACON) {
        return header->beacon_index == 0u ? FD_OK : FD_ERR_PARSE;
    }
    if (header->beacon_slot >= FD_ROUND_SLOTS || (header->slot_mask & (1u << header->beacon_slot)) == 0u) {
        return FD_ERR_PARSE;
    }
    return FD_OK;
}

static size_t shoe_cards(const fd_round_header *header)
{
    uint16_t per_deck = 0;
    /* callers pass a header fd_round_header_check accepted, so the kind is valid */
    (void)fd_deck_size(header->kind, header->jokers, &per_deck);
    return (size_t)per_deck * header->decks;
}

static fd_status check_secret(size_t n, const uint8_t *secret, size_t secret_len)
{
    if (secret == NULL) {
        return FD_ERR_NULL;
    }
    if (secret_len > FD_ROUND_SECRET_MAX) {
        return FD_ERR_TOO_LARGE;
    }
    return secret_len < fd_round_secret_min(n) ? FD_ERR_TOO_FEW : FD_OK;
}

#define HEADER_MAX (2u + FD_ROUND_DEVICE_ID_MAX + 4u + 5u + 8u)

/* The header's bytes (docs/VERIFY.md §3); a checked header. */
static size_t encode_header(const fd_round_header *header, uint8_t out[HEADER_MAX])
{
    size_t len = 0;
    out[len++] = FD_ROUND_VERSION;
    out[len++] = header->device_id_len;
    memcpy(&out[len], header->device_id, header->device_id_len);
    len += header->device_id_len;
    put_be(&out[len], header->round_id, 4u);
    len += 4u;
    out[len++] = (uint8_t)header->kind;
    out[len++] = header->decks;
    out[len++] = header->jokers;
    out[len++] = header->slot_mask;
    out[len++] = header->beacon_slot;
    put_be(&out[len], header->beacon_index, 8u);
    return len + 8u;
}

fd_status fd_round_commit(const fd_round_header *header, const uint8_t *secret, size_t secret_len,
                          uint8_t out[FD_SHA256_SIZE])
{
    if (out == NULL) {
        return FD_ERR_NULL;
    }
    fd_status st = fd_round_header_check(header);
    if (st == FD_OK) {
        st = check_secret(shoe_cards(header), secret, secret_len);
    }
    if (st != FD_OK) {
        return st;
    }
    uint8_t enc[HEADER_MAX + 2u];
    size_t len = encode_header(header, enc);
    put_be(&enc[len], secret_len, 2u);
    len += 2u;

    fd_sha256_ctx h;
    fd_sha256_init(&h);
    fd_sha256_update(&h, ds_commit, sizeof ds_commit);
    fd_sha256_update(&h, enc, len);
    fd_sha256_update(&h, secret, secret_len);
    fd_sha256_final(&h, out);
    return FD_OK;
}

fd_status fd_round_seeds_clear(fd_round_seeds *seeds)
{
    if (seeds == NULL) {
        return FD_ERR_NULL;
    }
    memset(seeds, 0, sizeof *seeds);
    return FD_OK;
}

fd_status fd_round_seed_set(fd_round_seeds *seeds, const fd_round_header *header, unsigned slot, const uint8_t *seed,
                            size_t len)
{
    if (seeds == NULL || header == NULL || seed == NULL) {
        return FD_ERR_NULL;
    }
    if (len == 0u) {
        return FD_ERR_EMPTY;
    }
    if (len > FD_ROUND_SEED_MAX) {
        return FD_ERR_TOO_LARGE;
    }
    if (slot >= FD_ROUND_SLOTS || (header->slot_mask & (1u << slot)) == 0u || seeds->len[slot] != 0u) {
        return FD_ERR_STATE;
    }
    memcpy(seeds->seed[slot], seed, len);
    seeds->len[slot] = (uint8_t)len;
    return FD_OK;
}

bool fd_round_house_only(const fd_round_seeds *seeds)
{
    if (seeds == NULL) {
        return true;
    }
    for (unsigned i = 0; i < FD_ROUND_SLOTS; i++) {
        if (seeds->len[i] != 0u) {
            return false;
        }
    }
    return true;
}

fd_status fd_round_key(const fd_round_header *header, const fd_round_seeds *seeds, uint8_t key[FD_ROUND_KEY_SIZE])
{
    if (seeds == NULL || key == NULL) {
        return FD_ERR_NULL;
    }
    fd_status st = fd_round_header_check(header);
    if (st != FD_OK) {
        return st;
    }
    for (unsigned i = 0; i < FD_ROUND_SLOTS; i++) {
        if (seeds->len[i] > FD_ROUND_SEED_MAX) {
            return FD_ERR_TOO_LARGE;
        }
        if (seeds->len[i] != 0u && (header->slot_mask & (1u << i)) == 0u) {
            return FD_ERR_STATE;
        }
    }
    fd_sha256_ctx h;
    fd_sha256_init(&h);
    fd_sha256_update(&h, ds_key, sizeof ds_key);
    uint8_t enc[HEADER_MAX];
    fd_sha256_update(&h, enc, encode_header(header, enc));
    for (unsigned i = 0; i < FD_ROUND_SLOTS; i++) {
        if ((header->slot_mask & (1u << i)) != 0u) {
            const uint8_t prefix[2] = {(uint8_t)i, seeds->len[i]};
            fd_sha256_update(&h, prefix, sizeof prefix);
            fd_sha256_update(&h, seeds->seed[i], seeds->len[i]);
        }
    }
    fd_sha256_final(&h, key);
    return FD_OK;
}

/* The round's byte stream: byte p is S[p] XOR K[p] while p < len(S), then
 * K[p]; K = HMAC(key, ds_stream || NUL || version || block index) blocks. */
typedef struct round_stream {
    fd_hmac_sha256_ctx keyed; /* HMAC state after the key, copied per block */
    const uint8_t *secret;
    size_t secret_len;
    size_t pos;
    uint8_t block[FD_SHA256_SIZE];
} round_stream;

static fd_status stream_fill(void *ctx, uint8_t *buf, size_t len)
{
    round_stream *s = ctx;
    for (size_t i = 0; i < len; i++, s->pos++) {
        const size_t offset = s->pos % FD_SHA256_SIZE;
        if (offset == 0u) {
            uint8_t label[sizeof ds_stream + 5u];
            memcpy(label, ds_stream, sizeof ds_stream);
            label[sizeof ds_stream] = FD_ROUND_VERSION;
            put_be(&label[sizeof ds_stream + 1u], s->pos / FD_SHA256_SIZE, 4u);
            fd_hmac_sha256_ctx block = s->keyed;
            fd_hmac_sha256_update(&block, label, sizeof label);
            fd_hmac_sha256_final(&block, s->block);
        }
        const uint8_t secret_byte = s->pos < s->secret_len ? s->secret[s->pos] : 0u;
        buf[i] = (uint8_t)(s->block[offset] ^ secret_byte);
    }
    return FD_OK;
}

fd_status fd_round_shuffle_u16(uint16_t *a, size_t n, const uint8_t key[FD_ROUND_KEY_SIZE], const uint8_t *secret,
                               size_t secret_len)
{
    if (a == NULL || key == NULL) {
        return FD_ERR_NULL;
    }
    if (n == 0u) {
        return FD_ERR_EMPTY;
    }
    if (n > FD_SHUFFLE_MAX_N) {
        return FD_ERR_TOO_LARGE;
    }
    fd_status st = check_secret(n, secret, secret_len);
    if (st != FD_OK) {
        return st;
    }
    round_stream stream;
    fd_hmac_sha256_init(&stream.keyed, key, FD_ROUND_KEY_SIZE);
    stream.secret = secret;
    stream.secret_len = secret_len;
    stream.pos = 0;
    const fd_rng source = {stream_fill, &stream, NULL};
    fd_fullentropy fe;
    st = fd_fullentropy_init(&fe, &source);
    if (st == FD_OK) {
        const fd_rng exact = fd_fullentropy_rng(&fe);
        st = fd_shuffle_u16(a, n, &exact);
    }
    fd_wipe(&fe, sizeof fe);
    fd_wipe(&stream, sizeof stream);
    return st;
}

fd_status fd_round_deal_order(const fd_round_header *header, const uint8_t *secret, size_t secret_len,
                              const fd_round_seeds *seeds, fd_shoe *shoe, uint8_t commitment_out[FD_SHA256_SIZE])
{
    if (shoe == NULL) {
        return FD_ERR_NULL;
    }
    uint8_t commitment[FD_SHA256_SIZE];
    fd_status st = fd_round_commit(header, secret, secret_len, commitment);
    uint8_t key[FD_ROUND_KEY_SIZE];
    if (st == FD_OK) {
        st = fd_round_key(header, seeds, key);
    }
    /* every input is checked above: from here on only the shuffle's own
     * checks remain, and a failed shuffle leaves the shoe not dealable */
    if (st == FD_OK) {
        st = fd_shoe_init(shoe, header->kind, header->decks, header->jokers);
    }
    if (st == FD_OK) {
        st = fd_round_shuffle_u16(shoe->order, shoe->count, key, secret, secret_len);
        shoe->shuffled = st == FD_OK;
    }
    if (st == FD_OK && commitment_out != NULL) {
        memcpy(commitment_out, commitment, sizeof commitment);
    }
    fd_wipe(key, sizeof key);
    return st;
}

fd_status fd_round_verify(const fd_round_header *header, const uint8_t *secret, size_t secret_len,
                          const fd_round_seeds *seeds, const uint8_t commitment[FD_SHA256_SIZE], const fd_card *order,
                          uint16_t count)
{
    if (commitment == NULL || order == NULL) {
        return FD_ERR_NULL;
    }
    fd_shoe expected;
    uint8_t recomputed[FD_SHA256_SIZE];
    fd_status st = fd_round_deal_order(header, secret, secret_len, seeds, &expected, recomputed);
    if (st != FD_OK) {
        return st;
    }
    const bool same = memcmp(recomputed, commitment, FD_SHA256_SIZE) == 0 && count == expected.count &&
                      memcmp(order, expected.order, (size_t)count * sizeof *order) == 0;
    return same ? FD_OK : FD_ERR_CORRUPT;
}

/* docs/VERIFY.md vector 1: device "fairdeal-kat", round 1, one French deck,
 * slot 0 seeded "player", S = 00 01 .. 27 (40 bytes, the minimum). */
static const uint8_t kat_commitment[FD_SHA256_SIZE] = {0xa0, 0x21, 0xe0, 0x4a, 0x5e, 0xe3, 0xb0, 0x36, 0x26, 0x20, 0xa9,
                                                       0x15, 0x18, 0x0d, 0xf2, 0xd3, 0x89, 0xd5, 0x25, 0x5e, 0x34, 0x47,
                                                       0xf2, 0xd1, 0x2b, 0x2d, 0x7a, 0x20, 0x05, 0x92, 0xd5, 0x33};
static const uint8_t kat_order[52] = {30, 33, 22, 21, 39, 1, 32, 26, 45, 9,  44, 14, 8,  49, 20, 12, 18, 50,
                                      47, 43, 13, 4,  5,  3, 23, 41, 6,  42, 17, 28, 35, 16, 48, 11, 15, 19,
                                      37, 29, 24, 40, 46, 2, 38, 10, 51, 7,  31, 25, 36, 34, 0,  27};
/* in flash, not on the stack: the self-test runs on small target stacks */
static const fd_round_header kat_header = {"fairdeal-kat", 12, 1, FD_DECK_FRENCH, 1, 0, 0x01, FD_ROUND_NO_BEACON, 0};
static const fd_round_seeds kat_seeds = {{6}, {"player"}};

fd_status fd_round_selftest_answer(const uint8_t commitment[FD_SHA256_SIZE], const uint16_t *order, size_t count)
{
    if (commitment == NULL || order == NULL || count != sizeof kat_order ||
        memcmp(commitment, kat_commitment, sizeof kat_commitment) != 0) {
        return FD_ERR_KAT;
    }
    for (size_t i = 0; i < sizeof kat_order; i++) {
        if (order[i] != kat_order[i]) {
            return FD_ERR_KAT;
        }
    }
    return FD_OK;
}

fd_status fd_round_selftest(void)
{
    uint8_t secret[40];
    for (unsigned i = 0; i < sizeof secret; i++) {
        secret[i] = (uint8_t)i;
    }
    uint8_t commitment[FD_SHA256_SIZE];
    uint8_t key[FD_ROUND_KEY_SIZE];
    uint16_t order[sizeof kat_order];
    fd_status st = fd_round_commit(&kat_header, secret, sizeof secret, commitment);
    if (st == FD_OK) {
        st = fd_round_key(&kat_header, &kat_seeds, key);
    }
    if (st == FD_OK) {
        for (size_t i = 0; i < sizeof kat_order; i++) {
            order[i] = (uint16_t)i; /* one French deck in canonical order: faces 0..51 */
        }
        st = fd_round_shuffle_u16(order, sizeof kat_order, key, secret, sizeof secret);
    }
    if (st == FD_OK) {
        st = fd_round_selftest_answer(commitment, order, sizeof kat_order);
    }
    fd_wipe(key, sizeof key);
    return st == FD_OK ? FD_OK : FD_ERR_KAT;
}
