/* buckets.h — suffixes grouped by their first k symbols, sorted from the text alone
 * (prefix buckets after RACE/ERA, RACE §5; doc/DESIGN.md).
 *
 * The suffixes of the text that start with the same k symbols (no breaker among
 * them) form one contiguous interval of the suffix array, and the LCPs inside it
 * are the global ones; so for a minimum length >= k every maximal pair lies inside
 * one bucket.  A plan counts the buckets in one pass over the text and groups
 * consecutive buckets into jobs of at most a given number of suffixes; a job
 * collects its suffixes in one more pass, sorts each bucket (multikey quicksort on
 * eight symbols at a time) and computes their LCPs by comparison.  No global
 * suffix array is built, so a job needs memory for its own suffixes only, and
 * jobs are independent: threads, MPI ranks (ui/cli/cli_mpi_main.c) or separate
 * processes (`--buckets I/N`, `repview merge`) share them out.
 *
 * The cost of a bucket's sort is the total length of the distinguishing prefixes
 * of its suffixes: near-linear on genomes, whose exact repeats are short against
 * their length, but quadratic in the length of a long exact tandem array (an
 * all-A text).  Positions are text positions (rv_seq_t.text).
 */
#ifndef REPVIEW_BUCKETS_H
#define REPVIEW_BUCKETS_H

#include <stdio.h>
#include <stdint.h>
#include "repview/seq.h"

typedef struct {
    uint64_t code_lo, code_hi; /* prefix codes [lo, hi) (base sigma, k symbols) */
    uint64_t suffixes;         /* suffixes in them */
    /* sub_hi > 0: a part of the one bucket code_lo (code_hi = code_lo + 1), the
     * suffixes whose next sub_depth symbols have a sub-code in [sub_lo, sub_hi)
     * (rv_bucket_plan_split); sub_hi = 0: whole buckets */
    uint32_t sub_lo, sub_hi, sub_depth, unused;
} rv_bucket_job_t;

/* A bucket split by longer prefixes (rv_bucket_plan_split): its suffixes grouped by
 * the `depth` symbols after the k of its code, each group a sub-code of base
 * sigma + 1, most significant first, with 0 for a breaker or the text's end and
 * every symbol after it (so sub-code order is suffix order); the non-empty groups
 * are units[unit_lo, unit_hi) of the plan, in sub-code order. */
typedef struct {
    uint64_t code;
    uint64_t depth;
    uint64_t unit_lo, unit_hi;
} rv_bucket_split_t;

typedef struct {
    uint64_t sub, suffixes;
} rv_bucket_unit_t;

typedef struct {
    int k;                     /* prefix length in symbols */
    uint64_t sigma;            /* symbols of the alphabet (codes 1..sigma) */
    uint64_t n_codes;          /* sigma^k */
    uint64_t suffixes;         /* all suffixes with k breaker-free symbols */
    uint64_t largest;          /* suffixes of the largest bucket */
    uint64_t job_cap;          /* the most suffixes a job may hold (the memory budget's;
                                  a larger bucket is a job of its own unless split) */
    uint64_t n_jobs;
    rv_bucket_job_t *jobs;     /* in code order (= suffix-array order) */
    uint64_t *count;           /* suffixes per code (n_codes) */
    uint64_t *own_count;       /* count when the plan frees it; NULL: not owned
                                  (another process's copy, shared) */
    const void *map;           /* the job map (rv_bucket_map_fill), or NULL: not owned */
    int map_width;             /* its bytes a position (1 or 2) */
    void *own_map;             /* a map the plan made and frees (rv_bucket_plan_make_map) */
    const void *lists;         /* the job lists (rv_bucket_lists_fill), or NULL: not owned */
    void *own_lists;           /* lists the plan made and frees (rv_bucket_plan_make_map) */
    uint64_t n_split, n_units; /* buckets split by longer prefixes, in code order, and */
    rv_bucket_split_t *split;  /* their groups (owned; none on a rank that took the */
    rv_bucket_unit_t *units;   /* plan from rank 0: its jobs say all a job needs) */
    uint64_t over;             /* suffixes of the largest bucket, or part of one, that
                                  stays above job_cap after the split (0: none) */
    uint64_t over_len;         /* the prefix length that could not split it */
} rv_bucket_plan_t;

/* Plan the buckets of s for queries of minimum length min_len (k <= min_len, and
 * sigma^k at most 2^24): count them (threads, 0 = all) and cut jobs of at most
 * job_suffixes suffixes (a bucket larger than that is a job of its own).  0, or -1
 * with a message. */
int rv_bucket_plan(const rv_seq_t *s, uint64_t min_len, uint64_t job_suffixes, int threads,
                   rv_bucket_plan_t *p);

/* The counting step of rv_bucket_plan alone (on the device when it holds s):
 * *counts (n_codes of them, to free) for the plan's k.  Under mpirun a GPU rank
 * counts for rank 0, which plans with rv_bucket_plan_counted (taking the counts:
 * they are freed on failure).  0, or -1 with a message. */
