/* libFuzzer: the journal on the host flash simulator. Mode 0 plays a script
 * of appends, wipes, armed power cuts (clean or torn), remounts and bit
 * flips. With no flip, every remount succeeds, the next seq is past every
 * acknowledged one and the newest acknowledged record is there. With one
 * flip, a remount may report FD_ERR_CORRUPT, and when it does not, the same
 * holds as with none (one flipped bit is never a silent loss). With two or
 * more, only memory safety is checked: flips in the newest page's header and
 * in its first record's header make that page look like one a cut left half
 * claimed, which is the truncation the journal leaves to the outside to see
 * (journal.h; tests/unit/test_journal.c test_damaged_newest_page).
 * Mode 1 mounts and walks raw bytes as a flash image. */
#include <stdbool.h>
#include <string.h>

#include "fairdeal/journal.h"
#include "fairdeal/records.h"
#include "fuzz_support.h"
#include "host_storage.h"

#define PAGE 512u
#define PAGES 6u

static uint8_t mem[PAGE * PAGES];
static host_flash hf;
static fd_journal journal;
static fd_journal_page pages[PAGES];
static const uint8_t key[32] = "fuzzing key, 32 bytes long.....";

typedef struct found {
    uint32_t seq;
    bool present;
} found;

static fd_status find(void *ctx, const fd_journal_record *r)
{
    found *f = ctx;
    f->present |= r->orig_seq == f->seq;
    return FD_OK;
}

static fd_status remount(fd_records_policy *policy)
{
    host_flash_reboot(&hf);
    FUZZ_CHECK(fd_journal_init(&journal, &hf.flash, key, sizeof key, pages, fd_records_keep, policy) == FD_OK);
    return fd_journal_mount(&journal, NULL);
}

static void check_mounted(uint32_t last_acked)
{
    uint8_t head[32];
    uint32_t next = 0;
    FUZZ_CHECK(fd_journal_head(&journal, head, &next) == FD_OK);
    FUZZ_CHECK(next > last_acked);
    found f = {last_acked, false};
    FUZZ_CHECK(fd_journal_walk(&journal, find, &f, NULL) == FD_OK);
    FUZZ_CHECK(last_acked == 0u || f.present);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = {data, size, 0};
    uint8_t mode = fuzz_u8(&in);
    FUZZ_CHECK(host_flash_open(&hf, mem, PAGE, PAGES, NULL) == FD_OK);
    fd_records_policy policy = {0, 2, 3};
    if ((mode & 1u) != 0u) {
        size_t n = size - in.pos < sizeof mem ? size - in.pos : sizeof mem;
        memcpy(mem, data + in.pos, n);
        if (remount(&policy) == FD_OK) {
            /* fuzzing: any status is fine; ASan/UBSan and the asserts catch misbehaviour */
            (void)fd_journal_walk(&journal, NULL, NULL, NULL);
            uint8_t p[8] = {0};
            (void)fd_journal_append(&journal, 1, p, sizeof p, NULL, 0, NULL);
            (void)fd_journal_walk(&journal, NULL, NULL, NULL);
        }
        return 0;
    }
    FUZZ_CHECK(remount(&policy) == FD_OK);
    unsigned flips = 0;
    uint32_t last_acked = 0;
    uint32_t last_secret = 0;
    while (in.pos < in.len) {
        uint8_t op = fuzz_u8(&in);
        switch (op % 8u) {
        case 0:
        case 1:
        case 2:
        case 3: {
            uint8_t payload[64] = {0};
            uint8_t secret[32];
            uint8_t type = (uint8_t)(1u + fuzz_u8(&in) % 9u);
            size_t len = 4u + fuzz_u8(&in) % 60u;
            for (size_t i = 0; i < len; i++) {
                payload[i] = fuzz_u8(&in);
            }
            memset(secret, op, sizeof secret);
            if (type == FD_REC_ROUND_OPENED) {
                policy.newest_round = payload[0];
            }
            bool with_secret = (op & 1u) != 0u;
            uint32_t seq = 0;
            fd_status st = fd_journal_append(&journal, type, payload, len, with_secret ? secret : NULL,
                                             with_secret ? sizeof secret : 0u, &seq);
            if (st == FD_OK) {
                FUZZ_CHECK(flips > 1u || seq > last_acked);
                last_acked = seq;
                last_secret = with_secret ? seq : last_secret;
            }
            break;
        }
        case 4:
            /* fuzzing: any status is fine; ASan/UBSan and the asserts catch misbehaviour */
            (void)fd_journal_wipe_secret(&journal, last_secret);
            break;
        case 5:
            hf.cut_after = hf.steps + fuzz_u8(&in) % 8u;
            hf.torn = (op & 8u) != 0u;
            hf.tear_state = 1u + fuzz_u32(&in);
            break;
        case 6: {
            fd_status st = remount(&policy);
            if (st != FD_OK) {
                FUZZ_CHECK(flips > 0u && st == FD_ERR_CORRUPT);
                return 0;
            }
            if (flips <= 1u) {
                check_mounted(last_acked);
            }
            break;
        }
        default:
            (void)host_flash_flip(&hf, fuzz_u16(&in) % (PAGE * PAGES * 8u));
            flips++;
            break;
        }
    }
    fd_status st = remount(&policy);
    if (st != FD_OK) {
        FUZZ_CHECK(flips > 0u && st == FD_ERR_CORRUPT);
    } else if (flips <= 1u) {
        check_mounted(last_acked);
    }
    return 0;
}
