/* t_find_text.c — pattern matches from the text alone (find.h "from the text
 * alone") against the index path (rv_find_many, itself checked against brute force
 * in t_find.c) and against brute force here:
 *   - random small inputs (DNA with N, two-letter DNA, protein, text, periodic,
 *     all-same), one to six patterns cut from the text or random, mutated, with
 *     IUPAC codes (DNA) or X (protein), 0 to 4 mismatches (past the enumeration
 *     cap: checked everywhere), strands both, + and -;
 *   - the text cut into ranges scanned separately (as ranks do), 1 and 3 threads:
 *     the ranges' hits joined in order are the index's, in its order. */
#include <string.h>
#include "check.h"
#include "repview/build.h"
#include "repview/common.h"
#include "repview/find.h"
#include "random_seq.h"

enum { MAX_PATS = 6 };

/* A pattern: a piece of the records or random letters, some symbols changed. */
static void random_pattern(rng_t *r, int kind, const rv_seq_t *s, char *buf, size_t len)
{
    static const char *const letters[N_KINDS] = {"ACGTRYNSWKMBDHV", "ACN", "ACDEFGHIKX", "ab c", "ACGTN", "AN"};
    const char *l = letters[kind];
    if (s->glen > len && rng_below(r, 3)) {
        memcpy(buf, s->raw + rng_below(r, s->glen - len), len);
        for (size_t i = 0; i < len; i++)
            if (rng_below(r, 6) == 0) buf[i] = l[rng_below(r, strlen(l))];
    } else {
        for (size_t i = 0; i < len; i++) buf[i] = l[rng_below(r, strlen(l))];
    }
    for (size_t i = 0; i < len; i++) /* '*' matches nothing in a protein pattern */
        if (buf[i] == '*') buf[i] = 'A';
    buf[len] = 0;
}

/* Brute force: every position and pattern strand, Hamming distance over the raw
 * letters' codes through the compiled pattern's own sets. */
static int hit_order(const rv_hit_t *a, const rv_hit_t *b)
{
    if (a->pos != b->pos) return a->pos < b->pos ? -1 : 1;
    if (a->strand != b->strand) return a->strand == '+' ? -1 : 1;
    return a->pattern < b->pattern ? -1 : a->pattern > b->pattern;
}

static int same_hits(const rv_hit_t *a, int64_t na, const rv_hit_t *b, int64_t nb, char *why, size_t len)
{
    if (na != nb) return snprintf(why, len, "%lld hits, want %lld", (long long)na, (long long)nb), 0;
    for (int64_t i = 0; i < na; i++)
        if (hit_order(&a[i], &b[i]) || a[i].mism != b[i].mism)
            return snprintf(why, len, "hit %lld is (%llu %c p%u m%u), want (%llu %c p%u m%u)", (long long)i,
                            (unsigned long long)a[i].pos, a[i].strand, a[i].pattern, a[i].mism,
                            (unsigned long long)b[i].pos, b[i].strand, b[i].pattern, b[i].mism), 0;
    return 1;
}

