/* buckets_plan.c — prefix buckets of the suffixes, planned from the text alone
 * (buckets.h; RACE §5, ERA's vertical partitioning): the plan's
 * counts, its jobs, the job map and lists that say where a job's starts lie, the
 * order and the slices of the jobs, and the plan's hash.
 *
 * A bucket is named by the code of its first k symbols, sum of (c - 1) sigma^i,
 * most significant first, so code order is suffix order.  The plan counts every
 * code in one threaded pass and cuts jobs of consecutive codes; a job's suffixes
 * are collected and sorted in buckets_sort.c, and buckets larger than a job may
 * be are split in buckets_split.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "repview/buckets.h"
#include "repview/common.h"
#include "repview/gpu.h"
#include "repview/part.h"
#include "buckets_internal.h"
#include "base/internal.h"

_Static_assert(MAX_CODES_LOG2 <= 32, "codes are 32-bit in the job finder");

/* ---- plan ----------------------------------------------------------------------- */

/* Each thread counts into an array of its own: 32-bit counters while the text has
 * fewer than 2^32 symbols (half the cache lines of 64-bit ones for the random
 * increments, which are what the pass costs), 64-bit ones beyond. */
typedef struct {
    const rv_seq_t *s;
    const rv_bucket_plan_t *p;
    void **count; /* count[t]: thread t's counts */
    int wide;     /* 64-bit counters */
    uint64_t *total;
    uint64_t chunk;
    int threads;
} count_job_t;

/* The threads' counts of codes [lo, hi) added into total. */
static void sum_range(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    const count_job_t *c = ctx;
    (void)t;
    for (int k = 0; k < c->threads; k++) {
        if (c->wide) {
            const uint64_t *x = c->count[k];
            for (uint64_t i = lo; i < hi; i++) c->total[i] += x[i];
        } else {
            const uint32_t *x = c->count[k];
            for (uint64_t i = lo; i < hi; i++) c->total[i] += x[i];
        }
    }
}

static void count_range(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    const count_job_t *c = ctx;
    uint64_t *c64 = c->count[t];
    uint32_t *c32 = c->count[t];
    for (uint64_t i = lo; i < hi; i++) {
        uint64_t a = i * c->chunk, b = a + c->chunk < c->s->n ? a + c->chunk : c->s->n, start, code;
        code_iter_t it;
        ci_init(&it, c->s, c->p, a, b);
        if (c->wide)
            while (ci_next(&it, &start, &code)) c64[code]++;
        else
            while (ci_next(&it, &start, &code)) c32[code]++;
    }
}

/* The plan takes the counts (its own) and cuts its jobs. */
static int plan_done(rv_bucket_plan_t *p, uint64_t *total, uint64_t job_suffixes)
{
    for (uint64_t c = 0; c < p->n_codes; c++) {
        p->suffixes += total[c];
        if (total[c] > p->largest) p->largest = total[c];
    }
    p->count = p->own_count = total;
    p->job_cap = job_suffixes;
    return rv_bucket_plan_cut(p, job_suffixes);
}

/* The plan's alphabet and k: the longest prefix up to min_len whose codes fit
 * MAX_CODES_LOG2. */
static void plan_shape(const rv_seq_t *s, uint64_t min_len, rv_bucket_plan_t *p)
{
    memset(p, 0, sizeof *p);
    p->sigma = s->sigma > 0 ? (uint64_t)s->sigma : 1;
    p->k = 1;
    p->n_codes = p->sigma;
    while ((uint64_t)p->k < min_len && p->n_codes * p->sigma <= (1ull << MAX_CODES_LOG2)) {
        p->k++;
        p->n_codes *= p->sigma;
    }
}

/* Every code's suffixes into total (zeroed, n_codes of them): on the device when it
 * holds the text, else in one threaded pass. */
