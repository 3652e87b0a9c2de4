/* Program verification over the flash (program_verify.h). */
#include "program_verify.h"

#include <string.h>

#if defined(FD_TARGET_CORTEX_M)
#include "fd_board_map.h"
#endif

fd_status fd_program_verify(const uint8_t *seed, size_t seed_len, uint8_t out[FD_SHA256_SIZE], uint32_t *bytes)
{
    if (seed == NULL || out == NULL || bytes == NULL) {
        return FD_ERR_NULL;
    }
    if (seed_len == 0u) {
        return FD_ERR_EMPTY;
    }
    if (seed_len > FD_PROGRAM_VERIFY_SEED_MAX) {
        return FD_ERR_TOO_LARGE;
    }
#if defined(FD_TARGET_CORTEX_M)
    fd_hmac_sha256_ctx ctx;
    fd_hmac_sha256_init(&ctx, seed, seed_len);
    /* in 1 KiB steps: a long walk stays between two watchdog kicks of the caller's loop */
    const struct {
        uintptr_t addr;
        uint32_t size;
    } regions[] = {{FD_BOOTLOADER_ADDR, FD_BOOTLOADER_SIZE}, {FD_SLOT_A_ADDR, FD_SLOT_A_SIZE}};
    *bytes = 0;
    for (size_t r = 0; r < sizeof regions / sizeof regions[0]; r++) {
        for (uint32_t off = 0; off < regions[r].size; off += 1024u) {
            const uint32_t n = regions[r].size - off < 1024u ? regions[r].size - off : 1024u;
            fd_hmac_sha256_update(&ctx, (const void *)(regions[r].addr + off), n);
        }
        *bytes += regions[r].size;
    }
    fd_hmac_sha256_final(&ctx, out);
    return FD_OK;
#else
    memset(out, 0, FD_SHA256_SIZE);
    *bytes = 0;
    return FD_ERR_STATE;
#endif
}
