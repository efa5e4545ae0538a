/* pairs.h — maximal pairs with length, gap and range filters
 * (repview-pairs(1); RACE, Mansour et al. VLDB 2013; Abouelhoda, Kurtz & Ohlebusch,
 * enhanced suffix arrays; Gusfield 1997 §7.12).
 *
 * A maximal pair <p1, p2, len>: p1 < p2, text[p1, p1+len) == text[p2, p2+len)
 * (breaker-free), and neither extensible to the left (the characters before the
 * copies differ, or one of them is a breaker or the text start) nor to the right
 * (likewise).  Copies may overlap and may lie in different records.
 *
 * Both strands (an index with seq->strands == 2; vmatch -d -p, REPuter): the
 * pairs of the doubled text are mapped back to the forward strand.  A direct pair
 * has both copies on the forward strand; an inverted pair <p1, p2, len> has
 * text[p2, p2 + len) equal to the reverse complement of text[p1, p1 + len) and is
 * maximal when neither end extends (S[p1-1] vs comp(S[p2+len]), S[p1+len] vs
 * comp(S[p2-1])).  Each pair is reported once, never its mirror image; a copy that
 * is its own reverse complement pairs with itself (p1 == p2).  The order is (p1,
 * p2), direct before inverted.
 *
 * Coordinates: p1 and p2 are TEXT positions (indexes into rv_seq_t.text).  Convert
 * for display with rv_seq_text_to_global() and the record offset, or use
 * rv_pair_locate().  Because a copy is breaker-free it maps to one contiguous
 * global range [g, g + len).
 *
 * Results are identical for every thread count.  Every call is thread-safe with
 * respect to the (read-only) index.  Errors: negative return, message through
 * rv_last_error().
 */
#ifndef REPVIEW_PAIRS_H
#define REPVIEW_PAIRS_H

#include <stddef.h>
#include <stdint.h>
#include "repview/index.h"
#include "repview/buckets.h"
#include "repview/part.h"

typedef struct {
    uint64_t p1, p2; /* text positions, p1 < p2 (p1 <= p2 when inverted) */
    uint64_t len;    /* length of each copy */
    int inverted;    /* 1: the copy at p2 is read on the minus strand: text[p2,
                        p2 + len) is the reverse complement of text[p1, p1 + len) */
} rv_pair_t;

typedef struct {
    uint64_t min_len;          /* report pairs with len >= min_len (>= 1) */
    /* Gap = p2 - (p1 + len) in record coordinates (negative when the copies
     * overlap).  When either bound is used, pairs across records (which have no
     * gap) are left out. */
    int use_min_gap, use_max_gap;
    int64_t min_gap, max_gap;
    /* Range filter: both copies inside the global half-open range
     * [within_beg, within_end), which must lie inside one record (what
     * rv_seq_parse_region() gives plus rec[rid].off). */
    int use_within;
    uint64_t within_beg, within_end;
    int threads;               /* CPU threads, 0 = all */
    uint64_t mem_bytes;        /* rv_pairs_each: sort memory before spilling to
                                  temporary files ($TMPDIR or /tmp); 0 = 256 MiB */
    uint64_t grain;            /* fewest suffix-array ranks per work unit; 0 =
                                  4096 (tests lower it to exercise scheduling) */
    int longest_first;         /* rv_pairs_covering: order (and choose) the page by
                                  length, longest first, ties by (p1, p2) */
    int strands;               /* on an index of both strands (seq.h): 0 or 2 all
                                  pairs, 1 direct pairs only, -1 inverted only */
    int quiet;                 /* prefix buckets (one process or slice): no warning on
                                  stderr when a bucket stays above the memory budget
                                  (rv_bucket_plan_split), nor when the budget holds no
                                  job lists or map and many jobs scan the text */
    const char *who;           /* the command those warnings name (NULL: pairs) */
    int gpu_jobs;              /* prefix buckets: the jobs sort on a GPU, whose jobs
                                  collect whole buckets: split only the buckets one
                                  worker could not hold in the whole budget (0: every
                                  bucket above a thread's share, so that the budget
                                  holds when every thread has a job) */
} rv_pairs_opts_t;

/* Defaults: min_len as given, no gap or range filter, all threads. */
void rv_pairs_opts_init(rv_pairs_opts_t *o, uint64_t min_len);

/* Number of maximal pairs passing the filters, without producing them (with no gap
 * or range filter each left-character group is counted by a product, in
 * O(n + number of groups) time).  0, or -1 with a message. */
int rv_pairs_count(const rv_index_t *x, const rv_pairs_opts_t *o, uint64_t *count);

