/* pairs_buckets.c — maximal pairs from the text alone, bucket by bucket
 * (buckets.h; RACE = seeds/002 §5), and their part files.
 *
 * Each job of a bucket plan is sorted on its own (rv_bucket_job_sort) and walked
 * by the traversal of pairs.c (pf_walker_bucket); the pairs go through the same
 * sinks and merge as the index's, so the output is the same, byte for byte.  A
 * slice I of N takes the jobs that a greedy largest-first assignment gives it, so
 * N processes that never talk to each other share the work evenly (part.h); each
 * writes a part file holding its pairs as one sorted run, and rv_parts_merge()
 * joins the parts into the one ordered output.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/buckets.h"
#include "repview/common.h"
#include "repview/pairs.h"
#include "repview/part.h"
#include "internal.h"
#include "pairs_internal.h"

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
    return rv_pairs_bucket_plan_counted(s, o, mem_budget, threads, counts, n_codes, plan);
}

int rv_pairs_bucket_plan_counted(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, int threads,
                                 uint64_t *counts, uint64_t n_codes, rv_bucket_plan_t *plan)
{
    if (rv_bucket_plan_counted(s, o->min_len, job_suffixes(mem_budget, threads), counts, n_codes, plan) < 0)
        return -1;
    return rv_pairs_bucket_spread(plan, (uint64_t)(threads > 0 ? threads : rv_default_threads()));
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
    if (rv_bucket_plan_make_map(plan, s, rv_bucket_map_budget(mem_budget), o->threads) < 0) {
        rv_bucket_plan_free(plan);
        return -1;
    }
    if (!(*mine = rv_bucket_slice_jobs(plan, slice, n_slices, n_mine))) {
        rv_bucket_plan_free(plan);
        return -1;
    }
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

/* ---- part files (part.h): the run of pairs (per pair: varints of p1 - previous
 * p1, p2 - p1, and 2 len + inverted) -------------------------------------------- */

/* What the pairs of a part depend on besides the text (part.h's options). */
typedef struct {
    uint64_t n, min_len, within_beg, within_end;
    int64_t min_gap, max_gap;
    int32_t use_min_gap, use_max_gap, use_within, strands;
    uint64_t plan;                      /* the jobs' cut: every slice needs the same */
} pairs_part_opts_t;

typedef struct {
    FILE *out;
    uint64_t prev, pairs;
    uint8_t *buf; /* a batch coded (3 varints of at most 10 bytes a pair), one fwrite */
} part_put_t;

/* A batch of the merge, coded in memory and written at once: the merge's one serial
 * step (putc for every byte of 2.9 GB held up a 3 Gbp run under mpirun by seconds). */
static int part_put(void *ud, const rv_pair_t *p, size_t n)
{
    part_put_t *w = ud;
    for (size_t i = 0; i < n;) {
        size_t m = n - i < RV_PAIRS_BATCH ? n - i : RV_PAIRS_BATCH;
        uint8_t *b = w->buf;
        for (size_t j = i; j < i + m; j++) {
            b = pf_put_varint(b, p[j].p1 - w->prev);
            b = pf_put_varint(b, p[j].p2 - p[j].p1);
            b = pf_put_varint(b, 2 * p[j].len + (uint64_t)(p[j].inverted != 0));
            w->prev = p[j].p1;
        }
        if (fwrite(w->buf, 1, (size_t)(b - w->buf), w->out) != (size_t)(b - w->buf))
            return rv_error("part", "cannot write: %s", strerror(errno));
        i += m;
    }
    w->pairs += n;
    return ferror(w->out) ? rv_error("part", "cannot write: %s", strerror(errno)) : 0;
}

/* The part of the jobs b hands out: its pairs, then the header. */
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
    part_put_t pw = {rv_part_writer_file(w), 0, 0, malloc(30 * (size_t)RV_PAIRS_BATCH)};
    int rc = pw.buf ? pf_collect(b->f, o, b->s->n, produce_buckets, b, part_put, &pw, NULL)
                    : rv_error("part", "out of memory");
    free(pw.buf);
    return rv_part_writer_end(w, pw.pairs, durable, rc);
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
                                rv_bucket_next_fn next, void *nctx, uint64_t slice, uint64_t n_slices,
                                const char *path)
{
    pf_filter_t f;
    if (pf_filter_init(&f, s, o) < 0) return -1;
    bucket_run_t b = {.s = s, .plan = plan, .f = &f, .src = {.next = next, .nctx = nctx}};
    return write_part(&b, o, slice, n_slices, path, 0); /* a transfer, not kept */
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

/* A part's run being read. */
typedef struct {
    const rv_part_t *part;
    unsigned char *raw;
    uint64_t off, left, prev;
    size_t rpos, rlen;
    rv_pair_t cur;
} cursor_t;

enum { PART_RAW = 1 << 16 };

static int cursor_varint(cursor_t *c, uint64_t *v)
{
    if (c->rlen - c->rpos < 10) { /* refill */
        memmove(c->raw, c->raw + c->rpos, c->rlen - c->rpos);
        c->rlen -= c->rpos, c->rpos = 0;
        int64_t r = rv_part_read(c->part, c->raw + c->rlen, PART_RAW - c->rlen, c->off);
        if (r < 0) return rv_error(rv_part_path(c->part), "cannot read: %s", strerror(errno));
        c->rlen += (size_t)r, c->off += (uint64_t)r;
    }
    uint64_t x = 0;
    for (int sh = 0; c->rpos < c->rlen && sh < 64; sh += 7) {
        unsigned char b = c->raw[c->rpos++];
        x |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80)) { *v = x; return 0; }
    }
    return rv_error(rv_part_path(c->part), "corrupt part file");
}