static int count_codes(const rv_seq_t *s, const rv_bucket_plan_t *p, int threads, uint64_t *total)
{
    if (threads <= 0) threads = rv_default_threads();
    if (rv_bucket_gpu_holds(s)) { /* the device holds the text: it counts */
        if (rv_gpu_buckets_count(p->sigma, p->k, p->n_codes, total) == 0) return 0;
        const char *tr = getenv("REPVIEW_GPU_TRACE");
        if (tr && *tr && *tr != '0') fprintf(stderr, "gpu bucket count failed (%s): counted on the CPU\n", rv_last_error());
        memset(total, 0, p->n_codes * sizeof *total);
    }
    uint64_t chunk = 1u << 22, nchunks = (s->n + chunk - 1) / chunk;
    if ((uint64_t)threads > nchunks) threads = nchunks ? (int)nchunks : 1;
    const int wide = s->n >= UINT32_MAX;
    void **count = calloc((size_t)threads, sizeof *count);
    int ok = count != NULL;
    for (int t = 0; ok && t < threads; t++) ok = (count[t] = calloc(p->n_codes, wide ? 8 : 4)) != NULL;
    if (ok) {
        count_job_t c = {s, p, count, wide, total, chunk, 1};
        rv_parallel_dynamic(threads, nchunks, 1, count_range, &c);
        c.threads = threads;
        rv_parallel_for(threads, p->n_codes, sum_range, &c); /* 15 x 4 Mi adds, too many for one thread */
    }
    for (int t = 0; count && t < threads; t++) free(count[t]);
    free(count);
    return ok ? 0 : rv_error("buckets", "out of memory");
}

int rv_bucket_plan(const rv_seq_t *s, uint64_t min_len, uint64_t job_suffixes, int threads,
                   rv_bucket_plan_t *p)
{
    uint64_t *counts, n_codes;
    if (rv_bucket_count(s, min_len, threads, &counts, &n_codes) < 0) return memset(p, 0, sizeof *p), -1;
    return rv_bucket_plan_counted(s, min_len, job_suffixes, counts, n_codes, p);
}

int rv_bucket_count(const rv_seq_t *s, uint64_t min_len, int threads, uint64_t **counts, uint64_t *n_codes)
{
    rv_bucket_plan_t p;
    *counts = NULL, *n_codes = 0;
    if (min_len < 1) return rv_error("buckets", "minimum length must be at least 1");
    plan_shape(s, min_len, &p);
    uint64_t *total = calloc(p.n_codes, sizeof *total);
    if (!total) return rv_error("buckets", "out of memory");
    if (count_codes(s, &p, threads, total) < 0) {
        free(total);
        return -1;
    }
    *counts = total, *n_codes = p.n_codes;
    return 0;
}

int rv_bucket_plan_counted(const rv_seq_t *s, uint64_t min_len, uint64_t job_suffixes, uint64_t *counts,
                           uint64_t n_codes, rv_bucket_plan_t *p)
{
    if (min_len < 1) return memset(p, 0, sizeof *p), free(counts), rv_error("buckets", "minimum length must be at least 1");
    plan_shape(s, min_len, p);
    uint64_t sum = 0;
    for (uint64_t c = 0; c < n_codes && n_codes == p->n_codes; c++) sum += counts[c];
    if (n_codes != p->n_codes || sum > s->n) { /* counts of another text or length */
        free(counts);
        memset(p, 0, sizeof *p);
        return rv_error("buckets", "the counts do not fit the text");
    }
    return plan_done(p, counts, job_suffixes);
}

/* The size the next job aims at when `left` suffixes are not in a job yet: most
 * (fixed jobs: workers = 0), else the tapered size of rv_bucket_plan_cut_tapered. */
static uint64_t job_target(uint64_t left, uint64_t workers, uint64_t most, uint64_t least)
{
    if (!workers) return most;
    const uint64_t t = left / workers;
    return t > most ? most : t < least ? least : t;
}

/* The jobs being cut, and where the next job's target comes from. */
typedef struct {
    rv_bucket_job_t *jobs;
    uint64_t n, cap, left, workers, most, least, target;
} cutting_t;

