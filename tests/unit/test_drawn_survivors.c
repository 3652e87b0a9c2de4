/* Direct tests written against the survivors of the mutants drawn by rule
 * (docs/RELIABILITY.md, "Mutants drawn by rule"): each names the mutant it
 * kills. Linked with --wrap=fd_chacha20_block so the known-answer self-test
 * can be shown a wrong block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dealer.h"
#include "device_secret.h"
#include "fairdeal/aead.h"
#include "fairdeal/bounded.h"
#include "fairdeal/chacha20.h"
#include "fairdeal/commit.h"
#include "fairdeal/drbg.h"
#include "fairdeal/fullentropy.h"
#include "fairdeal/hmac_drbg.h"
#include "fairdeal/link.h"
#include "fairdeal/lms.h"
#include "fairdeal/rng.h"
#include "fairdeal/selftest.h"
#include "fairdeal/shuffle.h"
#include "fairdeal/status.h"
#include "fairdeal/util.h"
#include "host_storage.h"
#include "lms_vectors.h"
#include "reply.h"
#include "test_dealer_config.h"
#include "stack_probe.h"
#include "test_rng.h"

/* ---- the self-test shown a wrong ChaCha20 block ---- */

void __real_fd_chacha20_block(const uint8_t key[FD_CHACHA20_KEY_SIZE], uint32_t counter,
                              const uint8_t nonce[FD_CHACHA20_NONCE_SIZE], uint8_t out[FD_CHACHA20_BLOCK_SIZE]);
void __wrap_fd_chacha20_block(const uint8_t key[FD_CHACHA20_KEY_SIZE], uint32_t counter,
                              const uint8_t nonce[FD_CHACHA20_NONCE_SIZE], uint8_t out[FD_CHACHA20_BLOCK_SIZE]);
static bool chacha_broken;

void __wrap_fd_chacha20_block(const uint8_t key[FD_CHACHA20_KEY_SIZE], uint32_t counter,
                              const uint8_t nonce[FD_CHACHA20_NONCE_SIZE], uint8_t out[FD_CHACHA20_BLOCK_SIZE])
{
    __real_fd_chacha20_block(key, counter, nonce, out);
    if (chacha_broken) {
        out[3] ^= 0x10u; /* one bit of the first 16 bytes the self-test compares */
    }
}

/* selftest.c: "ok && memcmp(out, chacha_first16, 16) == 0" with || (the
 * ChaCha20 known answer ignored once the hash ones passed). */
static void test_selftest_fails_on_a_wrong_chacha20_block(void **state)
{
    (void)state;
    assert_int_equal(fd_selftest_kat(), FD_OK);
    chacha_broken = true;
    const fd_status st = fd_selftest_kat();
    chacha_broken = false;
    assert_int_equal(st, FD_ERR_KAT);
    assert_int_equal(fd_selftest_kat(), FD_OK);
}

/* ---- Lemire's step at width 31 ---- */

/* bounded.c: "width >= 32u ? 0u : (1u << width)" with 31u (a 31-bit
 * width's span taken as 2^32's). Words whose product wraps to a small low
 * part, against the definition: accepted iff low >= 2^31 mod bound. */
static void test_lemire_map_at_width_31(void **state)
{
    (void)state;
    static const uint32_t bounds[] = {3u, 5u, 7u, 1000003u, 0x7FFFFFFFu};
    unsigned differ_at_32 = 0;
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
        const uint32_t bound = bounds[b];
        const uint32_t threshold = (uint32_t)((1ull << 31) % bound);
        differ_at_32 += threshold != (uint32_t)((1ull << 32) % bound);
        for (uint64_t j = 1; j <= 8u && j < bound; j++) {
            const uint64_t centre = (j << 31) / bound;
            for (uint64_t w = centre - 4u; w <= centre + 4u; w++) {
                const uint64_t prod = w * bound;
                const uint32_t low = (uint32_t)(prod & 0x7FFFFFFFu);
                uint32_t got = 0xFFFFFFFFu;
                const bool accepted = fd_lemire_map((uint32_t)w, bound, 31, &got);
                assert_int_equal(accepted, low >= threshold);
                if (accepted) {
                    assert_int_equal(got, (uint32_t)(prod >> 31));
                }
            }
        }
    }
    assert_true(differ_at_32 >= 2u); /* the words above tell 2^31 from 2^32 */
}

/* ---- round records: a known field's length is exact ---- */

static uint8_t rec[4096];
static uint8_t bad[4096];

/* commit.c: "want != 0u && vlen == want" with || (a known field of any
 * length, and an unknown mandatory tag of length 0, pass the structure
 * pass). */
static void test_record_field_length_is_exact(void **state)
{
    (void)state;
    static fd_round_record r;
    memset(&r, 0, sizeof r);
    r.round_id = 7;
    r.kind = FD_DECK_FRENCH;
    r.decks = 1;
    r.mode = 0;
    r.dealt = 3;
    memset(r.commitment, 0xC3, sizeof r.commitment);
    size_t len = 0;
    assert_int_equal(fd_record_encode(&r, rec, sizeof rec, &len), FD_OK);
    static fd_round_record back;
    assert_int_equal(fd_record_decode(rec, len, &back), FD_OK);
    /* ROUND_ID (first field: version, tag 1, length 00 04) one byte longer */
    assert_int_equal(rec[1], FD_RECORD_TAG_ROUND_ID);
    assert_int_equal(rec[2] << 8 | rec[3], 4);
    memcpy(bad, rec, 8);
    bad[3] = 5;
    bad[8] = 0;
    memcpy(bad + 9, rec + 8, len - 8u);
    assert_int_equal(fd_record_decode(bad, len + 1u, &back), FD_ERR_PARSE);
    /* ... and one byte shorter */
    memcpy(bad, rec, 7);
    bad[3] = 3;
    memcpy(bad + 7, rec + 8, len - 8u);
    assert_int_equal(fd_record_decode(bad, len - 1u, &back), FD_ERR_PARSE);
    /* an unknown tag below 0x80 (not optional) after the last, empty */
    memcpy(bad, rec, len);
    bad[len] = 0x7Fu;
    bad[len + 1u] = 0;
    bad[len + 2u] = 0;
    assert_int_equal(fd_record_decode(bad, len + 3u, &back), FD_ERR_PARSE);
}

