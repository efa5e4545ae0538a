/* tandem.h — tandem repeats as runs (maximal repetitions), repview-tandem(1).
 *
 * A run is an interval [start, end) of the text with smallest period p such that
 * end - start >= 2p and no extension by one symbol at either end keeps period p.
 * Every run of the text is computed in O(n) LCE queries from the index by the
 * Lyndon-root method of Bannai et al., "The Runs Theorem" (SIAM J. Comput. 2017):
 * for one of the two orders of the alphabet every Lyndon root of a run is the longest
 * Lyndon word starting at its position, so scanning the two Lyndon arrays gives
 * every run (engine/index/lyndon.c, engine/index/runs.c).
 *
 * Coordinates: every position here is a TEXT position (index into rv_seq_t.text).
 * Runs never contain a breaker, so [start, end) maps to one contiguous stretch of one
 * record: global start = rv_seq_text_to_global(seq, start), length end - start.
 * Runs are kept sorted by (start, period); the run count is < n (the Runs Theorem).
 */
#ifndef REPVIEW_TANDEM_H
#define REPVIEW_TANDEM_H

#include <stddef.h>
#include <stdint.h>
#include "repview/progress.h"
#include "repview/index.h"

typedef struct {
    uint64_t start, end; /* text positions, half-open */
    uint64_t period;     /* smallest period */
} rv_run_t;

/* The runs, as handed out by rv_runs_compute / rv_runs_get.  Read them with
 * rv_runs_at; the fields are the stored form (RV_SEC_RUNS section,
 * engine/index/runs_store.h): three columns of n entries each, uint32_t when the
 * index has 32-bit arrays (x->wide == 0) and uint64_t when it is wide, so a run
 * costs 12 bytes (24 wide).
 * blockmax is the overlap-query structure (runs_query.c): the runs cut into blocks of
 * 64, an implicit search tree over the blocks with the largest end in each subtree
 * (n/64 entries of the same width). */
typedef struct rv_runs {
    uint64_t n;             /* number of runs, sorted by (start, period) */
    int wide;               /* the columns hold uint64_t (else uint32_t) */
    const void *start;      /* start[k] */
    const void *len;        /* end - start */
    const void *period;     /* smallest period */
    const void *blockmax;   /* per block: the largest end in its subtree */
    uint64_t n_text;        /* length of the text the runs are of */
    void *owned;            /* the allocation holding them all, or NULL (section view) */
} rv_runs_t;

/* Run k (k < r->n) of r, in (start, period) order.  Clamped into the text (start and
 * end at most n_text, period at most the length): a section of a loaded index may
 * be read before its verification ends (rvx.c), and a damaged run must not lead a
 * reader of its text outside it.  Intact runs pass unchanged. */
static inline rv_run_t rv_runs_at(const rv_runs_t *r, uint64_t k)
{
    uint64_t s = rv_get(r->start, r->wide, k), len = rv_get(r->len, r->wide, k);
    uint64_t p = rv_get(r->period, r->wide, k);
    if (s > r->n_text) s = r->n_text;
    if (len > r->n_text - s) len = r->n_text - s;
    return (rv_run_t){s, s + len, p < len ? p : len};
}

/* Compute every run of x's text with `threads` CPU threads (0 = all).  Returns a new
 * rv_runs_t (free with rv_runs_free) or NULL with a message.  Honours p's cancel flag
 * (reported as "cancelled"); p may be NULL. */
rv_runs_t *rv_runs_compute(const rv_index_t *x, int threads, rv_progress_t *p);
void rv_runs_free(rv_runs_t *r);

/* The runs of x: the RV_SEC_RUNS section when x has one (loaded from a .rvx or
 * attached earlier), else computed and attached so that the next call (and a later
 * rv_index_save) reuses them.  Fills *out with a view that belongs to x (valid until
 * x is freed; never rv_runs_free it).  O(1) for a section: its contents are checked
 * by the verification of the index file (rv_runs_check), not here.  0, or -1 with a
 * message.  Not thread-safe against other calls on the same x. */
