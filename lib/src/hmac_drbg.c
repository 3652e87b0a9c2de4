#include "fairdeal/hmac_drbg.h"

#include <string.h>

#include "fairdeal/sha256.h"

typedef struct segment {
    const uint8_t *data;
    size_t len;
} segment;

/* HMAC_DRBG_Update (§10.1.2.2) with provided_data given as up to three
 * concatenated segments, so callers need no concatenation buffer. */
static void drbg_update(fd_hmac_drbg *d, const segment *parts, size_t count)
{
    size_t provided = 0;
    for (size_t i = 0; i < count; i++) {
        provided += parts[i].len;
    }
    for (uint8_t round = 0; round < 2u; round++) {
        if (round == 1u && provided == 0u) {
            return;
        }
        fd_hmac_sha256_ctx h;
        fd_hmac_sha256_init(&h, d->key, sizeof d->key);
        fd_hmac_sha256_update(&h, d->v, sizeof d->v);
        fd_hmac_sha256_update(&h, &round, 1);
        for (size_t i = 0; i < count; i++) {
            fd_hmac_sha256_update(&h, parts[i].data, parts[i].len);
        }
        fd_hmac_sha256_final(&h, d->key);
        fd_hmac_sha256(d->key, sizeof d->key, d->v, sizeof d->v, d->v);
    }
}

static bool input_ok(const uint8_t *p, size_t len) { return (p != NULL || len == 0u); }

fd_status fd_hmac_drbg_instantiate(fd_hmac_drbg *d, const uint8_t *entropy, size_t entropy_len, const uint8_t *nonce,
                                   size_t nonce_len, const uint8_t *pers, size_t pers_len, uint64_t reseed_interval)
{
    if (d == NULL || entropy == NULL || !input_ok(nonce, nonce_len) || !input_ok(pers, pers_len)) {
        return FD_ERR_NULL;
    }
    if (entropy_len < FD_HMAC_DRBG_MIN_ENTROPY) {
        return FD_ERR_EMPTY;
    }
    if (entropy_len > FD_HMAC_DRBG_MAX_INPUT || nonce_len > FD_HMAC_DRBG_MAX_INPUT ||
        pers_len > FD_HMAC_DRBG_MAX_INPUT || reseed_interval == 0u ||
        reseed_interval > FD_HMAC_DRBG_MAX_RESEED_INTERVAL) {
        return FD_ERR_TOO_LARGE;
    }
    memset(d->key, 0x00, sizeof d->key);
    memset(d->v, 0x01, sizeof d->v);
    const segment seed[3] = {{entropy, entropy_len}, {nonce, nonce_len}, {pers, pers_len}};
    drbg_update(d, seed, 3);
    d->reseed_counter = 1;
    d->reseed_interval = reseed_interval;
    d->instantiated = true;
    return FD_OK;
}

fd_status fd_hmac_drbg_reseed(fd_hmac_drbg *d, const uint8_t *entropy, size_t entropy_len, const uint8_t *addl,
                              size_t addl_len)
{
    if (d == NULL || entropy == NULL || !input_ok(addl, addl_len)) {
        return FD_ERR_NULL;
    }
    if (!d->instantiated) {
        return FD_ERR_NOT_READY;
    }
    if (entropy_len < FD_HMAC_DRBG_MIN_ENTROPY) {
        return FD_ERR_EMPTY;
    }
    if (entropy_len > FD_HMAC_DRBG_MAX_INPUT || addl_len > FD_HMAC_DRBG_MAX_INPUT) {
        return FD_ERR_TOO_LARGE;
    }
    const segment seed[2] = {{entropy, entropy_len}, {addl, addl_len}};
    drbg_update(d, seed, 2);
    d->reseed_counter = 1;
    return FD_OK;
}

fd_status fd_hmac_drbg_generate(fd_hmac_drbg *d, uint8_t *out, size_t len, const uint8_t *addl, size_t addl_len)
{
    if (d == NULL || (out == NULL && len > 0u) || !input_ok(addl, addl_len)) {
        return FD_ERR_NULL;
    }
    if (!d->instantiated) {
        return FD_ERR_NOT_READY;
    }
    if (len > FD_HMAC_DRBG_MAX_REQUEST || addl_len > FD_HMAC_DRBG_MAX_INPUT) {
        return FD_ERR_REQUEST_TOO_LARGE;
    }
    if (d->reseed_counter > d->reseed_interval) {
        return FD_ERR_RESEED_REQUIRED;
    }
    const segment extra[1] = {{addl, addl_len}};
    if (addl_len > 0u) {
        drbg_update(d, extra, 1);
    }
    size_t done = 0;
    while (done < len) {
        fd_hmac_sha256(d->key, sizeof d->key, d->v, sizeof d->v, d->v);
        size_t take = len - done < sizeof d->v ? len - done : sizeof d->v;
        memcpy(out + done, d->v, take);
        done += take;
    }
    drbg_update(d, extra, 1);
    d->reseed_counter++;
    return FD_OK;
}

void fd_hmac_drbg_uninstantiate(fd_hmac_drbg *d)
{
    if (d != NULL) {
        fd_wipe(d, sizeof *d);
    }
}
