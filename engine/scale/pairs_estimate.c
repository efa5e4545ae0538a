/* pairs_estimate.c — what `repview pairs` in prefix buckets will cost, told from
 * a sample of its buckets (pairs.h rv_pairs_estimate; RACE §5.3, whose
 * cost model times the query on a random sample of the sequence).
 *
 * A sample of the sequence misses what matters here: the work and the pairs of a
 * bucket grow faster than its size and gather in the few buckets of the repeat
 * families.  The plan's per-bucket counts are exact and cheap, so the sample is
 * drawn from them instead.  The codes are cut into about BLOCKS contiguous blocks
 * of equal mass, a bucket's mass the sum of three parts scaled to the same total:
 * its suffixes c (sorting), c^2 (low-complexity buckets) and its bound on pairs,
 * the pairs of its suffixes whose left characters differ (left_diverse); a bucket
 * as heavy as a block is a block of its own.  Then
 *   - every such bucket alone is run,
 *   - a seeded systematic sample of the other blocks, along their order by pair
 *     bound, is run (a share, at least MIN_SAMPLE; as many again when the pairs'
 *     relative standard error stays above SE_MORE),
 *   - the blocks not run are estimated by ratio (Cochran's ratio estimator): time
 *     to suffixes, pairs to the pair bound, bytes to pairs.
 * A block is run by the engine's own code (rv_bucket_job_sort, then the walker
 * collecting its pairs) on the CPU, a GPU present or not (the estimate is of CPU
 * ranks), and timed by the CPU time of its thread; the blocks are shared out over
 * every core, largest first, and a few are run again alone to tell how much the
 * others slowed them (contention).  The blocks are the jobs of a plan of their own
 * with job lists, as a run's jobs read their starts from its lists: no pass over
 * the text is in a block's time (without room for the lists, a block scans the
 * text and a pass timed apart on an empty job is taken off).  A thread's first
 * block runs twice, its buffers' first pages kept apart (touch), and its pairs'
 * buffer is grown before.  Output bytes are the BEDPE line lengths of the pairs
 * collected.  With sample 1 every block runs and the pair count is exact.
 *
 * Wall time for W workers (`mpirun -np W` of a CPU run, whose rank 0 works too) is
 * a simulation of rank 0 handing out the jobs of the plan cut for W workers,
 * largest first, to the worker that is free first: a job costs its pass (none with
 * lists, a scan of a one-byte job map, timed apart, or a text pass) plus the
 * estimated work of its codes and the sorting and writing of its pairs, at the
 * slowdown of that many jobs at once, a worker's first job its touch more; around
 * it come the serial parts (start, read, plan, filling the lists, merge and
 * formatting on rank 0), measured here (read, plan, the fill on one thread and on
 * all) or from the rates below (tests/bench/RESULTS.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "repview/buckets.h"
#include "repview/common.h"
#include "repview/pairs.h"
#include "base/internal.h"
#include "input/seq_internal.h"
#include "query/pairs_internal.h"

enum { TOUCH_MIN = 1 << 20 };
enum { BLOCKS = 192, MIN_SAMPLE = 12, MORE_ROUNDS = 1, SINK_PAIRS = 1 << 21, HEADER_BYTES = 70 /* the BEDPE header line */,
       LINE_GUESS = 60 /* bytes of a line when none was seen */ };

/* Rates of the parts not measured here (seconds), from `mpirun` runs with
 * REPVIEW_MPI_TRACE=1 on the development machine (2 cores) and, for the start,
 * the merge and the formatting, on a 16-core H200 host (tests/bench/RESULTS.md). */
#define MPI_ONE_S 0.30          /* mpirun -np 1 (one process, no MPI_Init): its start and end */
#define MPI_START_S 0.40        /* mpirun until the ranks run, and after they end (windows freed) */
#define MPI_RANK_S 0.025        /* more of that for each further rank */
#define WINDOW_BYTE_S 0.3e-9    /* rank 0's read into the host's shared window: its pages' first touch */
#define WRITE_BYTE_S 0.9e-9     /* the output written by one thread (rank 0's merge formats on every core) */
#define WORKER_PAIR_S 40e-9     /* a worker's sort of its pairs and their part file, per pair */
#define MASTER_PAIR_S 30e-9     /* the merge of the sorted runs, per pair on one core */
#define FORMAT_BYTE_S 3e-9      /* BEDPE formatting and writing, per byte on one core */
#define PLAN_SEND_BYTE_S 0.5e-9 /* the plan's counts into a host's window, per byte */
#define MPI_RSS_BYTES (32ull << 20) /* what Open MPI adds to a rank */
#define LISTS_FILL 9.5              /* filling the job lists, in text passes (an empty job's) */
#define MAP_FILL 5.5                /* filling the job map, the same */
#define SE_MORE 0.2 /* a relative standard error of the pairs above this: sample as much again */

typedef struct {
    uint64_t lo, hi;      /* codes [lo, hi) */
    uint64_t suffixes;
    double mass, div;     /* mass (make_blocks), pair bound (left_diverse) */
    int alone;            /* one bucket as heavy as a block: always run */
    int run;              /* run (always, or as part of the sample) */
    double cpu_s, bytes;  /* measured when run: its job's time (a text pass included) */
    uint64_t pairs;
    int busy;             /* blocks running (this one too) when it started */
    uint64_t idx;         /* its place among the blocks: its job in the sample's plan */
} block_t;

/* One thread's tools for running blocks. */
typedef struct {
    const rv_seq_t *s;
    const rv_bucket_plan_t *plan;
    const rv_bucket_plan_t *listed; /* the blocks as jobs, with their job lists; NULL: none */
    const pf_filter_t *f;
    const size_t *name_len; /* of each record */
    double pass_sum;        /* seconds of the text passes timed apart ... */
    int passes;             /* ... and their number */
    uint64_t ran;           /* blocks run by this thread */
    double touch_s;         /* its first block's time cold less its time warm ... */
    uint64_t touch_suffixes; /* ... and that block's suffixes */
    int rc;
    pf_sink_t sink;         /* the pairs of one block */
    pf_walker_t *walker;
    rv_bucket_scratch_t *sc; /* a job's buffers, kept from one block to the next as a run's thread keeps them */
} sampler_t;

