#include "fairdeal/chacha20.h"

#include <string.h>

#include "fairdeal/sha256.h"
#include "fairdeal/util.h"
#include "chacha20_simd.h"
#include "chacha_drbg_output.h"
#include "word.h"

_Static_assert(FD_CHACHA_DRBG_BUFFER <= UINT16_MAX, "pos is uint16_t and equals FD_CHACHA_DRBG_BUFFER when empty");
_Static_assert(FD_CHACHA_DRBG_BUFFER % 4u == 0u && FD_CHACHA_DRBG_BUFFER > 32u,
               "whole words, and output left after the 32-byte key");

#if FD_CHACHA20_V7M
/* out[16 * b + i] = word i of 20 rounds of the state in with b added to
 * its counter in[12], plus that state, for b = 0 .. blocks-1 (blocks >= 1):
 * the block function on words, Thumb-2 (Cortex-M3/M4). One block for
 * fd_chacha20_block (so the boot self-test's RFC 8439 vector), four for
 * the DRBG's refill, which so loads no copy of the state and calls once.
 * Each rotation is folded into the next instruction that reads the word (a
 * rotated second operand costs nothing on these cores): b and d are kept
 * rotated right by 7 and 8 bits more than their value, so a quarter-round
 * is eight instructions and the same in every round, and the final
 * rotations back fold into the additions of the input. Fourteen words live
 * in registers; two of x[8..11] wait on the stack, swapped (ldrd/strd)
 * between half-rounds (column and diagonal rounds use them in pairs). Not
 * unrolled: two double rounds per pass saved 20 instructions per block and
 * cost 300 bytes of flash. Frame: [sp] out, [sp+4] rounds left, [sp+8..24)
 * the two waiting pairs, [sp+24] in, [sp+28] end of out, [sp+32] this
 * block's counter word; the state's slots are zeroed before returning. in
 * and out must not overlap. The unit tests on the Cortex-M3/M4 boards
 * check it against the C reference (test_chacha20_blocks4_forms_agree). */
