/* t_lr.c — longest repeats (lr.h) against a brute-force oracle.
 *
 * The oracle knows nothing of suffix arrays: on the records as written (global
 * coordinates) it compares characters directly to list, for every position k,
 * every substring that contains k, lies in one record, has no breaker and occurs
 * at least twice; the LRs of k are the longest of them.  Every algorithm (raw and
 * compact walks, the sweep, leftmost and all, the O(n) baseline, rv_lr_at with and
 * without the LLR sections) must give exactly the oracle's answer. */
#include <ctype.h>
#include <unistd.h>
#include "check.h"
#include "repview/build.h"
#include "repview/common.h"
#include "repview/lce.h"
#include "repview/lr.h"
#include "query/lr_internal.h"
#include "index/lr_arrays.h"

#define MAXN 80

/* ---- the oracle ------------------------------------------------------------- */

typedef struct {
    int n;
    int code[MAXN]; /* 0 = breaker */
    int rec[MAXN];
    int lce[MAXN + 1][MAXN + 1];
    int maxrep[MAXN]; /* longest substring starting at i that occurs elsewhere too */
} oracle_t;

static int fold(rv_alpha_t a, unsigned char c)
{
    int u = toupper(c);
    if (a == RV_ALPHA_DNA) return strchr("ACGT", u) && u ? u : 0;
    if (a == RV_ALPHA_PROTEIN) return u >= 'A' && u <= 'Z' && u != 'X' ? u : 0;
    return u;
}

/* From codes + record ids: lce by direct comparison, repeats by definition. */
static void oracle_init(oracle_t *o)
{
    for (int i = 0; i <= o->n; i++) o->lce[i][o->n] = o->lce[o->n][i] = 0;
    for (int i = o->n - 1; i >= 0; i--)
        for (int j = o->n - 1; j >= 0; j--) {
            int same = o->code[i] && o->code[i] == o->code[j];
            int cont = i + 1 < o->n && j + 1 < o->n && o->rec[i + 1] == o->rec[i] && o->rec[j + 1] == o->rec[j];
            o->lce[i][j] = same ? 1 + (cont ? o->lce[i + 1][j + 1] : 0) : 0;
        }
    for (int i = 0; i < o->n; i++) {
        o->maxrep[i] = 0;
        for (int j = 0; j < o->n; j++)
            if (j != i && o->lce[i][j] > o->maxrep[i]) o->maxrep[i] = o->lce[i][j];
    }
}

/* Repeats S[i, j) with i <= a and j >= b (a point query is b = a + 1): the longest
 * ones, by enumerating every such substring.  Returns the count, fills out. */
static int oracle_cover(const oracle_t *o, int a, int b, rv_lr_t *out)
{
    int best = 0, cnt = 0;
    for (int i = 0; i <= a; i++)
        for (int j = b; j <= o->n; j++)
            if (j - i <= o->maxrep[i] && j - i > best) best = j - i; /* occurs twice */
    if (!best) return 0;
    for (int i = 0; i <= a; i++)
        if (i + best >= b && o->maxrep[i] >= best) out[cnt++] = (rv_lr_t){(uint64_t)i, (uint64_t)best};
    return cnt;
}

/* ---- random inputs ----------------------------------------------------------- */

enum { K_DNA, K_PROTEIN, K_TEXT, K_BINARY, K_PERIODIC, K_SAME, K_COUNT };
static const char *const kind_name[] = {"dna", "protein", "text", "binary", "periodic", "same"};

static void random_record(rng_t *r, int kind, char *buf, int len)
{
    static const char *const sets[] = {"ACGTACGTACGTacgtN", "ACDEFGHIKLMNPQRSTVWYx", "abcAB .,e",
                                       "ab", "", "a"};
    char motif[6];
    int p = 1 + (int)rng_below(r, 5);
    for (int i = 0; i < p; i++) motif[i] = "abc"[rng_below(r, 3)];
    for (int i = 0; i < len; i++) {
        if (kind == K_PERIODIC) buf[i] = rng_below(r, 12) ? motif[i % p] : 'c';
        else buf[i] = sets[kind][rng_below(r, strlen(sets[kind]))];
        if (kind == K_DNA && buf[i] == 'N') /* N runs */
            for (int k = (int)rng_below(r, 4); k > 0 && i + 1 < len; k--) buf[++i] = 'N';
    }
    buf[len] = 0;
}

