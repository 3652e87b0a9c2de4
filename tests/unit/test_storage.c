/* The board's storage driver against the HAL contract (NOR semantics,
 * bounds, alignment) and the journal on it: runs on the host (memory) and
 * on every QEMU board (microbit: the NVMC model; mps2-an386: the RAM store,
 * which also counts each word's programs: nWRITE).
 * The area is the board's storage region (fd_board_map.h, generated from
 * boards/<b>/board.cmake). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/journal.h"
#include "fd_board_map.h"
#include "hal/storage.h"

static const hal_storage_area area = {FD_STORAGE_ADDR, FD_FLASH_PAGE_SIZE, FD_STORAGE_PAGES};
static fd_flash flash;
static fd_journal journal;
static fd_journal_page pages[FD_STORAGE_PAGES];
static uint8_t page_copy[64];
static const uint8_t key[32] = "fairdeal on-target storage key.";

static void test_open_errors(void **state)
{
    (void)state;
    hal_storage_area bad = area;
    bad.page_count = 0;
    assert_int_equal(hal_storage_open(NULL, &flash), FD_ERR_NULL);
    assert_int_equal(hal_storage_open(&area, NULL), FD_ERR_NULL);
    assert_int_equal(hal_storage_open(&bad, &flash), FD_ERR_STATE);
    /* a page size of 0 or not whole words refused (ram_storage.c's
     * "page_size == 0u || page_size % 4u != 0u" with && was a drawn survivor) */
    static const uint32_t bad_sizes[] = {0u, FD_FLASH_PAGE_SIZE + 2u, 6u};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
        bad = area;
        bad.page_size = bad_sizes[i];
        assert_int_equal(hal_storage_open(&bad, &flash), FD_ERR_STATE);
    }
    assert_int_equal(hal_storage_open(&area, &flash), FD_OK);
    assert_int_equal(flash.geometry.page_size, FD_FLASH_PAGE_SIZE);
    assert_int_equal(flash.geometry.page_count, FD_STORAGE_PAGES);
    assert_int_equal(flash.geometry.erased_value, 0xFF);
}

static void test_nor_semantics(void **state)
{
    (void)state;
    assert_int_equal(hal_storage_open(&area, &flash), FD_OK);
    uint32_t last = FD_STORAGE_PAGES - 1u;
    uint32_t at = last * FD_FLASH_PAGE_SIZE;
    assert_int_equal(flash.erase(flash.ctx, last), FD_OK);
    assert_int_equal(flash.read(flash.ctx, at, page_copy, sizeof page_copy), FD_OK);
    for (size_t i = 0; i < sizeof page_copy; i++) {
        assert_int_equal(page_copy[i], 0xFF);
    }
    const uint32_t first[2] = {0x12345678u, 0xFFFF0000u};
    assert_int_equal(flash.program(flash.ctx, at + 8u, first, 2), FD_OK);
    /* a second program only clears more bits: 0 -> 1 never happens */
    const uint32_t second[1] = {0xF0F0F0F0u};
    assert_int_equal(flash.program(flash.ctx, at + 8u, second, 1), FD_OK);
    uint32_t back[3];
    assert_int_equal(flash.read(flash.ctx, at + 8u, back, sizeof back), FD_OK);
    assert_int_equal(back[0], 0x12345678u & 0xF0F0F0F0u);
    assert_int_equal(back[1], 0xFFFF0000u);
    assert_int_equal(back[2], 0xFFFFFFFFu);
    /* bad requests change nothing */
    assert_int_equal(flash.program(flash.ctx, at + 2u, first, 1), FD_ERR_PARSE);
    assert_int_equal(flash.program(flash.ctx, at + FD_FLASH_PAGE_SIZE - 4u, first, 2), FD_ERR_TOO_LARGE);
    assert_int_equal(flash.erase(flash.ctx, FD_STORAGE_PAGES), FD_ERR_TOO_LARGE);
    assert_int_equal(flash.read(flash.ctx, at + FD_FLASH_PAGE_SIZE - 4u, back, 8), FD_ERR_TOO_LARGE);
    assert_int_equal(flash.erase(flash.ctx, last), FD_OK);
    assert_int_equal(flash.read(flash.ctx, at + 8u, back, sizeof back), FD_OK);
    assert_int_equal(back[0], 0xFFFFFFFFu);
}

#if FD_TEST_STORE_COUNTS
/* nWRITE on a store that counts (the RAM store, hal/storage.h): a word
 * takes FD_FLASH_WORD_WRITES programs between erases; a program that
 * would give any of its words one more is refused whole and changes
 * nothing; an erase starts the count again. */
