/* STM32F407 IWDG and RCC_CSR reset flags (watchdog.c) against fake
 * registers with a counting SysTick for the bounded PVU/RVU wait. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <cmocka.h>

#include "hal/reset.h"
#include "hal/watchdog.h"
#include "stm32f407.h"

#define A_RCC_CSR ((uintptr_t)RCC_BASE + 0x74u)
#define A_KR ((uintptr_t)IWDG_BASE + 0x00u)
#define A_PR ((uintptr_t)IWDG_BASE + 0x04u)
#define A_RLR ((uintptr_t)IWDG_BASE + 0x08u)
#define A_SR ((uintptr_t)IWDG_BASE + 0x0Cu)

static int setup(void **state)
{
    (void)state;
    fake_regs_reset();
    fake_systick_counts();
    (void)fd_timebase_start(); /* the fake SysTick counts: FD_OK */
    return 0;
}

static void csr_names_the_most_fundamental_cause_and_clears(void **state)
{
    (void)state;
    static const struct {
        uint32_t csr;
        hal_reset_cause want;
    } cases[] = {
        /* a power-on sets POR, BOR and PIN together */
        {RCC_CSR_PORRSTF | RCC_CSR_BORRSTF | RCC_CSR_PINRSTF, HAL_RESET_POWER_ON},
        {RCC_CSR_BORRSTF | RCC_CSR_PINRSTF, HAL_RESET_BROWNOUT},
        {RCC_CSR_IWDGRSTF | RCC_CSR_PINRSTF, HAL_RESET_WATCHDOG}, /* internal resets drive NRST */
        {RCC_CSR_WWDGRSTF | RCC_CSR_PINRSTF, HAL_RESET_WATCHDOG},
        {RCC_CSR_SFTRSTF | RCC_CSR_PINRSTF, HAL_RESET_SOFTWARE},
        {RCC_CSR_PINRSTF, HAL_RESET_PIN},
        {RCC_CSR_LPWRRSTF | RCC_CSR_PINRSTF, HAL_RESET_PIN},
        {RCC_CSR_LPWRRSTF, HAL_RESET_UNKNOWN},
        {0u, HAL_RESET_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const uint32_t lsion = 1u; /* LSION must survive the clearing write */
        fake_reg_poke(A_RCC_CSR, cases[i].csr | lsion);
        assert_int_equal(hal_reset_cause_read(), cases[i].want);
        assert_int_equal(fake_reg_peek(A_RCC_CSR), cases[i].csr | lsion | RCC_CSR_RMVF);
    }
}

static void bad_timeouts_are_refused_before_the_start(void **state)
{
    (void)state;
    assert_int_equal(hal_watchdog_start(0u), FD_ERR_EMPTY);
    /* 4096 * 256 / 47 kHz = 22.3 s is the most the LSI's fastest allows */
    assert_int_equal(hal_watchdog_start(22400u), FD_ERR_TOO_LARGE);
    hal_watchdog_kick();
    assert_int_equal(fake_reg_peek(A_KR), 0u); /* never started, never touched */
}

#if defined(FD_TEST_STUCK_UPDATE)
static void sr_stuck(uintptr_t a, volatile uint32_t *s)
{
    (void)a;
    *s = IWDG_SR_PVU | IWDG_SR_RVU;
}

static void an_update_that_never_lands_is_not_ready(void **state)
{
    (void)state;
    fake_reg_hook(A_SR, sr_stuck);
    assert_int_equal(hal_watchdog_start(8000u), FD_ERR_NOT_READY); /* bounded, not a hang */
    assert_int_equal(hal_watchdog_start(8000u), FD_ERR_STATE);     /* it runs anyway: 0xCCCC went */
}

#else
static void starts_so_the_fastest_lsi_still_meets_the_timeout(void **state)
{
    (void)state;
    assert_int_equal(hal_watchdog_start(8000u), FD_OK);
    /* 8 s at 47 kHz = 376,000 LSI periods: /128 (PR 5) gives 2,938 <= 4,096 */
    assert_int_equal(fake_reg_peek(A_PR), 5u);
    assert_int_equal(fake_reg_peek(A_RLR), 2937u);
    assert_int_equal(fake_reg_peek(A_KR), IWDG_KEY_RELOAD); /* last: reload with the new value */
    assert_int_equal(hal_watchdog_start(8000u), FD_ERR_STATE);
    fake_reg_poke(A_KR, 0u);
    hal_watchdog_kick();
    assert_int_equal(fake_reg_peek(A_KR), IWDG_KEY_RELOAD);
}

#endif

/* Built twice (tests/drivers/CMakeLists.txt): a started IWDG stays started,
 * so the successful start and the stuck update run in separate images. */
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(csr_names_the_most_fundamental_cause_and_clears, setup),
        cmocka_unit_test_setup(bad_timeouts_are_refused_before_the_start, setup),
#if defined(FD_TEST_STUCK_UPDATE)
        cmocka_unit_test_setup(an_update_that_never_lands_is_not_ready, setup),
#else
        cmocka_unit_test_setup(starts_so_the_fastest_lsi_still_meets_the_timeout, setup),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