static rv_alpha_t kind_alpha(int kind)
{
    return kind == K_DNA ? RV_ALPHA_DNA : kind == K_PROTEIN ? RV_ALPHA_PROTEIN : RV_ALPHA_TEXT;
}

/* A random multi-record input and its oracle (global coordinates). */
static rv_seq_t *random_input(rng_t *r, int kind, int maxlen, oracle_t *o)
{
    static char bufs[3][MAXN + 1];
    const char *names[3] = {"r1", "r2", "r3"}, *seqs[3];
    int nrec = 1 + (int)rng_below(r, 3), total = 0;
    for (int i = 0; i < nrec; i++) {
        int len = 1 + (int)rng_below(r, (uint64_t)(maxlen / nrec));
        random_record(r, kind, bufs[i], len);
        seqs[i] = bufs[i];
        for (int k = 0; k < len; k++, total++) {
            o->code[total] = fold(kind_alpha(kind), (unsigned char)bufs[i][k]);
            o->rec[total] = i;
        }
    }
    o->n = total;
    oracle_init(o);
    return rv_seq_from_records(names, seqs, nrec, kind_alpha(kind));
}

static rv_index_t *index_of(rv_seq_t *s, int wide, int threads, int with_llr)
{
    rv_build_opts_t opts;
    rv_build_opts_init(&opts);
    opts.backend = RV_BACKEND_CPU;
    opts.force_wide = wide;
    opts.threads = threads;
    opts.with_llr = with_llr;
    return rv_build(s, &opts, NULL);
}

/* ---- engine answers in global coordinates ------------------------------------ */

typedef struct {
    rv_lr_hit_t h[MAXN * MAXN];
    size_t n;
} hits_t;

static int collect(void *ctx, const rv_lr_hit_t *h, size_t n)
{
    hits_t *c = ctx;
    for (size_t i = 0; i < n && c->n < MAXN * MAXN; i++) c->h[c->n++] = h[i];
    return 0;
}

static uint64_t g_of(const rv_index_t *x, uint64_t t) { return rv_seq_text_to_global(x->seq, t); }

/* Expected hits of the whole input (global coords), leftmost or all. */
static size_t oracle_hits(const oracle_t *o, int leftmost, rv_lr_hit_t *out)
{
    size_t n = 0;
    rv_lr_t lr[MAXN];
    for (int k = 0; k < o->n; k++) {
        int c = oracle_cover(o, k, k + 1, lr);
        for (int i = 0; i < (leftmost && c ? 1 : c); i++) out[n++] = (rv_lr_hit_t){(uint64_t)k, lr[i].start, lr[i].len};
    }
    return n;
}

static void check_scan(const rv_index_t *x, const oracle_t *o, rv_lr_method_t m, int leftmost,
                       int threads, const char *what)
{
    static hits_t got;
    static rv_lr_hit_t want[MAXN * MAXN];
    got.n = 0;
    rv_lr_scan_opts_t so = {m, leftmost, threads};
    rv_lr_stats_t st;
    int rc = rv_lr_scan(x, 0, x->n, &so, collect, &got, &st);
    CHECK(rc == 0, "%s: scan failed: %s", what, rv_last_error());
    size_t nw = oracle_hits(o, leftmost, want);
    CHECK(got.n == nw, "%s method %d leftmost %d: %zu hits, oracle %zu", what, m, leftmost, got.n, nw);
    CHECK(st.hits == got.n && st.positions == x->n, "%s: stats %llu hits", what, (unsigned long long)st.hits);
    for (size_t i = 0; i < got.n && i < nw; i++) {
        rv_lr_hit_t g = {g_of(x, got.h[i].pos), g_of(x, got.h[i].start), got.h[i].len};
        CHECK(g.pos == want[i].pos && g.start == want[i].start && g.len == want[i].len,
              "%s method %d leftmost %d: hit %zu is (%llu,%llu,%llu), oracle (%llu,%llu,%llu)", what, m,
              leftmost, i, (unsigned long long)g.pos, (unsigned long long)g.start,
              (unsigned long long)g.len, (unsigned long long)want[i].pos,
              (unsigned long long)want[i].start, (unsigned long long)want[i].len);
    }
}

