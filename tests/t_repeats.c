/* t_repeats.c — maximal and supermaximal repeats and w-mer counts against
 * brute-force oracles on thousands of small random inputs (DNA with N, two-letter
 * DNA, protein with X and *, text, periodic, all-same; one to three records;
 * 32- and 64-bit arrays; one to four threads over units of a few ranks; w-mers on
 * both strands too; on the GPU when one is usable).  The oracles work on the
 * definitions (repeats.h) with string comparisons only: every distinct
 * breaker-free substring, its occurrences, its left and right contexts, and
 * containment in other maximal repeats. */
#include "check.h"
#include "random_seq.h"
#include "repview/common.h"
#include "repview/gpu.h"
#include "repview/repeats.h"
#include "query/repeats_grain.h"

/* One repeat: length and its sorted occurrences. */
typedef struct {
    uint64_t len, count, rank;
    uint64_t *pos;
} rep_t;

typedef struct {
    rep_t *v;
    size_t n, cap;
} rep_list_t;

static void rl_add(rep_list_t *l, uint64_t len, uint64_t count, const uint64_t *pos, uint64_t rank)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
    }
    rep_t *r = &l->v[l->n++];
    *r = (rep_t){len, count, rank, NULL};
    if (pos) {
        r->pos = malloc(count * sizeof *r->pos);
        memcpy(r->pos, pos, count * sizeof *pos);
    }
}

static void rl_free(rep_list_t *l)
{
    for (size_t i = 0; i < l->n; i++) free(l->v[i].pos);
    free(l->v);
    *l = (rep_list_t){0};
}

static int collect(void *ud, const rv_repeat_t *r)
{
    rl_add(ud, r->len, r->count, r->pos, r->rank);
    return 0;
}

/* ---- the oracles ---- */

static int bfree(const uint8_t *t, uint64_t n, uint64_t p, uint64_t len)
{
    if (p + len > n) return 0;
    for (uint64_t i = 0; i < len; i++)
        if (t[p + i] == RV_BREAK) return 0;
    return 1;
}

/* Occurrences of text[p, p + len) (breaker-free) into occ; their number. */
static uint64_t occurrences(const uint8_t *t, uint64_t n, uint64_t p, uint64_t len, uint64_t *occ)
{
    uint64_t k = 0;
    for (uint64_t j = 0; j + len <= n; j++)
        if (memcmp(t + j, t + p, len) == 0) occ[k++] = j;
    return k;
}

/* Does the symbol before (side -1) or after (side +1) every occurrence agree (and
 * is none a breaker or the text's end)? */
static int extends(const uint8_t *t, uint64_t n, const uint64_t *occ, uint64_t k, uint64_t len, int side)
{
    int c0 = -1;
    for (uint64_t i = 0; i < k; i++) {
        int64_t q = side < 0 ? (int64_t)occ[i] - 1 : (int64_t)(occ[i] + len);
        if (q < 0 || (uint64_t)q >= n || t[q] == RV_BREAK) return 0;
        if (c0 >= 0 && t[q] != c0) return 0;
        c0 = t[q];
    }
    return 1;
}

/* Every maximal repeat of length >= min_len, each once, in the engine's order
 * (first occurrence, then longer first). */
static void oracle_maximal(const rv_seq_t *s, uint64_t min_len, rep_list_t *out)
{
    const uint8_t *t = s->text;
    uint64_t n = s->n, *occ = malloc((n + 1) * sizeof *occ);
    for (uint64_t p = 0; p < n; p++) {
        for (uint64_t len = n - p; len >= min_len && len >= 1; len--) { /* longer first */
            if (!bfree(t, n, p, len)) continue;
            uint64_t k = occurrences(t, n, p, len, occ);
            if (k < 2 || occ[0] != p) continue; /* not a repeat, or seen at its first occurrence */
            if (extends(t, n, occ, k, len, -1) || extends(t, n, occ, k, len, +1)) continue;
            rl_add(out, len, k, occ, 0);
        }
    }
    free(occ);
}

/* Is repeat a a substring of repeat b (a != b)? */
static int contained(const uint8_t *t, const rep_t *a, const rep_t *b)
{
    if (b->len <= a->len) return 0;
    for (uint64_t o = 0; o + a->len <= b->len; o++)
        if (memcmp(t + b->pos[0] + o, t + a->pos[0], a->len) == 0) return 1;
    return 0;
}