static void test_third_program_refused(void **state)
{
    (void)state;
    assert_int_equal(FD_FLASH_WORD_WRITES, 2u);
    assert_int_equal(hal_storage_open(&area, &flash), FD_OK);
    const uint32_t last = FD_STORAGE_PAGES - 1u;
    const uint32_t at = last * FD_FLASH_PAGE_SIZE;
    assert_int_equal(flash.erase(flash.ctx, last), FD_OK);
    const uint32_t once[1] = {0xFFFF00FFu};
    const uint32_t twice[1] = {0x0F0F0F0Fu};
    assert_int_equal(flash.program(flash.ctx, at + 16u, once, 1), FD_OK);
    assert_int_equal(flash.program(flash.ctx, at + 16u, twice, 1), FD_OK);
    const uint32_t third[2] = {0u, 0u}; /* the word programmed twice, and a fresh one after it */
    assert_int_equal(flash.program(flash.ctx, at + 16u, third, 1), FD_ERR_STATE);
    assert_int_equal(flash.program(flash.ctx, at + 12u, third, 2), FD_ERR_STATE);
    uint32_t back[3];
    assert_int_equal(flash.read(flash.ctx, at + 12u, back, sizeof back), FD_OK);
    assert_int_equal(back[0], 0xFFFFFFFFu); /* refused whole: the fresh word untouched */
    assert_int_equal(back[1], 0xFFFF00FFu & 0x0F0F0F0Fu);
    assert_int_equal(back[2], 0xFFFFFFFFu);
    assert_int_equal(flash.program(flash.ctx, at + 20u, third, 1), FD_OK); /* its neighbours count alone */
    assert_int_equal(flash.erase(flash.ctx, last), FD_OK);
    assert_int_equal(flash.program(flash.ctx, at + 16u, once, 1), FD_OK);
    assert_int_equal(flash.program(flash.ctx, at + 16u, twice, 1), FD_OK);
    assert_int_equal(flash.erase(flash.ctx, last), FD_OK);
}
#endif

static fd_status count_records(void *ctx, const fd_journal_record *record)
{
    uint32_t *n = ctx;
    (*n)++;
    return record->len == 8u ? FD_OK : FD_ERR_CORRUPT;
}

static void test_journal_on_board(void **state)
{
    (void)state;
    assert_int_equal(hal_storage_open(&area, &flash), FD_OK);
    for (uint32_t p = 0; p < FD_STORAGE_PAGES; p++) {
        assert_int_equal(flash.erase(flash.ctx, p), FD_OK);
    }
    assert_int_equal(fd_journal_init(&journal, &flash, key, sizeof key, pages, NULL, NULL), FD_OK);
    assert_int_equal(fd_journal_mount(&journal, NULL), FD_OK);
    uint8_t secret[32];
    memset(secret, 0xA5, sizeof secret);
    uint32_t secret_seq = 0;
    for (uint32_t i = 0; i < 60u; i++) {
        uint8_t payload[8] = {(uint8_t)i, 1, 2, 3, 4, 5, 6, 7};
        uint32_t seq = 0;
        assert_int_equal(fd_journal_append(&journal, 5, payload, sizeof payload, i == 3u ? secret : NULL,
                                           i == 3u ? sizeof secret : 0u, &seq),
                         FD_OK);
        assert_int_equal(seq, i + 1u);
        if (i == 3u) {
            secret_seq = seq;
        }
    }
    assert_int_equal(fd_journal_wipe_secret(&journal, secret_seq), FD_OK);
    uint8_t head[32];
    uint32_t next = 0;
    assert_int_equal(fd_journal_head(&journal, head, &next), FD_OK);
    assert_int_equal(fd_journal_init(&journal, &flash, key, sizeof key, pages, NULL, NULL), FD_OK);
    assert_int_equal(fd_journal_mount(&journal, NULL), FD_OK);
    uint8_t head2[32];
    uint32_t next2 = 0;
    assert_int_equal(fd_journal_head(&journal, head2, &next2), FD_OK);
    assert_int_equal(next2, 61);
    assert_memory_equal(head, head2, 32);
    uint32_t n = 0;
    assert_int_equal(fd_journal_walk(&journal, count_records, &n, NULL), FD_OK);
    assert_int_equal(n, 60);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_nor_semantics),
        cmocka_unit_test(test_journal_on_board),
#if FD_TEST_STORE_COUNTS
        cmocka_unit_test(test_third_program_refused),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
