/* The signed dealer's side of updates (firmware/update.h, docs/SECURITY.md
 * "Updates"): slot B's flash ops on this board, the key the bootloader
 * trusts and its check of slot B (its vector table's entries 7 and 8 point
 * at them, bootloader/vectors.c: the dealer links no verifier of its own),
 * the counter page's minimum, and the restart that lets the bootloader
 * install. Linked into dealer_slot only (bootloader/CMakeLists.txt). */
#include <string.h>

#include "cortex_m.h"
#include "fairdeal/bootcount.h"
#include "fd_board_map.h"
#include "hal/storage.h"
#include "update.h"

#if defined(FD_BOOT_UPDATES) && defined(FD_BOOT_CONSOLE_NRF51)
/* the NVMC driver (boards/common/nrf5x/nvmc.c) bound to slot B */
static fd_flash slot_b;

static fd_status slot_erase(void *ctx, const uint8_t *page)
{
    (void)ctx;
    return slot_b.erase(slot_b.ctx, (uint32_t)((uintptr_t)page - FD_SLOT_B_ADDR) / FD_FLASH_PAGE_SIZE);
}

static fd_status slot_program(void *ctx, const uint8_t *at, uint32_t word)
{
    (void)ctx;
    return slot_b.program(slot_b.ctx, (uint32_t)((uintptr_t)at - FD_SLOT_B_ADDR), &word, 1);
}

static fd_status open_slot_b(void)
{
    static const hal_storage_area area = {FD_SLOT_B_ADDR, FD_FLASH_PAGE_SIZE, FD_SLOT_B_SIZE / FD_FLASH_PAGE_SIZE};
    return hal_storage_open(&area, &slot_b);
}
#elif defined(FD_BOOT_UPDATES) && defined(FD_BOOT_CONSOLE_MPS2)
/* QEMU's MPS2 code memory is RAM: NOR semantics by hand, as the bootloader
 * (bootloader/console.c). Only slot B's pages and words. */
static bool in_slot_b(const uint8_t *p, uint32_t len)
{
    const uintptr_t a = (uintptr_t)p;
    return a >= FD_SLOT_B_ADDR && a - FD_SLOT_B_ADDR <= FD_SLOT_B_SIZE - len;
}

static fd_status slot_erase(void *ctx, const uint8_t *page)
{
    (void)ctx;
    if (!in_slot_b(page, FD_FLASH_PAGE_SIZE) || (uintptr_t)page % FD_FLASH_PAGE_SIZE != 0u) {
        return FD_ERR_TOO_LARGE;
    }
    memset((void *)(uintptr_t)page, 0xFF, FD_FLASH_PAGE_SIZE);
    return FD_OK;
}

static fd_status slot_program(void *ctx, const uint8_t *at, uint32_t word)
{
    (void)ctx;
    if (!in_slot_b(at, 4u) || (uintptr_t)at % 4u != 0u) {
        return FD_ERR_TOO_LARGE;
    }
    *(volatile uint32_t *)(uintptr_t)at &= word;
    return FD_OK;
}

static fd_status open_slot_b(void) { return FD_OK; }
#endif

fd_status fd_update_platform_get(fd_update_platform *p, const char **why)
{
    memset(p, 0, sizeof *p);
#if defined(FD_BOOT_UPDATES)
    /* the bootloader's key: entry 7 of its vector table, inside its room */
    /* through a volatile pointer: at address 0 on these boards, which the compiler takes for NULL */
    const volatile uint32_t *volatile vectors = (const volatile uint32_t *)(uintptr_t)FD_BOOTLOADER_ADDR;
    const uintptr_t key = vectors[7];
    const uintptr_t check = vectors[8]; /* a Thumb function: bit 0 set */
    if (key - FD_BOOTLOADER_ADDR > FD_BOOTLOADER_SIZE - FD_HSS_PUB_SIZE ||
        check - FD_BOOTLOADER_ADDR >= FD_BOOTLOADER_SIZE || (check & 1u) == 0u) {
        *why = "no bootloader key";
        return FD_ERR_STATE;
    }
    if (open_slot_b() != FD_OK) {
        *why = "slot B not writable";
        return FD_ERR_STATE;
    }
    size_t next = 0;
    if (fd_bootcount_scan((const uint32_t *)(uintptr_t)FD_COUNTER_ADDR, FD_COUNTER_SIZE / 4u, &p->min_version, &next) !=
        FD_OK) {
        p->min_version = 0xFFFFFFFFu; /* cannot happen (a whole page); fail closed */
    }
    p->key = (const uint8_t *)key;
    p->check = (fd_update_check_fn)check;
    p->load_addr = FD_SLOT_A_ADDR + FD_IMAGE_HEADER_ROOM;
    p->flash = (fd_update_flash){
        .slot_a = (const uint8_t *)(uintptr_t)FD_SLOT_A_ADDR,
        .slot_b = (const uint8_t *)(uintptr_t)FD_SLOT_B_ADDR,
        .slot_a_size = FD_SLOT_A_SIZE,
        .slot_b_size = FD_SLOT_B_SIZE,
        .page_size = FD_FLASH_PAGE_SIZE,
        .ctx = NULL,
        .erase = slot_erase,
        .program = slot_program,
    };
    *why = "ok";
    return FD_OK;
#else
    *why = "this board's flash cannot be written under QEMU (no flash controller model): boot check only";
    return FD_ERR_STATE;
#endif
}

void fd_update_platform_restart(void) { fd_system_reset(); }