/* Supermaximal: maximal repeats (of any length) contain none of them. */
static void oracle_supermax(const rv_seq_t *s, uint64_t min_len, rep_list_t *out)
{
    rep_list_t all = {0};
    oracle_maximal(s, 1, &all);
    for (size_t i = 0; i < all.n; i++) {
        if (all.v[i].len < min_len) continue;
        int in = 0;
        for (size_t j = 0; j < all.n && !in; j++) in = contained(s->text, &all.v[i], &all.v[j]);
        if (!in) rl_add(out, all.v[i].len, all.v[i].count, all.v[i].pos, 0);
    }
    rl_free(&all);
}

static int wtext_cmp_t;
static const uint8_t *wtext_t;
static int by_text(const void *a, const void *b)
{
    const rep_t *u = a, *v = b;
    return memcmp(wtext_t + u->pos[0], wtext_t + v->pos[0], (size_t)wtext_cmp_t);
}

/* Every breaker-free w-mer with >= min_count occurrences, in text order of the w-mers. */
static void oracle_wmers(const rv_seq_t *s, uint64_t w, uint64_t min_count, rep_list_t *out)
{
    const uint8_t *t = s->text;
    uint64_t n = s->n, *occ = malloc((n + 1) * sizeof *occ);
    for (uint64_t p = 0; p < n; p++) {
        if (!bfree(t, n, p, w)) continue;
        uint64_t k = occurrences(t, n, p, w, occ);
        if (occ[0] == p && k >= min_count) rl_add(out, w, k, occ, 0);
    }
    wtext_cmp_t = (int)w;
    wtext_t = t;
    if (out->n) qsort(out->v, out->n, sizeof *out->v, by_text);
    free(occ);
}

/* Same repeats, same order, same occurrences (pos may be NULL in got: counts only). */
static void compare(const rep_list_t *got, const rep_list_t *want, const char *what, int kind, uint64_t param)
{
    CHECK(got->n == want->n, "%s %s %llu: %zu repeats, want %zu", what, kinds[kind], (unsigned long long)param,
          got->n, want->n);
    for (size_t i = 0; i < got->n && i < want->n; i++) {
        const rep_t *g = &got->v[i], *e = &want->v[i];
        CHECK(g->len == e->len && g->count == e->count, "%s %s %llu: #%zu len %llu x%llu, want %llu x%llu", what,
              kinds[kind], (unsigned long long)param, i, (unsigned long long)g->len, (unsigned long long)g->count,
              (unsigned long long)e->len, (unsigned long long)e->count);
        if (g->pos && g->count == e->count)
            CHECK(memcmp(g->pos, e->pos, g->count * sizeof *g->pos) == 0, "%s %s: #%zu occurrences differ", what,
                  kinds[kind], i);
    }
}

static rv_index_t *index_of(rv_seq_t *s, int wide, int strands)
{
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.backend = RV_BACKEND_CPU;
    o.threads = 2;
    o.force_wide = wide;
    o.strands = strands;
    return rv_build(s, &o, NULL);
}

/* ---- cases ---- */

static void test_hand(void)
{
    case_begin();
    /* ACGTACGTTTACGT, length >= 4: ACGT at 0, 4, 10 (left: start, T, T; right: A,
     * T, end) and TACGT at 3, 9 (left G, T; right T, end).  Supermaximal: TACGT
     * (which holds ACGT) and TT at 7, 8 (left G, T; right T, A). */
    rv_seq_t *s = rv_seq_from_string("ACGTACGTTTACGT", 14, RV_ALPHA_DNA, "h");
    rv_index_t *x = cpu_index(s, 2, 0);
    rep_list_t got = {0}, want = {0};
    CHECK(rv_repeats_each(x, 4, 0, 1, collect, &got) == 0, "%s", rv_last_error());
    CHECK(got.n == 2 && got.v[1].len == 5 && got.v[1].pos[0] == 3 && got.v[0].len == 4 && got.v[0].count == 3 && got.v[0].pos[0] == 0 && got.v[0].pos[1] == 4 &&
              got.v[0].pos[2] == 10,
          "ACGT at 0, 4, 10, TACGT at 3: got %zu repeats", got.n);
    rl_free(&got);
    CHECK(rv_repeats_each(x, 1, 1, 2, collect, &got) == 0, "%s", rv_last_error());
    oracle_supermax(x->seq, 1, &want);
    compare(&got, &want, "hand-supermax", 0, 1);
    CHECK(got.n == 2, "supermaximal: TACGT and TT (got %zu)", got.n);
    rl_free(&got);
    rl_free(&want);
    CHECK(rv_repeats_each(x, 0, 0, 1, collect, &got) < 0, "min_len 0 refused");
    CHECK(rv_wmers_each(x, 0, 2, 1, collect, &got) < 0, "w 0 refused");
    CHECK(rv_wmers_each(x, 3, 0, 1, collect, &got) < 0, "min_count 0 refused");
    rl_free(&got);
    rv_index_free(x);
    case_end("repeats_hand");
}

