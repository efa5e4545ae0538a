/* runs.c — every run (maximal repetition) of the text, by Lyndon roots.
 *
 * Bannai, I, Inenaga, Nakashima, Takeda, Tsuruta, "The Runs Theorem" (SIAM J.
 * Comput. 46(5), 2017; arXiv 1406.0263, §3-4): let r = [s, e) be a run of period p, and pick
 * the order <_l of the alphabet with text[e] <_l text[e-p] (a breaker or the end of
 * the text after the run is smaller in both orders).  Then every Lyndon root
 * [a, a+p) of r w.r.t. <_l is the LONGEST Lyndon word starting at a.  Conversely,
 * for the other order a root is always extended by the next symbol (u^k u' c with c
 * above the matching symbol is still Lyndon), so it never shows up with length p.
 *
 * So for both orders and every position a with p = L[a] (Lyndon array, lyndon.c):
 *   f = LCE(a, a+p)      forward: text[a, a+p+f) has period p
 *   b = backward match of text[..a) against text[..a+p)
 * and [a-b, a+p+f) is a run of period p when f + b >= p.  Its smallest period is p:
 * a smaller one q would, by Fine and Wilf (length >= p+q), make the Lyndon word
 * text[a, a+p) a power, but Lyndon words are primitive.
 *
 * Each run is reported exactly once, without a hash or a sort: only from its first
 * root (b < p, i.e. text[a-p, a) != text[a, a+p)), and from order 1 only when the
 * run is not followed by a breaker or the end (then order 0 reports it).  Every test
 * is a constant number of LCE queries (RMQ over LCP); only the exact b of a run
 * that is reported is found by a short scan then a binary search with LCE queries,
 * so the total is O(n) LCE queries plus O(log p) per run.
 */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/lce.h"
#include "base/internal.h"
#include "lyndon.h"
#include "runs_store.h"

#define TASK 65536 /* positions per dynamic task */
#define BACK_SCAN 32

typedef struct {
    rv_run_t *v;
    uint64_t n, cap;
    int oom;
} runbuf_t;

typedef struct {
    const rv_index_t *x;
    const rv_rmq_t *q;
    const void *end; /* Lyndon array of this order */
    int order;
    runbuf_t *buf;   /* one per thread */
    rv_progress_t *p;
    _Atomic int stop;
} cand_ctx_t;

/* text[a-t, a) == text[a+p-t, a+p) */
static int back_at_least(const rv_index_t *x, const rv_rmq_t *q, uint64_t a, uint64_t p,
                         uint64_t t)
{
    if (t == 0) return 1;
    if (t > a) return 0;
    return rv_lce_fast(x, q, a - t, a + p - t) >= t;
}

/* The largest b < p with text[a-b, a) == text[a+p-b, a+p), knowing it is >= lo. */
static uint64_t back_exact(const rv_index_t *x, const rv_rmq_t *q, uint64_t a, uint64_t p,
                           uint64_t lo)
{
    const uint8_t *t = x->seq->text;
    uint64_t b = lo, stop = lo + BACK_SCAN;
    while (b < p && b < a && b < stop && t[a - 1 - b] == t[a + p - 1 - b] && t[a - 1 - b] != RV_BREAK)
        b++;
    if (b < stop) return b;                 /* the scan found the mismatch */
    uint64_t hi = p < a + 1 ? p : a + 1;    /* back_at_least(hi) is false */
    while (hi - b > 1) {
        uint64_t mid = b + (hi - b) / 2;
        if (back_at_least(x, q, a, p, mid)) b = mid; else hi = mid;
    }
    return b;
}

static int buf_push(runbuf_t *B, uint64_t s, uint64_t e, uint64_t p)
{
    if (B->n == B->cap) {
        uint64_t cap = B->cap ? B->cap * 2 : 4096;
        rv_run_t *v = realloc(B->v, cap * sizeof *v);
        if (!v) { B->oom = 1; return -1; }
        B->v = v;
        B->cap = cap;
    }
    B->v[B->n++] = (rv_run_t){s, e, p};
    return 0;
}

/* The run whose first Lyndon root (in this order) is at a, if any. */
static void candidate(const cand_ctx_t *c, runbuf_t *B, uint64_t a)
{
    const rv_index_t *x = c->x;
    const uint8_t *t = x->seq->text;
    const uint64_t n = x->n;
    const uint64_t e1 = rv_get(c->end, x->wide, a), p = e1 - a;
    if (e1 >= n || t[e1] == RV_BREAK) return; /* no second copy can start */
    uint64_t f = rv_lce_fast(x, c->q, a, e1);
    if (f == 0) return;              /* would need b >= p: a is not the first root */
    const uint64_t e = e1 + f;
    if (c->order == 1 && (e == n || t[e] == RV_BREAK)) return; /* order 0 has it */
    uint64_t need = f >= p ? 0 : p - f; /* backward symbols still needed, < p */
    if (need > a) return;
    if (need && (t[a - 1] != t[e1 - 1] || !back_at_least(x, c->q, a, p, need))) return;
    if (a >= p && back_at_least(x, c->q, a, p, p)) return; /* not the first root */
    uint64_t b = back_exact(x, c->q, a, p, need);
    buf_push(B, a - b, e, p);
}

