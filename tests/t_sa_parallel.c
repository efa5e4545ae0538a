/* t_sa_parallel.c — the parallel suffix-array construction (engine/index/
 * sa_parallel.c) against libdivsufsort, which must agree bit for bit: divsufsort on
 * 32-bit arrays, divsufsort64 on 64-bit ones (wide).
 *
 * Inputs: random strings of lengths 1..2000 over alphabets of 1, 2, 4 (the index's
 * DNA text with lone breakers), 20 and 255 symbols and over all bytes (0 included,
 * also at the end); periodic strings (periods 1, 2, 3, 7, 60, and with rare
 * mutations), Fibonacci strings, copies of one string with a few mutations (long
 * repeats: many doubling rounds), many short records.  Each with 1, 2, 3 and 8
 * threads, 32- and 64-bit arrays, and both the default settings and tiny ones
 * (groups of a few suffixes already count as large, work units of 64 positions, a
 * few buckets, a shared buffer of a few bytes or none) so that small inputs take
 * every path of the large ones: the parallel radix pass, the in-place three-way
 * split and the merging of its stripes, rounds in SA order and in text order; and
 * the SA-IS reduction forced (RV_SA_SAIS), with blocks of a few slots so that the
 * threads reading symbols ahead of the induction passes take part.  Every string of
 * up to 10 symbols over 1-3 symbols against sorting by comparison.  Then a few
 * inputs of 1-3 M symbols with the default settings, each also by SA-IS (the
 * collection of copies takes SA-IS by the automatic choice too).  The progress calls
 * must add up to n.
 */
#include <divsufsort.h>
#include <divsufsort64.h>
#include "check.h"
#include "index/sa_parallel.h"

static uint64_t progress_sum;
static void on_progress(void *ud, uint64_t k)
{
    (void)ud;
    progress_sum += k;
}

/* The oracle's arrays of one text. */
typedef struct {
    const uint8_t *t;
    uint64_t n;
    int32_t *r32;
    int64_t *r64;
} oracle_t;

static int oracle_make(oracle_t *o, const uint8_t *t, uint64_t n)
{
    o->t = t;
    o->n = n;
    o->r32 = malloc((n ? n : 1) * sizeof *o->r32);
    o->r64 = malloc((n ? n : 1) * sizeof *o->r64);
    if (!o->r32 || !o->r64) return -1;
    if (n && divsufsort(t, o->r32, (saidx_t)n) != 0) return -1;
    if (n && divsufsort64(t, o->r64, (saidx64_t)n) != 0) return -1;
    return 0;
}

static void oracle_free(oracle_t *o)
{
    free(o->r32);
    free(o->r64);
}

/* One construction compared with the oracle; records a failure with `what`. */
static void check_one(const oracle_t *o, int threads, int wide, const rv_sa_opts_t *opts, const char *what)
{
    uint64_t n = o->n;
    size_t w = wide ? 8 : 4;
    void *sa = malloc((n ? n : 1) * w), *scratch = malloc((n ? n : 1) * w);
    CHECK(sa && scratch, "out of memory");
    if (!sa || !scratch) {
        free(sa);
        free(scratch);
        return;
    }
    rv_sa_opts_t op = opts ? *opts : (rv_sa_opts_t){0};
    op.progress = on_progress;
    progress_sum = 0;
    int rc = rv_sa_parallel_opts(o->t, n, 255, sa, scratch, wide, threads, &op);
    CHECK(rc == 0, "%s: n=%llu threads=%d wide=%d: returned %d", what, (unsigned long long)n, threads, wide, rc);
    uint64_t bad = n;
    for (uint64_t r = 0; rc == 0 && r < n && bad == n; r++) {
        uint64_t got = wide ? ((uint64_t *)sa)[r] : ((uint32_t *)sa)[r];
        uint64_t want = wide ? (uint64_t)o->r64[r] : (uint64_t)(uint32_t)o->r32[r];
        if (got != want) bad = r;
    }
    CHECK(bad == n, "%s: n=%llu threads=%d wide=%d local_max=%llu temp=%llu: SA[%llu] differs", what,
          (unsigned long long)n, threads, wide, (unsigned long long)op.local_max,
          (unsigned long long)op.temp_bytes, (unsigned long long)bad);
    CHECK(rc != 0 || progress_sum == n, "%s: progress added up to %llu of %llu", what,
          (unsigned long long)progress_sum, (unsigned long long)n);
    free(sa);
    free(scratch);
}

