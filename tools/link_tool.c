/* fairdeal-tool link (docs/LINK.md "The controller: fairdeal-tool link"):
 * opens one session with a dealer over its console's byte stream (a child
 * process's stdin/stdout, e.g. the host dealer or run.sh under QEMU, or a
 * tty), checks the device's journal seq against the state file (a seq that
 * went backwards is a rolled-back flash: refused), then passes command
 * lines from stdin and prints each reply line. Host only (POSIX). */
#include "link_tool.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fairdeal/link.h"
#include "fairdeal/sha256.h"
#include "fairdeal/util.h"
#include "tool_args.h"

/* The development builds' public test secret (firmware/device_secret.c). */
static const char test_secret_label[] = "fairdeal/test-secret: development builds only, never at a table";

typedef struct wire {
    int in;  /* bytes from the dealer */
    int out; /* bytes to the dealer */
    pid_t child;
    fd_link_reader reader;
} wire;

static bool send_all(const wire *w, const uint8_t *b, size_t n)
{
    while (n > 0) {
        const ssize_t k = write(w->out, b, n);
        if (k <= 0) {
            return false;
        }
        b += k;
        n -= (size_t)k;
    }
    return true;
}

/* What next_frame found. */
typedef enum next_kind {
    FOUND_END,
    FOUND_FRAME,
    FOUND_ID_LINE
} next_kind;

/* The next whole frame (cleartext bytes around it skipped), or the end of
 * the stream, or (when stop_at_id) a cleartext line starting "OK ID ": the
 * dealer's answer to the ID line sent after a HELLO it did not answer. */
static next_kind next_frame(wire *w, bool stop_at_id)
{
    char text[8];
    size_t text_len = 0;
    fd_link_reader_next(&w->reader);
    for (;;) {
        uint8_t byte;
        const ssize_t k = read(w->in, &byte, 1);
        if (k <= 0) {
            return FOUND_END;
        }
        if (w->reader.len == 0 && byte != FD_LINK_MAGIC) {
            if (byte == '\n' || byte == '\r') {
                text_len = 0;
            } else if (text_len < sizeof text) {
                text[text_len++] = (char)byte;
                if (stop_at_id && text_len == 6 && memcmp(text, "OK ID ", 6) == 0) {
                    return FOUND_ID_LINE;
                }
            }
            continue;
        }
        if (fd_link_reader_push(&w->reader, byte)) {
            return FOUND_FRAME;
        }
    }
}

static void spawn(wire *w, char **argv)
{
    int to[2];
    int from[2];
    if (pipe(to) != 0 || pipe(from) != 0) {
        fd_tool_usage("link: %s", strerror(errno));
    }
    w->child = fork();
    if (w->child < 0) {
        fd_tool_usage("link: %s", strerror(errno));
    }
    if (w->child == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[1]);
        close(from[0]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    w->out = to[1];
    w->in = from[0];
}

/* A seq: 1 to 20 ASCII digits, no sign, within unsigned long. */
static bool parse_seq(const char *text, size_t n, unsigned long *seq)
{
    char digits[21];
    if (n == 0 || n >= sizeof digits || strspn(text, "0123456789") < n) {
        return false;
    }
    memcpy(digits, text, n);
    digits[n] = '\0';
    char *end = NULL;
    errno = 0;
    *seq = strtoul(digits, &end, 10);
    return errno == 0 && end == digits + n;
}

/* The state file line "device=<id> seq=<n> head=<hex>" of this device: true
 * when it is (seq into *seq); a line of this device that does not parse is
 * a usage error (the rollback check fails closed). */
static bool state_line(const char *path, const char *line, const char *device, unsigned long *seq)
{
    const size_t id_len = strlen(device);
    if (strncmp(line, "device=", 7) != 0 || strncmp(line + 7, device, id_len) != 0 || line[7 + id_len] != ' ') {
        return false;
    }
    const char *p = line + 7 + id_len + 1;
    if (strncmp(p, "seq=", 4) != 0 || !parse_seq(p + 4, strcspn(p + 4, " \r\n"), seq)) {
        fd_tool_usage("link: state file '%s': a malformed line for this device", path);
    }
    return true;
}

/* The device's last seq from the state file; false when the device has no
 * line (or there is no state file). */
static bool state_read(const char *path, const char *device, unsigned long *seq)
{
    FILE *f = path != NULL ? fopen(path, "r") : NULL;
    bool found = false;
    char line[256];
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        unsigned long s = 0;
        if (state_line(path, line, device, &s)) {
            *seq = s;
            found = true;
        }
    }
    if (f != NULL) {
        (void)fclose(f); /* read only: nothing to lose */
    }
    return found;
}

