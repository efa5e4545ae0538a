/* pairs_list.h — a growing list of maximal pairs for the pair tests (t_pairs,
 * t_strands, t_buckets): filled by the engine's callbacks, compared with an oracle. */
#ifndef REPVIEW_TESTS_PAIRS_LIST_H
#define REPVIEW_TESTS_PAIRS_LIST_H

#include <stdlib.h>
#include "repview/pairs.h"

typedef struct {
    rv_pair_t *a;
    size_t n, cap;
} plist_t;

static inline void plist_add(plist_t *l, rv_pair_t p)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->a = realloc(l->a, l->cap * sizeof *l->a);
    }
    l->a[l->n++] = p;
}

/* rv_pair_fn: append one pair */
static inline int collect(void *ud, const rv_pair_t *p)
{
    plist_add(ud, *p);
    return 0;
}

#endif
