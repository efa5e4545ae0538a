/* pairs_buckets.c — maximal pairs from the text alone, bucket by bucket
 * (buckets.h; RACE = seeds/002 §5), and their part files.
 *
 * Each job of a bucket plan is sorted on its own (rv_bucket_job_sort) and walked
 * by the traversal of pairs.c (pf_walker_bucket); the pairs go through the same
 * sinks and merge as the index's, so the output is the same, byte for byte.  A
 * slice I of N takes the jobs that a greedy largest-first assignment gives it, so
 * N processes that never talk to each other share the work evenly; each writes a
 * part file holding its pairs as one sorted run, and rv_pairs_parts_merge() joins
 * the parts into the one ordered output.
 *
 * Part file: the run (per pair: varints of p1 - previous p1, p2 - p1, and
 * 2 len + inverted), then a trailer rv_part_trailer_t, then the input path.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/stat.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>
#include "repview/buckets.h"
#include "repview/common.h"
#include "repview/pairs.h"
#include "internal.h"
#include "pairs_internal.h"

#define PART_MAGIC "RVPART02"

typedef struct {
    char magic[8];
    uint32_t slice, n_slices;
    uint64_t pairs, run_bytes;
    uint64_t n, nf, glen;               /* the text the positions index */
    uint64_t src_size;                  /* the input's fingerprint (seq.h) */
    int64_t src_mtime_ns;
    uint64_t min_len, within_beg, within_end;
    int64_t min_gap, max_gap;
    int32_t use_min_gap, use_max_gap, use_within, strands;
    uint64_t text_hash;                 /* XXH3 of the forward text: an edit that keeps
                                           the size and mtime is caught too */
    uint64_t path_bytes;                /* the input path follows the trailer */
    uint64_t check;                     /* hash of the fields above */
} rv_part_trailer_t;

/* ---- which jobs a slice takes ------------------------------------------------ */

/* Greedy largest-first (LPT): each job in turn to the least loaded slice.  Fills
 * mine with the jobs of `slice` in largest-first order; returns their number. */
static uint64_t slice_jobs(const rv_bucket_plan_t *p, const uint64_t *order, uint64_t slice, uint64_t n_slices,
                           uint64_t *mine)
{
    if (n_slices <= 1) {
        memcpy(mine, order, p->n_jobs * sizeof *mine);
        return p->n_jobs;
    }
    uint64_t *load = calloc(n_slices, sizeof *load), k = 0;
    if (!load) return UINT64_MAX;
    for (uint64_t i = 0; i < p->n_jobs; i++) {
        uint64_t best = 0;
        for (uint64_t q = 1; q < n_slices; q++)
            if (load[q] < load[best]) best = q;
        load[best] += p->jobs[order[i]].suffixes + 1;
        if (best == slice) mine[k++] = order[i];
    }
    free(load);
    return k;
}

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
        if (rc == 0) rc = pf_walker_bucket(w, pos, lcp, m);
        rv_bucket_phase_add(RV_JOB_WALK, (uint64_t)((rv_now() - t0) * 1e9));
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

int rv_pairs_bucket_plan(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, int threads,
                         rv_bucket_plan_t *plan)
{
    if (!mem_budget) mem_budget = 1ull << 30;
    if (threads <= 0) threads = rv_default_threads();
    /* the job's arrays and the walker's lists; the other half of the budget is the
     * sort buffers of the pairs (o->mem_bytes) */
    uint64_t per = rv_bucket_job_bytes(1) + 24, job = mem_budget / 2 / (uint64_t)threads / per;
    /* counted on o->threads (0 = all cores); jobs sized for `threads` workers */
    if (rv_bucket_plan(s, o->min_len, job ? job : 1, o->threads, plan) < 0) return -1;
    return rv_pairs_bucket_spread(plan, (uint64_t)threads);
}

