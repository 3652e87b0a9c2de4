/* Shared by the Cortex-M storage drivers (nRF5 NVMC, STM32F4 sectors, the
 * emulation-only RAM store): the HAL contract's request checks against the
 * bound area, and the fd_flash each hands out. */
#ifndef FD_STORAGE_AREA_H
#define FD_STORAGE_AREA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hal/storage.h"

/* Areas a driver keeps bound at once: the journal's (STORAGE), the
 * device secret's (SECRET) and the signed dealer's slot B (updates,
 * bootloader/dealer_slots.c), each its own fd_flash. */
#define FD_STORAGE_MAX_AREAS 3u

/* Bind area into one of slots (FD_STORAGE_MAX_AREAS of them): the slot
 * already bound at the same base (rebound), else a free one (page_size 0).
 * NULL when every slot holds another area. */
static inline hal_storage_area *fd_storage_slot(hal_storage_area *slots, const hal_storage_area *area)
{
    hal_storage_area *free_slot = NULL;
    for (size_t i = 0; i < FD_STORAGE_MAX_AREAS; i++) {
        if (slots[i].page_size != 0u && slots[i].base == area->base) {
            slots[i] = *area;
            return &slots[i];
        }
        if (slots[i].page_size == 0u && free_slot == NULL) {
            free_slot = &slots[i];
        }
    }
    if (free_slot != NULL) {
        *free_slot = *area;
    }
    return free_slot;
}

static inline fd_status fd_storage_check(const hal_storage_area *area, uint32_t offset, size_t len)
{
    uint32_t size = area->page_size * area->page_count;
    return offset <= size && len <= size - offset ? FD_OK : FD_ERR_TOO_LARGE;
}

/* A program of count words from words at offset: FD_ERR_NULL, FD_ERR_PARSE
 * (offset not word aligned), FD_ERR_TOO_LARGE (past the area). */
static inline fd_status fd_storage_check_program(const hal_storage_area *area, uint32_t offset, const uint32_t *words,
                                                 size_t count)
{
    if (words == NULL) {
        return FD_ERR_NULL;
    }
    if (offset % 4u != 0u) {
        return FD_ERR_PARSE;
    }
    return count > SIZE_MAX / 4u ? FD_ERR_TOO_LARGE : fd_storage_check(area, offset, count * 4u);
}

/* A read of len bytes at offset into out: FD_ERR_NULL, FD_ERR_TOO_LARGE. */
static inline fd_status fd_storage_check_read(const hal_storage_area *area, uint32_t offset, const void *out,
                                              size_t len)
{
    return out == NULL ? FD_ERR_NULL : fd_storage_check(area, offset, len);
}

/* The read op of memory-mapped flash (ctx: the bound area). */
static inline fd_status fd_storage_read_mapped(void *ctx, uint32_t offset, void *out, size_t len)
{
    const hal_storage_area *area = ctx;
    fd_status st = fd_storage_check_read(area, offset, out, len);
    if (st == FD_OK) {
        memcpy(out, (const void *)(area->base + offset), len);
    }
    return st;
}

/* Fill flash with the area's geometry (NOR: 4-byte words, erased 0xFF) and
 * the driver's ops; ctx is the area. */
static inline void fd_storage_bind(const hal_storage_area *area, fd_flash *flash, fd_status (*erase)(void *, uint32_t),
                                   fd_status (*program)(void *, uint32_t, const uint32_t *, size_t),
                                   fd_status (*read)(void *, uint32_t, void *, size_t))
{
    flash->geometry.page_size = area->page_size;
    flash->geometry.page_count = area->page_count;
    flash->geometry.write_unit = 4;
    flash->geometry.erased_value = 0xFF;
    flash->ctx = (void *)(uintptr_t)area;
    flash->erase = erase;
    flash->program = program;
    flash->read = read;
}

#endif