/* rv_lr_at and rv_lr_interval on every text position / random intervals. */
static void check_queries(const rv_index_t *x, const oracle_t *o, rng_t *r, const char *what)
{
    rv_lr_t got[MAXN], want[MAXN];
    for (uint64_t k = 0; k < x->n; k++) {
        uint64_t c = rv_lr_at(x, k, got, MAXN);
        int gk = x->seq->text[k] ? (int)g_of(x, k) : -1;
        int wc = gk < 0 ? 0 : oracle_cover(o, gk, gk + 1, want);
        CHECK(c == (uint64_t)wc, "%s: rv_lr_at(%llu) count %llu, oracle %d", what, (unsigned long long)k,
              (unsigned long long)c, wc);
        for (int i = 0; i < wc && c == (uint64_t)wc; i++)
            CHECK(g_of(x, got[i].start) == want[i].start && got[i].len == want[i].len,
                  "%s: rv_lr_at(%llu)[%d]", what, (unsigned long long)k, i);
        if (c > 1) CHECK(rv_lr_at(x, k, got, 1) == c, "%s: count beyond cap", what);
    }
    /* intervals on the internal text itself (breakers included) */
    static oracle_t ot;
    ot.n = (int)x->n;
    for (int i = 0; i < ot.n; i++) ot.code[i] = x->seq->text[i], ot.rec[i] = 0;
    oracle_init(&ot);
    for (int q = 0; q < 40 && x->n; q++) {
        uint64_t a = rng_below(r, x->n), b = a + 1 + rng_below(r, 6);
        if (b > x->n) b = x->n;
        uint64_t c = rv_lr_interval(x, a, b, got, MAXN);
        int wc = oracle_cover(&ot, (int)a, (int)b, want);
        CHECK(c == (uint64_t)wc, "%s: interval [%llu,%llu) count %llu, oracle %d", what,
              (unsigned long long)a, (unsigned long long)b, (unsigned long long)c, wc);
        for (int i = 0; i < wc && c == (uint64_t)wc; i++)
            CHECK(got[i].start == want[i].start && got[i].len == want[i].len, "%s: interval entry", what);
    }
}

/* The occurrences of every LR: exactly the suffixes sharing its prefix. */
static void check_occurrences(const rv_index_t *x, uint64_t start, uint64_t len, const char *what)
{
    uint64_t lo, hi, cnt = 0;
    rv_lr_occurrences(x, start, len, &lo, &hi);
    for (uint64_t j = 0; j < x->n; j++) cnt += rv_lce_scan(x->seq, j, start) >= len;
    CHECK(hi - lo == cnt && lo <= rv_isa(x, start) && rv_isa(x, start) < hi,
          "%s: occurrences of (%llu,%llu): [%llu,%llu), want %llu", what, (unsigned long long)start,
          (unsigned long long)len, (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)cnt);
    for (uint64_t rk = lo; rk < hi; rk++)
        CHECK(rv_lce_scan(x->seq, rv_sa(x, rk), start) >= len, "%s: rank %llu is no occurrence", what,
              (unsigned long long)rk);
}

/* Sections: LLR is L by Lemma 1; LLRc holds exactly the LLRs that are no substring
 * of another LLR (Definition 3), by brute force over all pairs. */
static void check_arrays(const rv_index_t *x, const char *what)
{
    rv_lr_src_t s;
    rv_lr_src_init(&s, x);
    CHECK(s.has_llr && s.llrc, "%s: sections missing", what);
    if (!s.has_llr || !s.llrc) return;
    uint64_t j = 0, L[MAXN];
    for (uint64_t i = 0; i < x->n; i++) {
        L[i] = 0;
        for (uint64_t k = 0; k < x->n; k++)
            if (k != i && rv_lce_scan(x->seq, i, k) > L[i]) L[i] = rv_lce_scan(x->seq, i, k);
        CHECK(rv_narrow_get(&s.llr, i) == L[i], "%s: LLR[%llu]", what, (unsigned long long)i);
    }
    for (uint64_t i = 0; i < x->n; i++) {
        int useful = L[i] > 0;
        for (uint64_t k = 0; k < x->n && useful; k++)
            if (k != i && k <= i && i + L[i] <= k + L[k]) useful = 0;
        if (!useful) continue;
        CHECK(j < s.m && rv_llrc_start(&s, j) == i && rv_llrc_len(&s, j) == L[i],
              "%s: LLRc entry %llu should be (%llu,%llu)", what, (unsigned long long)j,
              (unsigned long long)i, (unsigned long long)L[i]);
        j++;
    }
    CHECK(j == s.m, "%s: LLRc has %llu entries, want %llu", what, (unsigned long long)s.m, (unsigned long long)j);
}

