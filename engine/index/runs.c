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
 * so the total is O(n) LCE queries plus O(log p) per run.  Most positions need
 * none: a is tested only when text[a+p] = text[a] and one of its neighbours matches
 * too (f >= 1, and f >= p or b >= 1).  The candidates are tested as the Lyndon pass
 * of each chunk leaves its positions (rv_lyndon_visit), while their end entries are
 * still in the cache.
 */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/lce.h"
#include "base/internal.h"
#include "lyndon.h"
#include "runs.h"
#include "runs_store.h"

#define BACK_SCAN 32
#define SORT_WIDTH 65536 /* starts per range of the sort */
#define CAND_BUF 256     /* positions that passed the filter, tested together */

/* A thread's runs in blocks of BUF_RUNS, never reallocated: a buffer grown by
 * doubling left its old copies resident in the allocator's arenas, twice the
 * runs' bytes at the peak of the build. */
#define BUF_RUNS (1u << 17)

typedef struct {
    void **blk;      /* runs as (start, length, period), fields of the index's width */
    uint64_t nblk, cap_blk;
    uint64_t n;      /* runs */
    uint64_t oom;    /* bytes a failed allocation asked for, or 0 */
} runbuf_t;

static inline const char *run_at(const runbuf_t *B, int wide, uint64_t i)
{
    return (const char *)B->blk[i / BUF_RUNS] + i % BUF_RUNS * 3 * (wide ? 8 : 4);
}

static void buf_free(runbuf_t *B)
{
    for (uint64_t k = 0; k < B->nblk; k++) free(B->blk[k]);
    free(B->blk);
    B->blk = NULL;
    B->nblk = B->cap_blk = 0;
}

typedef struct {
    const rv_index_t *x;
    const rv_rmq_t *q;
    int order;
    runbuf_t *buf;   /* one per thread */
    rv_progress_t *p;
    _Atomic int stop;
} cand_ctx_t;

/* text[a-t, a) == text[e1-t, e1) */
static int back_at_least(const rv_index_t *x, const rv_rmq_t *q, uint64_t a, uint64_t e1, uint64_t t)
{
    return t == 0 || (t <= a && rv_lce_fast(x, q, a - t, e1 - t) >= t);
}

/* The longest common suffix b of text[..a) and text[..e1) (a < e1, no breaker in it),
 * capped at lim <= a, where it is at least need; any value below need where it is
 * not.  A direct scan of BACK_SCAN symbols; past it, one LCE query rejects b < need
 * and one finds b = lim, so the binary search with LCE queries is left to the runs
 * that are reported (need <= b < lim). */
static uint64_t back_match(const rv_index_t *x, const rv_rmq_t *q, uint64_t a, uint64_t e1, uint64_t need,
                           uint64_t lim)
{
    const uint8_t *t = x->seq->text;
    uint64_t b = 0;
    while (b < lim && b < BACK_SCAN && t[a - 1 - b] == t[e1 - 1 - b] && t[a - 1 - b] != RV_BREAK) b++;
    if (b < BACK_SCAN || b == lim) return b;
    if (need > b && !back_at_least(x, q, a, e1, need)) return 0;
    if (back_at_least(x, q, a, e1, lim)) return lim;
    if (need > b) b = need;
    uint64_t hi = lim; /* back_at_least(b) holds, back_at_least(hi) does not */
    while (hi - b > 1) {
        uint64_t mid = b + (hi - b) / 2;
        if (back_at_least(x, q, a, e1, mid)) b = mid; else hi = mid;
    }
    return b;
}

static int buf_push(runbuf_t *B, int wide, uint64_t s, uint64_t len, uint64_t p)
{
    const uint64_t rec = 3 * (wide ? 8 : 4);
    if (B->n == B->nblk * BUF_RUNS) {
        if (B->nblk == B->cap_blk) {
            uint64_t cap = B->cap_blk ? 2 * B->cap_blk : 16;
            void **v = realloc(B->blk, cap * sizeof *v);
            if (!v) { B->oom = cap * sizeof *v; return -1; }
            B->blk = v;
            B->cap_blk = cap;
        }
        if (!(B->blk[B->nblk] = malloc(BUF_RUNS * rec))) { B->oom = BUF_RUNS * rec; return -1; }
        B->nblk++;
    }
    void *v = (char *)B->blk[B->n / BUF_RUNS] + B->n % BUF_RUNS * rec;
    rv_put(v, wide, 0, s);
    rv_put(v, wide, 1, len);
    rv_put(v, wide, 2, p);
    B->n++;
    return 0;
}

