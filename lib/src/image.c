/* The signed firmware image: header codec, TLV walker, the check a
 * bootloader runs (fairdeal/image.h, docs/SECURITY.md "Image format"). */
#include "fairdeal/image.h"

#include <string.h>

#include "fairdeal/util.h"
#include "word.h"

void fd_image_header_encode(const fd_image_header *h, uint8_t out[FD_IMAGE_HEADER_SIZE])
{
    memset(out, 0, FD_IMAGE_HEADER_SIZE);
    fd_store_le32(out, FD_IMAGE_MAGIC);
    fd_store_le16(out + 4, (uint16_t)FD_IMAGE_HEADER_SIZE);
    fd_store_le32(out + 8, h->body_size);
    fd_store_le32(out + 12, h->version);
    fd_store_le32(out + 16, h->load_addr);
}

fd_status fd_image_header_decode(const uint8_t in[FD_IMAGE_HEADER_SIZE], fd_image_header *h)
{
    if (in == NULL || h == NULL) {
        return FD_ERR_NULL;
    }
    if (fd_load_le32(in) != FD_IMAGE_MAGIC || fd_load_le16(in + 4) != FD_IMAGE_HEADER_SIZE ||
        fd_load_le16(in + 6) != 0u) {
        return FD_ERR_PARSE;
    }
    for (size_t i = 20; i < FD_IMAGE_HEADER_SIZE; i++) {
        if (in[i] != 0u) {
            return FD_ERR_PARSE;
        }
    }
    h->body_size = fd_load_le32(in + 8);
    h->version = fd_load_le32(in + 12);
    h->load_addr = fd_load_le32(in + 16);
    return FD_OK;
}

void fd_image_tlv_head_encode(uint8_t out[FD_IMAGE_TLV_HEAD_SIZE], uint16_t type, uint16_t len)
{
    fd_store_le16(out, type);
    fd_store_le16(out + 2, len);
}

fd_status fd_image_tlv_next(const uint8_t *area, size_t area_len, size_t *pos, fd_image_tlv *out)
{
    if (area == NULL || pos == NULL || out == NULL) {
        return FD_ERR_NULL;
    }
    if (area_len < FD_IMAGE_TLV_INFO_SIZE || fd_load_le16(area) != FD_IMAGE_TLV_MAGIC ||
        fd_load_le16(area + 2) != area_len) {
        return FD_ERR_PARSE;
    }
    if (*pos == 0u) {
        *pos = FD_IMAGE_TLV_INFO_SIZE;
    }
    if (*pos == area_len) {
        return FD_ERR_EXHAUSTED;
    }
    if (*pos > area_len || area_len - *pos < FD_IMAGE_TLV_HEAD_SIZE) {
        return FD_ERR_PARSE;
    }
    const uint16_t len = fd_load_le16(area + *pos + 2);
    if (area_len - *pos - FD_IMAGE_TLV_HEAD_SIZE < len) {
        return FD_ERR_PARSE;
    }
    out->type = fd_load_le16(area + *pos);
    out->len = len;
    out->value = area + *pos + FD_IMAGE_TLV_HEAD_SIZE;
    *pos += FD_IMAGE_TLV_HEAD_SIZE + len;
    return FD_OK;
}

fd_status fd_image_tlv_find(const uint8_t *area, size_t area_len, uint16_t type, uint16_t len, const uint8_t **value)
{
    if (value == NULL) {
        return FD_ERR_NULL;
    }
    const uint8_t *found = NULL;
    size_t pos = 0;
    fd_image_tlv tlv;
    fd_status st;
    while ((st = fd_image_tlv_next(area, area_len, &pos, &tlv)) == FD_OK) {
        if (tlv.type != type) {
            continue;
        }
        if (found != NULL || tlv.len != len) {
            return FD_ERR_PARSE;
        }
        found = tlv.value;
    }
    if (st != FD_ERR_EXHAUSTED) {
        return st;
    }
    if (found == NULL) {
        return FD_ERR_EXHAUSTED;
    }
    *value = found;
    return FD_OK;
}

static fd_status locate(const uint8_t *slot, size_t slot_len, fd_image_layout *at, const char **why)
{
    if (slot_len < FD_IMAGE_HEADER_ROOM || fd_image_header_decode(slot, &at->header) != FD_OK) {
        *why = "no image header (bad magic or layout)";
        return FD_ERR_PARSE;
    }
    const size_t body = at->header.body_size;
    if (body > slot_len - FD_IMAGE_HEADER_ROOM) {
        *why = "image size beyond the slot";
        return FD_ERR_PARSE;
    }
    at->tlv_offset = (FD_IMAGE_HEADER_ROOM + body + 3u) & ~(size_t)3u;
    if (at->tlv_offset > slot_len || slot_len - at->tlv_offset < FD_IMAGE_TLV_INFO_SIZE) {
        *why = "no TLV trailer in the slot";
        return FD_ERR_PARSE;
    }
    at->tlv_len = fd_load_le16(slot + at->tlv_offset + 2u);
    if (at->tlv_len > slot_len - at->tlv_offset) {
        *why = "TLV trailer beyond the slot";
        return FD_ERR_PARSE;
    }
    *why = "ok";
    return FD_OK;
}

