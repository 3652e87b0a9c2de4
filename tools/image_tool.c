/* fairdeal-tool image-sign / image-verify (image_tool.h). */
#include "image_tool.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairdeal/sha256.h"
#include "fairdeal/util.h"
#include "lms_sign.h"
#include "tool_args.h"

void fd_image_digest(const fd_image_header *h, const uint8_t *body, uint8_t digest[FD_SHA256_SIZE])
{
    uint8_t head[FD_IMAGE_HEADER_SIZE];
    fd_image_header_encode(h, head);
    fd_sha256_ctx ctx;
    fd_sha256_init(&ctx);
    fd_sha256_update(&ctx, head, sizeof head);
    fd_sha256_update(&ctx, body, h->body_size);
    fd_sha256_final(&ctx, digest);
}

fd_status fd_image_assemble(const fd_image_header *h, const uint8_t *body, const uint8_t pub[FD_HSS_PUB_SIZE],
                            const uint8_t *sig, size_t sig_len, uint8_t *out, size_t cap, size_t *out_len)
{
    const size_t tlv_off = (FD_IMAGE_HEADER_ROOM + (size_t)h->body_size + 3u) & ~(size_t)3u;
    const size_t tlv_len =
        FD_IMAGE_TLV_INFO_SIZE + 2u * (FD_IMAGE_TLV_HEAD_SIZE + FD_SHA256_SIZE) + FD_IMAGE_TLV_HEAD_SIZE + sig_len;
    if (tlv_len > FD_IMAGE_TLV_MAX) {
        return FD_ERR_TOO_LARGE;
    }
    if (cap < tlv_off + tlv_len) {
        return FD_ERR_BUFFER_TOO_SMALL;
    }
    memset(out, 0xFF, tlv_off);
    fd_image_header_encode(h, out);
    if (h->body_size > 0u) {
        memcpy(out + FD_IMAGE_HEADER_ROOM, body, h->body_size);
    }
    uint8_t *p = out + tlv_off;
    fd_image_tlv_head_encode(p, FD_IMAGE_TLV_MAGIC, (uint16_t)tlv_len);
    p += FD_IMAGE_TLV_INFO_SIZE;
    fd_image_tlv_head_encode(p, FD_IMAGE_TLV_KEYHASH, FD_SHA256_SIZE);
    fd_sha256(pub, FD_HSS_PUB_SIZE, p + FD_IMAGE_TLV_HEAD_SIZE);
    p += FD_IMAGE_TLV_HEAD_SIZE + FD_SHA256_SIZE;
    fd_image_tlv_head_encode(p, FD_IMAGE_TLV_SHA256, FD_SHA256_SIZE);
    fd_image_digest(h, body, p + FD_IMAGE_TLV_HEAD_SIZE);
    p += FD_IMAGE_TLV_HEAD_SIZE + FD_SHA256_SIZE;
    fd_image_tlv_head_encode(p, FD_IMAGE_TLV_HSS, (uint16_t)sig_len);
    memcpy(p + FD_IMAGE_TLV_HEAD_SIZE, sig, sig_len);
    *out_len = tlv_off + tlv_len;
    return FD_OK;
}

/* ---- subcommands ---- */

static uint32_t number(const char *name, const char *s)
{
    char *end = NULL;
    const unsigned long long v = strtoull(s, &end, 0);
    if (s[0] == '\0' || s[0] == '-' || *end != '\0' || v > 0xFFFFFFFFull) {
        fd_tool_usage("%s: a number 0..2^32-1 (decimal or 0x hex)", name);
    }
    return (uint32_t)v;
}

#define MAX_BODY (16u * 1024u * 1024u)

int fd_tool_image_sign(int argc, char **argv)
{
    static const char *const known[] = {"--key", "--pub", "--in", "--version", "--load", "--out", NULL};
    const char *key_path = fd_tool_need(argc, argv, "--key", known);
    const char *pub_path = fd_tool_need(argc, argv, "--pub", known);
    const char *in = fd_tool_need(argc, argv, "--in", known);
    const char *out = fd_tool_need(argc, argv, "--out", known);
    fd_image_header h = {
        .version = number("--version", fd_tool_need(argc, argv, "--version", known)),
        .load_addr = number("--load", fd_tool_need(argc, argv, "--load", known)),
    };
    size_t pub_len = 0, body_len = 0;
    uint8_t *pub = fd_tool_slurp(pub_path, FD_HSS_PUB_SIZE, &pub_len);
    if (pub_len != FD_HSS_PUB_SIZE) {
        free(pub);
        fd_tool_usage("'%s': not an HSS public key (60 bytes)", pub_path);
    }
    uint8_t *body = fd_tool_slurp(in, MAX_BODY, &body_len);
    h.body_size = (uint32_t)body_len;
    const size_t cap = FD_IMAGE_HEADER_ROOM + body_len + 4u + FD_IMAGE_TLV_MAX;
    uint8_t *image = malloc(cap);
    static uint8_t sig[FD_LMS_SIGN_MAX_SIG];
    size_t sig_len = 0, image_len = 0;
    fd_status st = FD_ERR_BUFFER_TOO_SMALL;
    if (image != NULL) {
        uint8_t digest[FD_SHA256_SIZE];
        fd_image_digest(&h, body, digest);
        st = fd_lms_sign_file(key_path, &fd_lms_io_posix, digest, sizeof digest, sig, sizeof sig, &sig_len);
    }
    if (st == FD_OK) {
        st = fd_image_assemble(&h, body, pub, sig, sig_len, image, cap, &image_len);
    }
    int rc = 1;
    if (st != FD_OK) {
        fprintf(stderr, "fairdeal-tool: image-sign: no image: %s\n", fd_status_name(st));
    } else {
        FILE *f = fopen(out, "wb");
        const bool ok = f != NULL && fwrite(image, 1, image_len, f) == image_len;
        if (f == NULL || fclose(f) != 0 || !ok) {
            fprintf(stderr, "fairdeal-tool: cannot write '%s'\n", out);
        } else {
            rc = 0;
        }
    }
    free(pub);
    free(body);
    free(image);
    return rc;
}