/* Replace the device's line in the state file (written to a temporary file, then renamed). */
static void state_write(const char *path, const char *device, unsigned long seq, const char *head)
{
    if (path == NULL) {
        return;
    }
    char tmp[4096];
    (void)snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *in = fopen(path, "r");
    FILE *out = fopen(tmp, "w");
    if (out == NULL) {
        fd_tool_usage("link: cannot write '%s'", tmp);
    }
    char line[256];
    bool written = true;
    const size_t id_len = strlen(device);
    while (in != NULL && fgets(line, sizeof line, in) != NULL) {
        if (strncmp(line, "device=", 7) == 0 && strncmp(line + 7, device, id_len) == 0 &&
            (line[7 + id_len] == ' ' || line[7 + id_len] == '\n')) {
            continue;
        }
        written = written && fputs(line, out) >= 0;
    }
    written = written && fprintf(out, "device=%s seq=%lu head=%s\n", device, seq, head) > 0;
    if (in != NULL) {
        (void)fclose(in); /* read only: nothing to lose */
    }
    if (fclose(out) != 0 || !written || rename(tmp, path) != 0) {
        fd_tool_usage("link: cannot write '%s'", path);
    }
}

/* " key=<value>" of a reply line into v (at most size - 1 characters). */
static bool field(const char *line, const char *key, char *v, size_t size)
{
    char pat[32];
    (void)snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(line, pat);
    if (p == NULL) {
        return false;
    }
    p += strlen(pat);
    const size_t n = strcspn(p, " \r\n");
    if (n == 0 || n >= size) {
        return false;
    }
    memcpy(v, p, n);
    v[n] = '\0';
    return true;
}

typedef struct device {
    char id[64];
    unsigned long seq; /* the newest seq seen */
    const char *state;
} device;

/* A reply (or the ID line) carrying seq= and head=: refused when the seq
 * went backwards from what this device showed before, else remembered. */
static bool track(device *dv, const char *line)
{
    char seq_text[24];
    char head[80];
    if (strstr(line, " seq=") == NULL || !field(line, "head", head, sizeof head)) {
        return true;
    }
    unsigned long seq = 0;
    if (!field(line, "seq", seq_text, sizeof seq_text) || !parse_seq(seq_text, strlen(seq_text), &seq)) {
        (void)fprintf(stdout, "ERR rollback device=%s shows a seq= that is not a number; refused\n", dv->id);
        return false;
    }
    if (seq < dv->seq) {
        (void)fprintf(stdout, /* the caller ends with exit status 1 */
                      "ERR rollback device=%s seq=%lu is below the seq=%lu it showed before: its journal was "
                      "rolled back; refused\n",
                      dv->id, seq, dv->seq);
        return false;
    }
    dv->seq = seq;
    state_write(dv->state, dv->id, seq, head);
    return true;
}

/* One reply line: DATA frames opened and joined until one ends in CR LF. */
static bool reply(wire *w, fd_link *link, char *line, size_t size)
{
    size_t len = 0;
    while (len < 2 || line[len - 2] != '\r' || line[len - 1] != '\n') {
        uint8_t payload[FD_LINK_MAX_FRAME];
        size_t n = 0;
        if (next_frame(w, false) != FOUND_FRAME) {
            return false;
        }
        if (w->reader.buf[1] != FD_LINK_DATA ||
            fd_link_open(link, w->reader.buf, w->reader.len, payload, sizeof payload, &n) != FD_OK) {
            continue; /* not ours or not in order: counted by the link */
        }
        if (n >= size - len) {
            return false;
        }
        memcpy(line + len, payload, n);
        len += n;
    }
    line[len - 2] = '\0';
    return true;
}

static void psk_from_options(int argc, char **argv, const char *const *known, uint8_t psk[FD_NOISE_PSK_SIZE])
{
    const char *p = fd_tool_opt(argc, argv, "--psk", known);
    const char *s = fd_tool_opt(argc, argv, "--secret", known);
    const char *t = fd_tool_opt(argc, argv, "--test-secret", known);
    uint8_t secret[32];
    uint8_t eph[FD_SHA256_SIZE];
    size_t len = 0;
    if ((p != NULL) + (s != NULL) + (t != NULL) != 1) {
        fd_tool_usage("link: give one of --psk, --secret, --test-secret%s", "");
    }
    if (p != NULL) {
        if (fd_hex_decode(p, strlen(p), psk, FD_NOISE_PSK_SIZE, &len) != FD_OK || len != FD_NOISE_PSK_SIZE) {
            fd_tool_usage("--psk: need 64 hex digits, not '%s'", p);
        }
        return;
    }
    if (s != NULL && (fd_hex_decode(s, strlen(s), secret, sizeof secret, &len) != FD_OK || len != sizeof secret)) {
        fd_tool_usage("--secret: need 64 hex digits, not '%s'", s);
    }
    if (t != NULL) {
        if (strcmp(t, "yes") != 0) {
            fd_tool_usage("--test-secret: give 'yes' (the public development secret), not '%s'", t);
        }
        fd_sha256(test_secret_label, sizeof test_secret_label - 1u, secret);
    }
    if (fd_link_derive_keys(secret, sizeof secret, psk, eph) != FD_OK) {
        fd_tool_usage("link: %s", "cannot derive the PSK");
    }
    fd_wipe(secret, sizeof secret);
    fd_wipe(eph, sizeof eph);
}

