/* repeats_tree.c — maximal and supermaximal repeats with their occurrence lists, and
 * w-mer counts, from the LCP-interval tree of the index (repeats.h).
 *
 * Maximal repeats (Abouelhoda, Kurtz & Ohlebusch 2004, §5; Gusfield 1997 §7.12):
 * a bottom-up traversal of the LCP intervals (Kasai et al.'s stack) keeps, for
 * each open interval, the left-character class its suffixes share (or "mixed")
 * and whether a child interval was attached.  Every LCP interval is
 * right-maximal by construction; it is left-maximal when its class is mixed
 * (a suffix after a breaker or at the text start mixes any set: pf_left_class 0
 * never equals anything).  A supermaximal repeat is an interval without child
 * intervals whose left classes are pairwise different; such intervals are
 * disjoint, so checking them costs O(n) in all.
 *
 * The ranks are cut into units at run boundaries (no interval of lcp >= MIN
 * crosses one; RACE §5.1, as pairs_tree.c) walked on several threads.  The intervals
 * found are kept as (first occurrence, length, lb, rb) and sorted, so the output
 * comes in text order whatever the suffix order or the thread count; each
 * occurrence list is SA[lb..rb] sorted when it is handed out.
 */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/repeats.h"
#include "base/internal.h" /* rv_grow */
#include "pairs_internal.h" /* pf_left_class, pf_make_units */
#include "repeats_grain.h"

enum { CLS_EMPTY = -1, CLS_MIXED = 256 };

typedef struct {
    uint64_t lcp, lb, first; /* first: smallest text position below it */
    int cls;                 /* the left class all its suffixes share, CLS_MIXED, or CLS_EMPTY */
    int leaves_only;         /* no child interval attached yet */
} frame_t;

typedef struct {
    uint64_t first, len, lb, rb;
} found_t;

typedef struct {
    found_t *v;
    uint64_t n, cap;
} found_list_t;

/* Attach a child (a leaf or a finished interval) to frame f. */
static void absorb(frame_t *f, int cls, uint64_t first, int is_interval)
{
    f->cls = f->cls == CLS_EMPTY ? cls : f->cls == cls && cls != CLS_MIXED ? cls : CLS_MIXED;
    if (first < f->first) f->first = first;
    if (is_interval) f->leaves_only = 0;
}

static int leaf_class(const rv_seq_t *s, uint64_t p)
{
    unsigned c = pf_left_class(s, p);
    return c ? (int)c : CLS_MIXED; /* a breaker or the start: differs from every suffix */
}

/* Supermaximal: no child interval and pairwise different left classes (class 0,
 * a breaker or the start, is different from itself).  *first: the smallest
 * position of the interval. */
static int is_supermax(const rv_index_t *x, const frame_t *f, uint64_t rb, uint64_t *first)
{
    if (!f->leaves_only) return 0;
    uint64_t seen[4] = {0}, lo = UINT64_MAX;
    for (uint64_t r = f->lb; r <= rb; r++) {
        uint64_t p = rv_sa(x, r);
        unsigned c = pf_left_class(x->seq, p);
        if (p < lo) lo = p;
        if (!c) continue;
        if (seen[c >> 6] >> (c & 63) & 1) return 0;
        seen[c >> 6] |= 1ull << (c & 63);
    }
    *first = lo;
    return 1;
}

/* The bottom-up traversal of ranks [lo, hi) (a unit: no interval of lcp >=
 * min_len crosses its ends): every interval of lcp >= min_len that qualifies goes
 * to out.  0 or -1.  Supermaximal intervals need no left class or first position
 * per leaf (is_supermax() reads them for the few candidates): that walk reads the
 * LCP array alone, in order. */