int rv_runs_get(rv_index_t *x, int threads, rv_progress_t *p, rv_runs_t *out);

/* Check the runs section of x, if any, against the text (O(runs), on `threads`
 * threads, 0 = all): 0, or -1 with a message.  rv_index_verify() runs it once the
 * section's hashes passed; until then readers rely on rv_runs_at's clamps. */
int rv_runs_check(const rv_index_t *x, int threads);

/* Hand runs from rv_runs_compute (e.g. computed in a worker thread) to x as its
 * RV_SEC_RUNS section; r is freed.  When out is non-NULL it receives the view, as
 * from rv_runs_get.  0, or -1 with a message (r is then left alone). */
int rv_runs_attach(rv_index_t *x, rv_runs_t *r, rv_runs_t *out);

/* Filter settings (the options of repview-tandem(1)). */
typedef struct {
    uint64_t min_period; /* default 1 */
    uint64_t max_period; /* default UINT64_MAX (no limit) */
    double min_copies;   /* default 2: (end - start) / period >= min_copies */
    uint64_t min_len;    /* default 10: end - start >= min_len */
} rv_tandem_filter_t;

/* Set the defaults of `repview tandem` (--min-period 1 --min-copies 2 --min-len 10, no max). */
void rv_tandem_filter_init(rv_tandem_filter_t *f);
/* 1 when run passes f (f == NULL passes everything). */
int rv_run_passes(const rv_tandem_filter_t *f, const rv_run_t *run);

/* copies = (end - start) / period. */
static inline double rv_run_copies(const rv_run_t *r)
{
    return (double)(r->end - r->start) / (double)r->period;
}

/* Write the motif text[start, start+period) upper case into buf (NUL-terminated,
 * truncated to cap-1 symbols; cap >= 1).  Returns the full motif length (period). */
uint64_t rv_run_motif(const rv_seq_t *s, const rv_run_t *run, char *buf, size_t cap);

/* Callback for the queries below: return non-zero to stop early. */
typedef int (*rv_run_fn)(void *ud, const rv_run_t *run);

/* Every run passing f that overlaps the text interval [lo, hi) (start < hi and
 * end > lo), in (start, period) order.  fn may be NULL (count only).  Returns the
 * number of runs visited.  The search tree over blocks of 64 runs prunes every
 * subtree whose largest end is <= lo and stops at the first start >= hi: it checks
 * the 64 runs of each block it enters, O(log(n/64)) blocks on the way down plus
 * O(log) per block holding an overlapping run (before filtering). */
uint64_t rv_runs_overlapping(const rv_runs_t *r, uint64_t lo, uint64_t hi,
                             const rv_tandem_filter_t *f, rv_run_fn fn, void *ud);

/* For the explorer pane: the runs covering text position pos (start <= pos < end)
 * passing f, in (start, period) order; up to cap of them copied into out.  Returns
 * how many there are in all (may exceed cap). */
uint64_t rv_runs_covering(const rv_runs_t *r, uint64_t pos, const rv_tandem_filter_t *f,
                          rv_run_t *out, uint64_t cap);

/* Index (for rv_runs_at) of the first run with start >= t, or r->n. O(log n). */
uint64_t rv_runs_lower_bound(const rv_runs_t *r, uint64_t t);

/* For `]` / `[` in the pane: the first run passing f that starts after pos (start >
 * pos), or the last one starting before pos (start < pos); index for rv_runs_at, or -1
 * when there is none.  A binary search, then a scan over the runs f rejects. */
int64_t rv_runs_next(const rv_runs_t *r, uint64_t pos, const rv_tandem_filter_t *f);
int64_t rv_runs_prev(const rv_runs_t *r, uint64_t pos, const rv_tandem_filter_t *f);

