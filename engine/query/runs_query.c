/* runs_query.c — the queries of the tandem pane and CLI over the stored runs
 * (index/runs_store.h): filters, runs overlapping an interval or covering a
 * position, next/previous run.  A query for [qlo, qhi) descends only into the
 * subtrees of the block tree with blockmax > qlo, scans the runs of the blocks it
 * enters, and stops at the first start >= qhi. */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/tandem.h"
#include "index/runs_store.h"

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

/* The runs of block b in order; 1 once a start >= hi is met (so are all later ones). */
static int overlap_block(ov_ctx_t *c, uint64_t b)
{
    const rv_runs_t *r = c->r;
    uint64_t k = b * RV_RUNS_BLOCK, stop = k + RV_RUNS_BLOCK < r->n ? k + RV_RUNS_BLOCK : r->n;
    for (; k < stop; k++) {
        const uint64_t s = rv_get(r->start, r->wide, k);
        if (s >= c->hi) return 1;
        if (s + rv_get(r->len, r->wide, k) <= c->lo) continue;
        rv_run_t run = rv_runs_at(r, k);
        if (!rv_run_passes(c->f, &run)) continue;
        c->count++;
        if (c->fn && c->fn(c->ud, &run)) { c->stopped = 1; return 1; }
    }
    return 0;
}

/* In-order walk of the blocks [a, b): ascending index = (start, period) order. */
static void overlap_walk(ov_ctx_t *c, uint64_t a, uint64_t b)
{
    while (a < b && !c->stopped) {
        uint64_t mid = a + (b - a) / 2;
        if (rv_get(c->r->blockmax, c->r->wide, mid) <= c->lo) return; /* nothing reaches lo */
        overlap_walk(c, a, mid);
        if (c->stopped || overlap_block(c, mid)) return; /* later starts are larger */
        a = mid + 1; /* the right subtree, as a loop */
    }
}

uint64_t rv_runs_overlapping(const rv_runs_t *r, uint64_t lo, uint64_t hi,
                             const rv_tandem_filter_t *f, rv_run_fn fn, void *ud)
{
    ov_ctx_t c = {r, lo, hi, f, fn, ud, 0, 0};
    if (lo < hi) overlap_walk(&c, 0, rv_runs_blocks(r->n));
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
        if (rv_get(r->start, r->wide, mid) < t) lo = mid + 1; else hi = mid;
    }
    return lo;
}

int64_t rv_runs_next(const rv_runs_t *r, uint64_t pos, const rv_tandem_filter_t *f)
{
    for (uint64_t i = rv_runs_lower_bound(r, pos + 1); i < r->n; i++) {
        rv_run_t run = rv_runs_at(r, i);
        if (rv_run_passes(f, &run)) return (int64_t)i;
    }
    return -1;
}

int64_t rv_runs_prev(const rv_runs_t *r, uint64_t pos, const rv_tandem_filter_t *f)
{
    for (uint64_t i = rv_runs_lower_bound(r, pos); i-- > 0;) {
        rv_run_t run = rv_runs_at(r, i);
        if (rv_run_passes(f, &run)) return (int64_t)i;
    }
    return -1;
}
