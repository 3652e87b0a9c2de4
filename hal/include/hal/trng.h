/* HAL: the board's true random number generator, raw samples only.
 *
 * Raw means unconditioned: one sample per byte, as the hardware produced
 * it, so the library's SP 800-90B health tests see what the noise source
 * really does. The assessed min-entropy per sample (H) lives next to each
 * driver in boards/<board>/board.cmake, with the reason for the figure. */
#ifndef HAL_TRNG_H
#define HAL_TRNG_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Power up and configure the TRNG (the dealer's recovery sequence too, at
 * power-on and on every SELFTEST). Errors: FD_ERR_TRNG_HW (the source
 * failed its start-up check), FD_ERR_TRNG_TIMEOUT (the source was not
 * ready within the driver's bound: the STM32's first word, the host's
 * kernel pool not yet seeded). On error the TRNG is left uninitialised:
 * hal_trng_read fails with FD_ERR_NOT_READY until an init succeeds. */
FD_MUST_CHECK fd_status hal_trng_init(void);

/* Fill samples[0..count) with raw samples. Errors: FD_ERR_NULL,
 * FD_ERR_NOT_READY (not initialised), FD_ERR_TRNG_TIMEOUT (no sample
 * within the driver's bound), FD_ERR_TRNG_HW (the hardware flagged a
 * fault, e.g. STM32 seed or clock error). On error, no sample written so
 * far may be used. */
FD_MUST_CHECK fd_status hal_trng_read(uint8_t *samples, size_t count);

/* Human-readable source name for banners, e.g. "nRF51 RNG (bias
 * correction on)": FD_TRNG_NAME in the board's board.cmake. */
const char *hal_trng_name(void);

#ifdef __cplusplus
}
#endif

#endif
