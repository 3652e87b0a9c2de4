/* fairdeal: X25519 (RFC 7748 §5), the Diffie-Hellman function on
 * Curve25519. No heap; constant time: no branch and no memory index
 * depends on the scalar or on the point. */
#ifndef FAIRDEAL_X25519_H
#define FAIRDEAL_X25519_H

#include <stdint.h>

#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes in a scalar, a u-coordinate and a shared secret. */
#define FD_X25519_SIZE 32u

/* out = X25519(scalar, u): the scalar is clamped and the top bit of u is
 * ignored, as RFC 7748 §5 says. out may alias scalar or u. Never fails. */
void fd_x25519(uint8_t out[FD_X25519_SIZE], const uint8_t scalar[FD_X25519_SIZE], const uint8_t u[FD_X25519_SIZE]);

/* out = X25519(scalar, 9): the public key of a private scalar. */
void fd_x25519_public(uint8_t out[FD_X25519_SIZE], const uint8_t scalar[FD_X25519_SIZE]);

/* Shared secret of a private scalar and a peer's public key. Errors:
 * FD_ERR_NULL; FD_ERR_PARSE when the result is all zero (the peer sent a
 * point of small order: RFC 7748 §6.1's check), and then out is zeroed. */
FD_MUST_CHECK fd_status fd_x25519_shared(uint8_t out[FD_X25519_SIZE], const uint8_t scalar[FD_X25519_SIZE],
                                         const uint8_t peer[FD_X25519_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
