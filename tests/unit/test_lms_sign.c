/* fairdeal-tool's LMS/HSS signer (tools/lms_sign.c), host only: RFC 8554
 * Appendix F Test Case 2's private key reproduces its public keys and
 * signatures; every parameter set signs what lib/ verifies; the state file
 * is advanced durably before a signature exists (write, fsync, rename and
 * directory fsync failures injected: no signature, no index released
 * twice); racing signers never share an index; exhaustion and a corrupted
 * state file are refused. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fairdeal/lms.h"
#include "fairdeal/sha256.h"
#include "fairdeal/util.h"
#include "lms_sign.h"
#include "lms_vectors.h"
#include "stack_probe.h"

static void unhex(const char *hex, uint8_t *out, size_t len)
{
    size_t got = 0;
    assert_int_equal(fd_hex_decode(hex, strlen(hex), out, len, &got), FD_OK);
    assert_int_equal(got, len);
}

static char g_dir[64];
static char g_path[128];

static int setup(void **state)
{
    (void)state;
    strcpy(g_dir, "/tmp/fd_lms_sign_XXXXXX");
    assert_non_null(mkdtemp(g_dir));
    snprintf(g_path, sizeof g_path, "%s/key", g_dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Appendix F Test Case 2: the private values give the published keys, and
 * (with C derived from SEED as tools/lms_sign.c does, the convention of the
 * RFC authors' implementation) the published signatures, byte for byte. */
static void test_appendix_f_private_key(void **state)
{
    (void)state;
    fd_hss_layout lay;
    assert_int_equal(fd_hss_parse(rfc8554_tc2_pub, FD_HSS_PUB_SIZE, rfc8554_tc2_sig, sizeof rfc8554_tc2_sig, &lay),
                     FD_OK);
    uint8_t seed[FD_LMS_N];
    uint8_t I[FD_LMS_I_SIZE];
    uint8_t root[FD_LMS_N];
    static uint8_t sig[FD_LMS_SIG_SIZE(FD_LMOTS_P_W4, 10u)];

    unhex(rfc8554_tc2_child_seed, seed, sizeof seed);
    unhex(rfc8554_tc2_child_i, I, sizeof I);
    assert_memory_equal(I, lay.level[1].pub + 8, FD_LMS_I_SIZE);
    assert_int_equal(fd_lms_tree(FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W8, I, seed, 0, root, NULL), FD_OK);
    assert_memory_equal(root, lay.level[1].pub + 24, FD_LMS_N);
    assert_int_equal(fd_lms_sign_leaf(FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W8, I, seed, 4, rfc8554_tc2_msg,
                                      sizeof rfc8554_tc2_msg, sig),
                     FD_OK);
    assert_memory_equal(sig, lay.level[1].sig, FD_LMS_SIG_SIZE(FD_LMOTS_P_W8, 5u));

    unhex(rfc8554_tc2_top_seed, seed, sizeof seed);
    unhex(rfc8554_tc2_top_i, I, sizeof I);
    assert_int_equal(fd_lms_tree(FD_LMS_SHA256_M32_H10, FD_LMOTS_SHA256_N32_W4, I, seed, 0, root, NULL), FD_OK);
    assert_memory_equal(root, rfc8554_tc2_pub + 28, FD_LMS_N);
    assert_int_equal(fd_lms_sign_leaf(FD_LMS_SHA256_M32_H10, FD_LMOTS_SHA256_N32_W4, I, seed, 3, lay.level[1].pub,
                                      FD_LMS_PUB_SIZE, sig),
                     FD_OK);
    assert_memory_equal(sig, lay.level[0].sig, sizeof sig);
}

static fd_lms_key make_key(uint32_t levels, uint32_t h0, uint32_t w0, uint32_t h1, uint32_t w1)
{
    fd_lms_key k;
    memset(&k, 0, sizeof k);
    k.levels = levels;
    k.lms_type[0] = h0;
    k.ots_type[0] = w0;
    k.lms_type[1] = h1;
    k.ots_type[1] = w1;
    for (unsigned i = 0; i < sizeof k.seed; i++) {
        k.seed[i] = (uint8_t)(i * 7u + levels + h0 + w0);
    }
    memset(k.I, 0x5a, sizeof k.I);
    return k;
}