int rv_bucket_count(const rv_seq_t *s, uint64_t min_len, int threads, uint64_t **counts, uint64_t *n_codes);
int rv_bucket_plan_counted(const rv_seq_t *s, uint64_t min_len, uint64_t job_suffixes, uint64_t *counts,
                           uint64_t n_codes, rv_bucket_plan_t *p);
void rv_bucket_plan_free(rv_bucket_plan_t *p);
/* Split the buckets of p larger than `above` (at least p->job_cap; 0: job_cap) by
 * longer prefixes (ERA/RACE's variable prefix length), up to max_len symbols in
 * all: a bucket's suffixes are grouped by the next j symbols, j the least that
 * makes each group fit job_cap (at most RV_BUCKET_SPLIT_CODES groups a bucket,
 * fewer when many buckets split), found in one pass over the text on `threads`
 * threads (0 = all), and the jobs are cut again: a split bucket's groups make
 * jobs of their own, consecutive groups together up to the size.  Every group is
 * a contiguous interval of the suffix array, and two suffixes of different groups
 * share fewer than k + j symbols, so for queries of minimum length >= max_len
 * (pairs) nothing crosses from one to the next; the LCP at a group's start is not
 * the global one (lr must not split).  A bucket between job_cap and `above` stays
 * a job of its own (pairs: job_cap is a worker's share of the budget when every
 * thread holds a job, `above` the whole budget, which such a job fits).  A group
 * that cannot shrink below `above` (a long run of one symbol, a satellite array)
 * stays a job above it: p->over says so.  Plans without a bucket above `above`
 * are left as they are.  0, or -1 with a message. */
#define RV_BUCKET_SPLIT_CODES (1u << 16)
int rv_bucket_plan_split(const rv_seq_t *s, rv_bucket_plan_t *p, uint64_t max_len, uint64_t above, int threads);
/* Cut the plan's jobs again at job_suffixes (smaller jobs for more workers: the
 * counts are kept).  0, or -1 with a message. */
int rv_bucket_plan_cut(rv_bucket_plan_t *p, uint64_t job_suffixes);
/* Cut the plan's jobs again, tapered for `workers` that take them largest first:
 * while L suffixes are not in a job yet, the next job aims at L / workers, kept
 * within [least, most].  The first jobs are large and the last ones small, so
 * that the workers end close together (the last job is what the others wait
 * for) without cutting every job small: each job reads the text at each of its
 * starts, so more jobs cost more (guided self-scheduling, Polychronopoulos and
 * Kuck 1987, with the sizes fixed in the plan).  0, or -1 with a message. */
int rv_bucket_plan_cut_tapered(rv_bucket_plan_t *p, uint64_t workers, uint64_t most, uint64_t least);

/* Job order for scheduling: indexes of the jobs, largest first (ties by code), in
 * a malloc()ed array of p->n_jobs, or NULL when out of memory. */
uint64_t *rv_bucket_jobs_largest_first(const rv_bucket_plan_t *p);

/* The job map: for every position of the text, the job whose buckets hold the
 * suffix starting there (RV_BUCKET_NO_JOB where no suffix of k breaker-free symbols
 * starts), so that a job finds its suffixes by one scan of a byte array instead of
 * rolling the prefix code over the whole text.  rv_bucket_map_width(): the bytes a
 * position takes for the plan's jobs (1 up to 255 jobs, 2 up to 65535, else 0:
 * no map).  rv_bucket_map_fill() writes the positions [lo, hi) of map (whose
 * position 0 is the text's) on `threads` threads; rv_bucket_plan_use_map() lets
 * the plan's jobs read it instead of any lists (the caller keeps it alive; cutting
 * the plan again drops it; NULL: none).  0, or -1 with a message. */
#define RV_BUCKET_NO_JOB 0xffffu
int rv_bucket_map_width(const rv_bucket_plan_t *p);
int rv_bucket_map_fill(const rv_seq_t *s, const rv_bucket_plan_t *p, void *map, uint64_t lo, uint64_t hi,
                       int threads);
void rv_bucket_plan_use_map(rv_bucket_plan_t *p, const void *map);
/* The job lists: for every block of RV_BUCKET_BLOCK positions, the starts of the
 * block grouped by job (two bytes each, the offset in the block, in text order),
 * and a table of where each job's group begins in each block.  A job then reads
 * only its own starts instead of the whole map: each job's scan of an n-byte map
 * grows with the number of jobs, which grows with the text and the workers (a
 * 3 Gbp text on 16 threads: 300 jobs, each reading a 6 GB map).  The lists take
 * 2n bytes plus 4 (jobs + 1) bytes a block (rv_bucket_lists_bytes(): 0 when the
 * plan has fewer than 2 jobs or more than RV_BUCKET_LIST_JOBS).
 * rv_bucket_lists_fill() fills the blocks of positions [lo, hi), lo a multiple of
 * RV_BUCKET_BLOCK and hi one too or past the text's end, on `threads` threads;
 * rv_bucket_plan_use_lists() lets the plan's jobs read them instead of any map
 * (the caller keeps them alive; cutting the plan again drops them; NULL: none).
 * 0, or -1 with a message. */
