/* fairdeal-tool verify --journal (tools/verify_journal.c). */
#ifndef FD_TOOL_VERIFY_JOURNAL_H
#define FD_TOOL_VERIFY_JOURNAL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "fairdeal/deck.h"
#include "fairdeal/round.h"

/* Check the storage-area dump at path with the device key: 0 when every
 * record and every revealed round checks (one OK line on stdout), 1 with one
 * line on stderr naming the first bad record or round, 2 when unreadable. */
int fd_tool_verify_journal(const char *path, const uint8_t *key, size_t key_len);

/* A revealed round's order into shoe, from its material (mode 2: S with the
 * header and seeds; else the salt and the order's card ids, u16 LE, of a
 * count-card shoe of header's kind/decks/jokers). NULL when the material
 * gives the commitment, else why not. */
const char *fd_tool_revealed_order(uint8_t mode, const fd_round_header *header, const fd_round_seeds *seeds,
                                   uint16_t count, const uint8_t *material, size_t len,
                                   const uint8_t commitment[FD_SHA256_SIZE], fd_shoe *shoe);

/* Check a RECALL reply (docs/PROTOCOL.md) read from in: every hand with its
 * revealed material recomputes its commitment and reveal hash, and every
 * card it lists is the order's card at its position, none twice. 0 and one
 * OK line on stdout, or 1 with one line on stderr. */
int fd_tool_verify_recall(FILE *in);

#endif
