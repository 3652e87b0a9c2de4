/* The host store (boards/host/storage.c) as a model of the silicon and as a
 * file a person trusts with real rounds: nWRITE counted and enforced, the
 * journal's secret wipe within it under power cuts at every step, and the
 * backing file's checks (size, content, lock, failed writes). The dealer
 * end to end on a file: tests/tools/test_host_store.sh. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fairdeal/journal.h"
#include "fd_board_map.h"
#include "host_storage.h"

#define PAGE 1024u
#define PAGES 8u

static host_flash hf;
static host_flash other;
static uint8_t mem[PAGE * PAGES];
static uint8_t other_mem[PAGE * PAGES];
static fd_journal journal;
static fd_journal_page pages[PAGES];
static const uint8_t key[32] = "fairdeal host store test key 01";

static void test_nwrite_enforced(void **state)
{
    (void)state;
    assert_int_equal(FD_FLASH_WORD_WRITES, 2); /* the host models the nRF5x rule */
    assert_int_equal(host_flash_open(&hf, mem, PAGE, PAGES, NULL), FD_OK);
    assert_int_equal(hf.word_writes_max, FD_FLASH_WORD_WRITES);
    hf.overprogram_abort = false;
    const uint32_t a[2] = {0xFFFF00FFu, 0x12345678u};
    const uint32_t b[1] = {0x0F0F0F0Fu};
    const uint32_t zero = 0;
    assert_int_equal(hf.flash.program(hf.flash.ctx, 8, a, 2), FD_OK);
    assert_int_equal(hf.flash.program(hf.flash.ctx, 8, b, 1), FD_OK);
    /* a third program of word 8, alone or within a longer one: refused, nothing written */
    assert_int_equal(hf.flash.program(hf.flash.ctx, 8, &zero, 1), FD_ERR_STATE);
    assert_int_equal(hf.flash.program(hf.flash.ctx, 4, a, 2), FD_ERR_STATE);
    assert_int_equal(hf.overprograms, 2);
    uint32_t back[3];
    assert_int_equal(hf.flash.read(hf.flash.ctx, 4, back, sizeof back), FD_OK);
    assert_int_equal(back[0], 0xFFFFFFFFu);
    assert_int_equal(back[1], 0xFFFF00FFu & 0x0F0F0F0Fu);
    assert_int_equal(back[2], 0x12345678u);
    /* word 12 had one program: a second is fine */
    assert_int_equal(hf.flash.program(hf.flash.ctx, 12, &zero, 1), FD_OK);
    /* the page's erase starts every count again; other pages keep theirs */
    assert_int_equal(hf.flash.program(hf.flash.ctx, PAGE + 8u, a, 1), FD_OK);
    assert_int_equal(hf.flash.program(hf.flash.ctx, PAGE + 8u, a, 1), FD_OK);
    assert_int_equal(hf.flash.erase(hf.flash.ctx, 0), FD_OK);
    assert_int_equal(hf.flash.program(hf.flash.ctx, 8, &zero, 1), FD_OK);
    assert_int_equal(hf.flash.program(hf.flash.ctx, 8, &zero, 1), FD_OK);
    assert_int_equal(hf.flash.program(hf.flash.ctx, PAGE + 8u, a, 1), FD_ERR_STATE);
    assert_int_equal(hf.overprograms, 3);
    /* STM32F4 (RM0090: successive 1 -> 0 writes, no count): 0, no limit */
    hf.word_writes_max = 0;
    for (int i = 0; i < 5; i++) {
        assert_int_equal(hf.flash.program(hf.flash.ctx, 8, &zero, 1), FD_OK);
    }
}

/* A torn program counts for its torn word only when the cut changed it
 * (host_storage.h); the words before it are written in full. The words
 * hold 1 before the tear: a torn word keeps it or reads 0. */
