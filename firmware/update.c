/* The UPDATE command (update.h, docs/PROTOCOL.md UPDATE). */
#define FD_DEALER_OPAQUE /* a transport: the dealer's contents are not visible here (dealer.h) */
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
        /* ASCII: a lower-case letter is its upper-case one plus 32 */
        const unsigned c = (unsigned char)w->text[i];
        if ((c >= 'a' && c <= 'z' ? c - 32u : c) != (unsigned char)lit[i]) {
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

#define NO_NUMBER 0xFFFFFFFFu

/* "ERR <code and message>[<n>]": one line. */
static void refuse(const fd_writer *w, const char *what, uint32_t n)
{
    fd_put(w, "ERR ");
    fd_put(w, what);
    if (n != NO_NUMBER) {
        fd_put_u32(w, n);
    }
    fd_put(w, "\r\n");
}

#define USAGE "syntax usage: UPDATE BEGIN <bytes>|DATA <offset> <hex>|END"
#define ROUND_OPEN "state round open: REVEAL first"
#define NO_TRANSFER "state no transfer: UPDATE BEGIN first"
#define FLASH_FAILED "flash slot B write failed"

static void cmd_begin(const fd_writer *w, const fd_update_platform *p, uint32_t size)
{
    const fd_status st = fd_update_begin(&transfer, &p->flash, size);
    if (st == FD_ERR_EMPTY || st == FD_ERR_TOO_LARGE) {
        refuse(w, "range image size 512 to ", fd_update_room(&p->flash));
    } else if (st != FD_OK) {
        refuse(w, FLASH_FAILED, NO_NUMBER);
    } else {
        fd_put_field_u32(w, "OK UPDATE BEGIN size=", size);
        fd_put_field_u32(w, " chunk=", FD_UPDATE_CHUNK_MAX);
        fd_put(w, "\r\n");
    }
}

static void cmd_data(const fd_writer *w, const fd_update_platform *p, uint32_t offset, const word *hex)
{
    uint8_t chunk[FD_UPDATE_CHUNK_MAX];
    size_t len = 0;
    if (fd_hex_decode(hex->text, hex->len, chunk, sizeof chunk, &len) != FD_OK || len == 0u) {
        refuse(w, USAGE, NO_NUMBER);
        return;
    }
    const fd_status st = fd_update_write(&transfer, &p->flash, offset, chunk, len);
    if (st == FD_ERR_STATE) {
        refuse(w, NO_TRANSFER, NO_NUMBER);
    } else if (st == FD_ERR_PARSE && offset != transfer.received) {
        refuse(w, "range next offset ", transfer.received);
    } else if (st == FD_ERR_PARSE) {
        refuse(w, "syntax chunks of whole words", NO_NUMBER);
    } else if (st == FD_ERR_TOO_LARGE) {
        refuse(w, "range past the size ", transfer.size);
    } else if (st != FD_OK) {
        refuse(w, FLASH_FAILED, NO_NUMBER);
    } else {
        fd_put_field_u32(w, "OK UPDATE DATA next=", transfer.received);
        fd_put(w, "\r\n");
    }
}

static void cmd_end(const fd_dealer *d, const fd_writer *w, const fd_update_platform *p)
{
    const uint32_t received = transfer.received;
    const uint32_t image_version = fd_dealer_get_config(d)->image_version;
    const uint32_t min = p->min_version > image_version ? p->min_version : image_version;
    fd_image_info info;
    const char *why = "";
    const fd_status st = fd_update_end(&transfer, &p->flash, p->check, p->key, min, p->load_addr, &info, &why);
    if (st == FD_ERR_EMPTY) {
        refuse(w, "update incomplete: received ", received);
        return;
    }
    if (st != FD_OK) {
        fd_put_field(w, "ERR update refused: ", why); /* the reason is the bootloader's (its check) */
        fd_put(w, "\r\n");
        return;
    }
    fd_put(w, "OK UPDATE END version=0x");
    fd_put_hex_u32(w, info.header.version);
    fd_put(w, " hash=");
    fd_put_hex(w, info.hash, sizeof info.hash);
    fd_put(w, " restarting\r\n");
    fd_update_platform_restart();
}

void fd_update_command(fd_dealer *d, const fd_writer *w, const char *args, size_t len)
{
    word a[MAX_WORDS];
    const size_t n = split(args, len, a);
    uint32_t number = 0;
    const bool begin = n == 2u && is(&a[0], "BEGIN");
    const bool data = n == 3u && is(&a[0], "DATA");
    const bool end = n == 1u && is(&a[0], "END");
    if ((!begin && !data && !end) || (!end && !parse_u32(&a[1], &number))) {
        refuse(w, USAGE, NO_NUMBER);
        return;
    }
    fd_update_platform p;
    const char *why = "";
    if (fd_update_platform_get(&p, &why) != FD_OK) {
        fd_put_field(w, "ERR state ", why);
        fd_put(w, "\r\n");
    } else if (end && !transfer.open) {
        refuse(w, NO_TRANSFER, NO_NUMBER);
    } else if ((begin || end) && fd_dealer_round_open(d)) {
        refuse(w, ROUND_OPEN, NO_NUMBER); /* the image that dealt a round reveals it */
    } else if (begin) {
        cmd_begin(w, &p, number);
    } else if (data) {
        cmd_data(w, &p, number, &a[2]);
    } else {
        cmd_end(d, w, &p);
    }
}
