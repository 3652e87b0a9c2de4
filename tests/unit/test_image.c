/* The signed firmware image (fairdeal/image.h, docs/SECURITY.md "Image
 * format"): the check a bootloader runs, on images tools/image_tool.c lays
 * out. A good image is accepted; a flipped bit in the header, the body, the
 * key hash, the hash or the signature, a signature by another key (with or
 * without the right key hash), an older version, and every malformed layout
 * are refused with the status and reason the header documents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/image.h"
#include "image_tool.h"
#include "lms_sign.h"

#define BODY 3001u /* not a multiple of 4: the trailer is aligned */
#define SLOT (FD_IMAGE_HEADER_ROOM + BODY + 4u + FD_IMAGE_TLV_MAX)

static uint8_t body[BODY];
static uint8_t slot[SLOT];
static size_t image_len;
static uint8_t pub[FD_HSS_PUB_SIZE], other_pub[FD_HSS_PUB_SIZE];

static void make_key(fd_lms_key *k, uint8_t seed_byte)
{
    memset(k, 0, sizeof *k);
    k->levels = 1;
    k->lms_type[0] = FD_LMS_SHA256_M32_H5; /* small tree: fast tests */
    k->ots_type[0] = FD_LMOTS_SHA256_N32_W8;
    memset(k->I, seed_byte, sizeof k->I);
    memset(k->seed, (uint8_t)(seed_byte + 1u), sizeof k->seed);
}

/* Sign body as version under the key (seed_byte), with keyhash_pub's hash
 * in the trailer, into slot (the rest 0xFF). */
static void build(uint8_t seed_byte, uint32_t version, const uint8_t *keyhash_pub, uint64_t idx)
{
    fd_lms_key k;
    make_key(&k, seed_byte);
    const fd_image_header h = {.body_size = BODY, .version = version, .load_addr = 0x4200u};
    uint8_t digest[FD_SHA256_SIZE];
    fd_image_digest(&h, body, digest);
    static uint8_t sig[FD_LMS_SIGN_MAX_SIG];
    size_t sig_len = 0;
    assert_int_equal(fd_lms_sign_index(&k, idx, digest, sizeof digest, sig, sizeof sig, &sig_len), FD_OK);
    memset(slot, 0xFF, sizeof slot);
    assert_int_equal(fd_image_assemble(&h, body, keyhash_pub, sig, sig_len, slot, sizeof slot, &image_len), FD_OK);
}

static int setup(void **state)
{
    (void)state;
    for (size_t i = 0; i < BODY; i++) {
        body[i] = (uint8_t)(i * 131u + 7u);
    }
    fd_lms_key k;
    make_key(&k, 0x11);
    assert_int_equal(fd_lms_key_public(&k, pub), FD_OK);
    make_key(&k, 0x22);
    assert_int_equal(fd_lms_key_public(&k, other_pub), FD_OK);
    return 0;
}

static fd_status check(uint32_t min_version, const char **why)
{
    fd_image_info info;
    memset(&info, 0xA5, sizeof info);
    const fd_status st = fd_image_check(slot, sizeof slot, pub, min_version, &info, why);
    if (st != FD_OK) {
        const fd_image_info zero = {0};
        assert_memory_equal(&info, &zero, sizeof info); /* nothing half-filled */
    }
    return st;
}

static void good_image_accepted(void **state)
{
    (void)state;
    build(0x11, 7, pub, 3);
    fd_image_info info;
    const char *why = NULL;
    assert_int_equal(fd_image_check(slot, sizeof slot, pub, 7, &info, &why), FD_OK);
    assert_string_equal(why, "ok");
    assert_int_equal(info.header.version, 7);
    assert_int_equal(info.header.body_size, BODY);
    assert_int_equal(info.header.load_addr, 0x4200u);
    assert_int_equal(info.total_size, image_len);
    assert_int_equal(info.tlv_offset, (FD_IMAGE_HEADER_ROOM + BODY + 3u) & ~3u);
    uint8_t head[FD_IMAGE_HEADER_SIZE], want[FD_SHA256_SIZE];
    fd_image_header_encode(&info.header, head);
    fd_sha256_ctx ctx;
    fd_sha256_init(&ctx);
    fd_sha256_update(&ctx, head, sizeof head);
    fd_sha256_update(&ctx, body, BODY);
    fd_sha256_final(&ctx, want);
    assert_memory_equal(info.hash, want, sizeof want);
    /* the slot's length only needs to cover the image */
    assert_int_equal(fd_image_check(slot, image_len, pub, 0, &info, &why), FD_OK);
    assert_int_equal(fd_image_check(slot, image_len - 1u, pub, 0, &info, &why), FD_ERR_PARSE);
}