/* rv_lr_llrs_covering: the useful LLRs containing k, from LLRc and without it. */
static void check_llrs_covering(rv_index_t *x, const char *what)
{
    rv_lr_src_t s;
    rv_lr_src_init(&s, x);
    static rv_lr_t with[MAXN][MAXN];
    uint64_t cw[MAXN];
    for (uint64_t k = 0; k < x->n; k++) {
        cw[k] = rv_lr_llrs_covering(x, k, with[k], MAXN);
        uint64_t want = 0;
        for (uint64_t j = 0; j < s.m; j++) {
            uint64_t st = rv_llrc_start(&s, j), len = rv_llrc_len(&s, j);
            if (st > k || st + len <= k) continue;
            CHECK(want < cw[k] && with[k][want].start == st && with[k][want].len == len,
                  "%s: llrs covering %llu, entry %llu", what, (unsigned long long)k, (unsigned long long)want);
            want++;
        }
        CHECK(cw[k] == want, "%s: %llu llrs cover %llu, want %llu", what, (unsigned long long)cw[k],
              (unsigned long long)k, (unsigned long long)want);
    }
    const void *llrc = s.llrc;
    uint64_t bytes = 0;
    rv_index_section(x, RV_SEC_LLRC, &bytes);
    void *copy = malloc(bytes ? bytes : 1);
    memcpy(copy, llrc, bytes);
    uint64_t rbytes = 0;
    const void *llr = rv_index_section(x, RV_SEC_LLR, &rbytes);
    void *rcopy = malloc(rbytes ? rbytes : 1);
    memcpy(rcopy, llr, rbytes);
    rv_index_attach(x, RV_SEC_LLRC, NULL, 0);
    for (int pass = 0; pass < 2; pass++) { /* from the raw array, then from the index */
        if (pass) rv_index_attach(x, RV_SEC_LLR, NULL, 0);
        for (uint64_t k = 0; k < x->n; k++) {
            rv_lr_t got[MAXN];
            uint64_t c = rv_lr_llrs_covering(x, k, got, MAXN);
            CHECK(c == cw[k] && !memcmp(got, with[k], c * sizeof *got), "%s: llrs covering %llu, pass %d", what,
                  (unsigned long long)k, pass);
        }
    }
    rv_index_attach(x, RV_SEC_LLRC, copy, bytes);
    rv_index_attach(x, RV_SEC_LLR, rcopy, rbytes);
}

/* The LLR sections rebuilt with 1, 2, 3 and 8 threads, in tasks of one position,
 * of a few, of 128 and 1000 and of the default size: byte for byte the sections
 * checked before.  `all`: every pair of threads and task size; else two random ones
 * (the small random cases are many). */
static void rebuild_arrays(rv_index_t *x, rng_t *r, int all, const char *what)
{
    static const int ids[] = {RV_SEC_LLR, RV_SEC_LLR_BIG, RV_SEC_LLRC};
    enum { NIDS = sizeof ids / sizeof *ids };
    void *want[NIDS];
    uint64_t want_bytes[NIDS];
    for (int k = 0; k < NIDS; k++) { /* copies of the checked sections */
        const void *sec = rv_index_section(x, ids[k], &want_bytes[k]);
        want[k] = malloc(want_bytes[k] ? want_bytes[k] : 1);
        if (sec) memcpy(want[k], sec, want_bytes[k]);
    }
    static const int threads[] = {1, 2, 3, 8};
    const uint64_t chunks[] = {1, 2 + rng_below(r, 15), 128, 1000, 0};
    const int nt = sizeof threads / sizeof *threads, nc = sizeof chunks / sizeof *chunks;
    for (int pick = 0; pick < (all ? nt * nc : 2) && !check_failed_; pick++) {
        const int t = all ? pick / nc : (int)rng_below(r, nt), c = all ? pick % nc : (int)rng_below(r, nc);
        CHECK(rv_lr_build_arrays_chunked(x, threads[t], chunks[c], NULL) == 0, "%s: rebuild: %s", what,
              rv_last_error());
        for (int k = 0; k < NIDS; k++) {
            uint64_t bytes = 0;
            const void *sec = rv_index_section(x, ids[k], &bytes);
            CHECK(sec && bytes == want_bytes[k] && !memcmp(sec, want[k], bytes),
                  "%s: section %d differs with %d threads, tasks of %llu", what, ids[k], threads[t],
                  (unsigned long long)chunks[c]);
        }
    }
    for (int k = 0; k < NIDS; k++) free(want[k]);
}

