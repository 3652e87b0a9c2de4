/* fairdeal-tool: the library's primitives and shuffles from the command
 * line, for anyone's checks (known answers, external test batteries,
 * statistics). Host only. Bad arguments: one line on stderr, exit 2.
 *
 *   chacha20  --key HEX64 --nonce HEX24 --counter N --bytes M
 *   hmac-drbg --entropy HEX --nonce HEX [--pers HEX] [--reseed HEX] --bytes N
 *   bytes     --drbg {hmac,chacha20} --count N [--seed HEX]
 *   perms     --algo {durstenfeld,sattolo,partial,inside-out,sample} --n N
 *             [--k K] --count C [--drbg {hmac,chacha20} | --full-entropy]
 *             [--seed HEX]
 *   verify    [--transcript FILE]   (default: stdin) a dealer transcript's
 *             rounds: commitments, orders, dealt cards (tools/verify.c);
 *             exit 0 valid, 1 with one line on stderr when not
 *   verify    --journal FILE [--key HEX64]   the dealer's stored journal
 *             (its --storage file, a flash dump): keyed chain, each revealed
 *             round's commitment and cards (tools/verify_journal.c); the
 *             key defaults to the journal key of the test device secret
 *   verify    --recall FILE|-   a RECALL reply: each revealed hand's
 *             commitment, reveal hash and cards (tools/verify_recall.c)
 *   verify    --round FILE|-   docs/VERIFY.md round lines, each recomputed
 *             (tools/verify.c)
 *   lms-keygen --key STATE --pub FILE [--set h10w4[,h5w8]]   an LMS/HSS key
 *   lms-sign   --key STATE --in FILE --out SIG   (tools/lms_sign.c)
 *   lms-verify --pub FILE --in FILE --sig SIG    exit 0 valid, 1 not
 *   image-sign --key STATE --pub FILE --in BODY.bin --version N --load ADDR --out IMAGE
 *              a signed firmware image (tools/image_tool.c, fairdeal/image.h)
 *   image-verify --pub FILE --in IMAGE [--min-version N] [--slot-size N]
 *              the bootloader's check on the host: exit 0 accepted, 1 refused
 *   program-verify --seed HEX --boot BOOT.bin --boot-size N --image IMAGE --slot-size N [--fill 0xff]
 *              the HMAC a device's VERIFY answers, from the released files
 *   update     --image IMAGE [--truncate N]   a dealer's UPDATE sequence over
 *              standard input/output (tools/update_tool.c): exit 0 installed
 *
 * Without --seed, entropy comes from the host's TRNG (getrandom) through the
 * same pipeline as the firmware: start-up and continuous SP 800-90B health
 * tests, HMAC-SHA-256 conditioning. With --seed, the "conditioned entropy"
 * blocks are HMAC-SHA-256(seed, "fairdeal-tool block" || i): deterministic,
 * for tests only. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairdeal/drbg.h"
#include "fairdeal/entropy.h"
#include "fairdeal/fullentropy.h"
#include "fairdeal/sha256.h"
#include "fairdeal/shuffle.h"
#include "fairdeal/util.h"
#include "fd_trng_config.h"
#include "hal/trng.h"
#include "image_tool.h"
#include "link_tool.h"
#include "lms_sign.h"
#include "persist.h"
#include "verify.h"
#include "verify_journal.h"
#include "verify_text.h"

#define MAX_HEX_BYTES 1024u

static _Noreturn void usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fairdeal-tool: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static _Noreturn void runtime_error(const char *what, fd_status st)
{
    fprintf(stderr, "fairdeal-tool: %s: %s\n", what, fd_status_name(st));
    exit(1);
}

/* ---- options ---- */

typedef struct option {
    const char *name;
    bool takes_value;
    const char *value;
    bool seen;
} option;

