/* t_approx.c — approximate tandem repeats (approx.h) against the definitions.
 *
 * The alignment score of the engine against a plain quadratic DP of text against
 * the motif written out (global on the text, any end in the motif), with the
 * counts it prints consistent with the score, and the copies of that alignment
 * (rv_approx_copies).  Then rv_approx_find on small random texts (DNA with N,
 * two-letter DNA, protein, text, periodic, all-same; one to three records) with
 * planted approximate repeats (substitutions and indels), beside the exact runs
 * computed by brute force: every locus lies in one segment, its score and counts
 * are those of the plain DP against its motif and reach min_score, the copies
 * after the first reach min_score / 4 against the motif, a locus of fewer than
 * 2.5 copies holds an exact run that scores alone or has copies that match a
 * neighbour at 75% (at a shift within a tenth of its period) or imply an
 * ancestor it scores against, the loci come sorted; every exact run of period <=
 * max_period with match * length >= min_score lies inside a locus; every planted
 * repeat (3..8 copies, up to 15% substitutions and indels) that scores 2
 * min_score against its motif, also without its first copy, is covered by loci
 * for at least half its length; 1..3 threads and pieces of any size give loci
 * with the same properties, and the same loci for the same pieces.  Exact runs
 * whose k-mers recur within a period are found too (test_shadowed).
 */
#include <math.h>
#include "check.h"
#include "repview/approx.h"
#include "repview/common.h"
#include "repview/seq.h"
#include "align/approx_internal.h"

enum { MAXL = 700 };

/* ---- brute force ------------------------------------------------------------ */

/* best score of u[0, L) against a prefix of C^inf (any length), starting at
 * C[rot]: a plain DP over the motif written out to 3L + p symbols (an optimal
 * alignment has fewer than 1.3 L deletions: each costs indel, and the text alone
 * bounds the gain) */
static int64_t brute_score(const uint8_t *u, uint64_t L, const uint8_t *C, uint64_t p, uint64_t rot,
                           const rv_approx_opts_t *o)
{
    const uint64_t W = 3 * L + p;
    static int64_t prev[3 * MAXL + 512], cur[3 * MAXL + 512];
    for (uint64_t j = 0; j <= W; j++) prev[j] = -(int64_t)o->indel * (int64_t)j;
    for (uint64_t i = 1; i <= L; i++) {
        cur[0] = -(int64_t)o->indel * (int64_t)i;
        for (uint64_t j = 1; j <= W; j++) {
            const int64_t s = u[i - 1] == C[(rot + j - 1) % p] ? o->match : -(int64_t)o->mismatch;
            int64_t v = prev[j - 1] + s;
            if (prev[j] - o->indel > v) v = prev[j] - o->indel;
            if (cur[j - 1] - o->indel > v) v = cur[j - 1] - o->indel;
            cur[j] = v;
        }
        memcpy(prev, cur, (W + 1) * sizeof *prev);
    }
    int64_t best = prev[0];
    for (uint64_t j = 1; j <= W; j++) best = prev[j] > best ? prev[j] : best;
    return best;
}

/* the runs of u[0, n) (breakers: code 0) by their definition, sorted by start */
static uint64_t brute_runs(const uint8_t *u, uint64_t n, rv_run_t *out, uint64_t cap)
{
    uint64_t m = 0;
    for (uint64_t i = 0; i < n; i++)
        for (uint64_t p = 1; i + 2 * p <= n; p++) {
            if (i > 0 && u[i - 1] && u[i - 1] == u[i - 1 + p]) continue; /* extends left */
            uint64_t e = i;
            while (e + p < n && u[e] && u[e] == u[e + p]) e++;
            e += p; /* [i, e) has period p */
            int bad = e - i < 2 * p;
            for (uint64_t k = i; k < e && !bad; k++) bad = !u[k];
            for (uint64_t q = 1; q < p && !bad; q++) { /* p is the smallest period */
                uint64_t k = i;
                while (k + q < e && u[k] == u[k + q]) k++;
                bad = k + q >= e;
            }
            if (!bad && m < cap) out[m++] = (rv_run_t){i, e, p};
        }
    return m;
}

/* ---- the alignment alone ------------------------------------------------------ */

/* Case it: a motif C[0, *p) of up to 12 letters of up to 6 symbols, and u[0, *L) its
 * copies mutated (or noise, one case in three); every other case random weights. */
static void random_case(rng_t *r, int it, uint8_t *u, uint8_t *C, uint64_t *p, uint64_t *L, rv_approx_opts_t *o)
{
    const uint64_t sig = 1 + rng_below(r, 6);
    *p = 1 + rng_below(r, 12), *L = rng_below(r, 60);
    for (uint64_t c = 0; c < *p; c++) C[c] = (uint8_t)(1 + rng_below(r, sig));
    for (uint64_t i = 0; i < *L; i++) /* the motif's copies, mutated, or noise */
        u[i] = it % 3 == 0 ? (uint8_t)(1 + rng_below(r, sig))
                           : rng_below(r, 6) ? C[(i + (uint64_t)it) % *p] : (uint8_t)(1 + rng_below(r, sig));
    rv_approx_opts_init(o);
    if (it % 2) o->match = 1 + (int)rng_below(r, 3), o->mismatch = 1 + (int)rng_below(r, 8),
                o->indel = 1 + (int)rng_below(r, 8);
}

static void test_score(void)
{
    case_begin();
    rng_t r = rng_new(17);
    rv_approx_opts_t o;
    rv_approx_opts_init(&o);
    for (int it = 0; it < check_iters(3000); it++) {
        uint8_t u[120], C[40];
        uint64_t p, L;
        random_case(&r, it, u, C, &p, &L, &o);
        rv_approx_cell_t c;
        CHECK(rv_approx_score(u, L, C, p, &o, &c) == 0, "score failed");
        const int64_t want = brute_score(u, L, C, p, 0, &o);
        CHECK(c.s == want, "it %d L %llu p %llu: score %lld, brute %lld", it, (unsigned long long)L,
              (unsigned long long)p, (long long)c.s, (long long)want);
        CHECK(c.s == o.match * (int64_t)c.m - o.mismatch * (int64_t)c.x - o.indel * (int64_t)c.g,
              "it %d: counts do not give the score", it);
        CHECK(c.m + c.x <= L && L - c.m - c.x <= c.g, "it %d: counts do not fit the text", it);
    }
    case_end("approx_score_brute");
}

