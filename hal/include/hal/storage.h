/* HAL: the board's non-volatile storage area (NOR flash pages), as the
 * fd_flash the journal runs on. One driver per board under boards/<board>/.
 *
 * Semantics every driver keeps (the host driver and the QEMU RAM store
 * enforce them, nWRITE included): offsets are
 * from the start of the area; program writes aligned 32-bit words and can
 * only clear bits (new = old AND value); a word may be programmed at most
 * FD_FLASH_WORD_WRITES times between erases of its page (the board fact:
 * nRF51/nRF52 nWRITE 2; STM32F4 0, no limit: RM0090 allows any number of
 * 1 -> 0 writes), and callers never program one more than twice (a record,
 * then its secret's wipe): the drivers write each word they are given once
 * and never retry, the host driver refuses a third program; erase sets one
 * whole page to 0xFF; read returns what is stored. Geometry
 * (page size, page count, write unit 4, erased value 0xFF) is data in the
 * returned fd_flash. Errors from the ops: FD_ERR_NULL, FD_ERR_TOO_LARGE
 * (outside the area), FD_ERR_PARSE (unaligned offset or length),
 * FD_ERR_STATE (the controller reported an error; on the host, power was
 * cut by fault injection), FD_ERR_NOT_READY (the controller stayed busy
 * past the driver's bound). */
#ifndef HAL_STORAGE_H
#define HAL_STORAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "fairdeal/journal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the area is: its first page's flash address (ignored on the host,
 * whose area is a file), the erase page size and the number of pages. The
 * board's flash map supplies it (boards/<board>/board.cmake). */
typedef struct hal_storage_area {
    /* Flash address of the first page (unused on the host). */
    uintptr_t base;
    /* Erase page size in bytes: the chip's. */
    uint32_t page_size;
    /* Pages in the area. */
    uint32_t page_count;
} hal_storage_area;

/* Bind the driver to area and fill flash with its geometry and ops.
 * Errors: FD_ERR_NULL; FD_ERR_STATE (area not page aligned, page size not
 * the chip's, or outside the flash); FD_ERR_NOT_READY (host: the storage
 * file cannot be opened). */
FD_MUST_CHECK fd_status hal_storage_open(const hal_storage_area *area, fd_flash *flash);

/* Human-readable driver name for banners, e.g. "nRF51 NVMC". */
const char *hal_storage_name(void);

/* True when the store does not survive a real power cut (RAM or a host
 * file under QEMU): the firmware says so in its banner. */
bool hal_storage_emulated(void);

#ifdef __cplusplus
}
#endif

#endif
