/* fairdeal-tool verify (tools/verify.c). */
#ifndef FD_TOOL_VERIFY_H
#define FD_TOOL_VERIFY_H

#include <stdio.h>

/* Check a dealer transcript (machine mode, docs/PROTOCOL.md) read from `in`:
 * every round of every mode, every dealt card. Valid: prints "OK verify
 * rounds=R dealt=D" and returns 0. Invalid: one line on stderr naming the
 * transcript line and what is wrong, then exit(1). */
int fd_tool_verify(FILE *in);

/* Check docs/VERIFY.md round lines read from `in` (one per line; empty lines
 * and lines starting '#' skipped), each strictly parsed and recomputed.
 * Valid: prints "OK verify rounds=R" and returns 0; else one line on stderr
 * and exit(1). */
int fd_tool_verify_rounds(FILE *in);

#endif
