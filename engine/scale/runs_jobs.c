/* runs_jobs.c — the runs of the text job by job, without an index of the whole
 * text (tandem.h "from the text alone").
 *
 * A run holds no breaker, and whether [s, e) is a run of period p depends only on
 * the symbols of its segment and on what bounds the segment (a breaker or an end
 * of the text, which the Lyndon orders and the LCE of runs.c treat alike).  So a
 * job of whole segments is given a sequence of its own that points into the text
 * (no copy), indexed on the CPU, and rv_runs_compute() finds exactly the runs of
 * the whole text that lie in it, in (start, period) order.
 *
 * A segment longer than a job may be is cut into pieces [t0, t1), each searched
 * in a window [w0, w1) that reaches ov = 2 P further on both sides (P the pieces'
 * max_period), for the runs of period p <= P that start in the piece:
 *   - a run [s, e) with e <= w1 lies in the window, maximal there as in the text
 *     (s - 1 >= w0), so the window finds it;
 *   - a run with e > w1 has [s, w1) of length >= ov >= 2p in the window: a
 *     repetition of period p, left-maximal, whose smallest period is p (a smaller
 *     q would give period gcd(p, q) to all of it, Fine and Wilf); the window
 *     reports [s, w1) and its end is found by comparing text[e] with text[e - p]
 *     (the period and its smallest value stay p).
 * A run of period p > P is the maximal pair <s, s + p, e - s - p>, of length
 * >= p > P and gap <= 0, and a maximal pair with gap <= 0 is a run of period p
 * exactly when its first p symbols are primitive (else its smallest period
 * divides p); those come from the prefix buckets of pairs.h (rv_runs_long).
 */
#include <stdlib.h>
#include "repview/build.h"
#include "repview/common.h"
#include "repview/pairs.h"
#include "repview/tandem.h"

enum { MIN_CUT = 64 };

uint64_t rv_runs_job_bytes(uint64_t m)
{
    /* text view 0, SA + ISA 8, LCP 1 (+ big), RMQ about 2, Lyndon array 4, runs
     * and their sort (< 1 run a symbol, 24 bytes, mostly far fewer): 40 a symbol */
    return m * 40 + (1u << 16);
}

uint64_t rv_runs_job_symbols(uint64_t mem_budget)
{
    if (!mem_budget) mem_budget = 1ull << 30;
    const uint64_t fixed = rv_runs_job_bytes(0), per = rv_runs_job_bytes(1) - fixed;
    return mem_budget > fixed + per ? (mem_budget - fixed) / per : 1;
}

static int job_push(rv_runs_job_t **jobs, uint64_t *nj, uint64_t *cap, rv_runs_job_t j)
{
    if (*nj == *cap) {
        rv_runs_job_t *g = realloc(*jobs, (*cap *= 2) * sizeof *g);
        if (!g) return rv_error("tandem", "out of memory");
        *jobs = g;
    }
    (*jobs)[(*nj)++] = j;
    return 0;
}

rv_runs_job_t *rv_runs_jobs(const rv_seq_t *s, uint64_t lo, uint64_t hi, uint64_t max_symbols, uint64_t *n)
{
    *n = 0;
    if (max_symbols < 1) max_symbols = 1;
    if (lo >= hi) return NULL;
    const uint64_t cut = max_symbols > MIN_CUT ? max_symbols : MIN_CUT, ov = cut / 4, piece = cut - 2 * ov;
    uint64_t cap = 16, nj = 0;
    rv_runs_job_t *jobs = malloc(cap * sizeof *jobs);
    int rc = jobs ? 0 : rv_error("tandem", "out of memory");
    for (uint64_t g = 0; rc == 0 && g < s->n_seg; g++) {
        const uint64_t a = s->seg[g].tpos, b = a + s->seg[g].len;
        if (b <= lo || a >= hi || a >= rv_seq_fwd_len(s)) continue;
        if (b - a > cut) { /* pieces, up to the last one that holds a start before hi */
            for (uint64_t t0 = a; rc == 0 && t0 < b && t0 < hi; t0 += piece) {
                uint64_t t1 = t0 + piece < b ? t0 + piece : b;
                rv_runs_job_t j = {t0, t1, t0 > a + ov ? t0 - ov : a, t1 + ov < b ? t1 + ov : b, b, ov / 2};
                rc = job_push(&jobs, &nj, &cap, j);
            }
            continue;
        }
        rv_runs_job_t *last = nj ? &jobs[nj - 1] : NULL;
        if (last && !last->max_period && b - last->t0 <= max_symbols) {
            last->t1 = last->w1 = b;
            continue;
        }
        rc = job_push(&jobs, &nj, &cap, (rv_runs_job_t){a, b, a, b, b, 0});
    }
    if (rc < 0 || !nj) {
        free(jobs);
        *n = rc < 0;
        return NULL;
    }
    *n = nj;
    return jobs;
}