static void check_baseline(const rv_index_t *x, const oracle_t *o, const char *what)
{
    rv_lr_t out[MAXN], want[MAXN];
    CHECK(rv_lr_leftmost_linear(x, out) == 0, "%s: baseline failed", what);
    for (uint64_t k = 0; k < x->n; k++) {
        int gk = x->seq->text[k] ? (int)g_of(x, k) : -1;
        int wc = gk < 0 ? 0 : oracle_cover(o, gk, gk + 1, want);
        CHECK(out[k].len == (wc ? want[0].len : 0) && (!wc || g_of(x, out[k].start) == want[0].start),
              "%s: baseline at %llu", what, (unsigned long long)k);
    }
}

static void random_case(int kind, int iters, uint64_t seed)
{
    static oracle_t o;
    char name[64];
    rng_t r = rng_new(seed);
    case_begin();
    for (int it = 0; it < iters && !check_failed_; it++) {
        int wide = it & 1, threads = 1 + (int)rng_below(&r, 3);
        rv_seq_t *s = random_input(&r, kind, 12 + (int)rng_below(&r, MAXN - 12), &o);
        rv_index_t *x = s ? index_of(s, wide, threads, 1) : NULL;
        CHECK(x != NULL, "build failed: %s", rv_last_error());
        if (!x) break;
        snprintf(name, sizeof name, "%s #%d (%s)", kind_name[kind], it, wide ? "64-bit" : "32-bit");
        check_arrays(x, name);
        rebuild_arrays(x, &r, 0, name);
        check_llrs_covering(x, name);
        for (int m = RV_LR_RAW; m <= RV_LR_SWEEP; m++)
            for (int lm = 0; lm < 2; lm++) check_scan(x, &o, (rv_lr_method_t)m, lm, threads, name);
        check_baseline(x, &o, name);
        check_queries(x, &o, &r, name);
        rv_lr_t lr[MAXN];
        for (uint64_t k = 0; k < x->n; k += 3) {
            uint64_t c = rv_lr_at(x, k, lr, MAXN);
            for (uint64_t i = 0; i < c && i < MAXN; i++) check_occurrences(x, lr[i].start, lr[i].len, name);
        }
        /* the same queries without any LR section: computed from LCP and ISA */
        rv_index_attach(x, RV_SEC_LLR, NULL, 0);
        rv_index_attach(x, RV_SEC_LLRC, NULL, 0);
        snprintf(name, sizeof name, "%s #%d without sections", kind_name[kind], it);
        check_queries(x, &o, &r, name);
        rv_index_free(x);
    }
    snprintf(name, sizeof name, "lr_oracle_%s", kind_name[kind]);
    case_end(name);
}

/* ---- fixed cases --------------------------------------------------------------- */

static void mississippi(void)
{
    case_begin();
    rv_seq_t *s = rv_seq_from_string("mississippi", 11, RV_ALPHA_TEXT, "m");
    rv_index_t *x = index_of(s, 0, 1, 1);
    rv_lr_t lr[4];
    uint64_t c = rv_lr_at(x, 4, lr, 4);
    CHECK(c == 2, "position 4 has %llu LRs", (unsigned long long)c);
    CHECK(c == 2 && lr[0].start == 1 && lr[0].len == 4 && lr[1].start == 4 && lr[1].len == 4,
          "LRs of 4 are not [1,5) and [4,8)");
    CHECK(rv_lr_at(x, 0, lr, 4) == 0, "position 0 ('m', a singleton) has an LR");
    uint64_t lo, hi;
    rv_lr_occurrences(x, 1, 4, &lo, &hi); /* "issi": ranks 2, 3 (repview sa --string mississippi) */
    CHECK(lo == 2 && hi == 4, "occurrences of issi: [%llu,%llu)", (unsigned long long)lo, (unsigned long long)hi);
    c = rv_lr_interval(x, 2, 5, lr, 4); /* "ssi" inside: longest cover is issi [1,5) */
    CHECK(c == 1 && lr[0].start == 1 && lr[0].len == 4, "interval [2,5)");
    rv_index_free(x);
    case_end("lr_mississippi");
}

/* Larger inputs: several chunks and threads; all methods, the baseline and
 * rv_lr_at must agree with each other (no brute force at this size). */
