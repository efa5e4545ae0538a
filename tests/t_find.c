/* t_find.c — oracle tests of find (exact, both strands, IUPAC, k mismatches) and
 * overlap: every answer is compared with a naive scan of the records as read, on
 * random inputs of several alphabets, with 32- and 64-bit arrays. */
#include <ctype.h>
#include "check.h"
#include "repview/common.h"
#include "repview/build.h"
#include "repview/find.h"
#include "search/find_internal.h"
#include "hitvec.h"

/* ---- the naive side: works on the raw records, never on the index -------- */

static const char *const iupac[][2] = {
    {"A", "A"}, {"C", "C"}, {"G", "G"}, {"T", "T"}, {"U", "T"}, {"R", "AG"}, {"Y", "CT"},
    {"S", "CG"}, {"W", "AT"}, {"K", "GT"}, {"M", "AC"}, {"B", "CGT"}, {"D", "AGT"},
    {"H", "ACT"}, {"V", "ACG"}, {"N", "ACGT"}};

/* Does the raw text byte t take part in matches in alphabet a? */
static int is_symbol(rv_alpha_t a, unsigned char t)
{
    t = (unsigned char)toupper(t);
    if (a == RV_ALPHA_DNA) return t && strchr("ACGT", t);
    if (a == RV_ALPHA_PROTEIN) return t >= 'A' && t <= 'Z' && t != 'X';
    return t != 0;
}

static char complement(char b)
{
    switch (b) { case 'A': return 'T'; case 'C': return 'G'; case 'G': return 'C'; default: return 'A'; }
}

/* Does pattern letter p match text symbol t (t a symbol); strand '-' compares
 * the complement of the text with p read from the other end (done by caller). */
static int letter_matches(rv_alpha_t a, char p, char t)
{
    p = (char)toupper((unsigned char)p);
    t = (char)toupper((unsigned char)t);
    if (a == RV_ALPHA_DNA) {
        for (size_t i = 0; i < sizeof iupac / sizeof *iupac; i++)
            if (iupac[i][0][0] == p) return strchr(iupac[i][1], t) != NULL;
        return 0;
    }
    if (a == RV_ALPHA_PROTEIN && p == 'X') return 1;
    return p == t;
}


/* Mismatches of pat at raw[g, g+m) on strand s (-1: a breaker inside). */
static int naive_at(const rv_seq_t *s, const char *pat, size_t m, uint64_t g, char strand)
{
    int mm = 0;
    for (size_t i = 0; i < m; i++) {
        char t = s->raw[g + i];
        if (!is_symbol(s->alpha, (unsigned char)t)) return -1;
        int ok = strand == '+' ? letter_matches(s->alpha, pat[i], t)
                               : letter_matches(s->alpha, pat[m - 1 - i],
                                                complement((char)toupper((unsigned char)t)));
        mm += !ok;
    }
    return mm;
}

/* All hits as (global position, strand, mismatches), in (pos, strand) order. */
static void naive_find(const rv_seq_t *s, const char *pat, int strands, int k, uint32_t id, hitvec_t *out)
{
    size_t m = strlen(pat);
    for (uint64_t r = 0; r < s->n_rec; r++)
        for (uint64_t p = 0; p + m <= s->rec[r].len; p++)
            for (int st = 0; st < 2; st++) {
                if (!(strands & (st ? RV_STRAND_REV : RV_STRAND_FWD))) continue;
                int mm = naive_at(s, pat, m, s->rec[r].off + p, st ? '-' : '+');
                if (mm >= 0 && mm <= k)
                    push(out, (rv_hit_t){s->rec[r].off + p, id, (uint16_t)mm, st ? '-' : '+'});
            }
}

static int hit_order(const void *va, const void *vb)
{
    const rv_hit_t *a = va, *b = vb;
    if (a->pos != b->pos) return a->pos < b->pos ? -1 : 1;
    if (a->strand != b->strand) return a->strand == '+' ? -1 : 1;
    return (a->pattern > b->pattern) - (a->pattern < b->pattern);
}

/* ---- random inputs -------------------------------------------------------- */

enum { K_DNA, K_PROTEIN, K_TEXT, K_PERIODIC, K_SAME, N_KINDS };

