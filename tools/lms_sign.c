/* fairdeal-tool's LMS/HSS signer and its state file (tools/lms_sign.h;
 * docs/SECURITY.md "Signed firmware"). One-time keys follow RFC 8554
 * Appendix A: x_q[i] = H(I || u32str(q) || u16str(i) || u8str(0xff) ||
 * SEED); the randomizer C = H(I || u32str(q) || u16str(0xfffd) ||
 * u8str(0xff) || SEED), so a leaf signs only once and needs no RNG (u32str(k)
 * appended for the k-th try when a verifier's chain steps would exceed
 * fd_lmots_steps_cap: "randomizer" below). A
 * second level's tree under top leaf t has SEED' = H(I || u32str(t) ||
 * u16str(0xfffe) || u8str(0xff) || SEED) and I' = the first 16 bytes of
 * H(I || u32str(t) || u16str(0xffff) || u8str(0xff) || SEED). */
#define _GNU_SOURCE /* flock, fsync */
#include "lms_sign.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fairdeal/sha256.h"
#include "fairdeal/util.h"
#include "tool_args.h"

/* The largest file a subcommand reads (a message to sign or verify). */
#define LMS_FILE_MAX (256u * 1024u * 1024u)

#define D_C 0xfffdu
#define D_CHILD_SEED 0xfffeu
#define D_CHILD_I 0xffffu

/* H(I || u32str(q) || u16str(d) || u8str(0xff) || SEED || u32str(k)), the
 * last field only when with_k. */
static void derive_k(const uint8_t I[FD_LMS_I_SIZE], uint32_t q, uint32_t d, const uint8_t seed[FD_LMS_N], bool with_k,
                     uint32_t k, uint8_t out[FD_LMS_N])
{
    uint8_t buf[FD_LMS_I_SIZE + 4u + 2u + 1u + FD_LMS_N + 4u];
    memcpy(buf, I, FD_LMS_I_SIZE);
    fd_lms_put32(buf + FD_LMS_I_SIZE, q);
    buf[FD_LMS_I_SIZE + 4u] = (uint8_t)(d >> 8);
    buf[FD_LMS_I_SIZE + 5u] = (uint8_t)d;
    buf[FD_LMS_I_SIZE + 6u] = 0xffu;
    memcpy(buf + FD_LMS_I_SIZE + 7u, seed, FD_LMS_N);
    fd_lms_put32(buf + FD_LMS_I_SIZE + 7u + FD_LMS_N, k);
    fd_sha256(buf, with_k ? sizeof buf : sizeof buf - 4u, out);
    fd_wipe(buf, sizeof buf);
}

/* H(I || u32str(q) || u16str(d) || u8str(0xff) || SEED) */
static void derive(const uint8_t I[FD_LMS_I_SIZE], uint32_t q, uint32_t d, const uint8_t seed[FD_LMS_N],
                   uint8_t out[FD_LMS_N])
{
    derive_k(I, q, d, seed, false, 0, out);
}

/* Randomizer tries per signature before the signer gives up. */
#define SIGN_TRIES 256u

/* The k-th randomizer of leaf q: C_0 = H(I || u32str(q) || u16str(0xfffd) ||
 * u8str(0xff) || SEED) (Appendix A's convention), C_k = the same hash with
 * u32str(k) appended. The signer keeps the first whose digits cost a verifier
 * at most fd_lmots_steps_cap chain steps; it still signs once per leaf. */
static void randomizer(const uint8_t I[FD_LMS_I_SIZE], uint32_t q, const uint8_t seed[FD_LMS_N], uint32_t k,
                       uint8_t C[FD_LMS_N])
{
    derive_k(I, q, D_C, seed, k != 0u, k, C);
}