#define RV_BUCKET_BLOCK (1ull << 16)
#define RV_BUCKET_LIST_JOBS 4095
uint64_t rv_bucket_lists_bytes(const rv_bucket_plan_t *p, uint64_t n);
int rv_bucket_lists_fill(const rv_seq_t *s, const rv_bucket_plan_t *p, void *lists, uint64_t lo, uint64_t hi,
                         int threads);
void rv_bucket_plan_use_lists(rv_bucket_plan_t *p, const void *lists);
/* Whether a plan's jobs should find their starts in job lists within `bytes`: the
 * lists fit, and the plan has RV_BUCKET_LIST_MIN_JOBS jobs or more (below that a
 * one-byte map costs half the memory and its few scans little time). */
#define RV_BUCKET_LIST_MIN_JOBS 8
int rv_bucket_prefer_lists(const rv_bucket_plan_t *p, uint64_t n, uint64_t bytes);
/* How the jobs of plan p for a text of n symbols find their starts within `bytes`:
 * lists where preferred, else a map (rv_bucket_map_width() bytes a position) where
 * it fits, else a scan of the text. */
enum { RV_BUCKET_FIND_SCAN, RV_BUCKET_FIND_MAP, RV_BUCKET_FIND_LISTS };
int rv_bucket_finder(const rv_bucket_plan_t *p, uint64_t n, uint64_t bytes);
/* Job lists of the plan's own where rv_bucket_prefer_lists() says so, else a job
 * map when it fits `bytes` (else neither: the jobs scan the text); lists or a map
 * the plan had before are dropped.  0, or -1 with a message. */
int rv_bucket_plan_make_map(rv_bucket_plan_t *p, const rv_seq_t *s, uint64_t bytes, int threads);
/* The bytes a job map may take under a memory budget (0 = the default 1 GB): half. */
uint64_t rv_bucket_map_budget(uint64_t mem_budget);

/* A hash of the plan's k, alphabet and jobs: slices of separate processes must
 * cut the same jobs (part.h). */
uint64_t rv_bucket_plan_hash(const rv_bucket_plan_t *p);
/* The jobs slice `slice` of n_slices takes (greedy largest first, part.h), in a
 * malloc()ed array of *n, or NULL with a message when out of memory. */
uint64_t *rv_bucket_slice_jobs(const rv_bucket_plan_t *p, uint64_t slice, uint64_t n_slices, uint64_t *n);

/* Bytes a job of m suffixes needs at most (suffixes, LCPs, scratch). */
uint64_t rv_bucket_job_bytes(uint64_t m);

/* The suffixes of job j in suffix-array order: *pos (m positions) and *lcp with
 * lcp[0] = 0 and lcp[r] = lcp(pos[r-1], pos[r]) stopping at breakers, both
 * malloc()ed (the caller frees); *m set.  0, or -1 with a message. */
int rv_bucket_job_sort(const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t j, uint64_t **pos,
                       uint64_t **lcp, uint64_t *m);

/* The same into buffers kept from one job to the next (a thread's own): *pos and
 * *lcp point into sc and hold until its next job or rv_bucket_scratch_free(). */
typedef struct rv_bucket_scratch rv_bucket_scratch_t;
rv_bucket_scratch_t *rv_bucket_scratch_new(void);
void rv_bucket_scratch_free(rv_bucket_scratch_t *sc);
int rv_bucket_job_sort_in(const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t j, rv_bucket_scratch_t *sc,
                          const uint64_t **pos, const uint64_t **lcp, uint64_t *m);

/* From now on rv_bucket_job_sort() collects and sorts the jobs on GPU `device`
 * (gpu.h; the text of s is put on it and must stay unchanged), the CPU finishing
 * the few suffixes tied deepest; until rv_bucket_gpu_end().  0, or -1 with a message
 * (the CPU sorts then).  The jobs of any number of threads share the device, one
 * at a time; a job the device fails (out of its memory) is sorted on the CPU. */
int rv_bucket_gpu_begin(const rv_seq_t *s, int device);
void rv_bucket_gpu_end(void);
int rv_bucket_gpu_on(void); /* 1 while the GPU sorts */

/* Where the CPU jobs' time went, summed over threads (diagnostics: REPVIEW_JOB_TRACE=1). */
enum { RV_JOB_COLLECT, RV_JOB_RADIX, RV_JOB_SORT, RV_JOB_LCP, RV_JOB_WALK, RV_JOB_PHASES };
void rv_bucket_phase_add(int phase, uint64_t ns);
void rv_bucket_phase_report(FILE *f, const char *who);

#endif
