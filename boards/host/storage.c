#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fd_board_map.h"
#include "host_storage.h"

static char last_error[512];

const char *host_storage_error(void) { return last_error; }

static void set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
}

static fd_status check_range(const host_flash *hf, uint32_t offset, size_t len)
{
    size_t size = (size_t)hf->flash.geometry.page_size * hf->flash.geometry.page_count;
    return offset <= size && len <= size - offset ? FD_OK : FD_ERR_TOO_LARGE;
}

/* mem[offset, +len) to the file, then fdatasync: false (and the store
 * failed for good) when either fails. */
static bool persist(host_flash *hf, uint32_t offset, size_t len)
{
    if (hf->fd < 0 || len == 0u) {
        return true;
    }
    const ssize_t n = pwrite(hf->fd, hf->mem + offset, len, (off_t)offset);
    const int write_errno = n < 0 ? errno : EIO; /* a short write is a failed one */
    if (n != (ssize_t)len) {
        set_error("storage file: write of %zu bytes at %u failed (%s): the journal stops; nothing after it is "
                  "acknowledged",
                  len, (unsigned)offset, strerror(write_errno));
    } else if (fdatasync(hf->fd) != 0) {
        set_error("storage file: sync failed (%s): the journal stops; nothing after it is acknowledged",
                  strerror(errno));
    } else {
        return true;
    }
    (void)fprintf(stderr, "dealer: %s\n", last_error);
    hf->io_failed = true;
    return false;
}

static uint32_t tear_random(host_flash *hf)
{
    uint32_t x = hf->tear_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    hf->tear_state = x;
    return x;
}

/* Counts the step; false when power is (now) off. */
static bool power_for_step(host_flash *hf)
{
    if (hf->cut) {
        return false;
    }
    hf->steps++;
    if (hf->cut_after != HOST_FLASH_NEVER && hf->steps > hf->cut_after) {
        hf->cut = true;
        return false;
    }
    return true;
}

/* ---- nWRITE: programs per word since its page's erase ---- */

static unsigned word_writes(const host_flash *hf, size_t word)
{
    return (hf->word_writes[word / 4u] >> (2u * (word % 4u))) & 3u;
}

static void count_word_write(host_flash *hf, size_t word)
{
    const unsigned n = word_writes(hf, word);
    if (n < 3u) {
        const unsigned shift = 2u * (word % 4u);
        hf->word_writes[word / 4u] = (uint8_t)((hf->word_writes[word / 4u] & ~(3u << shift)) | ((n + 1u) << shift));
    }
}

static void clear_page_writes(host_flash *hf, uint32_t page)
{
    const size_t words = hf->flash.geometry.page_size / 4u;
    for (size_t w = (size_t)page * words; w < (size_t)(page + 1u) * words; w++) {
        const unsigned shift = 2u * (w % 4u);
        hf->word_writes[w / 4u] = (uint8_t)(hf->word_writes[w / 4u] & ~(3u << shift));
    }
}

/* The first word of [offset, +count words) already at the limit, or -1. */
static long over_limit(const host_flash *hf, uint32_t offset, size_t count)
{
    if (hf->word_writes_max == 0u) {
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        if (word_writes(hf, offset / 4u + i) >= hf->word_writes_max) {
            return (long)i;
        }
    }
    return -1;
}

static fd_status host_erase(void *ctx, uint32_t page)
{
    host_flash *hf = ctx;
    const fd_flash_geometry *g = &hf->flash.geometry;
    if (page >= g->page_count) {
        return FD_ERR_TOO_LARGE;
    }
    if (hf->io_failed) {
        return FD_ERR_STATE;
    }
    uint8_t *p = hf->mem + (size_t)page * g->page_size;
    const bool was_off = hf->cut;
    if (!power_for_step(hf)) {
        if (hf->torn && !was_off) { /* this step is the cut: later ones find the power off */
            /* the page is left part erased: random bits set all over, or
             * only its start erased, or only its end (the header intact
             * over damaged records) */
            uint32_t mode = tear_random(hf) % 3u;
            uint32_t split = tear_random(hf) % g->page_size;
            for (uint32_t i = 0; i < g->page_size; i++) {
                if (mode == 0u) {
                    p[i] = (uint8_t)(p[i] | tear_random(hf));
                } else if (mode == 1u ? i < split : i >= split) {
                    p[i] = 0xFFu;
                }
            }
            (void)persist(hf, page * g->page_size, g->page_size);
        }
        return FD_ERR_STATE;
    }
    hf->erases++;
    memset(p, 0xFF, g->page_size);
    clear_page_writes(hf, page);
    return persist(hf, page * g->page_size, g->page_size) ? FD_OK : FD_ERR_STATE;
}

