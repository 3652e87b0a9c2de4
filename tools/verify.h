/* fairdeal-tool verify (tools/verify.c). */
#ifndef FD_TOOL_VERIFY_H
#define FD_TOOL_VERIFY_H

#include <stdio.h>

/* Check a dealer transcript read from `in`. Valid: prints "OK verify
 * rounds=R dealt=D" and returns 0. Invalid: one line on stderr naming the
 * transcript line and what is wrong, then exit(1). */
int fd_tool_verify(FILE *in);

#endif
