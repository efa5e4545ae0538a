/* pairs_buckets.c — maximal pairs from the text alone, bucket by bucket
 * (buckets.h; RACE §5), and their part files.
 *
 * Each job of a bucket plan is sorted on its own (rv_bucket_job_sort) and walked
 * by the traversal of pairs_tree.c (pf_walker_bucket); the pairs go through the same
 * sinks and merge as the index's, so the output is the same, byte for byte.  A
 * slice I of N takes the jobs that a greedy largest-first assignment gives it, so
 * N processes that never talk to each other share the work evenly (part.h); each
 * writes a part file holding the sorted runs of its threads, and rv_parts_merge()
 * joins the runs of all parts into the one ordered output.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "repview/buckets.h"
#include "repview/common.h"
#include "repview/pairs.h"
#include "repview/part.h"
#include "base/internal.h"
#include "query/pairs_internal.h"

/* ---- producing ------------------------------------------------------------------ */

typedef struct {
    const rv_seq_t *s;
    const rv_bucket_plan_t *plan;
    const pf_filter_t *f;
    pf_job_source_t src;       /* a fixed list or a source of jobs (MPI) */
    pf_sink_t *sinks;          /* NULL: count */
    _Atomic uint64_t count;
    _Atomic int failed;
    char err[256];
    pthread_mutex_t mu;
} bucket_run_t;

static void bucket_worker(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    bucket_run_t *b = ctx;
    (void)lo, (void)hi;
    const char *tr = getenv("REPVIEW_JOB_TRACE");
    const int each = tr && strcmp(tr, "2") == 0; /* a line per job */
    pf_walker_t *w = pf_walker_new(b->f, b->sinks ? &b->sinks[t] : NULL);
    rv_bucket_scratch_t *sc = rv_bucket_scratch_new();
    int rc = w && sc ? 0 : rv_error("pairs", "out of memory");
    while (rc == 0 && !atomic_load(&b->failed)) {
        uint64_t job;
        int got = pf_take_job(&b->src, &b->mu, &job);
        if (got < 0) rc = -1;
        if (got <= 0) break;
        const uint64_t *pos = NULL, *lcp = NULL;
        uint64_t m = 0;
        rc = rv_bucket_job_sort_in(b->s, b->plan, job, sc, &pos, &lcp, &m);
        double t0 = rv_now();
        const pf_sink_t *sk = b->sinks ? &b->sinks[t] : NULL;
        uint64_t before = sk ? sk->spilled + sk->n : w ? pf_walker_count(w) : 0;
        double spill0 = sk ? sk->spill_s : 0;
        if (rc == 0) rc = pf_walker_bucket(w, pos, lcp, m);
        rv_bucket_phase_add(RV_JOB_WALK, (uint64_t)((rv_now() - t0) * 1e9));
        if (each)
            fprintf(stderr, "job\t%llu\tsuffixes %llu\tpairs %llu\tsorted at %.3f\twalk %.3f s (spills %.3f s)\tthread %d\n",
                    (unsigned long long)job, (unsigned long long)m,
                    (unsigned long long)((sk ? sk->spilled + sk->n : pf_walker_count(w)) - before), t0, rv_now() - t0,
                    sk ? sk->spill_s - spill0 : 0.0, t);
    }
    rv_bucket_scratch_free(sc);
    if (w) atomic_fetch_add(&b->count, pf_walker_count(w));
    pf_walker_free(w);
    if (rc < 0) pf_job_failed(&b->failed, b->err, sizeof b->err, &b->mu);
}

static int run_jobs(bucket_run_t *b, int threads)
{
    pthread_mutex_init(&b->mu, NULL);
    rv_parallel_for(threads, (uint64_t)threads, bucket_worker, b);
    pthread_mutex_destroy(&b->mu);
    return atomic_load(&b->failed) ? rv_error(NULL, "%s", b->err) : 0;
}

static int produce_buckets(void *ctx, int threads, pf_sink_t *sinks)
{
    bucket_run_t *b = ctx;
    b->sinks = sinks;
    return run_jobs(b, threads);
}

