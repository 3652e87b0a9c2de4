#include "fairdeal/health.h"

#include <stddef.h>

fd_status fd_health_init(fd_health *h, const fd_health_config *cfg)
{
    if (h == NULL || cfg == NULL) {
        return FD_ERR_NULL;
    }
    if (cfg->rct_cutoff < 2u || cfg->apt_cutoff < 2u || cfg->apt_window < 2u ||
        cfg->apt_cutoff > cfg->apt_window || cfg->startup_samples < 1024u ||
        cfg->startup_samples % cfg->apt_window != 0u) {
        return FD_ERR_TOO_LARGE;
    }
    *h = (fd_health){0};
    h->cfg = *cfg;
    return FD_OK;
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
    /* Lag test: see health.h. Sample s-p sits in history[(s-p) % MAX_LAG],
     * read before sample s overwrites the slot of s - MAX_LAG. */
    const uint16_t lag_runs_to_fail = (uint16_t)(FD_HEALTH_LAG_CUTOFF((unsigned)h->cfg.rct_cutoff) - 1u);
    for (uint32_t lag = 2; lag <= FD_HEALTH_MAX_LAG; lag++) {
        uint16_t *run = &h->lag_run[lag - 2u];
        if (h->samples > lag && sample == h->history[(h->samples - lag) % FD_HEALTH_MAX_LAG]) {
            (*run)++;
            if (*run >= lag_runs_to_fail && h->failure == FD_HEALTH_NONE) {
                h->failure = FD_HEALTH_LAG;
            }
        } else {
            *run = 0;
        }
    }
    h->history[h->samples % FD_HEALTH_MAX_LAG] = sample;
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
