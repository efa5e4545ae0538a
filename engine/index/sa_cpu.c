/* sa_cpu.c — suffix array and its inverse on the CPU: libdivsufsort, divsufsort64
 * above 2^31 symbols, then ISA by a threaded scatter. */
#include <stdlib.h>
#include <string.h>
#include <divsufsort.h>
#include <divsufsort64.h>
#include "repview/common.h"
#include "base/internal.h"
#include "sa_cpu.h"

int rv_cpu_sa(rv_index_t *x, rv_progress_t *p)
{
    const uint64_t n = x->n;
    const uint8_t *t = x->seq->text;
    rv_progress_stage(p, RV_STAGE_SA, n);
    if (n == 0) return 0;
    if (n < (1ull << 31)) {
        /* divsufsort writes int32 ranks into the first half of a wide array, which is
         * then widened in place from the top down */
        int32_t *sa32 = (int32_t *)x->sa;
        if (divsufsort(t, sa32, (saidx_t)n) != 0) return rv_error("suffix array", "divsufsort failed");
        if (x->wide) {
            uint64_t *sa64 = (uint64_t *)x->sa;
            for (uint64_t r = n; r-- > 0;) sa64[r] = (uint64_t)(uint32_t)sa32[r];
        }
    } else {
        int64_t *tmp = x->wide ? (int64_t *)x->sa : malloc(n * sizeof *tmp);
        if (!tmp) return rv_error("suffix array", "out of memory (%llu MB)", (unsigned long long)(n * 8 >> 20));
        if (divsufsort64(t, tmp, (saidx64_t)n) != 0) {
            if (!x->wide) free(tmp);
            return rv_error("suffix array", "divsufsort64 failed");
        }
        if (!x->wide) {
            uint32_t *sa = x->sa;
            for (uint64_t r = 0; r < n; r++) sa[r] = (uint32_t)tmp[r];
            free(tmp);
        }
    }
    rv_progress_add(p, n);
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
        for (uint64_t r = lo; r < hi; r++) isa[sa[r]] = r;
    } else {
        const uint32_t *sa = x->sa;
        uint32_t *isa = x->isa;
        for (uint64_t r = lo; r < hi; r++) isa[sa[r]] = (uint32_t)r;
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
