/* The console over the link (docs/LINK.md "The dealer's console over the
 * link"). */
#define FD_DEALER_OPAQUE /* a transport: the dealer's contents are not visible here (dealer.h) */
#include "link_console.h"

#include <string.h>

#include "fairdeal/sha256.h"
#include "fairdeal/util.h"

/* A DATA frame's padded payload starts after the header and the 2-byte
 * length (docs/LINK.md "Frames"): a reply collects there and is sealed in
 * place. */
#define TX_PAYLOAD (FD_LINK_HEADER_SIZE + 2u)
/* The ID line for WELCOME is written into the frame reader's buffer after
 * the HELLO (112 + 4 bytes), which fd_link_accept reads, not writes. */
#define ID_AT 128u
#define ID_CAP (FD_LINK_MAX_FRAME - ID_AT)

void fd_link_console_init(fd_link_console *lc, fd_console *console, fd_write_fn wire, void *wire_ctx, bool cleartext)
{
    memset(lc, 0, sizeof *lc);
    lc->console = console;
    lc->wire = wire;
    lc->wire_ctx = wire_ctx;
    fd_link_reader_init(&lc->rx);
    lc->counter = fd_dealer_link_limit(console->dealer);
    console->locked = !cleartext;
}

/* Seal the collected reply bytes into one DATA frame and send it. */
static void flush(fd_link_console *lc)
{
    size_t n = 0;
    if (lc->tx_len > 0u &&
        fd_link_seal(&lc->link, lc->tx + TX_PAYLOAD, lc->tx_len, lc->tx, sizeof lc->tx, &n) == FD_OK) {
        lc->wire(lc->wire_ctx, (const char *)lc->tx, n);
    }
    lc->tx_len = 0;
}

/* fd_write_fn of a command run over the link: the reply fills payloads of
 * FD_LINK_MAX_PAYLOAD bytes, each sent when full; the rest goes at the
 * command's end. */
static void link_write(void *ctx, const char *data, size_t len)
{
    fd_link_console *lc = ctx;
    while (len > 0u) {
        const size_t room = FD_LINK_MAX_PAYLOAD - lc->tx_len;
        const size_t take = len < room ? len : room;
        memcpy(lc->tx + TX_PAYLOAD + lc->tx_len, data, take);
        lc->tx_len = (uint16_t)(lc->tx_len + take);
        data += take;
        len -= take;
        if (lc->tx_len == FD_LINK_MAX_PAYLOAD) {
            flush(lc);
        }
    }
}

/* Run one command line with the console's output redirected to w (and
 * unlocked when the line came over the session). */
static void run_line(fd_link_console *lc, const char *line, size_t len, fd_write_fn w, void *ctx, bool session)
{
    fd_console *c = lc->console;
    const fd_write_fn out = c->out;
    void *const out_ctx = c->out_ctx;
    const bool locked = c->locked;
    c->out = w;
    c->out_ctx = ctx;
    c->locked = locked && !session;
    fd_console_command(c, line, len);
    c->out = out;
    c->out_ctx = out_ctx;
    c->locked = locked;
}

/* A bounded text buffer for the ID line. */
typedef struct id_buf {
    char *text;
    size_t len;
    size_t cap;
} id_buf;

static void id_write(void *ctx, const char *data, size_t len)
{
    id_buf *b = ctx;
    const size_t take = len < b->cap - b->len ? len : b->cap - b->len;
    memcpy(b->text + b->len, data, take);
    b->len += take;
}

/* The next session counter, never used before (docs/LINK.md "Keys"): a
 * new block is journalled before the first value of it is used. */
static fd_status next_counter(fd_link_console *lc, uint64_t *counter)
{
    fd_dealer *d = lc->console->dealer;
    if (lc->counter >= fd_dealer_link_limit(d)) {
        if (fd_dealer_link_limit(d) > UINT64_MAX - FD_LINK_SESSION_BLOCK) {
            return FD_ERR_EXHAUSTED;
        }
        const fd_status st = fd_dealer_link_reserve(d, lc->counter + FD_LINK_SESSION_BLOCK);
        if (st != FD_OK) {
            return st;
        }
    }
    *counter = lc->counter++;
    return FD_OK;
}

/* 32 bytes from one conditioned block of raw TRNG samples (SHA-256 of
 * samples_per_block samples). */
static fd_status trng_bytes(const fd_dealer *d, uint8_t out[FD_SHA256_SIZE])
{
    uint8_t chunk[64];
    fd_sha256_ctx h;
    fd_sha256_init(&h);
    const fd_dealer_config *cfg = fd_dealer_get_config(d);
    fd_status st = cfg->read_samples == NULL ? FD_ERR_NOT_READY : FD_OK;
    for (size_t done = 0; st == FD_OK && done < cfg->samples_per_block; done += sizeof chunk) {
        const size_t n = cfg->samples_per_block - done < sizeof chunk ? cfg->samples_per_block - done : sizeof chunk;
        st = cfg->read_samples(cfg->read_ctx, chunk, n);
        fd_sha256_update(&h, chunk, n);
    }
    fd_sha256_final(&h, out);
    fd_wipe(chunk, sizeof chunk);
    fd_wipe(&h, sizeof h);
    return st;
}

