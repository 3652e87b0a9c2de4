#include "reply.h"

#include <string.h>

#include "fairdeal/util.h"
#include "word.h"

void fd_put(const fd_writer *w, const char *s) { w->fn(w->ctx, s, strlen(s)); }

void fd_put_u32(const fd_writer *w, uint32_t v)
{
    char digits[10];
    w->fn(w->ctx, digits, fd_dec_encode(v, digits));
}

void fd_put_u64(const fd_writer *w, uint64_t v)
{
    char digits[20];
    size_t at = sizeof digits;
    do {
        digits[--at] = (char)('0' + (char)(v % 10u));
        v /= 10u;
    } while (v != 0u);
    w->fn(w->ctx, digits + at, sizeof digits - at);
}

void fd_put_field(const fd_writer *w, const char *key, const char *value)
{
    fd_put(w, key);
    fd_put(w, value);
}

void fd_put_field_u32(const fd_writer *w, const char *key, uint32_t value)
{
    fd_put(w, key);
    fd_put_u32(w, value);
}

void fd_put_hex(const fd_writer *w, const uint8_t *bin, size_t len)
{
    char hex[2u * 32u + 1u];
    while (len > 0u) {
        size_t n = len < 32u ? len : 32u;
        /* cannot fail: n <= 32 and hex holds 2 * 32 + 1 characters */
        (void)fd_hex_encode(bin, n, hex, sizeof hex);
        w->fn(w->ctx, hex, 2u * n);
        bin += n;
        len -= n;
    }
}

void fd_put_hex_u32(const fd_writer *w, uint32_t v)
{
    uint8_t be[4];
    fd_store_be32(be, v);
    fd_put_hex(w, be, sizeof be);
}

void fd_put_beacon(const fd_writer *w, uint8_t slot, uint64_t index)
{
    fd_put_field_u32(w, " beacon=", slot);
    fd_put(w, ":");
    fd_put_u64(w, index);
}

void fd_put_positions(const fd_writer *w, uint32_t first, uint32_t count)
{
    fd_put_u32(w, first);
    if (count > 1u) {
        fd_put(w, "-");
        fd_put_u32(w, first + count - 1u);
    }
}