static int push_job(cutting_t *u, rv_bucket_job_t job)
{
    if (u->n == u->cap) {
        rv_bucket_job_t *g = realloc(u->jobs, (u->cap *= 2) * sizeof *g);
        if (!g) return -1;
        u->jobs = g;
    }
    u->jobs[u->n++] = job;
    u->left = u->left > job.suffixes ? u->left - job.suffixes : 0;
    u->target = job_target(u->left, u->workers, u->most, u->least);
    return 0;
}

/* The jobs of split bucket sp: its consecutive groups up to the target, the sub-codes
 * between two jobs given to the later (so that they cover [0, sigma'^depth)); all
 * of them in one job is the bucket's whole. */
static int cut_split(const rv_bucket_plan_t *p, const rv_bucket_split_t *sp, cutting_t *u)
{
    const rv_bucket_unit_t *g = p->units;
    uint64_t codes = 1, acc = 0, sub_lo = 0;
    for (uint64_t i = 0; i < sp->depth; i++) codes *= p->sigma + 1;
    if (p->count[sp->code] <= u->target)
        return push_job(u, (rv_bucket_job_t){sp->code, sp->code + 1, p->count[sp->code], 0, 0, 0, 0});
    for (uint64_t i = sp->unit_lo; i <= sp->unit_hi; i++) {
        const uint64_t m = i < sp->unit_hi ? g[i].suffixes : 0;
        if (acc && (i == sp->unit_hi || acc + m > u->target)) {
            const uint64_t sub_hi = i < sp->unit_hi ? g[i].sub : codes;
            if (push_job(u, (rv_bucket_job_t){sp->code, sp->code + 1, acc, (uint32_t)sub_lo, (uint32_t)sub_hi,
                                             (uint32_t)sp->depth, 0}) < 0)
                return -1;
            sub_lo = sub_hi, acc = 0;
        }
        acc += m;
    }
    return 0;
}

/* Jobs of consecutive codes in code order, each closed before it would pass its
 * target (a bucket larger than that is a job of its own, or the jobs of its groups
 * when it was split). */
static int cut_jobs(rv_bucket_plan_t *p, uint64_t workers, uint64_t most, uint64_t least)
{
    if (most < 1) most = 1;
    if (least > most) least = most;
    cutting_t u = {malloc(16 * sizeof *u.jobs), 0, 16, p->suffixes, workers, most, least, 0};
    uint64_t acc = 0, lo = 0, next_split = 0;
    int rc = u.jobs ? 0 : -1;
    u.target = job_target(u.left, workers, most, least);
    for (uint64_t c = 0; rc == 0 && c <= p->n_codes; c++) {
        const rv_bucket_split_t *sp =
            next_split < p->n_split && p->split[next_split].code == c ? &p->split[next_split] : NULL;
        uint64_t m = c < p->n_codes ? p->count[c] : 0;
        if (c == p->n_codes || sp || (acc && acc + m > u.target)) { /* close [lo, c) */
            if (acc) rc = push_job(&u, (rv_bucket_job_t){lo, c, acc, 0, 0, 0, 0});
            lo = c, acc = 0;
        }
        if (sp) {
            if (rc == 0) rc = cut_split(p, sp, &u);
            next_split++;
            continue;
        }
        if (!acc) lo = c;
        acc += m;
    }
    if (rc < 0) {
        free(u.jobs);
        return rv_error("buckets", "out of memory");
    }
    free(p->jobs);
    p->jobs = u.jobs;
    p->n_jobs = u.n;
    p->map = NULL, p->lists = NULL; /* they name the old jobs */
    p->map_width = 0;
    free(p->own_map), free(p->own_lists);
    p->own_map = NULL, p->own_lists = NULL;
    return 0;
}

int rv_bucket_plan_cut(rv_bucket_plan_t *p, uint64_t job_suffixes)
{
    return cut_jobs(p, 0, job_suffixes, job_suffixes);
}

int rv_bucket_plan_cut_tapered(rv_bucket_plan_t *p, uint64_t workers, uint64_t most, uint64_t least)
{
    return cut_jobs(p, workers ? workers : 1, most, least);
}

/* ---- the job map ------------------------------------------------------------------ */