/* One flipped bit in each byte of the header, in a spread of body bytes, in
 * each byte of the key hash and hash, and a spread of signature bytes. */
static void flipped_bit_anywhere_refused(void **state)
{
    (void)state;
    build(0x11, 7, pub, 3);
    const size_t tlv = (FD_IMAGE_HEADER_ROOM + BODY + 3u) & ~3u;
    size_t offsets[400];
    size_t n = 0;
    for (size_t i = 0; i < FD_IMAGE_HEADER_SIZE; i++) {
        offsets[n++] = i;
    }
    for (size_t i = 0; i < BODY; i += 97u) {
        offsets[n++] = FD_IMAGE_HEADER_ROOM + i;
    }
    offsets[n++] = FD_IMAGE_HEADER_ROOM + BODY - 1u;
    for (size_t i = 0; i < image_len - tlv; i += (i < 84u ? 1u : 41u)) { /* info, both hashes, then the signature */
        offsets[n++] = tlv + i;
    }
    offsets[n++] = image_len - 1u;
    assert_true(n <= sizeof offsets / sizeof offsets[0]);
    for (size_t i = 0; i < n; i++) {
        for (unsigned bit = 0; bit < 8u; bit += 3u) {
            slot[offsets[i]] ^= (uint8_t)(1u << bit);
            const char *why = NULL;
            const fd_status st = check(0, &why);
            if (st == FD_OK) {
                fail_msg("bit %u of byte %zu flipped: accepted", bit, offsets[i]);
            }
            assert_true(st == FD_ERR_PARSE || st == FD_ERR_CORRUPT || st == FD_ERR_SIGNATURE);
            assert_string_not_equal(why, "ok");
            slot[offsets[i]] ^= (uint8_t)(1u << bit);
        }
    }
    const char *why = NULL;
    assert_int_equal(check(0, &why), FD_OK); /* every flip undone */
    /* the bytes between header and body, and the trailer's padding, are not signed:
     * the check does not read them (a flip there changes nothing) */
    slot[FD_IMAGE_HEADER_SIZE] ^= 1u;
    assert_int_equal(check(0, &why), FD_OK);
}

static void body_flip_is_a_hash_mismatch(void **state)
{
    (void)state;
    build(0x11, 7, pub, 3);
    slot[FD_IMAGE_HEADER_ROOM + 100u] ^= 0x80u;
    const char *why = NULL;
    assert_int_equal(check(0, &why), FD_ERR_CORRUPT);
    assert_string_equal(why, "hash mismatch: header or image changed");
}

static void other_key_refused(void **state)
{
    (void)state;
    const char *why = NULL;
    build(0x22, 7, other_pub, 0); /* another key, its own key hash */
    assert_int_equal(check(0, &why), FD_ERR_SIGNATURE);
    assert_string_equal(why, "signed by another key");
    build(0x22, 7, pub, 0); /* another key, our key hash copied in */
    assert_int_equal(check(0, &why), FD_ERR_SIGNATURE);
    assert_string_equal(why, "signature does not verify");
}

static void older_version_refused(void **state)
{
    (void)state;
    const char *why = NULL;
    build(0x11, 6, pub, 4);
    assert_int_equal(check(7, &why), FD_ERR_STATE);
    assert_string_equal(why, "version older than the minimum (rollback)");
    assert_int_equal(check(6, &why), FD_OK);
}