/* The LM-OTS public key K of leaf q (Algorithm 1). */
static void ots_public(const fd_lmots_params *ots, const uint8_t I[FD_LMS_I_SIZE], const uint8_t seed[FD_LMS_N],
                       uint32_t q, uint8_t K[FD_LMS_N])
{
    uint8_t head[FD_LMS_I_SIZE + 6u];
    memcpy(head, I, FD_LMS_I_SIZE);
    fd_lms_put32(head + FD_LMS_I_SIZE, q);
    head[FD_LMS_I_SIZE + 4u] = 0x80u; /* D_PBLC */
    head[FD_LMS_I_SIZE + 5u] = 0x80u;
    fd_sha256_ctx ctx;
    fd_sha256_init(&ctx);
    fd_sha256_update(&ctx, head, sizeof head);
    const uint32_t top = (1u << ots->w) - 1u;
    for (uint32_t i = 0; i < ots->p; i++) {
        uint8_t x[FD_LMS_N];
        derive(I, q, i, seed, x);
        fd_lmots_chain(I, q, i, 0, top, x);
        fd_sha256_update(&ctx, x, FD_LMS_N);
    }
    fd_sha256_final(&ctx, K);
}

static fd_status params(uint32_t lms_type, uint32_t ots_type, uint32_t *h, const fd_lmots_params **ots)
{
    *h = fd_lms_height_of(lms_type);
    *ots = fd_lmots_params_of(ots_type);
    /* heights above 15 would take hours to build on the host */
    return (*h == 0u || *h > 15u || *ots == NULL) ? FD_ERR_PARSE : FD_OK;
}

fd_status fd_lms_tree(uint32_t lms_type, uint32_t ots_type, const uint8_t I[FD_LMS_I_SIZE],
                      const uint8_t seed[FD_LMS_N], uint32_t q, uint8_t root[FD_LMS_N], uint8_t *path)
{
    uint32_t h;
    const fd_lmots_params *ots;
    if (params(lms_type, ots_type, &h, &ots) != FD_OK || q >= (1u << h)) {
        return FD_ERR_PARSE;
    }
    const uint32_t leaves = 1u << h;
    uint8_t(*node)[FD_LMS_N] = calloc(2u * (size_t)leaves, FD_LMS_N); /* node r at index r (heap: host tool) */
    if (node == NULL) {
        return FD_ERR_TOO_LARGE;
    }
    for (uint32_t i = 0; i < leaves; i++) {
        uint8_t K[FD_LMS_N];
        ots_public(ots, I, seed, i, K);
        fd_lms_leaf(I, leaves + i, K, node[leaves + i]);
    }
    for (uint32_t r = leaves - 1u; r >= 1u; r--) {
        fd_lms_interior(I, r, node[2u * r], node[2u * r + 1u], node[r]);
    }
    memcpy(root, node[1], FD_LMS_N);
    if (path != NULL) {
        uint32_t r = leaves + q;
        for (uint32_t i = 0; i < h; i++, r >>= 1) {
            memcpy(path + (size_t)i * FD_LMS_N, node[r ^ 1u], FD_LMS_N);
        }
    }
    free(node);
    return FD_OK;
}

fd_status fd_lms_sign_leaf(uint32_t lms_type, uint32_t ots_type, const uint8_t I[FD_LMS_I_SIZE],
                           const uint8_t seed[FD_LMS_N], uint32_t q, const uint8_t *msg, size_t msg_len, uint8_t *out)
{
    uint32_t h;
    const fd_lmots_params *ots;
    if (params(lms_type, ots_type, &h, &ots) != FD_OK || q >= (1u << h)) {
        return FD_ERR_PARSE;
    }
    uint8_t *p = out;
    fd_lms_put32(p, q);
    fd_lms_put32(p + 4u, ots_type);
    uint8_t *C = p + 8u;
    uint8_t digits[FD_LMOTS_P_W1] = {0};
    uint32_t k = 0;
    do {
        if (k == SIGN_TRIES) {
            return FD_ERR_SIGNATURE; /* below 1e-150: every try over the cap (lms_sign.h) */
        }
        randomizer(I, q, seed, k++, C);
        fd_sha256_ctx m;
        fd_lmots_msg_init(&m, I, q, C);
        fd_sha256_update(&m, msg, msg_len);
        uint8_t digest[FD_LMS_N];
        fd_sha256_final(&m, digest);
        fd_lmots_digits(ots, digest, digits);
    } while (fd_lmots_steps(ots, digits) > fd_lmots_steps_cap(ots));
    uint8_t *y = C + FD_LMS_N;
    for (uint32_t i = 0; i < ots->p; i++) {
        derive(I, q, i, seed, y + (size_t)i * FD_LMS_N);
        fd_lmots_chain(I, q, i, 0, digits[i], y + (size_t)i * FD_LMS_N);
    }
    uint8_t *t = y + (size_t)ots->p * FD_LMS_N;
    fd_lms_put32(t, lms_type);
    uint8_t root[FD_LMS_N];
    return fd_lms_tree(lms_type, ots_type, I, seed, q, root, t + 4u);
}

