/* pairs_internal.h — what the maximal-pair files share (pairs_tree.c: traversal,
 * pairs_sort.c: ordered output, pairs_cursor.c: cursor queries, pairs_filter.c:
 * filters).  Not part of the public API. */
#ifndef REPVIEW_ENGINE_PAIRS_INTERNAL_H
#define REPVIEW_ENGINE_PAIRS_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include "repview/common.h"
#include "repview/pairs.h"

/* Where the threads of a bucket run take their jobs (pairs_buckets.c, lr_bucketed.c):
 * a fixed list, or next() (rank 0 under MPI) called under the run's mutex. */
typedef struct {
    const uint64_t *jobs;
    uint64_t n_jobs;
    _Atomic uint64_t taken;
    rv_bucket_next_fn next;
    void *nctx;
} pf_job_source_t;

/* 1 and *job, 0 when none is left, -1 with a message. */
static inline int pf_take_job(pf_job_source_t *src, pthread_mutex_t *mu, uint64_t *job)
{
    if (src->next) {
        pthread_mutex_lock(mu);
        int got = src->next(src->nctx, job);
        pthread_mutex_unlock(mu);
        return got < 0 ? -1 : got > 0;
    }
    uint64_t i = atomic_fetch_add(&src->taken, 1);
    if (i >= src->n_jobs) return 0;
    *job = src->jobs[i];
    return 1;
}

/* The first failure of a run's threads: its message kept in err. */
static inline void pf_job_failed(_Atomic int *failed, char *err, size_t len, pthread_mutex_t *mu)
{
    if (atomic_exchange(failed, 1)) return;
    pthread_mutex_lock(mu);
    snprintf(err, len, "%s", rv_last_error());
    pthread_mutex_unlock(mu);
}

/* The filters of rv_pairs_opts_t, resolved to text coordinates. */
typedef struct {
    const rv_seq_t *s;
    uint64_t min_len;
    int use_gap;              /* a gap bound is set: same record required */
    int64_t min_gap, max_gap; /* INT64_MIN / INT64_MAX when unused */
    int use_within;
    uint64_t tb, te;          /* copies must lie in text [tb, te) */
    int any;                  /* some filter beyond the length */
    int both;                 /* index of both strands: pairs go through pf_orient */
    int want;                 /* 2 all, 1 direct only, -1 inverted only */
    uint64_t nf;              /* forward text length */
} pf_filter_t;

/* Ranks [lo, hi) of the suffix array, cut at run boundaries: no interval of lcp
 * >= min_len crosses a cut, so units can be walked independently (RACE §5.1). */
typedef struct {
    uint64_t lo, hi;
} pf_unit_t;

/* About 64 units per thread (at least `grain` ranks each), every cut moved
 * forward to the next run boundary (a rank r with LCP[r] < min_len), largest
 * first.  malloc()ed (*nunits of them), or NULL when out of memory. */
pf_unit_t *pf_make_units(const rv_index_t *x, uint64_t min_len, int threads, uint64_t grain, uint64_t *nunits);

/* Resolve o against the sequence: 0, or -1 with a message (bad min_len or range). */
int pf_filter_init(pf_filter_t *f, const rv_seq_t *s, const rv_pairs_opts_t *o);

/* Gap part of the filter (needs the segment and record maps). */
int pf_pass_gap(const pf_filter_t *f, uint64_t p1, uint64_t p2, uint64_t len);

/* Both strands: turn a pair <a < b, len> of the doubled text into forward
 * coordinates.  A pair inside the reverse half is the mirror of a direct pair and
 * goes; a pair across the halves is inverted, its second copy read from the
 * forward interval q = 2 nf + 1 - b - len, and is kept from the side where a <= q
 * (its mirror has the two roles swapped).  In the sort buffers p2 carries
 * 2 * p2 + inverted, so that (p1, p2) order puts direct before inverted;
 * pf_decode() restores it.  0 drops the pair. */
static inline int pf_orient(const pf_filter_t *f, uint64_t *a, uint64_t *b, uint64_t len, int *inv)
{
    if (*b < f->nf) { *inv = 0; return f->want != -1; }
    if (*a > f->nf) return 0;
    uint64_t q = 2 * f->nf + 1 - *b - len;
    if (*a > q || f->want == 1) return 0;
    *b = q;
    *inv = 1;
    return 1;
}
static inline void pf_decode(rv_pair_t *p)
{
    p->inverted = (int)(p->p2 & 1);
    p->p2 >>= 1;
}

