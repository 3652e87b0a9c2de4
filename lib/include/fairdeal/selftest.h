/* fairdeal: power-on / on-demand known-answer self-tests of every
 * cryptographic primitive the dealer depends on. */
#ifndef FAIRDEAL_SELFTEST_H
#define FAIRDEAL_SELFTEST_H

#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SHA-256 ("abc", FIPS 180-4), HMAC-SHA-256 (RFC 4231 case 1), ChaCha20
 * (RFC 8439 §2.3.2), HMAC_DRBG (NIST CAVP no-reseed COUNT 0) and the
 * verifiable round's whole path, seed -> keystream -> exact bounded
 * integers -> permutation (fd_round_selftest). FD_OK, or FD_ERR_KAT if any
 * answer is wrong. */
FD_MUST_CHECK fd_status fd_selftest_kat(void);

#ifdef __cplusplus
}
#endif

#endif