uint64_t rv_runs_job_of(const rv_runs_job_t *jobs, uint64_t n_jobs, uint64_t t)
{
    uint64_t lo = 0, hi = n_jobs; /* the last job with t0 <= t */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (jobs[mid].t0 <= t) lo = mid + 1; else hi = mid;
    }
    return lo && t < jobs[lo - 1].t1 ? lo - 1 : n_jobs;
}

int rv_runs_job_runs(const rv_seq_t *s, const rv_runs_job_t *job, const rv_tandem_filter_t *f, uint64_t lo,
                     uint64_t hi, int threads, rv_run_t **out, uint64_t *n)
{
    *out = NULL, *n = 0;
    rv_seq_t *js = calloc(1, sizeof *js); /* the job's symbols, read in place */
    if (!js) return rv_error("tandem", "out of memory");
    js->alpha = s->alpha, js->sigma = s->sigma, js->strands = 1;
    js->text = s->text + job->w0;
    js->n = job->w1 - job->w0;
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.backend = RV_BACKEND_CPU;
    o.threads = threads;
    o.with_llr = 0;
    rv_index_t *x = rv_build(js, &o, NULL); /* takes js */
    if (!x) return -1;
    rv_runs_t *r = rv_runs_compute(x, threads, NULL);
    rv_index_free(x);
    if (!r) return -1;
    rv_run_t *v = malloc((r->n ? r->n : 1) * sizeof *v);
    if (!v) { rv_runs_free(r); return rv_error("tandem", "out of memory (%llu runs)", (unsigned long long)r->n); }
    const uint8_t *t = s->text;
    uint64_t m = 0;
    for (uint64_t k = 0; k < r->n; k++) {
        rv_run_t u = rv_runs_at(r, k);
        u.start += job->w0, u.end += job->w0;
        if (job->max_period) { /* a piece: its starts, its periods, the true end */
            if (u.start < job->t0 || u.start >= job->t1 || u.period > job->max_period) continue;
            if (u.end == job->w1)
                while (u.end < job->seg_end && t[u.end] == t[u.end - u.period]) u.end++;
        }
        if (u.start < hi && u.end > lo && rv_run_passes(f, &u)) v[m++] = u;
    }
    rv_runs_free(r);
    rv_run_t *shrunk = realloc(v, (m ? m : 1) * sizeof *v);
    *out = shrunk ? shrunk : v;
    *n = m;
    return 0;
}

/* ---- runs of long period: maximal pairs with gap <= 0 ---------------------------- */

/* text[a, a + p) is no power of a shorter word: no period p / r for a prime r | p. */
static int primitive(const uint8_t *t, uint64_t a, uint64_t p)
{
    uint64_t m = p;
    for (uint64_t r = 2; r * r <= m || m > 1; r++) {
        if (r * r > m) r = m; /* what is left of m is prime */
        if (m % r) continue;
        while (m % r == 0) m /= r;
        const uint64_t d = p / r;
        uint64_t i = 0;
        while (i + d < p && t[a + i] == t[a + i + d]) i++;
        if (i + d == p) return 0;
    }
    return 1;
}

typedef struct {
    const rv_seq_t *s;
    const rv_runs_job_t *jobs;
    uint64_t n_jobs, lo, hi;
    const rv_tandem_filter_t *f;
    rv_run_t *v;
    uint64_t n, cap;
} long_ctx_t;

