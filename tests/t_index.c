/* t_index.c — oracle tests of the index core: text encoding and the coordinate map
 * (seq_serial.c), SA/ISA (sa_cpu.c), LCP stopping at breakers (lcp_cpu.c), LCE by scan and
 * by RMQ over LCP (lce_rmq.c), and region/position parsing (region.c).
 *
 * Every engine answer is compared with a brute-force one computed here from the raw
 * records alone: the encoded text from the alphabet rules of repview(1), the suffix
 * array by sorting suffixes with a direct comparison, LCP and LCE by scanning.
 * Inputs: thousands of small random strings of several shapes (DNA with N runs and
 * IUPAC codes, protein, binary-ish text, periodic, one letter, several records with
 * empty and all-N records), 32- and 64-bit arrays (force_wide), 1 and 2-3 threads;
 * plus a few inputs above the LCP chunk size (64 Ki symbols) so that threaded
 * chunks really split the work.
 */
#include <ctype.h>
#include <htslib/hts_log.h>
#include "check.h"
#include "repview/build.h"
#include "repview/common.h"
#include "repview/lce.h"
#include "repview/seq.h"

enum { MAX_REC = 8 };

typedef struct {
    int n_rec;
    char *rec[MAX_REC];
    const char *name[MAX_REC];
    rv_alpha_t alpha;
} input_t;

/* ---- random inputs --------------------------------------------------------------- */

static char pick(rng_t *r, const char *set) { return set[rng_below(r, strlen(set))]; }

/* One record of `len` bytes in shape `shape`. */
static char *random_record(rng_t *r, int shape, size_t len)
{
    char *s = malloc(len + 1);
    char unit[8];
    size_t p = 1 + rng_below(r, 5);
    for (size_t k = 0; k < p; k++) unit[k] = pick(r, "ACGT");
    for (size_t i = 0; i < len; i++) {
        switch (shape) {
        case 0: /* DNA with breakers and soft-masking */
            if (rng_below(r, 12) == 0) {
                size_t run = 1 + rng_below(r, 4);
                for (; run > 0 && i < len; run--, i++) s[i] = pick(r, "NNNNRYKn-");
                i--;
            } else {
                s[i] = pick(r, "ACGTACGTacgt");
            }
            break;
        case 1: s[i] = rng_below(r, 25) ? pick(r, "ACDEFGHIKLMNPQRSTVWYacdy") : pick(r, "X*-x"); break;
        case 2: s[i] = pick(r, rng_below(r, 10) ? "01" : "01ab!~\x01\x7f"); break;
        case 3: s[i] = rng_below(r, 30) ? unit[i % p] : pick(r, "ACGTN"); break;
        case 4: s[i] = rng_below(r, 20) ? 'A' : 'N'; break;
        default: s[i] = 'N'; break; /* all-N record */
        }
    }
    s[len] = 0;
    return s;
}

static rv_alpha_t shape_alpha(int shape)
{
    return shape == 1 ? RV_ALPHA_PROTEIN : shape == 2 ? RV_ALPHA_TEXT : RV_ALPHA_DNA;
}

/* shape 6: several records of one alphabet, some empty, some all N. */
static void random_input(rng_t *r, int shape, size_t max_len, input_t *in)
{
    static const char *const names[MAX_REC] = {"r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8"};
    int multi = shape == 6;
    int base = multi ? (int)rng_below(r, 5) : shape;
    in->alpha = shape_alpha(base);
    in->n_rec = multi ? 2 + (int)rng_below(r, MAX_REC - 1) : 1 + (rng_below(r, 4) == 0);
    for (int k = 0; k < in->n_rec; k++) {
        int sh = base;
        size_t len = rng_below(r, max_len + 1);
        if (multi && rng_below(r, 4) == 0) len = 0;
        if (multi && base != 1 && base != 2 && rng_below(r, 5) == 0) sh = 5;
        in->rec[k] = random_record(r, sh, len);
        in->name[k] = names[k];
    }
}

static void input_free(input_t *in)
{
    for (int k = 0; k < in->n_rec; k++) free(in->rec[k]);
}

static rv_seq_t *input_seq(const input_t *in)
{
    return rv_seq_from_records(in->name, (const char *const *)in->rec, in->n_rec, in->alpha);
}