/* Every parameter set the signer offers signs what the verifier accepts,
 * at the first, a middle and the last index; one flipped bit is refused. */
static void test_every_set_round_trips(void **state)
{
    (void)state;
    static const uint32_t sets[][4] = {
        {FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W1, 0, 0},
        {FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W2, 0, 0},
        {FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W4, 0, 0},
        {FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W8, 0, 0},
        {FD_LMS_SHA256_M32_H10, FD_LMOTS_SHA256_N32_W4, 0, 0},
        {FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W4, FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W8},
    };
    static uint8_t sig[FD_LMS_SIGN_MAX_SIG];
    static const uint8_t msg[] = "fairdeal image";
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        const fd_lms_key k = make_key(sets[s][2] == 0u ? 1u : 2u, sets[s][0], sets[s][1], sets[s][2], sets[s][3]);
        uint8_t pub[FD_HSS_PUB_SIZE];
        assert_int_equal(fd_lms_key_public(&k, pub), FD_OK);
        const uint64_t cap = fd_lms_key_capacity(&k);
        const uint64_t idx[] = {0, cap / 2u + 1u, cap - 1u};
        for (size_t i = 0; i < 3u; i++) {
            size_t len = 0;
            assert_int_equal(fd_lms_sign_index(&k, idx[i], msg, sizeof msg, sig, sizeof sig, &len), FD_OK);
            assert_int_equal(fd_hss_verify(pub, sizeof pub, msg, sizeof msg, sig, len), FD_OK);
            fd_hss_layout lay;
            assert_int_equal(fd_hss_parse(pub, sizeof pub, sig, len, &lay), FD_OK);
            assert_int_equal(lay.level[lay.levels - 1u].q, idx[i] & ((1u << lay.level[lay.levels - 1u].h) - 1u));
            sig[len - 1u] ^= 0x01u;
            assert_int_equal(fd_hss_verify(pub, sizeof pub, msg, sizeof msg, sig, len), FD_ERR_SIGNATURE);
        }
        size_t len = 0;
        assert_int_equal(fd_lms_sign_index(&k, cap, msg, sizeof msg, sig, sizeof sig, &len), FD_ERR_EXHAUSTED);
    }
}

/* Appendix A's randomizer C_0 of leaf q, as a verifier-cost oracle. */
static void c0_of(const fd_lms_key *k, uint32_t q, uint8_t C[FD_LMS_N])
{
    uint8_t buf[FD_LMS_I_SIZE + 7u + FD_LMS_N];
    memcpy(buf, k->I, FD_LMS_I_SIZE);
    fd_lms_put32(buf + FD_LMS_I_SIZE, q);
    buf[FD_LMS_I_SIZE + 4u] = 0xffu;
    buf[FD_LMS_I_SIZE + 5u] = 0xfdu;
    buf[FD_LMS_I_SIZE + 6u] = 0xffu;
    memcpy(buf + FD_LMS_I_SIZE + 7u, k->seed, FD_LMS_N);
    fd_sha256(buf, sizeof buf, C);
}

static uint32_t steps_for(const fd_lmots_params *ots, const uint8_t I[FD_LMS_I_SIZE], uint32_t q,
                          const uint8_t C[FD_LMS_N], const uint8_t *msg, size_t len)
{
    fd_sha256_ctx m;
    fd_lmots_msg_init(&m, I, q, C);
    fd_sha256_update(&m, msg, len);
    uint8_t digest[FD_LMS_N];
    fd_sha256_final(&m, digest);
    uint8_t digits[FD_LMOTS_P_W1];
    fd_lmots_digits(ots, digest, digits);
    return fd_lmots_steps(ots, digits);
}

/* Every signature costs a verifier at most fd_lmots_steps_cap chain steps:
 * where Appendix A's C_0 would cost more, the signer takes a later
 * randomizer, and the signature still verifies. Over 512 leaf/message
 * pairs at least one such C_0 occurs (the retry path runs), and C_0 is
 * kept wherever it is within the cap (Appendix F's signatures above). */