/* Left-character class of the suffix at text position p (Gusfield's left
 * character): the code before it, or 0 for the text start and after a breaker.
 * Class 0 never equals anything, itself included (RV_BREAK is 0). */
static inline unsigned pf_left_class(const rv_seq_t *s, uint64_t p)
{
    return p ? s->text[p - 1] : 0;
}

/* ---- one thread's sorted runs (pairs_sort.c) ---- */
typedef struct {
    rv_pair_t *buf, *tmp; /* pairs of the current run, radix scratch */
    uint64_t n, cap;      /* cap: allocated, grown by doubling up to max */
    uint64_t max;
    int bits;             /* significant bits of a text position */
    int with_len;         /* both strands: (p1, p2) may repeat with other lengths */
    int fd;               /* spill file (unlinked) or -1 */
    uint64_t file_bytes;
    uint64_t *run_off, *run_len; /* runs in the file: byte offset, pairs */
    uint64_t nruns, runs_cap;
    /* every `check`-th pair of a run is coded from p1 = 0 and listed here (its
     * offset and key), so a merge can start inside a run (pairs_merge.c) */
    uint64_t check;
    uint64_t *ck_off, *ck_p1, *ck_p2, *run_ck; /* run r's checkpoints from run_ck[r] */
    uint64_t nck, ck_cap;
    int err;              /* set (with a message) when a spill failed */
    char errmsg[256];
    int sort_threads;     /* threads that sort a run before it spills (1: this one) */
    uint64_t spilled;     /* pairs in the runs of the file */
    double spill_s;       /* seconds spent spilling (REPVIEW_JOB_TRACE) */
} pf_sink_t;

/* v as a LEB128 varint at b (at most 10 bytes); past it. */
static inline uint8_t *pf_put_varint(uint8_t *b, uint64_t v)
{
    while (v >= 0x80) *b++ = (uint8_t)(v | 0x80), v >>= 7;
    *b++ = (uint8_t)v;
    return b;
}

int pf_sink_init(pf_sink_t *k, uint64_t cap, uint64_t n_text);
void pf_sink_free(pf_sink_t *k);
/* Sort the buffer and append it to the spill file as a run. */
int pf_sink_spill(pf_sink_t *k);
/* Make room for one more pair: grow the buffer, or spill it when at max. */
int pf_sink_room(pf_sink_t *k);
/* Grow the buffer to hold `pairs` (at most the sink's max) and touch its pages
 * now, as a thread that has long been making pairs has (the estimate's sample);
 * the pairs it holds stay.  0, or -1 without room (the sink is as it was and
 * still works). */
int pf_sink_reserve(pf_sink_t *k, uint64_t pairs);

/* Where merged pairs go: batches to fn, or text (t); p2 decoded first when both.
 * nf: the forward text's length, which every pair read from a coded run must lie
 * in (pf_merge_runs; UINT64_MAX: any). */
typedef struct {
    rv_pairs_batch_fn fn;
    void *ud;
    const rv_pairs_text_t *text;
    int both;
    uint64_t nf;
    uint64_t min_len; /* a merge of parts: no pair is shorter (0: not checked) */
} pf_out_t;

/* Hand n pairs in order to out on the calling thread (decoded, formatted, written
 * as out asks).  scratch: NULL-initialised, freed by pf_emitter_free. */
typedef struct {
    const pf_out_t *out;
    rv_pair_t *dec;
    char *txt;
    size_t cap;
} pf_emitter_t;
int pf_emit(pf_emitter_t *e, const rv_pair_t *p, size_t n);
void pf_emitter_free(pf_emitter_t *e);

/* Sort what is left in every sink and pass all pairs to out in (p1, p2) order. */
int pf_merge(pf_sink_t *sinks, int nsinks, const pf_out_t *out);

/* One sorted run as a merge sees it: pairs in memory, or coded in a file (a
 * sink's spill file, a part's body) read with pread: p1 - previous p1, p2 - p1 and
 * len as varints, every `check`-th pair coded from p1 = 0, its offset and key
 * listed as a checkpoint (offsets are the file's). */
typedef struct {
    const rv_pair_t *a;                /* memory run of n pairs, or NULL */
    uint64_t n;
    int fd;
    uint64_t end_off;                  /* the coded run ends here in the file */
    const uint64_t *ck_off, *ck_p1, *ck_p2; /* its checkpoints [0, nck) */
    uint64_t nck, check;
} pf_run_t;

