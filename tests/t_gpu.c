/* t_gpu.c — the GPU backend against the CPU backend (bit-identical SA, ISA, LCP, LLR,
 * LLRc and tandem runs sections; the CPU's runs are checked by brute force in t_tandem)
 * and against a brute-force oracle on small inputs, over random and adversarial texts:
 * random DNA, all-A, periodic, two identical halves, related genomes (long shared
 * segments), many N runs, protein, text bytes, many records, n = 1.  Without a usable GPU every case prints a SKIP line and the
 * program exits 0.  RV_GPU_BIG=1 adds sizes up to 10^8 (device machine only). */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "repview/common.h"
#include "repview/build.h"
#include "repview/gpu.h"
#include "repview/lr.h"
#include "repview/seq.h"

typedef struct {
    char **seqs;
    int n_rec;
    rv_alpha_t alpha;
} input_t;

static void input_free(input_t *in)
{
    for (int i = 0; i < in->n_rec; i++) free(in->seqs[i]);
    free(in->seqs);
}

static input_t one(char *s, rv_alpha_t a)
{
    input_t in = {malloc(sizeof(char *)), 1, a};
    in.seqs[0] = s;
    return in;
}

static char *random_from(rng_t *r, const char *alpha, size_t len)
{
    size_t k = strlen(alpha);
    char *s = malloc(len + 1);
    for (size_t i = 0; i < len; i++) s[i] = alpha[rng_below(r, k)];
    s[len] = 0;
    return s;
}

static char *periodic(rng_t *r, size_t len, int period)
{
    char *unit = random_from(r, "ACGT", (size_t)period);
    char *s = malloc(len + 1);
    for (size_t i = 0; i < len; i++) s[i] = unit[i % (size_t)period];
    s[len] = 0;
    free(unit);
    return s;
}

static char *halves(rng_t *r, size_t len)
{
    char *s = random_from(r, "ACGT", len);
    memcpy(s + len / 2, s, len / 2);
    return s;
}

/* DNA with N runs of 1..20 at random places, ~1 per 50 bases. */
static char *n_runs(rng_t *r, size_t len)
{
    char *s = random_from(r, "ACGT", len);
    for (size_t i = 0; i < len; i++)
        if (rng_below(r, 50) == 0) {
            size_t k = 1 + rng_below(r, 20);
            for (size_t j = i; j < len && j < i + k; j++) s[j] = 'N';
        }
    return s;
}

/* Fibonacci word over {A, C}: many long repeats, adversarial for doubling. */
static char *fibonacci(size_t len)
{
    char *a = calloc(len + 2, 1), *b = calloc(len + 2, 1), *t;
    strcpy(a, "A");
    strcpy(b, "AC");
    while (strlen(b) < len) {
        size_t lb = strlen(b), la = strlen(a);
        t = calloc(len + 2, 1);
        memcpy(t, b, lb);
        memcpy(t + lb, a, la < len + 1 - lb ? la : len + 1 - lb);
        free(a);
        a = b;
        b = t;
    }
    b[len] = 0;
    free(a);
    return b;
}

/* k copies of one random genome, each with point mutations at rate 1/div: every
 * PLCP value is about len / k, the hard case of the GPU's LCP (gpu_lcp.cu). */
static char *related(rng_t *r, size_t len, int k, int div)
{
    size_t g = len / (size_t)k;
    char *base = random_from(r, "ACGT", g ? g : 1), *s = malloc(len + 1);
    for (size_t i = 0; i < len; i++) {
        char c = base[i % (g ? g : 1)];
        s[i] = rng_below(r, (uint64_t)div) == 0 ? "ACGT"[rng_below(r, 4)] : c;
    }
    s[len] = 0;
    free(base);
    return s;
}

static char *text_bytes(rng_t *r, size_t len, int low_entropy)
{
    char *s = malloc(len + 1);
    for (size_t i = 0; i < len; i++)
        s[i] = (char)(low_entropy ? "the cat sat on a mat "[rng_below(r, 21)] : 1 + (int)rng_below(r, 255));
    s[len] = 0;
    return s;
}

