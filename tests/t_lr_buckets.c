/* t_lr_buckets.c — longest repeats from the text alone (lr_buckets.h) against the
 * index path (rv_lr_scan on an index with its LLR arrays, itself checked against
 * brute force in t_lr.c) and against a brute-force L:
 *   - random small inputs (DNA with N, two-letter DNA, protein, text, periodic,
 *     all-same; one to three records) with every prefix length k from 1 to 6 and
 *     the default plan, job sizes from one suffix up, 1 and 3 threads, jobs fed in
 *     reverse order one by one (as ranks send them), windows: the whole text,
 *     random intervals, empty ones, one position; and the jobs shared by 2 to 7
 *     slices (rv_bucket_slice_jobs: each job in exactly one slice), each slice's
 *     values added to one window, as `lr --buckets I/N` and `repview merge` do;
 *   - long repeats (L >= 255 escapes, values before the window that reach it);
 *   - both strands and an empty text. */
#include <string.h>
#include "check.h"
#include "repview/build.h"
#include "repview/common.h"
#include "repview/lr_buckets.h"
#include "repview/seq.h"
#include "random_seq.h"

/* ---- hits --------------------------------------------------------------------------- */

typedef struct {
    rv_lr_hit_t *h;
    size_t n, cap;
} hits_t;

static int collect(void *ctx, const rv_lr_hit_t *h, size_t n)
{
    hits_t *c = ctx;
    if (c->n + n > c->cap) {
        c->cap = (c->n + n) * 2;
        c->h = realloc(c->h, c->cap * sizeof *c->h);
        if (!c->h) return 1;
    }
    memcpy(c->h + c->n, h, n * sizeof *h);
    c->n += n;
    return 0;
}

static int same_hits(const hits_t *a, const hits_t *b, char *why, size_t len)
{
    if (a->n != b->n) return snprintf(why, len, "%zu hits, index %zu", a->n, b->n), 0;
    for (size_t i = 0; i < a->n; i++)
        if (a->h[i].pos != b->h[i].pos || a->h[i].start != b->h[i].start || a->h[i].len != b->h[i].len)
            return snprintf(why, len, "hit %zu is (%llu,%llu,%llu), index (%llu,%llu,%llu)", i,
                            (unsigned long long)a->h[i].pos, (unsigned long long)a->h[i].start,
                            (unsigned long long)a->h[i].len, (unsigned long long)b->h[i].pos,
                            (unsigned long long)b->h[i].start, (unsigned long long)b->h[i].len), 0;
    return 1;
}

/* L[i] by brute force: the longest prefix of suffix i found at another position. */
static uint64_t L_brute(const rv_seq_t *s, uint64_t i)
{
    uint64_t best = 0;
    for (uint64_t p = 0; p < s->n; p++) {
        if (p == i) continue;
        uint64_t l = 0;
        while (i + l < s->n && p + l < s->n && s->text[i + l] != RV_BREAK && s->text[i + l] == s->text[p + l]) l++;
        if (l > best) best = l;
    }
    return best;
}

/* ---- one bucket run ---------------------------------------------------------------- */

typedef struct {
    int k;            /* 0: rv_lr_bucket_plan's own */
    uint64_t js;      /* job size (suffixes) */
    int threads, reverse, leftmost;
    uint64_t lo, hi;
    uint64_t slices;  /* > 1: the jobs of each of that many slices in turn */
} run_opts_t;

static int add_values(void *ud, const rv_lr_t *v, uint64_t n) { return rv_lr_window_add(ud, v, n); }

/* The jobs of every slice of r->slices in turn into w; each job must be in one. */
static int run_slices(const rv_seq_t *s, const rv_bucket_plan_t *plan, const run_opts_t *r, rv_lr_window_t *w)
{
    char *seen = calloc(plan->n_jobs + 1, 1);
    int rc = seen ? 0 : rv_error("test", "out of memory");
    for (uint64_t q = r->slices; rc == 0 && q-- > 0;) { /* last slice first: any order */
        uint64_t m, *mine = rv_bucket_slice_jobs(plan, q, r->slices, &m);
        if (!mine) rc = -1;
        for (uint64_t i = 0; rc == 0 && i < m; i++)
            if (mine[i] >= plan->n_jobs || seen[mine[i]]++)
                rc = rv_error("test", "slice %llu of %llu: job %llu given twice", (unsigned long long)q + 1,
                              (unsigned long long)r->slices, (unsigned long long)mine[i]);
        if (rc == 0) rc = rv_lr_buckets_run(s, plan, mine, m, NULL, NULL, r->lo, r->hi, r->threads, add_values, w);
        free(mine);
    }
    for (uint64_t j = 0; rc == 0 && j < plan->n_jobs; j++)
        if (!seen[j]) rc = rv_error("test", "job %llu in no slice of %llu", (unsigned long long)j, (unsigned long long)r->slices);
    free(seen);
    return rc;
}

