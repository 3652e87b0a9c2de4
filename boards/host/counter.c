#include <time.h>

#include "hal/counter.h"

uint32_t hal_counter_read(void)
{
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}

const char *hal_counter_unit(void) { return "ns"; }
