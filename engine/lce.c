/* lce.c — longest common extensions: by direct scan, and in O(1)-ish via ISA and a
 * range-minimum structure over LCP (block minima + sparse table over the blocks;
 * the in-block part is a scan of at most two blocks). */
#include <stdlib.h>
#include "repview/common.h"
#include "repview/lce.h"

#define RMQ_BLOCK 32

struct rv_rmq {
    const rv_index_t *x;
    uint64_t nblocks;
    int levels;
    uint64_t **table; /* table[k][b] = min of blocks b .. b + 2^k - 1 */
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
    uint64_t m = UINT64_MAX;
    for (uint64_t r = lo; r <= hi; r++) {
        uint64_t v = rv_lcp(x, r);
        if (v < m) m = v;
    }
    return m;
}

rv_rmq_t *rv_rmq_build(const rv_index_t *x)
{
    rv_rmq_t *q = calloc(1, sizeof *q);
    if (!q) return NULL;
    q->x = x;
    q->nblocks = (x->n + RMQ_BLOCK - 1) / RMQ_BLOCK;
    int levels = 1;
    while ((1ull << levels) <= q->nblocks) levels++;
    q->levels = levels;
    q->table = calloc((size_t)levels, sizeof *q->table);
    if (!q->table) { free(q); return NULL; }
    for (int k = 0; k < levels; k++) {
        q->table[k] = malloc((q->nblocks ? q->nblocks : 1) * sizeof(uint64_t));
        if (!q->table[k]) { rv_rmq_free(q); return NULL; }
    }
    for (uint64_t b = 0; b < q->nblocks; b++) {
        uint64_t hi = (b + 1) * RMQ_BLOCK - 1;
        q->table[0][b] = scan_min(x, b * RMQ_BLOCK, hi < x->n ? hi : x->n - 1);
    }
    for (int k = 1; k < levels; k++)
        for (uint64_t b = 0; b + (1ull << k) <= q->nblocks; b++) {
            uint64_t a = q->table[k - 1][b], c = q->table[k - 1][b + (1ull << (k - 1))];
            q->table[k][b] = a < c ? a : c;
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
    uint64_t t1 = q->table[k][a], t2 = q->table[k][b + 1 - (1ull << k)];
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
