/* gpu_glue.c — gpu.h for a build with CUDA: hands the index, progress and cancellation
 * to the CUDA side (gpu_host.cu) through gpu_iface.h. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "repview/common.h"
#include "repview/gpu.h"
#include "repview/lr.h"
#include "gpu_iface.h"
#include "../engine/index/runs_store.h" /* the layout of the runs section */

int rv_gpu_compiled(void) { return 1; }

int rv_gpu_probe(char *name, size_t name_len, char *why, size_t why_len)
{
    return rv_gpu_query(0, name, name_len, why, why_len);
}
int rv_gpu_probe_device(int dev, char *name, size_t name_len, char *why, size_t why_len)
{
    return rv_gpu_query(dev, name, name_len, why, why_len);
}

/* stage 0, 1, 2 of the CUDA side: SA, ISA, LCP */
static void on_stage(void *ctx, int stage, uint64_t total)
{
    rv_progress_stage(ctx, (rv_stage_t)(RV_STAGE_SA + stage), total);
}
static void on_add(void *ctx, uint64_t done) { rv_progress_add(ctx, done); }
static int on_cancelled(void *ctx) { return rv_cancelled(ctx); }

/* A runs section for m runs; the GPU side fills its columns. */
static void *runs_section(uint64_t m, int wide, void *cols[4], uint64_t *bytes)
{
    *bytes = rv_runs_section_bytes(m, wide);
    void *sec = malloc(*bytes);
    if (!sec) return NULL;
    rv_runs_cols_t c = rv_runs_columns(sec, m, wide);
    cols[0] = c.start;
    cols[1] = c.len;
    cols[2] = c.period;
    cols[3] = c.blockmax;
    return sec;
}

static int env_on(const char *name)
{
    const char *e = getenv(name);
    return e && *e && *e != '0';
}

int rv_gpu_build(rv_index_t *x, const rv_build_opts_t *o, rv_progress_t *p)
{
    rv_gpu_job_t j = {0};
    j.n = x->n;
    j.text = x->seq->text;
    j.sigma = x->seq->sigma;
    j.sa = x->sa;
    j.isa = x->isa;
    j.wide = x->wide;
    j.narrow_on_host = env_on("REPVIEW_GPU_NARROW_HOST");
    j.trace = env_on("REPVIEW_GPU_TRACE");
    const char *pin = getenv("REPVIEW_GPU_PIN");
    j.pin = !pin || *pin != '0'; /* default on: REPVIEW_GPU_PIN=0 copies through pageable memory */
    j.with_llr = o ? o->with_llr : 1;
    /* REPVIEW_GPU_RUNS=0 leaves the tandem runs to the CPU (benchmarks, tests) */
    const char *gr = getenv("REPVIEW_GPU_RUNS");
    j.with_runs = o && o->with_runs && (!gr || *gr != '0');
    j.runs_section = runs_section;
    j.runs_block = RV_RUNS_BLOCK;
    j.threads = o && o->threads > 0 ? o->threads : rv_default_threads();
    j.ctx = p;
    j.stage = on_stage;
    j.add = on_add;
    j.cancelled = on_cancelled;
    int rc = rv_gpu_run(&j);
    x->stage_s[RV_STAGE_SA] = j.stage_s[0];
    x->stage_s[RV_STAGE_ISA] = j.stage_s[1];
    x->stage_s[RV_STAGE_LCP] = j.stage_s[2];
    if (rc == 0 && j.lcp8 && rv_index_set_lcp(x, j.lcp8, j.lcp_big, j.lcp_big_bytes) < 0) {
        free(j.llr8);
        free(j.llr_big);
        free(j.llrc);
        return -1;
    }
    if (rc == 0 && j.llr8) {
        rv_index_attach(x, RV_SEC_LLR, j.llr8, x->n);
        rv_index_attach(x, RV_SEC_LLR_BIG, j.llr_big, j.llr_big_bytes);
        rv_index_attach(x, RV_SEC_LLRC, j.llrc, j.llrc_bytes);
        x->stage_s[RV_STAGE_LLR] = j.llr_s;
    }
    if (rc == 0 && j.with_runs && !j.runs_sec)
        snprintf(x->note, sizeof x->note, "tandem runs computed on the CPU (the GPU had no room)");
    if (rc == 0 && j.runs_sec) {
        rv_runs_seal_header(j.runs_sec, x->n, j.runs_m, x->wide);
        rv_index_attach(x, RV_SEC_RUNS, j.runs_sec, j.runs_bytes);
        x->stage_s[RV_STAGE_EXTRA] = j.runs_s;
    }
    return rc;
}

int rv_gpu_lr_all(const rv_index_t *x, uint32_t *len, uint32_t *off, uint32_t **starts,
                  uint64_t *hits, double *kernel_s)
{
    uint64_t bytes = 0;
    const uint32_t *llrc = rv_index_section(x, RV_SEC_LLRC, &bytes);
    rv_narrow_t llr;
    if (x->wide) return rv_error("GPU", "all-LR kernel: 64-bit indexes are not supported");
    if (!llrc || !rv_lr_llr_view(x, &llr)) return rv_error("GPU", "all-LR kernel: the index has no LLR arrays");
    if (x->n == 0) {
        if (off) off[0] = 0;
        if (starts) *starts = NULL;
        *hits = 0;
        *kernel_s = 0;
        return 0;
    }
    /* the kernels read (start, len) pairs */
    uint64_t m = bytes / 4;
    uint32_t *pairs = malloc((m ? m : 1) * 8);
    if (!pairs) return rv_error("GPU", "out of host memory");
    for (uint64_t k = 0; k < m; k++) {
        pairs[2 * k] = llrc[k];
        pairs[2 * k + 1] = (uint32_t)rv_narrow_get(&llr, llrc[k]);
    }
    int rc = rv_gpu_lr_all_run(pairs, (uint32_t)m, x->n, len, off, starts, hits, kernel_s);
    free(pairs);
    return rc;
}

