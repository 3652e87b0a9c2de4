#include "device_secret.h"

#include <stddef.h>
#include <string.h>

#include "fairdeal/sha256.h"
#include "fairdeal/util.h"

static const uint8_t magic[4] = {'F', 'D', 'S', '1'};
#define CHECK_BYTES (FD_DEVICE_SECRET_RECORD - sizeof magic - FD_DEVICE_SECRET_BYTES)

/* Public on purpose: development builds only, marked "secret=test" wherever
 * the device shows its secret's origin. */
static const char test_secret_label[] = "fairdeal/test-secret: development builds only, never at a table";

static void labelled_hash(const char *label, const uint8_t secret[FD_DEVICE_SECRET_BYTES], uint8_t out[32])
{
    fd_sha256_ctx h;
    fd_sha256_init(&h);
    fd_sha256_update(&h, label, strlen(label));
    fd_sha256_update(&h, secret, FD_DEVICE_SECRET_BYTES);
    fd_sha256_final(&h, out);
    fd_wipe(&h, sizeof h);
}

static void device_id(const uint8_t secret[FD_DEVICE_SECRET_BYTES], uint8_t id[FD_DEVICE_ID_BYTES])
{
    uint8_t digest[32];
    labelled_hash("fairdeal/device-id", secret, digest);
    memcpy(id, digest, FD_DEVICE_ID_BYTES);
    fd_wipe(digest, sizeof digest); /* the bytes after the id are not published */
}

static void make_record(const uint8_t secret[FD_DEVICE_SECRET_BYTES], uint8_t record[FD_DEVICE_SECRET_RECORD])
{
    uint8_t digest[32];
    labelled_hash("fairdeal/secret-check", secret, digest);
    memcpy(record, magic, sizeof magic);
    memcpy(record + sizeof magic, secret, FD_DEVICE_SECRET_BYTES);
    memcpy(record + sizeof magic + FD_DEVICE_SECRET_BYTES, digest, CHECK_BYTES);
    fd_wipe(digest, sizeof digest);
}

static bool all_bytes(const uint8_t *p, size_t len, uint8_t value)
{
    uint8_t diff = 0;
    for (size_t i = 0; i < len; i++) {
        diff |= (uint8_t)(p[i] ^ value);
    }
    return diff == 0u;
}

typedef enum page_kind {
    PAGE_BLANK_ERASED,
    PAGE_BLANK_ZERO,
    PAGE_VALID,
    PAGE_DAMAGED
} page_kind;

/* Classify the stored record; PAGE_VALID leaves the secret in secret. */
static fd_status read_page(const fd_flash *page, page_kind *kind, uint8_t secret[FD_DEVICE_SECRET_BYTES])
{
    uint8_t stored[FD_DEVICE_SECRET_RECORD];
    const fd_status st = page->read(page->ctx, 0, stored, sizeof stored);
    if (st != FD_OK) {
        fd_wipe(stored, sizeof stored);
        return st;
    }
    uint8_t expect[FD_DEVICE_SECRET_RECORD];
    make_record(stored + sizeof magic, expect);
    if (all_bytes(stored, sizeof stored, 0xFFu)) {
        *kind = PAGE_BLANK_ERASED;
    } else if (all_bytes(stored, sizeof stored, 0x00u)) {
        *kind = PAGE_BLANK_ZERO;
    } else if (memcmp(stored, expect, sizeof stored) == 0) {
        *kind = PAGE_VALID;
        memcpy(secret, stored + sizeof magic, FD_DEVICE_SECRET_BYTES);
    } else {
        *kind = PAGE_DAMAGED;
    }
    fd_wipe(stored, sizeof stored);
    fd_wipe(expect, sizeof expect);
    return FD_OK;
}

void fd_device_secret_clear(fd_device_secret *s)
{
    if (s != NULL) {
        fd_wipe(s, sizeof *s);
        s->origin = FD_SECRET_MISSING;
    }
}