static void test_random(const char *name, int supermax)
{
    case_begin();
    rng_t r = rng_new(supermax ? 1717 : 1313);
    int iters = check_iters(1200);
    for (int it = 0; it < iters && !check_failed_; it++) {
        int kind = (int)rng_below(&r, N_KINDS);
        rv_index_t *x = index_of(random_seq(&r, kind, 70), (int)rng_below(&r, 2), 1);
        CHECK(x != NULL, "build: %s", rv_last_error());
        if (!x) break;
        uint64_t min_len = 1 + rng_below(&r, 6);
        rep_list_t got = {0}, want = {0};
        CHECK(rv_repeats_each_grain(x, min_len, supermax, 1 + (int)rng_below(&r, 4), 1 + rng_below(&r, 12), collect, &got) == 0, "%s", rv_last_error());
        if (supermax) oracle_supermax(x->seq, min_len, &want);
        else oracle_maximal(x->seq, min_len, &want);
        compare(&got, &want, name, kind, min_len);
        rl_free(&got);
        rl_free(&want);
        rv_index_free(x);
    }
    case_end(name);
}

static void test_wmers(const char *name, int strands)
{
    case_begin();
    rng_t r = rng_new(strands == 2 ? 2929 : 2323);
    int iters = check_iters(1500);
    for (int it = 0; it < iters && !check_failed_; it++) {
        int kind = (int)rng_below(&r, N_KINDS);
        if (strands == 2 && kind_alpha[kind] != RV_ALPHA_DNA) kind = 0;
        rv_index_t *x = index_of(random_seq(&r, kind, 70), (int)rng_below(&r, 2), strands);
        CHECK(x != NULL, "build: %s", rv_last_error());
        if (!x) break;
        CHECK((x->seq->strands == 2) == (strands == 2), "index of %d strands, want %d", x->seq->strands, strands);
        uint64_t w = 1 + rng_below(&r, 8), min_count = 1 + rng_below(&r, 3);
        int with_pos = (int)rng_below(&r, 4) != 0;
        rep_list_t got = {0}, want = {0};
        CHECK(rv_wmers_each(x, w, min_count, with_pos, collect, &got) == 0, "%s", rv_last_error());
        oracle_wmers(x->seq, w, min_count, &want);
        compare(&got, &want, name, kind, w);
        for (size_t i = 0; i < got.n && !check_failed_; i++) /* the rank names the w-mer's text */
            CHECK(memcmp(x->seq->text + rv_sa(x, got.v[i].rank), x->seq->text + want.v[i].pos[0], w) == 0,
                  "%s: w-mer #%zu text", name, i);
        rl_free(&got);
        rl_free(&want);
        rv_index_free(x);
    }
    case_end(name);
}

/* One family per oracle repeat covering t: same length and count, `here` one
 * of its occurrences over t, `next` the occurrence after it (cyclic). */
static void check_covering(const rv_index_t *x, uint64_t min_len, uint64_t t, const rep_list_t *all, int kind)
{
    rv_families_t f;
    CHECK(rv_repeats_covering(x, min_len, t, 0, &f) == 0, "%s", rv_last_error());
    CHECK(f.complete, "no work bound, yet incomplete");
    size_t want = 0;
    for (size_t i = 0; i < all->n; i++) {
        const rep_t *e = &all->v[i];
        int covers = 0;
        for (uint64_t k = 0; k < e->count; k++) covers |= e->pos[k] <= t && t < e->pos[k] + e->len;
        if (!covers) continue;
        want++;
        const rv_family_t *g = NULL; /* the family of e: its rank's suffix is one of e's copies */
        for (size_t j = 0; j < f.n && !g; j++)
            if (f.v[j].len == e->len && memcmp(x->seq->text + rv_sa(x, f.v[j].rank), x->seq->text + e->pos[0], e->len) == 0)
                g = &f.v[j];
        CHECK(g != NULL, "%s t=%llu: repeat of %llu at %llu missing", kinds[kind], (unsigned long long)t,
              (unsigned long long)e->len, (unsigned long long)e->pos[0]);
        if (!g) continue;
        CHECK(g->count == e->count, "%s: count %llu, want %llu", kinds[kind], (unsigned long long)g->count,
              (unsigned long long)e->count);
        uint64_t k = 0;
        while (k < e->count && e->pos[k] != g->here) k++;
        CHECK(k < e->count && g->here <= t && t < g->here + g->len, "%s: 'here' %llu is no copy over %llu",
              kinds[kind], (unsigned long long)g->here, (unsigned long long)t);
        if (k < e->count) CHECK(g->next == e->pos[(k + 1) % e->count], "%s: 'next' %llu", kinds[kind],
                                (unsigned long long)g->next);
    }
    CHECK(f.n == want, "%s t=%llu: %zu families, want %zu", kinds[kind], (unsigned long long)t, f.n, want);
    for (size_t j = 1; j < f.n; j++) CHECK(f.v[j - 1].len >= f.v[j].len, "not longest first");
    rv_families_free(&f);
}

