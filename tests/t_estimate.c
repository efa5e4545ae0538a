/* t_estimate.c — rv_pairs_estimate (pairs.h, "estimate before running"):
 *   - sample 1 runs every bucket: its pair count equals a brute-force count of the
 *     maximal pairs (every position pair, LCE by direct scan, left check by hand)
 *     on small random inputs of several alphabets, with breakers, several records,
 *     periodic and all-same texts, and equals rv_pairs_buckets_count() with gap and
 *     range filters and on both strands;
 *   - a sample below 1: the pairs of the blocks run never exceed the true count,
 *     the same seed gives the same estimate, and on texts made of repeat families
 *     the estimate lands within 25% of the truth;
 *   - the table: one row per worker count, speed-up 1 for one worker, efficiency =
 *     speed-up / workers, positive times and memory; bad options are refused;
 *   - where W jobs at once lie between alone and the sample's side by side
 *     (pf_estimate_between): 0 for one job, 1 from the sample's own number on,
 *     straight and never falling between. */
#include <math.h>
#include "check.h"
#include "repview/common.h"
#include "repview/pairs.h"
#include "repview/seq.h"
#include "pairs_list.h"
#include "query/pairs_internal.h"

static const char *const kinds[] = {"dnaACGTN", "dnaAC", "periodic", "same", "protein", "text"};
enum { N_KINDS = 6, MAX_REC = 3 };
static const rv_alpha_t kind_alpha[N_KINDS] = {RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_DNA,
                                               RV_ALPHA_PROTEIN, RV_ALPHA_TEXT};

static void random_record(rng_t *r, int kind, char *buf, size_t len)
{
    static const char prot[] = "ACDEFGHIKLMNPQRSTVWYX*";
    size_t period = 1 + rng_below(r, 5);
    for (size_t i = 0; i < len; i++) {
        switch (kind) {
        case 0: buf[i] = rng_below(r, 9) == 0 ? 'N' : "ACGTacgt"[rng_below(r, 8)]; break;
        case 1: buf[i] = rng_below(r, 10) == 0 ? 'N' : "AC"[rng_below(r, 2)]; break;
        case 2: buf[i] = i < period ? "ACGT"[rng_below(r, 4)] : buf[i - period];
                if (rng_below(r, 30) == 0) buf[i] = rng_below(r, 2) ? 'N' : 'G';
                break;
        case 3: buf[i] = 'A'; break;
        case 4: buf[i] = prot[rng_below(r, 8)]; break;
        default: buf[i] = "ab \n"[rng_below(r, 3)]; break;
        }
    }
    buf[len] = 0;
}

static rv_seq_t *random_seq(rng_t *r, int kind, size_t max_len, int strands)
{
    static const char *const names[MAX_REC] = {"r1", "record_two", "r3"};
    char *rec[MAX_REC];
    int nrec = 1 + (int)rng_below(r, MAX_REC);
    for (int i = 0; i < nrec; i++) {
        size_t len = 1 + rng_below(r, max_len);
        rec[i] = malloc(len + 1);
        random_record(r, kind, rec[i], len);
    }
    rv_seq_t *s = rv_seq_from_records(names, (const char *const *)rec, nrec, kind_alpha[kind]);
    if (s && strands == 2 && rv_seq_add_reverse(s, 1) < 0) {
        rv_seq_free(s);
        s = NULL;
    }
    for (int i = 0; i < nrec; i++) free(rec[i]);
    return s;
}

/* Maximal direct pairs of length >= min_len, by brute force: for p1 < p2 the
 * copies run as far as the texts agree (a breaker ends them), and the pair is
 * maximal when the symbols before differ or either copy starts the text or
 * follows a breaker. */
static uint64_t brute_count(const rv_seq_t *s, uint64_t min_len)
{
    uint64_t n = s->n, count = 0;
    for (uint64_t a = 0; a < n; a++)
        for (uint64_t b = a + 1; b < n; b++) {
            uint64_t l = 0;
            while (b + l < n && s->text[a + l] != RV_BREAK && s->text[a + l] == s->text[b + l]) l++;
            if (l < min_len) continue;
            int left = a == 0 || s->text[a - 1] == RV_BREAK || s->text[a - 1] != s->text[b - 1];
            count += left;
        }
    return count;
}

static rv_estimate_opts_t opts(double sample, uint64_t seed, int workers)
{
    rv_estimate_opts_t eo = {sample, seed, 0, workers, 1, 0.01, 0};
    return eo;
}