/* ---- brute-force encoding (repview(1)) ---------------------------------------------- */

/* Code of byte c: 0 for a breaker, else its rank in the alphabet (case folded). */
static uint8_t oracle_code(rv_alpha_t a, unsigned char c)
{
    unsigned char u = (unsigned char)toupper(c);
    if (a == RV_ALPHA_DNA) {
        const char *p = strchr("ACGT", u);
        return u && p ? (uint8_t)(p - "ACGT" + 1) : 0;
    }
    if (a == RV_ALPHA_PROTEIN) {
        if (u < 'A' || u > 'Z' || u == 'X') return 0;
        return (uint8_t)(u - 'A' + 1 - (u > 'X'));
    }
    return u;
}

typedef struct {
    uint8_t *t;      /* expected text */
    uint64_t n;
    uint64_t *gpos;  /* global position of each text symbol (breakers: UINT64_MAX) */
    uint64_t glen;
    int64_t *g2t;    /* expected global -> text (-1 for breakers) */
    uint64_t *g2rec; /* record of each global position */
} oracle_t;

static void oracle_encode(const input_t *in, oracle_t *o)
{
    size_t total = 0;
    for (int k = 0; k < in->n_rec; k++) total += strlen(in->rec[k]);
    o->t = malloc(total + in->n_rec + 1);
    o->gpos = malloc((total + in->n_rec + 1) * sizeof *o->gpos);
    o->g2t = malloc((total + 1) * sizeof *o->g2t);
    o->g2rec = malloc((total + 1) * sizeof *o->g2rec);
    o->n = 0;
    uint64_t g = 0;
    int pending = 0;
    for (int k = 0; k < in->n_rec; k++) {
        for (const char *p = in->rec[k]; *p; p++, g++) {
            uint8_t c = oracle_code(in->alpha, (unsigned char)*p);
            o->g2rec[g] = (uint64_t)k;
            o->g2t[g] = -1;
            if (!c) { pending = 1; continue; }
            if (pending && o->n) { o->gpos[o->n] = UINT64_MAX; o->t[o->n++] = 0; }
            pending = 0;
            o->g2t[g] = (int64_t)o->n;
            o->gpos[o->n] = g;
            o->t[o->n++] = c;
        }
        pending = 1; /* a record end is a breaker */
    }
    o->glen = g;
}

static void oracle_free(oracle_t *o)
{
    free(o->t); free(o->gpos); free(o->g2t); free(o->g2rec);
}

/* lcp of the suffixes at i and j, stopping at breakers. */
static uint64_t oracle_lce(const oracle_t *o, uint64_t i, uint64_t j)
{
    uint64_t h = 0;
    while (i + h < o->n && j + h < o->n && o->t[i + h] == o->t[j + h] && o->t[i + h]) h++;
    return h;
}

/* Suffix order: code by code, a suffix that is a prefix of the other first (the
 * order libdivsufsort gives when breakers are the byte 0). */
static int oracle_cmp(const oracle_t *o, uint64_t i, uint64_t j)
{
    while (i < o->n && j < o->n) {
        if (o->t[i] != o->t[j]) return o->t[i] < o->t[j] ? -1 : 1;
        i++, j++;
    }
    return i < o->n ? 1 : j < o->n ? -1 : 0;
}

static const oracle_t *sort_oracle;
static int sort_cmp(const void *a, const void *b)
{
    return oracle_cmp(sort_oracle, *(const uint64_t *)a, *(const uint64_t *)b);
}

static uint64_t *oracle_sa(const oracle_t *o)
{
    uint64_t *sa = malloc((o->n + 1) * sizeof *sa);
    for (uint64_t i = 0; i < o->n; i++) sa[i] = i;
    sort_oracle = o;
    qsort(sa, o->n, sizeof *sa, sort_cmp);
    return sa;
}

/* ---- comparisons ----------------------------------------------------------------- */

