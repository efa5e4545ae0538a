/* sa_cpu.c — suffix array and its inverse on the CPU: the parallel construction of
 * sa_parallel.c (prefix doubling, after an SA-IS reduction on a text that repeats
 * much; the order of libdivsufsort, which the tests compare it with), then ISA by a
 * threaded scatter. */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "base/internal.h"
#include "sa_cpu.h"
#include "sa_parallel.h"

static void sa_progress(void *ud, uint64_t sorted) { rv_progress_add(ud, sorted); }

int rv_cpu_sa(rv_index_t *x, int threads, rv_progress_t *p)
{
    const uint64_t n = x->n;
    rv_progress_stage(p, RV_STAGE_SA, n);
    if (n == 0) return 0;
    /* the ISA array is free until rv_cpu_isa: the construction's scratch */
    rv_sa_opts_t o = {.progress = sa_progress, .progress_ud = p};
    if (rv_sa_parallel_opts(x->seq->text, n, x->seq->sigma, x->sa, x->isa, x->wide, threads, &o) != 0)
        return rv_oom("suffix array's scratch", n + (n >> 1));
    return 0;
}

typedef struct {
    rv_index_t *x;
    rv_progress_t *p;
} isa_ctx_t;

static void isa_range(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    isa_ctx_t *c = arg;
    const rv_index_t *x = c->x;
    if (x->wide) {
        const uint64_t *sa = x->sa;
        uint64_t *isa = x->isa;
        for (uint64_t r = lo; r < hi; r++)
            if (sa[r] < x->n) isa[sa[r]] = r; /* never outside, whatever an unverified SA holds */
    } else {
        const uint32_t *sa = x->sa;
        uint32_t *isa = x->isa;
        for (uint64_t r = lo; r < hi; r++)
            if (sa[r] < x->n) isa[sa[r]] = (uint32_t)r;
    }
    rv_progress_add(c->p, hi - lo);
}

int rv_cpu_isa(rv_index_t *x, int threads, rv_progress_t *p)
{
    rv_progress_stage(p, RV_STAGE_ISA, x->n);
    isa_ctx_t c = {x, p};
    rv_parallel_for(threads, x->n, isa_range, &c);
    return 0;
}