static void parse_options(int argc, char **argv, option *opts, size_t count)
{
    for (int i = 2; i < argc; i++) {
        size_t k = 0;
        while (k < count && strcmp(argv[i], opts[k].name) != 0) {
            k++;
        }
        if (k == count) {
            usage_error("unknown option '%s' for %s", argv[i], argv[1]);
        }
        if (opts[k].seen) {
            usage_error("%s given twice", opts[k].name);
        }
        opts[k].seen = true;
        if (opts[k].takes_value) {
            if (i + 1 >= argc) {
                usage_error("%s needs a value", opts[k].name);
            }
            opts[k].value = argv[++i];
        }
    }
}

static const option *find(const option *opts, size_t count, const char *name)
{
    for (size_t k = 0; k < count; k++) {
        if (strcmp(opts[k].name, name) == 0) {
            return &opts[k];
        }
    }
    return NULL;
}

static const char *required(const option *o)
{
    if (!o->seen) {
        usage_error("%s is required", o->name);
    }
    return o->value;
}

static uint64_t parse_u64(const option *o, uint64_t max)
{
    const char *s = required(o);
    if (*s < '0' || *s > '9') {
        usage_error("%s: '%s' is not a decimal number", o->name, s);
    }
    errno = 0;
    char *end = NULL;
    const unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0' || v > max) {
        usage_error("%s: '%s' is not a number from 0 to %llu", o->name, s, (unsigned long long)max);
    }
    return v;
}

/* Decode hex; exact_len > 0 demands that many bytes. */
static size_t parse_hex(const option *o, uint8_t *out, size_t exact_len)
{
    const char *s = required(o);
    size_t len = 0;
    if (fd_hex_decode(s, strlen(s), out, MAX_HEX_BYTES, &len) != FD_OK) {
        usage_error("%s: not an even-length hex string of at most %u bytes", o->name, MAX_HEX_BYTES);
    }
    if (exact_len != 0u && len != exact_len) {
        usage_error("%s: need exactly %zu hex digits", o->name, 2u * exact_len);
    }
    return len;
}

static void print_hex(const uint8_t *bytes, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        printf("%02x", bytes[i]);
    }
    putchar('\n');
}

/* ---- entropy sources ---- */

typedef struct seeded_source {
    uint8_t seed[MAX_HEX_BYTES];
    size_t seed_len;
    uint32_t block;
} seeded_source;

static fd_status seeded_block(void *ctx, uint8_t out[32])
{
    seeded_source *s = ctx;
    fd_hmac_sha256_ctx h;
    const uint8_t counter[4] = {(uint8_t)(s->block >> 24), (uint8_t)(s->block >> 16), (uint8_t)(s->block >> 8),
                                (uint8_t)s->block};
    fd_hmac_sha256_init(&h, s->seed, s->seed_len);
    fd_hmac_sha256_update(&h, "fairdeal-tool block", 19);
    fd_hmac_sha256_update(&h, counter, sizeof counter);
    fd_hmac_sha256_final(&h, out);
    s->block++;
    return FD_OK;
}

static fd_status seeded_fill(void *ctx, uint8_t *buf, size_t len)
{
    uint8_t block[32];
    while (len > 0u) {
        /* cannot fail: seeded_block always returns FD_OK */
        (void)seeded_block(ctx, block);
        const size_t n = len < sizeof block ? len : sizeof block;
        memcpy(buf, block, n);
        buf += n;
        len -= n;
    }
    return FD_OK;
}

static fd_status host_read_samples(void *ctx, uint8_t *samples, size_t count)
{
    (void)ctx;
    return hal_trng_read(samples, count);
}

static fd_status entropy_block(void *ctx, uint8_t out[32]) { return fd_entropy_get(ctx, out); }

/* Where conditioned 256-bit blocks come from: the seed, or the TRNG. */
typedef struct source {
    bool seeded;
    seeded_source seed;
    fd_entropy pipeline;
} source;