/* HELLO, WELCOME: the session open and the ID line in ident. */
static bool handshake(wire *w, const uint8_t psk[FD_NOISE_PSK_SIZE], fd_link *link, char *ident, size_t size)
{
    uint8_t e[FD_X25519_SIZE];
    uint8_t hello[FD_LINK_MAX_FRAME];
    size_t n = 0;
    fd_noise_handshake hs;
    const bool sent = getrandom(e, sizeof e, 0) == (ssize_t)sizeof e &&
                      fd_link_hello(&hs, psk, e, hello, sizeof hello, &n) == FD_OK && send_all(w, hello, n);
    fd_wipe(e, sizeof e);
    if (!sent) {
        return false;
    }
    /* the dealer answers this after the HELLO: seen before a WELCOME, the
     * HELLO was refused (docs/LINK.md "The controller") */
    static const uint8_t id[] = "ID\n";
    if (!send_all(w, id, sizeof id - 1u)) {
        return false;
    }
    while (next_frame(w, true) == FOUND_FRAME) {
        if (w->reader.buf[1] != FD_LINK_WELCOME) {
            continue;
        }
        uint8_t payload[FD_LINK_MAX_PAYLOAD + 1u];
        size_t len = 0;
        if (fd_link_finish(&hs, w->reader.buf, w->reader.len, link, payload, sizeof payload - 1u, &len) != FD_OK ||
            len < 2u || len >= size) {
            return false;
        }
        memcpy(ident, payload, len - 2u); /* without its CR LF */
        ident[len - 2u] = '\0';
        return true;
    }
    return false;
}

int fd_tool_link(int argc, char **argv)
{
    static const char *const known[] = {"--psk", "--secret", "--test-secret", "--state", "--tty", NULL};
    int opt_argc = argc;
    char **command = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            opt_argc = i;
            command = argv + i + 1;
            break;
        }
    }
    uint8_t psk[FD_NOISE_PSK_SIZE];
    psk_from_options(opt_argc, argv, known, psk);
    const char *tty = fd_tool_opt(opt_argc, argv, "--tty", known);
    device dv = {.state = fd_tool_opt(opt_argc, argv, "--state", known)};
    wire w;
    memset(&w, 0, sizeof w);
    fd_link_reader_init(&w.reader);
    if ((tty == NULL) == (command == NULL || command[0] == NULL)) {
        fd_tool_usage("link: give --tty PATH or -- COMMAND ...%s", "");
    }
    if (tty != NULL) {
        w.in = open(tty, O_RDWR | O_NOCTTY);
        w.out = w.in;
        if (w.in < 0) {
            fd_tool_usage("link: cannot open '%s'", tty);
        }
    } else {
        if (signal(SIGPIPE, SIG_IGN) == SIG_ERR) { /* a dealer that exits: write() fails, no signal */
            fd_tool_usage("link: %s", strerror(errno));
        }
        spawn(&w, command);
    }
    static fd_link link;
    char line[16384];
    int rc = 1;
    if (!handshake(&w, psk, &link, line, sizeof line)) {
        (void)fprintf(stdout, "ERR link no WELCOME: wrong key, or not a fairdeal dealer\n");
    } else if (!field(line, "device", dv.id, sizeof dv.id)) {
        (void)fprintf(stdout, "ERR link the WELCOME carries no device id: %s\n", line);
    } else {
        (void)state_read(dv.state, dv.id, &dv.seq);
        char hash[2u * FD_SHA256_SIZE + 1u];
        (void)fd_hex_encode(link.s.hash, FD_SHA256_SIZE, hash, sizeof hash);
        /* the ID line after "OK "; an operator who cannot see the replies stops the session */
        const bool shown = fprintf(stdout, "OK LINK session=%s %s\n", hash, line + 3) > 0 && fflush(stdout) == 0;
        rc = shown && track(&dv, line) ? 0 : 1;
        while (rc == 0 && fgets(line, sizeof line, stdin) != NULL) {
            size_t n = strcspn(line, "\r\n");
            uint8_t frame[FD_LINK_MAX_FRAME];
            size_t len = 0;
            if (n == 0) {
                continue;
            }
            if (fd_link_seal(&link, (const uint8_t *)line, n, frame, sizeof frame, &len) != FD_OK ||
                !send_all(&w, frame, len) || !reply(&w, &link, line, sizeof line)) {
                (void)fprintf(stdout, "ERR link the dealer did not answer\n");
                rc = 1;
                break;
            }
            const bool out = fprintf(stdout, "%s\n", line) > 0 && fflush(stdout) == 0;
            rc = out && track(&dv, line) ? 0 : 1;
        }
    }
    fd_wipe(psk, sizeof psk);
    fd_link_close(&link);
    close(w.out);
    if (w.in != w.out) {
        close(w.in);
    }
    if (w.child > 0) {
        kill(w.child, SIGTERM);
        (void)waitpid(w.child, NULL, 0);
    }
    return rc;
}
