/* lr_internal.h — helpers shared by the longest-repeat files (lr_*.c); not part of
 * the public API.  See include/repview/lr.h for the definitions and layouts. */
#ifndef REPVIEW_ENGINE_LR_INTERNAL_H
#define REPVIEW_ENGINE_LR_INTERNAL_H

#include <stdint.h>
#include "repview/index.h"
#include "repview/lr.h"
#include "index/lr_arrays.h"

/* Where the LLRs come from: the raw section when attached, else the index. */
typedef struct {
    const rv_index_t *x;
    int has_llr;        /* RV_SEC_LLR and RV_SEC_LLR_BIG attached and valid */
    rv_narrow_t llr;    /* their view */
    const void *llrc;   /* RV_SEC_LLRC (starts) or NULL */
    uint64_t m;         /* LLRc entries */
    int wide;
} rv_lr_src_t;

void rv_lr_src_init(rv_lr_src_t *s, const rv_index_t *x);

static inline uint64_t rv_lr_src_L(const rv_lr_src_t *s, uint64_t i)
{
    if (!s->has_llr) return rv_llr_of(s->x, i);
    uint64_t v = rv_narrow_get(&s->llr, i); /* a length: clamped like SA values */
    return v < s->x->n ? v : s->x->n;
}
static inline uint64_t rv_llrc_start(const rv_lr_src_t *s, uint64_t j)
{
    uint64_t v = rv_get(s->llrc, s->wide, j); /* clamped: maybe not verified yet (rvx.c) */
    return v < s->x->n ? v : s->x->n - 1;
}
/* The length of LLRc entry j is L at its start (lr.h). */
static inline uint64_t rv_llrc_len(const rv_lr_src_t *s, uint64_t j)
{
    return rv_lr_src_L(s, rv_llrc_start(s, j));
}

/* First LLRc entry with end = start + len > k (m when none). */
uint64_t rv_llrc_first_ending_after(const rv_lr_src_t *s, uint64_t k);

/* Bench/test baseline (lr_ileri.c): the leftmost LR of every text position in
 * O(n) time, in the role of İleri, Külekci & Xu (arXiv 1501.06259).  out[k] gets
 * {start, len} (len 0: none) for k in [0, n).  0, or -1 with a message. */
int rv_lr_leftmost_linear(const rv_index_t *x, rv_lr_t *out);

#endif