static int long_pairs(void *ud, const rv_pair_t *pr, size_t n)
{
    long_ctx_t *c = ud;
    for (size_t i = 0; i < n; i++) {
        const uint64_t p = pr[i].p2 - pr[i].p1;
        const uint64_t j = rv_runs_job_of(c->jobs, c->n_jobs, pr[i].p1);
        if (j == c->n_jobs || !c->jobs[j].max_period || p <= c->jobs[j].max_period) continue;
        rv_run_t u = {pr[i].p1, pr[i].p2 + pr[i].len, p};
        if (!(u.start < c->hi && u.end > c->lo && rv_run_passes(c->f, &u)) || !primitive(c->s->text, u.start, p))
            continue;
        if (c->n == c->cap) {
            uint64_t cap = c->cap ? 2 * c->cap : 64;
            rv_run_t *g = realloc(c->v, cap * sizeof *g);
            if (!g) return rv_error("tandem", "out of memory");
            c->v = g, c->cap = cap;
        }
        c->v[c->n++] = u;
    }
    return 0;
}

int rv_runs_long(const rv_seq_t *s, const rv_runs_job_t *jobs, uint64_t n_jobs, uint64_t slice, uint64_t n_slices,
                 uint64_t mem_budget, int threads, int quiet, const rv_tandem_filter_t *f, uint64_t lo, uint64_t hi,
                 rv_run_t **out, uint64_t *n)
{
    *out = NULL, *n = 0;
    uint64_t P = 0;
    for (uint64_t j = 0; j < n_jobs && !P; j++) P = jobs[j].max_period;
    if (!P) return 0; /* no segment was cut */
    rv_pairs_opts_t o;
    rv_pairs_opts_init(&o, P + 1);
    o.use_max_gap = 1, o.max_gap = 0; /* the copies touch or overlap: one segment */
    o.threads = threads;
    o.quiet = quiet, o.who = "tandem";
    long_ctx_t c = {s, jobs, n_jobs, lo, hi, f, NULL, 0, 0};
    if (rv_pairs_buckets_each_batch(s, &o, mem_budget, slice, n_slices, long_pairs, &c) < 0) {
        free(c.v);
        return -1;
    }
    *out = c.v, *n = c.n;
    return 0;
}

/* ---- all of it here ---------------------------------------------------------------- */

static int run_less(const rv_run_t *a, const rv_run_t *b)
{
    return a->start != b->start ? a->start < b->start : a->period < b->period;
}

int rv_runs_each_local(const rv_seq_t *s, uint64_t lo, uint64_t hi, uint64_t mem_budget, int threads, int quiet,
                       const rv_tandem_filter_t *f, rv_run_fn fn, void *ud)
{
    if (!mem_budget) mem_budget = 1ull << 30;
    if (lo >= hi) return 0;
    uint64_t n_jobs, n_long, at = 0;
    rv_runs_job_t *jobs = rv_runs_jobs(s, lo, hi, rv_runs_job_symbols(mem_budget), &n_jobs);
    if (!jobs) return n_jobs ? -1 : 0;
    rv_run_t *lng;
    int rc = rv_runs_long(s, jobs, n_jobs, 0, 1, mem_budget, threads, quiet, f, lo, hi, &lng, &n_long);
    for (uint64_t j = 0; j < n_jobs && rc == 0; j++) { /* one at a time, on every thread */
        rv_run_t *v;
        uint64_t m;
        rc = rv_runs_job_runs(s, &jobs[j], f, lo, hi, threads, &v, &m);
        for (uint64_t k = 0; rc == 0 && (k < m || (at < n_long && lng[at].start < jobs[j].t1));) {
            /* the job's runs and the long ones that start in it, merged */
            int take_long = at < n_long && lng[at].start < jobs[j].t1 && (k == m || run_less(&lng[at], &v[k]));
            if (fn(ud, take_long ? &lng[at++] : &v[k++])) rc = 1;
        }
        free(v);
    }
    free(lng);
    free(jobs);
    return rc;
}