/* word i of a program at offset: mem AND value; counted when written in
 * full, or when a tear changed it. */
static void program_word(host_flash *hf, uint32_t offset, size_t i, uint32_t value, bool full)
{
    uint32_t old;
    memcpy(&old, hf->mem + offset + 4u * i, 4);
    const uint32_t now = old & value;
    memcpy(hf->mem + offset + 4u * i, &now, 4);
    if (full || now != old) {
        count_word_write(hf, offset / 4u + i);
    }
}

static fd_status host_program(void *ctx, uint32_t offset, const uint32_t *words, size_t count)
{
    host_flash *hf = ctx;
    if (words == NULL) {
        return FD_ERR_NULL;
    }
    if (offset % 4u != 0u) {
        return FD_ERR_PARSE;
    }
    if (count > SIZE_MAX / 4u || check_range(hf, offset, count * 4u) != FD_OK) {
        return FD_ERR_TOO_LARGE;
    }
    if (hf->io_failed) {
        return FD_ERR_STATE;
    }
    const long over = over_limit(hf, offset, count);
    if (over >= 0) {
        const uint32_t at = offset + 4u * (uint32_t)over;
        hf->overprograms++;
        if (!hf->overprogram_abort) {
            return FD_ERR_STATE; /* a test counting them */
        }
        (void)fprintf(stderr,
                      "host flash: the word at offset %u (page %u) would be programmed a third time since its "
                      "erase (nWRITE %u, hal/storage.h): refused\n",
                      (unsigned)at, (unsigned)(at / hf->flash.geometry.page_size), (unsigned)hf->word_writes_max);
        abort();
    }
    size_t n = count;
    bool tear = false;
    const bool was_off = hf->cut;
    if (!power_for_step(hf)) {
        if (!hf->torn || was_off || count == 0u) {
            return FD_ERR_STATE;
        }
        /* words fully written before the cut; a test fault point, not a card index: bias is harmless */
        n = tear_random(hf) % count;
        tear = true;
    } else {
        hf->programs++;
    }
    for (size_t i = 0; i < n; i++) {
        program_word(hf, offset, i, words[i], true);
    }
    if (tear) {
        /* the word being written: only some of its zero bits made it */
        program_word(hf, offset, n, words[n] | tear_random(hf), false);
        (void)persist(hf, offset, 4u * (n + 1u));
        return FD_ERR_STATE;
    }
    return persist(hf, offset, 4u * n) ? FD_OK : FD_ERR_STATE;
}

static fd_status host_read(void *ctx, uint32_t offset, void *out, size_t len)
{
    host_flash *hf = ctx;
    if (out == NULL) {
        return FD_ERR_NULL;
    }
    if (check_range(hf, offset, len) != FD_OK) {
        return FD_ERR_TOO_LARGE;
    }
    if (hf->cut || hf->io_failed) {
        return FD_ERR_STATE;
    }
    memcpy(out, hf->mem + offset, len);
    return FD_OK;
}

/* ---- the backing file ---- */

static bool all_bytes(const uint8_t *p, size_t len, uint8_t v)
{
    for (size_t i = 0; i < len; i++) {
        if (p[i] != v) {
            return false;
        }
    }
    return true;
}

/* A journal's image: blank, or some page starts with the page magic
 * (a dealer's file always has one once its first page is claimed). */