fd_status fd_image_locate(const uint8_t *slot, size_t slot_len, fd_image_layout *layout, const char **why)
{
    const char *reason = "missing argument";
    fd_status st = FD_ERR_NULL;
    if (slot != NULL && layout != NULL) {
        st = locate(slot, slot_len, layout, &reason);
        if (st != FD_OK) {
            memset(layout, 0, sizeof *layout);
        }
    }
    if (why != NULL) {
        *why = reason;
    }
    return st;
}

/* The TLVs a check needs: each exactly once, nothing else. */
typedef struct tlvs {
    const uint8_t *keyhash;
    const uint8_t *hash;
    const uint8_t *sig;
    size_t sig_len;
} tlvs;

static fd_status collect(const uint8_t *area, size_t area_len, tlvs *t, const char **why)
{
    memset(t, 0, sizeof *t);
    size_t pos = 0;
    fd_image_tlv tlv;
    fd_status st;
    while ((st = fd_image_tlv_next(area, area_len, &pos, &tlv)) == FD_OK) {
        const uint8_t **slot = NULL;
        size_t want = FD_SHA256_SIZE;
        switch (tlv.type) {
        case FD_IMAGE_TLV_KEYHASH: slot = &t->keyhash; break;
        case FD_IMAGE_TLV_SHA256: slot = &t->hash; break;
        case FD_IMAGE_TLV_HSS:
            slot = &t->sig;
            want = tlv.len;
            t->sig_len = tlv.len;
            break;
        default: *why = "unknown TLV in the trailer"; return FD_ERR_PARSE;
        }
        if (*slot != NULL || tlv.len != want) {
            *why = "TLV repeated or of the wrong length";
            return FD_ERR_PARSE;
        }
        *slot = tlv.value;
    }
    if (st != FD_ERR_EXHAUSTED) {
        *why = "TLV trailer malformed";
        return FD_ERR_PARSE;
    }
    if (t->keyhash == NULL || t->hash == NULL || t->sig == NULL) {
        *why = "TLV trailer lacks the key hash, hash or signature";
        return FD_ERR_PARSE;
    }
    return FD_OK;
}

static fd_status check(const uint8_t *slot, size_t slot_len, const uint8_t pub[FD_HSS_PUB_SIZE], uint32_t min_version,
                       fd_image_info *info, const char **why)
{
    fd_image_layout at;
    fd_status st = locate(slot, slot_len, &at, why);
    if (st != FD_OK) {
        return st;
    }
    info->header = at.header;
    info->tlv_offset = at.tlv_offset;
    const uint8_t *area = slot + at.tlv_offset;
    const size_t area_len = at.tlv_len;
    const size_t body = at.header.body_size;
    info->total_size = info->tlv_offset + area_len;
    tlvs t;
    st = collect(area, area_len, &t, why);
    if (st != FD_OK) {
        return st;
    }
    uint8_t keyhash[FD_SHA256_SIZE];
    fd_sha256(pub, FD_HSS_PUB_SIZE, keyhash);
    if (memcmp(keyhash, t.keyhash, sizeof keyhash) != 0) {
        *why = "signed by another key";
        return FD_ERR_SIGNATURE;
    }
    /* the image is hashed once; the signature signs that hash (as MCUboot's) */
    fd_sha256_ctx hctx;
    fd_sha256_init(&hctx);
    fd_sha256_update(&hctx, slot, FD_IMAGE_HEADER_SIZE);
    fd_sha256_update(&hctx, slot + FD_IMAGE_HEADER_ROOM, body);
    fd_sha256_final(&hctx, info->hash);
    if (memcmp(info->hash, t.hash, FD_SHA256_SIZE) != 0) {
        *why = "hash mismatch: header or image changed";
        return FD_ERR_CORRUPT;
    }
    st = fd_hss_verify(pub, FD_HSS_PUB_SIZE, info->hash, FD_SHA256_SIZE, t.sig, t.sig_len);
    if (st == FD_ERR_PARSE) {
        *why = "signature malformed";
        return FD_ERR_PARSE;
    }
    if (st != FD_OK) {
        *why = "signature does not verify";
        return st;
    }
    if (info->header.version < min_version) {
        *why = "version older than the minimum (rollback)";
        return FD_ERR_STATE;
    }
    *why = "ok";
    return FD_OK;
}

fd_status fd_image_check(const uint8_t *slot, size_t slot_len, const uint8_t pub[FD_HSS_PUB_SIZE], uint32_t min_version,
                         fd_image_info *info, const char **why)
{
    if (why == NULL) {
        return FD_ERR_NULL;
    }
    *why = "missing argument";
    if (slot == NULL || pub == NULL || info == NULL) {
        return FD_ERR_NULL;
    }
    const fd_status st = check(slot, slot_len, pub, min_version, info, why);
    if (st != FD_OK) {
        memset(info, 0, sizeof *info);
    }
    return st;
}
