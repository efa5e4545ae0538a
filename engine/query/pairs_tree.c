/* pairs_tree.c — all maximal pairs of length >= MIN by a bottom-up traversal of the
 * LCP-interval tree of each independent task, in parallel.
 *
 * Algorithm (Gusfield 1997 §7.12.3 on suffix trees; Abouelhoda, Kurtz & Ohlebusch,
 * "Replacing suffix trees with enhanced suffix arrays", maximal repeated pairs on
 * the LCP-interval tree; RACE §3.2, eq. 1-3 and §4.3):
 *   - every suffix (leaf) carries its left-character class (pf_left_class);
 *   - an interval keeps its leaves grouped by class: linked lists over local
 *     ranks, one group per class present ("left-character lists", RACE's COL);
 *   - when a child (leaf or finished sub-interval) is attached to its parent
 *     interval of lcp L, every leaf of the child pairs with every leaf already in
 *     the parent whose class differs (class 0 = text start or breaker differs from
 *     everything): the copies are right-maximal because they sit in different
 *     children, left-maximal because the characters before them differ, and their
 *     length is exactly L (eq. 3).  Then the child's groups are spliced in (eq. 2).
 * Only intervals with lcp >= MIN are ever built, so the work is O(n + z) with z
 * the pairs before the gap/range filters; the range filter drops leaves outside
 * the range before they enter any list (RACE §4.3's INITIALIZE).
 *
 * Tasks (RACE §5.1): a maximal run of ranks whose adjacent LCPs are all >= MIN is
 * the set of suffixes sharing one prefix of length MIN; no pair of length >= MIN
 * joins two runs, so runs are independent sub-trees.  Runs are grouped into work
 * units cut at run boundaries, sorted largest first and handed out dynamically
 * (RACE §5.2.2) through rv_parallel_dynamic().  Each thread counts or collects
 * its own pairs; the ordered output is produced afterwards (pairs_sort.c), so the
 * result is the same for every thread count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "base/internal.h"
#include "pairs_internal.h"
#include "pairs_filter.h"
#include "pairs_sort.h"

enum { MODE_PRODUCT, MODE_COUNT, MODE_COLLECT };

typedef struct {
    uint32_t cls, head, tail, cnt; /* class, list of local ranks via nxt[] */
} group_t;

typedef struct {
    uint64_t lcp;  /* 0 for the sentinel at the bottom */
    uint64_t tab;  /* first group in the pool; the top frame's groups end the pool */
    uint64_t ntab; /* number of groups */
} frame_t;

typedef struct {
    const rv_index_t *x;       /* the suffix array, or NULL with ... */
    const uint64_t *bpos, *blcp; /* ... one bucket's suffixes and LCPs (pairs_buckets.c) */
    const pf_filter_t *f;
    int mode;
    uint64_t count;
    uint64_t *pos;     /* text position of each local rank */
    uint32_t *nxt;     /* list links */
    uint64_t pos_cap, nxt_cap;
    group_t *pool;
    uint64_t pool_cap;
    frame_t *stk;
    uint64_t stk_cap;
    pf_sink_t *sink;   /* MODE_COLLECT */
    int err;
    char errmsg[256];  /* the worker's message (rv_error is per thread) */
} walker_t;

static inline uint64_t w_sa(const walker_t *w, uint64_t r) { return w->x ? rv_sa(w->x, r) : w->bpos[r]; }
static inline uint64_t w_lcp(const walker_t *w, uint64_t r) { return w->x ? rv_lcp(w->x, r) : w->blcp[r]; }

/* All pairs between two groups of different classes, of length len. */
static void cross(walker_t *w, const group_t *c, const group_t *p, uint64_t len)
{
    if (w->mode == MODE_PRODUCT) {
        w->count += (uint64_t)c->cnt * p->cnt;
        return;
    }
    uint32_t e = c->head;
    for (uint32_t i = 0; i < c->cnt; i++, e = w->nxt[e]) {
        uint64_t a = w->pos[e];
        uint32_t g = p->head;
        for (uint32_t j = 0; j < p->cnt; j++, g = w->nxt[g]) {
            uint64_t b = w->pos[g];
            uint64_t p1 = a < b ? a : b, p2 = a < b ? b : a;
            int inv = 0;
            if (w->f->both && !pf_orient(w->f, &p1, &p2, len, &inv)) continue;
            if (w->f->any && !pf_pass(w->f, p1, p2, len)) continue;
            if (w->mode == MODE_COUNT) w->count++;
            else pf_sink_push(w->sink, p1, w->f->both ? 2 * p2 + (uint64_t)inv : p2, len);
        }
    }
}

