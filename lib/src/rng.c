#include "fairdeal/rng.h"

#include "fairdeal/util.h"
#include "word.h"

fd_status fd_rng_u32(const fd_rng *rng, uint32_t *out)
{
    if (rng == NULL || rng->fill == NULL || out == NULL) {
        return FD_ERR_NULL;
    }
    uint8_t b[4];
    const fd_status st = rng->fill(rng->ctx, b, sizeof b);
    if (st == FD_OK) {
        *out = fd_load_le32(b);
    }
    fd_wipe(b, sizeof b); /* a random word is a secret: none left on the stack */
    return st;
}