/* Suffixes a job may hold: the job's arrays and the walker's lists of each of
 * `threads` workers in half the budget; the other half is the sort buffers of the
 * pairs (o->mem_bytes). */
static uint64_t job_suffixes(uint64_t mem_budget, int threads)
{
    if (!mem_budget) mem_budget = 1ull << 30;
    if (threads <= 0) threads = rv_default_threads();
    uint64_t per = rv_bucket_job_bytes(1) + 24, job = mem_budget / 2 / (uint64_t)threads / per;
    return job ? job : 1;
}

int rv_pairs_bucket_plan(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, int threads,
                         rv_bucket_plan_t *plan)
{
    /* counted on o->threads (0 = all cores); jobs sized for `threads` workers */
    uint64_t *counts, n_codes;
    if (rv_bucket_count(s, o->min_len, o->threads, &counts, &n_codes) < 0) return memset(plan, 0, sizeof *plan), -1;
    rv_pairs_opts_t on = *o;
    on.gpu_jobs = rv_bucket_gpu_on();
    if (rv_pairs_bucket_plan_counted(s, &on, mem_budget, threads, counts, n_codes, plan) < 0) return -1;
    return rv_pairs_bucket_spread(plan, (uint64_t)(threads > 0 ? threads : rv_default_threads()), rv_bucket_gpu_on());
}

int rv_pairs_bucket_plan_counted(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, int threads,
                                 uint64_t *counts, uint64_t n_codes, rv_bucket_plan_t *plan)
{
    if (rv_bucket_plan_counted(s, o->min_len, job_suffixes(mem_budget, threads), counts, n_codes, plan) < 0) return -1;
    /* a pair of length >= min_len lies in one group of a bucket split by up to
     * min_len symbols.  Where a GPU sorts, only buckets that one worker could not
     * hold in the whole budget split: a GPU rank of 32 threads has a cap of
     * 300 K suffixes a job under the default budget, and the 250 Mbp bench split
     * into parts whose starts its CPU scanned for (one GPU rank 2.8 -> 3.9 s) */
    const uint64_t above = o->gpu_jobs ? job_suffixes(mem_budget, 1) : 0;
    if (rv_bucket_plan_split(s, plan, o->min_len, above, o->threads) < 0) {
        rv_bucket_plan_free(plan);
        return -1;
    }
    if (plan->over && !o->quiet)
        fprintf(stderr, "repview: %s: a bucket of %llu suffixes exceeds the memory budget (%llu a job) even by "
                "its first %llu symbols; it runs as one job\n", o->who ? o->who : "pairs", (unsigned long long)plan->over,
                (unsigned long long)(above > plan->job_cap ? above : plan->job_cap), (unsigned long long)plan->over_len);
    return 0;
}

int rv_pairs_bucket_spread(rv_bucket_plan_t *plan, uint64_t workers, int equal)
{
    if (!workers) workers = 1;
    /* equal jobs, J a worker (three, or REPVIEW_JOBS_PER_WORKER=J for benchmarks)
     * where the plan has fewer: for the GPU, whose jobs are short and each costs
     * the same launches (one GPU rank of the 2 x H200 host: 2.80 s with these,
     * 2.94-3.04 s tapered), and for shares fixed in advance (slices) */
    const char *per_e = getenv("REPVIEW_JOBS_PER_WORKER");
    const int per = per_e && atoi(per_e) >= 1 && atoi(per_e) <= 64 ? atoi(per_e) : equal ? 3 : 0;
    if (per) {
        /* from the budget's cut: a plan spread before (tapered, for rank 0's own
         * threads) has more jobs than these, and would be kept */
        if (plan->job_cap && plan->count && rv_bucket_plan_cut(plan, plan->job_cap) < 0) return -1;
        uint64_t want = (uint64_t)per * workers, cap = 0;
        for (uint64_t j = 0; j < plan->n_jobs; j++) if (plan->jobs[j].suffixes > cap) cap = plan->jobs[j].suffixes;
        if (plan->n_jobs >= want) return 0;
        uint64_t size = (plan->suffixes + want - 1) / want;
        if (size < (1u << 16)) size = 1u << 16;
        return size < cap ? rv_bucket_plan_cut(plan, size) : 0;
    }
    /* for CPU workers, tapered (rv_bucket_plan_cut_tapered): from a worker's share
     * down to a sixteenth of it (never below 64 Ki suffixes), none above the
     * budget's cap.  With equal jobs, three a worker, 16 ranks end up to a job
     * apart (2.47-3.09 s on the 250 Mbp bench). */
    if (plan->n_codes < 2 || !plan->count) return 0;
    const uint64_t most = plan->job_cap ? plan->job_cap : plan->suffixes;
    uint64_t least = plan->suffixes / (16 * workers);
    if (least < (1u << 16)) least = 1u << 16;
    return rv_bucket_plan_cut_tapered(plan, workers, most, least);
}

