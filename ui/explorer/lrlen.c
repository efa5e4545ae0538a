/* lrlen.c — LLR and LR lengths for the screen (see lrlen.h), through the LR
 * engine (lr.h) so the panes and `repview lr` give the same answers. */
#include <stdlib.h>
#include "repview/lr.h"
#include "repview/seq.h"
#include "lrlen.h"

/* L[i] through the raw section when there is one (has), else Lemma 1. */
static uint64_t llr_at(const rv_index_t *x, const rv_narrow_t *v, int has, uint64_t i)
{
    if (i >= x->n || x->seq->text[i] == RV_BREAK) return 0;
    if (has) return rv_narrow_get(v, i);
    uint64_t r = rv_isa(x, i);
    uint64_t a = rv_lcp(x, r), b = r + 1 < x->n ? rv_lcp(x, r + 1) : 0;
    return a > b ? a : b;
}

uint64_t lr_llr(const rv_index_t *x, uint64_t i)
{
    rv_narrow_t v;
    int has = rv_lr_llr_view(x, &v);
    return llr_at(x, &v, has, i);
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

/* Per position: binary search + walk in the engine. */
static void lengths_each(const rv_index_t *x, uint64_t t0, uint64_t m, uint64_t *out)
{
    for (uint64_t j = 0; j < m; j++) {
        rv_lr_t lr;
        out[j] = rv_lr_at(x, t0 + j, &lr, 1) ? lr.len : 0;
    }
}

/* LLR of i for the track: L[i], or with fwd the forward-only Lf[i] (lr.h). */
static uint64_t track_llr(const rv_index_t *x, const rv_narrow_t *v, int has, int fwd, uint64_t i)
{
    return fwd ? rv_lr_forward_llr(x, i) : llr_at(x, v, has, i);
}

static void lengths_sweep(const rv_index_t *x, uint64_t t0, uint64_t m, uint64_t *out, int fwd)
{
    /* A screenful in one sweep: the LLRs covering t0..t0+m-1 start in [i0, t0+m),
     * so a sliding-window maximum over that run of L gives every LR length with
     * sequential reads, where per-position queries would each binary-search.
     * Forward-only lengths Lf <= L cover no more, so the same i0 serves, and
     * their ends never decrease either (Lemma 2 holds for the forward text). */
    if (m == 0) return;
    uint64_t i0 = lr_first_cover(x, t0);
    if (i0 > t0) i0 = t0;
    uint64_t span = t0 + m - i0;
    uint64_t *llr = span <= (4u << 20) ? malloc(span * sizeof *llr) : NULL;
    uint64_t *dq = llr ? malloc(span * sizeof *dq) : NULL;
    if (!dq) { free(llr); lengths_each(x, t0, m, out); return; } /* fwd too: an upper bound */
    rv_narrow_t v;
    int has = rv_lr_llr_view(x, &v);
    for (uint64_t j = 0; j < span; j++) llr[j] = track_llr(x, &v, has, fwd, i0 + j);
    uint64_t head = 0, tail = 0, next = 0; /* deque front: longest LLR covering k */
    for (uint64_t j = 0; j < m; j++) {
        uint64_t k = t0 + j;
        for (; i0 + next <= k; next++) {
            while (tail > head && llr[dq[tail - 1]] <= llr[next]) tail--;
            dq[tail++] = next;
        }
        /* ends never decrease (Lemma 2), so the LLRs that stopped covering are in front */
        while (head < tail && i0 + dq[head] + llr[dq[head]] <= k) head++;
        out[j] = head < tail ? llr[dq[head]] : 0;
    }
    free(llr);
    free(dq);
}

void lr_lengths(const rv_index_t *x, uint64_t t0, uint64_t m, uint64_t *out)
{
    lengths_sweep(x, t0, m, out, 0);
}

void lr_lengths_fwd(const rv_index_t *x, uint64_t t0, uint64_t m, uint64_t *out)
{
    lengths_sweep(x, t0, m, out, x->seq->strands == 2);
}

int64_t lr_next_long(const rv_index_t *x, uint64_t t, int dir, uint64_t minlen, uint64_t limit)
{
    /* inside a repeat LLR shrinks by one per step (Lemma 2): only real starts match */
    uint64_t i = t;
    rv_narrow_t v;
    int has = rv_lr_llr_view(x, &v);
    for (uint64_t step = 0; step < limit; step++) {
        if (dir > 0) { if (++i >= rv_seq_fwd_len(x->seq)) return -1; }
        else { if (i == 0) return -1; i--; }
        uint64_t l = llr_at(x, &v, has, i);
        if (l >= minlen && (i == 0 || llr_at(x, &v, has, i - 1) < l)) return (int64_t)i;
    }
    return -1;
}

uint64_t lr_chance_len(const rv_index_t *x)
{
    /* a random text of n symbols has repeats of about log_sigma(n) letters */
    uint64_t len = 1, reach = 1;
    uint64_t sigma = x->seq->sigma > 1 ? (uint64_t)x->seq->sigma : 2;
    while (reach < x->n && len < 64) { reach *= sigma; len++; }
    return len;
}

uint64_t lr_min_interesting(const rv_index_t *x)
{
    uint64_t c = lr_chance_len(x);
    return c + c / 2;
}
