/* Emulation-only storage for QEMU boards without a flash controller model
 * (mps2-an386; lm3s6965evb's is not implemented): NOR semantics on a RAM
 * block (program ANDs, erase sets 0xFF). It survives a reset (below) but
 * not a power cut (a new QEMU process), so it proves the driver contract,
 * the journal on target and recovery after a watchdog reset, not
 * persistence. The block mirrors the board's storage
 * region (FD_FLASH_STORAGE_SIZE), then its secret page(s): an area at
 * FD_SECRET_ADDR is the latter, any other base the former. */
#include <stdbool.h>
#include <string.h>

#include "fd_board_map.h"
#include "hal/storage.h"
#include "storage_area.h"

/* In .noinit (sections.ld): a reset, e.g. the watchdog's, keeps the store
 * as it would keep flash (QEMU keeps RAM across a system reset). A power-up
 * leaves RAM random (QEMU: zero), so a marker beside it says whether it
 * holds a store at all; without one it starts erased. */
static uint32_t ram_store[(FD_STORAGE_SIZE + FD_SECRET_SIZE) / 4u] __attribute__((section(".noinit")));
static uint32_t ram_marker[2] __attribute__((section(".noinit")));
#define RAM_STORE_MAGIC 0x52414D53u /* "RAMS"; the second word is its complement */
static hal_storage_area ram_areas[FD_STORAGE_MAX_AREAS];

/* nWRITE (hal/storage.h): the programs of every word since its page's
 * erase, two bits a word beside the store (and kept with it across a
 * reset); a program that would make any of its words' count exceed
 * FD_FLASH_WORD_WRITES is refused whole (FD_ERR_STATE, nothing written),
 * so every journal test on target checks the rule as the host store does. */
#if FD_FLASH_WORD_WRITES > 0
_Static_assert(FD_FLASH_WORD_WRITES < 3u, "two bits count a word's programs");
static uint8_t ram_writes[(FD_STORAGE_SIZE + FD_SECRET_SIZE) / 16u] __attribute__((section(".noinit")));

static unsigned writes_of(size_t word) { return (ram_writes[word / 4u] >> (2u * (word % 4u))) & 3u; }

static void set_writes(size_t word, unsigned n)
{
    const unsigned shift = 2u * (word % 4u);
    ram_writes[word / 4u] = (uint8_t)((ram_writes[word / 4u] & ~(3u << shift)) | (n << shift));
}

/* The index of the store's word at area's byte offset. */
static size_t word_at(const hal_storage_area *area, uint32_t offset)
{
    return ((area->base == FD_SECRET_ADDR ? FD_STORAGE_SIZE : 0u) + offset) / 4u;
}

/* FD_OK when none of the count words at offset was programmed
 * FD_FLASH_WORD_WRITES times since its erase; then counts them. */
static fd_status count_writes(const hal_storage_area *area, uint32_t offset, size_t count)
{
    const size_t first = word_at(area, offset);
    for (size_t w = first; w < first + count; w++) {
        if (writes_of(w) >= FD_FLASH_WORD_WRITES) {
            return FD_ERR_STATE; /* a third program since its erase: nothing written */
        }
    }
    for (size_t w = first; w < first + count; w++) {
        set_writes(w, writes_of(w) + 1u);
    }
    return FD_OK;
}
#endif

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
#if FD_FLASH_WORD_WRITES > 0
    const size_t first = word_at(area, page * area->page_size);
    for (size_t w = first; w < first + area->page_size / 4u; w++) {
        set_writes(w, 0);
    }
#endif
    return FD_OK;
}

static fd_status ram_program(void *ctx, uint32_t offset, const uint32_t *words, size_t count)
{
    const hal_storage_area *area = ctx;
    fd_status st = fd_storage_check_program(area, offset, words, count);
    if (st != FD_OK) {
        return st;
    }
#if FD_FLASH_WORD_WRITES > 0
    st = count_writes(area, offset, count);
    if (st != FD_OK) {
        return st;
    }
#endif
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
    const bool first_open_since_reset = ram_areas[0].page_size == 0u && ram_areas[1].page_size == 0u;
    const hal_storage_area *bound = fd_storage_slot(ram_areas, area);
    if (bound == NULL) {
        return FD_ERR_STATE;
    }
    if (first_open_since_reset && !(ram_marker[0] == RAM_STORE_MAGIC && ram_marker[1] == ~RAM_STORE_MAGIC)) {
        memset(ram_store, 0xFF, sizeof ram_store);
#if FD_FLASH_WORD_WRITES > 0
        memset(ram_writes, 0, sizeof ram_writes);
#endif
        ram_marker[0] = RAM_STORE_MAGIC;
        ram_marker[1] = ~RAM_STORE_MAGIC;
    }
    fd_storage_bind(bound, flash, ram_erase, ram_program, ram_read);
    return FD_OK;
}