/* Called once per pair in (p1, p2) order, from the calling thread.  Return 0 to
 * go on, anything else to stop. */
typedef int (*rv_pair_fn)(void *ud, const rv_pair_t *p);

/* Every maximal pair passing the filters, ordered by (p1, p2).  Pairs are
 * produced in parallel, sorted in memory runs of at most o->mem_bytes (spilled to
 * unlinked temporary files when the output is larger) and merged, so memory stays
 * bounded whatever the number of pairs.  Returns 0 when every pair was passed,
 * the callback's value when it stopped early, -1 on error (message set). */
int rv_pairs_each(const rv_index_t *x, const rv_pairs_opts_t *o, rv_pair_fn fn, void *ud);

/* The same pairs in the same order, handed over in consecutive batches of at
 * most RV_PAIRS_BATCH (valid during the call only), so the caller can format a
 * batch on several threads.  Same return values. */
#define RV_PAIRS_BATCH 65536
typedef int (*rv_pairs_batch_fn)(void *ud, const rv_pair_t *pairs, size_t n);
int rv_pairs_each_batch(const rv_index_t *x, const rv_pairs_opts_t *o, rv_pairs_batch_fn fn,
                        void *ud);

/* The same pairs as text made on every thread (a large output): format() turns n
 * consecutive pairs into bytes at *buf (grown with realloc, *cap its size; the
 * buffer stays with its caller for the next chunk) and sets *len; it runs on worker
 * threads, several at once, each call on its own buffer.  write() gets every
 * chunk's bytes in order on the calling thread.  Each returns 0, or nonzero to stop
 * (-1 with a message), which the call returns.  Small outputs and one thread go
 * through format() and write() on the calling thread. */
typedef struct {
    int (*format)(void *ud, const rv_pair_t *pairs, size_t n, char **buf, size_t *cap, size_t *len);
    int (*write)(void *ud, const char *bytes, size_t len);
    void *ud;
} rv_pairs_text_t;
int rv_pairs_each_text(const rv_index_t *x, const rv_pairs_opts_t *o, const rv_pairs_text_t *t);

/* Where a pair lies for output: record index of each copy, record-relative
 * 0-based starts, and the gap (valid when same_record). */
typedef struct {
    uint64_t rec1, rec2, start1, start2;
    int same_record;
    int64_t gap;
} rv_pair_loc_t;
void rv_pair_locate(const rv_seq_t *s, const rv_pair_t *p, rv_pair_loc_t *loc);
/* The same for a run of pairs, faster when they come in order of p1: *hint
 * ({UINT64_MAX, UINT64_MAX, UINT64_MAX} to begin) keeps the last pair's segments
 * and first record, tried before a search. */
typedef struct {
    uint64_t seg, rec, seg2;
} rv_pair_hint_t;
void rv_pair_locate_near(const rv_seq_t *s, const rv_pair_t *p, rv_pair_loc_t *loc, rv_pair_hint_t *hint);

/* ---- Cursor queries (explorer pane, `pairs --covering`) ----------------------
 *
 * rv_pairs_covering() finds the maximal pairs, passing o's filters, of which at
 * least one copy covers text position pos (copy start <= pos < copy end).  It
 * works from the position's neighbourhood only: candidate starts s = pos, pos-1,
 * ... while the longest repeat starting at s reaches pos (s + LLR(s) > pos, a
 * bound that only shrinks as s moves left), and for each s the ancestors of leaf
 * ISA[s] in the LCP-interval tree down to length max(min_len, pos - s + 1); the
 * partners at each ancestor are its new leaves whose left character differs.
 * Cost: the sizes of those intervals, not n.  o->threads and o->mem_bytes are
 * ignored (it runs in the caller's thread).
 *
 * The page holds the first `max` pairs in (p1, p2) order, or longest first with
 * o->longest_first (all of them when max is RV_PAIRS_ALL; none when max is 0),
 * and `total` counts every matching pair.
 * max_work > 0 bounds the number of suffix-array rows visited (keep the explorer
 * responsive); when the bound is hit `complete` is 0 and `total`/the page cover
 * only what was seen.  Returns 0, or -1 with a message (out of memory).
 * pos on a breaker gives an empty, complete page. */
#define RV_PAIRS_ALL ((size_t)-1)
typedef struct {
    rv_pair_t *pairs; /* n pairs, malloc'd; free with rv_pairs_page_free() */
    size_t n;
    uint64_t total;
    int complete;
} rv_pairs_page_t;

