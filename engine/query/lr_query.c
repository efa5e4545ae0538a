/* lr_query.c — longest repeats for one position or one interval, and the other
 * occurrences of a repeat (explorer panes).
 *
 * Interval queries follow Xu (arXiv 1511.02393): a longest repeat covering all of
 * [a, b) can be extended to the right without losing coverage, so it is an LLR_i
 * with i <= a and end(i) >= b; a useless LLR lies inside a longer useful one that
 * also covers [a, b), so only LLRc entries matter.  As starts and ends both
 * increase along LLRc, those entries form one run found by a binary search; the
 * point query is the interval [k, k+1).  Without LLRc the raw walk of Tian & Xu
 * (Alg. 3) runs leftwards from a over L, read from RV_SEC_LLR or from LCP/ISA.
 */
#include "repview/common.h"
#include "repview/lce.h"
#include "lr_internal.h"

#define OCC_SCAN 256 /* LCP steps tried before switching to binary search */

void rv_lr_src_init(rv_lr_src_t *s, const rv_index_t *x)
{
    uint64_t bytes = 0, w = x->wide ? 8 : 4;
    s->x = x;
    s->wide = x->wide;
    s->has_llr = rv_lr_llr_view(x, &s->llr);
    s->llrc = rv_index_section(x, RV_SEC_LLRC, &bytes);
    s->m = s->llrc ? bytes / w : 0;
    if (s->llrc && (bytes % w || s->m > x->n)) s->llrc = NULL, s->m = 0;
}

/* Compact: the run of LLRc entries with start <= a and end >= b. */
static uint64_t interval_compact(const rv_lr_src_t *s, uint64_t a, uint64_t b, rv_lr_t *out,
                                 uint64_t cap)
{
    uint64_t j0 = rv_llrc_first_ending_after(s, b - 1), best = 0, cnt = 0;
    for (uint64_t j = j0; j < s->m && rv_llrc_start(s, j) <= a; j++)
        if (rv_llrc_len(s, j) > best) best = rv_llrc_len(s, j);
    if (!best) return 0;
    for (uint64_t j = j0; j < s->m && rv_llrc_start(s, j) <= a; j++) {
        if (rv_llrc_len(s, j) != best) continue;
        if (cnt < cap) out[cnt] = (rv_lr_t){rv_llrc_start(s, j), best};
        cnt++;
    }
    return cnt;
}

/* Raw: walk left from a while end(i) >= b (ends never decrease). */
static uint64_t interval_raw(const rv_lr_src_t *s, uint64_t a, uint64_t b, rv_lr_t *out,
                             uint64_t cap)
{
    uint64_t best = 0, cnt = 0, i, L;
    for (i = a + 1; i-- > 0 && i + (L = rv_lr_src_L(s, i)) >= b;)
        if (L > best) best = L;
    if (!best) return 0;
    for (i = a + 1; i-- > 0 && i + (L = rv_lr_src_L(s, i)) >= b;) cnt += L == best;
    uint64_t d = 0; /* found in decreasing start order: fill from the back */
    for (i = a + 1; i-- > 0 && d < cnt && i + (L = rv_lr_src_L(s, i)) >= b;) {
        if (L != best) continue;
        uint64_t at = cnt - 1 - d++;
        if (at < cap) out[at] = (rv_lr_t){i, best};
    }
    return cnt;
}

uint64_t rv_lr_interval(const rv_index_t *x, uint64_t a, uint64_t b, rv_lr_t *out, uint64_t cap)
{
    if (a >= b || b > x->n) return 0;
    rv_lr_src_t s;
    rv_lr_src_init(&s, x);
    if (!out) cap = 0;
    return s.llrc ? interval_compact(&s, a, b, out, cap) : interval_raw(&s, a, b, out, cap);
}

uint64_t rv_lr_at(const rv_index_t *x, uint64_t k, rv_lr_t *out, uint64_t cap)
{
    return rv_lr_interval(x, k, k + 1, out, cap);
}

