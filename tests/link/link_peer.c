/* A line-driven stand-in for the link's two users, for the interop tests
 * (tests/link/interop_*.py, against python3-cryptography and python3-dissononce):
 * the primitives on request, and a device that answers HELLO with WELCOME
 * and each DATA frame with a DATA frame "OK <payload>". One command per
 * line, hex arguments ("-" is empty); one answer line each.
 *   x25519 K U | poly KEY MSG | aead_enc KEY NONCE AD PT | aead_dec KEY NONCE AD CT||TAG
 *   hkdf CK IKM | dev SECRET | frame FRAME | state */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairdeal/aead.h"
#include "fairdeal/link.h"
#include "fairdeal/util.h"
#include "fairdeal/x25519.h"

#define CAP 4096

static size_t arg(const char *hex, uint8_t *out)
{
    size_t n = 0;
    if (strcmp(hex, "-") == 0)
        return 0;
    if (fd_hex_decode(hex, strlen(hex), out, CAP, &n) != FD_OK) {
        printf("ERR bad-hex\n");
        exit(2);
    }
    return n;
}

static void put_hex(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        printf("%02x", b[i]);
}

static uint8_t a[CAP], b[CAP], c[CAP], d[CAP], out[CAP];
static uint8_t psk[32], eph_key[32];
static uint64_t counter;
static fd_link dev;

static void frame(const uint8_t *f, size_t n)
{
    size_t len = 0;
    if (n >= 2 && f[1] == FD_LINK_HELLO) {
        uint8_t trng[32] = {0}; /* a stuck TRNG: the counter alone keeps keys apart */
        uint8_t e[32];
        char id[64];
        const int idn = snprintf(id, sizeof id, "FAIRDEAL link-peer counter=%llu", (unsigned long long)counter);
        fd_link_ephemeral(eph_key, trng, counter++, e);
        const fd_status st =
            fd_link_accept(psk, e, f, n, (const uint8_t *)id, (size_t)idn, &dev, out, sizeof out, &len);
        if (st != FD_OK) {
            printf("ERR %s\n", fd_status_name(st));
            return;
        }
        printf("WELCOME ");
        put_hex(out, len);
        printf("\n");
        return;
    }
    uint8_t payload[FD_LINK_MAX_PAYLOAD + 2];
    size_t plen = 0;
    fd_status st = fd_link_open(&dev, f, n, payload, sizeof payload, &plen);
    if (st != FD_OK) {
        printf("ERR %s rejected=%u open=%d\n", fd_status_name(st), (unsigned)dev.rejected, dev.open ? 1 : 0);
        return;
    }
    uint8_t reply[FD_LINK_MAX_PAYLOAD + 3] = "OK ";
    if (plen > FD_LINK_MAX_PAYLOAD - 3u)
        plen = FD_LINK_MAX_PAYLOAD - 3u;
    memcpy(reply + 3, payload, plen);
    st = fd_link_seal(&dev, reply, plen + 3, out, sizeof out, &len);
    if (st != FD_OK) {
        printf("ERR %s\n", fd_status_name(st));
        return;
    }
    printf("REPLY ");
    put_hex(out, len);
    printf("\n");
}

int main(void)
{
    char line[4 * CAP];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin) != NULL) {
        char *argv[6] = {0};
        int argc = 0;
        for (char *t = strtok(line, " \n"); t != NULL && argc < 6; t = strtok(NULL, " \n"))
            argv[argc++] = t;
        if (argc == 0)
            continue;
        const char *cmd = argv[0];
        if (strcmp(cmd, "x25519") == 0 && argc == 3) {
            if (arg(argv[1], a) != 32 || arg(argv[2], b) != 32) {
                printf("ERR size\n");
                continue;
            }
            fd_x25519(out, a, b);
            put_hex(out, 32);
            printf("\n");
        } else if (strcmp(cmd, "poly") == 0 && argc == 3) {
            arg(argv[1], a);
            const size_t n = arg(argv[2], b);
            fd_poly1305(out, a, b, n);
            put_hex(out, 16);
            printf("\n");
        } else if (strcmp(cmd, "aead_enc") == 0 && argc == 5) {
            arg(argv[1], a);
            arg(argv[2], b);
            const size_t adn = arg(argv[3], c);
            const size_t n = arg(argv[4], d);
            const fd_status st = fd_aead_encrypt(a, b, c, adn, d, n, out, out + n);
            if (st != FD_OK) {
                printf("ERR %s\n", fd_status_name(st));
                continue;
            }
            put_hex(out, n + 16);
            printf("\n");
        } else if (strcmp(cmd, "aead_dec") == 0 && argc == 5) {
            arg(argv[1], a);
            arg(argv[2], b);
            const size_t adn = arg(argv[3], c);
            const size_t n = arg(argv[4], d);
            if (n < 16) {
                printf("ERR size\n");
                continue;
            }
            const fd_status st = fd_aead_decrypt(a, b, c, adn, d, n - 16, d + n - 16, out);
            if (st != FD_OK) {
                printf("ERR %s\n", fd_status_name(st));
                continue;
            }
            put_hex(out, n - 16);
            printf("\n");
        } else if (strcmp(cmd, "hkdf") == 0 && argc == 3) {
            arg(argv[1], a);
            const size_t n = arg(argv[2], b);
            fd_noise_hkdf(a, b, n, out, out + 32, out + 64);
            put_hex(out, 96);
            printf("\n");
        } else if (strcmp(cmd, "dev") == 0 && argc == 2) {
            const size_t n = arg(argv[1], a);
            const fd_status st = fd_link_derive_keys(a, n, psk, eph_key);
            fd_link_close(&dev);
            printf("%s\n", st == FD_OK ? "OK" : fd_status_name(st));
        } else if (strcmp(cmd, "frame") == 0 && argc == 2) {
            frame(a, arg(argv[1], a));
        } else if (strcmp(cmd, "state") == 0) {
            printf("open=%d received=%u rejected=%u hash=", dev.open ? 1 : 0, (unsigned)dev.received,
                   (unsigned)dev.rejected);
            put_hex(dev.s.hash, 32);
            printf("\n");
        } else {
            printf("ERR command\n");
        }
    }
    return 0;
}
