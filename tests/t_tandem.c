/* t_tandem.c — runs (tandem repeats) against brute force: every period at every
 * position, then maximality and smallest period; Lyndon arrays against the
 * definition; the pane queries (covering, overlapping, next/previous) against a
 * scan of all runs; the runs section: its size (12 bytes a run for 32-bit arrays),
 * the same runs and answers after save and load (brute force; runs and periods past
 * 2^16), short or garbled sections rejected.  32- and 64-bit arrays, 1, 2, 3 and 8
 * threads with chunks of a few positions (so that Lyndon chains are cut at chunk
 * edges and finished later), breakers and several records. */
#include <unistd.h>
#include "check.h"
#include "repview/build.h"
#include "repview/common.h"
#include "repview/lce.h"
#include "repview/tandem.h"
#include "index/lyndon.h"
#include "index/runs.h"
#include "index/runs_store.h"

#define MAXN 8192

typedef struct {
    rv_run_t v[MAXN];
    uint64_t n;
} runset_t;

/* ---- brute force ------------------------------------------------------------ */

/* text[s, e) has period q */
static int has_period(const uint8_t *t, uint64_t s, uint64_t e, uint64_t q)
{
    for (uint64_t k = s; k + q < e; k++)
        if (t[k] != t[k + q]) return 0;
    return 1;
}

/* r is a run of u[0, n): two periods, maximal, and no smaller period (O(len * p)). */
static int is_run(const uint8_t *u, uint64_t n, const rv_run_t *r)
{
    int fine = r->end - r->start >= 2 * r->period && has_period(u, r->start, r->end, r->period) &&
               (r->start == 0 || u[r->start - 1] == RV_BREAK || u[r->start - 1] != u[r->start - 1 + r->period]) &&
               (r->end == n || u[r->end] == RV_BREAK || u[r->end] != u[r->end - r->period]);
    for (uint64_t q = 1; q < r->period && fine; q++) fine = !has_period(u, r->start, r->end, q);
    return fine;
}

static int run_cmp(const void *a, const void *b)
{
    const rv_run_t *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->period != y->period) return x->period < y->period ? -1 : 1;
    return x->end < y->end ? -1 : x->end > y->end;
}

/* Every run of t[0, n): for each period p and each left-maximal start s, extend
 * right while the period holds; keep it when it has two periods and no smaller
 * period. */
static void brute_runs(const uint8_t *t, uint64_t n, runset_t *out)
{
    out->n = 0;
    for (uint64_t p = 1; 2 * p <= n; p++)
        for (uint64_t s = 0; s + 2 * p <= n; s++) {
            if (t[s] == RV_BREAK) continue;
            if (s > 0 && t[s - 1] != RV_BREAK && t[s - 1] == t[s - 1 + p]) continue;
            uint64_t k = s;
            while (k + p < n && t[k] == t[k + p] && t[k] != RV_BREAK) k++;
            uint64_t e = k + p;
            if (e - s < 2 * p) continue;
            int smaller = 0;
            for (uint64_t q = 1; q < p && !smaller; q++) smaller = has_period(t, s, e, q);
            if (!smaller && out->n < MAXN) out->v[out->n++] = (rv_run_t){s, e, p};
        }
    qsort(out->v, out->n, sizeof *out->v, run_cmp);
}

/* Code of t under order (breaker and end smallest in both). */
static int ord(const uint8_t *t, uint64_t n, uint64_t i, int order)
{
    if (i >= n || t[i] == RV_BREAK) return -1;
    return order ? 256 - t[i] : t[i];
}

/* t[i, i+len) is a Lyndon word: strictly smaller than each of its proper suffixes */
static int is_lyndon(const uint8_t *t, uint64_t n, uint64_t i, uint64_t len, int order)
{
    for (uint64_t k = 1; k < len; k++) {
        uint64_t h = 0;
        while (i + k + h < i + len && ord(t, n, i + h, order) == ord(t, n, i + k + h, order)) h++;
        if (i + k + h == i + len) return 0; /* the suffix is a prefix: it is smaller */
        if (ord(t, n, i + k + h, order) < ord(t, n, i + h, order)) return 0;
    }
    return 1;
}

/* ---- inputs ----------------------------------------------------------------- */

static rv_index_t *build(const char *const *recs, int nrec, rv_alpha_t alpha, int wide, int threads)
{
    static const char *const names[] = {"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"};
    rv_seq_t *s = rv_seq_from_records(names, recs, nrec, alpha);
    if (!s) return NULL;
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.force_wide = wide;
    o.threads = threads;
    o.with_llr = 0;
    return rv_build(s, &o, NULL);
}