static int cmp_leftmost(void *ctx, const rv_lr_hit_t *h, size_t n)
{
    rv_lr_t *want = ctx;
    for (size_t i = 0; i < n; i++)
        if (want[h[i].pos].start != h[i].start || want[h[i].pos].len != h[i].len) return 1;
    return 0;
}

typedef struct {
    const rv_index_t *x;
    uint64_t next, bad;
} cmp_all_t;

static int cmp_all(void *ctx, const rv_lr_hit_t *h, size_t n)
{
    cmp_all_t *c = ctx;
    rv_lr_t lr[64];
    for (size_t i = 0; i < n;) {
        uint64_t k = h[i].pos, cnt = rv_lr_at(c->x, k, lr, 64), j = 0;
        for (uint64_t p = c->next; p < k; p++) c->bad += rv_lr_at(c->x, p, NULL, 0) != 0;
        for (; i < n && h[i].pos == k; i++, j++)
            if (j >= cnt || (j < 64 && (lr[j].start != h[i].start || lr[j].len != h[i].len))) c->bad++;
        if (j != cnt || k < c->next) c->bad++;
        c->next = k + 1;
    }
    return 0;
}

/* The narrow LLR (narrow.h) against L from the index (Lemma 1), LLRc against the
 * usefulness rule, on a text whose repeats reach past one byte; and the same
 * sections again after a trip through an .rvx file. */
static void check_lemma1(const rv_index_t *x, const char *what)
{
    rv_lr_src_t s;
    rv_lr_src_init(&s, x);
    CHECK(s.has_llr && s.llrc, "%s: sections missing", what);
    if (!s.has_llr || !s.llrc) return;
    uint64_t j = 0, prev = 0;
    for (uint64_t i = 0; i < x->n && !check_failed_; i++) {
        uint64_t L = rv_llr_of(x, i);
        CHECK(rv_narrow_get(&s.llr, i) == L, "%s: LLR[%llu] = %llu, want %llu", what, (unsigned long long)i,
              (unsigned long long)rv_narrow_get(&s.llr, i), (unsigned long long)L);
        if (L > 0 && L >= prev) {
            CHECK(j < s.m && rv_llrc_start(&s, j) == i, "%s: LLRc entry %llu", what, (unsigned long long)j);
            j++;
        }
        prev = L;
    }
    CHECK(j == s.m, "%s: LLRc has %llu entries, want %llu", what, (unsigned long long)s.m, (unsigned long long)j);
}

static void check_narrow_arrays(const rv_index_t *x, int wide)
{
    rv_lr_src_t s;
    rv_lr_src_init(&s, x);
    CHECK(s.has_llr && s.llrc, "sections missing");
    if (!s.has_llr || !s.llrc) return;
    CHECK(s.llr.n_big > 0 && x->lcp.n_big > 0, "no LLR or LCP value reaches 255: the big tables are untested");
    check_lemma1(x, "large");
    char path[64];
    snprintf(path, sizeof path, "/tmp/t_lr_%d_%d.rvx", (int)getpid(), wide);
    rv_index_t *y = NULL;
    CHECK(rv_index_save(x, path) == 0 && rv_index_load(path, NULL, &y) == RV_RVX_OK, "save/load: %s",
          rv_last_error());
    unlink(path);
    if (!y) return;
    CHECK(rv_index_derive(y, RV_SEC_ALL_MASK, 2) == 0, "derive: %s", rv_last_error()); /* LLRc from LLR */
    static const int ids[] = {RV_SEC_LCP, RV_SEC_LCP_BIG, RV_SEC_LLR, RV_SEC_LLR_BIG, RV_SEC_LLRC};
    for (size_t k = 0; k < sizeof ids / sizeof *ids; k++)
        CHECK(same_section(x, y, ids[k]), "section %d differs after the .rvx file", ids[k]);
    for (uint64_t r = 0; r < x->n && !check_failed_; r += 7)
        CHECK(rv_lcp(x, r) == rv_lcp(y, r), "LCP[%llu] differs after the .rvx file", (unsigned long long)r);
    rv_index_free(y);
}