static void cand_range(void *arg, uint64_t lo, uint64_t hi, int thread)
{
    cand_ctx_t *c = arg;
    runbuf_t *B = &c->buf[thread];
    if (c->stop || B->oom) return;
    if (rv_cancelled(c->p)) { c->stop = 1; return; }
    const uint8_t *t = c->x->seq->text;
    for (uint64_t a = lo; a < hi && !B->oom; a++)
        if (t[a] != RV_BREAK) candidate(c, B, a);
    rv_progress_add(c->p, hi - lo);
}

/* Sorting the runs by (start, period) into the columns, in threads: the starts are
 * cut into ranges; each buffer counts its runs per range, then scatters them to
 * their range (a radix partition); each range is then counting-sorted by start with
 * a per-thread count array, equal starts ordered by period (groups are O(log n)),
 * and written straight to its slots of the columns.  (A run is identified by its
 * start and period, so the result does not depend on the threads.) */
typedef struct {
    const rv_index_t *x;
    runbuf_t *bufs;
    int nb;
    uint64_t nr, width;   /* ranges of starts: range r is [r * width, (r + 1) * width) */
    uint64_t *hist;       /* nb x nr: runs of buffer k in range r, then its first slot */
    uint64_t *first;      /* nr + 1: first slot of each range */
    rv_run_t *tmp;        /* the runs grouped by range */
    uint64_t **scratch;   /* per thread: width + 1 counters */
    rv_runs_cols_t dst;
    int oom;
} sort_ctx_t;

static void count_ranges(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    sort_ctx_t *c = arg;
    for (uint64_t k = lo; k < hi; k++) {
        uint64_t *h = c->hist + k * c->nr;
        for (uint64_t i = 0; i < c->bufs[k].n; i++) h[c->bufs[k].v[i].start / c->width]++;
    }
}

static void scatter_ranges(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    sort_ctx_t *c = arg;
    for (uint64_t k = lo; k < hi; k++) {
        uint64_t *h = c->hist + k * c->nr;
        for (uint64_t i = 0; i < c->bufs[k].n; i++) c->tmp[h[c->bufs[k].v[i].start / c->width]++] = c->bufs[k].v[i];
        free(c->bufs[k].v); /* no longer needed */
        c->bufs[k].v = NULL;
    }
}

static void sort_range(void *arg, uint64_t lo, uint64_t hi, int t)
{
    sort_ctx_t *c = arg;
    const int w = c->x->wide;
    uint64_t *cnt = c->scratch[t];
    if (!cnt && !(cnt = c->scratch[t] = malloc((c->width + 1) * sizeof *cnt))) { c->oom = 1; return; }
    for (uint64_t r = lo; r < hi; r++) {
        const uint64_t a = c->first[r], b = c->first[r + 1], base = r * c->width;
        memset(cnt, 0, (c->width + 1) * sizeof *cnt);
        for (uint64_t i = a; i < b; i++) cnt[c->tmp[i].start - base + 1]++;
        for (uint64_t j = 1; j <= c->width; j++) cnt[j] += cnt[j - 1];
        for (uint64_t i = a; i < b; i++) {
            const rv_run_t *u = &c->tmp[i];
            uint64_t at = a + cnt[u->start - base]++;
            rv_put(c->dst.start, w, at, u->start);
            rv_put(c->dst.len, w, at, u->end - u->start);
            rv_put(c->dst.period, w, at, u->period);
        }
        for (uint64_t i = a + 1; i < b; i++) { /* insertion: only equal starts move */
            const uint64_t st = rv_get(c->dst.start, w, i), len = rv_get(c->dst.len, w, i);
            const uint64_t p = rv_get(c->dst.period, w, i);
            uint64_t j = i;
            for (; j > a && rv_get(c->dst.start, w, j - 1) == st && rv_get(c->dst.period, w, j - 1) > p; j--) {
                rv_put(c->dst.len, w, j, rv_get(c->dst.len, w, j - 1));
                rv_put(c->dst.period, w, j, rv_get(c->dst.period, w, j - 1));
            }
            if (j == i) continue;
            rv_put(c->dst.len, w, j, len);
            rv_put(c->dst.period, w, j, p);
        }
    }
}

