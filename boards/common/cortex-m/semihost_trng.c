/* EMULATION ONLY: the entropy source of every board without a TRNG
 * (FD_EMULATION_ONLY in its board.cmake). It reads the host's /dev/urandom
 * through ARM semihosting, which only works under QEMU with
 * -semihosting-config enable=on (or a debugger); without it the first read
 * traps and the fault handler names the missing switch. Such boards refuse
 * release builds (cmake/board.cmake) and the dealer banner says EMULATION
 * ONLY. */
#include "cortex_m.h"
#include "hal/trng.h"

#if !defined(FD_SEMIHOSTING)
#error "the semihosting entropy source needs semihosting: emulation-only boards only"
#endif

static int urandom_handle = -1;

fd_status hal_trng_init(void)
{
    if (urandom_handle < 0) {
        urandom_handle = fd_semihost_open("/dev/urandom", 1 /* "rb" */);
    }
    return urandom_handle < 0 ? FD_ERR_TRNG_HW : FD_OK;
}

fd_status hal_trng_read(uint8_t *samples, size_t count)
{
    if (samples == NULL) {
        return FD_ERR_NULL;
    }
    if (urandom_handle < 0) {
        return FD_ERR_NOT_READY;
    }
    while (count > 0u) {
        int chunk = count > 256u ? 256 : (int)count;
        int not_read = fd_semihost_read(urandom_handle, samples, chunk);
        if (not_read != 0) {
            return FD_ERR_TRNG_HW; /* a short read is a fault, never padded */
        }
        samples += chunk;
        count -= (size_t)chunk;
    }
    return FD_OK;
}
