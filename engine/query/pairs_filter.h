/* pairs_filter.h — the gap and range filter of a pair, in line (pairs_filter.c
 * resolves the filter; pairs_internal.h has its type). */
#ifndef REPVIEW_ENGINE_PAIRS_FILTER_H
#define REPVIEW_ENGINE_PAIRS_FILTER_H

#include "pairs_internal.h"

/* Does the pair <p1 < p2, len> pass the gap and range filters? (Length is the
 * caller's business: the traversal only reports intervals of lcp >= min_len.) */
static inline int pf_pass(const pf_filter_t *f, uint64_t p1, uint64_t p2, uint64_t len)
{
    if (f->use_within && (p1 < f->tb || p2 + len > f->te)) return 0;
    return !f->use_gap || pf_pass_gap(f, p1, p2, len);
}

#endif
