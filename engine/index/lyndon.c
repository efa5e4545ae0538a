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
 * Threads: the text is cut into chunks, a few per thread and none longer than
 * CHUNK_MAX, handed out dynamically; each chunk is solved in a buffer of its
 * thread with chains that stop at its right edge (end[i] = i marks "not found in
 * the chunk").  What is left of the buffer is the chain from the chunk's first
 * position: the walks of the positions cut at the edge of the chunk before it
 * follow exactly that chain.  A pass from the last chunk to the first finishes the
 * cut positions by walking these chains; the positions so cut are the suffix-order
 * minima of their chunk seen from its right edge, each smaller than the one cut
 * before it (to its right): the walk of one starts where the walk of the previous
 * one ended, so the serial pass is linear in the cut positions and the chain
 * elements it skips.  Memory: a buffer per thread and the chains, short on any
 * text but the most periodic ones (a chain is a run of suffix-order minima: one
 * element in `period` on a periodic chunk), instead of an array of the text's size.
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
#define CHUNK_MAX (1u << 20) /* positions of a chunk at most: the size of a thread's buffer */
#define VISIT_BLOCK 16384   /* positions handed to the visitor at a time */

typedef struct {
    void *v;         /* positions (x->wide-sized) */
    uint64_t n, cap;
    uint64_t oom;    /* bytes a failed allocation asked for, or 0 */
} poslist_t;

/* Where a walk of the serial pass stands: element idx of chunk k's chain, or the end
 * of the text (k == chunks). */
typedef struct {
    uint64_t k, idx;
} cursor_t;

typedef struct {
    poslist_t cut;   /* positions cut at the right edge, in decreasing order */
    poslist_t chain; /* the chain from the first position, in increasing order */
    int tail;        /* how the chain ends: TAIL_CUT, TAIL_STOP (a breaker) or TAIL_END */
    cursor_t next;   /* TAIL_CUT: where the end of its last element lies (serial pass) */
} chunk_t;

enum { TAIL_CUT, TAIL_STOP, TAIL_END };

typedef struct {
    const rv_index_t *x;
    const rv_rmq_t *q;
    int order;
    uint64_t chunks; /* the text is cut into this many chunks */
    chunk_t *ck;
    void **buf;      /* per thread: end of a chunk's positions, relative to its start */
    uint64_t buf_len;
    uint64_t *oom;   /* per thread */
    rv_lyndon_fn visit;
    void *vctx;
} ly_ctx_t;

static uint64_t chunk_lo(const ly_ctx_t *c, uint64_t k)
{
    return (uint64_t)((unsigned __int128)c->x->n * k / c->chunks);
}

static void pos_push(poslist_t *l, int wide, uint64_t i)
{
    if (l->oom) return;
    if (l->n == l->cap) {
        uint64_t cap = l->cap ? 2 * l->cap : 64;
        void *v = realloc(l->v, cap * (wide ? 8 : 4));
        if (!v) { l->oom = cap * (wide ? 8 : 4); return; }
        l->v = v;
        l->cap = cap;
    }
    rv_put(l->v, wide, l->n++, i);
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

/* Solve [lo, hi) in end[0 .. hi-lo) (end[i-lo] for position i) with chains cut at hi
 * (unless hi is the end of the text); the cut positions go to ck->cut. */
static inline __attribute__((always_inline)) void lyndon_chunk_impl(const ly_ctx_t *c, uint64_t lo,
                                                                    uint64_t hi, chunk_t *ck, void *end,
                                                                    int thread, int wide, int order)
{
    const rv_index_t *x = c->x;
    const rv_rmq_t *q = c->q;
    const uint8_t *t = x->seq->text;
    const void *isa = x->isa;
    const uint64_t n = x->n;
    uint64_t seen = hi; /* [seen, hi) went to the visitor */
    for (uint64_t i = hi; i-- > lo;) {
        if (c->visit && seen - i >= VISIT_BLOCK) { /* while its end entries are in the cache */
            c->visit(c->vctx, i + 1, seen, (const char *)end + (i + 1 - lo) * (wide ? 8 : 4), thread);
            seen = i + 1;
        }
        if (t[i] == RV_BREAK) { rv_put(end, wide, i - lo, i); continue; }
        const uint64_t isa_i = rv_get(isa, wide, i);
        uint64_t j = i + 1;
        while (j < hi && !suffix_less(x, q, t, isa, wide, order, j, i, isa_i)) {
            uint64_t nj = rv_get(end, wide, j - lo);
            j = nj == j ? hi : nj; /* j was cut at hi: so is i */
        }
        const int cut_here = j >= hi && hi != n;
        rv_put(end, wide, i - lo, cut_here ? i : j);
        if (cut_here) pos_push(&ck->cut, wide, i);
    }
    if (c->visit && seen > lo) c->visit(c->vctx, lo, seen, end, thread);
}

/* Keep the chain from lo, the one the serial pass walks. */
static void keep_chain(const ly_ctx_t *c, uint64_t lo, uint64_t hi, chunk_t *ck, const void *end)
{
    const int wide = c->x->wide;
    const uint8_t *t = c->x->seq->text;
    for (uint64_t j = lo;;) {
        pos_push(&ck->chain, wide, j);
        const uint64_t e = rv_get(end, wide, j - lo);
        if (t[j] == RV_BREAK) { ck->tail = TAIL_STOP; return; }
        if (e == j) { ck->tail = TAIL_CUT; return; }
        if (e >= hi) { ck->tail = TAIL_END; return; } /* the end of the text */
        j = e;
    }
}

static void lyndon_chunk(const ly_ctx_t *c, uint64_t k, int thread)
{
    const int wide = c->x->wide;
    const uint64_t lo = chunk_lo(c, k), hi = chunk_lo(c, k + 1);
    chunk_t *ck = &c->ck[k];
    if (lo == hi) { ck->tail = TAIL_END; return; }
    void *end = c->buf[thread];
    if (!end && !(end = c->buf[thread] = malloc(c->buf_len * (wide ? 8 : 4)))) {
        c->oom[thread] = c->buf_len * (wide ? 8 : 4);
        return;
    }
    if (c->order == 0) {
        if (wide) lyndon_chunk_impl(c, lo, hi, ck, end, thread, 1, 0);
        else lyndon_chunk_impl(c, lo, hi, ck, end, thread, 0, 0);
    } else {
        if (wide) lyndon_chunk_impl(c, lo, hi, ck, end, thread, 1, 1);
        else lyndon_chunk_impl(c, lo, hi, ck, end, thread, 0, 1);
    }
    keep_chain(c, lo, hi, ck, end);
}

static uint64_t cursor_pos(const ly_ctx_t *c, cursor_t u)
{
    return u.k == c->chunks ? c->x->n : rv_get(c->ck[u.k].chain.v, c->x->wide, u.idx);
}

/* The next element of the chain, from a position that is not a breaker. */
static cursor_t cursor_next(const ly_ctx_t *c, cursor_t u)
{
    const chunk_t *ck = &c->ck[u.k];
    if (u.idx + 1 < ck->chain.n) return (cursor_t){u.k, u.idx + 1};
    if (ck->tail == TAIL_CUT) return ck->next;
    return (cursor_t){c->chunks, 0}; /* TAIL_END: the end of the text */
}

/* Finish the positions of chunk k-1 cut at its right edge (in decreasing order),
 * walking the chain from the first position of chunk k; the chunks after it are
 * final.  Each cut position is smaller than the previous one, so every chain
 * element the previous walk skipped is skipped again: the walk resumes where the
 * previous one stopped. */
static void lyndon_finish(const ly_ctx_t *c, uint64_t k)
{
    const rv_index_t *x = c->x;
    const int wide = x->wide;
    const uint64_t n = x->n;
    chunk_t *ck = &c->ck[k - 1];
    const uint64_t last = ck->tail == TAIL_CUT ? rv_get(ck->chain.v, wide, ck->chain.n - 1) : n;
    cursor_t u = {k, 0};
    while (u.k < c->chunks && c->ck[u.k].chain.n == 0) u.k++; /* an empty chunk (tests: tiny texts) */
    for (uint64_t m = 0; m < ck->cut.n; m++) {
        const uint64_t i = rv_get(ck->cut.v, wide, m), isa_i = rv_get(x->isa, wide, i);
        uint64_t j = cursor_pos(c, u);
        while (j < n && !suffix_less(x, c->q, x->seq->text, x->isa, wide, c->order, j, i, isa_i)) {
            u = cursor_next(c, u);
            j = cursor_pos(c, u);
        }
        if (i == last) ck->next = u;
        if (c->visit) {
            uint64_t e[1];
            rv_put(e, wide, 0, j);
            c->visit(c->vctx, i, i + 1, e, 0);
        }
    }
}

static void lyndon_chunks(void *arg, uint64_t k0, uint64_t k1, int thread)
{
    const ly_ctx_t *c = arg;
    for (uint64_t k = k0; k < k1; k++) lyndon_chunk(c, k, thread);
}

/* rv_lyndon_array's visitor: the ends into the whole array. */
typedef struct {
    void *end;
    int wide;
} to_array_t;

static void to_array(void *arg, uint64_t lo, uint64_t hi, const void *end, int thread)
{
    (void)thread;
    const to_array_t *a = arg;
    for (uint64_t i = lo; i < hi; i++) rv_put(a->end, a->wide, i, rv_get(end, a->wide, i - lo));
}

int rv_lyndon_array(const rv_index_t *x, const rv_rmq_t *q, int order, void *end, int threads,
                    uint64_t min_chunk)
{
    to_array_t a = {end, x->wide};
    return rv_lyndon_visit(x, q, order, threads, min_chunk, to_array, &a);
}

int rv_lyndon_visit(const rv_index_t *x, const rv_rmq_t *q, int order, int threads, uint64_t min_chunk,
                    rv_lyndon_fn visit, void *vctx)
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
    if (chunks < x->n / CHUNK_MAX + 1) chunks = x->n / CHUNK_MAX + 1;
    ly_ctx_t c = {x, q, order, chunks, calloc(chunks, sizeof(chunk_t)), calloc((size_t)threads, sizeof(void *)),
                  0, calloc((size_t)threads, sizeof(uint64_t)), visit, vctx};
    uint64_t oom = 0;
    if (!c.ck || !c.buf || !c.oom) {
        oom = chunks * sizeof(chunk_t) + (uint64_t)threads * 16;
    } else {
        for (uint64_t k = 0; k < chunks; k++) {
            const uint64_t len = chunk_lo(&c, k + 1) - chunk_lo(&c, k);
            c.buf_len = len > c.buf_len ? len : c.buf_len;
        }
        rv_parallel_dynamic(threads, chunks, 1, lyndon_chunks, &c);
        for (int t = 0; t < threads; t++) oom = c.oom[t] > oom ? c.oom[t] : oom;
        for (uint64_t k = 0; k < chunks; k++) {
            oom = c.ck[k].cut.oom > oom ? c.ck[k].cut.oom : oom;
            oom = c.ck[k].chain.oom > oom ? c.ck[k].chain.oom : oom;
        }
        for (uint64_t k = chunks - 1; k > 0 && !oom; k--) lyndon_finish(&c, k);
    }
    for (uint64_t k = 0; c.ck && k < chunks; k++) {
        free(c.ck[k].cut.v);
        free(c.ck[k].chain.v);
    }
    for (int t = 0; c.buf && t < threads; t++) free(c.buf[t]);
    free(c.ck);
    free(c.buf);
    free(c.oom);
    return oom ? rv_oom("Lyndon arrays' chunks", oom) : 0;
}
