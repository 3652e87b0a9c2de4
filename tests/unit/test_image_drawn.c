/* The image trailer's TLV walker (lib/src/image.c, fairdeal/image.h)
 * against the survivors of the mutants drawn by rule (docs/RELIABILITY.md,
 * "Mutants drawn by rule"): each test names the mutant it kills. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/image.h"

/* fairdeal/image.h: a TLV that "runs past the area" is FD_ERR_PARSE. An area
 * whose info is followed by 1 to 3 bytes (less than a TLV head) ends in a
 * truncated head; the bytes after the area (inside buf, so the walker reads
 * nothing outside memory) must not be taken for the rest of the head.
 * Kills image.c '*pos > area_len || area_len - *pos < FD_IMAGE_TLV_HEAD_SIZE'
 * to && (the walker returned FD_OK with a TLV pointing past the area). */
static void test_tlv_next_truncated_head(void **state)
{
    (void)state;
    for (size_t extra = 1; extra < FD_IMAGE_TLV_HEAD_SIZE; extra++) {
        uint8_t buf[64];
        memset(buf, 0, sizeof buf);
        const size_t area_len = FD_IMAGE_TLV_INFO_SIZE + extra;
        fd_image_tlv_head_encode(buf, FD_IMAGE_TLV_MAGIC, (uint16_t)area_len);
        size_t pos = 0;
        fd_image_tlv tlv;
        assert_int_equal(fd_image_tlv_next(buf, area_len, &pos, &tlv), FD_ERR_PARSE);
    }
}

/* A position past the area (a caller's stale *pos) is refused, not read
 * from: FD_ERR_PARSE, never a TLV. Kills the same mutant (area_len - *pos
 * wraps to a large size_t, so the && form let the walker read). */
static void test_tlv_next_pos_past_area(void **state)
{
    (void)state;
    uint8_t buf[64];
    memset(buf, 0, sizeof buf);
    const size_t area_len = FD_IMAGE_TLV_INFO_SIZE + FD_IMAGE_TLV_HEAD_SIZE;
    fd_image_tlv_head_encode(buf, FD_IMAGE_TLV_MAGIC, (uint16_t)area_len);
    fd_image_tlv_head_encode(buf + FD_IMAGE_TLV_INFO_SIZE, FD_IMAGE_TLV_SHA256, 0);
    size_t pos = 0;
    fd_image_tlv tlv;
    /* the control: the one empty TLV, then the end */
    assert_int_equal(fd_image_tlv_next(buf, area_len, &pos, &tlv), FD_OK);
    assert_int_equal(tlv.type, FD_IMAGE_TLV_SHA256);
    assert_int_equal(tlv.len, 0);
    assert_int_equal(pos, area_len);
    assert_int_equal(fd_image_tlv_next(buf, area_len, &pos, &tlv), FD_ERR_EXHAUSTED);
    for (size_t past = 1; past <= 8u; past++) {
        pos = area_len + past;
        assert_int_equal(fd_image_tlv_next(buf, area_len, &pos, &tlv), FD_ERR_PARSE);
        assert_int_equal(pos, area_len + past);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tlv_next_truncated_head),
        cmocka_unit_test(test_tlv_next_pos_past_area),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