static void test_covering(void)
{
    case_begin();
    rng_t r = rng_new(4141);
    int iters = check_iters(600);
    for (int it = 0; it < iters && !check_failed_; it++) {
        int kind = (int)rng_below(&r, N_KINDS);
        rv_index_t *x = index_of(random_seq(&r, kind, 60), (int)rng_below(&r, 2), 1);
        CHECK(x != NULL, "build: %s", rv_last_error());
        if (!x) break;
        uint64_t min_len = 1 + rng_below(&r, 5);
        rep_list_t all = {0};
        oracle_maximal(x->seq, min_len, &all);
        for (uint64_t t = 0; t < x->n && !check_failed_; t++)
            if (x->seq->text[t] != RV_BREAK) check_covering(x, min_len, t, &all, kind);
        rl_free(&all);
        /* a work bound stops early and says so */
        rv_families_t f;
        CHECK(rv_repeats_covering(x, 1, x->n / 2, 1, &f) == 0, "%s", rv_last_error());
        CHECK(f.complete || f.n == 0, "bounded answer marked complete with %zu families", f.n);
        rv_families_free(&f);
        rv_index_free(x);
    }
    case_end("repeats_covering_random");
}

/* fn's non-zero value stops the walk and comes back. */
static int stop_at_first(void *ud, const rv_repeat_t *r)
{
    ++*(int *)ud;
    return 7;
}

static void test_stop(void)
{
    case_begin();
    rv_index_t *x = cpu_index(rv_seq_from_string("AAAAAAAACAAAAAAAA", 17, RV_ALPHA_DNA, "s"), 2, 0);
    int calls = 0;
    CHECK(rv_repeats_each(x, 1, 0, 2, stop_at_first, &calls) == 7 && calls == 1, "repeats stop (%d calls)", calls);
    calls = 0;
    CHECK(rv_wmers_each(x, 2, 1, 1, stop_at_first, &calls) == 7 && calls == 1, "wmers stop (%d calls)", calls);
    rv_index_free(x);
    case_end("repeats_stop");
}

/* ---- the GPU's w-mers (gpu_wmers.cu) ---- */

/* A second brute force for texts too long for oracle_wmers: every breaker-free
 * w-mer's start sorted by its letters (then position) and grouped. */
static const uint8_t *sort_t;
static uint64_t sort_w;
static int by_wmer(const void *a, const void *b)
{
    uint64_t u = *(const uint64_t *)a, v = *(const uint64_t *)b;
    int c = memcmp(sort_t + u, sort_t + v, (size_t)sort_w);
    return c ? c : u < v ? -1 : u > v;
}

static void sorted_wmers(const rv_seq_t *s, uint64_t w, uint64_t min_count, rep_list_t *out)
{
    uint64_t *p = malloc((s->n + 1) * sizeof *p), m = 0;
    for (uint64_t i = 0; i < s->n; i++)
        if (bfree(s->text, s->n, i, w)) p[m++] = i;
    sort_t = s->text, sort_w = w;
    if (m) qsort(p, m, sizeof *p, by_wmer);
    for (uint64_t i = 0, j; i < m; i = j) {
        for (j = i + 1; j < m && memcmp(s->text + p[i], s->text + p[j], w) == 0; j++) {}
        if (j - i >= min_count) rl_add(out, w, j - i, p + i, 0);
    }
    free(p);
}