/* The run whose first Lyndon root (in this order) is at a, if any; e1 = end[a] < n
 * with text[e1] = text[a] (the caller's filter: else LCE(a, e1) = 0, and a could be
 * a root only with b >= p, so it is not the first one).  With f = LCE(a, e1) and b
 * the backward match capped at p, [a-b, e1+f) is a run of period p iff f + b >= p,
 * and a is its first root iff b < p (else text[a-p, a) is a root too). */
static void candidate(const cand_ctx_t *c, runbuf_t *B, uint64_t a, uint64_t e1)
{
    const rv_index_t *x = c->x;
    const uint8_t *t = x->seq->text;
    const uint64_t n = x->n, p = e1 - a;
    const uint64_t f = rv_lce_fast(x, c->q, a, e1); /* >= 1 */
    const uint64_t e = e1 + f;
    if (c->order == 1 && (e == n || t[e] == RV_BREAK)) return; /* order 0 has it */
    const uint64_t need = f >= p ? 0 : p - f; /* backward symbols still needed, < p */
    if (need > a || (need && t[a - 1] != t[e1 - 1])) return;
    const uint64_t b = back_match(x, c->q, a, e1, need, p < a ? p : a);
    if (b < need || b >= p) return;
    buf_push(B, x->wide, a - b, e - (a - b), p);
}

/* The candidates among the positions of [lo, hi) whose end is final (lyndon.h:
 * end[a] = a marks a breaker or a position cut at its chunk's edge, handed over again
 * later); returns how many positions were final.  The filter is a coin toss per
 * position, so it has no branch: every position is stored in a small buffer whose
 * fill advances by the filter's flag, and the buffer is tested when full. */
static inline __attribute__((always_inline)) uint64_t cand_loop(const cand_ctx_t *c, runbuf_t *B, uint64_t lo,
                                                                uint64_t hi, const void *end, int wide)
{
    const uint8_t *t = c->x->seq->text;
    const uint64_t n = c->x->n;
    uint64_t later = 0, buf[CAND_BUF + 1], nb = 0;
    for (uint64_t a = lo; a < hi; a++) {
        const uint8_t ta = t[a];
        const uint64_t e1 = rv_get(end, wide, a - lo);
        const int letter = ta != RV_BREAK, cut = e1 == a;
        later += letter & cut;
        /* text[e1] = text[a] (a breaker at e1 differs too); then f >= p >= 2 needs
         * text[a+1] = text[e1+1], f < p needs text[a-1] = text[e1-1]; the reads are
         * clamped into the text, the flags say whether they count */
        const int inside = e1 < n, past = e1 + 1 < n;
        const uint64_t e = inside ? e1 : a, e2 = past ? e1 + 1 : a, b1 = a ? a - 1 : a, eb = a ? e - 1 : a;
        const int same = inside & (t[e] == ta), fwd = past & (t[a + past] == t[e2]), bwd = (a > 0) & (t[b1] == t[eb]);
        buf[nb] = a;
        nb += letter & !cut & same & ((e1 - a == 1) | fwd | bwd);
        if (nb == CAND_BUF) {
            for (uint64_t k = 0; k < nb && !B->oom; k++) candidate(c, B, buf[k], rv_get(end, wide, buf[k] - lo));
            nb = 0;
        }
    }
    for (uint64_t k = 0; k < nb && !B->oom; k++) candidate(c, B, buf[k], rv_get(end, wide, buf[k] - lo));
    return hi - lo - later;
}

/* rv_lyndon_visit's visitor: the candidates of the positions handed over. */
static void cand_range(void *arg, uint64_t lo, uint64_t hi, const void *end, int thread)
{
    cand_ctx_t *c = arg;
    runbuf_t *B = &c->buf[thread];
    if (c->stop || B->oom) return;
    if (rv_cancelled(c->p)) { c->stop = 1; return; }
    rv_progress_add(c->p, c->x->wide ? cand_loop(c, B, lo, hi, end, 1) : cand_loop(c, B, lo, hi, end, 0));
}

/* Sorting the runs by (start, period) into the columns, in threads: the starts are
 * cut into ranges of SORT_WIDTH; each buffer counts its runs per range, then
 * scatters them to their range (a radix partition); each range is then
 * counting-sorted by start with a per-thread count array that stays in the cache,
 * equal starts ordered by period (groups are O(log n)), and written straight to its
 * slots of the columns.  (A run is identified by its start and period, so the
 * result does not depend on the threads.) */