/* A budget that holds neither the jobs' lists nor their map: every job scans the
 * whole text for its starts (64 Mbp on two threads at --mem-budget 4m: 184 s,
 * against 20 s at 64m).  Said once, with a budget that would hold one (the
 * lists or map take half the budget, and shrink with fewer jobs; a malloc that
 * failed is not told apart), where the
 * scans add up: 64 jobs or more of a text of 1 Mbp or more, on the CPU (a GPU
 * finds its jobs' starts on the device). */
enum { SCAN_WARN_JOBS = 64 };
static void warn_scans(const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_bucket_plan_t *p, uint64_t n_mine)
{
    if (o->quiet || p->map || p->lists || rv_bucket_gpu_on() || n_mine < SCAN_WARN_JOBS || s->n < (1u << 20)) return;
    uint64_t need = rv_bucket_lists_bytes(p, s->n);
    const uint64_t map = (uint64_t)rv_bucket_map_width(p) * s->n;
    if (map && (!need || map < need)) need = map;
    char more[96] = "";
    if (need) /* m as the option reads it: 10^6 bytes */
        snprintf(more, sizeof more, "; --mem-budget %llum or more avoids that",
                 (unsigned long long)((2 * need + 999999) / 1000000));
    fprintf(stderr, "repview: %s: the memory budget holds no list of the jobs' starts: each of %llu jobs reads the "
            "whole text%s\n", o->who ? o->who : "pairs", (unsigned long long)n_mine, more);
}

/* Plan s for o and pick the jobs of one slice: 0, or -1 with a message. */
static int setup(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, int threads, uint64_t slice,
                 uint64_t n_slices, rv_bucket_plan_t *plan, uint64_t **mine, uint64_t *n_mine)
{
    if (n_slices <= 1 && rv_pairs_bucket_plan(s, o, mem_budget, threads, plan) < 0) return -1;
    if (n_slices > 1) {
        /* slices share the jobs out in advance, and every slice must cut the same
         * plan whether or not it has a GPU (part.h): equal jobs, three for each
         * thread of every slice */
        uint64_t *counts, n_codes;
        if (rv_bucket_count(s, o->min_len, o->threads, &counts, &n_codes) < 0) return memset(plan, 0, sizeof *plan), -1;
        if (rv_pairs_bucket_plan_counted(s, o, mem_budget, threads, counts, n_codes, plan) < 0) return -1;
        if (rv_pairs_bucket_spread(plan, n_slices * (uint64_t)(threads > 0 ? threads : 1), 1) < 0) {
            rv_bucket_plan_free(plan);
            return -1;
        }
    }
    if (rv_bucket_plan_make_map(plan, s, rv_bucket_map_budget(mem_budget), o->threads) < 0) {
        rv_bucket_plan_free(plan);
        return -1;
    }
    if (!(*mine = rv_bucket_slice_jobs(plan, slice, n_slices, n_mine))) {
        rv_bucket_plan_free(plan);
        return -1;
    }
    warn_scans(s, o, plan, *n_mine);
    return 0;
}