static void test_random(void)
{
    rng_t r = rng_new(0xf1e7);
    int iters = check_iters(150);
    for (int kind = 0; kind < N_KINDS; kind++) {
        case_begin();
        const int dna = kind != 2 && kind != 3;
        for (int it = 0; it < iters && !check_failed_; it++) {
            rv_seq_t *s = random_seq(&r, kind, 2 + rng_below(&r, 150));
            rv_index_t *x = cpu_index(s, 1, 0);
            CHECK(x != NULL, "build: %s", rv_last_error());
            if (!x) continue;
            size_t np = 1 + rng_below(&r, MAX_PATS);
            rv_strand_t strand = !dna ? RV_STRAND_FWD : (rv_strand_t)(1 + rng_below(&r, 3));
            unsigned k = (unsigned)rng_below(&r, 5);
            rv_pattern_t *px[MAX_PATS], *ps[MAX_PATS];
            char buf[64], desc[400];
            size_t dl = 0;
            for (size_t j = 0; j < np; j++) {
                size_t len = 1 + rng_below(&r, 14);
                random_pattern(&r, kind, s, buf, len);
                px[j] = rv_find_compile(x, buf, len, strand, k);
                ps[j] = rv_find_compile_seq(s, buf, len, strand, k);
                CHECK(px[j] && ps[j], "compile '%s': %s", buf, rv_last_error());
                dl += (size_t)snprintf(desc + dl, sizeof desc - dl, "%s ", buf);
                if (dl >= sizeof desc) dl = sizeof desc - 1;
            }
            rv_hit_t *want = NULL, *got = NULL;
            int64_t nw = !check_failed_ ? rv_find_many(x, px, np, 1, &want) : -1;
            rv_find_text_t *f = !check_failed_ ? rv_find_text_new(s, ps, np) : NULL;
            CHECK(nw >= 0 && f, "index or filing: %s", rv_last_error());
            /* the text cut at random points, each range on its own */
            uint64_t cut[4] = {0, rng_below(&r, s->n + 1), rng_below(&r, s->n + 1), s->n};
            if (cut[1] > cut[2]) { uint64_t t = cut[1]; cut[1] = cut[2]; cut[2] = t; }
            int64_t ng = 0;
            for (int q = 0; q < 3 && f && !check_failed_; q++) {
                rv_hit_t *part;
                int64_t m = rv_find_text_range(f, cut[q], cut[q + 1], 1 + 2 * (q & 1), &part);
                CHECK(m >= 0, "scan: %s", rv_last_error());
                if (m < 0) break;
                got = realloc(got, (size_t)(ng + m + 1) * sizeof *got);
                if (m) memcpy(got + ng, part, (size_t)m * sizeof *got);
                ng += m;
                free(part);
            }
            char why[200] = "";
            CHECK(check_failed_ || same_hits(got, ng, want, nw, why, sizeof why),
                  "%s strand %d k %u patterns %s(prefix k %d): %s", kinds[kind], strand, k, desc,
                  f ? rv_find_text_k(f) : 0, why);
            free(want), free(got);
            rv_find_text_free(f);
            for (size_t j = 0; j < np; j++) rv_find_free(px[j]), rv_find_free(ps[j]);
            rv_index_free(x);
        }
        char name[64];
        snprintf(name, sizeof name, "find_text_random_%s", kinds[kind]);
        case_end(name);
    }
}

/* Long patterns, many of them, on a bigger text: the filing (one code each) and
 * tasks of the scan. */
static void test_many(void)
{
    case_begin();
    rng_t r = rng_new(0x3a3a);
    static char a[600000];
    random_record(&r, 0, a, sizeof a - 1);
    const char *names[1] = {"x"}, *seqs[1] = {a};
    rv_seq_t *s = rv_seq_from_records(names, seqs, 1, RV_ALPHA_DNA);
    rv_index_t *x = cpu_index(s, 0, 0);
    enum { NP = 300 };
    rv_pattern_t *px[NP], *ps[NP];
    char buf[40];
    for (int j = 0; x && j < NP; j++) {
        random_pattern(&r, 0, s, buf, 12 + rng_below(&r, 20));
        px[j] = rv_find_compile(x, buf, strlen(buf), RV_STRAND_BOTH, (unsigned)(j % 3));
        ps[j] = rv_find_compile_seq(s, buf, strlen(buf), RV_STRAND_BOTH, (unsigned)(j % 3));
    }
    rv_hit_t *want = NULL, *got = NULL;
    int64_t nw = x ? rv_find_many(x, px, NP, 2, &want) : -1;
    rv_find_text_t *f = x ? rv_find_text_new(s, ps, NP) : NULL;
    int64_t ng = f ? rv_find_text_range(f, 0, s->n, 2, &got) : -1;
    char why[200] = "";
    CHECK(nw > 100 && ng >= 0 && same_hits(got, ng, want, nw, why, sizeof why), "%lld hits, %lld from the text: %s",
          (long long)nw, (long long)ng, why);
    free(want), free(got);
    rv_find_text_free(f);
    for (int j = 0; x && j < NP; j++) rv_find_free(px[j]), rv_find_free(ps[j]);
    rv_index_free(x);
    case_end("find_text_many_patterns");
}

int main(void)
{
    test_random();
    test_many();
    return check_exit();
}
