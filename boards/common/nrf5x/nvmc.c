/* nRF51 / nRF52 NVMC storage driver (same registers at the same base on
 * both: nRF51 Series Reference Manual v3.0 ch. 6 NVMC, nRF52840 PS v1.x
 * NVMC). The area must be whole code pages (FICR.CODEPAGESIZE: 1 KiB on the
 * nRF51, 4 KiB on the nRF52) past the end of the image.
 *
 * Each operation switches CONFIG from read-only to write (WEN) or erase
 * (EEN) enable and back, and polls READY with a bound on SysTick, because a
 * controller that never comes back must fail, not hang the dealer. While
 * the NVMC writes, the CPU stalls on fetches from flash, so the polls are
 * short in practice; the console is held around each operation
 * (nrf5x_console_hold, nrf5x.h) so bytes typed meanwhile are kept where the
 * UART can receive without the CPU. QEMU's model (microbit) is always ready, never tears
 * a write, and its never-written flash reads 0x00 rather than 0xFF: the
 * journal treats such pages as damaged and erases them when it claims them. */
#include <stdbool.h>

#include "hal/storage.h"
#include "nrf5x.h"
#include "storage_area.h"

#define FICR_CODEPAGESIZE FD_REG32(0x10000010u)
#define FICR_CODESIZE FD_REG32(0x10000014u)

/* Page erase takes at most 22.3 ms (nRF51) / 85 ms (nRF52840), a word
 * 46 us / 41 us; a quarter second covers both with room for QEMU. */
#define NVMC_TIMEOUT_CLOCKS (FD_CPU_HZ / 4u)

static hal_storage_area nvmc_areas[FD_STORAGE_MAX_AREAS];

static fd_status wait_ready(void)
{
    uint32_t start = fd_timebase_read();
    while ((NVMC_READY & NVMC_READY_READY) == 0u) {
        if (fd_timebase_read() - start > NVMC_TIMEOUT_CLOCKS) {
            return FD_ERR_NOT_READY;
        }
    }
    return FD_OK;
}

/* Set CONFIG and wait, as the manual asks, until the NVMC is ready. */
static fd_status set_config(uint32_t mode)
{
    fd_status st = wait_ready();
    if (st == FD_OK) {
        NVMC_CONFIG = mode;
        st = wait_ready();
    }
    return st;
}

static fd_status nvmc_erase(void *ctx, uint32_t page)
{
    const hal_storage_area *area = ctx;
    if (page >= area->page_count) {
        return FD_ERR_TOO_LARGE;
    }
    nrf5x_console_hold();
    fd_status st = set_config(NVMC_CONFIG_EEN);
    if (st == FD_OK) {
        NVMC_ERASEPAGE = (uint32_t)(area->base + (uintptr_t)page * area->page_size);
        st = wait_ready();
    }
    fd_status back = set_config(NVMC_CONFIG_REN);
    nrf5x_console_release();
    return st != FD_OK ? st : back;
}

static fd_status nvmc_program(void *ctx, uint32_t offset, const uint32_t *words, size_t count)
{
    const hal_storage_area *area = ctx;
    fd_status st = fd_storage_check_program(area, offset, words, count);
    if (st != FD_OK) {
        return st;
    }
    nrf5x_console_hold();
    st = set_config(NVMC_CONFIG_WEN);
    volatile uint32_t *dst = (volatile uint32_t *)(area->base + offset);
    for (size_t i = 0; i < count && st == FD_OK; i++) {
        dst[i] = words[i];
        st = wait_ready();
    }
    fd_status back = set_config(NVMC_CONFIG_REN);
    nrf5x_console_release();
    return st != FD_OK ? st : back;
}

fd_status hal_storage_open(const hal_storage_area *area, fd_flash *flash)
{
    if (area == NULL || flash == NULL) {
        return FD_ERR_NULL;
    }
    uintptr_t image_end = (uintptr_t)fd_image_end;
    uintptr_t flash_end = (uintptr_t)FICR_CODEPAGESIZE * FICR_CODESIZE;
    uint32_t page = FICR_CODEPAGESIZE;
    if (area->page_size != page || area->page_count == 0u || area->base % page != 0u || area->base < image_end ||
        area->base > flash_end || area->page_count > (flash_end - area->base) / page) {
        return FD_ERR_STATE;
    }
    const hal_storage_area *bound = fd_storage_slot(nvmc_areas, area);
    if (bound == NULL) {
        return FD_ERR_STATE;
    }
    fd_storage_bind(bound, flash, nvmc_erase, nvmc_program, fd_storage_read_mapped);
    return FD_OK;
}