static int resolve(const rv_pairs_opts_t *o)
{
    return o->threads > 0 ? o->threads : rv_default_threads();
}

static int buckets_out(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, uint64_t slice,
                       uint64_t n_slices, rv_pairs_batch_fn fn, void *ud, const rv_pairs_text_t *t)
{
    pf_filter_t f;
    if (pf_filter_init(&f, s, o) < 0) return -1;
    rv_bucket_plan_t plan;
    uint64_t *mine, n_mine;
    if (setup(s, o, mem_budget, resolve(o), slice, n_slices, &plan, &mine, &n_mine) < 0) return -1;
    bucket_run_t b = {.s = s, .plan = &plan, .f = &f, .src = {.jobs = mine, .n_jobs = n_mine}};
    int rc = pf_collect(&f, o, s->n, produce_buckets, &b, fn, ud, t);
    free(mine);
    rv_bucket_plan_free(&plan);
    return rc;
}

int rv_pairs_buckets_each_batch(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, uint64_t slice,
                                uint64_t n_slices, rv_pairs_batch_fn fn, void *ud)
{
    return buckets_out(s, o, mem_budget, slice, n_slices, fn, ud, NULL);
}

int rv_pairs_buckets_each_text(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, uint64_t slice,
                               uint64_t n_slices, const rv_pairs_text_t *t)
{
    return buckets_out(s, o, mem_budget, slice, n_slices, NULL, NULL, t);
}

int rv_pairs_buckets_count(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, uint64_t slice,
                           uint64_t n_slices, uint64_t *count)
{
    pf_filter_t f;
    if (pf_filter_init(&f, s, o) < 0) return -1;
    rv_bucket_plan_t plan;
    uint64_t *mine, n_mine;
    int threads = resolve(o);
    if (setup(s, o, mem_budget, threads, slice, n_slices, &plan, &mine, &n_mine) < 0) return -1;
    bucket_run_t b = {.s = s, .plan = &plan, .f = &f, .src = {.jobs = mine, .n_jobs = n_mine}};
    int rc = run_jobs(&b, threads);
    *count = atomic_load(&b.count);
    free(mine);
    rv_bucket_plan_free(&plan);
    return rc;
}

/* ---- part files (part.h) -----------------------------------------------------------
 *
 * A pairs part holds its pairs as the sorted runs its sinks made (the slice's
 * producing threads), coded as spill runs are (pairs_sort.c: varints of p1 -
 * previous p1, p2 - p1 and len, p2 as the sinks hold it, every `check`-th pair
 * coded from p1 = 0), so that nobody merges twice: the merge of the parts is the
 * one merge of a single process, cut into chunks at the runs' checkpoints and run
 * on every core (pairs_merge.c).  Body layout, offsets from the body's start:
 *   the runs' bytes, one after another;
 *   the directory: nruns, nck, check, both; per run its offset, pairs and first
 *   checkpoint; per checkpoint its offset, p1 and p2 (all uint64);
 *   the directory's offset (uint64, the body's last bytes). */

/* What the pairs of a part depend on besides the text (part.h's options). */
typedef struct {
    uint64_t n, min_len, within_beg, within_end;
    int64_t min_gap, max_gap;
    int32_t use_min_gap, use_max_gap, use_within, strands;
    uint64_t plan;                      /* the jobs' cut: every slice needs the same */
} pairs_part_opts_t;

enum { DIR_HEAD = 4, COPY_BYTES = 1 << 20 };

typedef struct {
    FILE *out;
    uint64_t pairs;
    int both;
} part_use_t;

static int put_words(FILE *f, const uint64_t *w, size_t n)
{
    return fwrite(w, sizeof *w, n, f) == n ? 0 : rv_error("part", "cannot write: %s", strerror(errno));
}

/* pf_sinks_fn: every sink's last buffer spilled as a run, then every run copied
 * into the part with the directory after them. */
