/* libFuzzer: the link's handshake and frame decoder (docs/LINK.md).
 * Mode 0: the device reads a fuzzed HELLO. Mode 1: the controller reads a
 * fuzzed WELCOME after a real HELLO. Mode 2: an open session (fixed keys)
 * fed a byte stream through fd_link_reader: raw fuzzed bytes, the
 * controller's own frames, flipped, truncated, replayed or out of order.
 * Invariants: nothing is accepted that the controller did not seal, and
 * what is accepted comes in order with its exact payload; a refused frame
 * changes nothing but the rejection count; a failed handshake leaves the
 * link closed and its output zeroed; the session closes at the
 * FD_LINK_MAX_FAILURES-th rejection and stays closed. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fairdeal/link.h"
#include "fuzz_support.h"

static const uint8_t secret[32] = "fuzzing the link, 32 bytes......";
static uint8_t psk[32], eph[32], e_dev[32], e_ctl[32];

#define SEALED 4u

/* Made once (X25519 under the sanitizers is slow): the controller's state
 * after its HELLO, an open session on both sides, and four frames the
 * controller sealed in it; each run starts from copies. */
static fd_noise_handshake hs_after_hello;
static fd_link dev0;
static uint8_t frames[SEALED][FD_LINK_MAX_FRAME];
static char texts[SEALED][64];
static size_t lens[SEALED];

static void keys(void)
{
    static bool done;
    if (done)
        return;
    FUZZ_CHECK(fd_link_derive_keys(secret, sizeof secret, psk, eph) == FD_OK);
    const uint8_t trng[32] = {0};
    fd_link_ephemeral(eph, trng, 1, e_dev);
    fd_link_ephemeral(eph, trng, 2, e_ctl);
    static uint8_t hello[FD_LINK_MAX_FRAME], welcome[FD_LINK_MAX_FRAME], payload[FD_LINK_MAX_PAYLOAD + 2];
    fd_noise_handshake hs;
    fd_link ctl;
    size_t n = 0, wn = 0, plen = 0;
    FUZZ_CHECK(fd_link_hello(&hs, psk, e_ctl, hello, sizeof hello, &n) == FD_OK);
    hs_after_hello = hs;
    FUZZ_CHECK(fd_link_accept(psk, e_dev, hello, n, NULL, 0, &dev0, welcome, sizeof welcome, &wn) == FD_OK);
    FUZZ_CHECK(fd_link_finish(&hs, welcome, wn, &ctl, payload, sizeof payload, &plen) == FD_OK);
    for (unsigned i = 0; i < SEALED; i++) {
        const size_t tn = (size_t)snprintf(texts[i], sizeof texts[i], "command %u %.*s", i, (int)(i * 15u),
                                           "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
        FUZZ_CHECK(fd_link_seal(&ctl, (const uint8_t *)texts[i], tn, frames[i], sizeof frames[i], &lens[i]) == FD_OK);
    }
    done = true;
}

static bool all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

static void device_reads_hello(fuzz_input *in)
{
    size_t n = 0;
    const uint8_t *hello = fuzz_bytes(in, FD_LINK_MAX_FRAME + 8u, &n);
    static uint8_t out[FD_LINK_MAX_FRAME];
    fd_link dev;
    size_t out_len = 0;
    memset(out, 0, sizeof out);
    const fd_status st =
        fd_link_accept(psk, e_dev, hello, n, (const uint8_t *)"id", 2, &dev, out, sizeof out, &out_len);
    if (st == FD_OK) { /* only a HELLO sealed under this PSK gets here */
        FUZZ_CHECK(dev.open && out_len == FD_LINK_HEADER_SIZE + 32u + 64u + 16u);
    } else {
        FUZZ_CHECK(!dev.open && all_zero(out, sizeof out));
        FUZZ_CHECK(st == FD_ERR_PARSE || st == FD_ERR_AUTH);
    }
}

static void controller_reads_welcome(fuzz_input *in)
{
    static uint8_t payload[FD_LINK_MAX_PAYLOAD + 2];
    fd_noise_handshake hs = hs_after_hello;
    size_t n = 0, plen = 0;
    const uint8_t *welcome = fuzz_bytes(in, FD_LINK_MAX_FRAME + 8u, &n);
    fd_link ctl;
    const fd_status st = fd_link_finish(&hs, welcome, n, &ctl, payload, sizeof payload, &plen);
    FUZZ_CHECK(st == FD_OK ? ctl.open && plen <= FD_LINK_MAX_PAYLOAD : !ctl.open);
}

static void session_stream(fuzz_input *in)
{
    static uint8_t payload[FD_LINK_MAX_PAYLOAD + 2];
    fd_link dev = dev0;
    static fd_link_reader r;
    fd_link_reader_init(&r);
    unsigned accepted = 0;
    bool closed = false;
    while (fuzz_left(in) > 0) {
        const uint8_t op = fuzz_u8(in);
        static uint8_t chunk[FD_LINK_MAX_FRAME + 64];
        size_t cn = 0;
        const unsigned j = (op >> 2) % SEALED;
        switch (op & 3u) {
        case 0: { /* raw bytes from the input */
            const uint8_t *p = fuzz_bytes(in, fuzz_u8(in), &cn);
            memcpy(chunk, p, cn);
            break;
        }
        case 1: /* a sealed frame, whole */
            memcpy(chunk, frames[j], lens[j]);
            cn = lens[j];
            break;
        case 2: { /* a sealed frame with one bit flipped */
            memcpy(chunk, frames[j], lens[j]);
            cn = lens[j];
            const uint16_t bit = fuzz_u16(in);
            chunk[(bit / 8u) % cn] ^= (uint8_t)(1u << (bit % 8u));
            break;
        }
        default: /* a sealed frame cut short */
            cn = fuzz_u16(in) % lens[j];
            memcpy(chunk, frames[j], cn);
            break;
        }
        for (size_t i = 0; i < cn; i++) {
            if (!fd_link_reader_push(&r, chunk[i]))
                continue;
            FUZZ_CHECK(r.len <= FD_LINK_MAX_FRAME && r.len >= FD_LINK_HEADER_SIZE);
            const fd_noise_cipher before = dev.s.rx;
            const uint32_t rejected = dev.rejected;
            size_t got = 0;
            const fd_status st = fd_link_open(&dev, r.buf, r.len, payload, sizeof payload, &got);
            if (st == FD_OK) {
                FUZZ_CHECK(!closed && accepted < SEALED);
                FUZZ_CHECK(got == strlen(texts[accepted]) && memcmp(payload, texts[accepted], got) == 0);
                FUZZ_CHECK(r.len == lens[accepted] && memcmp(r.buf, frames[accepted], r.len) == 0);
                accepted++;
            } else if (closed) {
                FUZZ_CHECK(st == FD_ERR_STATE && !dev.open);
            } else {
                FUZZ_CHECK(st == FD_ERR_AUTH || st == FD_ERR_PARSE);
                FUZZ_CHECK(dev.rejected == rejected + 1u);
                if (dev.rejected >= FD_LINK_MAX_FAILURES) {
                    FUZZ_CHECK(!dev.open);
                    closed = true;
                } else {
                    FUZZ_CHECK(dev.open && memcmp(&before, &dev.s.rx, sizeof before) == 0);
                }
            }
            fd_link_reader_next(&r);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    keys();
    fuzz_input in = {data, size, 0};
    switch (fuzz_u8(&in) % 3u) {
    case 0: device_reads_hello(&in); break;
    case 1: controller_reads_welcome(&in); break;
    default: session_stream(&in); break;
    }
    return 0;
}
