/* The dealer's reply writer (docs/PROTOCOL.md): text pieces to an
 * fd_write_fn, no printf (it would pull in the heap). Shared by the
 * protocol and the journal's printing (recall.c). */
#ifndef FD_REPLY_H
#define FD_REPLY_H

#include <stddef.h>
#include <stdint.h>

/* Where replies go: the UART, stdout, or a test buffer. */
typedef void (*fd_write_fn)(void *ctx, const char *data, size_t len);

typedef struct writer {
    fd_write_fn fn;
    void *ctx;
} writer;

/* A NUL-terminated string. */
void put(const writer *w, const char *s);
/* Decimal. */
void put_u32(const writer *w, uint32_t v);
void put_u64(const writer *w, uint64_t v);
/* key then value (" key=value": the key carries its space and '='). */
void put_field(const writer *w, const char *key, const char *value);
void put_field_u32(const writer *w, const char *key, uint32_t value);
/* Lower-case hex of len bytes. */
void put_hex(const writer *w, const uint8_t *bin, size_t len);
/* " beacon=SLOT:INDEX" */
void put_beacon(const writer *w, uint8_t slot, uint64_t index);
/* A range of card positions (docs/PROTOCOL.md "Power loss"): "P" for one
 * (count 1), "A-B" (A = first, B = first + count - 1) for more. */
void put_positions(const writer *w, uint32_t first, uint32_t count);

#endif
