/* Console lines for test and benchmark images, with no printf family (the
 * firmware link forbids it): a string, a number in decimal. */
#ifndef FD_TEST_CONSOLE_SAY_H
#define FD_TEST_CONSOLE_SAY_H

#include <stdint.h>
#include <string.h>

#include "fairdeal/util.h"
#include "hal/console.h"

static inline void say(const char *s) { hal_console_write(s, strlen(s)); }

static inline void say_u32(uint32_t v)
{
    char digits[FD_DEC_MAX_DIGITS];
    hal_console_write(digits, fd_dec_encode(v, digits));
}

#endif
