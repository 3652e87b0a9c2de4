/* The UPDATE command (firmware/update.c, docs/PROTOCOL.md UPDATE) and the
 * bootloader's install (lib/src/update.c, docs/SECURITY.md "Updates")
 * against the survivors of the mutants drawn by rule (docs/RELIABILITY.md,
 * "Mutants drawn by rule"): each test names the mutant it kills. The
 * console runs UPDATE on a simulated flash: this file's
 * fd_update_platform_get replaces firmware/update.c's weak one (the host
 * image has no bootloader). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dealer.h"
#include "fairdeal/update.h"
#include "image_tool.h"
#include "lms_sign.h"
#include "protocol.h"
#include "test_dealer_config.h"
#include "update.h"

#define PAGE 256u
#define A_PAGES 20u
#define B_PAGES 20u
#define FLASH ((A_PAGES + B_PAGES) * PAGE)
#define LOAD 0x4200u
#define BODY 1202u
#define IMAGE_MAX (A_PAGES * PAGE)

/* ---- the simulated flash: slot A, then slot B ---- */

static _Alignas(4) uint8_t flash[FLASH];
static unsigned erases[FLASH / PAGE]; /* erases of each page */
static long ops;                      /* erases and programs so far */
static long fail_at = -1;             /* the op that fails (the flash reports an error; power stays) */
static long failed_op = -1;

static fd_status sim_erase(void *ctx, const uint8_t *page)
{
    (void)ctx;
    const size_t off = (size_t)(page - flash);
    assert_true(off < FLASH && off % PAGE == 0u);
    if (ops++ == fail_at) {
        failed_op = ops - 1;
        return FD_ERR_STATE;
    }
    memset(flash + off, 0xFF, PAGE);
    erases[off / PAGE]++;
    return FD_OK;
}

static fd_status sim_program(void *ctx, const uint8_t *at, uint32_t w)
{
    (void)ctx;
    const size_t off = (size_t)(at - flash);
    assert_true(off < FLASH && off % 4u == 0u);
    if (ops++ == fail_at) {
        failed_op = ops - 1;
        return FD_ERR_STATE;
    }
    uint32_t was;
    memcpy(&was, flash + off, 4);
    assert_int_equal(was, FD_UPDATE_ERASED);
    memcpy(flash + off, &w, 4);
    return FD_OK;
}

static const fd_update_flash sim = {
    .slot_a = flash,
    .slot_b = flash + A_PAGES * PAGE,
    .slot_a_size = A_PAGES * PAGE,
    .slot_b_size = B_PAGES * PAGE,
    .page_size = PAGE,
    .ctx = NULL,
    .erase = sim_erase,
    .program = sim_program,
};

static uint8_t pub[FD_HSS_PUB_SIZE];

fd_status fd_update_platform_get(fd_update_platform *p, const char **why)
{
    (void)why;
    memset(p, 0, sizeof *p);
    p->flash = sim;
    p->check = fd_update_check;
    p->key = pub;
    p->load_addr = LOAD;
    return FD_OK;
}

/* ---- the console ---- */

static fake_trng trng;
static fd_dealer dealer;
static fd_console console;
static capture out;

static void capture_write(void *ctx, const char *data, size_t len)
{
    capture *c = ctx;
    assert_true(capture_append(c, data, len));
}

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

/* One command line; its reply without CR LF. */
static const char *cmd(const char *line)
{
    out.len = 0;
    out.text[0] = '\0';
    fd_console_command(&console, line, strlen(line));
    assert_true(out.len >= 2u && strcmp(out.text + out.len - 2u, "\r\n") == 0);
    out.text[out.len - 2u] = '\0';
    return out.text;
}

/* "UPDATE DATA <offset> <hex of len bytes of image from offset>". */
static const char *data(const uint8_t *image, uint32_t offset, size_t len)
{
    char line[FD_CONSOLE_MAX_LINE + 1u];
    int n = snprintf(line, sizeof line, "UPDATE DATA %u ", (unsigned)offset);
    assert_true(n > 0 && (size_t)n + 2u * len < sizeof line);
    for (size_t i = 0; i < len; i++) {
        n += snprintf(line + n, sizeof line - (size_t)n, "%02x", image[offset + i]);
    }
    return cmd(line);
}

static uint8_t image[IMAGE_MAX]; /* any bytes: UPDATE DATA does not check them */

static int setup_console(void **state)
{
    (void)state;
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 5);
    const fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK);
    fd_console_init(&console, &dealer, capture_write, &out, false, false);
    memset(flash, 0xFF, sizeof flash);
    for (size_t i = 0; i < sizeof image; i++) {
        image[i] = (uint8_t)(i * 13u + 7u);
    }
    return 0;
}

