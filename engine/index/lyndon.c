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
 * Comparing two suffixes i < j of one segment (j not a breaker):
 *  - order 0 (the order of the text codes, breaker smallest): ISA[j] < ISA[i].
 *  - order 1 (letters reversed, breaker still smallest): no second suffix array is
 *    needed.  The suffixes agree on their first l = LCE(i, j) symbols and are
 *    decided by the pair at offset l.  Where both are letters the reversed order
 *    flips the answer of order 0.  Otherwise suffix j has reached the end of its
 *    segment (a breaker or the end of the text: i + l < j + l is then still inside
 *    the segment, a letter), and it is smaller in both orders.  So suffix j is
 *    smaller in order 1 iff ISA[j] > ISA[i], or text[j, end of segment) is a prefix
 *    of the suffix at i; only the second test needs an LCE, and only when ISA[j] <
 *    ISA[i] and text[i] = text[j].  LCE comes from a short direct scan, then the
 *    RMQ over LCP.
 *
 * Breakers: a breaker is smaller than every letter in both orders, so the chain
 * from a letter position never passes its segment's closing breaker; a Lyndon word
 * never contains a breaker and both compared suffixes always lie in the same
 * segment.  Hence only the order of suffixes inside one segment matters (the
 * order across segments, whatever the SA builder chose, is never consulted).
 *
 * Threads: the text is cut into chunks, a few per thread, handed out dynamically;
 * each chunk is solved with chains that stop at its right edge (end[i] = i marks
 * "not found in the chunk"), then a pass from the last chunk to the first finishes
 * those positions by following the (final) chains of the chunks to their right.
 * The positions so cut are the suffix-order minima of their chunk seen from its
 * right edge, each smaller than the one cut before it (to its right): the walk of
 * one starts where the walk of the previous one ended, so the serial pass is
 * linear in the chunks' cut positions and the chain elements it skips.
 *
 * A visitor (rv_lyndon_visit) is handed every position once its end is final:
 * blocks of a chunk as its thread leaves them (the positions cut there still read
 * end[i] = i and are to be skipped), then each cut position alone, in the serial
 * pass, with thread 0.
 */
#include <stdlib.h>
#include "repview/common.h"
#include "base/internal.h"
#include "lyndon.h"

#define CHUNKS_PER_THREAD 8 /* chunks of the dynamic pass per thread */
#define VISIT_BLOCK 16384   /* positions handed to the visitor at a time */

typedef struct {
    uint64_t *v; /* positions of a chunk whose chain was cut at its right edge, */
    uint64_t n, cap; /* in decreasing order */
    uint64_t oom; /* bytes a failed allocation asked for, or 0 */
} cutlist_t;

typedef struct {
    const rv_index_t *x;
    const rv_rmq_t *q;
    int order;
    void *end;
    uint64_t chunks; /* the text is cut into this many chunks */
    cutlist_t *cut;  /* one per chunk */
    rv_range_fn visit;
    void *vctx;
} ly_ctx_t;

static uint64_t chunk_lo(const ly_ctx_t *c, uint64_t k)
{
    return (uint64_t)((unsigned __int128)c->x->n * k / c->chunks);
}

