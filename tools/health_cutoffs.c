#include "health_cutoffs.h"

#include <math.h>

uint32_t fd_rct_cutoff(double h) { return 1u + (uint32_t)ceil(20.0 / h); }

uint32_t fd_predict_run_cutoff(double h) { return (uint32_t)ceil(20.0 / h); }

uint32_t fd_apt_cutoff(double h, uint32_t window)
{
    const double p = pow(2.0, -h);
    const double alpha = ldexp(1.0, -20);
    /* log pmf of Binomial(W, p), summed from the top tail down: the tail
     * P(X >= c) in log space, so no term underflows. */
    double tail = 0.0;
    for (uint32_t c = window; c >= 1u; c--) {
        double log_pmf =
            lgamma(window + 1.0) - lgamma(c + 1.0) - lgamma(window - c + 1.0) + c * log(p) + (window - c) * log1p(-p);
        double next = tail + exp(log_pmf);
        if (next > alpha) {
            /* P(X >= c) > alpha but P(X >= c+1) <= alpha: c+1 is the cutoff */
            return c + 1u;
        }
        tail = next;
    }
    return 1u;
}
