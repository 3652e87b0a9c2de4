/* The UPDATE command (update.h, docs/PROTOCOL.md UPDATE). */
#include "update.h"

#include <string.h>

#include "fairdeal/util.h"

/* The one transfer in progress: the console's (docs/PROTOCOL.md UPDATE). */
static fd_update transfer;

/* Images not started by the bootloader (the plain dealer, the host): no
 * slots, no key; the signed dealer's build links the board's own
 * (bootloader/dealer_slots.c). */
__attribute__((weak)) fd_status fd_update_platform_get(fd_update_platform *p, const char **why)
{
    memset(p, 0, sizeof *p);
    *why = "this image was not started by a bootloader: nothing to update";
    return FD_ERR_STATE;
}

__attribute__((weak)) void fd_update_platform_restart(void) {}

#define MAX_WORDS 3u /* DATA <offset> <hex> */

typedef struct word {
    const char *text;
    size_t len;
} word;

/* The blank-separated words of s: their count, MAX_WORDS + 1 for more. */
static size_t split(const char *s, size_t len, word *out)
{
    size_t n = 0;
    size_t i = 0;
    for (;;) {
        while (i < len && (s[i] == ' ' || s[i] == '\t')) {
            i++;
        }
        if (i == len) {
            return n;
        }
        if (n == MAX_WORDS) {
            return MAX_WORDS + 1u;
        }
        out[n].text = s + i;
        while (i < len && s[i] != ' ' && s[i] != '\t') {
            i++;
        }
        out[n].len = (size_t)(s + i - out[n].text);
        n++;
    }
}

/* w is the upper-case word lit, in any case. */
static bool is(const word *w, const char *lit)
{
    const size_t n = strlen(lit);
    if (w->len != n) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        const char c = w->text[i] >= 'a' && w->text[i] <= 'z' ? (char)(w->text[i] - 'a' + 'A') : w->text[i];
        if (c != lit[i]) {
            return false;
        }
    }
    return true;
}

/* Decimal, 1 to 10 digits, at most 2^32 - 1. */
static bool parse_u32(const word *w, uint32_t *value)
{
    if (w->len == 0u || w->len > 10u) {
        return false;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < w->len; i++) {
        if (w->text[i] < '0' || w->text[i] > '9') {
            return false;
        }
        v = v * 10u + (uint64_t)(w->text[i] - '0');
    }
    *value = (uint32_t)v;
    return v <= 0xFFFFFFFFu;
}

static void reply_err(const writer *w, const char *code, const char *message)
{
    put(w, "ERR ");
    put(w, code);
    put(w, " ");
    put(w, message);
    put(w, "\r\n");
}

/* ERR flash: a slot B erase or program failed; the transfer is closed. */
static void reply_flash(const writer *w, fd_status st)
{
    put(w, "ERR flash slot B ");
    put(w, fd_status_name(st));
    put(w, ": transfer closed, nothing pending; UPDATE BEGIN again\r\n");
}

static void cmd_begin(const fd_dealer *d, const writer *w, const fd_update_platform *p, const word *size_word)
{
    uint32_t size = 0;
    if (!parse_u32(size_word, &size)) {
        reply_err(w, "syntax", "usage: UPDATE BEGIN <image bytes, decimal>");
        return;
    }
    if (fd_dealer_round_open(d)) {
        reply_err(w, "state", "round open: REVEAL first (an update installs between rounds)");
        return;
    }
    const fd_status st = fd_update_begin(&transfer, &p->flash, size);
    if (st == FD_ERR_EMPTY || st == FD_ERR_TOO_LARGE) {
        put_field_u32(w, "ERR range image size must be ", FD_IMAGE_HEADER_ROOM);
        put_field_u32(w, " to ", fd_update_room(&p->flash));
        put(w, " bytes\r\n");
    } else if (st != FD_OK) {
        reply_flash(w, st);
    } else {
        put_field_u32(w, "OK UPDATE BEGIN size=", size);
        put_field_u32(w, " chunk=", FD_UPDATE_CHUNK_MAX);
        put(w, "\r\n");
    }
}

