/* Host TRNG: the kernel's pool through getrandom().
 *
 * hal_trng_init is the start-up check of the source: one byte read with
 * GRND_NONBLOCK (wiped at once). The pool not yet seeded (EAGAIN) fails it
 * with FD_ERR_TRNG_TIMEOUT, any other error with FD_ERR_TRNG_HW (EINTR is
 * retried). A failed init leaves the source not ready: every read fails
 * with FD_ERR_NOT_READY until an init succeeds (fail closed, as on the
 * boards). hal_trng_read blocks (flags 0) and fails with FD_ERR_TRNG_HW on
 * any error but EINTR. */
#include <errno.h>
#include <sys/random.h>

#include "fairdeal/util.h"
#include "hal/trng.h"

#include <stdbool.h>

/* Same contract as the boards: no samples before init. */
static bool trng_ready;

fd_status hal_trng_init(void)
{
    trng_ready = false;
    uint8_t probe = 0;
    ssize_t got;
    do {
        got = getrandom(&probe, sizeof probe, GRND_NONBLOCK);
    } while (got < 0 && errno == EINTR);
    const int err = got < 0 ? errno : 0;
    fd_wipe(&probe, sizeof probe);
    if (got < 0) {
        return err == EAGAIN ? FD_ERR_TRNG_TIMEOUT : FD_ERR_TRNG_HW;
    }
    if (got != (ssize_t)sizeof probe) {
        return FD_ERR_TRNG_HW;
    }
    trng_ready = true;
    return FD_OK;
}

fd_status hal_trng_read(uint8_t *samples, size_t count)
{
    if (samples == NULL) {
        return FD_ERR_NULL;
    }
    if (!trng_ready) {
        return FD_ERR_NOT_READY;
    }
    size_t done = 0;
    while (done < count) {
        ssize_t got = getrandom(samples + done, count - done, 0);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            return FD_ERR_TRNG_HW;
        }
        done += (size_t)got;
    }
    return FD_OK;
}
