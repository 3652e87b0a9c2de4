#include "fairdeal/seeded.h"

#include "fairdeal/util.h"

fd_status fd_rng_from_seed(fd_chacha_drbg *state, const uint8_t seed[FD_SEED_BYTES], fd_rng *rng)
{
    if (state == NULL || seed == NULL || rng == NULL) {
        return FD_ERR_NULL;
    }
    const fd_status st =
        fd_chacha_drbg_instantiate(state, seed, FD_SEED_BYTES, NULL, 0, NULL, 0, FD_CHACHA_DRBG_MAX_RESEED_INTERVAL);
    if (st == FD_OK) {
        *rng = fd_chacha_drbg_rng(state);
    }
    return st;
}

typedef fd_status (*generate_fn)(void *d, uint8_t *out, size_t len);

/* Serve len bytes in requests of at most max_request; all or nothing. */
static fd_status fill_in_pieces(generate_fn generate, void *d, size_t max_request, uint8_t *buf, size_t len)
{
    if (buf == NULL && len > 0u) {
        return FD_ERR_NULL;
    }
    size_t done = 0;
    do {
        const size_t piece = (len - done < max_request) ? len - done : max_request;
        const fd_status st = generate(d, buf + done, piece);
        if (st != FD_OK) {
            fd_wipe(buf, len);
            return st;
        }
        done += piece;
    } while (done < len);
    return FD_OK;
}

static fd_status chacha_generate(void *d, uint8_t *out, size_t len)
{
    return fd_chacha_drbg_generate(d, out, len, NULL, 0);
}

static fd_status hmac_generate(void *d, uint8_t *out, size_t len)
{
    return fd_hmac_drbg_generate(d, out, len, NULL, 0);
}

static fd_status chacha_fill(void *ctx, uint8_t *buf, size_t len)
{
    return fill_in_pieces(chacha_generate, ctx, FD_CHACHA_DRBG_MAX_REQUEST, buf, len);
}

static fd_status hmac_fill(void *ctx, uint8_t *buf, size_t len)
{
    return fill_in_pieces(hmac_generate, ctx, FD_HMAC_DRBG_MAX_REQUEST, buf, len);
}

fd_rng fd_chacha_drbg_rng(fd_chacha_drbg *d) { return (fd_rng){chacha_fill, d, NULL}; }

fd_rng fd_hmac_drbg_rng(fd_hmac_drbg *d) { return (fd_rng){hmac_fill, d, NULL}; }