static int put_runs(void *ud, pf_sink_t *sinks, int n)
{
    part_use_t *u = ud;
    for (int t = 0; t < n; t++) {
        if (sinks[t].n && pf_sink_spill(&sinks[t]) < 0) return rv_error(NULL, "%s", sinks[t].errmsg);
        if (sinks[t].err) return rv_error(NULL, "%s", sinks[t].errmsg);
    }
    uint64_t nruns = 0, nck = 0, at, check = n ? sinks[0].check : 1;
    for (int t = 0; t < n; t++) nruns += sinks[t].nruns, nck += sinks[t].nck;
    /* the runs' bytes: copied by the kernel where it can (no trip through here);
     * from where it first cannot (other file systems, old kernels), through a
     * buffer, the stream first placed past what the kernel wrote */
    if (fflush(u->out) != 0) return rv_error("part", "cannot write: %s", strerror(errno));
    uint8_t *buf = NULL;
    int rc = 0, kernel = 1;
    for (int t = 0; t < n && rc == 0; t++) {
        loff_t off = 0;
        while (kernel && (uint64_t)off < sinks[t].file_bytes) {
            ssize_t r = copy_file_range(sinks[t].fd, &off, fileno(u->out), NULL,
                                        (size_t)(sinks[t].file_bytes - (uint64_t)off), 0);
            if (r <= 0) kernel = 0;
        }
        if ((uint64_t)off < sinks[t].file_bytes && fseeko(u->out, 0, SEEK_END) != 0)
            rc = rv_error("part", "cannot write: %s", strerror(errno));
        if (rc == 0 && (uint64_t)off < sinks[t].file_bytes && !buf && !(buf = malloc(COPY_BYTES)))
            rc = rv_error("part", "out of memory");
        while (rc == 0 && (uint64_t)off < sinks[t].file_bytes) {
            uint64_t want = sinks[t].file_bytes - (uint64_t)off < COPY_BYTES ? sinks[t].file_bytes - (uint64_t)off : COPY_BYTES;
            ssize_t r = pread(sinks[t].fd, buf, (size_t)want, off);
            if (r <= 0) rc = rv_error("pairs", "cannot read a temporary file: %s", r < 0 ? strerror(errno) : "short read");
            else if (fwrite(buf, 1, (size_t)r, u->out) != (size_t)r) rc = rv_error("part", "cannot write: %s", strerror(errno));
            off += r > 0 ? r : 0;
        }
    }
    free(buf);
    if (rc == 0 && fseeko(u->out, 0, SEEK_END) != 0) rc = rv_error("part", "cannot write: %s", strerror(errno));
    uint64_t head[DIR_HEAD] = {nruns, nck, check, (uint64_t)(u->both != 0)};
    if (rc == 0) rc = put_words(u->out, head, DIR_HEAD);
    uint64_t base = 0, ck_base = 0;
    for (int t = 0; t < n && rc == 0; t++) {
        const pf_sink_t *k = &sinks[t];
        for (uint64_t q = 0; q < k->nruns && rc == 0; q++) {
            uint64_t w[3] = {base + k->run_off[q], k->run_len[q], ck_base + k->run_ck[q]};
            rc = put_words(u->out, w, 3);
            u->pairs += k->run_len[q];
        }
        base += k->file_bytes, ck_base += k->nck;
    }
    at = base;
    base = 0;
    for (int t = 0; t < n && rc == 0; t++) {
        const pf_sink_t *k = &sinks[t];
        for (uint64_t c = 0; c < k->nck && rc == 0; c++) {
            uint64_t w[3] = {base + k->ck_off[c], k->ck_p1[c], k->ck_p2[c]};
            rc = put_words(u->out, w, 3);
        }
        base += k->file_bytes;
    }
    if (rc == 0) rc = put_words(u->out, &at, 1);
    return rc;
}

/* The part of the jobs b hands out: its runs and their directory, then the header.
 * path NULL: a part without a name, whose descriptor is returned. */
