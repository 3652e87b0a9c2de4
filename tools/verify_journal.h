/* fairdeal-tool verify --journal (tools/verify_journal.c). */
#ifndef FD_TOOL_VERIFY_JOURNAL_H
#define FD_TOOL_VERIFY_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

/* Check the storage-area dump at path with the device key: 0 when every
 * record and every revealed round checks (one OK line on stdout), 1 with one
 * line on stderr naming the first bad record or round, 2 when unreadable. */
int fd_tool_verify_journal(const char *path, const uint8_t *key, size_t key_len);

#endif
