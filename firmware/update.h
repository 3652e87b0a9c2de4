/* The UPDATE command (docs/PROTOCOL.md UPDATE, docs/SECURITY.md "Updates"):
 * a signed image streamed into slot B over the console (development
 * builds; a release build runs it only inside an authenticated link
 * session, docs/LINK.md), checked with the bootloader's own
 * key, marked pending, and the device restarted so that the bootloader
 * installs it (fairdeal/update.h). */
#ifndef FD_UPDATE_CMD_H
#define FD_UPDATE_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "dealer.h"
#include "fairdeal/update.h"
#include "reply.h"

/* Bytes of image per UPDATE DATA line: whole words, and the line fits
 * FD_CONSOLE_MAX_LINE ("UPDATE DATA " + a 7-digit offset + " " + 120 hex). */
#define FD_UPDATE_CHUNK_MAX 60u

/* What this image updates with: slot B's flash ops, the bootloader's check and key
 * (FD_HSS_PUB_SIZE bytes), the anti-rollback minimum (the counter page's,
 * fairdeal/bootcount.h) and the address slot A's body runs at. */
typedef struct fd_update_platform {
    fd_update_flash flash;    /* both slots; the dealer writes slot B only */
    fd_update_check_fn check; /* the bootloader's fd_update_check */
    const uint8_t *key;       /* the public key the bootloader trusts */
    uint32_t min_version;     /* the counter page's minimum */
    uint32_t load_addr;       /* slot A + FD_IMAGE_HEADER_ROOM */
} fd_update_platform;

/* Fill *p for this board, or FD_ERR_STATE with *why when this image cannot
 * update (the signed dealer's build links bootloader/dealer_slots.c; other
 * images get update.c's default: not started by a bootloader). */
fd_status fd_update_platform_get(fd_update_platform *p, const char **why);

/* Restart the device so that the bootloader installs the pending update
 * (no return on a device; the default returns). */
void fd_update_platform_restart(void);

/* Run one UPDATE line: args (len bytes) is the line after the command
 * word. Writes exactly one reply line; after "OK UPDATE END" the device
 * restarts. Bad input is refused with ERR and changes nothing. */
void fd_update_command(fd_dealer *d, const fd_writer *w, const char *args, size_t len);

#endif
