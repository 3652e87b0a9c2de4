/* Host storage driver: NOR flash simulated in memory, optionally backed by a
 * file, with fault injection for the power-cut tests.
 *
 * The silicon rules it enforces (hal/storage.h): program only clears bits;
 * a word may be programmed at most word_writes_max times between two erases
 * of its page (nWRITE, FD_FLASH_WORD_WRITES: 2 as on the nRF5x; 0: no
 * limit, as on the STM32F4). One program more is a firmware bug: the store
 * refuses it (FD_ERR_STATE, nothing written), counts it in overprograms,
 * says so on stderr and, unless overprogram_abort is cleared, aborts, so
 * that no test can overlook it.
 *
 * Steps are erase and program calls, counted from 1. With cut_after = k,
 * steps 1..k complete, step k+1 is the power cut: with torn set it is carried
 * out partly (a program: some leading words, then one word with only some of
 * its bits cleared; an erase: random bits set all over the page, or only its
 * first or its last part erased), and
 * it and every later call return FD_ERR_STATE until host_flash_reboot().
 * A torn word counts as programmed when the cut changed it; a cut that
 * changed none of its bits is taken as a cut before it (nothing a reader
 * can tell from flash could tell the two apart). A torn erase resets no
 * count (the page must be erased again before use).
 *
 * With a file (the dealer's --storage FILE; docs/RECORDS.md "The host
 * store"): the file is the area's image, byte for byte. An existing file
 * is used only when its size is the area's and, for the journal, it is
 * blank (all 0xFF) or at least one page starts with the journal's page
 * magic; anything else is refused and left as it is. A missing file is
 * created blank (atomically: a complete temporary file linked into place).
 * The file is locked (flock, exclusive, non-blocking) for as long as it is
 * open: a second store on it is refused. Every erase and program is
 * written and fdatasync'd before it returns, so the file's order is the
 * journal's (a record before its commit word) and a reply the dealer sends
 * after it is durable; a failed write or sync fails that call and every
 * later one (reads too), with the reason in host_storage_error(). */
#ifndef HOST_STORAGE_H
#define HOST_STORAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "hal/storage.h"

#define HOST_FLASH_NEVER UINT64_MAX
/* The largest area a host store simulates, in bytes. */
#define HOST_FLASH_MAX_BYTES (1u << 20)

/* host_flash_open_file flags. */
#define HOST_FILE_JOURNAL 0x1u /* content check: blank or a journal page */
#define HOST_FILE_REPLACE 0x2u /* explicit: a blank store over whatever the file holds */

typedef struct host_flash {
    fd_flash flash; /* geometry and ops, ctx = this */
    uint8_t *mem;   /* page_size * page_count bytes, caller-owned */
    int fd;         /* backing file, -1: memory only */
    uint64_t steps; /* erase + program calls so far, up to the cut (calls while off are none) */
    uint64_t erases;
    uint64_t programs;
    uint64_t cut_after; /* HOST_FLASH_NEVER: no cut */
    bool torn;
    bool cut;            /* power is off */
    bool io_failed;      /* the backing file failed a write or sync */
    uint32_t tear_state; /* xorshift state for tearing */
    /* nWRITE: programs a word may take between erases (0: no limit), the
     * programs refused for exceeding it, and whether one aborts. */
    uint32_t word_writes_max;
    uint64_t overprograms;
    bool overprogram_abort;
    /* programs of each word since its page's erase, 2 bits per word
     * (saturating at 3) */
    uint8_t word_writes[HOST_FLASH_MAX_BYTES / 16u];
} host_flash;

/* Set up hf on mem (page_size * page_count bytes, at most
 * HOST_FLASH_MAX_BYTES), memory only, starting erased (0xFF), with the
 * board's nWRITE (FD_FLASH_WORD_WRITES) and aborting on an overprogram.
 * path non-NULL: as host_flash_open_file(..., path, 0).
 * Errors: FD_ERR_NULL, FD_ERR_STATE (page size not a multiple of 4 or zero
 * count), FD_ERR_TOO_LARGE (area), host_flash_open_file's. */
fd_status host_flash_open(host_flash *hf, uint8_t *mem, uint32_t page_size, uint32_t page_count, const char *path);

/* As host_flash_open, backed by the file at path (see above): flags
 * HOST_FILE_JOURNAL, HOST_FILE_REPLACE. Errors: as host_flash_open, and
 * FD_ERR_NOT_READY (the file cannot be created, opened, read or locked)
 * and FD_ERR_CORRUPT (an existing file of the wrong size or content: left
 * untouched), each with its reason in host_storage_error(). */
fd_status host_flash_open_file(host_flash *hf, uint8_t *mem, uint32_t page_size, uint32_t page_count, const char *path,
                               unsigned flags);

/* Close the backing file (if any), releasing its lock. */
void host_flash_close(host_flash *hf);

/* Power back on: clears a cut and disarms fault injection. */
void host_flash_reboot(host_flash *hf);

/* Flip one bit of the stored image (bit index over the whole area); also
 * written to the file. Errors: FD_ERR_TOO_LARGE. */
fd_status host_flash_flip(host_flash *hf, uint64_t bit);

/* The file the host's HAL storage uses (the dealer's --storage PATH); NULL
 * for memory only. replace: start a blank journal over the file's contents
 * (the dealer's --new-storage; the secret's file is never replaced). The
 * device secret's area (FD_SECRET_ADDR) goes to "<path>.secret". Call
 * before hal_storage_open. */
void host_storage_set_file(const char *path, bool replace);

/* Why the last host store open or write failed ("" if none): names the
 * file and what to do. */
const char *host_storage_error(void);

#endif