/* FILE padded with fill to size bytes, into the HMAC (a file larger than size is an error). */
static bool hmac_region(fd_hmac_sha256_ctx *ctx, const char *path, uint32_t size, uint8_t fill)
{
    size_t len = 0;
    uint8_t *buf = fd_tool_slurp(path, size, &len);
    fd_hmac_sha256_update(ctx, buf, len);
    uint8_t pad[256];
    memset(pad, fill, sizeof pad);
    for (size_t left = size - len; left > 0;) {
        const size_t n = left < sizeof pad ? left : sizeof pad;
        fd_hmac_sha256_update(ctx, pad, n);
        left -= n;
    }
    free(buf);
    return true;
}

int fd_tool_program_verify(int argc, char **argv)
{
    static const char *const known[] = {"--seed", "--boot", "--boot-size", "--image", "--slot-size", "--fill", NULL};
    const char *seed_hex = fd_tool_need(argc, argv, "--seed", known);
    const char *boot = fd_tool_need(argc, argv, "--boot", known);
    const uint32_t boot_size = number("--boot-size", fd_tool_need(argc, argv, "--boot-size", known));
    const char *image = fd_tool_need(argc, argv, "--image", known);
    const uint32_t slot_size = number("--slot-size", fd_tool_need(argc, argv, "--slot-size", known));
    const char *fill_text = fd_tool_opt(argc, argv, "--fill", known);
    const uint32_t fill = fill_text != NULL ? number("--fill", fill_text) : 0xFFu;
    uint8_t seed[64];
    size_t seed_len = 0;
    if (fd_hex_decode(seed_hex, strlen(seed_hex), seed, sizeof seed, &seed_len) != FD_OK || seed_len == 0u) {
        fd_tool_usage("--seed '%s': 2-128 hex digits", seed_hex);
    }
    if (fill > 0xFFu) {
        fd_tool_usage("--fill '%s': a byte (erased flash: 0xff)", fill_text);
    }
    fd_hmac_sha256_ctx ctx;
    fd_hmac_sha256_init(&ctx, seed, seed_len);
    (void)hmac_region(&ctx, boot, boot_size, (uint8_t)fill);
    (void)hmac_region(&ctx, image, slot_size, (uint8_t)fill);
    uint8_t mac[FD_SHA256_SIZE];
    fd_hmac_sha256_final(&ctx, mac);
    printf("OK VERIFY hmac=");
    for (size_t i = 0; i < sizeof mac; i++) {
        printf("%02x", mac[i]);
    }
    printf(" bytes=%lu\n", (unsigned long)boot_size + (unsigned long)slot_size);
    return 0;
}

int fd_tool_image_verify(int argc, char **argv)
{
    static const char *const known[] = {"--pub", "--in", "--min-version", "--slot-size", NULL};
    const char *pub_path = fd_tool_need(argc, argv, "--pub", known);
    const char *in = fd_tool_need(argc, argv, "--in", known);
    const char *min = fd_tool_opt(argc, argv, "--min-version", known);
    const char *slot = fd_tool_opt(argc, argv, "--slot-size", known);
    size_t pub_len = 0, len = 0;
    uint8_t *pub = fd_tool_slurp(pub_path, FD_HSS_PUB_SIZE, &pub_len);
    uint8_t *image = fd_tool_slurp(in, MAX_BODY + FD_IMAGE_HEADER_ROOM + 4u + FD_IMAGE_TLV_MAX, &len);
    int rc = 1;
    if (pub_len != FD_HSS_PUB_SIZE) {
        fprintf(stderr, "fairdeal-tool: image-verify: '%s' is not an HSS public key (60 bytes)\n", pub_path);
    } else {
        size_t slot_len = slot != NULL ? number("--slot-size", slot) : len;
        if (slot_len > len) {
            slot_len = len; /* the file is the slot's start; the rest is erased flash */
        }
        fd_image_info info;
        const char *why = NULL;
        const fd_status st =
            fd_image_check(image, slot_len, pub, min != NULL ? number("--min-version", min) : 0u, &info, &why);
        if (st != FD_OK) {
            fprintf(stderr, "fairdeal-tool: image-verify: refused: %s (%s)\n", why, fd_status_name(st));
        } else {
            printf("OK version=%lu size=%lu hash=", (unsigned long)info.header.version,
                   (unsigned long)info.header.body_size);
            for (size_t i = 0; i < sizeof info.hash; i++) {
                printf("%02x", info.hash[i]);
            }
            putchar('\n');
            rc = 0;
        }
    }
    free(pub);
    free(image);
    return rc;
}
