/* runs_jobs.c — the runs of the text job by job, without an index of the whole
 * text (tandem.h "from the text alone"; issue 15).
 *
 * A run holds no breaker, and whether [s, e) is a run of period p depends only on
 * the symbols of its segment and on what bounds the segment (a breaker or an end
 * of the text, which the Lyndon orders and the LCE of runs.c treat alike).  So a
 * job, a text range of whole segments, is given a sequence of its own that points
 * into the text (no copy), indexed on the CPU, and rv_runs_compute() finds exactly
 * the runs of the whole text that lie in it, in (start, period) order; moved back
 * by the job's start, jobs in text order give the index path's order too.
 */
#include <stdlib.h>
#include "repview/build.h"
#include "repview/common.h"
#include "repview/tandem.h"

uint64_t rv_runs_job_bytes(uint64_t m)
{
    /* text view 0, SA + ISA 8, LCP 1 (+ big), RMQ about 2, Lyndon array 4, runs
     * and their sort (< 1 run a symbol, 24 bytes, mostly far fewer): 40 a symbol */
    return m * 40 + (1u << 16);
}

rv_runs_job_t *rv_runs_jobs(const rv_seq_t *s, uint64_t lo, uint64_t hi, uint64_t max_symbols, uint64_t *n)
{
    *n = 0;
    if (max_symbols < 1) max_symbols = 1;
    if (lo >= hi) return NULL;
    uint64_t cap = 16, nj = 0;
    rv_runs_job_t *jobs = malloc(cap * sizeof *jobs);
    if (!jobs) { *n = 1; rv_error("tandem", "out of memory"); return NULL; }
    for (uint64_t g = 0; g < s->n_seg; g++) {
        const uint64_t a = s->seg[g].tpos, b = a + s->seg[g].len;
        if (b <= lo || a >= hi || a >= rv_seq_fwd_len(s)) continue;
        if (nj && b - jobs[nj - 1].t0 <= max_symbols) { jobs[nj - 1].t1 = b; continue; }
        if (nj == cap) {
            rv_runs_job_t *g2 = realloc(jobs, (cap *= 2) * sizeof *g2);
            if (!g2) { free(jobs); *n = 1; rv_error("tandem", "out of memory"); return NULL; }
            jobs = g2;
        }
        jobs[nj++] = (rv_runs_job_t){a, b};
    }
    if (!nj) { free(jobs); return NULL; }
    *n = nj;
    return jobs;
}

int rv_runs_job_runs(const rv_seq_t *s, const rv_runs_job_t *job, const rv_tandem_filter_t *f, uint64_t lo,
                     uint64_t hi, int threads, rv_run_t **out, uint64_t *n)
{
    *out = NULL, *n = 0;
    rv_seq_t *js = calloc(1, sizeof *js); /* the job's symbols, read in place */
    if (!js) return rv_error("tandem", "out of memory");
    js->alpha = s->alpha, js->sigma = s->sigma, js->strands = 1;
    js->text = s->text + job->t0;
    js->n = job->t1 - job->t0;
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
    uint64_t m = 0;
    for (uint64_t k = 0; k < r->n; k++) {
        rv_run_t u = rv_runs_at(r, k);
        u.start += job->t0, u.end += job->t0;
        if (u.start < hi && u.end > lo && rv_run_passes(f, &u)) v[m++] = u;
    }
    rv_runs_free(r);
    rv_run_t *shrunk = realloc(v, (m ? m : 1) * sizeof *v);
    *out = shrunk ? shrunk : v;
    *n = m;
    return 0;
}

int rv_runs_each_local(const rv_seq_t *s, uint64_t lo, uint64_t hi, uint64_t mem_budget, int threads,
                       const rv_tandem_filter_t *f, rv_run_fn fn, void *ud)
{
    if (!mem_budget) mem_budget = 1ull << 30;
    if (lo >= hi) return 0;
    uint64_t n_jobs;
    rv_runs_job_t *jobs = rv_runs_jobs(s, lo, hi, mem_budget / rv_runs_job_bytes(1), &n_jobs);
    if (!jobs) return n_jobs ? -1 : 0;
    int rc = 0;
    for (uint64_t j = 0; j < n_jobs && rc == 0; j++) { /* one at a time, on every thread */
        rv_run_t *v;
        uint64_t m;
        rc = rv_runs_job_runs(s, &jobs[j], f, lo, hi, threads, &v, &m);
        for (uint64_t k = 0; rc == 0 && k < m; k++)
            if (fn(ud, &v[k])) rc = 1;
        free(v);
    }
    free(jobs);
    return rc;
}