static void random_string(rng_t *g, char *buf, int len, const char *alpha, int breaker_pct,
                          char breaker)
{
    int k = (int)strlen(alpha);
    for (int i = 0; i < len; i++)
        buf[i] = (int)rng_below(g, 100) < breaker_pct ? breaker : alpha[rng_below(g, (uint64_t)k)];
    buf[len] = 0;
}

/* n >= 2000 symbols of DNA with n/100 microsatellites (periods 1..8), with an N
 * inside every 50th when breakers; one record. */
static rv_index_t *build_dna(rng_t *g, int n, int breakers, int wide)
{
    char *buf = malloc((size_t)n + 1);
    random_string(g, buf, n, "ACGT", 0, 'N');
    for (int k = 0; k < n / 100; k++) {
        int p = 1 + (int)rng_below(g, 8), at = (int)rng_below(g, (uint64_t)n - 1000);
        int len = 2 * p + (int)rng_below(g, 60);
        for (int i = p; i < len; i++) buf[at + i] = buf[at + i - p];
        if (breakers && k % 50 == 0) buf[at + len / 2] = 'N';
    }
    const char *t = buf;
    rv_index_t *x = build(&t, 1, RV_ALPHA_DNA, wide, 2);
    free(buf);
    return x;
}

/* Fibonacci word f_k over {a, b} (or A/C), truncated to cap. */
static void fibonacci(char *buf, size_t cap, char a, char b)
{
    char *x = malloc(cap + 1), *y = malloc(cap + 1), *z = malloc(cap + 1);
    x[0] = a; x[1] = 0;
    y[0] = a; y[1] = b; y[2] = 0;
    while (strlen(y) < cap) {
        snprintf(z, cap + 1, "%s%s", y, x);
        strcpy(x, y);
        strcpy(y, z);
    }
    memcpy(buf, y, cap);
    buf[cap] = 0;
    free(x); free(y); free(z);
}

/* ---- checks ----------------------------------------------------------------- */

/* The runs of r as a plain array (free it). */
static rv_run_t *runs_array(const rv_runs_t *r)
{
    rv_run_t *v = malloc((r->n + 1) * sizeof *v);
    for (uint64_t i = 0; i < r->n; i++) v[i] = rv_runs_at(r, i);
    return v;
}

/* a and b hold the same runs in the same order. */
static int runs_same(const rv_runs_t *a, const rv_runs_t *b)
{
    if (a->n != b->n) return 0;
    for (uint64_t i = 0; i < a->n; i++) {
        rv_run_t u = rv_runs_at(a, i), v = rv_runs_at(b, i);
        if (u.start != v.start || u.end != v.end || u.period != v.period) return 0;
    }
    return 1;
}

/* r holds exactly the brute-force runs want (CHECK fails with the first difference). */
static int same_as_brute(const rv_runs_t *r, const runset_t *want, const char *what)
{
    CHECK(r->n == want->n, "%s: %llu runs, brute force %llu", what, (unsigned long long)r->n,
          (unsigned long long)want->n);
    for (uint64_t i = 0; i < r->n && i < want->n; i++) {
        rv_run_t u = rv_runs_at(r, i);
        const rv_run_t *v = &want->v[i];
        if (run_cmp(&u, v) == 0 && u.end == v->end) continue;
        CHECK(0, "%s: run %llu is [%llu,%llu) p=%llu, want [%llu,%llu) p=%llu", what,
              (unsigned long long)i, (unsigned long long)u.start, (unsigned long long)u.end,
              (unsigned long long)u.period, (unsigned long long)v->start, (unsigned long long)v->end,
              (unsigned long long)v->period);
        return 0;
    }
    return r->n == want->n;
}

static const int thread_counts[] = {1, 2, 3, 8};

/* The runs with `threads` threads (and, with g, again with 1, 2, 3 or 8 threads and
 * Lyndon chunks of 1 to 16 positions) against brute force. */
static int check_runs_g(rv_index_t *x, int threads, rng_t *g, const char *what)
{
    runset_t *want = malloc(sizeof *want);
    brute_runs(x->seq->text, x->n, want);
    int ok = 1;
    for (int pass = 0; pass < (g ? 2 : 1) && ok; pass++) {
        int t = threads;
        uint64_t chunk = 0;
        if (pass) {
            t = thread_counts[rng_below(g, 4)];
            chunk = 1 + rng_below(g, 16);
        }
        rv_runs_t *r = rv_runs_compute_chunked(x, t, chunk, NULL);
        CHECK(r != NULL, "%s: compute failed: %s", what, rv_last_error());
        ok = r != NULL;
        if (r) {
            char why[160];
            snprintf(why, sizeof why, "%s (%d threads, chunks of %llu)", what, t, (unsigned long long)chunk);
            ok = same_as_brute(r, want, why);
            CHECK(x->n == 0 || r->n < x->n, "%s: runs theorem: %llu runs for n=%llu", what,
                  (unsigned long long)r->n, (unsigned long long)x->n);
        }
        rv_runs_free(r);
    }
    free(want);
    return ok;
}