static int write_part(bucket_run_t *b, const rv_pairs_opts_t *o, uint64_t slice, uint64_t n_slices,
                      const char *path, int durable)
{
    pairs_part_opts_t po;
    memset(&po, 0, sizeof po);
    po.n = b->s->n, po.min_len = o->min_len, po.within_beg = o->within_beg, po.within_end = o->within_end;
    po.min_gap = o->min_gap, po.max_gap = o->max_gap;
    po.use_min_gap = o->use_min_gap, po.use_max_gap = o->use_max_gap, po.use_within = o->use_within;
    po.strands = o->strands;
    po.plan = rv_bucket_plan_hash(b->plan);
    rv_part_writer_t *w = rv_part_writer_begin(path, RV_PART_PAIRS, slice, n_slices, b->s, &po, sizeof po);
    if (!w) return -1;
    part_use_t u = {rv_part_writer_file(w), 0, b->f->both};
    int rc = pf_collect_sinks(b->f, o, b->s->n, produce_buckets, b, put_runs, &u);
    return path ? rv_part_writer_end(w, u.pairs, durable, rc) : rv_part_writer_end_fd(w, u.pairs, rc);
}

int rv_pairs_part_write(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, uint64_t slice,
                        uint64_t n_slices, const char *path)
{
    if (n_slices < 1 || slice >= n_slices)
        return rv_error("part", "slice %llu of %llu does not exist", (unsigned long long)slice + 1,
                        (unsigned long long)n_slices);
    pf_filter_t f;
    if (pf_filter_init(&f, s, o) < 0) return -1;
    rv_bucket_plan_t plan;
    uint64_t *mine, n_mine;
    if (setup(s, o, mem_budget, resolve(o), slice, n_slices, &plan, &mine, &n_mine) < 0) return -1;
    bucket_run_t b = {.s = s, .plan = &plan, .f = &f, .src = {.jobs = mine, .n_jobs = n_mine}};
    int rc = write_part(&b, o, slice, n_slices, path, 1);
    free(mine);
    rv_bucket_plan_free(&plan);
    return rc;
}

int rv_pairs_part_write_dynamic(const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_bucket_plan_t *plan,
                                rv_bucket_next_fn next, void *nctx, uint64_t slice, uint64_t n_slices)
{
    pf_filter_t f;
    if (pf_filter_init(&f, s, o) < 0) return -1;
    bucket_run_t b = {.s = s, .plan = plan, .f = &f, .src = {.next = next, .nctx = nctx}};
    return write_part(&b, o, slice, n_slices, NULL, 0); /* a transfer, not kept */
}

int rv_pairs_buckets_count_dynamic(const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_bucket_plan_t *plan,
                                   rv_bucket_next_fn next, void *nctx, uint64_t *count)
{
    pf_filter_t f;
    if (pf_filter_init(&f, s, o) < 0) return -1;
    bucket_run_t b = {.s = s, .plan = plan, .f = &f, .src = {.next = next, .nctx = nctx}};
    int rc = run_jobs(&b, resolve(o));
    *count = atomic_load(&b.count);
    return rc;
}

/* ---- merging parts -------------------------------------------------------------- */

/* The runs of the parts being merged, and their checkpoints' arrays (to free). */
typedef struct {
    pf_run_t *runs;
    uint64_t nruns, cap;
    uint64_t **keep;
    size_t nkeep;
    int both;         /* the runs' p2 coded as 2 p2 + inverted */
    uint64_t nf;      /* the input's text, one strand */
    uint64_t min_len; /* the first part's (the parts share their options) */
} part_runs_t;

static int bad_part(const rv_part_t *p)
{
    return rv_error(rv_part_path(p), "not a part of this repview (its runs do not add up)");
}

static int read_words(const rv_part_t *p, uint64_t *w, uint64_t n, uint64_t off)
{
    uint64_t bytes = n * sizeof *w;
    return n > (UINT64_MAX / sizeof *w) || rv_part_read(p, w, bytes, off) != (int64_t)bytes ? bad_part(p) : 0;
}

