/* Signed updates: the dealer's transfer into slot B and its pending mark
 * (fairdeal/update.h, docs/SECURITY.md "Updates"). */
#include <string.h>

#include "fairdeal/update.h"
#include "update_internal.h"

fd_status fd_update_begin(fd_update *u, const fd_update_flash *f, uint32_t size)
{
    if (u == NULL || f == NULL) {
        return FD_ERR_NULL;
    }
    u->open = false;
    if (size < FD_IMAGE_HEADER_ROOM) {
        return FD_ERR_EMPTY;
    }
    if (size > fd_update_room(f)) {
        return FD_ERR_TOO_LARGE;
    }
    /* nothing pending from here on; no byte of slot B's image changes before */
    const uint8_t *status = fd_update_status_page(f);
    const fd_status st = f->erase(f->ctx, status);
    if (st != FD_OK) {
        return st;
    }
    for (uint32_t i = 0; i < f->page_size; i += 4u) {
        if (fd_update_word(status + i) != FD_UPDATE_ERASED) {
            return FD_ERR_CORRUPT;
        }
    }
    u->size = size;
    u->received = 0;
    u->open = true;
    return FD_OK;
}

fd_status fd_update_write(fd_update *u, const fd_update_flash *f, uint32_t offset, const uint8_t *data, size_t len)
{
    if (u == NULL || f == NULL || data == NULL) {
        return FD_ERR_NULL;
    }
    if (!u->open) {
        return FD_ERR_STATE;
    }
    if (len == 0u) {
        return FD_ERR_EMPTY;
    }
    if (offset != u->received) {
        return FD_ERR_PARSE;
    }
    if (len > u->size - offset) {
        return FD_ERR_TOO_LARGE;
    }
    const uint32_t end = offset + (uint32_t)len;
    if (end != u->size && len % 4u != 0u) {
        return FD_ERR_PARSE;
    }
    for (uint32_t at = offset; at < end; at += 4u) {
        fd_status st = FD_OK;
        if (at % f->page_size == 0u) {
            st = f->erase(f->ctx, f->slot_b + at);
        }
        uint32_t w = FD_UPDATE_ERASED; /* the bytes as the flash will hold them */
        memcpy(&w, data + (at - offset), end - at < 4u ? end - at : 4u);
        if (st == FD_OK && w != FD_UPDATE_ERASED) {
            st = f->program(f->ctx, f->slot_b + at, w);
        }
        if (st != FD_OK) {
            u->open = false;
            return st;
        }
        u->received = end - at < 4u ? end : at + 4u;
    }
    return FD_OK;
}

fd_status fd_update_end(fd_update *u, const fd_update_flash *f, fd_update_check_fn check,
                        const uint8_t pub[FD_HSS_PUB_SIZE], uint32_t min_version, uint32_t load_addr,
                        fd_image_info *info, const char **why)
{
    const char *ignored = NULL;
    if (why == NULL) {
        why = &ignored;
    }
    *why = "missing argument";
    if (u == NULL || f == NULL || check == NULL || pub == NULL || info == NULL) {
        return FD_ERR_NULL;
    }
    memset(info, 0, sizeof *info);
    if (!u->open) {
        *why = "no transfer open";
        return FD_ERR_STATE;
    }
    u->open = false;
    if (u->received != u->size) {
        *why = "transfer incomplete";
        return FD_ERR_EMPTY;
    }
    fd_status st = check(f, pub, min_version, load_addr, info, why);
    if (st != FD_OK) {
        return st;
    }
    st = f->program(f->ctx, fd_update_status(f), FD_UPDATE_PENDING);
    if (st == FD_OK && !fd_update_pending(f)) {
        *why = "the pending mark does not read back";
        st = FD_ERR_CORRUPT;
    }
    return st;
}