/* Encoded text, records and the coordinate map against the oracle. */
static void check_seq(const input_t *in, const rv_seq_t *s, const oracle_t *o)
{
    CHECK(s->n == o->n, "text length %llu, want %llu", (unsigned long long)s->n, (unsigned long long)o->n);
    CHECK(s->glen == o->glen, "glen %llu, want %llu", (unsigned long long)s->glen, (unsigned long long)o->glen);
    CHECK(s->n_rec == (uint64_t)in->n_rec, "%llu records", (unsigned long long)s->n_rec);
    if (s->n != o->n || s->glen != o->glen) return;
    for (uint64_t t = 0; t < o->n; t++) {
        CHECK(s->text[t] == o->t[t], "text[%llu] = %d, want %d", (unsigned long long)t, s->text[t], o->t[t]);
        uint64_t want = o->t[t] ? o->gpos[t] : o->gpos[t - 1] + 1;
        uint64_t got = rv_seq_text_to_global(s, t);
        CHECK(got == want, "text_to_global(%llu) = %llu, want %llu", (unsigned long long)t,
              (unsigned long long)got, (unsigned long long)want);
    }
    for (uint64_t g = 0; g < o->glen; g++) {
        int64_t t = rv_seq_global_to_text(s, g);
        CHECK(t == o->g2t[g], "global_to_text(%llu) = %lld, want %lld", (unsigned long long)g,
              (long long)t, (long long)o->g2t[g]);
        if (t >= 0) CHECK(rv_seq_text_to_global(s, (uint64_t)t) == g, "round trip of %llu", (unsigned long long)g);
        uint64_t r = rv_seq_record_of(s, g);
        CHECK(r == o->g2rec[g], "record_of(%llu) = %llu, want %llu", (unsigned long long)g,
              (unsigned long long)r, (unsigned long long)o->g2rec[g]);
    }
    uint64_t off = 0;
    for (int k = 0; k < in->n_rec && (uint64_t)k < s->n_rec; k++) {
        uint64_t len = strlen(in->rec[k]);
        CHECK(s->rec[k].off == off && s->rec[k].len == len && !strcmp(s->rec[k].name, in->name[k]),
              "record %d: off %llu len %llu name %s", k, (unsigned long long)s->rec[k].off,
              (unsigned long long)s->rec[k].len, s->rec[k].name);
        CHECK(!memcmp(s->raw + off, in->rec[k], len), "raw bytes of record %d", k);
        off += len;
    }
}

/* SA, ISA and LCP against the brute-force suffix array. */
static void check_arrays(const rv_index_t *x, const oracle_t *o, const uint64_t *sa)
{
    CHECK(x->n == o->n, "index n %llu", (unsigned long long)x->n);
    for (uint64_t r = 0; r < o->n && x->n == o->n; r++) {
        CHECK(rv_sa(x, r) == sa[r], "SA[%llu] = %llu, want %llu", (unsigned long long)r,
              (unsigned long long)rv_sa(x, r), (unsigned long long)sa[r]);
        CHECK(rv_isa(x, sa[r]) == r, "ISA[%llu] = %llu, want %llu", (unsigned long long)sa[r],
              (unsigned long long)rv_isa(x, sa[r]), (unsigned long long)r);
        uint64_t want = r ? oracle_lce(o, sa[r - 1], sa[r]) : 0;
        CHECK(rv_lcp(x, r) == want, "LCP[%llu] = %llu, want %llu", (unsigned long long)r,
              (unsigned long long)rv_lcp(x, r), (unsigned long long)want);
    }
}

/* LCE by RMQ and by scan for every pair (small n) or `pairs` random pairs; and
 * random RMQ ranges against a scan of LCP. */
