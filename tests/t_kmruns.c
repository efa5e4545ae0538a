/* t_kmruns.c — k-mismatch runs (kmruns.h) against the definition, exhaustively.
 *
 * For small random texts (DNA with N, two-letter DNA, protein, text, periodic with
 * substitutions, all-same; one to three records) the brute force takes every
 * interval [a, b) of every segment and period p, counts the mismatches of the
 * interval against itself shifted by p, keeps those with at most k that no symbol
 * at either end extends, applies the length, copies and period filters and drops
 * those with at most 2k mismatches at a dividing period; the consensus is computed column by
 * column.  rv_kmruns_find must give the same list (start, end, period,
 * mismatches, motif) for k = 0..4, random filters and regions, 1 and 3 threads.
 * Texts up to 400 symbols put runs across the 64-comparison words. */
#include "check.h"
#include "repview/common.h"
#include "repview/kmruns.h"
#include "repview/seq.h"

enum { MAXL = 400, MAXOUT = 1 << 18 };

/* mismatches of text[a, b) against itself shifted by p */
static uint64_t mism(const uint8_t *t, uint64_t a, uint64_t b, uint64_t p)
{
    uint64_t c = 0;
    for (uint64_t i = a; i + p < b; i++) c += t[i] != t[i + p];
    return c;
}

typedef struct { uint64_t a, b, p, m; } win_t;

/* every maximal window with b - a >= 2p of every period 1..P */
static uint64_t brute_windows(const rv_seq_t *s, uint64_t k, uint64_t P, win_t *w)
{
    const uint8_t *t = s->text;
    uint64_t n = 0;
    for (uint64_t sl = 0; sl < s->n;) {
        if (t[sl] == RV_BREAK) { sl++; continue; }
        uint64_t sh = sl;
        while (sh < s->n && t[sh] != RV_BREAK) sh++;
        for (uint64_t p = 1; p <= P; p++)
            for (uint64_t a = sl; a < sh; a++)
                for (uint64_t b = a + 2 * p; b <= sh; b++) {
                    const uint64_t m = mism(t, a, b, p);
                    if (m > k) break; /* grows with b */
                    if (a > sl && mism(t, a - 1, b, p) <= k) continue;
                    if (b < sh && mism(t, a, b + 1, p) <= k) continue;
                    if (n < MAXOUT) w[n++] = (win_t){a, b, p, m};
                }
        sl = sh;
    }
    return n;
}

static uint64_t least(const rv_kmruns_opts_t *o, uint64_t p)
{
    uint64_t l = 2 * p > o->min_len ? 2 * p : o->min_len;
    while ((double)l < o->min_copies * (double)p) l++;
    return l;
}

static int by_start(const void *x, const void *y)
{
    const win_t *a = x, *b = y;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return a->p < b->p ? -1 : a->p > b->p;
}

static void brute_motif(const uint8_t *t, const win_t *w, uint8_t *mot)
{
    for (uint64_t c = 0; c < w->p; c++) {
        uint64_t cnt[256] = {0}, most = 0;
        for (uint64_t q = w->a + c; q < w->b; q += w->p) cnt[t[q]]++;
        for (int v = 0; v < 256; v++) if (cnt[v] > most) most = cnt[v];
        if (cnt[t[w->a + c]] == most) { mot[c] = t[w->a + c]; continue; }
        for (int v = 0; v < 256; v++) if (cnt[v] == most) { mot[c] = (uint8_t)v; break; }
    }
}

static void make_text(rng_t *r, int kind, char *buf, size_t len)
{
    static const char *const sets[] = {"ACGTN", "AC", "ACDEFGHIKLMNPQRSTVWY", "abcdefgh ", "ACGT", "A"};
    const char *set = sets[kind];
    const size_t ns = strlen(set);
    if (kind == 4) { /* periodic with substitutions and N */
        const size_t p = 1 + rng_below(r, 12);
        char motif[16];
        for (size_t i = 0; i < p; i++) motif[i] = set[rng_below(r, 4)];
        for (size_t i = 0; i < len; i++) {
            buf[i] = motif[i % p];
            if (rng_below(r, 100) < 6) buf[i] = set[rng_below(r, 4)];
            if (rng_below(r, 300) == 0) buf[i] = 'N';
        }
    } else {
        for (size_t i = 0; i < len; i++) buf[i] = set[rng_below(r, ns)];
        if (kind == 0) /* some low-complexity stretches */
            for (size_t i = 0; i + 20 < len; i += 40) {
                const size_t p = 1 + rng_below(r, 6);
                for (size_t j = p; j < 20; j++) buf[i + j] = rng_below(r, 10) ? buf[i + j - p] : 'G';
            }
    }
    buf[len] = 0;
}

