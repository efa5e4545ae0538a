/* lr_arrays.c — the raw and the compact LLR arrays (seeds/000 §4.1, §4.2).
 *
 * Raw: llr[i] = max(LCP[ISA[i]], LCP[ISA[i]+1]) (Lemma 1), one independent value per
 * position.  Compact: the useful LLRs, i.e. L[i] > 0 and L[i] >= L[i-1] (lr.h).  The
 * sequential one-pass compaction of the paper becomes, in threads, the same
 * flag + prefix sum + scatter as its GPU kernels K1-K3 (§5.2): pass 1 writes llr and
 * counts the useful entries of each chunk, pass 2 scatters them to their offsets.
 */
#include <stdlib.h>
#include "repview/common.h"
#include "lr_internal.h"
#include "internal.h"

typedef struct {
    rv_index_t *x;
    void *llr, *llrc;
    uint64_t nchunks;
    uint64_t *count; /* per chunk: useful entries, then their first output slot */
    rv_progress_t *p;
} arrays_ctx_t;

static inline uint64_t chunk_lo(const arrays_ctx_t *c, uint64_t k)
{
    return (uint64_t)((unsigned __int128)c->x->n * k / c->nchunks);
}

static inline int useful(uint64_t L, uint64_t prev) { return L > 0 && L >= prev; }

/* Pass 1: raw LLR of a chunk and its number of useful LLRs. */
static void raw_chunk(void *arg, uint64_t k0, uint64_t k1, int t)
{
    (void)t;
    arrays_ctx_t *c = arg;
    const rv_index_t *x = c->x;
    for (uint64_t k = k0; k < k1; k++) {
        if (rv_cancelled(c->p)) return;
        uint64_t lo = chunk_lo(c, k), hi = chunk_lo(c, k + 1), cnt = 0;
        uint64_t prev = lo ? rv_llr_of(x, lo - 1) : 0;
        for (uint64_t i = lo; i < hi; i++) {
            uint64_t L = rv_llr_of(x, i);
            rv_put(c->llr, x->wide, i, L);
            cnt += useful(L, prev);
            prev = L;
        }
        c->count[k] = cnt;
        rv_progress_add(c->p, (hi - lo) / 2);
    }
}

/* Pass 2: copy the useful LLRs of a chunk to their slots (both words). */
static void scatter_chunk(void *arg, uint64_t k0, uint64_t k1, int t)
{
    (void)t;
    arrays_ctx_t *c = arg;
    const int w = c->x->wide;
    for (uint64_t k = k0; k < k1; k++) {
        uint64_t lo = chunk_lo(c, k), hi = chunk_lo(c, k + 1), out = c->count[k];
        uint64_t prev = lo ? rv_get(c->llr, w, lo - 1) : 0;
        for (uint64_t i = lo; i < hi; i++) {
            uint64_t L = rv_get(c->llr, w, i);
            if (useful(L, prev)) {
                rv_put(c->llrc, w, 2 * out, i);
                rv_put(c->llrc, w, 2 * out + 1, L);
                out++;
            }
            prev = L;
        }
        rv_progress_add(c->p, (hi - lo) - (hi - lo) / 2);
    }
}

int rv_lr_build_arrays(rv_index_t *x, int threads, rv_progress_t *p)
{
    if (threads < 1) threads = rv_default_threads();
    const uint64_t n = x->n, w = x->wide ? 8 : 4;
    arrays_ctx_t c = {x, NULL, NULL, 0, NULL, p};
    rv_progress_stage(p, RV_STAGE_LLR, n);
    c.nchunks = n / (1u << 18) + 1;
    if (c.nchunks < (uint64_t)threads * 4 && n >= (uint64_t)threads * 4096) c.nchunks = (uint64_t)threads * 4;
    c.llr = malloc(n ? n * w : w);
    c.count = malloc(c.nchunks * sizeof *c.count);
    if (!c.llr || !c.count) goto oom;
    rv_parallel_dynamic(threads, c.nchunks, 1, raw_chunk, &c);
    if (rv_cancelled(p)) goto cancelled;
    uint64_t m = 0;
    for (uint64_t k = 0; k < c.nchunks; k++) {
        uint64_t cnt = c.count[k];
        c.count[k] = m;
        m += cnt;
    }
    c.llrc = malloc(m ? 2 * m * w : w);
    if (!c.llrc) goto oom;
    rv_parallel_dynamic(threads, c.nchunks, 1, scatter_chunk, &c);
    free(c.count);
    rv_index_attach(x, RV_SEC_LLR, c.llr, n * w);
    rv_index_attach(x, RV_SEC_LLRC, c.llrc, 2 * m * w);
    return 0;
oom:
    free(c.llr);
    free(c.count);
    return rv_error("longest repeats", "out of memory (%llu MB for the LLR arrays)",
                    (unsigned long long)(3 * n * w >> 20));
cancelled:
    free(c.llr);
    free(c.count);
    return rv_error("", "cancelled");
}
