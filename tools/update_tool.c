/* fairdeal-tool update: drive a dealer's UPDATE sequence (docs/PROTOCOL.md
 * UPDATE) over a pipe: replies are read from standard input, commands
 * written to standard output (a dealer process's, or QEMU's serial wired
 * to both). Waits for the banner's last line, switches to machine mode,
 * streams the image in UPDATE DATA chunks, checks that UPDATE END names the
 * image's own hash, then waits for the bootloader's "BOOT ok" line with
 * that hash and the new dealer's banner; progress goes to stderr. Exit 0:
 * installed; 1: the device
 * refused (its ERR line on stderr; the old image keeps running) or the
 * pipe closed; 2: usage. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairdeal/image.h"
#include "fairdeal/sha256.h"
#include "image_tool.h"
#include "tool_args.h"

#define LINE_MAX_CHARS 1024u
#define CHUNK_MAX 60u /* firmware/update.h FD_UPDATE_CHUNK_MAX */

typedef struct link {
    char line[LINE_MAX_CHARS];
} link;

/* The next line from the device, CR/LF stripped; false at the end of input. */
static bool next_line(link *l)
{
    if (fgets(l->line, sizeof l->line, stdin) == NULL) {
        return false;
    }
    l->line[strcspn(l->line, "\r\n")] = '\0';
    return true;
}

/* Read until a line starting with "OK " or "ERR " (the reply); false at the
 * end of input. Echoes and prompts (human mode) start otherwise. */
static bool reply(link *l)
{
    while (next_line(l)) {
        if (strncmp(l->line, "OK ", 3) == 0 || strncmp(l->line, "ERR ", 4) == 0) {
            return true;
        }
    }
    return false;
}

/* Read until a line containing text; false at the end of input. */
static bool wait_for(link *l, const char *text)
{
    while (next_line(l)) {
        if (strstr(l->line, text) != NULL) {
            return true;
        }
    }
    return false;
}

static void send(const char *cmd)
{
    fputs(cmd, stdout);
    fputs("\n", stdout);
    fflush(stdout);
}

static int fail(const char *what, const link *l)
{
    fprintf(stderr, "fairdeal-tool: update: %s%s%s\n", what, l != NULL ? ": " : "", l != NULL ? l->line : "");
    return 1;
}

/* Send cmd; 0 when the reply starts with want, else 1 with the reply on stderr. */
static int command(link *l, const char *cmd, const char *want)
{
    send(cmd);
    if (!reply(l)) {
        return fail("the device closed the pipe", NULL);
    }
    return strncmp(l->line, want, strlen(want)) == 0 ? 0 : fail("refused", l);
}

static void to_hex(const uint8_t *bin, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[bin[i] >> 4];
        out[2 * i + 1] = digits[bin[i] & 0xFu];
    }
    out[2 * n] = '\0';
}

/* Stream image[0, send_len) then END; 0 when END was accepted with the image's hash. */
static int transfer(link *l, const uint8_t *image, size_t len, size_t send_len, const char *hash_hex)
{
    char cmd[LINE_MAX_CHARS];
    (void)snprintf(cmd, sizeof cmd, "UPDATE BEGIN %zu", len);
    if (command(l, cmd, "OK UPDATE BEGIN ") != 0) {
        return 1;
    }
    for (size_t off = 0; off < send_len; off += CHUNK_MAX) {
        const size_t n = send_len - off < CHUNK_MAX ? send_len - off : CHUNK_MAX;
        int at = snprintf(cmd, sizeof cmd, "UPDATE DATA %zu ", off);
        to_hex(image + off, n, cmd + at);
        char want[64];
        (void)snprintf(want, sizeof want, "OK UPDATE DATA next=%zu", off + n);
        if (command(l, cmd, want) != 0) {
            return 1;
        }
    }
    if (command(l, "UPDATE END", "OK UPDATE END ") != 0) {
        return 1;
    }
    char want[96];
    (void)snprintf(want, sizeof want, " hash=%s ", hash_hex);
    return strstr(l->line, want) != NULL ? 0 : fail("the device names another hash", l);
}

int fd_tool_update(int argc, char **argv)
{
    static const char *const known[] = {"--image", "--truncate", NULL};
    const char *path = fd_tool_need(argc, argv, "--image", known);
    const char *truncate = fd_tool_opt(argc, argv, "--truncate", known);
    size_t len = 0;
    uint8_t *image = fd_tool_slurp(path, 16u * 1024u * 1024u, &len);
    fd_image_header h;
    if (len < FD_IMAGE_HEADER_ROOM || fd_image_header_decode(image, &h) != FD_OK ||
        h.body_size > len - FD_IMAGE_HEADER_ROOM) {
        free(image);
        fd_tool_usage("update: '%s' is not a signed image (fairdeal/image.h)", path);
    }
    size_t send_len = len;
    if (truncate != NULL) { /* tests: a transfer cut short, then END */
        char *end = NULL;
        send_len = (size_t)strtoul(truncate, &end, 10);
        if (end == truncate || *end != '\0' || send_len > len || send_len % 4u != 0u) {
            free(image);
            fd_tool_usage("update: --truncate '%s': a multiple of 4, at most the image's size", truncate);
        }
    }
    uint8_t hash[FD_SHA256_SIZE];
    fd_image_digest(&h, image + FD_IMAGE_HEADER_ROOM, hash);
    char hash_hex[2 * FD_SHA256_SIZE + 1];
    to_hex(hash, sizeof hash, hash_hex);
    link l;
    int rc = 0;
    if (!wait_for(&l, "Type HELP")) {
        rc = fail("no dealer banner before the pipe closed", NULL);
    }
    if (rc == 0) {
        rc = command(&l, "MODE machine", "OK MODE machine");
    }
    if (rc == 0) {
        rc = transfer(&l, image, len, send_len, hash_hex);
    }
    if (rc == 0) {
        fprintf(stderr, "fairdeal-tool: update: accepted version=0x%08lx hash=%s; the device restarts\n",
                (unsigned long)h.version, hash_hex);
        char want[128];
        (void)snprintf(want, sizeof want, "BOOT ok version=0x%08lx hash=%s", (unsigned long)h.version, hash_hex);
        bool booted = false;
        while (rc == 0 && !booted && next_line(&l)) {
            booted = strncmp(l.line, "BOOT ok", 7) == 0;
            if (strncmp(l.line, "BOOT refused", 12) == 0) {
                rc = fail("the bootloader", &l);
            }
        }
        if (rc == 0 && !booted) {
            rc = fail("the pipe closed before the bootloader started an image", NULL);
        } else if (rc == 0 && strcmp(l.line, want) != 0) {
            rc = fail("the bootloader did not start the new image", &l);
        }
        if (rc == 0 && !wait_for(&l, "Type HELP")) {
            rc = fail("no banner from the new image", NULL);
        }
    }
    if (rc == 0) {
        fprintf(stderr, "fairdeal-tool: update: installed version=0x%08lx hash=%s\n", (unsigned long)h.version,
                hash_hex); /* stderr: standard output goes to the device */
    }
    free(image);
    return rc;
}