static input_t records(rng_t *r, int n_rec, size_t maxlen)
{
    input_t in = {malloc(sizeof(char *) * (size_t)n_rec), n_rec, RV_ALPHA_DNA};
    char *shared = random_from(r, "ACGT", maxlen);
    for (int i = 0; i < n_rec; i++) {
        size_t len = 1 + rng_below(r, maxlen);
        in.seqs[i] = rng_below(r, 3) == 0 ? strndup(shared, len) : random_from(r, "ACGTN", len);
    }
    free(shared);
    return in;
}

static int strands = 1; /* 2: index both strands (the doubled text) */

static rv_index_t *build(const input_t *in, rv_backend_t b, int wide)
{
    const char **names = malloc(sizeof(char *) * (size_t)in->n_rec);
    for (int i = 0; i < in->n_rec; i++) names[i] = "r";
    rv_seq_t *s = rv_seq_from_records(names, (const char *const *)in->seqs, in->n_rec, in->alpha);
    free(names);
    if (!s) return NULL;
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.backend = b;
    o.force_wide = wide;
    o.with_llr = 1;
    o.with_runs = 1;
    o.strands = strands;
    return rv_build(s, &o, NULL);
}

/* Brute force: suffix order (breaker = smallest symbol, end smaller still) and LCP
 * stopping at breakers. */
static int suffix_cmp(const uint8_t *t, uint64_t n, uint64_t a, uint64_t b)
{
    while (a < n && b < n) {
        if (t[a] != t[b]) return t[a] < t[b] ? -1 : 1;
        a++, b++;
    }
    return a == n ? -1 : 1;
}

static uint64_t lcp_naive(const uint8_t *t, uint64_t n, uint64_t a, uint64_t b)
{
    uint64_t h = 0;
    while (a + h < n && b + h < n && t[a + h] == t[b + h] && t[a + h] != RV_BREAK) h++;
    return h;
}

static void oracle(const rv_index_t *g)
{
    const uint8_t *t = g->seq->text;
    uint64_t n = g->n;
    for (uint64_t r = 0; r < n; r++) {
        CHECK(rv_isa(g, rv_sa(g, r)) == r, "ISA[SA[%llu]] != %llu", (unsigned long long)r, (unsigned long long)r);
        if (r == 0) { CHECK(rv_lcp(g, 0) == 0, "LCP[0] = %llu", (unsigned long long)rv_lcp(g, 0)); continue; }
        CHECK(suffix_cmp(t, n, rv_sa(g, r - 1), rv_sa(g, r)) < 0, "SA out of order at rank %llu", (unsigned long long)r);
        CHECK(rv_lcp(g, r) == lcp_naive(t, n, rv_sa(g, r - 1), rv_sa(g, r)), "LCP[%llu] = %llu, brute force %llu",
              (unsigned long long)r, (unsigned long long)rv_lcp(g, r),
              (unsigned long long)lcp_naive(t, n, rv_sa(g, r - 1), rv_sa(g, r)));
        if (check_failed_) return;
    }
}

/* LLR and LLRc of the GPU against the definitions of lr.h evaluated on the CPU
 * index, and against the CPU's own sections when it attached them. */