/* GPU against CPU (same lines, ranks included) and against a brute force. */
static void gpu_case(const rv_index_t *x, uint64_t w, uint64_t min_count, int with_pos, const rep_list_t *want,
                     const char *what, int kind)
{
    rep_list_t got = {0}, cpu = {0};
    int rc = rv_gpu_wmers_each(x, w, min_count, with_pos, collect, &got);
    CHECK(rc == 0, "%s w=%llu c=%llu: %s", what, (unsigned long long)w, (unsigned long long)min_count,
          rv_last_error());
    CHECK(rv_wmers_each(x, w, min_count, with_pos, collect, &cpu) == 0, "%s", rv_last_error());
    compare(&got, want, what, kind, w);
    compare(&got, &cpu, what, kind, w);
    for (size_t i = 0; i < got.n && i < cpu.n; i++)
        CHECK(got.v[i].rank == cpu.v[i].rank, "%s w=%llu: #%zu rank %llu, CPU %llu", what, (unsigned long long)w, i,
              (unsigned long long)got.v[i].rank, (unsigned long long)cpu.v[i].rank);
    CHECK(with_pos || got.n == 0 || !got.v[0].pos, "%s: positions without asking", what);
    rl_free(&got);
    rl_free(&cpu);
}

static void test_wmers_gpu(void)
{
    char name[128], why[256];
    if (!rv_gpu_compiled() || !rv_gpu_probe(name, sizeof name, why, sizeof why)) {
        printf("SKIP wmers_gpu: no usable GPU (%s)\n", rv_gpu_compiled() ? why : "built without CUDA");
        return;
    }
    case_begin();
    rng_t r = rng_new(3131);
    int iters = check_iters(600);
    for (int it = 0; it < iters && !check_failed_; it++) { /* small: the definition's oracle */
        int kind = (int)rng_below(&r, N_KINDS), strands = it % 4 == 3 ? 2 : 1;
        if (strands == 2 && kind_alpha[kind] != RV_ALPHA_DNA) kind = 0;
        rv_index_t *x = index_of(random_seq(&r, kind, 70), 0, strands);
        CHECK(x != NULL, "build: %s", rv_last_error());
        if (!x) break;
        uint64_t w = 1 + rng_below(&r, 8), min_count = 1 + rng_below(&r, 3);
        rep_list_t want = {0};
        oracle_wmers(x->seq, w, min_count, &want);
        gpu_case(x, w, min_count, (int)rng_below(&r, 4) != 0, &want, "wmers_gpu_small", kind);
        rl_free(&want);
        rv_index_free(x);
    }
    /* longer texts: LCPs past 255 (periodic, all-same) and w on both sides of 255 */
    static const uint64_t ws[] = {1, 2, 5, 12, 16, 100, 254, 255, 256, 257, 300, 1000};
    for (int it = 0; it < check_iters(60) && !check_failed_; it++) {
        int kind = (int)rng_below(&r, N_KINDS), strands = it % 3 == 2 ? 2 : 1;
        if (strands == 2 && kind_alpha[kind] != RV_ALPHA_DNA) kind = 4;
        rv_index_t *x = index_of(random_seq(&r, kind, 4000), 0, strands);
        CHECK(x != NULL, "build: %s", rv_last_error());
        if (!x) break;
        uint64_t w = ws[rng_below(&r, sizeof ws / sizeof *ws)], min_count = 1 + rng_below(&r, 4);
        rep_list_t want = {0};
        sorted_wmers(x->seq, w, min_count, &want);
        gpu_case(x, w, min_count, (int)rng_below(&r, 3) != 0, &want, "wmers_gpu_long", kind);
        rl_free(&want);
        rv_index_free(x);
    }
    /* a 64-bit index is refused before any call (the caller then counts on the CPU) */
    rv_index_t *x = index_of(rv_seq_from_string("ACGTACGT", 8, RV_ALPHA_DNA, "w"), 1, 1);
    int calls = 0;
    CHECK(x && rv_gpu_wmers_each(x, 2, 1, 1, stop_at_first, &calls) == -1 && calls == 0, "64-bit index not refused");
    rv_index_free(x);
    x = index_of(rv_seq_from_string("AAAAAAAACAAAAAAAA", 17, RV_ALPHA_DNA, "s"), 0, 1);
    CHECK(rv_gpu_wmers_each(x, 2, 1, 1, stop_at_first, &calls) == 7 && calls == 1, "GPU stop (%d calls)", calls);
    rv_index_free(x);
    case_end("wmers_gpu");
}

int main(void)
{
    test_hand();
    test_random("repeats_maximal_random", 0);
    test_random("repeats_supermax_random", 1);
    test_wmers("wmers_random", 1);
    test_wmers("wmers_both_strands_random", 2);
    test_covering();
    test_stop();
    test_wmers_gpu();
    return check_exit();
}
