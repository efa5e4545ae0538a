/* find_internal.h — the compiled pattern and the SA-interval primitives shared by
 * find_*.c and overlap.c (not part of the public API). */
#ifndef REPVIEW_ENGINE_FIND_INTERNAL_H
#define REPVIEW_ENGINE_FIND_INTERNAL_H

#include "repview/find.h"

/* Ranks [lo, hi) of the SA whose suffixes match with `mism` mismatches. */
typedef struct {
    uint64_t lo, hi;
    uint16_t mism;
    char strand;
} rv_sa_range_t;

/* One strand of a compiled pattern: per position either a single code (code[i]
 * != 0) or a set of codes (mask[i], bit c set when code c matches). */
typedef struct {
    uint8_t *code;
    uint32_t *mask;
    uint8_t *exact_from; /* exact_from[i] = 1: positions i..m-1 are all single codes */
} rv_pat_strand_t;

struct rv_pattern {
    const rv_index_t *x;
    size_t m;
    unsigned k;
    rv_strand_t strand;
    rv_pat_strand_t s[2]; /* [0] '+', [1] '-' (reverse complement) */
    rv_sa_range_t *rng;   /* matches as SA intervals, disjoint per strand */
    size_t n_rng, cap_rng;
    rv_hit_t *lst;        /* matches found by the k-mismatch filter (unsorted) */
    uint64_t n_lst, cap_lst;
    uint64_t filter_max;  /* most candidates the filter verifies (0 = never filter) */
    const _Atomic int *cancel; /* rv_find_set_cancel() */
    uint64_t count;
    int searched;         /* rng/count are valid */
    rv_hit_t *cache;      /* all hits sorted, built on first use when count is small */
    int cached;
    uint64_t cache_max;   /* RV_FIND_CACHE_MAX (tests lower it to cover the scans) */
};

/* Above this many hits a pattern keeps no sorted copy: pages and next/prev scan
 * its SA intervals instead (O(count) per call, no memory). */
#define RV_FIND_CACHE_MAX (1u << 22)

/* Symbol at depth d of the suffix of rank r (0 = breaker or end of text). */
static inline uint8_t rv_sym(const rv_index_t *x, uint64_t r, uint64_t d)
{
    uint64_t t = rv_sa(x, r) + d;
    return t < x->n ? x->seq->text[t] : 0;
}

/* Does text code c match pattern position i?  Breakers (0) never match. */
static inline int rv_pat_match(const rv_pat_strand_t *s, size_t i, uint8_t c)
{
    if (c == 0) return 0;
    return s->code[i] ? s->code[i] == c : c < 32 && (s->mask[i] >> c & 1);
}

/* First rank r in [lo, hi) with rv_sym(r, d) >= c (hi when none); the suffixes
 * of [lo, hi) must share their first d symbols, so the symbols at depth d are
 * sorted. */
uint64_t rv_sa_lower(const rv_index_t *x, uint64_t lo, uint64_t hi, uint64_t d, unsigned c);

/* Interval [*a, *b) of the suffixes in [lo, hi) (all sharing their first d
 * symbols with the pattern) that start with code[0, m): mlr binary search. */
void rv_sa_exact_range(const rv_index_t *x, const uint8_t *code, uint64_t m, uint64_t lo, uint64_t hi,
                       uint64_t d, uint64_t *a, uint64_t *b);

/* Default of rv_pattern.filter_max. */
#define RV_FIND_FILTER_MAX 1024

/* k mismatches on strand s (0 '+', 1 '-') by the pigeonhole filter, appending to
 * p->lst: 1 done, 0 not worth it here (the caller backtracks), -1 memory. */
int rv_find_filter(rv_pattern_t *p, int s);

/* Find the SA intervals of p (fills p->rng, p->count).  0 or -1 (memory). */
int rv_find_search(rv_pattern_t *p);
/* rv_find_search() once. */
int rv_find_ensure(rv_pattern_t *p);

/* Hits given as SA ranges plus an explicit list (filtered matches). */
typedef struct {
    const rv_index_t *x;
    const rv_sa_range_t *rng;
    size_t n_rng;
    const rv_hit_t *lst;
    uint64_t n_lst;
} rv_hit_src_t;

/* The max smallest hits (in (pos, strand) order) with pos >= from, sorted into
 * out; returns how many. */
int64_t rv_hits_first(const rv_hit_src_t *src, uint64_t from, rv_hit_t *out, size_t max);


#endif
