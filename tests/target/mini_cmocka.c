#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include "cmocka.h"
#include "hal/board.h"
#include "hal/console.h"

static jmp_buf test_exit;

static void put(const char *s) { hal_console_write(s, strlen(s)); }

static void put_dec(uintmax_t v)
{
    char buf[24];
    size_t i = sizeof buf;
    do {
        buf[--i] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0u);
    hal_console_write(buf + i, sizeof buf - i);
}

static void fail_location(const char *file, int line)
{
    put("    assertion failed at ");
    put(file);
    put(":");
    put_dec((uintmax_t)line);
    put(": ");
}

_Noreturn void fd_mini_fail(const char *file, int line, const char *what)
{
    fail_location(file, line);
    put(what);
    put("\r\n");
    longjmp(test_exit, 1);
}

_Noreturn void fd_mini_fail_ints(const char *file, int line, uintmax_t a, uintmax_t b)
{
    fail_location(file, line);
    put_dec(a);
    put(" vs ");
    put_dec(b);
    put("\r\n");
    longjmp(test_exit, 1);
}

int fd_mini_run_group(const char *group, const struct CMUnitTest *tests, size_t count)
{
    static volatile int failed;
    failed = 0;
    put("[==========] ");
    put(group);
    put(" on ");
    put(hal_board_name());
    put(": running ");
    put_dec(count);
    put(" test(s).\r\n");
    for (size_t i = 0; i < count; i++) {
        put("[ RUN      ] ");
        put(tests[i].name);
        put("\r\n");
        if (setjmp(test_exit) == 0) {
            void *state = NULL;
            tests[i].test_func(&state);
            put("[       OK ] ");
        } else {
            failed = failed + 1;
            put("[  FAILED  ] ");
        }
        put(tests[i].name);
        put("\r\n");
    }
    put("[==========] ");
    put_dec(count - (size_t)failed);
    put(" passed, ");
    put_dec((uintmax_t)failed);
    put(" failed\r\n");
    return failed;
}
