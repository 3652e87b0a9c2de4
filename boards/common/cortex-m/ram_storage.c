/* Emulation-only storage for QEMU boards without a flash controller model
 * (mps2-an386; lm3s6965evb's is not implemented): NOR semantics on a RAM
 * block (program ANDs, erase sets 0xFF), area.base ignored. It survives a
 * reset (below) but not a power cut (a new QEMU process), so it proves the
 * driver contract, the journal on target and recovery after a watchdog
 * reset, not persistence. Its size is the board's storage region
 * (FD_FLASH_STORAGE_SIZE). */
#include <stdbool.h>
#include <string.h>

#include "fd_board_map.h"
#include "hal/storage.h"
#include "storage_area.h"

/* In .noinit (sections.ld): a reset, e.g. the watchdog's, keeps the store
 * as it would keep flash (QEMU keeps RAM across a system reset). A power-up
 * leaves RAM random (QEMU: zero), so a marker beside it says whether it
 * holds a store at all; without one it starts erased. */
static uint32_t ram_store[FD_STORAGE_SIZE / 4u] __attribute__((section(".noinit")));
static uint32_t ram_marker[2] __attribute__((section(".noinit")));
#define RAM_STORE_MAGIC 0x52414D53u /* "RAMS"; the second word is its complement */
static hal_storage_area ram_area;

static fd_status ram_erase(void *ctx, uint32_t page)
{
    (void)ctx;
    if (page >= ram_area.page_count) {
        return FD_ERR_TOO_LARGE;
    }
    memset((uint8_t *)ram_store + (size_t)page * ram_area.page_size, 0xFF, ram_area.page_size);
    return FD_OK;
}

static fd_status ram_program(void *ctx, uint32_t offset, const uint32_t *words, size_t count)
{
    (void)ctx;
    fd_status st = fd_storage_check_program(&ram_area, offset, words, count);
    if (st != FD_OK) {
        return st;
    }
    for (size_t i = 0; i < count; i++) {
        ram_store[offset / 4u + i] &= words[i];
    }
    return FD_OK;
}

static fd_status ram_read(void *ctx, uint32_t offset, void *out, size_t len)
{
    (void)ctx;
    fd_status st = fd_storage_check_read(&ram_area, offset, out, len);
    if (st != FD_OK) {
        return st;
    }
    memcpy(out, (const uint8_t *)ram_store + offset, len);
    return FD_OK;
}

fd_status hal_storage_open(const hal_storage_area *area, fd_flash *flash)
{
    if (area == NULL || flash == NULL) {
        return FD_ERR_NULL;
    }
    if (area->page_size == 0u || area->page_size % 4u != 0u || area->page_count == 0u ||
        area->page_count > sizeof ram_store / area->page_size) {
        return FD_ERR_STATE;
    }
    const bool first_open_since_reset = ram_area.page_size == 0u;
    ram_area = *area;
    if (first_open_since_reset && !(ram_marker[0] == RAM_STORE_MAGIC && ram_marker[1] == ~RAM_STORE_MAGIC)) {
        memset(ram_store, 0xFF, sizeof ram_store);
        ram_marker[0] = RAM_STORE_MAGIC;
        ram_marker[1] = ~RAM_STORE_MAGIC;
    }
    fd_storage_bind(&ram_area, flash, ram_erase, ram_program, ram_read);
    return FD_OK;
}