/* Settings that make small inputs take the large inputs' paths. */
static rv_sa_opts_t tiny_opts(rng_t *r)
{
    rv_sa_opts_t o = {0};
    o.local_max = 2 + rng_below(r, 30);
    o.chunk = 64 * (1 + rng_below(r, 3));
    o.buckets = 1 + rng_below(r, 60);
    o.par_min = 1;
    switch (rng_below(r, 3)) {
    case 0: o.temp_bytes = 1; break;                         /* no shared buffer */
    case 1: o.temp_bytes = 8 * (1 + rng_below(r, 32)); break; /* a few suffixes */
    default: break;                                           /* n bytes */
    }
    return o;
}

/* Every thread count and width, with default and tiny settings. */
static void check_all(rng_t *r, const uint8_t *t, uint64_t n, const char *what)
{
    oracle_t o;
    if (oracle_make(&o, t, n) < 0) {
        CHECK(0, "%s: the oracle failed", what);
        oracle_free(&o);
        return;
    }
    static const int threads[] = {1, 2, 3, 8};
    for (int wide = 0; wide < 2; wide++)
        for (int k = 0; k < 4; k++) {
            if (k == 0) check_one(&o, threads[k], wide, NULL, what);
            rv_sa_opts_t op = tiny_opts(r);
            check_one(&o, threads[k], wide, &op, what);
            /* the SA-IS reduction, the reduced suffixes by the doubling */
            rv_sa_opts_t is = k & 1 ? tiny_opts(r) : (rv_sa_opts_t){.par_min = 1};
            is.method = RV_SA_SAIS;
            check_one(&o, threads[k], wide, &is, what);
        }
    oracle_free(&o);
}

/* ---- texts --------------------------------------------------------------------------- */

/* The index's text: codes 1..sigma, lone 0s (breakers) with probability 1/brk, none
 * at either end. */
static void text_index(rng_t *r, uint8_t *t, uint64_t n, int sigma, int brk)
{
    for (uint64_t i = 0; i < n; i++) {
        int zero = brk && i > 0 && i + 1 < n && t[i - 1] != 0 && rng_below(r, (uint64_t)brk) == 0;
        t[i] = zero ? 0 : (uint8_t)(1 + rng_below(r, (uint64_t)sigma));
    }
}

/* Any bytes below a (0 anywhere, runs included). */
static void text_bytes(rng_t *r, uint8_t *t, uint64_t n, int a)
{
    for (uint64_t i = 0; i < n; i++) t[i] = (uint8_t)rng_below(r, (uint64_t)a);
}

/* Period p over 1..4, each symbol mutated with probability 1/mut (0: never). */
static void text_periodic(rng_t *r, uint8_t *t, uint64_t n, uint64_t p, int mut)
{
    uint8_t unit[64];
    for (uint64_t i = 0; i < p && i < sizeof unit; i++) unit[i] = (uint8_t)(1 + rng_below(r, 4));
    for (uint64_t i = 0; i < n; i++) {
        t[i] = unit[i % p];
        if (mut && rng_below(r, (uint64_t)mut) == 0) t[i] = (uint8_t)(1 + rng_below(r, 4));
    }
}

/* A prefix of the Fibonacci word over {1, 2}: f1 = 1, f2 = 12, f(k) = f(k-1) f(k-2);
 * each f(k) is a prefix of the next, so t grows by appending its own prefix. */
static void text_fibonacci(uint8_t *t, uint64_t n)
{
    uint64_t a = 1, b = 2; /* |f(k-1)|, |f(k)| */
    t[0] = 1;
    if (n > 1) t[1] = 2;
    while (b < n) {
        uint64_t add = a < n - b ? a : n - b;
        memcpy(t + b, t, add);
        uint64_t c = a + b;
        a = b;
        b = c;
    }
}

/* c copies of a random unit over 1..4, separated by 0, each with a few
 * substitutions; n is set to the total. */
static uint64_t text_copies(rng_t *r, uint8_t *t, uint64_t unit, int c, int subst)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < unit; i++) t[i] = (uint8_t)(1 + rng_below(r, 4));
    n = unit;
    for (int k = 1; k < c; k++) {
        t[n++] = 0;
        memcpy(t + n, t, unit);
        for (int m = 0; m < subst; m++) t[n + rng_below(r, unit)] = (uint8_t)(1 + rng_below(r, 4));
        n += unit;
    }
    return n;
}

/* Many records of 1..maxrec symbols over 1..sigma, one 0 between records. */
static uint64_t text_records(rng_t *r, uint8_t *t, uint64_t cap, int sigma, uint64_t maxrec)
{
    uint64_t n = 0;
    while (n + maxrec + 1 < cap) {
        if (n) t[n++] = 0;
        uint64_t len = 1 + rng_below(r, maxrec);
        for (uint64_t i = 0; i < len; i++) t[n++] = (uint8_t)(1 + rng_below(r, (uint64_t)sigma));
    }
    return n;
}

/* ---- cases ------------------------------------------------------------------------------ */

