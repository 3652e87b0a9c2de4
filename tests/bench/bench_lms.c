/* On-target benchmark of LMS/HSS verification (lib/src/lms.c): executed
 * instructions to verify a 64 KiB image streamed in 1 KiB chunks, per
 * parameter set (tests/bench/lms_bench_vectors.h), as table rows for
 * docs/PERFORMANCE.md. Run under qemu-system-arm -icount shift=0,sleep=off
 * (scripts/bench.sh), where SysTick ticks convert to instructions.
 * A signature's cost depends on its message digest: the chain steps of its
 * LM-OTS signatures (sum of 2^w - 1 - digit) are counted here, and the worst
 * case over all messages is this signature's cost plus the missing steps at
 * the measured cost of one step. fairdeal-tool's signer keeps a signature's
 * steps within fd_lmots_steps_cap per level (docs/SECURITY.md "Signed
 * firmware"): its worst case adds the steps up to that cap. */
#include <stdint.h>
#include <string.h>

#include "console_say.h"
#include "fairdeal/lms.h"
#include "fairdeal/sha256.h"
#include "hal/board.h"
#include "hal/counter.h"
#include "lms_bench_vectors.h"

static uint32_t insns(uint32_t ticks) { return (uint32_t)((uint64_t)ticks * 1000000000u / FD_CPU_HZ); }

static void row(const char *what, const char *set, const char *tail, uint32_t value)
{
    say("| ");
    say(what);
    say(set);
    say(tail);
    say(" | ");
    say_u32(value);
    say(" |\r\n");
}

/* The image: a 1 KiB block, byte i = (i * 131 + 7) mod 256, 64 times. */
static uint8_t block[1024];

static fd_status verify(const struct lms_bench_set *s)
{
    fd_hss_verify_ctx ctx;
    fd_status st = fd_hss_verify_init(&ctx, s->pub, FD_HSS_PUB_SIZE, s->sig, s->sig_len);
    for (uint32_t i = 0; st == FD_OK && i < 64u; i++) {
        st = fd_hss_verify_update(&ctx, block, sizeof block);
    }
    return st == FD_OK ? fd_hss_verify_final(&ctx) : st;
}

/* Steps of one level's chains from its digest, and the most any digest can need. */
static void steps_of(const fd_lms_level *lv, const uint8_t *msg, uint32_t msg_blocks, uint32_t *steps, uint32_t *max)
{
    fd_sha256_ctx m;
    fd_lmots_msg_init(&m, lv->pub + 8, lv->q, lv->sig + 8);
    for (uint32_t i = 0; i < msg_blocks; i++) {
        fd_sha256_update(&m, msg, msg_blocks == 1u ? FD_LMS_PUB_SIZE : sizeof block);
    }
    uint8_t digest[FD_LMS_N];
    fd_sha256_final(&m, digest);
    uint8_t digits[FD_LMOTS_P_W1];
    fd_lmots_digits(lv->ots, digest, digits);
    const uint32_t top = (1u << lv->ots->w) - 1u;
    const uint32_t u = 8u * FD_LMS_N / lv->ots->w;
    *steps = fd_lmots_steps(lv->ots, digits);
    /* the message digits contribute S = sum(top - a) in 0..u*top, the checksum digits encode S << ls */
    *max = 0;
    for (uint32_t s = 0; s <= u * top; s++) {
        const uint8_t ck[2] = {(uint8_t)((s << lv->ots->ls) >> 8), (uint8_t)(s << lv->ots->ls)};
        uint32_t total = s;
        for (uint32_t j = 0; j < lv->ots->p - u; j++) {
            total += top - fd_lmots_coef(ck, j, lv->ots->w);
        }
        *max = total > *max ? total : *max;
    }
}

int main(void)
{
    for (uint32_t i = 0; i < sizeof block; i++) {
        block[i] = (uint8_t)(i * 131u + 7u);
    }
    say("bench_lms board=");
    say(hal_board_name());
    say("\r\n| operation | instructions |\r\n|---|---:|\r\n");

    /* one chain step (one SHA-256 block with its padding laid out), mean of 1,000 */
    static const uint8_t I[FD_LMS_I_SIZE] = {1};
    uint8_t tmp[FD_LMS_N] = {2};
    uint32_t t0 = hal_counter_read();
    fd_lmots_chain(I, 0, 0, 0, 250, tmp);
    fd_lmots_chain(I, 0, 1, 0, 250, tmp);
    fd_lmots_chain(I, 0, 2, 0, 250, tmp);
    fd_lmots_chain(I, 0, 3, 0, 250, tmp);
    const uint32_t step = insns(hal_counter_read() - t0) / 1000u;
    row("LM-OTS chain step (one SHA-256 compression)", "", "", step);
    fd_sha256_ctx h;
    uint8_t digest[FD_SHA256_SIZE];
    t0 = hal_counter_read();
    fd_sha256_init(&h);
    for (uint32_t i = 0; i < 64u; i++) {
        fd_sha256_update(&h, block, sizeof block);
    }
    fd_sha256_final(&h, digest);
    row("SHA-256 of the 64 KiB image (1,025 blocks)", "", "", insns(hal_counter_read() - t0));

    for (size_t s = 0; s < sizeof lms_bench_sets / sizeof lms_bench_sets[0]; s++) {
        const struct lms_bench_set *set = &lms_bench_sets[s];
        t0 = hal_counter_read();
        const fd_status st = verify(set);
        const uint32_t cost = insns(hal_counter_read() - t0);
        if (st != FD_OK) {
            say("bench_lms: ");
            say(set->name);
            say(" did not verify\r\n");
            hal_board_exit(1);
        }
        fd_hss_layout lay;
        if (fd_hss_parse(set->pub, FD_HSS_PUB_SIZE, set->sig, set->sig_len, &lay) != FD_OK) {
            hal_board_exit(1);
        }
        uint32_t steps = 0, max = 0, cap = 0;
        for (uint32_t l = 0; l < lay.levels; l++) {
            cap += fd_lmots_steps_cap(lay.level[l].ots);
            uint32_t st_l, max_l;
            if (l + 1u < lay.levels) {
                steps_of(&lay.level[l], lay.level[l + 1u].pub, 1, &st_l, &max_l);
            } else {
                steps_of(&lay.level[l], block, 64, &st_l, &max_l);
            }
            steps += st_l;
            max += max_l;
        }
        row("verify 64 KiB image, ", set->name, ", this signature", cost);
        row("chain steps of this signature, ", set->name, "", steps);
        row("verify 64 KiB image, ", set->name, ", worst case over all messages (computed)",
            cost + (max - steps) * step);
        row("verify 64 KiB image, ", set->name, ", worst case of a signature fairdeal-tool makes (computed)",
            cost + (cap - steps) * step);
        row("signature bytes, ", set->name, "", set->sig_len);
    }
    hal_board_exit(0);
}
