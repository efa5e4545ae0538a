/* t_fm.c — oracle tests of the FM-index search (fm.h): backward search against the
 * SA's binary search, and the pigeonhole search of random batches (k = 0..3, both
 * strands, patterns with IUPAC codes left to find.h) against a brute-force scan of
 * the records as read and against find.h's SA path, on the CPU and — when a GPU is
 * usable — on the GPU (its parts print SKIP otherwise).  Inputs: DNA with N runs,
 * two letters, periodic, all-same, one to three records, one or both strands. */
#include <ctype.h>
#include "check.h"
#include "repview/common.h"
#include "repview/build.h"
#include "repview/fm.h"
#include "repview/gpu.h"
#include "search/find_internal.h"
#include "hitvec.h"
#include "search/fm_core.h" /* RV_FM_MAX_K, RV_FM_MAX_LEN */

enum { K_DNA, K_AC, K_PERIODIC, K_SAME, N_KINDS };
static const char *const kind_name[] = {"dna", "ac", "periodic", "same"};

static void random_record(rng_t *g, int kind, char *buf, size_t len)
{
    size_t period = 1 + rng_below(g, 7);
    for (size_t i = 0; i < len; i++) {
        switch (kind) {
        case K_DNA: buf[i] = rng_below(g, 12) == 0 ? 'N' : "ACGTacgt"[rng_below(g, 8)]; break;
        case K_AC: buf[i] = rng_below(g, 20) == 0 ? 'N' : "AC"[rng_below(g, 2)]; break;
        case K_PERIODIC:
            buf[i] = i < period ? "ACGT"[rng_below(g, 4)] : buf[i - period];
            if (rng_below(g, 50) == 0) buf[i] = "NG"[rng_below(g, 2)];
            break;
        default: buf[i] = 'A'; break;
        }
    }
    buf[len] = 0;
}

static rv_index_t *random_index(rng_t *g, int kind, int strands)
{
    char *seqs[3], names[3][16];
    const char *nm[3];
    int n_rec = 1 + (int)rng_below(g, 3);
    for (int r = 0; r < n_rec; r++) {
        size_t len = rng_below(g, 5) == 0 ? rng_below(g, 8) : 30 + rng_below(g, 400);
        seqs[r] = malloc(len + 1);
        random_record(g, kind, seqs[r], len);
        snprintf(names[r], sizeof names[r], "r%d", r);
        nm[r] = names[r];
    }
    rv_seq_t *s = rv_seq_from_records(nm, (const char *const *)seqs, n_rec, RV_ALPHA_DNA);
    for (int r = 0; r < n_rec; r++) free(seqs[r]);
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.backend = RV_BACKEND_CPU;
    o.threads = 1;
    o.strands = strands;
    o.with_llr = 0;
    return s ? rv_build(s, &o, NULL) : NULL;
}

/* ---- brute force on the records as read ------------------------------------- */

static int base_of(char c)
{
    c = (char)toupper((unsigned char)c);
    return c == 'A' ? 1 : c == 'C' ? 2 : c == 'G' ? 3 : c == 'T' ? 4 : 0;
}


/* Does pattern letter p match the base b (1..4)?  IUPAC sets spelled out. */
static int letter_has(char p, int b)
{
    static const char *const set[] = {"AC GT", "ARWMDHVN", "CYSMBHVN", "GRSKBDVN", "TUYWKBDHN"};
    (void)set[0];
    return strchr(set[b], toupper((unsigned char)p)) != NULL;
}

static int comp_base(int b) { return 5 - b; }

/* Hits (global position) of the pattern pat (letters) with <= k mismatches on
 * the strands asked for, pattern number id. */
