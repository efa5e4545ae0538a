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
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/index.h"
#include "repview/tandem.h"
#include "runs_store.h"

/* Walks the block tree in order (so runs are seen sorted), computing the largest end
 * of each subtree: seal writes it, check compares it and also checks every run. */
typedef struct {
    const rv_runs_t *r;
    void *blockmax;       /* to fill (seal), or NULL (check) */
    uint64_t n_text;
    rv_run_t prev;        /* the previous run seen, for the order check */
    int bad;
} tree_walk_t;

/* A run of a text of length n that may follow prev in (start, period) order. */
static int run_fits(const rv_run_t *u, const rv_run_t *prev, uint64_t n, uint64_t k)
{
    uint64_t len = u->end - u->start; /* len and start are stored; end may wrap */
    return u->start <= n && len <= n - u->start && u->period > 0 && len / 2 >= u->period &&
           (k == 0 || u->start > prev->start || (u->start == prev->start && u->period > prev->period));
}

static uint64_t block_end_max(tree_walk_t *c, uint64_t b)
{
    const rv_runs_t *r = c->r;
    uint64_t k = b * RV_RUNS_BLOCK, stop = k + RV_RUNS_BLOCK < r->n ? k + RV_RUNS_BLOCK : r->n, m = 0;
    for (; k < stop; k++) {
        rv_run_t u = rv_runs_at(r, k);
        if (!c->blockmax && !run_fits(&u, &c->prev, c->n_text, k)) c->bad = 1;
        c->prev = u;
        if (u.end > m) m = u.end;
    }
    return m;
}

static uint64_t tree_walk(tree_walk_t *c, uint64_t lo, uint64_t hi)
{
    if (lo >= hi) return 0;
    uint64_t mid = lo + (hi - lo) / 2, l = tree_walk(c, lo, mid), m = block_end_max(c, mid);
    uint64_t r = tree_walk(c, mid + 1, hi);
    if (l > m) m = l;
    if (r > m) m = r;
    if (c->blockmax) rv_put(c->blockmax, c->r->wide, mid, m);
    else if (rv_get(c->r->blockmax, c->r->wide, mid) != m) c->bad = 1;
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
    rv_runs_t r = {m, wide, col.start, col.len, col.period, col.blockmax, NULL};
    tree_walk_t c = {&r, col.blockmax, n_text, {0, 0, 0}, 0};
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
    *out = (rv_runs_t){h[2], wide, col.start, col.len, col.period, col.blockmax, NULL};
    return 0;
}

/* Every run inside the text, a run (length >= 2 periods), in order, and the block
 * tree right: O(m), so that no query can read outside the text whatever a file says. */
static int runs_check(const rv_runs_t *r, uint64_t n_text)
{
    tree_walk_t c = {r, NULL, n_text, {0, 0, 0}, 0};
    tree_walk(&c, 0, rv_runs_blocks(r->n));
    return c.bad ? rv_error("tandem", "corrupt runs section") : 0;
}

int rv_runs_check(const rv_index_t *x)
{
    uint64_t bytes;
    rv_runs_t v;
    const void *sec = rv_index_section(x, RV_SEC_RUNS, &bytes);
    if (!sec) return 0;
    return rv_runs_view(sec, bytes, x->n, x->wide, &v) < 0 ? -1 : runs_check(&v, x->n);
}

