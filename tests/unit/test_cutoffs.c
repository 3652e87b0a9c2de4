/* Host only: the build-time cutoff computation against the SP 800-90B
 * numbers published in shared/reference.md, and the generated header of
 * this build against it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fd_trng_config.h"
#include "health_cutoffs.h"

static void test_rct_table(void **state)
{
    (void)state;
    assert_int_equal(fd_rct_cutoff(0.5), 41);
    assert_int_equal(fd_rct_cutoff(1), 21);
    assert_int_equal(fd_rct_cutoff(2), 11);
    assert_int_equal(fd_rct_cutoff(4), 6);
    assert_int_equal(fd_rct_cutoff(8), 4);
}

static void test_apt_table(void **state)
{
    (void)state;
    assert_int_equal(fd_apt_cutoff(1, 1024), 589);
    assert_int_equal(fd_apt_cutoff(0.5, 1024), 793);
    assert_int_equal(fd_apt_cutoff(0.5, 512), 410);
    assert_int_equal(fd_apt_cutoff(1, 512), 311);
    assert_int_equal(fd_apt_cutoff(2, 512), 177);
    assert_int_equal(fd_apt_cutoff(4, 512), 62);
    assert_int_equal(fd_apt_cutoff(8, 512), 13);
}

static void test_predict_run_table(void **state)
{
    (void)state;
    assert_int_equal(fd_predict_run_cutoff(0.5), 40);
    assert_int_equal(fd_predict_run_cutoff(1), 20);
    assert_int_equal(fd_predict_run_cutoff(2), 10);
    assert_int_equal(fd_predict_run_cutoff(3), 7);
    assert_int_equal(fd_predict_run_cutoff(4), 5);
    assert_int_equal(fd_predict_run_cutoff(8), 3);
}

static void test_generated_header_matches(void **state)
{
    (void)state;
    const double h = FD_TRNG_H_MILLIBITS / 1000.0;
    assert_int_equal(FD_TRNG_RCT_CUTOFF, fd_rct_cutoff(h));
    assert_int_equal(FD_TRNG_APT_CUTOFF, fd_apt_cutoff(h, FD_TRNG_APT_WINDOW));
    assert_int_equal(FD_TRNG_PREDICT_RUN_CUTOFF, fd_predict_run_cutoff(h));
    assert_int_equal(FD_TRNG_PREDICT_WINDOW_CUTOFF, fd_apt_cutoff(h, FD_TRNG_APT_WINDOW));
    assert_true(FD_TRNG_SAMPLES_PER_BLOCK * h >= 320.0);
    assert_true((FD_TRNG_SAMPLES_PER_BLOCK - 1) * h < 320.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rct_table),
        cmocka_unit_test(test_apt_table),
        cmocka_unit_test(test_predict_run_table),
        cmocka_unit_test(test_generated_header_matches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
