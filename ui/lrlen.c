/* lrlen.c — LLR and LR lengths for the screen (see lrlen.h), through the LR
 * engine (lr.h) so the panes and `repview lr` give the same answers. */
#include "repview/lr.h"
#include "repview/seq.h"
#include "lrlen.h"

uint64_t lr_llr(const rv_index_t *x, uint64_t i)
{
    if (i >= x->n || x->seq->text[i] == RV_BREAK) return 0;
    const void *llr = rv_index_section(x, RV_SEC_LLR, NULL);
    if (llr) return rv_get(llr, x->wide, i);
    uint64_t r = rv_isa(x, i);
    uint64_t a = rv_lcp(x, r), b = r + 1 < x->n ? rv_lcp(x, r + 1) : 0;
    return a > b ? a : b;
}

int lr_llr_useful(const rv_index_t *x, uint64_t i)
{
    uint64_t l = lr_llr(x, i);
    return l > 0 && (i == 0 || l >= lr_llr(x, i - 1));
}

uint64_t lr_first_cover(const rv_index_t *x, uint64_t k)
{
    /* the first LLR covering k is useful: the one before it ends at or before k */
    rv_lr_t first;
    return rv_lr_llrs_covering(x, k, &first, 1) ? first.start : k + 1;
}

void lr_lengths(const rv_index_t *x, uint64_t t0, uint64_t m, uint64_t *out)
{
    for (uint64_t j = 0; j < m; j++) {
        rv_lr_t lr;
        out[j] = rv_lr_at(x, t0 + j, &lr, 1) ? lr.len : 0;
    }
}

int64_t lr_next_long(const rv_index_t *x, uint64_t t, int dir, uint64_t minlen, uint64_t limit)
{
    /* inside a repeat LLR shrinks by one per step (Lemma 2): only real starts match */
    uint64_t i = t;
    for (uint64_t step = 0; step < limit; step++) {
        if (dir > 0) { if (++i >= x->n) return -1; }
        else { if (i == 0) return -1; i--; }
        uint64_t l = lr_llr(x, i);
        if (l >= minlen && (i == 0 || lr_llr(x, i - 1) < l)) return (int64_t)i;
    }
    return -1;
}

uint64_t lr_min_interesting(const rv_index_t *x)
{
    /* repeats of about log_sigma(n) letters occur by chance; twice that stands out */
    uint64_t len = 1, reach = 1;
    uint64_t sigma = x->seq->sigma > 1 ? (uint64_t)x->seq->sigma : 2;
    while (reach < x->n && len < 64) { reach *= sigma; len++; }
    return 2 * len;
}
