/* lr_bench.c — bench-only program of tests/bench/lr.sh (compiled by the script, not
 * part of the test suite): the shape of Tables 2-4 of Tian & Xu (Tian & Xu) for one
 * input.  SA, ISA and LCP are built first and not timed (as in the paper, §6).
 *
 *   lr_bench [-t THREADS] [-r REPS] FILE LABEL   print the rows for FILE
 *   lr_bench --gen dna|protein|english LEN SEED  fallback input generator (FASTA)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/build.h"
#include "repview/common.h"
#include "repview/lr.h"
#include "query/lr_internal.h"

static double median(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) { double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t; }
    return v[n / 2];
}

typedef struct {
    const char *name;
    rv_lr_method_t m;
    int leftmost;
} variant_t;

static double time_scan(const rv_index_t *x, const variant_t *v, int threads, int reps, rv_lr_stats_t *st)
{
    double t[16];
    for (int r = 0; r < reps; r++) {
        rv_lr_scan_opts_t o = {v->m, v->leftmost, threads};
        double t0 = rv_now();
        if (rv_lr_scan(x, 0, x->n, &o, NULL, NULL, st) < 0) { fprintf(stderr, "%s\n", rv_last_error()); exit(1); }
        t[r] = rv_now() - t0;
    }
    return median(t, reps);
}

static double time_baseline(const rv_index_t *x, int reps, uint64_t *check)
{
    double t[16];
    rv_lr_t *out = malloc(x->n * sizeof *out);
    for (int r = 0; r < reps; r++) {
        double t0 = rv_now();
        rv_lr_leftmost_linear(x, out);
        t[r] = rv_now() - t0;
    }
    *check = 0;
    for (uint64_t k = 0; k < x->n; k++) *check += out[k].len;
    free(out);
    return median(t, reps);
}

/* The raw LLR bytes alone, one thread, as rv_lr_build_arrays() makes them (what
 * Alg. 1 needs before its walks): from the rank side, max(LCP[r], LCP[r+1]) in
 * bytes scattered to SA[r]; the table of values >= 255 is left out (0.3% on DNA). */
static double time_raw_llr(const rv_index_t *x)
{
    uint8_t *a = malloc(x->n ? x->n : 1);
    const uint8_t *lv = x->lcp.v;
    double t0 = rv_now();
    for (uint64_t r = 0; r < x->n; r++) {
        uint8_t p = lv[r], q = r + 1 < x->n ? lv[r + 1] : 0;
        a[rv_sa(x, r)] = p > q ? p : q;
    }
    double t = rv_now() - t0;
    volatile uint8_t sink = x->n ? a[x->n / 2] : 0;
    (void)sink;
    free(a);
    return t;
}

static int bench(const char *path, const char *label, int threads, int reps)
{
    rv_build_opts_t bo;
    rv_build_opts_init(&bo);
    bo.backend = RV_BACKEND_CPU;
    bo.threads = threads;
    bo.with_llr = 0;
    rv_seq_t *s = rv_seq_load(path, RV_ALPHA_AUTO);
    rv_index_t *x = s ? rv_build(s, &bo, NULL) : NULL;
    if (!x) { fprintf(stderr, "lr_bench: %s\n", rv_last_error()); return 1; }
    double t_raw1 = time_raw_llr(x), t0 = rv_now();
    if (rv_lr_build_arrays(x, 1, NULL) < 0) return 1;
    double t_arr1 = rv_now() - t0;
    t0 = rv_now();
    rv_lr_build_arrays(x, threads, NULL);
    double t_arrT = rv_now() - t0;
    uint64_t llr_b = 0, llr_big = 0, llrc_b = 0, lcp_b = 0, lcp_big = 0, check = 0;
    rv_index_section(x, RV_SEC_LLR, &llr_b);
    rv_index_section(x, RV_SEC_LLR_BIG, &llr_big);
    rv_index_section(x, RV_SEC_LLRC, &llrc_b);
    rv_index_section(x, RV_SEC_LCP, &lcp_b);
    rv_index_section(x, RV_SEC_LCP_BIG, &lcp_big);
    llr_b += llr_big; /* narrow arrays (narrow.h): bytes plus the table of big values */
    double t_base = time_baseline(x, reps, &check);
    static const variant_t vs[] = {{"raw leftmost (Alg.1)", RV_LR_RAW, 1}, {"compact leftmost (Alg.2)", RV_LR_COMPACT, 1},
                                   {"sweep leftmost", RV_LR_SWEEP, 1}, {"raw all (Alg.3)", RV_LR_RAW, 0},
                                   {"compact all (Alg.4)", RV_LR_COMPACT, 0}, {"sweep all", RV_LR_SWEEP, 0}};
    uint64_t w = x->wide ? 8 : 4, core = 2 * x->n * w + lcp_b + lcp_big;
    printf("\n### %s: n = %llu, LLRc = %llu entries (%.1f%% of n)\n", label, (unsigned long long)x->n,
           (unsigned long long)(llrc_b / w), 100.0 * (double)(llrc_b / w) / (double)(x->n ? x->n : 1));
    printf("\nwalk steps (Table 2)\tmin\tmax\taverage\n");
    for (int i = 0; i < 2; i++) {
        rv_lr_stats_t st;
        time_scan(x, &vs[i], threads, 1, &st);
        if (st.len_sum != check) printf("# MISMATCH: %s disagrees with the baseline\n", vs[i].name);
        printf("%s\t%llu\t%llu\t%.1f\n", i ? "compact" : "raw", (unsigned long long)st.steps_min,
               (unsigned long long)st.steps_max, (double)st.steps_sum / (double)(st.positions ? st.positions : 1));
    }
    printf("\ntime (Table 3)\t1 thread s\tspeedup vs baseline\t%d threads s\tspeedup vs baseline\n", threads);
    printf("O(n) baseline leftmost (sliding window)\t%.3f\t1.00x\t-\t-\n", t_base);
    for (size_t i = 0; i < sizeof vs / sizeof *vs; i++) {
        double pre1 = vs[i].m == RV_LR_RAW ? t_raw1 : t_arr1, preT = t_arrT;
        double s1 = pre1 + time_scan(x, &vs[i], 1, reps, NULL), sT = preT + time_scan(x, &vs[i], threads, reps, NULL);
        printf("%s\t%.3f\t%.2fx\t%.3f\t%.2fx\n", vs[i].name, s1, t_base / s1, sT, t_base / sT);
    }
    printf("(times include building the LLR array they walk: raw alone %.3f s, raw + compact %.3f s on 1 thread;\n threaded columns include raw + compact, %.3f s on %d threads)\n",
           t_raw1, t_arr1, t_arrT, threads);
    printf("\nmemory (Table 4)\tMB\tbytes/symbol\n");
    printf("SA+ISA+LCP\t%.1f\t%.1f\n", (double)core / 1e6, (double)core / (double)x->n);
    printf("ours raw: + LLR\t%.1f\t%.1f\n", (double)(core + llr_b) / 1e6, (double)(core + llr_b) / (double)x->n);
    /* LLRc holds starts; the lengths are read from the raw array */
    printf("ours compact: + LLR + LLRc\t%.1f\t%.1f\n", (double)(core + llr_b + llrc_b) / 1e6,
           (double)(core + llr_b + llrc_b) / (double)x->n);
    printf("baseline: + deque + output\t%.1f\t%.1f\n", (double)(core + 32 * x->n) / 1e6, (double)(core + 32 * x->n) / (double)x->n);
    rv_index_free(x);
    return 0;
}