uint64_t fd_lms_key_capacity(const fd_lms_key *key)
{
    uint64_t n = 1;
    for (uint32_t l = 0; l < key->levels; l++) {
        n <<= fd_lms_height_of(key->lms_type[l]);
    }
    return n;
}

/* The public key of the child tree under top leaf t. */
static fd_status child_key(const fd_lms_key *key, uint32_t t, uint8_t I[FD_LMS_I_SIZE], uint8_t seed[FD_LMS_N],
                           uint8_t pub[FD_LMS_PUB_SIZE])
{
    uint8_t full[FD_LMS_N];
    derive(key->I, t, D_CHILD_I, key->seed, full);
    memcpy(I, full, FD_LMS_I_SIZE);
    derive(key->I, t, D_CHILD_SEED, key->seed, seed);
    fd_lms_put32(pub, key->lms_type[1]);
    fd_lms_put32(pub + 4u, key->ots_type[1]);
    memcpy(pub + 8u, I, FD_LMS_I_SIZE);
    return fd_lms_tree(key->lms_type[1], key->ots_type[1], I, seed, 0, pub + 8u + FD_LMS_I_SIZE, NULL);
}

fd_status fd_lms_key_public(const fd_lms_key *key, uint8_t pub[FD_HSS_PUB_SIZE])
{
    fd_lms_put32(pub, key->levels);
    fd_lms_put32(pub + 4u, key->lms_type[0]);
    fd_lms_put32(pub + 8u, key->ots_type[0]);
    memcpy(pub + 12u, key->I, FD_LMS_I_SIZE);
    return fd_lms_tree(key->lms_type[0], key->ots_type[0], key->I, key->seed, 0, pub + 12u + FD_LMS_I_SIZE, NULL);
}

static size_t lms_sig_size(uint32_t lms_type, uint32_t ots_type)
{
    return FD_LMS_SIG_SIZE((size_t)fd_lmots_params_of(ots_type)->p, (size_t)fd_lms_height_of(lms_type));
}