static bool looks_like_journal(const uint8_t *mem, uint32_t page_size, uint32_t page_count)
{
    if (all_bytes(mem, (size_t)page_size * page_count, 0xFFu)) {
        return true;
    }
    for (uint32_t p = 0; p < page_count; p++) {
        const uint8_t *h = mem + (size_t)p * page_size;
        const uint32_t magic = (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 | (uint32_t)h[3] << 24;
        if (magic == FD_JOURNAL_PAGE_MAGIC) {
            return true;
        }
    }
    return false;
}

static bool write_all(int fd, const uint8_t *p, size_t len)
{
    return pwrite(fd, p, len, 0) == (ssize_t)len && fdatasync(fd) == 0;
}

/* The directory holding path, synced: a new name in it survives a crash
 * (the records written to the file are synced with it). */
static fd_status sync_dir(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    const int n = slash == NULL ? snprintf(dir, sizeof dir, ".")
                                : snprintf(dir, sizeof dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    if (n < 0 || (size_t)n >= sizeof dir) {
        set_error("storage file '%s': path too long", path);
        return FD_ERR_NOT_READY;
    }
    const int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const bool synced = fd >= 0 && fsync(fd) == 0;
    const int sync_errno = errno;
    if (fd >= 0) {
        (void)close(fd);
    }
    if (!synced) {
        set_error("storage file '%s': cannot sync its directory (%s)", path, strerror(sync_errno));
        return FD_ERR_NOT_READY;
    }
    return FD_OK;
}

/* A blank store at path where no file is: a complete temporary file, linked
 * into place (link fails if another process made one meanwhile: fine, that
 * one is opened). */
static fd_status create_blank(const char *path, const uint8_t *blank, size_t size)
{
    char tmp[4096];
    const int n = snprintf(tmp, sizeof tmp, "%s.new-XXXXXX", path);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        set_error("storage file '%s': path too long", path);
        return FD_ERR_NOT_READY;
    }
    const int fd = mkstemp(tmp);
    if (fd < 0) {
        set_error("storage file '%s': cannot create it (%s)", path, strerror(errno));
        return FD_ERR_NOT_READY;
    }
    const bool written = write_all(fd, blank, size);
    const int write_errno = errno;
    (void)close(fd);
    const bool linked = written && (link(tmp, path) == 0 || errno == EEXIST);
    const int link_errno = errno;
    (void)unlink(tmp);
    if (!linked) {
        set_error("storage file '%s': cannot create it (%s)", path, strerror(written ? link_errno : write_errno));
        return FD_ERR_NOT_READY;
    }
    return sync_dir(path);
}

static fd_status open_backing(host_flash *hf, const char *path, unsigned flags)
{
    const uint32_t page_size = hf->flash.geometry.page_size;
    const uint32_t page_count = hf->flash.geometry.page_count;
    const size_t size = (size_t)page_size * page_count;
    const bool replace = (flags & HOST_FILE_REPLACE) != 0u;
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        const fd_status st = create_blank(path, hf->mem, size); /* mem is erased */
        if (st != FD_OK) {
            return st;
        }
        fd = open(path, O_RDWR | O_CLOEXEC);
    }
    if (fd < 0) {
        set_error("storage file '%s': cannot open it (%s)", path, strerror(errno));
        return FD_ERR_NOT_READY;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        set_error("storage file '%s': %s", path,
                  errno == EWOULDBLOCK ? "in use by another dealer (locked): refused" : strerror(errno));
        (void)close(fd);
        return FD_ERR_NOT_READY;
    }
    if (replace) {
        /* the operator asked for a blank journal here: the old contents go */
        if (ftruncate(fd, (off_t)size) != 0 || !write_all(fd, hf->mem, size)) {
            set_error("storage file '%s': cannot write a blank store (%s)", path, strerror(errno));
            (void)close(fd);
            return FD_ERR_NOT_READY;
        }
        hf->fd = fd;
        return FD_OK;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        set_error("storage file '%s': %s", path, strerror(errno));
        (void)close(fd);
        return FD_ERR_NOT_READY;
    }
    if ((uint64_t)sb.st_size != size) {
        set_error("storage file '%s' has %lld bytes, a store has %zu: not this dealer's store, refused and left "
                  "as it is",
                  path, (long long)sb.st_size, size);
        (void)close(fd);
        return FD_ERR_CORRUPT;
    }
    if (pread(fd, hf->mem, size, 0) != (ssize_t)size) {
        set_error("storage file '%s': cannot read it (%s)", path, strerror(errno));
        memset(hf->mem, 0xFF, size);
        (void)close(fd);
        return FD_ERR_NOT_READY;
    }
    if ((flags & HOST_FILE_JOURNAL) != 0u && !looks_like_journal(hf->mem, page_size, page_count)) {
        set_error("storage file '%s' holds no journal page and is not blank: not this dealer's store, refused "
                  "and left as it is",
                  path);
        memset(hf->mem, 0xFF, size);
        (void)close(fd);
        return FD_ERR_CORRUPT;
    }
    hf->fd = fd;
    return FD_OK;
}