#define USAGE "ERR syntax usage: UPDATE BEGIN <bytes>|DATA <offset> <hex>|END"

/* update.c parse_u32: "v * 10u" with "/" (1202 read as 2), and
 * "< '0' || > '9'" with && (any byte taken as a digit: "12x4" read as
 * 1924). docs/PROTOCOL.md UPDATE: sizes and offsets are decimal. */
static void test_update_numbers_are_decimal(void **state)
{
    (void)state;
    assert_string_equal(cmd("UPDATE BEGIN 1202"), "OK UPDATE BEGIN size=1202 chunk=60");
    assert_string_equal(data(image, 0, 60), "OK UPDATE DATA next=60");
    assert_string_equal(data(image, 60, 60), "OK UPDATE DATA next=120");
    static const char *const bad[] = {
        "UPDATE BEGIN 12x4",       "UPDATE BEGIN x",           "UPDATE BEGIN 1202:",
        "UPDATE BEGIN 4294967296", "UPDATE DATA 12O 00000000", "UPDATE DATA 1 2 3",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *r = cmd(bad[i]);
        if (strcmp(r, USAGE) != 0) {
            fail_msg("%s: %s", bad[i], r);
        }
    }
    /* the transfer goes on */
    assert_string_equal(data(image, 120, 60), "OK UPDATE DATA next=180");
}

/* Send image[from, to) in chunks of 60 bytes; each must be taken. */
static void send(uint32_t from, uint32_t to)
{
    char want[64];
    for (uint32_t off = from; off < to; off += 60u) {
        const uint32_t n = to - off < 60u ? to - off : 60u;
        (void)snprintf(want, sizeof want, "OK UPDATE DATA next=%u", (unsigned)(off + n));
        assert_string_equal(data(image, off, n), want);
    }
}

/* update.c refuse: "fd_put_u32(w, n)" deleted (every refusal's number
 * lost). docs/PROTOCOL.md UPDATE: "ERR range image size 512 to <max>",
 * "ERR range next offset <n>", "ERR range past the size <bytes>". */
static void test_update_refusals_give_their_numbers(void **state)
{
    (void)state;
    assert_string_equal(cmd("UPDATE BEGIN 100"), "ERR range image size 512 to 5112");
    assert_string_equal(cmd("UPDATE BEGIN 5113"), "ERR range image size 512 to 5112");
    assert_string_equal(cmd("UPDATE BEGIN 590"), "OK UPDATE BEGIN size=590 chunk=60");
    send(0, 60);
    assert_string_equal(data(image, 0, 60), "ERR range next offset 60");
    assert_string_equal(data(image, 120, 60), "ERR range next offset 60");
    send(60, 540);
    assert_string_equal(data(image, 540, 60), "ERR range past the size 590");
    send(540, 590);
}

/* update.c cmd_data: "len == 0u" with 1u (a one-byte chunk refused as bad
 * syntax), and "else if (st == FD_ERR_PARSE)" made 0 (a chunk of part of a
 * word reported as a failed flash write). docs/PROTOCOL.md UPDATE: chunks
 * are whole words except the last; a part-word chunk before the last is
 * "ERR syntax chunks of whole words", changing nothing. */
static void test_update_part_words_only_at_the_end(void **state)
{
    (void)state;
    static uint8_t before[FLASH];
    assert_string_equal(cmd("UPDATE BEGIN 513"), "OK UPDATE BEGIN size=513 chunk=60");
    send(0, 60);
    memcpy(before, flash, sizeof flash);
    assert_string_equal(data(image, 60, 1), "ERR syntax chunks of whole words");
    assert_string_equal(data(image, 60, 6), "ERR syntax chunks of whole words");
    assert_string_equal(data(image, 60, 59), "ERR syntax chunks of whole words");
    assert_memory_equal(before, flash, sizeof flash);
    send(60, 512);
    assert_string_equal(data(image, 512, 1), "OK UPDATE DATA next=513"); /* the last byte: a chunk of its own */
    assert_memory_equal(flash + A_PAGES * PAGE, image, 513);
}

/* ---- the bootloader's install ---- */

static uint8_t signed_image[IMAGE_MAX];
static size_t signed_len;

static void make_key(fd_lms_key *k)
{
    memset(k, 0, sizeof *k);
    k->levels = 1;
    k->lms_type[0] = FD_LMS_SHA256_M32_H5;
    k->ots_type[0] = FD_LMOTS_SHA256_N32_W4;
    memset(k->I, 0x11, sizeof k->I);
    memset(k->seed, 0x12, sizeof k->seed);
}

