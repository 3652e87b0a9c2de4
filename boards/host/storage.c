#include <fcntl.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fd_board_map.h"
#include "host_storage.h"

static fd_status check_range(const host_flash *hf, uint32_t offset, size_t len)
{
    size_t size = (size_t)hf->flash.geometry.page_size * hf->flash.geometry.page_count;
    return offset <= size && len <= size - offset ? FD_OK : FD_ERR_TOO_LARGE;
}

static void persist(host_flash *hf, uint32_t offset, size_t len)
{
    if (hf->fd >= 0 && len > 0u) {
        /* a short write is a lost write: it shows as a damaged journal */
        (void)!pwrite(hf->fd, hf->mem + offset, len, (off_t)offset);
    }
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

static fd_status host_erase(void *ctx, uint32_t page)
{
    host_flash *hf = ctx;
    const fd_flash_geometry *g = &hf->flash.geometry;
    if (page >= g->page_count) {
        return FD_ERR_TOO_LARGE;
    }
    uint8_t *p = hf->mem + (size_t)page * g->page_size;
    if (!power_for_step(hf)) {
        if (hf->torn && hf->steps == hf->cut_after + 1u) {
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
            persist(hf, page * g->page_size, g->page_size);
        }
        return FD_ERR_STATE;
    }
    hf->erases++;
    memset(p, 0xFF, g->page_size);
    persist(hf, page * g->page_size, g->page_size);
    return FD_OK;
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
    size_t n = count;
    bool tear = false;
    if (!power_for_step(hf)) {
        if (!hf->torn || hf->steps != hf->cut_after + 1u || count == 0u) {
            return FD_ERR_STATE;
        }
        /* words fully written before the cut; a test fault point, not a card index: bias is harmless */
        n = tear_random(hf) % count;
        tear = true;
    } else {
        hf->programs++;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t old;
        memcpy(&old, hf->mem + offset + 4u * i, 4);
        old &= words[i];
        memcpy(hf->mem + offset + 4u * i, &old, 4);
    }
    if (tear) {
        /* the word being written: only some of its zero bits made it */
        uint32_t old;
        memcpy(&old, hf->mem + offset + 4u * n, 4);
        old &= words[n] | tear_random(hf);
        memcpy(hf->mem + offset + 4u * n, &old, 4);
        persist(hf, offset, 4u * (n + 1u));
        return FD_ERR_STATE;
    }
    persist(hf, offset, 4u * n);
    return FD_OK;
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
    if (hf->cut) {
        return FD_ERR_STATE;
    }
    memcpy(out, hf->mem + offset, len);
    return FD_OK;
}

fd_status host_flash_open(host_flash *hf, uint8_t *mem, uint32_t page_size, uint32_t page_count, const char *path)
{
    if (hf == NULL || mem == NULL) {
        return FD_ERR_NULL;
    }
    if (page_size == 0u || page_size % 4u != 0u || page_count == 0u) {
        return FD_ERR_STATE;
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
    size_t size = (size_t)page_size * page_count;
    memset(mem, 0xFF, size);
    if (path != NULL) {
        hf->fd = open(path, O_RDWR | O_CREAT, 0600);
        if (hf->fd < 0) {
            return FD_ERR_NOT_READY;
        }
        struct stat sb;
        if (fstat(hf->fd, &sb) == 0 && (size_t)sb.st_size == size && pread(hf->fd, mem, size, 0) == (ssize_t)size) {
            return FD_OK;
        }
        memset(mem, 0xFF, size);
        if (ftruncate(hf->fd, 0) != 0 || pwrite(hf->fd, mem, size, 0) != (ssize_t)size) {
            close(hf->fd);
            hf->fd = -1;
            return FD_ERR_NOT_READY;
        }
    }
    return FD_OK;
}

void host_flash_close(host_flash *hf)
{
    if (hf != NULL && hf->fd >= 0) {
        close(hf->fd);
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
    persist(hf, at, 1);
    return FD_OK;
}

/* The HAL's stores: the journal's area in a file named by --storage (else
 * memory), the device secret's area (FD_SECRET_ADDR) beside it in
 * "<file>.secret" (else memory). */
static const char *storage_path;
static host_flash hal_store = {.fd = -1}; /* not 0: closing it would close stdin */
static uint8_t hal_mem[1u << 20];
static host_flash secret_store = {.fd = -1};
static uint8_t secret_mem[FD_SECRET_SIZE];
static char secret_path[4096];

void host_storage_set_file(const char *path) { storage_path = path; }

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
            return FD_ERR_NOT_READY;
        }
        path = secret_path;
    }
    if ((uint64_t)area->page_size * area->page_count > (secret ? sizeof secret_mem : sizeof hal_mem)) {
        return FD_ERR_STATE;
    }
    host_flash_close(store);
    fd_status st = host_flash_open(store, secret ? secret_mem : hal_mem, area->page_size, area->page_count, path);
    if (st == FD_OK) {
        *flash = store->flash;
    }
    return st;
}
