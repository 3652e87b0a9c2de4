#include "fairdeal/drbg.h"

#include <string.h>

#include "fairdeal/util.h"
#include "chacha_drbg_output.h"
#include "drbg_fast.h"

_Static_assert(FD_HMAC_DRBG_MIN_ENTROPY <= 32u && FD_CHACHA_DRBG_MIN_ENTROPY <= 32u,
               "one fd_entropy_fn block seeds either mechanism");
_Static_assert(FD_HMAC_DRBG_MAX_REQUEST <= FD_CHACHA_DRBG_MAX_REQUEST,
               "generate splits requests at the HMAC limit for both mechanisms");

fd_status fd_drbg_instantiate(fd_drbg *d, const fd_drbg_config *cfg, fd_entropy_fn get_entropy, void *entropy_ctx,
                              const uint8_t *pers, size_t pers_len)
{
    if (d == NULL || cfg == NULL || get_entropy == NULL || (pers == NULL && pers_len > 0u)) {
        return FD_ERR_NULL;
    }
    if ((cfg->kind != FD_DRBG_HMAC_SHA256 && cfg->kind != FD_DRBG_CHACHA20) || cfg->reseed_interval == 0u ||
        cfg->reseed_interval > FD_HMAC_DRBG_MAX_RESEED_INTERVAL || pers_len > FD_HMAC_DRBG_MAX_INPUT) {
        return FD_ERR_TOO_LARGE;
    }
    uint8_t seed[64];
    fd_status st = get_entropy(entropy_ctx, seed);
    if (st == FD_OK) {
        st = get_entropy(entropy_ctx, seed + 32);
    }
    if (st != FD_OK) {
        fd_wipe(seed, sizeof seed);
        return st;
    }
    fd_drbg_uninstantiate(d);
    d->cfg = *cfg;
    d->get_entropy = get_entropy;
    d->entropy_ctx = entropy_ctx;
    /* entropy input = seed[0..32), nonce = seed[32..48) */
    if (cfg->kind == FD_DRBG_HMAC_SHA256) {
        st = fd_hmac_drbg_instantiate(&d->u.hmac, seed, 32, seed + 32, 16, pers, pers_len, cfg->reseed_interval);
    } else {
        st = fd_chacha_drbg_instantiate(&d->u.chacha, seed, 32, seed + 32, 16, pers, pers_len, cfg->reseed_interval);
    }
    fd_wipe(seed, sizeof seed);
    d->instantiated = (st == FD_OK);
    return st;
}

fd_status fd_drbg_reseed(fd_drbg *d, const uint8_t *addl, size_t addl_len)
{
    if (d == NULL || (addl == NULL && addl_len > 0u)) {
        return FD_ERR_NULL;
    }
    if (!d->instantiated) {
        return FD_ERR_NOT_READY;
    }
    uint8_t seed[32];
    fd_status st = d->get_entropy(d->entropy_ctx, seed);
    if (st == FD_OK) {
        st = (d->cfg.kind == FD_DRBG_HMAC_SHA256)
                 ? fd_hmac_drbg_reseed(&d->u.hmac, seed, sizeof seed, addl, addl_len)
                 : fd_chacha_drbg_reseed(&d->u.chacha, seed, sizeof seed, addl, addl_len);
    }
    fd_wipe(seed, sizeof seed);
    if (st == FD_OK) {
        d->bytes_since_reseed = 0;
        d->reseeds++;
    }
    return st;
}

static fd_status mechanism_generate(fd_drbg *d, uint8_t *out, size_t len)
{
    /* d, out and len were checked by fd_drbg_generate */
    return (d->cfg.kind == FD_DRBG_HMAC_SHA256) ? fd_hmac_drbg_generate(&d->u.hmac, out, len, NULL, 0)
                                                : fd_chacha_drbg_output(&d->u.chacha, out, len);
}

fd_status fd_drbg_generate(fd_drbg *d, uint8_t *out, size_t len)
{
    if (d == NULL || (out == NULL && len > 0u)) {
        return FD_ERR_NULL;
    }
    if (!d->instantiated) {
        return FD_ERR_NOT_READY;
    }
    if (fd_drbg_chacha_shortcut(d, len) && fd_chacha_drbg_output(&d->u.chacha, out, len) == FD_OK) {
        /* One ChaCha20 request with no reseed due (every call a shuffle
         * makes): what the loop below does for it, without its steps. When
         * the mechanism asks for a reseed it has output nothing, and the
         * loop handles it. */
        d->bytes_since_reseed += (uint32_t)len;
        return FD_OK;
    }
    size_t done = 0;
    while (done < len) {
        size_t chunk = len - done;
        if (chunk > FD_HMAC_DRBG_MAX_REQUEST) {
            chunk = FD_HMAC_DRBG_MAX_REQUEST;
        }
        fd_status st = FD_OK;
        if (d->cfg.prediction_resistance || fd_drbg_reseed_bytes_due(d)) {
            st = fd_drbg_reseed(d, NULL, 0);
        }
        if (st == FD_OK) {
            st = mechanism_generate(d, out + done, chunk);
            if (st == FD_ERR_RESEED_REQUIRED) {
                st = fd_drbg_reseed(d, NULL, 0);
                if (st == FD_OK) {
                    st = mechanism_generate(d, out + done, chunk);
                }
            }
        }
        if (st != FD_OK) {
            fd_wipe(out, len);
            return st;
        }
        d->bytes_since_reseed += (uint32_t)chunk;
        done += chunk;
    }
    return FD_OK;
}

void fd_drbg_uninstantiate(fd_drbg *d)
{
    if (d != NULL) {
        fd_wipe(d, sizeof *d);
    }
}

fd_status fd_drbg_fill(void *ctx, uint8_t *buf, size_t len) { return fd_drbg_generate(ctx, buf, len); }

fd_rng fd_drbg_rng(fd_drbg *d) { return (fd_rng){fd_drbg_fill, d, NULL}; }