/* Whether the HELLO in rx was made with this PSK (Noise message 1's
 * payload tag), checked before a session counter is taken: a flood of
 * forged HELLOs writes nothing to the journal and costs no X25519. */
static bool hello_authentic(const fd_link_console *lc, const uint8_t psk[FD_NOISE_PSK_SIZE])
{
    static const uint8_t prologue[] = FD_LINK_PROLOGUE;
    fd_noise_handshake hs;
    uint8_t payload[64];
    size_t n = 0;
    const bool ok = lc->rx.len > FD_LINK_HEADER_SIZE &&
                    fd_noise_init(&hs, false, prologue, sizeof prologue - 1u, psk) == FD_OK &&
                    fd_noise_read(&hs, lc->rx.buf + FD_LINK_HEADER_SIZE, lc->rx.len - FD_LINK_HEADER_SIZE, payload,
                                  sizeof payload, &n) == FD_OK;
    fd_wipe(&hs, sizeof hs);
    fd_wipe(payload, sizeof payload);
    return ok;
}

/* A HELLO in rx: answer WELCOME with the ID line and open a new session.
 * A HELLO that fails (wrong PSK, altered: before any counter is taken; no
 * secret; the journal refuses the counter) leaves the open session, if
 * any, as it was. */
static void hello(fd_link_console *lc)
{
    fd_dealer *d = lc->console->dealer;
    uint8_t psk[FD_NOISE_PSK_SIZE];
    uint8_t eph_key[FD_SHA256_SIZE];
    uint8_t trng[FD_SHA256_SIZE];
    uint8_t e[FD_X25519_SIZE];
    uint64_t counter = 0;
    fd_link fresh;
    size_t n = 0;
    fd_status st = fd_dealer_link_keys(d, psk, eph_key);
    if (st == FD_OK && !hello_authentic(lc, psk)) {
        st = FD_ERR_AUTH;
    }
    if (st == FD_OK) {
        st = next_counter(lc, &counter);
    }
    if (st == FD_OK) {
        st = trng_bytes(d, trng);
    }
    if (st == FD_OK) {
        fd_link_ephemeral(eph_key, trng, counter, e);
        id_buf id = {(char *)lc->rx.buf + ID_AT, 0, ID_CAP};
        run_line(lc, "ID", 2, id_write, &id, false);
        st = fd_link_accept(psk, e, lc->rx.buf, lc->rx.len, lc->rx.buf + ID_AT, id.len, &fresh, lc->tx, sizeof lc->tx,
                            &n);
    }
    fd_wipe(psk, sizeof psk);
    fd_wipe(eph_key, sizeof eph_key);
    fd_wipe(trng, sizeof trng);
    fd_wipe(e, sizeof e);
    if (st != FD_OK) {
        lc->refused++;
        return;
    }
    fd_link_close(&lc->link);
    lc->link = fresh;
    fd_wipe(&fresh, sizeof fresh);
    lc->sessions++;
    lc->console->locked = true; /* the cleartext console closes when a controller takes over */
    lc->wire(lc->wire_ctx, (const char *)lc->tx, n);
}

/* Whether a decrypted command line is one the console could have taken
 * from the cleartext line reader: printable ASCII or tab, at most
 * FD_CONSOLE_MAX_LINE characters. */
static bool line_ok(const uint8_t *p, size_t n)
{
    if (n > FD_CONSOLE_MAX_LINE) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if ((p[i] < 0x20u && p[i] != '\t') || p[i] >= 0x7Fu) {
            return false;
        }
    }
    return true;
}

/* A DATA frame in rx: open it in place; its payload is one command line. */
static void data(fd_link_console *lc)
{
    uint8_t *payload = lc->rx.buf + FD_LINK_HEADER_SIZE;
    size_t n = 0;
    if (fd_link_open(&lc->link, lc->rx.buf, lc->rx.len, payload, sizeof lc->rx.buf - FD_LINK_HEADER_SIZE, &n) !=
        FD_OK) {
        lc->refused++;
        return;
    }
    lc->tx_len = 0;
    if (line_ok(payload, n)) {
        run_line(lc, (const char *)payload, n, link_write, lc, true);
    } else {
        static const char bad[] = "ERR badbyte a command line is printable ASCII, at most 144 characters\r\n";
        link_write(lc, bad, sizeof bad - 1u);
    }
    flush(lc);
}

void fd_link_console_feed(fd_link_console *lc, uint8_t byte)
{
    if (lc->rx.len == 0u && byte != FD_LINK_MAGIC) {
        (void)fd_console_feed(lc->console, byte);
        return;
    }
    if (!fd_link_reader_push(&lc->rx, byte)) {
        return;
    }
    const uint8_t type = lc->rx.buf[1];
    if (type == FD_LINK_HELLO) {
        hello(lc);
    } else if (type == FD_LINK_DATA) {
        data(lc);
    } else {
        lc->refused++; /* a WELCOME is the device's to send */
    }
    fd_link_reader_next(&lc->rx);
}

void fd_link_console_lost(fd_link_console *lc)
{
    if (lc->rx.len == 0u) {
        fd_console_lost(lc->console);
    }
}