void fd_chacha20_blocks_v7m(const uint32_t in[16], uint32_t *out, uint32_t blocks);
__asm__("    .syntax unified\n"
        "    .thumb\n"
        "    .pushsection .text.fd_chacha20_blocks_v7m,\"ax\",%progbits\n"
        "    .global fd_chacha20_blocks_v7m\n"
        "    .type fd_chacha20_blocks_v7m, %function\n"
        "    .thumb_func\n"
        "    .align 2\n"
        "fd_chacha20_blocks_v7m:\n"
        "    push {r4-r11, lr}\n"
        "    sub sp, sp, #36\n"
        "    add r2, r1, r2, lsl #6\n"
        "    str r1, [sp, #0]\n"
        "    str r0, [sp, #24]\n"
        "    str r2, [sp, #28]\n"
        "    ldr r3, [r0, #48]\n"
        "    str r3, [sp, #32]\n"
        "5:\n"
        "    ldr lr, [sp, #24]\n"
        "    ldrd r2, r3, [lr, #40]\n"
        "    strd r2, r3, [sp, #16]\n"
        "    movs r2, #10\n"
        "    str r2, [sp, #4]\n"
        "    ldr r8, [sp, #32]\n"
        "    ldrd r9, r10, [lr, #52]\n"
        "    ldr r11, [lr, #60]\n"
        "    ldm lr, {r0-r7}\n"
        "    ldrd ip, lr, [lr, #32]\n"
        "    ror r4, r4, #7\n"
        "    ror r5, r5, #7\n"
        "    ror r6, r6, #7\n"
        "    ror r7, r7, #7\n"
        "    ror r8, r8, #8\n"
        "    ror r9, r9, #8\n"
        "    ror r10, r10, #8\n"
        "    ror r11, r11, #8\n"
        "1:\n"
        "    add r0, r0, r4, ror #25\n"
        "    eor r8, r0, r8, ror #24\n"
        "    add ip, ip, r8, ror #16\n"
        "    eor r4, ip, r4, ror #25\n"
        "    add r0, r0, r4, ror #20\n"
        "    eor r8, r0, r8, ror #16\n"
        "    add ip, ip, r8, ror #24\n"
        "    eor r4, ip, r4, ror #20\n"
        "    add r1, r1, r5, ror #25\n"
        "    eor r9, r1, r9, ror #24\n"
        "    add lr, lr, r9, ror #16\n"
        "    eor r5, lr, r5, ror #25\n"
        "    add r1, r1, r5, ror #20\n"
        "    eor r9, r1, r9, ror #16\n"
        "    add lr, lr, r9, ror #24\n"
        "    eor r5, lr, r5, ror #20\n"
        "    strd ip, lr, [sp, #8]\n"
        "    ldrd ip, lr, [sp, #16]\n"
        "    add r2, r2, r6, ror #25\n"
        "    eor r10, r2, r10, ror #24\n"
        "    add ip, ip, r10, ror #16\n"
        "    eor r6, ip, r6, ror #25\n"
        "    add r2, r2, r6, ror #20\n"
        "    eor r10, r2, r10, ror #16\n"
        "    add ip, ip, r10, ror #24\n"
        "    eor r6, ip, r6, ror #20\n"
        "    add r3, r3, r7, ror #25\n"
        "    eor r11, r3, r11, ror #24\n"
        "    add lr, lr, r11, ror #16\n"
        "    eor r7, lr, r7, ror #25\n"
        "    add r3, r3, r7, ror #20\n"
        "    eor r11, r3, r11, ror #16\n"
        "    add lr, lr, r11, ror #24\n"
        "    eor r7, lr, r7, ror #20\n"
        "    add r0, r0, r5, ror #25\n"
        "    eor r11, r0, r11, ror #24\n"
        "    add ip, ip, r11, ror #16\n"
        "    eor r5, ip, r5, ror #25\n"
        "    add r0, r0, r5, ror #20\n"
        "    eor r11, r0, r11, ror #16\n"
        "    add ip, ip, r11, ror #24\n"
        "    eor r5, ip, r5, ror #20\n"
        "    add r1, r1, r6, ror #25\n"
        "    eor r8, r1, r8, ror #24\n"
        "    add lr, lr, r8, ror #16\n"
        "    eor r6, lr, r6, ror #25\n"
        "    add r1, r1, r6, ror #20\n"
        "    eor r8, r1, r8, ror #16\n"
        "    add lr, lr, r8, ror #24\n"
        "    eor r6, lr, r6, ror #20\n"
        "    strd ip, lr, [sp, #16]\n"
        "    ldr lr, [sp, #4]\n"
        "    subs lr, lr, #1\n"
        "    str lr, [sp, #4]\n"
        "    ldrd ip, lr, [sp, #8]\n"
        "    add r2, r2, r7, ror #25\n"
        "    eor r9, r2, r9, ror #24\n"
        "    add ip, ip, r9, ror #16\n"
        "    eor r7, ip, r7, ror #25\n"
        "    add r2, r2, r7, ror #20\n"
        "    eor r9, r2, r9, ror #16\n"
        "    add ip, ip, r9, ror #24\n"
        "    eor r7, ip, r7, ror #20\n"
        "    add r3, r3, r4, ror #25\n"
        "    eor r10, r3, r10, ror #24\n"
        "    add lr, lr, r10, ror #16\n"
        "    eor r4, lr, r4, ror #25\n"
        "    add r3, r3, r4, ror #20\n"
        "    eor r10, r3, r10, ror #16\n"
        "    add lr, lr, r10, ror #24\n"
        "    eor r4, lr, r4, ror #20\n"
        "    bne 1b\n"
        "    strd ip, lr, [sp, #8]\n"
        "    ldr ip, [sp, #24]\n"
        "    ldr lr, [ip, #0]\n"
        "    add r0, r0, lr\n"
        "    ldr lr, [ip, #4]\n"
        "    add r1, r1, lr\n"
        "    ldr lr, [ip, #8]\n"
        "    add r2, r2, lr\n"
        "    ldr lr, [ip, #12]\n"
        "    add r3, r3, lr\n"
        "    ldr lr, [ip, #16]\n"
        "    add r4, lr, r4, ror #25\n"
        "    ldr lr, [ip, #20]\n"
        "    add r5, lr, r5, ror #25\n"
        "    ldr lr, [ip, #24]\n"
        "    add r6, lr, r6, ror #25\n"
        "    ldr lr, [ip, #28]\n"
        "    add r7, lr, r7, ror #25\n"
        "    ldr lr, [sp, #32]\n"
        "    add r8, lr, r8, ror #24\n"
        "    ldr lr, [ip, #52]\n"
        "    add r9, lr, r9, ror #24\n"
        "    ldr lr, [ip, #56]\n"
        "    add r10, lr, r10, ror #24\n"
        "    ldr lr, [ip, #60]\n"
        "    add r11, lr, r11, ror #24\n"
        "    ldr lr, [sp, #0]\n"
        "    stmia lr!, {r0-r7}\n"
        "    ldrd r0, r1, [sp, #8]\n"
        "    ldrd r2, r3, [sp, #16]\n"
        "    ldrd r4, r5, [ip, #32]\n"
        "    add r0, r0, r4\n"
        "    add r1, r1, r5\n"
        "    ldrd r4, r5, [ip, #40]\n"
        "    add r2, r2, r4\n"
        "    add r3, r3, r5\n"
        "    stmia lr!, {r0-r3, r8-r11}\n"
        "    str lr, [sp, #0]\n"
        "    ldr r0, [sp, #32]\n"
        "    adds r0, r0, #1\n"
        "    str r0, [sp, #32]\n"
        "    ldr r1, [sp, #28]\n"
        "    cmp lr, r1\n"
        "    bne 5b\n"
        "    movs r0, #0\n"
        "    movs r1, #0\n"
        "    strd r0, r1, [sp, #8]\n"
        "    strd r0, r1, [sp, #16]\n"
        "    add sp, sp, #36\n"
        "    pop {r4-r11, pc}\n"
        "    .size fd_chacha20_blocks_v7m, . - fd_chacha20_blocks_v7m\n"
        "    .popsection\n");
