/* The dealer's sources of randomness (docs/ENTROPY.md "What the dealer calls"), private to dealer.c and
 * dealer_sources.c: the device secret and seed file as roots of trust of
 * the DRBG, and the start of every round on its source. */
#ifndef FD_DEALER_SOURCES_H
#define FD_DEALER_SOURCES_H

#include "dealer.h"

/* Once at init: load the device secret from the configured page. Its
 * status is kept (fd_dealer_secret_ready); never a fault by itself. */
void fd_dealer_load_secret(fd_dealer *d);

/* At init and every SELFTEST, after the start-up tests: instantiate the
 * DRBG with the roots (device secret + the stored seed file), write the
 * next seed file and bind the combined source, before any output is used.
 * No usable secret: nothing is instantiated and FD_OK (rounds are refused
 * by fd_dealer_secret_ready). Errors: the source's; in a release build
 * FD_ERR_NOT_READY for a seed file that cannot be read (other than none
 * yet) or written. */
fd_status fd_dealer_start_sources(fd_dealer *d);

/* When a round's command arrives (precondition: fd_dealer_secret_ready
 * passed): read a fresh window of raw samples, rewrite the seed file when
 * FD_DEALER_SEED_FILE_PERIOD rounds have begun since the last, and hand
 * out the round's source. Errors: the source's or (release) the seed
 * file's: the caller latches the fault. */
fd_status fd_dealer_begin_round(fd_dealer *d, fd_round_source src, fd_rng *rng);

#endif
