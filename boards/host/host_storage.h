/* Host storage driver: NOR flash simulated in memory, optionally backed by a
 * file, with fault injection for the power-cut tests.
 *
 * Steps are erase and program calls, counted from 1. With cut_after = k,
 * steps 1..k complete, step k+1 is the power cut: with torn set it is carried
 * out partly (a program: some leading words, then one word with only some of
 * its bits cleared; an erase: random bits set all over the page, or only its
 * first or its last part erased), and
 * it and every later call return FD_ERR_STATE until host_flash_reboot(). */
#ifndef HOST_STORAGE_H
#define HOST_STORAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "hal/storage.h"

#define HOST_FLASH_NEVER UINT64_MAX

typedef struct host_flash {
    fd_flash flash; /* geometry and ops, ctx = this */
    uint8_t *mem;   /* page_size * page_count bytes, caller-owned */
    int fd;         /* backing file, -1: memory only */
    uint64_t steps; /* erase + program calls so far */
    uint64_t erases;
    uint64_t programs;
    uint64_t cut_after; /* HOST_FLASH_NEVER: no cut */
    bool torn;
    bool cut;            /* power is off */
    uint32_t tear_state; /* xorshift state for tearing */
} host_flash;

/* Set up hf on mem (page_size * page_count bytes). path NULL: memory only,
 * starting erased (0xFF); else the file's contents when it has the area's
 * size, otherwise a fresh erased file. Errors: FD_ERR_NULL, FD_ERR_STATE
 * (page size not a multiple of 4 or zero count), FD_ERR_NOT_READY (file). */
fd_status host_flash_open(host_flash *hf, uint8_t *mem, uint32_t page_size, uint32_t page_count, const char *path);

/* Close the backing file (if any). */
void host_flash_close(host_flash *hf);

/* Power back on: clears a cut and disarms fault injection. */
void host_flash_reboot(host_flash *hf);

/* Flip one bit of the stored image (bit index over the whole area); also
 * written to the file. Errors: FD_ERR_TOO_LARGE. */
fd_status host_flash_flip(host_flash *hf, uint64_t bit);

/* The file the host's HAL storage uses (the dealer's --storage PATH); NULL
 * for memory only. The device secret's area (FD_SECRET_ADDR) goes to
 * "<path>.secret". Call before hal_storage_open. */
void host_storage_set_file(const char *path);

#endif
