/* parallel.c — minimal pthread range splitting for the engine's threaded loops. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "repview/common.h"
#include "internal.h"

void rv_want_huge_pages(void *p, uint64_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)1 << 21;
    const uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), b = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (p && b > a) (void)madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

void *rv_big_alloc(uint64_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    rv_want_huge_pages(p, bytes);
    return p;
}

int rv_thread_failed(int rc, const char *what)
{
    if (rc != EAGAIN) return rv_error(what, "cannot start a thread: %s", strerror(rc));
    size_t stack = 0;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) == 0) {
        pthread_attr_getstacksize(&attr, &stack);
        pthread_attr_destroy(&attr);
    }
    char name[96];
    snprintf(name, sizeof name, "%s's stack", what);
    return rv_oom(name, stack);
}

typedef struct {
    rv_range_fn fn;
    void *ctx;
    uint64_t lo, hi, n, chunk;
    int t;
    _Atomic uint64_t *next; /* dynamic mode */
} job_t;

static void *run_static(void *arg)
{
    job_t *j = arg;
    j->fn(j->ctx, j->lo, j->hi, j->t);
    return NULL;
}

static void *run_dynamic(void *arg)
{
    job_t *j = arg;
    for (;;) {
        uint64_t lo = atomic_fetch_add(j->next, j->chunk);
        if (lo >= j->n) break;
        uint64_t hi = lo + j->chunk < j->n ? lo + j->chunk : j->n;
        j->fn(j->ctx, lo, hi, j->t);
    }
    return NULL;
}

static int spawn(int threads, job_t *jobs, void *(*body)(void *))
{
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    int *started = calloc((size_t)threads, sizeof *started);
    int rc = 0;
    if (!tid || !started) { /* no room to track threads: every job on this one */
        for (int t = 0; t < threads; t++) body(&jobs[t]);
        free(tid);
        free(started);
        return -1;
    }
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old); /* workers never take signals */
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&tid[t], NULL, body, &jobs[t]) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    body(&jobs[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t]) pthread_join(tid[t], NULL);
        else { body(&jobs[t]); rc = -1; }
    }
    free(tid);
    free(started);
    return rc;
}

int rv_parallel_for(int threads, uint64_t n, rv_range_fn fn, void *ctx)
{
    if (threads < 1) threads = 1;
    if ((uint64_t)threads > n) threads = n ? (int)n : 1;
    job_t jobs[256];
    if (threads > 256) threads = 256;
    for (int t = 0; t < threads; t++)
        jobs[t] = (job_t){fn, ctx, n * (uint64_t)t / (uint64_t)threads,
                          n * (uint64_t)(t + 1) / (uint64_t)threads, n, 0, t, NULL};
    return spawn(threads, jobs, run_static);
}

int rv_parallel_dynamic(int threads, uint64_t n, uint64_t chunk, rv_range_fn fn, void *ctx)
{
    _Atomic uint64_t next = 0;
    if (threads < 1) threads = 1;
    if (threads > 256) threads = 256;
    if (chunk == 0) chunk = 1;
    job_t jobs[256];
    for (int t = 0; t < threads; t++) jobs[t] = (job_t){fn, ctx, 0, 0, n, chunk, t, &next};
    return spawn(threads, jobs, run_dynamic);
}

typedef struct {
    uint8_t *dst;
    const uint8_t *src;
} copy_t;

static void copy_range(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    copy_t *c = ctx;
    (void)t;
    memcpy(c->dst + lo, c->src + lo, hi - lo);
}

void rv_copy_threads(void *dst, const void *src, uint64_t n, int threads)
{
    copy_t c = {dst, src};
    if (threads <= 0) threads = rv_default_threads();
    if (n < (1u << 24)) threads = 1; /* below 16 MB a thread's start is most of it */
    rv_parallel_for(threads, n, copy_range, &c);
}
