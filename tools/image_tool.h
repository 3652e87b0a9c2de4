/* fairdeal-tool's signed firmware images (fairdeal/image.h, docs/SECURITY.md
 * "Image format"): image-sign, image-verify and program-verify. Host only. */
#ifndef FAIRDEAL_TOOL_IMAGE_TOOL_H
#define FAIRDEAL_TOOL_IMAGE_TOOL_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/image.h"
#include "fairdeal/status.h"

/* Lay out a signed image in out (cap bytes): the header padded with 0xFF to
 * FD_IMAGE_HEADER_ROOM, the body, 0xFF to a multiple of 4, the TLV area
 * (key hash of pub, SHA-256 of header || body, the signature sig of that
 * hash). *out_len: its size. Errors: FD_ERR_BUFFER_TOO_SMALL,
 * FD_ERR_TOO_LARGE (a TLV area over 64 KiB). */
fd_status fd_image_assemble(const fd_image_header *h, const uint8_t *body, const uint8_t pub[FD_HSS_PUB_SIZE],
                            const uint8_t *sig, size_t sig_len, uint8_t *out, size_t cap, size_t *out_len);

/* The 32 bytes an image's signature signs: the SHA-256 of the encoded
 * header followed by the body. */
void fd_image_digest(const fd_image_header *h, const uint8_t *body, uint8_t digest[FD_SHA256_SIZE]);

/* The subcommands (argv[1] is the name); exit codes as fairdeal-tool's. */
int fd_tool_image_sign(int argc, char **argv);
int fd_tool_image_verify(int argc, char **argv);
/* program-verify: the HMAC a device's VERIFY answers (docs/PROTOCOL.md VERIFY)
 * from the released bootloader and image files, each padded to its region. */
int fd_tool_program_verify(int argc, char **argv);
/* update: drive a dealer's UPDATE sequence over standard input/output
 * (tools/update_tool.c, docs/PROTOCOL.md UPDATE). */
int fd_tool_update(int argc, char **argv);

#endif