int rv_bucket_map_width(const rv_bucket_plan_t *p)
{
    return p->n_jobs < 0xff ? 1 : p->n_jobs < RV_BUCKET_NO_JOB ? 2 : 0;
}

/* The job of a code, without a table of every code (4 Mi codes: 8 MB, a cache
 * miss at every position of the text, which would be most of a fill): a table of cells
 * of 2^shift codes holding the first job that may hold a code of the cell, then the
 * jobs' first codes from there (jobs are consecutive code ranges; a cell rarely
 * holds the start of another). */
enum { FINDER_CELLS_LOG2 = 15 };
typedef struct {
    uint16_t *first;      /* per cell */
    uint32_t *lo, *hi;    /* each job's codes [lo, hi) */
    uint64_t jobs;
    int shift;
    const rv_bucket_job_t *job; /* the plan's, when some job is a part of a bucket; else NULL */
} job_finder_t;

static void finder_free(job_finder_t *f) { free(f->first), free(f->lo), free(f->hi); }

static int finder_init(job_finder_t *f, const rv_bucket_plan_t *p)
{
    *f = (job_finder_t){0};
    f->jobs = p->n_jobs;
    while ((p->n_codes - 1) >> f->shift >= (1u << FINDER_CELLS_LOG2)) f->shift++;
    const uint64_t cells = ((p->n_codes - 1) >> f->shift) + 1;
    f->first = malloc(cells * sizeof *f->first);
    f->lo = malloc((p->n_jobs + 1) * sizeof *f->lo);
    f->hi = malloc((p->n_jobs + 1) * sizeof *f->hi);
    if (!f->first || !f->lo || !f->hi) {
        finder_free(f);
        return rv_error("buckets", "out of memory");
    }
    for (uint64_t j = 0; j < p->n_jobs; j++) {
        f->lo[j] = (uint32_t)p->jobs[j].code_lo, f->hi[j] = (uint32_t)p->jobs[j].code_hi;
        if (p->jobs[j].sub_hi) f->job = p->jobs;
    }
    for (uint64_t c = 0, j = 0; c < cells; c++) {
        while (j + 1 < p->n_jobs && f->lo[j + 1] <= c << f->shift) j++;
        f->first[c] = (uint16_t)j;
    }
    return 0;
}

static inline uint64_t find_job(const job_finder_t *f, uint64_t code)
{
    uint64_t j = f->first[code >> f->shift];
    while (j + 1 < f->jobs && f->lo[j + 1] <= code) j++;
    return j < f->jobs && code >= f->lo[j] && code < f->hi[j] ? j : RV_BUCKET_NO_JOB;
}

/* The job of the suffix at `start` whose code's job is j (find_job): j itself,
 * or, when j is a part of a split bucket (the last of its parts: they share the
 * code), the part its sub-code falls in, by bisection. */
static uint64_t find_part(const job_finder_t *f, const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t start,
                          uint64_t j)
{
    if (!f->job || j == RV_BUCKET_NO_JOB || !f->job[j].sub_hi) return j;
    const rv_bucket_job_t *v = f->job;
    const uint64_t code = v[j].code_lo;
    const uint64_t sub = sub_code_at(s->text, s->n, start + (uint64_t)p->k, v[j].sub_depth, p->sigma);
    uint64_t a = 0, b = j; /* the first job not before the suffix: of its code, sub_hi > sub */
    while (a < b) {
        const uint64_t mid = a + (b - a) / 2;
        if (v[mid].code_lo < code || (v[mid].code_lo == code && v[mid].sub_hi <= sub)) a = mid + 1;
        else b = mid;
    }
    return a;
}

typedef struct {
    const rv_seq_t *s;
    const rv_bucket_plan_t *p;
    const job_finder_t *f;
    void *map;
    uint64_t lo, hi, chunk;
    int width;
} map_job_t;

