#include "fairdeal/health.h"

#include <stddef.h>

#define WORDS (FD_HEALTH_PREDICT_LAGS / 4u)
#if FD_HEALTH_PREDICT_LAGS % 4u != 0u
#error "FD_HEALTH_PREDICT_LAGS must be a multiple of 4"
#endif

#if defined(__GNUC__)
#define FD_HEALTH_INLINE static inline __attribute__((always_inline))
#else
#define FD_HEALTH_INLINE static inline
#endif

#define LANES(b) (0x01010101u * (uint32_t)(b))

fd_status fd_health_init(fd_health *h, const fd_health_config *cfg)
{
    if (h == NULL || cfg == NULL) {
        return FD_ERR_NULL;
    }
    if (cfg->rct_cutoff < 2u || cfg->apt_cutoff < 2u || cfg->apt_window < 2u || cfg->apt_cutoff > cfg->apt_window ||
        cfg->startup_samples < 1024u || cfg->startup_samples % cfg->apt_window != 0u || cfg->predict_run_cutoff < 2u ||
        cfg->predict_window_cutoff < 2u || cfg->predict_window_cutoff > cfg->apt_window) {
        return FD_ERR_TOO_LARGE;
    }
    *h = (fd_health){0};
    h->cfg = *cfg;
    return FD_OK;
}

/* A candidate's recent accuracy: each right guess adds 16, and the score
 * loses an eighth (rounded up) per sample: at most 128, back to 0 within
 * about 30 samples of the last right guess. */
FD_HEALTH_INLINE uint8_t score_after(uint8_t score, bool right)
{
    return (uint8_t)(score - ((score + 7u) >> 3) + (right ? 16u : 0u));
}

/* The same for four lag candidates at once, one per byte lane (values stay
 * below 256, so no lane carries into the next); right has 0x10 in the
 * lanes that guessed right. */
FD_HEALTH_INLINE uint32_t scores_after(uint32_t scores, uint32_t right)
{
    return scores - (((scores + LANES(7u)) >> 3) & LANES(0x1Fu)) + right;
}

/* 0x10 in each byte lane of w that is zero, 0 elsewhere (exact: no false
 * positives from borrows). */
FD_HEALTH_INLINE uint32_t zero_lanes_0x10(uint32_t w)
{
    const uint32_t low7_nonzero = (w & LANES(0x7Fu)) + LANES(0x7Fu);
    return (~(low7_nonzero | w | LANES(0x7Fu))) >> 3;
}

/* Score every candidate's guess for sample number n, learn from it, and set
 * h->guess to the best-scoring candidate's guess for sample n + 1. Lag
 * candidates work four at a time: byte lane k of past[j] is sample n-4j-k-1
 * (the lag-(4j+k+1) guess) and lane k of lag_scores[j] its score. The past
 * starts zeroed: early guesses read zeros, still guesses made beforehand. */
static void predictor_learn(fd_health *h, uint8_t sample)
{
    const uint8_t previous = (uint8_t)h->past[0];
    const uint32_t all_sample = LANES(sample);
    uint32_t carry = sample; /* sample n enters at lag 1 */
    for (uint32_t j = 0; j < WORDS; j++) {
        const uint32_t w = h->past[j];
        h->lag_scores[j] = scores_after(h->lag_scores[j], zero_lanes_0x10(w ^ all_sample));
        h->past[j] = (w << 8) | carry;
        carry = w >> 24;
    }
    /* the best lag (ties: the shortest); its guess for n + 1 is sample
     * n + 1 - lag, in the shifted past at lane lag - 1 */
    uint8_t best_score = 0;
    uint8_t best_guess = sample; /* lag 1 */
    for (uint32_t j = 0; j < WORDS; j++) {
        uint32_t scores = h->lag_scores[j];
        for (uint32_t k = 0; scores != 0u; k++, scores >>= 8) {
            if ((uint8_t)scores > best_score) {
                best_score = (uint8_t)scores;
                best_guess = (uint8_t)(h->past[j] >> (8u * k));
            }
        }
    }
    h->step_score = score_after(h->step_score, sample == h->step_guess);
    h->step_guess = (uint8_t)(2u * sample - previous);
    if (h->step_score > best_score) {
        best_score = h->step_score;
        best_guess = h->step_guess;
    }
    h->successor_score = score_after(h->successor_score, sample == h->successor_guess);
    h->successor[previous] = sample;
    h->successor_guess = h->successor[sample];
    if (h->successor_score > best_score) {
        best_score = h->successor_score;
        best_guess = h->successor_guess;
    }
    h->shift_score[0] = score_after(h->shift_score[0], sample == (uint8_t)(previous << 1));
    if (h->shift_score[0] > best_score) {
        best_score = h->shift_score[0];
        best_guess = (uint8_t)(sample << 1);
    }
    h->shift_score[1] = score_after(h->shift_score[1], sample == previous >> 1);
    if (h->shift_score[1] > best_score) {
        best_guess = sample >> 1;
    }
    h->guess = best_guess;
}

fd_status fd_health_feed(fd_health *h, uint8_t sample)
{
    if (h->failure != FD_HEALTH_NONE) {
        return FD_ERR_HEALTH;
    }
    h->samples++;
    /* RCT (§4.4.1): a run of C identical samples fails. */
    if (h->samples > 1u && sample == h->rct_value) {
        h->rct_run++;
        if (h->rct_run >= h->cfg.rct_cutoff) {
            h->failure = FD_HEALTH_RCT;
        }
    } else {
        h->rct_value = sample;
        h->rct_run = 1;
    }
    /* Predictor test (see health.h): score the guess made before this
     * sample, then learn from it. Its hits are counted per APT window. A
     * guess that the previous sample repeats is not scored: repeats are the
     * RCT's, which alone reports stuck sources. */
    if (h->apt_seen == 0u) {
        h->predict_hits = 0;
    }
    if (h->samples > 1u && h->guess != (uint8_t)h->past[0]) {
        if (sample == h->guess) {
            h->predict_run++;
            h->predict_hits++;
            if ((h->predict_run >= h->cfg.predict_run_cutoff || h->predict_hits >= h->cfg.predict_window_cutoff) &&
                h->failure == FD_HEALTH_NONE) {
                h->failure = FD_HEALTH_LAG;
            }
        } else {
            h->predict_run = 0;
        }
    }
    predictor_learn(h, sample);
    /* APT (§4.4.2): the window's first sample reappearing C times fails. */
    if (h->apt_seen == 0u) {
        h->apt_value = sample;
        h->apt_matches = 1;
    } else if (sample == h->apt_value) {
        h->apt_matches++;
        if (h->apt_matches >= h->cfg.apt_cutoff && h->failure == FD_HEALTH_NONE) {
            h->failure = FD_HEALTH_APT;
        }
    }
    h->apt_seen++;
    if (h->apt_seen == h->cfg.apt_window) {
        h->apt_seen = 0;
    }
    if (h->failure != FD_HEALTH_NONE) {
        h->failed_at_sample = h->samples;
        return FD_ERR_HEALTH;
    }
    return FD_OK;
}

bool fd_health_at_window_boundary(const fd_health *h) { return h->apt_seen == 0u; }