/* ---- full-entropy draws: each NULL argument refused alone ---- */

/* fullentropy.c: "fe == NULL || out == NULL" with && (a NULL out alone
 * accepted: the draw writes through it). */
static void test_fullentropy_refuses_each_null_argument(void **state)
{
    (void)state;
    static test_prng prng;
    const fd_rng src = test_prng_init(&prng, 34);
    static fd_fullentropy fe;
    assert_int_equal(fd_fullentropy_init(&fe, &src), FD_OK);
    uint32_t v = 0xABCDu;
    assert_int_equal(fd_fullentropy_uniform(&fe, 5u, NULL), FD_ERR_NULL);
    assert_int_equal(fd_fullentropy_uniform(NULL, 5u, &v), FD_ERR_NULL);
    assert_int_equal(v, 0xABCDu);
    assert_int_equal(fd_fullentropy_uniform(&fe, 5u, &v), FD_OK);
    assert_true(v < 5u);
}

/* rng.c: "rng == NULL || rng->fill == NULL" with && (a source without a
 * fill function called). */
static void test_rng_without_fill_refused(void **state)
{
    (void)state;
    const fd_rng none = {NULL, NULL, NULL};
    uint32_t v = 0x1234u;
    assert_int_equal(fd_rng_u32(&none, &v), FD_ERR_NULL);
    assert_int_equal(fd_rng_u32(NULL, &v), FD_ERR_NULL);
    assert_int_equal(v, 0x1234u);
}

/* ---- the dealer's lab draws: the bound checked by the dealer itself ---- */

static fake_trng trng;
static fd_dealer dealer;

static fd_status restart_ok(void *ctx)
{
    (void)ctx;
    return FD_OK;
}

/* dealer_sources.c: "bound == 0u || bound > UINT16_MAX + 1u" with && (lab
 * draws with bound 0 or above 2^16 not refused by the dealer; the console
 * refuses them before, so only a direct call tells). */
static void test_lab_cards_refuse_bounds_out_of_range(void **state)
{
    (void)state;
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 34);
    const fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK);
    uint16_t out[4] = {0xFFFFu, 0xFFFFu, 0xFFFFu, 0xFFFFu};
    assert_int_equal(fd_dealer_lab_cards(&dealer, 0u, out, 4), FD_ERR_BOUND);
    assert_int_equal(fd_dealer_lab_cards(&dealer, UINT16_MAX + 2u, out, 4), FD_ERR_BOUND);
    assert_int_equal(out[0] & out[1] & out[2] & out[3], 0xFFFFu);
    assert_int_equal(fd_dealer_lab_cards(&dealer, 52u, out, 4), FD_OK);
    for (unsigned i = 0; i < 4u; i++) {
        assert_true(out[i] < 52u);
    }
}

/* ---- a verifiable round needs a usable device secret ---- */

static host_flash round_page;
static uint8_t round_page_mem[1024];

/* Power-on over round_page (no journal), in a release or development build. */
static void boot_over_round_page(bool release)
{
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 292);
    fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    cfg.secret_page = &round_page.flash;
    cfg.release = release;
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK);
}

/* SHUFFLE slots=2 with the secret unusable: refused with
 * fd_dealer_secret_ready's status, nothing drawn, no round opened, no
 * fault (dealer.h: a command's error changes nothing but an entropy
 * failure's fault; fd_dealer_shuffle: "fd_dealer_secret_ready's (nothing
 * changes)"). Three ways to be unusable: provisioned since power-on
 * (restart required), a damaged page, a release build not provisioned. The
 * console asks fd_dealer_secret_ready before it calls the dealer, so only
 * a direct call tells.
 * Kills firmware/dealer.c "st = fd_dealer_secret_ready(d);" in
 * fd_dealer_open_round -> "((void)fd_dealer_secret_ready(d), FD_OK)": the
 * round opens on the old test secret's sources after PROVISION, and
 * without a secret the combined source, never started, fails the draw
 * (FD_ERR_NULL) and latches the fault. */
static void test_open_round_refuses_an_unusable_secret(void **state)
{
    (void)state;
    static const uint8_t secret[FD_DEVICE_SECRET_BYTES] = "verifiable rounds need this one";
    uint8_t id[FD_DEVICE_ID_BYTES];
    for (unsigned way = 0; way < 3u; way++) {
        assert_int_equal(host_flash_open(&round_page, round_page_mem, sizeof round_page_mem, 1, NULL), FD_OK);
        if (way == 0u) {
            boot_over_round_page(false); /* the blank page: the test secret deals */
            assert_int_equal(fd_dealer_provision(&dealer, secret, id), FD_OK);
        } else if (way == 1u) {
            assert_int_equal(fd_device_secret_provision(&round_page.flash, secret, id), FD_OK);
            assert_int_equal(host_flash_flip(&round_page, 8u * 10u + 3u), FD_OK);
            boot_over_round_page(false);
        } else {
            boot_over_round_page(true);
        }
        const fd_status why = fd_dealer_secret_ready(&dealer);
        assert_int_not_equal(why, FD_OK);
        const fd_dealer_state before = fd_dealer_get_state(&dealer);
        const uint32_t samples = fd_dealer_raw_samples(&dealer);
        assert_int_equal(fd_dealer_open_round(&dealer, 2u, FD_ROUND_NO_BEACON, 0u), why);
        assert_int_equal(fd_dealer_get_state(&dealer), before);
        assert_false(fd_dealer_in_fault(&dealer));
        assert_int_equal(fd_dealer_get_round(&dealer)->id, 0u);
        assert_int_equal(fd_dealer_raw_samples(&dealer), samples);
    }
}

/* REVEAL of a verifiable round whose seeds had closed publishes the order
 * it was dealt from and undoes no deal: the cards dealt past the cut stay
 * dealt, so STATUS still says reshuffle=due (docs/PROTOCOL.md "CUT": due
 * once n cards have been dealt), as after any other round's REVEAL. Only
 * a round still open for seeds has its order derived at REVEAL.
 * Kills firmware/dealer.c "d->round.mode == FD_RECORD_MODE_ROUND &&
 * !d->round.closed" in fd_dealer_reveal -> "||": the closed round's order
 * derived again, the shoe back in its undealt state (position 0). */