/* apx_score_on going on from its saved rows, in up to four steps with other
 * alignments in the same scratch between them, against the score of the whole:
 * brute force for short motifs, apx_score_only for band rows (p >= APX_BAND_FROM)
 * and for a match of millions, whose rows are lowered on the way (APX_REBASE; the
 * brute force's motif is too short for the deletions such a match pays for);
 * rows saved for another motif or a longer text are not taken. */
static void test_score_on(void)
{
    case_begin();
    rng_t r = rng_new(29);
    apx_work_t w = {0};
    static uint8_t u[4000], C[600], D[600];
    for (int it = 0; it < check_iters(1500) && !check_failed_; it++) {
        uint64_t p, L;
        rv_approx_opts_t o;
        const int band = it % 4 == 3, big = it % 4 == 1;
        if (!band) {
            random_case(&r, it, u, C, &p, &L, &o);
            if (big) o.match = 20000000 + (int)rng_below(&r, 5); /* rows lowered (APX_REBASE) on the way */
        } else { /* a long motif's diverged copies */
            rv_approx_opts_init(&o);
            p = APX_BAND_FROM + rng_below(&r, 200), L = rng_below(&r, 4 * p);
            for (uint64_t c = 0; c < p; c++) C[c] = (uint8_t)(1 + rng_below(&r, 4));
            for (uint64_t i = 0; i < L; i++) u[i] = rng_below(&r, 6) ? C[i % p] : (uint8_t)(1 + rng_below(&r, 4));
        }
        for (uint64_t c = 0; c < p; c++) D[c] = (uint8_t)(1 + (C[c] % 4)); /* another motif */
        CHECK(apx_reserve(&w, p) == 0, "reserve");
        const int64_t want = band || big ? apx_score_only(&w, u, L, C, p, 0, &o) : brute_score(u, L, C, p, 0, &o);
        apx_rows_t sv = {0};
        const int steps = 1 + (int)rng_below(&r, 4);
        uint64_t at = 0;
        int64_t got = INT64_MIN;
        for (int k = 0; k < steps; k++) {
            at = k + 1 == steps ? L : at + rng_below(&r, L - at + 1);
            got = apx_score_on(&w, u, at, C, p, &o, &sv);
            if (rng_below(&r, 2)) (void)apx_score_only(&w, u, L, D, p, 1, &o); /* the scratch used between */
        }
        CHECK(got == want, "it %d (%s) p %llu L %llu in %d steps: %lld, want %lld", it, band ? "band" : "full",
              (unsigned long long)p, (unsigned long long)L, steps, (long long)got, (long long)want);
        if (L > 0) { /* saved after all of u: a shorter text starts afresh */
            const int64_t w2 = apx_score_on(&w, u, L - 1, C, p, &o, &sv);
            CHECK(w2 == apx_score_only(&w, u, L - 1, C, p, 0, &o), "it %d: shorter text %lld", it, (long long)w2);
        }
        if (p > 1) { /* saved for p symbols: another period starts afresh */
            const int64_t w3 = apx_score_on(&w, u, L, C, p - 1, &o, &sv);
            CHECK(w3 == apx_score_only(&w, u, L, C, p - 1, 0, &o), "it %d: other period %lld", it, (long long)w3);
        }
        free(sv.row);
    }
    apx_work_free(&w);
    case_end("approx_score_on");
}

/* The AVX2 steps (apx_simd) against the SSE2 ones, cell for cell: scores from phase 0
 * and from any phase (full rows narrowed to a band past APX_BAND_FROM), full-row
 * scores of long motifs, extensions right and left (length, phase and score of the
 * best end), and through the traced rows the consensus of the copies and the copies'
 * starts with their counts (not with a huge match: those rows are never lowered), over
 * full rows of 16 to 256 cells and band rows, with motifs of up to 4 symbols or of 20,
 * copies mutated or noise, random weights in every other case and, in some, a match
 * weight that makes the extension lower its rows (APX_REBASE); short ones against
 * brute force too.  Skipped where the CPU has no AVX2 or REPVIEW_SIMD keeps it off. */