static void check_lce(const rv_index_t *x, const oracle_t *o, rng_t *r, uint64_t pairs)
{
    if (o->n == 0) return;
    rv_rmq_t *q = rv_rmq_build(x);
    CHECK(q != NULL, "rv_rmq_build failed");
    if (!q) return;
    int all = o->n * o->n <= pairs;
    uint64_t count = all ? o->n * o->n : pairs;
    for (uint64_t k = 0; k < count; k++) {
        uint64_t i = all ? k / o->n : rng_below(r, o->n), j = all ? k % o->n : rng_below(r, o->n);
        uint64_t want = oracle_lce(o, i, j), a = rv_lce(x, q, i, j), b = rv_lce_scan(x->seq, i, j);
        CHECK(a == want && b == want, "LCE(%llu,%llu): rmq %llu scan %llu, want %llu",
              (unsigned long long)i, (unsigned long long)j, (unsigned long long)a,
              (unsigned long long)b, (unsigned long long)want);
        uint64_t lo = rng_below(r, o->n), hi = lo + rng_below(r, o->n - lo), m = UINT64_MAX;
        for (uint64_t t = lo; t <= hi && (all || hi - lo < 5000); t++)
            if (rv_lcp(x, t) < m) m = rv_lcp(x, t);
        if (all || hi - lo < 5000)
            CHECK(rv_rmq_min(q, lo, hi) == m, "RMQ[%llu..%llu]", (unsigned long long)lo, (unsigned long long)hi);
    }
    rv_rmq_free(q);
}

static rv_index_t *build(const input_t *in, int wide, int threads)
{
    rv_build_opts_t opt;
    rv_build_opts_init(&opt);
    opt.backend = RV_BACKEND_CPU; /* this file tests the CPU engine; gpu tests compare */
    opt.force_wide = wide;
    opt.threads = threads;
    opt.with_llr = 0;
    rv_seq_t *s = input_seq(in);
    return s ? rv_build(s, &opt, NULL) : NULL;
}

/* ---- cases ----------------------------------------------------------------------- */

static const char *const shape_names[] = {"dna_breakers", "protein", "binary_text", "periodic",
                                          "one_letter", "all_n", "records"};

static void case_small(int shape, int wide, rng_t *r)
{
    case_begin();
    int iters = check_iters(shape == 5 ? 50 : 500);
    for (int it = 0; it < iters && !check_failed_; it++) {
        input_t in;
        random_input(r, shape, it < 50 ? 6 : 60, &in);
        oracle_t o;
        oracle_encode(&in, &o);
        uint64_t *sa = oracle_sa(&o);
        rv_index_t *x = build(&in, wide, 1 + it % 3);
        CHECK(x != NULL, "build failed: %s", rv_last_error());
        if (x) {
            CHECK(x->wide == wide, "wide = %d", x->wide);
            check_seq(&in, x->seq, &o);
            check_arrays(x, &o, sa);
            check_lce(x, &o, r, 4000);
        }
        rv_index_free(x);
        free(sa);
        oracle_free(&o);
        input_free(&in);
    }
    char name[80];
    snprintf(name, sizeof name, "index_oracle_%s_%s", shape_names[shape], wide ? "64bit" : "32bit");
    case_end(name);
}

/* A long input with repeats so LCP chunks (64 Ki symbols each) split across threads:
 * random DNA with N runs, copies of earlier stretches and a periodic stretch. */
static input_t large_input(rng_t *r, size_t len)
{
    input_t in = {.n_rec = 2, .name = {"big1", "big2"}, .alpha = RV_ALPHA_DNA};
    for (int k = 0; k < 2; k++) {
        char *s = random_record(r, 0, len);
        for (int c = 0; c < 40; c++) { /* copies of earlier stretches */
            size_t l = 50 + rng_below(r, 2000), to = rng_below(r, len - l), from = rng_below(r, to + 1);
            memmove(s + to, s + from, l < to - from ? l : to - from);
        }
        for (size_t i = len / 3; i < len / 3 + 3000; i++) s[i] = "CAG"[i % 3];
        in.rec[k] = s;
    }
    return in;
}

