/* The dealer firmware's entry point: the same on every board. */
#include "fd_board_map.h"
#include "fd_trng_config.h"
#include "hal/board.h"
#include "hal/console.h"
#include "hal/storage.h"
#include "hal/trng.h"
#include "protocol.h"

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
static fd_flash secret_page;

/* The flash map's SECRET page as its own area; NULL when the driver
 * refuses it (a release build then refuses to deal). */
static const fd_flash *open_secret_page(void)
{
    static const hal_storage_area area = {FD_SECRET_ADDR, FD_FLASH_PAGE_SIZE, FD_SECRET_SIZE / FD_FLASH_PAGE_SIZE};
    return hal_storage_open(&area, &secret_page) == FD_OK ? &secret_page : NULL;
}

int main(void)
{
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
