#include "reply.h"

#include <string.h>

#include "fairdeal/util.h"

void put(const writer *w, const char *s) { w->fn(w->ctx, s, strlen(s)); }

void put_u32(const writer *w, uint32_t v)
{
    char digits[10];
    w->fn(w->ctx, digits, fd_dec_encode(v, digits));
}

void put_u64(const writer *w, uint64_t v)
{
    char digits[20];
    size_t at = sizeof digits;
    do {
        digits[--at] = (char)('0' + (char)(v % 10u));
        v /= 10u;
    } while (v != 0u);
    w->fn(w->ctx, digits + at, sizeof digits - at);
}

void put_field(const writer *w, const char *key, const char *value)
{
    put(w, key);
    put(w, value);
}

void put_field_u32(const writer *w, const char *key, uint32_t value)
{
    put(w, key);
    put_u32(w, value);
}

void put_hex(const writer *w, const uint8_t *bin, size_t len)
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

void put_beacon(const writer *w, uint8_t slot, uint64_t index)
{
    put_field_u32(w, " beacon=", slot);
    put(w, ":");
    put_u64(w, index);
}

void put_positions(const writer *w, uint32_t first, uint32_t count)
{
    put_u32(w, first);
    if (count > 1u) {
        put(w, "-");
        put_u32(w, first + count - 1u);
    }
}
