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

/* Random gap and range filters on s: combination `combo` (bit 0 min gap, 1 max
 * gap, 2 within one record).  Needs check.h's rng_t, included before. */
static inline void random_filters_gap_within(rng_t *r, const rv_seq_t *s, int combo, rv_pairs_opts_t *o)
{
    if (combo & 1) o->use_min_gap = 1, o->min_gap = (int64_t)rng_below(r, 20) - 5;
    if (combo & 2) o->use_max_gap = 1, o->max_gap = (int64_t)rng_below(r, 30) - 3;
    if (combo & 4) {
        uint64_t rid = rng_below(r, s->n_rec), len = s->rec[rid].len;
        uint64_t b = rng_below(r, len + 1), e = b + rng_below(r, len - b + 1);
        o->use_within = 1;
        o->within_beg = s->rec[rid].off + b;
        o->within_end = s->rec[rid].off + e;
    }
}

#endif
