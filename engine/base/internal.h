/* internal.h — threads, tracing and growing arrays, for every engine file; not part
 * of the public API. */
#ifndef REPVIEW_ENGINE_INTERNAL_H
#define REPVIEW_ENGINE_INTERNAL_H

#include <stdint.h>
#include <stdlib.h>

/* Run fn(ctx, lo, hi, thread_index) over [0, n) cut into `threads` contiguous
 * chunks, each in its own thread (the caller's thread runs the first). Returns 0,
 * or -1 when a thread could not be started (the work is then done serially). */
typedef void (*rv_range_fn)(void *ctx, uint64_t lo, uint64_t hi, int t);
int rv_parallel_for(int threads, uint64_t n, rv_range_fn fn, void *ctx);

/* Same, but with many more chunks than threads handed out dynamically, for work
 * whose cost varies along the range.  chunk = items per task. */
int rv_parallel_dynamic(int threads, uint64_t n, uint64_t chunk, rv_range_fn fn, void *ctx);

/* Report that pthread_create() failed with rc for `what` ("build thread"): EAGAIN
 * is memory for its stack most often (rv_oom(), with the default stack's size),
 * anything else "WHAT: cannot start a thread: REASON".  Returns -1. */
int rv_thread_failed(int rc, const char *what);

/* malloc(bytes) for a big array that threads first touch at random or all at once:
 * transparent huge pages asked for where the kernel offers them (madvise), so its
 * first touches fault and miss the TLB per 2 MiB, not per 4 KiB.  NULL when out of
 * memory; free() it. */
void *rv_big_alloc(uint64_t bytes);

/* The same advice for an array not yet touched. */
void rv_want_huge_pages(void *p, uint64_t bytes);

/* REPVIEW_TRACE=1: print "trace<TAB>what<TAB>ms since *t", then the resident and
 * peak memory so far, on stderr and restart *t (the CPU stages and their steps; the
 * GPU has REPVIEW_GPU_TRACE). */
void rv_trace(const char *what, double *t);

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