static void check_llr(const rv_index_t *c, const rv_index_t *g)
{
    uint64_t n = c->n, bc = 0, m = 0;
    rv_narrow_t llr;
    const void *llrc = rv_index_section(g, RV_SEC_LLRC, &bc);
    int has = rv_lr_llr_view(g, &llr);
    CHECK(has && llrc, "GPU attached no LLR/LLRc");
    if (!has || !llrc) return;
    uint64_t prev = 0;
    for (uint64_t i = 0; i < n && !check_failed_; i++) {
        uint64_t r = rv_isa(c, i), a = rv_lcp(c, r), b = r + 1 < n ? rv_lcp(c, r + 1) : 0;
        uint64_t l = a > b ? a : b;
        CHECK(rv_narrow_get(&llr, i) == l, "LLR[%llu] = %llu, expected %llu", (unsigned long long)i,
              (unsigned long long)rv_narrow_get(&llr, i), (unsigned long long)l);
        if (l > 0 && (i == 0 || l >= prev)) {
            CHECK((m + 1) * (g->wide ? 8 : 4) <= bc, "LLRc too short");
            if (check_failed_) break;
            CHECK(rv_get(llrc, g->wide, m) == i, "LLRc[%llu] != %llu", (unsigned long long)m,
                  (unsigned long long)i);
            m++;
        }
        prev = l;
    }
    CHECK(bc == m * (g->wide ? 8 : 4), "LLRc has %llu bytes, expected %llu entries",
          (unsigned long long)bc, (unsigned long long)m);
    if (rv_index_section(c, RV_SEC_LLRC, NULL)) {
        CHECK(same_section(c, g, RV_SEC_LLR), "LLR differs from the CPU's section");
        CHECK(same_section(c, g, RV_SEC_LLR_BIG), "LLR's big values differ from the CPU's section");
        CHECK(same_section(c, g, RV_SEC_LLRC), "LLRc differs from the CPU's section");
    }
}

/* The GPU's all-LR kernel against rv_lr_at() of the CPU index: every position of
 * small texts, a sample of 100000 of large ones. */
static void check_lr_all(const rv_index_t *c, const rv_index_t *g, const char *name)
{
    uint64_t n = g->n, hits = 0;
    uint32_t *len = malloc((n + 1) * 4), *off = malloc((n + 1) * 4), *starts = NULL;
    double ks = 0;
    int rc = rv_gpu_lr_all(g, len, off, &starts, &hits, &ks);
    CHECK(rc == 0, "rv_gpu_lr_all: %s", rv_last_error());
    if (rc == 0) {
        rv_lr_t buf[256];
        rng_t r = rng_new(n);
        uint64_t probes = n <= 200000 ? n : 100000;
        for (uint64_t q = 0; q < probes && !check_failed_; q++) {
            uint64_t k = n <= 200000 ? q : rng_below(&r, n);
            uint64_t cnt = rv_lr_at(c, k, buf, 256);
            CHECK(off[k + 1] - off[k] == cnt, "position %llu: %u LRs on the GPU, %llu on the CPU",
                  (unsigned long long)k, off[k + 1] - off[k], (unsigned long long)cnt);
            CHECK(len[k] == (cnt ? buf[0].len : 0), "position %llu: LR length %u, CPU %llu",
                  (unsigned long long)k, len[k], (unsigned long long)(cnt ? buf[0].len : 0));
            for (uint64_t h = 0; h < cnt && h < 256 && !check_failed_; h++)
                CHECK(starts[off[k] + h] == buf[h].start, "position %llu: LR %llu starts at %u, CPU %llu",
                      (unsigned long long)k, (unsigned long long)h, starts[off[k] + h],
                      (unsigned long long)buf[h].start);
        }
        if (n >= 10000000)
            fprintf(stderr, "%s: all-LR kernels %.1f ms for %llu positions, %llu LRs\n", name, ks * 1e3,
                    (unsigned long long)n, (unsigned long long)hits);
        /* lengths only (what `repview lr --bedgraph` asks for): the same lengths and count */
        uint32_t *len2 = malloc((n + 1) * 4);
        uint64_t hits2 = 0;
        CHECK(rv_gpu_lr_all(g, len2, NULL, NULL, &hits2, &ks) == 0, "lengths only: %s", rv_last_error());
        CHECK(hits2 == hits && memcmp(len, len2, n * 4) == 0, "lengths only: different lengths or count");
        free(len2);
    }
    free(len);
    free(off);
    free(starts);
}