static void case_large(rng_t *r)
{
    case_begin();
    for (int it = 0; it < (check_iters(10) > 1 ? 2 : 1) && !check_failed_; it++) {
        input_t in = large_input(r, 150000 + rng_below(r, 50000));
        oracle_t o;
        oracle_encode(&in, &o);
        rv_index_t *one = build(&in, it & 1, 1), *three = build(&in, it & 1, 3);
        CHECK(one && three, "build failed: %s", rv_last_error());
        if (one && three) {
            check_seq(&in, one->seq, &o);
            size_t w = one->wide ? 8 : 4;
            CHECK(!memcmp(one->sa, three->sa, o.n * w), "SA differs between 1 and 3 threads");
            CHECK(!memcmp(one->isa, three->isa, o.n * w), "ISA differs between 1 and 3 threads");
            CHECK(same_section(one, three, RV_SEC_LCP) && same_section(one, three, RV_SEC_LCP_BIG),
                  "LCP differs between 1 and 3 threads");
            CHECK(three->lcp.n_big > 0, "no LCP value reaches 255: the big table is untested");
            for (uint64_t t = 0; t < o.n; t++)
                CHECK(rv_sa(one, rv_isa(one, t)) == t, "ISA is not SA's inverse at %llu", (unsigned long long)t);
            for (uint64_t k = 1; k < o.n && !check_failed_; k++) {
                uint64_t a = rv_sa(three, k - 1), b = rv_sa(three, k), h = oracle_lce(&o, a, b);
                CHECK(oracle_cmp(&o, a, b) < 0, "suffixes %llu %llu out of order", (unsigned long long)a, (unsigned long long)b);
                CHECK(rv_lcp(three, k) == h, "LCP[%llu] = %llu, want %llu", (unsigned long long)k,
                      (unsigned long long)rv_lcp(three, k), (unsigned long long)h);
            }
            check_lce(three, &o, r, 20000);
        }
        rv_index_free(one);
        rv_index_free(three);
        oracle_free(&o);
        input_free(&in);
    }
    case_end("index_large_threads_agree");
}

/* Breaker runs collapse to one breaker, none at the ends; empty and all-N records. */
static void case_coords_collapse(void)
{
    case_begin();
    const char *names[] = {"a", "empty", "alln", "b"};
    const char *seqs[] = {"NNACGNNNTTN", "", "NNNN", "acgt"};
    rv_seq_t *s = rv_seq_from_records(names, seqs, 4, RV_ALPHA_DNA);
    CHECK(s != NULL, "load failed");
    if (s) {
        static const uint8_t want[] = {1, 2, 3, 0, 4, 4, 0, 1, 2, 3, 4};
        CHECK(s->n == sizeof want && !memcmp(s->text, want, sizeof want), "text of %llu symbols", (unsigned long long)s->n);
        CHECK(s->n_seg == 3, "%llu segments, want 3", (unsigned long long)s->n_seg);
        CHECK(rv_seq_text_to_global(s, 0) == 2 && rv_seq_text_to_global(s, 4) == 8, "text_to_global");
        CHECK(rv_seq_text_to_global(s, 3) == 5, "breaker maps to %llu, want 5", (unsigned long long)rv_seq_text_to_global(s, 3));
        CHECK(rv_seq_global_to_text(s, 0) == -1 && rv_seq_global_to_text(s, 6) == -1, "N is not in the text");
        CHECK(rv_seq_global_to_text(s, 15) == 7 && rv_seq_global_to_text(s, 18) == 10, "record b");
        CHECK(rv_seq_record_of(s, 10) == 0 && rv_seq_record_of(s, 11) == 2 && rv_seq_record_of(s, 14) == 2 &&
              rv_seq_record_of(s, 15) == 3, "record_of skips the empty record");
        CHECK(rv_seq_record_by_name(s, "b") == 3 && rv_seq_record_by_name(s, "c") == -1, "record_by_name");
    }
    rv_seq_free(s);
    const char *only_n[] = {"NNN", ""};
    s = rv_seq_from_records(names, only_n, 2, RV_ALPHA_DNA);
    CHECK(s && s->n == 0 && s->n_seg == 0, "all-N input has an empty text");
    if (s) {
        CHECK(rv_seq_global_to_text(s, 1) == -1, "global_to_text on an empty text");
        rv_index_t *x = rv_build(s, NULL, NULL); /* default options, LLR included */
        CHECK(x && x->n == 0, "index of an empty text: %s", x ? "" : rv_last_error());
        rv_index_free(x);
    }
    case_end("coords_breaker_runs_collapse");
}

static void region_ok(const rv_seq_t *s, const char *reg, uint64_t rid, uint64_t beg, uint64_t end)
{
    uint64_t r = 99, b = 99, e = 99;
    int rc = rv_seq_parse_region(s, reg, &r, &b, &e);
    CHECK(rc == 0 && r == rid && b == beg && e == end, "'%s' -> rc %d rec %llu [%llu,%llu), want rec %llu [%llu,%llu) (%s)",
          reg, rc, (unsigned long long)r, (unsigned long long)b, (unsigned long long)e,
          (unsigned long long)rid, (unsigned long long)beg, (unsigned long long)end, rv_last_error());
}