static void test_simd(void)
{
    if (!apx_simd_set(1)) {
        printf("SKIP approx_simd: no AVX2 (the CPU has none, or REPVIEW_SIMD=sse2)\n");
        return;
    }
    case_begin();
    rng_t r = rng_new(41);
    apx_work_t w = {0};
    static uint8_t u[4000], C[700], R[700];
    for (int it = 0; it < check_iters(1200) && !check_failed_; it++) {
        rv_approx_opts_t o;
        rv_approx_opts_init(&o);
        const int kind = it % 3;
        const uint64_t sig = it % 5 == 4 ? 20 : 1 + rng_below(&r, 4);
        const uint64_t p = kind == 0 ? 16 + rng_below(&r, 49) : kind == 1 ? 65 + rng_below(&r, 192)
                                                                          : APX_BAND_FROM + rng_below(&r, 300);
        const uint64_t L = rng_below(&r, kind == 0 ? 300 : 6 * p);
        for (uint64_t c = 0; c < p; c++) C[c] = (uint8_t)(1 + rng_below(&r, sig));
        const int noise = it % 7 == 0;
        for (uint64_t i = 0; i < L; i++)
            u[i] = !noise && rng_below(&r, 6) ? C[i % p] : (uint8_t)(1 + rng_below(&r, sig));
        if (it % 2) o.match = 1 + (int)rng_below(&r, 3), o.mismatch = 1 + (int)rng_below(&r, 8),
                    o.indel = 1 + (int)rng_below(&r, 8);
        if (it % 11 == 5) o.match = 20000000;
        for (uint64_t c = 0; c < p; c++) R[c] = C[p - 1 - c];
        CHECK(apx_reserve(&w, p) == 0, "reserve");
        const uint64_t phase = rng_below(&r, p), min_len = L ? rng_below(&r, L + 1) : 0;
        int64_t s[2][3];
        apx_end_t e[2][2];
        static uint8_t cons[2][2 * 700 + 8];
        static uint64_t st[2][64];
        uint64_t pc[2] = {0, 0}, nst[2] = {0, 0};
        rv_approx_cell_t cell[2];
        for (int on = 0; on < 2; on++) {
            apx_simd_set(on);
            s[on][0] = apx_score_only(&w, u, L, C, p, 0, &o);
            CHECK(apx_simd() == on, "the AVX2 steps are %s", on ? "off" : "on");
            s[on][1] = apx_score_only(&w, u, L, C, p, 1, &o);
            s[on][2] = kind == 2 ? apx_score_full(&w, u, L, C, p, &o) : 0; /* full rows past APX_BAND_FROM */
            CHECK(apx_extend(&w, u, 0, L, 1, C, p, phase, min_len, &o, &e[on][0]) == 0, "extend");
            CHECK(apx_extend(&w, u, L, L, -1, R, p, phase, min_len, &o, &e[on][1]) == 0, "extend");
            /* the traced rows: the consensus of the copies and the copies' starts */
            CHECK(apx_consensus(&w, u, L, C, p, (int)sig, 2 * p, &o, cons[on], &pc[on]) == 0, "consensus");
            if (o.match < 100) /* its rows are never lowered: a huge match would overflow them */
                CHECK(rv_approx_copies(u, L, C, p, &o, st[on], 64, &nst[on], &cell[on]) == 0, "copies");
            else
                cell[on] = (rv_approx_cell_t){0, 0, 0, 0};
        }
        CHECK(pc[0] == pc[1] && !memcmp(cons[0], cons[1], pc[0]), "it %d p %llu L %llu: consensus of %llu (SSE2), %llu (AVX2) symbols",
              it, (unsigned long long)p, (unsigned long long)L, (unsigned long long)pc[0], (unsigned long long)pc[1]);
        CHECK(nst[0] == nst[1] && !memcmp(st[0], st[1], (nst[0] < 64 ? nst[0] : 64) * sizeof st[0][0]) &&
                  cell[0].s == cell[1].s && cell[0].m == cell[1].m && cell[0].x == cell[1].x && cell[0].g == cell[1].g,
              "it %d p %llu L %llu: copies %llu (SSE2), %llu (AVX2)", it, (unsigned long long)p, (unsigned long long)L,
              (unsigned long long)nst[0], (unsigned long long)nst[1]);
        CHECK(s[0][0] == s[1][0] && s[0][1] == s[1][1] && s[0][2] == s[1][2],
              "it %d p %llu L %llu: scores %lld %lld %lld (SSE2) %lld %lld %lld (AVX2)", it, (unsigned long long)p,
              (unsigned long long)L, (long long)s[0][0], (long long)s[0][1], (long long)s[0][2], (long long)s[1][0],
              (long long)s[1][1], (long long)s[1][2]);
        for (int k = 0; k < 2; k++)
            CHECK(e[0][k].len == e[1][k].len && e[0][k].phase == e[1][k].phase && e[0][k].score == e[1][k].score,
                  "it %d p %llu L %llu %s: len %llu phase %llu score %lld (SSE2), %llu %llu %lld (AVX2)", it,
                  (unsigned long long)p, (unsigned long long)L, k ? "left" : "right",
                  (unsigned long long)e[0][k].len, (unsigned long long)e[0][k].phase, (long long)e[0][k].score,
                  (unsigned long long)e[1][k].len, (unsigned long long)e[1][k].phase, (long long)e[1][k].score);
        if (kind == 0 && o.match < 100) {
            const int64_t want = brute_score(u, L, C, p, 0, &o);
            CHECK(s[1][0] == want, "it %d p %llu L %llu: %lld, brute %lld", it, (unsigned long long)p,
                  (unsigned long long)L, (long long)s[1][0], (long long)want);
        }
    }
    apx_simd_set(1);
    apx_work_free(&w);
    case_end("approx_simd");
}

/* apx_rest_scores against brute force: the copies after the first (the best
 * score of u[p, L) from any phase) score at least the whole's score less match * p,
 * and the test answers whether they score min_score / 4, given the whole's score
 * or any lower bound of it. */
static void test_rest(void)
{
    case_begin();
    rng_t r = rng_new(23);
    apx_work_t w = {0};
    for (int it = 0; it < check_iters(2000) && !check_failed_; it++) {
        uint8_t u[120], C[40];
        uint64_t p, L;
        rv_approx_opts_t o;
        random_case(&r, it, u, C, &p, &L, &o);
        if (L <= p) continue;
        o.min_score = 1 + (int64_t)rng_below(&r, 40);
        const int64_t whole = brute_score(u, L, C, p, 0, &o);
        int64_t rest = INT64_MIN;
        for (uint64_t rot = 0; rot < p; rot++) {
            const int64_t v = brute_score(u + p, L - p, C, p, rot, &o);
            rest = v > rest ? v : rest;
        }
        CHECK(rest >= whole - o.match * (int64_t)p, "it %d: rest %lld, whole %lld, p %llu", it, (long long)rest,
              (long long)whole, (unsigned long long)p);
        CHECK(apx_reserve(&w, p) == 0, "reserve");
        const int64_t lower = whole - (int64_t)rng_below(&r, 20);
        CHECK(apx_rest_scores(&w, u, L, C, p, lower, &o) == (4 * rest >= o.min_score),
              "it %d: rest %lld, min %lld: rest_scores says %d", it, (long long)rest, (long long)o.min_score,
              apx_rest_scores(&w, u, L, C, p, lower, &o));
    }
    apx_work_free(&w);
    case_end("approx_rest_brute");
}

/* the end-to-end alignment of x[0, n) with y[0, n) on the diagonals |i - j| <= B:
 * a plain DP over every cell, the ones off the band unreachable (score, then
 * matches, then columns: the engine keeps the first best move of diagonal, up,
 * left, so only the score is compared with it) */
static apx_pair_t brute_adjacent(const uint8_t *x, const uint8_t *y, uint64_t n, uint64_t B, const rv_approx_opts_t *o)
{
    static apx_pair_t D[MAXL + 1][MAXL + 1];
    const int64_t neg = INT64_MIN / 4;
    for (uint64_t i = 0; i <= n; i++)
        for (uint64_t j = 0; j <= n; j++) {
            apx_pair_t b = {neg, 0, 0};
            const uint64_t off = i > j ? i - j : j - i;
            if (off <= B) {
                if (i == 0 && j == 0) b = (apx_pair_t){0, 0, 0};
                if (i && j && D[i - 1][j - 1].score > neg) {
                    const int eq = x[i - 1] == y[j - 1];
                    const int64_t v = D[i - 1][j - 1].score + (eq ? o->match : -(int64_t)o->mismatch);
                    if (v > b.score) b = (apx_pair_t){v, D[i - 1][j - 1].matches + eq, D[i - 1][j - 1].cols + 1};
                }
                if (i && D[i - 1][j].score > neg && D[i - 1][j].score - o->indel > b.score)
                    b = (apx_pair_t){D[i - 1][j].score - o->indel, D[i - 1][j].matches, D[i - 1][j].cols + 1};
                if (j && D[i][j - 1].score > neg && D[i][j - 1].score - o->indel > b.score)
                    b = (apx_pair_t){D[i][j - 1].score - o->indel, D[i][j - 1].matches, D[i][j - 1].cols + 1};
            }
            D[i][j] = b;
        }
    return D[n][n];
}