static int find_intervals(const rv_index_t *x, uint64_t min_len, int supermax, uint64_t lo, uint64_t hi,
                          found_list_t *out)
{
    frame_t *stk = NULL;
    uint64_t cap = 0, sp = 0;
    if (rv_grow((void **)&stk, &cap, 2, sizeof *stk) < 0) return rv_error("repeats", "out of memory");
    stk[0] = (frame_t){0, lo, UINT64_MAX, CLS_EMPTY, 1};
    for (uint64_t r = lo; r < hi; r++) {
        uint64_t h = r + 1 < hi ? rv_lcp(x, r + 1) : 0;
        uint64_t p = supermax ? UINT64_MAX : rv_sa(x, r);
        int cls = supermax ? CLS_MIXED : leaf_class(x->seq, p), is_interval = 0;
        uint64_t lb = r, first = p;
        while (h < stk[sp].lcp) {
            frame_t *f = &stk[sp--];
            absorb(f, cls, first, is_interval);
            if (f->lcp >= min_len && (supermax ? is_supermax(x, f, r, &f->first) : f->cls == CLS_MIXED)) {
                if (rv_grow((void **)&out->v, &out->cap, out->n + 1, sizeof *out->v) < 0) {
                    free(stk);
                    return rv_error("repeats", "out of memory");
                }
                out->v[out->n++] = (found_t){f->first, f->lcp, f->lb, r};
            }
            cls = f->cls, first = f->first, lb = f->lb, is_interval = 1;
        }
        if (h > stk[sp].lcp) {
            if (rv_grow((void **)&stk, &cap, sp + 2, sizeof *stk) < 0) {
                free(stk);
                return rv_error("repeats", "out of memory");
            }
            stk[++sp] = (frame_t){h, lb, first, cls, !is_interval};
        } else {
            absorb(&stk[sp], cls, first, is_interval);
        }
    }
    free(stk);
    return 0;
}

static int found_cmp(const void *a, const void *b)
{
    const found_t *u = a, *v = b;
    if (u->first != v->first) return u->first < v->first ? -1 : 1;
    if (u->len != v->len) return u->len > v->len ? -1 : 1; /* longer first */
    return u->lb < v->lb ? -1 : u->lb > v->lb;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t u = *(const uint64_t *)a, v = *(const uint64_t *)b;
    return u < v ? -1 : u > v;
}

/* Hand the interval [lb, rb] to fn with its positions sorted (buf: room for
 * rb - lb + 1, or NULL for counts only). */
static int hand_out(const rv_index_t *x, uint64_t len, uint64_t lb, uint64_t rb, uint64_t *buf,
                    rv_repeat_fn fn, void *ud)
{
    uint64_t k = rb - lb + 1;
    if (buf) {
        for (uint64_t i = 0; i < k; i++) buf[i] = rv_sa(x, lb + i);
        qsort(buf, k, sizeof *buf, u64_cmp);
    }
    rv_repeat_t rep = {len, k, buf, lb};
    return fn(ud, &rep);
}

typedef struct {
    const rv_index_t *x;
    uint64_t min_len;
    int supermax;
    const pf_unit_t *units;
    found_list_t *lists; /* one per thread */
    int *failed;         /* one per thread: out of memory */
} walk_t;

static void walk_units(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    walk_t *w = ctx;
    for (uint64_t i = lo; i < hi && !w->failed[t]; i++)
        if (find_intervals(w->x, w->min_len, w->supermax, w->units[i].lo, w->units[i].hi, &w->lists[t]) < 0)
            w->failed[t] = 1;
}

/* Every qualifying interval, on `threads` threads (units cut at run boundaries,
 * RACE §5.1, handed out largest first), into *all (unsorted).  0 or -1. */
