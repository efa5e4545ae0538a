/* runs_store.c — the stored form of the runs (runs_store.h): sealing a section
 * after the runs are written, viewing one, and checking one read from a file.
 *
 * The runs are sorted by (start, period) and cut into blocks of RV_RUNS_BLOCK.  The
 * search structure is an implicit balanced binary tree over the blocks (the root of
 * [lo, hi) is its middle block), augmented with blockmax[mid] = the largest end in the
 * subtree of mid: one field per block, no pointers (an interval tree over the sorted
 * runs, with a block of runs at each node to keep it a small fraction of the runs
 * themselves).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/index.h"
#include "repview/tandem.h"
#include "base/internal.h"
#include "runs_store.h"

/* Run k as stored, without rv_runs_at's clamps: what the check must see. */
static inline rv_run_t stored_at(const rv_runs_t *r, uint64_t k)
{
    uint64_t s = rv_get(r->start, r->wide, k);
    return (rv_run_t){s, s + rv_get(r->len, r->wide, k), rv_get(r->period, r->wide, k)};
}

/* Walks the block tree in order (so runs are seen sorted), computing the largest end
 * of each subtree into blockmax (seal). */
typedef struct {
    const rv_runs_t *r;
    void *blockmax;       /* to fill */
} tree_walk_t;

/* A run of a text of length n that may follow prev in (start, period) order. */
static int run_fits(const rv_run_t *u, const rv_run_t *prev, uint64_t n, uint64_t k)
{
    uint64_t len = u->end - u->start; /* len and start are stored; end may wrap */
    return u->start <= n && len <= n - u->start && u->period > 0 && len / 2 >= u->period &&
           (k == 0 || u->start > prev->start || (u->start == prev->start && u->period > prev->period));
}

static uint64_t block_end_max(const rv_runs_t *r, uint64_t b)
{
    uint64_t k = b * RV_RUNS_BLOCK, stop = k + RV_RUNS_BLOCK < r->n ? k + RV_RUNS_BLOCK : r->n, m = 0;
    for (; k < stop; k++) {
        rv_run_t u = stored_at(r, k);
        if (u.end > m) m = u.end;
    }
    return m;
}

static uint64_t tree_walk(tree_walk_t *c, uint64_t lo, uint64_t hi)
{
    if (lo >= hi) return 0;
    uint64_t mid = lo + (hi - lo) / 2, l = tree_walk(c, lo, mid), m = block_end_max(c->r, mid);
    uint64_t r = tree_walk(c, mid + 1, hi);
    if (l > m) m = l;
    if (r > m) m = r;
    rv_put(c->blockmax, c->r->wide, mid, m);
    return m;
}

void rv_runs_seal_header(void *sec, uint64_t n_text, uint64_t m, int wide)
{
    uint64_t *h = sec;
    h[0] = RV_RUNS_MAGIC;
    h[1] = n_text;
    h[2] = m;
    h[3] = wide ? 8 : 4;
    h[4] = RV_RUNS_BLOCK;
    h[5] = 0;
}

void rv_runs_seal(void *sec, uint64_t n_text, uint64_t m, int wide)
{
    rv_runs_seal_header(sec, n_text, m, wide);
    rv_runs_cols_t col = rv_runs_columns(sec, m, wide);
    rv_runs_t r = {m, wide, col.start, col.len, col.period, col.blockmax, n_text, NULL};
    tree_walk_t c = {&r, col.blockmax};
    tree_walk(&c, 0, rv_runs_blocks(m));
}

int rv_runs_view(const void *sec, uint64_t bytes, uint64_t n_text, int wide, rv_runs_t *out)
{
    const uint64_t *h = sec;
    if ((uintptr_t)sec % 8 || bytes < RV_RUNS_HEAD || h[0] != RV_RUNS_MAGIC || h[1] != n_text ||
        h[2] > n_text || h[3] != (wide ? 8u : 4u) || h[4] != RV_RUNS_BLOCK || h[5] != 0 ||
        rv_runs_section_bytes(h[2], wide) != bytes)
        return rv_error("tandem", "runs section does not match the index");
    rv_runs_cols_t col = rv_runs_columns((void *)(uintptr_t)sec, h[2], wide);
    *out = (rv_runs_t){h[2], wide, col.start, col.len, col.period, col.blockmax, n_text, NULL};
    return 0;
}

/* The check, block by block on many threads: every run of a block against the run
 * before it (which may lie in the previous block), and the largest end of each
 * block into bm[]; then the tree over the blocks from bm[], O(blocks). */
