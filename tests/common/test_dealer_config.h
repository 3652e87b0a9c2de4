/* What every host dealer test shares: the dealer configuration (the fake
 * TRNG with the microbit's health cutoffs, H = 2 bits per sample) and a
 * buffer that captures the dealer's replies. Header-only: only targets that
 * link fd_dealer include it. */
#ifndef FD_TEST_DEALER_CONFIG_H
#define FD_TEST_DEALER_CONFIG_H

#include <stdbool.h>
#include <string.h>

#include "dealer.h"
#include "fake_trng.h"
#include "protocol.h"

typedef struct capture {
    char text[8192];
    size_t len;
} capture;

/* Append a reply and keep the text NUL-terminated; false, and nothing
 * written, when it would not fit. */
static inline bool capture_append(capture *c, const char *data, size_t len)
{
    if (len >= sizeof c->text - c->len) {
        return false;
    }
    memcpy(c->text + c->len, data, len);
    c->len += len;
    c->text[c->len] = '\0';
    return true;
}

/* Send one command line (LF-terminated) through the console, capturing into
 * out; the reply without its CR LF, or NULL unless exactly one well-formed
 * reply line ("OK ..." or "ERR ...") came back. */
static inline const char *console_cmd(fd_console *console, capture *out, const char *line)
{
    out->len = 0;
    out->text[0] = '\0';
    const size_t n = strlen(line);
    for (size_t i = 0; i <= n; i++) {
        /* the reply captured in out is what the caller checks, errors included */
        (void)fd_console_feed(console, i < n ? (uint8_t)line[i] : (uint8_t)'\n');
    }
    if (out->len < 2u || out->text[out->len - 2u] != '\r' || out->text[out->len - 1u] != '\n') {
        return NULL;
    }
    out->text[out->len - 2u] = '\0';
    if (strchr(out->text, '\r') != NULL || strchr(out->text, '\n') != NULL ||
        (strncmp(out->text, "OK ", 3) != 0 && strncmp(out->text, "ERR ", 4) != 0)) {
        return NULL;
    }
    return out->text;
}

/* The value of " key=" in a reply (up to the next space) copied into value,
 * or NULL when the key is missing or the value does not fit. */
static inline const char *reply_field(const char *reply, const char *key, char *value, size_t size)
{
    const size_t klen = strlen(key);
    for (const char *p = strchr(reply, ' '); p != NULL; p = strchr(p + 1, ' ')) {
        if (strncmp(p + 1, key, klen) == 0 && p[1 + klen] == '=') {
            const char *v = p + 2 + klen;
            const size_t n = strcspn(v, " ");
            if (n >= size) {
                return NULL;
            }
            memcpy(value, v, n);
            value[n] = '\0';
            return value;
        }
    }
    return NULL;
}

static inline fd_dealer_config test_dealer_config(fake_trng *trng, fd_source_restart_fn restart, fd_drbg_kind kind)
{
    const fd_dealer_config cfg = {
        .read_samples = fake_trng_read,
        .restart_source = restart,
        .read_ctx = trng,
        .health = {11, 512, 177, 1024, 10, 177},
        .samples_per_block = 160,
        .drbg_kind = kind,
        .board = "test",
        .trng_name = "fake",
        .emulation_only = false,
    };
    return cfg;
}

#endif
