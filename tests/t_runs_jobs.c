/* t_runs_jobs.c — the runs of the text job by job, without an index of the whole
 * text (tandem.h "from the text alone"), against brute force on the text and
 * against the index path (rv_runs_get + rv_runs_overlapping):
 *   - random small inputs (DNA with N, two-letter DNA, protein, text, periodic,
 *     all-same; one to three records), budgets from one segment a job to all in
 *     one, 1 and 3 threads, random filters, the whole text and random windows;
 *   - the job list: every segment that overlaps the window in one job or tiled
 *     by pieces with windows wide enough, in text order;
 *   - segments cut into pieces (tiny budgets): the runs of long period come from
 *     maximal pairs with gap <= 0 (prefix buckets);
 *   - a long periodic segment between others (runs past 2^8 symbols). */
#include <string.h>
#include "check.h"
#include "repview/build.h"
#include "repview/common.h"
#include "repview/tandem.h"
#include "random_seq.h"

typedef struct {
    rv_run_t *v;
    uint64_t n, cap;
} runs_t;

static int add_run(void *ud, const rv_run_t *r)
{
    runs_t *l = ud;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v) return 1;
    }
    l->v[l->n++] = *r;
    return 0;
}

/* Brute force: for each period and left-maximal start, extend while the period
 * holds; a run when two periods long with no smaller period; in (start, period)
 * order as they are generated start-major below. */
static int has_period(const uint8_t *t, uint64_t s, uint64_t e, uint64_t q)
{
    for (uint64_t k = s; k + q < e; k++)
        if (t[k] != t[k + q]) return 0;
    return 1;
}

static void brute(const rv_seq_t *s, const rv_tandem_filter_t *f, uint64_t lo, uint64_t hi, runs_t *out)
{
    const uint8_t *t = s->text;
    const uint64_t n = s->n;
    for (uint64_t a = 0; a < n; a++)
        for (uint64_t p = 1; a + 2 * p <= n; p++) {
            if (t[a] == RV_BREAK) break;
            if (a > 0 && t[a - 1] != RV_BREAK && t[a - 1] == t[a - 1 + p]) continue;
            uint64_t k = a;
            while (k + p < n && t[k] == t[k + p] && t[k] != RV_BREAK) k++;
            rv_run_t r = {a, k + p, p};
            if (r.end - a < 2 * p) continue;
            int smaller = 0;
            for (uint64_t q = 1; q < p && !smaller; q++) smaller = has_period(t, a, r.end, q);
            if (!smaller && lo < hi && r.start < hi && r.end > lo && rv_run_passes(f, &r)) add_run(out, &r);
        }
}

static int same_runs(const runs_t *a, const runs_t *b, char *why, size_t len)
{
    if (a->n != b->n) return snprintf(why, len, "%llu runs, want %llu", (unsigned long long)a->n, (unsigned long long)b->n), 0;
    for (uint64_t i = 0; i < a->n; i++)
        if (a->v[i].start != b->v[i].start || a->v[i].end != b->v[i].end || a->v[i].period != b->v[i].period)
            return snprintf(why, len, "run %llu is [%llu,%llu) p %llu, want [%llu,%llu) p %llu", (unsigned long long)i,
                            (unsigned long long)a->v[i].start, (unsigned long long)a->v[i].end,
                            (unsigned long long)a->v[i].period, (unsigned long long)b->v[i].start,
                            (unsigned long long)b->v[i].end, (unsigned long long)b->v[i].period), 0;
    return 1;
}

/* The job list of [lo, hi) with at most max symbols a job: in text order, every
 * segment that overlaps the window either in one job of whole segments (none
 * above max unless alone) or tiled by pieces from its start (a segment above max
 * and 64 symbols), whose windows reach 2 max_period past the piece or to the
 * segment's ends and hold at most max(max, 64) symbols. */
static void check_jobs(const rv_seq_t *s, uint64_t lo, uint64_t hi, uint64_t max, const char *what)
{
    uint64_t n, q = 0;
    rv_runs_job_t *j = rv_runs_jobs(s, lo, hi, max, &n);
    const uint64_t cut = max > 64 ? max : 64;
    for (uint64_t g = 0; g < s->n_seg && lo < hi && !check_failed_; g++) {
        const uint64_t a = s->seg[g].tpos, b = a + s->seg[g].len;
        if (!(a < hi && b > lo)) continue;
        CHECK(j && q < n, "%s: segment %llu in no job", what, (unsigned long long)g);
        if (!j || q >= n) break;
        if (b - a > cut) {
            for (uint64_t t = a; t < b && t < hi && q < n; t = j[q++].t1) {
                const rv_runs_job_t *p = &j[q];
                uint64_t P = p->max_period;
                CHECK(p->t0 == t && p->t1 > t && p->t1 <= b && P > 0 && p->seg_end == b, "%s: piece %llu [%llu,%llu) P %llu",
                      what, (unsigned long long)q, (unsigned long long)p->t0, (unsigned long long)p->t1,
                      (unsigned long long)P);
                CHECK((p->w0 == a || p->t0 - p->w0 >= 2 * P) && (p->w1 == b || p->w1 - p->t1 >= 2 * P) &&
                      p->w0 <= p->t0 && p->w1 >= p->t1 && p->w1 - p->w0 <= cut, "%s: window [%llu,%llu) of piece [%llu,%llu)",
                      what, (unsigned long long)p->w0, (unsigned long long)p->w1, (unsigned long long)p->t0,
                      (unsigned long long)p->t1);
            }
            continue;
        }
        const rv_runs_job_t *p = &j[q];
        CHECK(!p->max_period && p->t0 <= a && b <= p->t1 && p->w0 == p->t0 && p->w1 == p->t1, "%s: segment %llu not in job %llu",
              what, (unsigned long long)g, (unsigned long long)q);
        CHECK(p->t1 - p->t0 <= max || (p->t0 == a && p->t1 == b), "%s: job %llu of %llu symbols", what,
              (unsigned long long)q, (unsigned long long)(p->t1 - p->t0));
        if (b == p->t1) q++;
    }
    CHECK(q == n, "%s: %llu jobs, %llu used", what, (unsigned long long)n, (unsigned long long)q);
    free(j);
}

