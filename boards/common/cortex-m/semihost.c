#include "cortex_m.h"

static int semihost_call(int op, void *arg)
{
    register int r0 __asm("r0") = op;
    register void *r1 __asm("r1") = arg;
    __asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

int fd_semihost_open(const char *path, int mode)
{
    uint32_t args[3] = {(uint32_t)(uintptr_t)path, (uint32_t)mode, (uint32_t)__builtin_strlen(path)};
    return semihost_call(0x01, args);
}

int fd_semihost_read(int handle, void *buf, int len)
{
    uint32_t args[3] = {(uint32_t)handle, (uint32_t)(uintptr_t)buf, (uint32_t)len};
    return semihost_call(0x06, args);
}

_Noreturn void fd_semihost_exit(int code)
{
    /* SYS_EXIT_EXTENDED with ADP_Stopped_ApplicationExit carries the code. */
    uint32_t args[2] = {0x20026u, (uint32_t)code};
    (void)semihost_call(0x20, args);
    for (;;) {
    }
}