/* Checks of the table every estimate must pass. */
static void check_table(const rv_estimate_t *e, int workers, const char *what)
{
    CHECK(e->n_rows == workers, "%s: %d rows, want %d", what, e->n_rows, workers);
    for (int i = 0; i < e->n_rows; i++) {
        const rv_estimate_row_t *r = &e->rows[i];
        CHECK(r->workers == i + 1 && r->wall_s > 0 && r->peak_bytes > 0, "%s: row %d", what, i + 1);
        CHECK(fabs(r->efficiency - r->speedup / r->workers) < 1e-9, "%s: efficiency of row %d", what, i + 1);
    }
    CHECK(e->n_rows < 1 || fabs(e->rows[0].speedup - 1) < 1e-12, "%s: one worker's speed-up", what);
    CHECK(e->serial_s >= e->jobs_s && e->jobs_s >= 0 && e->out_bytes >= 70, "%s: times or bytes", what);
}

static void test_exact_random(void)
{
    rng_t r = rng_new(1515);
    char name[64], what[160];
    for (int kind = 0; kind < N_KINDS; kind++) {
        case_begin();
        int iters = check_iters(kind == 3 ? 10 : 40);
        for (int it = 0; it < iters && !check_failed_; it++) {
            rv_seq_t *s = random_seq(&r, kind, 60, 1);
            CHECK(s != NULL, "seq: %s", rv_last_error());
            if (!s) break;
            rv_pairs_opts_t o;
            rv_pairs_opts_init(&o, 1 + rng_below(&r, 7));
            o.threads = 1 + (int)rng_below(&r, 2);
            int workers = 1 + (int)rng_below(&r, 4);
            rv_estimate_opts_t eo = opts(1, it, workers);
            rv_estimate_t e;
            snprintf(what, sizeof what, "%s it %d min %llu n %llu", kinds[kind], it, (unsigned long long)o.min_len,
                     (unsigned long long)s->n);
            CHECK(rv_pairs_estimate(s, &o, &eo, &e) == 0, "%s: %s", what, rv_last_error());
            uint64_t want = brute_count(s, o.min_len);
            CHECK(e.exact && e.pairs == (double)want && e.pairs_counted == want && e.pairs_se == 0,
                  "%s: %.0f pairs (counted %llu), want %llu", what, e.pairs, (unsigned long long)e.pairs_counted,
                  (unsigned long long)want);
            check_table(&e, workers, what);
            rv_estimate_free(&e);
            rv_seq_free(s);
        }
        snprintf(name, sizeof name, "estimate_exact_%s", kinds[kind]);
        case_end(name);
    }
}

/* Filters and both strands: the exact estimate against the bucket path's count. */
static void test_exact_filters(void)
{
    rng_t r = rng_new(1516);
    static const int strand_opts[] = {1, -1, 2};
    char what[160];
    case_begin();
    int iters = check_iters(60);
    for (int it = 0; it < iters && !check_failed_; it++) {
        int both = (int)rng_below(&r, 2), kind = both ? (int)rng_below(&r, 4) : (int)rng_below(&r, N_KINDS);
        rv_seq_t *s = random_seq(&r, kind, 80, both ? 2 : 1);
        CHECK(s != NULL, "seq: %s", rv_last_error());
        if (!s) break;
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, 1 + rng_below(&r, 6));
        random_filters_gap_within(&r, s, (int)rng_below(&r, 8), &o);
        if (both) o.strands = strand_opts[rng_below(&r, 3)];
        uint64_t want = 0;
        CHECK(rv_pairs_buckets_count(s, &o, 0, 0, 1, &want) == 0, "count: %s", rv_last_error());
        rv_estimate_opts_t eo = opts(1, 7, 2);
        rv_estimate_t e;
        snprintf(what, sizeof what, "%s strands %d min %llu it %d", kinds[kind], o.strands,
                 (unsigned long long)o.min_len, it);
        CHECK(rv_pairs_estimate(s, &o, &eo, &e) == 0, "%s: %s", what, rv_last_error());
        CHECK(e.pairs == (double)want, "%s: %.0f pairs, want %llu", what, e.pairs, (unsigned long long)want);
        rv_estimate_free(&e);
        rv_seq_free(s);
    }
    case_end("estimate_exact_filters_strands");
}

/* A text of repeat families: random DNA with copies (a few mutated) of a handful
 * of elements of several lengths and copy numbers, and a tandem array. */
static rv_seq_t *families(rng_t *r, size_t n)
{
    char *t = malloc(n + 1);
    for (size_t i = 0; i < n; i++) t[i] = "ACGT"[rng_below(r, 4)];
    for (int f = 0; f < 6; f++) {
        size_t len = 100 + rng_below(r, 400 << f % 3), copies = 5 + rng_below(r, 40 << (f % 2) * 2);
        char *el = malloc(len);
        for (size_t i = 0; i < len; i++) el[i] = "ACGT"[rng_below(r, 4)];
        for (size_t c = 0; c < copies; c++) {
            size_t at = rng_below(r, n - len);
            memcpy(t + at, el, len);
            for (size_t m = rng_below(r, 4); m > 0; m--) t[at + rng_below(r, len)] = "ACGT"[rng_below(r, 4)];
        }
        free(el);
    }
    size_t at = rng_below(r, n - 3000), period = 2 + rng_below(r, 30);
    for (size_t i = period; i < 3000; i++) t[at + i] = t[at + i - period];
    t[n] = 0;
    const char *names[1] = {"chrF"};
    const char *recs[1] = {t};
    rv_seq_t *s = rv_seq_from_records(names, recs, 1, RV_ALPHA_DNA);
    free(t);
    return s;
}

