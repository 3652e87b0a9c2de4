/* fairdeal: signed updates, overwrite-only (docs/SECURITY.md "Updates").
 * The running image (slot A) receives a new signed image (fairdeal/image.h)
 * into slot B in order, in whole words, then checks it with the
 * bootloader's key and marks it pending; at the next reset the bootloader
 * checks slot B again, copies it over slot A page by page, checks slot A,
 * and marks the update done. The flash is the caller's: memory-mapped
 * views of both slots and two ops (erase a page, program an erased word),
 * so the same code runs on a device, in its bootloader and on a simulated
 * flash with power cuts (tests/unit/test_update.c).
 *
 * The status record is the last two words of slot B (an image may take
 * all of slot B but them; the page that holds them is the status page):
 * word 0 FD_UPDATE_PENDING, word 1 FD_UPDATE_DONE, each programmed once from erased (nWRITE) and only
 * cleared by erasing the page. An update is pending exactly when word 0 is
 * FD_UPDATE_PENDING and word 1 reads erased. Power cuts:
 *   - a transfer erases the status page before it writes any byte of an
 *     image and checks that it reads erased (an image reaching that page
 *     erases it again when its first word arrives: nothing is pending then); until then slot B still
 *     holds the image any old status describes, so a torn erase leaves
 *     either nothing pending or that image pending (checked again at reset);
 *   - a torn program of word 0 cannot read FD_UPDATE_PENDING (a program
 *     only clears bits, and the magic has cleared bits), so nothing is
 *     pending: the old image runs;
 *   - the copy never changes slot B, so a cut during it leaves the update
 *     pending and the next reset copies it again from the start (one extra
 *     erase per page of slot A per cut; no progress record to keep);
 *   - word 1 is programmed only once slot A checks: a cut before or during
 *     it copies again (same bytes), a torn word 1 reads done. */
#ifndef FAIRDEAL_UPDATE_H
#define FAIRDEAL_UPDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/image.h"
#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FD_UPDATE_PENDING 0x444E5046u /* "FPND": word 0 of the status page */
#define FD_UPDATE_DONE 0x454E4F44u    /* "DONE": word 1 of the status page */
#define FD_UPDATE_ERASED 0xFFFFFFFFu  /* an erased word */

/* The two slots as the caller's flash holds them. Words are the CPU's: the
 * ops program a uint32_t as it stores one, the module reads them as it
 * loads one (the slots are word aligned). */
typedef struct fd_update_flash {
    const uint8_t *slot_a; /* memory-mapped slot A (the image that runs), word aligned */
    const uint8_t *slot_b; /* memory-mapped slot B (the update; its last page is the status page), word aligned */
    uint32_t slot_a_size;  /* bytes, a multiple of page_size */
    uint32_t slot_b_size;  /* bytes, a multiple of page_size, at least two pages */
    uint32_t page_size;    /* erase page, a multiple of 4 */
    void *ctx;             /* first argument of the ops */
    /* Erase the page that starts at page (in slot_a or slot_b): all 0xFF. */
    fd_status (*erase)(void *ctx, const uint8_t *page);
    /* Program the erased, aligned word at at (in slot_a or slot_b) to word. */
    fd_status (*program)(void *ctx, const uint8_t *at, uint32_t word);
} fd_update_flash;

/* A transfer into slot B (caller-owned; zero it once). */
typedef struct fd_update {
    uint32_t size;     /* bytes announced by fd_update_begin */
    uint32_t received; /* bytes written so far: the next offset */
    bool open;         /* between fd_update_begin and fd_update_end */
} fd_update;

/* The most bytes an image may have in slot B on f: the slot less its
 * status record, and no more than slot A holds. */
uint32_t fd_update_room(const fd_update_flash *f);

/* Start a transfer of size bytes (a transfer already open is dropped):
 * erases the status page, so nothing is pending from here on, and checks
 * it reads erased. Errors: FD_ERR_NULL; FD_ERR_EMPTY (size below the
 * header room: no image); FD_ERR_TOO_LARGE (size above fd_update_room);
 * FD_ERR_CORRUPT (the status page does not read erased after its erase);
 * the erase op's status. On error no transfer is open. */
