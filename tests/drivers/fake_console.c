#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fake_console.h"
#include "hal/console.h"

void fake_console_expect(const char *text)
{
    for (; *text != '\0'; text++) {
        uint8_t b = 0;
        assert_int_equal(hal_console_read(&b), FD_OK);
        assert_int_equal(b, (uint8_t)*text);
    }
}

void fake_console_expect_overrun(void)
{
    uint8_t b = 0xEE;
    assert_int_equal(hal_console_read(&b), FD_ERR_OVERRUN);
    assert_int_equal(b, 0xEE); /* no byte with a loss */
}