static void test_reveal_of_a_closed_round_keeps_its_deal(void **state)
{
    (void)state;
    fake_trng_init(&trng, FAKE_TRNG_RANDOM, 294);
    const fd_dealer_config cfg = test_dealer_config(&trng, restart_ok, FD_DRBG_CHACHA20);
    assert_int_equal(fd_dealer_init(&dealer, &cfg), FD_OK);
    assert_int_equal(fd_dealer_open_round(&dealer, 0u, FD_ROUND_NO_BEACON, 0u), FD_OK); /* house-only: closed */
    assert_int_equal(fd_dealer_cut(&dealer, 2u), FD_OK);
    uint16_t first = 0;
    assert_int_equal(fd_dealer_deal(&dealer, 3u, 1u, &first), FD_OK);
    assert_true(fd_shoe_reshuffle_due(fd_dealer_get_shoe(&dealer)));
    assert_int_equal(fd_dealer_reveal(&dealer), FD_OK);
    assert_true(fd_shoe_reshuffle_due(fd_dealer_get_shoe(&dealer)));
}

#if STACK_PROBE_WORKS
/* lib/src/shuffle.c, fd_sattolo: "(n - 1u) * sizeof draws[0]" to "/" (the
 * generic Sattolo shuffle wiped half of its draws' bytes: the rest, which
 * give the cycle it made, stayed on the stack). The draws are recovered
 * from the result (step t fixes position n - 1 - t, so it drew wherever
 * that element was then) and none of a run of them may be left below. */
static void test_sattolo_wipes_every_draw(void **state)
{
    (void)state;
    enum {
        N = 100
    };
    static uint32_t a[N];
    static uint32_t at[N];  /* element -> its position, as the swaps go */
    static uint32_t cur[N]; /* the array as the swaps go */
    static uint16_t draws[N];
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 0x5A770107u);
    for (uint32_t i = 0; i < N; i++) {
        a[i] = cur[i] = at[i] = i;
    }
    scrub_stack();
    const fd_status st = fd_sattolo(a, N, sizeof a[0], &rng);
    for (uint32_t t = 0; t + 1u < N; t++) {
        const uint32_t i = N - 1u - t;
        const uint32_t j = at[a[i]];
        draws[t] = (uint16_t)j;
        const uint32_t x = cur[i];
        cur[i] = cur[j];
        cur[j] = x;
        at[cur[i]] = i;
        at[cur[j]] = j;
    }
    /* probed before any assertion: an assertion's frames overwrite the region */
    int left = 0;
    for (size_t t = 0; t + 8u < N - 1u; t += 8u) {
        left += stack_holds((const uint8_t *)(draws + t), 16u);
    }
    assert_int_equal(st, FD_OK);
    assert_memory_equal(cur, a, sizeof a); /* the recovered draws make the result */
    assert_int_equal(left, 0);
}
#endif

/* lib/src/status.c: a status's name replaced by "" (four of its five drawn
 * mutants survived: only "ok", "health" and "unknown" were pinned). Every
 * status has its own non-empty name of lower-case letters and hyphens, the
 * form the console's error replies carry. */
static void test_every_status_name_is_its_own(void **state)
{
    (void)state;
    for (int s = FD_OK; s <= (int)FD_STATUS_LAST; s++) {
        const char *name = fd_status_name((fd_status)s);
        assert_non_null(name);
        assert_true(name[0] != '\0');
        for (const char *c = name; *c != '\0'; c++) {
            assert_true((*c >= 'a' && *c <= 'z') || *c == '-');
        }
        assert_string_not_equal(name, "unknown");
        for (int t = FD_OK; t < s; t++) {
            assert_string_not_equal(name, fd_status_name((fd_status)t));
        }
    }
}

/* ---- DRBG instantiation: the source's every failure, every NULL ---- */

/* An entropy source that fails on call number fail_at (from 1), writing
 * nothing then; counts its calls. */
typedef struct {
    unsigned calls;
    unsigned fail_at;
} counted_source;

static fd_status counted_entropy(void *ctx, uint8_t out[FD_ENTROPY_BLOCK])
{
    counted_source *c = ctx;
    c->calls++;
    if (c->calls == c->fail_at) {
        return FD_ERR_HEALTH;
    }
    memset(out, (int)(0x40u + c->calls), FD_ENTROPY_BLOCK);
    return FD_OK;
}

static fd_drbg drbg;
static fd_drbg drbg_before;

/* drbg.c: the second block's status ignored (the nonce's half taken from a
 * source that failed: the DRBG reinstantiated from it). The source failing
 * on its first or its second call leaves the instantiated DRBG as it was
 * and returns the source's error (drbg.h: "On any error *d is unchanged"). */
static void test_drbg_instantiate_stops_at_either_failing_block(void **state)
{
    (void)state;
    static const fd_drbg_kind kinds[] = {FD_DRBG_HMAC_SHA256, FD_DRBG_CHACHA20};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const fd_drbg_config cfg = {kinds[k], false, 1000u, 0u};
        counted_source ok = {0u, 0u};
        memset(&drbg, 0, sizeof drbg);
        assert_int_equal(fd_drbg_instantiate(&drbg, &cfg, counted_entropy, &ok, NULL, 0), FD_OK);
        assert_int_equal(ok.calls, 2u);
        for (unsigned fail_at = 1; fail_at <= 2u; fail_at++) {
            counted_source bad_source = {0u, fail_at};
            memcpy(&drbg_before, &drbg, sizeof drbg);
            assert_int_equal(fd_drbg_instantiate(&drbg, &cfg, counted_entropy, &bad_source, NULL, 0), FD_ERR_HEALTH);
            assert_int_equal(bad_source.calls, fail_at);
            assert_memory_equal(&drbg, &drbg_before, sizeof drbg);
        }
        fd_drbg_uninstantiate(&drbg);
    }
}

/* drbg.c: the argument check forced false (each NULL argument taken). Each
 * one alone is refused before the source is asked for anything, the DRBG
 * left as it was. */
