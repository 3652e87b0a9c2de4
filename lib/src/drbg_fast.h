/* Internal: fd_drbg_generate's common case inline, for the shuffles'
 * fills. A shuffle asks the DRBG for a few words per fill and 4 bytes per
 * rejected group (312 cards: 14.7 requests), each through the fd_rng
 * callback, fd_drbg_generate and the mechanism's output step, whose calls
 * and repeated checks cost more than handing out the words. A shuffle that
 * finds fd_drbg_fill as its source serves the request here when the
 * ChaCha20 buffer already holds it, with the same effects. */
#ifndef FAIRDEAL_DRBG_FAST_H
#define FAIRDEAL_DRBG_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/drbg.h"
#include "chacha_drbg_output.h"
#include "word.h"

/* The fill callback of fd_drbg_rng (ctx is the fd_drbg): fd_drbg_generate. */
fd_status fd_drbg_fill(void *ctx, uint8_t *buf, size_t len);

/* The policy's byte limit is reached: reseed before generating more. */
FD_HOT_INLINE bool fd_drbg_reseed_bytes_due(const fd_drbg *d)
{
    return d->cfg.reseed_bytes != 0u && d->bytes_since_reseed >= d->cfg.reseed_bytes;
}

/* Whether fd_drbg_generate may send a request of len bytes straight to the
 * ChaCha20 mechanism's output step: one mechanism request, no reseed due
 * by the policy. d instantiated. */
FD_HOT_INLINE bool fd_drbg_chacha_shortcut(const fd_drbg *d, size_t len)
{
    return d->cfg.kind == FD_DRBG_CHACHA20 && len > 0u && len <= FD_HMAC_DRBG_MAX_REQUEST &&
           !d->cfg.prediction_resistance && !fd_drbg_reseed_bytes_due(d);
}

/* fd_drbg_generate(d, out, len) when the ChaCha20 buffer already holds the
 * request as whole words and no reseed is due: does what it does (same
 * bytes, buffer position, reseed counter and byte count) and returns true.
 * Otherwise does nothing and returns false: the caller makes the full call,
 * which refills, reseeds or reports the error. d non-NULL; out valid for
 * len bytes. */
FD_HOT_INLINE bool fd_drbg_generate_buffered(fd_drbg *d, uint8_t *out, size_t len)
{
    if (!d->instantiated || !fd_drbg_chacha_shortcut(d, len) ||
        d->u.chacha.reseed_counter > d->u.chacha.reseed_interval ||
        !fd_chacha_drbg_take_buffered(&d->u.chacha, out, len)) {
        return false;
    }
    d->bytes_since_reseed += (uint32_t)len;
    return true;
}

#endif
