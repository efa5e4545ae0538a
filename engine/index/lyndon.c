/* lyndon.c — Lyndon arrays of the text, for the alphabet order and its reverse.
 *
 * The longest Lyndon word starting at i ends at the next position j > i whose
 * suffix is lexicographically smaller than the suffix at i (next-smaller-value of
 * the suffix order; Hohlweg & Reutenauer 2003, used by Bannai et al., "The Runs
 * Theorem", SIAM J. Comput. 2017, §4).  We compute it right to left with the
 * answer array itself as the stack: from j = i+1 follow end[j] while suffix j is
 * not smaller; every position skipped is popped for good, so the loop does O(n)
 * comparisons in all.
 *
 * Comparing two suffixes:
 *  - order 0 (the order of the text codes, breaker smallest): ISA[j] < ISA[i].
 *  - order 1 (letters reversed, breaker still smallest): no second suffix array is
 *    needed.  The suffixes agree on their first l = LCE(i, j) symbols, so the order
 *    is decided by the symbol pair at offset l, compared in the reversed order; a
 *    breaker (or the end of the text) there is smaller in both orders.  LCE comes
 *    from the RMQ over LCP after a short direct scan.
 *
 * Breakers: a breaker is smaller than every letter in both orders, so the chain
 * from a letter position never passes its segment's closing breaker; a Lyndon word
 * never contains a breaker and both compared suffixes always lie in the same
 * segment.  Hence only the order of suffixes inside one segment matters (the
 * order across segments, whatever the SA builder chose, is never consulted).
 *
 * Threads: the text is cut into one chunk per thread; each chunk is solved with
 * chains that stop at its right edge (end[i] = i marks "not found in the chunk"),
 * then a sequential pass from the last chunk to the first finishes those positions
 * by following the (final) chains of the chunks to their right.
 */
#include <stdlib.h>
#include "repview/common.h"
#include "base/internal.h"
#include "lyndon.h"

#define LCE_SCAN 16 /* symbols compared directly before asking the RMQ */

uint64_t rv_lce_fast(const rv_index_t *x, const rv_rmq_t *q, uint64_t i, uint64_t j)
{
    const uint8_t *t = x->seq->text;
    const uint64_t n = x->n;
    for (uint64_t h = 0; h < LCE_SCAN; h++) {
        if (i + h >= n || j + h >= n) return h;
        uint8_t c = t[i + h];
        if (c != t[j + h] || c == RV_BREAK) return h;
    }
    return rv_lce(x, q, i, j);
}

typedef struct {
    uint64_t *v; /* positions of a chunk whose chain was cut at its right edge, */
    uint64_t n, cap; /* in decreasing order */
    int oom;
} cutlist_t;

typedef struct {
    const rv_index_t *x;
    const rv_rmq_t *q;
    int order;
    void *end;
    uint64_t chunks; /* the text is cut into this many chunks */
    cutlist_t *cut;  /* one per chunk */
} ly_ctx_t;

static uint64_t chunk_lo(const ly_ctx_t *c, uint64_t k) { return c->x->n * k / c->chunks; }

/* 1 when the suffix at j is smaller than the suffix at i (i < j, same segment, i
 * not a breaker) in the context's order. */
static inline int suffix_less(const ly_ctx_t *c, uint64_t j, uint64_t i)
{
    const rv_index_t *x = c->x;
    const uint8_t *t = x->seq->text;
    if (t[j] == RV_BREAK) return 1;
    if (c->order == 0) return rv_isa(x, j) < rv_isa(x, i);
    uint64_t l = rv_lce_fast(x, c->q, i, j);
    uint8_t cj = j + l < x->n ? t[j + l] : RV_BREAK;
    uint8_t ci = i + l < x->n ? t[i + l] : RV_BREAK;
    if (cj == RV_BREAK) return 1;
    if (ci == RV_BREAK) return 0;
    return cj > ci; /* reversed letter order */
}

static void cut_push(cutlist_t *l, uint64_t i)
{
    if (l->n == l->cap) {
        uint64_t cap = l->cap ? 2 * l->cap : 256;
        uint64_t *v = realloc(l->v, cap * sizeof *v);
        if (!v) { l->oom = 1; return; }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = i;
}

/* Solve [lo, hi) with chains cut at hi (unless hi is the end of the text); the cut
 * positions are listed in *cut. */
static void lyndon_chunk(const ly_ctx_t *c, uint64_t lo, uint64_t hi, cutlist_t *cut)
{
    const int w = c->x->wide;
    const uint8_t *t = c->x->seq->text;
    const uint64_t n = c->x->n;
    for (uint64_t i = hi; i-- > lo;) {
        if (t[i] == RV_BREAK) { rv_put(c->end, w, i, i); continue; }
        uint64_t j = i + 1;
        while (j < hi && !suffix_less(c, j, i)) {
            uint64_t nj = rv_get(c->end, w, j);
            j = nj == j ? hi : nj; /* j was cut at hi: so is i */
        }
        int cut_here = j >= hi && hi != n;
        rv_put(c->end, w, i, cut_here ? i : j);
        if (cut_here) cut_push(cut, i);
    }
}

/* Finish the positions of a chunk whose chain was cut at its right edge hi (in
 * decreasing order); everything at or after hi is final. */
static void lyndon_finish(const ly_ctx_t *c, const cutlist_t *cut, uint64_t hi)
{
    const int w = c->x->wide;
    const uint64_t n = c->x->n;
    for (uint64_t k = 0; k < cut->n; k++) {
        uint64_t i = cut->v[k], j = hi;
        while (j < n && !suffix_less(c, j, i)) j = rv_get(c->end, w, j);
        rv_put(c->end, w, i, j);
    }
}

static void lyndon_chunks(void *arg, uint64_t k0, uint64_t k1, int thread)
{
    (void)thread;
    const ly_ctx_t *c = arg;
    for (uint64_t k = k0; k < k1; k++) lyndon_chunk(c, chunk_lo(c, k), chunk_lo(c, k + 1), &c->cut[k]);
}

int rv_lyndon_array(const rv_index_t *x, const rv_rmq_t *q, int order, void *end, int threads,
                    uint64_t min_chunk)
{
    if (order != 0 && order != 1) return rv_error("lyndon", "bad order %d", order);
    if (x->n == 0) return 0;
    if (order == 1 && !q) return rv_error("lyndon", "reversed order needs the LCP RMQ");
    if (threads < 1) threads = 1;
    if (min_chunk == 0) min_chunk = 4096; /* no point cutting tiny inputs */
    uint64_t chunks = x->n / min_chunk + 1;
    if (chunks > (uint64_t)threads) chunks = (uint64_t)threads;
    ly_ctx_t c = {x, q, order, end, chunks, calloc(chunks, sizeof(cutlist_t))};
    if (!c.cut) return rv_error("lyndon", "out of memory");
    rv_parallel_for(threads, chunks, lyndon_chunks, &c);
    int oom = 0;
    for (uint64_t k = 0; k < chunks; k++) oom |= c.cut[k].oom;
    for (uint64_t k = chunks - 1; k > 0 && !oom; k--) lyndon_finish(&c, &c.cut[k - 1], chunk_lo(&c, k));
    for (uint64_t k = 0; k < chunks; k++) free(c.cut[k].v);
    free(c.cut);
    return oom ? rv_error("lyndon", "out of memory") : 0;
}
