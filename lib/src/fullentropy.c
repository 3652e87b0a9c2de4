#include "fairdeal/fullentropy.h"

#include <stddef.h>

#include "fairdeal/util.h"

_Static_assert(sizeof((fd_fullentropy *)0)->buffer <= UINT8_MAX,
               "buffer_pos is uint8_t and equals the buffer size when empty");

#define TOP_UP_BELOW (1ull << 56) /* m < 2^56 takes one more byte; m stays < 2^64 */

bool fd_fullentropy_split(uint64_t *z, uint64_t *m, uint32_t bound, uint32_t *x)
{
    /* Exact division here is not modulo scaling: z < q*bound covers whole
     * blocks of `bound` values, each residue equally often. */
    const uint64_t q = *m / bound;
    const uint64_t accepted = q * bound;
    if (*z < accepted) {
        *x = (uint32_t)(*z % bound);
        *z /= bound;
        *m = q;
        return true;
    }
    *z -= accepted;
    *m -= accepted;
    return false;
}

fd_status fd_fullentropy_init(fd_fullentropy *fe, const fd_rng *source)
{
    if (fe == NULL || source == NULL || source->fill == NULL) {
        return FD_ERR_NULL;
    }
    fd_wipe(fe, sizeof *fe);
    fe->source = *source;
    fe->buffer_pos = sizeof fe->buffer;
    fe->z = 0;
    fe->m = 1;
    return FD_OK;
}

static fd_status next_byte(fd_fullentropy *fe, uint8_t *byte)
{
    if (fe->buffer_pos >= sizeof fe->buffer) {
        fd_status st = fe->source.fill(fe->source.ctx, fe->buffer, sizeof fe->buffer);
        if (st != FD_OK) {
            return st;
        }
        fe->buffer_pos = 0;
    }
    *byte = fe->buffer[fe->buffer_pos];
    fe->buffer[fe->buffer_pos] = 0;
    fe->buffer_pos++;
    return FD_OK;
}

fd_status fd_fullentropy_uniform(fd_fullentropy *fe, uint32_t bound, uint32_t *out)
{
    if (fe == NULL || out == NULL) {
        return FD_ERR_NULL;
    }
    if (bound == 0u) {
        return FD_ERR_BOUND;
    }
    for (;;) {
        while (fe->m < TOP_UP_BELOW) {
            uint8_t byte;
            fd_status st = next_byte(fe, &byte);
            if (st != FD_OK) {
                return st;
            }
            fe->z = (fe->z << 8) | byte;
            fe->m <<= 8;
            fe->bits_used += 8u;
        }
        if (fd_fullentropy_split(&fe->z, &fe->m, bound, out)) {
            return FD_OK;
        }
    }
}

static fd_status fe_uniform(void *ctx, uint32_t bound, uint32_t *out)
{
    return fd_fullentropy_uniform(ctx, bound, out);
}

static fd_status fe_fill(void *ctx, uint8_t *buf, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        uint32_t v;
        fd_status st = fd_fullentropy_uniform(ctx, 256u, &v);
        if (st != FD_OK) {
            return st;
        }
        buf[i] = (uint8_t)v;
    }
    return FD_OK;
}

fd_rng fd_fullentropy_rng(fd_fullentropy *fe) { return (fd_rng){fe_fill, fe, fe_uniform}; }

void fd_fullentropy_clear(fd_fullentropy *fe)
{
    if (fe != NULL) {
        fd_wipe(fe->buffer, sizeof fe->buffer);
        fe->buffer_pos = sizeof fe->buffer;
        fe->z = 0;
        fe->m = 1;
    }
}