static void source_open(source *src, const option *seed_opt)
{
    memset(src, 0, sizeof *src);
    if (seed_opt->seen) {
        src->seeded = true;
        src->seed.seed_len = parse_hex(seed_opt, src->seed.seed, 0);
        if (src->seed.seed_len == 0u) {
            usage_error("--seed: empty");
        }
        return;
    }
    const fd_health_config cfg = FD_TRNG_HEALTH_CONFIG;
    fd_status st = hal_trng_init();
    if (st == FD_OK) {
        st = fd_entropy_init(&src->pipeline, host_read_samples, NULL, &cfg, FD_TRNG_SAMPLES_PER_BLOCK);
    }
    if (st == FD_OK) {
        st = fd_entropy_startup(&src->pipeline);
    }
    if (st != FD_OK) {
        runtime_error("TRNG start-up", st);
    }
}

static fd_entropy_fn source_fn(const source *src) { return src->seeded ? seeded_block : entropy_block; }
static void *source_ctx(source *src) { return src->seeded ? (void *)&src->seed : (void *)&src->pipeline; }

static fd_drbg_kind parse_drbg(const option *o)
{
    const char *v = o->seen ? o->value : "chacha20";
    if (strcmp(v, "hmac") == 0) {
        return FD_DRBG_HMAC_SHA256;
    }
    if (strcmp(v, "chacha20") == 0) {
        return FD_DRBG_CHACHA20;
    }
    usage_error("--drbg: '%s' is not hmac or chacha20", v);
}

static void drbg_open(fd_drbg *d, fd_drbg_kind kind, source *src)
{
    /* a seeded run must not reseed (it would still be deterministic, but a
     * reader comparing with another implementation expects one instantiate) */
    const fd_drbg_config cfg = {kind, false, 1ull << 48, 0};
    static const uint8_t pers[] = "fairdeal-tool";
    const fd_status st = fd_drbg_instantiate(d, &cfg, source_fn(src), source_ctx(src), pers, sizeof pers - 1u);
    if (st != FD_OK) {
        runtime_error("DRBG instantiate", st);
    }
}

/* ---- commands ---- */

static int cmd_chacha20(int argc, char **argv)
{
    option o[] = {{"--key", true, NULL, false},
                  {"--nonce", true, NULL, false},
                  {"--counter", true, NULL, false},
                  {"--bytes", true, NULL, false}};
    parse_options(argc, argv, o, 4);
    uint8_t key[MAX_HEX_BYTES];
    uint8_t nonce[MAX_HEX_BYTES];
    (void)parse_hex(&o[0], key, 32);
    (void)parse_hex(&o[1], nonce, 12);
    uint32_t counter = (uint32_t)parse_u64(&o[2], UINT32_MAX);
    uint64_t remaining = parse_u64(&o[3], 1ull << 32);
    if (remaining > 64ull * ((1ull << 32) - counter)) {
        usage_error("--bytes: the 32-bit block counter would wrap");
    }
    while (remaining > 0u) {
        uint8_t block[64];
        fd_chacha20_block(key, counter++, nonce, block);
        const size_t n = remaining < 64u ? (size_t)remaining : 64u;
        for (size_t i = 0; i < n; i++) {
            printf("%02x", block[i]);
        }
        remaining -= n;
    }
    putchar('\n');
    return 0;
}

