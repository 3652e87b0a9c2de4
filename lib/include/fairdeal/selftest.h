/* fairdeal: power-on / on-demand known-answer self-tests of every
 * cryptographic primitive the dealer depends on. */
#ifndef FAIRDEAL_SELFTEST_H
#define FAIRDEAL_SELFTEST_H

#include "fairdeal/status.h"

#include <stdint.h>

#include "fairdeal/deck.h"

/* SHA-256 ("abc", FIPS 180-4), HMAC-SHA-256 (RFC 4231 case 1), ChaCha20
 * (RFC 8439 §2.3.2), HMAC_DRBG (NIST CAVP no-reseed COUNT 0) and the
 * verifiable round's whole path, seed -> keystream -> exact bounded
 * integers -> permutation (docs/VERIFY.md vector 1, checked by
 * fd_selftest_round_answer). FD_OK, or FD_ERR_KAT if any answer is wrong. */
fd_status fd_selftest_kat(void);

/* Compares a 52-card order (and its commitment) with the known answer of
 * VERIFY.md vector 1, as fd_selftest_kat does; exported so tests can show
 * that a wrong mapping is caught. FD_OK or FD_ERR_KAT. */
fd_status fd_selftest_round_answer(const uint8_t commitment[32], const fd_card *order, uint16_t count);

#endif