/* Does the directory's flag `both` say what part p's options do: one strand (the
 * text as long as the input's) or both (twice as long and a breaker; an empty
 * input has no reverse strand)? */
static int strands_agree(const rv_part_t *p, uint64_t both)
{
    size_t bytes;
    const pairs_part_opts_t *po = rv_part_opts(p, &bytes);
    const uint64_t nf = rv_part_input_len(p);
    if (bytes != sizeof *po) return 0;
    if (!both) return po->n == nf;
    return nf ? nf <= (UINT64_MAX - 1) / 2 && po->n == 2 * nf + 1 : po->n == 0;
}

/* The runs of part p's directory, checked to lie in its body in order (the body's
 * hash guards against damage; this against a part that was never ours), appended
 * to pr->runs (first: the first part, whose flag and input length the others must
 * share). */
static int part_runs(const rv_part_t *p, part_runs_t *pr, int first)
{
    const int fd = rv_part_fd(p);
    const uint64_t body = rv_part_body_offset(p);
    const uint64_t size = rv_part_body_bytes(p);
    uint64_t at, head[DIR_HEAD];
    if (size < (DIR_HEAD + 1) * sizeof(uint64_t) || read_words(p, &at, 1, size - sizeof at) < 0 ||
        at > size - (DIR_HEAD + 1) * sizeof(uint64_t) || read_words(p, head, DIR_HEAD, at) < 0)
        return bad_part(p);
    const uint64_t nruns = head[0], nck = head[1], check = head[2], room = (size - at) / sizeof(uint64_t);
    if (check < 1 || head[3] > 1 || nruns > room / 3 || nck > room / 3 ||
        DIR_HEAD + 3 * (nruns + nck) + 1 != room || (size - at) % sizeof(uint64_t) || !strands_agree(p, head[3]) ||
        (!first && ((int)head[3] != pr->both || rv_part_input_len(p) != pr->nf)))
        return bad_part(p);
    pr->both = (int)head[3];
    pr->nf = rv_part_input_len(p);
    if (first) pr->min_len = ((const pairs_part_opts_t *)rv_part_opts(p, &(size_t){0}))->min_len;
    uint64_t *rw = malloc((3 * nruns + 1) * sizeof *rw), *ck = malloc((3 * nck + 1) * sizeof *ck);
    if (!rw || !ck) {
        free(rw), free(ck);
        return rv_error("merge", "out of memory");
    }
    int rc = read_words(p, rw, 3 * nruns, at + DIR_HEAD * sizeof(uint64_t));
    if (rc == 0) rc = read_words(p, ck, 3 * nck, at + (DIR_HEAD + 3 * nruns) * sizeof(uint64_t));
    /* the checkpoints as three arrays, offsets in the file */
    uint64_t *ck_off = rc == 0 ? malloc((3 * nck + 1) * sizeof *ck_off) : NULL;
    if (rc == 0 && !ck_off) rc = rv_error("merge", "out of memory");
    uint64_t *ck_p1 = ck_off ? ck_off + nck : NULL, *ck_p2 = ck_off ? ck_off + 2 * nck : NULL, pairs = 0;
    for (uint64_t c = 0; rc == 0 && c < nck; c++) ck_off[c] = body + ck[3 * c], ck_p1[c] = ck[3 * c + 1], ck_p2[c] = ck[3 * c + 2];
    uint64_t **keep = rc == 0 ? realloc(pr->keep, (pr->nkeep + 1) * sizeof *keep) : NULL;
    if (keep) pr->keep = keep;
    else if (rc == 0) rc = rv_error("merge", "out of memory");
    if (rc == 0 && pr->nruns + nruns > pr->cap) {
        uint64_t c = 2 * (pr->nruns + nruns) + 8;
        pf_run_t *r = realloc(pr->runs, c * sizeof *r);
        if (r) pr->runs = r, pr->cap = c;
        else rc = rv_error("merge", "out of memory");
    }
    for (uint64_t q = 0; rc == 0 && q < nruns; q++) {
        const uint64_t off = rw[3 * q], len = rw[3 * q + 1], c0 = rw[3 * q + 2];
        const uint64_t end = q + 1 < nruns ? rw[3 * (q + 1)] : at;
        const uint64_t c1 = q + 1 < nruns ? rw[3 * (q + 1) + 2] : nck;
        /* runs back to back from 0, at least 3 bytes a pair (three varints: so no
         * count of pairs outgrows the file, nor their sums), each with ceil(len /
         * check) checkpoints from its start, in order inside it, keys ascending */
        if (len == 0 || end <= off || end > at || len > (end - off) / 3 || c1 > nck || c1 < c0 ||
            c1 - c0 != (len - 1) / check + 1 || (q == 0 && (off != 0 || c0 != 0)) || ck[3 * c0] != off)
            rc = bad_part(p);
        for (uint64_t c = c0 + 1; rc == 0 && c < c1; c++)
            if (ck[3 * c] <= ck[3 * (c - 1)] || ck[3 * c] >= end || ck[3 * c + 1] < ck[3 * (c - 1) + 1] ||
                (ck[3 * c + 1] == ck[3 * (c - 1) + 1] && ck[3 * c + 2] < ck[3 * (c - 1) + 2]))
                rc = bad_part(p);
        if (rc == 0)
            pr->runs[pr->nruns++] = (pf_run_t){.n = len, .fd = fd, .end_off = body + end, .ck_off = ck_off + c0,
                                               .ck_p1 = ck_p1 + c0, .ck_p2 = ck_p2 + c0, .nck = c1 - c0, .check = check};
        pairs += len;
    }
    if (rc == 0 && (nruns ? rw[3 * (nruns - 1) + 2] + (rw[3 * (nruns - 1) + 1] - 1) / check + 1 != nck : nck != 0))
        rc = bad_part(p);
    if (rc == 0 && pairs != rv_part_items(p)) rc = bad_part(p);
    if (rc == 0) pr->keep[pr->nkeep++] = ck_off;
    else free(ck_off);
    free(rw), free(ck);
    return rc;
}