static void test_nwrite_torn_word(void **state)
{
    (void)state;
    const uint32_t ones[4] = {1, 1, 1, 1};
    const uint32_t zeros[4] = {0};
    unsigned at_limit_seen = 0;
    unsigned free_seen = 0;
    for (uint32_t seed = 1; seed <= 64u; seed++) {
        assert_int_equal(host_flash_open(&hf, mem, PAGE, PAGES, NULL), FD_OK);
        hf.overprogram_abort = false;
        hf.tear_state = seed * 0x9E3779B9u;
        assert_int_equal(hf.flash.program(hf.flash.ctx, 0, ones, 4), FD_OK);
        hf.cut_after = hf.steps;
        hf.torn = true;
        assert_int_equal(hf.flash.program(hf.flash.ctx, 0, zeros, 4), FD_ERR_STATE);
        host_flash_reboot(&hf);
        uint32_t w[4];
        assert_int_equal(hf.flash.read(hf.flash.ctx, 0, w, sizeof w), FD_OK);
        /* a word the cut changed (0) has had its second program; one it
         * left (1) has had one */
        for (unsigned i = 0; i < 4u; i++) {
            assert_int_equal(hf.flash.program(hf.flash.ctx, 4u * i, &zeros[0], 1), w[i] == 0u ? FD_ERR_STATE : FD_OK);
            at_limit_seen += w[i] == 0u ? 1u : 0u;
            free_seen += w[i] != 0u ? 1u : 0u;
        }
    }
    assert_true(at_limit_seen > 0u && free_seen > 0u);
}

/* Power cut at every step of a secret's wipe (clean and torn), then the
 * wipe again after the reboot, then again: never a word's third program,
 * and an uncut wipe programs only the words not yet zero. */