static int check_runs(rv_index_t *x, int threads, const char *what) { return check_runs_g(x, threads, NULL, what); }

/* rv_lyndon_visit's visitor: every position with its end once, end final. */
typedef struct {
    int wide;
    uint64_t *seen; /* per position: visits with end > i */
    uint64_t *got;  /* the end it was visited with */
    int busy[8];    /* a visit in progress per thread */
    int clash;
} visits_t;

static void visit_range(void *arg, uint64_t lo, uint64_t hi, const void *end, int thread)
{
    visits_t *v = arg;
    if (thread < 0 || thread >= 8 || __atomic_exchange_n(&v->busy[thread], 1, __ATOMIC_ACQ_REL)) v->clash = 1;
    for (uint64_t i = lo; i < hi; i++) {
        uint64_t e = rv_get(end, v->wide, i - lo);
        if (e == i) continue;
        __atomic_fetch_add(&v->seen[i], 1, __ATOMIC_RELAXED);
        v->got[i] = e;
    }
    if (thread >= 0 && thread < 8) __atomic_store_n(&v->busy[thread], 0, __ATOMIC_RELEASE);
}

/* Both forms (the visitor's and the array) against brute force, with random threads
 * and chunks of 1 to 8 positions. */
static void check_lyndon(rv_index_t *x, rng_t *g, const char *what)
{
    rv_rmq_t *q = rv_rmq_build(x);
    uint64_t *end = malloc((x->n + 1) * 8);
    const uint8_t *t = x->seq->text;
    visits_t v = {x->wide, calloc(x->n + 1, 8), calloc(x->n + 1, 8), {0}, 0};
    for (int order = 0; order < 2; order++) {
        int threads = thread_counts[rng_below(g, 4)];
        uint64_t chunk = 1 + rng_below(g, 8);
        memset(v.seen, 0, (x->n + 1) * 8);
        CHECK(rv_lyndon_visit(x, q, order, threads, chunk, visit_range, &v) == 0, "lyndon failed");
        CHECK(!v.clash, "%s: two visits at once with one thread", what);
        CHECK(rv_lyndon_array(x, q, order, end, thread_counts[rng_below(g, 4)], 1 + rng_below(g, 8)) == 0,
              "lyndon array failed");
        for (uint64_t i = 0; i < x->n; i++) {
            if (t[i] == RV_BREAK) {
                CHECK(rv_get(end, x->wide, i) == i, "%s: order %d, breaker %llu has end %llu", what, order,
                      (unsigned long long)i, (unsigned long long)rv_get(end, x->wide, i));
                continue;
            }
            CHECK(v.seen[i] == 1 && v.got[i] == rv_get(end, x->wide, i),
                  "%s: order %d, position %llu visited %llu times (threads %d chunk %llu)", what, order,
                  (unsigned long long)i, (unsigned long long)v.seen[i], threads, (unsigned long long)chunk);
            uint64_t best = 0;
            for (uint64_t len = 1; i + len <= x->n && t[i + len - 1] != RV_BREAK; len++)
                if (is_lyndon(t, x->n, i, len, order)) best = len;
            uint64_t got = v.got[i] - i;
            CHECK(got == best, "%s: order %d, L[%llu] = %llu, want %llu (threads %d chunk %llu)",
                  what, order, (unsigned long long)i, (unsigned long long)got,
                  (unsigned long long)best, threads, (unsigned long long)chunk);
        }
    }
    free(v.seen);
    free(v.got);
    free(end);
    rv_rmq_free(q);
}

static void random_filter(rng_t *g, rv_tandem_filter_t *f)
{
    rv_tandem_filter_init(f);
    f->min_period = 1 + rng_below(g, 3);
    f->max_period = rng_below(g, 2) ? UINT64_MAX : 2 + rng_below(g, 6);
    f->min_copies = 2.0 + (double)rng_below(g, 5) * 0.5;
    f->min_len = rng_below(g, 12);
}

/* covering / overlapping / next / prev of r against a scan of all its runs, at
 * every position (npos == 0) or at npos random ones */
