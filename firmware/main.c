/* The dealer firmware's entry point: the same on every board. */
#include "dealer.h"
#include "fd_trng_config.h"
#include "hal/board.h"
#include "hal/console.h"
#include "hal/trng.h"

#ifndef FD_DEALER_DRBG
#define FD_DEALER_DRBG FD_DRBG_CHACHA20
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
    };
    /* The dealer starts the TRNG itself (restart_source), here and on every
     * SELFTEST; a TRNG that fails to start leaves it in the fault state. */
    (void)fd_dealer_init(&dealer, &cfg);
    fd_dealer_banner(&dealer, console_write, NULL);
    hal_console_write("> ", 2);
    while (!dealer.quit) {
        uint8_t byte;
        if (hal_console_read(&byte) != FD_OK) {
            break; /* host: end of input */
        }
#if defined(FD_CONSOLE_ECHO)
        /* a UART terminal does not echo locally */
        if ((byte >= 0x20u && byte < 0x7Fu) || byte == '\r' || byte == '\n') {
            hal_console_write(byte == '\r' ? "\r\n" : (const char *)&byte, byte == '\r' ? 2u : 1u);
        }
#endif
        if (fd_dealer_feed(&dealer, byte, console_write, NULL)) {
            hal_console_write("> ", 2);
        }
    }
    return 0;
}