/* apx_adjacent against brute force: its score is the best of the band's, and its
 * counts fit an alignment of that score (matches and columns consistent). */
static void test_adjacent(void)
{
    case_begin();
    rng_t r = rng_new(31);
    static uint8_t u[2 * MAXL];
    for (int it = 0; it < check_iters(3000) && !check_failed_; it++) {
        uint8_t C[40];
        uint64_t p, L;
        rv_approx_opts_t o;
        random_case(&r, it, u, C, &p, &L, &o);
        if (it % 5 == 4) { /* long, to reach past the band: copies with indels */
            p = 1 + rng_below(&r, 300), L = p + rng_below(&r, MAXL - 60 - p);
            for (uint64_t i = 0; i < L; i++) u[i] = i < p || rng_below(&r, 8) == 0 ? (uint8_t)(1 + rng_below(&r, 4)) : u[i - p];
            const int ins = (int)rng_below(&r, 2), n_indel = (int)rng_below(&r, 48);
            for (int k = 0; k < n_indel; k++) { /* indels of one kind shift the copy, past the band too */
                const uint64_t at = p + rng_below(&r, L - p + 1);
                if (ins && L + 1 < MAXL) memmove(u + at + 1, u + at, L - at), u[at] = 1, L++;
                else if (!ins && at < L && L > p + 1) memmove(u + at, u + at + 1, L - at - 1), L--;
            }
        }
        if (L <= p) continue;
        apx_pair_t got;
        CHECK(apx_adjacent(u, L, p, &o, &got) == 0, "adjacent");
        const apx_pair_t want = brute_adjacent(u, u + p, L - p, 32 + p / 32, &o);
        CHECK(got.score == want.score, "it %d L %llu p %llu: score %lld, brute %lld", it, (unsigned long long)L,
              (unsigned long long)p, (long long)got.score, (long long)want.score);
        CHECK(got.matches <= got.cols && got.cols >= L - p && got.cols <= 2 * (L - p) &&
                  (int64_t)got.matches * o.match - (int64_t)(got.cols - got.matches) * (o.mismatch > o.indel ? o.mismatch : o.indel) <= got.score,
              "it %d: counts %llu of %llu do not fit the score %lld", it, (unsigned long long)got.matches,
              (unsigned long long)got.cols, (long long)got.score);
    }
    case_end("approx_adjacent_brute");
}

/* The copies of the best alignment: its score and counts are the brute-force best
 * score's, and the copies start at 0, in order, inside the text, one per pass of
 * the motif's first letter (at most L / 1 + 1 of them). */
static void test_copies(void)
{
    case_begin();
    rng_t r = rng_new(29);
    rv_approx_opts_t o;
    rv_approx_opts_init(&o);
    for (int it = 0; it < check_iters(3000); it++) {
        uint8_t u[120], C[40];
        uint64_t st[130], n, p, L;
        random_case(&r, it, u, C, &p, &L, &o);
        rv_approx_cell_t c;
        CHECK(rv_approx_copies(u, L, C, p, &o, st, 130, &n, &c) == 0, "copies failed");
        const int64_t want = brute_score(u, L, C, p, 0, &o);
        CHECK(c.s == want, "it %d L %llu p %llu: path score %lld, brute %lld", it, (unsigned long long)L,
              (unsigned long long)p, (long long)c.s, (long long)want);
        CHECK(c.m + c.x <= L && L - c.m - c.x <= c.g, "it %d: counts do not fit the text", it);
        CHECK(n >= 1 && st[0] == 0, "it %d: the first copy does not start at 0", it);
        for (uint64_t k = 1; k < n; k++)
            CHECK(st[k - 1] <= st[k] && st[k] < L, "it %d: copy %llu starts at %llu after %llu", it,
                  (unsigned long long)k, (unsigned long long)st[k], (unsigned long long)st[k - 1]);
        /* each copy but the last reads at most p + its gaps symbols: the path is
         * one pass of the motif per copy */
        CHECK(n <= (c.m + c.x + c.g) / p + 2, "it %d: %llu copies for %llu columns of a motif of %llu", it,
              (unsigned long long)n, (unsigned long long)(c.m + c.x + c.g), (unsigned long long)p);
    }
    case_end("approx_copies_brute");
}

/* ---- loci --------------------------------------------------------------------- */

typedef struct { uint64_t start, end, p; uint8_t motif[64]; } plant_t;

/* A record of `kind` (as random_seq.h's kinds) with approximate repeats planted
 * (kinds 0-3): a motif of 1..40 letters, 3..8 copies, a substitution or indel every
 * ~3/rate symbols (rate 20..59).  Plants are given in global coordinates. */
static size_t make_record(rng_t *r, int kind, char *buf, size_t len, size_t goff, plant_t *pl, int *npl)
{
    static const char *const letters[] = {"ACGT", "AC", "ACDEFGHIKLMNPQRSTVWY", "abcdefghij"};
    size_t n = 0, period = 1 + rng_below(r, 6);
    while (n < len) {
        if (kind < 4 && rng_below(r, 3) == 0 && *npl < 8) { /* a planted repeat */
            const char *al = letters[kind];
            const size_t sig = strlen(al), p = 1 + rng_below(r, 40), copies = 3 + rng_below(r, 6);
            char motif[64];
            for (size_t c = 0; c < p; c++) motif[c] = al[rng_below(r, sig)];
            const size_t s0 = n, rate = 20 + rng_below(r, 40);
            for (size_t k = 0; k < p * copies && n < len; k++) {
                char ch = motif[k % p];
                const uint64_t e = rng_below(r, rate);
                if (e == 0) ch = al[rng_below(r, sig)];               /* substitution */
                else if (e == 1) continue;                             /* deletion */
                else if (e == 2 && n + 1 < len) buf[n++] = al[rng_below(r, sig)]; /* insertion */
                buf[n++] = ch;
            }
            pl[*npl] = (plant_t){goff + s0, goff + n, p, {0}};
            for (size_t c = 0; c < p; c++) pl[*npl].motif[c] = (uint8_t)motif[c];
            (*npl)++;
            continue;
        }
        switch (kind) { /* background */
        case 0: buf[n] = rng_below(r, 15) == 0 ? 'N' : "ACGT"[rng_below(r, 4)]; break;
        case 1: buf[n] = rng_below(r, 25) == 0 ? 'N' : "AC"[rng_below(r, 2)]; break;
        case 2: buf[n] = "ACDEFGHIKLMNPQRSTVWYX"[rng_below(r, 21)]; break;
        case 3: buf[n] = "abcdefghij "[rng_below(r, 11)]; break;
        case 4: buf[n] = n < period ? "ACGT"[rng_below(r, 4)] : buf[n - period];
                if (rng_below(r, 40) == 0) buf[n] = rng_below(r, 2) ? 'N' : 'G';
                break;
        default: buf[n] = 'A'; break;
        }
        n++;
    }
    buf[n] = 0;
    return n;
}

