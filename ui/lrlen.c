/* lrlen.c — LR lengths for the positions on the screen (see lrlen.h).  The LR
 * engine answers the same question for whole genomes; the explorer only needs a
 * screenful, computed with a sliding-window maximum over the covering LLRs. */
#include <stdlib.h>
#include "repview/seq.h"
#include "lrlen.h"

uint64_t lr_llr(const rv_index_t *x, uint64_t i)
{
    if (i >= x->n || x->seq->text[i] == RV_BREAK) return 0;
    uint64_t r = rv_isa(x, i);
    uint64_t a = rv_lcp(x, r), b = r + 1 < x->n ? rv_lcp(x, r + 1) : 0;
    return a > b ? a : b;
}

int lr_llr_useful(const rv_index_t *x, uint64_t i)
{
    uint64_t l = lr_llr(x, i);
    return l > 0 && (i == 0 || l >= lr_llr(x, i - 1));
}

uint64_t lr_first_cover(const rv_index_t *x, uint64_t k, uint64_t cap)
{
    uint64_t lo = k > cap ? k - cap : 0, hi = k + 1; /* answer in [lo, hi] */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (mid + lr_llr(x, mid) > k) hi = mid; else lo = mid + 1;
    }
    return lo;
}

void lr_lengths(const rv_index_t *x, uint64_t t0, uint64_t m, uint64_t *out)
{
    if (m == 0) return;
    uint64_t i0 = lr_first_cover(x, t0, LR_LOOKBACK);
    uint64_t span = t0 + m - i0;
    uint64_t *llr = malloc(span * sizeof *llr), *dq = malloc(span * sizeof *dq);
    if (!llr || !dq) {
        for (uint64_t j = 0; j < m; j++) out[j] = 0;
        free(llr); free(dq);
        return;
    }
    for (uint64_t j = 0; j < span; j++) llr[j] = lr_llr(x, i0 + j);
    /* deque of start offsets with decreasing LLR; front = longest covering LLR */
    uint64_t head = 0, tail = 0, next = 0;
    for (uint64_t j = 0; j < m; j++) {
        uint64_t k = t0 + j;
        for (; i0 + next <= k; next++) {
            while (tail > head && llr[dq[tail - 1]] <= llr[next]) tail--;
            dq[tail++] = next;
        }
        while (head < tail && i0 + dq[head] + llr[dq[head]] <= k) head++;
        out[j] = head < tail ? llr[dq[head]] : 0;
    }
    free(llr);
    free(dq);
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