/* Attach the child groups pool[c0, c0+cn) (which directly follow F's groups) to
 * frame F: report the pairs across them (eq. 3), then merge the groups (eq. 2). */
static void attach(walker_t *w, frame_t *F, uint64_t c0, uint64_t cn)
{
    group_t *P = w->pool + F->tab, *C = w->pool + c0;
    uint64_t k = F->ntab, added = 0;
    if (F->lcp >= w->f->min_len && k && cn)
        for (uint64_t j = 0; j < cn; j++)
            for (uint64_t i = 0; i < k; i++)
                if (C[j].cls != P[i].cls || C[j].cls == 0) cross(w, &C[j], &P[i], F->lcp);
    for (uint64_t j = 0; j < cn; j++) {
        uint64_t i = 0;
        while (i < k && P[i].cls != C[j].cls) i++;
        if (i < k) {
            w->nxt[P[i].tail] = C[j].head;
            P[i].tail = C[j].tail;
            P[i].cnt += C[j].cnt;
        } else {
            P[k + added++] = C[j]; /* k + added <= k + j: compaction in place */
        }
    }
    F->ntab = k + added;
}

/* Put leaf r (local rank e) in the pool at c0 as a one-element group; returns the
 * number of groups made (0 when the range filter excludes it). */
static uint64_t leaf(walker_t *w, uint64_t r, uint32_t e, uint64_t c0)
{
    const pf_filter_t *f = w->f;
    uint64_t p = w_sa(w, r);
    if (f->use_within) {
        /* a copy in the reverse half reads forward [e - len, e): it can lie in the
         * range only when e does and e - min_len does not fall before it */
        uint64_t end = f->both && p > f->nf ? 2 * f->nf + 1 - p : 0;
        if (end ? end > f->te || end < f->tb + f->min_len : p < f->tb || p + f->min_len > f->te) return 0;
    }
    w->pos[e] = p;
    w->pool[c0] = (group_t){pf_left_class(f->s, p), e, e, 1};
    return 1;
}

/* One task: ranks L..R, all adjacent LCPs >= min_len.  Classic bottom-up
 * traversal with a stack of open intervals (Abouelhoda et al., Kasai et al.). */
static void walk_task(walker_t *w, uint64_t L, uint64_t R)
{
    uint64_t size = R - L + 1;
    if (size >= UINT32_MAX) {
        w->err = rv_error("pairs", "a repeat family of %llu suffixes is too large; raise -l",
                          (unsigned long long)size);
        return;
    }
    if (rv_grow((void **)&w->pos, &w->pos_cap, size, sizeof *w->pos) < 0 ||
        rv_grow((void **)&w->nxt, &w->nxt_cap, size, sizeof *w->nxt) < 0 ||
        rv_grow((void **)&w->stk, &w->stk_cap, 2, sizeof *w->stk) < 0) {
        w->err = rv_oom("walk of a repeat family", size * (sizeof *w->pos + sizeof *w->nxt));
        return;
    }
    uint64_t sp = 0;
    w->stk[0] = (frame_t){0, 0, 0};
    for (uint64_t r = L; r <= R; r++) {
        uint64_t h = r < R ? w_lcp(w, r + 1) : 0;
        uint64_t c0 = w->stk[sp].tab + w->stk[sp].ntab;
        if (rv_grow((void **)&w->pool, &w->pool_cap, c0 + 1, sizeof *w->pool) < 0 ||
            rv_grow((void **)&w->stk, &w->stk_cap, sp + 2, sizeof *w->stk) < 0) {
            w->err = rv_oom("walk of a repeat family", (c0 + 1) * sizeof *w->pool + (sp + 2) * sizeof *w->stk);
            return;
        }
        uint64_t cn = leaf(w, r, (uint32_t)(r - L), c0);
        while (h < w->stk[sp].lcp) {
            attach(w, &w->stk[sp], c0, cn);
            c0 = w->stk[sp].tab;
            cn = w->stk[sp].ntab;
            sp--;
        }
        if (h > w->stk[sp].lcp) w->stk[++sp] = (frame_t){h, c0, cn};
        else attach(w, &w->stk[sp], c0, cn);
    }
}

/* Tasks of ranks [lo, hi), which starts and ends on run boundaries. */
static void run_unit(walker_t *w, uint64_t lo, uint64_t hi)
{
    const uint64_t min = w->f->min_len;
    for (uint64_t L = lo; L < hi && !w->err && !(w->sink && w->sink->err);) {
        uint64_t R = L;
        while (R + 1 < hi && w_lcp(w, R + 1) >= min) R++;
        if (R > L) walk_task(w, L, R);
        L = R + 1;
    }
    if (w->err && !w->errmsg[0]) snprintf(w->errmsg, sizeof w->errmsg, "%s", rv_last_error());
}