static void check_queries_of(const rv_runs_t *r, uint64_t n, uint64_t npos, rng_t *g, const char *what)
{
    rv_tandem_filter_t f;
    random_filter(g, &f);
    rv_run_t *all = runs_array(r), *got = malloc((r->n + 1) * sizeof *got);
    for (uint64_t it = 0; it < (npos ? npos : n); it++) {
        uint64_t pos = npos ? rng_below(g, n) : it;
        uint64_t k = rv_runs_covering(r, pos, &f, got, r->n), j = 0;
        for (uint64_t i = 0; i < r->n; i++) {
            const rv_run_t *u = &all[i];
            if (u->start > pos || u->end <= pos || !rv_run_passes(&f, u)) continue;
            CHECK(j < k && run_cmp(&got[j], u) == 0, "%s: covering(%llu) entry %llu differs", what,
                  (unsigned long long)pos, (unsigned long long)j);
            j++;
        }
        CHECK(j == k, "%s: covering(%llu) gave %llu, want %llu", what, (unsigned long long)pos,
              (unsigned long long)k, (unsigned long long)j);
        uint64_t hi = pos + 1 + rng_below(g, 20), want = 0;
        for (uint64_t i = 0; i < r->n; i++)
            want += all[i].start < hi && all[i].end > pos && rv_run_passes(&f, &all[i]);
        CHECK(rv_runs_overlapping(r, pos, hi, &f, NULL, NULL) == want, "%s: overlapping", what);
        int64_t nx = -1, pv = -1;
        for (uint64_t i = 0; i < r->n; i++) {
            if (!rv_run_passes(&f, &all[i])) continue;
            if (nx < 0 && all[i].start > pos) nx = (int64_t)i;
            if (all[i].start < pos) pv = (int64_t)i;
        }
        CHECK(rv_runs_next(r, pos, &f) == nx, "%s: next(%llu)", what, (unsigned long long)pos);
        CHECK(rv_runs_prev(r, pos, &f) == pv, "%s: prev(%llu)", what, (unsigned long long)pos);
    }
    free(all);
    free(got);
}

static void check_queries(rv_index_t *x, rng_t *g, const char *what)
{
    rv_runs_t r;
    CHECK(rv_runs_get(x, 2, NULL, &r) == 0, "%s: rv_runs_get: %s", what, rv_last_error());
    check_queries_of(&r, x->n, 0, g, what);
}

/* ---- cases ------------------------------------------------------------------ */

static void case_random(const char *name, const char *alpha, int maxlen, int breaker_pct,
                        rv_alpha_t a, int iters, uint64_t seed)
{
    case_begin();
    rng_t g = rng_new(seed);
    char buf[4][512];
    for (int it = 0; it < check_iters(iters); it++) {
        int nrec = 1 + (int)rng_below(&g, 3);
        const char *recs[4];
        for (int k = 0; k < nrec; k++) {
            random_string(&g, buf[k], 1 + (int)rng_below(&g, (uint64_t)maxlen), alpha, breaker_pct,
                          a == RV_ALPHA_PROTEIN ? 'X' : 'N');
            recs[k] = buf[k];
        }
        rv_index_t *x = build(recs, nrec, a, it & 1, 1 + (int)rng_below(&g, 3));
        CHECK(x != NULL, "build: %s", rv_last_error());
        if (!x) break;
        if (!check_runs_g(x, 1 + (int)rng_below(&g, 4), it % 3 ? NULL : &g, name)) { rv_index_free(x); break; }
        if (it % 4 == 0 && x->n <= 64) check_lyndon(x, &g, name);
        if (it % 16 == 0) check_queries(x, &g, name);
        rv_index_free(x);
    }
    case_end(name);
}

static void case_words(void)
{
    case_begin();
    static char fib[1000], fib2[400], w[1200];
    fibonacci(fib, 987, 'A', 'C');
    fibonacci(fib2, 377, 'a', 'b');
    const char *texts[] = {fib, fib2, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                           "ACACACACACACANACACACACACACAC", "ACGACGACGACGACGTACGACGACGACG",
                           "abaababaabaababaababaabaababaabab", "aabaabaabaabbaabaabaabaab", "A", "AC"};
    for (size_t k = 0; k < sizeof texts / sizeof *texts; k++)
        for (int wide = 0; wide < 2; wide++) {
            rv_index_t *x = build(&texts[k], 1, RV_ALPHA_AUTO, wide, 2);
            CHECK(x != NULL, "build %zu", k);
            if (!x) continue;
            check_runs(x, 1 + wide * 3, "words");
            rv_index_free(x);
        }
    /* a run-rich word: squares of squares (Thue-Morse prefix, binary) */
    for (int i = 0; i < 1024; i++) w[i] = __builtin_popcount((unsigned)i) & 1 ? 'b' : 'a';
    w[1024] = 0;
    const char *tm = w;
    rv_index_t *x = build(&tm, 1, RV_ALPHA_TEXT, 1, 3);
    CHECK(x && check_runs(x, 3, "thue-morse"), "thue-morse");
    rv_index_free(x);
    case_end("runs_special_words");
}