static void map_range(void *ctx, uint64_t first, uint64_t last, int t)
{
    const map_job_t *m = ctx;
    (void)t;
    for (uint64_t i = first; i < last; i++) {
        uint64_t a = m->lo + i * m->chunk, b = a + m->chunk < m->hi ? a + m->chunk : m->hi, start, code;
        code_iter_t it;
        if (m->width == 1) memset((uint8_t *)m->map + a, 0xff, b - a);
        else for (uint64_t j = a; j < b; j++) ((uint16_t *)m->map)[j] = RV_BUCKET_NO_JOB;
        ci_init(&it, m->s, m->p, a, b);
        if (m->f->job) /* parts of split buckets */
            while (ci_next(&it, &start, &code)) {
                const uint64_t j = find_part(m->f, m->s, m->p, start, find_job(m->f, code));
                if (m->width == 1) ((uint8_t *)m->map)[start] = (uint8_t)j;
                else ((uint16_t *)m->map)[start] = (uint16_t)j;
            }
        else if (m->width == 1)
            while (ci_next(&it, &start, &code)) ((uint8_t *)m->map)[start] = (uint8_t)find_job(m->f, code);
        else
            while (ci_next(&it, &start, &code)) ((uint16_t *)m->map)[start] = (uint16_t)find_job(m->f, code);
    }
}

int rv_bucket_map_fill(const rv_seq_t *s, const rv_bucket_plan_t *p, void *map, uint64_t lo, uint64_t hi,
                       int threads)
{
    int width = rv_bucket_map_width(p);
    if (!width) return rv_error("buckets", "too many jobs for a job map");
    if (hi > s->n) hi = s->n;
    if (lo >= hi) return 0;
    job_finder_t f;
    if (finder_init(&f, p) < 0) return -1;
    if (threads <= 0) threads = rv_default_threads();
    map_job_t m = {s, p, &f, map, lo, hi, 1u << 20, width};
    rv_parallel_dynamic(threads, (hi - lo + m.chunk - 1) / m.chunk, 1, map_range, &m);
    finder_free(&f);
    return 0;
}

void rv_bucket_plan_use_map(rv_bucket_plan_t *p, const void *map)
{
    if (map) p->lists = NULL;
    p->map = map;
    p->map_width = map ? rv_bucket_map_width(p) : 0;
    if (!p->map_width) p->map = NULL;
}

uint64_t rv_bucket_map_budget(uint64_t mem_budget) { return (mem_budget ? mem_budget : 1ull << 30) / 2; }

/* ---- the job lists ---------------------------------------------------------------- */

uint64_t rv_bucket_lists_bytes(const rv_bucket_plan_t *p, uint64_t n)
{
    if (p->n_jobs < 2 || p->n_jobs > RV_BUCKET_LIST_JOBS) return 0;
    return table_at(n) + n_blocks(n) * (p->n_jobs + 1) * sizeof(uint32_t);
}

typedef struct {
    const rv_seq_t *s;
    const rv_bucket_plan_t *p;
    const job_finder_t *f;
    uint16_t *starts;
    uint32_t *table;
    uint16_t *scratch; /* each thread's: 2 x RV_BUCKET_BLOCK (offset, job), then counters */
    uint64_t first;    /* the first block */
} lists_job_t;

static void lists_range(void *ctx, uint64_t first, uint64_t last, int t)
{
    const lists_job_t *l = ctx;
    const uint64_t jobs = l->p->n_jobs, n = l->s->n;
    uint16_t *at = l->scratch + (uint64_t)t * (2 * RV_BUCKET_BLOCK + 2 * (jobs + 1)), *job = at + RV_BUCKET_BLOCK;
    uint32_t *next = (uint32_t *)(job + RV_BUCKET_BLOCK);
    for (uint64_t i = first; i < last; i++) {
        const uint64_t b = l->first + i, a = b * RV_BUCKET_BLOCK, e = a + RV_BUCKET_BLOCK < n ? a + RV_BUCKET_BLOCK : n;
        uint32_t *row = l->table + b * (jobs + 1);
        uint64_t start, code, got = 0;
        code_iter_t it;
        memset(row, 0, (jobs + 1) * sizeof *row);
        ci_init(&it, l->s, l->p, a, e);
        while (ci_next(&it, &start, &code)) {
            const uint64_t j = find_part(l->f, l->s, l->p, start, find_job(l->f, code));
            if (j == RV_BUCKET_NO_JOB) continue; /* a plan of another text: its jobs fail on the counts */
            at[got] = (uint16_t)(start - a), job[got++] = j;
            row[j + 1]++;
        }
        for (uint64_t j = 0; j < jobs; j++) row[j + 1] += row[j], next[j] = row[j];
        for (uint64_t r = 0; r < got; r++) l->starts[a + next[job[r]]++] = at[r];
    }
}

