/* fairdeal: the signed firmware image (docs/SECURITY.md "Image format"),
 * MCUboot style: a fixed header, the image body, then a TLV trailer with
 * the SHA-256 of header || body, the SHA-256 of the signer's public key and
 * the LMS/HSS signature (fairdeal/lms.h) of that 32-byte hash (the image is
 * hashed once). All integers little-endian. In a slot:
 *
 *   slot + 0                    header (FD_IMAGE_HEADER_SIZE bytes, then
 *                               0xFF up to FD_IMAGE_HEADER_ROOM)
 *   slot + FD_IMAGE_HEADER_ROOM body (body_size bytes: the linked image,
 *                               its vector table first)
 *   after the body, 4-aligned   TLV info (magic, total size), the TLVs
 *
 * The header is in the signed bytes, so its version and sizes are
 * authenticated; the TLVs are not (MCUboot's "unprotected" TLVs): a changed
 * TLV can only make the check fail. */
#ifndef FAIRDEAL_IMAGE_H
#define FAIRDEAL_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/lms.h"
#include "fairdeal/sha256.h"
#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FD_IMAGE_MAGIC 0x31494446u /* "FDI1" */
#define FD_IMAGE_HEADER_SIZE 32u   /* encoded header */
#define FD_IMAGE_HEADER_ROOM 512u  /* the body starts here: a vector table's VTOR alignment */
#define FD_IMAGE_TLV_MAGIC 0x6907u /* MCUboot's TLV info magic */
#define FD_IMAGE_TLV_INFO_SIZE 4u  /* u16 magic, u16 total size (info included) */
#define FD_IMAGE_TLV_HEAD_SIZE 4u  /* u16 type, u16 length */
#define FD_IMAGE_TLV_KEYHASH 0x01u /* SHA-256 of the HSS public key (32 bytes) */
#define FD_IMAGE_TLV_SHA256 0x10u  /* SHA-256 of header || body (32 bytes) */
#define FD_IMAGE_TLV_HSS 0x80u     /* HSS signature of the SHA-256 of header || body */
/* The largest TLV area the walker accepts (two levels of H15/W1 would not
 * fit a 16-bit total; the default set's is 2,588 bytes). */
#define FD_IMAGE_TLV_MAX 0xFFFFu
/* The default set's TLV area: info, key hash, hash, signature. */
#define FD_IMAGE_TLV_DEFAULT_SIZE                                                                                      \
    (FD_IMAGE_TLV_INFO_SIZE + 2u * (FD_IMAGE_TLV_HEAD_SIZE + FD_SHA256_SIZE) + FD_IMAGE_TLV_HEAD_SIZE +                \
     FD_HSS_DEFAULT_SIG_SIZE)

/* The header (encoded by fd_image_header_encode, FD_IMAGE_HEADER_SIZE
 * bytes: u32 magic, u16 header_size, u16 flags (0), u32 body_size, u32
 * version, u32 load_addr, 12 reserved bytes (0)). */
typedef struct fd_image_header {
    uint32_t body_size; /* bytes of the body */
    uint32_t version;   /* monotonic: an image older than the counter's minimum is refused */
    uint32_t load_addr; /* where the body runs (slot + FD_IMAGE_HEADER_ROOM) */
} fd_image_header;

FD_STATIC_ASSERT(FD_IMAGE_HEADER_SIZE == 4u + 2u + 2u + 4u + 4u + 4u + 12u, "header layout");
FD_STATIC_ASSERT(FD_IMAGE_HEADER_SIZE <= FD_IMAGE_HEADER_ROOM, "the header fits its room");
FD_STATIC_ASSERT((FD_IMAGE_HEADER_ROOM & (FD_IMAGE_HEADER_ROOM - 1u)) == 0u, "the room is a power of two");
FD_STATIC_ASSERT(FD_IMAGE_TLV_DEFAULT_SIZE <= FD_IMAGE_TLV_MAX, "the default TLV area fits its u16 size");

/* The codec pair. encode writes FD_IMAGE_HEADER_SIZE bytes. decode errors:
 * FD_ERR_NULL; FD_ERR_PARSE on a wrong magic, header size, nonzero flags
 * or reserved bytes. */