static void test_signatures_within_step_cap(void **state)
{
    (void)state;
    const fd_lms_key k = make_key(1, FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W4, 0, 0);
    const fd_lmots_params *ots = fd_lmots_params_of(FD_LMOTS_SHA256_N32_W4);
    const uint32_t cap = fd_lmots_steps_cap(ots);
    assert_int_equal(cap, 552u); /* 11/20 of 67 chains x 15 steps */
    uint8_t pub[FD_HSS_PUB_SIZE];
    assert_int_equal(fd_lms_key_public(&k, pub), FD_OK);
    static uint8_t sig[FD_LMS_SIGN_MAX_SIG];
    unsigned retried = 0;
    for (uint32_t n = 0; n < 512u; n++) {
        const uint32_t q = n % 32u;
        const uint8_t msg[4] = {(uint8_t)n, (uint8_t)(n >> 8), 0x5a, 0xa5};
        size_t len = 0;
        assert_int_equal(fd_lms_sign_index(&k, q, msg, sizeof msg, sig, sizeof sig, &len), FD_OK);
        assert_int_equal(fd_hss_verify(pub, sizeof pub, msg, sizeof msg, sig, len), FD_OK);
        fd_hss_layout lay;
        assert_int_equal(fd_hss_parse(pub, sizeof pub, sig, len, &lay), FD_OK);
        const uint8_t *C = lay.level[0].sig + 8;
        assert_true(steps_for(ots, k.I, q, C, msg, sizeof msg) <= cap);
        uint8_t c0[FD_LMS_N];
        c0_of(&k, q, c0);
        if (steps_for(ots, k.I, q, c0, msg, sizeof msg) > cap) {
            retried++;
            assert_memory_not_equal(C, c0, FD_LMS_N);
        } else {
            assert_memory_equal(C, c0, FD_LMS_N);
        }
    }
    assert_true(retried > 0u);
}

/* The cap as the signer sees it (linked with --wrap=fd_lmots_steps_cap):
 * 0 for LM-OTS width g_cap_zero_w, so no randomizer is within it. */
static uint32_t g_cap_zero_w;
uint32_t __real_fd_lmots_steps_cap(const fd_lmots_params *ots);
uint32_t __wrap_fd_lmots_steps_cap(const fd_lmots_params *ots);
uint32_t __wrap_fd_lmots_steps_cap(const fd_lmots_params *ots)
{
    return g_cap_zero_w != 0u && ots->w == g_cap_zero_w ? 0u : __real_fd_lmots_steps_cap(ots);
}

/* A signer that finds no randomizer within the cap gives up
 * (FD_ERR_SIGNATURE, lms_sign.h) and returns no signature, whichever level
 * of a two-level key it is signing and on one level; the same key signs
 * once the cap is the real one. */
static void test_no_randomizer_within_the_cap_gives_no_signature(void **state)
{
    (void)state;
    static uint8_t sig[FD_LMS_SIGN_MAX_SIG];
    static const uint8_t msg[] = "fairdeal image";
    const fd_lms_key two =
        make_key(2, FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W8, FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W4);
    const fd_lms_key one = make_key(1, FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W4, 0, 0);
    const struct {
        const fd_lms_key *key;
        uint32_t w;
    } cases[] = {{&two, 8u}, {&two, 4u}, {&one, 4u}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        g_cap_zero_w = cases[c].w;
        size_t len = 1;
        assert_int_equal(fd_lms_sign_index(cases[c].key, 3, msg, sizeof msg, sig, sizeof sig, &len), FD_ERR_SIGNATURE);
        assert_int_equal(len, 0u);
        g_cap_zero_w = 0;
        uint8_t pub[FD_HSS_PUB_SIZE];
        assert_int_equal(fd_lms_key_public(cases[c].key, pub), FD_OK);
        assert_int_equal(fd_lms_sign_index(cases[c].key, 3, msg, sizeof msg, sig, sizeof sig, &len), FD_OK);
        assert_int_equal(fd_hss_verify(pub, sizeof pub, msg, sizeof msg, sig, len), FD_OK);
    }
}