static int unit_cmp(const void *a, const void *b)
{
    const pf_unit_t *u = a, *v = b;
    uint64_t su = u->hi - u->lo, sv = v->hi - v->lo;
    if (su != sv) return su > sv ? -1 : 1; /* largest first */
    return u->lo < v->lo ? -1 : u->lo > v->lo;
}

pf_unit_t *pf_make_units(const rv_index_t *x, uint64_t min_len, int threads, uint64_t grain,
                          uint64_t *nunits)
{
    uint64_t n = x->n, want = (uint64_t)threads * 64;
    if (want > n / grain + 1) want = n / grain + 1;
    pf_unit_t *u = malloc(want * sizeof *u);
    if (!u) return NULL;
    uint64_t k = 0, lo = 0;
    for (uint64_t i = 1; i <= want && lo < n; i++) {
        uint64_t c = i == want ? n : (uint64_t)((unsigned __int128)n * i / want);
        if (c < lo) c = lo;
        while (c < n && rv_lcp(x, c) >= min_len) c++;
        if (c > lo) u[k++] = (pf_unit_t){lo, c};
        lo = c;
    }
    qsort(u, k, sizeof *u, unit_cmp);
    *nunits = k;
    return u;
}

typedef struct {
    const pf_unit_t *units;
    walker_t *w;
} drive_t;

static void drive(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    drive_t *d = ctx;
    for (uint64_t i = lo; i < hi; i++) run_unit(&d->w[t], d->units[i].lo, d->units[i].hi);
}

static void walker_free(walker_t *w)
{
    free(w->pos);
    free(w->nxt);
    free(w->pool);
    free(w->stk);
}

/* Run every task on `threads` threads in `mode`; sinks[t] collects thread t's
 * pairs in MODE_COLLECT.  The sum of the counts goes to *count. */
static int run_all(const rv_index_t *x, const pf_filter_t *f, int mode, const rv_pairs_opts_t *o,
                   int threads, pf_sink_t *sinks, uint64_t *count)
{
    uint64_t nunits = 0;
    pf_unit_t *units = pf_make_units(x, f->min_len, threads, o->grain ? o->grain : 4096, &nunits);
    if ((uint64_t)threads > nunits) threads = nunits ? (int)nunits : 1; /* no idle threads */
    walker_t *w = calloc((size_t)threads, sizeof *w);
    if (!units || !w) {
        free(units);
        free(w);
        return rv_oom("pairs' work units", (uint64_t)threads * sizeof *w);
    }
    for (int t = 0; t < threads; t++)
        w[t] = (walker_t){.x = x, .f = f, .mode = mode, .sink = sinks ? &sinks[t] : NULL};
    drive_t d = {units, w};
    rv_parallel_dynamic(threads, nunits, 1, drive, &d);
    int rc = 0;
    uint64_t total = 0;
    for (int t = 0; t < threads; t++) {
        total += w[t].count;
        if (rc == 0 && w[t].err) rc = rv_error(NULL, "%s", w[t].errmsg);
        if (rc == 0 && sinks && sinks[t].err) rc = rv_error(NULL, "%s", sinks[t].errmsg);
        walker_free(&w[t]);
    }
    free(w);
    free(units);
    if (count) *count = total;
    return rc;
}

static int resolve_threads(const rv_pairs_opts_t *o)
{
    int t = o->threads > 0 ? o->threads : rv_default_threads();
    return t > 256 ? 256 : t;
}

int rv_pairs_count(const rv_index_t *x, const rv_pairs_opts_t *o, uint64_t *count)
{
    pf_filter_t f;
    if (pf_filter_init(&f, x->seq, o) < 0) return -1;
    return run_all(x, &f, f.any ? MODE_COUNT : MODE_PRODUCT, o, resolve_threads(o), NULL, count);
}

