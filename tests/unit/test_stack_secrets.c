/* Secrets off the stack on every path (docs/RELIABILITY.md, "Secrets off
 * the stack"): after each call that handles secret material, the stack
 * region below the caller holds none of it (tests/common/stack_probe.h:
 * scrub_stack before the call, stack_holds after, both from the frame that
 * makes the call). Each probe looks for 8-byte windows of what a missing
 * wipe would leave: the device secret and everything keyed by it (HMAC pads
 * and midstates, the inner hash), the records written and read back at
 * provisioning, raw samples and conditioned blocks, the two halves the
 * combined source XORs, the round's secret S, the journal key and the seed
 * files. The patterns are computed before the scrub, in static storage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dealer.h"
#include "dealer_sources.h"
#include "device_secret.h"
#include "fairdeal/combined.h"
#include "fairdeal/drbg.h"
#include "fairdeal/entropy.h"
#include "fairdeal/roots.h"
#include "fairdeal/sha256.h"
#include "fd_board_map.h"
#include "host_storage.h"
#include "persist.h"
#include "stack_probe.h"
#include "test_dealer_config.h"

#if STACK_PROBE_WORKS

/* 1 when any 8-byte window (at offsets 0, 8, ...) of the len bytes at p is
 * in the region below the caller. A macro: the probes run in the caller's
 * frame. */
#define HOLDS(p, len) holds_windows((p), (len))
#define holds_windows(p, len)                                                                                          \
    (stack_holds((p), 8) | ((len) > 8u ? stack_holds((p) + 8, 8) : 0) | ((len) > 16u ? stack_holds((p) + 16, 8) : 0) | \
     ((len) > 24u ? stack_holds((p) + 24, 8) : 0))

/* ---- what an HMAC keyed by a secret leaves when its wipes are missing ---- */

enum {
    TRACE_KEY,
    TRACE_IPAD,
    TRACE_OPAD,
    TRACE_INNER_STATE,
    TRACE_OUTER_STATE,
    TRACE_INNER_HASH,
    TRACES
};
static const char *const trace_names[TRACES] = {
    "key", "key ^ ipad", "key ^ opad", "inner midstate", "outer midstate", "inner hash"};
static uint8_t traces[TRACES][32];
static const uint8_t secret_a_bytes[32] = "0123456789abcdef0123456789abcde";

/* The traces of HMAC-SHA-256 keyed by key (32 bytes) over msg. */
static void hmac_traces(const uint8_t key[32], const void *msg, size_t msg_len)
{
    memcpy(traces[TRACE_KEY], key, 32);
    for (unsigned i = 0; i < 32u; i++) {
        traces[TRACE_IPAD][i] = (uint8_t)(key[i] ^ 0x36u);
        traces[TRACE_OPAD][i] = (uint8_t)(key[i] ^ 0x5cu);
    }
    static fd_hmac_sha256_ctx mac;
    fd_hmac_sha256_init(&mac, key, 32);
    memcpy(traces[TRACE_INNER_STATE], mac.inner.h, 32);
    memcpy(traces[TRACE_OUTER_STATE], mac.outer.h, 32);
    fd_sha256_update(&mac.inner, msg, msg_len);
    fd_sha256_final(&mac.inner, traces[TRACE_INNER_HASH]);
}