static void test_state_codec(void **state)
{
    (void)state;
    fd_lms_key k =
        make_key(2, FD_LMS_SHA256_M32_H10, FD_LMOTS_SHA256_N32_W4, FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W8);
    k.next = 0x123456789aULL;
    uint8_t buf[FD_LMS_STATE_SIZE];
    fd_lms_key_encode(&k, buf);
    fd_lms_key back;
    assert_int_equal(fd_lms_key_decode(buf, &back), FD_OK);
    assert_memory_equal(&back, &k, sizeof k);
    for (size_t i = 0; i < sizeof buf; i += 5u) {
        buf[i] ^= 0x10u;
        assert_int_equal(fd_lms_key_decode(buf, &back), FD_ERR_CORRUPT);
        buf[i] ^= 0x10u;
    }
    k.levels = 3;
    fd_lms_key_encode(&k, buf);
    assert_int_equal(fd_lms_key_decode(buf, &back), FD_ERR_PARSE);
    k.levels = 1;
    k.lms_type[0] = FD_LMS_SHA256_M32_H20; /* verifiable, but not built by this signer */
    fd_lms_key_encode(&k, buf);
    assert_int_equal(fd_lms_key_decode(buf, &back), FD_ERR_PARSE);
}

/* H(I || u32str(t) || u16str(d) || u8str(0xff) || SEED), lms_sign.h's child derivation. */
static void child_hash(const fd_lms_key *k, uint32_t t, uint16_t d, uint8_t out[32])
{
    uint8_t b[FD_LMS_I_SIZE + 7u + FD_LMS_N];
    memcpy(b, k->I, FD_LMS_I_SIZE);
    fd_lms_put32(b + FD_LMS_I_SIZE, t);
    b[FD_LMS_I_SIZE + 4u] = (uint8_t)(d >> 8);
    b[FD_LMS_I_SIZE + 5u] = (uint8_t)d;
    b[FD_LMS_I_SIZE + 6u] = 0xffu;
    memcpy(b + FD_LMS_I_SIZE + 7u, k->seed, FD_LMS_N);
    fd_sha256(b, sizeof b, out);
}

/* lms_sign.h: a two-level key's child tree under top leaf t takes its I
 * from the domain 0xffff and its SEED from 0xfffe, so the public I (in
 * every signature) tells nothing of the child's SEED. The child public
 * key each signature carries has that I, for leaves 0 and 1 of the top
 * tree, and it is not the head of the child SEED's derivation. Kills
 * tools/lms_sign.c "#define D_CHILD_I 0xffffu" as 0xfffe (the child's I
 * the first half of its SEED, published). */
static void test_child_tree_identifier_is_apart_from_its_seed(void **state)
{
    (void)state;
    const fd_lms_key k =
        make_key(2, FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W8, FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W8);
    const size_t top_sig = FD_LMS_SIG_SIZE((size_t)fd_lmots_params_of(k.ots_type[0])->p, 5u);
    static uint8_t sig[FD_LMS_SIGN_MAX_SIG];
    static const uint8_t msg[] = "image";
    for (uint32_t t = 0; t < 2u; t++) {
        size_t len = 0;
        assert_int_equal(fd_lms_sign_index(&k, (uint64_t)t << 5, msg, sizeof msg, sig, sizeof sig, &len), FD_OK);
        const uint8_t *child_pub = sig + 4u + top_sig;
        uint8_t want_i[32];
        uint8_t seed_hash[32];
        child_hash(&k, t, 0xffffu, want_i);
        child_hash(&k, t, 0xfffeu, seed_hash);
        assert_memory_equal(child_pub + 8u, want_i, FD_LMS_I_SIZE);
        assert_memory_not_equal(child_pub + 8u, seed_hash, FD_LMS_I_SIZE);
    }
}

/* ---- fault injection ---- */

static int g_fail_write, g_fail_sync_at, g_fail_rename, g_syncs;

static int inj_write(int fd, const void *buf, size_t len)
{
    return g_fail_write ? -1 : fd_lms_io_posix.write_all(fd, buf, len);
}

static int inj_sync(int fd) { return ++g_syncs == g_fail_sync_at ? -1 : fd_lms_io_posix.sync(fd); }

