/* Internal: swapping as drawn, x86-64's form of the typed descending
 * shuffles (shuffle.c). fd_shuffle_u8/u16 and fd_sattolo_u8/u16 make each
 * group's swaps as soon as the group is accepted, instead of all draws
 * first and then all swaps, where that was measured faster: the swaps are
 * a chain through memory, which then overlaps the next groups' multiply
 * chains. The output is the same either way (the same swaps in the same
 * order on the same draws); the choice is per CPU (shuffle.c,
 * swap_as_drawn_here), and the entry points below let the tests run both
 * forms on any x86-64 machine. */
#ifndef FAIRDEAL_SHUFFLE_X86_H
#define FAIRDEAL_SHUFFLE_X86_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fairdeal/rng.h"
#include "batch_x86.h"

#define FD_SWAP_AS_DRAWN FD_BATCH_X86

#if FD_SWAP_AS_DRAWN
/* fd_shuffle_u8 (sattolo false) or fd_sattolo_u8 (true), swapping as
 * drawn when as_drawn is true and the shuffle qualifies (a byte source,
 * n > 13), else in two phases. Same arguments, output and errors as
 * those. */
fd_status fd_descending_u8_form(uint8_t *a, size_t n, const fd_rng *rng, bool sattolo, bool as_drawn);

/* The same for fd_shuffle_u16 and fd_sattolo_u16. */
fd_status fd_descending_u16_form(uint16_t *a, size_t n, const fd_rng *rng, bool sattolo, bool as_drawn);
#endif

#endif
