#include "fairdeal/host_entropy.h"

#include "fairdeal/util.h"
#include "fd_trng_config.h"
#include "hal/trng.h"

static fd_status read_samples(void *ctx, uint8_t *samples, size_t count)
{
    (void)ctx;
    return hal_trng_read(samples, count);
}

static fd_status entropy_block(void *ctx, uint8_t out[32]) { return fd_entropy_get(ctx, out); }

fd_status fd_host_entropy_open(fd_host_entropy *h, const fd_drbg_config *cfg, fd_rng *rng)
{
    if (h == NULL || rng == NULL) {
        return FD_ERR_NULL;
    }
    static const fd_drbg_config default_cfg = FD_HOST_ENTROPY_DEFAULT_DRBG;
    static const fd_health_config health = FD_TRNG_HEALTH_CONFIG;
    static const uint8_t pers[] = "fairdeal host entropy";
    fd_wipe(h, sizeof *h);
    fd_status st = hal_trng_init();
    if (st == FD_OK) {
        st = fd_entropy_init(&h->pipeline, read_samples, NULL, &health, FD_TRNG_SAMPLES_PER_BLOCK);
    }
    if (st == FD_OK) {
        st = fd_entropy_startup(&h->pipeline);
    }
    if (st == FD_OK) {
        st = fd_drbg_instantiate(&h->drbg, cfg != NULL ? cfg : &default_cfg, entropy_block, &h->pipeline, pers,
                                 sizeof pers - 1u);
    }
    if (st != FD_OK) {
        fd_wipe(h, sizeof *h);
        return st;
    }
    *rng = fd_drbg_rng(&h->drbg);
    return FD_OK;
}

void fd_host_entropy_close(fd_host_entropy *h)
{
    if (h != NULL) {
        fd_wipe(h, sizeof *h);
    }
}
