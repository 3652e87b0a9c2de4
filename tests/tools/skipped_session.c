/* A dealer session with two power cuts after a write-ahead (docs/PROTOCOL.md
 * "Power loss"), printed as the console showed it: the real dealer over the
 * host flash simulator, powered off and on again (RAM lost, the flash kept),
 * in machine mode. tests/tools/test_skipped.sh checks it with every
 * verifier; tests/tools/make_malformed.py freezes it as a base input.
 *
 *   SHUFFLE, DEAL 2 3 (positions 0-5), BURN (6)
 *   DEAL 1 2 (7-8): journalled, the power cut before its reply: not shown
 *   power on: "RECOVERED ... at card 9", SKIPPED 7-8
 *   DEAL 3 (9-11): shown, then the power cut before the next command
 *   power on: "RECOVERED ... at card 12", SKIPPED 9-11 (the journal cannot
 *   tell this reply went out)
 *   DEAL 2 (12-13), REVEAL (skipped=7-8,9-11), RECALL 1
 *
 * usage: skipped_session [drbg]   (drbg: the round is SHUFFLE drbg) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dealer.h"
#include "fd_board_map.h"
#include "host_storage.h"
#include "protocol.h"
#include "test_dealer_config.h"

static host_flash hf;
static uint8_t mem[FD_FLASH_PAGE_SIZE * FD_STORAGE_PAGES];
static fake_trng trng;
static fd_dealer dealer;
static fd_console console;
static bool shown = true; /* false: the power is cut before this output leaves */

static void out(void *ctx, const char *data, size_t len)
{
    (void)ctx;
    if (shown) {
        (void)fwrite(data, 1, len, stdout);
    }
}

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

/* Power on: a new dealer over the same flash, its banner shown. */
static void power_on(uint64_t seed)
{
    host_flash_reboot(&hf);
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, seed);
    fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    cfg.storage = &hf.flash;
    cfg.storage_name = "test flash";
    cfg.reset_cause = 1;
    memset(&dealer, 0, sizeof dealer);
    if (fd_dealer_init(&dealer, &cfg) != FD_OK || dealer.persist.status != FD_OK) {
        (void)fprintf(stderr, "skipped_session: the dealer did not start\n");
        exit(1);
    }
    fd_console_init(&console, &dealer, out, NULL, false, false);
    fd_console_start(&console);
}

static void cmd(const char *line) { fd_console_command(&console, line, strlen(line)); }

int main(int argc, char **argv)
{
    const bool drbg = argc > 1 && strcmp(argv[1], "drbg") == 0;
    if (host_flash_open(&hf, mem, FD_FLASH_PAGE_SIZE, FD_STORAGE_PAGES, NULL) != FD_OK) {
        (void)fprintf(stderr, "skipped_session: no flash\n");
        return 1;
    }
    power_on(7);
    cmd(drbg ? "SHUFFLE drbg" : "SHUFFLE");
    cmd("DEAL 2 3");
    cmd("BURN");
    shown = false; /* journalled; the power goes before the reply */
    cmd("DEAL 1 2");
    shown = true;
    power_on(8);
    cmd("DEAL 3"); /* shown; the power goes before the next command */
    power_on(9);
    cmd("DEAL 2");
    cmd("REVEAL");
    cmd("RECALL 1");
    return 0;
}