static void brute(const rv_seq_t *s, const char *pat, size_t m, unsigned k, int strands, uint32_t id,
                  hitvec_t *out)
{
    for (uint64_t r = 0; r < s->n_rec; r++)
        for (uint64_t p = 0; p + m <= s->rec[r].len; p++)
            for (int st = 0; st < 2; st++) {
                if (!(strands >> st & 1)) continue;
                unsigned mm = 0;
                size_t i = 0;
                for (; i < m; i++) {
                    int t = base_of(s->raw[s->rec[r].off + p + i]);
                    if (!t) break;
                    mm += st ? !letter_has(pat[m - 1 - i], comp_base(t)) : !letter_has(pat[i], t);
                }
                if (i == m && mm <= k) push(out, (rv_hit_t){s->rec[r].off + p, id, (uint16_t)mm, st ? '-' : '+'});
            }
}

static int hit_order(const void *va, const void *vb)
{
    const rv_hit_t *a = va, *b = vb;
    if (a->pattern != b->pattern) return a->pattern < b->pattern ? -1 : 1;
    if (a->pos != b->pos) return a->pos < b->pos ? -1 : 1;
    return (a->strand > b->strand) - (a->strand < b->strand);
}

/* ---- random batches ------------------------------------------------------------ */

/* Pattern letters: a substring of a record (mutated) or random bases; now and then
 * an IUPAC code, a lower-case letter or U. */
static size_t random_pattern(rng_t *g, const rv_seq_t *s, char *pat, size_t maxlen)
{
    size_t m = 1 + rng_below(g, maxlen), i = 0;
    uint64_t r = rng_below(g, s->n_rec);
    if (s->rec[r].len >= m && rng_below(g, 4)) {
        uint64_t p = s->rec[r].off + rng_below(g, s->rec[r].len - m + 1);
        for (; i < m; i++) pat[i] = base_of(s->raw[p + i]) ? s->raw[p + i] : "ACGT"[rng_below(g, 4)];
        if (rng_below(g, 2)) /* the other strand */
            for (size_t a = 0, b = m - 1; a < b; a++, b--) {
                char t = pat[a];
                pat[a] = pat[b];
                pat[b] = t;
            }
    }
    for (; i < m; i++) pat[i] = "ACGTacgu"[rng_below(g, 8)];
    for (int e = (int)rng_below(g, 4); e > 0; e--) pat[rng_below(g, m)] = "ACGTTGCAN"[rng_below(g, 9)];
    if (rng_below(g, 10) == 0) pat[rng_below(g, m)] = "RYNnK"[rng_below(g, 5)];
    pat[m] = 0;
    return m;
}

typedef struct {
    size_t n;
    uint8_t *code;
    uint64_t *off;
    char (*text)[80];
} batch_t;

/* The FM answer of a batch: counts, left marks, hits sorted by (pattern, pos). */
typedef struct {
    uint64_t *count;
    uint8_t *left;
    rv_hit_t *hits;
    uint64_t n_hits;
} answer_t;

static int run_fm(rv_fm_t *f, const batch_t *b, int strands, unsigned k, uint32_t cap, answer_t *a)
{
    rv_fm_batch_t fb = {b->n, b->code, b->off};
    a->count = calloc(b->n + 1, sizeof *a->count);
    a->left = calloc(b->n + 1, 1);
    memset(a->left, 7, b->n);
    int rc = rv_fm_search(f, &fb, (rv_strand_t)strands, k, 100, cap, a->count, &a->hits, &a->n_hits, a->left);
    if (rc == 0) qsort(a->hits, a->n_hits, sizeof *a->hits, hit_order);
    return rc;
}

static void free_answer(answer_t *a)
{
    free(a->count);
    free(a->left);
    free(a->hits);
}

static uint64_t iupac_searched; /* patterns with IUPAC codes the FM search took */
static uint64_t gpu_left_fewer; /* patterns the GPU searched and the CPU left */

/* An FM answer's pattern i (not left) against the brute force's hits of it,
 * want[0, nw); *at walks the answer's hits (sorted by pattern, then position). */