int rv_pairs_bucket_spread(rv_bucket_plan_t *plan, uint64_t workers)
{
    /* about three jobs per worker, so that the largest-first schedule evens out
     * (each job reads the whole text once: more jobs cost more reading); never
     * below 64 Ki suffixes a job */
    uint64_t want = 3 * (workers ? workers : 1), cap = plan->n_jobs ? plan->jobs[0].suffixes : 0;
    for (uint64_t j = 1; j < plan->n_jobs; j++) if (plan->jobs[j].suffixes > cap) cap = plan->jobs[j].suffixes;
    if (plan->n_jobs >= want) return 0;
    uint64_t size = (plan->suffixes + want - 1) / want;
    if (size < (1u << 16)) size = 1u << 16;
    return size < cap ? rv_bucket_plan_cut(plan, size) : 0;
}

/* Plan s for o and pick the jobs of one slice: 0, or -1 with a message. */
static int setup(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, int threads, uint64_t slice,
                 uint64_t n_slices, rv_bucket_plan_t *plan, uint64_t **mine, uint64_t *n_mine)
{
    if (rv_pairs_bucket_plan(s, o, mem_budget, threads, plan) < 0) return -1;
    if (rv_bucket_plan_make_map(plan, s, rv_bucket_map_budget(mem_budget), o->threads) < 0) return -1;
    uint64_t *order = rv_bucket_jobs_largest_first(plan);
    *mine = malloc((plan->n_jobs ? plan->n_jobs : 1) * sizeof **mine);
    *n_mine = order && *mine ? slice_jobs(plan, order, slice, n_slices, *mine) : UINT64_MAX;
    free(order);
    if (*n_mine == UINT64_MAX) {
        free(*mine);
        rv_bucket_plan_free(plan);
        return rv_error("pairs", "out of memory");
    }
    return 0;
}

static int resolve(const rv_pairs_opts_t *o)
{
    return o->threads > 0 ? o->threads : rv_default_threads();
}