static void test_sampled(void)
{
    rng_t r = rng_new(1517);
    char what[160];
    case_begin();
    int iters = check_iters(12);
    for (int it = 0; it < iters && !check_failed_; it++) {
        rv_seq_t *s = it % 2 ? families(&r, 200000) : random_seq(&r, (int)rng_below(&r, N_KINDS), 3000, 1);
        CHECK(s != NULL, "seq: %s", rv_last_error());
        if (!s) break;
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, it % 2 ? 20 + rng_below(&r, 40) : 1 + rng_below(&r, 8));
        uint64_t want = 0;
        CHECK(rv_pairs_buckets_count(s, &o, 0, 0, 1, &want) == 0, "count: %s", rv_last_error());
        double share = it % 2 ? 0.1 : 0.02 + 0.3 * (double)rng_below(&r, 3);
        rv_estimate_opts_t eo = opts(share, 100 + it, 3);
        rv_estimate_t e, again;
        snprintf(what, sizeof what, "it %d n %llu min %llu share %.2f want %llu", it, (unsigned long long)s->n,
                 (unsigned long long)o.min_len, share, (unsigned long long)want);
        CHECK(rv_pairs_estimate(s, &o, &eo, &e) == 0 && rv_pairs_estimate(s, &o, &eo, &again) == 0, "%s: %s",
              what, rv_last_error());
        CHECK(e.pairs_counted <= want, "%s: %llu pairs counted in the sample", what,
              (unsigned long long)e.pairs_counted);
        CHECK(e.pairs == again.pairs && e.out_bytes == again.out_bytes && e.blocks_run == again.blocks_run,
              "%s: the same seed gave %.0f and %.0f", what, e.pairs, again.pairs);
        CHECK(!e.exact || e.pairs == (double)want, "%s: exact but %.0f", what, e.pairs);
        if (it % 2) /* the repeat families: within 25% */
            CHECK(fabs(e.pairs - (double)want) <= 0.25 * (double)want, "%s: estimated %.0f", what, e.pairs);
        check_table(&e, 3, what);
        rv_estimate_free(&e);
        rv_estimate_free(&again);
        rv_seq_free(s);
    }
    case_end("estimate_sampled");
}

static void test_bad(void)
{
    case_begin();
    rng_t r = rng_new(1518);
    rv_seq_t *s = random_seq(&r, 0, 100, 1);
    rv_pairs_opts_t o;
    rv_pairs_opts_init(&o, 3);
    rv_estimate_t e;
    static const double shares[] = {0, -0.5, 1.5, NAN};
    for (int i = 0; i < 4; i++) {
        rv_estimate_opts_t eo = opts(shares[i], 1, 2);
        CHECK(rv_pairs_estimate(s, &o, &eo, &e) < 0 && strstr(rv_last_error(), "sample"), "share %g accepted",
              shares[i]);
    }
    rv_estimate_opts_t eo = opts(1, 1, 0);
    CHECK(rv_pairs_estimate(s, &o, &eo, &e) < 0 && strstr(rv_last_error(), "worker"), "no workers accepted");
    rv_pairs_opts_init(&o, 0);
    eo = opts(1, 1, 2);
    CHECK(rv_pairs_estimate(s, &o, &eo, &e) < 0, "min length 0 accepted");
    rv_seq_free(s);
    case_end("estimate_bad_options");
}

static void test_between(void)
{
    case_begin();
    static const double sides[] = {1, 1.5, 2, 7.3, 16, 32};
    for (size_t k = 0; k < sizeof sides / sizeof *sides; k++) {
        const double side = sides[k];
        double prev = 0;
        for (uint64_t w = 1; w <= 64; w++) {
            const double x = pf_estimate_between(w, side);
            const double want = w == 1 ? 0 : side <= 1 ? 1 : fmin(1, (double)(w - 1) / (side - 1));
            CHECK(fabs(x - want) < 1e-12, "side %g, %llu at once: %g, want %g", side, (unsigned long long)w, x, want);
            CHECK(x >= prev && x <= 1, "side %g, %llu at once: %g after %g", side, (unsigned long long)w, x, prev);
            prev = x;
        }
        CHECK(pf_estimate_between(0, side) == 0, "side %g, none at once", side);
    }
    case_end("estimate_between");
}

int main(void)
{
    test_between();
    test_exact_random();
    test_exact_filters();
    test_sampled();
    test_bad();
    return check_exit();
}
