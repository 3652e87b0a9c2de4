/* Signed updates (fairdeal/update.h, docs/SECURITY.md "Updates") on a
 * simulated NOR flash holding slot A and slot B: a transfer, its check and
 * the pending mark as the dealer runs them, then the bootloader's sequence
 * at reset (bootloader/main.c: install, check slot A, mark done). Power is
 * cut at every erase and program of a whole update, each three ways (the
 * step not done, done in part: a torn word or a half-erased page, done but
 * not reported), and for a quarter of them again during the next boot:
 * after each, a boot without cuts must start a checked image, the new one
 * exactly when the pending mark was written whole (always when the dealer
 * acknowledged the update, never when the cut came before the mark), no
 * word is programmed twice between erases (nWRITE) and none is programmed
 * that was not erased. A bad signature, another key, an older version, a
 * wrong address, a cut-off transfer and malformed chunks never mark an
 * update pending and the old image keeps running. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/update.h"
#include "image_tool.h"
#include "lms_sign.h"

#define PAGE 256u
#define A_PAGES 20u
#define B_PAGES 20u /* as slot A: an image may take all of it but the status record */
#define FLASH ((A_PAGES + B_PAGES) * PAGE)
#define LOAD 0x4200u /* the address images are linked for */
#define OLD_BODY 1900u
#define NEW_BODY 1202u /* not a multiple of 4: the trailer starts aligned after it */
#define CHUNK 56u      /* bytes per UPDATE DATA line (docs/PROTOCOL.md UPDATE) */
#define IMAGE_MAX (A_PAGES * PAGE)

/* ---- the simulated flash ---- */

static _Alignas(4) uint8_t flash[FLASH];
static uint8_t programs[FLASH / 4u]; /* programs of each word since its page's erase */
static uint32_t rng_state = 1u;

