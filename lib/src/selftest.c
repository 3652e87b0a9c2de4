#include "fairdeal/selftest.h"

#include <stdbool.h>

#include <string.h>

#include "fairdeal/chacha20.h"
#include "fairdeal/hmac_drbg.h"
#include "fairdeal/round.h"
#include "fairdeal/sha256.h"

static const uint8_t sha256_abc[32] = {
    0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
    0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
static const uint8_t hmac_case1[32] = {
    0xb0, 0x34, 0x4c, 0x61, 0xd8, 0xdb, 0x38, 0x53, 0x5c, 0xa8, 0xaf, 0xce, 0xaf, 0x0b, 0xf1, 0x2b,
    0x88, 0x1d, 0xc2, 0x00, 0xc9, 0x83, 0x3d, 0xa7, 0x26, 0xe9, 0x37, 0x6c, 0x2e, 0x32, 0xcf, 0xf7};
static const uint8_t chacha_first16[16] = {0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15,
                                           0x50, 0x0f, 0xdd, 0x1f, 0xa3, 0x20, 0x71, 0xc4};
static const uint8_t drbg_entropy[32] = {
    0xca, 0x85, 0x19, 0x11, 0x34, 0x93, 0x84, 0xbf, 0xfe, 0x89, 0xde, 0x1c, 0xbd, 0xc4, 0x6e, 0x68,
    0x31, 0xe4, 0x4d, 0x34, 0xa4, 0xfb, 0x93, 0x5e, 0xe2, 0x85, 0xdd, 0x14, 0xb7, 0x1a, 0x74, 0x88};
static const uint8_t drbg_nonce[16] = {0x65, 0x9b, 0xa9, 0x6c, 0x60, 0x1d, 0xc6, 0x9f,
                                       0xc9, 0x02, 0x94, 0x08, 0x05, 0xec, 0x0c, 0xa8};
static const uint8_t drbg_first16[16] = {0xe5, 0x28, 0xe9, 0xab, 0xf2, 0xde, 0xce, 0x54,
                                         0xd4, 0x7c, 0x7e, 0x75, 0xe5, 0xfe, 0x30, 0x21};

/* docs/VERIFY.md vector 1: device "fairdeal-kat", round 1, one French deck,
 * slot 0 seeded "player", S = 00 01 .. 27 (40 bytes, the minimum). */
static const uint8_t round_commitment[32] = {
    0xa0, 0x21, 0xe0, 0x4a, 0x5e, 0xe3, 0xb0, 0x36, 0x26, 0x20, 0xa9, 0x15, 0x18, 0x0d, 0xf2, 0xd3,
    0x89, 0xd5, 0x25, 0x5e, 0x34, 0x47, 0xf2, 0xd1, 0x2b, 0x2d, 0x7a, 0x20, 0x05, 0x92, 0xd5, 0x33};
static const uint8_t round_order[52] = {26, 32, 8,  19, 16, 44, 17, 43, 41, 5,  45, 33, 22, 38, 3,  29, 6,  36,
                                        11, 34, 30, 14, 51, 39, 37, 1,  20, 18, 15, 7,  0,  13, 21, 12, 23, 27,
                                        24, 10, 47, 48, 31, 46, 35, 2,  28, 40, 9,  50, 49, 42, 25, 4};

fd_status fd_selftest_round_answer(const uint8_t commitment[32], const fd_card *order, uint16_t count)
{
    if (commitment == NULL || order == NULL || count != sizeof round_order ||
        memcmp(commitment, round_commitment, sizeof round_commitment) != 0) {
        return FD_ERR_KAT;
    }
    for (size_t i = 0; i < sizeof round_order; i++) {
        if (order[i] != round_order[i]) {
            return FD_ERR_KAT;
        }
    }
    return FD_OK;
}

static bool round_kat(void)
{
    static const fd_round_header header = {"fairdeal-kat", 12, 1, FD_DECK_FRENCH, 1, 0, 0x01, FD_ROUND_NO_BEACON, 0};
    uint8_t secret[40];
    for (unsigned i = 0; i < sizeof secret; i++) {
        secret[i] = (uint8_t)i;
    }
    fd_round_seeds seeds;
    uint8_t commitment[32];
    fd_shoe shoe;
    bool ok = fd_round_seeds_clear(&seeds) == FD_OK &&
              fd_round_seed_set(&seeds, &header, 0, (const uint8_t *)"player", 6) == FD_OK &&
              fd_round_deal_order(&header, secret, sizeof secret, &seeds, &shoe, commitment) == FD_OK &&
              fd_selftest_round_answer(commitment, shoe.order, shoe.count) == FD_OK;
    fd_wipe(&shoe, sizeof shoe);
    return ok;
}

fd_status fd_selftest_kat(void)
{
    uint8_t out[128];
    bool ok = true;
    fd_sha256("abc", 3, out);
    ok = ok && memcmp(out, sha256_abc, 32) == 0;

    uint8_t key[32];
    memset(key, 0x0b, 20);
    fd_hmac_sha256(key, 20, "Hi There", 8, out);
    ok = ok && memcmp(out, hmac_case1, 32) == 0;

    static const uint8_t nonce[12] = {0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0};
    for (unsigned i = 0; i < 32u; i++) {
        key[i] = (uint8_t)i;
    }
    fd_chacha20_block(key, 1, nonce, out);
    ok = ok && memcmp(out, chacha_first16, 16) == 0;

    fd_hmac_drbg d;
    ok = ok && fd_hmac_drbg_instantiate(&d, drbg_entropy, 32, drbg_nonce, 16, NULL, 0, 10) == FD_OK;
    ok = ok && fd_hmac_drbg_generate(&d, out, 128, NULL, 0) == FD_OK;
    ok = ok && fd_hmac_drbg_generate(&d, out, 128, NULL, 0) == FD_OK;
    ok = ok && memcmp(out, drbg_first16, 16) == 0;
    fd_hmac_drbg_uninstantiate(&d);
    fd_wipe(out, sizeof out);
    ok = ok && round_kat();
    return ok ? FD_OK : FD_ERR_KAT;
}