static void test_drbg_instantiate_refuses_each_null_argument(void **state)
{
    (void)state;
    const fd_drbg_config cfg = {FD_DRBG_HMAC_SHA256, false, 1000u, 0u};
    counted_source src = {0u, 0u};
    memset(&drbg, 0, sizeof drbg);
    assert_int_equal(fd_drbg_instantiate(&drbg, &cfg, counted_entropy, &src, NULL, 0), FD_OK);
    memcpy(&drbg_before, &drbg, sizeof drbg);
    src.calls = 0;
    assert_int_equal(fd_drbg_instantiate(&drbg, &cfg, counted_entropy, &src, NULL, 5), FD_ERR_NULL);
    assert_int_equal(fd_drbg_instantiate(&drbg, NULL, counted_entropy, &src, NULL, 0), FD_ERR_NULL);
    assert_int_equal(src.calls, 0u);
    assert_memory_equal(&drbg, &drbg_before, sizeof drbg);
    assert_int_equal(fd_drbg_instantiate(&drbg, &cfg, NULL, &src, NULL, 0), FD_ERR_NULL);
    assert_memory_equal(&drbg, &drbg_before, sizeof drbg);
    assert_int_equal(fd_drbg_instantiate(NULL, &cfg, counted_entropy, &src, NULL, 0), FD_ERR_NULL);
    assert_int_equal(src.calls, 0u);
    fd_drbg_uninstantiate(&drbg);
}

/* ---- HMAC_DRBG: reseed's NULLs, uninstantiate of NULL ---- */

static fd_hmac_drbg hmac;
static fd_hmac_drbg hmac_before;

/* hmac_drbg.c: "d == NULL || entropy == NULL" with && (a NULL entropy
 * input with a state, or a NULL state with entropy, taken). Each refused
 * alone, the state unchanged. */
static void test_hmac_drbg_reseed_refuses_each_null_argument(void **state)
{
    (void)state;
    uint8_t entropy[32];
    uint8_t nonce[16];
    memset(entropy, 0x5A, sizeof entropy);
    memset(nonce, 0xA5, sizeof nonce);
    assert_int_equal(fd_hmac_drbg_instantiate(&hmac, entropy, sizeof entropy, nonce, sizeof nonce, NULL, 0, 100u),
                     FD_OK);
    memcpy(&hmac_before, &hmac, sizeof hmac);
    assert_int_equal(fd_hmac_drbg_reseed(&hmac, NULL, sizeof entropy, NULL, 0), FD_ERR_NULL);
    assert_memory_equal(&hmac, &hmac_before, sizeof hmac);
    assert_int_equal(fd_hmac_drbg_reseed(NULL, entropy, sizeof entropy, NULL, 0), FD_ERR_NULL);
    assert_int_equal(fd_hmac_drbg_reseed(&hmac, entropy, sizeof entropy, NULL, 0), FD_OK);
    assert_memory_not_equal(&hmac, &hmac_before, sizeof hmac);
    fd_hmac_drbg_uninstantiate(&hmac);
}

/* hmac_drbg.c: uninstantiate's "d != NULL" forced true (a NULL state
 * written through). Uninstantiating nothing is harmless, as free(NULL) is;
 * a state is wiped whole. */
static void test_hmac_drbg_uninstantiate_of_null_is_harmless(void **state)
{
    (void)state;
    fd_hmac_drbg_uninstantiate(NULL);
    uint8_t entropy[32];
    memset(entropy, 0x33, sizeof entropy);
    assert_int_equal(fd_hmac_drbg_instantiate(&hmac, entropy, sizeof entropy, entropy, 16, NULL, 0, 100u), FD_OK);
    fd_hmac_drbg_uninstantiate(&hmac);
    static const fd_hmac_drbg zero;
    assert_memory_equal(&hmac, &zero, sizeof hmac);
}

/* ---- hex decoding: each NULL refused alone ---- */

/* util.c: "(hex == NULL && hex_len > 0u) || (out == NULL && hex_len > 0u)"
 * with && (digits decoded into a NULL out, or read from a NULL hex). */
static void test_hex_decode_refuses_each_null_buffer(void **state)
{
    (void)state;
    uint8_t out[2] = {0xEEu, 0xEEu};
    size_t len = 99;
    assert_int_equal(fd_hex_decode("a5", 2, NULL, sizeof out, &len), FD_ERR_NULL);
    assert_int_equal(fd_hex_decode(NULL, 2, out, sizeof out, &len), FD_ERR_NULL);
    assert_int_equal(len, 99u);
    assert_int_equal(out[0] & out[1], 0xEEu);
    assert_int_equal(fd_hex_decode(NULL, 0, NULL, 0, &len), FD_OK); /* nothing to decode */
    assert_int_equal(len, 0u);
    assert_int_equal(fd_hex_decode("a5", 2, out, sizeof out, &len), FD_OK);
    assert_int_equal(len, 1u);
    assert_int_equal(out[0], 0xA5u);
}

/* ---- the device secret: the key derivation's input, provisioning's errors ---- */

/* device_secret.c: "sizeof prefix - 1u" with + 1u (the prefix's NUL and a
 * byte past it hashed: every derived key differs from the documented
 * one). HMAC-SHA-256(secret, "fairdeal/key/journal") (device_secret.h),
 * the expected key computed independently with Python's hmac module. */
static void test_device_key_known_answer(void **state)
{
    (void)state;
    static const uint8_t secret[FD_DEVICE_SECRET_BYTES] = "0123456789abcdef0123456789abcde";
    static const uint8_t expected[32] = {0xb7, 0x4e, 0x18, 0x4a, 0x6c, 0x3c, 0xf9, 0x9e, 0x93, 0xd2, 0xfa,
                                         0xad, 0x80, 0x21, 0xf3, 0x9f, 0x68, 0x14, 0x5e, 0x3d, 0x77, 0xd2,
                                         0x81, 0x80, 0x59, 0xa5, 0x47, 0x65, 0xa3, 0x96, 0xff, 0x9d};
    fd_device_secret s;
    memset(&s, 0, sizeof s);
    memcpy(s.secret, secret, sizeof s.secret);
    s.origin = FD_SECRET_PROVISIONED;
    uint8_t key[32];
    assert_int_equal(fd_device_key(&s, "journal", key), FD_OK);
    assert_memory_equal(key, expected, sizeof key);
}

static host_flash secret_flash;
static uint8_t secret_page[1024];

static fd_status program_refused(void *ctx, uint32_t offset, const uint32_t *words, size_t count)
{
    (void)ctx;
    (void)offset;
    (void)words;
    (void)count;
    return FD_ERR_STATE; /* nothing written: the driver's own error */
}

