/* gpu_glue.c — gpu.h for a build with CUDA: hands the index, progress and cancellation
 * to the CUDA side (gpu_host.cu) through gpu_iface.h. */
#include <stdlib.h>
#include "repview/common.h"
#include "repview/gpu.h"
#include "repview/lr.h"
#include "gpu_iface.h"
#include "../engine/internal.h" /* rv_cpu_lcp: the LCP of texts with huge repeats */

int rv_gpu_compiled(void) { return 1; }

int rv_gpu_probe(char *name, size_t name_len, char *why, size_t why_len)
{
    return rv_gpu_query(name, name_len, why, why_len);
}

/* stage 0, 1, 2 of the CUDA side: SA, ISA, LCP */
static void on_stage(void *ctx, int stage, uint64_t total)
{
    rv_progress_stage(ctx, (rv_stage_t)(RV_STAGE_SA + stage), total);
}
static void on_add(void *ctx, uint64_t done) { rv_progress_add(ctx, done); }
static int on_cancelled(void *ctx) { return rv_cancelled(ctx); }

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
    j.threads = o && o->threads > 0 ? o->threads : rv_default_threads();
    j.ctx = p;
    j.stage = on_stage;
    j.add = on_add;
    j.cancelled = on_cancelled;
    int rc = rv_gpu_run(&j);
    x->stage_s[RV_STAGE_SA] = j.stage_s[0];
    x->stage_s[RV_STAGE_ISA] = j.stage_s[1];
    x->stage_s[RV_STAGE_LCP] = j.stage_s[2];
    if (rc == 0 && j.lcp_on_cpu) {
        /* SA came from the GPU; the CPU's LCP borrows the ISA buffer, so ISA is
         * scattered afterwards, as build_cpu() does; LLR follows on the CPU */
        double t0 = rv_now();
        rc = rv_cpu_lcp(x, j.threads, p);
        double t1 = rv_now();
        x->stage_s[RV_STAGE_LCP] = t1 - t0;
        if (rc == 0) rc = rv_cpu_isa(x, j.threads, p);
        x->stage_s[RV_STAGE_ISA] = rv_now() - t1;
    }
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
    if (x->n == 0) { off[0] = 0; *starts = NULL; *hits = 0; *kernel_s = 0; return 0; }
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
