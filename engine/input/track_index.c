/* track_index.c — intervals sorted by start with a running maximum of the ends
 * (track_index.h).  A query is a binary search for the first interval starting at
 * or after the window's end, then a scan backwards that keeps the intervals
 * reaching into the window and stops at the first position whose running maximum
 * end does not: no interval before it can overlap. */
#include <stdlib.h>
#include "track_index.h"

static uint64_t end_of(const track_iv_t *v) { return v->end > v->beg ? v->end : v->beg + 1; }

int track_index_build(track_index_t *x, const track_iv_t *iv, size_t n)
{
    x->iv = iv;
    x->n = n;
    x->max_end = malloc((n ? n : 1) * sizeof *x->max_end);
    if (!x->max_end) return -1;
    for (size_t i = 0; i < n; i++) {
        uint64_t e = end_of(&iv[i]);
        x->max_end[i] = i && iv[i - 1].rid == iv[i].rid && x->max_end[i - 1] > e ? x->max_end[i - 1] : e;
    }
    return 0;
}

void track_index_free(track_index_t *x)
{
    free(x->max_end);
    x->max_end = NULL;
    x->n = 0;
}

size_t track_index_lower(const track_index_t *x, uint32_t rid, uint64_t beg)
{
    size_t lo = 0, hi = x->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const track_iv_t *v = &x->iv[mid];
        if (v->rid < rid || (v->rid == rid && v->beg < beg)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

size_t track_index_query(const track_index_t *x, uint32_t rid, uint64_t beg, uint64_t end, size_t **buf,
                         size_t *cap)
{
    if (end <= beg) return 0;
    size_t hi = track_index_lower(x, rid, end), k = 0; /* [.., hi): starting before end */
    for (size_t i = hi; i-- > 0;) {
        if (x->iv[i].rid != rid || x->max_end[i] <= beg) break;
        if (end_of(&x->iv[i]) <= beg) continue;
        if (k == *cap) {
            size_t c = *cap ? *cap * 2 : 64, *b = realloc(*buf, c * sizeof *b);
            if (!b) return (size_t)-1;
            *buf = b;
            *cap = c;
        }
        (*buf)[k++] = i;
    }
    for (size_t a = 0, b = k; a + 1 < b; a++, b--) { /* found backwards: ascending order */
        size_t t = (*buf)[a];
        (*buf)[a] = (*buf)[b - 1];
        (*buf)[b - 1] = t;
    }
    return k;
}