static int inj_rename(const char *a, const char *b) { return g_fail_rename ? -1 : fd_lms_io_posix.rename(a, b); }

static const fd_lms_io INJ = {.write_all = inj_write, .sync = inj_sync, .rename = inj_rename};

/* close(2) through --wrap=close: when armed, the next close in this
 * program (the signer's own calls; libc's fclose is not wrapped) closes the
 * descriptor and reports EIO, as a network file system does for a write it
 * lost after the data left the page cache. */
static int g_fail_close;
int __real_close(int fd);
int __wrap_close(int fd);
int __wrap_close(int fd)
{
    const int r = __real_close(fd);
    if (g_fail_close != 0) {
        g_fail_close = 0;
        errno = EIO;
        return -1;
    }
    return r;
}

static uint64_t next_of(const char *path)
{
    uint8_t buf[FD_LMS_STATE_SIZE];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(buf, 1, sizeof buf, f), sizeof buf);
    fclose(f);
    fd_lms_key k;
    assert_int_equal(fd_lms_key_decode(buf, &k), FD_OK);
    return k.next;
}

static uint32_t q_of(const uint8_t *sig) { return fd_lms_get32(sig + 4); }

static void test_failed_write_gives_no_signature(void **state)
{
    (void)state;
    const fd_lms_key k = make_key(1, FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W8, 0, 0);
    unlink(g_path);
    assert_int_equal(fd_lms_state_create(g_path, &k, &fd_lms_io_posix), FD_OK);
    assert_int_equal(fd_lms_state_create(g_path, &k, &fd_lms_io_posix), FD_ERR_STATE); /* never overwritten */
    static uint8_t sig[FD_LMS_SIGN_MAX_SIG];
    static const uint8_t msg[] = "image";
    size_t len = 1;
    /* write, fsync of the new file, rename: the file keeps its index, nothing is signed */
    for (int fault = 0; fault < 3; fault++) {
        g_fail_write = fault == 0;
        g_fail_sync_at = fault == 1 ? 1 : 0;
        g_fail_rename = fault == 2;
        g_syncs = 0;
        memset(sig, 0xAA, sizeof sig);
        assert_int_equal(fd_lms_sign_file(g_path, &INJ, msg, sizeof msg, sig, sizeof sig, &len), FD_ERR_STATE);
        assert_int_equal(len, 0);
        assert_int_equal(sig[0], 0xAA);
        assert_int_equal(sig[100], 0xAA);
        assert_int_equal(next_of(g_path), 0);
    }
    /* the directory's fsync after the rename: advanced but not known durable: no signature, and
     * the next signer moves on (index 0 is never released) */
    g_fail_write = 0;
    g_fail_rename = 0;
    g_fail_sync_at = 2;
    g_syncs = 0;
    memset(sig, 0xAA, sizeof sig);
    assert_int_equal(fd_lms_sign_file(g_path, &INJ, msg, sizeof msg, sig, sizeof sig, &len), FD_ERR_STATE);
    assert_int_equal(len, 0);
    assert_int_equal(sig[0], 0xAA);
    assert_int_equal(next_of(g_path), 1);
    g_fail_sync_at = 0;
    assert_int_equal(fd_lms_sign_file(g_path, &INJ, msg, sizeof msg, sig, sizeof sig, &len), FD_OK);
    assert_int_equal(q_of(sig), 1);
    assert_int_equal(next_of(g_path), 2);
    /* a temporary file left by a signer that died is not mistaken for the state */
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%s.tmp", g_path);
    FILE *f = fopen(tmp, "wb");
    assert_non_null(f);
    fputs("junk", f);
    fclose(f);
    assert_int_equal(fd_lms_sign_file(g_path, &fd_lms_io_posix, msg, sizeof msg, sig, sizeof sig, &len), FD_OK);
    assert_int_equal(q_of(sig), 2);
    /* a corrupted state file signs nothing */
    f = fopen(g_path, "r+b");
    assert_non_null(f);
    fseek(f, 80, SEEK_SET);
    fputc(0x55, f);
    fclose(f);
    len = 1;
    assert_int_equal(fd_lms_sign_file(g_path, &fd_lms_io_posix, msg, sizeof msg, sig, sizeof sig, &len),
                     FD_ERR_CORRUPT);
    assert_int_equal(len, 0);
}

