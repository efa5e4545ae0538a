/* lce_rmq.c — longest common extensions: by direct scan, and in O(1)-ish via ISA and a
 * range-minimum structure over LCP (block minima + sparse table over the blocks,
 * built in threads; the in-block part is a scan of at most two blocks, over the
 * LCP bytes first: a byte below 255 is the minimum without any table lookup, and
 * a range of escaped bytes is a run of consecutive entries of the big table). */
#include <stdlib.h>
#include "repview/common.h"
#include "repview/lce.h"
#include "base/internal.h"

#define RMQ_BLOCK 128 /* 0.4 bytes a symbol of table; a query scans at most three blocks of LCP bytes */

struct rv_rmq {
    const rv_index_t *x;
    uint64_t nblocks;
    int levels;
    int wide;
    void **table; /* table[k][b] = min of blocks b .. b + 2^k - 1 (32/64-bit as wide) */
};

uint64_t rv_lce_scan(const rv_seq_t *s, uint64_t i, uint64_t j)
{
    const uint8_t *t = s->text;
    uint64_t h = 0;
    while (i + h < s->n && j + h < s->n && t[i + h] == t[j + h] && t[i + h] != RV_BREAK) h++;
    return h;
}

static uint64_t scan_min(const rv_index_t *x, uint64_t lo, uint64_t hi)
{
    const uint8_t *v = x->lcp.v;
    unsigned m = RV_NARROW_ESC;
    for (uint64_t r = lo; r <= hi; r++) m = v[r] < m ? v[r] : m;
    if (m < RV_NARROW_ESC) return m;
    /* every value of the range is >= 255: consecutive entries of the big table */
    uint64_t big = UINT64_MAX, k = rv_narrow_rank(&x->lcp, lo);
    for (uint64_t r = lo; r <= hi; r++, k++) {
        uint64_t b = rv_narrow_val(&x->lcp, k);
        if (b < big) big = b;
    }
    return big;
}

typedef struct {
    rv_rmq_t *q;
    int k; /* level being filled */
} rmq_ctx_t;

static void fill_level(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    rmq_ctx_t *c = arg;
    rv_rmq_t *q = c->q;
    const rv_index_t *x = q->x;
    for (uint64_t b = lo; b < hi; b++) {
        uint64_t v;
        if (c->k == 0) {
            uint64_t last = (b + 1) * RMQ_BLOCK - 1;
            v = scan_min(x, b * RMQ_BLOCK, last < x->n ? last : x->n - 1);
        } else {
            uint64_t a = rv_get(q->table[c->k - 1], q->wide, b);
            uint64_t d = rv_get(q->table[c->k - 1], q->wide, b + (1ull << (c->k - 1)));
            v = a < d ? a : d;
        }
        rv_put(q->table[c->k], q->wide, b, v);
    }
}

rv_rmq_t *rv_rmq_build(const rv_index_t *x) { return rv_rmq_build_threads(x, 0); }

rv_rmq_t *rv_rmq_build_threads(const rv_index_t *x, int threads)
{
    rv_rmq_t *q = calloc(1, sizeof *q);
    if (!q) { rv_oom("LCE table", sizeof *q); return NULL; }
    q->x = x;
    q->wide = x->wide;
    q->nblocks = (x->n + RMQ_BLOCK - 1) / RMQ_BLOCK;
    int levels = 1;
    while ((1ull << levels) <= q->nblocks) levels++;
    q->levels = levels;
    q->table = calloc((size_t)levels, sizeof *q->table);
    const uint64_t level_bytes = (q->nblocks ? q->nblocks : 1) * (q->wide ? 8 : 4);
    if (!q->table) { free(q); rv_oom("LCE table", (uint64_t)levels * sizeof *q->table); return NULL; }
    for (int k = 0; k < levels; k++) {
        q->table[k] = malloc(level_bytes);
        if (!q->table[k]) { rv_rmq_free(q); rv_oom("LCE table", (uint64_t)levels * level_bytes); return NULL; }
    }
    if (threads <= 0) threads = rv_default_threads();
    for (int k = 0; k < levels; k++) {
        rmq_ctx_t c = {q, k};
        uint64_t count = k == 0 ? q->nblocks : q->nblocks + 1 - (1ull << k);
        rv_parallel_for(count >= 65536 ? threads : 1, count, fill_level, &c);
    }
    return q;
}

void rv_rmq_free(rv_rmq_t *q)
{
    if (!q) return;
    for (int k = 0; k < q->levels; k++) free(q->table[k]);
    free(q->table);
    free(q);
}

uint64_t rv_rmq_min(const rv_rmq_t *q, uint64_t lo, uint64_t hi)
{
    uint64_t bl = lo / RMQ_BLOCK, bh = hi / RMQ_BLOCK;
    if (bh - bl < 2) return scan_min(q->x, lo, hi);
    uint64_t m = scan_min(q->x, lo, (bl + 1) * RMQ_BLOCK - 1);
    uint64_t m2 = scan_min(q->x, bh * RMQ_BLOCK, hi);
    if (m2 < m) m = m2;
    uint64_t a = bl + 1, b = bh - 1, len = b - a + 1;
    int k = 63 - __builtin_clzll(len);
    uint64_t t1 = rv_get(q->table[k], q->wide, a), t2 = rv_get(q->table[k], q->wide, b + 1 - (1ull << k));
    if (t1 < m) m = t1;
    if (t2 < m) m = t2;
    return m;
}

uint64_t rv_lce(const rv_index_t *x, const rv_rmq_t *q, uint64_t i, uint64_t j)
{
    if (i == j) return rv_lce_scan(x->seq, i, j);
    uint64_t a = rv_isa(x, i), b = rv_isa(x, j);
    if (a > b) { uint64_t t = a; a = b; b = t; }
    return rv_rmq_min(q, a + 1, b);
}