static void test_wipe_cut_never_third_program(void **state)
{
    (void)state;
    uint8_t secret[40];
    for (size_t i = 0; i < sizeof secret; i++) {
        secret[i] = (uint8_t)(0xA0u + i);
    }
    memset(secret + 8, 0, 4); /* a zero word: never programmed by the wipe */
    const uint8_t payload[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    unsigned cuts = 0;
    for (unsigned torn = 0; torn < 2u; torn++) {
        for (uint64_t k = 0;; k++) {
            assert_int_equal(host_flash_open(&hf, mem, PAGE, PAGES, NULL), FD_OK);
            hf.overprogram_abort = false;
            assert_int_equal(fd_journal_init(&journal, &hf.flash, key, sizeof key, pages, NULL, NULL), FD_OK);
            assert_int_equal(fd_journal_mount(&journal, NULL), FD_OK);
            uint32_t seq = 0;
            assert_int_equal(fd_journal_append(&journal, 5, payload, sizeof payload, secret, sizeof secret, &seq),
                             FD_OK);
            assert_int_equal(fd_journal_append(&journal, 6, payload, sizeof payload, NULL, 0, NULL), FD_OK);
            const uint64_t before = hf.programs;
            hf.cut_after = hf.steps + k;
            hf.torn = torn != 0u;
            const fd_status st = fd_journal_wipe_secret(&journal, seq);
            if (st == FD_OK) {
                /* no cut reached the wipe: 10 words, 9 not zero */
                assert_int_equal(hf.programs - before, 9);
                assert_int_equal(hf.overprograms, 0);
                break;
            }
            cuts++;
            host_flash_reboot(&hf);
            for (int again = 0; again < 2; again++) {
                assert_int_equal(fd_journal_init(&journal, &hf.flash, key, sizeof key, pages, NULL, NULL), FD_OK);
                assert_int_equal(fd_journal_mount(&journal, NULL), FD_OK);
                assert_int_equal(fd_journal_wipe_secret(&journal, seq), FD_OK);
            }
            assert_int_equal(hf.overprograms, 0);
        }
    }
    assert_int_equal(cuts, 18); /* 9 steps, clean and torn */
}

/* The dealer's case: the secret also in a compaction copy (the original in
 * a dead page not yet erased). A wipe cut at any step leaves one location
 * damaged and the other intact; the next wipe (the power-on wipe finds the
 * intact one) must not touch the damaged one again. */
static bool keep_target(void *ctx, const fd_journal_record *record)
{
    return record->orig_seq == *(const uint32_t *)ctx;
}

static uint32_t keep_seq;

/* A journal with the secret's record and a compaction copy of it. */
static void journal_with_copy(const uint8_t *secret, size_t secret_len, uint32_t *seq)
{
    assert_int_equal(host_flash_open(&hf, mem, PAGE, PAGES, NULL), FD_OK);
    hf.overprogram_abort = false;
    keep_seq = 0;
    assert_int_equal(fd_journal_init(&journal, &hf.flash, key, sizeof key, pages, keep_target, &keep_seq), FD_OK);
    assert_int_equal(fd_journal_mount(&journal, NULL), FD_OK);
    const uint8_t payload[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    assert_int_equal(fd_journal_append(&journal, 5, payload, sizeof payload, secret, secret_len, seq), FD_OK);
    keep_seq = *seq;
    static uint8_t filler[200];
    const uint64_t erases = hf.erases;
    /* until compaction has copied it: the ring erases the page it was on
     * only after the copy, and its next wrap erases the copy's */
    for (int i = 0; i < 200 && hf.erases < erases + PAGES - 1u; i++) {
        assert_int_equal(fd_journal_append(&journal, 6, filler, sizeof filler, NULL, 0, NULL), FD_OK);
    }
}

static void test_wipe_cut_with_copy(void **state)
{
    (void)state;
    uint8_t secret[36];
    for (size_t i = 0; i < sizeof secret; i++) {
        secret[i] = (uint8_t)(0x31u + 3u * i);
    }
    uint32_t seq = 0;
    journal_with_copy(secret, sizeof secret, &seq);
    uint64_t before = hf.programs;
    assert_int_equal(fd_journal_wipe_secret(&journal, seq), FD_OK);
    const uint64_t programs = hf.programs - before;
    assert_true(programs >= 18u && programs % 9u == 0u); /* 9 words in each of 2 or more places */
    unsigned cuts = 0;
    for (unsigned torn = 0; torn < 2u; torn++) {
        for (uint64_t k = 0; k < programs; k++) {
            journal_with_copy(secret, sizeof secret, &seq);
            hf.cut_after = hf.steps + k;
            hf.torn = torn != 0u;
            assert_int_equal(fd_journal_wipe_secret(&journal, seq), FD_ERR_STATE);
            cuts++;
            host_flash_reboot(&hf);
            for (int again = 0; again < 2; again++) {
                assert_int_equal(fd_journal_init(&journal, &hf.flash, key, sizeof key, pages, keep_target, &keep_seq),
                                 FD_OK);
                assert_int_equal(fd_journal_mount(&journal, NULL), FD_OK);
                assert_int_equal(fd_journal_wipe_secret(&journal, seq), FD_OK);
            }
            assert_int_equal(hf.overprograms, 0);
        }
    }
    assert_int_equal(cuts, 2u * programs);
}

static void temp_path(char *path, size_t size)
{
    (void)snprintf(path, size, "/tmp/fd_host_store_XXXXXX");
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
}

static void write_file(const char *path, const uint8_t *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static size_t read_file(const char *path, uint8_t *out, size_t cap)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    const size_t n = fread(out, 1, cap, f);
    assert_int_equal(fclose(f), 0);
    return n;
}

static uint8_t image[PAGE * PAGES + 1];
static uint8_t back[20000];

/* An existing file of the wrong size or content is refused and left as it
 * is; a missing one is created blank; a journal's is accepted. */
static void test_file_checks(void **state)
{
    (void)state;
    char path[64];
    temp_path(path, sizeof path);
    assert_int_equal(host_flash_open_file(&hf, mem, PAGE, PAGES, path, HOST_FILE_JOURNAL), FD_OK);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_size, PAGE * PAGES);
    assert_int_equal(fd_journal_init(&journal, &hf.flash, key, sizeof key, pages, NULL, NULL), FD_OK);
    assert_int_equal(fd_journal_mount(&journal, NULL), FD_OK);
    const uint8_t payload[4] = {9, 9, 9, 9};
    assert_int_equal(fd_journal_append(&journal, 5, payload, sizeof payload, NULL, 0, NULL), FD_OK);
    host_flash_close(&hf);
    const size_t size = read_file(path, image, sizeof image);
    assert_int_equal(size, PAGE * PAGES);
    assert_int_equal(host_flash_open_file(&hf, mem, PAGE, PAGES, path, HOST_FILE_JOURNAL), FD_OK);
    assert_memory_equal(mem, image, size);
    host_flash_close(&hf);

    const struct {
        size_t len;
        int fill; /* -1: the journal's bytes, -2: pseudo-random */
    } bad[] = {{PAGE * PAGES - 1u, -1}, {0, -1},           {16384, -1},
               {PAGE * PAGES + 1u, -1}, {PAGE * PAGES, 0}, {PAGE * PAGES, -2}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        static uint8_t data[20000];
        uint32_t x = 0x12345u;
        for (size_t b = 0; b < bad[i].len; b++) {
            x = x * 1103515245u + 12345u;
            data[b] = bad[i].fill == -1 ? (b < size ? image[b] : 0x55u)
                                        : (bad[i].fill == -2 ? (uint8_t)(x >> 16) : (uint8_t)bad[i].fill);
        }
        write_file(path, data, bad[i].len);
        assert_int_equal(host_flash_open_file(&hf, mem, PAGE, PAGES, path, HOST_FILE_JOURNAL), FD_ERR_CORRUPT);
        assert_non_null(strstr(host_storage_error(), "refused and left as it is"));
        assert_int_equal(read_file(path, back, sizeof back), bad[i].len);
        assert_memory_equal(back, data, bad[i].len);
        assert_int_equal(hf.fd, -1);
    }
    /* the secret's file (no journal check): any content of the right size */
    static uint8_t zeros[PAGE];
    write_file(path, zeros, sizeof zeros);
    assert_int_equal(host_flash_open_file(&hf, mem, PAGE, 1, path, 0), FD_OK);
    host_flash_close(&hf);
    /* explicit: a blank store over whatever the file held */
    assert_int_equal(host_flash_open_file(&hf, mem, PAGE, PAGES, path, HOST_FILE_JOURNAL | HOST_FILE_REPLACE), FD_OK);
    host_flash_close(&hf);
    assert_int_equal(read_file(path, back, sizeof back), PAGE * PAGES);
    for (size_t b = 0; b < PAGE * PAGES; b++) {
        assert_int_equal(back[b], 0xFF);
    }
    unlink(path);
}

/* One store per file: a second open is refused until the first closes. */
static void test_file_lock(void **state)
{
    (void)state;
    char path[64];
    temp_path(path, sizeof path);
    assert_int_equal(host_flash_open_file(&hf, mem, PAGE, PAGES, path, HOST_FILE_JOURNAL), FD_OK);
    assert_int_equal(host_flash_open_file(&other, other_mem, PAGE, PAGES, path, HOST_FILE_JOURNAL), FD_ERR_NOT_READY);
    assert_non_null(strstr(host_storage_error(), "in use by another dealer"));
    assert_int_equal(host_flash_open_file(&other, other_mem, PAGE, PAGES, path, HOST_FILE_REPLACE), FD_ERR_NOT_READY);
    host_flash_close(&hf);
    assert_int_equal(host_flash_open_file(&other, other_mem, PAGE, PAGES, path, HOST_FILE_JOURNAL), FD_OK);
    host_flash_close(&other);
    unlink(path);
}

/* A write the file refuses (here: a descriptor opened read-only) fails
 * that call and every later one, reads included. */
static void test_file_write_fails(void **state)
{
    (void)state;
    char path[64];
    temp_path(path, sizeof path);
    assert_int_equal(host_flash_open_file(&hf, mem, PAGE, PAGES, path, HOST_FILE_JOURNAL), FD_OK);
    const uint32_t w = 0x11223344u;
    assert_int_equal(hf.flash.program(hf.flash.ctx, 0, &w, 1), FD_OK);
    const int rw = hf.fd;
    hf.fd = open(path, O_RDONLY);
    assert_true(hf.fd >= 0);
    assert_int_equal(hf.flash.program(hf.flash.ctx, 4, &w, 1), FD_ERR_STATE);
    assert_true(hf.io_failed);
    assert_non_null(strstr(host_storage_error(), "write of 4 bytes at 4 failed"));
    uint32_t r = 0;
    assert_int_equal(hf.flash.read(hf.flash.ctx, 0, &r, 4), FD_ERR_STATE);
    assert_int_equal(hf.flash.program(hf.flash.ctx, 8, &w, 1), FD_ERR_STATE);
    assert_int_equal(hf.flash.erase(hf.flash.ctx, 1), FD_ERR_STATE);
    host_flash_close(&hf);
    close(rw);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nwrite_enforced),
        cmocka_unit_test(test_nwrite_torn_word),
        cmocka_unit_test(test_wipe_cut_never_third_program),
        cmocka_unit_test(test_wipe_cut_with_copy),
        cmocka_unit_test(test_file_checks),
        cmocka_unit_test(test_file_lock),
        cmocka_unit_test(test_file_write_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