static const rv_alpha_t alpha_of[6] = {RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_PROTEIN, RV_ALPHA_TEXT, RV_ALPHA_DNA,
                                       RV_ALPHA_DNA};

/* every property of the header comment for one set of loci */
static void check_loci(const rv_seq_t *s, const rv_approx_set_t *a, const rv_approx_opts_t *o, const rv_run_t *runs,
                       uint64_t n_runs, const plant_t *pl, int npl, const char *what)
{
    const uint8_t *u = s->text;
    for (uint64_t k = 0; k < a->n && !check_failed_; k++) {
        const rv_approx_t *l = &a->v[k];
        const uint8_t *C = a->motifs + l->motif;
        CHECK(l->start < l->end && l->end <= s->n && l->period >= 1 && l->period <= o->max_period,
              "%s: locus %llu bad bounds", what, (unsigned long long)k);
        if (check_failed_) break;
        for (uint64_t i = l->start; i < l->end; i++) CHECK(u[i] != RV_BREAK, "%s: a breaker inside a locus", what);
        for (uint64_t c = 0; c < l->period; c++) CHECK(C[c] >= 1 && C[c] <= s->sigma, "%s: motif code", what);
        if (k) {
            const rv_approx_t *q = &a->v[k - 1];
            CHECK(q->start < l->start || (q->start == l->start && q->period <= l->period), "%s: order", what);
        }
        const int64_t want = brute_score(u + l->start, l->end - l->start, C, l->period, 0, o);
        CHECK(l->score == want && l->score >= o->min_score, "%s: locus [%llu,%llu) p %llu score %lld, brute %lld",
              what, (unsigned long long)l->start, (unsigned long long)l->end, (unsigned long long)l->period,
              (long long)l->score, (long long)want);
        CHECK(l->score == o->match * (int64_t)l->matches - o->mismatch * (int64_t)l->mismatches -
                              o->indel * (int64_t)l->indels,
              "%s: counts do not give the score", what);
        int64_t rest = INT64_MIN;
        for (uint64_t rot = 0; rot < l->period && l->end - l->start > l->period; rot++) {
            const int64_t v = brute_score(u + l->start + l->period, l->end - l->start - l->period, C, l->period, rot, o);
            rest = v > rest ? v : rest;
        }
        CHECK(4 * rest >= o->min_score, "%s: the copies after the first score %lld", what, (long long)rest);
        const uint64_t len = l->end - l->start;
        if (10 * len < 25 * l->period) { /* few copies: they match their neighbours, or imply an ancestor that scores */
            apx_pair_t c = {0}; /* the best shift within a tenth of the period, 8 at most */
            const uint64_t off = l->period / 10 < 8 ? l->period / 10 : 8;
            for (uint64_t q = l->period - off; q <= l->period + off && q < len; q++) {
                const apx_pair_t x = brute_adjacent(u + l->start, u + l->start + q, len - q, 32 + q / 32, o);
                if (!c.cols || (x.cols && x.matches * c.cols > c.matches * x.cols)) c = x;
            }
            const double pid = c.cols ? (double)c.matches / (double)c.cols : 1,
                         low = pid - (c.cols ? sqrt(pid * (1 - pid) / (double)c.cols) : 0), q = low > 0 ? sqrt(low) : 0;
            uint64_t run = 0, longest = 0; /* an exact run of period p that scores alone */
            for (uint64_t i = l->start; i + l->period < l->end; i++) {
                run = u[i] == u[i + l->period] ? run + 1 : 0;
                if (run >= l->period && (int64_t)(run + l->period) * o->match >= o->min_score) longest = run;
            }
            CHECK(longest || 100 * c.matches >= 75 * c.cols ||
                      (double)len * (o->match * q - o->mismatch * (1 - q)) >= (double)o->min_score,
                  "%s: locus [%llu,%llu) p %llu of few copies, %llu of %llu columns match", what,
                  (unsigned long long)l->start, (unsigned long long)l->end, (unsigned long long)l->period,
                  (unsigned long long)c.matches, (unsigned long long)c.cols);
        }
        const double id = rv_approx_identity(l);
        CHECK(id >= 0 && id <= 100, "%s: identity %f", what, id);
    }
    for (uint64_t k = 0; k < n_runs && !check_failed_; k++) { /* exact runs that score enough alone */
        const rv_run_t *e = &runs[k];
        if (e->period > o->max_period || (int64_t)(e->end - e->start) * o->match < o->min_score) continue;
        int in = 0;
        for (uint64_t j = 0; j < a->n && !in; j++) in = a->v[j].start <= e->start && e->end <= a->v[j].end;
        CHECK(in, "%s: exact run [%llu,%llu) p %llu in no locus", what, (unsigned long long)e->start,
              (unsigned long long)e->end, (unsigned long long)e->period);
    }
    for (int k = 0; k < npl && !check_failed_; k++) { /* strong planted repeats */
        const int64_t t0 = rv_seq_global_to_text(s, pl[k].start);
        uint8_t codes[64];
        for (uint64_t c = 0; c < pl[k].p; c++) codes[c] = rv_alpha_code(s->alpha, pl[k].motif[c]);
        int clean = t0 >= 0 && pl[k].p <= o->max_period;
        for (uint64_t c = 0; c < pl[k].p && clean; c++) clean = codes[c] != RV_BREAK;
        for (uint64_t g = pl[k].start; g < pl[k].end && clean; g++) clean = rv_seq_global_to_text(s, g) == t0 + (int64_t)(g - pl[k].start);
        if (!clean) continue;
        const uint64_t len = pl[k].end - pl[k].start;
        if (len <= 2 * pl[k].p || brute_score(u + t0, len, codes, pl[k].p, 0, o) < 2 * o->min_score) continue;
        int64_t rest = INT64_MIN; /* the copies after the first too */
        for (uint64_t rot = 0; rot < pl[k].p; rot++) {
            const int64_t v = brute_score(u + t0 + pl[k].p, len - pl[k].p, codes, pl[k].p, rot, o);
            rest = v > rest ? v : rest;
        }
        if (rest < 2 * o->min_score) continue;
        uint64_t best = 0; /* symbols of the plant that loci cover */
        for (uint64_t i = (uint64_t)t0; i < t0 + len; i++) {
            int in = 0;
            for (uint64_t j = 0; j < a->n && !in; j++) in = a->v[j].start <= i && i < a->v[j].end;
            best += (uint64_t)in;
        }
        if (2 * best < len && getenv("APX_TEST_DEBUG")) {
            fprintf(stderr, "motif %.*s min %lld maxp %llu\n", (int)pl[k].p, (const char *)pl[k].motif, (long long)o->min_score, (unsigned long long)o->max_period);
            for (uint64_t i = 0; i < len; i++) fputc(rv_alpha_letter(s->alpha, u[t0 + i]), stderr);
            fputc('\n', stderr);
            for (uint64_t j = 0; j < a->n; j++) fprintf(stderr, "locus %llu %llu p %llu s %lld\n", (unsigned long long)a->v[j].start, (unsigned long long)a->v[j].end, (unsigned long long)a->v[j].period, (long long)a->v[j].score);
        }
        CHECK(2 * best >= len, "%s: planted repeat [%lld,+%llu) p %llu: overlap %llu", what, (long long)t0,
              (unsigned long long)len, (unsigned long long)pl[k].p, (unsigned long long)best);
    }
}