static void check_one(const rv_seq_t *s, rv_runs_t *idx, const rv_tandem_filter_t *f, uint64_t lo, uint64_t hi,
                      uint64_t budget, int threads, const char *what)
{
    runs_t got = {0}, want = {0}, from_index = {0};
    int rc = rv_runs_each_local(s, lo, hi, budget, threads, 1, f, add_run, &got);
    brute(s, f, lo, hi, &want);
    rv_runs_overlapping(idx, lo, hi, f, add_run, &from_index);
    char why[200] = "";
    CHECK(rc == 0, "%s: %s", what, rv_last_error());
    CHECK(same_runs(&from_index, &want, why, sizeof why), "%s: the index itself: %s", what, why);
    CHECK(same_runs(&got, &want, why, sizeof why), "%s [%llu,%llu) budget %llu threads %d: %s", what,
          (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)budget, threads, why);
    free(got.v), free(want.v), free(from_index.v);
}

static void test_random(void)
{
    rng_t r = rng_new(0x7a5de3);
    int iters = check_iters(80);
    for (int kind = 0; kind < N_KINDS; kind++) {
        case_begin();
        for (int it = 0; it < iters && !check_failed_; it++) {
            rv_seq_t *s = random_seq(&r, kind, 2 + rng_below(&r, 120));
            rv_index_t *x = cpu_index(s, 1, 0);
            rv_runs_t idx;
            CHECK(x && rv_runs_get(x, 1, NULL, &idx) == 0, "index: %s", rv_last_error());
            if (!x) continue;
            rv_tandem_filter_t f;
            rv_tandem_filter_init(&f);
            if (rng_below(&r, 2)) { /* everything, or a random filter */
                f.min_len = rng_below(&r, 8), f.min_copies = 2 + (double)rng_below(&r, 3) / 2;
                f.min_period = 1 + rng_below(&r, 3), f.max_period = rng_below(&r, 2) ? UINT64_MAX : 2 + rng_below(&r, 5);
            } else {
                f.min_len = 0;
            }
            uint64_t budgets[3] = {1, rv_runs_job_bytes(1 + rng_below(&r, 40)), 0};
            for (int b = 0; b < 3; b++) {
                check_one(s, &idx, &f, 0, s->n, budgets[b], 1 + 2 * (b & 1), kinds[kind]);
                uint64_t a = rng_below(&r, s->n + 1), c = rng_below(&r, s->n + 1);
                check_one(s, &idx, &f, a < c ? a : c, a < c ? c : a, budgets[b], 2, kinds[kind]);
                check_jobs(s, a < c ? a : c, a < c ? c : a, rv_runs_job_symbols(budgets[b]), kinds[kind]);
            }
            check_jobs(s, 0, s->n, 1 + rng_below(&r, 30), kinds[kind]);
            rv_index_free(x);
        }
        char name[64];
        snprintf(name, sizeof name, "runs_jobs_random_%s", kinds[kind]);
        case_end(name);
    }
}

/* A long periodic segment (runs of thousands of symbols, periods past 255) among
 * short ones. */
static void test_long(void)
{
    case_begin();
    static char a[7000], b[300], c[50];
    rng_t r = rng_new(0x10c);
    for (int i = 0; i < 6000; i++) a[i] = i < 300 ? "ACGT"[rng_below(&r, 4)] : a[i - 300];
    a[3001] = 'T' == a[3001] ? 'G' : 'T'; /* two runs of period 300, overlapping */
    a[6000] = 0;
    random_record(&r, 0, b, 299);
    random_record(&r, 4, c, 49);
    const char *names[3] = {"x", "y", "z"}, *seqs[3] = {b, a, c};
    rv_seq_t *s = rv_seq_from_records(names, seqs, 3, RV_ALPHA_DNA);
    rv_index_t *x = cpu_index(s, 0, 0);
    rv_runs_t idx;
    CHECK(x && rv_runs_get(x, 2, NULL, &idx) == 0, "index: %s", rv_last_error());
    rv_tandem_filter_t f;
    rv_tandem_filter_init(&f);
    for (int k = 0; x && k < 3; k++) {
        runs_t got = {0}, want = {0};
        uint64_t lo = k == 2 ? 2000 : 0, hi = k == 2 ? 3100 : s->n;
        CHECK(rv_runs_each_local(s, lo, hi, k ? 1 : 0, 1 + k, 1, &f, add_run, &got) == 0, "%s", rv_last_error());
        rv_runs_overlapping(&idx, lo, hi, &f, add_run, &want);
        char why[200] = "";
        CHECK(same_runs(&got, &want, why, sizeof why), "long %d: %s", k, why);
        CHECK(want.n > (k == 2 ? 0u : 2u), "long %d: only %llu runs", k, (unsigned long long)want.n);
        free(got.v), free(want.v);
    }
    rv_index_free(x);
    case_end("runs_jobs_long");
}

int main(void)
{
    test_random();
    test_long();
    return check_exit();
}