static void large_agreement(void)
{
    case_begin();
    rng_t r = rng_new(7);
    uint64_t n = check_iters(10) * 24000;
    char *buf = malloc(n + 1);
    for (uint64_t i = 0; i < n; i++) buf[i] = "ACGT"[rng_below(&r, 4)];
    for (uint64_t i = 0; i + 5000 < n; i += 7919) /* copies, tandem runs and N gaps */
        memcpy(buf + i + 2000, buf + i, 300 + rng_below(&r, 700));
    for (uint64_t i = 1000; i + 500 < n; i += 31337) memset(buf + i, 'N', 1 + rng_below(&r, 300));
    buf[n] = 0;
    for (int wide = 0; wide < 2; wide++) {
        rv_index_t *x = index_of(rv_seq_from_string(buf, n, RV_ALPHA_DNA, "big"), wide, 3, 1);
        check_narrow_arrays(x, wide);
        rv_lr_t *base = malloc(x->n * sizeof *base);
        CHECK(rv_lr_leftmost_linear(x, base) == 0, "baseline");
        for (int m = RV_LR_RAW; m <= RV_LR_SWEEP; m++) {
            rv_lr_scan_opts_t so = {(rv_lr_method_t)m, 1, 3};
            CHECK(rv_lr_scan(x, 0, x->n, &so, cmp_leftmost, base, NULL) == 0, "leftmost method %d disagrees", m);
            so.leftmost = 0;
            uint64_t lo = rng_below(&r, x->n / 2), hi = lo + rng_below(&r, x->n - lo);
            cmp_all_t ca = {x, lo, 0};
            rv_lr_stats_t st;
            CHECK(rv_lr_scan(x, lo, hi, &so, cmp_all, &ca, &st) == 0 && ca.bad == 0,
                  "all, method %d, [%llu,%llu): %llu differences", m, (unsigned long long)lo,
                  (unsigned long long)hi, (unsigned long long)ca.bad);
            CHECK(st.positions == hi - lo && st.steps_min >= 1 && st.steps_max >= st.steps_min, "stats");
        }
        free(base);
        rv_index_free(x);
    }
    free(buf);
    case_end("lr_large_agreement");
}

/* Inputs whose LLR and LCP values pass 255 (one letter, short periods with a few
 * changes, long copies with breakers between records, binary), so that the big
 * tables are filled: the LLR sections built with 1, 2, 3 and 8 threads in tasks of
 * 1 to 1000 positions and of the default size are byte for byte the same, and L is
 * Lemma 1 read straight from LCP and ISA. */
static void big_values_threads(void)
{
    case_begin();
    rng_t r = rng_new(11);
    enum { BIG_N = 6000 };
    static char buf[3][BIG_N + 1];
    static const char *const kinds[] = {"same", "periodic", "copies", "binary"};
    const int iters = check_iters(12);
    for (int it = 0; it < iters && !check_failed_; it++) {
        const int kind = it % 4, nrec = 1 + (int)rng_below(&r, 3);
        const char *names[3] = {"r1", "r2", "r3"}, *seqs[3];
        for (int k = 0; k < nrec; k++) {
            int len = 300 + (int)rng_below(&r, BIG_N - 300), p = 1 + (int)rng_below(&r, 6);
            for (int i = 0; i < len; i++) {
                if (kind == 0) buf[k][i] = 'A';
                else if (kind == 1) buf[k][i] = rng_below(&r, 400) ? "ACGTTG"[i % p] : 'C';
                else if (kind == 2) buf[k][i] = "ACGT"[rng_below(&r, 4)];
                else buf[k][i] = "AC"[rng_below(&r, 2)];
            }
            if (kind >= 2) /* copies of 300 to 999 symbols (and N runs in DNA) */
                for (int i = 0; i + 2000 < len; i += 1500 + (int)rng_below(&r, 700))
                    memcpy(buf[k] + i + 1000, buf[k] + i, 300 + rng_below(&r, 700));
            if (kind == 2 && len > 100) memset(buf[k] + rng_below(&r, (uint64_t)len - 50), 'N', 1 + rng_below(&r, 40));
            buf[k][len] = 0;
            seqs[k] = buf[k];
        }
        char name[64];
        snprintf(name, sizeof name, "%s #%d (%s)", kinds[kind], it, it & 4 ? "64-bit" : "32-bit");
        rv_index_t *x = index_of(rv_seq_from_records(names, seqs, nrec, RV_ALPHA_DNA), (it & 4) != 0, 1, 1);
        CHECK(x != NULL, "build failed: %s", rv_last_error());
        if (!x) break;
        rv_lr_src_t s;
        rv_lr_src_init(&s, x);
        CHECK(s.llr.n_big > 0, "%s: no LLR value reaches 255", name);
        check_lemma1(x, name);
        rebuild_arrays(x, &r, 1, name);
        rv_index_free(x);
    }
    case_end("lr_arrays_big_values_threads");
}

