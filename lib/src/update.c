/* Signed updates, overwrite-only (fairdeal/update.h, docs/SECURITY.md
 * "Updates"). */
#include "fairdeal/update.h"

#include <string.h>

#include "word.h"

/* The status page: slot B's last. */
static const uint8_t *status_page(const fd_update_flash *f) { return f->slot_b + f->slot_b_size - f->page_size; }

uint32_t fd_update_room(const fd_update_flash *f)
{
    const uint32_t room = f->slot_b_size - f->page_size;
    return room < f->slot_a_size ? room : f->slot_a_size;
}

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
    const uint8_t *status = status_page(f);
    const fd_status st = f->erase(f->ctx, status);
    if (st != FD_OK) {
        return st;
    }
    for (uint32_t i = 0; i < f->page_size; i += 4u) {
        if (fd_load_le32(status + i) != FD_UPDATE_ERASED) {
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
        uint8_t word[4] = {0xFF, 0xFF, 0xFF, 0xFF};
        memcpy(word, data + (at - offset), end - at < 4u ? end - at : 4u);
        const uint32_t w = fd_load_le32(word);
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

/* Slot B's image as the bootloader will check it. */
static fd_status check_b(const fd_update_flash *f, const uint8_t *pub, uint32_t min_version, uint32_t load_addr,
                         fd_image_info *info, const char **why)
{
    fd_status st = fd_image_check(f->slot_b, fd_update_room(f), pub, min_version, info, why);
    if (st == FD_OK && info->header.load_addr != load_addr) {
        *why = "image built for another address";
        st = FD_ERR_PARSE;
    }
    return st;
}

fd_status fd_update_end(fd_update *u, const fd_update_flash *f, const uint8_t pub[FD_HSS_PUB_SIZE],
                        uint32_t min_version, uint32_t load_addr, fd_image_info *info, const char **why)
{
    const char *ignored = NULL;
    if (why == NULL) {
        why = &ignored;
    }
    *why = "missing argument";
    if (u == NULL || f == NULL || pub == NULL || info == NULL) {
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
    fd_status st = check_b(f, pub, min_version, load_addr, info, why);
    if (st != FD_OK) {
        return st;
    }
    st = f->program(f->ctx, status_page(f), FD_UPDATE_PENDING);
    if (st == FD_OK && !fd_update_pending(f)) {
        *why = "the pending mark does not read back";
        st = FD_ERR_CORRUPT;
    }
    return st;
}

bool fd_update_pending(const fd_update_flash *f)
{
    const uint8_t *status = status_page(f);
    return fd_load_le32(status) == FD_UPDATE_PENDING && fd_load_le32(status + 4) == FD_UPDATE_ERASED;
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
    fd_status st = check_b(f, pub, min_version, load_addr, &info, why);
    /* every page of slot A: no byte of the old image stays behind (docs/PROTOCOL.md VERIFY covers the whole slot) */
    for (uint32_t page = 0; st == FD_OK && page < f->slot_a_size; page += f->page_size) {
        st = f->erase(f->ctx, f->slot_a + page);
        for (uint32_t at = page; st == FD_OK && at < page + f->page_size && at < info.total_size; at += 4u) {
            const uint32_t w = fd_load_le32(f->slot_b + at);
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
    return fd_update_pending(f) ? f->program(f->ctx, status_page(f) + 4, FD_UPDATE_DONE) : FD_OK;
}
