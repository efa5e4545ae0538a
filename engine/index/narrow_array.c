/* narrow_array.c — one-byte arrays with a table of big values (include/repview/narrow.h). */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/narrow.h"
#include "base/internal.h"

static uint64_t blocks(uint64_t n) { return (n + RV_NARROW_BLOCK - 1) / RV_NARROW_BLOCK; }

uint64_t rv_narrow_big_bytes(uint64_t n, uint64_t n_big, int wide)
{
    return 8 + (n_big + blocks(n) + 1) * (wide ? 8 : 4);
}

/* Views into the big section: n_big, then val and dir. */
static void carve(rv_narrow_t *a, const void *big, uint64_t n_big)
{
    const char *p = (const char *)big + 8;
    a->n_big = n_big;
    a->val = p;
    a->dir = p + n_big * (a->wide ? 8 : 4);
}

int rv_narrow_view(rv_narrow_t *a, const void *small, uint64_t small_bytes, const void *big,
                   uint64_t big_bytes, uint64_t n, int wide)
{
    uint64_t n_big;
    if (!small || !big || small_bytes != n || big_bytes < 8) return -1;
    memcpy(&n_big, big, 8);
    if (n_big > n || big_bytes != rv_narrow_big_bytes(n, n_big, wide)) return -1;
    memset(a, 0, sizeof *a);
    a->v = small;
    a->n = n;
    a->wide = wide;
    carve(a, big, n_big);
    if (rv_get(a->dir, wide, 0) != 0 || rv_get(a->dir, wide, blocks(n)) != n_big) return -1;
    return 0;
}

void *rv_narrow_big_alloc(rv_narrow_t *a, const uint8_t *small, uint64_t n, uint64_t n_big, int wide,
                          uint64_t *bytes)
{
    *bytes = rv_narrow_big_bytes(n, n_big, wide);
    void *big = malloc(*bytes);
    if (!big) return NULL;
    memcpy(big, &n_big, 8);
    memset(a, 0, sizeof *a);
    a->v = small;
    a->n = n;
    a->wide = wide;
    carve(a, big, n_big);
    return big;
}

static void count_blocks(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    rv_narrow_t *a = arg;
    for (uint64_t b = lo; b < hi; b++) {
        uint64_t s = b * RV_NARROW_BLOCK, len = a->n - s < RV_NARROW_BLOCK ? a->n - s : RV_NARROW_BLOCK;
        rv_put((void *)a->dir, a->wide, b, rv_narrow_count_esc(a->v + s, len));
    }
}

void rv_narrow_finish(rv_narrow_t *a, int threads)
{
    uint64_t nb = blocks(a->n), sum = 0;
    rv_parallel_for(nb >= 65536 ? threads : 1, nb, count_blocks, a);
    for (uint64_t b = 0; b < nb; b++) { /* counts -> escapes before each block */
        uint64_t c = rv_get(a->dir, a->wide, b);
        rv_put((void *)a->dir, a->wide, b, sum);
        sum += c;
    }
    rv_put((void *)a->dir, a->wide, nb, sum);
}

void *rv_narrow_big_from32(const uint32_t *pos, const uint32_t *val, uint64_t n_big, uint64_t n,
                           int wide, uint64_t *bytes)
{
    rv_narrow_t a;
    void *big = rv_narrow_big_alloc(&a, NULL, n, n_big, wide, bytes);
    if (!big) return NULL;
    uint64_t k = 0, nb = blocks(n);
    for (uint64_t j = 0; j < n_big; j++) rv_put((void *)a.val, wide, j, val[j]);
    for (uint64_t b = 0; b <= nb; b++) { /* from the positions: no pass over the bytes */
        while (k < n_big && pos[k] < b * RV_NARROW_BLOCK) k++;
        rv_put((void *)a.dir, wide, b, b == nb ? n_big : k);
    }
    return big;
}

typedef struct {
    const void *full;
    const void *perm; /* entry i is full[perm[i]] when set (perm values < n) */
    int src_wide;
    uint64_t n, nchunks;
    uint8_t *small;
    uint64_t *count; /* per chunk: big entries, then the first slot of the chunk */
    rv_narrow_t a;   /* the big section being filled */
} pack_ctx_t;

static inline uint64_t entry(const pack_ctx_t *c, uint64_t i)
{
    return rv_get(c->full, c->src_wide, c->perm ? rv_get(c->perm, c->src_wide, i) : i);
}

static inline uint64_t chunk_lo(const pack_ctx_t *c, uint64_t k)
{
    return (uint64_t)((unsigned __int128)c->n * k / c->nchunks);
}

static void pack_small(void *arg, uint64_t k0, uint64_t k1, int t)
{
    (void)t;
    pack_ctx_t *c = arg;
    for (uint64_t k = k0; k < k1; k++) {
        uint64_t cnt = 0;
        for (uint64_t i = chunk_lo(c, k), hi = chunk_lo(c, k + 1); i < hi; i++) {
            uint64_t v = entry(c, i);
            c->small[i] = v < RV_NARROW_ESC ? (uint8_t)v : RV_NARROW_ESC;
            cnt += v >= RV_NARROW_ESC;
        }
        c->count[k] = cnt;
    }
}

static void pack_big(void *arg, uint64_t k0, uint64_t k1, int t)
{
    (void)t;
    pack_ctx_t *c = arg;
    for (uint64_t k = k0; k < k1; k++) {
        uint64_t out = c->count[k];
        for (uint64_t i = chunk_lo(c, k), hi = chunk_lo(c, k + 1); i < hi; i++)
            if (c->small[i] == RV_NARROW_ESC) rv_put((void *)c->a.val, c->a.wide, out++, entry(c, i));
    }
}

int rv_narrow_pack(const void *full, int src_wide, uint64_t n, int wide, int threads, uint8_t **small,
                   void **big, uint64_t *big_bytes)
{
    return rv_narrow_pack_gather(full, NULL, src_wide, n, wide, threads, small, big, big_bytes);
}

int rv_narrow_pack_gather(const void *full, const void *perm, int src_wide, uint64_t n, int wide, int threads,
                          uint8_t **small, void **big, uint64_t *big_bytes)
{
    if (threads < 1) threads = 1;
    pack_ctx_t c = {full, perm, src_wide, n, 0, NULL, NULL, {0}};
    c.nchunks = n / (1u << 20) + 1;
    if (c.nchunks < (uint64_t)threads * 4 && n >= (uint64_t)threads * 4096) c.nchunks = (uint64_t)threads * 4;
    c.small = malloc(n ? n : 1);
    c.count = malloc(c.nchunks * sizeof *c.count);
    *big = NULL;
    if (!c.small || !c.count) goto oom;
    rv_parallel_dynamic(threads, c.nchunks, 1, pack_small, &c);
    uint64_t n_big = 0;
    for (uint64_t k = 0; k < c.nchunks; k++) {
        uint64_t cnt = c.count[k];
        c.count[k] = n_big;
        n_big += cnt;
    }
    if (!(*big = rv_narrow_big_alloc(&c.a, c.small, n, n_big, wide, big_bytes))) goto oom;
    rv_parallel_dynamic(threads, c.nchunks, 1, pack_big, &c);
    rv_narrow_finish(&c.a, threads);
    free(c.count);
    *small = c.small;
    return 0;
oom:
    free(c.small);
    free(c.count);
    return rv_oom("one-byte form of an array", n);
}
