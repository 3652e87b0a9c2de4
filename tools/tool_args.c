/* fairdeal-tool: option and file readers shared by the subcommands
 * (tool_args.h). */
#include "tool_args.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void fd_tool_usage(const char *fmt, const char *arg)
{
    fputs("fairdeal-tool: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(2);
}

const char *fd_tool_opt(int argc, char **argv, const char *name, const char *const *known)
{
    const char *value = NULL;
    for (int i = 2; i < argc; i += 2) {
        bool ok = false;
        for (const char *const *k = known; *k != NULL; k++) {
            ok = ok || strcmp(argv[i], *k) == 0;
        }
        if (!ok) {
            fd_tool_usage("unknown option '%s'", argv[i]);
        }
        if (i + 1 >= argc) {
            fd_tool_usage("%s needs a value", argv[i]);
        }
        if (strcmp(argv[i], name) == 0) {
            if (value != NULL) {
                fd_tool_usage("%s given twice", name);
            }
            value = argv[i + 1];
        }
    }
    return value;
}

const char *fd_tool_need(int argc, char **argv, const char *name, const char *const *known)
{
    const char *v = fd_tool_opt(argc, argv, name, known);
    if (v == NULL) {
        fd_tool_usage("%s is required", name);
    }
    return v;
}

uint8_t *fd_tool_slurp(const char *path, size_t max, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (f == NULL) {
        fd_tool_usage("cannot open '%s'", path);
    }
    size_t cap = max < 65536u ? max + 1u : 65536u;
    size_t n = 0;
    uint8_t *buf = malloc(cap);
    while (buf != NULL) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap || n > max) {
            break; /* end of file, an error, or more than max */
        }
        const size_t next = cap > max / 2u ? max + 1u : cap * 2u;
        uint8_t *more = realloc(buf, next);
        if (more == NULL) {
            free(buf);
        }
        buf = more;
        cap = next;
    }
    const bool bad = ferror(f) != 0;
    if (f != stdin) {
        (void)fclose(f);
    }
    if (buf == NULL) {
        fd_tool_usage("out of memory reading '%s'", path);
    }
    if (bad || n > max) {
        free(buf);
        fd_tool_usage("'%s': unreadable or too large", path);
    }
    *len = n;
    return buf;
}
