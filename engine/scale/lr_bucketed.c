/* lr_bucketed.c — the longest repeats of every position from the text alone
 * (lr_buckets.h; RACE's prefix buckets, RACE §5, and the LLR of
 * Tian & Xu Lemma 1).
 *
 * L[i] is the longest prefix of suffix i that occurs once more.  When L[i] >= k,
 * the suffix-array neighbour that gives it shares the first k symbols of i, so it
 * lies in i's bucket, and the bucket's LCPs are the global ones: L[i] is the
 * larger LCP on either side inside the sorted bucket (a bucket of two or more
 * suffixes gives every member L >= k).  When L[i] < k — i's k-mer occurs once,
 * or fewer than k symbols are left before a breaker — L[i] is the largest j < k
 * whose j-mer at i occurs at least twice (as a breaker-free prefix of a suffix).
 * Those counts, saturated at 2, come as a tower: level j = 1..k-1 over the j-mer
 * codes, each entry the sum of its sigma extensions one level up (level k being
 * the plan's counts) plus the "short" suffixes of exactly j symbols, which are the
 * last k-1 positions of each segment.  The code order is lexicographic, so a
 * j-mer's code is its k-mer's code divided by sigma^(k-j).
 *
 * The window keeps min(L, 255) a byte per position of [lo, hi) and the rest in a
 * list; positions before lo matter only when their LLR reaches lo, and as LLR ends
 * never decrease (lr.h) those are one run [w, lo) that the jobs report too.  The
 * scan is then lr_scan.c's own, over a small index that holds only the LLR
 * sections of [w, hi) (shifted back to text positions on the way out), so the
 * answers are those of the index path, in its order.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/lr_buckets.h"
#include "base/internal.h"
#include "query/pairs_internal.h"

enum { MAX_K = 24, SHORT_CHUNK = 1 << 20 };

struct rv_lr_window {
    const rv_seq_t *s;
    const rv_bucket_plan_t *p;
    uint64_t lo, hi, k, sigma;
    int threads;
    uint8_t *occ[MAX_K];   /* occ[j], 1 <= j < k: min(occurrences of each j-mer, 2) */
    uint8_t *small;        /* min(L, 255) over [lo, hi) */
    rv_lr_t *big;          /* values >= 255 in [lo, hi) */
    uint64_t n_big, cap_big;
    rv_lr_t *before;       /* positions < lo whose LLR reaches past lo */
    uint64_t n_before, cap_before;
};

/* ---- plan ------------------------------------------------------------------------ */

int rv_lr_bucket_plan(const rv_seq_t *s, uint64_t mem_budget, int threads, uint64_t workers,
                      rv_bucket_plan_t *plan)
{
    memset(plan, 0, sizeof *plan);
    if (s->strands == 2) return rv_error("lr", "prefix buckets take one strand (--strands both needs the index)");
    if (!mem_budget) mem_budget = 1ull << 30;
    if (threads <= 0) threads = rv_default_threads();
    const uint64_t sigma = s->sigma > 1 ? (uint64_t)s->sigma : 1;
    uint64_t k = 1, codes = sigma;
    while (sigma > 1 && codes < s->n && k < MAX_K - 1) codes *= sigma, k++;
    /* half the budget for the jobs' arrays and their values, the rest is slack for
     * the window and the tower */
    uint64_t per = rv_bucket_job_bytes(1) + sizeof(rv_lr_t), job = mem_budget / 2 / (uint64_t)threads / per;
    if (rv_bucket_plan(s, k, job ? job : 1, threads, plan) < 0) return -1;
    if ((uint64_t)plan->k >= MAX_K) { /* the tower has MAX_K - 1 levels */
        rv_bucket_plan_free(plan);
        return rv_error("lr", "prefix of %d symbols is too long for the buckets", plan->k);
    }
    return rv_pairs_bucket_spread(plan, workers, 1); /* equal jobs, as before: the taper is measured for pairs */
}

/* ---- one job ----------------------------------------------------------------------- */