/* device_secret.c: the program's status ignored (provisioning read the
 * blank page back and called it damaged). A driver refusing the program
 * gives its own error (device_secret.h: "the driver's errors"), not
 * FD_ERR_CORRUPT, and the page stays blank: provisioning may be tried
 * again. */
static void test_provision_reports_the_drivers_program_error(void **state)
{
    (void)state;
    static const uint8_t secret[FD_DEVICE_SECRET_BYTES] = "0123456789abcdef0123456789abcde";
    assert_int_equal(host_flash_open(&secret_flash, secret_page, sizeof secret_page, 1, NULL), FD_OK);
    fd_flash refusing = secret_flash.flash;
    refusing.program = program_refused;
    uint8_t id[FD_DEVICE_ID_BYTES];
    assert_int_equal(fd_device_secret_provision(&refusing, secret, id), FD_ERR_STATE);
    fd_device_secret s;
    assert_int_equal(fd_device_secret_load(&s, &secret_flash.flash, true), FD_ERR_NOT_READY); /* still blank */
    assert_int_equal(fd_device_secret_provision(&secret_flash.flash, secret, id), FD_OK);
}

/* ---- the link: WELCOME's authentication error, seal's NULLs and in-place payloads ---- */

static uint8_t link_hello[FD_LINK_MAX_FRAME];
static uint8_t link_welcome[FD_LINK_MAX_FRAME];
static uint8_t link_frame[FD_LINK_MAX_FRAME];
static uint8_t link_got[FD_LINK_MAX_FRAME];
static fd_noise_handshake link_hs;
static fd_link link_dev;
static fd_link link_ctl;

/* A handshake between link_ctl and link_dev; with alter, one byte of
 * WELCOME's tag flipped before the controller reads it. Returns
 * fd_link_finish's status. */
static fd_status link_pair(bool alter)
{
    static const uint8_t secret[32] = "device secret for the link test";
    uint8_t psk[32];
    uint8_t eph_key[32];
    const uint8_t no_trng[32] = {0};
    uint8_t e_dev[32];
    uint8_t e_ctl[32];
    assert_int_equal(fd_link_derive_keys(secret, sizeof secret, psk, eph_key), FD_OK);
    fd_link_ephemeral(eph_key, no_trng, 1000000u, e_ctl);
    fd_link_ephemeral(eph_key, no_trng, 1u, e_dev);
    size_t hello_len = 0;
    size_t welcome_len = 0;
    size_t got_len = 0;
    assert_int_equal(fd_link_hello(&link_hs, psk, e_ctl, link_hello, sizeof link_hello, &hello_len), FD_OK);
    assert_int_equal(fd_link_accept(psk, e_dev, link_hello, hello_len, (const uint8_t *)"id", 2, &link_dev,
                                    link_welcome, sizeof link_welcome, &welcome_len),
                     FD_OK);
    if (alter) {
        link_welcome[welcome_len - 1u] ^= 0x01u;
    }
    return fd_link_finish(&link_hs, link_welcome, welcome_len, &link_ctl, link_got, FD_LINK_MAX_PAYLOAD + 2u, &got_len);
}

/* link.c fd_link_finish: fd_noise_read's status ignored (an altered
 * WELCOME's failed authentication replaced by whatever unpadding the
 * buffer gave). An altered WELCOME is FD_ERR_AUTH (link.h: errors as
 * fd_link_open) and leaves the link closed. */
static void test_link_finish_reports_an_altered_welcome(void **state)
{
    (void)state;
    assert_int_equal(link_pair(false), FD_OK);
    assert_true(link_ctl.open);
    assert_int_equal(link_pair(true), FD_ERR_AUTH);
    assert_false(link_ctl.open);
}

/* link.c fd_link_seal: "link == NULL || out == NULL" with && (a NULL link
 * or a NULL out alone taken). Each refused alone, nothing counted. */
static void test_link_seal_refuses_each_null_argument(void **state)
{
    (void)state;
    assert_int_equal(link_pair(false), FD_OK);
    const uint8_t text[3] = {'a', 'b', 'c'};
    size_t n = 0;
    assert_int_equal(fd_link_seal(NULL, text, sizeof text, link_frame, sizeof link_frame, &n), FD_ERR_NULL);
    assert_int_equal(fd_link_seal(&link_ctl, text, sizeof text, NULL, sizeof link_frame, &n), FD_ERR_NULL);
    assert_int_equal(link_ctl.sent, 0u);
    assert_int_equal(n, 0u);
}

/* link.c pad: "data != out + 2" with out + 3 (a payload one byte past the
 * in-place position not moved: the frame carried it shifted). A payload
 * anywhere in out seals and opens to itself (pad moves it with memmove):
 * at the in-place position and one byte beyond. */
static void test_link_seals_a_payload_inside_its_frame(void **state)
{
    (void)state;
    assert_int_equal(link_pair(false), FD_OK);
    static const uint8_t text[] = "DEAL 5 7 11";
    for (size_t shift = 2; shift <= 3u; shift++) {
        memset(link_frame, 0xEE, sizeof link_frame);
        uint8_t *payload = link_frame + FD_LINK_HEADER_SIZE + shift;
        memcpy(payload, text, sizeof text);
        size_t n = 0;
        assert_int_equal(fd_link_seal(&link_ctl, payload, sizeof text, link_frame, sizeof link_frame, &n), FD_OK);
        size_t got_len = 0;
        assert_int_equal(fd_link_open(&link_dev, link_frame, n, link_got, sizeof link_got, &got_len), FD_OK);
        assert_int_equal(got_len, sizeof text);
        assert_memory_equal(link_got, text, sizeof text);
    }
}

/* link.c fd_link_finish: its NULL check's "return FD_ERR_NULL" deleted
 * (each NULL argument written or read through). Each refused alone. */