fd_status fd_device_secret_load(fd_device_secret *s, const fd_flash *page, bool release)
{
    if (s == NULL) {
        return FD_ERR_NULL;
    }
    fd_device_secret_clear(s);
    page_kind kind = PAGE_BLANK_ERASED;
    if (page != NULL) {
        const fd_status st = read_page(page, &kind, s->secret);
        if (st != FD_OK) {
            return st;
        }
    }
    if (kind == PAGE_DAMAGED) {
        s->origin = FD_SECRET_DAMAGED;
        return FD_ERR_CORRUPT;
    }
    if (kind != PAGE_VALID) {
        if (release) {
            return FD_ERR_NOT_READY;
        }
        fd_sha256(test_secret_label, sizeof test_secret_label - 1u, s->secret);
        s->origin = FD_SECRET_TEST;
    } else {
        s->origin = FD_SECRET_PROVISIONED;
    }
    device_id(s->secret, s->id);
    return FD_OK;
}

fd_status fd_device_secret_provision(const fd_flash *page, const uint8_t secret[FD_DEVICE_SECRET_BYTES],
                                     uint8_t id[FD_DEVICE_ID_BYTES])
{
    if (page == NULL || secret == NULL || id == NULL) {
        return FD_ERR_NULL;
    }
    if (all_bytes(secret, FD_DEVICE_SECRET_BYTES, 0x00u) || all_bytes(secret, FD_DEVICE_SECRET_BYTES, 0xFFu)) {
        return FD_ERR_EMPTY;
    }
    uint8_t stored[FD_DEVICE_SECRET_BYTES];
    page_kind kind = PAGE_DAMAGED;
    fd_status st = read_page(page, &kind, stored);
    fd_wipe(stored, sizeof stored);
    if (st != FD_OK) {
        return st;
    }
    if (kind == PAGE_VALID) {
        return FD_ERR_STATE;
    }
    if (kind == PAGE_DAMAGED) {
        return FD_ERR_CORRUPT;
    }
    if (kind == PAGE_BLANK_ZERO) {
        st = page->erase(page->ctx, 0);
    }
    if (st == FD_OK) {
        uint32_t words[FD_DEVICE_SECRET_RECORD / 4u];
        uint8_t record[FD_DEVICE_SECRET_RECORD];
        make_record(secret, record);
        memcpy(words, record, sizeof words);
        fd_wipe(record, sizeof record);
        st = page->program(page->ctx, 0, words, sizeof words / 4u);
        fd_wipe(words, sizeof words);
    }
    if (st == FD_OK) {
        st = read_page(page, &kind, stored);
        const bool same = st == FD_OK && kind == PAGE_VALID && memcmp(stored, secret, sizeof stored) == 0;
        fd_wipe(stored, sizeof stored);
        if (st == FD_OK && !same) {
            st = FD_ERR_CORRUPT;
        }
    }
    if (st == FD_OK) {
        device_id(secret, id);
    }
    return st;
}

bool fd_device_secret_usable(const fd_device_secret *s)
{
    return s != NULL && (s->origin == FD_SECRET_TEST || s->origin == FD_SECRET_PROVISIONED);
}

fd_status fd_device_key(const fd_device_secret *s, const char *purpose, uint8_t out[32])
{
    if (s == NULL || purpose == NULL || out == NULL) {
        return FD_ERR_NULL;
    }
    if (purpose[0] == '\0') {
        return FD_ERR_EMPTY;
    }
    if (!fd_device_secret_usable(s)) {
        fd_wipe(out, 32);
        return FD_ERR_NOT_READY;
    }
    static const char prefix[] = "fairdeal/key/";
    fd_hmac_sha256_ctx mac;
    fd_hmac_sha256_init(&mac, s->secret, sizeof s->secret);
    fd_hmac_sha256_update(&mac, prefix, sizeof prefix - 1u);
    fd_hmac_sha256_update(&mac, purpose, strlen(purpose));
    fd_hmac_sha256_final(&mac, out);
    fd_wipe(&mac, sizeof mac);
    return FD_OK;
}

const char *fd_device_secret_origin_name(fd_secret_origin origin)
{
    switch (origin) {
    case FD_SECRET_TEST: return "test";
    case FD_SECRET_PROVISIONED: return "provisioned";
    case FD_SECRET_DAMAGED: return "damaged";
    default: return "missing";
    }
}
