/* The dealer firmware's entry point: the same on every board. */
#include "fd_board_map.h"
#include "fd_trng_config.h"
#include "hal/board.h"
#include "hal/console.h"
#include "hal/reset.h"
#include "hal/storage.h"
#include "hal/trng.h"
#include "hal/watchdog.h"
#include "link_console.h"
#include "protocol.h"

#ifdef FD_HOST_ARGS
#include <stdio.h>
#include <string.h>

#include "host_storage.h"
#endif

#ifndef FD_DEALER_DRBG
#define FD_DEALER_DRBG FD_DRBG_CHACHA20
#endif

/* A release build (-DFD_RELEASE=ON): a provisioned device secret, a durable
 * seed file and no lab mode, or no dealing. */
#ifndef FD_DEALER_RELEASE
#define FD_DEALER_RELEASE 0
#endif

/* Development builds keep the open cleartext console (until a controller
 * opens a link session); a release build cannot compile it in
 * (link_console.h; docs/LINK.md "Roles"). */
#ifdef FD_CLEARTEXT_CONSOLE
#define CLEARTEXT_CONSOLE true
#else
#define CLEARTEXT_CONSOLE false
#endif

/* Boards echo what they receive (a UART terminal does not echo locally);
 * a host terminal echoes by itself. */
#ifndef FD_CONSOLE_ECHO
#define FD_CONSOLE_ECHO 0
#endif

static fd_status read_raw_samples(void *ctx, uint8_t *samples, size_t count)
{
    (void)ctx;
    return hal_trng_read(samples, count);
}

static fd_status restart_trng(void *ctx)
{
    (void)ctx;
    return hal_trng_init();
}

static void console_write(void *ctx, const char *data, size_t len)
{
    (void)ctx;
    hal_console_write(data, len);
}

/* The exit status of a dealer that refuses to start for want of its
 * watchdog: the boards' own refusal status (FD_EXIT_BOARD, cortex_m.h). */
#define EXIT_NO_WATCHDOG 98

/* Started before anything that could hang (the TRNG's start-up tests):
 * FD_WATCHDOG_TIMEOUT_MS covers the longest operation (the board's
 * board.cmake says why). A board that must have it (FD_WATCHDOG_REQUIRED)
 * and cannot start it does not deal. */
static void watchdog_start(void)
{
    const fd_status st = hal_watchdog_start(FD_WATCHDOG_TIMEOUT_MS);
    if (st != FD_OK && FD_WATCHDOG_REQUIRED) {
        static const char refusal[] = "\r\nFATAL watchdog did not start\r\nDEALING STOPPED\r\n";
        hal_console_write(refusal, sizeof refusal - 1u);
        hal_board_exit(EXIT_NO_WATCHDOG);
    }
}

/* fd_dealer_config.kick: the journal's long walks keep the watchdog fed. */
static void kick_watchdog(void *ctx)
{
    (void)ctx;
    hal_watchdog_kick();
}

#if defined(FD_SIGNED_IMAGE)
#include "fairdeal/image.h"

/* A signed image started by the bootloader (docs/SECURITY.md "Boot"): its
 * SHA-256 from its own trailer in slot A and its version from its header,
 * as the bootloader checked them. NULL (and *version unchanged): no signed
 * image there. The bootloader starts this image only after fd_image_check
 * accepted slot A, so both are found; *version (UPDATE's rollback floor,
 * firmware/update.c) is taken only with the hash. */
static const uint8_t *find_image(uint32_t *version)
{
    const uint8_t *slot = (const uint8_t *)(uintptr_t)FD_SLOT_A_ADDR;
    fd_image_layout at;
    const uint8_t *hash = NULL;
    if (fd_image_locate(slot, FD_SLOT_A_SIZE, &at, NULL) == FD_OK &&
        fd_image_tlv_find(slot + at.tlv_offset, at.tlv_len, FD_IMAGE_TLV_SHA256, FD_SHA256_SIZE, &hash) == FD_OK) {
        *version = at.header.version;
    }
    return hash;
}

/* The image line before the banner (STATUS shows the same: image=, image_hash=). */
static void report_image(const uint8_t *hash, uint32_t version)
{
    static const char digits[] = "0123456789abcdef";
    if (hash == NULL) {
        static const char none[] = "image: no signed image header in slot A\r\n";
        hal_console_write(none, sizeof none - 1u);
        return;
    }
    char line[] = "image: version=0x00000000 hash=";
    for (unsigned i = 0; i < 8u; i++) {
        line[17u + i] = digits[(version >> (28u - 4u * i)) & 0xFu];
    }
    hal_console_write(line, sizeof line - 1u);
    for (size_t i = 0; i < FD_SHA256_SIZE; i++) {
        const char two[2] = {digits[hash[i] >> 4], digits[hash[i] & 0xFu]};
        hal_console_write(two, 2);
    }
    hal_console_write("\r\n", 2);
}
#endif

/* Test images also print why they (re)started, so a test sees a watchdog
 * reset before RECALL/LOG can show it from the journal's power-on record. */
static void report_reset_cause(hal_reset_cause cause)
{
#if defined(FD_DEALER_TEST_COMMANDS)
    char line[] = "RESET cause=0\r\n";
    line[12] = (char)('0' + (int)cause);
    hal_console_write(line, sizeof line - 1u);
#else
    (void)cause; /* release and normal images: only the power-on record has it */
#endif
}

