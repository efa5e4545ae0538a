/* lr_arrays.h — the LLR of a position straight from the index (the longest-repeat
 * queries of query/ fall back on it where an index has no LLR section), and the
 * builder of the raw and compact LLR sections with its task size (lr_arrays.c). */
#ifndef REPVIEW_ENGINE_LR_ARRAYS_H
#define REPVIEW_ENGINE_LR_ARRAYS_H

#include <stdint.h>
#include "repview/index.h"
#include "repview/progress.h"

/* L[i] = |LLR_i| straight from the index (Tian & Xu Lemma 1, LCP[n] = 0). */
static inline uint64_t rv_llr_of(const rv_index_t *x, uint64_t i)
{
    uint64_t r = rv_isa(x, i);
    uint64_t a = rv_lcp(x, r), b = r + 1 < x->n ? rv_lcp(x, r + 1) : 0;
    return a > b ? a : b;
}

/* rv_lr_build_arrays() with its passes cut into tasks of `chunk` positions or ranks
 * (0: the default), so that tests can cut tiny inputs into many tasks. */
int rv_lr_build_arrays_chunked(rv_index_t *x, int threads, uint64_t chunk, rv_progress_t *p);

/* The compact LLR array (RV_SEC_LLRC) from the raw one x already has (a file stores
 * only the raw one): one pass over the positions in parallel.  0, or -1. */
int rv_lr_build_llrc(rv_index_t *x, int threads);

#endif
