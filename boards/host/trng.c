#include <errno.h>
#include <sys/random.h>

#include "hal/trng.h"

#include <stdbool.h>

/* Same contract as the boards: no samples before init. */
static bool trng_ready;

fd_status hal_trng_init(void)
{
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