void fd_image_header_encode(const fd_image_header *h, uint8_t out[FD_IMAGE_HEADER_SIZE]);
/* Reads a header from in (see above for its errors). */
FD_MUST_CHECK fd_status fd_image_header_decode(const uint8_t in[FD_IMAGE_HEADER_SIZE], fd_image_header *h);

/* One TLV of the trailer, pointing into the caller's buffer. */
typedef struct fd_image_tlv {
    uint16_t type;        /* FD_IMAGE_TLV_* */
    uint16_t len;         /* bytes of the value */
    const uint8_t *value; /* into the caller's area */
} fd_image_tlv;

/* Writes a TLV's head (its type and length), or with FD_IMAGE_TLV_MAGIC
 * and the area's total size the TLV info: two u16, little-endian, the
 * layout fd_image_tlv_next reads. */
void fd_image_tlv_head_encode(uint8_t out[FD_IMAGE_TLV_HEAD_SIZE], uint16_t type, uint16_t len);

/* The one TLV walker. *pos starts at 0; each call returns the TLV at *pos
 * of the area (info included, area_len bytes) and advances it. Returns
 * FD_OK with a TLV, FD_ERR_EXHAUSTED at the end, FD_ERR_PARSE when the info
 * is wrong (magic, total != area_len) or a TLV runs past the area. */
FD_MUST_CHECK fd_status fd_image_tlv_next(const uint8_t *area, size_t area_len, size_t *pos, fd_image_tlv *out);

/* Where an image's parts lie in its slot, as fd_image_locate found them:
 * nothing here is authenticated. */
typedef struct fd_image_layout {
    fd_image_header header; /* the decoded header */
    size_t tlv_offset;      /* the TLV area, from the slot's start: 4-aligned after the body */
    size_t tlv_len;         /* the TLV area's total size (its info's), info included */
} fd_image_layout;

/* Finds the header and the TLV area of the image in slot (slot_len bytes)
 * without hashing or verifying anything: fd_image_check's first step, and
 * how a running image finds its own trailer. *why (set whenever why is not
 * NULL) names the failure as fd_image_check does, or "ok". Errors:
 * FD_ERR_NULL; FD_ERR_PARSE (no header, the body or the TLV area beyond
 * the slot). On error layout is zeroed. */
FD_MUST_CHECK fd_status fd_image_locate(const uint8_t *slot, size_t slot_len, fd_image_layout *layout,
                                        const char **why);

/* The value of the one TLV of type in the area (area_len bytes, info
 * included), which must be exactly len bytes: the whole area is walked,
 * so a malformed area or a repeated type is refused. *value (into the
 * area) is set only on success. Errors: FD_ERR_NULL; FD_ERR_PARSE (area
 * malformed, the type repeated, or its TLV of another length);
 * FD_ERR_EXHAUSTED (no TLV of type). */
FD_MUST_CHECK fd_status fd_image_tlv_find(const uint8_t *area, size_t area_len, uint16_t type, uint16_t len,
                                          const uint8_t **value);

/* What a check found. */
typedef struct fd_image_info {
    fd_image_header header;       /* the decoded header */
    uint8_t hash[FD_SHA256_SIZE]; /* SHA-256 of header || body */
    size_t tlv_offset;            /* from the slot's start */
    size_t total_size;            /* header room + body + TLVs */
} fd_image_info;

/* Check the image in slot (slot_len bytes, memory-mapped or a copy) against
 * the HSS public key pub: the header, the body's size within the slot, the
 * TLVs (exactly one key hash, hash and signature, nothing else), the key
 * hash, the hash, the signature, and version >= min_version. *why (set
 * whenever why is not NULL) names the first failure in a few words, or "ok". Errors: FD_ERR_NULL;
 * FD_ERR_PARSE (header or TLVs malformed, body or TLVs outside the slot);
 * FD_ERR_CORRUPT (the hash does not match: header or body changed);
 * FD_ERR_SIGNATURE (signed by another key, or a signature that does not
 * verify); FD_ERR_STATE (version below min_version: rollback). On error
 * info is zeroed. */
FD_MUST_CHECK fd_status fd_image_check(const uint8_t *slot, size_t slot_len, const uint8_t pub[FD_HSS_PUB_SIZE],
                                       uint32_t min_version, fd_image_info *info, const char **why);

#ifdef __cplusplus
}
#endif

#endif