/* Which traces are below the caller: a bit per trace. A macro (the caller's frame). */
#define TRACES_BELOW(found)                                                                                            \
    do {                                                                                                               \
        (found) = 0;                                                                                                   \
        for (unsigned t_ = 0; t_ < TRACES; t_++) {                                                                     \
            if (HOLDS(traces[t_], 32u)) {                                                                              \
                (found) |= 1u << t_;                                                                                   \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

static void report_traces(unsigned found)
{
    for (unsigned t = 0; t < TRACES; t++) {
        if (found & (1u << t)) {
            print_error("left on the stack: %s\n", trace_names[t]);
        }
    }
}

/* ---- SHA-256 and HMAC themselves ---- */

/* The message schedule words 48..63 of block, as the compression's rolling
 * 16-word array holds them at its end (native words, w[i & 15]). */
static void schedule_tail(const uint8_t block[64], uint8_t out[64])
{
    uint32_t w[64];
    for (unsigned i = 0; i < 16u; i++) {
        w[i] = (uint32_t)block[4u * i] << 24 | (uint32_t)block[4u * i + 1u] << 16 | (uint32_t)block[4u * i + 2u] << 8 |
               block[4u * i + 3u];
    }
#define ROTR(x, n) ((x) >> (n) | (x) << (32u - (n)))
    for (unsigned i = 16; i < 64u; i++) {
        const uint32_t s0 = ROTR(w[i - 15u], 7u) ^ ROTR(w[i - 15u], 18u) ^ (w[i - 15u] >> 3);
        const uint32_t s1 = ROTR(w[i - 2u], 17u) ^ ROTR(w[i - 2u], 19u) ^ (w[i - 2u] >> 10);
        w[i] = w[i - 16u] + s0 + w[i - 7u] + s1;
    }
#undef ROTR
    memcpy(out, w + 48, 64);
}

static fd_sha256_ctx hash;
static fd_hmac_sha256_ctx hmac;
static uint8_t block[64];
static uint8_t schedule[64];
static uint8_t tag[32];

TEST_NOINLINE static unsigned compress_leftovers(void)
{
    fd_sha256_init(&hash);
    scrub_stack();
    fd_sha256_update(&hash, block, sizeof block); /* one compression, straight from block */
    return (unsigned)HOLDS(schedule, 32u) | (unsigned)HOLDS(schedule + 32, 32u);
}

TEST_NOINLINE static unsigned hmac_init_leftovers(void)
{
    unsigned found;
    scrub_stack();
    fd_hmac_sha256_init(&hmac, secret_a_bytes, 32);
    TRACES_BELOW(found);
    return found & (1u << TRACE_KEY | 1u << TRACE_IPAD | 1u << TRACE_OPAD);
}

TEST_NOINLINE static unsigned hmac_final_leftovers(void)
{
    unsigned found;
    fd_hmac_sha256_init(&hmac, secret_a_bytes, 32);
    fd_hmac_sha256_update(&hmac, "probe", 5);
    scrub_stack();
    fd_hmac_sha256_final(&hmac, tag);
    TRACES_BELOW(found);
    return found;
}

/* A compression leaves no schedule word of its block (16 consecutive ones
 * give the block back); HMAC init leaves neither the key nor its pads;
 * HMAC final neither midstate (the compression's spilled chaining value)
 * nor the inner hash. */
static void test_sha256_and_hmac_leave_no_key_material(void **state)
{
    (void)state;
    for (unsigned i = 0; i < 64u; i++) {
        block[i] = (uint8_t)(0x36u ^ secret_a_bytes[i % 32u]);
    }
    schedule_tail(block, schedule);
    assert_int_equal(compress_leftovers(), 0);
    hmac_traces(secret_a_bytes, "probe", 5);
    unsigned found = hmac_init_leftovers();
    report_traces(found);
    assert_int_equal(found, 0);
    found = hmac_final_leftovers();
    report_traces(found);
    assert_int_equal(found, 0);
}

/* ---- the device secret: key derivation, load, provisioning ---- */

static host_flash hf;
static uint8_t page_mem[1024];
static const uint8_t secret_a[FD_DEVICE_SECRET_BYTES] = "0123456789abcdef0123456789abcde";
static fd_device_secret ds;
static uint8_t derived[32];
static uint8_t digest_tail[32];
static uint8_t check_digest[32];

/* SHA-256(label || secret), as device_secret.c's labelled hashes. */
static void labelled(const char *label, const uint8_t *secret, uint8_t out[32])
{
    static fd_sha256_ctx h;
    fd_sha256_init(&h);
    fd_sha256_update(&h, label, strlen(label));
    fd_sha256_update(&h, secret, FD_DEVICE_SECRET_BYTES);
    fd_sha256_final(&h, out);
}

TEST_NOINLINE static unsigned device_key_leftovers(void)
{
    unsigned found;
    scrub_stack();
    const fd_status st = fd_device_key(&ds, "journal", derived);
    TRACES_BELOW(found);
    found |= HOLDS(derived, 32u) ? 1u << TRACES : 0u;
    assert_int_equal(st, FD_OK);
    return found;
}

/* fd_device_key: HMAC keyed by the device secret; nothing of the keyed
 * state (pads, midstates), the inner hash or the derived key below. */
static void test_device_key_leaves_no_keyed_state(void **state)
{
    (void)state;
    assert_int_equal(host_flash_open(&hf, page_mem, sizeof page_mem, 1, NULL), FD_OK);
    assert_int_equal(fd_device_secret_load(&ds, &hf.flash, false), FD_OK);
    static const char msg[] = "fairdeal/key/journal";
    hmac_traces(ds.secret, msg, sizeof msg - 1u);
    const unsigned found = device_key_leftovers();
    report_traces(found);
    assert_int_equal(found, 0);
}

TEST_NOINLINE static unsigned provision_leftovers(fd_status expect)
{
    uint8_t id[FD_DEVICE_ID_BYTES];
    scrub_stack();
    const fd_status st = fd_device_secret_provision(&hf.flash, secret_a, id);
    unsigned found = HOLDS(secret_a, 32u) ? 1u : 0u;
    found |= HOLDS(check_digest, 32u) ? 2u : 0u;
    found |= HOLDS(digest_tail + 8, 24u) ? 4u : 0u;
    assert_int_equal(st, expect);
    return found;
}

TEST_NOINLINE static unsigned load_leftovers(void)
{
    scrub_stack();
    const fd_status st = fd_device_secret_load(&ds, &hf.flash, true);
    unsigned found = HOLDS(secret_a, 32u) ? 1u : 0u;
    found |= HOLDS(check_digest, 32u) ? 2u : 0u;
    found |= HOLDS(digest_tail + 8, 24u) ? 4u : 0u;
    assert_int_equal(st, FD_OK);
    return found;
}

/* A page whose read delivers the provisioned record, then reports a
 * failure (a read error after the transfer). */
static fd_status read_then_fail(void *ctx, uint32_t offset, void *out, size_t len)
{
    const fd_status st = hf.flash.read(ctx, offset, out, len);
    return st == FD_OK ? FD_ERR_TRNG_HW : st;
}

TEST_NOINLINE static unsigned failed_load_leftovers(const fd_flash *page)
{
    scrub_stack();
    const fd_status st = fd_device_secret_load(&ds, page, true);
    const unsigned found = HOLDS(secret_a, 32u) ? 1u : 0u;
    assert_int_equal(st, FD_ERR_TRNG_HW);
    return found;
}

/* Provisioning (the record built, programmed and read back), provisioning
 * refused over a valid page (the stored secret read), loading, and a load
 * whose read fails: neither the secret, its check digest nor the id
 * digest's unpublished bytes below. */
static void test_provision_and_load_leave_no_secret(void **state)
{
    (void)state;
    assert_int_equal(host_flash_open(&hf, page_mem, sizeof page_mem, 1, NULL), FD_OK);
    labelled("fairdeal/secret-check", secret_a, check_digest);
    labelled("fairdeal/device-id", secret_a, digest_tail);
    assert_int_equal(provision_leftovers(FD_OK), 0);
    assert_int_equal(provision_leftovers(FD_ERR_STATE), 0);
    assert_int_equal(load_leftovers(), 0);
    assert_memory_equal(ds.secret, secret_a, sizeof secret_a);
    /* a read that fails after the transfer: what it delivered goes too */
    fd_flash failing = hf.flash;
    failing.read = read_then_fail;
    assert_int_equal(failed_load_leftovers(&failing), 0);
    assert_false(fd_device_secret_usable(&ds));
}

/* ---- entropy conditioning ---- */

/* A fake TRNG that keeps the samples it delivers (static, never on the stack). */
static fake_trng trng;
static uint8_t samples_seen[1u << 14];
static size_t samples_len;

static fd_status recording_read(void *ctx, uint8_t *samples, size_t count)
{
    const fd_status st = fake_trng_read(ctx, samples, count);
    if (st == FD_OK && samples_len + count <= sizeof samples_seen) {
        memcpy(samples_seen + samples_len, samples, count);
        samples_len += count;
    }
    return st;
}

static const fd_health_config h2 = {11, 512, 177, 1024, 10, 177};
static fd_entropy ent;
static uint8_t block_out[64];
static uint8_t pool_copy[32];

/* The last raw samples (a window ending 8 before the last delivered: in
 * the read chunk and, part of a block, in the conditioner's HMAC). */
#define LAST_SAMPLES (samples_seen + samples_len - 16u)

TEST_NOINLINE static unsigned conditioning_leftovers(void)
{
    scrub_stack();
    const fd_status st = fd_entropy_get(&ent, block_out);
    unsigned found = stack_holds(LAST_SAMPLES, 8) ? 1u : 0u;
    found |= HOLDS(block_out, 32u) ? 2u : 0u;
    assert_int_equal(st, FD_OK);
    return found;
}

TEST_NOINLINE static unsigned fill_leftovers(size_t len, fd_status expect)
{
    const fd_rng rng = fd_entropy_rng(&ent);
    scrub_stack();
    const fd_status st = rng.fill(rng.ctx, block_out, len);
    unsigned found = HOLDS(pool_copy, 32u) ? 1u : 0u;
    found |= stack_holds(LAST_SAMPLES, 8) ? 2u : 0u;
    assert_int_equal(st, expect);
    return found;
}

static void fresh_entropy(void)
{
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 34);
    samples_len = 0;
    assert_int_equal(fd_entropy_init(&ent, recording_read, &trng, &h2, 160u), FD_OK);
    assert_int_equal(fd_entropy_startup(&ent), FD_OK);
}

/* A window conditioned (512 samples, three 160-sample blocks and 32 left
 * in the HMAC), a block handed out whole, one handed out in part (its
 * other bytes are nobody's), one handed out before the source failed (the
 * caller wipes its copy), and a window cut short by the source: no raw
 * sample, no conditioned byte below. */
static void test_conditioning_leaves_no_samples_or_blocks(void **state)
{
    (void)state;
    fresh_entropy();
    assert_int_equal(conditioning_leftovers(), 0);
    assert_int_equal(ent.pool_count, 2);
    memcpy(pool_copy, ent.pool[1], 32);
    assert_int_equal(fill_leftovers(20, FD_OK), 0);
    /* the last block, then a new window whose source fails after 200 samples */
    memcpy(pool_copy, ent.pool[0], 32);
    trng.fault_at = trng.delivered + 201u;
    trng.fault_status = FD_ERR_TRNG_HW;
    assert_int_equal(fill_leftovers(64, FD_ERR_TRNG_HW), 0);
}

/* ---- the combined source: TRNG block XOR DRBG output ---- */

static fd_drbg drbg;
static fd_drbg drbg_twin;
static fd_combined comb;
static uint8_t drbg_half[64];
static uint8_t trng_half[32];
static uint8_t combined_out[64];

static fd_status entropy_block(void *ctx, uint8_t out[32]) { return fd_entropy_get(ctx, out); }

TEST_NOINLINE static unsigned combined_leftovers(size_t len, fd_status expect)
{
    const fd_rng rng = fd_combined_bytes(&comb);
    scrub_stack();
    const fd_status st = rng.fill(rng.ctx, combined_out, len);
    unsigned found = HOLDS(trng_half, 32u) ? 1u : 0u;
    found |= HOLDS(drbg_half, 16u) ? 2u : 0u; /* the 20 bytes drawn: windows at 0 and 8 */
    found |= HOLDS(combined_out, 16u) && expect == FD_OK ? 4u : 0u;
    assert_int_equal(st, expect);
    return found;
}

static void test_combined_leaves_neither_half(void **state)
{
    (void)state;
    fresh_entropy();
    const fd_drbg_config dc = {FD_DRBG_CHACHA20, false, 1u << 20, 0};
    assert_int_equal(fd_drbg_instantiate(&drbg, &dc, entropy_block, &ent, (const uint8_t *)"probe", 5), FD_OK);
    assert_int_equal(fd_combined_init(&comb, &ent, &drbg), FD_OK);
    assert_int_equal(fd_combined_begin_round(&comb), FD_OK);
    /* the halves of a 20-byte draw: the next pool block, the DRBG's next 20 bytes */
    memcpy(trng_half, ent.pool[ent.pool_count - 1u], 32);
    drbg_twin = drbg;
    assert_int_equal(fd_drbg_generate(&drbg_twin, drbg_half, 20), FD_OK);
    memset(drbg_half + 20, 0, 12);
    assert_int_equal(combined_leftovers(20, FD_OK), 0);
    for (unsigned i = 0; i < 20u; i++) {
        assert_int_equal(combined_out[i], trng_half[i] ^ drbg_half[i]);
    }
}

/* ---- the roots: device secret + seed file mixed ---- */

static fd_roots roots;
static uint8_t next_seed_file[FD_ROOT_BYTES];
static uint8_t mixed_roots[32];
static const char roots_label[] = "fairdeal roots: device secret + seed file";

/* The roots mixed (roots.c): HMAC(device secret, label || seed file), and
 * the HMAC's traces. */
static void roots_traces(const uint8_t device_secret[32], const uint8_t seed_file[32])
{
    static uint8_t msg[128];
    memcpy(msg, roots_label, sizeof roots_label - 1u);
    memcpy(msg + sizeof roots_label - 1u, seed_file, FD_ROOT_BYTES);
    hmac_traces(device_secret, msg, sizeof roots_label - 1u + FD_ROOT_BYTES);
    fd_hmac_sha256(device_secret, 32, msg, sizeof roots_label - 1u + FD_ROOT_BYTES, mixed_roots);
}

TEST_NOINLINE static unsigned roots_leftovers(void)
{
    unsigned found;
    scrub_stack();
    const fd_status st = fd_roots_reseed(&drbg, &roots, next_seed_file);
    TRACES_BELOW(found);
    found |= HOLDS(roots.seed_file, 32u) ? 1u << TRACES : 0u;
    found |= HOLDS(next_seed_file, 32u) ? 2u << TRACES : 0u;
    found |= HOLDS(mixed_roots, 32u) ? 4u << TRACES : 0u;
    assert_int_equal(st, FD_OK);
    return found;
}

/* A reseed from the roots: nothing of the HMAC keyed by the device secret
 * over the seed file, nor its output (the reseed's input), nor the seed
 * files old and new, below. */
static void test_roots_reseed_leaves_no_roots(void **state)
{
    (void)state;
    fresh_entropy();
    const fd_drbg_config dc = {FD_DRBG_HMAC_SHA256, false, 1u << 20, 0};
    assert_int_equal(fd_drbg_instantiate(&drbg, &dc, entropy_block, &ent, (const uint8_t *)"probe", 5), FD_OK);
    memcpy(roots.device_secret, secret_a, sizeof roots.device_secret);
    for (unsigned i = 0; i < sizeof roots.seed_file; i++) {
        roots.seed_file[i] = (uint8_t)(0xA0u + i);
    }
    roots_traces(roots.device_secret, roots.seed_file);
    const unsigned found = roots_leftovers();
    report_traces(found);
    assert_int_equal(found, 0);
}

/* ---- the dealer: the round's secret S, the journal key, the seed files ---- */

static uint8_t seed_file_before[FD_DEALER_SEED_FILE_MAX];
static host_flash dhf;
static uint8_t dmem[FD_FLASH_PAGE_SIZE * FD_STORAGE_PAGES];
static fake_trng dtrng;
static fd_dealer dealer;
static uint8_t s_drawn[FD_DEALER_SECRET_MAX];
static size_t s_len;

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

/* While watch_top is set, every TRNG read looks in the live stack between
 * itself and watch_top for the seed file read at power-on: the frames that
 * read it are gone by then, what they left is not. */
static const void *watch_top;
static unsigned watch_reads;
static unsigned watch_found;

static fd_status watching_read(void *ctx, uint8_t *samples, size_t count)
{
    if (watch_top != NULL) {
        watch_reads++;
        for (size_t o = 0; o < FD_ROOT_BYTES; o += 8u) {
            watch_found += (unsigned)live_stack_holds(watch_top, seed_file_before + o, 8);
        }
    }
    return fake_trng_read(ctx, samples, count);
}

static fd_dealer_config dealer_config(void)
{
    fake_trng_init(&dtrng, FAKE_TRNG_RANDOM, 34);
    fd_dealer_config cfg = test_dealer_config(&dtrng, restart_ok, FD_DRBG_CHACHA20);
    cfg.read_samples = watching_read;
    cfg.storage = &dhf.flash;
    cfg.storage_name = "probe flash";
    return cfg;
}

/* A dealer on fresh flash, same TRNG every time, an 8-deck shoe (413 bytes of S). */
static void dealer_fresh(void)
{
    assert_int_equal(host_flash_open(&dhf, dmem, FD_FLASH_PAGE_SIZE, FD_STORAGE_PAGES, NULL), FD_OK);
    const fd_dealer_config cfg = dealer_config();
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK);
    assert_int_equal(fd_dealer_new(&dealer, FD_DECK_FRENCH, 8, 0), FD_OK);
}

/* How many 8-byte windows of pattern[0..len) are below the caller (a macro: its frame). */
#define WINDOWS_BELOW(found, pattern, len)                                                                             \
    do {                                                                                                               \
        for (size_t o_ = 0; o_ + 8u <= (len); o_ += 8u) {                                                              \
            (found) += (unsigned)stack_holds((pattern) + o_, 8);                                                       \
        }                                                                                                              \
    } while (0)

TEST_NOINLINE static unsigned open_round_leftovers(const uint8_t *s, size_t len, fd_status *st)
{
    unsigned found = 0;
    scrub_stack();
    *st = fd_dealer_open_round(&dealer, 1, FD_ROUND_NO_BEACON, 0);
    WINDOWS_BELOW(found, s, len);
    return found;
}

/* S drawn (431 bytes: fourteen combined blocks, TRNG windows refilled
 * twice), committed and journalled: no 8 bytes of it below; the same
 * dealer again draws the same S (so the failing runs below look for the
 * S they drew); S lost to a journal that cannot take its secret parts,
 * and S cut short by a TRNG fault in the middle of the draw: nothing of
 * what was drawn below either. */
static void test_round_secret_off_the_stack_on_every_path(void **state)
{
    (void)state;
    fd_status st;
    dealer_fresh();
    s_len = fd_round_secret_min(dealer.shoe.count);
    assert_true(s_len > 400u);
    unsigned found = open_round_leftovers(dealer.round.secret, s_len, &st);
    assert_int_equal(st, FD_OK);
    assert_int_equal(found, 0);
    memcpy(s_drawn, dealer.round.secret, s_len);

    dealer_fresh();
    found = open_round_leftovers(dealer.round.secret, s_len, &st);
    assert_int_equal(st, FD_OK);
    assert_memory_equal(dealer.round.secret, s_drawn, s_len);
    assert_int_equal(found, 0);

    /* the journal refuses the first secret part: S goes, the state stays */
    dealer_fresh();
    dhf.cut_after = dhf.steps;
    found = open_round_leftovers(s_drawn, s_len, &st);
    assert_int_not_equal(st, FD_OK);
    assert_int_equal(dealer.round.secret[0] | dealer.round.secret[100], 0);
    assert_int_equal(found, 0);

    /* the TRNG fails half-way through the second window of the draw */
    dealer_fresh();
    const uint32_t window = dealer.entropy.health.cfg.apt_window;
    dtrng.fault_at = dtrng.delivered + window + window / 2u;
    dtrng.fault_status = FD_ERR_TRNG_HW;
    const size_t drawn = 32u * (window / dealer.entropy.samples_per_block);
    found = open_round_leftovers(s_drawn, drawn, &st);
    assert_int_not_equal(st, FD_OK);
    assert_int_equal(found, 0);
}

TEST_NOINLINE static unsigned start_sources_leftovers(void)
{
    unsigned found;
    uint8_t top = 0;
    scrub_stack();
    watch_top = &top;
    const fd_status st = fd_dealer_start_sources(&dealer);
    watch_top = NULL;
    TRACES_BELOW(found);
    WINDOWS_BELOW(found, seed_file_before, FD_ROOT_BYTES);
    WINDOWS_BELOW(found, dealer.persist.seed_file, FD_ROOT_BYTES);
    found |= HOLDS(mixed_roots, 32u) ? 1u << TRACES : 0u;
    assert_int_equal(st, FD_OK);
    return found;
}

TEST_NOINLINE static unsigned mount_leftovers(void)
{
    unsigned found;
    scrub_stack();
    const fd_persist_ctx j = {&dealer.persist, &dealer.round, &dealer.shoe};
    const bool restored =
        fd_persist_mount(&j, dealer.cfg.storage, dealer.cfg.storage_status, &dealer.secret, dealer.cfg.kick);
    TRACES_BELOW(found);
    assert_false(restored);
    return found;
}

/* The sources started over a journal (what a power-on does): the seed file
 * read (looked for while the DRBG's instantiate reads the TRNG, too), the
 * roots mixed from it and the next seed file written: nothing of them below. The journal mounted: nothing of its key (derived from the
 * device secret, keyed into the journal's HMAC) below. */
static void test_seed_files_and_journal_key_off_the_stack(void **state)
{
    (void)state;
    dealer_fresh();
    memcpy(seed_file_before, dealer.persist.seed_file, FD_ROOT_BYTES);
    roots_traces(dealer.secret.secret, seed_file_before);
    /* the DRBG's instantiate conditions a fresh window: reads to watch from */
    fd_wipe(dealer.entropy.pool, sizeof dealer.entropy.pool);
    dealer.entropy.pool_count = 0;
    watch_reads = watch_found = 0;
    unsigned found = start_sources_leftovers();
    report_traces(found);
    assert_int_equal(found, 0);
    assert_true(watch_reads > 0u);
    assert_int_equal(watch_found, 0);
    assert_memory_not_equal(seed_file_before, dealer.persist.seed_file, FD_ROOT_BYTES);

    static uint8_t key[FD_SHA256_SIZE];
    assert_int_equal(fd_persist_journal_key(&dealer.secret, key), FD_OK);
    hmac_traces(key, "R", 1);
    memset(traces[TRACE_INNER_HASH], 0x5A, 32); /* each record's own: not looked for */
    found = mount_leftovers();
    report_traces(found);
    assert_int_equal(found, 0);
    assert_int_equal(dealer.persist.status, FD_OK);
}

#endif

int main(void)
{
#if STACK_PROBE_WORKS
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_and_hmac_leave_no_key_material),
        cmocka_unit_test(test_device_key_leaves_no_keyed_state),
        cmocka_unit_test(test_provision_and_load_leave_no_secret),
        cmocka_unit_test(test_conditioning_leaves_no_samples_or_blocks),
        cmocka_unit_test(test_combined_leaves_neither_half),
        cmocka_unit_test(test_roots_reseed_leaves_no_roots),
        cmocka_unit_test(test_round_secret_off_the_stack_on_every_path),
        cmocka_unit_test(test_seed_files_and_journal_key_off_the_stack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
#else
    return 0;
#endif
}
