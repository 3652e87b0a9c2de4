/* The device secret (docs/ENTROPY.md "Device secret, seed file and the dealer"): 32 bytes written once into the
 * board's SECRET flash page (flash map, boards/<b>/board.cmake), outside any
 * image, so one signed image serves every device. It is a root of trust of
 * the DRBG (fairdeal/roots.h), names the device in every round header (the
 * device id, a hash of it) and keys the journal (fd_device_key).
 *
 * Page layout, from offset 0: magic "FDS1", the secret, then the first 28
 * bytes of SHA-256("fairdeal/secret-check" || secret): 64 bytes written in
 * one program call. An erased page (all 0xFF) or one that reads all 0x00
 * (QEMU's never-written nRF51 flash) is blank; anything else that fails the
 * check is damaged, and a damaged page is never used nor overwritten. */
#ifndef FD_DEVICE_SECRET_H
#define FD_DEVICE_SECRET_H

#include <stdbool.h>
#include <stdint.h>

#include "fairdeal/journal.h"
#include "fairdeal/roots.h"

#define FD_DEVICE_SECRET_BYTES FD_ROOT_BYTES
/* Bytes of the device id: SHA-256("fairdeal/device-id" || secret), truncated. */
#define FD_DEVICE_ID_BYTES 8u
/* Bytes the record takes at the start of the page. */
#define FD_DEVICE_SECRET_RECORD 64u

/* Where the secret in RAM came from. Only TEST and PROVISIONED are usable. */
typedef enum fd_secret_origin {
    FD_SECRET_MISSING = 0,     /* release build and a blank page (or no page, or a read error) */
    FD_SECRET_TEST = 1,        /* development build and a blank page: the public, marked test secret */
    FD_SECRET_PROVISIONED = 2, /* read from the page, check passed */
    FD_SECRET_DAMAGED = 3      /* the page holds something that fails the check */
} fd_secret_origin;

typedef struct fd_device_secret {
    uint8_t secret[FD_DEVICE_SECRET_BYTES]; /* zero unless usable */
    uint8_t id[FD_DEVICE_ID_BYTES];         /* zero unless usable */
    fd_secret_origin origin;
} fd_device_secret;

/* Load the secret from page (NULL: the board has none bound). A blank page
 * gives the test secret when release is false, else MISSING. Returns FD_OK
 * when the secret is usable; FD_ERR_NOT_READY (MISSING), FD_ERR_CORRUPT
 * (DAMAGED), FD_ERR_NULL (s), or the driver's read error (then MISSING).
 * An unusable secret is zeroed. */
FD_MUST_CHECK fd_status fd_device_secret_load(fd_device_secret *s, const fd_flash *page, bool release);

/* Write secret to a blank page once (erasing a page that reads all 0x00
 * first), read it back and check it. s is not changed: the new secret takes
 * effect at the next start (the journal's key and the DRBG's roots must not
 * change under a running dealer). *id receives the new device id.
 * Errors: FD_ERR_NULL; FD_ERR_STATE (the page already holds a valid
 * secret: never replaced); FD_ERR_CORRUPT (the page is damaged, or the
 * read-back does not check); FD_ERR_EMPTY (an all-zero or all-0xFF secret);
 * the driver's errors. */
FD_MUST_CHECK fd_status fd_device_secret_provision(const fd_flash *page, const uint8_t secret[FD_DEVICE_SECRET_BYTES],
                                                   uint8_t id[FD_DEVICE_ID_BYTES]);

/* A 32-byte key for one purpose (e.g. "journal"): HMAC-SHA-256(secret,
 * "fairdeal/key/" || purpose). Distinct purposes give independent keys.
 * Errors: FD_ERR_NULL, FD_ERR_EMPTY (purpose ""), FD_ERR_NOT_READY (the
 * secret is not usable; out is zeroed). */
FD_MUST_CHECK fd_status fd_device_key(const fd_device_secret *s, const char *purpose, uint8_t out[32]);

/* True for TEST and PROVISIONED. */
bool fd_device_secret_usable(const fd_device_secret *s);

/* "test", "provisioned", "missing" or "damaged", for STATUS and the banner. */
const char *fd_device_secret_origin_name(fd_secret_origin origin);

/* Forget the secret (wiped); origin MISSING. */
void fd_device_secret_clear(fd_device_secret *s);

#endif
