/* STM32F407 flash storage driver (RM0090 rev 19, section 3: embedded flash
 * interface). The area is a run of the uniform 128 KiB sectors 5..11
 * (0x08020000..0x080FFFFF); one journal page is one sector. Build-only:
 * not run on hardware yet.
 *
 * Programming is 32 bits at a time (PSIZE = x32, valid at 2.7-3.6 V: the
 * Discovery runs at 3 V). The F4 has no flash ECC, so a word can be
 * programmed a second time with more zeros (the journal's secret wipe);
 * parts with ECC (F7, L4, H7) cannot, and would need another wipe. The
 * control register is locked again after every operation, and BSY is polled
 * with a bound: a 128 KiB sector erase takes up to 2 s at x32 (DS8626
 * "Flash memory programming", t_ERASE128KB: 1 s typical, 2 s max at x32;
 * the 4 s max is x8's), a word up to 100 us (t_PROG, 16 us typical).
 *
 * While it programs or erases, every read of the flash stalls (RM0090
 * 3.5): the code from the write that starts an operation until BSY clears
 * (ram_erase, ram_program, ram_wait) runs from SRAM, as do the vector table
 * and the USART2 handler (stm32f407.h STM32_RAMFUNC), so typed-ahead bytes
 * keep arriving in the console's ring during a 2 s erase
 * (docs/HARDWARE.md "Flash stalls"). BASEPRI holds off every handler still
 * in flash meanwhile (SysTick: its wraps pend, one is counted when the
 * operation ends, so the time base falls behind by up to the erase time and
 * timeouts last longer, never shorter); the wait measures its own bound
 * from SysTick's counter. The IWDG keeps counting (its timeout covers it:
 * board.cmake). */
#include <stdbool.h>

#include "hal/storage.h"
#include "stm32f407.h"
#include "storage_area.h"

#define FLASH_IF_BASE 0x40023C00u
#define FLASH_KEYR FD_REG32(FLASH_IF_BASE + 0x04u)
#define FLASH_SR FD_REG32(FLASH_IF_BASE + 0x0Cu)
#define FLASH_CR FD_REG32(FLASH_IF_BASE + 0x10u)
#define FLASH_KEY1 0x45670123u
#define FLASH_KEY2 0xCDEF89ABu
#define SR_OPERR (1u << 1)
#define SR_WRPERR (1u << 4)
#define SR_PGAERR (1u << 5)
#define SR_PGPERR (1u << 6)
#define SR_PGSERR (1u << 7)
#define SR_BSY (1u << 16)
#define SR_ERRORS (SR_OPERR | SR_WRPERR | SR_PGAERR | SR_PGPERR | SR_PGSERR)
#define CR_PG (1u << 0)
#define CR_SER (1u << 1)
#define CR_SNB_SHIFT 3u
#define CR_PSIZE_X32 (2u << 8)
#define CR_STRT (1u << 16)
#define CR_LOCK (1u << 31)

#define SECTOR5_BASE 0x08020000u
#define SECTOR_SIZE 0x20000u
#define FLASH_END 0x08100000u
#define FIRST_SECTOR 5u

/* 2 s max at x32, with room; below 2^32 clocks at 168 MHz */
#define ERASE_TIMEOUT_CLOCKS (FD_CPU_HZ * 4u)
#define WORD_TIMEOUT_CLOCKS (FD_CPU_HZ / 1000u)

static hal_storage_area flash_areas[FD_STORAGE_MAX_AREAS];

/* Until BSY clears or `bound` clocks pass, counted from SysTick's
 * 24-bit down-counter directly (its wrap interrupt is held off): each
 * poll is far shorter than a wrap (2^24 clocks, 0.1 s), and so is the
 * USART2 handler that may run between two polls. */
STM32_RAMFUNC static fd_status ram_wait(uint32_t bound)
{
    uint32_t last = SYSTICK_CVR;
    uint32_t elapsed = 0u;
    while ((FLASH_SR & SR_BSY) != 0u) {
        const uint32_t now = SYSTICK_CVR;
        elapsed += (last - now) & SYSTICK_RVR_MAX;
        last = now;
        if (elapsed > bound) {
            return FD_ERR_NOT_READY;
        }
    }
    return (FLASH_SR & SR_ERRORS) != 0u ? FD_ERR_STATE : FD_OK;
}

