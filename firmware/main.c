/* The dealer firmware's entry point: the same on every board. */
#include "fd_board_map.h"
#include "fd_trng_config.h"
#include "hal/board.h"
#include "hal/console.h"
#include "hal/storage.h"
#include "hal/trng.h"
#include "protocol.h"

#ifdef FD_HOST_ARGS
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

/* Large state lives in .bss, not on the stack. */
static fd_dealer dealer;
static fd_console console;
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
/* The host dealer: `--storage PATH` keeps the journal in a file; without it
 * the journal lives in memory and the banner says nothing survives. */
static bool storage_in_memory = true;

static int host_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--storage") == 0 && i + 1 < argc) {
            host_storage_set_file(argv[++i]);
            storage_in_memory = false;
        } else {
            static const char usage[] = "usage: dealer [--storage PATH]\n";
            hal_console_write(usage, sizeof usage - 1u);
            return 2;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const int bad = host_args(argc, argv);
    if (bad != 0) {
        return bad;
    }
    const bool storage_volatile = storage_in_memory;
#else
int main(void)
{
    const bool storage_volatile = hal_storage_emulated();
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
        .storage_status = open_storage(),
        .storage_name = hal_storage_name(),
        .storage_volatile = storage_volatile,
        .reset_cause = 0, /* TODO(wdog): hal_reset_cause_read() */
        .secret_page = open_secret_page(),
        .release = FD_DEALER_RELEASE != 0,
    };
    /* The dealer starts the TRNG itself (restart_source), here and on every
     * SELFTEST; a TRNG that fails to start leaves it in the fault state. */
    (void)fd_dealer_init(&dealer, &cfg);
    fd_console_init(&console, &dealer, console_write, NULL, hal_console_is_terminal(), FD_CONSOLE_ECHO != 0);
    fd_console_start(&console);
    while (!dealer.quit) {
        uint8_t byte;
        const fd_status st = hal_console_read(&byte);
        if (st == FD_ERR_OVERRUN) {
            fd_console_lost(&console);
        } else if (st != FD_OK) {
            break; /* host: end of input */
        } else {
            /* the console answers a bad line itself; the loop keeps reading */
            (void)fd_console_feed(&console, byte);
        }
    }
    return 0;
}