static int by_start(const void *a, const void *b)
{
    const rv_lr_t *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static inline int wanted(uint64_t i, uint64_t len, uint64_t lo, uint64_t hi)
{
    return i < lo ? i + len > lo : i < hi;
}

int rv_lr_bucket_job(const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t j, uint64_t lo, uint64_t hi,
                     rv_lr_t **out, uint64_t *n)
{
    uint64_t *pos = NULL, *lcp = NULL, m = 0, kept = 0;
    *out = NULL, *n = 0;
    if (rv_bucket_job_sort(s, p, j, &pos, &lcp, &m) < 0) return -1;
    const uint64_t k = (uint64_t)p->k;
    for (uint64_t r = 0; r < m; r++) { /* L = the larger LCP on either side (Lemma 1) */
        uint64_t a = lcp[r], b = r + 1 < m ? lcp[r + 1] : 0, L = a > b ? a : b;
        if (L < k || !wanted(pos[r], L, lo, hi)) continue;
        pos[kept] = pos[r];
        lcp[kept++] = L; /* kept <= r: lcp[r + 1] is still unread */
    }
    rv_lr_t *v = malloc((kept ? kept : 1) * sizeof *v);
    if (!v) {
        free(pos), free(lcp);
        return rv_error("lr", "out of memory");
    }
    for (uint64_t r = 0; r < kept; r++) v[r] = (rv_lr_t){pos[r], lcp[r]};
    free(pos), free(lcp);
    qsort(v, kept, sizeof *v, by_start);
    *out = v, *n = kept;
    return 0;
}

/* ---- jobs on threads ---------------------------------------------------------------- */

typedef struct {
    const rv_seq_t *s;
    const rv_bucket_plan_t *p;
    pf_job_source_t src;
    uint64_t lo, hi;
    rv_lr_values_fn fn;
    void *ud;
    _Atomic int failed;
    char err[256];
    pthread_mutex_t mu;
} run_t;

static void run_worker(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    run_t *b = ctx;
    (void)lo, (void)hi, (void)t;
    int rc = 0;
    while (rc == 0 && !atomic_load(&b->failed)) {
        uint64_t job;
        int got = pf_take_job(&b->src, &b->mu, &job);
        if (got < 0) rc = -1;
        if (got <= 0) break;
        rv_lr_t *v;
        uint64_t n;
        rc = rv_lr_bucket_job(b->s, b->p, job, b->lo, b->hi, &v, &n);
        if (rc == 0) {
            pthread_mutex_lock(&b->mu);
            rc = b->fn(b->ud, v, n);
            pthread_mutex_unlock(&b->mu);
        }
        free(v);
    }
    if (rc < 0) pf_job_failed(&b->failed, b->err, sizeof b->err, &b->mu);
}

int rv_lr_buckets_run(const rv_seq_t *s, const rv_bucket_plan_t *p, const uint64_t *jobs, uint64_t n_jobs,
                      rv_bucket_next_fn next, void *nctx, uint64_t lo, uint64_t hi, int threads,
                      rv_lr_values_fn fn, void *ud)
{
    if (threads <= 0) threads = rv_default_threads();
    run_t b = {.s = s, .p = p, .src = {.jobs = jobs, .n_jobs = n_jobs, .next = jobs ? NULL : next, .nctx = nctx},
               .lo = lo, .hi = hi, .fn = fn, .ud = ud};
    pthread_mutex_init(&b.mu, NULL);
    rv_parallel_for(threads, (uint64_t)threads, run_worker, &b);
    pthread_mutex_destroy(&b.mu);
    return atomic_load(&b.failed) ? rv_error(NULL, "%s", b.err) : 0;
}

/* ---- the window: short values from the j-mer tower ------------------------------- */

static inline uint64_t code_of(const uint8_t *t, uint64_t i, uint64_t j, uint64_t sigma)
{
    uint64_t c = 0;
    for (uint64_t q = 0; q < j; q++) c = c * sigma + (uint64_t)(t[i + q] - 1);
    return c;
}

static inline uint8_t sat2(uint64_t v) { return v < 2 ? (uint8_t)v : 2; }

/* The tower of saturated j-mer counts, j = 1..k-1 (see the top of the file). */
static int tower_build(rv_lr_window_t *w)
{
    const rv_seq_t *s = w->s;
    const uint64_t k = w->k, sigma = w->sigma;
    uint64_t size = 1;
    for (uint64_t j = 1; j < k; j++) {
        size *= sigma;
        if (!(w->occ[j] = calloc(size, 1))) return rv_error("lr", "out of memory");
    }
    for (uint64_t g = 0; g < s->n_seg; g++) { /* the short suffixes: their exact length */
        uint64_t end = s->seg[g].tpos + s->seg[g].len;
        uint64_t i = s->seg[g].len >= k ? end - (k - 1) : s->seg[g].tpos;
        for (; i < end; i++) {
            uint8_t *c = &w->occ[end - i][code_of(s->text, i, end - i, sigma)];
            *c = sat2((uint64_t)*c + 1);
        }
    }
    for (uint64_t j = k - 1; j >= 1; j--) { /* size = sigma^j */
        for (uint64_t c = 0; c < size; c++) {
            uint64_t v = w->occ[j][c];
            for (uint64_t x = 0; x < sigma && v < 2; x++)
                v += j + 1 == k ? sat2(w->p->count[c * sigma + x]) : w->occ[j + 1][c * sigma + x];
            w->occ[j][c] = sat2(v);
        }
        size /= sigma;
    }
    return 0;
}

static int push(rv_lr_t **a, uint64_t *n, uint64_t *cap, rv_lr_t v)
{
    if (*n == *cap) {
        uint64_t nc = *cap ? 2 * *cap : 64;
        rv_lr_t *g = realloc(*a, nc * sizeof *g);
        if (!g) return rv_error("lr", "out of memory");
        *a = g, *cap = nc;
    }
    (*a)[(*n)++] = v;
    return 0;
}

/* L < k of the positions of [a, b) that no bucket of two or more holds; a < lo
 * only from one thread (the list before lo grows). */
static int short_range(rv_lr_window_t *w, uint64_t a, uint64_t b)
{
    const rv_seq_t *s = w->s;
    const uint8_t *t = s->text;
    const uint64_t k = w->k, sigma = w->sigma, top = w->p->n_codes / sigma;
    int rc = 0;
    if (a >= b || !s->n_seg) return 0;
    for (uint64_t g = rv_seq_segment_of_text(s, a); rc == 0 && g < s->n_seg && s->seg[g].tpos < b; g++) {
        const uint64_t send = s->seg[g].tpos + s->seg[g].len, en = send < b ? send : b;
        uint64_t i = s->seg[g].tpos > a ? s->seg[g].tpos : a, code = 0;
        int have = 0;
        for (; i < en && rc == 0; i++) {
            uint64_t j, c;
            if (send - i >= k) {
                code = have ? (code - (uint64_t)(t[i - 1] - 1) * top) * sigma + (uint64_t)(t[i + k - 1] - 1)
                            : code_of(t, i, k, sigma);
                have = 1;
                if (w->p->count[code] >= 2) continue; /* a bucket gives it */
                j = k - 1, c = code / sigma;
            } else {
                j = send - i, c = code_of(t, i, j, sigma);
            }
            while (j > 0 && w->occ[j][c] < 2) c /= sigma, j--;
            if (i >= w->lo) w->small[i - w->lo] = (uint8_t)j;
            else if (i + j > w->lo) rc = push(&w->before, &w->n_before, &w->cap_before, (rv_lr_t){i, j});
        }
    }
    return rc;
}

static void short_chunks(void *ctx, uint64_t c0, uint64_t c1, int t)
{
    (void)t;
    rv_lr_window_t *w = ctx;
    for (uint64_t c = c0; c < c1; c++) {
        uint64_t a = w->lo + c * SHORT_CHUNK, b = a + SHORT_CHUNK < w->hi ? a + SHORT_CHUNK : w->hi;
        short_range(w, a, b); /* never fails from lo on */
    }
}

rv_lr_window_t *rv_lr_window_new(const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t lo, uint64_t hi,
                                 int threads)
{
    rv_lr_window_t *w = calloc(1, sizeof *w);
    if (!w) { rv_error("lr", "out of memory"); return NULL; }
    if (hi > s->n) hi = s->n;
    if (lo > hi) lo = hi;
    *w = (rv_lr_window_t){.s = s, .p = p, .lo = lo, .hi = hi, .k = (uint64_t)p->k, .sigma = p->sigma,
                          .threads = threads > 0 ? threads : rv_default_threads()};
    w->small = calloc(hi - lo ? hi - lo : 1, 1);
    if (!w->small) {
        rv_error("lr", "out of memory (%llu MB for the window)", (unsigned long long)((hi - lo) >> 20));
        rv_lr_window_free(w);
        return NULL;
    }
    if (w->k < 1 || w->k >= MAX_K || tower_build(w) < 0) {
        if (w->k < 1 || w->k >= MAX_K) rv_error("lr", "the plan does not fit");
        rv_lr_window_free(w);
        return NULL;
    }
    uint64_t a = lo > w->k - 1 ? lo - (w->k - 1) : 0; /* short LLRs before lo that reach it */
    if (short_range(w, a, lo) < 0) {
        rv_lr_window_free(w);
        return NULL;
    }
    rv_parallel_dynamic(w->threads, (hi - lo + SHORT_CHUNK - 1) / SHORT_CHUNK, 1, short_chunks, w);
    for (uint64_t j = 1; j < w->k; j++) free(w->occ[j]), w->occ[j] = NULL;
    return w;
}

int rv_lr_window_add(rv_lr_window_t *w, const rv_lr_t *v, uint64_t n)
{
    for (uint64_t r = 0; r < n; r++) {
        const uint64_t i = v[r].start, L = v[r].len;
        if (i >= w->lo && i < w->hi) {
            w->small[i - w->lo] = L < RV_NARROW_ESC ? (uint8_t)L : RV_NARROW_ESC;
            if (L >= RV_NARROW_ESC && push(&w->big, &w->n_big, &w->cap_big, v[r]) < 0) return -1;
        } else if (i < w->lo && i + L > w->lo) {
            if (push(&w->before, &w->n_before, &w->cap_before, v[r]) < 0) return -1;
        }
    }
    return 0;
}

void rv_lr_window_free(rv_lr_window_t *w)
{
    if (!w) return;
    for (uint64_t j = 0; j < MAX_K; j++) free(w->occ[j]);
    free(w->small);
    free(w->big);
    free(w->before);
    free(w);
}

/* ---- the window: scan ------------------------------------------------------------ */

typedef struct {
    rv_lr_emit_fn emit;
    void *ctx;
    uint64_t off;
    rv_lr_hit_t *buf;
    size_t cap;
    int oom;
} shift_t;

static int shifted(void *ctx, const rv_lr_hit_t *h, size_t n)
{
    shift_t *sh = ctx;
    if (n > sh->cap) {
        rv_lr_hit_t *g = realloc(sh->buf, n * sizeof *g);
        if (!g) return sh->oom = 1;
        sh->buf = g, sh->cap = n;
    }
    for (size_t i = 0; i < n; i++) sh->buf[i] = (rv_lr_hit_t){h[i].pos + sh->off, h[i].start + sh->off, h[i].len};
    return sh->emit(sh->ctx, sh->buf, n);
}

/* The LLR sections of [w0, w0 + m) on a bare index (no sequence, no SA). */
static rv_index_t *window_index(rv_lr_window_t *w, uint64_t m, rv_lr_t *big, uint64_t n_big)
{
    rv_index_t *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    x->n = m;
    x->wide = m >= (1ull << 32);
    rv_narrow_t nv;
    uint64_t big_bytes = 0, useful = 0, width = x->wide ? 8 : 4;
    void *bigsec = rv_narrow_big_alloc(&nv, w->small, m, n_big, x->wide, &big_bytes);
    if (!bigsec) { free(x); return NULL; }
    for (uint64_t r = 0; r < n_big; r++) rv_put((void *)nv.val, x->wide, r, big[r].len);
    rv_narrow_finish(&nv, w->threads);
    /* LLRc: the starts of the useful LLRs (lr.h) */
    for (uint64_t i = 0, e = 0, prev = 0; i < m; i++) {
        uint64_t L = w->small[i] != RV_NARROW_ESC ? w->small[i] : big[e++].len;
        useful += L > 0 && L >= prev;
        prev = L;
    }
    void *llrc = malloc(useful ? useful * width : width);
    if (!llrc) { free(bigsec); free(x); return NULL; }
    for (uint64_t i = 0, e = 0, prev = 0, u = 0; i < m; i++) {
        uint64_t L = w->small[i] != RV_NARROW_ESC ? w->small[i] : big[e++].len;
        if (L > 0 && L >= prev) rv_put(llrc, x->wide, u++, i);
        prev = L;
    }
    rv_index_attach(x, RV_SEC_LLR, w->small, m);
    rv_index_attach(x, RV_SEC_LLR_BIG, bigsec, big_bytes);
    rv_index_attach(x, RV_SEC_LLRC, llrc, useful * width);
    w->small = NULL; /* the index owns it now */
    return x;
}

int rv_lr_window_scan(rv_lr_window_t *w, const rv_lr_scan_opts_t *o, rv_lr_emit_fn emit, void *ctx)
{
    if (w->lo >= w->hi) return 0;
    uint64_t w0 = w->lo, maxl = 0;
    for (uint64_t r = 0; r < w->n_before; r++) {
        if (w->before[r].start < w0) w0 = w->before[r].start;
        if (w->before[r].len > maxl) maxl = w->before[r].len;
    }
    if (w->n_before != w->lo - w0) /* ends never decrease: they are one run */
        return rv_error("lr", "the values before the window do not fit (%llu for %llu positions)",
                        (unsigned long long)w->n_before, (unsigned long long)(w->lo - w0));
    for (uint64_t r = 0; r < w->n_big; r++) if (w->big[r].len > maxl) maxl = w->big[r].len;
    for (uint64_t i = 0; i < w->hi - w->lo; i++) if (w->small[i] > maxl && w->small[i] != RV_NARROW_ESC) maxl = w->small[i];
    /* the scan clamps lengths to its n: room for the longest */
    uint64_t span = w->hi - w0, m = span > maxl ? span : maxl, lead = w->lo - w0;
    uint8_t *grown = realloc(w->small, m);
    if (!grown) return rv_error("lr", "out of memory");
    w->small = grown;
    memmove(grown + lead, grown, w->hi - w->lo);
    memset(grown + span, 0, m - span);
    if (w->n_before) qsort(w->before, w->n_before, sizeof *w->before, by_start);
    for (uint64_t r = 0; r < w->n_before; r++) {
        uint64_t L = w->before[r].len;
        grown[r] = L < RV_NARROW_ESC ? (uint8_t)L : RV_NARROW_ESC;
        if (L >= RV_NARROW_ESC && push(&w->big, &w->n_big, &w->cap_big, w->before[r]) < 0) return -1;
    }
    if (w->n_big) qsort(w->big, w->n_big, sizeof *w->big, by_start);
    rv_index_t *x = window_index(w, m, w->big, w->n_big);
    if (!x) return rv_error("lr", "out of memory");
    rv_lr_scan_opts_t so = *o;
    so.method = RV_LR_SWEEP;
    shift_t sh = {emit, ctx, w0, NULL, 0, 0};
    int rc = rv_lr_scan(x, lead, span, &so, emit ? shifted : NULL, &sh, NULL);
    if (sh.oom) rc = rv_error("lr", "out of memory");
    free(sh.buf);
    rv_index_free(x);
    return rc;
}

/* ---- all of it here --------------------------------------------------------------- */

static int add_values(void *ud, const rv_lr_t *v, uint64_t n)
{
    return rv_lr_window_add(ud, v, n);
}

int rv_lr_buckets_scan(const rv_seq_t *s, uint64_t lo, uint64_t hi, uint64_t mem_budget,
                       const rv_lr_scan_opts_t *o, rv_lr_emit_fn emit, void *ctx)
{
    int threads = o->threads > 0 ? o->threads : rv_default_threads();
    rv_bucket_plan_t plan;
    if (rv_lr_bucket_plan(s, mem_budget, threads, (uint64_t)threads, &plan) < 0) return -1;
    /* the jobs find their suffixes in a job map when it fits (buckets.h) */
    if (rv_bucket_plan_make_map(&plan, s, rv_bucket_map_budget(mem_budget), threads) < 0) {
        rv_bucket_plan_free(&plan);
        return -1;
    }
    rv_lr_window_t *w = rv_lr_window_new(s, &plan, lo, hi, threads);
    uint64_t *order = w ? rv_bucket_jobs_largest_first(&plan) : NULL;
    int rc = !w ? -1 : !order ? rv_error("lr", "out of memory") : 0;
    if (rc == 0) rc = rv_lr_buckets_run(s, &plan, order, plan.n_jobs, NULL, NULL, w->lo, w->hi, threads, add_values, w);
    if (rc == 0) rc = rv_lr_window_scan(w, o, emit, ctx);
    free(order);
    rv_lr_window_free(w);
    rv_bucket_plan_free(&plan);
    return rc;
}
