/* libFuzzer target: arbitrary call sequences on both DRBG mechanisms
 * (HMAC_DRBG, ChaCha20) and on fd_drbg with a source that fails when the
 * input says. A model of SP 800-90A's rules predicts every status: not
 * instantiated, short or oversized inputs, bad intervals, oversized
 * requests, an exhausted reseed counter. Every error leaves the state
 * byte-for-byte unchanged and outputs nothing; fd_drbg zeroes out on error
 * and reseeds before every request under prediction resistance. The whole
 * sequence runs twice from scratch and must give the same bytes. */
#include <stdbool.h>
#include <string.h>

#include "fairdeal/chacha20.h"
#include "fairdeal/drbg.h"
#include "fairdeal/hmac_drbg.h"
#include "fairdeal/sha256.h"
#include "fuzz_support.h"
#include "test_rng.h"

#define MAX_REQUEST (FD_HMAC_DRBG_MAX_REQUEST + 2u)

static uint8_t material[FD_HMAC_DRBG_MAX_INPUT + 64u];
static uint8_t out[MAX_REQUEST];
static uint8_t out_before[MAX_REQUEST];

typedef struct mechanism {
    bool chacha;
    fd_hmac_drbg hmac;
    fd_chacha_drbg cc;
    /* the model */
    bool instantiated;
    uint64_t counter;
    uint64_t interval;
} mechanism;

static size_t input_len(fuzz_input *in)
{
    const uint8_t b = fuzz_u8(in);
    switch (b >> 6) {
    case 0: return b & 0x3Fu; /* 0..63, around the 32-byte minimum */
    case 1: return 32u;
    case 2: return FD_HMAC_DRBG_MAX_INPUT - 2u + (b & 3u); /* at the cap */
    default: return (size_t)(b & 0x3Fu) * 16u;
    }
}

static uint64_t interval_from(uint8_t b)
{
    switch (b & 7u) {
    case 0: return 0u;
    case 1: return FD_HMAC_DRBG_MAX_RESEED_INTERVAL;
    case 2: return FD_HMAC_DRBG_MAX_RESEED_INTERVAL + 1u;
    default: return 1u + (b >> 3);
    }
}

static void state_of(const mechanism *m, uint8_t *buf, size_t *len)
{
    if (m->chacha) {
        memcpy(buf, &m->cc, sizeof m->cc);
        *len = sizeof m->cc;
    } else {
        memcpy(buf, &m->hmac, sizeof m->hmac);
        *len = sizeof m->hmac;
    }
}

static void run_mechanism(mechanism *m, fuzz_input *in, fd_sha256_ctx *transcript)
{
    uint8_t before[sizeof(fd_chacha_drbg) + sizeof(fd_hmac_drbg)];
    uint8_t after[sizeof before];
    size_t before_len;
    size_t after_len;
    while (fuzz_left(in) > 0u) {
        const uint8_t op = fuzz_u8(in);
        state_of(m, before, &before_len);
        fd_status st;
        fd_status want;
        if (op % 4u == 0u) {
            const size_t e = input_len(in);
            const size_t nonce = input_len(in);
            const size_t pers = input_len(in);
            const uint64_t interval = interval_from(fuzz_u8(in));
            st = m->chacha ? fd_chacha_drbg_instantiate(&m->cc, material, e, material + 1, nonce, material + 2, pers,
                                                        interval)
                           : fd_hmac_drbg_instantiate(&m->hmac, material, e, material + 1, nonce, material + 2, pers,
                                                      interval);
            if (getenv("FUZZ_VERBOSE") != NULL) {
                fprintf(stderr, "inst e=%zu nonce=%zu pers=%zu interval=%llu\n", e, nonce, pers,
                        (unsigned long long)interval);
            }
            want = e < 32u ? FD_ERR_EMPTY
                   : (e > FD_HMAC_DRBG_MAX_INPUT || nonce > FD_HMAC_DRBG_MAX_INPUT || pers > FD_HMAC_DRBG_MAX_INPUT ||
                      interval == 0u || interval > FD_HMAC_DRBG_MAX_RESEED_INTERVAL)
                       ? FD_ERR_TOO_LARGE
                       : FD_OK;
            if (want == FD_OK) {
                m->instantiated = true;
                m->counter = 1;
                m->interval = interval;
            }
        } else if (op % 4u == 1u) {
            const size_t e = input_len(in);
            const size_t addl = input_len(in);
            st = m->chacha ? fd_chacha_drbg_reseed(&m->cc, material + 3, e, material + 4, addl)
                           : fd_hmac_drbg_reseed(&m->hmac, material + 3, e, material + 4, addl);
            want = !m->instantiated                                                ? FD_ERR_NOT_READY
                   : e < 32u                                                       ? FD_ERR_EMPTY
                   : (e > FD_HMAC_DRBG_MAX_INPUT || addl > FD_HMAC_DRBG_MAX_INPUT) ? FD_ERR_TOO_LARGE
                                                                                   : FD_OK;
            if (want == FD_OK) {
                m->counter = 1;
            }
        } else if (op % 4u == 2u) {
            const uint16_t r = fuzz_u16(in);
            const size_t len = (op & 0x80u) != 0u ? FD_HMAC_DRBG_MAX_REQUEST - 1u + (r & 3u) : r % 600u;
            const size_t addl = (op & 0x40u) != 0u ? input_len(in) : 0u;
            memcpy(out_before, out, len);
            st = m->chacha ? fd_chacha_drbg_generate(&m->cc, out, len, material + 5, addl)
                           : fd_hmac_drbg_generate(&m->hmac, out, len, material + 5, addl);
            want = !m->instantiated                                                    ? FD_ERR_NOT_READY
                   : (len > FD_HMAC_DRBG_MAX_REQUEST || addl > FD_HMAC_DRBG_MAX_INPUT) ? FD_ERR_REQUEST_TOO_LARGE
                   : m->counter > m->interval                                          ? FD_ERR_RESEED_REQUIRED
                                                                                       : FD_OK;
            if (st != FD_OK) {
                FUZZ_CHECK(memcmp(out_before, out, len) == 0); /* nothing output */
            } else {
                m->counter++;
                fd_sha256_update(transcript, out, len);
            }
        } else {
            if (m->chacha) {
                fd_chacha_drbg_uninstantiate(&m->cc);
            } else {
                fd_hmac_drbg_uninstantiate(&m->hmac);
            }
            m->instantiated = false;
            st = FD_OK;
            want = FD_OK;
        }
        if (st != want) {
            fprintf(stderr, "op %u: got %s, model says %s\n", op % 4u, fd_status_name(st), fd_status_name(want));
        }
        FUZZ_CHECK(st == want);
        if (st != FD_OK) {
            state_of(m, after, &after_len);
            FUZZ_CHECK(after_len == before_len && memcmp(before, after, before_len) == 0);
        }
    }
}