static void compare(const char *name, input_t in, int wide)
{
    case_begin();
    double t0 = rv_now();
    rv_index_t *c = build(&in, RV_BACKEND_CPU, wide);
    double t1 = rv_now();
    rv_index_t *g = build(&in, RV_BACKEND_GPU, wide);
    double t2 = rv_now();
    CHECK(c && g, "build failed: %s", rv_last_error());
    if (c && g) {
        /* an empty text (all breakers) is never sent to the GPU */
        CHECK(g->n == 0 || (strncmp(g->backend, "GPU", 3) == 0 && !g->note[0]),
              "not built on the GPU: %s / %s", g->backend, g->note);
        CHECK(c->n == g->n && c->wide == g->wide, "shapes differ");
        size_t bytes = (size_t)g->n * (g->wide ? 8 : 4);
        CHECK(memcmp(c->sa, g->sa, bytes) == 0, "SA differs (n = %llu)", (unsigned long long)g->n);
        CHECK(memcmp(c->isa, g->isa, bytes) == 0, "ISA differs");
        CHECK(same_section(c, g, RV_SEC_LCP) && same_section(c, g, RV_SEC_LCP_BIG), "LCP differs");
        CHECK(g->n == 0 || rv_index_section(g, RV_SEC_RUNS, NULL), "no tandem runs attached");
        CHECK(same_section(c, g, RV_SEC_RUNS), "tandem runs differ from the CPU's section");
        if (g->n <= 4000) oracle(g);
        if (g->n > 0) check_llr(c, g);
        if (g->n > 0 && !g->wide) check_lr_all(c, g, name);
    }
    char full[160];
    snprintf(full, sizeof full, "gpu_%s%s%s", name, wide ? "_wide" : "", strands == 2 ? "_both" : "");
    if (g && g->n >= 1000000)
        fprintf(stderr, "%s: n=%llu cpu %.3f s gpu %.3f s\n", full, (unsigned long long)g->n, t1 - t0, t2 - t1);
    case_end(full);
    rv_index_free(c);
    rv_index_free(g);
    input_free(&in);
}

/* Random DNA with copies of 300 to 3000 bases: some LCP and LLR values past one
 * byte, few enough for the device to list them. */
static char *copies(rng_t *r, size_t len)
{
    char *s = random_from(r, "ACGT", len);
    for (size_t c = 0; c < len / 20000 + 1; c++) {
        size_t l = 300 + rng_below(r, 2700);
        if (l * 2 >= len) break;
        size_t from = rng_below(r, len - 2 * l), to = from + l + rng_below(r, len - from - 2 * l + 1);
        memmove(s + to, s + from, l);
    }
    return s;
}

static void sweep(const char *tag, size_t len, rng_t *r)
{
    char name[96];
    snprintf(name, sizeof name, "random_dna_%s", tag);
    compare(name, one(random_from(r, "ACGT", len), RV_ALPHA_DNA), 0);
    snprintf(name, sizeof name, "all_a_%s", tag);
    compare(name, one(periodic(r, len, 1), RV_ALPHA_DNA), 0);
    snprintf(name, sizeof name, "periodic_%s", tag);
    compare(name, one(periodic(r, len, 2 + (int)rng_below(r, 6)), RV_ALPHA_DNA), 0);
    snprintf(name, sizeof name, "halves_%s", tag);
    compare(name, one(halves(r, len), RV_ALPHA_DNA), 0);
    snprintf(name, sizeof name, "related_%s", tag);
    compare(name, one(related(r, len, 16, 200), RV_ALPHA_DNA), 0);
    snprintf(name, sizeof name, "identical_%s", tag);
    compare(name, one(related(r, len, 4, 1 << 30), RV_ALPHA_DNA), 0);
    snprintf(name, sizeof name, "n_runs_%s", tag);
    compare(name, one(n_runs(r, len), RV_ALPHA_DNA), 0);
    snprintf(name, sizeof name, "copies_%s", tag);
    compare(name, one(copies(r, len), RV_ALPHA_DNA), 0);
    snprintf(name, sizeof name, "copies_wide_%s", tag);
    compare(name, one(copies(r, len), RV_ALPHA_DNA), 1);
    setenv("REPVIEW_GPU_NARROW_HOST", "1", 1); /* big values listed on the host */
    snprintf(name, sizeof name, "copies_narrow_host_%s", tag);
    compare(name, one(copies(r, len), RV_ALPHA_DNA), 0);
    unsetenv("REPVIEW_GPU_NARROW_HOST");
    snprintf(name, sizeof name, "fibonacci_%s", tag);
    compare(name, one(fibonacci(len), RV_ALPHA_DNA), 0);
    snprintf(name, sizeof name, "protein_%s", tag);
    compare(name, one(random_from(r, "ACDEFGHIKLMNPQRSTVWYX", len), RV_ALPHA_PROTEIN), 0);
    snprintf(name, sizeof name, "text_bytes_%s", tag);
    compare(name, one(text_bytes(r, len, 0), RV_ALPHA_TEXT), 0);
    snprintf(name, sizeof name, "text_words_%s", tag);
    compare(name, one(text_bytes(r, len, 1), RV_ALPHA_TEXT), 0);
}