#endif

#if FD_CHACHA20_V7M
/* Copies `words` words from src (word-aligned) to out (any alignment) and
 * zeroes them in src: the DRBG handing out buffered words. Four per pass
 * with ldm, stm of four zeroed registers, and stm to out when it is
 * word-aligned (unaligned str otherwise, which ARMv7-M allows): 1.25
 * instructions per word aligned, 2.25 not, against 6 for the C loop. */
void fd_chacha_take_words_v7m(uint32_t *src, uint8_t *out, size_t words);
__asm__("    .syntax unified\n"
        "    .thumb\n"
        "    .pushsection .text.fd_chacha_take_words_v7m,\"ax\",%progbits\n"
        "    .global fd_chacha_take_words_v7m\n"
        "    .type fd_chacha_take_words_v7m, %function\n"
        "    .thumb_func\n"
        "    .align 2\n"
        "fd_chacha_take_words_v7m:\n"
        "    push {r4-r8, lr}\n"
        "    movs r7, #0\n"
        "    subs r2, r2, #4\n"
        "    bcc 2f\n"
        "    mov r8, #0\n"
        "    mov ip, #0\n"
        "    mov lr, #0\n"
        "    tst r1, #3\n"
        "    bne 3f\n"
        "1:\n"
        "    ldm r0, {r3-r6}\n"
        "    stmia r1!, {r3-r6}\n"
        "    stmia r0!, {r7, r8, ip, lr}\n"
        "    subs r2, r2, #4\n"
        "    bcs 1b\n"
        "2:\n"
        "    adds r2, r2, #4\n"
        "    beq 5f\n"
        "4:\n"
        "    ldr r3, [r0]\n"
        "    str r3, [r1], #4\n"
        "    str r7, [r0], #4\n"
        "    subs r2, r2, #1\n"
        "    bne 4b\n"
        "5:\n"
        "    pop {r4-r8, pc}\n"
        "3:\n"
        "    ldm r0, {r3-r6}\n"
        "    str r3, [r1], #4\n"
        "    str r4, [r1], #4\n"
        "    str r5, [r1], #4\n"
        "    str r6, [r1], #4\n"
        "    stmia r0!, {r7, r8, ip, lr}\n"
        "    subs r2, r2, #4\n"
        "    bcs 3b\n"
        "    b 2b\n"
        "    .size fd_chacha_take_words_v7m, . - fd_chacha_take_words_v7m\n"
        "    .popsection\n");