static int cmd_hmac_drbg(int argc, char **argv)
{
    option o[] = {{"--entropy", true, NULL, false},
                  {"--nonce", true, NULL, false},
                  {"--pers", true, NULL, false},
                  {"--reseed", true, NULL, false},
                  {"--bytes", true, NULL, false}};
    parse_options(argc, argv, o, 5);
    static uint8_t entropy[MAX_HEX_BYTES];
    static uint8_t nonce[MAX_HEX_BYTES];
    static uint8_t pers[MAX_HEX_BYTES];
    static uint8_t reseed[MAX_HEX_BYTES];
    static uint8_t out[FD_HMAC_DRBG_MAX_REQUEST];
    const size_t entropy_len = parse_hex(&o[0], entropy, 0);
    const size_t nonce_len = parse_hex(&o[1], nonce, 0);
    const size_t pers_len = o[2].seen ? parse_hex(&o[2], pers, 0) : 0u;
    const size_t bytes = (size_t)parse_u64(&o[4], FD_HMAC_DRBG_MAX_REQUEST);
    fd_hmac_drbg d;
    fd_status st = fd_hmac_drbg_instantiate(&d, entropy, entropy_len, nonce, nonce_len, pers, pers_len, 1ull << 48);
    if (st == FD_ERR_EMPTY || st == FD_ERR_TOO_LARGE) {
        usage_error("--entropy must be 32 to %u bytes, other inputs at most %u", FD_HMAC_DRBG_MAX_INPUT,
                    FD_HMAC_DRBG_MAX_INPUT);
    }
    if (st == FD_OK && o[3].seen) {
        const size_t reseed_len = parse_hex(&o[3], reseed, 0);
        st = fd_hmac_drbg_reseed(&d, reseed, reseed_len, NULL, 0);
        if (st == FD_ERR_EMPTY || st == FD_ERR_TOO_LARGE) {
            usage_error("--reseed must be 32 to %u bytes", FD_HMAC_DRBG_MAX_INPUT);
        }
    }
    if (st == FD_OK) {
        st = fd_hmac_drbg_generate(&d, out, bytes, NULL, 0);
    }
    if (st == FD_OK) {
        st = fd_hmac_drbg_generate(&d, out, bytes, NULL, 0);
    }
    if (st != FD_OK) {
        runtime_error("HMAC_DRBG", st);
    }
    print_hex(out, bytes);
    fd_hmac_drbg_uninstantiate(&d);
    return 0;
}

static int cmd_bytes(int argc, char **argv)
{
    option o[] = {{"--drbg", true, NULL, false}, {"--count", true, NULL, false}, {"--seed", true, NULL, false}};
    parse_options(argc, argv, o, 3);
    if (!o[0].seen) {
        usage_error("--drbg is required");
    }
    const fd_drbg_kind kind = parse_drbg(&o[0]);
    uint64_t remaining = parse_u64(&o[1], UINT64_MAX);
    const bool forever = remaining == 0u;
    static source src;
    source_open(&src, &o[2]);
    fd_drbg d;
    drbg_open(&d, kind, &src);
    static uint8_t buf[1u << 16];
    while (forever || remaining > 0u) {
        const size_t n = (!forever && remaining < sizeof buf) ? (size_t)remaining : sizeof buf;
        const fd_status st = fd_drbg_generate(&d, buf, n);
        if (st != FD_OK) {
            runtime_error("DRBG generate", st);
        }
        if (fwrite(buf, 1, n, stdout) != n) {
            break; /* reader closed the pipe: a normal end for a stream */
        }
        remaining -= forever ? 0u : n;
    }
    fd_drbg_uninstantiate(&d);
    return 0;
}

typedef enum algo {
    ALGO_DURSTENFELD,
    ALGO_SATTOLO,
    ALGO_PARTIAL,
    ALGO_INSIDE_OUT,
    ALGO_SAMPLE
} algo;

