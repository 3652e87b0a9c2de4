/* Shared by the libFuzzer targets: an input reader and the invariant check.
 * A failed check prints what broke and aborts, which libFuzzer reports as a
 * crash with the input saved as an artifact. */
#ifndef FD_FUZZ_SUPPORT_H
#define FD_FUZZ_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(cond)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #cond);                               \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

/* Consumes the fuzzer's bytes front to back; past the end it reads zeros. */
typedef struct fuzz_input {
    const uint8_t *data;
    size_t len;
    size_t pos;
} fuzz_input;

static inline uint8_t fuzz_u8(fuzz_input *in) { return in->pos < in->len ? in->data[in->pos++] : 0u; }

static inline uint16_t fuzz_u16(fuzz_input *in)
{
    uint16_t lo = fuzz_u8(in);
    return (uint16_t)(lo | (uint16_t)(fuzz_u8(in) << 8));
}

static inline uint32_t fuzz_u32(fuzz_input *in)
{
    uint32_t lo = fuzz_u16(in);
    return lo | ((uint32_t)fuzz_u16(in) << 16);
}

static inline size_t fuzz_left(const fuzz_input *in) { return in->len - in->pos; }

/* Up to max bytes of the input, by reference; *len says how many. */
static inline const uint8_t *fuzz_bytes(fuzz_input *in, size_t max, size_t *len)
{
    size_t n = fuzz_left(in) < max ? fuzz_left(in) : max;
    const uint8_t *p = in->data + in->pos;
    in->pos += n;
    *len = n;
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