int main(void)
{
    char name[128], why[256];
    if (!rv_gpu_compiled() || !rv_gpu_probe(name, sizeof name, why, sizeof why)) {
        printf("SKIP t_gpu: no usable GPU (%s)\n", rv_gpu_compiled() ? why : "built without CUDA");
        return 0;
    }
    fprintf(stderr, "t_gpu: device %s\n", name);
    rng_t r = rng_new(20261121);
    /* tiny and exhaustive-ish: n = 1, 2, 3 and short strings over small alphabets */
    compare("n1", one(strdup("A"), RV_ALPHA_DNA), 0);
    compare("n1_wide", one(strdup("G"), RV_ALPHA_DNA), 1);
    compare("n2_same", one(strdup("AA"), RV_ALPHA_DNA), 0);
    compare("n3_breaker", one(strdup("ANC"), RV_ALPHA_DNA), 0);
    compare("mississippi", one(strdup("mississippi"), RV_ALPHA_TEXT), 0);
    int iters = check_iters(200);
    for (int it = 0; it < iters; it++) {
        size_t len = 1 + rng_below(&r, 300);
        snprintf(name, sizeof name, "small_%d", it);
        const char *alpha = it % 3 == 0 ? "AC" : it % 3 == 1 ? "ACGTN" : "ACGTNNNNN";
        compare(name, one(random_from(&r, alpha, len), RV_ALPHA_DNA), it % 7 == 0);
    }
    compare("records_many", records(&r, 2000, 60), 0);
    compare("records_many", records(&r, 300, 500), 1);
    sweep("1k", 1000, &r);
    sweep("100k", 100000, &r);
    sweep("1m", 1000000, &r);
    compare("random_dna_1m", one(random_from(&r, "ACGT", 1000000), RV_ALPHA_DNA), 1);
    /* both strands: the same builds of the doubled text (and its .rvx section) */
    strands = 2;
    for (int it = 0; it < iters / 4; it++) {
        size_t len = 1 + rng_below(&r, 300);
        snprintf(name, sizeof name, "small_%d", it);
        compare(name, one(random_from(&r, it % 2 ? "ACGTN" : "AC", len), RV_ALPHA_DNA), it % 7 == 0);
    }
    compare("records_many", records(&r, 500, 200), 0);
    compare("copies_100k", one(copies(&r, 100000), RV_ALPHA_DNA), 0);
    compare("n_runs_1m", one(n_runs(&r, 1000000), RV_ALPHA_DNA), 0);
    compare("halves_1m", one(halves(&r, 1000000), RV_ALPHA_DNA), 0);
    compare("related_1m", one(related(&r, 1000000, 16, 200), RV_ALPHA_DNA), 0);
    strands = 1;
    const char *big = getenv("RV_GPU_BIG");
    if (big && *big == '1') {
        sweep("10m", 10000000, &r);
        compare("random_dna_100m", one(random_from(&r, "ACGT", 100000000), RV_ALPHA_DNA), 0);
        compare("n_runs_100m", one(n_runs(&r, 100000000), RV_ALPHA_DNA), 0);
        compare("halves_100m", one(halves(&r, 100000000), RV_ALPHA_DNA), 0);
    }
    return check_exit();
}
