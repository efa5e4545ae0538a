/* repeats_cursor.c — the maximal repeats with an occurrence over one position,
 * for the explorer's "repeat families here" (repeats.h rv_repeats_covering).
 *
 * A repeat covering t starts at some s <= t and is at least t - s + 1 long.  The
 * suffix at s is climbed up its LCP intervals (Abouelhoda et al.'s child
 * intervals, found by widening [lo, hi] while the LCPs at its ends reach the
 * current depth) as long as the depth reaches t; each interval whose left
 * symbols are mixed is a maximal repeat.  When the suffix at s has no repeat
 * reaching t, no suffix left of it has one either (the tail of such a repeat
 * would be one from s), so the walk stops there. */
#include <stdlib.h>
#include "repview/common.h"
#include "repview/repeats.h"
#include "base/internal.h"
#include "pairs_internal.h" /* pf_left_class */

static uint64_t lcp_at(const rv_index_t *x, uint64_t r) { return r < x->n ? rv_lcp(x, r) : 0; }

/* Depth of the parent interval of [lo, hi]: the larger LCP at its two ends. */
static uint64_t parent_depth(const rv_index_t *x, uint64_t lo, uint64_t hi)
{
    uint64_t a = lo ? lcp_at(x, lo) : 0, b = lcp_at(x, hi + 1);
    return a > b ? a : b;
}

static int seen(const rv_families_t *f, uint64_t rank, uint64_t len)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->v[i].rank == rank && f->v[i].len == len) return 1;
    return 0;
}

static int family_cmp(const void *a, const void *b)
{
    const rv_family_t *u = a, *v = b;
    if (u->len != v->len) return u->len > v->len ? -1 : 1;
    return u->rank < v->rank ? -1 : u->rank > v->rank;
}

/* The interval [lo, hi] at depth len, holding the suffix at s: add it when its
 * left symbols are mixed.  *work counts the rows read. */
static int consider(const rv_index_t *x, uint64_t lo, uint64_t hi, uint64_t len, uint64_t s, rv_families_t *f,
                    uint64_t *cap, uint64_t *work)
{
    if (seen(f, lo, len)) return 0;
    int c0 = -1, mixed = 0;
    uint64_t first = UINT64_MAX, next = UINT64_MAX;
    for (uint64_t r = lo; r <= hi; r++) {
        uint64_t p = rv_sa(x, r);
        int c = (int)pf_left_class(x->seq, p);
        if (c == 0 || (c0 >= 0 && c != c0)) mixed = 1;
        c0 = c;
        if (p < first) first = p;
        if (p > s && p < next) next = p;
    }
    *work += hi - lo + 1;
    if (!mixed) return 0;
    if (rv_grow((void **)&f->v, cap, f->n + 1, sizeof *f->v) < 0) return rv_error("repeats", "out of memory");
    f->v[f->n++] = (rv_family_t){len, hi - lo + 1, s, next != UINT64_MAX ? next : first, lo};
    return 0;
}

int rv_repeats_covering(const rv_index_t *x, uint64_t min_len, uint64_t t, uint64_t max_work,
                        rv_families_t *out)
{
    *out = (rv_families_t){NULL, 0, 1};
    if (min_len < 1) return rv_error("repeats", "the minimum length must be >= 1");
    if (t >= x->n) return rv_error("repeats", "position %llu is outside the text", (unsigned long long)t);
    uint64_t cap = 0, work = 0;
    const uint8_t *text = x->seq->text;
    for (uint64_t s = t + 1; s-- > 0 && text[s] != RV_BREAK;) {
        uint64_t need = t - s + 1 > min_len ? t - s + 1 : min_len;
        uint64_t r = rv_isa(x, s), lo = r, hi = r;
        uint64_t depth = parent_depth(x, lo, hi);
        if (depth < t - s + 1) break; /* nothing from here or further left reaches t */
        for (; depth >= need && depth > 0; depth = parent_depth(x, lo, hi)) {
            while (lo > 0 && lcp_at(x, lo) >= depth) lo--;
            while (hi + 1 < x->n && lcp_at(x, hi + 1) >= depth) hi++;
            if (max_work && work + (hi - lo + 1) > max_work) {
                out->complete = 0;
                goto done;
            }
            if (consider(x, lo, hi, depth, s, out, &cap, &work) < 0) {
                rv_families_free(out);
                return -1;
            }
        }
    }
done:
    if (out->n) qsort(out->v, out->n, sizeof *out->v, family_cmp);
    return 0;
}

void rv_families_free(rv_families_t *f)
{
    free(f->v);
    *f = (rv_families_t){0};
}
