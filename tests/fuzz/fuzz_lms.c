/* libFuzzer target: LMS/HSS verification (lib/src/lms.c) on hostile input.
 * Mode 0 takes the input as an HSS public key (60 bytes) and a signature;
 * mode 1 edits RFC 8554 Appendix F's test cases (key, signature, message:
 * bytes changed, the signature cut or extended). Invariants: no crash or
 * out-of-bounds read (ASan); a parsed layout points inside the buffers with
 * each q below 2^h and the levels back to back; the verdict does not
 * depend on how the message is split; and an edited test case verifies
 * only when the edits left it unchanged. */
#include <stdbool.h>
#include <string.h>

#include "fairdeal/lms.h"
#include "fuzz_support.h"
#include "lms_vectors.h"

static uint8_t pub[FD_HSS_PUB_SIZE];
static uint8_t sig[8192];
static uint8_t msg[256];

static void check_layout(const uint8_t *p, const uint8_t *s, size_t s_len)
{
    fd_hss_layout lay;
    if (fd_hss_parse(p, FD_HSS_PUB_SIZE, s, s_len, &lay) != FD_OK) {
        return;
    }
    FUZZ_CHECK(lay.levels >= 1u && lay.levels <= FD_HSS_MAX_LEVELS);
    const uint8_t *end = s + s_len;
    const uint8_t *next = s + 4;
    for (uint32_t i = 0; i < lay.levels; i++) {
        const fd_lms_level *lv = &lay.level[i];
        FUZZ_CHECK(lv->h >= 5u && lv->h <= 25u && lv->q < (1u << lv->h));
        FUZZ_CHECK(lv->sig == next);
        next += FD_LMS_SIG_SIZE((size_t)lv->ots->p, (size_t)lv->h);
        FUZZ_CHECK(next <= end);
        if (i == 0u) {
            FUZZ_CHECK(lv->pub == p + 4);
        } else {
            FUZZ_CHECK(lv->pub == next - FD_LMS_SIG_SIZE((size_t)lv->ots->p, (size_t)lv->h) - FD_LMS_PUB_SIZE);
        }
        if (i + 1u < lay.levels) {
            next += FD_LMS_PUB_SIZE;
        }
    }
    FUZZ_CHECK(next == end);
}

static fd_status verify_split(const uint8_t *p, const uint8_t *s, size_t s_len, const uint8_t *m, size_t m_len,
                              size_t cut)
{
    fd_hss_verify_ctx ctx;
    fd_status st = fd_hss_verify_init(&ctx, p, FD_HSS_PUB_SIZE, s, s_len);
    if (st != FD_OK) {
        return st;
    }
    FUZZ_CHECK(fd_hss_verify_update(&ctx, m, cut) == FD_OK);
    FUZZ_CHECK(fd_hss_verify_update(&ctx, m + cut, m_len - cut) == FD_OK);
    return fd_hss_verify_final(&ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size, 0};
    const uint8_t mode = fuzz_u8(&in) & 1u;
    size_t sig_len;
    size_t msg_len;
    bool unchanged = true;
    if (mode == 0u) {
        for (size_t i = 0; i < sizeof pub; i++) {
            pub[i] = fuzz_u8(&in);
        }
        sig_len = in.pos < size ? size - in.pos : 0u;
        if (sig_len > sizeof sig) {
            sig_len = sizeof sig;
        }
        memcpy(sig, data + in.pos, sig_len);
        memcpy(msg, "fairdeal", 8);
        msg_len = 8;
        unchanged = false;
    } else {
        const bool two = (fuzz_u8(&in) & 1u) != 0u;
        const uint8_t *kp = two ? rfc8554_tc2_pub : rfc8554_tc1_pub;
        const uint8_t *ks = two ? rfc8554_tc2_sig : rfc8554_tc1_sig;
        const size_t ks_len = two ? sizeof rfc8554_tc2_sig : sizeof rfc8554_tc1_sig;
        memcpy(msg, two ? rfc8554_tc2_msg : rfc8554_tc1_msg, two ? sizeof rfc8554_tc2_msg : sizeof rfc8554_tc1_msg);
        msg_len = two ? sizeof rfc8554_tc2_msg : sizeof rfc8554_tc1_msg;
        memcpy(pub, kp, sizeof pub);
        memcpy(sig, ks, ks_len);
        sig_len = ks_len;
        /* a length change: cut (negative) or extend with zeros */
        const int8_t delta = (int8_t)fuzz_u8(&in);
        if (delta < 0 && (size_t)(-delta) <= sig_len) {
            sig_len -= (size_t)(-delta);
            unchanged = false;
        } else if (delta > 0) {
            memset(sig + sig_len, 0, (size_t)delta);
            sig_len += (size_t)delta;
            unchanged = false;
        }
        /* edits: (where: 0 key, 1 signature, 2 message; offset; xor) */
        const uint8_t edits = fuzz_u8(&in) % 8u;
        for (uint8_t e = 0; e < edits; e++) {
            const uint8_t where = fuzz_u8(&in) % 3u;
            const uint16_t off = fuzz_u16(&in);
            const uint8_t x = fuzz_u8(&in);
            uint8_t *buf = where == 0u ? pub : where == 1u ? sig : msg;
            const size_t len = where == 0u ? sizeof pub : where == 1u ? sig_len : msg_len;
            if (len > 0u) {
                buf[off % len] ^= x;
            }
        }
        if (memcmp(pub, kp, sizeof pub) != 0 || (sig_len <= ks_len && memcmp(sig, ks, sig_len) != 0) ||
            memcmp(msg, two ? rfc8554_tc2_msg : rfc8554_tc1_msg, msg_len) != 0) {
            unchanged = false;
        }
    }
    check_layout(pub, sig, sig_len);
    const fd_status whole = fd_hss_verify(pub, sizeof pub, msg, msg_len, sig, sig_len);
    FUZZ_CHECK(whole == FD_OK || whole == FD_ERR_PARSE || whole == FD_ERR_SIGNATURE);
    FUZZ_CHECK(verify_split(pub, sig, sig_len, msg, msg_len, msg_len / 3u) == whole);
    if (mode == 1u) {
        FUZZ_CHECK((whole == FD_OK) == unchanged);
    }
    return 0;
}