#endif

/* One block of the state in (its counter in[12]) into out: the Thumb-2
 * form on ARMv7-M, the Thumb-1 form on ARMv6-M, the C reference elsewhere. */
static void block_words(const uint32_t *restrict in, uint32_t *restrict out)
{
#if FD_CHACHA20_V7M
    fd_chacha20_blocks_v7m(in, out, 1);
#elif FD_CHACHA20_V6M
    fd_chacha20_blocks_v6m(in, out, 1);
#else
    fd_chacha20_block_ref(in, 0, out);
#endif
}

#if FD_CHACHA20_X86
/* Bytes below the caller's frame that the SIMD forms' frames can use
 * (clang 14's AVX2 form: 0x1c0 of spill slots plus pushes; the SSE2 form's
 * sixteen-row arrays: 512), with room to spare. */
#define SIMD_FRAME_BYTES 1024u

/* The SIMD forms hold keystream rows in vector registers, and a compiler
 * short of registers spills them into its own frame, where no C wipe
 * reaches: clang's AVX2 code leaves 16-byte halves of the output rows
 * there (test_no_secret_left_on_stack found 27 runs). Called right after
 * them from the same frame, this one lies over theirs and zeroes it. Not
 * ASan-instrumented: ASan may move an instrumented local to a fake stack
 * off the real one. */
static __attribute__((noinline, no_sanitize("address"))) void wipe_simd_frame(void)
{
    uint8_t frame[SIMD_FRAME_BYTES];
    fd_wipe(frame, sizeof frame);
}
#endif

void fd_chacha20_blocks4(const uint32_t in[16], uint32_t out[64])
{
#if FD_CHACHA20_X86
    /* Asked per refill, not cached: the library keeps no globals. */
    if (__builtin_cpu_supports("avx2")) {
        fd_chacha20_blocks4_avx2(in, out);
    } else {
        fd_chacha20_blocks4_sse2(in, out);
    }
    wipe_simd_frame();
#elif FD_CHACHA20_V7M
    fd_chacha20_blocks_v7m(in, out, 4);
#elif FD_CHACHA20_V6M
    fd_chacha20_blocks_v6m(in, out, 4);
#else
    fd_chacha20_blocks4_ref(in, out);
#endif
}

/* "expand 32-byte k" */
#define CHACHA_CONSTANTS 0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u

void fd_chacha20_block(const uint8_t key[FD_CHACHA20_KEY_SIZE], uint32_t counter,
                       const uint8_t nonce[FD_CHACHA20_NONCE_SIZE], uint8_t out[FD_CHACHA20_BLOCK_SIZE])
{
    uint32_t in[16] = {CHACHA_CONSTANTS};
    for (size_t i = 0; i < 8u; i++) {
        in[4u + i] = fd_load_le32(key + 4u * i);
    }
    in[12] = counter;
    for (size_t i = 0; i < 3u; i++) {
        in[13u + i] = fd_load_le32(nonce + 4u * i);
    }
    uint32_t words[16];
    block_words(in, words);
    for (size_t i = 0; i < 16u; i++) {
        fd_store_le32(out + 4u * i, words[i]);
    }
    fd_wipe(words, sizeof words);
    fd_wipe(in, sizeof in);
}

static const char drbg_tag[] = "fairdeal-chacha-drbg";