/* Every part's runs into pr (free it with runs_free whatever this returns). */
static int runs_load(rv_part_t *const *parts, size_t n, part_runs_t *pr)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = part_runs(parts[i], pr, i == 0);
    return rc;
}

static void runs_free(part_runs_t *pr)
{
    for (size_t i = 0; i < pr->nkeep; i++) free(pr->keep[i]);
    free(pr->keep);
    free(pr->runs);
}

static int parts_merge(rv_part_t *const *parts, size_t n, int threads, const pf_out_t *out)
{
    part_runs_t pr = {0};
    int rc = runs_load(parts, n, &pr);
    if (rc == 0) {
        pf_out_t o = *out;
        o.both = pr.both, o.nf = pr.nf, o.min_len = pr.min_len;
        int ran;
        rc = pf_merge_runs(pr.runs, pr.nruns, &o, threads < 1 ? rv_default_threads() : threads, "a part file", &ran);
        if (!ran) rc = rv_error("merge", "out of memory");
    }
    runs_free(&pr);
    return rc;
}

int rv_parts_check_runs(rv_part_t *const *parts, size_t n)
{
    part_runs_t pr = {0};
    int rc = runs_load(parts, n, &pr);
    runs_free(&pr);
    return rc;
}

int rv_parts_merge(rv_part_t *const *parts, size_t n, rv_pairs_batch_fn fn, void *ud)
{
    pf_out_t out = {fn, ud, NULL, 0, 0, 0}; /* both and nf: the parts' */
    return parts_merge(parts, n, 0, &out);
}

int rv_parts_merge_text(rv_part_t *const *parts, size_t n, int threads, const rv_pairs_text_t *t)
{
    pf_out_t out = {NULL, NULL, t, 0, 0, 0};
    return parts_merge(parts, n, threads, &out);
}
