/* Signed updates, overwrite-only (fairdeal/update.h, docs/SECURITY.md
 * "Updates"): the status page, the check and the bootloader's install (the
 * dealer's transfer: update_transfer.c, so that the bootloader links none
 * of it). */
#include "fairdeal/update.h"

#include <string.h>

#include "update_internal.h"

/* The status page: slot B's last (shared with update_transfer.c). */
const uint8_t *fd_update_status_page(const fd_update_flash *f) { return f->slot_b + f->slot_b_size - f->page_size; }

/* The status record: slot B's last two words (shared with update_transfer.c). */
const uint8_t *fd_update_status(const fd_update_flash *f) { return f->slot_b + f->slot_b_size - 8u; }

uint32_t fd_update_room(const fd_update_flash *f)
{
    const uint32_t room = f->slot_b_size - 8u;
    return room < f->slot_a_size ? room : f->slot_a_size;
}

fd_status fd_update_check(const fd_update_flash *f, const uint8_t pub[FD_HSS_PUB_SIZE], uint32_t min_version,
                          uint32_t load_addr, fd_image_info *info, const char **why)
{
    fd_status st = fd_image_check(f->slot_b, fd_update_room(f), pub, min_version, info, why);
    if (st == FD_OK && info->header.load_addr != load_addr) {
        *why = "image built for another address";
        st = FD_ERR_PARSE;
    }
    return st;
}

bool fd_update_pending(const fd_update_flash *f)
{
    const uint8_t *status = fd_update_status(f);
    return fd_update_word(status) == FD_UPDATE_PENDING && fd_update_word(status + 4) == FD_UPDATE_ERASED;
}

fd_status fd_update_install(const fd_update_flash *f, const uint8_t pub[FD_HSS_PUB_SIZE], uint32_t min_version,
                            uint32_t load_addr, const char **why)
{
    if (f == NULL || pub == NULL || why == NULL) {
        return FD_ERR_NULL;
    }
    if (!fd_update_pending(f)) {
        return FD_ERR_EXHAUSTED;
    }
    fd_image_info info;
    fd_status st = fd_update_check(f, pub, min_version, load_addr, &info, why);
    if (st == FD_OK) {
        *why = "flash error while writing slot A"; /* if an op fails below */
    }
    /* every page of slot A: no byte of the old image stays behind (docs/PROTOCOL.md VERIFY covers the whole slot) */
    for (uint32_t page = 0; st == FD_OK && page < f->slot_a_size; page += f->page_size) {
        st = f->erase(f->ctx, f->slot_a + page);
        for (uint32_t at = page; st == FD_OK && at < page + f->page_size && at < info.total_size; at += 4u) {
            const uint32_t w = fd_update_word(f->slot_b + at);
            if (w != FD_UPDATE_ERASED) {
                st = f->program(f->ctx, f->slot_a + at, w);
            }
        }
    }
    return st;
}

fd_status fd_update_done(const fd_update_flash *f)
{
    if (f == NULL) {
        return FD_ERR_NULL;
    }
    return fd_update_pending(f) ? f->program(f->ctx, fd_update_status(f) + 4, FD_UPDATE_DONE) : FD_OK;
}