static void cmd_data(const writer *w, const fd_update_platform *p, const word *offset_word, const word *hex)
{
    uint32_t offset = 0;
    uint8_t chunk[FD_UPDATE_CHUNK_MAX];
    size_t len = 0;
    if (!parse_u32(offset_word, &offset) || fd_hex_decode(hex->text, hex->len, chunk, sizeof chunk, &len) != FD_OK ||
        len == 0u) {
        reply_err(w, "syntax", "usage: UPDATE DATA <offset, decimal> <hex: 2-120 digits>");
        return;
    }
    const fd_status st = fd_update_write(&transfer, &p->flash, offset, chunk, len);
    if (st == FD_ERR_STATE) {
        reply_err(w, "state", "no update transfer open: UPDATE BEGIN first");
    } else if (st == FD_ERR_PARSE && offset != transfer.received) {
        put_field_u32(w, "ERR range out of order: the next offset is ", transfer.received);
        put(w, "\r\n");
    } else if (st == FD_ERR_PARSE) {
        reply_err(w, "syntax", "a chunk is whole 4-byte words, all but the last");
    } else if (st == FD_ERR_TOO_LARGE) {
        put_field_u32(w, "ERR range past the announced size of ", transfer.size);
        put(w, " bytes\r\n");
    } else if (st != FD_OK) {
        reply_flash(w, st);
    } else {
        put_field_u32(w, "OK UPDATE DATA next=", transfer.received);
        put(w, "\r\n");
    }
}

static void cmd_end(const fd_dealer *d, const writer *w, const fd_update_platform *p)
{
    if (!transfer.open) {
        reply_err(w, "state", "no update transfer open: UPDATE BEGIN first");
        return;
    }
    if (fd_dealer_round_open(d)) {
        reply_err(w, "state", "round open: REVEAL first (an update installs between rounds)");
        return;
    }
    const uint32_t received = transfer.received;
    const uint32_t min = p->min_version > d->cfg.image_version ? p->min_version : d->cfg.image_version;
    fd_image_info info;
    const char *why = "";
    const fd_status st = fd_update_end(&transfer, &p->flash, p->key, min, p->load_addr, &info, &why);
    if (st == FD_ERR_EMPTY) {
        put_field_u32(w, "ERR update transfer incomplete: ", received);
        put_field_u32(w, " of ", transfer.size);
        put(w, " bytes; nothing pending, this image keeps running\r\n");
        return;
    }
    if (st != FD_OK) {
        put_field(w, "ERR update refused: ", why);
        put(w, "; nothing pending, this image keeps running\r\n");
        return;
    }
    const uint32_t v = info.header.version;
    const uint8_t version[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put(w, "OK UPDATE END version=0x");
    put_hex(w, version, sizeof version);
    put(w, " hash=");
    put_hex(w, info.hash, sizeof info.hash);
    put(w, " restarting to install\r\n");
    fd_update_platform_restart();
}

void fd_update_command(fd_dealer *d, const writer *w, const char *args, size_t len)
{
    word a[MAX_WORDS];
    const size_t n = split(args, len, a);
    const bool begin = n == 2u && is(&a[0], "BEGIN");
    const bool data = n == 3u && is(&a[0], "DATA");
    const bool end = n == 1u && is(&a[0], "END");
    if (!begin && !data && !end) {
        reply_err(w, "syntax", "usage: UPDATE BEGIN <bytes> | UPDATE DATA <offset> <hex> | UPDATE END");
        return;
    }
    fd_update_platform p;
    const char *why = "";
    if (fd_update_platform_get(&p, &why) != FD_OK) {
        reply_err(w, "state", why);
        return;
    }
    if (begin) {
        cmd_begin(d, w, &p, &a[1]);
    } else if (data) {
        cmd_data(w, &p, &a[1], &a[2]);
    } else {
        cmd_end(d, w, &p);
    }
}