/* Fibonacci runs: the brute force on a 2584-symbol word (dense runs, long periods). */
static void case_fibonacci_long(void)
{
    case_begin();
    static char fib[2600];
    fibonacci(fib, 2584, 'a', 'b');
    const char *t = fib;
    for (int wide = 0; wide < 2; wide++) {
        rv_index_t *x = build(&t, 1, RV_ALPHA_TEXT, wide, 2);
        CHECK(x != NULL, "build");
        if (x) check_runs(x, 4, "fibonacci");
        rv_index_free(x);
    }
    case_end("runs_fibonacci_2584");
}

/* Inputs past one Lyndon chunk (4096) and with several candidate tasks: brute force
 * on 9000 binary symbols with 3 threads; on 300 kbp of DNA with microsatellites, 1
 * and 3 threads agree and every run is checked (period, 2 copies, maximal). */
static void case_threads(void)
{
    case_begin();
    rng_t g = rng_new(17);
    static char buf[9001];
    random_string(&g, buf, 9000, "ab", 0, 'N');
    const char *t = buf;
    rv_index_t *x = build(&t, 1, RV_ALPHA_TEXT, 0, 2);
    CHECK(x && check_runs(x, 3, "binary 9000"), "binary 9000");
    rv_index_free(x);
    x = build_dna(&g, 300000, 1, 1);
    rv_runs_t *a = x ? rv_runs_compute(x, 1, NULL) : NULL, *b = x ? rv_runs_compute(x, 3, NULL) : NULL;
    CHECK(a && b && runs_same(a, b), "1 vs 3 threads");
    const uint8_t *u = x ? x->seq->text : NULL;
    for (uint64_t i = 0; a && i < a->n; i++) {
        const rv_run_t r = rv_runs_at(a, i);
        int fine = is_run(u, x->n, &r);
        CHECK(fine, "run %llu [%llu,%llu) p=%llu is not a run", (unsigned long long)i,
              (unsigned long long)r.start, (unsigned long long)r.end, (unsigned long long)r.period);
        if (!fine) break;
    }
    CHECK(a && a->n < x->n && a->n > 10000, "%llu runs", a ? (unsigned long long)a->n : 0ull);
    rv_runs_free(a);
    rv_runs_free(b);
    rv_index_free(x);
    case_end("runs_threads_large");
}

/* x saved to a temporary .rvx and loaded back; NULL (CHECK failed) on error. */
static rv_index_t *save_and_load(const rv_index_t *x)
{
    char path[] = "/tmp/t_tandem.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0) return NULL;
    close(fd);
    rv_index_t *y = NULL;
    CHECK(rv_index_save(x, path) == 0, "save: %s", rv_last_error());
    CHECK(rv_index_load(path, NULL, &y) == RV_RVX_OK, "load: %s", rv_last_error());
    unlink(path); /* the mapping stays */
    return y;
}

/* The runs of a loaded index come from the file (expanded from its compact form when
 * first asked for), not recomputed. */
static int get_stored(rv_index_t *y, rv_runs_t *out, const char *what)
{
    CHECK(rv_index_derive(y, RV_SEC_BIT(RV_SEC_RUNS), 1) == 0, "%s: expand: %s", what, rv_last_error());
    const void *sec = rv_index_section(y, RV_SEC_RUNS, NULL);
    CHECK(sec != NULL, "%s: no runs section after reload", what);
    CHECK(rv_runs_get(y, 1, NULL, out) == 0, "%s: get: %s", what, rv_last_error());
    CHECK(rv_index_section(y, RV_SEC_RUNS, NULL) == sec, "%s: the stored runs were rejected", what);
    return sec != NULL && rv_index_section(y, RV_SEC_RUNS, NULL) == sec;
}

/* rv_runs_get attaches RV_SEC_RUNS; a saved and reloaded index answers from it;
 * rv_runs_attach takes runs computed elsewhere, and refuses another index's. */