uint64_t rv_lr_llrs_covering(const rv_index_t *x, uint64_t k, rv_lr_t *out, uint64_t cap)
{
    if (k >= x->n) return 0;
    rv_lr_src_t s;
    rv_lr_src_init(&s, x);
    if (!out) cap = 0;
    uint64_t cnt = 0;
    if (s.llrc) {
        for (uint64_t j = rv_llrc_first_ending_after(&s, k); j < s.m && rv_llrc_start(&s, j) <= k; j++, cnt++)
            if (cnt < cap) out[cnt] = (rv_lr_t){rv_llrc_start(&s, j), rv_llrc_len(&s, j)};
        return cnt;
    }
    uint64_t i = k + 1, L, first; /* leftwards to the first LLR that misses k */
    while (i > 0 && (i - 1) + rv_lr_src_L(&s, i - 1) > k) i--;
    first = i;
    for (i = first; i <= k; i++) { /* the usefulness rule of lr.h */
        L = rv_lr_src_L(&s, i);
        if (L == 0 || (i > 0 && L < rv_lr_src_L(&s, i - 1))) continue;
        if (cnt < cap) out[cnt] = (rv_lr_t){i, L};
        cnt++;
    }
    return cnt;
}

static int has_prefix(const rv_index_t *x, uint64_t r, uint64_t start, uint64_t len)
{
    return rv_lce_scan(x->seq, rv_sa(x, r), start) >= len;
}

void rv_lr_occurrences(const rv_index_t *x, uint64_t start, uint64_t len, uint64_t *lo,
                       uint64_t *hi)
{
    uint64_t r = rv_isa(x, start), a = r, b = r + 1, steps;
    /* the ranks sharing the prefix are one block around r: scan LCP a little, then
     * binary search the rest (frequent short repeats have huge blocks) */
    for (steps = 0; a > 0 && rv_lcp(x, a) >= len && steps < OCC_SCAN; steps++) a--;
    if (a > 0 && rv_lcp(x, a) >= len) {
        uint64_t l = 0, h = a; /* first rank in [0, a] with the prefix */
        while (l < h) {
            uint64_t mid = l + (h - l) / 2;
            if (has_prefix(x, mid, start, len)) h = mid; else l = mid + 1;
        }
        a = l;
    }
    for (steps = 0; b < x->n && rv_lcp(x, b) >= len && steps < OCC_SCAN; steps++) b++;
    if (b < x->n && rv_lcp(x, b) >= len) {
        uint64_t l = b, h = x->n; /* first rank in [b, n) without it */
        while (l < h) {
            uint64_t mid = l + (h - l) / 2;
            if (has_prefix(x, mid, start, len)) l = mid + 1; else h = mid;
        }
        b = l;
    }
    *lo = a;
    *hi = b;
}

uint64_t rv_llrc_first_ending_after(const rv_lr_src_t *c, uint64_t k)
{
    /* Binary search on the starts alone (one array read per probe; the lengths live
     * in the raw array at each start), then back over the entries that start at or
     * before k while they still reach past k: they are the ones covering k, few.
     * Ends increase with the entries, so the first that ends at or before k stops it.
     * A plain branchy search: neighbouring positions take the same path. */
    uint64_t lo = 0, hi = c->m;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (rv_llrc_start(c, mid) <= k) lo = mid + 1; else hi = mid;
    }
    while (lo > 0 && rv_llrc_start(c, lo - 1) + rv_llrc_len(c, lo - 1) > k) lo--;
    return lo;
}

uint64_t rv_lr_forward_llr(const rv_index_t *x, uint64_t i)
{
    if (i >= x->n || x->seq->text[i] == RV_BREAK) return 0;
    if (x->seq->strands != 2) return rv_llr_of(x, i);
    const uint64_t nf = x->seq->nf, r = rv_isa(x, i);
    uint64_t best = 0, m = UINT64_MAX;
    /* the nearest forward suffix on each side: the LCP with it is the minimum of
     * the LCPs in between (stop once that cannot beat what the other side gave) */
    for (uint64_t q = r; q > 0; q--) {
        uint64_t l = rv_lcp(x, q);
        if (l < m) m = l;
        if (m == 0) break;
        if (rv_sa(x, q - 1) < nf) { best = m; break; }
    }
    m = UINT64_MAX;
    for (uint64_t q = r + 1; q < x->n; q++) {
        uint64_t l = rv_lcp(x, q);
        if (l < m) m = l;
        if (m <= best) break;
        if (rv_sa(x, q) < nf) { best = m; break; }
    }
    return best;
}

int rv_lr_copy_strands(const rv_index_t *x, uint64_t start, uint64_t len)
{
    if (len == 0 || start + len > x->n) return 0;
    uint64_t lo, hi, nf = rv_seq_fwd_len(x->seq);
    rv_lr_occurrences(x, start, len, &lo, &hi);
    int got = 0;
    for (uint64_t r = lo; r < hi && got != 3; r++) {
        uint64_t p = rv_sa(x, r);
        if (p == start) continue;
        got |= p < nf ? 1 : 2;
    }
    return got;
}
