/* lr_ileri.c — benchmark baseline: the leftmost longest repeat of every position in
 * O(n) time and space, the bound of İleri, Külekci & Xu, "On longest repeat
 * queries" (arXiv 1501.06259), whose algorithm Tian & Xu compares against.
 *
 * Formulation used here (a sliding-window maximum rather than the paper's own
 * two-table bookkeeping, same bound and same answers): the LLRs covering k are
 * LLR_i for i in a window [first(k), k] whose both ends only move right as k grows
 * (ends never decrease, lr.h), so one left-to-right pass keeps the candidates in a
 * deque of increasing start and non-increasing length.  A new LLR_k evicts from the
 * back every shorter one (it outlasts them and is longer); the front is evicted
 * once it stops covering k; the front is then the longest, leftmost on ties.
 * Each start enters and leaves once: O(n).  L is computed from LCP and ISA
 * (Lemma 1), so this baseline needs no LLR sections.
 */
#include <stdlib.h>
#include "repview/common.h"
#include "lr_internal.h"

int rv_lr_leftmost_linear(const rv_index_t *x, rv_lr_t *out)
{
    const uint64_t n = x->n;
    uint64_t *q = malloc((n ? n : 1) * sizeof *q);  /* deque of starts */
    uint64_t *ql = malloc((n ? n : 1) * sizeof *ql); /* their lengths */
    if (!q || !ql) {
        free(q);
        free(ql);
        return rv_oom("longest repeats' queue", 2 * (n ? n : 1) * sizeof *q);
    }
    uint64_t head = 0, tail = 0;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t L = rv_llr_of(x, k);
        if (L) {
            while (tail > head && ql[tail - 1] < L) tail--;
            q[tail] = k;
            ql[tail++] = L;
        }
        while (tail > head && q[head] + ql[head] <= k) head++;
        out[k] = tail > head ? (rv_lr_t){q[head], ql[head]} : (rv_lr_t){0, 0};
    }
    free(q);
    free(ql);
    return 0;
}
