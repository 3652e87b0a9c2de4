/* RECALL and LOG (docs/PROTOCOL.md): the journal's kept hands and events
 * printed from a walk of its records, each decoded by the record codec
 * (fairdeal/records.h). */
#ifndef FD_RECALL_H
#define FD_RECALL_H

#include <stdint.h>

#include "dealer.h"
#include "reply.h"

/* The round records of rounds from id `from` on, each as " | id=N ..."
 * fields (an unrevealed round's material is never shown). Returns the
 * walk's status (FD_ERR_NOT_READY without a mounted journal). */
fd_status fd_recall_write(const fd_writer *w, fd_dealer *d, uint32_t from);

/* The open round's positions skipped at power loss (docs/PROTOCOL.md
 * "Power loss"), one range per SKIPPED record in position order:
 * " skipped=P,A-B,..."; nothing when there are none. */
void fd_recall_skipped_write(const fd_writer *w, const fd_dealer *d);

/* The n newest events (n <= FD_REC_EVENTS_KEPT), oldest first, as
 * " | seq=N ..." fields. Returns the walk's status. */
fd_status fd_recall_log_write(const fd_writer *w, fd_dealer *d, uint32_t n);

#endif