typedef struct {
    const rv_runs_t *r;
    uint64_t n_text;
    uint64_t *bm;
    _Atomic int bad;
} check_ctx_t;

/* Run k of columns of width T against run k - 1: run_fits without branches, so that
 * a block's fixed-length loop vectorises; *m takes the largest end. */
#define DEFINE_RUN_BAD(T, name)                                                             \
    static inline unsigned name(const T *S, const T *L, const T *P, T n, uint64_t k, T *m)  \
    {                                                                                       \
        const T s = S[k], l = L[k], p = P[k], ps = S[k - 1], pp = P[k - 1], e = s + l;      \
        *m = e > *m ? e : *m;                                                               \
        return (unsigned)((s > n) | (l > (T)(n - s)) | (p == 0) | (l / 2 < p) | (s < ps) |  \
                          ((s == ps) & (p <= pp)));                                         \
    }
DEFINE_RUN_BAD(uint32_t, run_bad32)
DEFINE_RUN_BAD(uint64_t, run_bad64)

#define CHECK_BLOCKS(T, BAD)                                                                \
    do {                                                                                    \
        const T *S = r->start, *L = r->len, *P = r->period, n = (T)c->n_text;               \
        for (uint64_t b = lo; b < hi && !atomic_load_explicit(&c->bad, memory_order_relaxed); b++) { \
            uint64_t k = b * RV_RUNS_BLOCK, stop = k + RV_RUNS_BLOCK < r->n ? k + RV_RUNS_BLOCK : r->n; \
            T m = 0;                                                                        \
            unsigned bad = 0;                                                               \
            if (k == 0) { /* the first run has none before it */                            \
                rv_run_t u = stored_at(r, 0), none = {0, 0, 0};                             \
                bad |= !run_fits(&u, &none, c->n_text, 0);                                  \
                m = (T)u.end;                                                               \
                k = 1;                                                                      \
            }                                                                               \
            if (stop - k == RV_RUNS_BLOCK)                                                  \
                for (int q = 0; q < (int)RV_RUNS_BLOCK; q++) bad |= BAD(S, L, P, n, k + q, &m); \
            else                                                                            \
                for (; k < stop; k++) bad |= BAD(S, L, P, n, k, &m);                        \
            if (bad) atomic_store(&c->bad, 1);                                              \
            c->bm[b] = m;                                                                   \
        }                                                                                   \
    } while (0)

static void check_blocks(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    check_ctx_t *c = arg;
    const rv_runs_t *r = c->r;
    if (r->wide) CHECK_BLOCKS(uint64_t, run_bad64);
    else CHECK_BLOCKS(uint32_t, run_bad32);
}

static uint64_t tree_check(check_ctx_t *c, uint64_t lo, uint64_t hi)
{
    if (lo >= hi) return 0;
    uint64_t mid = lo + (hi - lo) / 2, l = tree_check(c, lo, mid), m = c->bm[mid];
    uint64_t r = tree_check(c, mid + 1, hi);
    if (l > m) m = l;
    if (r > m) m = r;
    if (rv_get(c->r->blockmax, c->r->wide, mid) != m) atomic_store(&c->bad, 1);
    return m;
}

/* Every run inside the text, a run (length >= 2 periods), in order, and the block
 * tree right: O(m), so that no query can read outside the text whatever a file says. */
static int runs_check(const rv_runs_t *r, uint64_t n_text, int threads)
{
    const uint64_t nb = rv_runs_blocks(r->n);
    check_ctx_t c = {r, n_text, malloc((nb ? nb : 1) * sizeof *c.bm), 0};
    if (!c.bm) return rv_oom("tandem runs' check", (nb ? nb : 1) * sizeof *c.bm);
    if (threads <= 0) threads = rv_default_threads();
    rv_parallel_for(nb >= 4096 ? threads : 1, nb, check_blocks, &c);
    if (!atomic_load(&c.bad)) tree_check(&c, 0, nb);
    free(c.bm);
    return atomic_load(&c.bad) ? rv_error("tandem", "corrupt runs section") : 0;
}

int rv_runs_check(const rv_index_t *x, int threads)
{
    uint64_t bytes;
    rv_runs_t v;
    const void *sec = rv_index_section(x, RV_SEC_RUNS, &bytes);
    if (!sec) return 0;
    return rv_runs_view(sec, bytes, x->n, x->wide, &v) < 0 ? -1 : runs_check(&v, x->n, threads);
}