int rv_pairs_covering(const rv_index_t *x, const rv_pairs_opts_t *o, uint64_t pos, size_t max,
                      uint64_t max_work, rv_pairs_page_t *page);
void rv_pairs_page_free(rv_pairs_page_t *page);

/* Explorer pane, per cursor move (t = text position of the cursor, from
 * rv_seq_global_to_text(); skip breakers):
 *
 *     rv_pairs_opts_t o;
 *     rv_pairs_opts_init(&o, 20);          // the pane's minimum length
 *     o.longest_first = 1;
 *     rv_pairs_page_t pg;
 *     if (rv_pairs_covering(x, &o, t, 50, 2000000, &pg) == 0) {
 *         for (size_t i = 0; i < pg.n; i++) {
 *             rv_pair_loc_t loc;
 *             rv_pair_locate(x->seq, &pg.pairs[i], &loc);
 *             // row: rec[loc.rec1].name:loc.start1+1 <-> rec[loc.rec2].name:
 *             // loc.start2+1, len, gap (or "." across records); jump target =
 *             // the copy that does not cover t
 *         }
 *         // footer: pg.n of pg.total pairs (pg.complete ? "" : "at least")
 *         rv_pairs_page_free(&pg);
 *     }
 */

/* ---- from the text alone, in prefix buckets (buckets.h) ---------------
 *
 * The same pairs in the same order as rv_pairs_each_batch(), without an index: the
 * suffixes are planned in prefix buckets of k <= o->min_len symbols, sorted job by
 * job from s->text (both strands when s holds them: rv_seq_add_reverse) on
 * o->threads threads, each job sized so that the threads' jobs fit mem_budget
 * bytes (0 = 1 GiB).  slice/n_slices (n_slices <= 1: all) keep the jobs a greedy
 * largest-first assignment gives slice `slice` of n_slices, so that independent
 * processes share the work; their outputs together are the whole answer. */
int rv_pairs_buckets_each_batch(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, uint64_t slice,
                                uint64_t n_slices, rv_pairs_batch_fn fn, void *ud);
int rv_pairs_buckets_each_text(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, uint64_t slice,
                               uint64_t n_slices, const rv_pairs_text_t *t);
int rv_pairs_buckets_count(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, uint64_t slice,
                           uint64_t n_slices, uint64_t *count);

/* A part file (part.h): the pairs of one slice as its threads' sorted runs, with the
 * options and the plan's hash (written to PATH.tmp.PID and renamed into place, so
 * a part that exists is complete).  0, or -1 with a message. */
int rv_pairs_part_write(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, uint64_t slice,
                        uint64_t n_slices, const char *path);

/* The plan rv_pairs_buckets_each_batch() makes (for ranks that share one): the
 * buckets counted on o->threads threads (0 = all), jobs sized for `threads`
 * workers sharing mem_budget. */
int rv_pairs_bucket_plan(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, int threads,
                         rv_bucket_plan_t *plan);
/* The budget's cut of the plan alone, from counts made elsewhere (rv_bucket_count;
 * taken, freed on failure): the caller spreads it for its workers
 * (rv_pairs_bucket_spread), as rv_pairs_bucket_plan does for `threads`. */
int rv_pairs_bucket_plan_counted(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, int threads,
                                 uint64_t *counts, uint64_t n_codes, rv_bucket_plan_t *plan);
/* Cut the plan's jobs again from its counts (any job map or lists are dropped)
 * for `workers` taking them largest first: tapered for CPU workers
 * (rv_bucket_plan_cut_tapered: from a worker's share down to a sixteenth of it,
 * never below 64 Ki suffixes, within the budget's cap), or with `equal` (GPU
 * workers, shares fixed in advance) the budget's jobs cut to at least three of
 * about one size a worker (never below 64 Ki suffixes).  REPVIEW_JOBS_PER_WORKER=J:
 * J instead of three, equal in every case.  0, or -1 with a message. */
int rv_pairs_bucket_spread(rv_bucket_plan_t *plan, uint64_t workers, int equal);
/* A source of job indexes (a master rank): 1 with *job set, 0 when none is left,
 * -1 on error (message set).  Called by one thread at a time. */
typedef int (*rv_bucket_next_fn)(void *ctx, uint64_t *job);
/* The part of the jobs `next` hands out (slice/n_slices name it in the header), in
 * a file that never has a name (part.h): its descriptor, or -1 with a message. */
int rv_pairs_part_write_dynamic(const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_bucket_plan_t *plan,
                                rv_bucket_next_fn next, void *nctx, uint64_t slice, uint64_t n_slices);