static uint32_t rng(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

enum cut_kind {
    CUT_NOT_DONE,
    CUT_TORN,
    CUT_DONE_UNREPORTED,
    CUT_KINDS
};

static long steps;       /* erases and programs so far */
static long cut_at = -1; /* the step that loses power (-1: none) */
static enum cut_kind cut_kind;
static bool powered = true; /* false from the cut on: every op fails */
static long pending_step;   /* the step that programs the pending mark */

/* Words as the CPU stores them (fairdeal/update.h). */
static void load_word(size_t off, uint32_t w) { memcpy(flash + off, &w, 4); }

static uint32_t word_at(size_t off)
{
    uint32_t w;
    memcpy(&w, flash + off, 4);
    return w;
}

/* The step about to run: false when power is (or just went) out. */
static bool step(void)
{
    if (!powered) {
        return false;
    }
    if (steps++ == cut_at) {
        powered = false;
    }
    return true;
}

static fd_status sim_erase(void *ctx, const uint8_t *page)
{
    (void)ctx;
    const size_t off = (size_t)(page - flash);
    assert_true(off < FLASH && off % PAGE == 0u);
    if (!step()) {
        return FD_ERR_STATE;
    }
    if (!powered && cut_kind == CUT_NOT_DONE) {
        return FD_ERR_STATE;
    }
    for (size_t i = off; i < off + PAGE; i += 4u) {
        if (powered || cut_kind == CUT_DONE_UNREPORTED || rng() % 2u == 0u) {
            load_word(i, FD_UPDATE_ERASED);
        } else if (rng() % 4u == 0u) {
            load_word(i, word_at(i) | rng()); /* bits half erased */
        }
        if (word_at(i) == FD_UPDATE_ERASED) {
            programs[i / 4u] = 0;
        }
    }
    return powered ? FD_OK : FD_ERR_STATE;
}

static fd_status sim_program(void *ctx, const uint8_t *at, uint32_t w)
{
    (void)ctx;
    const size_t off = (size_t)(at - flash);
    assert_true(off < FLASH && off % 4u == 0u);
    if (!step()) {
        return FD_ERR_STATE;
    }
    if (!powered && cut_kind == CUT_NOT_DONE) {
        return FD_ERR_STATE;
    }
    assert_int_equal(word_at(off), FD_UPDATE_ERASED); /* only erased words are programmed */
    assert_int_equal(programs[off / 4u], 0);          /* nWRITE: once between erases */
    programs[off / 4u]++;
    uint32_t made = ~0u; /* the value's zero bits that made it */
    if (!powered && cut_kind == CUT_TORN && w != FD_UPDATE_ERASED) {
        const uint32_t zeros = ~w;
        made = rng() & ~(zeros & (0u - zeros)); /* never the lowest zero bit: not whole */
    }
    load_word(off, word_at(off) & (w | ~made));
    if (w == FD_UPDATE_PENDING && off == FLASH - 8u) {
        pending_step = steps - 1;
    }
    return powered ? FD_OK : FD_ERR_STATE;
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

static void power_up(long cut)
{
    powered = true;
    steps = 0;
    cut_at = cut;
}

/* ---- images ---- */

static uint8_t pub[FD_HSS_PUB_SIZE], other_pub[FD_HSS_PUB_SIZE];
static uint8_t old_image[IMAGE_MAX], new_image[IMAGE_MAX];
static size_t old_len, new_len;
static uint64_t next_index;

static void make_key(fd_lms_key *k, uint8_t seed_byte)
{
    memset(k, 0, sizeof *k);
    k->levels = 1;
    k->lms_type[0] = FD_LMS_SHA256_M32_H5;
    k->ots_type[0] = FD_LMOTS_SHA256_N32_W4;
    memset(k->I, seed_byte, sizeof k->I);
    memset(k->seed, (uint8_t)(seed_byte + 1u), sizeof k->seed);
}

/* A signed image of body_size bytes (the body's bytes from fill) into out. */
static size_t sign_image(uint8_t seed_byte, const uint8_t *key_pub, uint32_t version, uint32_t load, size_t body_size,
                         uint8_t fill, uint8_t *out)
{
    static uint8_t body[IMAGE_MAX];
    for (size_t i = 0; i < body_size; i++) {
        body[i] = (uint8_t)(i * 7u + fill);
    }
    fd_lms_key k;
    make_key(&k, seed_byte);
    const fd_image_header h = {.body_size = (uint32_t)body_size, .version = version, .load_addr = load};
    uint8_t digest[FD_SHA256_SIZE];
    fd_image_digest(&h, body, digest);
    static uint8_t sig[FD_LMS_SIGN_MAX_SIG];
    size_t sig_len = 0;
    assert_int_equal(fd_lms_sign_index(&k, next_index++ % 32u, digest, sizeof digest, sig, sizeof sig, &sig_len),
                     FD_OK);
    size_t len = 0;
    memset(out, 0xFF, IMAGE_MAX);
    assert_int_equal(fd_image_assemble(&h, body, key_pub, sig, sig_len, out, IMAGE_MAX, &len), FD_OK);
    return len;
}

static int setup(void **state)
{
    (void)state;
    fd_lms_key k;
    make_key(&k, 0x11);
    assert_int_equal(fd_lms_key_public(&k, pub), FD_OK);
    make_key(&k, 0x22);
    assert_int_equal(fd_lms_key_public(&k, other_pub), FD_OK);
    old_len = sign_image(0x11, pub, 0x01000000u, LOAD, OLD_BODY, 1, old_image);
    new_len = sign_image(0x11, pub, 0x01000100u, LOAD, NEW_BODY, 2, new_image);
    assert_true(old_len <= fd_update_room(&sim) && new_len <= fd_update_room(&sim));
    return 0;
}

/* The device as an earlier update left it: slot A runs the old image,
 * slot B still holds it with its status done. */
static void factory(void)
{
    memset(flash, 0xFF, sizeof flash);
    memcpy(flash, old_image, old_len);
    memcpy(flash + A_PAGES * PAGE, old_image, old_len);
    const size_t status = FLASH - 8u;
    load_word(status, FD_UPDATE_PENDING);
    load_word(status + 4u, FD_UPDATE_DONE);
    memset(programs, 1, sizeof programs); /* as if programmed: only an erase allows a program */
    for (size_t i = 0; i < FLASH; i += 4u) {
        if (word_at(i) == FD_UPDATE_ERASED) {
            programs[i / 4u] = 0;
        }
    }
}

/* ---- the dealer's transfer and the bootloader's sequence ---- */

static uint32_t counter; /* the anti-rollback minimum (fairdeal/bootcount.h): the highest version booted */

/* UPDATE BEGIN / DATA / END as firmware/update.c runs them; the status of
 * the first step that failed (FD_OK: acknowledged). */
static fd_status transfer(const uint8_t *image, size_t len, size_t send, const char **why)
{
    fd_update u = {0};
    fd_status st = fd_update_begin(&u, &sim, (uint32_t)len);
    for (size_t off = 0; st == FD_OK && off < send; off += CHUNK) {
        const size_t n = send - off < CHUNK ? send - off : CHUNK;
        st = fd_update_write(&u, &sim, (uint32_t)off, image + off, n);
    }
    fd_image_info info;
    return st == FD_OK ? fd_update_end(&u, &sim, fd_update_check, pub, counter, LOAD, &info, why) : st;
}

/* The bootloader at reset (bootloader/main.c): 0 when it starts slot A,
 * with *version; -1 when it stops. */
static int boot(uint32_t *version)
{
    const char *why = NULL;
    const uint32_t min = counter;
    const fd_status installed = fd_update_install(&sim, pub, min, LOAD, &why);
    if (installed != FD_OK && installed != FD_ERR_EXHAUSTED && !powered) {
        return -1; /* the cut came during the install */
    }
    fd_image_info info;
    if (fd_image_check(flash, A_PAGES * PAGE, pub, min, &info, &why) != FD_OK || info.header.load_addr != LOAD) {
        return -1;
    }
    if (fd_update_done(&sim) != FD_OK) {
        return -1;
    }
    if (info.header.version > counter) {
        counter = info.header.version;
    }
    *version = info.header.version;
    return 0;
}

/* A boot without cuts must start slot A; its version. */
static uint32_t boot_clean(void)
{
    power_up(-1);
    uint32_t v = 0;
    assert_int_equal(boot(&v), 0);
    return v;
}

static void good_update_installs_once(void **state)
{
    (void)state;
    factory();
    counter = 0x01000000u;
    power_up(-1);
    const char *why = NULL;
    assert_int_equal(transfer(new_image, new_len, new_len, &why), FD_OK);
    assert_string_equal(why, "ok");
    assert_true(fd_update_pending(&sim));
    const long upload_steps = steps;
    assert_int_equal(boot_clean(), 0x01000100u);
    assert_memory_equal(flash, new_image, new_len);
    for (size_t i = new_len; i < A_PAGES * PAGE; i++) {
        assert_int_equal(flash[i], 0xFF); /* nothing of the old image left in slot A */
    }
    assert_false(fd_update_pending(&sim));
    const long install_steps = steps;
    assert_int_equal(boot_clean(), 0x01000100u); /* a second reset: nothing to install */
    assert_int_equal(steps, 0);
    print_message("update: %ld steps to transfer, %ld to install\n", upload_steps, install_steps);
}

/* Cut at every step of transfer + install, each of the three ways. */
static void power_cut_at_every_step(void **state)
{
    (void)state;
    /* the steps of one whole update without cuts */
    factory();
    counter = 0x01000000u;
    power_up(-1);
    const char *why = NULL;
    assert_int_equal(transfer(new_image, new_len, new_len, &why), FD_OK);
    uint32_t v = 0;
    assert_int_equal(boot(&v), 0);
    const long total = steps;
    long cuts = 0, nested = 0, new_runs = 0;
    for (long k = 0; k < total; k++) {
        for (int kind = 0; kind < CUT_KINDS; kind++) {
            factory();
            counter = 0x01000000u;
            pending_step = -1;
            power_up(k);
            cut_kind = (enum cut_kind)kind;
            const fd_status acked = transfer(new_image, new_len, new_len, &why);
            const bool pending_whole = fd_update_pending(&sim);
            if (powered) {
                /* the cut is in the boot: the transfer completed */
                assert_int_equal(acked, FD_OK);
                assert_true(pending_whole);
                assert_int_equal(boot(&v), -1);
                assert_false(powered);
            }
            cuts++;
            if (k % 4 == 1) { /* cut again in the next boot */
                power_up((long)(rng() % 1000u));
                (void)boot(&v);
                nested++;
            }
            const uint32_t version = boot_clean();
            assert_true(version == 0x01000000u || version == 0x01000100u);
            if (acked == FD_OK) {
                assert_int_equal(version, 0x01000100u); /* acknowledged: installed */
            }
            if (pending_step < 0) {
                assert_int_equal(version, 0x01000000u); /* cut before the mark: the old image */
            }
            /* new exactly when this transfer's mark is whole (a torn erase of the old status may leave the
             * old image pending: it is installed again, the same bytes) */
            assert_int_equal(version == 0x01000100u, pending_step >= 0 && pending_whole);
            new_runs += version == 0x01000100u;
            assert_int_equal(boot_clean(), version); /* and it stays */
        }
    }
    print_message("update: %ld cuts (%ld steps x %d ways), %ld cut again while booting, %ld ended new\n", cuts, total,
                  CUT_KINDS, nested, new_runs);
}

static void assert_old_runs_and_nothing_pending(void)
{
    assert_false(fd_update_pending(&sim));
    assert_int_equal(boot_clean(), 0x01000000u);
    assert_memory_equal(flash, old_image, old_len);
}

static void bad_updates_leave_the_old_image(void **state)
{
    (void)state;
    static uint8_t bad[IMAGE_MAX];
    const char *why = NULL;
    struct {
        const char *name;
        fd_status want;
        const char *why;
    } cases[] = {
        {"flipped body bit", FD_ERR_CORRUPT, "hash mismatch: header or image changed"},
        {"flipped signature bit", FD_ERR_SIGNATURE, "signature does not verify"},
        {"other key", FD_ERR_SIGNATURE, "signed by another key"},
        {"other key, our key hash", FD_ERR_SIGNATURE, "signature does not verify"},
        {"older version", FD_ERR_STATE, "version older than the minimum (rollback)"},
        {"other address", FD_ERR_PARSE, "image built for another address"},
        {"truncated", FD_ERR_EMPTY, "transfer incomplete"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t len = new_len, send = new_len;
        memcpy(bad, new_image, new_len);
        switch (c) {
        case 0: bad[FD_IMAGE_HEADER_ROOM + 100u] ^= 1u; break;
        case 1: bad[new_len - 9u] ^= 0x10u; break;
        case 2: len = send = sign_image(0x22, other_pub, 0x01000100u, LOAD, NEW_BODY, 2, bad); break;
        case 3: len = send = sign_image(0x22, pub, 0x01000100u, LOAD, NEW_BODY, 2, bad); break;
        case 4: len = send = sign_image(0x11, pub, 0x00FF0000u, LOAD, NEW_BODY, 2, bad); break;
        case 5: len = send = sign_image(0x11, pub, 0x01000100u, LOAD + 0x1000u, NEW_BODY, 2, bad); break;
        default: send = new_len - 100u; break;
        }
        factory();
        counter = 0x01000000u;
        power_up(-1);
        assert_int_equal(transfer(bad, len, send, &why), cases[c].want);
        assert_string_equal(why, cases[c].why);
        assert_old_runs_and_nothing_pending();
    }
    /* a transfer that never ends: nothing pending */
    factory();
    power_up(-1);
    fd_update u = {0};
    assert_int_equal(fd_update_begin(&u, &sim, (uint32_t)new_len), FD_OK);
    assert_int_equal(fd_update_write(&u, &sim, 0, new_image, CHUNK), FD_OK);
    assert_old_runs_and_nothing_pending();
}

/* An older image pending all the same (its mark written by hand): the
 * bootloader refuses to copy it, slot A is untouched, the mark is done. */
static void bootloader_refuses_an_older_pending_image(void **state)
{
    (void)state;
    static uint8_t older[IMAGE_MAX];
    const size_t len = sign_image(0x11, pub, 0x00FF0000u, LOAD, NEW_BODY, 3, older);
    factory();
    counter = 0x01000000u;
    memset(flash + A_PAGES * PAGE, 0xFF, B_PAGES * PAGE);
    memcpy(flash + A_PAGES * PAGE, older, len);
    load_word(FLASH - 8u, FD_UPDATE_PENDING);
    memset(programs, 1, sizeof programs);
    assert_true(fd_update_pending(&sim));
    power_up(-1);
    const char *why = NULL;
    assert_int_equal(fd_update_install(&sim, pub, counter, LOAD, &why), FD_ERR_STATE);
    assert_string_equal(why, "version older than the minimum (rollback)");
    assert_memory_equal(flash, old_image, old_len);
    memset(programs, 0, sizeof programs);
    assert_int_equal(boot_clean(), 0x01000000u);
    assert_false(fd_update_pending(&sim));
}

/* Chunks out of order, not whole words, past the size, empty, without a
 * transfer: refused, flash unchanged, the transfer still goes on. */
static void malformed_chunks_change_nothing(void **state)
{
    (void)state;
    static uint8_t before[FLASH];
    factory();
    counter = 0x01000000u;
    power_up(-1);
    fd_update u = {0};
    const uint8_t *img = new_image;
    assert_int_equal(fd_update_write(&u, &sim, 0, img, 8), FD_ERR_STATE);
    assert_int_equal(fd_update_begin(&u, &sim, FD_IMAGE_HEADER_ROOM - 1u), FD_ERR_EMPTY);
    assert_int_equal(fd_update_begin(&u, &sim, fd_update_room(&sim) + 1u), FD_ERR_TOO_LARGE);
    assert_false(u.open);
    assert_true(fd_update_pending(&sim) == false);
    assert_int_equal(fd_update_begin(&u, &sim, (uint32_t)new_len), FD_OK);
    assert_int_equal(fd_update_write(&u, &sim, 0, img, 56), FD_OK);
    memcpy(before, flash, sizeof flash);
    assert_int_equal(fd_update_write(&u, &sim, 0, img, 56), FD_ERR_PARSE);       /* again: not the next offset */
    assert_int_equal(fd_update_write(&u, &sim, 60, img + 60, 56), FD_ERR_PARSE); /* skips ahead */
    assert_int_equal(fd_update_write(&u, &sim, 56, img + 56, 6), FD_ERR_PARSE);  /* not whole words, not the last */
    assert_int_equal(fd_update_write(&u, &sim, 56, img + 56, 0), FD_ERR_EMPTY);
    assert_int_equal(fd_update_write(&u, &sim, 56, img + 56, new_len), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_update_write(&u, &sim, 56, NULL, 4), FD_ERR_NULL);
    assert_memory_equal(before, flash, sizeof flash);
    assert_true(u.open);
    for (size_t off = 56; off < new_len; off += CHUNK) {
        const size_t n = new_len - off < CHUNK ? new_len - off : CHUNK;
        assert_int_equal(fd_update_write(&u, &sim, (uint32_t)off, img + off, n), FD_OK);
    }
    fd_image_info info;
    const char *why = NULL;
    assert_int_equal(fd_update_end(&u, &sim, fd_update_check, pub, counter, LOAD, &info, &why), FD_OK);
    assert_int_equal(fd_update_end(&u, &sim, fd_update_check, pub, counter, LOAD, &info, &why), FD_ERR_STATE);
    assert_string_equal(why, "no transfer open");
    assert_int_equal(boot_clean(), 0x01000100u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_update_installs_once),       cmocka_unit_test(power_cut_at_every_step),
        cmocka_unit_test(bad_updates_leave_the_old_image), cmocka_unit_test(bootloader_refuses_an_older_pending_image),
        cmocka_unit_test(malformed_chunks_change_nothing),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
