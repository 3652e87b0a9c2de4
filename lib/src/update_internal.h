/* Internal to lib/src/update.c and update_transfer.c (fairdeal/update.h). */
#ifndef FAIRDEAL_UPDATE_INTERNAL_H
#define FAIRDEAL_UPDATE_INTERNAL_H

#include <stdint.h>

#include "fairdeal/update.h"

/* A word of the flash as the CPU reads it (the slots and pages are word aligned). */
static inline uint32_t fd_update_word(const uint8_t *p) { return *(const uint32_t *)(const void *)p; }

/* The status page: slot B's last. */
const uint8_t *fd_update_status_page(const fd_update_flash *f);

/* The status record: slot B's last two words. */
const uint8_t *fd_update_status(const fd_update_flash *f);

#endif