int pf_collect_sinks(const pf_filter_t *f, const rv_pairs_opts_t *o, uint64_t n_text, pf_produce_fn produce,
                     void *pctx, pf_sinks_fn use, void *ud)
{
    int threads = resolve_threads(o);
    uint64_t mem = o->mem_bytes ? o->mem_bytes : 256ull << 20;
    uint64_t cap = mem / (uint64_t)threads / (2 * sizeof(rv_pair_t)); /* + radix scratch */
    pf_sink_t *sinks = calloc((size_t)threads, sizeof *sinks);
    if (!sinks) return rv_oom("pairs' sinks", (uint64_t)threads * sizeof *sinks);
    int rc = 0, made = 0;
    for (; made < threads && rc == 0; made++) {
        rc = pf_sink_init(&sinks[made], cap < 64 ? 64 : cap, n_text);
        sinks[made].with_len = f->both;
        /* a full run is sorted by up to 8 of the threads (most of the pairs may come
         * from the few jobs of one or two threads) */
        sinks[made].sort_threads = threads < 8 ? threads : 8;
    }
    double t_phase = rv_now();
    if (rc == 0) rc = produce(pctx, threads, sinks);
    rv_trace("pairs: produced", &t_phase);
    if (rc == 0) rc = use(ud, sinks, threads);
    for (int k = 0; k < made; k++) pf_sink_free(&sinks[k]);
    free(sinks);
    return rc;
}

/* pf_sinks_fn: the sinks merged to the pf_out_t at ud. */
static int merge_sinks(void *ud, pf_sink_t *sinks, int n)
{
    double t_phase = rv_now();
    int rc = pf_merge(sinks, n, ud);
    rv_trace("pairs: merged and passed on", &t_phase);
    return rc;
}

int pf_collect(const pf_filter_t *f, const rv_pairs_opts_t *o, uint64_t n_text, pf_produce_fn produce,
               void *pctx, rv_pairs_batch_fn fn, void *ud, const rv_pairs_text_t *t)
{
    pf_out_t out = {fn, ud, t, f->both, f->nf, 0}; /* both: the sinks hold p2 encoded (pf_orient) */
    return pf_collect_sinks(f, o, n_text, produce, pctx, merge_sinks, &out);
}

typedef struct {
    const rv_index_t *x;
    const pf_filter_t *f;
    const rv_pairs_opts_t *o;
} index_producer_t;

static int produce_from_index(void *ctx, int threads, pf_sink_t *sinks)
{
    const index_producer_t *p = ctx;
    return run_all(p->x, p->f, MODE_COLLECT, p->o, threads, sinks, NULL);
}

int rv_pairs_each_batch(const rv_index_t *x, const rv_pairs_opts_t *o, rv_pairs_batch_fn fn,
                        void *ud)
{
    pf_filter_t f;
    if (pf_filter_init(&f, x->seq, o) < 0) return -1;
    index_producer_t p = {x, &f, o};
    return pf_collect(&f, o, x->n, produce_from_index, &p, fn, ud, NULL);
}

int rv_pairs_each_text(const rv_index_t *x, const rv_pairs_opts_t *o, const rv_pairs_text_t *t)
{
    pf_filter_t f;
    if (pf_filter_init(&f, x->seq, o) < 0) return -1;
    index_producer_t p = {x, &f, o};
    return pf_collect(&f, o, x->n, produce_from_index, &p, NULL, NULL, t);
}

/* ---- one bucket at a time (pairs_buckets.c) ---------------------------------- */

struct pf_walker {
    walker_t w;
};

pf_walker_t *pf_walker_new(const pf_filter_t *f, pf_sink_t *sink)
{
    pf_walker_t *v = calloc(1, sizeof *v);
    if (v) v->w = (walker_t){.f = f, .mode = sink ? MODE_COLLECT : MODE_COUNT, .sink = sink};
    return v;
}

int pf_walker_bucket(pf_walker_t *v, const uint64_t *pos, const uint64_t *lcp, uint64_t m)
{
    walker_t *w = &v->w;
    w->bpos = pos;
    w->blcp = lcp;
    run_unit(w, 0, m);
    if (w->err) return rv_error(NULL, "%s", w->errmsg);
    if (w->sink && w->sink->err) return rv_error(NULL, "%s", w->sink->errmsg);
    return 0;
}

uint64_t pf_walker_count(const pf_walker_t *v) { return v->w.count; }

void pf_walker_free(pf_walker_t *v)
{
    if (!v) return;
    walker_free(&v->w);
    free(v);
}

typedef struct {
    rv_pair_fn fn;
    void *ud;
} one_by_one_t;

static int one_by_one(void *ud, const rv_pair_t *p, size_t n)
{
    const one_by_one_t *b = ud;
    for (size_t i = 0; i < n; i++) {
        int rc = b->fn(b->ud, &p[i]);
        if (rc) return rc;
    }
    return 0;
}

int rv_pairs_each(const rv_index_t *x, const rv_pairs_opts_t *o, rv_pair_fn fn, void *ud)
{
    one_by_one_t b = {fn, ud};
    return rv_pairs_each_batch(x, o, one_by_one, &b);
}
