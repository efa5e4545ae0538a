/* pairs_sort.h — one pair into a thread's sink, in line (pairs_sort.c makes
 * room; pairs_internal.h has the sink's type). */
#ifndef REPVIEW_ENGINE_PAIRS_SORT_H
#define REPVIEW_ENGINE_PAIRS_SORT_H

#include "pairs_internal.h"

static inline void pf_sink_push(pf_sink_t *k, uint64_t p1, uint64_t p2, uint64_t len)
{
    if (k->n == k->cap && pf_sink_room(k) < 0) return;
    k->buf[k->n++] = (rv_pair_t){p1, p2, len, 0};
}

#endif