static void case_section(void)
{
    case_begin();
    const char *recs[] = {"ACACACACACGTTTTTTTTTTTTNNNNAGAGAGAGAGAGAGA", "CAGCAGCAGCAGCAGCAGTT"};
    rv_index_t *x = build(recs, 2, RV_ALPHA_DNA, 0, 1);
    rv_runs_t r, r2;
    CHECK(x && rv_runs_get(x, 1, NULL, &r) == 0, "get");
    CHECK(rv_index_section(x, RV_SEC_RUNS, NULL) != NULL, "section attached");
    rv_index_t *y = x ? save_and_load(x) : NULL;
    if (y && get_stored(y, &r2, "reload")) {
        CHECK(runs_same(&r2, &r), "same runs after reload");
        char motif[8];
        rv_run_t first = rv_runs_at(&r2, 0);
        CHECK(rv_run_motif(y->seq, &first, motif, sizeof motif) == 2 && !strcmp(motif, "AC"),
              "motif %s", motif);
    }
    rv_index_free(y);
    /* computed elsewhere (a worker), then attached; the wide index's runs do not fit
     * the narrow one */
    rv_index_t *w = build(recs, 2, RV_ALPHA_DNA, 1, 1);
    rv_runs_t *c = w ? rv_runs_compute(w, 2, NULL) : NULL;
    int refused = c && x && rv_runs_attach(x, c, NULL) < 0;
    CHECK(refused, "wide runs attached to a narrow index");
    if (!refused) c = NULL; /* none, or taken */
    CHECK(c && rv_runs_attach(w, c, &r2) == 0 && runs_same(&r2, &r), "attach");
    CHECK(w && rv_runs_get(w, 1, NULL, &r2) == 0 && runs_same(&r2, &r), "get after attach");
    rv_index_free(w);
    rv_index_free(x);
    case_end("runs_section_roundtrip");
}

/* The stored runs cost at most 12 bytes each (24 wide) plus a block structure under
 * an eighth of a byte per run (a quarter wide) and a 64-byte header. */
static void case_section_size(void)
{
    case_begin();
    rng_t g = rng_new(21);
    for (int wide = 0; wide < 2; wide++) {
        rv_index_t *x = build_dna(&g, 100000, 0, wide);
        rv_runs_t r;
        uint64_t bytes = 0;
        CHECK(x && rv_runs_get(x, 2, NULL, &r) == 0, "get");
        if (!x) break;
        CHECK(rv_index_section(x, RV_SEC_RUNS, &bytes) != NULL, "section");
        const uint64_t per = wide ? 24 : 12, m = r.n;
        CHECK(m > 10000, "%llu runs", (unsigned long long)m);
        CHECK(bytes >= per * m && bytes <= per * m + m * per / 96 + 64,
              "wide %d: %llu bytes for %llu runs (%.3f per run)", wide, (unsigned long long)bytes,
              (unsigned long long)m, (double)bytes / (double)m);
        rv_index_free(x);
    }
    case_end("runs_section_size");
}

/* Saved and reloaded, the runs equal the brute force and the queries a scan of them;
 * 32- and 64-bit indexes, several records, breakers. */
static void case_section_random(void)
{
    case_begin();
    rng_t g = rng_new(22);
    runset_t *want = malloc(sizeof *want);
    char buf[3][400];
    for (int it = 0; it < check_iters(60); it++) {
        int nrec = 1 + (int)rng_below(&g, 3);
        const char *recs[3];
        for (int k = 0; k < nrec; k++) {
            random_string(&g, buf[k], 1 + (int)rng_below(&g, 350), it % 3 ? "AAAAC" : "ACGT", 2, 'N');
            recs[k] = buf[k];
        }
        rv_index_t *x = build(recs, nrec, RV_ALPHA_DNA, it & 1, 2);
        rv_runs_t r;
        CHECK(x && rv_runs_get(x, 2, NULL, &r) == 0, "build/get: %s", rv_last_error());
        rv_index_t *y = x ? save_and_load(x) : NULL;
        if (y && get_stored(y, &r, "random")) {
            CHECK(y->wide == (it & 1), "width after reload");
            brute_runs(y->seq->text, y->n, want);
            same_as_brute(&r, want, "reloaded");
            check_queries_of(&r, y->n, 0, &g, "reloaded");
        }
        rv_index_free(y);
        rv_index_free(x);
        if (check_failed_) break;
    }
    free(want);
    case_end("runs_section_reload_brute");
}

/* Runs longer than 2^16 and a period above 2^16 survive the stored form: a random
 * 70001-symbol word twice, 40000 x AC, random DNA; 32- and 64-bit. */
