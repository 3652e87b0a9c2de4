/* fairdeal: the anti-rollback counter page (docs/SECURITY.md "Anti-rollback"):
 * the highest image version a bootloader ever accepted, kept in one flash
 * page as appended records, each a pair of words (version, ~version)
 * programmed once from erased (0xFFFFFFFF) and never rewritten, so the
 * flash's nWRITE rule holds and nothing is erased in use. A power cut
 * while a pair is programmed leaves a pair whose second word does not
 * match: it is ignored, so a cut can never lower the minimum (the highest
 * whole pair). A full page takes no more records: the minimum stays. */
#ifndef FAIRDEAL_BOOTCOUNT_H
#define FAIRDEAL_BOOTCOUNT_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FD_BOOTCOUNT_ERASED 0xFFFFFFFFu /* an erased word of the counter page */

/* Read the page (words 32-bit words, an even count). *min_version: the
 * highest version of a whole pair (0 when there is none); *next: the word
 * index of the first pair after the last programmed word, where the next
 * record goes (words when the page is full). Errors: FD_ERR_NULL,
 * FD_ERR_PARSE (words odd or 0). */
FD_MUST_CHECK fd_status fd_bootcount_scan(const uint32_t *page, size_t words, uint32_t *min_version, size_t *next);

/* Whether version must be recorded, and where: FD_OK with *index (program
 * page[*index] = version, then page[*index + 1] = ~version) when version is
 * above the minimum; FD_ERR_STATE when it is not (nothing to write);
 * FD_ERR_EXHAUSTED when the page is full; FD_ERR_TOO_LARGE for version
 * 0xFFFFFFFF (it reads as erased); the errors of fd_bootcount_scan. */
FD_MUST_CHECK fd_status fd_bootcount_plan(const uint32_t *page, size_t words, uint32_t version, size_t *index);

#ifdef __cplusplus
}
#endif

#endif