/* K = SHA-256(tag || op || [K] || a || b || c) */
static void derive_key(fd_chacha_drbg *d, uint8_t op, bool chain, const uint8_t *a, size_t a_len, const uint8_t *b,
                       size_t b_len, const uint8_t *c, size_t c_len)
{
    fd_sha256_ctx h;
    fd_sha256_init(&h);
    fd_sha256_update(&h, drbg_tag, sizeof drbg_tag - 1u);
    fd_sha256_update(&h, &op, 1);
    uint8_t key[32];
    if (chain) {
        for (size_t i = 0; i < 8u; i++) {
            fd_store_le32(key + 4u * i, d->key[i]);
        }
        fd_sha256_update(&h, key, sizeof key);
    }
    fd_sha256_update(&h, a, a_len);
    fd_sha256_update(&h, b, b_len);
    fd_sha256_update(&h, c, c_len);
    fd_sha256_final(&h, key);
    for (size_t i = 0; i < 8u; i++) {
        d->key[i] = fd_load_le32(key + 4u * i);
    }
    fd_wipe(key, sizeof key);
    /* Bytes buffered under the old key must never be served. */
    fd_wipe(d->buffer, sizeof d->buffer);
    d->pos = FD_CHACHA_DRBG_BUFFER;
}

_Static_assert(FD_CHACHA_DRBG_BLOCKS == 4u, "a refill is fd_chacha20_blocks4");

static void refill(fd_chacha_drbg *d)
{
    uint32_t in[16] = {CHACHA_CONSTANTS}; /* counter 0, nonce 0 */
    memcpy(in + 4, d->key, sizeof d->key);
    fd_chacha20_blocks4(in, d->buffer);
    memcpy(d->key, d->buffer, sizeof d->key);
    fd_wipe(d->buffer, sizeof d->key);
    fd_wipe(in + 4, sizeof d->key); /* the key; the rest of in is constants and zeros */
    d->pos = sizeof d->key;
}

/* Byte pos of the buffer out, and zeroed at once. */
FD_HOT_INLINE uint8_t take_byte(fd_chacha_drbg *d, size_t pos)
{
    uint32_t *w = &d->buffer[pos / 4u];
    const unsigned shift = 8u * (unsigned)(pos % 4u);
    const uint8_t b = (uint8_t)(*w >> shift);
    *w &= ~(0xFFu << shift);
    return b;
}

/* Hand out `words` buffered words from byte pos (a multiple of 4) and
 * zero each at once. */
FD_HOT_INLINE void take_words(fd_chacha_drbg *d, size_t pos, uint8_t *out, size_t words)
{
    uint32_t *w = &d->buffer[pos / 4u];
#if FD_CHACHA20_V7M
    fd_chacha_take_words_v7m(w, out, words);
#else
    for (size_t i = 0; i < words; i++) {
        fd_store_le32(out + 4u * i, w[i]);
        w[i] = 0;
    }
#endif
}

/* Hand out len buffered bytes (len <= what is buffered) and zero each at
 * once: bytes up to a word boundary, then whole words (what the shuffles
 * ask for), then the bytes left. */
static void take(fd_chacha_drbg *d, uint8_t *out, size_t len)
{
    size_t pos = d->pos;
    for (; len > 0u && pos % 4u != 0u; len--) {
        *out++ = take_byte(d, pos++);
    }
    const size_t words = len / 4u;
    take_words(d, pos, out, words);
    pos += 4u * words;
    out += 4u * words;
    for (len %= 4u; len > 0u; len--) {
        *out++ = take_byte(d, pos++);
    }
    d->pos = (uint16_t)pos;
}

static bool input_ok(const uint8_t *p, size_t len) { return (p != NULL || len == 0u); }