/* ---- from the text alone, job by job (scale-out; runs_jobs.c) ---------
 * A run never holds a breaker, so the runs of the text are those of its segments
 * (breaker-free stretches) taken apart.  A job is a text range of whole
 * consecutive segments, indexed on its own (SA, LCP, Lyndon arrays of that range
 * only) and run through rv_runs_compute(); or, for a segment longer than a job
 * may be, a piece of it: the runs that start in the piece with a period up to
 * max_period, found in a window reaching 2 max_period (and more) past both ends
 * of the piece and extended by direct comparison when they reach the window's
 * end.  The runs of longer period of the cut segments are maximal pairs at a
 * distance p with length >= p (gap <= 0) whose first p symbols are primitive:
 * rv_runs_long() takes them from prefix buckets (pairs.h).  The runs of every
 * job, with the long ones that start in it, in job order, are the runs of the
 * whole text in (start, period) order, exactly. */

typedef struct {
    uint64_t t0, t1;     /* the runs that start in [t0, t1) ... */
    uint64_t w0, w1;     /* ... found in the text [w0, w1) (a piece: its window) */
    uint64_t seg_end;    /* a piece: the end of its segment */
    uint64_t max_period; /* a piece: the periods it reports; 0: whole segments, all */
} rv_runs_job_t;

/* Bytes a job of m symbols needs at most (its index and runs), and the symbols a
 * job of mem_budget bytes may hold (0: 1 GB; at least 1). */
uint64_t rv_runs_job_bytes(uint64_t m);
uint64_t rv_runs_job_symbols(uint64_t mem_budget);

/* The jobs for the runs that overlap text [lo, hi): the segments that overlap it
 * grouped into jobs of at most max_symbols symbols, and a segment longer than
 * that (and than 64) cut into pieces of about max_symbols / 2 whose windows hold
 * at most max_symbols; in text order.  A malloc()ed array of *n jobs (NULL with
 * *n = 0 when none), or NULL with a message when out of memory (*n = 1 then). */
rv_runs_job_t *rv_runs_jobs(const rv_seq_t *s, uint64_t lo, uint64_t hi, uint64_t max_symbols, uint64_t *n);

/* The runs of one job passing f that overlap text [lo, hi), in (start, period)
 * order, in text positions of s: a malloc()ed array of *n (the caller frees).
 * `threads` threads build and scan the job.  0, or -1 with a message. */
int rv_runs_job_runs(const rv_seq_t *s, const rv_runs_job_t *job, const rv_tandem_filter_t *f, uint64_t lo,
                     uint64_t hi, int threads, rv_run_t **out, uint64_t *n);

/* The runs of the pieces' segments whose period is above the pieces' max_period
 * (none when no segment was cut), passing f and overlapping [lo, hi), in
 * (start, period) order, from slice `slice` of n_slices of the prefix buckets
 * (pairs.h; mem_budget as there): a malloc()ed array of *n.  0, or -1 with a
 * message.  quiet 0: the prefix buckets' warnings go to stderr, as pairs's do (a
 * bucket above the budget, jobs that scan the text; 1 where another process
 * speaks for the job). */
int rv_runs_long(const rv_seq_t *s, const rv_runs_job_t *jobs, uint64_t n_jobs, uint64_t slice, uint64_t n_slices,
                 uint64_t mem_budget, int threads, int quiet, const rv_tandem_filter_t *f, uint64_t lo, uint64_t hi,
                 rv_run_t **out, uint64_t *n);

/* The job that holds the runs starting at text position t (jobs in text order):
 * an index, or n_jobs when none does. */
uint64_t rv_runs_job_of(const rv_runs_job_t *jobs, uint64_t n_jobs, uint64_t t);

/* Every run passing f that overlaps text [lo, hi), in (start, period) order, job
 * after job (jobs of mem_budget bytes at most, 0: 1 GB), without an index of the
 * whole text.  fn may stop it (returns 1).  quiet as rv_runs_long's.  0, 1, or
 * -1 with a message. */
int rv_runs_each_local(const rv_seq_t *s, uint64_t lo, uint64_t hi, uint64_t mem_budget, int threads, int quiet,
                       const rv_tandem_filter_t *f, rv_run_fn fn, void *ud);

#endif