static int cmd_perms(int argc, char **argv)
{
    option o[] = {{"--algo", true, NULL, false},  {"--n", true, NULL, false},    {"--k", true, NULL, false},
                  {"--count", true, NULL, false}, {"--drbg", true, NULL, false}, {"--full-entropy", false, NULL, false},
                  {"--seed", true, NULL, false}};
    parse_options(argc, argv, o, 7);
    static const char *const names[] = {"durstenfeld", "sattolo", "partial", "inside-out", "sample"};
    const char *a = required(&o[0]);
    size_t which = 0;
    while (which < 5u && strcmp(a, names[which]) != 0) {
        which++;
    }
    if (which == 5u) {
        usage_error("--algo: '%s' is not durstenfeld, sattolo, partial, inside-out or sample", a);
    }
    const algo al = (algo)which;
    const size_t n = (size_t)parse_u64(&o[1], FD_SHUFFLE_MAX_N);
    const bool wants_k = al == ALGO_PARTIAL || al == ALGO_SAMPLE;
    if (wants_k != o[2].seen) {
        usage_error(wants_k ? "--k is required for %s" : "--k applies only to partial and sample", a);
    }
    const size_t k = wants_k ? (size_t)parse_u64(&o[2], n) : n;
    const uint64_t count = parse_u64(&o[3], UINT64_MAX);
    if (o[4].seen && o[5].seen) {
        usage_error("--drbg and --full-entropy exclude each other");
    }
    if (n == 0u || (al == ALGO_SATTOLO && n < 2u)) {
        usage_error("--n: must be 1 to %u (2 or more for sattolo)", FD_SHUFFLE_MAX_N);
    }
    static source src;
    source_open(&src, find(o, 7, "--seed"));
    static fd_drbg d;
    static fd_fullentropy fe;
    fd_rng rng;
    if (o[5].seen) {
        static fd_rng blocks;
        blocks = src.seeded ? (fd_rng){seeded_fill, &src.seed, NULL} : fd_entropy_rng(&src.pipeline);
        /* cannot fail: fe and blocks are static, never NULL */
        (void)fd_fullentropy_init(&fe, &blocks);
        rng = fd_fullentropy_rng(&fe);
    } else {
        drbg_open(&d, parse_drbg(&o[4]), &src);
        rng = fd_drbg_rng(&d);
    }
    uint16_t identity[FD_SHUFFLE_MAX_N];
    uint16_t perm[FD_SHUFFLE_MAX_N];
    uint32_t sample[FD_SHUFFLE_MAX_N];
    for (size_t i = 0; i < n; i++) {
        identity[i] = (uint16_t)i;
    }
    char line[FD_SHUFFLE_MAX_N * 4u + 2u];
    for (uint64_t c = 0; c < count; c++) {
        fd_status st = FD_OK;
        memcpy(perm, identity, n * sizeof identity[0]);
        switch (al) {
        case ALGO_DURSTENFELD: st = fd_shuffle_u16(perm, n, &rng); break;
        case ALGO_SATTOLO: st = fd_sattolo_u16(perm, n, &rng); break;
        case ALGO_PARTIAL: st = fd_shuffle_partial_u16(perm, n, k, &rng); break;
        case ALGO_INSIDE_OUT: st = fd_shuffle_copy_u16(perm, identity, n, &rng); break;
        case ALGO_SAMPLE:
            st = fd_sample_indices(sample, k, (uint32_t)n, &rng);
            for (size_t i = 0; i < k; i++) {
                perm[i] = (uint16_t)sample[i];
            }
            break;
        }
        if (st != FD_OK) {
            runtime_error("shuffle", st);
        }
        size_t len = 0;
        for (size_t i = 0; i < k; i++) {
            len += (size_t)snprintf(line + len, sizeof line - len, i == 0u ? "%u" : " %u", (unsigned)perm[i]);
        }
        line[len++] = '\n';
        if (fwrite(line, 1, len, stdout) != len) {
            break;
        }
    }
    return 0;
}