static int same_loci(const rv_approx_set_t *a, const rv_approx_set_t *b)
{
    if (a->n != b->n) return 0;
    for (uint64_t k = 0; k < a->n; k++) {
        const rv_approx_t *x = &a->v[k], *y = &b->v[k];
        if (x->start != y->start || x->end != y->end || x->period != y->period || x->score != y->score ||
            memcmp(a->motifs + x->motif, b->motifs + y->motif, x->period))
            return 0;
    }
    return 1;
}

static void test_random(void)
{
    static const char *const kinds[] = {"dnaN", "dnaAC", "protein", "text", "periodic", "same"};
    rng_t r = rng_new(29);
    static rv_run_t runs[MAXL * 40];
    for (int kind = 0; kind < 6; kind++) {
        case_begin();
        char name[64];
        snprintf(name, sizeof name, "approx_random_%s", kinds[kind]);
        for (int it = 0; it < check_iters(60) && !check_failed_; it++) {
            static char bufs[3][MAXL + 64];
            plant_t pl[8];
            int npl = 0;
            const int nrec = 1 + (int)rng_below(&r, 3);
            const char *names[3] = {"r1", "r2", "r3"}, *seqs[3];
            size_t goff = 0;
            for (int i = 0; i < nrec; i++) {
                goff += make_record(&r, kind, bufs[i], 1 + rng_below(&r, MAXL / (size_t)nrec), goff, pl, &npl);
                seqs[i] = bufs[i];
            }
            rv_seq_t *s = rv_seq_from_records(names, seqs, nrec, alpha_of[kind]);
            CHECK(s != NULL, "sequence");
            if (!s) break;
            rv_approx_opts_t o;
            rv_approx_opts_init(&o);
            o.max_period = it % 4 == 0 ? 500 : 1 + rng_below(&r, 60);
            if (it % 3 == 1) o.min_score = 20 + (int64_t)rng_below(&r, 60);
            const uint64_t n_runs = brute_runs(s->text, s->n, runs, sizeof runs / sizeof *runs);
            const uint64_t pieces[] = {0, 1 + rng_below(&r, 200)};
            for (int pk = 0; pk < 2 && !check_failed_; pk++) {
                rv_approx_set_t first = {0};
                for (int th = 1; th <= 3 && !check_failed_; th++) {
                    rv_approx_set_t a;
                    CHECK(apx_find(s, 0, s->n, NULL, 0, &o, th, pieces[pk], &a) == 0, "find: %s",
                          rv_last_error());
                    char what[96];
                    snprintf(what, sizeof what, "it %d t %d piece %llu", it, th, (unsigned long long)pieces[pk]);
                    check_loci(s, &a, &o, runs, n_runs, pl, npl, what);
                    if (th == 1) {
                        first = a;
                        continue;
                    }
                    CHECK(same_loci(&first, &a), "%s: not the loci of 1 thread", what);
                    rv_approx_free(&a);
                }
                if (!check_failed_) { /* min_copies: the loci with that many copies, the same */
                    rv_approx_opts_t oc = o;
                    oc.min_copies = 1.0 + (double)rng_below(&r, 30) / 10.0;
                    rv_approx_set_t a, want = first;
                    CHECK(apx_find(s, 0, s->n, NULL, 0, &oc, 2, pieces[pk], &a) == 0, "find: %s", rv_last_error());
                    want.n = 0;
                    want.v = malloc((first.n ? first.n : 1) * sizeof *want.v);
                    for (uint64_t k = 0; k < first.n; k++)
                        if ((double)(first.v[k].end - first.v[k].start) >= oc.min_copies * (double)first.v[k].period)
                            want.v[want.n++] = first.v[k];
                    CHECK(same_loci(&want, &a), "it %d piece %llu: min_copies %.1f gives %llu loci, %llu want",
                          it, (unsigned long long)pieces[pk], oc.min_copies, (unsigned long long)a.n,
                          (unsigned long long)want.n);
                    free(want.v);
                    rv_approx_free(&a);
                }
                rv_approx_free(&first);
            }
            rv_seq_free(s);
        }
        case_end(name);
    }
}

/* Exact runs of period p = m q + e whose motif is m copies of a unit of q
 * symbols and e symbols more (TTPP TTPP T: period 9 reading as period 4): most of
 * their k-mers recur q or q + e back, so the occurrence one period back is not
 * the last one, and a locus at a multiple of p may take them in and then hold
 * too few copies to be kept.  With min_score just below the run's score, every
 * such run of 2p + 1 symbols, in random text of several alphabets, lies inside
 * a locus. */
