#include "fairdeal/combined.h"

#include <stddef.h>

#include "fairdeal/util.h"

static fd_status xor_fill(void *ctx, uint8_t *buf, size_t len)
{
    fd_combined *c = ctx;
    uint8_t trng[FD_ENTROPY_BLOCK];
    uint8_t drbg[FD_ENTROPY_BLOCK];
    size_t done = 0;
    fd_status st = FD_OK;
    while (done < len) {
        const size_t take = len - done < sizeof trng ? len - done : sizeof trng;
        st = fd_entropy_get(c->entropy, trng);
        if (st != FD_OK) {
            break;
        }
        c->trng_blocks++;
        st = fd_drbg_generate(c->drbg, drbg, take);
        if (st != FD_OK) {
            break;
        }
        for (size_t i = 0; i < take; i++) {
            buf[done + i] = (uint8_t)(trng[i] ^ drbg[i]);
        }
        done += take;
    }
    fd_wipe(trng, sizeof trng);
    fd_wipe(drbg, sizeof drbg);
    if (st != FD_OK) {
        fd_wipe(buf, done); /* no partial output survives */
    }
    return st;
}

fd_rng fd_combined_bytes(fd_combined *c) { return (fd_rng){xor_fill, c, NULL}; }

fd_status fd_combined_init(fd_combined *c, fd_entropy *entropy, fd_drbg *drbg)
{
    if (c == NULL || entropy == NULL || drbg == NULL) {
        return FD_ERR_NULL;
    }
    fd_wipe(c, sizeof *c);
    c->entropy = entropy;
    c->drbg = drbg;
    const fd_rng bytes = fd_combined_bytes(c);
    return fd_fullentropy_init(&c->draws, &bytes);
}

fd_status fd_combined_begin_round(fd_combined *c)
{
    if (c == NULL || c->entropy == NULL) {
        return FD_ERR_NULL;
    }
    fd_fullentropy_clear(&c->draws);
    c->rounds++;
    return fd_entropy_refresh(c->entropy);
}

fd_rng fd_combined_rng(fd_combined *c) { return fd_fullentropy_rng(&c->draws); }

void fd_combined_clear(fd_combined *c)
{
    if (c != NULL) {
        fd_fullentropy_clear(&c->draws);
    }
}