static void random_record(rng_t *g, int kind, char *buf, size_t len)
{
    static const char dna[] = "ACGTACGTACGTacgtN", prot[] = "ACDEFGHIKLMNPQRSTVWYacdX*",
                      text[] = "ab .Ab!\x01\xff";
    for (size_t i = 0; i < len; i++) {
        switch (kind) {
        case K_DNA:
            buf[i] = dna[rng_below(g, sizeof dna - 1)];
            if (rng_below(g, 40) == 0) buf[i] = "RYn-"[rng_below(g, 4)];
            break;
        case K_PROTEIN: buf[i] = prot[rng_below(g, sizeof prot - 1)]; break;
        case K_TEXT: buf[i] = text[rng_below(g, sizeof text - 1)]; break;
        case K_PERIODIC: buf[i] = rng_below(g, 30) ? "ACGAC"[i % 5] : "ACGTN"[rng_below(g, 5)]; break;
        default: buf[i] = rng_below(g, 50) ? 'a' : 'A';
        }
    }
    buf[len] = 0;
}

static rv_alpha_t kind_alpha(int kind)
{
    return kind == K_PROTEIN ? RV_ALPHA_PROTEIN : kind == K_TEXT ? RV_ALPHA_TEXT : RV_ALPHA_DNA;
}

static rv_index_t *random_index(rng_t *g, int kind, int wide)
{
    char *seqs[4], names[4][8];
    const char *nm[4];
    int n_rec = 1 + (int)rng_below(g, 3);
    for (int r = 0; r < n_rec; r++) {
        size_t len = rng_below(g, 4) == 0 ? rng_below(g, 6) : 20 + rng_below(g, 120);
        seqs[r] = malloc(len + 1);
        random_record(g, kind, seqs[r], len);
        snprintf(names[r], sizeof names[r], "r%d", r);
        nm[r] = names[r];
    }
    rv_seq_t *s = rv_seq_from_records(nm, (const char *const *)seqs, n_rec, kind_alpha(kind));
    for (int r = 0; r < n_rec; r++) free(seqs[r]);
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.threads = 1;
    o.force_wide = wide;
    return s ? rv_build(s, &o, NULL) : NULL;
}

/* A pattern: usually a mutated substring of a record, with IUPAC codes for DNA. */
static void random_pattern(rng_t *g, const rv_seq_t *s, char *pat, size_t maxlen)
{
    static const char dna[] = "ACGTacgtRYSWKMBDHVNnu", prot[] = "ACDEFGHIKLMNPQRSTVWYXx",
                      text[] = "ab .Ab!";
    const char *set = s->alpha == RV_ALPHA_DNA ? dna : s->alpha == RV_ALPHA_PROTEIN ? prot : text;
    size_t m = 1 + rng_below(g, maxlen), k = 0;
    uint64_t r = rng_below(g, s->n_rec);
    if (s->rec[r].len >= m && rng_below(g, 4)) {
        uint64_t p = s->rec[r].off + rng_below(g, s->rec[r].len - m + 1);
        for (; k < m; k++) {
            char c = s->raw[p + k];
            pat[k] = is_symbol(s->alpha, (unsigned char)c) ? c : 'A';
        }
    }
    for (; k < m; k++) pat[k] = set[rng_below(g, strlen(set))];
    for (int e = (int)rng_below(g, 3); e > 0; e--) pat[rng_below(g, m)] = set[rng_below(g, strlen(set))];
    pat[m] = 0;
}

/* Engine hits to global positions, for comparison with the naive scan. */
static void to_global(const rv_seq_t *s, rv_hit_t *h, size_t n)
{
    for (size_t i = 0; i < n; i++) h[i].pos = rv_seq_text_to_global(s, h[i].pos);
}

static int same_hits(const rv_hit_t *a, const rv_hit_t *b, size_t n, size_t *where)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].pos != b[i].pos || a[i].strand != b[i].strand || a[i].mism != b[i].mism ||
            a[i].pattern != b[i].pattern) { *where = i; return 0; }
    return 1;
}

/* ---- cases ---------------------------------------------------------------- */

/* Cover both ways to k mismatches: backtracking (filter off), the pigeonhole
 * filter (default), and a filter that gives up after some pieces. */
static void vary_filter(rng_t *g, rv_pattern_t *p)
{
    switch (rng_below(g, 3)) {
    case 0: p->filter_max = 0; break;
    case 1: p->filter_max = 1 + rng_below(g, 6); break;
    default: break;
    }
}