static void test_random(void)
{
    static const char *const kinds[] = {"dnaN", "dnaAC", "protein", "text", "periodic", "same"};
    static const rv_alpha_t alpha_of[6] = {RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_PROTEIN, RV_ALPHA_TEXT, RV_ALPHA_DNA,
                                           RV_ALPHA_DNA};
    static win_t w[MAXOUT], want[MAXOUT];
    static uint8_t mot[MAXL];
    rng_t r = rng_new(41);
    for (int kind = 0; kind < 6; kind++) {
        case_begin();
        char name[64];
        snprintf(name, sizeof name, "kmruns_random_%s", kinds[kind]);
        for (int it = 0; it < check_iters(40) && !check_failed_; it++) {
            static char bufs[3][MAXL + 1];
            const int nrec = 1 + (int)rng_below(&r, 3);
            const char *names[3] = {"r1", "r2", "r3"}, *seqs[3];
            const size_t most = it % 4 == 0 ? MAXL : 90;
            for (int i = 0; i < nrec; i++) {
                make_text(&r, kind, bufs[i], 1 + rng_below(&r, most / (size_t)nrec));
                seqs[i] = bufs[i];
            }
            rv_seq_t *s = rv_seq_from_records(names, seqs, nrec, alpha_of[kind]);
            CHECK(s != NULL, "sequence");
            if (!s) break;
            rv_kmruns_opts_t o = {rng_below(&r, 5), 1, 1 + rng_below(&r, 40), rng_below(&r, 30), 2};
            if (it % 3 == 1) o.min_period = 1 + rng_below(&r, 4);
            if (it % 5 == 2) o.min_copies = 2 + (double)rng_below(&r, 8) / 4;
            if (o.min_period > o.max_period) o.min_period = o.max_period;
            uint64_t lo = 0, hi = s->n;
            if (it % 4 == 3) lo = rng_below(&r, s->n), hi = lo + rng_below(&r, s->n - lo + 1);
            /* brute force: windows, filters, the dividing periods */
            const uint64_t nw = brute_windows(s, o.k, o.max_period, w);
            CHECK(nw < MAXOUT, "brute force overflow");
            uint64_t nwant = 0;
            for (uint64_t i = 0; i < nw; i++) {
                const win_t *x = &w[i];
                if (x->p < o.min_period || x->b - x->a < least(&o, x->p) || x->b <= lo || x->a >= hi) continue;
                int drop = 0;
                for (uint64_t q = 1; q < x->p && !drop; q++)
                    drop = x->p % q == 0 && mism(s->text, x->a, x->b, q) <= 2 * o.k;
                if (!drop) want[nwant++] = *x;
            }
            qsort(want, nwant, sizeof *want, by_start);
            for (int th = 1; th <= 3 && !check_failed_; th += 2) {
                rv_kmrun_set_t a;
                CHECK(rv_kmruns_find(s, lo, hi, &o, th, &a) == 0, "find: %s", rv_last_error());
                CHECK(a.n == nwant, "it %d k %llu P %llu L %llu: %llu runs, want %llu", it, (unsigned long long)o.k,
                      (unsigned long long)o.max_period, (unsigned long long)o.min_len, (unsigned long long)a.n,
                      (unsigned long long)nwant);
                for (uint64_t i = 0; i < a.n && i < nwant && !check_failed_; i++) {
                    const rv_kmrun_t *g = &a.v[i];
                    const win_t *x = &want[i];
                    CHECK(g->start == x->a && g->end == x->b && g->period == x->p && g->mismatches == x->m,
                          "it %d run %llu: [%llu,%llu) p %llu m %llu, want [%llu,%llu) p %llu m %llu", it,
                          (unsigned long long)i, (unsigned long long)g->start, (unsigned long long)g->end,
                          (unsigned long long)g->period, (unsigned long long)g->mismatches, (unsigned long long)x->a,
                          (unsigned long long)x->b, (unsigned long long)x->p, (unsigned long long)x->m);
                    brute_motif(s->text, x, mot);
                    CHECK(memcmp(mot, a.motifs + g->motif, x->p) == 0, "it %d run %llu: motif", it,
                          (unsigned long long)i);
                }
                rv_kmruns_free(&a);
            }
            rv_seq_free(s);
        }
        case_end(name);
    }
}

/* A substitution inside a repeat costs two mismatches at its period (against the
 * copy before and the one after): with k = 2 the repeat is one run, with k = 1 two
 * runs that overlap across the substitution, with k = 0 the two exact runs. */
static int has_run(const rv_kmrun_set_t *a, const rv_seq_t *s, uint64_t start, uint64_t end, uint64_t m)
{
    uint8_t want[10]; /* the repeat's motif read from start, the substitution outvoted */
    for (uint64_t c = 0; c < 10; c++) want[c] = s->text[(start + c) % 10];
    for (uint64_t i = 0; i < a->n; i++)
        if (a->v[i].period == 10 && a->v[i].start == start && a->v[i].end == end && a->v[i].mismatches == m &&
            memcmp(a->motifs + a->v[i].motif, want, 10) == 0)
            return 1;
    return 0;
}

static void test_planted(void)
{
    case_begin();
    char buf[301];
    for (int i = 0; i < 300; i++) buf[i] = "ACGTTGCAAC"[i % 10];
    buf[300] = 0;
    buf[150] = 'G'; /* an A */
    const char *names[1] = {"c"}, *seqs[1] = {buf};
    rv_seq_t *s = rv_seq_from_records(names, seqs, 1, RV_ALPHA_DNA);
    CHECK(s != NULL, "sequence");
    for (uint64_t k = 0; s && k <= 2; k++) {
        rv_kmruns_opts_t o = {k, 1, 50, 30, 2};
        rv_kmrun_set_t a;
        CHECK(rv_kmruns_find(s, 0, s->n, &o, 2, &a) == 0, "find: %s", rv_last_error());
        if (k == 2) CHECK(has_run(&a, s, 0, 300, 2), "k 2: one run over the whole text");
        if (k == 1) CHECK(has_run(&a, s, 0, 160, 1) && has_run(&a, s, 141, 300, 1), "k 1: two runs");
        if (k == 0) CHECK(has_run(&a, s, 0, 150, 0) && has_run(&a, s, 151, 300, 0), "k 0: the exact runs");
        rv_kmruns_free(&a);
    }
    rv_seq_free(s);
    case_end("kmruns_planted");
}

int main(void)
{
    test_planted();
    test_random();
    return check_exit();
}
