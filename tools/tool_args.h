/* fairdeal-tool: the option reader and file reader its subcommands share
 * (host only: exits on a usage error, reads files into malloc'd memory). */
#ifndef FAIRDEAL_TOOL_ARGS_H
#define FAIRDEAL_TOOL_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* "fairdeal-tool: " + fmt (one %s: arg) on stderr, then exit status 2. */
_Noreturn void fd_tool_usage(const char *fmt, const char *arg);

/* The value of option `name` among the --name VALUE pairs after argv[1], or
 * NULL when absent. known: the NULL-terminated options the subcommand takes;
 * an unknown option, a missing value or an option given twice is a usage
 * error. */
const char *fd_tool_opt(int argc, char **argv, const char *name, const char *const *known);

/* fd_tool_opt for an option that must be given. */
const char *fd_tool_need(int argc, char **argv, const char *name, const char *const *known);

/* The whole of path ("-": standard input), at most max bytes, into a
 * malloc'd buffer the caller frees; *len its length. A file that cannot be
 * read or is longer than max is a usage error. */
uint8_t *fd_tool_slurp(const char *path, size_t max, size_t *len);

#endif
