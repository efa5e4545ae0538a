/* lr_buckets.h — longest repeats of every position from the text alone, in prefix
 * buckets (buckets.h for the buckets, lr.h for the definitions).
 *
 * L[i], the length of the longest repeat starting at i (lr.h), is exact from the
 * bucket of i when it is >= k (both suffix-array neighbours that give it share the
 * first k symbols); when it is < k it is the largest j < k whose j-mer at i occurs
 * at least twice, read from saturated j-mer counts derived from the plan's k-mer
 * counts.  Rank 0 (or the local process) keeps L for a window of positions, one
 * byte each plus the values >= 255, and runs the scan of lr.h over it: the same
 * answers in the same order as rv_lr_scan() on an index.  One strand only.
 *
 * Use: plan (rv_lr_bucket_plan), a window (rv_lr_window_new), the jobs' long values
 * into it (rv_lr_bucket_job or rv_lr_buckets_run, then rv_lr_window_add), then
 * rv_lr_window_scan.  rv_lr_buckets_scan does all of it with threads.
 */
#ifndef REPVIEW_LR_BUCKETS_H
#define REPVIEW_LR_BUCKETS_H

#include <stdint.h>
#include "repview/buckets.h"
#include "repview/lr.h"
#include "repview/pairs.h" /* rv_bucket_next_fn */

/* The plan for lr: k the smallest with sigma^k >= n (the buckets hold a few
 * suffixes each on average; at most what buckets.h allows, and 24), jobs sized for
 * `threads` threads sharing mem_budget (0: 1 GB) and cut for about three per
 * worker.  Counted on `threads` threads.  0, or -1 with a message (both strands). */
int rv_lr_bucket_plan(const rv_seq_t *s, uint64_t mem_budget, int threads, uint64_t workers,
                      rv_bucket_plan_t *plan);

/* The LLR lengths >= k of job j (rv_lr_t {start = position, len = L}) that a window
 * [lo, hi) needs (positions in it, and those before it whose LLR reaches lo),
 * sorted by position, in a malloc()ed array.  0, or -1 with a message. */
int rv_lr_bucket_job(const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t j, uint64_t lo, uint64_t hi,
                     rv_lr_t **out, uint64_t *n);

/* Receives the values of one job (called by one thread at a time). */
typedef int (*rv_lr_values_fn)(void *ud, const rv_lr_t *v, uint64_t n);

/* Run jobs on `threads` threads: the list jobs[0..n_jobs), or (jobs NULL) what
 * next hands out; each job's values go to fn.  0, or -1 with a message. */
int rv_lr_buckets_run(const rv_seq_t *s, const rv_bucket_plan_t *p, const uint64_t *jobs, uint64_t n_jobs,
                      rv_bucket_next_fn next, void *nctx, uint64_t lo, uint64_t hi, int threads,
                      rv_lr_values_fn fn, void *ud);

/* L over text positions [lo, hi): the values < k are computed when it is made (one
 * pass over the window, `threads` threads), the others added job by job. */
typedef struct rv_lr_window rv_lr_window_t;
/* NULL with a message when out of memory. */
rv_lr_window_t *rv_lr_window_new(const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t lo, uint64_t hi,
                                 int threads);
/* Values from rv_lr_bucket_job (any order; values the window does not need are
 * ignored).  0, or -1 when out of memory. */
int rv_lr_window_add(rv_lr_window_t *w, const rv_lr_t *v, uint64_t n);
/* Every job added: the LRs of [lo, hi) in text positions, as rv_lr_scan() gives
 * them (o->method is taken as RV_LR_SWEEP).  0, 1 when emit stopped, -1 with a
 * message. */
int rv_lr_window_scan(rv_lr_window_t *w, const rv_lr_scan_opts_t *o, rv_lr_emit_fn emit, void *ctx);
void rv_lr_window_free(rv_lr_window_t *w);

/* All of it in this process: rv_lr_scan() of [lo, hi) without an index. */
int rv_lr_buckets_scan(const rv_seq_t *s, uint64_t lo, uint64_t hi, uint64_t mem_budget,
                       const rv_lr_scan_opts_t *o, rv_lr_emit_fn emit, void *ctx);

#endif