static void case_random(rng_t *r)
{
    enum { MAXN = 2000 };
    uint8_t *t = malloc(MAXN);
    static const struct { int kind, a, brk; const char *name; } shapes[] = {
        {0, 4, 12, "sa_dna"},        {0, 4, 0, "sa_dna_no_breaker"}, {0, 20, 30, "sa_protein"},
        {0, 255, 50, "sa_text255"},  {1, 2, 0, "sa_bytes2"},          {1, 1, 0, "sa_zeros"},
        {1, 5, 0, "sa_bytes5"},      {1, 256, 0, "sa_bytes256"},
    };
    int iters = check_iters(60);
    for (size_t sh = 0; sh < sizeof shapes / sizeof *shapes; sh++) {
        case_begin();
        for (int it = 0; it < iters; it++) {
            uint64_t n = it < 20 ? 1 + (uint64_t)it : 1 + rng_below(r, it % 4 ? 200 : MAXN);
            if (shapes[sh].kind == 0) text_index(r, t, n, shapes[sh].a, shapes[sh].brk);
            else text_bytes(r, t, n, shapes[sh].a);
            check_all(r, t, n, shapes[sh].name);
        }
        case_end(shapes[sh].name);
    }
    free(t);
}

static void case_structured(rng_t *r)
{
    enum { MAXN = 4000 };
    uint8_t *t = malloc(MAXN);
    char name[64];
    static const uint64_t periods[] = {1, 2, 3, 7, 60};
    for (size_t k = 0; k < sizeof periods / sizeof *periods; k++) {
        snprintf(name, sizeof name, "sa_period%llu", (unsigned long long)periods[k]);
        case_begin();
        for (int it = 0; it < check_iters(12); it++) {
            uint64_t n = 1 + rng_below(r, it & 1 ? MAXN : 300);
            text_periodic(r, t, n, periods[k], it % 3 == 2 ? 200 : 0);
            check_all(r, t, n, name);
        }
        case_end(name);
    }
    case_begin();
    for (uint64_t n = 1; n <= MAXN; n = n * 3 / 2 + 1) {
        text_fibonacci(t, n);
        check_all(r, t, n, "sa_fibonacci");
    }
    case_end("sa_fibonacci");
    case_begin();
    for (int it = 0; it < check_iters(12); it++) {
        uint64_t unit = 20 + rng_below(r, 150);
        int c = 2 + (int)rng_below(r, 20);
        uint64_t n = text_copies(r, t, unit, c, (int)rng_below(r, 4));
        check_all(r, t, n, "sa_copies");
    }
    case_end("sa_copies");
    case_begin();
    for (int it = 0; it < check_iters(12); it++) {
        uint64_t n = text_records(r, t, 200 + rng_below(r, MAXN - 200), it & 1 ? 4 : 20, 1 + rng_below(r, 12));
        check_all(r, t, n, "sa_records");
    }
    case_end("sa_records");
    free(t);
}

/* Copies of a unit (many small groups) beside a periodic run (a few groups larger
 * than local_max, but fewer suffixes than the small ones): the text-order rounds
 * with large groups to pass over. */
static void case_mixed(rng_t *r)
{
    enum { MAXN = 6000 };
    uint8_t *t = malloc(MAXN);
    case_begin();
    for (int it = 0; it < check_iters(20); it++) {
        uint64_t n = text_copies(r, t, 100 + rng_below(r, 100), 12 + (int)rng_below(r, 8), (int)rng_below(r, 3));
        uint64_t run = 150 + rng_below(r, 250), p = 1 + rng_below(r, 3);
        t[n++] = 0;
        text_periodic(r, t + n, run, p, 0);
        n += run;
        oracle_t o;
        if (oracle_make(&o, t, n) < 0) {
            CHECK(0, "the oracle failed");
        } else {
            static const int threads[] = {1, 2, 3, 8};
            for (int k = 0; k < 4; k++) {
                rv_sa_opts_t op = {.local_max = 16 + rng_below(r, 16), .chunk = 64, .par_min = 1};
                if (k & 1) op.temp_bytes = 1;
                check_one(&o, threads[k], k == 3, &op, "sa_mixed");
            }
        }
        oracle_free(&o);
    }
    case_end("sa_mixed");
    free(t);
}

/* Suffixes sorted by comparing them: the plain order, a proper prefix first. */
static const uint8_t *brute_t;
static uint64_t brute_n;
static int cmp_suffix(const void *a, const void *b)
{
    uint64_t i = *(const uint64_t *)a, j = *(const uint64_t *)b;
    while (i < brute_n && j < brute_n) {
        if (brute_t[i] != brute_t[j]) return brute_t[i] < brute_t[j] ? -1 : 1;
        i++;
        j++;
    }
    return i == brute_n ? (j == brute_n ? 0 : -1) : 1;
}