int rv_gpu_wmers_each(const rv_index_t *x, uint64_t w, uint64_t min_count, int with_pos, rv_repeat_fn fn,
                      void *ud)
{
    if (w < 1) return rv_error("wmers", "the w-mer length must be >= 1");
    if (min_count < 1) return rv_error("wmers", "the minimum count must be >= 1");
    if (x->wide) return rv_error("GPU", "w-mers: 64-bit indexes are not supported");
    rv_gpu_wmers_job_t j = {0};
    j.n = x->n;
    j.w = w;
    j.min_count = min_count;
    j.sa = x->sa;
    j.lcp8 = x->lcp.v;
    j.lcp_val = x->lcp.val;
    j.n_big = x->lcp.n_big;
    j.text = x->seq->text;
    j.with_pos = with_pos;
    j.trace = env_on("REPVIEW_GPU_TRACE");
    if (rv_gpu_wmers_run(&j) < 0) return -1;
    /* the positions of the largest w-mer, widened */
    uint64_t most = 0;
    for (uint64_t i = 0; with_pos && i < j.kept; i++)
        if (j.cnt[i] > most) most = j.cnt[i];
    uint64_t *buf = with_pos ? malloc((most ? most : 1) * sizeof *buf) : NULL;
    int rc = with_pos && !buf ? rv_error("wmers", "out of memory") : 0;
    const uint32_t *pos = j.pos;
    for (uint64_t i = 0; i < j.kept && rc == 0; i++) {
        /* fn reads each w-mer's text, at random places: ask for it ahead */
        if (i + 16 < j.kept) __builtin_prefetch(x->seq->text + rv_sa(x, j.lb[i + 16]));
        for (uint64_t k = 0; buf && k < j.cnt[i]; k++) buf[k] = pos[k];
        if (buf) pos += j.cnt[i];
        rv_repeat_t rep = {w, j.cnt[i], buf, j.lb[i]};
        rc = fn(ud, &rep);
    }
    free(buf);
    free(j.lb);
    free(j.cnt);
    free(j.pos);
    return rc;
}

int rv_gpu_devices(void) { return rv_gpu_bk_devices(); }
void *rv_gpu_host_alloc(size_t bytes) { return rv_gpu_pinned_alloc(bytes); }
void rv_gpu_host_free(void *p) { rv_gpu_pinned_free(p); }
int rv_gpu_buckets_open(const uint8_t *text, uint64_t n, int sigma, int dev)
{
    return rv_gpu_bk_open(text, n, sigma, dev);
}
void rv_gpu_buckets_close(void) { rv_gpu_bk_close(); }
int rv_gpu_buckets_count(uint64_t sigma, int k, uint64_t n_codes, uint64_t *count)
{
    return rv_gpu_bk_count(sigma, k, n_codes, count);
}
int rv_gpu_buckets_job(uint64_t sigma, int k, uint64_t lo, uint64_t nc, const uint64_t *off, uint64_t m,
                       uint64_t min_left, uint64_t *pos, uint64_t *lcp, uint64_t *depth, uint64_t **groups,
                       uint64_t *n_groups)
{
    return rv_gpu_bk_job(sigma, k, lo, nc, off, m, min_left, pos, lcp, depth, groups, n_groups);
}

_Static_assert(sizeof(rv_gpu_hit_t) == sizeof(rv_hit_t) && offsetof(rv_gpu_hit_t, pattern) == offsetof(rv_hit_t, pattern) &&
                   offsetof(rv_gpu_hit_t, mism) == offsetof(rv_hit_t, mism) &&
                   offsetof(rv_gpu_hit_t, strand) == offsetof(rv_hit_t, strand),
               "the GPU writes rv_hit_t");

rv_gpu_fm_t *rv_gpu_fm_new(const rv_index_t *x, double *build_s)
{
    if (x->wide) {
        rv_error("GPU", "FM-index: 64-bit indexes are not supported");
        return NULL;
    }
    return rv_gpu_fm_open(x->seq->text, x->sa, x->n, rv_seq_fwd_len(x->seq), build_s);
}

void rv_gpu_fm_free(rv_gpu_fm_t *g) { rv_gpu_fm_close(g); }

int rv_gpu_fm_batch(rv_gpu_fm_t *g, const uint8_t *code, const uint64_t *off, size_t np, int strands, unsigned k,
                    uint32_t first, uint32_t cap, uint64_t *count, rv_hit_t **hits, uint64_t *n_hits, uint8_t *left)
{
    return rv_gpu_fm_search(g, code, off, np, strands, k, first, cap, count, (rv_gpu_hit_t **)hits, n_hits, left);
}