static void check_pattern(const rv_seq_t *s, const answer_t *a, size_t i, const char *text, unsigned k,
                          int strands, const rv_hit_t *want, size_t nw, uint64_t *at, const char *who,
                          const char *ctx)
{
    CHECK(a->count[i] == nw, "%s: %s '%s' k=%u strands=%d: FM %llu, brute force %zu", ctx, who, text, k, strands,
          (unsigned long long)a->count[i], nw);
    for (size_t j = 0; j < nw; j++, (*at)++) {
        CHECK(*at < a->n_hits, "%s: %s '%s': hit %zu missing", ctx, who, text, j);
        if (*at >= a->n_hits) break;
        rv_hit_t h = a->hits[*at];
        h.pos = rv_seq_text_to_global(s, h.pos);
        CHECK(h.pos == want[j].pos && h.strand == want[j].strand && h.mism == want[j].mism &&
                  h.pattern == want[j].pattern,
              "%s: %s '%s' k=%u: hit %zu at %llu%c mism %u, brute force %llu%c mism %u", ctx, who, text, k, j,
              (unsigned long long)h.pos, h.strand, h.mism, (unsigned long long)want[j].pos, want[j].strand,
              want[j].mism);
    }
}

/* One batch on index x: CPU FM vs brute force and the SA path; GPU FM vs brute
 * force, leaving to the host at most the patterns the CPU leaves (its q-gram
 * table narrows the pieces, so it may leave fewer). */
static void check_batch(rng_t *g, const rv_index_t *x, rv_fm_t *cpu, rv_fm_t *gpu, const char *ctx)
{
    const rv_seq_t *s = x->seq;
    const unsigned k = (unsigned)rng_below(g, RV_FM_MAX_K + 1);
    const int strands = 1 + (int)rng_below(g, 3);
    const uint32_t cap = rng_below(g, 3) == 0 ? 1 + (uint32_t)rng_below(g, 4) : RV_FM_CAP;
    batch_t b = {0};
    b.code = malloc(64 * 80);
    b.off = calloc(65, sizeof *b.off);
    b.text = malloc(64 * sizeof *b.text);
    char pat[80];
    for (int tries = 0; b.n < 64 && tries < 200; tries++) {
        size_t m = random_pattern(g, s, pat, 72);
        if (!rv_fm_takes(m, k)) continue;
        if (!rv_fm_encode(pat, m, b.code + b.off[b.n])) continue; /* find.h's business */
        memcpy(b.text[b.n], pat, m + 1);
        b.off[b.n + 1] = b.off[b.n] + m;
        b.n++;
    }
    /* the brute force: pattern i's hits are want.h[from[i], from[i + 1]) */
    hitvec_t want = {0};
    size_t from[65] = {0};
    for (size_t i = 0; i < b.n; i++) {
        brute(s, b.text[i], b.off[i + 1] - b.off[i], k, strands, 100 + (uint32_t)i, &want);
        from[i + 1] = want.n;
    }
    answer_t a = {0};
    CHECK(run_fm(cpu, &b, strands, k, cap, &a) == 0, "%s: CPU search failed: %s", ctx, rv_last_error());
    uint64_t at = 0;
    for (size_t i = 0; i < b.n && a.hits; i++) {
        const size_t m = b.off[i + 1] - b.off[i], nw = from[i + 1] - from[i];
        CHECK(a.left[i] <= 1, "%s: left[%zu] not set", ctx, i);
        rv_pattern_t *p = rv_find_compile(x, b.text[i], m, (rv_strand_t)strands, k);
        const int64_t sa_count = p ? rv_find_count(p) : -1;
        rv_find_free(p);
        CHECK(sa_count == (int64_t)nw, "%s: '%s' k=%u strands=%d: SA path %lld, brute force %zu", ctx, b.text[i],
              k, strands, (long long)sa_count, nw);
        if (a.left[i]) { /* only for a small cap or an IUPAC code (in a piece that stays) */
            CHECK(a.count[i] == 0 && (cap < RV_FM_CAP || strspn(b.text[i], "ACGTacgtUu") < m),
                  "%s: '%s' left with cap %u", ctx, b.text[i], cap);
            continue;
        }
        iupac_searched += strspn(b.text[i], "ACGTacgtUu") < m;
        check_pattern(s, &a, i, b.text[i], k, strands, want.h + from[i], nw, &at, "CPU", ctx);
    }
    CHECK(!a.hits || at == a.n_hits, "%s: %llu hits, brute force %llu", ctx, (unsigned long long)a.n_hits,
          (unsigned long long)at);
    if (gpu) {
        answer_t d = {0};
        CHECK(run_fm(gpu, &b, strands, k, cap, &d) == 0, "%s: GPU search failed: %s", ctx, rv_last_error());
        at = 0;
        for (size_t i = 0; i < b.n && d.hits; i++) {
            CHECK(d.left[i] <= a.left[i], "%s: '%s' left on the GPU, not on the CPU", ctx, b.text[i]);
            gpu_left_fewer += d.left[i] < a.left[i];
            if (d.left[i]) {
                CHECK(d.count[i] == 0, "%s: '%s' left with a count on the GPU", ctx, b.text[i]);
                continue;
            }
            check_pattern(s, &d, i, b.text[i], k, strands, want.h + from[i], from[i + 1] - from[i], &at, "GPU", ctx);
        }
        CHECK(!d.hits || at == d.n_hits, "%s: %llu hits on the GPU, brute force %llu", ctx,
              (unsigned long long)d.n_hits, (unsigned long long)at);
        free_answer(&d);
    }
    free(want.h);
    free_answer(&a);
    free(b.code);
    free(b.off);
    free(b.text);
}

