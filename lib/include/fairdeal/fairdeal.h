/** @file
 * fairdeal: the whole public API in one include.
 *
 * Contract for every function in the library:
 * - No heap and no global or static mutable state: every object (fd_drbg,
 *   fd_chacha_drbg, fd_entropy, fd_shoe, ...) lives in memory the caller
 *   owns and passes in, and the library keeps no pointer to it between calls
 *   except the ones stored inside the object itself.
 * - Thread safety: different objects may be used from different threads at
 *   once; one object (and everything it points to, e.g. the entropy source
 *   bound to a DRBG) must be used by one thread at a time. Guard shared
 *   objects with your own lock. Nothing blocks or sleeps except the entropy
 *   reader the caller supplies.
 * - Every fallible function returns fd_status (FD_OK = 0). On an error the
 *   outputs are not usable: shuffles leave the array as it was, generators
 *   zero their output, bad arguments change nothing.
 *
 * A reproducible shuffle from a 32-byte seed:
 * @code
 *   #include <fairdeal/fairdeal.h>
 *   fd_chacha_drbg state;
 *   fd_rng rng;
 *   fd_status st = fd_rng_from_seed(&state, seed, &rng);
 *   if (st == FD_OK) {
 *       st = fd_shuffle(items, count, sizeof items[0], &rng);
 *   }
 *   fd_chacha_drbg_uninstantiate(&state);
 * @endcode
 */
#ifndef FAIRDEAL_FAIRDEAL_H
#define FAIRDEAL_FAIRDEAL_H

#include "fairdeal/aead.h"
#include "fairdeal/bounded.h"
#include "fairdeal/chacha20.h"
#include "fairdeal/combined.h"
#include "fairdeal/commit.h"
#include "fairdeal/deck.h"
#include "fairdeal/drbg.h"
#include "fairdeal/entropy.h"
#include "fairdeal/fullentropy.h"
#include "fairdeal/health.h"
#include "fairdeal/hmac_drbg.h"
#include "fairdeal/journal.h"
#include "fairdeal/link.h"
#include "fairdeal/records.h"
#include "fairdeal/rng.h"
#include "fairdeal/roots.h"
#include "fairdeal/round.h"
#include "fairdeal/seeded.h"
#include "fairdeal/selftest.h"
#include "fairdeal/sha256.h"
#include "fairdeal/shuffle.h"
#include "fairdeal/status.h"
#include "fairdeal/util.h"
#include "fairdeal/version.h"
#include "fairdeal/x25519.h"

#endif
