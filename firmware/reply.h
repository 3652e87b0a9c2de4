/* The dealer's reply writer (docs/PROTOCOL.md): text pieces to an
 * fd_write_fn, no printf (it would pull in the heap). Shared by the
 * protocol and the journal's printing (recall.c). */
#ifndef FD_REPLY_H
#define FD_REPLY_H

#include <stddef.h>
#include <stdint.h>

/* Where replies go: the UART, stdout, or a test buffer. */
typedef void (*fd_write_fn)(void *ctx, const char *data, size_t len);

typedef struct fd_writer {
    fd_write_fn fn;
    void *ctx;
} fd_writer;

/* A NUL-terminated string. */
void fd_put(const fd_writer *w, const char *s);
/* Decimal. */
void fd_put_u32(const fd_writer *w, uint32_t v);
void fd_put_u64(const fd_writer *w, uint64_t v);
/* key then value (" key=value": the key carries its space and '='). */
void fd_put_field(const fd_writer *w, const char *key, const char *value);
void fd_put_field_u32(const fd_writer *w, const char *key, uint32_t value);
/* Lower-case hex of len bytes. */
void fd_put_hex(const fd_writer *w, const uint8_t *bin, size_t len);
/* v as 8 lower-case hex digits, most significant first. */
void fd_put_hex_u32(const fd_writer *w, uint32_t v);
/* " beacon=SLOT:INDEX" */
void fd_put_beacon(const fd_writer *w, uint8_t slot, uint64_t index);
/* A range of card positions (docs/PROTOCOL.md "Power loss"): "P" for one
 * (count 1), "A-B" (A = first, B = first + count - 1) for more. */
void fd_put_positions(const fd_writer *w, uint32_t first, uint32_t count);

#endif
