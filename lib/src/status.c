#include "fairdeal/status.h"

const char *fd_status_name(fd_status status)
{
    switch (status) {
    case FD_OK: return "ok";
    case FD_ERR_NULL: return "null";
    case FD_ERR_EMPTY: return "empty";
    case FD_ERR_TOO_LARGE: return "too-large";
    case FD_ERR_K_GT_N: return "k-gt-n";
    case FD_ERR_ELEM_SIZE: return "elem-size";
    case FD_ERR_TOO_FEW: return "too-few";
    case FD_ERR_BOUND: return "bound";
    case FD_ERR_RNG: return "rng";
    case FD_ERR_HEALTH: return "health";
    case FD_ERR_TRNG_HW: return "trng-hw";
    case FD_ERR_TRNG_TIMEOUT: return "trng-timeout";
    case FD_ERR_NOT_READY: return "not-ready";
    case FD_ERR_RESEED_REQUIRED: return "reseed-required";
    case FD_ERR_REQUEST_TOO_LARGE: return "request-too-large";
    case FD_ERR_BUFFER_TOO_SMALL: return "buffer-too-small";
    case FD_ERR_PARSE: return "parse";
    case FD_ERR_STATE: return "state";
    case FD_ERR_EXHAUSTED: return "exhausted";
    case FD_ERR_OVERLAP: return "overlap";
    case FD_ERR_KAT: return "kat";
    case FD_ERR_OVERRUN: return "overrun";
    case FD_ERR_CORRUPT: return "corrupt";
    case FD_ERR_SIGNATURE: return "signature";
    case FD_ERR_AUTH: return "auth";
    }
    return "unknown";
}
