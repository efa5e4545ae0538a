/* pairs_cursor.c — the maximal pairs of which one copy covers a text position,
 * found from the position's neighbourhood (explorer pane, `pairs --covering`).
 *
 * A copy [s, s + len) covers pos when s <= pos < s + len.  Candidate starts are
 * s = pos, pos - 1, ... inside pos's breaker-free segment while the longest repeat
 * starting at s, LLR(s) = max(LCP[ISA[s]], LCP[ISA[s] + 1]) (Tian & Xu
 * Lemma 1), still reaches pos.  s + LLR(s) never decreases as s grows (a repeat
 * of length h at s gives one of length h - 1 at s + 1), so the first s that falls
 * short ends the scan.
 *
 * For one candidate s (leaf r = ISA[s]) the partners are found bottom-up along the
 * ancestors of r in the LCP-interval tree: grow [lb, rb] around r while the
 * boundary LCP is >= the current level cur; the leaves added at level cur share
 * exactly cur symbols with s and sit in another child than s, so <s, y, cur> is a
 * maximal pair whenever the left characters differ (Gusfield's left-diversity,
 * RACE §3.2).  The next level is the larger boundary LCP.  Levels below
 * max(min_len, pos - s + 1) give copies too short to reach pos and stop the walk.
 * A pair whose two copies both cover pos is met from both ends; it is kept from
 * its smaller start only.
 */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "pairs_internal.h"
#include "pairs_filter.h"

typedef struct {
    rv_pair_t *a;
    size_t n, cap, max; /* max-heap (page order) of the `max` first, or a list */
    uint64_t total;
    int oom, by_len;
} page_acc_t;

/* Page order: (p1, p2), or longest first then (p1, p2). */
static int page_less(int by_len, const rv_pair_t *a, const rv_pair_t *b)
{
    if (by_len && a->len != b->len) return a->len > b->len;
    return pf_pair_less(a, b);
}

static void heap_sift_down(int by_len, rv_pair_t *a, size_t n, size_t i)
{
    for (;;) {
        size_t m = i, l = 2 * i + 1, r = l + 1;
        if (l < n && page_less(by_len, &a[m], &a[l])) m = l;
        if (r < n && page_less(by_len, &a[m], &a[r])) m = r;
        if (m == i) return;
        rv_pair_t t = a[i];
        a[i] = a[m];
        a[m] = t;
        i = m;
    }
}

static void acc_add(page_acc_t *acc, const rv_pair_t *p)
{
    acc->total++;
    if (acc->max == 0) return;
    if (acc->n == acc->cap && (acc->max == RV_PAIRS_ALL || acc->n < acc->max)) {
        size_t c = acc->cap ? 2 * acc->cap : 64;
        if (acc->max != RV_PAIRS_ALL && c > acc->max) c = acc->max;
        rv_pair_t *a = realloc(acc->a, c * sizeof *a);
        if (!a) { acc->oom = 1; return; }
        acc->a = a;
        acc->cap = c;
    }
    if (acc->max == RV_PAIRS_ALL) {
        acc->a[acc->n++] = *p;
    } else if (acc->n < acc->max) {
        size_t i = acc->n++; /* sift up */
        acc->a[i] = *p;
        while (i > 0 && page_less(acc->by_len, &acc->a[(i - 1) / 2], &acc->a[i])) {
            rv_pair_t t = acc->a[i];
            acc->a[i] = acc->a[(i - 1) / 2];
            acc->a[(i - 1) / 2] = t;
            i = (i - 1) / 2;
        }
    } else if (page_less(acc->by_len, p, &acc->a[0])) {
        acc->a[0] = *p;
        heap_sift_down(acc->by_len, acc->a, acc->n, 0);
    }
}

static int pair_cmp(const void *a, const void *b)
{
    return pf_pair_less(a, b) ? -1 : pf_pair_less(b, a);
}

static int pair_cmp_len(const void *a, const void *b)
{
    return page_less(1, a, b) ? -1 : page_less(1, b, a);
}