typedef struct {
    const rv_index_t *x;
    runbuf_t *bufs;
    int nb;
    uint64_t nr, width;   /* ranges of starts: range r is [r * width, (r + 1) * width) */
    uint64_t *hist;       /* nb x nr: runs of buffer k in range r, then its first slot */
    uint64_t *first;      /* nr + 1: first slot of each range */
    void *tmp;            /* the runs grouped by range, as in the buffers */
    uint64_t **scratch;   /* per thread: width + 1 counters */
    rv_runs_cols_t dst;
    uint64_t oom;         /* bytes a failed allocation asked for, or 0 */
} sort_ctx_t;

static void count_ranges(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    sort_ctx_t *c = arg;
    const int w = c->x->wide;
    for (uint64_t k = lo; k < hi; k++) {
        uint64_t *h = c->hist + k * c->nr;
        for (uint64_t i = 0; i < c->bufs[k].n; i++) h[rv_get(run_at(&c->bufs[k], w, i), w, 0) / c->width]++;
    }
}

static void scatter_ranges(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    sort_ctx_t *c = arg;
    const int w = c->x->wide;
    const size_t rec = 3 * (w ? 8u : 4u);
    for (uint64_t k = lo; k < hi; k++) {
        uint64_t *h = c->hist + k * c->nr;
        runbuf_t *B = &c->bufs[k];
        for (uint64_t i = 0; i < B->n; i++) {
            const char *v = run_at(B, w, i);
            memcpy((char *)c->tmp + h[rv_get(v, w, 0) / c->width]++ * rec, v, rec);
            if ((i + 1) % BUF_RUNS == 0) { /* a block done: no longer needed */
                free(B->blk[i / BUF_RUNS]);
                B->blk[i / BUF_RUNS] = NULL;
            }
        }
        buf_free(B);
    }
}

