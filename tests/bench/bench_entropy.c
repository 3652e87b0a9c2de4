/* Cost of one round's randomness per mode: raw TRNG samples and
 * conditioned blocks per shuffle, and instructions. Modes: combined (TRNG
 * XOR ChaCha20 DRBG, fresh window per round), full (today's full-entropy
 * mode), drbg (reseed + ChaCha20); the fake TRNG at the micro:bit's H = 2.
 * Host: usage bench_entropy MODE CARDS ROUNDS; run under valgrind
 * --tool=callgrind --toggle-collect=measured_rounds (scripts/entropy_cost.sh
 * does, and subtracts the fake TRNG's own instructions). Cortex-M: runs
 * every mode at 52 and 432 cards and prints instructions per round (QEMU
 * -icount shift=0,sleep=off: SysTick ticks convert to instructions), the
 * fake TRNG's own share already subtracted. */
#include <string.h>
#if defined(FD_TARGET_CORTEX_M)
#include "console_say.h"
#include "hal/counter.h"
#else
#include <stdio.h>
#include <stdlib.h>
#endif

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

/* The microbit's health configuration (H = 2), a fresh pipeline and DRBG
 * from a seeded fake TRNG, and the factory order of `cards`. */
static fd_status set_up(size_t cards)
{
    static const fd_health_config cfg = {11, 512, 177, 1024, 10, 177};
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 1);
    const fd_drbg_config dc = {FD_DRBG_CHACHA20, false, 1u << 20, 0};
    const fd_rng blocks = fd_entropy_rng(&entropy);
    fd_status st = fd_entropy_init(&entropy, fake_trng_read, &trng, &cfg, 160);
    if (st == FD_OK) {
        st = fd_entropy_startup(&entropy);
    }
    if (st == FD_OK) {
        st = fd_drbg_instantiate(&drbg, &dc, entropy_block, &entropy, NULL, 0);
    }
    if (st == FD_OK) {
        st = fd_combined_init(&combined, &entropy, &drbg);
    }
    if (st == FD_OK) {
        st = fd_fullentropy_init(&full, &blocks);
    }
    for (size_t i = 0; i < cards; i++) {
        deck[i] = (uint16_t)i;
    }
    return st;
}

#if defined(FD_TARGET_CORTEX_M)
static uint32_t instructions(uint32_t ticks) { return (uint32_t)((uint64_t)ticks * 1000000000u / FD_CPU_HZ); }

int main(void)
{
    /* the fake TRNG's own instructions per sample, to subtract */
    static uint8_t samples[512];
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 1);
    uint32_t t0 = hal_counter_read();
    for (int r = 0; r < 20; r++) {
        (void)fake_trng_read(&trng, samples, sizeof samples);
    }
    const uint32_t fake_per_1000 = instructions(hal_counter_read() - t0) * 100u / 1024u;
    say("| mode | cards | raw samples / round | instructions / round (without the fake TRNG) "
        "|\r\n|---|---|---|---|\r\n");
    static const char *const modes[3] = {"combined", "full", "drbg"};
    static const size_t sizes[2] = {52, 432};
    for (size_t m = 0; m < 3u; m++) {
        for (size_t k = 0; k < 2u; k++) {
            const unsigned rounds = 4;
            if (set_up(sizes[k]) != FD_OK) {
                say("set-up failed\r\n");
                return 1;
            }
            const uint32_t samples0 = entropy.raw_samples;
            t0 = hal_counter_read();
            const fd_status st = measured_rounds(modes[m], sizes[k], rounds);
            const uint32_t spent = instructions(hal_counter_read() - t0);
            if (st != FD_OK) {
                say("round failed\r\n");
                return 1;
            }
            const uint32_t raw = entropy.raw_samples - samples0;
            say("| ");
            say(modes[m]);
            say(" | ");
            say_u32((uint32_t)sizes[k]);
            say(" | ");
            say_u32(raw / rounds);
            say(" | ");
            say_u32((spent - (uint32_t)((uint64_t)raw * fake_per_1000 / 1000u)) / rounds);
            say(" |\r\n");
        }
    }
    return 0;
}
#else
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
    if (set_up(cards) != FD_OK) {
        fprintf(stderr, "set-up failed\n");
        return 1;
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
#endif
