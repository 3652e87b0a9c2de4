#include <string.h>

#include "dealer_sources.h"
#include "fairdeal/util.h"

void fd_dealer_load_secret(fd_dealer *d)
{
    /* the status lives on in d->secret.origin (fd_dealer_secret_ready) */
    (void)fd_device_secret_load(&d->secret, d->cfg.secret_page, d->cfg.release);
    fd_wipe(&d->roots, sizeof d->roots);
    if (fd_device_secret_usable(&d->secret)) {
        memcpy(d->roots.device_secret, d->secret.secret, sizeof d->roots.device_secret);
    }
}

fd_status fd_dealer_secret_ready(const fd_dealer *d)
{
    if (d->restart_required) {
        return FD_ERR_STATE;
    }
    if (d->secret.origin == FD_SECRET_DAMAGED) {
        return FD_ERR_CORRUPT;
    }
    return fd_device_secret_usable(&d->secret) ? FD_OK : FD_ERR_NOT_READY;
}

/* Make next the stored seed file (the journal's SEED_FILE record):
 * durable before anything derived from the DRBG is used. A release build
 * fails closed (FD_ERR_NOT_READY) when it cannot; a development build says
 * so (STATUS seedfile=unsaved, or none without a journal) and goes on. */
static fd_status save_seed_file(fd_dealer *d, const uint8_t next[FD_ROOT_BYTES])
{
    const fd_status st = fd_persist_seed_file_write(&d->persist, next, FD_ROOT_BYTES);
    d->rounds_since_seed_file = 0;
    if (st == FD_OK) {
        memcpy(d->roots.seed_file, next, FD_ROOT_BYTES);
        d->seed_file = FD_SEED_FILE_SAVED;
        d->seed_files_written++;
        return FD_OK;
    }
    d->seed_file = !d->persist.attached && !d->cfg.release ? FD_SEED_FILE_NONE : FD_SEED_FILE_UNSAVED;
    return d->cfg.release ? FD_ERR_NOT_READY : FD_OK;
}

/* The newest stored seed file into the roots; FD_OK also when there is
 * none yet (the first start) or no journal in a development build. */
static fd_status load_seed_file(fd_dealer *d)
{
    uint8_t stored[FD_DEALER_SEED_FILE_MAX];
    size_t len = 0;
    fd_status st = fd_persist_seed_file_read(&d->persist, stored, sizeof stored, &len);
    fd_wipe(d->roots.seed_file, sizeof d->roots.seed_file);
    if (st == FD_OK) {
        memcpy(d->roots.seed_file, stored, len < FD_ROOT_BYTES ? len : FD_ROOT_BYTES);
    } else if (st == FD_ERR_EMPTY || (st == FD_ERR_NOT_READY && !d->persist.attached && !d->cfg.release)) {
        st = FD_OK;
    } else {
        d->seed_file = FD_SEED_FILE_UNSAVED;
    }
    fd_wipe(stored, sizeof stored);
    return d->cfg.release ? (st == FD_OK ? FD_OK : FD_ERR_NOT_READY) : FD_OK;
}

static fd_status entropy_block(void *ctx, uint8_t out[32]) { return fd_entropy_get(ctx, out); }

fd_status fd_dealer_start_sources(fd_dealer *d)
{
    fd_drbg_uninstantiate(&d->drbg);
    if (!fd_device_secret_usable(&d->secret)) {
        return FD_OK;
    }
    fd_status st = load_seed_file(d);
    if (st != FD_OK) {
        return st;
    }
    const fd_drbg_config dc = {d->cfg.drbg_kind, false, 1u << 20, 0};
    uint8_t next[FD_ROOT_BYTES];
    st = fd_roots_instantiate(&d->drbg, &dc, entropy_block, &d->entropy, &d->roots, next);
    if (st == FD_OK) {
        st = save_seed_file(d, next);
    }
    fd_wipe(next, sizeof next);
    if (st == FD_OK) {
        st = fd_combined_init(&d->combined, &d->entropy, &d->drbg);
    }
    if (st != FD_OK) {
        fd_drbg_uninstantiate(&d->drbg);
    }
    return st;
}

/* Reseed the DRBG with the roots; rewrite the seed file when due. */
static fd_status reseed(fd_dealer *d, bool always)
{
    const bool due = d->rounds_since_seed_file >= FD_DEALER_SEED_FILE_PERIOD;
    if (!always && !due) {
        return FD_OK;
    }
    uint8_t next[FD_ROOT_BYTES];
    fd_status st = fd_roots_reseed(&d->drbg, &d->roots, next);
    if (st == FD_OK && due) {
        st = save_seed_file(d, next);
    }
    fd_wipe(next, sizeof next);
    return st;
}

fd_status fd_dealer_begin_round(fd_dealer *d, fd_round_source src, fd_rng *rng)
{
    fd_status st = FD_OK;
    d->rounds_since_seed_file++;
    switch (src) {
    case FD_SOURCE_FULL:
        fd_fullentropy_clear(&d->full);
        st = fd_entropy_refresh(&d->entropy);
        *rng = fd_fullentropy_rng(&d->full);
        break;
    case FD_SOURCE_DRBG:
        /* the reseed's entropy input comes from the window read now */
        st = fd_entropy_refresh(&d->entropy);
        if (st == FD_OK) {
            st = reseed(d, true);
        }
        *rng = fd_drbg_rng(&d->drbg);
        break;
    default:
        st = fd_combined_begin_round(&d->combined);
        if (st == FD_OK) {
            st = reseed(d, false);
        }
        *rng = fd_combined_rng(&d->combined);
        break;
    }
    return st;
}
