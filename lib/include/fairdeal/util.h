/* fairdeal: small helpers shared by the library, firmware and tools. */
#ifndef FAIRDEAL_UTIL_H
#define FAIRDEAL_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Overwrite len bytes with zeros in a way the compiler cannot drop as dead
 * stores (secret state wiping). */
void fd_wipe(void *p, size_t len);

/* Most decimal digits of a uint32_t (4294967295). */
#define FD_DEC_MAX_DIGITS 10u

/* v in decimal into out (no NUL); returns the number of digits,
 * 1..FD_DEC_MAX_DIGITS. */
size_t fd_dec_encode(uint32_t v, char out[FD_DEC_MAX_DIGITS]);

/* Lowercase hex of bin[0..len) into out, NUL-terminated; out must hold
 * 2*len + 1 chars. Errors: FD_ERR_NULL, FD_ERR_BUFFER_TOO_SMALL. */
FD_MUST_CHECK fd_status fd_hex_encode(const uint8_t *bin, size_t len, char *out, size_t out_size);

/* Parse exactly 2*len hex digits (either case) from hex[0..hex_len) into
 * out[0..len), where len = hex_len / 2. Errors: FD_ERR_NULL, FD_ERR_PARSE
 * (odd length or a non-hex char), FD_ERR_BUFFER_TOO_SMALL (len > out_size).
 * out is written only on success. */
FD_MUST_CHECK fd_status fd_hex_decode(const char *hex, size_t hex_len, uint8_t *out, size_t out_size, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