/* One pattern: count, all hits (rv_find_many of one), pages, next and prev. */
static void check_one(rng_t *g, const rv_index_t *x, const char *pat, int strands, unsigned k, const char *ctx)
{
    const rv_seq_t *s = x->seq;
    hitvec_t want = {0};
    naive_find(s, pat, strands, (int)k, 0, &want);
    rv_pattern_t *p = rv_find_compile(x, pat, strlen(pat), (rv_strand_t)strands, k);
    CHECK(p, "%s: compile '%s' failed: %s", ctx, pat, rv_last_error());
    if (!p) { free(want.h); return; }
    if (rng_below(g, 3) == 0) p->cache_max = 0; /* cover the scanning paths */
    vary_filter(g, p);
    CHECK(rv_find_count(p) == (int64_t)want.n, "%s: '%s' k=%u strands=%d: count %lld, naive %zu", ctx, pat, k,
          strands, (long long)rv_find_count(p), want.n);
    size_t max = 1 + rng_below(g, 8);
    uint64_t from = s->n ? rng_below(g, s->n + 1) : 0;
    rv_hit_t page[8];
    int64_t got = rv_find_page(p, from, page, max);
    uint64_t gfrom = from < s->n ? rv_seq_text_to_global(s, from) : s->glen;
    size_t first = 0;
    while (first < want.n && want.h[first].pos < gfrom) first++;
    size_t expect = want.n - first < max ? want.n - first : max, at = 0;
    to_global(s, page, got > 0 ? (size_t)got : 0);
    CHECK(got == (int64_t)expect && same_hits(page, want.h + first, expect, &at),
          "%s: '%s' page from %llu: got %lld hits, want %zu (differ at %zu)", ctx, pat,
          (unsigned long long)from, (long long)got, expect, at);
    rv_hit_t h;
    int f = rv_find_next(p, (int64_t)from - 1, &h);
    if (f == 1) h.pos = rv_seq_text_to_global(s, h.pos);
    CHECK(f == (first < want.n) && (!f || (h.pos == want.h[first].pos && h.strand == want.h[first].strand)),
          "%s: '%s' next after %lld", ctx, pat, (long long)from - 1);
    f = rv_find_prev(p, from, &h);
    if (f == 1) h.pos = rv_seq_text_to_global(s, h.pos);
    CHECK(f == (first > 0) && (!f || (h.pos == want.h[first - 1].pos && h.strand == want.h[first - 1].strand)),
          "%s: '%s' prev before %llu", ctx, pat, (unsigned long long)from);
    rv_find_free(p);
    free(want.h);
}

/* Several patterns at once through rv_find_many: merged order and ids. */
static void check_many(rng_t *g, const rv_index_t *x, int strands, unsigned k, const char *ctx)
{
    char pats[4][16];
    rv_pattern_t *p[4];
    hitvec_t want = {0};
    int n = 1 + (int)rng_below(g, 4);
    for (int i = 0; i < n; i++) {
        random_pattern(g, x->seq, pats[i], 8);
        naive_find(x->seq, pats[i], strands, (int)k, (uint32_t)i, &want);
        p[i] = rv_find_compile(x, pats[i], strlen(pats[i]), (rv_strand_t)strands, k);
        vary_filter(g, p[i]);
    }
    if (want.n) qsort(want.h, want.n, sizeof *want.h, hit_order);
    rv_hit_t *h = NULL;
    int64_t got = rv_find_many(x, p, (size_t)n, 1 + (int)rng_below(g, 3), &h);
    size_t at = 0;
    if (got > 0) to_global(x->seq, h, (size_t)got);
    CHECK(got == (int64_t)want.n && same_hits(h, want.h, want.n, &at),
          "%s: %d patterns (first '%s'): %lld hits, naive %zu (differ at %zu)", ctx, n, pats[0],
          (long long)got, want.n, at);
    for (int i = 0; i < n; i++) rv_find_free(p[i]);
    free(h);
    free(want.h);
}

static const char *const kind_name[] = {"dna", "protein", "text", "periodic", "same"};

static void test_random_find(int kind, int wide, unsigned maxk)
{
    char name[64];
    snprintf(name, sizeof name, "find_oracle_%s_%s_k%u", kind_name[kind], wide ? "64" : "32", maxk);
    rng_t g = rng_new(1000 + (uint64_t)kind * 7 + (uint64_t)wide * 3 + maxk);
    case_begin();
    int iters = check_iters(150);
    for (int it = 0; it < iters; it++) {
        rv_index_t *x = random_index(&g, kind, wide);
        CHECK(x, "build failed: %s", rv_last_error());
        if (!x) break;
        int dna = x->seq->alpha == RV_ALPHA_DNA;
        for (int q = 0; q < 12; q++) {
            char pat[32], ctx[48];
            random_pattern(&g, x->seq, pat, 12);
            int strands = dna ? 1 + (int)rng_below(&g, 3) : RV_STRAND_FWD;
            unsigned k = (unsigned)rng_below(&g, maxk + 1);
            snprintf(ctx, sizeof ctx, "iter %d", it);
            check_one(&g, x, pat, strands, k, ctx);
        }
        check_many(&g, x, dna ? RV_STRAND_BOTH : RV_STRAND_FWD, (unsigned)rng_below(&g, maxk + 1), "many");
        rv_index_free(x);
    }
    case_end(name);
}

