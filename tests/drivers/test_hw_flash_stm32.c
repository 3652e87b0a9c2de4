/* boards/stm32f407-discovery/flash.c (168 MHz) against a fake flash
 * interface that keeps RM0090's rules (section 3): FLASH_CR is locked until
 * KEY1 then KEY2 are written to KEYR; a sector erase (SER, SNB, STRT) or a
 * word program (PG) needs it unlocked and PSIZE x32 at 2.7-3.6 V; each
 * takes its DS8626 maximum (2 s per 128 KiB sector, 100 us per word at
 * x32), here as a CPU halt; a program ANDs into the old word; SysTick
 * wraps meanwhile are taken as one when it ends (fake_flash.h). Which code
 * may run during an erase (the SRAM-resident wait and USART2 handler) is
 * test_flash_ram_stm32.c's model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "fake_flash.h"
#include "hal/storage.h"
#include "stm32f407.h"

#define HZ 168000000u
#define SECTOR 0x20000u
#define PAGES 2u
#define AREA 0x08060000u /* sectors 7 and 8 */
#define A_KEYR 0x40023C04u
#define A_SR 0x40023C0Cu
#define A_CR 0x40023C10u
#define A_ACR 0x40023C00u
#define CR_LOCK (1u << 31)
#define ERASE_CLOCKS ((uint64_t)HZ * 2u)
#define WORD_CLOCKS (HZ / 1000000u * 100u)

static uint32_t shadow[SECTOR * PAGES / 4u];
static uint32_t key_last;
static uint32_t cr_seen; /* CR as the model last left it */
static bool unlocked;
static unsigned violations; /* operations the interface would refuse */
static unsigned erases;
static bool dcache_reset;

static volatile uint32_t *flash_words(void) { return (volatile uint32_t *)(uintptr_t)AREA; }

/* What the driver did since the last access to the interface. */
static void settle(void)
{
    const uint32_t keyr = fake_reg_peek(A_KEYR);
    if (keyr != key_last) {
        unlocked = unlocked || (key_last == 0x45670123u && keyr == 0xCDEF89ABu);
        key_last = keyr;
    }
    uint32_t cr = fake_reg_peek(A_CR);
    if (cr != cr_seen && (cr & CR_LOCK) != 0u) {
        unlocked = false; /* the driver wrote LOCK */
    }
    cr = (cr & ~CR_LOCK) | (unlocked ? 0u : CR_LOCK);
    if ((cr & (1u << 16)) != 0u) { /* STRT */
        const uint32_t snb = (cr >> 3) & 0xFu;
        if (!unlocked || (cr & 2u) == 0u || (cr & (3u << 8)) != (2u << 8) || snb < 7u || snb >= 7u + PAGES) {
            violations++;
        } else {
            const size_t first = (snb - 7u) * SECTOR / 4u;
            for (size_t i = 0; i < SECTOR / 4u; i++) {
                shadow[first + i] = 0xFFFFFFFFu;
                flash_words()[first + i] = 0xFFFFFFFFu;
            }
            erases++;
            fake_flash_halt(ERASE_CLOCKS);
        }
        cr &= ~(1u << 16);
    }
    fake_reg_poke(A_CR, cr);
    cr_seen = cr;
    for (size_t i = 0; i < SECTOR * PAGES / 4u; i++) {
        const uint32_t now = flash_words()[i];
        if (now == shadow[i]) {
            continue;
        }
        if (!unlocked || (cr & 1u) == 0u || (cr & (3u << 8)) != (2u << 8)) {
            violations++;
            flash_words()[i] = shadow[i];
            continue;
        }
        shadow[i] &= now;
        flash_words()[i] = shadow[i];
        fake_flash_halt(WORD_CLOCKS);
    }
    if ((fake_reg_peek(A_ACR) & FLASH_ACR_DCRST) != 0u) {
        dcache_reset = true;
    }
}

static void flash_reg(uintptr_t addr, volatile uint32_t *slot)
{
    settle();
    fake_flash_tick(10u);
    if (addr == A_SR) {
        *slot = 0u; /* the CPU ran again only once BSY had cleared */
    }
}

static hal_storage_area area = {AREA, SECTOR, PAGES};
static fd_flash flash;

static int setup(void **state)
{
    (void)state;
    fake_regs_reset();
    key_last = 0u;
    unlocked = false;
    violations = 0;
    erases = 0;
    dcache_reset = false;
    fake_flash_start(AREA, SECTOR * PAGES);
    memset(shadow, 0, sizeof shadow);
    fake_reg_poke(A_CR, CR_LOCK); /* reset value */
    cr_seen = CR_LOCK;
    /* as board.c leaves it */
    fake_reg_poke(A_ACR, 5u | FLASH_ACR_PRFTEN | FLASH_ACR_ICEN | FLASH_ACR_DCEN);
    fake_reg_hook(A_KEYR, flash_reg);
    fake_reg_hook(A_SR, flash_reg);
    fake_reg_hook(A_CR, flash_reg);
    fake_reg_hook(A_ACR, flash_reg);
    assert_int_equal(hal_storage_open(&area, &flash), FD_OK);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fake_flash_stop();
    return 0;
}

static void test_sector_erase_stalls_the_cpu_and_completes(void **state)
{
    (void)state;
    const uint64_t t0 = fake_flash_now;
    assert_int_equal(flash.erase(flash.ctx, 1), FD_OK);
    settle();
    assert_int_equal(violations, 0u);
    assert_int_equal(erases, 1u);
    for (size_t i = 0; i < SECTOR / 4u; i++) {
        assert_int_equal(flash_words()[SECTOR / 4u + i], 0xFFFFFFFFu);
    }
    assert_int_equal(flash_words()[0], 0u); /* sector 7 untouched */
    assert_true(fake_flash_now - t0 >= ERASE_CLOCKS);
    /* 2 s is 20 SysTick wraps at 168 MHz: the time base fell behind by 19
     * of them (timeouts run long, never short) and the driver still
     * reported success, not a timeout */
    assert_int_equal(fake_flash_wraps_lost, 19u);
    assert_true((fake_reg_peek(A_CR) & CR_LOCK) != 0u); /* locked again */
    assert_int_equal(fake_basepri, 0u);                 /* interrupts unmasked again */
    assert_true(dcache_reset);                          /* stale cached data dropped (RM0090 3.5.4) */
    assert_int_equal(fake_reg_peek(A_ACR) & (FLASH_ACR_DCEN | 7u), FLASH_ACR_DCEN | 5u);
}

static void test_program_x32_ands_into_the_old_word(void **state)
{
    (void)state;
    assert_int_equal(flash.erase(flash.ctx, 0), FD_OK);
    const uint32_t first[2] = {0x12345678u, 0xFFFF0000u};
    const uint32_t second[2] = {0x02345678u, 0xFF000000u};
    assert_int_equal(flash.program(flash.ctx, 16, first, 2), FD_OK);
    assert_int_equal(flash.program(flash.ctx, 16, second, 2), FD_OK);
    settle();
    assert_int_equal(violations, 0u);
    uint32_t back[2];
    assert_int_equal(flash.read(flash.ctx, 16, back, sizeof back), FD_OK);
    assert_int_equal(back[0], 0x02345678u);
    assert_int_equal(back[1], 0xFF000000u);
    assert_true((fake_reg_peek(A_CR) & CR_LOCK) != 0u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sector_erase_stalls_the_cpu_and_completes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_program_x32_ands_into_the_old_word, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
