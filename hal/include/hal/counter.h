/* HAL: a free-running counter for benchmarks (never for timed asserts). */
#ifndef HAL_COUNTER_H
#define HAL_COUNTER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Current count; wraps modulo 2^32. Differences of two readings are valid
 * across one wrap. */
uint32_t hal_counter_read(void);

/* What one count is: "ns" on the host; "cpu-clocks" on Cortex-M boards
 * (SysTick on the processor clock, FD_CPU_HZ; under QEMU -icount shift=0
 * one clock is 10^9 / FD_CPU_HZ instructions). */
const char *hal_counter_unit(void);

#ifdef __cplusplus
}
#endif

#endif
