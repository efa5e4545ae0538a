/* lr_scan.c — the longest repeats of every position (Tian & Xu §4): the raw walk
 * (Alg. 1 leftmost, Alg. 3 all) and binary search + walk over the compact array
 * (Alg. 2, Alg. 4), run by worker threads over chunks of positions (§5: every
 * position is an independent walk) and handed to the caller in order.
 *
 * Two notes on the paper's pseudo-code: the walk over LLRc goes right, where ends
 * only grow, so it stops at the first entry that starts after k (Alg. 2 line 12
 * tests the end, which cannot fail there); and "all LRs" walks twice, first for the
 * length, then to report the entries of that length.
 */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "lr_internal.h"
#include "base/internal.h"

#define CHUNK 16384          /* positions per task */
#define SLOTS_PER_THREAD 8   /* tasks per batch and thread */

typedef struct {
    rv_lr_hit_t *h;
    size_t n, cap;
    rv_lr_stats_t st;
    uint64_t oom; /* bytes a failed allocation asked for, or 0 */
} slot_t;

typedef struct {
    rv_lr_src_t src;
    const rv_lr_scan_opts_t *o;
    uint64_t lo, hi;  /* positions of this batch */
    slot_t *slot;
} scan_ctx_t;

static int slot_reserve(slot_t *s, size_t more)
{
    if (s->n + more <= s->cap) return 0;
    size_t cap = s->cap ? s->cap : 1024;
    while (cap < s->n + more) cap *= 2;
    rv_lr_hit_t *h = realloc(s->h, cap * sizeof *h);
    if (!h) { s->oom = cap * sizeof *h; return -1; }
    s->h = h;
    s->cap = cap;
    return 0;
}

static inline void note_steps(rv_lr_stats_t *st, uint64_t steps)
{
    if (steps < st->steps_min) st->steps_min = steps;
    if (steps > st->steps_max) st->steps_max = steps;
    st->steps_sum += steps;
}

static inline void push(slot_t *s, uint64_t k, uint64_t start, uint64_t len)
{
    if (s->n == s->cap && slot_reserve(s, 1) < 0) return;
    s->h[s->n++] = (rv_lr_hit_t){k, start, len};
    s->st.len_sum += len;
}

/* L[i] on a walk that visits every entry from right to left: *esc is the rank of the
 * last escaped entry met (UINT64_MAX: none yet), so long repeats cost one count. */
static __attribute__((noinline)) uint64_t walk_esc(const rv_narrow_t *llr, uint64_t i, uint64_t *esc)
{
    *esc = *esc == UINT64_MAX ? rv_narrow_rank(llr, i) : *esc - 1;
    return rv_narrow_val(llr, *esc);
}

static inline uint64_t walk_left(const rv_narrow_t *llr, uint64_t i, uint64_t *esc)
{
    uint8_t b = llr->v[i];
    return __builtin_expect(b != RV_NARROW_ESC, 1) ? b : walk_esc(llr, i, esc);
}

/* Raw walk (Alg. 1/3): from LLR_k leftwards while the LLR still covers k; ends never
 * decrease (lr.h), so the first one that misses k ends the walk. */
static inline __attribute__((always_inline)) void
raw_position(const rv_narrow_t *llr, int leftmost, uint64_t k, slot_t *s)
{
    uint64_t best = 0, bi = 0, steps = 0, i = k + 1, esc = UINT64_MAX;
    while (i-- > 0) {
        uint64_t L = walk_left(llr, i, &esc);
        steps++;
        if (i + L <= k) break;
        int take = L >= best; /* >=: leftmost among equals; branch-free (cmov) */
        best = take ? L : best;
        bi = take ? i : bi;
    }
    note_steps(&s->st, steps);
    if (!best) return;
    s->st.covered++;
    if (leftmost) { push(s, k, bi, best); return; }
    size_t first = s->n;
    esc = UINT64_MAX;
    for (i = k + 1; i-- > 0;) { /* second walk: every LLR of that length */
        uint64_t L = walk_left(llr, i, &esc);
        if (i + L <= k) break;
        if (L == best) push(s, k, i, L);
    }
    for (size_t a = first, b = s->n; a + 1 < b; a++, b--) { /* to increasing start */
        rv_lr_hit_t t = s->h[a];
        s->h[a] = s->h[b - 1];
        s->h[b - 1] = t;
    }
}

/* Walk right over LLRc from entry j (the first one ending after k; Alg. 2/4). */
static inline __attribute__((always_inline)) void
compact_position(const rv_lr_src_t *c, int leftmost, uint64_t k, uint64_t j, slot_t *s)
{
    uint64_t best = 0, bj = 0, steps = 0;
    for (uint64_t jj = j; jj < c->m; jj++) {
        steps++;
        if (rv_llrc_start(c, jj) > k) break;
        uint64_t L = rv_llrc_len(c, jj);
        int take = L > best; /* >: leftmost among equals; branch-free */
        best = take ? L : best;
        bj = take ? jj : bj;
    }
    note_steps(&s->st, steps);
    if (!best) return;
    s->st.covered++;
    if (leftmost) { push(s, k, rv_llrc_start(c, bj), best); return; }
    for (uint64_t jj = bj; jj < c->m && rv_llrc_start(c, jj) <= k; jj++)
        if (rv_llrc_len(c, jj) == best) push(s, k, rv_llrc_start(c, jj), best);
}