static void test_link_finish_refuses_each_null_argument(void **state)
{
    (void)state;
    assert_int_equal(link_pair(false), FD_OK);
    size_t n = 0;
    const size_t len = FD_LINK_MAX_FRAME;
    assert_int_equal(fd_link_finish(&link_hs, link_welcome, len, NULL, link_got, sizeof link_got, &n), FD_ERR_NULL);
    assert_int_equal(fd_link_finish(NULL, link_welcome, len, &link_ctl, link_got, sizeof link_got, &n), FD_ERR_NULL);
    assert_int_equal(fd_link_finish(&link_hs, NULL, len, &link_ctl, link_got, sizeof link_got, &n), FD_ERR_NULL);
    assert_int_equal(fd_link_finish(&link_hs, link_welcome, len, &link_ctl, NULL, sizeof link_got, &n), FD_ERR_NULL);
    assert_int_equal(fd_link_finish(&link_hs, link_welcome, len, &link_ctl, link_got, sizeof link_got, NULL),
                     FD_ERR_NULL);
}

/* link.c fd_link_body_ok: WELCOME's "> 48 && is_bucket" with || (a
 * WELCOME of any length above the key and tag taken). Only a bucket's
 * length after the key and tag is one an honest device sends. */
static void test_link_welcome_length_is_a_bucket(void **state)
{
    (void)state;
    const size_t around = FD_X25519_SIZE + FD_AEAD_TAG_SIZE;
    const size_t bucket = fd_link_bucket(0);
    assert_true(bucket > 0u);
    assert_true(fd_link_body_ok(FD_LINK_WELCOME, around + bucket));
    assert_false(fd_link_body_ok(FD_LINK_WELCOME, around + bucket + 1u));
    assert_false(fd_link_body_ok(FD_LINK_WELCOME, around + bucket - 1u));
    assert_false(fd_link_body_ok(FD_LINK_WELCOME, around + 1u));
}

/* link.c unpad: "8u * d" with 9u (the mask over a word holding the
 * payload's last bytes missed a low bit of each padding byte after them).
 * A DATA frame, authentic, whose padding has one bit set just after the
 * data, at each of the four positions in a word: FD_ERR_PARSE, nothing
 * received. The frames are sealed here as fd_link_seal does, from a copy of
 * the sender's cipher, with the padding chosen. */
static void test_link_refuses_any_padding_bit(void **state)
{
    (void)state;
    assert_int_equal(link_pair(false), FD_OK);
    fd_noise_cipher tx = link_ctl.s.tx;
    for (uint32_t n = 1; n <= 4u; n++) {
        const size_t p = fd_link_bucket(n);
        for (unsigned honest = 0; honest <= 1u; honest++) {
            fd_noise_cipher c = tx;
            memset(link_frame, 0, sizeof link_frame);
            link_frame[0] = FD_LINK_MAGIC;
            link_frame[1] = FD_LINK_DATA;
            link_frame[2] = (uint8_t)((p + FD_AEAD_TAG_SIZE) >> 8);
            link_frame[3] = (uint8_t)(p + FD_AEAD_TAG_SIZE);
            uint8_t *body = link_frame + FD_LINK_HEADER_SIZE;
            body[1] = (uint8_t)n;
            memset(body + 2, 'x', n);
            body[2u + n] = (uint8_t)(honest ? 0u : 0x01u); /* the first padding byte's lowest bit */
            assert_int_equal(fd_noise_encrypt(&c, link_frame, FD_LINK_HEADER_SIZE, body, p, body), FD_OK);
            size_t got_len = 0;
            const fd_status st = fd_link_open(&link_dev, link_frame, FD_LINK_HEADER_SIZE + p + FD_AEAD_TAG_SIZE,
                                              link_got, sizeof link_got, &got_len);
            if (honest) { /* the same frame with zero padding: authentic and taken */
                assert_int_equal(st, FD_OK);
                assert_int_equal(got_len, n);
                tx = c;
            } else {
                assert_int_equal(st, FD_ERR_PARSE);
            }
            assert_int_equal(link_dev.received, n - 1u + honest);
        }
    }
}

/* ---- HSS verification: a NULL message, a changed last-level key ---- */

/* lms.c fd_hss_verify: the update's status ignored (a NULL message of
 * nonzero length verified as the empty message). RFC 8554 Test Case 1's
 * key and signature with a NULL message of its length: FD_ERR_NULL. */
static void test_hss_verify_refuses_a_null_message(void **state)
{
    (void)state;
    assert_int_equal(fd_hss_verify(rfc8554_tc1_pub, sizeof rfc8554_tc1_pub, rfc8554_tc1_msg, sizeof rfc8554_tc1_msg,
                                   rfc8554_tc1_sig, sizeof rfc8554_tc1_sig),
                     FD_OK);
    assert_int_equal(fd_hss_verify(rfc8554_tc1_pub, sizeof rfc8554_tc1_pub, NULL, sizeof rfc8554_tc1_msg,
                                   rfc8554_tc1_sig, sizeof rfc8554_tc1_sig),
                     FD_ERR_NULL);
}

/* RFC 8554 Test Case 2's signature copied into sig, and its layout (two
 * levels, the second level's key inside the signature). */
static fd_hss_layout tc2_copy(uint8_t sig[sizeof rfc8554_tc2_sig])
{
    memcpy(sig, rfc8554_tc2_sig, sizeof rfc8554_tc2_sig);
    fd_hss_layout lay;
    assert_int_equal(fd_hss_parse(rfc8554_tc2_pub, sizeof rfc8554_tc2_pub, sig, sizeof rfc8554_tc2_sig, &lay), FD_OK);
    assert_int_equal(lay.levels, 2u);
    return lay;
}

/* RFC 8554 Test Case 2 in sig (a copy): final is FD_OK with sig as init
 * saw it, FD_ERR_CORRUPT with sig[at] flipped between update and final. */
static void assert_final_sees_change(uint8_t sig[sizeof rfc8554_tc2_sig], size_t at)
{
    static fd_hss_verify_ctx ctx;
    for (unsigned change = 0; change <= 1u; change++) {
        assert_int_equal(fd_hss_verify_init(&ctx, rfc8554_tc2_pub, sizeof rfc8554_tc2_pub, sig, sizeof rfc8554_tc2_sig),
                         FD_OK);
        assert_int_equal(fd_hss_verify_update(&ctx, rfc8554_tc2_msg, sizeof rfc8554_tc2_msg), FD_OK);
        sig[at] ^= (uint8_t)change;
        assert_int_equal(fd_hss_verify_final(&ctx), change ? FD_ERR_CORRUPT : FD_OK);
        sig[at] ^= (uint8_t)change;
    }
}

