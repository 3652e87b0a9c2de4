/* Raw TRNG samples over the console, for measuring the source's rate and
 * recording samples for an offline SP 800-90B assessment (NIST's ea_iid /
 * ea_non_iid read one sample per byte, which is what hal_trng_read gives).
 * Each 'R' received asks for one block:
 *   RAW 4096\r\n <4096 raw sample bytes> \r\nEND us=<time in hal_trng_read>
 *   health=ok|fail\r\n
 * The board's own SP 800-90B health tests (RCT/APT with its cutoffs,
 * start-up over the first FD_TRNG_STARTUP_SAMPLES) run over every sample
 * sent; a failure is reported, and the samples are still sent: they are
 * what the assessment must see. scripts/bringup.py trng drives it. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "console_say.h"
#include "fairdeal/health.h"
#include "fairdeal/util.h"
#include "fd_trng_config.h"
#include "hal/board.h"
#include "hal/console.h"
#include "hal/counter.h"
#include "hal/trng.h"

#define BLOCK_SAMPLES 4096u
#define CHUNK 64u

int main(void)
{
    const fd_health_config cfg = FD_TRNG_HEALTH_CONFIG;
    fd_health health;
    if (fd_health_init(&health, &cfg) != FD_OK) {
        return 1;
    }
    say("TRNG-RAW board=");
    say(hal_board_name());
    say(" source=");
    say(hal_trng_name());
    say(" rct=");
    say_u32(FD_TRNG_RCT_CUTOFF);
    say(" apt=");
    say_u32(FD_TRNG_APT_CUTOFF);
    say("/");
    say_u32(FD_TRNG_APT_WINDOW);
    say(": send R for 4096 raw samples\r\n");
    fd_status st = hal_trng_init();
    bool healthy = true;
    for (;;) {
        uint8_t request = 0;
        const fd_status rx = hal_console_read(&request);
        if (rx == FD_ERR_EXHAUSTED) {
            return healthy ? 0 : 1;
        }
        if (rx != FD_OK || request != 'R') {
            continue;
        }
        if (st != FD_OK) {
            say("ERR trng ");
            say(fd_status_name(st));
            say("\r\n");
            return 1;
        }
        say("RAW ");
        say_u32(BLOCK_SAMPLES);
        say("\r\n");
        uint64_t clocks = 0;
        for (uint32_t done = 0; done < BLOCK_SAMPLES; done += CHUNK) {
            uint8_t chunk[CHUNK];
            const uint32_t start = hal_counter_read();
            st = hal_trng_read(chunk, CHUNK);
            clocks += hal_counter_read() - start;
            if (st != FD_OK) {
                /* the block cannot be completed: the host sees a short
                 * block followed by the error, never made-up samples */
                say("\r\nERR trng ");
                say(fd_status_name(st));
                say("\r\n");
                return 1;
            }
            hal_console_write((const char *)chunk, CHUNK);
            for (size_t i = 0; i < CHUNK; i++) {
                healthy = fd_health_feed(&health, chunk[i]) == FD_OK && healthy;
            }
        }
        say("\r\nEND us=");
        say_u32((uint32_t)(clocks / (FD_CPU_HZ / 1000000u)));
        say(healthy ? " health=ok\r\n" : " health=fail\r\n");
    }
}
