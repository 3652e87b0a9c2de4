/* HAL: a free-running counter for benchmarks (never for timed asserts). */
#ifndef HAL_COUNTER_H
#define HAL_COUNTER_H

#include <stdint.h>

/* Current count; wraps modulo 2^32. Differences of two readings are valid
 * across one wrap. */
uint32_t hal_counter_read(void);

/* What one count is: "ns" on the host, "instructions/40" under QEMU icount,
 * "cycles" on hardware. */
const char *hal_counter_unit(void);

#endif
