/* internal.h — helpers shared by engine files; not part of the public API. */
#ifndef REPVIEW_ENGINE_INTERNAL_H
#define REPVIEW_ENGINE_INTERNAL_H

#include <stdint.h>
#include <stdlib.h>
#include "repview/index.h"
#include "repview/progress.h"

/* Run fn(ctx, lo, hi, thread_index) over [0, n) cut into `threads` contiguous
 * chunks, each in its own thread (the caller's thread runs the first). Returns 0,
 * or -1 when a thread could not be started (the work is then done serially). */
typedef void (*rv_range_fn)(void *ctx, uint64_t lo, uint64_t hi, int t);
int rv_parallel_for(int threads, uint64_t n, rv_range_fn fn, void *ctx);

/* Same, but with many more chunks than threads handed out dynamically, for work
 * whose cost varies along the range.  chunk = items per task. */
int rv_parallel_dynamic(int threads, uint64_t n, uint64_t chunk, rv_range_fn fn, void *ctx);

/* CPU builders (sa_cpu.c, lcp_cpu.c), called in this order: SA, LCP (writes the full
 * LCP into the ISA buffer as scratch, then attaches it narrowed, narrow.h), ISA. */
int rv_cpu_sa(rv_index_t *x, rv_progress_t *p);
int rv_cpu_isa(rv_index_t *x, int threads, rv_progress_t *p);
int rv_cpu_lcp(rv_index_t *x, int threads, rv_progress_t *p);

/* REPVIEW_TRACE=1: print "trace<TAB>what<TAB>ms since *t" on stderr and restart *t
 * (sub-stage times of the CPU stages; the GPU has REPVIEW_GPU_TRACE). */
void rv_trace(const char *what, double *t);

/* Free the verification state of a mapped index (rvx.c). */
struct rv_rvx_state;
void rv_rvx_state_free(struct rv_rvx_state *v);

/* rv_repeats_each (repeats.h) with work units of at least `grain` suffix-array
 * ranks (4096 there): the tests cut tiny inputs into many units. */
#include "repview/repeats.h"
int rv_repeats_each_grain(const rv_index_t *x, uint64_t min_len, int supermax, int threads, uint64_t grain,
                          rv_repeat_fn fn, void *ud);

/* Grow *p (of *cap elements of elem bytes) to hold need elements, doubling from
 * 64: 0, or -1 when out of memory (*p and *cap unchanged). */
static inline int rv_grow(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap) return 0;
    uint64_t c = *cap ? *cap : 64;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

#endif
