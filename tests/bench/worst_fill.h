/* The journal at its worst-case fill for start-up (docs/PERFORMANCE.md
 * "Journal start-up at the worst-case fill"), shared by bench_target.c and
 * budget_target.c. */
#ifndef FD_BENCH_WORST_FILL_H
#define FD_BENCH_WORST_FILL_H

#include <stdbool.h>
#include <stdint.h>

#include "dealer.h"

/* Sends one command line to the dealer; true when it answered OK. */
typedef bool (*worst_fill_cmd_fn)(void *ctx, const char *line);

/* Drives d (started over an erased area, its shoe any) through cmd, as a
 * controller would, to the fill whose power-on walks the most records:
 * every live page full (as many pages as compaction ever leaves live, the
 * page being filled too full for another record) of the smallest records
 * a legal session writes: one-card DEALs (52 bytes), four CUTs (48) and
 * eight one-byte seeds (52) per round, 8-deck + 2-joker verifiable rounds
 * (the fewest ROUND_SECRET parts per card), and the newest round open,
 * dealt as far as that allows. Returns the commands sent, 0 when one was
 * refused. */
uint32_t worst_fill(const fd_dealer *d, worst_fill_cmd_fn cmd, void *ctx);

/* Records in the live range of d's journal (from its oldest live page to
 * the newest record): what a mount walks. */
uint32_t worst_fill_live_records(const fd_dealer *d);

#endif