static void region_bad(const rv_seq_t *s, const char *reg)
{
    uint64_t r, b, e;
    rv_clear_error();
    int rc = rv_seq_parse_region(s, reg, &r, &b, &e);
    CHECK(rc < 0 && *rv_last_error() && !strchr(rv_last_error(), '\n'), "'%s' accepted (or no one-line message)", reg);
}

static char *letters(size_t n)
{
    char *s = malloc(n + 1);
    for (size_t i = 0; i < n; i++) s[i] = "ACGT"[i % 4];
    s[n] = 0;
    return s;
}

static void case_regions(void)
{
    case_begin();
    char *l1 = letters(5000), *l2 = letters(50), *l3 = letters(100);
    const char *names[] = {"chr1", "chr2", "HLA:A*01:01", "empty"};
    const char *seqs[] = {l1, l2, l3, ""};
    rv_seq_t *s = rv_seq_from_records(names, seqs, 4, RV_ALPHA_DNA);
    CHECK(s != NULL, "load failed");
    if (s) {
        region_ok(s, "chr1", 0, 0, 5000);
        region_ok(s, "chr1:100", 0, 99, 5000);
        region_ok(s, "chr1:100-200", 0, 99, 200);
        region_ok(s, "chr1:1,000-2,000", 0, 999, 2000);
        region_ok(s, "chr1:1-1", 0, 0, 1);
        region_ok(s, "chr2:40-70", 1, 39, 50); /* clipped at the end */
        region_ok(s, "{HLA:A*01:01}:10-20", 2, 9, 20);
        region_ok(s, "HLA:A*01:01", 2, 0, 100);
        region_ok(s, "empty", 3, 0, 0);
        region_bad(s, "chr9");
        region_bad(s, "chr9:1-10");
        region_bad(s, "chr2:60-70"); /* starts beyond the end */
        region_bad(s, "chr1:200-100");
        region_bad(s, "chr1:abc");
        region_bad(s, "");
        /* positions: NAME:POS (1-based) -> global 0-based */
        CHECK(rv_seq_parse_pos(s, "chr2:5") == 5000 + 4, "chr2:5");
        CHECK(rv_seq_parse_pos(s, "chr1:1,234") == 1233, "chr1:1,234");
        CHECK(rv_seq_parse_pos(s, "{HLA:A*01:01}:1") == 5050, "{HLA:A*01:01}:1");
        CHECK(rv_seq_parse_pos(s, "17") == -1, "a bare position with several records is ambiguous");
        CHECK(rv_seq_parse_pos(s, "nope:3") == -1, "unknown record");
        /* a position in an empty record is an error, not the position after the text
         * (a case from tests/fuzz/fuzz_region.c) */
        CHECK(rv_seq_parse_pos(s, "empty") == -1 && strstr(rv_last_error(), "empty"), "a position in an empty record");
    }
    rv_seq_free(s);
    s = rv_seq_from_string(l1, 5000, RV_ALPHA_DNA, "only");
    if (s) {
        CHECK(rv_seq_parse_pos(s, "1") == 0 && rv_seq_parse_pos(s, "5,000") == 4999, "bare positions");
        CHECK(rv_seq_parse_pos(s, "0") == -1 && rv_seq_parse_pos(s, "5001") == -1, "bare position outside");
        CHECK(rv_seq_parse_pos(s, "only:5001") == -1, "NAME:POS beyond the end");
    }
    rv_seq_free(s);
    free(l1); free(l2); free(l3);
    case_end("regions_samtools_syntax");
}

int main(void)
{
    rng_t r = rng_new(20261121);
    hts_set_log_level(HTS_LOG_OFF); /* region errors come back through rv_last_error() */
    case_coords_collapse();
    case_regions();
    for (int shape = 0; shape < 7; shape++)
        for (int wide = 0; wide < 2; wide++) case_small(shape, wide, &r);
    case_large(&r);
    return check_exit();
}