/* lms_sign.h: any failure on the state update's path yields no
 * signature. The new state file's close failing (the first close of a
 * reservation: the lock stays open, the old file is read with stdio) leaves
 * the state file as it was and signs nothing; the next signer takes the
 * same index. Kills tools/lms_sign.c write_state's "fd >= 0 && close(fd)
 * != 0" forced false (the file renamed over the state and the index
 * released after a close that reported a lost write). */
static void test_failed_close_gives_no_signature(void **state)
{
    (void)state;
    const fd_lms_key k = make_key(1, FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W8, 0, 0);
    unlink(g_path);
    assert_int_equal(fd_lms_state_create(g_path, &k, &fd_lms_io_posix), FD_OK);
    static uint8_t sig[FD_LMS_SIGN_MAX_SIG];
    static const uint8_t msg[] = "image";
    size_t len = 1;
    memset(sig, 0xAA, sizeof sig);
    g_fail_close = 1;
    assert_int_equal(fd_lms_sign_file(g_path, &fd_lms_io_posix, msg, sizeof msg, sig, sizeof sig, &len), FD_ERR_STATE);
    assert_int_equal(g_fail_close, 0); /* the close was made */
    assert_int_equal(len, 0);
    assert_int_equal(sig[0], 0xAA);
    assert_int_equal(next_of(g_path), 0);
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%s.tmp", g_path);
    assert_int_equal(access(tmp, F_OK), -1); /* no temporary file left */
    assert_int_equal(fd_lms_sign_file(g_path, &fd_lms_io_posix, msg, sizeof msg, sig, sizeof sig, &len), FD_OK);
    assert_int_equal(q_of(sig), 0);
    assert_int_equal(next_of(g_path), 1);
}

static void test_exhausted(void **state)
{
    (void)state;
    fd_lms_key k = make_key(1, FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W8, 0, 0);
    k.next = 31;
    unlink(g_path);
    assert_int_equal(fd_lms_state_create(g_path, &k, &fd_lms_io_posix), FD_OK);
    static uint8_t sig[FD_LMS_SIGN_MAX_SIG];
    size_t len = 0;
    assert_int_equal(fd_lms_sign_file(g_path, &fd_lms_io_posix, (const uint8_t *)"x", 1, sig, sizeof sig, &len), FD_OK);
    assert_int_equal(q_of(sig), 31);
    assert_int_equal(fd_lms_sign_file(g_path, &fd_lms_io_posix, (const uint8_t *)"x", 1, sig, sizeof sig, &len),
                     FD_ERR_EXHAUSTED);
    assert_int_equal(len, 0);
    assert_int_equal(next_of(g_path), 32);
}

#if STACK_PROBE_WORKS
static fd_lms_key g_reserved;

/* How many 8-byte windows of the 32-byte seed one reservation leaves below
 * its caller (the probes run in this frame: tests/common/stack_probe.h). */
TEST_NOINLINE static unsigned reserve_leftovers(const uint8_t seed[32], fd_status *st, uint64_t *idx)
{
    unsigned found = 0;
    scrub_stack();
    *st = fd_lms_state_reserve(g_path, &fd_lms_io_posix, &g_reserved, idx);
    for (size_t o = 0; o < 32u; o += 8u) {
        found += (unsigned)stack_holds(seed + o, 8);
    }
    return found;
}

/* docs/RELIABILITY.md "Secrets off the stack": the state file holds the
 * private SEED every one-time key derives from; a reservation reads it
 * into a stack buffer, decodes it into the caller's key and writes the
 * advanced state back, and leaves no 8 bytes of SEED below its caller
 * (the key it fills is the caller's, wiped by the caller). Kills
 * tools/lms_sign.c read_state's "fd_wipe(buf, sizeof buf)" deleted (the
 * file's bytes, SEED among them, left on the stack). */