/* Next pair of c into c->cur: 1, 0 at the end, -1 on error. */
static int cursor_next(cursor_t *c)
{
    if (!c->left) return 0;
    uint64_t d1, d2, l2;
    if (cursor_varint(c, &d1) < 0 || cursor_varint(c, &d2) < 0 || cursor_varint(c, &l2) < 0) return -1;
    c->prev += d1;
    c->cur = (rv_pair_t){c->prev, c->prev + d2, l2 >> 1, (int)(l2 & 1)};
    c->left--;
    return 1;
}

static void heap_down(const cursor_t *cur, size_t *h, size_t n, size_t i)
{
    for (;;) {
        size_t m = i, l = 2 * i + 1, r = l + 1;
        if (l < n && pf_pair_less(&cur[h[l]].cur, &cur[h[m]].cur)) m = l;
        if (r < n && pf_pair_less(&cur[h[r]].cur, &cur[h[m]].cur)) m = r;
        if (m == i) return;
        size_t t = h[i]; h[i] = h[m]; h[m] = t;
        i = m;
    }
}

/* The merge runs a batch ahead on a thread of its own: while fn formats and
 * writes one batch, the next is merged (the heap is the one serial step of a
 * merge whose formatting runs on every core). */
typedef struct {
    cursor_t *cur;
    size_t *h, nh;
    rv_pair_t *batch[2];
    size_t len[2];
    int full[2], ended, stop, rc; /* ended: the last batch is full */
    char err[512];
    pthread_mutex_t mu;
    pthread_cond_t cv;
} merge_run_t;

/* Fill batches in turn until the runs end, the consumer stops or a part fails. */
static void *merge_loop(void *arg)
{
    merge_run_t *m = arg;
    int rc = 0;
    for (int g = 0; rc == 0; g ^= 1) {
        pthread_mutex_lock(&m->mu);
        while (m->full[g] && !m->stop) pthread_cond_wait(&m->cv, &m->mu);
        int stop = m->stop;
        pthread_mutex_unlock(&m->mu);
        if (stop) break;
        size_t nb = 0;
        rv_pair_t *b = m->batch[g];
        while (nb < RV_PAIRS_BATCH && m->nh) {
            cursor_t *c = &m->cur[m->h[0]];
            b[nb++] = c->cur;
            int f = cursor_next(c);
            if (f < 0) { rc = -1; break; }
            if (!f) m->h[0] = m->h[--m->nh];
            heap_down(m->cur, m->h, m->nh, 0);
        }
        pthread_mutex_lock(&m->mu);
        if (rc < 0) m->rc = -1, snprintf(m->err, sizeof m->err, "%s", rv_last_error());
        else m->len[g] = nb, m->full[g] = nb > 0;
        if (rc < 0 || !m->nh) m->ended = 1;
        pthread_cond_broadcast(&m->cv);
        pthread_mutex_unlock(&m->mu);
        if (m->ended) break;
    }
    return NULL;
}

int rv_parts_merge(rv_part_t *const *parts, size_t n, rv_pairs_batch_fn fn, void *ud)
{
    merge_run_t m;
    memset(&m, 0, sizeof m);
    m.h = malloc((n ? n : 1) * sizeof *m.h);
    m.cur = calloc(n ? n : 1, sizeof *m.cur);
    m.batch[0] = malloc(RV_PAIRS_BATCH * sizeof *m.batch[0]);
    m.batch[1] = malloc(RV_PAIRS_BATCH * sizeof *m.batch[1]);
    int rc = m.h && m.cur && m.batch[0] && m.batch[1] ? 0 : rv_error("merge", "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        m.cur[i].part = parts[i], m.cur[i].left = rv_part_items(parts[i]);
        if (!(m.cur[i].raw = malloc(PART_RAW))) rc = rv_error("merge", "out of memory");
        int f = rc == 0 ? cursor_next(&m.cur[i]) : 0;
        if (f < 0) rc = -1;
        else if (f) m.h[m.nh++] = i;
    }
    for (size_t i = m.nh / 2; rc == 0 && i-- > 0;) heap_down(m.cur, m.h, m.nh, i);
    pthread_t th;
    pthread_mutex_init(&m.mu, NULL);
    pthread_cond_init(&m.cv, NULL);
    int started = rc == 0 && m.nh && pthread_create(&th, NULL, merge_loop, &m) == 0;
    if (rc == 0 && m.nh && !started) rc = rv_error("merge", "cannot start a thread");
    for (int g = 0; started && rc == 0; g ^= 1) { /* hand the batches to fn in turn */
        pthread_mutex_lock(&m.mu);
        while (!m.full[g] && !m.ended) pthread_cond_wait(&m.cv, &m.mu);
        int have = m.full[g];
        pthread_mutex_unlock(&m.mu);
        if (!have) break;
        rc = fn(ud, m.batch[g], m.len[g]);
        pthread_mutex_lock(&m.mu);
        m.full[g] = 0;
        if (rc != 0) m.stop = 1;
        pthread_cond_broadcast(&m.cv);
        pthread_mutex_unlock(&m.mu);
    }
    if (started) {
        pthread_mutex_lock(&m.mu);
        m.stop = 1; /* ended already, or fn stopped */
        pthread_cond_broadcast(&m.cv);
        pthread_mutex_unlock(&m.mu);
        pthread_join(th, NULL);
        if (rc == 0 && m.rc < 0) rc = rv_error(NULL, "%s", m.err);
    }
    pthread_mutex_destroy(&m.mu);
    pthread_cond_destroy(&m.cv);
    for (size_t i = 0; m.cur && i < n; i++) free(m.cur[i].raw);
    free(m.cur);
    free(m.h);
    free(m.batch[0]);
    free(m.batch[1]);
    return rc;
}