static void test_shadowed(void)
{
    case_begin();
    rng_t r = rng_new(37);
    static const char *const letters[] = {"ACGT", "AC", "ACDEFGHIKLMNPQRSTVWY", "abcdefghij"};
    static const rv_alpha_t alpha[] = {RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_PROTEIN, RV_ALPHA_TEXT};
    for (int it = 0; it < check_iters(400) && !check_failed_; it++) {
        const int kind = it % 4;
        const char *al = letters[kind];
        const uint64_t sig = strlen(al), q = 2 + rng_below(&r, 5), m = 2 + rng_below(&r, 3), e = 1 + rng_below(&r, 3);
        const uint64_t p = m * q + e, len = 2 * p + 1, pre = 20 + rng_below(&r, 80);
        char M[64], rec[400];
        for (uint64_t c = 0; c < q; c++) M[c] = al[rng_below(&r, sig)];
        for (uint64_t c = q; c < m * q; c++) M[c] = M[c - q];
        for (uint64_t c = m * q; c < p; c++) M[c] = al[rng_below(&r, sig)];
        uint64_t n = 0;
        for (; n < pre; n++) rec[n] = al[rng_below(&r, sig)];
        for (uint64_t c = 0; c < len; c++) rec[n++] = M[c % p];
        for (uint64_t c = 0; c < 60; c++) rec[n++] = al[rng_below(&r, sig)];
        rec[n] = 0;
        const char *names[1] = {"run"}, *seqs[1] = {rec};
        rv_seq_t *s = rv_seq_from_records(names, seqs, 1, alpha[kind]);
        CHECK(s != NULL, "sequence");
        if (!s) break;
        rv_approx_opts_t o;
        rv_approx_opts_init(&o);
        o.min_score = o.match * (int64_t)len - 1;
        o.max_period = 60;
        /* the run at its widest: the background may extend it */
        uint64_t i = pre, j = pre + len;
        while (i > 0 && s->text[i - 1] == s->text[i - 1 + p]) i--;
        while (j < s->n && s->text[j] == s->text[j - p]) j++;
        rv_approx_set_t a;
        CHECK(apx_find(s, 0, s->n, NULL, 0, &o, 1, 0, &a) == 0, "find: %s", rv_last_error());
        int in = 0;
        for (uint64_t k = 0; k < a.n && !in; k++) in = a.v[k].start <= i && j <= a.v[k].end;
        CHECK(in, "it %d: run [%llu,%llu) of period %llu (%llu x %llu + %llu) in no locus", it,
              (unsigned long long)i, (unsigned long long)j, (unsigned long long)p, (unsigned long long)m,
              (unsigned long long)q, (unsigned long long)e);
        rv_approx_free(&a);
        rv_seq_free(s);
    }
    case_end("approx_shadowed_runs");
}

/* arr[0, L), an array of period p, between random DNA (100 to 199 symbols before
 * it, 150 after): 1 when a locus of rv_approx_find covers half of it or more at
 * a period within slack or a tenth of p, 0 when none does, -1 on failure. */
static int planted_found(rng_t *r, const char *arr, uint64_t L, uint64_t p, const rv_approx_opts_t *o,
                         uint64_t slack)
{
    static char rec[700];
    const uint64_t pre = 100 + rng_below(r, 100);
    for (uint64_t i = 0; i < pre; i++) rec[i] = "ACGT"[rng_below(r, 4)];
    memcpy(rec + pre, arr, L);
    for (uint64_t i = pre + L; i < pre + L + 150; i++) rec[i] = "ACGT"[rng_below(r, 4)];
    rec[pre + L + 150] = 0;
    const char *names[1] = {"planted"}, *seqs[1] = {rec};
    rv_seq_t *sq = rv_seq_from_records(names, seqs, 1, RV_ALPHA_DNA);
    if (!sq) return -1;
    rv_approx_set_t a;
    if (apx_find(sq, 0, sq->n, NULL, 0, o, 1, 0, &a) < 0) {
        rv_seq_free(sq);
        return -1;
    }
    int found = 0;
    for (uint64_t i = 0; i < a.n && !found; i++) {
        const uint64_t lo = a.v[i].start > pre ? a.v[i].start : pre;
        const uint64_t hi = a.v[i].end < pre + L ? a.v[i].end : pre + L;
        const uint64_t off = a.v[i].period > p ? a.v[i].period - p : p - a.v[i].period;
        found = hi > lo && 2 * (hi - lo) >= L && (off <= slack || 10 * off <= p);
    }
    rv_approx_free(&a);
    rv_seq_free(sq);
    return found;
}

/* Arrays of 2.3-3.3 copies of a motif of 4..20 symbols with one to three
 * substitutions or indels, whose motif scores min_score to min_score + 8 over
 * them while no stretch of p symbols of the array does (the motif is a
 * consensus no copy spells), in random DNA: 90% or more must be found, a locus
 * over half the array at a period within 2 or a tenth of p (an indel moves the
 * period that reads best).  The misses are arrays whose copies share too few
 * k-mers to seed.  Near the threshold the majority of two or three copies often
 * ties; the search then edits its motif towards the copies (seeds 1-9 and 31:
 * 110-117 of 120 found, 107-115 without the edits). */
static void test_near(void)
{
    case_begin();
    rng_t r = rng_new(31);
    rv_approx_opts_t o;
    rv_approx_opts_init(&o);
    int cases = 0, found = 0;
    for (int it = 0; it < 40000 && cases < check_iters(120); it++) {
        char C[24], arr[80];
        const uint64_t p = 4 + rng_below(&r, 17);
        for (uint64_t c = 0; c < p; c++) C[c] = "ACGT"[rng_below(&r, 4)];
        uint64_t q = 1; /* C's smallest period must be p */
        while (q < p) {
            uint64_t c = q;
            while (c < p && C[c] == C[c - q]) c++;
            if (c == p && p % q == 0) break;
            q++;
        }
        if (q < p) continue;
        const uint64_t want = (23 + rng_below(&r, 11)) * p / 10;
        const int edits = 1 + (int)rng_below(&r, 3);
        uint64_t L = 0;
        for (uint64_t k = 0; L < want && L + 2 < sizeof arr; k++) {
            char ch = C[k % p];
            if ((int)rng_below(&r, (uint32_t)want) < edits) {
                const uint64_t e = rng_below(&r, 3);
                if (e == 1) continue; /* deletion */
                if (e == 0) ch = "ACGT"[rng_below(&r, 4)];
                else arr[L++] = "ACGT"[rng_below(&r, 4)];
            }
            arr[L++] = ch;
        }
        const int64_t sc = brute_score((const uint8_t *)arr, L, (const uint8_t *)C, p, 0, &o);
        if (sc < o.min_score || sc > o.min_score + 8) continue;
        int64_t own = INT64_MIN;
        for (uint64_t i = 0; i + p <= L; i++) {
            const int64_t v = brute_score((const uint8_t *)arr, L, (const uint8_t *)arr + i, p, (p - i % p) % p, &o);
            own = v > own ? v : own;
        }
        if (own >= o.min_score) continue;
        const int f = planted_found(&r, arr, L, p, &o, 2);
        CHECK(f >= 0, "find: %s", rv_last_error());
        if (f < 0) break;
        cases++, found += f;
    }
    CHECK(cases >= check_iters(120) / 2, "only %d near-threshold arrays made", cases);
    CHECK(10 * found >= 9 * cases, "%d of %d near-threshold arrays found", found, cases);
    case_end("approx_near_threshold");
}

