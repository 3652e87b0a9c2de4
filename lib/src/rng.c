#include "fairdeal/rng.h"

#include "fairdeal/util.h"
#include "word.h"

fd_status fd_rng_u32(const fd_rng *rng, uint32_t *out)
{
    if (rng == NULL || rng->fill == NULL || out == NULL) {
        return FD_ERR_NULL;
    }
    uint32_t word; /* filled as bytes */
    const fd_status st = rng->fill(rng->ctx, (uint8_t *)&word, sizeof word);
    if (st == FD_OK) {
        *out = fd_load_le32_aligned(&word);
    }
    fd_zero_word(&word); /* a random word is a secret: none left on the stack */
    return st;
}