int rv_bucket_lists_fill(const rv_seq_t *s, const rv_bucket_plan_t *p, void *lists, uint64_t lo, uint64_t hi,
                         int threads)
{
    if (!rv_bucket_lists_bytes(p, s->n)) return rv_error("buckets", "no job lists for %llu jobs",
                                                          (unsigned long long)p->n_jobs);
    if (hi > s->n) hi = s->n;
    if (lo >= hi) return 0;
    if (lo % RV_BUCKET_BLOCK || (hi < s->n && hi % RV_BUCKET_BLOCK))
        return rv_error("buckets", "job lists are filled in whole blocks");
    if (threads <= 0) threads = rv_default_threads();
    const uint64_t blocks = n_blocks(hi) - lo / RV_BUCKET_BLOCK;
    if ((uint64_t)threads > blocks) threads = (int)blocks;
    job_finder_t f;
    if (finder_init(&f, p) < 0) return -1;
    uint16_t *scratch = malloc((uint64_t)threads * (2 * RV_BUCKET_BLOCK + 2 * (p->n_jobs + 1)) * sizeof *scratch);
    if (!scratch) {
        finder_free(&f);
        return rv_error("buckets", "out of memory");
    }
    lists_job_t l = {s, p, &f, lists, (uint32_t *)((uint8_t *)lists + table_at(s->n)), scratch, lo / RV_BUCKET_BLOCK};
    rv_parallel_dynamic(threads, blocks, 1, lists_range, &l);
    finder_free(&f);
    free(scratch);
    return 0;
}

void rv_bucket_plan_use_lists(rv_bucket_plan_t *p, const void *lists)
{
    if (lists) p->map = NULL, p->map_width = 0;
    p->lists = lists;
}

int rv_bucket_prefer_lists(const rv_bucket_plan_t *p, uint64_t n, uint64_t bytes)
{
    const uint64_t need = rv_bucket_lists_bytes(p, n);
    return need && need <= bytes && p->n_jobs >= RV_BUCKET_LIST_MIN_JOBS;
}

int rv_bucket_finder(const rv_bucket_plan_t *p, uint64_t n, uint64_t bytes)
{
    const int width = rv_bucket_map_width(p);
    /* one job reads the text once either way */
    if (p->n_jobs < 2) return RV_BUCKET_FIND_SCAN;
    if (rv_bucket_prefer_lists(p, n, bytes)) return RV_BUCKET_FIND_LISTS;
    return width && n <= bytes / (uint64_t)width ? RV_BUCKET_FIND_MAP : RV_BUCKET_FIND_SCAN;
}

int rv_bucket_plan_make_map(rv_bucket_plan_t *p, const rv_seq_t *s, uint64_t bytes, int threads)
{
    int width = rv_bucket_map_width(p), find = rv_bucket_finder(p, s->n, bytes);
    rv_bucket_plan_use_map(p, NULL), rv_bucket_plan_use_lists(p, NULL);
    free(p->own_map), free(p->own_lists);
    p->own_map = p->own_lists = NULL;
    /* the GPU's jobs find their starts on the device */
    if (find == RV_BUCKET_FIND_SCAN || rv_bucket_gpu_holds(s)) return 0;
    void *lists = find == RV_BUCKET_FIND_LISTS ? malloc(rv_bucket_lists_bytes(p, s->n)) : NULL;
    if (lists) {
        if (rv_bucket_lists_fill(s, p, lists, 0, s->n, threads) < 0) { free(lists); return -1; }
        rv_bucket_plan_use_lists(p, lists);
        p->own_lists = lists;
        return 0;
    }
    if (!width || s->n > bytes / (uint64_t)width) return 0; /* lists that did not fit the heap: a map if it fits */
    void *map = malloc(s->n * (uint64_t)width);
    if (!map) return 0; /* the jobs scan the text */
    if (rv_bucket_map_fill(s, p, map, 0, s->n, threads) < 0) { free(map); return -1; }
    rv_bucket_plan_use_map(p, map);
    p->own_map = map;
    return 0;
}