static int bucket_hits(const rv_seq_t *s, const run_opts_t *r, hits_t *out)
{
    rv_bucket_plan_t plan;
    int rc = r->k ? rv_bucket_plan(s, (uint64_t)r->k, r->js, r->threads, &plan)
                  : rv_lr_bucket_plan(s, r->js * 64, r->threads, (uint64_t)r->threads, &plan);
    if (rc < 0) return -1;
    rv_lr_window_t *w = rv_lr_window_new(s, &plan, r->lo, r->hi, r->threads);
    if (!w) rc = -1;
    if (rc == 0 && r->reverse) { /* job by job, last first, values checked on the way */
        for (uint64_t j = plan.n_jobs; rc == 0 && j-- > 0;) {
            rv_lr_t *v;
            uint64_t n;
            rc = rv_lr_bucket_job(s, &plan, j, r->lo, r->hi, &v, &n);
            for (uint64_t q = 0; rc == 0 && q < n; q++) {
                if ((q && v[q].start <= v[q - 1].start) || v[q].len < (uint64_t)plan.k ||
                    v[q].len != L_brute(s, v[q].start))
                    rc = rv_error("test", "job %llu: value %llu (%llu at %llu) wrong", (unsigned long long)j,
                                  (unsigned long long)q, (unsigned long long)v[q].len,
                                  (unsigned long long)v[q].start);
            }
            if (rc == 0) rc = rv_lr_window_add(w, v, n);
            free(v);
        }
    } else if (rc == 0 && r->slices > 1) {
        rc = run_slices(s, &plan, r, w);
    } else if (rc == 0) {
        uint64_t *order = rv_bucket_jobs_largest_first(&plan);
        rc = rv_lr_buckets_run(s, &plan, order, plan.n_jobs, NULL, NULL, r->lo, r->hi, r->threads, add_values, w);
        free(order);
    }
    rv_lr_scan_opts_t so = {RV_LR_SWEEP, r->leftmost, r->threads};
    if (rc == 0) rc = rv_lr_window_scan(w, &so, collect, out);
    rv_lr_window_free(w);
    rv_bucket_plan_free(&plan);
    return rc;
}

static void describe(const rv_seq_t *s, char *buf, size_t len)
{
    size_t k = 0;
    for (uint64_t i = 0; i < s->n && k + 2 < len && i < 120; i++)
        buf[k++] = s->text[i] == RV_BREAK ? '|' : (char)('a' + (s->text[i] - 1) % 26);
    buf[k] = 0;
}

/* The index's hits of [lo, hi) against the buckets' for o. */
static void check_run(const rv_seq_t *s, const rv_index_t *x, const run_opts_t *r, const char *what)
{
    hits_t want = {0}, got = {0};
    rv_lr_scan_opts_t so = {RV_LR_SWEEP, r->leftmost, 1};
    CHECK(rv_lr_scan(x, r->lo, r->hi, &so, collect, &want, NULL) == 0, "%s: index scan: %s", what, rv_last_error());
    int rc = bucket_hits(s, r, &got);
    char why[256] = "", text[128];
    describe(s, text, sizeof text);
    CHECK(rc == 0, "%s k %d js %llu t %d rev %d slices %llu [%llu,%llu): %s (text %s)", what, r->k,
          (unsigned long long)r->js, r->threads, r->reverse, (unsigned long long)r->slices, (unsigned long long)r->lo,
          (unsigned long long)r->hi, rv_last_error(), text);
    CHECK(rc != 0 || same_hits(&got, &want, why, sizeof why),
          "%s k %d js %llu t %d rev %d left %d slices %llu [%llu,%llu): %s (text %s)", what, r->k,
          (unsigned long long)r->js, r->threads, r->reverse, r->leftmost, (unsigned long long)r->slices,
          (unsigned long long)r->lo, (unsigned long long)r->hi, why, text);
    free(want.h);
    free(got.h);
}

