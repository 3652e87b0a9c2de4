#include "fairdeal/roots.h"

#include <stddef.h>

#include "fairdeal/sha256.h"
#include "fairdeal/util.h"

static const uint8_t roots_label[] = "fairdeal roots: device secret + seed file";

static void mix_roots(const fd_roots *roots, uint8_t out[32])
{
    fd_hmac_sha256_ctx mac;
    fd_hmac_sha256_init(&mac, roots->device_secret, sizeof roots->device_secret);
    fd_hmac_sha256_update(&mac, roots_label, sizeof roots_label - 1u);
    fd_hmac_sha256_update(&mac, roots->seed_file, sizeof roots->seed_file);
    fd_hmac_sha256_final(&mac, out);
    fd_wipe(&mac, sizeof mac);
}

fd_status fd_roots_instantiate(fd_drbg *d, const fd_drbg_config *cfg, fd_entropy_fn get_entropy, void *entropy_ctx,
                               const fd_roots *roots, uint8_t next_seed_file[FD_ROOT_BYTES])
{
    if (d == NULL || roots == NULL || next_seed_file == NULL) {
        return FD_ERR_NULL;
    }
    uint8_t mixed[32];
    mix_roots(roots, mixed);
    fd_status st = fd_drbg_instantiate(d, cfg, get_entropy, entropy_ctx, mixed, sizeof mixed);
    fd_wipe(mixed, sizeof mixed);
    if (st == FD_OK) {
        st = fd_drbg_generate(d, next_seed_file, FD_ROOT_BYTES);
    }
    if (st != FD_OK) {
        fd_drbg_uninstantiate(d);
        fd_wipe(next_seed_file, FD_ROOT_BYTES);
    }
    return st;
}

fd_status fd_roots_reseed(fd_drbg *d, const fd_roots *roots, uint8_t next_seed_file[FD_ROOT_BYTES])
{
    if (d == NULL || roots == NULL || next_seed_file == NULL) {
        return FD_ERR_NULL;
    }
    uint8_t mixed[32];
    mix_roots(roots, mixed);
    fd_status st = fd_drbg_reseed(d, mixed, sizeof mixed);
    fd_wipe(mixed, sizeof mixed);
    if (st == FD_OK) {
        st = fd_drbg_generate(d, next_seed_file, FD_ROOT_BYTES);
    }
    if (st != FD_OK) {
        fd_wipe(next_seed_file, FD_ROOT_BYTES);
    }
    return st;
}
