#include "fairdeal/entropy.h"

#include <string.h>

#include "fairdeal/sha256.h"

_Static_assert(FD_ENTROPY_POOL_BLOCKS <= UINT8_MAX, "pool_count and pool_capacity are uint8_t");
_Static_assert(FD_ENTROPY_BLOCK == FD_SHA256_SIZE, "a block is one HMAC-SHA-256 output");

/* The conditioner's key: SP 800-90B allows a fixed key for HMAC-based
 * conditioning; this one is nothing-up-my-sleeve text. */
static const uint8_t conditioning_key[32] = "fairdeal SP800-90B conditioner1";

#define READ_CHUNK 32u

fd_status fd_entropy_init(fd_entropy *e, fd_sample_read_fn read, void *read_ctx, const fd_health_config *cfg,
                          uint16_t samples_per_block)
{
    if (e == NULL || read == NULL || cfg == NULL) {
        return FD_ERR_NULL;
    }
    if (samples_per_block == 0u || samples_per_block > cfg->apt_window) {
        return FD_ERR_TOO_LARGE;
    }
    /* checks cfg and writes e->health only if it is good (no 432-byte
     * probe on the stack) */
    fd_status st = fd_health_init(&e->health, cfg);
    if (st != FD_OK) {
        return st;
    }
    fd_wipe(e, sizeof *e);
    /* cannot fail: the same cfg was accepted just above */
    (void)fd_health_init(&e->health, cfg);
    e->read = read;
    e->read_ctx = read_ctx;
    e->samples_per_block = samples_per_block;
    e->state = FD_ENTROPY_UNINIT;
    e->fault = FD_ERR_NOT_READY;
    return FD_OK;
}

static fd_status latch(fd_entropy *e, fd_status why)
{
    fd_wipe(e->pool, sizeof e->pool);
    e->pool_count = 0;
    e->state = FD_ENTROPY_FAILED;
    e->fault = why;
    e->health_failure = e->health.failure;
    e->failures++;
    return why;
}

/* Conditioned blocks one health window may fill: the pool never holds more
 * than one window's worth, so one failed window discards all of it. */
static uint8_t pool_capacity(const fd_entropy *e)
{
    const uint32_t blocks_per_window = (uint32_t)e->health.cfg.apt_window / e->samples_per_block;
    return (uint8_t)(blocks_per_window < FD_ENTROPY_POOL_BLOCKS ? blocks_per_window : FD_ENTROPY_POOL_BLOCKS);
}

/* Read `count` samples through the health tests; with `condition`, the
 * samples also go into the conditioner, filling pool blocks from 0; the
 * number of blocks completed goes to *blocks. */
static fd_status run_samples(fd_entropy *e, uint32_t count, bool condition, uint8_t *blocks)
{
    uint8_t chunk[READ_CHUNK];
    fd_hmac_sha256_ctx mac;
    uint32_t in_block = 0;
    uint8_t done_blocks = 0;
    const uint8_t max_blocks = pool_capacity(e);
    if (condition) {
        fd_hmac_sha256_init(&mac, conditioning_key, sizeof conditioning_key);
    }
    fd_status st = FD_OK;
    while (count > 0u && st == FD_OK) {
        size_t n = count < READ_CHUNK ? count : READ_CHUNK;
        st = e->read(e->read_ctx, chunk, n);
        if (st != FD_OK) {
            break;
        }
        e->raw_samples += (uint32_t)n;
        for (size_t i = 0; i < n && st == FD_OK; i++) {
            st = fd_health_feed(&e->health, chunk[i]);
            if (st == FD_OK && condition && done_blocks < max_blocks) {
                fd_hmac_sha256_update(&mac, &chunk[i], 1);
                if (++in_block == e->samples_per_block) {
                    fd_hmac_sha256_final(&mac, e->pool[done_blocks]);
                    done_blocks++;
                    in_block = 0;
                    fd_hmac_sha256_init(&mac, conditioning_key, sizeof conditioning_key);
                }
            }
        }
        count -= (uint32_t)n;
    }
    fd_wipe(chunk, sizeof chunk);
    if (condition) {
        fd_wipe(&mac, sizeof mac);
    }
    if (st != FD_OK) {
        return latch(e, st);
    }
    *blocks = done_blocks;
    return FD_OK;
}

fd_status fd_entropy_startup(fd_entropy *e)
{
    if (e == NULL || e->read == NULL) {
        return FD_ERR_NULL;
    }
    fd_health_config cfg = e->health.cfg;
    /* cannot fail: cfg is the one fd_entropy_init accepted */
    (void)fd_health_init(&e->health, &cfg);
    fd_wipe(e->pool, sizeof e->pool);
    e->pool_count = 0;
    uint8_t blocks;
    fd_status st = run_samples(e, cfg.startup_samples, false, &blocks);
    if (st != FD_OK) {
        return st;
    }
    e->state = FD_ENTROPY_READY;
    e->fault = FD_OK;
    e->health_failure = FD_HEALTH_NONE;
    e->startups_passed++;
    return FD_OK;
}

static fd_status condition_window(fd_entropy *e)
{
    uint8_t blocks = 0;
    fd_status st = run_samples(e, e->health.cfg.apt_window, true, &blocks);
    if (st == FD_OK) {
        e->pool_count = blocks;
    }
    return st;
}

fd_status fd_entropy_refresh(fd_entropy *e)
{
    if (e == NULL) {
        return FD_ERR_NULL;
    }
    fd_wipe(e->pool, sizeof e->pool);
    e->pool_count = 0;
    if (e->state != FD_ENTROPY_READY) {
        return e->fault;
    }
    return condition_window(e);
}

fd_status fd_entropy_get(fd_entropy *e, uint8_t out[FD_ENTROPY_BLOCK])
{
    if (e == NULL || out == NULL) {
        return FD_ERR_NULL;
    }
    if (e->state != FD_ENTROPY_READY) {
        return e->fault;
    }
    if (e->pool_count == 0u) {
        fd_status st = condition_window(e);
        if (st != FD_OK) {
            return st;
        }
    }
    e->pool_count--;
    memcpy(out, e->pool[e->pool_count], FD_ENTROPY_BLOCK);
    fd_wipe(e->pool[e->pool_count], FD_ENTROPY_BLOCK);
    e->blocks_out++;
    return FD_OK;
}

static fd_status entropy_fill(void *ctx, uint8_t *buf, size_t len)
{
    uint8_t block[FD_ENTROPY_BLOCK];
    while (len > 0u) {
        fd_status st = fd_entropy_get(ctx, block);
        if (st != FD_OK) {
            fd_wipe(block, sizeof block);
            return st;
        }
        size_t take = len < sizeof block ? len : sizeof block;
        memcpy(buf, block, take);
        buf += take;
        len -= take;
    }
    fd_wipe(block, sizeof block);
    return FD_OK;
}

fd_rng fd_entropy_rng(fd_entropy *e) { return (fd_rng){entropy_fill, e, NULL}; }