static void run_policy(fuzz_input *in, fd_sha256_ctx *transcript)
{
    static fd_drbg d;
    /* the source fails from the call the input says on */
    test_entropy_source src = {0, fuzz_u8(in) % 40u, (fuzz_u8(in) & 1u) != 0u ? FD_ERR_HEALTH : FD_ERR_TRNG_TIMEOUT};
    memset(&d, 0, sizeof d);
    bool instantiated = false;
    while (fuzz_left(in) > 0u) {
        const uint8_t op = fuzz_u8(in);
        const unsigned calls_before = src.calls;
        const uint32_t reseeds_before = d.reseeds;
        if (op % 4u == 0u) {
            const uint8_t c = fuzz_u8(in);
            const fd_drbg_config cfg = {
                .kind = (fd_drbg_kind)(c & 3u),
                .prediction_resistance = (c & 4u) != 0u,
                .reseed_interval = interval_from(fuzz_u8(in)),
                .reseed_bytes = (uint32_t)fuzz_u8(in) * 8u,
            };
            const fd_status st = fd_drbg_instantiate(&d, &cfg, test_entropy_block, &src, material, input_len(in) % 48u);
            const bool cfg_ok = (cfg.kind == FD_DRBG_HMAC_SHA256 || cfg.kind == FD_DRBG_CHACHA20) &&
                                cfg.reseed_interval != 0u && cfg.reseed_interval <= FD_HMAC_DRBG_MAX_RESEED_INTERVAL;
            if (!cfg_ok) {
                FUZZ_CHECK(st == FD_ERR_TOO_LARGE && src.calls == calls_before);
            } else {
                FUZZ_CHECK(st == FD_OK || st == src.failure);
            }
            if (st == FD_OK) {
                instantiated = true;
            }
            FUZZ_CHECK(d.instantiated == instantiated); /* an error changed nothing */
        } else if (op % 4u == 1u) {
            const fd_status st = fd_drbg_reseed(&d, material + 7, input_len(in) % 48u);
            FUZZ_CHECK(instantiated ? (st == FD_OK || st == src.failure) : st == FD_ERR_NOT_READY);
            FUZZ_CHECK(st != FD_OK || d.reseeds == reseeds_before + 1u);
        } else if (op % 4u == 2u) {
            const size_t len = (op & 0x80u) != 0u ? FD_HMAC_DRBG_MAX_REQUEST + (fuzz_u8(in) & 1u) : fuzz_u16(in) % 700u;
            memset(out, 0xEE, len);
            const fd_status st = fd_drbg_generate(&d, out, len);
            if (!instantiated) {
                FUZZ_CHECK(st == FD_ERR_NOT_READY);
            } else if (st == FD_OK) {
                fd_sha256_update(transcript, out, len);
                if (d.cfg.prediction_resistance && len > 0u) {
                    FUZZ_CHECK(d.reseeds > reseeds_before);
                }
            } else {
                FUZZ_CHECK(st == src.failure);
                for (size_t i = 0; i < len; i++) {
                    FUZZ_CHECK(out[i] == 0u);
                }
            }
        } else {
            fd_drbg_uninstantiate(&d);
            instantiated = false;
            FUZZ_CHECK(fd_drbg_generate(&d, out, 1) == FD_ERR_NOT_READY);
        }
    }
}

static void run_once(const uint8_t *data, size_t size, uint8_t digest[FD_SHA256_SIZE])
{
    fd_sha256_ctx transcript;
    fd_sha256_init(&transcript);
    fuzz_input in = {data, size, 0};
    const uint8_t which = fuzz_u8(&in);
    for (size_t i = 0; i < sizeof material; i++) {
        material[i] = (uint8_t)(i * 37u + which);
    }
    if (which % 3u == 2u) {
        run_policy(&in, &transcript);
    } else {
        static mechanism m;
        memset(&m, 0, sizeof m);
        m.chacha = which % 3u == 1u;
        run_mechanism(&m, &in, &transcript);
    }
    fd_sha256_final(&transcript, digest);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t first[FD_SHA256_SIZE];
    uint8_t second[FD_SHA256_SIZE];
    run_once(data, size, first);
    run_once(data, size, second);
    FUZZ_CHECK(memcmp(first, second, sizeof first) == 0);
    return 0;
}