int rv_pairs_buckets_each_batch(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, uint64_t slice,
                                uint64_t n_slices, rv_pairs_batch_fn fn, void *ud)
{
    pf_filter_t f;
    if (pf_filter_init(&f, s, o) < 0) return -1;
    rv_bucket_plan_t plan;
    uint64_t *mine, n_mine;
    if (setup(s, o, mem_budget, resolve(o), slice, n_slices, &plan, &mine, &n_mine) < 0) return -1;
    bucket_run_t b = {.s = s, .plan = &plan, .f = &f, .src = {.jobs = mine, .n_jobs = n_mine}};
    int rc = pf_collect(&f, o, s->n, produce_buckets, &b, fn, ud);
    free(mine);
    rv_bucket_plan_free(&plan);
    return rc;
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

/* ---- part files ------------------------------------------------------------------ */

static uint64_t text_hash(const rv_seq_t *s)
{
    return XXH3_64bits(s->text, (size_t)rv_seq_fwd_len(s));
}

static uint64_t trailer_hash(const rv_part_trailer_t *t)
{
    const unsigned char *p = (const unsigned char *)t;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < offsetof(rv_part_trailer_t, check); i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

typedef struct {
    FILE *out;
    uint64_t prev, pairs, bytes;
    int failed;
} part_writer_t;

static int put_varint(FILE *f, uint64_t v, uint64_t *bytes)
{
    unsigned char b[10];
    int k = 0;
    while (v >= 0x80) b[k++] = (unsigned char)(v | 0x80), v >>= 7;
    b[k++] = (unsigned char)v;
    *bytes += (uint64_t)k;
    return fwrite(b, 1, (size_t)k, f) == (size_t)k ? 0 : -1;
}

static int part_put(void *ud, const rv_pair_t *p, size_t n)
{
    part_writer_t *w = ud;
    for (size_t i = 0; i < n && !w->failed; i++) {
        if (put_varint(w->out, p[i].p1 - w->prev, &w->bytes) < 0 ||
            put_varint(w->out, p[i].p2 - p[i].p1, &w->bytes) < 0 ||
            put_varint(w->out, 2 * p[i].len + (uint64_t)(p[i].inverted != 0), &w->bytes) < 0)
            w->failed = 1;
        w->prev = p[i].p1;
        w->pairs++;
    }
    return w->failed ? rv_error("part", "cannot write: %s", strerror(errno)) : 0;
}

/* Write the part: what `each` hands over, then the trailer; temporary name first. */
typedef int (*each_fn)(void *ctx, rv_pairs_batch_fn fn, void *ud);

static int write_part(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t slice, uint64_t n_slices,
                      const char *path, int durable, each_fn each, void *ctx)
{
    if (n_slices < 1 || slice >= n_slices) return rv_error("part", "slice %llu of %llu does not exist",
                                                             (unsigned long long)slice + 1, (unsigned long long)n_slices);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) /* never rename over a device or FIFO */
        return rv_error(path, "not a regular file: a part file needs one");
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 32);
    if (!tmp) return rv_error(path, "out of memory");
    snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
    part_writer_t w = {fopen(tmp, "wb"), 0, 0, 0, 0};
    if (!w.out) { free(tmp); return rv_error(path, "cannot create: %s", strerror(errno)); }
    static _Thread_local char wbuf[1 << 20];
    setvbuf(w.out, wbuf, _IOFBF, sizeof wbuf);
    int rc = each(ctx, part_put, &w);
    char *abs = s->path && strcmp(s->path, "-") ? realpath(s->path, NULL) : NULL;
    const char *input = abs ? abs : s->path ? s->path : "-"; /* merge may run elsewhere */
    rv_part_trailer_t t;
    memset(&t, 0, sizeof t);
    memcpy(t.magic, PART_MAGIC, 8);
    t.slice = (uint32_t)slice, t.n_slices = (uint32_t)n_slices;
    t.pairs = w.pairs, t.run_bytes = w.bytes;
    t.n = s->n, t.nf = rv_seq_fwd_len(s), t.glen = s->glen;
    t.src_size = s->src_size, t.src_mtime_ns = s->src_mtime_ns;
    t.min_len = o->min_len, t.within_beg = o->within_beg, t.within_end = o->within_end;
    t.min_gap = o->min_gap, t.max_gap = o->max_gap;
    t.use_min_gap = o->use_min_gap, t.use_max_gap = o->use_max_gap, t.use_within = o->use_within;
    t.strands = o->strands;
    t.text_hash = text_hash(s);
    t.path_bytes = strlen(input);
    t.check = trailer_hash(&t);
    if (rc == 0 && (fwrite(&t, sizeof t, 1, w.out) != 1 || fwrite(input, 1, t.path_bytes, w.out) != t.path_bytes))
        rc = rv_error(path, "cannot write: %s", strerror(errno));
    if (fflush(w.out) != 0 || (durable && fsync(fileno(w.out)) != 0)) rc = rc ? rc : rv_error(path, "cannot write: %s", strerror(errno));
    fclose(w.out);
    free(abs);
    if (rc == 0 && rename(tmp, path) != 0) rc = rv_error(path, "cannot rename into place: %s", strerror(errno));
    if (rc < 0) unlink(tmp);
    free(tmp);
    return rc;
}

typedef struct {
    const rv_seq_t *s;
    const rv_pairs_opts_t *o;
    uint64_t mem_budget, slice, n_slices;
    const rv_bucket_plan_t *plan;
    rv_bucket_next_fn next;
    void *nctx;
} part_src_t;

static int each_slice(void *ctx, rv_pairs_batch_fn fn, void *ud)
{
    const part_src_t *p = ctx;
    return rv_pairs_buckets_each_batch(p->s, p->o, p->mem_budget, p->slice, p->n_slices, fn, ud);
}

int rv_pairs_part_write(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, uint64_t slice,
                        uint64_t n_slices, const char *path)
{
    part_src_t p = {s, o, mem_budget, slice, n_slices, NULL, NULL, NULL};
    return write_part(s, o, slice, n_slices, path, 1, each_slice, &p);
}

static int each_dynamic(void *ctx, rv_pairs_batch_fn fn, void *ud)
{
    const part_src_t *p = ctx;
    pf_filter_t f;
    if (pf_filter_init(&f, p->s, p->o) < 0) return -1;
    bucket_run_t b = {.s = p->s, .plan = p->plan, .f = &f, .src = {.next = p->next, .nctx = p->nctx}};
    return pf_collect(&f, p->o, p->s->n, produce_buckets, &b, fn, ud);
}

