/* Known answers for every primitive: SHA-256 (FIPS 180-4 examples),
 * HMAC-SHA-256 (RFC 4231), ChaCha20 (RFC 8439 §2.3.2, §2.4.2), HMAC_DRBG
 * (NIST CAVP, with and without prediction resistance); DRBG state machines;
 * the ChaCha20 DRBG's key erasure and wiping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fairdeal/bounded.h"
#include "fairdeal/chacha20.h"
#include "fairdeal/drbg.h"
#include "fairdeal/hmac_drbg.h"
#include "fairdeal/sha256.h"
#include "stack_probe.h"
#include "test_rng.h"
#include "fairdeal/util.h"
#include "chacha20_simd.h"
#include "hmac_drbg_vectors.h"
#include "word.h"

static size_t unhex(const char *hex, uint8_t *out, size_t cap)
{
    size_t len = 0;
    assert_int_equal(fd_hex_decode(hex, strlen(hex), out, cap, &len), FD_OK);
    return len;
}

static void assert_hex(const uint8_t *got, size_t len, const char *want_hex)
{
    static uint8_t want[256];
    assert_int_equal(unhex(want_hex, want, sizeof want), len);
    assert_memory_equal(got, want, len);
}

static void test_decimal_helper(void **state)
{
    (void)state;
    char d[10];
    assert_int_equal(fd_dec_encode(0, d), 1);
    assert_memory_equal(d, "0", 1);
    assert_int_equal(fd_dec_encode(1536, d), 4);
    assert_memory_equal(d, "1536", 4);
    assert_int_equal(fd_dec_encode(4294967295u, d), 10);
    assert_memory_equal(d, "4294967295", 10);
}

static void test_hex_helpers(void **state)
{
    (void)state;
    uint8_t bin[4];
    size_t len = 99;
    char text[9];
    assert_int_equal(fd_hex_decode("00fFa5", 6, bin, sizeof bin, &len), FD_OK);
    assert_int_equal(len, 3);
    assert_int_equal(fd_hex_encode(bin, 3, text, sizeof text), FD_OK);
    assert_string_equal(text, "00ffa5");
    assert_int_equal(fd_hex_decode("abc", 3, bin, sizeof bin, &len), FD_ERR_PARSE);
    assert_int_equal(fd_hex_decode("zz", 2, bin, sizeof bin, &len), FD_ERR_PARSE);
    assert_int_equal(fd_hex_decode("0011223344", 10, bin, sizeof bin, &len), FD_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(fd_hex_encode(bin, 4, text, 8), FD_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(fd_hex_encode(bin, 1, NULL, 8), FD_ERR_NULL);
}

static void test_sha256_fips180_examples(void **state)
{
    (void)state;
    uint8_t d[32];
    fd_sha256("abc", 3, d);
    assert_hex(d, 32, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    fd_sha256("", 0, d);
    assert_hex(d, 32, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const char *two_block = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    fd_sha256(two_block, strlen(two_block), d);
    assert_hex(d, 32, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* one million 'a', streamed in odd-sized pieces */
    fd_sha256_ctx ctx;
    fd_sha256_init(&ctx);
    uint8_t a[997];
    memset(a, 'a', sizeof a);
    size_t left = 1000000;
    while (left > 0u) {
        size_t n = left < sizeof a ? left : sizeof a;
        fd_sha256_update(&ctx, a, n);
        left -= n;
    }
    fd_sha256_final(&ctx, d);
    assert_hex(d, 32, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void test_hmac_sha256_rfc4231(void **state)
{
    (void)state;
    uint8_t key[131];
    uint8_t data[50];
    uint8_t mac[32];
    memset(key, 0x0b, 20);
    fd_hmac_sha256(key, 20, "Hi There", 8, mac);
    assert_hex(mac, 32, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    fd_hmac_sha256("Jefe", 4, "what do ya want for nothing?", 28, mac);
    assert_hex(mac, 32, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    memset(key, 0xaa, 20);
    memset(data, 0xdd, 50);
    fd_hmac_sha256(key, 20, data, 50, mac);
    assert_hex(mac, 32, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
    memset(key, 0xaa, 131);
    const char *t6 = "Test Using Larger Than Block-Size Key - Hash Key First";
    fd_hmac_sha256(key, 131, t6, strlen(t6), mac);
    assert_hex(mac, 32, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    const char *t7 = "This is a test using a larger than block-size key and a larger than block-size data. "
                     "The key needs to be hashed before being used by the HMAC algorithm.";
    fd_hmac_sha256(key, 131, t7, strlen(t7), mac);
    assert_hex(mac, 32, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

static void test_chacha20_rfc8439(void **state)
{
    (void)state;
    uint8_t key[32];
    for (unsigned i = 0; i < 32u; i++) {
        key[i] = (uint8_t)i;
    }
    uint8_t nonce[12];
    uint8_t block[64];
    unhex("000000090000004a00000000", nonce, sizeof nonce);
    fd_chacha20_block(key, 1, nonce, block);
    assert_hex(block, 64,
               "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
               "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
    /* §2.4.2: the sunscreen text encrypted from counter 1 */
    const char *plain = "Ladies and Gentlemen of the class of '99: If I could offer you only one tip "
                        "for the future, sunscreen would be it.";
    unhex("000000000000004a00000000", nonce, sizeof nonce);
    uint8_t cipher[114];
    for (uint32_t b = 0; b < 2u; b++) {
        fd_chacha20_block(key, 1u + b, nonce, block);
        for (unsigned i = 0; i < 64u && 64u * b + i < 114u; i++) {
            cipher[64u * b + i] = (uint8_t)(plain[64u * b + i] ^ block[i]);
        }
    }
    assert_hex(cipher, 114,
               "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
               "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
               "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
               "5af90bbf74a35be6b40b8eedf2785e42874d");
}

static void test_hmac_drbg_cavp_no_pr(void **state)
{
    (void)state;
    static uint8_t e[64], n[32], p[32], re[32], ra[32], a1[32], a2[32], out[128];
    for (size_t v = 0; v < sizeof nopr_vectors / sizeof nopr_vectors[0]; v++) {
        const nopr_vector *t = &nopr_vectors[v];
        fd_hmac_drbg d;
        size_t el = unhex(t->entropy, e, sizeof e), nl = unhex(t->nonce, n, sizeof n);
        size_t pl = unhex(t->pers, p, sizeof p), rel = unhex(t->reseed_entropy, re, sizeof re);
        size_t ral = unhex(t->reseed_addl, ra, sizeof ra), a1l = unhex(t->addl1, a1, sizeof a1);
        size_t a2l = unhex(t->addl2, a2, sizeof a2);
        assert_int_equal(fd_hmac_drbg_instantiate(&d, e, el, n, nl, p, pl, 1000), FD_OK);
        assert_int_equal(fd_hmac_drbg_reseed(&d, re, rel, ra, ral), FD_OK);
        assert_int_equal(fd_hmac_drbg_generate(&d, out, 128, a1, a1l), FD_OK);
        assert_int_equal(fd_hmac_drbg_generate(&d, out, 128, a2, a2l), FD_OK);
        assert_hex(out, 128, t->returned);
    }
}

/* reference.md: the same vector's state after instantiate, and the
 * no-reseed vector (instantiate, generate twice). */
static void test_hmac_drbg_internal_state_and_no_reseed(void **state)
{
    (void)state;
    uint8_t e[32], n[16], out[128];
    fd_hmac_drbg d;
    unhex(nopr_vectors[0].entropy, e, sizeof e);
    unhex(nopr_vectors[0].nonce, n, sizeof n);
    assert_int_equal(fd_hmac_drbg_instantiate(&d, e, 32, n, 16, NULL, 0, 1000), FD_OK);
    assert_hex(d.v, 32, "81e0d8830ed2d16f9b288a1cb289c5fab3f3c5c28131be7cafedcc7734604d34");
    assert_hex(d.key, 32, "17dc11c2389f5eeb9d0f6a5148a1ea83ee8a828f4f140ac78272a0da435fa121");
    unhex("ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488", e, sizeof e);
    unhex("659ba96c601dc69fc902940805ec0ca8", n, sizeof n);
    assert_int_equal(fd_hmac_drbg_instantiate(&d, e, 32, n, 16, NULL, 0, 1000), FD_OK);
    assert_int_equal(fd_hmac_drbg_generate(&d, out, 128, NULL, 0), FD_OK);
    assert_int_equal(fd_hmac_drbg_generate(&d, out, 128, NULL, 0), FD_OK);
    assert_hex(out, 128,
               "e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89"
               "d54fbb978a15b5c443c9ec21036d2460b6f73ebad0dc2aba6e624abf07745bc1"
               "07694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668"
               "961df86803482cb37ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8");
}

static void test_hmac_drbg_cavp_pr(void **state)
{
    (void)state;
    static uint8_t e[112], p[32], a1[32], a2[32], out[128];
    for (size_t v = 0; v < sizeof pr_vectors / sizeof pr_vectors[0]; v++) {
        const pr_vector *t = &pr_vectors[v];
        fd_hmac_drbg d;
        assert_int_equal(unhex(t->entropy, e, sizeof e), 112);
        size_t pl = unhex(t->pers, p, sizeof p), a1l = unhex(t->addl1, a1, sizeof a1);
        size_t a2l = unhex(t->addl2, a2, sizeof a2);
        assert_int_equal(fd_hmac_drbg_instantiate(&d, e, 32, e + 32, 16, p, pl, 1000), FD_OK);
        assert_int_equal(fd_hmac_drbg_reseed(&d, e + 48, 32, a1, a1l), FD_OK);
        assert_int_equal(fd_hmac_drbg_generate(&d, out, 128, NULL, 0), FD_OK);
        assert_int_equal(fd_hmac_drbg_reseed(&d, e + 80, 32, a2, a2l), FD_OK);
        assert_int_equal(fd_hmac_drbg_generate(&d, out, 128, NULL, 0), FD_OK);
        assert_hex(out, 128, t->returned);
    }
}

static void test_hmac_drbg_state_machine(void **state)
{
    (void)state;
    uint8_t e[32] = {1}, out[16];
    fd_hmac_drbg d;
    memset(&d, 0, sizeof d);
    assert_int_equal(fd_hmac_drbg_generate(&d, out, 16, NULL, 0), FD_ERR_NOT_READY);
    assert_int_equal(fd_hmac_drbg_instantiate(&d, e, 31, NULL, 0, NULL, 0, 2), FD_ERR_EMPTY);
    assert_int_equal(fd_hmac_drbg_instantiate(&d, e, 32, NULL, 0, NULL, 0, 0), FD_ERR_TOO_LARGE);
    assert_int_equal(fd_hmac_drbg_instantiate(NULL, e, 32, NULL, 0, NULL, 0, 2), FD_ERR_NULL);
    assert_int_equal(fd_hmac_drbg_instantiate(&d, e, 32, NULL, 0, NULL, 0, 2), FD_OK);
    assert_int_equal(fd_hmac_drbg_generate(&d, out, 16, NULL, 0), FD_OK);
    assert_int_equal(fd_hmac_drbg_generate(&d, out, 16, NULL, 0), FD_OK);
    fd_hmac_drbg before = d;
    /* counter 3 > interval 2: refuse, output and state untouched */
    memset(out, 0x77, sizeof out);
    assert_int_equal(fd_hmac_drbg_generate(&d, out, 16, NULL, 0), FD_ERR_RESEED_REQUIRED);
    assert_memory_equal(&before, &d, sizeof d);
    assert_int_equal(out[0], 0x77);
    assert_int_equal(fd_hmac_drbg_generate(&d, out, FD_HMAC_DRBG_MAX_REQUEST + 1u, NULL, 0), FD_ERR_REQUEST_TOO_LARGE);
    assert_int_equal(fd_hmac_drbg_reseed(&d, e, 32, NULL, 0), FD_OK);
    assert_int_equal(d.reseed_counter, 1);
    assert_int_equal(fd_hmac_drbg_generate(&d, out, 16, NULL, 0), FD_OK);
    fd_hmac_drbg_uninstantiate(&d);
    static const uint8_t zeros[sizeof(fd_hmac_drbg)] = {0};
    assert_memory_equal(&d, zeros, sizeof d);
    assert_int_equal(fd_hmac_drbg_generate(&d, out, 16, NULL, 0), FD_ERR_NOT_READY);
}

/* The DRBG keeps K as little-endian words. */
static void assert_key_is(const fd_chacha_drbg *d, const uint8_t want[32])
{
    for (unsigned i = 0; i < 8u; i++) {
        assert_int_equal(d->key[i], fd_load_le32(want + 4u * i));
    }
}

/* The four-block refill in every form this CPU runs equals the reference,
 * and the reference equals four RFC 8439 blocks (fd_chacha20_block, checked
 * against the RFC above), for many keys, nonces and counters, including
 * counters that wrap. */
#if defined(FD_TARGET_CORTEX_M)
#define BLOCKS4_TRIALS 40u
#else
#define BLOCKS4_TRIALS 4000u
#endif
static void test_chacha20_blocks4_forms_agree(void **state)
{
    (void)state;
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 8439);
    unsigned simd_forms_run = 0;
    for (unsigned trial = 0; trial < BLOCKS4_TRIALS; trial++) {
        uint8_t key[32];
        uint8_t nonce[12];
        assert_int_equal(rng.fill(rng.ctx, key, sizeof key), FD_OK);
        assert_int_equal(rng.fill(rng.ctx, nonce, sizeof nonce), FD_OK);
        uint32_t in[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
        for (unsigned i = 0; i < 8u; i++) {
            in[4u + i] = fd_load_le32(key + 4u * i);
        }
        assert_int_equal(fd_rng_u32(&rng, &in[12]), FD_OK);
        if (trial % 4u == 1u) {
            in[12] = 0xFFFFFFFFu - (trial / 4u) % 4u; /* the counter wraps inside the four */
        } else if (trial % 4u == 2u) {
            in[12] = 0; /* the DRBG's refill */
        }
        for (unsigned i = 0; i < 3u; i++) {
            in[13u + i] = fd_load_le32(nonce + 4u * i);
        }
        uint32_t want[64];
        fd_chacha20_blocks4_ref(in, want);
        for (uint32_t b = 0; b < 4u; b++) {
            uint8_t block[64];
            fd_chacha20_block(key, in[12] + b, nonce, block);
            for (unsigned i = 0; i < 16u; i++) {
                assert_int_equal(want[16u * b + i], fd_load_le32(block + 4u * i));
            }
        }
        uint32_t got[64];
        fd_chacha20_blocks4(in, got);
        assert_memory_equal(got, want, sizeof want);
#if FD_CHACHA20_X86
        memset(got, 0, sizeof got);
        fd_chacha20_blocks4_sse2(in, got);
        assert_memory_equal(got, want, sizeof want);
        simd_forms_run = 1;
        if (__builtin_cpu_supports("avx2")) {
            memset(got, 0, sizeof got);
            fd_chacha20_blocks4_avx2(in, got);
            assert_memory_equal(got, want, sizeof want);
            simd_forms_run = 2;
        }
#endif
    }
#if FD_CHACHA20_X86
    /* CI's x86-64 machines have AVX2; a run without it must say so. */
    if (simd_forms_run < 2u) {
        print_message("AVX2 not available: only the SSE2 form was compared\n");
    }
    assert_true(simd_forms_run >= 1u);
#else
    assert_int_equal(simd_forms_run, 0);
#endif
}

#if FD_CHACHA20_V6M || STACK_PROBE_WORKS
/* A random ChaCha20 state: constants, key, counter, nonce. */
static void random_chacha_state(const fd_rng *rng, uint32_t in[16])
{
    static const uint32_t constants[4] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
    memcpy(in, constants, sizeof constants);
    for (unsigned i = 4; i < 16u; i++) {
        assert_int_equal(fd_rng_u32(rng, &in[i]), FD_OK);
    }
}
#endif

#if FD_CHACHA20_V6M
/* The Thumb-1 form for every block count the library asks for (1: one
 * block, 4: the refill) and those between, counters wrapping inside the
 * run: equal to the reference block by block, the state read only, and
 * nothing written past the last block. */
static void test_chacha20_v6m_block_counts(void **state)
{
    (void)state;
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 6);
    for (uint32_t blocks = 1; blocks <= 5u; blocks++) {
        for (unsigned trial = 0; trial < 4u; trial++) {
            uint32_t in[16];
            random_chacha_state(&rng, in);
            if (trial == 1u) {
                in[12] = 0xFFFFFFFFu; /* wraps after the first block */
            }
            uint32_t kept[16];
            memcpy(kept, in, sizeof kept);
            uint32_t got[16u * 6u];
            memset(got, 0xA5, sizeof got);
            fd_chacha20_blocks_v6m(in, got, blocks);
            assert_memory_equal(in, kept, sizeof kept);
            for (uint32_t b = 0; b < blocks; b++) {
                uint32_t want[16];
                fd_chacha20_block_ref(in, b, want);
                assert_memory_equal(got + 16u * b, want, sizeof want);
            }
            for (size_t i = 16u * blocks; i < 16u * 6u; i++) {
                assert_int_equal(got[i], 0xA5A5A5A5u);
            }
        }
    }
}
#endif

#if STACK_PROBE_WORKS
__attribute__((noinline)) static void blocks4_call(const uint32_t in[16], uint32_t out[64])
{
    fd_chacha20_blocks4(in, out);
}

/* The four-block refill leaves none of its state in the stack below its
 * caller: no key word, no word of the rounds' final state (a block minus
 * its input) and no output word; the control proves the probe sees a
 * word left behind. */
static void test_chacha20_blocks4_leaves_no_state_on_stack(void **state)
{
    (void)state;
    leave_word_behind(0x5EC2E7A5u);
    assert_true(stack_holds_word(0x5EC2E7A5u));
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 19);
    uint32_t in[16];
    random_chacha_state(&rng, in);
    uint32_t out[64];
    scrub_stack();
    blocks4_call(in, out);
    for (unsigned i = 4; i < 12u; i++) {
        assert_false(stack_holds_word(in[i]));
    }
    for (uint32_t b = 0; b < 4u; b++) {
        for (unsigned i = 0; i < 16u; i++) {
            const uint32_t input = in[i] + (i == 12u ? b : 0u);
            assert_false(stack_holds_word(out[16u * b + i]));
            assert_false(stack_holds_word(out[16u * b + i] - input));
        }
    }
}
#endif

static void test_chacha_drbg_construction(void **state)
{
    (void)state;
    uint8_t seed[32];
    for (unsigned i = 0; i < 32u; i++) {
        seed[i] = (uint8_t)(0xA0u + i);
    }
    fd_chacha_drbg d;
    assert_int_equal(fd_chacha_drbg_instantiate(&d, seed, 32, NULL, 0, NULL, 0, 100), FD_OK);
    /* K0 = SHA-256(tag || 0x00 || seed), computed independently */
    uint8_t k0[32];
    uint8_t msg[20 + 1 + 32];
    memcpy(msg, "fairdeal-chacha-drbg", 20);
    msg[20] = 0x00;
    memcpy(msg + 21, seed, 32);
    fd_sha256(msg, sizeof msg, k0);
    assert_key_is(&d, k0);
    /* First refill: blocks 0..3 under K0; new key = first 32 bytes; the
     * caller gets bytes 32.. of block 0. */
    static const uint8_t zero_nonce[12] = {0};
    uint8_t b0[64];
    fd_chacha20_block(k0, 0, zero_nonce, b0);
    uint8_t out[40];
    assert_int_equal(fd_chacha_drbg_generate(&d, out, 40, NULL, 0), FD_OK);
    assert_memory_equal(out, b0 + 32, 32);
    assert_key_is(&d, b0);
    uint8_t b1[64];
    fd_chacha20_block(k0, 1, zero_nonce, b1);
    assert_memory_equal(out + 32, b1, 8);
    /* every byte handed out is already wiped from the buffer */
    for (unsigned i = 0; i < d.pos; i++) {
        assert_int_equal((d.buffer[i / 4u] >> (8u * (i % 4u))) & 0xFFu, 0);
    }
    assert_int_not_equal(d.buffer[d.pos / 4u], 0); /* the next bytes are still there */
    /* output spanning a refill continues under the erased-and-replaced key */
    static uint8_t big[600];
    assert_int_equal(fd_chacha_drbg_generate(&d, big, sizeof big, NULL, 0), FD_OK);
    assert_memory_not_equal(d.key, b0, 32);
    /* an odd-sized request leaves a word half served: its served bytes are zero */
    assert_int_equal(fd_chacha_drbg_generate(&d, out, 3, NULL, 0), FD_OK);
    assert_int_equal(d.pos % 4u, 3u);
    assert_int_equal(d.buffer[d.pos / 4u] & 0xFFFFFFu, 0);
    assert_int_not_equal(d.buffer[d.pos / 4u] >> 24, 0);
}

/* The DRBG's stream does not depend on how it is asked for: requests of
 * every size from 0 to 300 bytes, into outputs at every alignment, give
 * the stream computed here from the C reference blocks and the key
 * erasure schedule (key = the first 32 bytes of each four-block refill,
 * the other 224 bytes served), with nothing written around the requests
 * and every served byte zeroed in the buffer. This checks the hand-out
 * (the Thumb-2 word copy on Cortex-M3/M4) and the refill together. */
static void test_chacha_drbg_stream_any_request_shape(void **state)
{
    (void)state;
    enum {
        STREAM = 6u * 224u
    };
    static uint8_t want[STREAM];
    static uint8_t got[STREAM + 8u];
    uint8_t seed[32];
    for (unsigned i = 0; i < 32u; i++) {
        seed[i] = (uint8_t)(3u * i + 1u);
    }
    fd_chacha_drbg d;
    assert_int_equal(fd_chacha_drbg_instantiate(&d, seed, 32, NULL, 0, NULL, 0, 1000000), FD_OK);
    uint32_t in[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
    memcpy(in + 4, d.key, sizeof d.key);
    for (size_t r = 0; r < STREAM / 224u; r++) {
        uint32_t blocks[64];
        fd_chacha20_blocks4_ref(in, blocks);
        memcpy(in + 4, blocks, 32);
        for (size_t w = 8; w < 64u; w++) {
            fd_store_le32(want + 224u * r + 4u * (w - 8u), blocks[w]);
        }
    }
    test_prng p;
    const fd_rng rng = test_prng_init(&p, 224);
    size_t done = 0;
    unsigned requests = 0;
    while (done < STREAM - 300u) {
        uint32_t len = 0;
        uint32_t shift = 0;
        assert_int_equal(fd_uniform_u32(&rng, 301u, &len), FD_OK);
        assert_int_equal(fd_uniform_u32(&rng, 4u, &shift), FD_OK);
        if (requests % 3u == 0u) {
            len &= ~3u; /* whole words, the shuffles' requests */
        }
        memset(got, 0xC3, sizeof got);
        assert_int_equal(fd_chacha_drbg_generate(&d, got + shift, len, NULL, 0), FD_OK);
        assert_memory_equal(got + shift, want + done, len);
        for (size_t i = 0; i < shift; i++) {
            assert_int_equal(got[i], 0xC3);
        }
        for (size_t i = shift + len; i < shift + len + 4u; i++) {
            assert_int_equal(got[i], 0xC3);
        }
        for (unsigned i = 0; i < d.pos; i++) {
            assert_int_equal((d.buffer[i / 4u] >> (8u * (i % 4u))) & 0xFFu, 0);
        }
        done += len;
        requests++;
    }
    fd_chacha_drbg_uninstantiate(&d);
}

static void test_chacha_drbg_state_machine(void **state)
{
    (void)state;
    uint8_t seed[32] = {7}, out[16], out2[16];
    fd_chacha_drbg a, b;
    assert_int_equal(fd_chacha_drbg_instantiate(&a, seed, 32, NULL, 0, (const uint8_t *)"x", 1, 2), FD_OK);
    assert_int_equal(fd_chacha_drbg_instantiate(&b, seed, 32, NULL, 0, (const uint8_t *)"y", 1, 2), FD_OK);
    assert_int_equal(fd_chacha_drbg_generate(&a, out, 16, NULL, 0), FD_OK);
    assert_int_equal(fd_chacha_drbg_generate(&b, out2, 16, NULL, 0), FD_OK);
    assert_memory_not_equal(out, out2, 16); /* personalization separates */
    assert_int_equal(fd_chacha_drbg_generate(&a, out, 16, NULL, 0), FD_OK);
    memset(out, 0x55, sizeof out);
    assert_int_equal(fd_chacha_drbg_generate(&a, out, 16, NULL, 0), FD_ERR_RESEED_REQUIRED);
    assert_int_equal(out[3], 0x55);
    assert_int_equal(fd_chacha_drbg_reseed(&a, seed, 32, NULL, 0), FD_OK);
    assert_int_equal(fd_chacha_drbg_generate(&a, out, 16, (const uint8_t *)"addl", 4), FD_OK);
    assert_int_equal(fd_chacha_drbg_generate(&a, out, 16, NULL, 0), FD_OK);
    assert_int_equal(fd_chacha_drbg_reseed(&a, seed, 16, NULL, 0), FD_ERR_EMPTY);
    /* the interval limit is HMAC_DRBG's (found by fuzz_drbg: it was unchecked) */
    assert_int_equal(
        fd_chacha_drbg_instantiate(&b, seed, 32, NULL, 0, NULL, 0, FD_CHACHA_DRBG_MAX_RESEED_INTERVAL + 1u),
        FD_ERR_TOO_LARGE);
    assert_int_equal(fd_chacha_drbg_instantiate(&b, seed, 32, NULL, 0, NULL, 0, FD_CHACHA_DRBG_MAX_RESEED_INTERVAL),
                     FD_OK);
    fd_chacha_drbg_uninstantiate(&a);
    static const uint8_t zeros[sizeof(fd_chacha_drbg)] = {0};
    assert_memory_equal(&a, zeros, sizeof a);
    assert_int_equal(fd_chacha_drbg_generate(&a, out, 16, NULL, 0), FD_ERR_NOT_READY);
}

/* fd_drbg_generate's one-request ChaCha20 shortcut must count calls as the
 * general loop does: nothing for 0 bytes, one mechanism request per
 * FD_HMAC_DRBG_MAX_REQUEST piece, and the same bytes either way. */
static void test_chacha_drbg_requests_counted_as_pieces(void **state)
{
    (void)state;
    test_entropy_source src = {0, 0, FD_OK};
    const fd_drbg_config cfg = {FD_DRBG_CHACHA20, false, 1000, 0};
    fd_drbg d;
    assert_int_equal(fd_drbg_instantiate(&d, &cfg, test_entropy_block, &src, NULL, 0), FD_OK);
    uint8_t four[4];
    assert_int_equal(fd_drbg_generate(&d, four, 0), FD_OK);
    assert_int_equal(d.u.chacha.reseed_counter, 1u);
    assert_int_equal(fd_drbg_generate(&d, four, sizeof four), FD_OK); /* a shuffle's redraw */
    assert_int_equal(d.u.chacha.reseed_counter, 2u);
#if !defined(FD_TARGET_CORTEX_M) /* 128 KiB of buffers */
    static uint8_t big[FD_HMAC_DRBG_MAX_REQUEST + 8u];
    static uint8_t pieces[FD_HMAC_DRBG_MAX_REQUEST + 8u];
    test_entropy_source src2 = {0, 0, FD_OK};
    fd_drbg e;
    assert_int_equal(fd_drbg_instantiate(&e, &cfg, test_entropy_block, &src2, NULL, 0), FD_OK);
    assert_int_equal(fd_drbg_generate(&d, big, sizeof big), FD_OK); /* two pieces */
    assert_int_equal(d.u.chacha.reseed_counter, 4u);
    assert_int_equal(d.bytes_since_reseed, sizeof four + sizeof big);
    /* the same stream from the mechanism, piece by piece */
    assert_int_equal(fd_chacha_drbg_generate(&e.u.chacha, pieces, sizeof four, NULL, 0), FD_OK);
    assert_memory_equal(four, pieces, sizeof four);
    assert_int_equal(fd_chacha_drbg_generate(&e.u.chacha, pieces, FD_HMAC_DRBG_MAX_REQUEST, NULL, 0), FD_OK);
    assert_int_equal(fd_chacha_drbg_generate(&e.u.chacha, pieces + FD_HMAC_DRBG_MAX_REQUEST, 8, NULL, 0), FD_OK);
    assert_memory_equal(big, pieces, sizeof big);
    assert_int_equal(e.u.chacha.reseed_counter, 4u);
    fd_drbg_uninstantiate(&e);
#endif
    fd_drbg_uninstantiate(&d);
}

static void test_unified_drbg_policy(void **state)
{
    (void)state;
    const fd_drbg_kind kinds[2] = {FD_DRBG_HMAC_SHA256, FD_DRBG_CHACHA20};
    for (int k = 0; k < 2; k++) {
        test_entropy_source src = {0, 0, FD_ERR_HEALTH};
        fd_drbg d;
        memset(&d, 0, sizeof d);
        fd_drbg_config cfg = {kinds[k], false, 3, 0};
        uint8_t out[100];
        assert_int_equal(fd_drbg_generate(&d, out, 10), FD_ERR_NOT_READY);
        assert_int_equal(fd_drbg_instantiate(&d, &cfg, test_entropy_block, &src, NULL, 0), FD_OK);
        assert_int_equal(src.calls, 2); /* entropy input + nonce */
        for (int i = 0; i < 3; i++) {
            assert_int_equal(fd_drbg_generate(&d, out, 10), FD_OK);
        }
        assert_int_equal(src.calls, 2);
        assert_int_equal(fd_drbg_generate(&d, out, 10), FD_OK); /* interval hit: auto reseed */
        assert_int_equal(src.calls, 3);
        assert_int_equal(d.reseeds, 1);
        /* prediction resistance: one reseed per generate */
        d.cfg.prediction_resistance = true;
        assert_int_equal(fd_drbg_generate(&d, out, 10), FD_OK);
        assert_int_equal(fd_drbg_generate(&d, out, 10), FD_OK);
        assert_int_equal(src.calls, 5);
        /* byte budget */
        d.cfg.prediction_resistance = false;
        d.cfg.reseed_bytes = 50;
        assert_int_equal(fd_drbg_generate(&d, out, 60), FD_OK);
        assert_int_equal(fd_drbg_generate(&d, out, 10), FD_OK);
        assert_int_equal(src.calls, 6);
        /* source failing during a reseed: error, nothing output */
        src.fail_on = src.calls + 1u;
        d.cfg.prediction_resistance = true;
        memset(out, 0x42, sizeof out);
        assert_int_equal(fd_drbg_generate(&d, out, 10), FD_ERR_HEALTH);
        for (int i = 0; i < 10; i++) {
            assert_int_equal(out[i], 0);
        }
        fd_drbg_uninstantiate(&d);
        assert_int_equal(fd_drbg_generate(&d, out, 10), FD_ERR_NOT_READY);
        fd_drbg_config bad = {(fd_drbg_kind)9, false, 3, 0};
        assert_int_equal(fd_drbg_instantiate(&d, &bad, test_entropy_block, &src, NULL, 0), FD_ERR_TOO_LARGE);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hex_helpers),
        cmocka_unit_test(test_decimal_helper),
        cmocka_unit_test(test_sha256_fips180_examples),
        cmocka_unit_test(test_hmac_sha256_rfc4231),
        cmocka_unit_test(test_chacha20_rfc8439),
        cmocka_unit_test(test_hmac_drbg_cavp_no_pr),
        cmocka_unit_test(test_hmac_drbg_internal_state_and_no_reseed),
        cmocka_unit_test(test_hmac_drbg_cavp_pr),
        cmocka_unit_test(test_hmac_drbg_state_machine),
        cmocka_unit_test(test_chacha20_blocks4_forms_agree),
#if FD_CHACHA20_V6M
        cmocka_unit_test(test_chacha20_v6m_block_counts),
#endif
#if STACK_PROBE_WORKS
        cmocka_unit_test(test_chacha20_blocks4_leaves_no_state_on_stack),
#endif
        cmocka_unit_test(test_chacha_drbg_construction),
        cmocka_unit_test(test_chacha_drbg_stream_any_request_shape),
        cmocka_unit_test(test_chacha_drbg_state_machine),
        cmocka_unit_test(test_chacha_drbg_requests_counted_as_pieces),
        cmocka_unit_test(test_unified_drbg_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