/* ---- fallback generator (until build/gen_chrom --kind lands) --------------------- */

static uint64_t rs;
static uint64_t rnd(uint64_t n)
{
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
    return rs % n;
}

static int gen(const char *kind, uint64_t len, uint64_t seed)
{
    static const char *const words[] = {"the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was",
                                        "with", "be", "by", "on", "not", "he", "this", "are", "or", "his", "from",
                                        "at", "which", "but", "have", "an", "had", "they", "you", "were", "their",
                                        "one", "all", "we", "can", "her", "has", "there", "been", "if", "more",
                                        "when", "will", "would", "who", "so", "no", "river", "house", "letter"};
    char *b = malloc(len + 1);
    rs = seed * 2654435761u + 1;
    uint64_t i = 0;
    int dna = !strcmp(kind, "dna"), prot = !strcmp(kind, "protein");
    while (i < len) {
        if (i > 10000 && rnd(100) < (dna ? 3 : prot ? 2 : 8)) { /* copy of earlier text */
            uint64_t l = dna ? 300 + rnd(3000) : prot ? 20 + rnd(200) : 200 + rnd(2000), from = rnd(i - l);
            for (uint64_t k = 0; k < l && i < len; k++) b[i++] = rnd(50) || !dna ? b[from + k] : "ACGT"[rnd(4)];
        } else if (dna) {
            for (int k = 0; k < 100 && i < len; k++) b[i++] = "ACGT"[rnd(4)];
        } else if (prot) {
            for (int k = 0; k < 100 && i < len; k++) b[i++] = "ACDEFGHIKLMNPQRSTVWY"[rnd(20)];
        } else {
            const char *w = words[rnd(sizeof words / sizeof *words)];
            for (; *w && i < len; w++) b[i++] = *w;
            if (i < len) b[i++] = rnd(12) ? '_' : '.'; /* FASTA readers drop spaces */
        }
    }
    printf(">%s_%llu\n", kind, (unsigned long long)len);
    for (i = 0; i < len; i += 80) printf("%.*s\n", (int)(len - i < 80 ? len - i : 80), b + i);
    free(b);
    return 0;
}

int main(int argc, char **argv)
{
    int threads = rv_default_threads(), reps = 3, i = 1;
    if (argc == 5 && !strcmp(argv[1], "--gen")) return gen(argv[2], strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10));
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (!strcmp(argv[i], "-t")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-r")) reps = atoi(argv[i + 1]);
    }
    if (reps < 1 || reps > 15) reps = 3;
    if (argc - i != 2) { fprintf(stderr, "usage: lr_bench [-t N] [-r REPS] FILE LABEL | --gen KIND LEN SEED\n"); return 2; }
    return bench(argv[i], argv[i + 1], threads, reps);
}