static void sort_range(void *arg, uint64_t lo, uint64_t hi, int t)
{
    sort_ctx_t *c = arg;
    const int w = c->x->wide;
    uint64_t *cnt = c->scratch[t];
    if (!cnt && !(cnt = c->scratch[t] = malloc((c->width + 1) * sizeof *cnt))) { c->oom = (c->width + 1) * sizeof *cnt; return; }
    for (uint64_t r = lo; r < hi; r++) {
        const uint64_t a = c->first[r], b = c->first[r + 1], base = r * c->width;
        memset(cnt, 0, (c->width + 1) * sizeof *cnt);
        for (uint64_t i = a; i < b; i++) cnt[rv_get(c->tmp, w, 3 * i) - base + 1]++;
        for (uint64_t j = 1; j <= c->width; j++) cnt[j] += cnt[j - 1];
        for (uint64_t i = a; i < b; i++) {
            const uint64_t st = rv_get(c->tmp, w, 3 * i), at = a + cnt[st - base]++;
            rv_put(c->dst.start, w, at, st);
            rv_put(c->dst.len, w, at, rv_get(c->tmp, w, 3 * i + 1));
            rv_put(c->dst.period, w, at, rv_get(c->tmp, w, 3 * i + 2));
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

/* The m runs of the buffers (freed) as a sorted stored form (runs_store.h) in *sec,
 * malloc()ed once the buffers are gone; its seal is left to the caller.  0, or -1
 * with a message (out of memory). */
static int sort_runs(const rv_index_t *x, runbuf_t *bufs, int nb, int threads, uint64_t m, void **sec)
{
    sort_ctx_t c = {.x = x, .bufs = bufs, .nb = nb};
    *sec = NULL;
    c.width = SORT_WIDTH; /* a range's counters stay in the cache */
    c.nr = x->n / c.width + 1;
    c.hist = calloc((size_t)nb * c.nr, sizeof *c.hist);
    c.first = malloc((c.nr + 1) * sizeof *c.first);
    c.tmp = malloc((m ? m : 1) * 3 * (x->wide ? 8 : 4));
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
        if (!(*sec = malloc(rv_runs_section_bytes(m, x->wide)))) {
            rv_oom("tandem runs", rv_runs_section_bytes(m, x->wide));
        } else {
            c.dst = rv_runs_columns(*sec, m, x->wide);
            rv_parallel_dynamic(threads, c.nr, 1, sort_range, &c);
            rc = c.oom ? rv_oom("tandem runs' sort", c.oom) : 0;
        }
    } else {
        rv_oom("tandem runs' sort", (uint64_t)nb * c.nr * sizeof *c.hist + (m ? m : 1) * 3 * (x->wide ? 8 : 4));
    }
    for (int t = 0; c.scratch && t < threads; t++) free(c.scratch[t]);
    free(c.scratch);
    free(c.hist);
    free(c.first);
    free(c.tmp);
    return rc;
}

static int find_candidates(const rv_index_t *x, const rv_rmq_t *q, int threads,
                           uint64_t min_chunk, runbuf_t *bufs, rv_progress_t *p)
{
    double t = rv_now();
    for (int order = 0; order < 2; order++) {
        cand_ctx_t c = {x, q, order, bufs, p, 0};
        if (rv_lyndon_visit(x, q, order, threads, min_chunk, cand_range, &c) < 0) return -1;
        rv_trace(order ? "runs.lyndon1+candidates" : "runs.lyndon0+candidates", &t);
        if (c.stop) return rv_error("tandem", "cancelled");
        for (int k = 0; k < threads; k++)
            if (bufs[k].oom) return rv_oom("tandem runs' candidates", bufs[k].oom);
    }
    return 0;
}

static rv_runs_t *compute(const rv_index_t *x, int threads, uint64_t min_chunk, rv_progress_t *p,
                          void (*found)(void *), void *ud);

rv_runs_t *rv_runs_compute(const rv_index_t *x, int threads, rv_progress_t *p)
{
    return compute(x, threads, 0, p, NULL, NULL);
}

rv_runs_t *rv_runs_compute_chunked(const rv_index_t *x, int threads, uint64_t min_chunk, rv_progress_t *p)
{
    return compute(x, threads, min_chunk, p, NULL, NULL);
}

static rv_runs_t *compute(const rv_index_t *x, int threads, uint64_t min_chunk, rv_progress_t *p,
                          void (*found)(void *), void *ud)
{
    if (threads <= 0) threads = rv_default_threads();
    if (threads > 256) threads = 256;
    /* the Lyndon arrays read ISA directly: rebuilt first when a file left it out */
    if (!x->isa && rv_index_derive((rv_index_t *)(uintptr_t)x, RV_SEC_BIT(RV_SEC_ISA), threads) < 0) return NULL;
    const uint64_t n = x->n;
    rv_progress_stage(p, RV_STAGE_EXTRA, 2 * n);
    double t = rv_now();
    rv_rmq_t *q = n ? rv_rmq_build_threads(x, threads) : NULL;
    rv_trace("runs.rmq", &t);
    runbuf_t *bufs = calloc((size_t)threads, sizeof *bufs);
    rv_runs_t *r = calloc(1, sizeof *r);
    void *sec = NULL;
    int rc = -1;
    if ((n && !q) || !bufs || !r) {
        if (!(n && !q)) rv_oom("tandem runs", (uint64_t)threads * sizeof *bufs); /* else the LCE table's */
    } else if (find_candidates(x, q, threads, min_chunk, bufs, p) == 0) {
        rv_rmq_free(q); /* the sort's memory comes after it */
        q = NULL;
        if (found) found(ud); /* ISA and LCP are read no more */
        uint64_t m = 0;
        for (int k = 0; k < threads; k++) m += bufs[k].n;
        t = rv_now();
        if (sort_runs(x, bufs, threads, threads, m, &sec) == 0) {
            rv_trace("runs.sort", &t);
            rv_runs_seal(sec, n, m, x->wide);
            rv_trace("runs.seal", &t);
            rc = rv_runs_view(sec, rv_runs_section_bytes(m, x->wide), n, x->wide, r);
            r->owned = sec;
        }
    }
    rv_rmq_free(q);
    for (int k = 0; bufs && k < threads; k++) buf_free(&bufs[k]);
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
    return rv_runs_get_then(x, threads, p, out, NULL, NULL);
}

int rv_runs_get_then(rv_index_t *x, int threads, rv_progress_t *p, rv_runs_t *out, void (*found)(void *), void *ud)
{
    uint64_t bytes;
    rv_index_derive(x, RV_SEC_BIT(RV_SEC_RUNS), threads); /* from the file's form; else computed below */
    const void *sec = rv_index_section(x, RV_SEC_RUNS, &bytes);
    if (sec && rv_runs_view(sec, bytes, x->n, x->wide, out) == 0) return 0; /* checked by verification */
    rv_runs_t *r = compute(x, threads, 0, p, found, ud);
    return r ? rv_runs_attach(x, r, out) : -1;
}