/* lms.c last_head: "lv->pub + PUB_I" with "-" (the last level's I, which
 * final compares with what init hashed, taken from the wrong bytes). RFC
 * 8554 Test Case 2 (two levels, the second level's key inside the
 * signature): that key's I changed between init and final is
 * FD_ERR_CORRUPT (lms.h: the signature buffer changed since init). */
static void test_hss_final_sees_the_last_keys_identifier_changed(void **state)
{
    (void)state;
    static uint8_t sig[sizeof rfc8554_tc2_sig];
    const fd_hss_layout lay = tc2_copy(sig);
    const size_t at = (size_t)(lay.level[1].pub - sig) + 8u; /* its I: after the two typecodes (RFC 8554 5.3) */
    assert_final_sees_change(sig, at);
}

/* lms.c last_head: "lv->sig + SIG_C" with "-" (the C that final compares
 * with what init hashed ahead of the message taken 16 bytes early: bytes
 * 8 before the last level's signature to 24 into it, so the last 16 bytes
 * of C go unchecked). RFC 8554 Test Case 2: the last byte of the second
 * level's C changed between init and final is FD_ERR_CORRUPT (lms.h
 * fd_hss_verify_final: the buffer changed since init in the last level's
 * C); on the mutant final verifies the Y under the C init hashed: FD_OK. */
static void test_hss_final_sees_the_end_of_the_last_c_changed(void **state)
{
    (void)state;
    static uint8_t sig[sizeof rfc8554_tc2_sig];
    const fd_hss_layout lay = tc2_copy(sig);
    /* C's last byte: C follows q and the LM-OTS typecode (RFC 8554 4.5) */
    const size_t at = (size_t)(lay.level[1].sig - sig) + 8u + FD_LMS_N - 1u;
    assert_final_sees_change(sig, at);
}

/* noise.c fd_noise_write: tokens' status ignored (the responder's ee with
 * a small-order initiator key, an all-zero DH, carried on). The responder
 * holding such a key (set here in its state after reading an honest first
 * message: forging that message's tag over u = 0 would need Noise's
 * internals) refuses to write: FD_ERR_PARSE, its state wiped (link.h). The
 * same state with the honest key writes. */
static void test_noise_responder_refuses_a_small_order_key(void **state)
{
    (void)state;
    static fd_noise_handshake hi;
    static fd_noise_handshake hr;
    static fd_noise_handshake honest;
    static const fd_noise_handshake wiped;
    const uint8_t psk[FD_NOISE_PSK_SIZE] = {7};
    const uint8_t e1[FD_X25519_SIZE] = {1, 2, 3};
    const uint8_t e2[FD_X25519_SIZE] = {4, 5, 6};
    uint8_t m[128];
    uint8_t got[8];
    size_t n = 0;
    size_t got_len = 0;
    assert_int_equal(fd_noise_init(&hi, true, NULL, 0, psk), FD_OK);
    assert_int_equal(fd_noise_init(&hr, false, NULL, 0, psk), FD_OK);
    assert_int_equal(fd_noise_write(&hi, e1, NULL, 0, m, sizeof m, &n), FD_OK);
    assert_int_equal(fd_noise_read(&hr, m, n, got, sizeof got, &got_len), FD_OK);
    honest = hr;
    assert_int_equal(fd_noise_write(&honest, e2, NULL, 0, m, sizeof m, &n), FD_OK);
    memset(hr.re, 0, sizeof hr.re); /* u = 0: of small order (RFC 7748 6.1) */
    assert_int_equal(fd_noise_write(&hr, e2, NULL, 0, m, sizeof m, &n), FD_ERR_PARSE);
    assert_memory_equal(&hr, &wiped, sizeof hr);
}

/* noise.c nonce_bytes: "n >> 32" with 33 (the nonce's high word wrong
 * from the 2^32-th message on: nonces repeat). Noise's ChaChaPoly nonce is
 * 32 zero bits then n as 64 bits little-endian (Noise 12.3): at n = 2^32
 * and 2^33 + 5, encrypt gives what the AEAD gives under that nonce. */
static void test_noise_nonce_carries_all_64_bits(void **state)
{
    (void)state;
    static const uint64_t ns[] = {UINT64_C(1) << 32, (UINT64_C(1) << 33) + 5u};
    const uint8_t ad[3] = {'a', 'd', '!'};
    const uint8_t msg[5] = {'h', 'e', 'l', 'l', 'o'};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        fd_noise_cipher c;
        memset(&c, 0, sizeof c);
        memset(c.k, 0x42, sizeof c.k);
        c.n = ns[i];
        c.has_key = true;
        uint8_t out[sizeof msg + FD_AEAD_TAG_SIZE];
        assert_int_equal(fd_noise_encrypt(&c, ad, sizeof ad, msg, sizeof msg, out), FD_OK);
        assert_true(c.n == ns[i] + 1u);
        uint8_t nonce[FD_AEAD_NONCE_SIZE] = {0};
        for (unsigned b = 0; b < 8u; b++) {
            nonce[4u + b] = (uint8_t)(ns[i] >> (8u * b));
        }
        uint8_t want[sizeof msg + FD_AEAD_TAG_SIZE];
        assert_int_equal(fd_aead_encrypt(c.k, nonce, ad, sizeof ad, msg, sizeof msg, want, want + sizeof msg), FD_OK);
        assert_memory_equal(out, want, sizeof want);
    }
}

/* noise.c fd_noise_decrypt: "out == NULL && len > FD_AEAD_TAG_SIZE" with
 * >= (a tag alone, an empty payload, refused without an out). An empty
 * payload's message is its tag: it decrypts with out NULL (nothing to
 * write) and the nonce advances. */
static void test_noise_decrypt_of_a_tag_alone_needs_no_out(void **state)
{
    (void)state;
    fd_noise_cipher ca;
    memset(&ca, 0, sizeof ca);
    memset(ca.k, 0x42, sizeof ca.k);
    ca.has_key = true;
    fd_noise_cipher cb = ca;
    const uint8_t ad[3] = {'a', 'd', '!'};
    uint8_t tag[FD_AEAD_TAG_SIZE];
    assert_int_equal(fd_noise_encrypt(&ca, ad, sizeof ad, NULL, 0, tag), FD_OK);
    assert_int_equal(fd_noise_decrypt(&cb, ad, sizeof ad, tag, sizeof tag, NULL), FD_OK);
    assert_true(cb.n == 1u);
}