static inline __attribute__((always_inline)) void
range_kernel(const scan_ctx_t *c, uint64_t lo, uint64_t hi, slot_t *s, int w)
{
    const int leftmost = c->o->leftmost;
    rv_lr_src_t src = c->src; /* a local copy with a constant width */
    src.wide = w;
    const uint64_t m = src.m;
    if (c->o->method == RV_LR_RAW) {
        for (uint64_t k = lo; k < hi; k++) raw_position(&src.llr, leftmost, k, s);
    } else if (c->o->method == RV_LR_COMPACT) {
        for (uint64_t k = lo; k < hi; k++)
            compact_position(&src, leftmost, k, rv_llrc_first_ending_after(&src, k), s);
    } else { /* sweep: the first entry ending after k only moves right as k grows */
        uint64_t j = rv_llrc_first_ending_after(&src, lo);
        for (uint64_t k = lo; k < hi; k++) {
            while (j < m && rv_llrc_start(&src, j) + rv_llrc_len(&src, j) <= k) j++;
            compact_position(&src, leftmost, k, j, s);
        }
    }
}

static void scan_task(void *arg, uint64_t t0, uint64_t t1, int tid)
{
    (void)tid;
    scan_ctx_t *c = arg;
    for (uint64_t t = t0; t < t1; t++) {
        uint64_t lo = c->lo + t * CHUNK, hi = lo + CHUNK < c->hi ? lo + CHUNK : c->hi;
        slot_t *s = &c->slot[t];
        s->n = 0;
        if (lo >= hi) continue;
        if (slot_reserve(s, c->o->leftmost ? hi - lo : 2 * (hi - lo)) < 0) continue;
        s->st.positions += hi - lo;
        if (c->src.wide) range_kernel(c, lo, hi, s, 1); else range_kernel(c, lo, hi, s, 0);
    }
}

static void merge_stats(rv_lr_stats_t *into, const rv_lr_stats_t *a)
{
    into->positions += a->positions;
    into->covered += a->covered;
    into->len_sum += a->len_sum;
    into->steps_sum += a->steps_sum;
    if (a->positions && a->steps_min < into->steps_min) into->steps_min = a->steps_min;
    if (a->steps_max > into->steps_max) into->steps_max = a->steps_max;
}

int rv_lr_scan(const rv_index_t *x, uint64_t lo, uint64_t hi, const rv_lr_scan_opts_t *o,
               rv_lr_emit_fn emit, void *ctx, rv_lr_stats_t *st)
{
    scan_ctx_t c = {.o = o};
    rv_lr_src_init(&c.src, x);
    if (o->method == RV_LR_RAW ? !c.src.has_llr : !c.src.llrc)
        return rv_error("longest repeats", "the %s LLR array is not built", o->method == RV_LR_RAW ? "raw" : "compact");
    int threads = o->threads > 0 ? o->threads : rv_default_threads();
    if (hi > x->n) hi = x->n;
    const uint64_t nslots = (uint64_t)threads * SLOTS_PER_THREAD;
    c.slot = calloc(nslots, sizeof *c.slot);
    if (!c.slot) return rv_oom("longest repeats' slots", nslots * sizeof *c.slot);
    rv_lr_stats_t total = {.steps_min = UINT64_MAX};
    for (uint64_t i = 0; i < nslots; i++) c.slot[i].st.steps_min = UINT64_MAX;
    int rc = 0;
    for (uint64_t b = lo; b < hi && rc == 0; b += nslots * CHUNK) {
        c.lo = b;
        c.hi = b + nslots * CHUNK < hi ? b + nslots * CHUNK : hi;
        uint64_t tasks = (c.hi - c.lo + CHUNK - 1) / CHUNK;
        rv_parallel_dynamic(tasks > 1 ? threads : 1, tasks, 1, scan_task, &c);
        for (uint64_t t = 0; t < tasks && rc == 0; t++) {
            if (c.slot[t].oom) rc = rv_oom("longest repeats found", c.slot[t].oom);
            else if (emit && c.slot[t].n && emit(ctx, c.slot[t].h, c.slot[t].n)) rc = 1;
            total.hits += c.slot[t].n;
        }
    }
    for (uint64_t i = 0; i < nslots; i++) {
        merge_stats(&total, &c.slot[i].st);
        free(c.slot[i].h);
    }
    free(c.slot);
    if (total.steps_min == UINT64_MAX) total.steps_min = 0;
    if (st) *st = total;
    return rc;
}
