/* Compiled (never run) by the host.unit.must_check tests: a dropped fd_status
 * must be rejected by clang -Werror, a (void)-cast one accepted, so the
 * FD_MUST_CHECK attribute on the public headers is proven to be in force. */
#include "fairdeal/round.h"

int main(void)
{
    fd_round_seeds seeds;
#ifdef FD_IGNORE_WITH_VOID
    /* deliberately ignored: this file only exercises the attribute */
    (void)fd_round_seeds_clear(&seeds);
#else
    fd_round_seeds_clear(&seeds);
#endif
    return 0;
}