fd_status fd_lms_sign_index(const fd_lms_key *key, uint64_t idx, const uint8_t *msg, size_t msg_len, uint8_t *sig,
                            size_t sig_cap, size_t *sig_len)
{
    if (idx >= fd_lms_key_capacity(key)) {
        return FD_ERR_EXHAUSTED;
    }
    size_t need = 4u + lms_sig_size(key->lms_type[0], key->ots_type[0]);
    if (key->levels == 2u) {
        need += FD_LMS_PUB_SIZE + lms_sig_size(key->lms_type[1], key->ots_type[1]);
    }
    if (sig_cap < need) {
        return FD_ERR_BUFFER_TOO_SMALL;
    }
    fd_lms_put32(sig, key->levels - 1u);
    fd_status st;
    if (key->levels == 1u) {
        st = fd_lms_sign_leaf(key->lms_type[0], key->ots_type[0], key->I, key->seed, (uint32_t)idx, msg, msg_len,
                              sig + 4u);
    } else {
        const uint32_t hb = fd_lms_height_of(key->lms_type[1]);
        const uint32_t t = (uint32_t)(idx >> hb);
        const uint32_t qb = (uint32_t)(idx & ((1u << hb) - 1u));
        uint8_t cI[FD_LMS_I_SIZE];
        uint8_t cseed[FD_LMS_N];
        uint8_t *top = sig + 4u;
        uint8_t *cpub = top + lms_sig_size(key->lms_type[0], key->ots_type[0]);
        st = child_key(key, t, cI, cseed, cpub);
        if (st == FD_OK) {
            st = fd_lms_sign_leaf(key->lms_type[0], key->ots_type[0], key->I, key->seed, t, cpub, FD_LMS_PUB_SIZE, top);
        }
        if (st == FD_OK) {
            st = fd_lms_sign_leaf(key->lms_type[1], key->ots_type[1], cI, cseed, qb, msg, msg_len,
                                  cpub + FD_LMS_PUB_SIZE);
        }
        fd_wipe(cseed, sizeof cseed);
    }
    *sig_len = st == FD_OK ? need : 0u;
    return st;
}

/* ---- the state file ---- */

static const uint8_t MAGIC[8] = {'F', 'D', 'L', 'M', 'S', 'K', '1', '\n'};
enum {
    ST_LEVELS = 8,
    ST_TYPES = 12,
    ST_I = 28,
    ST_SEED = 44,
    ST_NEXT = 76,
    ST_SUM = 84
};
_Static_assert(ST_SUM + FD_SHA256_SIZE == FD_LMS_STATE_SIZE, "state file layout");

void fd_lms_key_encode(const fd_lms_key *key, uint8_t out[FD_LMS_STATE_SIZE])
{
    memcpy(out, MAGIC, sizeof MAGIC);
    fd_lms_put32(out + ST_LEVELS, key->levels);
    for (uint32_t l = 0; l < FD_LMS_SIGN_MAX_LEVELS; l++) {
        fd_lms_put32(out + ST_TYPES + 8u * l, key->lms_type[l]);
        fd_lms_put32(out + ST_TYPES + 8u * l + 4u, key->ots_type[l]);
    }
    memcpy(out + ST_I, key->I, FD_LMS_I_SIZE);
    memcpy(out + ST_SEED, key->seed, FD_LMS_N);
    fd_lms_put32(out + ST_NEXT, (uint32_t)(key->next >> 32));
    fd_lms_put32(out + ST_NEXT + 4u, (uint32_t)key->next);
    fd_sha256(out, ST_SUM, out + ST_SUM);
}

fd_status fd_lms_key_decode(const uint8_t in[FD_LMS_STATE_SIZE], fd_lms_key *key)
{
    uint8_t sum[FD_SHA256_SIZE];
    fd_sha256(in, ST_SUM, sum);
    if (memcmp(in, MAGIC, sizeof MAGIC) != 0 || memcmp(sum, in + ST_SUM, sizeof sum) != 0) {
        return FD_ERR_CORRUPT;
    }
    memset(key, 0, sizeof *key);
    key->levels = fd_lms_get32(in + ST_LEVELS);
    if (key->levels < 1u || key->levels > FD_LMS_SIGN_MAX_LEVELS) {
        return FD_ERR_PARSE;
    }
    for (uint32_t l = 0; l < FD_LMS_SIGN_MAX_LEVELS; l++) {
        key->lms_type[l] = fd_lms_get32(in + ST_TYPES + 8u * l);
        key->ots_type[l] = fd_lms_get32(in + ST_TYPES + 8u * l + 4u);
        uint32_t h;
        const fd_lmots_params *ots;
        if (l < key->levels && params(key->lms_type[l], key->ots_type[l], &h, &ots) != FD_OK) {
            return FD_ERR_PARSE;
        }
    }
    memcpy(key->I, in + ST_I, FD_LMS_I_SIZE);
    memcpy(key->seed, in + ST_SEED, FD_LMS_N);
    key->next = ((uint64_t)fd_lms_get32(in + ST_NEXT) << 32) | fd_lms_get32(in + ST_NEXT + 4u);
    return FD_OK;
}