typedef struct {
    const rv_index_t *x;
    const pf_filter_t *f;
    uint64_t pos, work, max_work;
    page_acc_t acc;
} cursor_t;

/* Leaf k joins s's interval at level len: report <s, SA[k], len> if maximal. */
static void partner(cursor_t *c, uint64_t s, unsigned cs, uint64_t k, uint64_t len)
{
    uint64_t y = rv_sa(c->x, k);
    unsigned cy = pf_left_class(c->x->seq, y);
    if (cy == cs && cs != 0) return;                  /* extensible to the left */
    const pf_filter_t *f = c->f;
    int inv = f->both && y > f->nf;
    if (inv) y = 2 * f->nf + 1 - y - len;             /* the forward copy it reads */
    if (f->want == (inv ? 1 : -1)) return;
    if (y < s && y <= c->pos && c->pos < y + len) return; /* met from y already */
    rv_pair_t p = {s < y ? s : y, s < y ? y : s, len, inv};
    if ((f->use_within || f->use_gap) && !pf_pass(f, p.p1, p.p2, len)) return;
    acc_add(&c->acc, &p);
}

/* Walk the ancestors of leaf r = ISA[s] from level llr down to level need. */
static void walk_up(cursor_t *c, uint64_t s, uint64_t r, uint64_t llr, uint64_t need)
{
    const rv_index_t *x = c->x;
    unsigned cs = pf_left_class(x->seq, s);
    uint64_t lb = r, rb = r, cur = llr;
    while (cur >= need) {
        uint64_t olb = lb, orb = rb;
        while (lb > 0 && rv_lcp(x, lb) >= cur) lb--;
        while (rb + 1 < x->n && rv_lcp(x, rb + 1) >= cur) rb++;
        for (uint64_t k = lb; k < olb; k++) partner(c, s, cs, k, cur);
        for (uint64_t k = orb + 1; k <= rb; k++) partner(c, s, cs, k, cur);
        c->work += (olb - lb) + (rb - orb) + 1;
        if (c->max_work && c->work > c->max_work) return;
        uint64_t a = lb > 0 ? rv_lcp(x, lb) : 0, b = rb + 1 < x->n ? rv_lcp(x, rb + 1) : 0;
        cur = a > b ? a : b;
    }
}

int rv_pairs_covering(const rv_index_t *x, const rv_pairs_opts_t *o, uint64_t pos, size_t max,
                      uint64_t max_work, rv_pairs_page_t *page)
{
    memset(page, 0, sizeof *page);
    page->complete = 1;
    pf_filter_t f;
    if (pf_filter_init(&f, x->seq, o) < 0) return -1;
    const uint8_t *t = x->seq->text;
    if (pos >= f.nf || t[pos] == RV_BREAK) return 0;
    cursor_t c = {x, &f, pos, 0, max_work, {NULL, 0, 0, max, 0, 0, o->longest_first}};
    for (uint64_t s = pos;; s--) {
        if (t[s] == RV_BREAK) break;
        uint64_t r = rv_isa(x, s);
        uint64_t a = rv_lcp(x, r), b = r + 1 < x->n ? rv_lcp(x, r + 1) : 0;
        uint64_t llr = a > b ? a : b;
        if (s + llr <= pos) break;
        uint64_t need = pos - s + 1 > f.min_len ? pos - s + 1 : f.min_len;
        if (llr >= need) walk_up(&c, s, r, llr, need);
        if (c.acc.oom) break;
        if (max_work && c.work > max_work) { page->complete = 0; break; }
        if (s == 0) break;
    }
    if (c.acc.oom) {
        free(c.acc.a);
        return rv_error("pairs", "out of memory");
    }
    if (c.acc.n) qsort(c.acc.a, c.acc.n, sizeof *c.acc.a, o->longest_first ? pair_cmp_len : pair_cmp);
    page->pairs = c.acc.a;
    page->n = c.acc.n;
    page->total = c.acc.total;
    return 0;
}

void rv_pairs_page_free(rv_pairs_page_t *page)
{
    free(page->pairs);
    memset(page, 0, sizeof *page);
}
