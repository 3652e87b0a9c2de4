#include "fairdeal/health.h"

#include <stddef.h>

#define HISTORY_MASK (FD_HEALTH_PREDICT_LAGS - 1u)
#if (FD_HEALTH_PREDICT_LAGS & HISTORY_MASK) != 0u || FD_HEALTH_PREDICT_LAGS > 255u
#error "FD_HEALTH_PREDICT_LAGS must be a power of two below 256"
#endif

fd_status fd_health_init(fd_health *h, const fd_health_config *cfg)
{
    if (h == NULL || cfg == NULL) {
        return FD_ERR_NULL;
    }
    if (cfg->rct_cutoff < 2u || cfg->apt_cutoff < 2u || cfg->apt_window < 2u ||
        cfg->apt_cutoff > cfg->apt_window || cfg->startup_samples < 1024u ||
        cfg->startup_samples % cfg->apt_window != 0u || cfg->predict_run_cutoff < 2u ||
        cfg->predict_window_cutoff < 2u || cfg->predict_window_cutoff > cfg->apt_window) {
        return FD_ERR_TOO_LARGE;
    }
    *h = (fd_health){0};
    h->cfg = *cfg;
    return FD_OK;
}

/* A candidate's recent accuracy: each correct guess adds 16, and the score
 * decays by 1/8 per sample (at most 135; about the last 8 samples count). */
static uint8_t score_after(uint8_t score, bool correct)
{
    return (uint8_t)(score - (score >> 3) + (correct ? 16u : 0u));
}

/* Score every candidate's guess for sample number n (1-based), learn from
 * it, and set h->guess to the guess of the best-scoring candidate for
 * sample n + 1. Sample s - d sits in history[(s - d) % LAGS]; the slot of
 * n - LAGS is read before sample n overwrites it. */
static void predictor_learn(fd_health *h, uint8_t sample, uint32_t n)
{
    const uint8_t previous = h->history[(n - 1u) & HISTORY_MASK];
    uint8_t best_score = 0;
    uint8_t best_guess = sample; /* lag 1 */
    for (uint32_t lag = 1; lag <= FD_HEALTH_PREDICT_LAGS; lag++) {
        const uint8_t score =
            score_after(h->lag_score[lag - 1u], n > lag && sample == h->history[(n - lag) & HISTORY_MASK]);
        h->lag_score[lag - 1u] = score;
        if (score > best_score) {
            best_score = score;
            best_guess = lag == 1u ? sample : h->history[(n + 1u - lag) & HISTORY_MASK];
        }
    }
    h->step_score = score_after(h->step_score, n > 2u && sample == h->step_guess);
    h->step_guess = (uint8_t)(2u * sample - previous);
    if (h->step_score > best_score) {
        best_score = h->step_score;
        best_guess = h->step_guess;
    }
    h->successor_score = score_after(h->successor_score, n > 1u && sample == h->successor_guess);
    if (n > 1u) {
        h->successor[previous] = sample;
    }
    h->successor_guess = h->successor[sample];
    if (h->successor_score > best_score) {
        best_score = h->successor_score;
        best_guess = h->successor_guess;
    }
    h->shift_score[0] = score_after(h->shift_score[0], n > 1u && sample == (uint8_t)(previous << 1));
    if (h->shift_score[0] > best_score) {
        best_score = h->shift_score[0];
        best_guess = (uint8_t)(sample << 1);
    }
    h->shift_score[1] = score_after(h->shift_score[1], n > 1u && sample == previous >> 1);
    if (h->shift_score[1] > best_score) {
        best_guess = sample >> 1;
    }
    h->history[n & HISTORY_MASK] = sample;
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
    if (h->samples > 1u && h->guess != h->history[(h->samples - 1u) & HISTORY_MASK]) {
        if (sample == h->guess) {
            h->predict_run++;
            h->predict_hits++;
            if ((h->predict_run >= h->cfg.predict_run_cutoff ||
                 h->predict_hits >= h->cfg.predict_window_cutoff) &&
                h->failure == FD_HEALTH_NONE) {
                h->failure = FD_HEALTH_LAG;
            }
        } else {
            h->predict_run = 0;
        }
    }
    predictor_learn(h, sample, h->samples);
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