fd_status host_flash_open_file(host_flash *hf, uint8_t *mem, uint32_t page_size, uint32_t page_count, const char *path,
                               unsigned flags)
{
    if (hf == NULL || mem == NULL) {
        return FD_ERR_NULL;
    }
    if (page_size == 0u || page_size % 4u != 0u || page_count == 0u) {
        return FD_ERR_STATE;
    }
    if ((uint64_t)page_size * page_count > HOST_FLASH_MAX_BYTES) {
        return FD_ERR_TOO_LARGE;
    }
    memset(hf, 0, sizeof *hf);
    hf->flash.geometry.page_size = page_size;
    hf->flash.geometry.page_count = page_count;
    hf->flash.geometry.write_unit = 4;
    hf->flash.geometry.erased_value = 0xFF;
    hf->flash.ctx = hf;
    hf->flash.erase = host_erase;
    hf->flash.program = host_program;
    hf->flash.read = host_read;
    hf->mem = mem;
    hf->fd = -1;
    hf->cut_after = HOST_FLASH_NEVER;
    hf->tear_state = 0x2545F491u;
    hf->word_writes_max = FD_FLASH_WORD_WRITES;
    hf->overprogram_abort = true;
    memset(mem, 0xFF, (size_t)page_size * page_count);
    return path != NULL ? open_backing(hf, path, flags) : FD_OK;
}

fd_status host_flash_open(host_flash *hf, uint8_t *mem, uint32_t page_size, uint32_t page_count, const char *path)
{
    return host_flash_open_file(hf, mem, page_size, page_count, path, 0u);
}

void host_flash_close(host_flash *hf)
{
    if (hf != NULL && hf->fd >= 0) {
        close(hf->fd); /* releases the lock */
        hf->fd = -1;
    }
}

void host_flash_reboot(host_flash *hf)
{
    hf->cut = false;
    hf->cut_after = HOST_FLASH_NEVER;
    hf->torn = false;
}

fd_status host_flash_flip(host_flash *hf, uint64_t bit)
{
    const fd_flash_geometry *g = &hf->flash.geometry;
    if (bit / 8u >= (uint64_t)g->page_size * g->page_count) {
        return FD_ERR_TOO_LARGE;
    }
    uint32_t at = (uint32_t)(bit / 8u);
    hf->mem[at] = (uint8_t)(hf->mem[at] ^ (1u << (bit % 8u)));
    (void)persist(hf, at, 1);
    return FD_OK;
}

/* The HAL's stores: the journal's area in a file named by --storage (else
 * memory), the device secret's area (FD_SECRET_ADDR) beside it in
 * "<file>.secret" (else memory). */
static const char *storage_path;
static bool storage_replace;
static host_flash hal_store = {.fd = -1}; /* not 0: closing it would close stdin */
static uint8_t hal_mem[HOST_FLASH_MAX_BYTES];
static host_flash secret_store = {.fd = -1};
static uint8_t secret_mem[FD_SECRET_SIZE];
static char secret_path[4096];

void host_storage_set_file(const char *path, bool replace)
{
    storage_path = path;
    storage_replace = replace;
}

fd_status hal_storage_open(const hal_storage_area *area, fd_flash *flash)
{
    if (area == NULL || flash == NULL) {
        return FD_ERR_NULL;
    }
    const bool secret = area->base == FD_SECRET_ADDR;
    host_flash *store = secret ? &secret_store : &hal_store;
    const char *path = storage_path;
    if (secret && path != NULL) {
        const int n = snprintf(secret_path, sizeof secret_path, "%s.secret", storage_path);
        if (n < 0 || (size_t)n >= sizeof secret_path) {
            set_error("storage file '%s': path too long", storage_path);
            return FD_ERR_NOT_READY;
        }
        path = secret_path;
    }
    if ((uint64_t)area->page_size * area->page_count > (secret ? sizeof secret_mem : sizeof hal_mem)) {
        return FD_ERR_STATE;
    }
    host_flash_close(store);
    const unsigned flags = secret ? 0u : HOST_FILE_JOURNAL | (storage_replace ? HOST_FILE_REPLACE : 0u);
    fd_status st =
        host_flash_open_file(store, secret ? secret_mem : hal_mem, area->page_size, area->page_count, path, flags);
    if (st == FD_OK) {
        *flash = store->flash;
    }
    return st;
}