static int posix_write_all(int fd, const void *buf, size_t len)
{
    const uint8_t *p = buf;
    while (len > 0u) {
        const ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

const fd_lms_io fd_lms_io_posix = {.write_all = posix_write_all, .sync = fsync, .rename = rename};

/* The directory of path, for its fsync after a rename. */
static int open_dir_of(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (slash == NULL) {
        return open(".", O_RDONLY | O_DIRECTORY);
    }
    const size_t len = slash == path ? 1u : (size_t)(slash - path);
    if (len >= sizeof dir) {
        return -1;
    }
    memcpy(dir, path, len);
    dir[len] = '\0';
    return open(dir, O_RDONLY | O_DIRECTORY);
}

/* path.suffix into buf. */
static bool sibling(char *buf, size_t cap, const char *path, const char *suffix)
{
    const int n = snprintf(buf, cap, "%s%s", path, suffix);
    return n > 0 && (size_t)n < cap;
}

/* Write state to path durably: path.tmp (exclusive), fsync, rename over
 * path, fsync the directory. */
static fd_status write_state(const char *path, const fd_lms_key *key, const fd_lms_io *io, bool replace)
{
    char tmp[4096];
    if (!sibling(tmp, sizeof tmp, path, ".tmp")) {
        return FD_ERR_TOO_LARGE;
    }
    if (!replace && access(path, F_OK) == 0) {
        return FD_ERR_STATE;
    }
    uint8_t buf[FD_LMS_STATE_SIZE];
    fd_lms_key_encode(key, buf);
    (void)unlink(tmp); /* a leftover of a signer that died here; we hold the lock */
    const int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    fd_status st = fd < 0 ? FD_ERR_STATE : FD_OK;
    if (st == FD_OK && (io->write_all(fd, buf, sizeof buf) != 0 || io->sync(fd) != 0)) {
        st = FD_ERR_STATE;
    }
    if (fd >= 0 && close(fd) != 0) {
        st = FD_ERR_STATE;
    }
    if (st == FD_OK && !replace && access(path, F_OK) == 0) {
        st = FD_ERR_STATE;
    }
    if (st == FD_OK && io->rename(tmp, path) != 0) {
        st = FD_ERR_STATE;
    }
    if (st != FD_OK) {
        (void)unlink(tmp);
    } else {
        const int dfd = open_dir_of(path);
        if (dfd < 0 || io->sync(dfd) != 0) {
            st = FD_ERR_STATE; /* renamed, maybe not durable: release nothing */
        }
        if (dfd >= 0) {
            (void)close(dfd);
        }
    }
    fd_wipe(buf, sizeof buf);
    return st;
}

static int lock_state(const char *path)
{
    char lock[4096];
    if (!sibling(lock, sizeof lock, path, ".lock")) {
        return -1;
    }
    const int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0 && flock(fd, LOCK_EX) != 0) {
        (void)close(fd);
        return -1;
    }
    return fd;
}

fd_status fd_lms_state_create(const char *path, const fd_lms_key *key, const fd_lms_io *io)
{
    const int lock = lock_state(path);
    if (lock < 0) {
        return FD_ERR_STATE;
    }
    const fd_status st = write_state(path, key, io, false);
    (void)close(lock);
    return st;
}

static fd_status read_state(const char *path, fd_lms_key *key)
{
    uint8_t buf[FD_LMS_STATE_SIZE + 1u];
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return FD_ERR_STATE;
    }
    const size_t n = fread(buf, 1, sizeof buf, f);
    (void)fclose(f);
    fd_status st = n == FD_LMS_STATE_SIZE ? fd_lms_key_decode(buf, key) : FD_ERR_CORRUPT;
    fd_wipe(buf, sizeof buf);
    return st;
}

