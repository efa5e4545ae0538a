/* find_search.c — the matches of a compiled pattern as SA intervals.
 *
 * Exact patterns: binary search over SA with the "mlr" acceleration of Manber &
 * Myers (1993): while searching, l and r are the lengths of the common prefixes
 * of P with the suffixes at the two bounds, and every comparison starts at
 * min(l, r), so most steps compare O(1) symbols.  Once one matching rank is found
 * the interval's two ends are searched inside the two halves, each inheriting its
 * bound.  This extends the plain binary search of Sahu's thesis §4.3 (Alg. 4.9), which
 * also walks the LCP array outwards over every occurrence; counting here touches
 * none.
 *
 * IUPAC sets and k mismatches: backtracking over SA intervals (the suffix-tree
 * walk of approximate matching, done on the array).  An interval whose suffixes
 * share d symbols splits into children by the symbol at depth d, found by binary
 * search; a child is followed while its mismatch count stays <= k.  Pruning:
 * breakers (code 0) end every branch, an exhausted budget with only single codes
 * left switches to the exact search, and small intervals are verified directly
 * against the text instead of being split further.  (Long patterns with few
 * candidates go through the pigeonhole filter of find_filter.c instead.)
 */
#include <stdlib.h>
#include "repview/common.h"
#include "find_internal.h"

/* Intervals this small are checked suffix by suffix against the text. */
#define VERIFY_MAX 16

uint64_t rv_sa_lower(const rv_index_t *x, uint64_t lo, uint64_t hi, uint64_t d, unsigned c)
{
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (rv_sym(x, mid, d) < c) lo = mid + 1; else hi = mid;
    }
    return lo;
}

typedef struct {
    rv_pattern_t *p;
    const rv_pat_strand_t *s;
    char strand;
} walk_t;

/* Append [lo, hi) to the pattern's ranges, merging with the previous one when
 * adjacent (verification emits single ranks). */
static int emit_range(walk_t *w, uint64_t lo, uint64_t hi, unsigned mism)
{
    rv_pattern_t *p = w->p;
    if (lo >= hi) return 0;
    p->count += hi - lo;
    if (p->n_rng) {
        rv_sa_range_t *last = &p->rng[p->n_rng - 1];
        if (last->hi == lo && last->mism == mism && last->strand == w->strand) {
            last->hi = hi;
            return 0;
        }
    }
    if (p->n_rng == p->cap_rng) {
        size_t cap = p->cap_rng ? p->cap_rng * 2 : 4;
        rv_sa_range_t *r = realloc(p->rng, cap * sizeof *r);
        if (!r) return rv_error("pattern", "out of memory");
        p->rng = r;
        p->cap_rng = cap;
    }
    p->rng[p->n_rng++] = (rv_sa_range_t){lo, hi, (uint16_t)mism, w->strand};
    return 0;
}

/* The matches of ranks [lo, hi).  On an index of both strands a suffix of the
 * reverse half is the reverse complement of a forward match, which the '-'
 * search reports: only the forward suffixes are kept, so no hit comes twice. */
static int emit(walk_t *w, uint64_t lo, uint64_t hi, unsigned mism)
{
    const rv_index_t *x = w->p->x;
    if (x->seq->strands != 2) return emit_range(w, lo, hi, mism);
    for (uint64_t r = lo; r < hi; r++) {
        uint64_t a = r;
        while (r < hi && rv_sa(x, r) < x->seq->nf) r++;
        if (emit_range(w, a, r, mism) < 0) return -1;
    }
    return 0;
}

/* Check each suffix of [lo, hi) from depth d with `used` mismatches so far. */
static int verify_each(walk_t *w, uint64_t lo, uint64_t hi, uint64_t d, unsigned used)
{
    const rv_pattern_t *p = w->p;
    const rv_index_t *x = p->x;
    const uint8_t *text = x->seq->text;
    for (uint64_t r = lo; r < hi; r++) {
        const uint64_t t = rv_sa(x, r);
        unsigned u = used;
        uint64_t i = d;
        if (t + p->m > x->n) continue;
        for (; i < p->m; i++) {
            uint8_t c = text[t + i];
            if (c == 0) break;
            if (!rv_pat_match(w->s, i, c) && ++u > p->k) break;
        }
        if (i == p->m && emit(w, r, r + 1, u) < 0) return -1;
    }
    return 0;
}

/* Matches among the suffixes of [lo, hi), which share their first d symbols with
 * the pattern at a cost of `used` mismatches.  The last viable child continues
 * in the loop, so recursion only happens at real branchings. */
static int backtrack(walk_t *w, uint64_t lo, uint64_t hi, uint64_t d, unsigned used)
{
    const rv_pattern_t *p = w->p;
    const rv_index_t *x = p->x;
    const rv_pat_strand_t *s = w->s;
    for (;;) {
        if (p->cancel && atomic_load_explicit(p->cancel, memory_order_relaxed))
            return rv_error("find", "cancelled");
        if (d == p->m) return emit(w, lo, hi, used);
        if (hi - lo <= VERIFY_MAX) return verify_each(w, lo, hi, d, used);
        if (used == p->k && s->exact_from[d]) {
            uint64_t a, b;
            rv_sa_exact_range(x, s->code, p->m, lo, hi, d, &a, &b);
            return emit(w, a, b, used);
        }
        uint64_t nlo = 0, nhi = 0;
        unsigned nused = 0;
        int have = 0;
        uint64_t a = rv_sa_lower(x, lo, hi, d, 1); /* skip breakers and text ends */
        while (a < hi) {
            uint8_t c = rv_sym(x, a, d);
            uint64_t b = rv_sa_lower(x, a, hi, d, c + 1u);
            unsigned u = used + !rv_pat_match(s, d, c);
            if (u <= p->k) {
                if (have && backtrack(w, nlo, nhi, d + 1, nused) < 0) return -1;
                nlo = a, nhi = b, nused = u, have = 1;
            }
            a = b;
        }
        if (!have) return 0;
        lo = nlo, hi = nhi, used = nused, d++;
    }
}

int rv_find_search(rv_pattern_t *p)
{
    p->n_rng = 0;
    p->n_lst = 0;
    p->count = 0;
    for (int k = 0; k < 2; k++) {
        if (!(p->strand & (k ? RV_STRAND_REV : RV_STRAND_FWD))) continue;
        walk_t w = {p, &p->s[k], k ? '-' : '+'};
        int filtered = rv_find_filter(p, k);
        if (filtered < 0 || (!filtered && backtrack(&w, 0, p->x->n, 0, 0) < 0)) return -1;
    }
    p->searched = 1;
    return 0;
}

int rv_find_ensure(rv_pattern_t *p) { return p->searched ? 0 : rv_find_search(p); }
