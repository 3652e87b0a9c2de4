/* A minimal stand-in for cmocka on Cortex-M targets, so the very same unit
 * test sources run on the host (real cmocka) and under QEMU. It covers only
 * the subset the tests use; output goes to the board console, and the image
 * exits through hal_board_exit with the failure count. */
#ifndef FD_MINI_CMOCKA_H
#define FD_MINI_CMOCKA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct CMUnitTest {
    const char *name;
    void (*test_func)(void **state);
};

#define cmocka_unit_test(f)                                                                                            \
    {                                                                                                                  \
#f, f                                                                                                          \
    }
#define cmocka_run_group_tests(tests, setup, teardown)                                                                 \
    fd_mini_run_group(#tests, (tests), sizeof(tests) / sizeof((tests)[0]))

int fd_mini_run_group(const char *group, const struct CMUnitTest *tests, size_t count);
_Noreturn void fd_mini_fail(const char *file, int line, const char *what);
_Noreturn void fd_mini_fail_ints(const char *file, int line, uintmax_t a, uintmax_t b);

#define assert_true(c)                                                                                                 \
    do {                                                                                                               \
        if (!(c))                                                                                                      \
            fd_mini_fail(__FILE__, __LINE__, #c);                                                                      \
    } while (0)
#define assert_false(c)                                                                                                \
    do {                                                                                                               \
        if (c)                                                                                                         \
            fd_mini_fail(__FILE__, __LINE__, "!(" #c ")");                                                             \
    } while (0)
#define assert_null(p) assert_true((p) == NULL)
#define assert_non_null(p) assert_true((p) != NULL)
#define assert_int_equal(a, b)                                                                                         \
    do {                                                                                                               \
        uintmax_t fd_a_ = (uintmax_t)(a), fd_b_ = (uintmax_t)(b);                                                      \
        if (fd_a_ != fd_b_)                                                                                            \
            fd_mini_fail_ints(__FILE__, __LINE__, fd_a_, fd_b_);                                                       \
    } while (0)
#define assert_int_not_equal(a, b)                                                                                     \
    do {                                                                                                               \
        uintmax_t fd_a_ = (uintmax_t)(a), fd_b_ = (uintmax_t)(b);                                                      \
        if (fd_a_ == fd_b_)                                                                                            \
            fd_mini_fail_ints(__FILE__, __LINE__, fd_a_, fd_b_);                                                       \
    } while (0)
#define assert_in_range(v, lo, hi) assert_true((uintmax_t)(v) >= (uintmax_t)(lo) && (uintmax_t)(v) <= (uintmax_t)(hi))
#define assert_memory_equal(a, b, n) assert_true(memcmp((a), (b), (n)) == 0)
#define assert_memory_not_equal(a, b, n) assert_true(memcmp((a), (b), (n)) != 0)
#define assert_string_equal(a, b) assert_true(strcmp((a), (b)) == 0)
#define fail() fd_mini_fail(__FILE__, __LINE__, "fail()")
#define fail_msg(...) fd_mini_fail(__FILE__, __LINE__, "fail_msg")

#endif