/* A signed image of BODY bytes, version 2, for LOAD. */
static void sign_image(void)
{
    static uint8_t body[BODY];
    for (size_t i = 0; i < sizeof body; i++) {
        body[i] = (uint8_t)(i * 7u + 2u);
    }
    fd_lms_key k;
    make_key(&k);
    assert_int_equal(fd_lms_key_public(&k, pub), FD_OK);
    const fd_image_header h = {.body_size = BODY, .version = 2u, .load_addr = LOAD};
    uint8_t digest[FD_SHA256_SIZE];
    fd_image_digest(&h, body, digest);
    static uint8_t sig[FD_LMS_SIGN_MAX_SIG];
    size_t sig_len = 0;
    assert_int_equal(fd_lms_sign_index(&k, 0, digest, sizeof digest, sig, sizeof sig, &sig_len), FD_OK);
    memset(signed_image, 0xFF, sizeof signed_image);
    assert_int_equal(fd_image_assemble(&h, body, pub, sig, sig_len, signed_image, sizeof signed_image, &signed_len),
                     FD_OK);
}

/* Slot A: an old image's bytes; slot B: the signed image, pending. */
static void pending_update(void)
{
    memset(flash, 0xFF, sizeof flash);
    memset(flash, 0x5A, A_PAGES * PAGE - 100u);
    memcpy(flash + A_PAGES * PAGE, signed_image, signed_len);
    const uint32_t pending = FD_UPDATE_PENDING;
    memcpy(flash + FLASH - 8u, &pending, 4);
    assert_true(fd_update_pending(&sim));
    memset(erases, 0, sizeof erases);
    ops = 0;
    fail_at = -1;
    failed_op = -1;
}

/* lib/src/update.c fd_update_install: "page < f->slot_a_size" with <= (one
 * page past slot A erased: here slot B's first, the image being installed).
 * docs/SECURITY.md "Updates": the install writes slot A, every page of it
 * once, and nothing else. */
static void test_install_erases_slot_a_only(void **state)
{
    (void)state;
    sign_image();
    pending_update();
    const char *why = NULL;
    assert_int_equal(fd_update_install(&sim, pub, 1u, LOAD, &why), FD_OK);
    for (unsigned p = 0; p < FLASH / PAGE; p++) {
        if (erases[p] != (p < A_PAGES ? 1u : 0u)) {
            fail_msg("page %u (slot %c) erased %u times", p, p < A_PAGES ? 'A' : 'B', erases[p]);
        }
    }
    assert_memory_equal(flash, signed_image, signed_len);
    assert_memory_equal(flash + A_PAGES * PAGE, signed_image, signed_len); /* slot B as it was */
    assert_true(fd_update_pending(&sim));                                  /* until fd_update_done */
    fd_image_info info;
    assert_int_equal(fd_image_check(flash, A_PAGES * PAGE, pub, 1u, &info, &why), FD_OK);
}

/* lib/src/update.c fd_update_install: a failed program's status ignored
 * (FD_OK: the bootloader goes on as if slot A were written). A flash error
 * at any erase or program of the install (power on): the install stops
 * there and reports it, with its reason. */
static void test_install_reports_a_failed_program(void **state)
{
    (void)state;
    sign_image();
    pending_update();
    const char *why = NULL;
    assert_int_equal(fd_update_install(&sim, pub, 1u, LOAD, &why), FD_OK);
    const long total = ops;
    long reported = 0;
    for (long k = 0; k < total; k++) {
        pending_update();
        fail_at = k;
        why = NULL;
        const fd_status st = fd_update_install(&sim, pub, 1u, LOAD, &why);
        assert_int_equal(failed_op, k);
        if (st != FD_ERR_STATE) {
            fail_msg("the flash failed at op %ld of %ld: install returned %d", k, total, (int)st);
        }
        assert_string_equal(why, "flash error while writing slot A");
        assert_int_equal(ops, k + 1); /* nothing after the failure */
        reported++;
    }
    print_message("install: a flash error at each of its %ld ops reported\n", reported);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_update_numbers_are_decimal),
        cmocka_unit_test(test_update_refusals_give_their_numbers),
        cmocka_unit_test(test_update_part_words_only_at_the_end),
        cmocka_unit_test(test_install_erases_slot_a_only),
        cmocka_unit_test(test_install_reports_a_failed_program),
    };
    return cmocka_run_group_tests(tests, setup_console, NULL);
}