static void test_random(void)
{
    rng_t r = rng_new(0x1b0c4e7);
    int iters = check_iters(60);
    for (int kind = 0; kind < N_KINDS; kind++) {
        case_begin();
        for (int it = 0; it < iters && !check_failed_; it++) {
            rv_seq_t *s = random_seq(&r, kind, 1 + rng_below(&r, 90));
            rv_index_t *x = cpu_index(s, 1, 1);
            CHECK(x != NULL, "build: %s", rv_last_error());
            if (!x) continue;
            for (int k = 0; k <= 6 && !check_failed_; k++) {
                run_opts_t o = {k, 1 + rng_below(&r, 3) * rng_below(&r, 20), 1 + 2 * (int)rng_below(&r, 2),
                                (int)rng_below(&r, 2), (int)rng_below(&r, 2), 0, s->n, 0};
                check_run(s, x, &o, kinds[kind]);
                o.reverse = 0, o.slices = 2 + rng_below(&r, 6); /* shared by slices */
                check_run(s, x, &o, kinds[kind]);
                o.slices = 0;
                uint64_t a = rng_below(&r, s->n + 1), b = rng_below(&r, s->n + 1);
                o.lo = a < b ? a : b, o.hi = a < b ? b : a; /* a random window, maybe empty */
                check_run(s, x, &o, kinds[kind]);
                o.lo = rng_below(&r, s->n), o.hi = o.lo + 1; /* one position */
                check_run(s, x, &o, kinds[kind]);
            }
            rv_index_free(x); /* frees s */
        }
        char name[64];
        snprintf(name, sizeof name, "lr_buckets_random_%s", kinds[kind]);
        case_end(name);
    }
}

/* Long repeats: escaped values (>= 255) in and before the window. */
static void test_long(void)
{
    case_begin();
    rng_t r = rng_new(0x70e6);
    static char a[3000], b[1200];
    random_record(&r, 0, a, 2000);
    memcpy(a + 2000, a + 300, 700); /* a 700-symbol copy */
    a[2700] = 0;
    for (int i = 0; i < 1100; i++) b[i] = 'A';
    b[1100] = 0;
    const char *names[2] = {"x", "y"}, *seqs[2] = {a, b};
    rv_seq_t *s = rv_seq_from_records(names, seqs, 2, RV_ALPHA_DNA);
    rv_index_t *x = cpu_index(s, 1, 1);
    CHECK(x != NULL, "build: %s", rv_last_error());
    static const uint64_t windows[][2] = {{0, 0}, {500, 900}, {2300, 2350}, {2900, 3400}, {1999, 2001}, {0, 1}};
    for (size_t i = 0; x && i < sizeof windows / sizeof *windows; i++) {
        for (int k = 0; k <= 4; k += 2) {
            run_opts_t o = {k, 1 + 500 * (uint64_t)(k == 4), 2, k == 2, (int)i & 1, windows[i][0],
                            windows[i][1] ? windows[i][1] : s->n, k == 4 ? 3 : 0};
            check_run(s, x, &o, "long");
        }
    }
    rv_index_free(x);
    case_end("lr_buckets_long_repeats");
}

static void test_refusals(void)
{
    case_begin();
    rv_seq_t *s = rv_seq_from_string("ACGTACGTTT", 10, RV_ALPHA_DNA, "x");
    rv_bucket_plan_t plan;
    CHECK(rv_seq_add_reverse(s, 1) == 0, "add reverse: %s", rv_last_error());
    CHECK(rv_lr_bucket_plan(s, 1 << 20, 1, 1, &plan) < 0 && strstr(rv_last_error(), "strand"),
          "both strands accepted: %s", rv_last_error());
    rv_seq_free(s);
    s = rv_seq_from_string("NNNN", 4, RV_ALPHA_DNA, "n"); /* no symbol at all */
    hits_t got = {0};
    rv_lr_scan_opts_t so = {RV_LR_SWEEP, 0, 2};
    CHECK(rv_lr_buckets_scan(s, 0, s->n, 1 << 20, &so, collect, &got) == 0 && got.n == 0, "empty text: %s",
          rv_last_error());
    free(got.h);
    rv_seq_free(s);
    case_end("lr_buckets_refusals");
}

int main(void)
{
    test_random();
    test_long();
    test_refusals();
    return check_exit();
}