/* Backward search == the SA's binary search for random code strings. */
static void check_ranges(rng_t *g, const rv_index_t *x, rv_fm_t *f, const char *ctx)
{
    for (int it = 0; it < 50; it++) {
        uint8_t code[24];
        size_t m = 1 + rng_below(g, sizeof code);
        uint64_t start = rng_below(g, x->n);
        for (size_t i = 0; i < m; i++) {
            uint8_t c = start + i < x->n ? x->seq->text[start + i] : 0;
            code[i] = c >= 1 && c <= 4 && rng_below(g, 8) ? c : (uint8_t)(1 + rng_below(g, 4));
        }
        uint64_t lo, hi, a, b;
        rv_fm_range(f, code, m, &lo, &hi);
        rv_sa_exact_range(x, code, m, 0, x->n, 0, &a, &b);
        CHECK(hi - lo == b - a && (a == b || lo == a), "%s: range of %zu codes [%llu, %llu), SA [%llu, %llu)", ctx,
              m, (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)a, (unsigned long long)b);
    }
}

static void test_kind(int kind, rv_fm_t *(*open_gpu)(const rv_index_t *))
{
    char name[64];
    for (int strands = 1; strands <= 2; strands++) {
        snprintf(name, sizeof name, "fm_%s%s%s", kind_name[kind], strands == 2 ? "_both" : "",
                 open_gpu ? "_gpu" : "");
        rng_t g = rng_new(1000 + (uint64_t)kind * 10 + (uint64_t)strands);
        case_begin();
        for (int it = 0; it < check_iters(60); it++) {
            rv_index_t *x = random_index(&g, kind, strands);
            CHECK(x, "iter %d: build failed: %s", it, rv_last_error());
            if (!x) break;
            char ctx[64];
            snprintf(ctx, sizeof ctx, "iter %d (n=%llu)", it, (unsigned long long)x->n);
            if (x->n == 0) { rv_index_free(x); continue; }
            rv_fm_t *cpu = rv_fm_open(x, RV_BACKEND_CPU, 1 + it % 3);
            CHECK(cpu, "%s: no CPU FM-index: %s", ctx, rv_last_error());
            /* the GPU's q-gram table: its own size, a tiny one (most pieces longer),
             * none; launches of at most 3 or 40 candidates now and then (hits in
             * several pieces, or every candidate by binary search) */
            static const char *const qs[] = {"", "2", "0"}, *const chunks[] = {"", "3", "", "40"};
            setenv("REPVIEW_FM_Q", qs[it % 3], 1);
            setenv("REPVIEW_FM_CHUNK", chunks[it % 4], 1);
            rv_fm_t *gpu = open_gpu && cpu ? open_gpu(x) : NULL;
            unsetenv("REPVIEW_FM_Q");
            unsetenv("REPVIEW_FM_CHUNK");
            CHECK(!open_gpu || gpu, "%s: no GPU FM-index: %s", ctx, rv_last_error());
            if (cpu) {
                check_ranges(&g, x, cpu, ctx);
                for (int bt = 0; bt < 4; bt++) check_batch(&g, x, cpu, gpu, ctx);
            }
            rv_fm_close(gpu);
            rv_fm_close(cpu);
            rv_index_free(x);
        }
        case_end(name);
    }
}