FD_MUST_CHECK fd_status fd_update_begin(fd_update *u, const fd_update_flash *f, uint32_t size);

/* Write len bytes at offset of the image into slot B. Chunks come in
 * order (offset == u->received) and in whole words, except the last one
 * (offset + len == u->size), whose last word is padded with 0xFF. Each
 * page of slot B is erased when the first word for it arrives. Errors:
 * FD_ERR_NULL; FD_ERR_STATE (no transfer open); FD_ERR_EMPTY (len 0);
 * FD_ERR_PARSE (offset not u->received, or a chunk that is not the last
 * and not whole words); FD_ERR_TOO_LARGE (past the announced size): these
 * change nothing and keep the transfer open; the ops' status (the transfer
 * is closed: begin again). */
FD_MUST_CHECK fd_status fd_update_write(fd_update *u, const fd_update_flash *f, uint32_t offset, const uint8_t *data,
                                        size_t len);

/* The type of fd_update_check, which fd_update_end calls through a pointer:
 * the signed dealer passes the bootloader's own (its vector table's entry
 * 8, docs/SECURITY.md "Updates") and links no verifier of its own. */
typedef fd_status (*fd_update_check_fn)(const fd_update_flash *f, const uint8_t pub[FD_HSS_PUB_SIZE],
                                        uint32_t min_version, uint32_t load_addr, fd_image_info *info,
                                        const char **why);

/* Check slot B's image as the bootloader installs it: fd_image_check
 * against pub with min_version within fd_update_room, and the body linked
 * for load_addr. Errors: those of fd_image_check; FD_ERR_PARSE with *why
 * "image built for another address". */
FD_MUST_CHECK fd_status fd_update_check(const fd_update_flash *f, const uint8_t pub[FD_HSS_PUB_SIZE],
                                        uint32_t min_version, uint32_t load_addr, fd_image_info *info,
                                        const char **why);

/* Check slot B's image as the bootloader will (check: fd_update_check, or
 * the same code in the bootloader: against pub with min_version, within
 * fd_update_room, body linked for load_addr) and, when it passes, mark it
 * pending; *why (when why is not NULL) names the
 * first failure or "ok". The transfer is closed whatever the result.
 * Errors: FD_ERR_NULL; FD_ERR_STATE (no transfer open); FD_ERR_EMPTY (not
 * all of the announced bytes arrived: "transfer incomplete"); the errors
 * of fd_image_check; FD_ERR_PARSE ("image built for another address");
 * the program op's status; FD_ERR_CORRUPT (the pending word does not read
 * back). Only FD_OK leaves an update pending. */
FD_MUST_CHECK fd_status fd_update_end(fd_update *u, const fd_update_flash *f, fd_update_check_fn check,
                                      const uint8_t pub[FD_HSS_PUB_SIZE], uint32_t min_version, uint32_t load_addr,
                                      fd_image_info *info, const char **why);

/* Whether slot B's status page says an update is pending (see above); f
 * must not be NULL. */
bool fd_update_pending(const fd_update_flash *f);

/* The bootloader's install, at reset: when an update is pending, check
 * slot B (as fd_update_end) and copy it over slot A, every page of slot A
 * erased, the image's words programmed. Then the caller checks slot A and,
 * when it passes, calls fd_update_done. Errors: FD_ERR_NULL;
 * FD_ERR_EXHAUSTED (nothing pending: slot A untouched); the errors of the
 * check (slot A untouched, *why says why); the ops' status (*why "flash
 * error while writing slot A": slot B is still pending, the next reset
 * copies again). */
FD_MUST_CHECK fd_status fd_update_install(const fd_update_flash *f, const uint8_t pub[FD_HSS_PUB_SIZE],
                                          uint32_t min_version, uint32_t load_addr, const char **why);

/* Mark a pending update done (slot A was checked): program word 1 of the
 * status page. FD_OK too when nothing is pending. Errors: FD_ERR_NULL, the
 * program op's status. */
FD_MUST_CHECK fd_status fd_update_done(const fd_update_flash *f);

#ifdef __cplusplus
}
#endif

#endif
