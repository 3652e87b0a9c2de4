/* Cost of one round's randomness per mode, on the host: raw TRNG samples
 * and conditioned blocks per shuffle (printed), and instructions (run it
 * under valgrind --tool=callgrind --toggle-collect=measured_rounds; the
 * script scripts/entropy_cost.sh does, and subtracts the fake TRNG's own
 * instructions). Modes: combined (TRNG XOR ChaCha20 DRBG, fresh window per
 * round), full (today's full-entropy mode), drbg (reseed + ChaCha20).
 * usage: bench_entropy MODE CARDS ROUNDS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairdeal/combined.h"
#include "fairdeal/drbg.h"
#include "fairdeal/entropy.h"
#include "fairdeal/fullentropy.h"
#include "fairdeal/shuffle.h"
#include "fake_trng.h"

static fake_trng trng;
static fd_entropy entropy;
static fd_drbg drbg;
static fd_combined combined;
static fd_fullentropy full;
static uint16_t deck[432];

static fd_status entropy_block(void *ctx, uint8_t out[32]) { return fd_entropy_get(ctx, out); }

static fd_status one_round(const char *mode, size_t cards)
{
    fd_status st;
    fd_rng rng;
    if (strcmp(mode, "combined") == 0) {
        st = fd_combined_begin_round(&combined);
        rng = fd_combined_rng(&combined);
    } else if (strcmp(mode, "full") == 0) {
        st = FD_OK;
        rng = fd_fullentropy_rng(&full);
    } else {
        st = fd_drbg_reseed(&drbg, NULL, 0);
        rng = fd_drbg_rng(&drbg);
    }
    return st == FD_OK ? fd_shuffle_u16(deck, cards, &rng) : st;
}

fd_status measured_rounds(const char *mode, size_t cards, unsigned rounds);
fd_status __attribute__((noinline)) measured_rounds(const char *mode, size_t cards, unsigned rounds)
{
    fd_status st = FD_OK;
    for (unsigned r = 0; r < rounds && st == FD_OK; r++) {
        st = one_round(mode, cards);
    }
    return st;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s combined|full|drbg CARDS ROUNDS\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    const size_t cards = strtoul(argv[2], NULL, 10);
    const unsigned rounds = (unsigned)strtoul(argv[3], NULL, 10);
    if (cards < 1u || cards > 432u || rounds < 1u) {
        fprintf(stderr, "CARDS in 1..432, ROUNDS >= 1\n");
        return 2;
    }
    /* the microbit's health configuration (H = 2) */
    const fd_health_config cfg = {11, 512, 177, 1024, 10, 177};
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 1);
    const fd_drbg_config dc = {FD_DRBG_CHACHA20, false, 1u << 20, 0};
    const fd_rng blocks = fd_entropy_rng(&entropy);
    if (fd_entropy_init(&entropy, fake_trng_read, &trng, &cfg, 160) != FD_OK || fd_entropy_startup(&entropy) != FD_OK ||
        fd_drbg_instantiate(&drbg, &dc, entropy_block, &entropy, NULL, 0) != FD_OK ||
        fd_combined_init(&combined, &entropy, &drbg) != FD_OK || fd_fullentropy_init(&full, &blocks) != FD_OK) {
        fprintf(stderr, "set-up failed\n");
        return 1;
    }
    for (size_t i = 0; i < cards; i++) {
        deck[i] = (uint16_t)i;
    }
    const uint32_t samples0 = entropy.raw_samples;
    const uint32_t blocks0 = entropy.blocks_out;
    const fd_status st = measured_rounds(mode, cards, rounds);
    if (st != FD_OK) {
        fprintf(stderr, "round failed: %s\n", fd_status_name(st));
        return 1;
    }
    printf("%s %zu cards: %.1f raw samples and %.2f conditioned blocks per round (%u rounds)\n", mode, cards,
           (double)(entropy.raw_samples - samples0) / rounds, (double)(entropy.blocks_out - blocks0) / rounds, rounds);
    return 0;
}