fd_status fd_lms_state_reserve(const char *path, const fd_lms_io *io, fd_lms_key *key, uint64_t *idx)
{
    const int lock = lock_state(path);
    if (lock < 0) {
        return FD_ERR_STATE;
    }
    fd_status st = read_state(path, key);
    if (st == FD_OK && key->next >= fd_lms_key_capacity(key)) {
        st = FD_ERR_EXHAUSTED;
    }
    if (st == FD_OK) {
        *idx = key->next;
        key->next++;
        st = write_state(path, key, io, true);
    }
    (void)close(lock);
    if (st != FD_OK) {
        fd_wipe(key, sizeof *key);
    }
    return st;
}

fd_status fd_lms_sign_file(const char *path, const fd_lms_io *io, const uint8_t *msg, size_t msg_len, uint8_t *sig,
                           size_t sig_cap, size_t *sig_len)
{
    fd_lms_key key;
    uint64_t idx = 0;
    *sig_len = 0;
    fd_status st = fd_lms_state_reserve(path, io, &key, &idx);
    if (st == FD_OK) {
        st = fd_lms_sign_index(&key, idx, msg, msg_len, sig, sig_cap, sig_len);
    }
    fd_wipe(&key, sizeof key);
    return st;
}

/* ---- subcommands ---- */

static int spill(const char *path, const uint8_t *buf, size_t len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    if (f == NULL) {
        fprintf(stderr, "fairdeal-tool: cannot write '%s'\n", path);
        return 1;
    }
    const bool ok = fwrite(buf, 1, len, f) == len;
    const bool closed = f == stdout ? fflush(f) == 0 : fclose(f) == 0;
    if (!ok || !closed) {
        fprintf(stderr, "fairdeal-tool: cannot write '%s'\n", path);
        return 1;
    }
    return 0;
}

/* "h10w4" -> typecodes */
static bool parse_set(const char *s, uint32_t *lms_type, uint32_t *ots_type)
{
    unsigned h = 0, w = 0;
    char tail = 0;
    if (sscanf(s, "h%uw%u%c", &h, &w, &tail) != 2) {
        return false;
    }
    *lms_type = h == 5u    ? FD_LMS_SHA256_M32_H5
                : h == 10u ? FD_LMS_SHA256_M32_H10
                : h == 15u ? FD_LMS_SHA256_M32_H15
                           : 0u;
    *ots_type = w == 1u   ? FD_LMOTS_SHA256_N32_W1
                : w == 2u ? FD_LMOTS_SHA256_N32_W2
                : w == 4u ? FD_LMOTS_SHA256_N32_W4
                : w == 8u ? FD_LMOTS_SHA256_N32_W8
                          : 0u;
    return *lms_type != 0u && *ots_type != 0u;
}