static int find_all(const rv_index_t *x, uint64_t min_len, int supermax, int threads, uint64_t grain,
                    found_list_t *all)
{
    uint64_t nunits = 0;
    pf_unit_t *units = pf_make_units(x, min_len, threads, grain, &nunits);
    if ((uint64_t)threads > nunits) threads = nunits ? (int)nunits : 1;
    found_list_t *lists = calloc((size_t)threads, sizeof *lists);
    int *failed = calloc((size_t)threads, sizeof *failed);
    int rc = units && lists && failed ? 0 : -1;
    if (rc == 0) {
        walk_t w = {x, min_len, supermax, units, lists, failed};
        rv_parallel_dynamic(threads, nunits, 1, walk_units, &w);
    }
    for (int t = 0; t < threads && lists; t++) {
        if (failed[t] || (rc == 0 && rv_grow((void **)&all->v, &all->cap, all->n + lists[t].n, sizeof *all->v) < 0))
            rc = -1;
        if (rc == 0 && lists[t].n) memcpy(all->v + all->n, lists[t].v, lists[t].n * sizeof *all->v);
        if (rc == 0) all->n += lists[t].n;
        free(lists[t].v);
    }
    free(lists);
    free(failed);
    free(units);
    return rc < 0 ? rv_error("repeats", "out of memory") : 0;
}

int rv_repeats_each(const rv_index_t *x, uint64_t min_len, int supermax, int threads, rv_repeat_fn fn, void *ud)
{
    return rv_repeats_each_grain(x, min_len, supermax, threads, 4096, fn, ud);
}

int rv_repeats_each_grain(const rv_index_t *x, uint64_t min_len, int supermax, int threads, uint64_t grain,
                          rv_repeat_fn fn, void *ud)
{
    if (min_len < 1) return rv_error("repeats", "the minimum length must be >= 1");
    if (x->seq->strands == 2)
        return rv_error("repeats", "an index of both strands is not supported (use the forward strand)");
    if (threads <= 0) threads = rv_default_threads();
    found_list_t f = {0};
    if (find_all(x, min_len, supermax, threads > 256 ? 256 : threads, grain ? grain : 1, &f) < 0) {
        free(f.v);
        return -1;
    }
    if (f.n) qsort(f.v, f.n, sizeof *f.v, found_cmp);
    uint64_t most = 0;
    for (uint64_t i = 0; i < f.n; i++)
        if (f.v[i].rb - f.v[i].lb + 1 > most) most = f.v[i].rb - f.v[i].lb + 1;
    uint64_t *buf = malloc((most ? most : 1) * sizeof *buf);
    int rc = buf ? 0 : rv_oom("repeats' positions", (most ? most : 1) * sizeof *buf);
    for (uint64_t i = 0; i < f.n && rc == 0; i++) rc = hand_out(x, f.v[i].len, f.v[i].lb, f.v[i].rb, buf, fn, ud);
    free(buf);
    free(f.v);
    return rc;
}

/* Does text[p, p + w) hold no breaker (and fit)? */
static int breaker_free(const rv_seq_t *s, uint64_t p, uint64_t w)
{
    return p + w <= s->n && !memchr(s->text + p, RV_BREAK, w);
}

int rv_wmers_each(const rv_index_t *x, uint64_t w, uint64_t min_count, int with_pos, rv_repeat_fn fn,
                  void *ud)
{
    if (w < 1) return rv_error("wmers", "the w-mer length must be >= 1");
    if (min_count < 1) return rv_error("wmers", "the minimum count must be >= 1");
    uint64_t *buf = NULL, cap = 0;
    int rc = 0;
    for (uint64_t lb = 0; lb < x->n && rc == 0;) {
        uint64_t rb = lb;
        while (rb + 1 < x->n && rv_lcp(x, rb + 1) >= w) rb++;
        uint64_t k = rb - lb + 1;
        /* two suffixes or more share w symbols, so none holds a breaker there */
        if (k >= min_count && (k > 1 || breaker_free(x->seq, rv_sa(x, lb), w))) {
            if (with_pos && rv_grow((void **)&buf, &cap, k, sizeof *buf) < 0) rc = rv_error("wmers", "out of memory");
            else rc = hand_out(x, w, lb, rb, with_pos ? buf : NULL, fn, ud);
        }
        lb = rb + 1;
    }
    free(buf);
    return rc;
}