void rv_bucket_plan_free(rv_bucket_plan_t *p)
{
    free(p->split), free(p->units);
    free(p->own_lists);
    free(p->own_map);
    free(p->jobs);
    free(p->own_count);
    memset(p, 0, sizeof *p);
}

typedef struct {
    uint64_t suffixes, code, idx;
} order_t;

static int larger_first(const void *a, const void *b)
{
    const order_t *x = a, *y = b;
    if (x->suffixes != y->suffixes) return x->suffixes > y->suffixes ? -1 : 1;
    if (x->code != y->code) return x->code < y->code ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx; /* parts of one bucket: in order */
}

uint64_t *rv_bucket_jobs_largest_first(const rv_bucket_plan_t *p)
{
    order_t *o = malloc((p->n_jobs ? p->n_jobs : 1) * sizeof *o);
    uint64_t *idx = malloc((p->n_jobs ? p->n_jobs : 1) * sizeof *idx);
    if (!o || !idx) { free(o); free(idx); return NULL; }
    for (uint64_t j = 0; j < p->n_jobs; j++) o[j] = (order_t){p->jobs[j].suffixes, p->jobs[j].code_lo, j};
    qsort(o, p->n_jobs, sizeof *o, larger_first);
    for (uint64_t j = 0; j < p->n_jobs; j++) idx[j] = o[j].idx;
    free(o);
    return idx;
}

uint64_t rv_bucket_plan_hash(const rv_bucket_plan_t *p)
{
    /* the three words of each job, then the parts' fields where some bucket was
     * split (a plan without split buckets hashes its jobs alone) */
    const uint64_t head[3] = {(uint64_t)p->k, p->sigma, p->n_jobs};
    XXH3_state_t *st = XXH3_createState();
    if (!st) return 0; /* out of memory: no slice's plan agrees with it */
    int parts = 0;
    XXH3_64bits_reset_withSeed(st, XXH3_64bits(head, sizeof head));
    for (uint64_t j = 0; j < p->n_jobs; j++) {
        const rv_bucket_job_t *b = &p->jobs[j];
        const uint64_t w[3] = {b->code_lo, b->code_hi, b->suffixes};
        XXH3_64bits_update(st, w, sizeof w);
        parts |= b->sub_hi != 0;
    }
    for (uint64_t j = 0; parts && j < p->n_jobs; j++) {
        const uint32_t w[3] = {p->jobs[j].sub_lo, p->jobs[j].sub_hi, p->jobs[j].sub_depth};
        XXH3_64bits_update(st, w, sizeof w);
    }
    const uint64_t h = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    return h;
}

uint64_t *rv_bucket_slice_jobs(const rv_bucket_plan_t *p, uint64_t slice, uint64_t n_slices, uint64_t *n)
{
    uint64_t *order = rv_bucket_jobs_largest_first(p), *size = malloc((p->n_jobs ? p->n_jobs : 1) * sizeof *size);
    for (uint64_t j = 0; size && j < p->n_jobs; j++) size[j] = p->jobs[j].suffixes + 1;
    uint64_t *mine = order && size ? rv_part_share(order, size, p->n_jobs, slice, n_slices, n) : NULL;
    if (!order || !size) rv_error("buckets", "out of memory");
    free(order);
    free(size);
    return mine;
}

uint64_t rv_bucket_job_bytes(uint64_t m)
{
    return m * (2 * sizeof(uint64_t) + 2 * sizeof(uint64_t)); /* pos, lcp, sort keys */
}
