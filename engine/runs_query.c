/* runs_query.c — the stored runs and the queries of the tandem pane and CLI:
 * filters, runs overlapping an interval or covering a position, next/previous run.
 *
 * The runs are sorted by (start, period).  The search structure is an implicit
 * balanced binary tree over that array (the root of [lo, hi) is its middle element),
 * augmented with maxend[mid] = the largest end in the subtree of mid, so it costs one
 * word per run and no pointers.  A query for [qlo, qhi) descends only into subtrees
 * with maxend > qlo and stops at the first start >= qhi, so it visits O(log n) nodes
 * plus O(log(n/k)) per reported run (an interval tree over the sorted runs).
 */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/tandem.h"
#include "runs_internal.h"

static uint64_t seal_tree(const rv_run_t *run, uint64_t *maxend, uint64_t lo, uint64_t hi)
{
    if (lo >= hi) return 0;
    uint64_t mid = lo + (hi - lo) / 2, m = run[mid].end;
    uint64_t l = seal_tree(run, maxend, lo, mid), r = seal_tree(run, maxend, mid + 1, hi);
    if (l > m) m = l;
    if (r > m) m = r;
    maxend[mid] = m;
    return m;
}

void rv_runs_seal(void *block, uint64_t n_text, uint64_t m)
{
    uint64_t *h = block;
    h[0] = RV_RUNS_MAGIC;
    h[1] = n_text;
    h[2] = m;
    h[3] = 0;
    const rv_run_t *run = (const rv_run_t *)((char *)block + RV_RUNS_HEAD);
    seal_tree(run, (uint64_t *)(void *)(run + m), 0, m);
}

int rv_runs_view(const void *block, uint64_t bytes, uint64_t n_text, rv_runs_t *out)
{
    const uint64_t *h = block;
    if ((uintptr_t)block % 8 || bytes < RV_RUNS_HEAD || h[0] != RV_RUNS_MAGIC || h[1] != n_text ||
        h[2] > n_text || rv_runs_block_bytes(h[2]) != bytes)
        return rv_error("tandem", "runs section does not match the index");
    out->n = h[2];
    out->run = (const rv_run_t *)((const char *)block + RV_RUNS_HEAD);
    out->maxend = (const uint64_t *)(const void *)(out->run + out->n);
    out->owned = NULL;
    return 0;
}

int rv_runs_attach(rv_index_t *x, rv_runs_t *r, rv_runs_t *out)
{
    if (!r->owned) return rv_error("tandem", "runs not from rv_runs_compute");
    void *block = r->owned;
    uint64_t bytes = rv_runs_block_bytes(r->n);
    r->owned = NULL;
    rv_runs_free(r);
    rv_index_attach(x, RV_SEC_RUNS, block, bytes);
    return out ? rv_runs_view(block, bytes, x->n, out) : 0;
}

int rv_runs_get(rv_index_t *x, int threads, rv_progress_t *p, rv_runs_t *out)
{
    uint64_t bytes;
    const void *sec = rv_index_section(x, RV_SEC_RUNS, &bytes);
    if (sec && rv_runs_view(sec, bytes, x->n, out) == 0) return 0;
    rv_runs_t *r = rv_runs_compute(x, threads, p);
    return r ? rv_runs_attach(x, r, out) : -1;
}

void rv_tandem_filter_init(rv_tandem_filter_t *f)
{
    f->min_period = 1;
    f->max_period = UINT64_MAX;
    f->min_copies = 2.0;
    f->min_len = 10;
}

int rv_run_passes(const rv_tandem_filter_t *f, const rv_run_t *run)
{
    if (!f) return 1;
    uint64_t len = run->end - run->start;
    return run->period >= f->min_period && run->period <= f->max_period && len >= f->min_len &&
           (double)len >= f->min_copies * (double)run->period;
}

uint64_t rv_run_motif(const rv_seq_t *s, const rv_run_t *run, char *buf, size_t cap)
{
    uint64_t k = 0;
    for (; k < run->period && k + 1 < cap; k++)
        buf[k] = rv_alpha_letter(s->alpha, s->text[run->start + k]);
    if (cap) buf[k] = 0;
    return run->period;
}

typedef struct {
    const rv_runs_t *r;
    uint64_t lo, hi;
    const rv_tandem_filter_t *f;
    rv_run_fn fn;
    void *ud;
    uint64_t count;
    int stopped;
} ov_ctx_t;

/* In-order walk of the subtree [a, b): ascending index = (start, period) order. */
static void overlap_walk(ov_ctx_t *c, uint64_t a, uint64_t b)
{
    while (a < b && !c->stopped) {
        uint64_t mid = a + (b - a) / 2;
        const rv_run_t *run = &c->r->run[mid];
        if (c->r->maxend[mid] <= c->lo) return;  /* nothing here reaches lo */
        overlap_walk(c, a, mid);
        if (c->stopped || run->start >= c->hi) return; /* later starts are larger */
        if (run->end > c->lo && rv_run_passes(c->f, run)) {
            c->count++;
            if (c->fn && c->fn(c->ud, run)) c->stopped = 1;
        }
        a = mid + 1; /* the right subtree, as a loop */
    }
}

uint64_t rv_runs_overlapping(const rv_runs_t *r, uint64_t lo, uint64_t hi,
                             const rv_tandem_filter_t *f, rv_run_fn fn, void *ud)
{
    ov_ctx_t c = {r, lo, hi, f, fn, ud, 0, 0};
    if (lo < hi) overlap_walk(&c, 0, r->n);
    return c.count;
}

typedef struct {
    rv_run_t *out;
    uint64_t cap, k;
} cover_ctx_t;

static int cover_put(void *ud, const rv_run_t *run)
{
    cover_ctx_t *c = ud;
    if (c->k < c->cap) c->out[c->k] = *run;
    c->k++;
    return 0;
}

uint64_t rv_runs_covering(const rv_runs_t *r, uint64_t pos, const rv_tandem_filter_t *f,
                          rv_run_t *out, uint64_t cap)
{
    cover_ctx_t c = {out, out ? cap : 0, 0};
    return rv_runs_overlapping(r, pos, pos + 1, f, cover_put, &c);
}

uint64_t rv_runs_lower_bound(const rv_runs_t *r, uint64_t t)
{
    uint64_t lo = 0, hi = r->n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (r->run[mid].start < t) lo = mid + 1; else hi = mid;
    }
    return lo;
}

int64_t rv_runs_next(const rv_runs_t *r, uint64_t pos, const rv_tandem_filter_t *f)
{
    for (uint64_t i = rv_runs_lower_bound(r, pos + 1); i < r->n; i++)
        if (rv_run_passes(f, &r->run[i])) return (int64_t)i;
    return -1;
}

int64_t rv_runs_prev(const rv_runs_t *r, uint64_t pos, const rv_tandem_filter_t *f)
{
    for (uint64_t i = rv_runs_lower_bound(r, pos); i-- > 0;)
        if (rv_run_passes(f, &r->run[i])) return (int64_t)i;
    return -1;
}