static void test_reservation_leaves_no_seed_on_the_stack(void **state)
{
    (void)state;
    static fd_lms_key k;
    k = make_key(1, FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W8, 0, 0);
    static uint8_t seed[32];
    memcpy(seed, k.seed, sizeof seed);
    unlink(g_path);
    assert_int_equal(fd_lms_state_create(g_path, &k, &fd_lms_io_posix), FD_OK);
    fd_status st = FD_ERR_STATE;
    uint64_t idx = 99;
    const unsigned found = reserve_leftovers(seed, &st, &idx);
    assert_int_equal(st, FD_OK);
    assert_int_equal(idx, 0);
    assert_memory_equal(g_reserved.seed, seed, sizeof seed);
    if (found != 0u) {
        fail_msg("%u of the seed's 4 windows below the caller after a reservation", found);
    }
    /* the control: a frame that leaves a word behind is found */
    scrub_stack();
    leave_word_behind(0x5eed5eedu);
    assert_true(stack_holds_word(0x5eed5eedu));
    fd_wipe(&g_reserved, sizeof g_reserved);
}
#endif

/* Processes signing at once from one state file: every signature has its
 * own index, and the file counts them all. */
#define RACERS 4
#define PER_RACER 6
static void test_racing_signers(void **state)
{
    (void)state;
    const fd_lms_key k = make_key(1, FD_LMS_SHA256_M32_H5, FD_LMOTS_SHA256_N32_W8, 0, 0);
    unlink(g_path);
    assert_int_equal(fd_lms_state_create(g_path, &k, &fd_lms_io_posix), FD_OK);
    uint8_t pub[FD_HSS_PUB_SIZE];
    assert_int_equal(fd_lms_key_public(&k, pub), FD_OK);
    int fds[RACERS][2];
    pid_t pids[RACERS];
    for (int r = 0; r < RACERS; r++) {
        assert_int_equal(pipe(fds[r]), 0);
        pids[r] = fork();
        assert_true(pids[r] >= 0);
        if (pids[r] == 0) {
            close(fds[r][0]);
            static uint8_t sig[FD_LMS_SIGN_MAX_SIG];
            for (int i = 0; i < PER_RACER; i++) {
                size_t len = 0;
                const uint8_t msg = (uint8_t)(r * PER_RACER + i);
                if (fd_lms_sign_file(g_path, &fd_lms_io_posix, &msg, 1, sig, sizeof sig, &len) != FD_OK ||
                    fd_hss_verify(pub, sizeof pub, &msg, 1, sig, len) != FD_OK) {
                    _exit(3);
                }
                const uint32_t q = q_of(sig);
                if (write(fds[r][1], &q, sizeof q) != (ssize_t)sizeof q) {
                    _exit(4);
                }
            }
            _exit(0);
        }
        close(fds[r][1]);
    }
    uint32_t seen = 0;
    unsigned total = 0;
    for (int r = 0; r < RACERS; r++) {
        uint32_t q;
        while (read(fds[r][0], &q, sizeof q) == (ssize_t)sizeof q) {
            assert_true(q < 32u);
            assert_int_equal(seen & (1u << q), 0); /* no index twice */
            seen |= 1u << q;
            total++;
        }
        close(fds[r][0]);
        int status = 0;
        assert_int_equal(waitpid(pids[r], &status, 0), pids[r]);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    assert_int_equal(total, RACERS * PER_RACER);
    assert_int_equal(seen, (1u << (RACERS * PER_RACER)) - 1u);
    assert_int_equal(next_of(g_path), RACERS * PER_RACER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_appendix_f_private_key),
        cmocka_unit_test(test_every_set_round_trips),
        cmocka_unit_test(test_signatures_within_step_cap),
        cmocka_unit_test(test_no_randomizer_within_the_cap_gives_no_signature),
        cmocka_unit_test(test_state_codec),
        cmocka_unit_test(test_failed_write_gives_no_signature),
        cmocka_unit_test(test_failed_close_gives_no_signature),
        cmocka_unit_test(test_child_tree_identifier_is_apart_from_its_seed),
        cmocka_unit_test(test_exhausted),
        cmocka_unit_test(test_racing_signers),
#if STACK_PROBE_WORKS
        cmocka_unit_test(test_reservation_leaves_no_seed_on_the_stack),
#endif
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