static int cmd_verify(int argc, char **argv)
{
    option opts[] = {{"--transcript", true, NULL, false},
                     {"--journal", true, NULL, false},
                     {"--key", true, NULL, false},
                     {"--recall", true, NULL, false},
                     {"--round", true, NULL, false}};
    parse_options(argc, argv, opts, 5);
    if (opts[4].seen) {
        if (opts[0].seen || opts[1].seen || opts[2].seen || opts[3].seen) {
            usage_error("--round excludes --transcript, --journal, --key and --recall");
        }
        FILE *lin = strcmp(opts[4].value, "-") == 0 ? stdin : fopen(opts[4].value, "r");
        if (lin == NULL) {
            usage_error("--round: cannot open '%s'", opts[4].value);
        }
        const int rc = fd_tool_verify_rounds(lin);
        if (lin != stdin) {
            (void)fclose(lin);
        }
        return rc;
    }
    if (opts[3].seen) {
        if (opts[0].seen || opts[1].seen || opts[2].seen) {
            usage_error("--recall excludes --transcript, --journal and --key");
        }
        FILE *rin = strcmp(opts[3].value, "-") == 0 ? stdin : fopen(opts[3].value, "r");
        if (rin == NULL) {
            usage_error("--recall: cannot open '%s'", opts[3].value);
        }
        const int rc = fd_tool_verify_recall(rin);
        if (rin != stdin) {
            (void)fclose(rin);
        }
        return rc;
    }
    if (opts[1].seen) {
        if (opts[0].seen) {
            usage_error("--journal and --transcript exclude each other");
        }
        uint8_t key[MAX_HEX_BYTES];
        size_t key_len = FD_SHA256_SIZE;
        if (opts[2].seen) { /* strict, like every verifier input (verify_text.h) */
            key_len = fd_tool_hex("--key", fd_tool_str(opts[2].value), key, FD_SHA256_SIZE, FD_SHA256_SIZE);
        } else {
            fd_device_secret test; /* a blank secret page in a development build: the marked test secret */
            if (fd_device_secret_load(&test, NULL, false) != FD_OK || fd_persist_journal_key(&test, key) != FD_OK) {
                usage_error("--key: no test key");
            }
            fd_device_secret_clear(&test);
        }
        return fd_tool_verify_journal(opts[1].value, key, key_len);
    }
    if (opts[2].seen) {
        usage_error("--key applies only to --journal");
    }
    if (!opts[0].seen) {
        return fd_tool_verify(stdin);
    }
    FILE *in = strcmp(opts[0].value, "-") == 0 ? stdin : fopen(opts[0].value, "r");
    if (in == NULL) {
        usage_error("--transcript: cannot open '%s'", opts[0].value);
    }
    const int rc = fd_tool_verify(in);
    if (in != stdin) {
        (void)fclose(in);
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage_error("usage: fairdeal-tool "
                    "{chacha20|hmac-drbg|bytes|perms|verify|lms-keygen|lms-sign|lms-verify|image-sign|image-verify|"
                    "program-verify|link|update} "
                    "[options] "
                    "(see README.md)");
    }
    if (strcmp(argv[1], "chacha20") == 0) {
        return cmd_chacha20(argc, argv);
    }
    if (strcmp(argv[1], "hmac-drbg") == 0) {
        return cmd_hmac_drbg(argc, argv);
    }
    if (strcmp(argv[1], "bytes") == 0) {
        return cmd_bytes(argc, argv);
    }
    if (strcmp(argv[1], "perms") == 0) {
        return cmd_perms(argc, argv);
    }
    if (strcmp(argv[1], "verify") == 0) {
        return cmd_verify(argc, argv);
    }
    static const struct {
        const char *name;
        int (*run)(int argc, char **argv);
    } lms_commands[] = {
        {.name = "lms-keygen", .run = fd_tool_lms_keygen},
        {.name = "lms-sign", .run = fd_tool_lms_sign},
        {.name = "lms-verify", .run = fd_tool_lms_verify},
        {.name = "image-sign", .run = fd_tool_image_sign},
        {.name = "image-verify", .run = fd_tool_image_verify},
        {.name = "program-verify", .run = fd_tool_program_verify},
        {.name = "link", .run = fd_tool_link},
        {.name = "update", .run = fd_tool_update},
    };
    for (size_t i = 0; i < sizeof lms_commands / sizeof lms_commands[0]; i++) {
        if (strcmp(argv[1], lms_commands[i].name) == 0) {
            return lms_commands[i].run(argc, argv);
        }
    }
    usage_error("unknown command '%s': use chacha20, hmac-drbg, bytes, perms, verify, lms-keygen, lms-sign, "
                "lms-verify, image-sign, image-verify, program-verify, link or update",
                argv[1]);
}