int rv_pairs_part_write_dynamic(const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_bucket_plan_t *plan,
                                rv_bucket_next_fn next, void *nctx, uint64_t slice, uint64_t n_slices,
                                const char *path)
{
    part_src_t p = {s, o, 0, slice, n_slices, plan, next, nctx};
    return write_part(s, o, slice, n_slices, path, 0, each_dynamic, &p); /* a transfer, not kept */
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

struct rv_part {
    int fd;
    rv_part_trailer_t t;
    char *input;
    /* reading */
    unsigned char *raw;
    uint64_t off, end, left, prev;
    size_t rpos, rlen;
    rv_pair_t cur;
};

enum { PART_RAW = 1 << 16 };

int rv_part_open(const char *path, rv_part_t **out)
{
    *out = NULL;
    rv_part_t *p = calloc(1, sizeof *p);
    if (!p) return rv_error(path, "out of memory");
    p->fd = open(path, O_RDONLY);
    if (p->fd < 0) { free(p); return rv_error(path, "%s", strerror(errno)); }
    off_t size = lseek(p->fd, 0, SEEK_END);
    int bad = size < (off_t)sizeof p->t;
    /* the trailer sits before the path, whose length it holds: find it from the end */
    for (uint64_t pl = 0; !bad && pl < 4096 && (off_t)(sizeof p->t + pl) <= size; pl++) {
        if (pread(p->fd, &p->t, sizeof p->t, size - (off_t)(sizeof p->t + pl)) != (ssize_t)sizeof p->t) break;
        if (!memcmp(p->t.magic, PART_MAGIC, 8) && p->t.path_bytes == pl && p->t.check == trailer_hash(&p->t)) {
            p->input = calloc(pl + 1, 1);
            if (!p->input || pread(p->fd, p->input, pl, size - (off_t)pl) != (ssize_t)pl) bad = 1;
            else if (p->t.run_bytes != (uint64_t)size - sizeof p->t - pl) bad = 1;
            else { *out = p; p->end = p->t.run_bytes; p->left = p->t.pairs; return 0; }
            break;
        }
    }
    close(p->fd);
    free(p->input);
    free(p);
    return rv_error(path, "not a complete repview part file (interrupted, truncated or another file)");
}

const char *rv_part_input(const rv_part_t *p) { return p->input; }
uint64_t rv_part_pairs(const rv_part_t *p) { return p->t.pairs; }
void rv_part_slice(const rv_part_t *p, uint64_t *slice, uint64_t *n_slices)
{
    *slice = p->t.slice;
    *n_slices = p->t.n_slices;
}

void rv_part_close(rv_part_t *p)
{
    if (!p) return;
    close(p->fd);
    free(p->input);
    free(p->raw);
    free(p);
}

/* Same run of the same input with the same options (slices aside). */
static int same_run(const rv_part_trailer_t *a, const rv_part_trailer_t *b)
{
    return a->n_slices == b->n_slices && a->n == b->n && a->nf == b->nf && a->glen == b->glen &&
           a->src_size == b->src_size && a->src_mtime_ns == b->src_mtime_ns && a->min_len == b->min_len &&
           a->within_beg == b->within_beg && a->within_end == b->within_end && a->min_gap == b->min_gap &&
           a->max_gap == b->max_gap && a->use_min_gap == b->use_min_gap && a->use_max_gap == b->use_max_gap &&
           a->use_within == b->use_within && a->strands == b->strands && a->text_hash == b->text_hash;
}

int rv_parts_check(rv_part_t *const *parts, size_t n, const rv_seq_t *s)
{
    if (!n) return rv_error("merge", "no part files");
    uint64_t want = parts[0]->t.n_slices;
    if (n != want) return rv_error("merge", "%zu part files for %llu slices", n, (unsigned long long)want);
    char *seen = calloc(want ? want : 1, 1);
    if (!seen) return rv_error("merge", "out of memory");
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const rv_part_trailer_t *t = &parts[i]->t;
        if (!same_run(t, &parts[0]->t)) rc = rv_error("merge", "part %zu comes from another run (input or options differ)", i + 1);
        else if (t->slice >= want || seen[t->slice]++) rc = rv_error("merge", "slice %u given twice", t->slice + 1);
        else if (s && (t->nf != rv_seq_fwd_len(s) || t->glen != s->glen || t->src_size != s->src_size ||
                       t->src_mtime_ns != s->src_mtime_ns || t->text_hash != text_hash(s)))
            rc = rv_error("merge", "%s changed since the parts were written", parts[0]->input);
    }
    free(seen);
    return rc;
}