static rv_fm_t *open_gpu(const rv_index_t *x) { return rv_fm_open(x, RV_BACKEND_GPU, 1); }

/* What the search refuses, and the encoding of pattern letters. */
static void test_edges(void)
{
    case_begin();
    uint8_t c[8];
    CHECK(rv_fm_encode("AcGtU", 5, c) && c[0] == 1 && c[1] == 2 && c[2] == 3 && c[3] == 4 && c[4] == 4,
          "plain bases encode as 1..4");
    CHECK(rv_fm_encode("nRy", 3, c) && c[0] == (RV_FM_SET | 15) && c[1] == (RV_FM_SET | 5) && c[2] == (RV_FM_SET | 10),
          "IUPAC codes encode as sets");
    CHECK(rv_fm_comp(RV_FM_SET | 5) == (RV_FM_SET | 10) && rv_fm_comp(RV_FM_SET | 1) == (RV_FM_SET | 8) &&
              rv_fm_comp(2) == 3,
          "complements of codes and sets");
    CHECK(!rv_fm_encode("A-", 2, c) && !rv_fm_encode("AX", 2, c) && !rv_fm_encode("A*", 2, c),
          "other bytes are not DNA pattern letters");
    CHECK(rv_fm_takes(3, 2) && !rv_fm_takes(2, 2) && !rv_fm_takes(10, RV_FM_MAX_K + 1) &&
              !rv_fm_takes(RV_FM_MAX_LEN + 1, 0),
          "rv_fm_takes limits");
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.backend = RV_BACKEND_CPU;
    rv_index_t *x = rv_build(rv_seq_from_string("ACDEFG", 6, RV_ALPHA_PROTEIN, "p"), &o, NULL);
    CHECK(x && !rv_fm_usable(x) && !rv_fm_open(x, RV_BACKEND_CPU, 1), "a protein index has no FM-index");
    rv_index_free(x);
    case_end("fm_edges");
}

int main(void)
{
    test_edges();
    for (int kind = 0; kind < N_KINDS; kind++) test_kind(kind, NULL);
    case_begin();
    CHECK(iupac_searched > 0, "no pattern with an IUPAC code went through the FM search");
    case_end("fm_iupac_searched");
    char name[64], why[128];
    if (!rv_gpu_compiled() || !rv_gpu_probe(name, sizeof name, why, sizeof why)) {
        printf("SKIP fm_gpu: no usable GPU (%s)\n", rv_gpu_compiled() ? why : "built without CUDA");
        return check_exit();
    }
    fprintf(stderr, "t_fm: device %s\n", name);
    for (int kind = 0; kind < N_KINDS; kind++) test_kind(kind, open_gpu);
    fprintf(stderr, "t_fm: %llu patterns left by the CPU were searched on the GPU\n",
            (unsigned long long)gpu_left_fewer);
    return check_exit();
}