/* 0, or -1 with a message (out of memory). */
static int sort_runs(const rv_index_t *x, runbuf_t *bufs, int nb, int threads, uint64_t m, rv_runs_cols_t dst)
{
    sort_ctx_t c = {.x = x, .bufs = bufs, .nb = nb, .dst = dst};
    c.nr = (uint64_t)threads * 16;
    c.width = x->n / c.nr + 1;
    c.hist = calloc((size_t)nb * c.nr, sizeof *c.hist);
    c.first = malloc((c.nr + 1) * sizeof *c.first);
    c.tmp = malloc((m ? m : 1) * sizeof *c.tmp);
    c.scratch = calloc((size_t)threads, sizeof *c.scratch);
    int rc = -1;
    if (c.hist && c.first && c.tmp && c.scratch) {
        rv_parallel_for(nb, (uint64_t)nb, count_ranges, &c);
        uint64_t at = 0;
        for (uint64_t r = 0; r < c.nr; r++) {
            c.first[r] = at;
            for (int k = 0; k < nb; k++) {
                uint64_t cnt = c.hist[(uint64_t)k * c.nr + r];
                c.hist[(uint64_t)k * c.nr + r] = at;
                at += cnt;
            }
        }
        c.first[c.nr] = at;
        rv_parallel_for(nb, (uint64_t)nb, scatter_ranges, &c);
        rv_parallel_dynamic(threads, c.nr, 1, sort_range, &c);
        rc = c.oom ? rv_error("tandem", "out of memory") : 0;
    } else {
        rv_error("tandem", "out of memory (%llu runs)", (unsigned long long)m);
    }
    for (int t = 0; c.scratch && t < threads; t++) free(c.scratch[t]);
    free(c.scratch);
    free(c.hist);
    free(c.first);
    free(c.tmp);
    return rc;
}

static int find_candidates(const rv_index_t *x, const rv_rmq_t *q, void *end, int threads,
                           runbuf_t *bufs, rv_progress_t *p)
{
    double t = rv_now();
    for (int order = 0; order < 2; order++) {
        if (rv_lyndon_array(x, q, order, end, threads, 0) < 0) return -1;
        rv_trace(order ? "runs.lyndon1" : "runs.lyndon0", &t);
        cand_ctx_t c = {x, q, end, order, bufs, p, 0};
        rv_parallel_dynamic(threads, x->n, TASK, cand_range, &c);
        rv_trace(order ? "runs.candidates1" : "runs.candidates0", &t);
        if (c.stop) return rv_error("tandem", "cancelled");
        for (int k = 0; k < threads; k++)
            if (bufs[k].oom) return rv_error("tandem", "out of memory");
    }
    return 0;
}

rv_runs_t *rv_runs_compute(const rv_index_t *x, int threads, rv_progress_t *p)
{
    if (threads <= 0) threads = rv_default_threads();
    if (threads > 256) threads = 256;
    const uint64_t n = x->n;
    rv_progress_stage(p, RV_STAGE_EXTRA, 2 * n);
    double t = rv_now();
    rv_rmq_t *q = n ? rv_rmq_build(x) : NULL;
    rv_trace("runs.rmq", &t);
    void *end = malloc((n + 1) * (x->wide ? 8 : 4));
    runbuf_t *bufs = calloc((size_t)threads, sizeof *bufs);
    rv_runs_t *r = calloc(1, sizeof *r);
    void *sec = NULL;
    int rc = -1;
    if ((n && !q) || !end || !bufs || !r) {
        rv_error("tandem", "out of memory");
    } else if (find_candidates(x, q, end, threads, bufs, p) == 0) {
        uint64_t m = 0;
        for (int k = 0; k < threads; k++) m += bufs[k].n;
        const uint64_t bytes = rv_runs_section_bytes(m, x->wide);
        sec = malloc(bytes);
        if (!sec) {
            rv_error("tandem", "out of memory (%llu runs)", (unsigned long long)m);
        } else {
            t = rv_now();
            if (sort_runs(x, bufs, threads, threads, m, rv_runs_columns(sec, m, x->wide)) == 0) {
                rv_trace("runs.sort", &t);
                rv_runs_seal(sec, n, m, x->wide);
                rv_trace("runs.seal", &t);
                rc = rv_runs_view(sec, bytes, n, x->wide, r);
                r->owned = sec;
            }
        }
    }
    rv_rmq_free(q);
    free(end);
    for (int k = 0; bufs && k < threads; k++) free(bufs[k].v);
    free(bufs);
    if (rc < 0) {
        free(sec);
        free(r);
        return NULL;
    }
    return r;
}

void rv_runs_free(rv_runs_t *r)
{
    if (!r) return;
    free(r->owned);
    free(r);
}

int rv_runs_attach(rv_index_t *x, rv_runs_t *r, rv_runs_t *out)
{
    if (!r->owned) return rv_error("tandem", "runs not from rv_runs_compute");
    void *sec = r->owned;
    uint64_t bytes = rv_runs_section_bytes(r->n, r->wide);
    rv_runs_t view;
    if (rv_runs_view(sec, bytes, x->n, x->wide, &view) < 0) return -1; /* another index's */
    r->owned = NULL;
    rv_runs_free(r);
    rv_index_attach(x, RV_SEC_RUNS, sec, bytes);
    if (out) *out = view;
    return 0;
}

int rv_runs_get(rv_index_t *x, int threads, rv_progress_t *p, rv_runs_t *out)
{
    uint64_t bytes;
    const void *sec = rv_index_section(x, RV_SEC_RUNS, &bytes);
    if (sec && rv_runs_view(sec, bytes, x->n, x->wide, out) == 0) return 0; /* checked by verification */
    rv_runs_t *r = rv_runs_compute(x, threads, p);
    return r ? rv_runs_attach(x, r, out) : -1;
}