/* ---- overlap -------------------------------------------------------------- */

/* Does q[0, L) (read on strand st) occur at global position gpos?  */
static int prefix_at(const rv_seq_t *s, const char *q, size_t m, size_t L, uint64_t r, uint64_t p, int st)
{
    if (p + L > s->rec[r].len) return 0;
    for (size_t i = 0; i < L; i++) {
        char t = (char)toupper((unsigned char)s->raw[s->rec[r].off + p + i]);
        char c = (char)toupper((unsigned char)q[st ? m - 1 - i : i]);
        if (!is_symbol(s->alpha, (unsigned char)t) || !is_symbol(s->alpha, (unsigned char)c)) return 0;
        if (t != (st ? complement(c) : c)) return 0;
    }
    return 1;
}

static void naive_overlap(const rv_seq_t *s, const char *q, int strands, uint64_t *len, hitvec_t *out)
{
    size_t m = strlen(q);
    for (size_t L = m; L > 0; L--) {
        out->n = 0;
        for (uint64_t r = 0; r < s->n_rec; r++)
            for (uint64_t p = 0; p < s->rec[r].len; p++)
                for (int st = 0; st < 2; st++)
                    if ((strands & (st ? RV_STRAND_REV : RV_STRAND_FWD)) && prefix_at(s, q, m, L, r, p, st))
                        push(out, (rv_hit_t){s->rec[r].off + p, 0, 0, st ? '-' : '+'});
        if (out->n) { *len = L; return; }
    }
    *len = 0;
}

static void test_random_overlap(int kind, int wide)
{
    char name[64];
    snprintf(name, sizeof name, "overlap_oracle_%s_%s", kind_name[kind], wide ? "64" : "32");
    rng_t g = rng_new(5000 + (uint64_t)kind * 11 + (uint64_t)wide);
    case_begin();
    int iters = check_iters(120);
    for (int it = 0; it < iters; it++) {
        rv_index_t *x = random_index(&g, kind, wide);
        CHECK(x, "build failed");
        if (!x) break;
        int dna = x->seq->alpha == RV_ALPHA_DNA;
        for (int q = 0; q < 10; q++) {
            char query[48];
            random_pattern(&g, x->seq, query, 30);
            for (char *c = query; *c; c++) /* queries carry plain letters (N stops them) */
                if (dna && !strchr("ACGTacgtN", *c)) *c = "ACGTN"[rng_below(&g, 5)];
            int strands = dna ? 1 + (int)rng_below(&g, 3) : RV_STRAND_FWD;
            uint64_t len;
            hitvec_t want = {0};
            naive_overlap(x->seq, query, strands, &len, &want);
            rv_overlap_t res;
            int rc = rv_overlap(x, query, strlen(query), (rv_strand_t)strands, &res);
            to_global(x->seq, res.hits, res.n_hits);
            size_t expect = want.n < RV_OVERLAP_MAX_OCC ? want.n : RV_OVERLAP_MAX_OCC, at = 0;
            CHECK(rc == 0 && res.len == len && res.n_occ == want.n && res.n_hits == expect &&
                      same_hits(res.hits, want.h, expect, &at),
                  "iter %d: query '%s' strands %d: len %llu occ %llu, naive len %llu occ %zu (differ at %zu)", it,
                  query, strands, (unsigned long long)res.len, (unsigned long long)res.n_occ,
                  (unsigned long long)len, want.n, at);
            free(want.h);
        }
        rv_index_free(x);
    }
    case_end(name);
}

/* ---- edge cases ----------------------------------------------------------- */

static rv_index_t *index_of(const char *str, rv_alpha_t a, int wide)
{
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.threads = 1;
    o.force_wide = wide;
    return rv_build(rv_seq_from_string(str, strlen(str), a, "s"), &o, NULL);
}