int rv_pairs_buckets_count_dynamic(const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_bucket_plan_t *plan,
                                   rv_bucket_next_fn next, void *nctx, uint64_t *count);

/* Every pair of the parts (part.h, checked by rv_parts_check) in (p1, p2) order, in
 * batches, as rv_pairs_each_batch(): one merge of the runs the slices' threads
 * made, on every core. */
int rv_parts_merge(rv_part_t *const *parts, size_t n, rv_pairs_batch_fn fn, void *ud);
/* The directories of the parts' runs read and checked (as the merges do first),
 * for a caller that must refuse a bad part before any output: 0, or -1 with a
 * message. */
int rv_parts_check_runs(rv_part_t *const *parts, size_t n);
/* The same as text, as rv_pairs_each_text(), on `threads` threads (0: all cores). */
int rv_parts_merge_text(rv_part_t *const *parts, size_t n, int threads, const rv_pairs_text_t *t);

/* ---- estimate before running (RACE's cost model, RACE §5.3) -----
 *
 * rv_pairs_estimate() predicts what the bucket path costs on s for o: the pair
 * count, the BEDPE bytes, the serial time and, for 1..workers CPU ranks
 * (`mpirun -np W`, rank 0 working too; threads each), the wall time, speed-up and peak memory of the
 * largest rank.  It runs the buckets' largest blocks and a seeded random share of
 * the others with the engine's own code, and extrapolates (pairs_estimate.c); with
 * sample = 1 it runs them all and the pair count is exact. */
typedef struct {
    double sample;        /* share of the ordinary blocks run, (0, 1] */
    uint64_t seed;        /* of the random sample */
    uint64_t mem_budget;  /* as for the bucket path (0 = 1 GiB) */
    int workers;          /* rows for 1..workers worker ranks */
    int threads;          /* threads of a worker rank (0 = 1) */
    double read_s;        /* seconds the caller took to read the input (-t threads) */
    double read_ranks_s;  /* the same on every core, as rank 0 reads under mpirun (0: read_s) */
} rv_estimate_opts_t;

typedef struct {
    int workers;
    double wall_s, speedup, efficiency; /* against the one-worker row */
    uint64_t peak_bytes;                /* resident memory of the largest rank */
} rv_estimate_row_t;

typedef struct {
    double pairs, pairs_se;    /* estimated pairs and the standard error of the sample */
    uint64_t pairs_counted;    /* pairs of the blocks run (all of them when exact) */
    int exact;                 /* every block run */
    double out_bytes;          /* BEDPE output, header included */
    double read_s, plan_one_s, jobs_s, merge_s, serial_s; /* one process, one thread */
    double plan_s;             /* the plan on every core (rank 0 under mpirun) */
    double read_ranks_s;       /* reading under mpirun (rank 0, every core) */
    double scan_s;             /* one text pass (each job makes one) */
    double map_pass_s;         /* one scan of a one-byte job map (a job's pass where the run has one) */
    double contention;         /* the sample's blocks' work side by side against alone, 1 to 4: their
                                * times are taken as this much too long for a worker alone */
    double side;               /* blocks running at once, on average, as those compared started */
    double scan_alone_s;       /* a text pass alone (scan_s: side by side) */
    double plan_cpu_s;         /* CPU seconds of the plan (its count), all threads: one process's
                                * plan on -t threads takes this over cpu_inflation over -t */
    double fill_cpu_s;         /* seconds of filling job lists over the text on one thread (the
                                * sample's own: a sixteenth of the text timed), or 0 where none */
    double fill_side_s;        /* the same lists on every thread at once (0: not measured) */
    double cpu_inflation;      /* CPU seconds of every core at once over one thread's (that fill's;
                                * the plan's count is taken as inflated as much), or 0: not known */
    int listed;                /* the sample's jobs read their starts from job lists (no text pass) */
    double touch_s;            /* seconds a suffix of a worker's first job for its buffers' first
                                * pages (the sample's first block on each thread, cold against warm) */
    uint64_t buckets, blocks, blocks_run;
    int rounds;                /* of sampling: a second when the first left the pairs unsure */
    double share_run;          /* share of the blocks' mass run */
    double estimate_s;         /* what the estimate itself took */
    int n_rows;
    rv_estimate_row_t *rows;   /* workers 1..n_rows */
} rv_estimate_t;

/* 0, or -1 with a message (bad options, out of memory).  rv_estimate_free() the rows. */
int rv_pairs_estimate(const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_estimate_opts_t *eo, rv_estimate_t *e);
void rv_estimate_free(rv_estimate_t *e);

#endif
