/* LD_PRELOAD fault injection for the host dealer: the host store's file
 * (tests/tools/test_host_store.sh): with FD_EIO_PWRITE=n the n-th pwrite
 * and every later one fail with EIO, with FD_EIO_SYNC=n the n-th fdatasync
 * and every later one (a disk that died); the host TRNG's start-up check
 * (tests/tools/test_trng_faults.sh): with FD_EIO_PROBE=n the n-th getrandom
 * made with GRND_NONBLOCK (hal_trng_init's probe) and every later one fail
 * with EAGAIN (a kernel pool not yet seeded), with FD_EIO_READ=n the n-th
 * getrandom without GRND_NONBLOCK (hal_trng_read's samples) and every later
 * one fail with EIO (a source that broke). Each count starts at 1 over the
 * whole process; unset or 0: never. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/types.h>
#include <unistd.h>

static unsigned long limit_of(const char *name)
{
    const char *v = getenv(name);
    return v != NULL ? strtoul(v, NULL, 10) : 0ul;
}

/* true when this call (the calls-th) must fail */
static int failing(const char *name, unsigned long *calls)
{
    const unsigned long limit = limit_of(name);
    ++*calls;
    return limit != 0ul && *calls >= limit;
}

static unsigned long pwrites;
static unsigned long syncs;
static unsigned long probes;
static unsigned long reads;

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (real == NULL) {
        *(void **)&real = dlsym(RTLD_NEXT, "pwrite");
    }
    if (failing("FD_EIO_PWRITE", &pwrites)) {
        errno = EIO;
        return -1;
    }
    return real(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) { return pwrite(fd, buf, n, off); }

int fdatasync(int fd)
{
    static int (*real)(int);
    if (real == NULL) {
        *(void **)&real = dlsym(RTLD_NEXT, "fdatasync");
    }
    if (failing("FD_EIO_SYNC", &syncs)) {
        errno = EIO;
        return -1;
    }
    return real(fd);
}

ssize_t getrandom(void *buf, size_t n, unsigned int flags)
{
    static ssize_t (*real)(void *, size_t, unsigned int);
    if (real == NULL) {
        *(void **)&real = dlsym(RTLD_NEXT, "getrandom");
    }
    if ((flags & GRND_NONBLOCK) != 0u && failing("FD_EIO_PROBE", &probes)) {
        errno = EAGAIN;
        return -1;
    }
    if ((flags & GRND_NONBLOCK) == 0u && failing("FD_EIO_READ", &reads)) {
        errno = EIO;
        return -1;
    }
    return real(buf, n, flags);
}