/* The parallel merge's chunk (pairs) and the checkpoint spacing of the runs:
 * defaults, or REPVIEW_MERGE_CHUNK (tests). */
void pf_merge_tuning(uint64_t *chunk, uint64_t *check);
/* pf_merge on every sink's thread (pairs_merge.c): the key range is cut into
 * chunks of about `chunk` pairs, merged on worker threads and handed to fn in
 * order from the calling thread.  The sinks' buffers are sorted.  Returns as
 * pf_merge, with *ran 0 when it could not start (a spill file that cannot be
 * mapped, no memory) and passed nothing: the caller merges serially. */
int pf_merge_parallel(pf_sink_t *sinks, int nsinks, const pf_out_t *out, int *ran);
/* The same over any sorted runs, on `threads` threads (1: the calling thread
 * alone), fewer when not every thread's cursors (8 KiB a run) can be
 * allocated: *ran 0 only when not even the calling thread's can.  A coded run
 * whose pair at a checkpoint is not the checkpoint's key, or whose pair lies
 * outside out->nf, fails it with a message; `source` names the coded runs' files
 * in that message (NULL: a temporary file). */
int pf_merge_runs(const pf_run_t *runs, uint64_t nruns, const pf_out_t *out, int threads, const char *source,
                  int *ran);

/* Sort pairs by (p1, p2), then len when with_len: LSD radix over `bits`-bit fields
 * (a large run first split by the top bits of p1, each part then by LSD), tmp the
 * same size.  (p1, p2) identifies a direct pair, but an inverted pair's p2
 * is the forward start of its second copy, which depends on its length: a copy
 * next to a run like AAAA... pairs with the same p2 at several lengths. */
void pf_sort_pairs(rv_pair_t *a, rv_pair_t *tmp, uint64_t n, int bits, int with_len);
/* The same, on `threads` threads for a large n. */
void pf_sort_pairs_threads(rv_pair_t *a, rv_pair_t *tmp, uint64_t n, int bits, int with_len, int threads);
static inline int pf_pair_less(const rv_pair_t *a, const rv_pair_t *b)
{
    if (a->p1 != b->p1) return a->p1 < b->p1;
    if (a->p2 != b->p2) return a->p2 < b->p2;
    if (a->inverted != b->inverted) return a->inverted < b->inverted;
    return a->len < b->len;
}

/* ---- the ordered output of any producer of pairs ---- */

/* Fill sinks[0..threads) with pairs (each thread its own sink).  0 or -1. */
typedef int (*pf_produce_fn)(void *ctx, int threads, pf_sink_t *sinks);
/* Sinks for o->threads threads and o->mem_bytes, produce, then merge in (p1, p2)
 * order (decoding both-strand pairs) and hand the batches to fn, or the text to
 * t when t is set.  n_text bounds the positions (the text length).  Returns as
 * rv_pairs_each_batch(). */
int pf_collect(const pf_filter_t *f, const rv_pairs_opts_t *o, uint64_t n_text, pf_produce_fn produce,
               void *pctx, rv_pairs_batch_fn fn, void *ud, const rv_pairs_text_t *t);

/* The same up to the merge: the produced sinks (their buffers unsorted) go to
 * use(ud, sinks, n), whose value is returned; the sinks are freed after. */
typedef int (*pf_sinks_fn)(void *ud, pf_sink_t *sinks, int n);
int pf_collect_sinks(const pf_filter_t *f, const rv_pairs_opts_t *o, uint64_t n_text, pf_produce_fn produce,
                     void *pctx, pf_sinks_fn use, void *ud);

/* The traversal over one bucket's sorted suffixes pos[0..m) with lcp[r] =
 * lcp(pos[r-1], pos[r]) (pairs_buckets.c): its pairs go to sink, or are counted
 * when sink is NULL.  One walker per thread, reused from bucket to bucket. */
typedef struct pf_walker pf_walker_t;
pf_walker_t *pf_walker_new(const pf_filter_t *f, pf_sink_t *sink);
int pf_walker_bucket(pf_walker_t *w, const uint64_t *pos, const uint64_t *lcp, uint64_t m);
uint64_t pf_walker_count(const pf_walker_t *w);
void pf_walker_free(pf_walker_t *w);

/* pairs_estimate.c: where between a job's time alone (0) and its time side by
 * side in the sample, which ran `side` jobs at once on average (1), a run of
 * `at_once` jobs at once lies: straight between one job and `side`, 1 beyond. */
double pf_estimate_between(uint64_t at_once, double side);

#endif
