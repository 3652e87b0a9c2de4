/* fairdeal: the one status enum every fallible function returns. */
#ifndef FAIRDEAL_STATUS_H
#define FAIRDEAL_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* FD_OK is zero so callers can write `if (st != FD_OK)`. Values are stable:
 * they appear in console replies and test logs, so never renumber. */
typedef enum fd_status {
    FD_OK = 0,
    FD_ERR_NULL = 1,               /* a required pointer was NULL */
    FD_ERR_EMPTY = 2,              /* n (or a length) was 0 where 1+ is required */
    FD_ERR_TOO_LARGE = 3,          /* n or a length above the documented maximum */
    FD_ERR_K_GT_N = 4,             /* asked for more items than exist */
    FD_ERR_ELEM_SIZE = 5,          /* element size 0 */
    FD_ERR_TOO_FEW = 6,            /* Sattolo needs n >= 2 */
    FD_ERR_BOUND = 7,              /* bounded integer asked for with bound 0 */
    FD_ERR_RNG = 8,                /* the random source failed (generic) */
    FD_ERR_HEALTH = 9,             /* SP 800-90B health test failed (latched) */
    FD_ERR_TRNG_HW = 10,           /* TRNG hardware reported an error */
    FD_ERR_TRNG_TIMEOUT = 11,      /* TRNG produced no sample in time */
    FD_ERR_NOT_READY = 12,         /* object not initialised / start-up not passed */
    FD_ERR_RESEED_REQUIRED = 13,   /* DRBG reseed counter exhausted */
    FD_ERR_REQUEST_TOO_LARGE = 14, /* DRBG request above the SP 800-90A limit */
    FD_ERR_BUFFER_TOO_SMALL = 15,  /* output buffer cannot hold the result */
    FD_ERR_PARSE = 16,             /* malformed text input */
    FD_ERR_STATE = 17,             /* call not allowed in the current state */
    FD_ERR_EXHAUSTED = 18,         /* no cards left to deal */
    FD_ERR_OVERLAP = 19,           /* source and destination buffers overlap */
    FD_ERR_KAT = 20,               /* a known-answer self-test failed */
    FD_ERR_OVERRUN = 21,           /* received bytes were lost (buffer or hardware overrun) */
    FD_ERR_CORRUPT = 22,           /* stored or in-memory state failed its integrity check */
    FD_ERR_SIGNATURE = 23,         /* a well-formed signature that does not verify */
    FD_ERR_AUTH = 24               /* a message failed authentication (forged, replayed, reordered) */
} fd_status;

/**
 * @brief Marks a function whose fd_status result must not be ignored.
 *
 * Expands to warn_unused_result on clang only: GCC also warns when the result
 * is cast to (void), so a deliberate, commented `(void)fd_x(...)` would break
 * GCC -Werror builds. Clang honours the (void) cast, and clang checks every
 * caller: the host-sanitize preset builds all host code and tests with clang
 * -Werror, and scripts/lint.sh runs clang-tidy over every board's sources.
 * A deliberately ignored status is written `(void)fd_x(...);` with a one-line
 * reason next to it.
 */
#if defined(__clang__)
#define FD_MUST_CHECK __attribute__((warn_unused_result))
#else
#define FD_MUST_CHECK
#endif

/* A compile-time check that public headers can use from C11 and from C++11
 * (C++ has no _Static_assert keyword). */
#ifdef __cplusplus
#define FD_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define FD_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* The last status value; tests walk 0..FD_STATUS_LAST. */
#define FD_STATUS_LAST FD_ERR_AUTH

/* Short, stable, lowercase name of a status ("ok", "null", ...); never NULL. */
const char *fd_status_name(fd_status status);

#ifdef __cplusplus
}
#endif

#endif
