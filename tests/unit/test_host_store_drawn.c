/* The host flash simulator and its file (boards/host/storage.c) against
 * the survivors of the mutants drawn by rule (docs/RELIABILITY.md, "Mutants
 * drawn by rule"): each test names the mutant it kills. Linked with
 * --wrap=link and --wrap=fsync: a test makes another dealer's store appear
 * just before the new store is linked into place, or the directory's sync
 * fail (only sync_dir calls fsync; the stores' writes use fdatasync). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fd_board_map.h"
#include "hal/storage.h"
#include "host_storage.h"

#define PAGE 1024u
#define PAGES 2u

static host_flash hf;
static uint8_t mem[PAGE * PAGES];
static uint8_t before[PAGE * PAGES];

/* ---- the wrapped calls ---- */

int __real_link(const char *from, const char *to);
int __wrap_link(const char *from, const char *to);
int __real_fsync(int fd);
int __wrap_fsync(int fd);

static bool other_dealer_first; /* the next link finds another store in place */
static bool fsync_fails;

static void write_file(const char *path, uint8_t fill, size_t size)
{
    const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    assert_true(fd >= 0);
    uint8_t page[PAGE];
    memset(page, fill, sizeof page);
    for (size_t done = 0; done < size; done += sizeof page) {
        assert_int_equal(write(fd, page, sizeof page), (ssize_t)sizeof page);
    }
    assert_int_equal(close(fd), 0);
}

int __wrap_link(const char *from, const char *to)
{
    if (other_dealer_first) {
        other_dealer_first = false;
        write_file(to, 0xA5u, PAGE * PAGES); /* its store, not blank */
    }
    return __real_link(from, to);
}

int __wrap_fsync(int fd)
{
    if (fsync_fails) {
        errno = EIO;
        return -1;
    }
    return __real_fsync(fd);
}

static char dir[64];

static void make_dir(void)
{
    (void)snprintf(dir, sizeof dir, "/tmp/fd-drawn-XXXXXX");
    assert_non_null(mkdtemp(dir));
}

/* ---- power off: nothing changes ---- */

/* storage.c power_for_step: "if (hf->cut)" forced false (calls after the
 * cut counted as steps). It showed that a call after a torn cut was torn
 * too: the flash changed while the power was off. After the cut, neither
 * a program nor an erase changes a bit, and they are no steps (host_storage.h:
 * step k + 1 is the cut). */
static void test_nothing_changes_after_the_cut(void **state)
{
    (void)state;
    assert_int_equal(host_flash_open(&hf, mem, PAGE, PAGES, NULL), FD_OK);
    const uint32_t zeros[4] = {0, 0, 0, 0};
    assert_int_equal(hf.flash.program(hf.flash.ctx, PAGE, zeros, 4), FD_OK);
    hf.cut_after = hf.steps;
    hf.torn = true;
    assert_int_equal(hf.flash.program(hf.flash.ctx, 0, zeros, 4), FD_ERR_STATE); /* the torn cut */
    const uint64_t steps = hf.steps;
    assert_int_equal(steps, hf.cut_after + 1u);
    memcpy(before, mem, sizeof mem);
    for (uint32_t i = 0; i < 8u; i++) {
        assert_int_equal(hf.flash.program(hf.flash.ctx, 64u + 16u * i, zeros, 4), FD_ERR_STATE);
        assert_int_equal(hf.flash.erase(hf.flash.ctx, 1), FD_ERR_STATE);
    }
    assert_memory_equal(mem, before, sizeof mem);
    assert_int_equal(hf.steps, steps);
    host_flash_reboot(&hf);
    assert_int_equal(hf.flash.erase(hf.flash.ctx, 1), FD_OK); /* power back */
}

/* ---- the backing file ---- */

/* storage.c host_erase: "if (hf->io_failed)" forced false (an erase after
 * the file failed for good carried out in memory). The erase is refused and
 * changes nothing (the page keeps its word, no erase is counted). */