/* Occurrence blocks larger than the LCP scan: the binary-search path. */
static void big_occurrence_blocks(void)
{
    case_begin();
    static char buf[3001];
    memset(buf, 'a', 3000);
    rv_index_t *x = index_of(rv_seq_from_string(buf, 3000, RV_ALPHA_TEXT, "a"), 0, 2, 0);
    for (uint64_t len = 1; len < 600; len += 37)
        for (uint64_t st = 0; st + len <= 3000; st += 401) {
            uint64_t lo, hi;
            rv_lr_occurrences(x, st, len, &lo, &hi);
            CHECK(hi - lo == 3000 - len + 1, "a^3000: %llu occurrences of a^%llu", (unsigned long long)(hi - lo),
                  (unsigned long long)len);
        }
    rv_lr_t lr[4];
    CHECK(rv_lr_at(x, 1500, lr, 4) == 2 && lr[0].start == 0 && lr[0].len == 2999 && lr[1].start == 1,
          "a^3000: LRs of 1500");
    rv_index_free(x);
    case_end("lr_occurrences_big_blocks");
}

/* An .rvx whose checksums hold but whose LLR pair does not fit loads, answers
 * queries without reading outside its sections before it is verified, and is
 * refused by the verification (rvx.c).  A damaged LLRc never reaches the file: the
 * file holds LLR alone and the reader rebuilds LLRc from it, so the hostile starts
 * of an index in memory come back intact. */
static void hostile_sections(void)
{
    case_begin();
    static const char *txt = "ACGTACGTTTACGTACGAACGTACG";
    for (int bad = 0; bad < 3 && !check_failed_; bad++) {
        rv_index_t *x = index_of(rv_seq_from_string(txt, strlen(txt), RV_ALPHA_DNA, "h"), 0, 1, 1);
        uint64_t bytes = 0;
        const uint32_t *c = rv_index_section(x, RV_SEC_LLRC, &bytes);
        uint32_t *copy = malloc(bytes + 4), *intact = malloc(bytes + 4);
        memcpy(copy, c, bytes);
        memcpy(intact, c, bytes);
        if (bad == 0) copy[bytes / 4 - 1] = (uint32_t)x->n + 5;          /* past the text */
        if (bad == 1 && bytes >= 8) copy[1] = copy[0];                   /* not increasing */
        rv_index_attach(x, RV_SEC_LLRC, copy, bytes);
        if (bad == 2) rv_index_attach(x, RV_SEC_LLR_BIG, NULL, 0);      /* LLR without its table */
        char path[64];
        snprintf(path, sizeof path, "/tmp/t_lr_hostile_%d.rvx", (int)getpid());
        rv_index_t *y = NULL;
        CHECK(rv_index_save(x, path) == 0, "save: %s", rv_last_error());
        CHECK(rv_index_load(path, NULL, &y) == RV_RVX_OK, "load: %s", rv_last_error());
        rv_lr_t lr[4];
        for (uint64_t k = 0; y && k < y->n; k++) (void)rv_lr_at(y, k, lr, 4); /* ASan: in bounds */
        if (bad == 2) {
            CHECK(y && rv_index_verify(y, RV_SEC_ALL_MASK, 2) < 0 && strstr(rv_last_error(), "corrupt"),
                  "hostile LR sections %d accepted", bad);
        } else {
            uint64_t yb = 0;
            const void *yc = y && rv_index_verify(y, RV_SEC_ALL_MASK, 2) == 0 ? rv_index_section(y, RV_SEC_LLRC, &yb)
                                                                              : NULL;
            CHECK(yc && yb == bytes && !memcmp(yc, intact, bytes), "LLRc not rebuilt from LLR (%d): %s", bad,
                  rv_last_error());
        }
        free(intact);
        unlink(path);
        rv_index_free(y);
        rv_index_free(x);
    }
    case_end("lr_hostile_sections_refused");
}

int main(void)
{
    mississippi();
    static const int iters[K_COUNT] = {700, 500, 500, 600, 500, 150};
    for (int k = 0; k < K_COUNT; k++) random_case(k, check_iters(iters[k]), 1000 + (uint64_t)k);
    large_agreement();
    big_values_threads();
    big_occurrence_blocks();
    hostile_sections();
    return check_exit();
}