static double cpu_s(clockid_t which)
{
    struct timespec t;
    clock_gettime(which, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static double thread_cpu_s(void) { return cpu_s(CLOCK_THREAD_CPUTIME_ID); }
static double process_cpu_s(void) { return cpu_s(CLOCK_PROCESS_CPUTIME_ID); }

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int digits(uint64_t v)
{
    int d = 1;
    while (v >= 10) v /= 10, d++;
    return d;
}

/* Bytes of the BEDPE line `repview pairs` prints for p (cli_pairs.c format_pair). */
static double line_bytes(const rv_seq_t *s, const size_t *name_len, const rv_pair_t *p)
{
    rv_pair_loc_t loc;
    rv_pair_locate(s, p, &loc);
    double b = (double)(name_len[loc.rec1] + name_len[loc.rec2]) + 2; /* names and their tabs */
    b += digits(loc.start1) + digits(loc.start1 + p->len) + digits(loc.start2) + digits(loc.start2 + p->len);
    b += 3 + 3 + digits(p->len) + 5 + 1; /* tabs, "\t.\t", score, strands, newline */
    if (!loc.same_record) b += 1;
    else b += loc.gap < 0 ? 1 + digits((uint64_t)-loc.gap) : digits((uint64_t)loc.gap);
    return b;
}

/* The sorted suffixes of codes [lo, hi) of plan p, as a job of a plan of its own,
 * into sc (as rv_bucket_job_sort_in). */
static int sort_codes(const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t lo, uint64_t hi, uint64_t suffixes,
                      rv_bucket_scratch_t *sc, const uint64_t **pos, const uint64_t **lcp, uint64_t *m)
{
    rv_bucket_job_t job = {.code_lo = lo, .code_hi = hi, .suffixes = suffixes};
    rv_bucket_plan_t one = *p;
    one.jobs = &job;
    one.n_jobs = 1;
    rv_bucket_plan_use_map(&one, NULL), rv_bucket_plan_use_lists(&one, NULL); /* they name p's jobs */
    one.own_map = one.own_lists = NULL;
    return rv_bucket_job_sort_in(s, &one, 0, sc, pos, lcp, m);
}

/* Run one block: its time, pairs and bytes. */
static int run_block(sampler_t *r, block_t *b)
{
    pf_sink_t *k = &r->sink;
    const uint64_t *pos = NULL, *lcp = NULL;
    uint64_t m = 0;
    double t0 = thread_cpu_s();
    int rc = r->listed ? rv_bucket_job_sort_in(r->s, r->listed, b->idx, r->sc, &pos, &lcp, &m)
                       : sort_codes(r->s, r->plan, b->lo, b->hi, b->suffixes, r->sc, &pos, &lcp, &m);
    if (rc == 0) rc = pf_walker_bucket(r->walker, pos, lcp, m);
    b->cpu_s = thread_cpu_s() - t0;
    uint64_t spilled = 0;
    for (uint64_t i = 0; i < k->nruns; i++) spilled += k->run_len[i];
    double bytes = 0;
    for (uint64_t i = 0; i < k->n; i++) {
        rv_pair_t p = k->buf[i];
        if (r->f->both) pf_decode(&p);
        bytes += line_bytes(r->s, r->name_len, &p);
    }
    b->pairs = k->n + spilled; /* the bytes of spilled pairs: as those in memory */
    b->bytes = k->n ? bytes * (double)b->pairs / (double)k->n : (double)b->pairs * LINE_GUESS;
    /* empty the sink for the next block, its buffer kept as a run's thread keeps
     * it (a spill file goes with a fresh sink) */
    if (k->fd < 0 && !k->nruns && !k->err) {
        k->n = 0;
        return rc;
    }
    uint64_t max = k->max;
    int with_len = k->with_len;
    pf_sink_free(k);
    pf_sink_init(k, max, r->s->n);
    k->with_len = with_len;
    if (r->ran) pf_sink_reserve(k, SINK_PAIRS); /* as grown as before (no room: it grows as it goes) */
    return rc;
}

/* Time k text passes (jobs of the empty, or the smallest, bucket) into r.  A
 * block's work is its time less one pass, and the blocks not run are estimated
 * from those that were: an error in the pass comes back once for every block, so
 * it is timed often, between the blocks (the mean, not the best: the blocks ran
 * under the same load). */
static void time_passes(sampler_t *r, int k)
{
    const rv_bucket_plan_t *p = r->plan;
    uint64_t c = 0;
    for (uint64_t i = 1; i < p->n_codes && p->count[c]; i++)
        if (p->count[i] < p->count[c]) c = i;
    for (int i = 0; i < k; i++) {
        const uint64_t *pos = NULL, *lcp = NULL;
        uint64_t m = 0;
        double t0 = thread_cpu_s();
        int rc = sort_codes(r->s, p, c, c + 1, p->count[c], r->sc, &pos, &lcp, &m);
        double t = thread_cpu_s() - t0;
        if (rc == 0) r->pass_sum += t, r->passes++;
    }
}

/* ---- blocks and the sample ---------------------------------------------------- */

/* Each code's bound on its pairs: two suffixes of a bucket pair only when their
 * left characters differ (or one has none: the text start, after a breaker), so a
 * bucket of c suffixes, n_a of them after symbol a, has at most
 * (c^2 - sum n_a^2) / 2 pairs.  A family of repeats fills many buckets, but only
 * those at the copies' starts and differences have such pairs: this, not c^2,
 * tells where they are.  Counted over the text in passes of LEFT_CELLS counters.
 * NULL when out of memory. */
enum { LEFT_CELLS = 1 << 24 };
static double *left_diverse(const rv_seq_t *s, const rv_bucket_plan_t *p)
{
    uint64_t sig = p->sigma, k = (uint64_t)p->k, top = p->n_codes / sig;
    uint64_t span = LEFT_CELLS / sig ? LEFT_CELLS / sig : 1; /* codes a pass */
    if (span > p->n_codes) span = p->n_codes;
    double *d = malloc(p->n_codes * sizeof *d);
    uint32_t *n = calloc(span * sig, sizeof *n);
    if (!d || !n) { free(d), free(n); return NULL; }
    for (uint64_t lo = 0; lo < p->n_codes; lo += span) {
        uint64_t hi = lo + span < p->n_codes ? lo + span : p->n_codes, code = 0, run = 0;
        memset(n, 0, span * sig * sizeof *n);
        for (uint64_t j = 0; j < s->n; j++) {
            uint8_t x = s->text[j];
            if (x == RV_BREAK) { run = 0, code = 0; continue; }
            if (run >= k) code -= (uint64_t)(s->text[j - k] - 1) * top; /* the symbol leaving */
            code = code * sig + (uint64_t)(x - 1);
            if (++run < k || code < lo || code >= hi) continue;
            uint64_t start = j + 1 - k;
            if (start > 0 && s->text[start - 1] != RV_BREAK) n[(code - lo) * sig + s->text[start - 1] - 1]++;
        }
        for (uint64_t c = lo; c < hi; c++) {
            double same = 0, all = (double)p->count[c];
            for (uint64_t a = 0; a < sig; a++) same += (double)n[(c - lo) * sig + a] * n[(c - lo) * sig + a];
            d[c] = (all * all - same) / 2;
        }
    }
    free(n);
    return d;
}

/* Cut the codes into blocks of about total / BLOCKS mass, a code's mass the sum of
 * its suffixes, its suffixes squared and its pair bound (div_of), each scaled to
 * the same total; *mass_of gets each code's. */
static block_t *make_blocks(const rv_bucket_plan_t *p, const double *div_of, double *mass_of, uint64_t *n_blocks)
{
    double s1 = 0, s2 = 0, sd = 0;
    for (uint64_t c = 0; c < p->n_codes; c++) {
        double x = (double)p->count[c];
        s1 += x, s2 += x * x, sd += div_of[c];
    }
    double l2 = s2 > 0 ? s1 / s2 : 0, ld = sd > 0 ? s1 / sd : 0, total = 0;
    for (uint64_t c = 0; c < p->n_codes; c++) {
        double x = (double)p->count[c];
        total += mass_of[c] = x + x * x * l2 + div_of[c] * ld;
    }
    double target = total / BLOCKS;
    uint64_t cap = 2 * BLOCKS + 2, nb = 0;
    block_t *b = calloc(cap, sizeof *b);
    if (!b) return NULL;
    block_t cur = {0};
    for (uint64_t c = 0; c < p->n_codes; c++) {
        if (!p->count[c]) continue;
        int alone = mass_of[c] >= target;
        if (alone && cur.suffixes) b[nb++] = cur, cur = (block_t){0};
        cur.alone = alone;
        if (!cur.suffixes) cur.lo = c;
        cur.hi = c + 1;
        cur.suffixes += p->count[c];
        cur.mass += mass_of[c];
        cur.div += div_of[c];
        if (alone || cur.mass >= target) b[nb++] = cur, cur = (block_t){0};
    }
    if (cur.suffixes) b[nb++] = cur;
    for (uint64_t i = 0; i < nb; i++) b[i].idx = i;
    *n_blocks = nb; /* each block but the last closes at >= target: at most 2 BLOCKS + 1 */
    return b;
}

typedef struct {
    double div;
    uint64_t lo, idx;
} by_div_t;

/* Order of the ordinary blocks for the sample: by pair bound, then by code. */
static int by_div(const void *x, const void *y)
{
    const by_div_t *a = x, *b = y;
    if (a->div != b->div) return a->div < b->div ? -1 : 1;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Mark `want` more of the ordinary blocks not run yet: a seeded systematic sample
 * along their order by pair bound (every step-th from a random start), so that
 * blocks rich and poor in pairs are both in it.  Their indexes go to todo;
 * returns how many, or UINT64_MAX when out of memory. */
static uint64_t sample_more(block_t *b, uint64_t nb, uint64_t want, uint64_t *seed, uint64_t *todo)
{
    uint64_t nr = 0;
    by_div_t *rest = malloc((nb ? nb : 1) * sizeof *rest);
    if (!rest) return UINT64_MAX;
    for (uint64_t i = 0; i < nb; i++)
        if (!b[i].alone && !b[i].run) rest[nr++] = (by_div_t){b[i].div, b[i].lo, i};
    qsort(rest, nr, sizeof *rest, by_div);
    if (want > nr) want = nr;
    double step = want ? (double)nr / (double)want : 0;
    double start = step * (double)(splitmix(seed) >> 11) / 9007199254740992.0; /* [0, step) */
    for (uint64_t i = 0; i < want; i++) {
        uint64_t k = (uint64_t)(start + step * (double)i);
        if (k >= nr) k = nr - 1;
        b[rest[k].idx].run = 1;
        todo[i] = rest[k].idx;
    }
    free(rest);
    return want;
}

/* ---- the schedule ------------------------------------------------------------- */

/* Wall seconds of the jobs of plan q on `slots` workers served largest first, each
 * job a text pass (scan_s) plus its codes' work (prefix sums cum_s, cum_p over
 * codes; the work times work_scale) and the sort of its pairs, a worker's first
 * job (its largest) touch seconds a suffix more for its buffers' first pages.
 * *most_pairs gets the largest number of pairs one slot made. */
static double makespan(const rv_bucket_plan_t *q, const double *cum_s, const double *cum_p, double scan_s,
                       double work_scale, double touch, uint64_t slots, int trace, double *most_pairs)
{
    uint64_t *order = rv_bucket_jobs_largest_first(q);
    double *free_at = calloc(slots, sizeof *free_at), *made = calloc(slots, sizeof *made), end = 0;
    char *warm = calloc(slots, 1);
    if (!order || !free_at || !made || !warm) { free(order), free(free_at), free(made), free(warm); return -1; }
    for (uint64_t i = 0; i < q->n_jobs; i++) {
        const rv_bucket_job_t *j = &q->jobs[order[i]];
        uint64_t w = 0;
        for (uint64_t k = 1; k < slots; k++)
            if (free_at[k] < free_at[w]) w = k;
        /* a part of a split bucket: its share of the bucket's suffixes */
        const double share = j->sub_hi && q->count[j->code_lo] ? (double)j->suffixes / (double)q->count[j->code_lo] : 1;
        double pairs = (cum_p[j->code_hi] - cum_p[j->code_lo]) * share;
        free_at[w] += scan_s + (cum_s[j->code_hi] - cum_s[j->code_lo]) * share * work_scale + pairs * WORKER_PAIR_S;
        if (!warm[w]) free_at[w] += touch * (double)j->suffixes, warm[w] = 1; /* its buffers' first pages */
        made[w] += pairs;
        if (trace) /* REPVIEW_ESTIMATE_TRACE=1: one worker's jobs, as predicted */
            fprintf(stderr, "estimate\tjob %llu\tsuffixes %llu\tpairs %.0f\tends at %.3f s\n", (unsigned long long)order[i],
                    (unsigned long long)j->suffixes, pairs, free_at[w]);
    }
    free(warm);
    *most_pairs = 0;
    for (uint64_t k = 0; k < slots; k++) {
        if (free_at[k] > end) end = free_at[k];
        if (made[k] > *most_pairs) *most_pairs = made[k];
    }
    free(order), free(free_at), free(made);
    return end;
}

static uint64_t pow2_at_least(uint64_t v)
{
    uint64_t p = 1;
    while (p < v) p <<= 1;
    return p;
}

/* How a job of the run of plan q finds its suffixes (rv_bucket_plan_make_map,
 * cli_mpi_share_map): in job lists where they fit the budget (no pass: the job
 * reads its own starts), else by a vector scan of a one-byte job map, else by the
 * rolling prefix code over the text (a two-byte map's scalar scan costs about as
 * much). */
enum { FIND_SCAN, FIND_MAP, FIND_MAP2, FIND_LISTS };
static int finder(const rv_seq_t *s, const rv_bucket_plan_t *q, const rv_estimate_opts_t *eo)
{
    const int find = rv_bucket_finder(q, s->n, rv_bucket_map_budget(eo->mem_budget));
    return find == RV_BUCKET_FIND_LISTS ? FIND_LISTS
         : find == RV_BUCKET_FIND_SCAN  ? FIND_SCAN
         : rv_bucket_map_width(q) == 1  ? FIND_MAP : FIND_MAP2;
}

/* A job's pass (a two-byte map's scalar scan costs about a text pass: scan_s,
 * already at the row's load; the map's scan was timed alone: slow is the row's
 * slowdown), and the filling of the map or lists on one thread, from a pass alone
 * (measured on the development machine: RESULTS.md). */
static double job_pass_s(int find, const rv_estimate_t *e, double scan_s, double slow)
{
    return find == FIND_LISTS ? 0 : find == FIND_MAP ? e->map_pass_s * slow : scan_s;
}

static double fill_s(int find, const rv_estimate_t *e, double scan_s)
{
    if (find == FIND_LISTS && e->listed) return e->fill_cpu_s; /* the sample's own lists, timed */
    return find == FIND_SCAN ? 0 : find == FIND_LISTS ? LISTS_FILL * scan_s : MAP_FILL * scan_s;
}

/* Peak bytes of the largest rank for plan q, w ranks of `threads` threads, each
 * phase at its own time (base: this process's bytes as the command read the
 * input, text and record bytes).
 * - one process (w = 1): it counts the codes on its -t threads (a counter a code
 *   for each thread, 4 bytes below 2^32 symbols), then works with the job lists
 *   or map;
 * - under mpirun: rank 0 encodes the text straight into the host's window (the
 *   text once, as in base; a text read serially is copied there: base + n), then
 *   counts; every rank that works holds the text and
 *   the job lists or map of the window, the counts, its
 *   jobs' arrays and its pairs' sort buffers.  The record table, names and heap
 *   of base stay in every rank; the bytes as read (raw) are dropped under mpirun. */
static uint64_t rank_peak(const rv_seq_t *s, const rv_bucket_plan_t *q, const rv_pairs_opts_t *o,
                          const rv_estimate_opts_t *eo, uint64_t base, int w, int threads, double most_pairs)
{
    uint64_t largest = 0;
    for (uint64_t j = 0; j < q->n_jobs; j++) if (q->jobs[j].suffixes > largest) largest = q->jobs[j].suffixes;
    uint64_t codes = q->n_codes * sizeof *q->count, jobs = q->n_jobs * sizeof *q->jobs;
    const int width = rv_bucket_map_width(q);
    const int find = finder(s, q, eo);
    const uint64_t map = find == FIND_LISTS ? rv_bucket_lists_bytes(q, s->n)
                       : find == FIND_SCAN ? 0 : s->n * (uint64_t)width;
    /* a job at its peak (its items and their radix copy; the walker needs less) */
    uint64_t job = rv_bucket_job_bytes(largest);
    uint64_t mem = o->mem_bytes ? o->mem_bytes : 256ull << 20;
    uint64_t sink = pow2_at_least((uint64_t)most_pairs + 1) * 2 * sizeof(rv_pair_t);
    if (sink > mem / (uint64_t)threads) sink = mem / (uint64_t)threads;
    /* one process counts on its -t threads, rank 0 under mpirun on every core */
    const uint64_t counter = s->n >= UINT32_MAX ? 8 : 4;
    const uint64_t counting = (uint64_t)(w == 1 ? threads : rv_default_threads()) * q->n_codes * counter;
    const uint64_t work = jobs + map + (uint64_t)threads * (job + sink);
    if (w == 1) return base + codes + (counting > work ? counting : work);
    const uint64_t raw = s->raw && base > s->glen ? s->glen : 0;
    const uint64_t copy = rv_seq_encodes_in_parallel(s->glen, 0) ? 0 : s->n;
    uint64_t peak = base + copy + MPI_RSS_BYTES;                    /* rank 0 shares the text */
    const uint64_t at = base - raw + MPI_RSS_BYTES + codes;        /* then, raw dropped */
    const uint64_t merging = jobs + (uint64_t)RV_PAIRS_BATCH * 160; /* rank 0's formatting buffers */
    const uint64_t most = counting > work ? (counting > merging ? counting : merging) : (work > merging ? work : merging);
    return at + most > peak ? at + most : peak;
}

static uint64_t resident_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long size = 0, res = 0;
    if (f) {
        if (fscanf(f, "%llu %llu", &size, &res) != 2) res = 0;
        fclose(f);
    }
    return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* ---- the estimate ------------------------------------------------------------- */

/* The blocks as the jobs of a plan of their own (*listed: plan's counts, not
 * owned, and jobs to free), whose job lists tell each its starts as the run's
 * lists tell a job its own: a block's time is then its work alone, where a pass
 * over the text in it (0.23-0.42 s at 250 Mbp, about a block's work) would be
 * timed apart and taken off, and its error would come back once for every
 * block.  Returns the lists (to free; e->listed,
 * fill_cpu_s, fill_side_s and cpu_inflation set), or NULL without room for them
 * (the run's budget for its own lists): the blocks then scan the text.
 *
 * A sixteenth of the text, from its middle (the ends of a chromosome are often
 * gaps), is filled on this thread and timed by its CPU clock: one process of -t 1
 * fills its lists (and counts its codes) on one thread, and the CPU seconds of T
 * threads side by side are no measure of that (1.9 times as many on a 16-core
 * H200 host).  The rest on every thread. */
static void *sample_lists(const rv_seq_t *s, const rv_bucket_plan_t *plan, const block_t *b, uint64_t nb,
                          uint64_t mem_budget, int T, rv_bucket_plan_t *listed, rv_estimate_t *e)
{
    *listed = *plan;
    listed->jobs = NULL, listed->own_count = NULL, listed->own_map = listed->own_lists = NULL;
    rv_bucket_plan_use_map(listed, NULL), rv_bucket_plan_use_lists(listed, NULL);
    if (!(listed->jobs = malloc((nb ? nb : 1) * sizeof *listed->jobs))) return NULL;
    for (uint64_t i = 0; i < nb; i++)
        listed->jobs[i] = (rv_bucket_job_t){.code_lo = b[i].lo, .code_hi = b[i].hi, .suffixes = b[i].suffixes};
    listed->n_jobs = nb;
    const uint64_t need = rv_bucket_lists_bytes(listed, s->n);
    void *lists = need && need <= rv_bucket_map_budget(mem_budget) ? malloc(need) : NULL;
    if (!lists) return NULL;
    const uint64_t B = RV_BUCKET_BLOCK, cut = (s->n / 16 + B - 1) / B * B;
    const uint64_t a = cut && cut < s->n ? s->n / 2 / B * B : 0;
    const uint64_t z = cut && a + cut < s->n ? a + cut : s->n, one = z - a;
    const double o0 = thread_cpu_s();
    int frc = rv_bucket_lists_fill(s, listed, lists, a, z, 1); /* one thread: this one */
    const double o1 = thread_cpu_s(), w1 = rv_now(), f0 = process_cpu_s();
    if (frc == 0 && a > 0) frc = rv_bucket_lists_fill(s, listed, lists, 0, a, T);
    if (frc == 0 && z < s->n) frc = rv_bucket_lists_fill(s, listed, lists, z, s->n, T);
    const double side_cpu = process_cpu_s() - f0, w2 = rv_now();
    if (frc != 0) {
        free(lists);
        return NULL;
    }
    /* the whole text on every thread at once: as the ranks of a host fill theirs */
    e->fill_side_s = one < s->n ? (w2 - w1) * (double)s->n / (double)(s->n - one) : 0;
    rv_bucket_plan_use_lists(listed, lists);
    e->listed = 1;
    e->fill_cpu_s = (o1 - o0) * (double)s->n / (double)one; /* all of it on one thread */
    /* how much the CPU seconds of every core at once overstate one thread's */
    const double rest = e->fill_cpu_s * (double)(s->n - one) / (double)s->n;
    e->cpu_inflation = one < s->n && rest > 0 && side_cpu > rest ? side_cpu / rest : 1;
    return lists;
}


typedef struct {
    double pairs, bytes, work_s;
} totals_t;

/* Threads that run the sample: every core, as many as the largest block's job
 * leaves room for in a quarter of the host's memory (each runs one block at a time). */
static int sample_threads(const block_t *b, uint64_t nb)
{
    uint64_t largest = 1;
    for (uint64_t i = 0; i < nb; i++) if (b[i].suffixes > largest) largest = b[i].suffixes;
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    const uint64_t room = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 4 : 1ull << 32;
    const uint64_t fit = room / (rv_bucket_job_bytes(largest) + (uint64_t)SINK_PAIRS * 2 * sizeof(rv_pair_t));
    int t = rv_default_threads();
    if ((uint64_t)t > fit) t = fit ? (int)fit : 1;
    return t;
}

typedef struct {
    uint64_t suffixes, idx;
} by_size_t;

static int by_size_desc(const void *x, const void *y)
{
    const by_size_t *a = x, *b = y;
    if (a->suffixes != b->suffixes) return a->suffixes > b->suffixes ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* todo in the order the threads take it: largest block first. */
static void order_largest_first(const block_t *b, uint64_t *todo, uint64_t n)
{
    by_size_t *o = malloc((n ? n : 1) * sizeof *o);
    if (!o) return; /* the order only evens out the threads' ends */
    for (uint64_t i = 0; i < n; i++) o[i] = (by_size_t){b[todo[i]].suffixes, todo[i]};
    qsort(o, n, sizeof *o, by_size_desc);
    for (uint64_t i = 0; i < n; i++) todo[i] = o[i].idx;
    free(o);
}

/* Run the chosen blocks on the samplers' threads, each block on one thread and
 * timed by that thread's CPU time (which grows with the other threads' memory
 * traffic: see contention), a text pass timed before every third block of a
 * thread. */
typedef struct {
    sampler_t *r;
    block_t *b;
    const uint64_t *todo;
    _Atomic int busy; /* blocks running */
} sample_run_t;

static void run_some(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    sample_run_t *x = ctx;
    sampler_t *r = &x->r[t];
    for (uint64_t i = lo; r->rc == 0 && i < hi; i++) {
        if (!r->listed && r->ran % 3 == 0) time_passes(r, 1);
        block_t *b = &x->b[x->todo[i]];
        b->busy = atomic_fetch_add(&x->busy, 1) + 1;
        /* A thread's first block runs twice and is timed the second time: the first
         * run faults in the pages of the thread's buffers, which a run's thread
         * does once for all its jobs.  On a 16-core host nearly every block of the
         * sample is some thread's first, and each pays it; what it costs is kept
         * apart (touch). */
        double cold = -1;
        if (!r->ran) {
            /* and its sink as large as a run's thread's has grown (the pages of a
             * sink that grew for a block of a million pairs tripled its time) */
            pf_sink_reserve(&r->sink, SINK_PAIRS); /* no room: it grows as it goes, as before */
            block_t c = *b;
            if (r->rc == 0) r->rc = run_block(r, &c);
            cold = c.cpu_s;
        }
        if (r->rc == 0) r->rc = run_block(r, b);
        /* the pages a suffix: from blocks whose pages outweigh the fixed part of a
         * first run (50 us a suffix for a text of ten symbols, 17-25 ns at 4-20 Mbp) */
        if (r->rc == 0 && cold >= 0 && b->suffixes >= TOUCH_MIN)
            r->touch_s += cold > b->cpu_s ? cold - b->cpu_s : 0, r->touch_suffixes += b->suffixes;
        r->ran++;
        atomic_fetch_sub(&x->busy, 1);
    }
}

static int run_sample(sampler_t *r, int threads, block_t *b, const uint64_t *todo, uint64_t n_todo)
{
    sample_run_t x = {r, b, todo, 0};
    if ((uint64_t)threads > n_todo) threads = n_todo ? (int)n_todo : 1;
    /* largest first (the blocks alone lead todo): the long ones do not come last */
    rv_parallel_dynamic(threads, n_todo, 1, run_some, &x);
    for (int t = 0; t < threads; t++)
        if (r[t].rc < 0) return -1;
    return 0;
}

/* How much slower the sample's blocks ran side by side than alone (e->contention,
 * e->side, e->scan_alone_s): the blocks run on every core at once, where they
 * contend for memory (a job reads its text and arrays with little reuse) and
 * their CPU times grow with it (1.0-1.4x on 16-core H100 hosts), while
 * one worker runs its jobs alone.  Up to CONT_BLOCKS of the blocks run, the one
 * of median time and its neighbours while they add up to CONT_S seconds, run
 * again on this thread with the others idle; the contention is the ratio of
 * their times side by side to alone (a text pass in both where the blocks scan), taken as 1
 * below 1.05 (the noise of single runs; on the 2-core development machine the
 * ratio came out 0.8-1.0) and at most 4; side is how many blocks were running as
 * those started, on average, and a text pass alone is taken as scan_s over the
 * contention.  (The longest blocks are not used: when the sample still made
 * fresh buffers for each block, one run again found the allocator's memory already
 * mapped and took a third of its first time.)  Without a sample of several
 * threads, or with
 * REPVIEW_TEST_CONTENTION=C (tests: contention C, side all the sample's threads),
 * nothing runs again. */
enum { CONT_BLOCKS = 3 };
#define CONT_S 2.0
#define CONT_NOISE 1.05
static void contention(sampler_t *r, const block_t *b, uint64_t nb, int threads, double scan_s, rv_estimate_t *e)
{
    e->contention = 1, e->side = 1, e->scan_alone_s = scan_s;
    const char *hook = getenv("REPVIEW_TEST_CONTENTION");
    if (hook && *hook) {
        double c = strtod(hook, NULL);
        e->contention = c >= 1 && c <= 4 ? c : 1, e->side = threads, e->scan_alone_s = scan_s / e->contention;
        return;
    }
    if (threads < 2) return;
    uint64_t n = 0, *ran = malloc((nb ? nb : 1) * sizeof *ran);
    if (!ran) return; /* no correction */
    for (uint64_t i = 0; i < nb; i++)
        if (b[i].run && b[i].cpu_s > 0) ran[n++] = i;
    /* by time (insertion: a few hundred blocks at most) */
    for (uint64_t i = 1; i < n; i++)
        for (uint64_t j = i; j > 0 && b[ran[j - 1]].cpu_s > b[ran[j]].cpu_s; j--) {
            uint64_t t = ran[j];
            ran[j] = ran[j - 1], ran[j - 1] = t;
        }
    static const int from_median[CONT_BLOCKS] = {0, -1, 1};
    double side = 0, alone = 0, busy = 0;
    int np = 0;
    for (int k = 0; k < CONT_BLOCKS && n; k++) {
        const int64_t i = (int64_t)(n / 2) + from_median[k];
        if (i < 0 || (uint64_t)i >= n || (k && side + b[ran[i]].cpu_s > CONT_S)) continue;
        block_t x = b[ran[i]]; /* a copy: the block's own measures stay those of the sample */
        if (run_block(r, &x) < 0) break;
        side += b[ran[i]].cpu_s, alone += x.cpu_s, busy += b[ran[i]].busy, np++;
    }
    free(ran);
    if (!np || !(alone > 0)) return;
    const double c = side / alone;
    if (c >= CONT_NOISE) e->contention = c > 4 ? 4 : c, e->scan_alone_s = scan_s / e->contention;
    e->side = busy / np;
}

/* Where between alone (0) and the sample's side by side (1) `at_once` jobs run:
 * straight from one job to as many as ran at once in the sample. */
double pf_estimate_between(uint64_t at_once, double side)
{
    if (at_once <= 1 || side <= 1) return at_once > 1 && side <= 1 ? 1 : 0;
    const double x = ((double)at_once - 1) / (side - 1);
    return x < 1 ? x : 1;
}

/* Totals and each code's share (cum_s, cum_p: prefix sums over the codes).  A
 * block not run is estimated by ratio from the sampled ones: its time to its
 * suffixes (sorting is near-linear there), its pairs to its pair bound, its bytes
 * to its pairs; a code gets its block's time by suffixes and its pairs by pair
 * bound.  *pairs_se: the ratio estimator's standard error (Cochran 6.9). */
static void extrapolate(const rv_bucket_plan_t *p, const block_t *b, uint64_t nb, const double *div_of,
                        double scan_s, double *cum_s, double *cum_p, totals_t *tot, double *pairs_se)
{
    double ds = 0, ss = 0, ys = 0, ts = 0, bs = 0;
    uint64_t n = 0, nr = 0;
    for (uint64_t i = 0; i < nb; i++) {
        if (b[i].alone) continue;
        nr++;
        if (b[i].run) n++, ds += b[i].div, ss += (double)b[i].suffixes, ys += (double)b[i].pairs, ts += b[i].cpu_s - scan_s, bs += b[i].bytes;
    }
    double rp = ds > 0 ? ys / ds : 0, rt = ss > 0 && ts > 0 ? ts / ss : 0, rb = ys > 0 ? bs / ys : 0;
    double e2 = 0;
    for (uint64_t i = 0; i < nb; i++)
        if (b[i].run && !b[i].alone) {
            double e = (double)b[i].pairs - rp * b[i].div;
            e2 += e * e;
        }
    *pairs_se = n > 1 && n < nr ? (double)nr * sqrt((1 - (double)n / (double)nr) / (double)n * e2 / (double)(n - 1)) : 0;
    memset(tot, 0, sizeof *tot);
    cum_s[0] = cum_p[0] = 0;
    uint64_t c = 0;
    for (uint64_t i = 0; i <= nb; i++) {
        uint64_t lo = i < nb ? b[i].lo : p->n_codes;
        for (; c < lo; c++) cum_s[c + 1] = cum_s[c], cum_p[c + 1] = cum_p[c]; /* empty codes */
        if (i == nb) break;
        double t = b[i].run ? b[i].cpu_s - scan_s : rt * (double)b[i].suffixes;
        if (t < 0) t = 0;
        double y = b[i].run ? (double)b[i].pairs : rp * b[i].div;
        double ks = b[i].suffixes ? t / (double)b[i].suffixes : 0, kp = b[i].div > 0 ? y / b[i].div : 0;
        for (; c < b[i].hi; c++) {
            cum_s[c + 1] = cum_s[c] + ks * (double)p->count[c];
            cum_p[c + 1] = cum_p[c] + kp * div_of[c];
        }
        tot->work_s += t;
        tot->pairs += y;
        tot->bytes += b[i].run ? b[i].bytes : rb * y;
    }
}

/* The plan q cut as mpirun with W CPU workers cuts it: cut again from p's counts. */
static int plan_for(const rv_bucket_plan_t *p, uint64_t slots, rv_bucket_plan_t *q)
{
    *q = *p;
    rv_bucket_plan_use_map(q, NULL), rv_bucket_plan_use_lists(q, NULL); /* p's, and for p's jobs */
    q->own_map = q->own_lists = NULL;
    q->jobs = malloc((p->n_jobs ? p->n_jobs : 1) * sizeof *q->jobs);
    if (!q->jobs) return rv_error("estimate", "out of memory");
    memcpy(q->jobs, p->jobs, p->n_jobs * sizeof *q->jobs);
    return rv_pairs_bucket_spread(q, slots, 0); /* CPU ranks */
}


static int predict(const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_estimate_opts_t *eo,
                   const rv_bucket_plan_t *plan, const double *cum_s, const double *cum_p, double scan_s,
                   uint64_t base, rv_estimate_t *e)
{
    int threads = eo->threads > 0 ? eo->threads : 1;
    int cores = rv_default_threads();
    /* the merge and its formatting run in chunks, one a core: rank 0 on every core,
     * one process on its -t threads; so does the count of the plan */
    const int own = threads < cores ? threads : cores;
    const double merge_one = e->pairs * MASTER_PAIR_S + e->out_bytes * FORMAT_BYTE_S;
    const double write_s = e->out_bytes * WRITE_BYTE_S; /* one thread writes what the cores format */
    const double merge_s = merge_one / cores > write_s ? merge_one / cores : write_s;
    const double merge1 = merge_one / own > write_s ? merge_one / own : write_s;
    const double count1 = e->plan_cpu_s / (e->cpu_inflation >= 1 ? e->cpu_inflation : 1); /* on one thread */
    const double plan1 = count1 / own > e->plan_s ? count1 / own : e->plan_s;
    e->rows = calloc((size_t)eo->workers, sizeof *e->rows);
    if (!e->rows) return rv_error("estimate", "out of memory");
    /* one process, one thread: the plan's jobs in turn, then the merge on one core */
    double most;
    const int find1 = finder(s, plan, eo);
    const double c = e->contention, pass1 = e->scan_alone_s;
    /* one job at a time: the sample's work at its time alone */
    const char *tr = getenv("REPVIEW_ESTIMATE_TRACE");
    double one = makespan(plan, cum_s, cum_p, job_pass_s(find1, e, pass1, 1), 1 / c, e->touch_s, 1, tr && *tr == '1',
                          &most);
    if (one < 0) return rv_error("estimate", "out of memory");
    e->jobs_s = one + fill_s(find1, e, pass1); /* the map or lists filled on one thread */
    e->merge_s = merge_one; /* on one core */
    e->plan_one_s = count1 > e->plan_s ? count1 : e->plan_s;
    e->serial_s = e->read_s + e->plan_one_s + e->jobs_s + e->merge_s;
    for (int w = 1; w <= eo->workers; w++) {
        rv_bucket_plan_t q;
        const uint64_t slots = (uint64_t)w * (uint64_t)threads;
        if (plan_for(plan, slots, &q) < 0) return -1;
        const int find = finder(s, &q, eo);
        /* as many jobs at once as slots (at most the cores): their slowdown, from
         * none alone to the sample's side by side */
        const uint64_t at_once = slots < (uint64_t)cores ? slots : (uint64_t)cores;
        const double x = pf_estimate_between(at_once, e->side), slow = 1 + (c - 1) * x;
        const double pass = pass1 + (scan_s - pass1) * x;
        double span = makespan(&q, cum_s, cum_p, job_pass_s(find, e, pass, slow), slow / c, e->touch_s, slots, 0, &most);
        /* the map or lists are filled by the ranks of the host in shares, at best
         * as fast as the sample's threads all at once filled the sample's */
        double fill = fill_s(find, e, pass1) * slow / (double)at_once;
        if (find == FIND_LISTS && e->listed && at_once > 1 && fill < e->fill_side_s) fill = e->fill_side_s;
        rv_estimate_row_t *r = &e->rows[w - 1];
        r->workers = w;
        /* one process reads on its -t threads; under mpirun rank 0 reads on every
         * core and shares the counts through one window a host */
        const double read = w == 1 ? e->read_s : e->read_ranks_s + WINDOW_BYTE_S * (double)s->n;
        r->wall_s = (w == 1 ? MPI_ONE_S : MPI_START_S + MPI_RANK_S * w) + read + (w == 1 ? plan1 : e->plan_s) +
                    (w > 1 ? PLAN_SEND_BYTE_S * (double)(q.n_codes * sizeof *q.count) : 0) + fill + span +
                    (w == 1 ? merge1 : merge_s);
        r->peak_bytes = rank_peak(s, &q, o, eo, base, w, threads, most);
        free(q.jobs);
        if (span < 0) return rv_error("estimate", "out of memory");
        r->speedup = e->rows[0].wall_s / r->wall_s;
        r->efficiency = r->speedup / w;
    }
    e->n_rows = eo->workers;
    return 0;
}

/* CPU seconds of one vector scan over n bytes, as a job's scan of a one-byte job
 * map costs (the text stands in for the map: 0xff is no symbol code). */
static const void *volatile map_probe; /* keeps the scan */

static double time_map_pass(const rv_seq_t *s)
{
    double best = 1e30;
    for (int i = 0; i < 3; i++) {
        const double t0 = thread_cpu_s();
        map_probe = memchr(s->text, 0xff, s->n);
        const double t = thread_cpu_s() - t0;
        if (t < best) best = t;
    }
    return best;
}

int rv_pairs_estimate(const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_estimate_opts_t *eo, rv_estimate_t *e)
{
    memset(e, 0, sizeof *e);
    if (!(eo->sample > 0 && eo->sample <= 1)) return rv_error("estimate", "the sample must be in (0, 1]");
    if (eo->workers < 1) return rv_error("estimate", "at least one worker");
    double t_start = rv_now();
    uint64_t base = resident_bytes();
    pf_filter_t f;
    if (pf_filter_init(&f, s, o) < 0) return -1;
    int threads = eo->threads > 0 ? eo->threads : 1;
    rv_pairs_opts_t all = *o; /* rank 0 plans on every core */
    all.threads = 0;
    rv_bucket_plan_t plan;
    double t0 = rv_now(), c0 = process_cpu_s();
    if (rv_pairs_bucket_plan(s, &all, eo->mem_budget, threads, &plan) < 0) return -1;
    e->plan_s = rv_now() - t0;
    e->plan_cpu_s = process_cpu_s() - c0;
    e->read_s = eo->read_s;
    e->read_ranks_s = eo->read_ranks_s > 0 ? eo->read_ranks_s : eo->read_s;
    double *mass_of = malloc(plan.n_codes * sizeof *mass_of), *div_of = left_diverse(s, &plan);
    double *cum_s = malloc((plan.n_codes + 1) * sizeof *cum_s), *cum_p = malloc((plan.n_codes + 1) * sizeof *cum_p);
    block_t *b = mass_of && div_of && cum_s && cum_p ? make_blocks(&plan, div_of, mass_of, &e->blocks) : NULL;
    uint64_t *todo = b ? malloc((e->blocks ? e->blocks : 1) * sizeof *todo) : NULL;
    int rc = todo ? 0 : rv_error("estimate", "out of memory");
    /* the buckets alone, then a sample of the ordinary blocks; while the pairs'
     * standard error is large, as many again (MORE_ROUNDS times at most) */
    uint64_t n_todo = 0, n_ord = 0, want = 0, x = eo->seed;
    for (uint64_t i = 0; rc == 0 && i < e->blocks; i++) {
        if (b[i].alone) b[i].run = 1, todo[n_todo++] = i;
        else n_ord++;
    }
    if (rc == 0) {
        want = eo->sample >= 1 ? n_ord : (uint64_t)ceil(eo->sample * (double)n_ord);
        if (want < MIN_SAMPLE) want = MIN_SAMPLE;
        uint64_t got = sample_more(b, e->blocks, want, &x, todo + n_todo);
        if (got == UINT64_MAX) rc = rv_error("estimate", "out of memory");
        n_todo += rc == 0 ? got : 0;
    }
    int T = b ? sample_threads(b, e->blocks) : 1;
    rv_bucket_plan_t listed;
    void *lists = rc == 0 ? sample_lists(s, &plan, b, e->blocks, eo->mem_budget, T, &listed, e) : NULL;
    if (rc != 0) listed.jobs = NULL;
    sampler_t *r = calloc((size_t)T, sizeof *r);
    size_t *name_len = malloc((s->n_rec ? s->n_rec : 1) * sizeof *name_len);
    if (rc == 0 && (!r || !name_len)) rc = rv_error("estimate", "out of memory");
    for (uint64_t i = 0; rc == 0 && i < s->n_rec; i++) name_len[i] = strlen(s->rec[i].name);
    for (int t = 0; rc == 0 && t < T; t++) {
        r[t] = (sampler_t){.s = s, .plan = &plan, .listed = e->listed ? &listed : NULL, .f = &f, .name_len = name_len};
        pf_sink_init(&r[t].sink, SINK_PAIRS, s->n);
        r[t].sink.with_len = f.both;
        if (!(r[t].walker = pf_walker_new(&f, &r[t].sink)) || !(r[t].sc = rv_bucket_scratch_new()))
            rc = rv_error("estimate", "out of memory");
    }
    if (rc == 0) time_passes(&r[0], 2);
    const double alone_sum = r ? r[0].pass_sum : 0; /* two passes with every other core idle */
    const int alone_n = r ? r[0].passes : 0;
    e->map_pass_s = rc == 0 ? time_map_pass(s) : 0;
    totals_t tot;
    double scan_s = 0;
    while (rc == 0) {
        order_largest_first(b, todo, n_todo);
        rc = run_sample(r, T, b, todo, n_todo);
        if (rc < 0) break;
        e->blocks_run += n_todo;
        e->rounds++;
        double pass_sum = 0;
        int passes = 0;
        for (int t = 0; t < T; t++) pass_sum += r[t].pass_sum, passes += r[t].passes;
        scan_s = passes ? pass_sum / passes : 0;
        /* a block of the lists made no pass over the text: its time is its work */
        extrapolate(&plan, b, e->blocks, div_of, e->listed ? 0 : scan_s, cum_s, cum_p, &tot, &e->pairs_se);
        uint64_t ord_run = 0;
        for (uint64_t i = 0; i < e->blocks; i++) ord_run += b[i].run && !b[i].alone;
        e->exact = ord_run == n_ord;
        if (e->exact || e->rounds > MORE_ROUNDS || !(e->pairs_se > SE_MORE * tot.pairs)) break;
        if ((n_todo = sample_more(b, e->blocks, want, &x, todo)) == UINT64_MAX) rc = rv_error("estimate", "out of memory");
    }
    double touch = 0, touched = 0;
    for (int t = 0; r && t < T; t++) touch += r[t].touch_s, touched += (double)r[t].touch_suffixes;
    e->touch_s = touched > 0 ? touch / touched : 0;
    const char *tr = getenv("REPVIEW_ESTIMATE_TRACE"); /* diagnostics: each block run */
    for (uint64_t i = 0; rc == 0 && tr && *tr == '1' && i < e->blocks; i++)
        if (b[i].run)
            fprintf(stderr, "estimate\tblock %llu\tsuffixes %llu\tpairs %llu\t%.3f s\t%s\t%d at once\n",
                    (unsigned long long)i, (unsigned long long)b[i].suffixes, (unsigned long long)b[i].pairs,
                    b[i].cpu_s, b[i].alone ? "alone" : "sampled", b[i].busy);
    e->contention = 1, e->side = 1, e->scan_alone_s = scan_s;
    if (rc == 0) contention(&r[0], b, e->blocks, T, scan_s, e);
    /* with lists the passes were timed before the sample, alone: side by side they
     * take the contention's slowdown */
    if (e->listed) e->scan_alone_s = scan_s, scan_s *= e->contention;
    /* Without lists the blocks' passes, timed side by side, against the two timed
     * alone tell how much every core at once inflates a pass over the text, as
     * the plan's count is one (else plan_one_s would be the count's CPU seconds
     * on every core, up to twice one thread's). */
    if (!e->listed && alone_n > 0 && alone_sum > 0) {
        double side_sum = 0;
        int n_all = 0;
        for (int t = 0; r && t < T; t++) side_sum += r[t].pass_sum, n_all += r[t].passes;
        if (n_all > alone_n) {
            const double ratio = ((side_sum - alone_sum) / (n_all - alone_n)) / (alone_sum / alone_n);
            e->cpu_inflation = ratio > 1 ? ratio : 1;
        }
    }
    for (int t = 0; r && t < T; t++) {
        rv_bucket_scratch_free(r[t].sc);
        pf_walker_free(r[t].walker);
        pf_sink_free(&r[t].sink);
    }
    free(r);
    free(name_len);
    if (rc == 0) {
        uint64_t counted = 0;
        for (uint64_t i = 0; i < e->blocks; i++) counted += b[i].run ? b[i].pairs : 0;
        e->pairs = e->exact ? (double)counted : tot.pairs;
        e->pairs_counted = counted;
        e->out_bytes = tot.bytes + HEADER_BYTES;
        double run_mass = 0, all_mass = 0;
        for (uint64_t i = 0; i < e->blocks; i++) all_mass += b[i].mass, run_mass += b[i].run ? b[i].mass : 0;
        e->share_run = all_mass > 0 ? run_mass / all_mass : 1;
        e->scan_s = scan_s;
        e->buckets = 0;
        for (uint64_t c = 0; c < plan.n_codes; c++) e->buckets += plan.count[c] > 0;
        rc = predict(s, o, eo, &plan, cum_s, cum_p, scan_s, base, e);
    }
    e->estimate_s = rv_now() - t_start;
    free(todo), free(b), free(mass_of), free(div_of), free(cum_s), free(cum_p);
    free(listed.jobs), free(lists);
    rv_bucket_plan_free(&plan);
    if (rc < 0) rv_estimate_free(e);
    return rc;
}

void rv_estimate_free(rv_estimate_t *e)
{
    free(e->rows);
    e->rows = NULL;
    e->n_rows = 0;
}