/* Large state lives in .bss, not on the stack. */
static fd_dealer dealer;
static fd_console console;
static fd_link_console link_console;
static fd_flash storage;
static fd_flash secret_page;

/* The flash map's SECRET page as its own area; NULL when the driver
 * refuses it (a release build then refuses to deal). */
static const fd_flash *open_secret_page(void)
{
    static const hal_storage_area area = {FD_SECRET_ADDR, FD_FLASH_PAGE_SIZE, FD_SECRET_SIZE / FD_FLASH_PAGE_SIZE};
    return hal_storage_open(&area, &secret_page) == FD_OK ? &secret_page : NULL;
}

/* The journal's flash: the flash map's STORAGE area. When the driver
 * refuses it the dealer reports the journal unusable and refuses to deal
 * (it never runs without its write-ahead log). */
static fd_status open_storage(void)
{
    static const hal_storage_area area = {FD_STORAGE_ADDR, FD_FLASH_PAGE_SIZE, FD_STORAGE_PAGES};
    return hal_storage_open(&area, &storage);
}

#ifdef FD_HOST_ARGS
/* The host dealer: `--storage PATH` keeps the journal in a file (created
 * blank where none is; an existing one of the wrong size or content is
 * refused), `--new-storage PATH` starts a blank journal in it whatever it
 * held; without either the journal lives in memory and the banner says
 * nothing survives (docs/RECORDS.md "The host store"). */
static bool storage_in_memory = true;

static int host_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const bool fresh = strcmp(argv[i], "--new-storage") == 0;
        if ((fresh || strcmp(argv[i], "--storage") == 0) && i + 1 < argc && storage_in_memory) {
            host_storage_set_file(argv[++i], fresh);
            storage_in_memory = false;
        } else {
            static const char usage[] = "usage: dealer [--storage PATH | --new-storage PATH]\n";
            hal_console_write(usage, sizeof usage - 1u);
            return 2;
        }
    }
    return 0;
}

/* A store file that cannot be used (wrong size or content, locked by
 * another dealer, unreadable): the dealer does not start. */
static int host_storage_refused(fd_status st)
{
    if (st == FD_OK || storage_in_memory) {
        return 0;
    }
    (void)fprintf(stderr, "dealer: %s\n", host_storage_error());
    return 1;
}

int main(int argc, char **argv)
{
    const int bad = host_args(argc, argv);
    if (bad != 0) {
        return bad;
    }
    const bool storage_volatile = storage_in_memory;
    const fd_status storage_status = open_storage();
    if (host_storage_refused(storage_status) != 0) {
        return 1;
    }
    const fd_flash *secret = open_secret_page();
    if (secret == NULL && host_storage_refused(FD_ERR_NOT_READY) != 0) {
        return 1;
    }
#else
int main(void)
{
    const bool storage_volatile = hal_storage_emulated();
#endif
    const hal_reset_cause reset_cause = hal_reset_cause_read();
    watchdog_start();
#ifndef FD_HOST_ARGS
    const fd_status storage_status = open_storage();
    const fd_flash *secret = open_secret_page();
#endif
#if defined(FD_SIGNED_IMAGE)
    uint32_t image_version = 0;
    const uint8_t *image_hash = find_image(&image_version);
#endif
    const fd_dealer_config cfg = {
        .read_samples = read_raw_samples,
        .restart_source = restart_trng,
        .read_ctx = NULL,
        .health = FD_TRNG_HEALTH_CONFIG,
        .samples_per_block = FD_TRNG_SAMPLES_PER_BLOCK,
        .drbg_kind = FD_DEALER_DRBG,
        .board = hal_board_name(),
        .trng_name = hal_trng_name(),
        .emulation_only = hal_board_emulation_only(),
        .storage = &storage,
        .storage_status = storage_status,
        .storage_name = hal_storage_name(),
        .storage_volatile = storage_volatile,
        .reset_cause = (uint8_t)reset_cause,
        .kick = kick_watchdog,
        .secret_page = secret,
        .release = FD_DEALER_RELEASE != 0,
        .presence = hal_board_presence(),
#if defined(FD_SIGNED_IMAGE)
        .image_hash = image_hash,
        .image_version = image_version,
#endif
    };
    /* The dealer starts the TRNG itself (restart_source), here and on every
     * SELFTEST; a TRNG that fails to start leaves it in the fault state. */
    (void)fd_dealer_init(&dealer, &cfg);
    fd_console_init(&console, &dealer, console_write, NULL, hal_console_is_terminal(), FD_CONSOLE_ECHO != 0);
    report_reset_cause(reset_cause);
#if defined(FD_SIGNED_IMAGE)
    report_image(cfg.image_hash, cfg.image_version);
#endif
    fd_link_console_init(&link_console, &console, console_write, NULL, CLEARTEXT_CONSOLE);
    fd_console_start(&console);
    while (!dealer.quit) {
        hal_watchdog_kick();
        uint8_t byte;
        const fd_status st = hal_console_read(&byte);
        if (st == FD_ERR_OVERRUN) {
            fd_link_console_lost(&link_console);
        } else if (st != FD_OK) {
            break; /* host: end of input */
        } else {
            /* the console answers a bad line itself; the loop keeps reading */
            fd_link_console_feed(&link_console, byte);
        }
    }
    return 0;
}