/* Two and a bit copies of a motif of 12 to 32 symbols whose second copy differs
 * from the first in one symbol of every six (85% identity, score >= min_score
 * against the motif): the copies share no 6-mer one period apart, so only the
 * 4-mer rows of short distances seed them (near_hit in approx_loci.c).  Nine in
 * ten must lie in a locus of about their period, over half their length. */
static void test_short_diverged(void)
{
    case_begin();
    rng_t r = rng_new(37);
    rv_approx_opts_t o;
    rv_approx_opts_init(&o);
    int cases = 0, found = 0;
    for (int it = 0; it < 20000 && cases < check_iters(150); it++) {
        char C[40], arr[120];
        const uint64_t p = 12 + rng_below(&r, 21);
        for (uint64_t c = 0; c < p; c++) C[c] = "ACGT"[rng_below(&r, 4)];
        uint64_t L = 0;
        for (uint64_t c = 0; c < p; c++) arr[L++] = C[c];
        for (uint64_t c = 0; c < p; c += 6) { /* one change in each six */
            const uint64_t at = c + rng_below(&r, (uint32_t)(p - c < 6 ? p - c : 6));
            for (uint64_t k = c; k < c + 6 && k < p; k++)
                arr[L + k] = k == at ? "ACGT"[(strchr("ACGT", C[k]) - "ACGT" + 1 + rng_below(&r, 3)) % 4] : C[k];
        }
        L += p;
        const uint64_t part = p / 5 + rng_below(&r, (uint32_t)(p / 2));
        for (uint64_t c = 0; c < part; c++) arr[L++] = C[c];
        if (brute_score((const uint8_t *)arr, L, (const uint8_t *)C, p, 0, &o) < o.min_score) continue;
        int shared = 0; /* 6-mers one period apart, the band of a hit included */
        for (uint64_t d = p - 1; d <= p + 1; d++)
            for (uint64_t i = d; i + 6 <= L; i++) shared += !memcmp(arr + i, arr + i - d, 6);
        if (shared > 2) continue;
        const int f = planted_found(&r, arr, L, p, &o, 0);
        CHECK(f >= 0, "find: %s", rv_last_error());
        if (f < 0) break;
        cases++, found += f;
    }
    CHECK(cases >= check_iters(150) / 2, "only %d arrays made", cases);
    CHECK(10 * found >= 9 * cases, "%d of %d arrays found", found, cases);
    case_end("approx_short_diverged");
}

/* An array longer than the stretch a seed's extension reads past its piece
 * (64 k symbols at the default max_period) is found in the pieces it crosses
 * and joined whole by the merge: a satellite of 260 to 360 kb, period 40 to 200,
 * 90-97% identity with indels, in random DNA, cut into pieces of 2^16 symbols
 * (a piece reads 192 k symbols at most: 90% of the array is more). */
static void test_long_array(void)
{
    case_begin();
    rng_t r = rng_new(41);
    static char rec[400000];
    for (int it = 0; it < check_iters(3) && !check_failed_; it++) {
        const uint64_t p = 40 + rng_below(&r, 161), len = 260000 + rng_below(&r, 100001), pre = 5000;
        const uint64_t sub = 3 + rng_below(&r, 8); /* per cent */
        char M[256];
        for (uint64_t c = 0; c < p; c++) M[c] = "ACGT"[rng_below(&r, 4)];
        uint64_t n = 0, c = 0;
        for (; n < pre; n++) rec[n] = "ACGT"[rng_below(&r, 4)];
        while (n < pre + len) {
            const uint64_t x = rng_below(&r, 1000);
            if (x < 10 * sub) rec[n++] = "ACGT"[rng_below(&r, 4)], c++; /* a change */
            else if (x < 10 * sub + 5) rec[n++] = "ACGT"[rng_below(&r, 4)]; /* an insertion */
            else if (x < 10 * sub + 10) c++; /* a deletion */
            else rec[n++] = M[c++ % p];
        }
        for (uint64_t k = 0; k < 5000; k++) rec[n++] = "ACGT"[rng_below(&r, 4)];
        rec[n] = 0;
        const char *names[1] = {"sat"}, *seqs[1] = {rec};
        rv_seq_t *s = rv_seq_from_records(names, seqs, 1, RV_ALPHA_DNA);
        CHECK(s != NULL, "sequence");
        if (!s) break;
        rv_approx_opts_t o;
        rv_approx_opts_init(&o);
        rv_approx_set_t a;
        CHECK(apx_find(s, 0, s->n, NULL, 0, &o, 2, 1u << 16, &a) == 0, "find: %s", rv_last_error());
        uint64_t best = 0;
        for (uint64_t k = 0; k < a.n; k++) {
            const uint64_t st = a.v[k].start > pre ? a.v[k].start : pre,
                           en = a.v[k].end < pre + len ? a.v[k].end : pre + len;
            if (en > st && apx_compatible(a.v[k].period, p) && en - st > best) best = en - st;
        }
        CHECK(10 * best >= 9 * len, "it %d: array of %llu symbols, period %llu, %llu%% changed: %llu in one locus", it,
              (unsigned long long)len, (unsigned long long)p, (unsigned long long)sub, (unsigned long long)best);
        rv_approx_free(&a);
        rv_seq_free(s);
    }
    case_end("approx_long_array");
}

int main(void)
{
    test_score();
    test_rest();
    test_score_on();
    test_simd();
    test_copies();
    test_adjacent();
    test_shadowed();
    test_near();
    test_short_diverged();
    test_long_array();
    test_random();
    return check_exit();
}