int fd_tool_lms_keygen(int argc, char **argv)
{
    static const char *const known[] = {"--key", "--pub", "--set", "--seed", "--id", NULL};
    const char *key_path = fd_tool_need(argc, argv, "--key", known);
    const char *pub_path = fd_tool_need(argc, argv, "--pub", known);
    const char *set = fd_tool_opt(argc, argv, "--set", known);
    const char *seed_hex = fd_tool_opt(argc, argv, "--seed", known);
    const char *id_hex = fd_tool_opt(argc, argv, "--id", known);
    fd_lms_key key;
    memset(&key, 0, sizeof key);
    char sets[64];
    if (set == NULL) {
        set = "h10w4";
    }
    if (strlen(set) >= sizeof sets) {
        fd_tool_usage("--set '%s': too long", set);
    }
    strcpy(sets, set);
    char *second = strchr(sets, ',');
    if (second != NULL) {
        *second++ = '\0';
    }
    key.levels = second == NULL ? 1u : 2u;
    if (!parse_set(sets, &key.lms_type[0], &key.ots_type[0]) ||
        (second != NULL && !parse_set(second, &key.lms_type[1], &key.ots_type[1]))) {
        fd_tool_usage("--set '%s': use hHwW[,hHwW] with H in 5, 10, 15 and W in 1, 2, 4, 8", set);
    }
    size_t len = 0;
    if ((seed_hex == NULL) != (id_hex == NULL)) {
        fd_tool_usage("%s", "--seed and --id go together (tests only; default: fresh from getrandom)");
    }
    if (seed_hex != NULL) {
        if (fd_hex_decode(seed_hex, strlen(seed_hex), key.seed, sizeof key.seed, &len) != FD_OK ||
            len != sizeof key.seed) {
            fd_tool_usage("--seed '%s': 64 hex digits", seed_hex);
        }
        if (fd_hex_decode(id_hex, strlen(id_hex), key.I, sizeof key.I, &len) != FD_OK || len != sizeof key.I) {
            fd_tool_usage("--id '%s': 32 hex digits", id_hex);
        }
    } else if (getrandom(key.seed, sizeof key.seed, 0) != (ssize_t)sizeof key.seed ||
               getrandom(key.I, sizeof key.I, 0) != (ssize_t)sizeof key.I) {
        fputs("fairdeal-tool: getrandom failed\n", stderr);
        return 1;
    }
    uint8_t pub[FD_HSS_PUB_SIZE];
    fd_status st = fd_lms_key_public(&key, pub);
    if (st == FD_OK) {
        st = fd_lms_state_create(key_path, &key, &fd_lms_io_posix);
    }
    fd_wipe(&key, sizeof key);
    if (st != FD_OK) {
        fprintf(stderr, "fairdeal-tool: lms-keygen: cannot create '%s' (it must not exist): %s\n", key_path,
                fd_status_name(st));
        return 1;
    }
    return spill(pub_path, pub, sizeof pub);
}

int fd_tool_lms_sign(int argc, char **argv)
{
    static const char *const known[] = {"--key", "--in", "--out", NULL};
    const char *key_path = fd_tool_need(argc, argv, "--key", known);
    const char *in = fd_tool_need(argc, argv, "--in", known);
    const char *out = fd_tool_need(argc, argv, "--out", known);
    size_t msg_len = 0;
    uint8_t *msg = fd_tool_slurp(in, LMS_FILE_MAX, &msg_len);
    static uint8_t sig[FD_LMS_SIGN_MAX_SIG];
    size_t sig_len = 0;
    const fd_status st = fd_lms_sign_file(key_path, &fd_lms_io_posix, msg, msg_len, sig, sizeof sig, &sig_len);
    free(msg);
    if (st != FD_OK) {
        fprintf(stderr, "fairdeal-tool: lms-sign: no signature: %s\n", fd_status_name(st));
        return 1;
    }
    return spill(out, sig, sig_len);
}

int fd_tool_lms_verify(int argc, char **argv)
{
    static const char *const known[] = {"--pub", "--in", "--sig", NULL};
    const char *pub_path = fd_tool_need(argc, argv, "--pub", known);
    const char *in = fd_tool_need(argc, argv, "--in", known);
    const char *sig_path = fd_tool_need(argc, argv, "--sig", known);
    size_t pub_len = 0, msg_len = 0, sig_len = 0;
    uint8_t *pub = fd_tool_slurp(pub_path, LMS_FILE_MAX, &pub_len);
    uint8_t *sig = fd_tool_slurp(sig_path, LMS_FILE_MAX, &sig_len);
    uint8_t *msg = fd_tool_slurp(in, LMS_FILE_MAX, &msg_len);
    const fd_status st = fd_hss_verify(pub, pub_len, msg, msg_len, sig, sig_len);
    free(pub);
    free(sig);
    free(msg);
    if (st != FD_OK) {
        fprintf(stderr, "fairdeal-tool: lms-verify: %s\n", fd_status_name(st));
        return 1;
    }
    puts("OK");
    return 0;
}
