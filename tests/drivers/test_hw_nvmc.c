/* boards/common/nrf5x/nvmc.c (nRF52840 build: 4 KiB pages, 64 MHz) against
 * a fake NVMC that keeps the chip's rules (nRF52840 PS v1.7, NVMC chapter):
 * ERASEPAGE and word writes are honoured only with CONFIG set to EEN / WEN,
 * the CPU halts for the whole operation (85 ms per page erase, 41 us per
 * word) so the driver's next instruction runs after it, a program ANDs
 * into the old contents, and SysTick wraps during a halt are not taken
 * until it ends (fake_flash.h). QEMU's NVMC is instant and never busy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "fake_flash.h"
#include "hal/storage.h"
#include "nrf5x.h"

#define HZ 64000000u
#define PAGE 4096u
#define PAGES 4u
#define AREA 0x000E0000u /* a 1 MiB part's flash, above the image (fd_image_end, link option) */
#define ERASE_CLOCKS (HZ / 1000u * 85u)
#define WORD_CLOCKS (HZ / 1000000u * 41u)

static bool stuck;       /* READY never returns */
static bool stuck_back;  /* READY never returns once CONFIG is back to REN after an erase */
static bool erased;      /* an erase was done */
static unsigned ignored; /* operations the NVMC ignored (wrong CONFIG) */
static uint32_t shadow[PAGE * PAGES / 4u];
static unsigned halts;

static volatile uint32_t *flash_words(void) { return (volatile uint32_t *)(uintptr_t)AREA; }

/* What the driver did since the last access: an ERASEPAGE write, words
 * written to the mapped flash; each halts the CPU. */
static void settle(void)
{
    const uint32_t config = fake_reg_peek(NVMC_BASE + 0x504u);
    const uint32_t erase = fake_reg_peek(NVMC_BASE + 0x508u);
    if (erase != 0u) {
        fake_reg_poke(NVMC_BASE + 0x508u, 0u);
        if (config != NVMC_CONFIG_EEN || erase < AREA || erase >= AREA + PAGE * PAGES || erase % PAGE != 0u) {
            ignored++;
        } else {
            const size_t first = (erase - AREA) / 4u;
            for (size_t i = 0; i < PAGE / 4u; i++) {
                shadow[first + i] = 0xFFFFFFFFu;
                flash_words()[first + i] = 0xFFFFFFFFu;
            }
            fake_flash_halt(ERASE_CLOCKS);
            halts++;
            erased = true;
        }
    }
    for (size_t i = 0; i < PAGE * PAGES / 4u; i++) {
        const uint32_t now = flash_words()[i];
        if (now == shadow[i]) {
            continue;
        }
        if (config != NVMC_CONFIG_WEN) {
            ignored++;
            flash_words()[i] = shadow[i]; /* not written */
            continue;
        }
        shadow[i] &= now; /* NOR: only 1 -> 0 */
        flash_words()[i] = shadow[i];
        fake_flash_halt(WORD_CLOCKS);
        halts++;
    }
}

static void nvmc_reg(uintptr_t addr, volatile uint32_t *slot)
{
    settle();
    fake_flash_tick(10u);
    if (addr == NVMC_BASE + 0x400u) {
        const bool back_stuck = stuck_back && erased && fake_reg_peek(NVMC_BASE + 0x504u) == NVMC_CONFIG_REN;
        *slot = stuck || back_stuck ? 0u : 1u; /* the CPU ran again only once the NVMC was done */
    }
}

static hal_storage_area area = {AREA, PAGE, PAGES};
static fd_flash flash;

static int setup(void **state)
{
    (void)state;
    fake_regs_reset();
    stuck = false;
    stuck_back = false;
    erased = false;
    ignored = 0;
    halts = 0;
    fake_flash_start(AREA, PAGE * PAGES);
    memset(shadow, 0, sizeof shadow);                 /* never written: 0x00 */
    fake_reg_poke(0x10000010u, PAGE);                 /* FICR CODEPAGESIZE */
    fake_reg_poke(0x10000014u, 1024u * 1024u / PAGE); /* FICR CODESIZE */
    fake_reg_hook(NVMC_BASE + 0x400u, nvmc_reg);
    fake_reg_hook(NVMC_BASE + 0x504u, nvmc_reg);
    fake_reg_hook(NVMC_BASE + 0x508u, nvmc_reg);
    assert_int_equal(hal_storage_open(&area, &flash), FD_OK);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fake_flash_stop();
    return 0;
}

static void test_erase_waits_out_the_cpu_halt(void **state)
{
    (void)state;
    const uint64_t t0 = fake_flash_now;
    assert_int_equal(flash.erase(flash.ctx, 1), FD_OK);
    settle();
    assert_int_equal(ignored, 0u);
    assert_int_equal(halts, 1u);
    assert_true(fake_flash_now - t0 >= ERASE_CLOCKS); /* 85 ms passed, no timeout fired */
    for (size_t i = 0; i < PAGE / 4u; i++) {
        assert_int_equal(flash_words()[PAGE / 4u + i], 0xFFFFFFFFu);
    }
    assert_int_equal(flash_words()[0], 0u); /* the other pages untouched */
    assert_int_equal(fake_reg_peek(NVMC_BASE + 0x504u), NVMC_CONFIG_REN);
}

static void test_programs_and_into_the_old_word(void **state)
{
    (void)state;
    assert_int_equal(flash.erase(flash.ctx, 0), FD_OK);
    const uint32_t first[2] = {0x12345678u, 0xFFFF0000u};
    const uint32_t second[2] = {0x02345678u, 0xFF000000u};
    assert_int_equal(flash.program(flash.ctx, 8, first, 2), FD_OK);
    assert_int_equal(flash.program(flash.ctx, 8, second, 2), FD_OK);
    settle();
    assert_int_equal(ignored, 0u);
    uint32_t back[2];
    assert_int_equal(flash.read(flash.ctx, 8, back, sizeof back), FD_OK);
    assert_int_equal(back[0], 0x02345678u);
    assert_int_equal(back[1], 0xFF000000u);
    assert_int_equal(fake_reg_peek(NVMC_BASE + 0x504u), NVMC_CONFIG_REN);
}

static void test_a_controller_that_never_comes_back_fails(void **state)
{
    (void)state;
    stuck = true;
    const uint64_t t0 = fake_flash_now;
    assert_int_equal(flash.erase(flash.ctx, 2), FD_ERR_NOT_READY);
    /* within the driver's bound of a quarter second, not hung */
    assert_true(fake_flash_now - t0 < (uint64_t)HZ);
}

/* The page erased, then the switch back to read-only never completes:
 * the erase fails (the controller did not come back, CONFIG may still
 * allow erasing), it does not report success. */
static void test_an_erase_whose_return_to_read_only_never_completes_fails(void **state)
{
    (void)state;
    stuck_back = true;
    const uint64_t t0 = fake_flash_now;
    assert_int_equal(flash.erase(flash.ctx, 3), FD_ERR_NOT_READY);
    assert_true(erased);
    assert_true(fake_flash_now - t0 < (uint64_t)HZ); /* within the driver's bound, not hung */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_erase_waits_out_the_cpu_halt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_programs_and_into_the_old_word, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_controller_that_never_comes_back_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_an_erase_whose_return_to_read_only_never_completes_fails, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