/* SA-IS on every string of up to 10 symbols over 1, 2 and 3 symbols (two symbol
 * sets each, the breaker 0 among them) against sorting by comparison; one thread
 * and 32-bit arrays for all, more threads, wide arrays and the doubling for some. */
static void case_exhaustive(void)
{
    static const uint8_t sets[2][3] = {{0, 1, 2}, {1, 4, 255}};
    uint8_t t[10];
    uint64_t want[10], sa64[10], sc64[10];
    uint32_t sa32[10], sc32[10];
    int lmax = check_iters(10) < 10 ? 7 : 10;
    case_begin();
    uint64_t count = 0;
    for (int set = 0; set < 2; set++)
        for (int a = 1; a <= 3; a++)
            for (int len = 1; len <= lmax; len++) {
                uint64_t total = 1;
                for (int i = 0; i < len; i++) total *= (uint64_t)a;
                for (uint64_t code = 0; code < total; code++, count++) {
                    uint64_t c = code;
                    for (int i = 0; i < len; i++, c /= (uint64_t)a) t[i] = sets[set][c % (uint64_t)a];
                    for (int i = 0; i < len; i++) want[i] = (uint64_t)i;
                    brute_t = t;
                    brute_n = (uint64_t)len;
                    qsort(want, (size_t)len, sizeof *want, cmp_suffix);
                    rv_sa_opts_t o = {.method = RV_SA_SAIS, .progress = on_progress, .chunk = 64};
                    int variant = (int)(count % 5);
                    progress_sum = 0;
                    int rc, bad = 0;
                    if (variant == 4) {
                        o.par_min = 1;
                        rc = rv_sa_parallel_opts(t, (uint64_t)len, 255, sa64, sc64, 1, 2, &o);
                        for (int i = 0; rc == 0 && i < len; i++) bad |= sa64[i] != want[i];
                    } else {
                        if (variant == 3) o.method = RV_SA_DOUBLING;
                        rc = rv_sa_parallel_opts(t, (uint64_t)len, 255, sa32, sc32, 0, variant == 2 ? 3 : 1, &o);
                        for (int i = 0; rc == 0 && i < len; i++) bad |= sa32[i] != want[i];
                    }
                    CHECK(rc == 0 && !bad && progress_sum == (uint64_t)len,
                          "set %d, %d symbols, length %d, string %llu, variant %d: rc %d, %s, progress %llu", set,
                          a, len, (unsigned long long)code, variant, rc, bad ? "differs" : "same",
                          (unsigned long long)progress_sum);
                }
            }
    case_end("sa_exhaustive");
}

/* Inputs of a few million symbols, default settings: buckets of the real size,
 * large groups of the real size. */
static void case_medium(rng_t *r)
{
    enum { MAXN = 3000000 };
    uint8_t *t = malloc(MAXN + 64);
    struct {
        const char *name;
        uint64_t n;
        int threads, wide;
    } c[] = {
        {"sa_medium_dna", 0, 3, 0},       {"sa_medium_copies", 0, 2, 0}, {"sa_medium_same", 0, 3, 0},
        {"sa_medium_period3", 0, 2, 1},   {"sa_medium_records", 0, 8, 0}, {"sa_medium_bytes", 0, 2, 0},
    };
    for (size_t k = 0; k < sizeof c / sizeof *c; k++) {
        uint64_t n = 0;
        switch (k) {
        case 0: n = 3000000; text_index(r, t, n, 4, 5000); break;
        case 1: n = text_copies(r, t, 100000, 20, 30); break;
        case 2: n = 2000000; memset(t, 1, n); break;
        case 3: n = 1000000; text_periodic(r, t, n, 3, 0); break;
        case 4: n = text_records(r, t, 1000000, 20, 40); break;
        case 5: n = 1000000; text_bytes(r, t, n, 256); break;
        }
        case_begin();
        oracle_t o;
        if (oracle_make(&o, t, n) < 0) {
            CHECK(0, "the oracle failed");
        } else {
            check_one(&o, c[k].threads, c[k].wide, NULL, c[k].name);
            rv_sa_opts_t is = {.method = RV_SA_SAIS};
            check_one(&o, c[k].threads, c[k].wide, &is, c[k].name);
            if (k == 1) { /* long repeats with a small shared buffer: split in place */
                rv_sa_opts_t op = {.temp_bytes = 4096, .local_max = 64};
                check_one(&o, 3, 0, &op, c[k].name);
            }
        }
        oracle_free(&o);
        case_end(c[k].name);
    }
    free(t);
}

int main(void)
{
    rng_t r = rng_new(20261206);
    case_random(&r);
    case_structured(&r);
    case_mixed(&r);
    case_exhaustive();
    case_medium(&r);
    return check_exit();
}
