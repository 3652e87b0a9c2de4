/* The anti-rollback counter page (fairdeal/bootcount.h). */
#include "fairdeal/bootcount.h"

fd_status fd_bootcount_scan(const uint32_t *page, size_t words, uint32_t *min_version, size_t *next)
{
    if (page == NULL || min_version == NULL || next == NULL) {
        return FD_ERR_NULL;
    }
    if (words == 0u || words % 2u != 0u) {
        return FD_ERR_PARSE;
    }
    uint32_t best = 0;
    size_t used = 0; /* just past the last pair with a programmed word */
    for (size_t i = 0; i < words; i += 2u) {
        const uint32_t v = page[i];
        const uint32_t check = page[i + 1u];
        if (v != FD_BOOTCOUNT_ERASED || check != FD_BOOTCOUNT_ERASED) {
            used = i + 2u;
        }
        if (v != FD_BOOTCOUNT_ERASED && check == ~v && v > best) {
            best = v;
        }
    }
    *min_version = best;
    *next = used;
    return FD_OK;
}

fd_status fd_bootcount_plan(const uint32_t *page, size_t words, uint32_t version, size_t *index)
{
    if (index == NULL) {
        return FD_ERR_NULL;
    }
    uint32_t min = 0;
    size_t next = 0;
    const fd_status st = fd_bootcount_scan(page, words, &min, &next);
    if (st != FD_OK) {
        return st;
    }
    if (version == FD_BOOTCOUNT_ERASED) {
        return FD_ERR_TOO_LARGE;
    }
    if (version <= min) {
        return FD_ERR_STATE;
    }
    if (next >= words) {
        return FD_ERR_EXHAUSTED;
    }
    *index = next;
    return FD_OK;
}