static void test_edges(void)
{
    case_begin();
    rv_index_t *x = index_of("ACGTNNNNacgtGAATTCnAC", RV_ALPHA_DNA, 0);
    CHECK(!rv_find_compile(x, "", 0, RV_STRAND_BOTH, 0), "empty pattern accepted");
    CHECK(!rv_find_compile(x, "AC-G", 4, RV_STRAND_BOTH, 0), "'-' in a DNA pattern accepted");
    rv_pattern_t *p = rv_find_compile(x, "ACGTACGTACGTACGTACGTACGTACGT", 28, RV_STRAND_BOTH, 2);
    CHECK(p && rv_find_count(p) == 0, "pattern longer than the text matched");
    rv_find_free(p);
    p = rv_find_compile(x, "gaattc", 6, RV_STRAND_BOTH, 0); /* palindrome: both strands */
    rv_hit_t h[4];
    CHECK(p && rv_find_page(p, 0, h, 4) == 2 && h[0].strand == '+' && h[1].strand == '-' && h[0].pos == h[1].pos,
          "lower-case palindrome not found on both strands");
    rv_find_free(p);
    p = rv_find_compile(x, "NNNNNN", 6, RV_STRAND_FWD, 0); /* only N: every breaker-free window */
    CHECK(p && rv_find_count(p) == 5, "NNNNNN: %lld windows, want 5", (long long)rv_find_count(p));
    rv_find_free(p);
    p = rv_find_compile(x, "N", 1, RV_STRAND_BOTH, 0);
    CHECK(p && rv_find_count(p) == 2 * 16, "N on both strands: %lld, want 32", (long long)rv_find_count(p));
    rv_find_free(p);
    _Atomic int stop = 1; /* a cancelled search fails, and runs again later */
    p = rv_find_compile(x, "NNN", 3, RV_STRAND_BOTH, 1);
    rv_find_set_cancel(p, &stop);
    CHECK(p && rv_find_count(p) == -1 && strcmp(rv_last_error(), "find: cancelled") == 0, "cancel: %s", rv_last_error());
    stop = 0;
    CHECK(p && rv_find_count(p) == 2 * (2 + 8 + 0), "after cancel: %lld", (long long)rv_find_count(p));
    rv_find_free(p);
    rv_index_t *y = index_of("MKVLAAGXXXMKV", RV_ALPHA_PROTEIN, 1);
    CHECK(!rv_find_compile(y, "MKV", 3, RV_STRAND_BOTH, 0), "protein accepted strand both");
    p = rv_find_compile(y, "mkx", 3, RV_STRAND_FWD, 0);
    CHECK(p && rv_find_count(p) == 2, "protein X wildcard: %lld, want 2", (long long)rv_find_count(p));
    rv_find_free(p);
    rv_overlap_t o;
    CHECK(rv_overlap(x, "NACGT", 5, RV_STRAND_FWD, &o) == 0 && o.len == 0 && o.n_hits == 0, "N query prefix");
    CHECK(rv_overlap(x, "gaattcAAAA", 10, RV_STRAND_BOTH, &o) == 0 && o.len == 6 && o.n_occ == 1,
          "overlap gaattcAAAA: len %llu occ %llu", (unsigned long long)o.len, (unsigned long long)o.n_occ);
    rv_index_free(x);
    rv_index_free(y);
    case_end("find_edges");
}

/* rv_hits_sort on millions of hits (the radix passes on several threads) and on
 * few: the order of qsort by (position, strand, pattern), equal keys included. */

static void test_hits_sort(void)
{
    case_begin();
    rng_t g = rng_new(77);
    const uint64_t sizes[] = {0, 1, 300, 5000, (uint64_t)(3u << 20) + 17};
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        const uint64_t n = sizes[z], span = z % 2 ? 1000 : 1ull << 33; /* many equal positions, or few */
        rv_hit_t *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
        for (uint64_t i = 0; i < n; i++)
            a[i] = (rv_hit_t){rng_below(&g, span), (uint32_t)rng_below(&g, 1u << 20), (uint16_t)rng_below(&g, 3),
                              rng_below(&g, 2) ? '+' : '-'};
        memcpy(b, a, n * sizeof *a);
        const int threads = (int)(z % 3); /* every core, one, two */
        CHECK(rv_hits_sort(a, n, threads) == 0, "n=%llu: sort failed", (unsigned long long)n);
        qsort(b, n, sizeof *b, hit_order);
        uint64_t bad = 0;
        for (uint64_t i = 0; i < n; i++)
            bad += a[i].pos != b[i].pos || a[i].strand != b[i].strand || a[i].pattern != b[i].pattern;
        CHECK(bad == 0, "n=%llu: %llu hits out of place", (unsigned long long)n, (unsigned long long)bad);
        free(a), free(b);
    }
    case_end("hits_sort");
}

int main(void)
{
    test_edges();
    test_hits_sort();
    for (int kind = 0; kind < N_KINDS; kind++)
        for (int wide = 0; wide < 2; wide++) {
            test_random_find(kind, wide, 0);
            test_random_find(kind, wide, 2);
        }
    for (int kind = 0; kind < N_KINDS; kind++)
        for (int wide = 0; wide < 2; wide++) test_random_overlap(kind, wide);
    return check_exit();
}