static int part_varint(rv_part_t *p, uint64_t *v)
{
    if (p->rlen - p->rpos < 10 && p->off < p->end) { /* refill */
        memmove(p->raw, p->raw + p->rpos, p->rlen - p->rpos);
        p->rlen -= p->rpos, p->rpos = 0;
        uint64_t want = p->end - p->off < PART_RAW - p->rlen ? p->end - p->off : PART_RAW - p->rlen;
        ssize_t r = pread(p->fd, p->raw + p->rlen, want, (off_t)p->off);
        if (r <= 0) return rv_error("merge", "cannot read a part file");
        p->rlen += (size_t)r, p->off += (uint64_t)r;
    }
    uint64_t x = 0;
    for (int sh = 0; p->rpos < p->rlen && sh < 64; sh += 7) {
        unsigned char c = p->raw[p->rpos++];
        x |= (uint64_t)(c & 0x7f) << sh;
        if (!(c & 0x80)) { *v = x; return 0; }
    }
    return rv_error("merge", "corrupt part file");
}

/* Next pair of p into p->cur: 1, 0 at the end, -1 on error. */
static int part_next(rv_part_t *p)
{
    if (!p->left) return 0;
    uint64_t d1, d2, l2;
    if (part_varint(p, &d1) < 0 || part_varint(p, &d2) < 0 || part_varint(p, &l2) < 0) return -1;
    p->prev += d1;
    p->cur = (rv_pair_t){p->prev, p->prev + d2, l2 >> 1, (int)(l2 & 1)};
    p->left--;
    return 1;
}

static void heap_down(rv_part_t *const *parts, size_t *h, size_t n, size_t i)
{
    for (;;) {
        size_t m = i, l = 2 * i + 1, r = l + 1;
        if (l < n && pf_pair_less(&parts[h[l]]->cur, &parts[h[m]]->cur)) m = l;
        if (r < n && pf_pair_less(&parts[h[r]]->cur, &parts[h[m]]->cur)) m = r;
        if (m == i) return;
        size_t t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

int rv_parts_merge(rv_part_t *const *parts, size_t n, rv_pairs_batch_fn fn, void *ud)
{
    size_t *h = malloc((n ? n : 1) * sizeof *h), nh = 0;
    rv_pair_t *batch = malloc(RV_PAIRS_BATCH * sizeof *batch);
    int rc = h && batch ? 0 : rv_error("merge", "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rv_part_t *p = parts[i];
        p->off = 0, p->rpos = p->rlen = 0, p->prev = 0, p->left = p->t.pairs;
        if (!p->raw && !(p->raw = malloc(PART_RAW))) rc = rv_error("merge", "out of memory");
        int f = rc == 0 ? part_next(p) : 0;
        if (f < 0) rc = -1;
        else if (f) h[nh++] = i;
    }
    for (size_t i = nh / 2; rc == 0 && i-- > 0;) heap_down(parts, h, nh, i);
    size_t nb = 0;
    while (rc == 0 && nh) {
        rv_part_t *p = parts[h[0]];
        batch[nb++] = p->cur;
        if (nb == RV_PAIRS_BATCH) rc = fn(ud, batch, nb), nb = 0;
        int f = part_next(p);
        if (f < 0) rc = -1;
        else if (!f) h[0] = h[--nh];
        heap_down(parts, h, nh, 0);
    }
    if (rc == 0 && nb) rc = fn(ud, batch, nb);
    free(h);
    free(batch);
    return rc;
}