static void case_section_long(void)
{
    case_begin();
    enum { P = 70001, AC = 40000, TAIL = 3000 };
    rng_t g = rng_new(23);
    char *sq = malloc(2 * P + 1), *ac = malloc(2 * AC + 3), *tail = malloc(TAIL + 1);
    random_string(&g, sq, P, "ACGT", 0, 'N');
    memcpy(sq + P, sq, P);
    sq[2 * P] = 0;
    ac[0] = 'G';
    for (int i = 0; i < AC; i++) memcpy(ac + 1 + 2 * i, "AC", 2);
    memcpy(ac + 1 + 2 * AC, "T", 2);
    random_string(&g, tail, TAIL, "ACGT", 1, 'N');
    const char *recs[] = {sq, ac, tail};
    for (int wide = 0; wide < 2; wide++) {
        rv_index_t *x = build(recs, 3, RV_ALPHA_DNA, wide, 2);
        rv_runs_t *fresh = x ? rv_runs_compute(x, 2, NULL) : NULL, r;
        CHECK(fresh != NULL, "compute: %s", rv_last_error());
        rv_index_t *y = fresh ? save_and_load(x) : NULL; /* x has no runs: y gets them */
        if (y && rv_runs_get(y, 2, NULL, &r) == 0) {
            rv_index_t *z = save_and_load(y);
            if (z && get_stored(z, &r, "long")) {
                CHECK(runs_same(&r, fresh), "wide %d: reloaded runs differ from computed", wide);
                rv_run_t got[8], big = {0, 2 * P, P}, acs = {2 * P + 2, 2 * P + 2 + 2 * AC, 2};
                uint64_t k = rv_runs_covering(&r, P, NULL, got, 8), hit = 0;
                for (uint64_t i = 0; i < k && i < 8; i++)
                    hit += run_cmp(&got[i], &big) == 0 && got[i].end == big.end;
                CHECK(hit == 1, "wide %d: the period-%d run is not found", wide, P);
                k = rv_runs_covering(&r, acs.start + AC, NULL, got, 8);
                CHECK(k == 1 && run_cmp(&got[0], &acs) == 0 && got[0].end == acs.end, "wide %d: AC run", wide);
                for (uint64_t i = 0; i < r.n && !check_failed_; i++) {
                    rv_run_t u = rv_runs_at(&r, i);
                    CHECK(is_run(z->seq->text, z->n, &u), "run %llu is not a run", (unsigned long long)i);
                }
                check_queries_of(&r, z->n, 200, &g, "long");
            }
            rv_index_free(z);
        }
        rv_index_free(y);
        rv_runs_free(fresh);
        rv_index_free(x);
    }
    free(sq);
    free(ac);
    free(tail);
    case_end("runs_section_long");
}

/* A copy of x's runs section, with bytes of room, for garbling. */
static uint64_t *section_copy(const rv_index_t *x, uint64_t *bytes, uint64_t room)
{
    const void *sec = rv_index_section(x, RV_SEC_RUNS, bytes);
    uint64_t *c = calloc(1, *bytes + room + 8);
    if (sec && c) memcpy(c, sec, *bytes);
    return c;
}

/* A short or oversized runs section is rejected by rv_runs_view; a garbled one is
 * found by rv_runs_check (on one thread and on several), and from a reloaded file by
 * its verification, while rv_runs_get's view of it stays inside the text. */