static void put16(uint8_t *p, size_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void malformed_layouts_refused(void **state)
{
    (void)state;
    const size_t tlv = (FD_IMAGE_HEADER_ROOM + BODY + 3u) & ~3u;
    const char *why = NULL;
    fd_image_info info;
    struct {
        const char *what;
        size_t off;
        uint32_t value;
        unsigned bytes;
        const char *why;
    } cases[] = {
        {"body past the slot", 8, SLOT, 4, "image size beyond the slot"},
        {"body to the slot's end", 8, SLOT - FD_IMAGE_HEADER_ROOM, 4, "no TLV trailer in the slot"},
        {"header size", 4, 33, 2, "no image header (bad magic or layout)"},
        {"flags", 6, 1, 2, "no image header (bad magic or layout)"},
        {"reserved", 31, 1, 1, "no image header (bad magic or layout)"},
        {"TLV magic", tlv, 0x6908, 2, "TLV trailer malformed"},
        {"TLV total short", tlv + 2, 0, 2, "TLV trailer malformed"},
        {"unknown TLV", tlv + 4, 0x02, 2, "unknown TLV in the trailer"},
        {"duplicate TLV", tlv + 4 + 36, FD_IMAGE_TLV_KEYHASH, 2, "TLV repeated or of the wrong length"},
        {"short hash TLV", tlv + 4 + 36 + 2, 31, 2, "TLV repeated or of the wrong length"},
        {"TLV past the area", tlv + 4 + 72 + 2, 0xFFF0, 2, "TLV trailer malformed"},
        {"signature one byte short", tlv + 4 + 72 + 2, 0, 2, "TLV trailer malformed"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        build(0x11, 7, pub, 3);
        if (strcmp(cases[i].what, "signature one byte short") == 0) {
            /* shrink the signature TLV and the area by one: a malformed signature */
            const size_t len = (size_t)slot[tlv + 4 + 72 + 2] | ((size_t)slot[tlv + 4 + 72 + 3] << 8);
            put16(slot + tlv + 4 + 72 + 2, len - 1u);
            put16(slot + tlv + 2, image_len - tlv - 1u);
            assert_int_equal(check(0, &why), FD_ERR_PARSE);
            assert_string_equal(why, "signature malformed");
            continue;
        }
        for (unsigned b = 0; b < cases[i].bytes; b++) {
            slot[cases[i].off + b] = (uint8_t)(cases[i].value >> (8u * b));
        }
        if (check(0, &why) != FD_ERR_PARSE || strcmp(why, cases[i].why) != 0) {
            fail_msg("%s: got '%s'", cases[i].what, why);
        }
    }
    build(0x11, 7, pub, 3);
    put16(slot + tlv + 2, image_len - tlv + 4u); /* the TLV area runs past the slot's end */
    assert_int_equal(fd_image_check(slot, image_len, pub, 0, &info, &why), FD_ERR_PARSE);
    assert_string_equal(why, "TLV trailer beyond the slot");
    build(0x11, 7, pub, 3);
    memset(slot, 0xFF, FD_IMAGE_HEADER_SIZE); /* erased flash: no image */
    assert_int_equal(check(0, &why), FD_ERR_PARSE);
    assert_string_equal(why, "no image header (bad magic or layout)");
    assert_int_equal(fd_image_check(slot, FD_IMAGE_HEADER_ROOM - 1u, pub, 0, &info, &why), FD_ERR_PARSE);
    assert_int_equal(fd_image_check(NULL, sizeof slot, pub, 0, &info, &why), FD_ERR_NULL);
    assert_int_equal(fd_image_check(slot, sizeof slot, pub, 0, &info, NULL), FD_ERR_NULL);
}

/* fd_image_locate (fairdeal/image.h): the parts of a good image, a trailer
 * ending exactly at the slot's end, and each layout fd_image_check refuses
 * before hashing, refused with its reason and the layout zeroed. */
static void locate_finds_the_parts(void **state)
{
    (void)state;
    build(0x11, 7, pub, 3);
    const size_t tlv = (FD_IMAGE_HEADER_ROOM + BODY + 3u) & ~3u;
    fd_image_layout at;
    const char *why = NULL;
    assert_int_equal(fd_image_locate(slot, image_len, &at, &why), FD_OK); /* the trailer fills the slot */
    assert_string_equal(why, "ok");
    assert_int_equal(at.header.body_size, BODY);
    assert_int_equal(at.header.version, 7);
    assert_int_equal(at.tlv_offset, tlv);
    assert_int_equal(at.tlv_len, image_len - tlv);
    assert_int_equal(fd_image_locate(slot, sizeof slot, &at, NULL), FD_OK); /* why is optional */
    struct {
        size_t slot_len;
        size_t off; /* a byte set to value first; SIZE_MAX: none */
        uint8_t value;
        const char *why;
    } cases[] = {
        {image_len - 1u, SIZE_MAX, 0, "TLV trailer beyond the slot"},
        {tlv + FD_IMAGE_TLV_INFO_SIZE - 1u, SIZE_MAX, 0, "no TLV trailer in the slot"},
        {FD_IMAGE_HEADER_ROOM + BODY, SIZE_MAX, 0,
         "no TLV trailer in the slot"}, /* the aligned trailer starts past it */
        {FD_IMAGE_HEADER_ROOM + BODY - 1u, SIZE_MAX, 0, "image size beyond the slot"},
        {FD_IMAGE_HEADER_ROOM - 1u, SIZE_MAX, 0, "no image header (bad magic or layout)"},
        {sizeof slot, 0, 0xFF, "no image header (bad magic or layout)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        build(0x11, 7, pub, 3);
        if (cases[i].off != SIZE_MAX) {
            slot[cases[i].off] = cases[i].value;
        }
        memset(&at, 0xA5, sizeof at);
        assert_int_equal(fd_image_locate(slot, cases[i].slot_len, &at, &why), FD_ERR_PARSE);
        assert_string_equal(why, cases[i].why);
        assert_int_equal(at.header.body_size, 0);
        assert_int_equal(at.header.version, 0);
        assert_int_equal(at.header.load_addr, 0);
        assert_int_equal(at.tlv_offset, 0);
        assert_int_equal(at.tlv_len, 0);
    }
    assert_int_equal(fd_image_locate(slot, FD_IMAGE_HEADER_ROOM - 1u, &at, NULL), FD_ERR_PARSE); /* why optional */
    assert_int_equal(fd_image_locate(NULL, sizeof slot, &at, &why), FD_ERR_NULL);
    assert_string_equal(why, "missing argument");
    assert_int_equal(fd_image_locate(slot, sizeof slot, NULL, &why), FD_ERR_NULL);
}

/* An area laid out by hand: info, then n TLVs of (type, len) each filled
 * with its index + 1; returns the area's size. */
static size_t hand_area(uint8_t *area, const uint16_t (*tlvs)[2], size_t n)
{
    size_t pos = FD_IMAGE_TLV_INFO_SIZE;
    for (size_t i = 0; i < n; i++) {
        fd_image_tlv_head_encode(area + pos, tlvs[i][0], tlvs[i][1]);
        memset(area + pos + FD_IMAGE_TLV_HEAD_SIZE, (int)(i + 1u), tlvs[i][1]);
        pos += FD_IMAGE_TLV_HEAD_SIZE + tlvs[i][1];
    }
    fd_image_tlv_head_encode(area, FD_IMAGE_TLV_MAGIC, (uint16_t)pos);
    return pos;
}

/* fd_image_tlv_find (fairdeal/image.h): the one TLV of a type wherever it
 * stands (the key hash after the hash, as the bootloader accepts it), of
 * exactly the length asked; a repeated type, another length, a malformed
 * area or an absent type refused, and the value left alone. */
static void tlv_find_takes_the_one_of_its_type(void **state)
{
    (void)state;
    uint8_t area[256];
    const uint16_t reordered[][2] = {{FD_IMAGE_TLV_HSS, 40}, {FD_IMAGE_TLV_SHA256, 32}, {FD_IMAGE_TLV_KEYHASH, 32}};
    const size_t len = hand_area(area, reordered, 3);
    const uint8_t *value = NULL;
    assert_int_equal(fd_image_tlv_find(area, len, FD_IMAGE_TLV_SHA256, 32, &value), FD_OK);
    assert_ptr_equal(value, area + 4 + 44 + 4);
    assert_int_equal(fd_image_tlv_find(area, len, FD_IMAGE_TLV_KEYHASH, 32, &value), FD_OK);
    assert_ptr_equal(value, area + 4 + 44 + 36 + 4);
    assert_int_equal(value[0], 3);
    assert_int_equal(fd_image_tlv_find(area, len, FD_IMAGE_TLV_HSS, 40, &value), FD_OK);
    assert_ptr_equal(value, area + 8);
    /* each refusal leaves the value as it was */
    const uint8_t *const kept = value;
    assert_int_equal(fd_image_tlv_find(area, len, FD_IMAGE_TLV_SHA256, 31, &value), FD_ERR_PARSE);
    assert_ptr_equal(value, kept);
    assert_int_equal(fd_image_tlv_find(area, len, FD_IMAGE_TLV_SHA256, 33, &value), FD_ERR_PARSE);
    assert_ptr_equal(value, kept);
    assert_int_equal(fd_image_tlv_find(area, len, 0x02, 32, &value), FD_ERR_EXHAUSTED);
    assert_ptr_equal(value, kept);
    assert_int_equal(fd_image_tlv_find(area, len - 1u, FD_IMAGE_TLV_SHA256, 32, &value), FD_ERR_PARSE);
    assert_ptr_equal(value, kept);
    const uint16_t repeated[][2] = {{FD_IMAGE_TLV_SHA256, 32}, {FD_IMAGE_TLV_KEYHASH, 32}, {FD_IMAGE_TLV_SHA256, 32}};
    const size_t rlen = hand_area(area, repeated, 3);
    assert_int_equal(fd_image_tlv_find(area, rlen, FD_IMAGE_TLV_SHA256, 32, &value), FD_ERR_PARSE);
    assert_ptr_equal(value, kept);
    assert_int_equal(fd_image_tlv_find(area, rlen, FD_IMAGE_TLV_KEYHASH, 32, &value), FD_OK);
    assert_ptr_equal(value, area + 4 + 36 + 4);
    /* a TLV after the one asked for that runs past the area: malformed */
    const uint16_t cut[][2] = {{FD_IMAGE_TLV_SHA256, 32}, {FD_IMAGE_TLV_KEYHASH, 32}};
    const size_t clen = hand_area(area, cut, 2);
    fd_image_tlv_head_encode(area, FD_IMAGE_TLV_MAGIC, (uint16_t)(clen - 1u));
    value = kept;
    assert_int_equal(fd_image_tlv_find(area, clen - 1u, FD_IMAGE_TLV_SHA256, 32, &value), FD_ERR_PARSE);
    assert_ptr_equal(value, kept);
    assert_int_equal(fd_image_tlv_find(NULL, len, FD_IMAGE_TLV_SHA256, 32, &value), FD_ERR_NULL);
    assert_int_equal(fd_image_tlv_find(area, len, FD_IMAGE_TLV_SHA256, 32, NULL), FD_ERR_NULL);
    /* the image tools/image_tool.c lays out: its hash TLV, the same bytes fd_image_check compared */
    build(0x11, 7, pub, 3);
    fd_image_layout at;
    fd_image_info info;
    const char *why = NULL;
    assert_int_equal(fd_image_locate(slot, sizeof slot, &at, &why), FD_OK);
    assert_int_equal(fd_image_tlv_find(slot + at.tlv_offset, at.tlv_len, FD_IMAGE_TLV_SHA256, FD_SHA256_SIZE, &value),
                     FD_OK);
    assert_int_equal(fd_image_check(slot, sizeof slot, pub, 0, &info, &why), FD_OK);
    assert_memory_equal(value, info.hash, FD_SHA256_SIZE);
}

static void header_codec_round_trip(void **state)
{
    (void)state;
    const fd_image_header h = {.body_size = 0x01020304u, .version = 0xA0B0C0D0u, .load_addr = 0x00004200u};
    uint8_t enc[FD_IMAGE_HEADER_SIZE];
    fd_image_header_encode(&h, enc);
    const uint8_t want[FD_IMAGE_HEADER_SIZE] = {0x46, 0x44, 0x49, 0x31, 32,   0,    0,    0,    4, 3,
                                                2,    1,    0xD0, 0xC0, 0xB0, 0xA0, 0x00, 0x42, 0, 0};
    assert_memory_equal(enc, want, sizeof want);
    fd_image_header back;
    assert_int_equal(fd_image_header_decode(enc, &back), FD_OK);
    assert_memory_equal(&back, &h, sizeof h);
    enc[0] ^= 1u;
    assert_int_equal(fd_image_header_decode(enc, &back), FD_ERR_PARSE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(header_codec_round_trip),
        cmocka_unit_test(good_image_accepted),
        cmocka_unit_test(flipped_bit_anywhere_refused),
        cmocka_unit_test(body_flip_is_a_hash_mismatch),
        cmocka_unit_test(other_key_refused),
        cmocka_unit_test(older_version_refused),
        cmocka_unit_test(malformed_layouts_refused),
        cmocka_unit_test(locate_finds_the_parts),
        cmocka_unit_test(tlv_find_takes_the_one_of_its_type),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