static void cut_push(cutlist_t *l, uint64_t i)
{
    if (l->n == l->cap) {
        uint64_t cap = l->cap ? 2 * l->cap : 256;
        uint64_t *v = realloc(l->v, cap * sizeof *v);
        if (!v) { l->oom = cap * sizeof *v; return; }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = i;
}

/* 1 when text[j, end of its segment) is a prefix of text[i..] (i < j, same segment,
 * text[i] = text[j] not a breaker): the LCE reaches a breaker or the end at j. */
static int reaches_end(const rv_index_t *x, const rv_rmq_t *q, uint64_t i, uint64_t j)
{
    uint64_t l = rv_lce_fast(x, q, i, j);
    return j + l >= x->n || x->seq->text[j + l] == RV_BREAK;
}

/* 1 when the suffix at j is smaller than the suffix at i (i < j, same segment, i not
 * a breaker) in the given order; isa_i = ISA[i].  wide and order are constants where
 * this is inlined. */
static inline __attribute__((always_inline)) int suffix_less(const rv_index_t *x, const rv_rmq_t *q,
                                                             const uint8_t *t, const void *isa, int wide,
                                                             int order, uint64_t j, uint64_t i,
                                                             uint64_t isa_i)
{
    const uint8_t cj = t[j];
    if (cj == RV_BREAK) return 1;
    const uint64_t isa_j = rv_get(isa, wide, j);
    if (order == 0) return isa_j < isa_i;
    if (isa_j > isa_i) return 1;
    return cj == t[i] && reaches_end(x, q, i, j);
}

/* Solve [lo, hi) with chains cut at hi (unless hi is the end of the text); the cut
 * positions are listed in *cut. */
static inline __attribute__((always_inline)) void lyndon_chunk_impl(const ly_ctx_t *c, uint64_t lo,
                                                                    uint64_t hi, cutlist_t *cut,
                                                                    int thread, int wide, int order)
{
    const rv_index_t *x = c->x;
    const rv_rmq_t *q = c->q;
    const uint8_t *t = x->seq->text;
    const void *isa = x->isa;
    void *end = c->end;
    const uint64_t n = x->n;
    uint64_t seen = hi; /* [seen, hi) went to the visitor */
    for (uint64_t i = hi; i-- > lo;) {
        if (c->visit && seen - i >= VISIT_BLOCK) { /* while its end entries are in the cache */
            c->visit(c->vctx, i + 1, seen, thread);
            seen = i + 1;
        }
        if (t[i] == RV_BREAK) { rv_put(end, wide, i, i); continue; }
        const uint64_t isa_i = rv_get(isa, wide, i);
        uint64_t j = i + 1;
        while (j < hi && !suffix_less(x, q, t, isa, wide, order, j, i, isa_i)) {
            uint64_t nj = rv_get(end, wide, j);
            j = nj == j ? hi : nj; /* j was cut at hi: so is i */
        }
        const int cut_here = j >= hi && hi != n;
        rv_put(end, wide, i, cut_here ? i : j);
        if (cut_here) cut_push(cut, i);
    }
    if (c->visit && seen > lo) c->visit(c->vctx, lo, seen, thread);
}

static void lyndon_chunk(const ly_ctx_t *c, uint64_t lo, uint64_t hi, cutlist_t *cut, int thread)
{
    const int wide = c->x->wide;
    if (c->order == 0) {
        if (wide) lyndon_chunk_impl(c, lo, hi, cut, thread, 1, 0);
        else lyndon_chunk_impl(c, lo, hi, cut, thread, 0, 0);
    } else {
        if (wide) lyndon_chunk_impl(c, lo, hi, cut, thread, 1, 1);
        else lyndon_chunk_impl(c, lo, hi, cut, thread, 0, 1);
    }
}

/* Finish the positions of a chunk whose chain was cut at its right edge hi (in
 * decreasing order); everything at or after hi is final.  Each cut position is
 * smaller than the previous one, so every chain element the previous walk skipped
 * is skipped again: the walk resumes where the previous one stopped. */
static void lyndon_finish(const ly_ctx_t *c, const cutlist_t *cut, uint64_t hi)
{
    const rv_index_t *x = c->x;
    const int wide = x->wide;
    const uint64_t n = x->n;
    uint64_t j = hi;
    for (uint64_t k = 0; k < cut->n; k++) {
        const uint64_t i = cut->v[k], isa_i = rv_get(x->isa, wide, i);
        while (j < n && !suffix_less(x, c->q, x->seq->text, x->isa, wide, c->order, j, i, isa_i))
            j = rv_get(c->end, wide, j);
        rv_put(c->end, wide, i, j);
        if (c->visit) c->visit(c->vctx, i, i + 1, 0);
    }
}

static void lyndon_chunks(void *arg, uint64_t k0, uint64_t k1, int thread)
{
    const ly_ctx_t *c = arg;
    for (uint64_t k = k0; k < k1; k++) lyndon_chunk(c, chunk_lo(c, k), chunk_lo(c, k + 1), &c->cut[k], thread);
}

int rv_lyndon_array(const rv_index_t *x, const rv_rmq_t *q, int order, void *end, int threads,
                    uint64_t min_chunk)
{
    return rv_lyndon_visit(x, q, order, end, threads, min_chunk, NULL, NULL);
}

int rv_lyndon_visit(const rv_index_t *x, const rv_rmq_t *q, int order, void *end, int threads,
                    uint64_t min_chunk, rv_range_fn visit, void *vctx)
{
    if (order != 0 && order != 1) return rv_error("lyndon", "bad order %d", order);
    if (x->n == 0) return 0;
    if (order == 1 && !q) return rv_error("lyndon", "reversed order needs the LCP RMQ");
    if (threads < 1) threads = 1;
    uint64_t most = (uint64_t)threads * CHUNKS_PER_THREAD;
    if (min_chunk == 0) { /* no point cutting tiny inputs, nor any for one thread */
        min_chunk = 1u << 16;
        if (threads == 1) most = 1;
    }
    uint64_t chunks = x->n / min_chunk + 1;
    if (chunks > most) chunks = most;
    ly_ctx_t c = {x, q, order, end, chunks, calloc(chunks, sizeof(cutlist_t)), visit, vctx};
    if (!c.cut) return rv_oom("Lyndon arrays' chunks", chunks * sizeof(cutlist_t));
    rv_parallel_dynamic(threads, chunks, 1, lyndon_chunks, &c);
    uint64_t oom = 0;
    for (uint64_t k = 0; k < chunks; k++) oom = c.cut[k].oom > oom ? c.cut[k].oom : oom;
    for (uint64_t k = chunks - 1; k > 0 && !oom; k--) lyndon_finish(&c, &c.cut[k - 1], chunk_lo(&c, k));
    for (uint64_t k = 0; k < chunks; k++) free(c.cut[k].v);
    free(c.cut);
    return oom ? rv_oom("Lyndon arrays' cuts", oom) : 0;
}