static void case_section_corrupt(void)
{
    case_begin();
    rng_t g = rng_new(24);
    rv_index_t *x = build_dna(&g, 20000, 0, 0);
    rv_runs_t r, v;
    CHECK(x && rv_runs_get(x, 1, NULL, &r) == 0 && r.n > 4 * RV_RUNS_BLOCK, "get");
    if (!x) { case_end("runs_section_corrupt"); return; }
    rv_run_t *want = runs_array(&r);
    uint64_t bytes, m = r.n, *c = section_copy(x, &bytes, 0);
    CHECK(rv_runs_view(c, bytes, x->n, 0, &v) == 0 && runs_same(&v, &r), "the copy is fine");
    CHECK(rv_runs_view(c, bytes, x->n, 1, &v) < 0, "taken for a wide index");
    CHECK(rv_runs_view(c, bytes, x->n + 1, 0, &v) < 0, "another text length");
    const uint64_t sizes[] = {0, 8, RV_RUNS_HEAD - 8, RV_RUNS_HEAD, bytes / 2, bytes - 4, bytes - 1, bytes + 4};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        uint64_t *d = section_copy(x, &bytes, 8);
        CHECK(rv_runs_view(d, sizes[k], x->n, 0, &v) < 0, "%llu of %llu bytes taken",
              (unsigned long long)sizes[k], (unsigned long long)bytes);
        free(d);
    }
    for (int field = 0; field < 6; field++) { /* each header word */
        uint64_t *d = section_copy(x, &bytes, 0);
        d[field] += field == 3 ? 4 : 1;
        CHECK(rv_runs_view(d, bytes, x->n, 0, &v) < 0, "header word %d changed, taken", field);
        free(d);
    }
    /* contents: a start past the end, a run under two periods, period 0, two runs out
     * of order, a wrong tree entry; attached, or saved and reloaded */
    for (int bad = 0; bad < 10; bad++) {
        uint64_t *d = malloc(bytes), k = rng_below(&g, m - 1);
        memcpy(d, c, bytes);
        rv_runs_cols_t col = rv_runs_columns(d, m, 0);
        uint32_t *st = col.start, *len = col.len, *per = col.period, *bm = col.blockmax;
        switch (bad % 5) {
        case 0: st[k] = (uint32_t)x->n + 5; break;
        case 1: len[k] = 2 * per[k] - 1; break;
        case 2: per[k] = 0; break;
        case 3: { uint32_t t = st[k]; st[k] = st[k + 1] + 1; st[k + 1] = t; } break;
        default: bm[rv_runs_blocks(m) / 2]--; break;
        }
        rv_index_attach(x, RV_SEC_RUNS, d, bytes); /* x owns d now */
        rv_index_t *y = bad < 5 ? NULL : save_and_load(x), *z = y ? y : x;
        const char *how = y ? "reloaded" : "attached";
        if (!y) CHECK(rv_runs_check(z, 1) < 0 && rv_runs_check(z, 3) < 0, "garbling %d (%s) not found", bad % 5, how);
        /* the file keeps the runs, not their tree: a wrong tree entry is rebuilt right,
         * bad runs are refused when the file's form is expanded (and then recomputed) */
        if (y && bad % 5 == 4)
            CHECK(rv_index_verify(y, RV_SEC_BIT(RV_SEC_RUNS), 2) == 0, "tree not rebuilt: %s", rv_last_error());
        else if (y)
            CHECK(rv_index_verify(y, RV_SEC_BIT(RV_SEC_RUNS), 2) < 0 && strstr(rv_last_error(), "corrupt"),
                  "garbling %d (reloaded) passed verification", bad % 5);
        CHECK(rv_runs_get(z, 1, NULL, &v) == 0 && v.n == m, "get (%s): %s", how, rv_last_error());
        for (uint64_t i = 0; i < v.n && !check_failed_; i++) {
            rv_run_t u = rv_runs_at(&v, i);
            char motif[4];
            CHECK(u.start <= u.end && u.end <= z->n && u.period <= u.end - u.start, "run %llu leaves the text",
                  (unsigned long long)i);
            rv_run_motif(z->seq, &u, motif, sizeof motif);
        }
        rv_index_free(y);
    }
    free(c);
    free(want);
    rv_index_free(x);
    case_end("runs_section_corrupt");
}

static void case_filter(void)
{
    case_begin();
    rv_tandem_filter_t f;
    rv_tandem_filter_init(&f);
    rv_run_t a = {0, 10, 5}, b = {0, 9, 3}, c = {4, 14, 1}, d = {0, 10, 4};
    CHECK(rv_run_passes(&f, &a), "10/5 passes defaults");
    CHECK(!rv_run_passes(&f, &b), "length 9 fails --min-len 10");
    CHECK(rv_run_passes(&f, &c), "period 1 passes");
    f.min_period = 2;
    CHECK(!rv_run_passes(&f, &c), "--min-period 2");
    f.max_period = 4;
    CHECK(!rv_run_passes(&f, &a) && rv_run_passes(&f, &d), "--max-period 4");
    f.min_copies = 2.5;
    CHECK(rv_run_passes(&f, &d) && !rv_run_passes(&f, &(rv_run_t){0, 11, 5}), "--min-copies 2.5");
    CHECK(rv_run_passes(NULL, &b), "NULL filter");
    case_end("runs_filter");
}

int main(void)
{
    case_random("runs_random_binary", "ab", 60, 0, RV_ALPHA_TEXT, 3000, 11);
    case_random("runs_random_dna_breakers", "ACGT", 80, 4, RV_ALPHA_DNA, 3000, 12);
    case_random("runs_random_dna_long", "ACGT", 300, 1, RV_ALPHA_DNA, 300, 13);
    case_random("runs_random_ternary", "abc", 60, 0, RV_ALPHA_TEXT, 1500, 14);
    case_random("runs_random_protein", "ACDEFGHIKLMNPQRSTVWY", 80, 3, RV_ALPHA_PROTEIN, 800, 15);
    case_random("runs_random_periodic", "AAAAAAC", 100, 2, RV_ALPHA_DNA, 1000, 16);
    case_random("runs_random_same", "A", 100, 3, RV_ALPHA_DNA, 500, 18);
    case_words();
    case_fibonacci_long();
    case_threads();
    case_section();
    case_section_size();
    case_section_random();
    case_section_long();
    case_section_corrupt();
    case_filter();
    return check_exit();
}