static void test_erase_after_a_failed_write_changes_nothing(void **state)
{
    (void)state;
    make_dir();
    char path[128];
    (void)snprintf(path, sizeof path, "%s/store", dir);
    assert_int_equal(host_flash_open_file(&hf, mem, PAGE, PAGES, path, 0u), FD_OK);
    const uint32_t w = 0x11223344u;
    assert_int_equal(hf.flash.program(hf.flash.ctx, 0, &w, 1), FD_OK);
    const int rw = hf.fd;
    hf.fd = open(path, O_RDONLY);
    assert_true(hf.fd >= 0);
    assert_int_equal(hf.flash.program(hf.flash.ctx, 4, &w, 1), FD_ERR_STATE);
    assert_true(hf.io_failed);
    memcpy(before, mem, sizeof mem);
    const uint64_t erases = hf.erases;
    assert_int_equal(hf.flash.erase(hf.flash.ctx, 0), FD_ERR_STATE);
    assert_memory_equal(mem, before, sizeof mem);
    assert_int_equal(hf.erases, erases);
    host_flash_close(&hf);
    (void)close(rw);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* storage.c create_blank: "errno == EEXIST" with != (another dealer's
 * store, linked into place between our open and our link, refused). The
 * store made meanwhile is opened, its contents read. */
static void test_a_store_made_meanwhile_is_opened(void **state)
{
    (void)state;
    make_dir();
    char path[128];
    (void)snprintf(path, sizeof path, "%s/store", dir);
    other_dealer_first = true;
    const fd_status st = host_flash_open_file(&hf, mem, PAGE, PAGES, path, 0u);
    assert_false(other_dealer_first); /* the link was made */
    assert_int_equal(st, FD_OK);
    assert_int_equal(mem[0] & mem[PAGE * PAGES - 1u], 0xA5u); /* the other's */
    host_flash_close(&hf);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* storage.c create_blank: sync_dir's status ignored (a new store whose
 * name may not survive a crash taken as made). A directory that cannot be
 * synced fails the creation. */
static void test_a_failed_directory_sync_fails_the_creation(void **state)
{
    (void)state;
    make_dir();
    char path[128];
    (void)snprintf(path, sizeof path, "%s/store", dir);
    fsync_fails = true;
    const fd_status st = host_flash_open_file(&hf, mem, PAGE, PAGES, path, 0u);
    fsync_fails = false;
    assert_int_equal(st, FD_ERR_NOT_READY);
    assert_non_null(strstr(host_storage_error(), "cannot sync its directory"));
    host_flash_close(&hf);
    (void)unlink(path);
    assert_int_equal(rmdir(dir), 0);
}

/* storage.c hal_storage_open: "n < 0 || (size_t)n >= sizeof secret_path"
 * with && (a "<file>.secret" name that does not fit cut short, naming
 * another file). A storage path of 4,090 characters: its secret's name is
 * refused, and the file the cut name would give ("<file>.secr", here
 * present and of the right size) is not opened. */
static void test_a_secret_name_too_long_is_refused(void **state)
{
    (void)state;
    make_dir();
    static char path[4096];
    size_t len = (size_t)snprintf(path, sizeof path, "%s/", dir);
    while (len + 3u <= 4090u) {
        path[len++] = '.';
        path[len++] = '/';
    }
    while (len < 4090u) {
        path[len++] = 's';
    }
    path[len] = '\0';
    static char cut[4096];
    memcpy(cut, path, len);
    memcpy(cut + len, ".secr", 6); /* 4,095 characters: the cut name */
    assert_int_equal(strlen(cut), 4095u);
    write_file(cut, 0xFFu, FD_SECRET_SIZE);
    host_storage_set_file(path, false);
    const hal_storage_area area = {FD_SECRET_ADDR, FD_FLASH_PAGE_SIZE, FD_SECRET_SIZE / FD_FLASH_PAGE_SIZE};
    fd_flash flash;
    const fd_status st = hal_storage_open(&area, &flash);
    host_storage_set_file(NULL, false);
    assert_int_equal(st, FD_ERR_NOT_READY);
    assert_int_equal(unlink(cut), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* storage.c host_program: "4u * (n + 1u)" to "/" (a torn program's words
 * changed in memory but not written to the file). After a torn program
 * the file is still the area's image byte for byte (host_storage.h), so a
 * restart from it sees what the cut left. */
static void test_a_torn_program_reaches_the_file(void **state)
{
    (void)state;
    make_dir();
    char path[128];
    (void)snprintf(path, sizeof path, "%s/store", dir);
    assert_int_equal(host_flash_open_file(&hf, mem, PAGE, PAGES, path, 0u), FD_OK);
    static uint32_t zeros[64];
    hf.cut_after = hf.steps;
    hf.torn = true;
    assert_int_equal(hf.flash.program(hf.flash.ctx, 0, zeros, 64), FD_ERR_STATE);
    assert_int_equal(mem[0] | mem[4], 0u); /* at least two words written whole */
    host_flash_close(&hf);
    const int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(read(fd, before, sizeof before), (ssize_t)sizeof before);
    assert_int_equal(close(fd), 0);
    assert_memory_equal(before, mem, sizeof mem);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* storage.c open_backing: "fd < 0" to "fd <= 0" (descriptor 0, which open
 * gives while stdin is closed, taken for a failure when errno still said
 * ENOENT: the store opened again and descriptor 0 leaked). A store opened
 * with stdin closed holds one descriptor, and closing it leaves none open. */
static void test_a_store_on_descriptor_0_leaks_nothing(void **state)
{
    (void)state;
    make_dir();
    char path[128];
    (void)snprintf(path, sizeof path, "%s/store", dir);
    write_file(path, 0xFFu, PAGE * PAGES);
    const int saved = fcntl(0, F_GETFD) != -1 ? dup(0) : -1; /* stdin, if the test has one */
    if (saved >= 0) {
        assert_int_equal(close(0), 0);
    }
    errno = ENOENT; /* as a failed call before may leave it */
    const fd_status st = host_flash_open_file(&hf, mem, PAGE, PAGES, path, 0u);
    const int held = hf.fd;
    host_flash_close(&hf);
    const int zero_open = fcntl(0, F_GETFD) != -1;
    if (zero_open) {
        (void)close(0);
    }
    if (saved >= 0) { /* stdin back before any assertion */
        assert_int_equal(dup2(saved, 0), 0);
        assert_int_equal(close(saved), 0);
    }
    assert_int_equal(st, FD_OK);
    assert_int_equal(held, 0);
    assert_false(zero_open);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* storage.c host_program: "offset + 4u * (uint32_t)over" to "-" (the
 * abort on a third program named the wrong word). In a child process,
 * whose stderr is a pipe: a program of three words at offset 0 whose third
 * has had its two programs aborts naming offset 8, page 0. */
static void test_a_third_program_names_its_word(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    (void)fflush(stderr);
    const pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        const struct rlimit no_core = {0, 0};
        (void)setrlimit(RLIMIT_CORE, &no_core); /* the abort leaves no core file */
        (void)dup2(fds[1], 2);
        (void)close(fds[0]);
        const uint32_t w[3] = {0xFFFFFFFEu, 0xFFFFFFFDu, 0xFFFFFFFBu};
        if (host_flash_open(&hf, mem, PAGE, PAGES, NULL) != FD_OK || hf.word_writes_max != 2u ||
            hf.flash.program(hf.flash.ctx, 8, &w[0], 1) != FD_OK ||
            hf.flash.program(hf.flash.ctx, 8, &w[1], 1) != FD_OK) {
            _exit(3);
        }
        (void)hf.flash.program(hf.flash.ctx, 0, w, 3); /* aborts */
        _exit(4);
    }
    (void)close(fds[1]);
    static char said[1024];
    size_t got = 0;
    ssize_t n;
    while (got < sizeof said - 1u && (n = read(fds[0], said + got, sizeof said - 1u - got)) > 0) {
        got += (size_t)n;
    }
    said[got] = '\0';
    (void)close(fds[0]);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    assert_non_null(strstr(said, "the word at offset 8 (page 0) would be programmed a third time"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nothing_changes_after_the_cut),
        cmocka_unit_test(test_erase_after_a_failed_write_changes_nothing),
        cmocka_unit_test(test_a_store_made_meanwhile_is_opened),
        cmocka_unit_test(test_a_failed_directory_sync_fails_the_creation),
        cmocka_unit_test(test_a_secret_name_too_long_is_refused),
        cmocka_unit_test(test_a_torn_program_reaches_the_file),
        cmocka_unit_test(test_a_store_on_descriptor_0_leaks_nothing),
        cmocka_unit_test(test_a_third_program_names_its_word),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