/* Start the sector erase `cr` describes (SER, PSIZE, SNB) and wait. */
STM32_RAMFUNC static fd_status ram_erase(uint32_t cr)
{
    FLASH_CR = cr;
    FLASH_CR = cr | CR_STRT;
    return ram_wait(ERASE_TIMEOUT_CLOCKS);
}

/* Program `count` words at dst, one at a time, waiting for each. */
STM32_RAMFUNC static fd_status ram_program(volatile uint32_t *dst, const uint32_t *words, size_t count)
{
    FLASH_CR = CR_PG | CR_PSIZE_X32;
    fd_status st = FD_OK;
    for (size_t i = 0; i < count && st == FD_OK; i++) {
        dst[i] = words[i];
        st = ram_wait(WORD_TIMEOUT_CLOCKS);
    }
    return st;
}

static fd_status unlock(void)
{
    fd_status st = ram_wait(ERASE_TIMEOUT_CLOCKS);
    if (st == FD_ERR_NOT_READY) {
        return st;
    }
    FLASH_SR = SR_ERRORS; /* write 1 to clear what an earlier operation left */
    if ((FLASH_CR & CR_LOCK) != 0u) {
        FLASH_KEYR = FLASH_KEY1;
        FLASH_KEYR = FLASH_KEY2;
    }
    return (FLASH_CR & CR_LOCK) != 0u ? FD_ERR_STATE : FD_OK;
}

static void lock(void) { FLASH_CR = CR_LOCK; }

static fd_status stm32_erase(void *ctx, uint32_t page)
{
    const hal_storage_area *area = ctx;
    if (page >= area->page_count) {
        return FD_ERR_TOO_LARGE;
    }
    uint32_t sector = FIRST_SECTOR + (uint32_t)((area->base - SECTOR5_BASE) / SECTOR_SIZE) + page;
    fd_status st = unlock();
    if (st == FD_OK) {
        stm32_basepri_set(STM32_PRIO_FLASH_CODE);
        st = ram_erase(CR_SER | CR_PSIZE_X32 | (sector << CR_SNB_SHIFT));
        stm32_basepri_set(0u);
    }
    lock();
    /* the data cache may hold the old contents (RM0090 3.5.4) */
    uint32_t acr = FLASH_ACR;
    if ((acr & FLASH_ACR_DCEN) != 0u) {
        FLASH_ACR = acr & ~FLASH_ACR_DCEN;
        FLASH_ACR = (acr & ~FLASH_ACR_DCEN) | FLASH_ACR_DCRST;
        FLASH_ACR = acr & ~FLASH_ACR_DCRST;
    }
    return st;
}

static fd_status stm32_program(void *ctx, uint32_t offset, const uint32_t *words, size_t count)
{
    const hal_storage_area *area = ctx;
    fd_status st = fd_storage_check_program(area, offset, words, count);
    if (st != FD_OK) {
        return st;
    }
    st = unlock();
    if (st == FD_OK) {
        stm32_basepri_set(STM32_PRIO_FLASH_CODE);
        st = ram_program((volatile uint32_t *)(area->base + offset), words, count);
        stm32_basepri_set(0u);
    }
    lock();
    return st;
}

fd_status hal_storage_open(const hal_storage_area *area, fd_flash *flash)
{
    if (area == NULL || flash == NULL) {
        return FD_ERR_NULL;
    }
    uintptr_t image_end = (uintptr_t)fd_image_end;
    if (area->page_size != SECTOR_SIZE || area->page_count == 0u || area->base < SECTOR5_BASE ||
        (area->base - SECTOR5_BASE) % SECTOR_SIZE != 0u || area->base < image_end || area->base >= FLASH_END ||
        area->page_count > (FLASH_END - area->base) / SECTOR_SIZE) {
        return FD_ERR_STATE;
    }
    const hal_storage_area *bound = fd_storage_slot(flash_areas, area);
    if (bound == NULL) {
        return FD_ERR_STATE;
    }
    fd_storage_bind(bound, flash, stm32_erase, stm32_program, fd_storage_read_mapped);
    return FD_OK;
}
