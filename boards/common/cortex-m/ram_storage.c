/* Emulation-only storage for QEMU boards without a flash controller model
 * (mps2-an386; lm3s6965evb's is not implemented): NOR semantics on a RAM
 * block (program ANDs, erase sets 0xFF). It lives until the next reset
 * (the reset handler clears .bss), so it proves the driver contract and the
 * journal on target, not persistence. The block mirrors the board's storage
 * region (FD_FLASH_STORAGE_SIZE), then its secret page(s): an area at
 * FD_SECRET_ADDR is the latter, any other base the former. */
#include <stdbool.h>
#include <string.h>

#include "fd_board_map.h"
#include "hal/storage.h"
#include "storage_area.h"

static uint32_t ram_store[(FD_STORAGE_SIZE + FD_SECRET_SIZE) / 4u];
static hal_storage_area ram_areas[FD_STORAGE_MAX_AREAS];

/* The RAM that stands for area's first byte. */
static uint8_t *ram_at(const hal_storage_area *area)
{
    return (uint8_t *)ram_store + (area->base == FD_SECRET_ADDR ? FD_STORAGE_SIZE : 0u);
}

static fd_status ram_erase(void *ctx, uint32_t page)
{
    const hal_storage_area *area = ctx;
    if (page >= area->page_count) {
        return FD_ERR_TOO_LARGE;
    }
    memset(ram_at(area) + (size_t)page * area->page_size, 0xFF, area->page_size);
    return FD_OK;
}

static fd_status ram_program(void *ctx, uint32_t offset, const uint32_t *words, size_t count)
{
    const hal_storage_area *area = ctx;
    fd_status st = fd_storage_check_program(area, offset, words, count);
    if (st != FD_OK) {
        return st;
    }
    uint32_t *dst = (uint32_t *)(void *)(ram_at(area) + offset);
    for (size_t i = 0; i < count; i++) {
        dst[i] &= words[i];
    }
    return FD_OK;
}

static fd_status ram_read(void *ctx, uint32_t offset, void *out, size_t len)
{
    const hal_storage_area *area = ctx;
    fd_status st = fd_storage_check_read(area, offset, out, len);
    if (st != FD_OK) {
        return st;
    }
    memcpy(out, ram_at(area) + offset, len);
    return FD_OK;
}

fd_status hal_storage_open(const hal_storage_area *area, fd_flash *flash)
{
    if (area == NULL || flash == NULL) {
        return FD_ERR_NULL;
    }
    const uint32_t room = area->base == FD_SECRET_ADDR ? FD_SECRET_SIZE : FD_STORAGE_SIZE;
    if (area->page_size == 0u || area->page_size % 4u != 0u || area->page_count == 0u ||
        area->page_count > room / area->page_size) {
        return FD_ERR_STATE;
    }
    bool fresh = ram_areas[0].page_size == 0u && ram_areas[1].page_size == 0u;
    const hal_storage_area *bound = fd_storage_slot(ram_areas, area);
    if (bound == NULL) {
        return FD_ERR_STATE;
    }
    if (fresh) {
        memset(ram_store, 0xFF, sizeof ram_store);
    }
    fd_storage_bind(bound, flash, ram_erase, ram_program, ram_read);
    return FD_OK;
}