static uint8_t noise_big_in[FD_NOISE_MAX_MESSAGE + 64u];
static uint8_t noise_big_out[FD_NOISE_MAX_MESSAGE + 64u];

/* noise.c fd_noise_decrypt: "return FD_ERR_TOO_LARGE" deleted (a message
 * above Noise's 65,535 bytes read). Refused, with or without a key, out
 * untouched. */
static void test_noise_decrypt_refuses_above_the_message_limit(void **state)
{
    (void)state;
    fd_noise_cipher c;
    memset(&c, 0, sizeof c);
    memset(noise_big_in, 0x11, sizeof noise_big_in);
    for (unsigned keyed = 0; keyed <= 1u; keyed++) {
        c.has_key = keyed != 0u;
        memset(noise_big_out, 0xEE, sizeof noise_big_out);
        assert_int_equal(fd_noise_decrypt(&c, NULL, 0, noise_big_in, FD_NOISE_MAX_MESSAGE + 1u, noise_big_out),
                         FD_ERR_TOO_LARGE);
        assert_int_equal(noise_big_out[0] & noise_big_out[FD_NOISE_MAX_MESSAGE], 0xEEu);
        assert_true(c.n == 0u);
    }
}

/* noise.c fd_noise_write: "MAX - 32 - 16" with "MAX + 32 - 16" (a payload
 * whose message, key and tag included, is above 65,535 bytes written).
 * The largest payload fits; one byte more is FD_ERR_TOO_LARGE. */
static void test_noise_write_refuses_a_message_above_the_limit(void **state)
{
    (void)state;
    static fd_noise_handshake hs;
    const uint8_t psk[FD_NOISE_PSK_SIZE] = {9};
    const uint8_t e[FD_X25519_SIZE] = {1, 2, 3};
    const size_t largest = FD_NOISE_MAX_MESSAGE - FD_X25519_SIZE - FD_AEAD_TAG_SIZE;
    size_t n = 0;
    assert_int_equal(fd_noise_init(&hs, true, NULL, 0, psk), FD_OK);
    assert_int_equal(fd_noise_write(&hs, e, noise_big_in, largest + 1u, noise_big_out, sizeof noise_big_out, &n),
                     FD_ERR_TOO_LARGE);
    assert_int_equal(fd_noise_init(&hs, true, NULL, 0, psk), FD_OK);
    assert_int_equal(fd_noise_write(&hs, e, noise_big_in, largest, noise_big_out, sizeof noise_big_out, &n), FD_OK);
    assert_int_equal(n, FD_NOISE_MAX_MESSAGE);
}

/* ---- the replies' position ranges ---- */

typedef struct {
    char text[64];
    size_t len;
} reply_buf;

static void reply_append(void *ctx, const char *data, size_t len)
{
    reply_buf *b = ctx;
    assert_true(b->len + len < sizeof b->text);
    memcpy(b->text + b->len, data, len);
    b->len += len;
    b->text[b->len] = '\0';
}

/* reply.c fd_put_positions: "count > 1u" with >= or forced true (one
 * position written as the range "P-P"). reply.h, docs/PROTOCOL.md "Power
 * loss": "P" for one position, "A-B" for more. */
static void test_one_position_is_no_range(void **state)
{
    (void)state;
    reply_buf b = {{0}, 0};
    const fd_writer w = {reply_append, &b};
    fd_put_positions(&w, 7u, 1u);
    assert_string_equal(b.text, "7");
    b.len = 0;
    fd_put_positions(&w, 7u, 2u);
    assert_string_equal(b.text, "7-8");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_selftest_fails_on_a_wrong_chacha20_block),
        cmocka_unit_test(test_lemire_map_at_width_31),
        cmocka_unit_test(test_record_field_length_is_exact),
        cmocka_unit_test(test_fullentropy_refuses_each_null_argument),
        cmocka_unit_test(test_rng_without_fill_refused),
        cmocka_unit_test(test_lab_cards_refuse_bounds_out_of_range),
        cmocka_unit_test(test_open_round_refuses_an_unusable_secret),
        cmocka_unit_test(test_reveal_of_a_closed_round_keeps_its_deal),
        cmocka_unit_test(test_every_status_name_is_its_own),
        cmocka_unit_test(test_drbg_instantiate_stops_at_either_failing_block),
        cmocka_unit_test(test_drbg_instantiate_refuses_each_null_argument),
        cmocka_unit_test(test_hmac_drbg_reseed_refuses_each_null_argument),
        cmocka_unit_test(test_hmac_drbg_uninstantiate_of_null_is_harmless),
        cmocka_unit_test(test_hex_decode_refuses_each_null_buffer),
        cmocka_unit_test(test_device_key_known_answer),
        cmocka_unit_test(test_provision_reports_the_drivers_program_error),
        cmocka_unit_test(test_link_finish_reports_an_altered_welcome),
        cmocka_unit_test(test_link_seal_refuses_each_null_argument),
        cmocka_unit_test(test_link_seals_a_payload_inside_its_frame),
        cmocka_unit_test(test_link_finish_refuses_each_null_argument),
        cmocka_unit_test(test_link_welcome_length_is_a_bucket),
        cmocka_unit_test(test_link_refuses_any_padding_bit),
        cmocka_unit_test(test_hss_verify_refuses_a_null_message),
        cmocka_unit_test(test_hss_final_sees_the_last_keys_identifier_changed),
        cmocka_unit_test(test_hss_final_sees_the_end_of_the_last_c_changed),
        cmocka_unit_test(test_noise_responder_refuses_a_small_order_key),
        cmocka_unit_test(test_noise_nonce_carries_all_64_bits),
        cmocka_unit_test(test_noise_decrypt_of_a_tag_alone_needs_no_out),
        cmocka_unit_test(test_noise_decrypt_refuses_above_the_message_limit),
        cmocka_unit_test(test_noise_write_refuses_a_message_above_the_limit),
        cmocka_unit_test(test_one_position_is_no_range),
#if STACK_PROBE_WORKS
        cmocka_unit_test(test_sattolo_wipes_every_draw),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
