#include "fairdeal/util.h"

#include <string.h>

void fd_wipe(void *p, size_t len)
{
#if defined(__GNUC__)
    /* memset at full speed; the empty asm claims to read the memory, so the
     * compiler must keep the stores even when p is never read again. */
    memset(p, 0, len);
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    volatile uint8_t *v = p;
    while (len-- > 0u) {
        *v++ = 0;
    }
#endif
}

fd_status fd_hex_encode(const uint8_t *bin, size_t len, char *out, size_t out_size)
{
    static const char digits[] = "0123456789abcdef";
    if ((bin == NULL && len > 0u) || out == NULL) {
        return FD_ERR_NULL;
    }
    if (out_size < 2u * len + 1u) {
        return FD_ERR_BUFFER_TOO_SMALL;
    }
    for (size_t i = 0; i < len; i++) {
        out[2u * i] = digits[bin[i] >> 4];
        out[2u * i + 1u] = digits[bin[i] & 0xFu];
    }
    out[2u * len] = '\0';
    return FD_OK;
}

/* 0..15 for a hex digit, HEX_INVALID for anything else. */
#define HEX_INVALID 0xFFu
static unsigned hex_value(char c)
{
    if (c >= '0' && c <= '9') {
        return (unsigned)(c - '0');
    }
    if (c >= 'a' && c <= 'f') {
        return (unsigned)(c - 'a') + 10u;
    }
    if (c >= 'A' && c <= 'F') {
        return (unsigned)(c - 'A') + 10u;
    }
    return HEX_INVALID;
}

fd_status fd_hex_decode(const char *hex, size_t hex_len, uint8_t *out, size_t out_size, size_t *len)
{
    if ((hex == NULL && hex_len > 0u) || (out == NULL && hex_len > 0u) || len == NULL) {
        return FD_ERR_NULL;
    }
    if (hex_len % 2u != 0u) {
        return FD_ERR_PARSE;
    }
    for (size_t i = 0; i < hex_len; i++) {
        if (hex_value(hex[i]) == HEX_INVALID) {
            return FD_ERR_PARSE;
        }
    }
    if (hex_len / 2u > out_size) {
        return FD_ERR_BUFFER_TOO_SMALL;
    }
    for (size_t i = 0; i < hex_len / 2u; i++) {
        out[i] = (uint8_t)((hex_value(hex[2u * i]) << 4) | hex_value(hex[2u * i + 1u]));
    }
    *len = hex_len / 2u;
    return FD_OK;
}

size_t fd_dec_encode(uint32_t v, char out[FD_DEC_MAX_DIGITS])
{
    char reversed[10];
    size_t n = 0;
    do {
        reversed[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0u);
    for (size_t i = 0; i < n; i++) {
        out[i] = reversed[n - 1u - i];
    }
    return n;
}
