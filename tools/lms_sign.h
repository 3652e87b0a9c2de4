/* fairdeal-tool's LMS/HSS signer (RFC 8554) and its key state file; the
 * lms-keygen, lms-sign and lms-verify subcommands. Host only. The rules
 * (docs/SECURITY.md "Signed firmware"): the state file's next one-time-key
 * index is advanced and made durable (new file, fsync, atomic rename,
 * directory fsync, all under an exclusive lock) before a signature is
 * computed; any failure on that path yields no signature; so no index is
 * ever released twice from one state file. */
#ifndef FAIRDEAL_TOOL_LMS_SIGN_H
#define FAIRDEAL_TOOL_LMS_SIGN_H

#include <stddef.h>
#include <stdint.h>

#include "fairdeal/lms.h"
#include "fairdeal/status.h"

/* Bytes of a key state file. */
#define FD_LMS_STATE_SIZE 116u
/* Levels the signer makes (the verifier takes up to FD_HSS_MAX_LEVELS). */
#define FD_LMS_SIGN_MAX_LEVELS 2u
/* Largest signature the signer makes (two levels of H15/W1). */
#define FD_LMS_SIGN_MAX_SIG (4u + 2u * FD_LMS_SIG_SIZE(FD_LMOTS_P_W1, 15u) + FD_LMS_PUB_SIZE)

/* A private key: parameter sets per level, the root's I and SEED, and the
 * next unused one-time-key index (over all levels: top q * 2^h_bottom +
 * bottom q). A two-level key's child tree under top leaf t has
 * I' = the first 16 bytes of H(I || u32str(t) || u16str(0xffff) ||
 * u8str(0xff) || SEED) and SEED' = H(I || u32str(t) || u16str(0xfffe) ||
 * u8str(0xff) || SEED): apart from each other and from every leaf's
 * (u16str(i) < p) and randomizer's (0xfffd) derivation, so the child's
 * public I tells nothing of its SEED'. */
typedef struct fd_lms_key {
    uint32_t levels;
    uint32_t lms_type[FD_LMS_SIGN_MAX_LEVELS];
    uint32_t ots_type[FD_LMS_SIGN_MAX_LEVELS];
    uint8_t I[FD_LMS_I_SIZE];
    uint8_t seed[FD_LMS_N];
    uint64_t next;
} fd_lms_key;

/* The codec pair of the state file (magic, fields, SHA-256 of the rest).
 * decode errors: FD_ERR_CORRUPT (bad magic or checksum), FD_ERR_PARSE
 * (levels or typecodes the signer does not make). */
void fd_lms_key_encode(const fd_lms_key *key, uint8_t out[FD_LMS_STATE_SIZE]);
fd_status fd_lms_key_decode(const uint8_t in[FD_LMS_STATE_SIZE], fd_lms_key *key);

/* Signatures a key can make in all (the product of the levels' 2^h). */
uint64_t fd_lms_key_capacity(const fd_lms_key *key);

/* The HSS public key (FD_HSS_PUB_SIZE bytes) of key. Builds the top tree. */
fd_status fd_lms_key_public(const fd_lms_key *key, uint8_t pub[FD_HSS_PUB_SIZE]);

/* One LMS tree from (I, SEED) as RFC 8554 Appendix A derives its one-time
 * keys; root and, with path != NULL, the authentication path of leaf q. */
fd_status fd_lms_tree(uint32_t lms_type, uint32_t ots_type, const uint8_t I[FD_LMS_I_SIZE],
                      const uint8_t seed[FD_LMS_N], uint32_t q, uint8_t root[FD_LMS_N], uint8_t *path);

/* The LMS signature of msg with leaf q of the tree (I, SEED); C is derived
 * from SEED (no randomness needed, none reused), the first of up to 256
 * randomizers whose digits cost a verifier at most fd_lmots_steps_cap chain
 * steps. FD_ERR_SIGNATURE if none does (a try is over the cap with probability
 * about 7 % at W1, 6 % at W2, 20 % at W4, 26 % at W8: 256 failures are below
 * 1e-150). out holds
 * FD_LMS_SIG_SIZE(p, h) bytes. */
fd_status fd_lms_sign_leaf(uint32_t lms_type, uint32_t ots_type, const uint8_t I[FD_LMS_I_SIZE],
                           const uint8_t seed[FD_LMS_N], uint32_t q, const uint8_t *msg, size_t msg_len, uint8_t *out);

/* The HSS signature of msg under key with one-time-key index idx (no state
 * change: the caller has reserved idx). */
fd_status fd_lms_sign_index(const fd_lms_key *key, uint64_t idx, const uint8_t *msg, size_t msg_len, uint8_t *sig,
                            size_t sig_cap, size_t *sig_len);

/* The file operations the state update uses: the tests inject failures. */
typedef struct fd_lms_io {
    int (*write_all)(int fd, const void *buf, size_t len); /* 0 or -1 */
    int (*sync)(int fd);                                   /* fsync: 0 or -1 */
    int (*rename)(const char *from, const char *to);       /* 0 or -1 */
} fd_lms_io;
extern const fd_lms_io fd_lms_io_posix;

/* Write a new state file (fails if path exists). */
fd_status fd_lms_state_create(const char *path, const fd_lms_key *key, const fd_lms_io *io);

/* Reserve the next index of the state file at path: lock path.lock, read,
 * write next + 1 durably, unlock. Errors: FD_ERR_EXHAUSTED, FD_ERR_CORRUPT,
 * FD_ERR_PARSE, FD_ERR_STATE (any file operation failed: nothing reserved
 * that could be used again; the file is unchanged or advanced). */
fd_status fd_lms_state_reserve(const char *path, const fd_lms_io *io, fd_lms_key *key, uint64_t *idx);

/* Reserve an index, then sign: no signature unless the reservation is
 * durable. */
fd_status fd_lms_sign_file(const char *path, const fd_lms_io *io, const uint8_t *msg, size_t msg_len, uint8_t *sig,
                           size_t sig_cap, size_t *sig_len);

/* The subcommands (argv[1] is the name); exit codes as fairdeal-tool's. */
int fd_tool_lms_keygen(int argc, char **argv);
int fd_tool_lms_sign(int argc, char **argv);
int fd_tool_lms_verify(int argc, char **argv);

#endif