fd_status fd_chacha_drbg_instantiate(fd_chacha_drbg *d, const uint8_t *entropy, size_t entropy_len,
                                     const uint8_t *nonce, size_t nonce_len, const uint8_t *pers, size_t pers_len,
                                     uint64_t reseed_interval)
{
    if (d == NULL || entropy == NULL || !input_ok(nonce, nonce_len) || !input_ok(pers, pers_len)) {
        return FD_ERR_NULL;
    }
    if (entropy_len < FD_CHACHA_DRBG_MIN_ENTROPY) {
        return FD_ERR_EMPTY;
    }
    if (entropy_len > FD_CHACHA_DRBG_MAX_INPUT || nonce_len > FD_CHACHA_DRBG_MAX_INPUT ||
        pers_len > FD_CHACHA_DRBG_MAX_INPUT || reseed_interval == 0u ||
        reseed_interval > FD_CHACHA_DRBG_MAX_RESEED_INTERVAL) {
        return FD_ERR_TOO_LARGE;
    }
    derive_key(d, 0x00, false, entropy, entropy_len, nonce, nonce_len, pers, pers_len);
    d->reseed_counter = 1;
    d->reseed_interval = reseed_interval;
    d->instantiated = true;
    return FD_OK;
}

fd_status fd_chacha_drbg_reseed(fd_chacha_drbg *d, const uint8_t *entropy, size_t entropy_len, const uint8_t *addl,
                                size_t addl_len)
{
    if (d == NULL || entropy == NULL || !input_ok(addl, addl_len)) {
        return FD_ERR_NULL;
    }
    if (!d->instantiated) {
        return FD_ERR_NOT_READY;
    }
    if (entropy_len < FD_CHACHA_DRBG_MIN_ENTROPY) {
        return FD_ERR_EMPTY;
    }
    if (entropy_len > FD_CHACHA_DRBG_MAX_INPUT || addl_len > FD_CHACHA_DRBG_MAX_INPUT) {
        return FD_ERR_TOO_LARGE;
    }
    derive_key(d, 0x01, true, entropy, entropy_len, addl, addl_len, NULL, 0);
    d->reseed_counter = 1;
    return FD_OK;
}

fd_status fd_chacha_drbg_generate(fd_chacha_drbg *d, uint8_t *out, size_t len, const uint8_t *addl, size_t addl_len)
{
    if (d == NULL || (out == NULL && len > 0u) || !input_ok(addl, addl_len)) {
        return FD_ERR_NULL;
    }
    if (!d->instantiated) {
        return FD_ERR_NOT_READY;
    }
    if (len > FD_CHACHA_DRBG_MAX_REQUEST || addl_len > FD_CHACHA_DRBG_MAX_INPUT) {
        return FD_ERR_REQUEST_TOO_LARGE;
    }
    if (d->reseed_counter > d->reseed_interval) {
        return FD_ERR_RESEED_REQUIRED; /* before the additional input changes the key */
    }
    if (addl_len > 0u) {
        derive_key(d, 0x02, true, addl, addl_len, NULL, 0, NULL, 0);
    }
    return fd_chacha_drbg_output(d, out, len);
}

fd_status fd_chacha_drbg_output(fd_chacha_drbg *d, uint8_t *out, size_t len)
{
    if (d->reseed_counter > d->reseed_interval) {
        return FD_ERR_RESEED_REQUIRED;
    }
    const size_t pos = d->pos;
    if (((pos | len) % 4u) == 0u && len <= (size_t)FD_CHACHA_DRBG_BUFFER - pos) {
        /* Whole words already buffered (the shuffles' requests, most of
         * them): the loop below would hand out the same bytes in more
         * steps. */
        take_words(d, pos, out, len / 4u);
        d->pos = (uint16_t)(pos + len);
        d->reseed_counter++;
        return FD_OK;
    }
    while (len > 0u) {
        if (d->pos >= FD_CHACHA_DRBG_BUFFER) {
            refill(d);
        }
        const size_t avail = FD_CHACHA_DRBG_BUFFER - d->pos;
        const size_t part = len < avail ? len : avail;
        take(d, out, part);
        out += part;
        len -= part;
    }
    d->reseed_counter++;
    return FD_OK;
}

void fd_chacha_drbg_uninstantiate(fd_chacha_drbg *d)
{
    if (d != NULL) {
        fd_wipe(d, sizeof *d);
    }
}
