/* approx_align.c — wraparound alignment of text against a repeated motif
 * (approx.h): the extension of a seed with an X-drop, the score of a locus, and
 * the majority consensus of its aligned copies.
 *
 * A DP row holds, for each phase c in [0, p), the best alignment of the text read so
 * far against a prefix of M M M ... whose length is c mod p: the next motif symbol
 * is M[c].  Reading a text symbol a, row V becomes U with
 *   U[c+1] <- V[c] + (a == M[c] ? match : -mismatch)     (aligned)
 *   U[c]   <- V[c] - indel                                (a against a gap)
 *   U[c+1] <- U[c] - indel                                (M[c] against a gap)
 * where c+1 is taken mod p; the last rule goes round the circle, so it is applied
 * in two sweeps starting at phase 0 (Fischetti et al. 1993, the wraparound DP):
 * a chain of deletions never needs to pass a phase twice, as a whole copy of M
 * against gaps only lowers the score.  Scores are 32-bit (apx_extend lowers
 * them all when they grow large), so a cell costs a few instructions and the
 * aligned and gap rules vectorize.  Motifs of APX_BAND_FROM symbols or more
 * are aligned in a band of APX_BAND phases that follows the best cell (see
 * "rows" below): the searches, extensions and consensus cost O(APX_BAND) a
 * symbol whatever the period.  The printed score of a locus is from full rows (exact), and its counts
 * (score = match*m - mismatch*x - indel*g) from whichever rows reach that score.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define APX_HAVE_AVX2 1
#endif
#include "repview/approx.h"
#include "repview/common.h"
#include "approx_internal.h"

enum { APX_COPIES_CELLS = 1 << 24 }; /* rv_approx_copies keeps a move per cell */

typedef int32_t sc_t;
#define APX_NEG (-(1 << 30))  /* a cell no alignment reaches (outside the band) */
#define APX_REBASE (1 << 29)  /* scores past this are lowered by the best (apx_extend) */
#define APX_PAD APX_BAND      /* cells of APX_NEG on each side of a row */

int apx_reserve(apx_work_t *w, uint64_t p)
{
    if (p <= w->row_cap) return 0;
    const uint64_t stride = p + 2 * APX_PAD, mm = p + APX_BAND + 1;
    sc_t *q = realloc(w->srow, 8 * stride * sizeof *q);
    if (!q) return rv_oom("approximate loci's alignment rows", 8 * stride * sizeof *q);
    w->srow = q;
    uint8_t *m = realloc(w->mm, mm);
    if (!m) return rv_oom("approximate loci's alignment rows", mm);
    w->mm = m;
    for (uint64_t k = 0; k < 8 * stride; k++) q[k] = APX_NEG;
    w->row_cap = p;
    return 0;
}

int apx_reserve_trace(apx_work_t *w, uint64_t tb, uint64_t votes)
{
    if (tb > w->tb_cap) {
        uint8_t *q = realloc(w->tb, tb);
        if (!q) return rv_oom("approximate loci's alignment trace", tb);
        w->tb = q, w->tb_cap = tb;
    }
    if (votes > w->votes_cap) {
        uint32_t *q = realloc(w->votes, votes * sizeof *q);
        if (!q) return rv_oom("approximate loci's consensus votes", votes * sizeof *q);
        w->votes = q, w->votes_cap = votes;
    }
    return 0;
}

void apx_work_free(apx_work_t *w)
{
    free(w->srow), free(w->mm), free(w->tb), free(w->votes);
    *w = (apx_work_t){0};
}

enum { OP_DIAG = 0, OP_INS = 1, OP_DEL = 2 };

/* ---- rows -----------------------------------------------------------------------
 *
 * A row is full (n = p cells, cell c the phase c) or, for a motif of
 * APX_BAND_FROM symbols or more, a band of n = APX_BAND cells: cell i the phase
 * lo + i (mod p).  The band follows the alignment: from one row to the next it
 * moves one phase (the diagonal) plus adj, which brings the best cell back
 * towards the middle by up to APX_BAND / 8.  A copy's indels move its phase a few
 * symbols at a time, so the best alignment of a repeat stays inside; outside
 * cells count as APX_NEG.  A band row costs APX_BAND cells whatever p; its score
 * is a lower bound of the full one.  Shorter motifs keep full rows: one made of
 * two similar halves (an Alu dimer) has two good phases half a motif apart, and
 * a band that drifts to the wrong one loses the alignment.
 * Rows i (of stride p + 2 APX_PAD) keep APX_PAD cells of APX_NEG each side, so a
 * band reads its neighbours without tests. */

typedef struct {
    const uint8_t *M; /* motif; banded: w->mm, the motif repeated over p + APX_BAND */
    uint64_t p, n, lo, best;
    int banded;
    int wide; /* the AVX2 steps (apx_simd) for the rows without counts */
    sc_t mat, mis, ind;
    sc_t *row[2];  /* current (row[0]) and next */
    sc_t *cnt[2][3]; /* counts (matches, mismatches, gaps) of each cell, or NULL */
} dp_t;

static sc_t *row_of(apx_work_t *w, int i) { return w->srow + (uint64_t)i * (w->row_cap + 2 * APX_PAD) + APX_PAD; }

static void dp_open(apx_work_t *w, dp_t *d, const uint8_t *M, uint64_t p, int band_ok, const rv_approx_opts_t *o,
                    int counts)
{
    d->p = p, d->banded = band_ok && p >= APX_BAND_FROM, d->n = d->banded ? APX_BAND : p;
    d->mat = (sc_t)o->match, d->mis = -(sc_t)o->mismatch, d->ind = (sc_t)o->indel;
    d->row[0] = row_of(w, 0), d->row[1] = row_of(w, 1);
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < 3; k++) d->cnt[r][k] = counts ? row_of(w, 2 + 3 * r + k) : NULL;
    d->M = M, d->lo = 0, d->best = 0, d->wide = apx_simd();
    if (d->banded) {
        for (uint64_t k = 0; k < p + APX_BAND + 1; k++) w->mm[k] = M[k % p];
        d->M = w->mm;
    }
}

/* The row before any text: phase `phase` at 0, the others reached by deletions
 * (any_phase: every phase at 0, full rows only). */
static void dp_start(dp_t *d, uint64_t phase, int any_phase)
{
    sc_t *V = d->row[0];
    if (d->banded) d->lo = (phase + d->p - APX_BAND / 2) % d->p;
    for (uint64_t i = 0; i < d->n; i++) {
        const uint64_t c = (d->lo + i) % d->p, k = (c + d->p - phase) % d->p;
        const int64_t v = any_phase ? 0 : -(int64_t)d->ind * (int64_t)k;
        V[i] = v < APX_NEG ? APX_NEG : (sc_t)v;
    }
    d->best = any_phase ? 0 : d->banded ? APX_BAND / 2 : phase;
}

static inline uint64_t dp_phase(const dp_t *d, uint64_t i) { return d->banded ? (d->lo + i) % d->p : i; }

/* U[i] = max(U[i], U[i-1] - ind) for i = 1 .. n-1 in order (a chain of
 * deletions), as a prefix maximum of U[i] + i ind, four cells at a time where
 * SSE2 is there.  Returns the largest cell. */
static inline sc_t del_sweep(sc_t *restrict U, uint64_t n, sc_t ind)
{
    if (n == 0) return APX_NEG;
    sc_t m = U[0], best = m;
    uint64_t i = 1;
#ifdef __SSE2__
    if (n >= 8) {
        const __m128i step = _mm_set1_epi32(4 * ind), lane0 = _mm_setr_epi32(APX_NEG, 0, 0, 0),
                      lanes01 = _mm_setr_epi32(APX_NEG, APX_NEG, 0, 0);
        __m128i off = _mm_setr_epi32(0, ind, 2 * ind, 3 * ind), carry = _mm_set1_epi32(APX_NEG),
                top = _mm_set1_epi32(APX_NEG);
#define APX_MAX(a, b) _mm_or_si128(_mm_and_si128(_mm_cmpgt_epi32(a, b), a), _mm_andnot_si128(_mm_cmpgt_epi32(a, b), b))
        uint64_t v = 0;
        for (; v + 4 <= n; v += 4) {
            __m128i w = _mm_add_epi32(_mm_loadu_si128((const __m128i *)(U + v)), off);
            w = APX_MAX(w, _mm_or_si128(_mm_slli_si128(w, 4), lane0));
            w = APX_MAX(w, _mm_or_si128(_mm_slli_si128(w, 8), lanes01));
            w = APX_MAX(w, carry);
            carry = _mm_shuffle_epi32(w, 0xFF);
            const __m128i u = _mm_sub_epi32(w, off);
            top = APX_MAX(top, u);
            _mm_storeu_si128((__m128i *)(U + v), u);
            off = _mm_add_epi32(off, step);
        }
        top = APX_MAX(top, _mm_shuffle_epi32(top, 0x4E));
        top = APX_MAX(top, _mm_shuffle_epi32(top, 0xB1));
#undef APX_MAX
        best = _mm_cvtsi128_si32(top);
        i = v, m = U[v - 1];
    }
#endif
    for (; i < n; i++) {
        m = m - ind > U[i] ? m - ind : U[i];
        U[i] = m;
        best = m > best ? m : best;
    }
    return best;
}

/* The first cell of U[0, n) that holds v. */
static inline uint64_t first_of(const sc_t *U, uint64_t n, sc_t v)
{
    uint64_t i = 0;
#ifdef __SSE2__
    const __m128i x = _mm_set1_epi32(v);
    for (; i + 4 <= n; i += 4) {
        const int mask = _mm_movemask_epi8(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(U + i)), x));
        if (mask) return i + (uint64_t)__builtin_ctz((unsigned)mask) / 4;
    }
#endif
    while (i < n && U[i] != v) i++;
    return i;
}

#ifdef __SSE2__
static inline __m128i blend4(__m128i m, __m128i x, __m128i y) /* m ? x : y, lane by lane */
{
    return _mm_or_si128(_mm_and_si128(m, x), _mm_andnot_si128(m, y));
}
#endif

/* out[i] = max(V[i] + (M[i] == a ? mat : mis), V[i + 1] - ind) for i in [0, n):
 * the aligned and gap rules of a row (V read up to V[n]); tb (when not NULL) gets
 * OP_INS where the gap wins, else OP_DIAG; with C (the counts of V's cells:
 * matches, mismatches, gap symbols), O[k] get those of out's.  Four cells at a
 * time where SSE2 is there (the motif's bytes widened to 32-bit lanes); inlined
 * with C or tb NULL, the unused part goes. */
static inline __attribute__((always_inline)) void
diag_ins(const sc_t *restrict V, const sc_t *const *C, const uint8_t *restrict M, uint64_t n, uint8_t a, sc_t mat,
         sc_t mis, sc_t ind, sc_t *restrict out, sc_t *const *O, uint8_t *restrict tb)
{
    uint64_t i = 0;
#ifdef __SSE2__
    const __m128i va = _mm_set1_epi32(a), vmat = _mm_set1_epi32(mat), vmis = _mm_set1_epi32(mis),
                  vind = _mm_set1_epi32(ind), zero = _mm_setzero_si128(), one = _mm_set1_epi32(1);
    for (; i + 4 <= n; i += 4) {
        int32_t m4;
        memcpy(&m4, M + i, 4);
        const __m128i mm = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(m4), zero), zero),
                      eq = _mm_cmpeq_epi32(mm, va),
                      dg = _mm_add_epi32(_mm_loadu_si128((const __m128i *)(V + i)), blend4(eq, vmat, vmis)),
                      in = _mm_sub_epi32(_mm_loadu_si128((const __m128i *)(V + i + 1)), vind),
                      gt = _mm_cmpgt_epi32(in, dg);
        _mm_storeu_si128((__m128i *)(out + i), blend4(gt, in, dg));
        if (tb) {
            __m128i op = _mm_and_si128(gt, one);
            op = _mm_packs_epi32(op, op);
            const int32_t t4 = _mm_cvtsi128_si32(_mm_packus_epi16(op, op));
            memcpy(tb + i, &t4, 4);
        }
        if (C) {
#define APX_LD(k, o) _mm_loadu_si128((const __m128i *)(C[k] + i + (o)))
            const __m128i hit = _mm_and_si128(eq, one), miss = _mm_andnot_si128(eq, one);
            _mm_storeu_si128((__m128i *)(O[0] + i), blend4(gt, APX_LD(0, 1), _mm_add_epi32(APX_LD(0, 0), hit)));
            _mm_storeu_si128((__m128i *)(O[1] + i), blend4(gt, APX_LD(1, 1), _mm_add_epi32(APX_LD(1, 0), miss)));
            _mm_storeu_si128((__m128i *)(O[2] + i), blend4(gt, _mm_add_epi32(APX_LD(2, 1), one), APX_LD(2, 0)));
#undef APX_LD
        }
    }
#endif
    for (; i < n; i++) {
        const int hit = M[i] == a;
        const sc_t dg = V[i] + (hit ? mat : mis), in = V[i + 1] - ind;
        out[i] = dg >= in ? dg : in;
        if (tb) tb[i] = dg >= in ? OP_DIAG : OP_INS;
        if (C && dg >= in) O[0][i] = C[0][i] + hit, O[1][i] = C[1][i] + !hit, O[2][i] = C[2][i];
        else if (C) O[0][i] = C[0][i + 1], O[1][i] = C[1][i + 1], O[2][i] = C[2][i + 1] + 1;
    }
}

/* One text symbol a, full rows: V -> U; tb (when not NULL) gets each cell's move.
 * Returns the best cell (the first on a tie). */
static inline uint64_t full_step(const sc_t *restrict V, sc_t *restrict U, const uint8_t *restrict M, uint64_t p,
                                 uint8_t a, sc_t mat, sc_t mis, sc_t ind, uint8_t *restrict tb)
{
    {
        const sc_t dg = V[p - 1] + (M[p - 1] == a ? mat : mis), in = V[0] - ind;
        U[0] = dg >= in ? dg : in;
        if (tb) tb[0] = dg >= in ? OP_DIAG : OP_INS;
    }
    diag_ins(V, NULL, M, p - 1, a, mat, mis, ind, U + 1, NULL, tb ? tb + 1 : NULL); /* phases 1 .. p-1 */
    /* deletions: a running maximum over the row, then on from phase 0 while it
     * improves (a chain never passes a phase twice: a whole copy of M against
     * gaps only lowers the score) */
    sc_t m, best;
    uint64_t arg = 0;
    if (tb) { /* V is read: it keeps U before the deletions */
        sc_t *pre = (sc_t *)V;
        memcpy(pre, U, p * sizeof *U);
        best = del_sweep(U, p, ind);
        for (uint64_t c = 1; c < p; c++) tb[c] = U[c] != pre[c] ? OP_DEL : tb[c];
        arg = first_of(U, p, best);
    } else {
        best = del_sweep(U, p, ind);
        m = U[p - 1] - ind; /* on from phase 0 */
        for (uint64_t c = 0; c + 1 < p && m > U[c]; c++, m -= ind) U[c] = m, best = m > best ? m : best;
        return first_of(U, p, best);
    }
    m = U[p - 1] - ind;
    for (uint64_t c = 0; c + 1 < p && m > U[c]; c++, m -= ind) {
        U[c] = m;
        if (tb) tb[c] = OP_DEL;
        if (m > best || (m == best && c < arg)) best = m, arg = c;
    }
    return arg;
}

/* The same with the counts of each cell's alignment (the scoring of a locus). */
static uint64_t full_step_counts(const dp_t *d, const sc_t *V, sc_t *U, sc_t *const Vc[3], sc_t *const Uc[3],
                                 uint8_t a)
{
    const uint64_t p = d->p;
    const sc_t ind = d->ind;
    { /* phase 0 from phase p - 1, then phases 1 .. p-1 */
        const uint64_t f = p - 1;
        const int hit = d->M[f] == a;
        const sc_t dg = V[f] + (hit ? d->mat : d->mis), in = V[0] - ind;
        if (dg >= in) U[0] = dg, Uc[0][0] = Vc[0][f] + hit, Uc[1][0] = Vc[1][f] + !hit, Uc[2][0] = Vc[2][f];
        else U[0] = in, Uc[0][0] = Vc[0][0], Uc[1][0] = Vc[1][0], Uc[2][0] = Vc[2][0] + 1;
    }
    const sc_t *const C[3] = {Vc[0], Vc[1], Vc[2]};
    sc_t *const O[3] = {Uc[0] + 1, Uc[1] + 1, Uc[2] + 1};
    diag_ins(V, C, d->M, p - 1, a, d->mat, d->mis, ind, U + 1, O, NULL);
    sc_t best = U[0];
    uint64_t arg = 0;
    for (uint64_t c = 1; c < p; c++) {
        if (U[c - 1] - ind > U[c])
            U[c] = U[c - 1] - ind, Uc[0][c] = Uc[0][c - 1], Uc[1][c] = Uc[1][c - 1], Uc[2][c] = Uc[2][c - 1] + 1;
        if (U[c] > best) best = U[c], arg = c;
    }
    for (uint64_t c = 0, f = p - 1; c + 1 < p && U[f] - ind > U[c]; f = c, c++) {
        U[c] = U[f] - ind, Uc[0][c] = Uc[0][f], Uc[1][c] = Uc[1][f], Uc[2][c] = Uc[2][f] + 1;
        if (U[c] > best || (U[c] == best && c < arg)) best = U[c], arg = c;
    }
    return arg;
}

/* One text symbol a, band rows: the band moves by 1 + adj phases; *adj_out gets
 * adj (for the trace).  Returns the best cell. */
static inline uint64_t band_step(dp_t *d, const sc_t *restrict V, sc_t *restrict U, sc_t *const Vc[3],
                                 sc_t *const Uc[3], uint8_t a, uint8_t *restrict tb, int *adj_out)
{
    const uint64_t n = d->n, p = d->p;
    const int lim = APX_BAND / 8;
    int adj = (int)d->best - APX_BAND / 2;
    adj = adj < -lim ? -lim : adj > lim ? lim : adj;
    const uint64_t base = (d->lo + p + (uint64_t)(int64_t)adj) % p; /* the phase of V[adj] */
    const uint8_t *restrict M = d->M + base;
    const sc_t *restrict Va = V + adj;
    const sc_t mat = d->mat, mis = d->mis, ind = d->ind;
    if (Uc[0]) {
        const sc_t *const C[3] = {Vc[0] + adj, Vc[1] + adj, Vc[2] + adj};
        diag_ins(Va, C, M, n, a, mat, mis, ind, U, Uc, NULL);
    } else {
        diag_ins(Va, NULL, M, n, a, mat, mis, ind, U, NULL, tb);
    }
    if (U[0] < APX_NEG) U[0] = APX_NEG; /* the cells behind the band sink no further */
    uint64_t arg;
    if (tb || Uc[0]) { /* V is read: it keeps U before the deletions */
        sc_t *pre = (sc_t *)V;
        memcpy(pre, U, n * sizeof *U);
        arg = first_of(U, n, del_sweep(U, n, ind));
        if (tb)
            for (uint64_t i = 1; i < n; i++) tb[i] = U[i] != pre[i] ? OP_DEL : tb[i];
        if (Uc[0])
            for (uint64_t i = 1; i < n; i++)
                if (U[i] != pre[i]) Uc[0][i] = Uc[0][i - 1], Uc[1][i] = Uc[1][i - 1], Uc[2][i] = Uc[2][i - 1] + 1;
    } else {
        arg = first_of(U, n, del_sweep(U, n, ind));
    }
    d->lo = (base + 1) % p;
    if (adj_out) *adj_out = adj;
    return arg;
}

/* ---- AVX2 steps -------------------------------------------------------------------
 *
 * The steps of the rows that keep no trace and no counts (extensions and scores:
 * most cells), eight cells at a time where the CPU has AVX2: the same integer
 * operations on the same cells as the steps above, so every score and cell is the
 * same bit for bit (tests/t_approx.c compares the two).  Compiled for AVX2 by
 * function attribute and chosen at run time, so one binary runs on any x86-64. */

static _Atomic int apx_level = -1; /* 1: AVX2 steps, 0: SSE2 / scalar ones */

int apx_simd(void)
{
    int v = atomic_load_explicit(&apx_level, memory_order_relaxed);
    if (v < 0) {
        const char *e = getenv("REPVIEW_SIMD");
#ifdef APX_HAVE_AVX2
        v = !(e && !strcmp(e, "sse2")) && __builtin_cpu_supports("avx2");
#else
        v = 0;
        (void)e;
#endif
        atomic_store_explicit(&apx_level, v, memory_order_relaxed);
    }
    return v;
}

int apx_simd_set(int on)
{
    atomic_store_explicit(&apx_level, -1, memory_order_relaxed);
    const int have = apx_simd();
    atomic_store_explicit(&apx_level, on && have, memory_order_relaxed);
    return have;
}

#ifdef APX_HAVE_AVX2
#define APX_AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))

/* byte i of the result: bit i of m (0 or 1) */
static inline uint64_t spread8(unsigned m)
{
    return (((uint64_t)(m & 0x7f) * 0x0002040810204081ull) & 0x0101010101010101ull) | ((uint64_t)(m >> 7) << 56);
}

/* diag_ins without counts: out[i] = max(V[i] + (M[i] == a ? mat : mis), V[i+1] -
 * ind); tb (when not NULL; inlined, the unused part goes) gets OP_INS where the
 * gap wins, else OP_DIAG */
APX_AVX2_INLINE void diag_max8(const sc_t *restrict V, const uint8_t *restrict M, uint64_t n, uint8_t a, sc_t mat,
                               sc_t mis, sc_t ind, sc_t *restrict out, uint8_t *restrict tb)
{
    const __m256i va = _mm256_set1_epi32(a), vmat = _mm256_set1_epi32(mat), vmis = _mm256_set1_epi32(mis),
                  vind = _mm256_set1_epi32(ind);
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256i mm = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(M + i))),
                      sub = _mm256_blendv_epi8(vmis, vmat, _mm256_cmpeq_epi32(mm, va)),
                      dg = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(V + i)), sub),
                      in = _mm256_sub_epi32(_mm256_loadu_si256((const __m256i *)(V + i + 1)), vind);
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_max_epi32(dg, in));
        if (tb) {
            const unsigned gt = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(in, dg)));
            const uint64_t op = spread8(gt); /* OP_INS = 1, OP_DIAG = 0 */
            memcpy(tb + i, &op, 8);
        }
    }
    for (; i < n; i++) {
        const sc_t dg = V[i] + (M[i] == a ? mat : mis), in = V[i + 1] - ind;
        out[i] = dg >= in ? dg : in;
        if (tb) tb[i] = dg >= in ? OP_DIAG : OP_INS;
    }
}

/* del_sweep: the prefix maximum of U[i] + i ind, eight lanes at a time (shifts by
 * 1, 2 and 4 lanes, then the carry of the block before). */
APX_AVX2_INLINE sc_t del_sweep8(sc_t *restrict U, uint64_t n, sc_t ind)
{
    if (n < 16) return del_sweep(U, n, ind);
    const __m256i neg = _mm256_set1_epi32(APX_NEG), step = _mm256_set1_epi32(8 * ind),
                  s1 = _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6), s2 = _mm256_setr_epi32(0, 0, 0, 1, 2, 3, 4, 5),
                  s4 = _mm256_setr_epi32(0, 0, 0, 0, 0, 1, 2, 3), last = _mm256_set1_epi32(7);
    __m256i off = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(ind)),
            carry = neg, top = neg;
    uint64_t v = 0;
    for (; v + 8 <= n; v += 8) {
        __m256i w = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(U + v)), off);
        w = _mm256_max_epi32(w, _mm256_blend_epi32(_mm256_permutevar8x32_epi32(w, s1), neg, 0x01));
        w = _mm256_max_epi32(w, _mm256_blend_epi32(_mm256_permutevar8x32_epi32(w, s2), neg, 0x03));
        w = _mm256_max_epi32(w, _mm256_blend_epi32(_mm256_permutevar8x32_epi32(w, s4), neg, 0x0F));
        w = _mm256_max_epi32(w, carry);
        carry = _mm256_permutevar8x32_epi32(w, last);
        const __m256i u = _mm256_sub_epi32(w, off);
        top = _mm256_max_epi32(top, u);
        _mm256_storeu_si256((__m256i *)(U + v), u);
        off = _mm256_add_epi32(off, step);
    }
    __m128i t = _mm_max_epi32(_mm256_castsi256_si128(top), _mm256_extracti128_si256(top, 1));
    t = _mm_max_epi32(t, _mm_shuffle_epi32(t, 0x4E));
    t = _mm_max_epi32(t, _mm_shuffle_epi32(t, 0xB1));
    sc_t best = _mm_cvtsi128_si32(t), m = U[v - 1];
    for (; v < n; v++) {
        m = m - ind > U[v] ? m - ind : U[v];
        U[v] = m;
        best = m > best ? m : best;
    }
    return best;
}

APX_AVX2_INLINE uint64_t first_of8(const sc_t *U, uint64_t n, sc_t v)
{
    const __m256i x = _mm256_set1_epi32(v);
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256i eq = _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(U + i)), x);
        const int mask = _mm256_movemask_ps(_mm256_castsi256_ps(eq));
        if (mask) return i + (uint64_t)__builtin_ctz((unsigned)mask);
    }
    return i + first_of(U + i, n - i, v);
}

/* tb[i] = OP_DEL where U[i] != pre[i], for i in [1, n) */
APX_AVX2_INLINE void del_marks8(const sc_t *U, const sc_t *pre, uint64_t n, uint8_t *tb)
{
    uint64_t i = 1;
    for (; i + 8 <= n; i += 8) {
        const __m256i eq = _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(U + i)),
                                              _mm256_loadu_si256((const __m256i *)(pre + i)));
        const uint64_t ne = spread8(~(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(eq)) & 0xffu);
        uint64_t t;
        memcpy(&t, tb + i, 8);
        t = (t & ~(ne * 0xffu)) | ne * OP_DEL;
        memcpy(tb + i, &t, 8);
    }
    for (; i < n; i++) tb[i] = U[i] != pre[i] ? OP_DEL : tb[i];
}

/* full_step: tb (when not NULL) gets each cell's move; V is then overwritten */
__attribute__((target("avx2"))) static uint64_t full_step8(sc_t *restrict V, sc_t *restrict U,
                                                           const uint8_t *restrict M, uint64_t p, uint8_t a,
                                                           sc_t mat, sc_t mis, sc_t ind, uint8_t *restrict tb)
{
    {
        const sc_t dg = V[p - 1] + (M[p - 1] == a ? mat : mis), in = V[0] - ind;
        U[0] = dg >= in ? dg : in;
        if (tb) tb[0] = dg >= in ? OP_DIAG : OP_INS;
    }
    diag_max8(V, M, p - 1, a, mat, mis, ind, U + 1, tb ? tb + 1 : NULL);
    if (tb) memcpy(V, U, p * sizeof *U); /* V is read: it keeps U before the deletions */
    sc_t best = del_sweep8(U, p, ind);
    if (tb) del_marks8(U, V, p, tb);
    uint64_t arg = first_of8(U, p, best);
    sc_t m = U[p - 1] - ind; /* on from phase 0 */
    for (uint64_t c = 0; c + 1 < p && m > U[c]; c++, m -= ind) {
        U[c] = m;
        if (tb) tb[c] = OP_DEL;
        if (m > best || (m == best && c < arg)) best = m, arg = c;
    }
    return arg;
}

/* band_step without counts: tb and *adj_out as there; V is overwritten with tb */
__attribute__((target("avx2"))) static uint64_t band_step8(dp_t *d, sc_t *restrict V, sc_t *restrict U, uint8_t a,
                                                           uint8_t *restrict tb, int *adj_out)
{
    const uint64_t n = d->n, p = d->p;
    const int lim = APX_BAND / 8;
    int adj = (int)d->best - APX_BAND / 2;
    adj = adj < -lim ? -lim : adj > lim ? lim : adj;
    const uint64_t base = (d->lo + p + (uint64_t)(int64_t)adj) % p; /* the phase of V[adj] */
    diag_max8(V + adj, d->M + base, n, a, d->mat, d->mis, d->ind, U, tb);
    if (U[0] < APX_NEG) U[0] = APX_NEG;
    if (tb) memcpy(V, U, n * sizeof *U);
    const uint64_t arg = first_of8(U, n, del_sweep8(U, n, d->ind));
    if (tb) del_marks8(U, V, n, tb);
    d->lo = (base + 1) % p;
    if (adj_out) *adj_out = adj;
    return arg;
}
#endif

/* One text symbol: row[0] -> row[1], then swapped; returns the best cell. */
static inline __attribute__((always_inline)) uint64_t dp_step(dp_t *d, uint8_t a, uint8_t *tb, int *adj)
{
    sc_t *V = d->row[0], *U = d->row[1];
    uint64_t arg;
#ifdef APX_HAVE_AVX2
    if (d->wide && !d->cnt[0][0] && (d->banded || d->p >= 16))
        arg = d->banded ? band_step8(d, V, U, a, tb, adj) : full_step8(V, U, d->M, d->p, a, d->mat, d->mis, d->ind, tb);
    else
#endif
    if (d->banded) arg = band_step(d, V, U, d->cnt[0], d->cnt[1], a, tb, adj);
    else if (d->cnt[0][0]) arg = full_step_counts(d, V, U, d->cnt[0], d->cnt[1], a);
    else arg = full_step(V, U, d->M, d->p, a, d->mat, d->mis, d->ind, tb);
    d->row[0] = U, d->row[1] = V;
    if (d->cnt[0][0])
        for (int k = 0; k < 3; k++) {
            sc_t *sw = d->cnt[0][k];
            d->cnt[0][k] = d->cnt[1][k], d->cnt[1][k] = sw;
        }
    d->best = arg;
    return arg;
}

/* Lower every score by `by` (long alignments stay inside 32 bits); cells clamp at
 * APX_NEG. */
static void dp_lower(dp_t *d, sc_t by)
{
    sc_t *V = d->row[0];
    for (uint64_t i = 0; i < d->n; i++) V[i] = V[i] - by < APX_NEG ? APX_NEG : V[i] - by;
}

/* Switch full rows (of a start at any phase) to a band around the best cell. */
static void dp_narrow(dp_t *d, apx_work_t *w)
{
    sc_t *V = d->row[0], *U = d->row[1];
    const uint64_t lo = (d->best + d->p - APX_BAND / 2) % d->p;
    for (uint64_t i = 0; i < APX_BAND; i++) U[i] = V[(lo + i) % d->p];
    for (uint64_t i = APX_BAND; i < d->p && i < APX_BAND + APX_PAD; i++) U[i] = APX_NEG;
    for (uint64_t i = APX_BAND; i < d->p && i < APX_BAND + APX_PAD; i++) V[i] = APX_NEG;
    for (uint64_t k = 0; k < d->p + APX_BAND + 1; k++) w->mm[k] = d->M[k % d->p];
    d->row[0] = U, d->row[1] = V;
    d->M = w->mm, d->lo = lo, d->banded = 1, d->n = APX_BAND, d->best = APX_BAND / 2;
}

/* The full rows of dp_open leave the cells past n as they were: the band needs
 * APX_NEG there. */
static void dp_close(dp_t *d)
{
    for (int r = 0; r < 2; r++)
        for (uint64_t i = 0; i < APX_PAD && d->n > APX_BAND; i++) d->row[r][APX_BAND + i] = APX_NEG;
}

/* ---- scores ---------------------------------------------------------------------- */

/* The score of t[0, len) against M from phase 0 (any_phase: from every phase).
 * With sv (any_phase 0, band_ok 1), the rows go on from *sv when it holds those of
 * the same t, M and p after sv->len <= len symbols, and *sv gets them after len. */
static int64_t score_rows(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p,
                          int any_phase, int band_ok, const rv_approx_opts_t *o, apx_rows_t *sv)
{
    dp_t d;
    dp_open(w, &d, M, p, band_ok && !any_phase, o, 0);
    int64_t off = 0;
    uint64_t j = 0;
    if (sv && sv->len && sv->p == p && sv->len <= len && sv->banded == d.banded && sv->n == d.n) {
        memcpy(d.row[0], sv->row, d.n * sizeof *d.row[0]);
        d.lo = sv->lo, d.best = sv->best, off = sv->off, j = sv->len;
    } else {
        dp_start(&d, 0, any_phase);
    }
    uint64_t arg = d.best;
    for (; j < len; j++) {
        if (any_phase && band_ok && !d.banded && p >= APX_BAND_FROM && j == 2 * APX_BAND) dp_narrow(&d, w);
        arg = dp_step(&d, t[j], NULL, NULL);
        if (d.row[0][arg] > APX_REBASE) off += d.row[0][arg], dp_lower(&d, d.row[0][arg]);
    }
    if (!len)
        for (uint64_t c = 1; c < d.n; c++) arg = d.row[0][c] > d.row[0][arg] ? c : arg;
    const int64_t r = off + d.row[0][arg];
    if (sv && d.n > sv->cap) {
        int32_t *q = realloc(sv->row, d.n * sizeof *q);
        if (!q) {
            dp_close(&d);
            rv_oom("approximate loci's alignment rows", d.n * sizeof *q);
            return INT64_MIN;
        }
        sv->row = q, sv->cap = d.n;
    }
    if (sv) {
        memcpy(sv->row, d.row[0], d.n * sizeof *d.row[0]);
        sv->n = d.n, sv->lo = d.lo, sv->best = arg, sv->p = p, sv->len = len, sv->off = off, sv->banded = d.banded;
    }
    dp_close(&d);
    return r;
}

int64_t apx_score_on(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p,
                     const rv_approx_opts_t *o, apx_rows_t *sv)
{
    return score_rows(w, t, len, M, p, 0, 1, o, sv);
}

int64_t apx_score_only(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p, int any_phase,
                       const rv_approx_opts_t *o)
{
    return score_rows(w, t, len, M, p, any_phase, 1, o, NULL);
}

int apx_rest_scores(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p, int64_t sc,
                    const rv_approx_opts_t *o)
{
    if (4 * (sc - o->match * (int64_t)p) >= o->min_score) return 1;
    return 4 * apx_score_only(w, t + p, len - p, M, p, 1, o) >= o->min_score;
}

int64_t apx_score_full(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p,
                       const rv_approx_opts_t *o)
{
    return score_rows(w, t, len, M, p, 0, 0, o, NULL);
}

int apx_adjacent(const uint8_t *t, uint64_t len, uint64_t p, const rv_approx_opts_t *o, apx_pair_t *out)
{
    *out = (apx_pair_t){0};
    if (len <= p) return 0;
    const uint64_t n = len - p, B = 32 + p / 32, W = 2 * B + 1; /* cell k of row i: j = i + k - B */
    const uint8_t *X = t, *Y = t + p;
    apx_pair_t *row = malloc(2 * W * sizeof *row);
    if (!row) return rv_oom("approximate loci's copy alignment", 2 * W * sizeof *row);
    apx_pair_t *V = row, *U = row + W;
    const int64_t neg = INT64_MIN / 4;
    for (uint64_t k = 0; k < W; k++) {
        const uint64_t j = k >= B ? k - B : UINT64_MAX;
        V[k] = j <= n ? (apx_pair_t){-(int64_t)o->indel * (int64_t)j, 0, j} : (apx_pair_t){neg, 0, 0};
    }
    for (uint64_t i = 1; i <= n; i++) {
        /* the cells with 0 <= j <= n; the others stay unreachable */
        const uint64_t k0 = i < B ? B - i : 0, k1 = n + B - i < W - 1 ? n + B - i : W - 1;
        if (k0 > 0) U[k0 - 1] = (apx_pair_t){neg, 0, 0};
        if (k1 + 1 < W) U[k1 + 1] = (apx_pair_t){neg, 0, 0};
        for (uint64_t k = k0; k <= k1; k++) {
            const uint64_t j = i + k - B;
            apx_pair_t best = {neg, 0, 0};
            if (j == 0) best = (apx_pair_t){-(int64_t)o->indel * (int64_t)i, 0, i};
            if (j > 0 && V[k].score > neg) { /* (i-1, j-1) */
                const int eq = X[i - 1] == Y[j - 1];
                best = (apx_pair_t){V[k].score + (eq ? o->match : -o->mismatch), V[k].matches + eq, V[k].cols + 1};
            }
            if (k + 1 < W && V[k + 1].score > neg && V[k + 1].score - o->indel > best.score) /* (i-1, j) */
                best = (apx_pair_t){V[k + 1].score - o->indel, V[k + 1].matches, V[k + 1].cols + 1};
            if (k > 0 && j > 0 && U[k - 1].score > neg && U[k - 1].score - o->indel > best.score) /* (i, j-1) */
                best = (apx_pair_t){U[k - 1].score - o->indel, U[k - 1].matches, U[k - 1].cols + 1};
            U[k] = best;
        }
        apx_pair_t *x = V;
        V = U, U = x;
    }
    *out = V[B];
    free(row);
    return 0;
}

int apx_copies_hold(const uint8_t *t, uint64_t len, uint64_t p, const rv_approx_opts_t *o, int *holds)
{
    *holds = 1;
    if (10 * len >= APX_FEW_COPIES * p) return 0;
    for (uint64_t i = 0, run = 0; i + p < len; i++) { /* an exact run of period p that scores alone */
        run = t[i] == t[i + p] ? run + 1 : 0;
        if (run >= p && (int64_t)(run + p) * o->match >= o->min_score) return 0;
    }
    /* neighbours at the shifts within a tenth of p (8 at most each side): copies
     * with indels differ in length, and an alignment end to end pays for the
     * difference at its ends */
    const uint64_t off = p / 10 < 8 ? p / 10 : 8;
    apx_pair_t c = {0};
    for (uint64_t k = 0; k <= 2 * off; k++) { /* p, p + 1, p - 1, p + 2, ...: the first that shows it */
        const uint64_t q = k % 2 ? p + (k + 1) / 2 : p - k / 2;
        apx_pair_t u;
        if (q >= len) continue;
        if (apx_adjacent(t, len, q, o, &u) < 0) return -1;
        if (!u.cols || 100 * u.matches >= APX_PAIR_IDENTITY * u.cols) return 0;
        if (!c.cols || u.matches * c.cols > c.matches * u.cols) c = u;
        if (100 * u.matches < (APX_PAIR_IDENTITY - 10) * u.cols && !k) break; /* no shift makes up for that */
    }
    const double pid = (double)c.matches / (double)c.cols, low = pid - sqrt(pid * (1 - pid) / (double)c.cols);
    const double q = low > 0 ? sqrt(low) : 0;
    *holds = (double)len * (o->match * q - o->mismatch * (1 - q)) >= (double)o->min_score;
    return 0;
}

/* The counts of the best alignment, in band rows or full ones. */
static void score_counts(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p, int band_ok,
                         const rv_approx_opts_t *o, rv_approx_cell_t *best)
{
    dp_t d;
    dp_open(w, &d, M, p, band_ok, o, 1);
    dp_start(&d, 0, 0);
    for (int r = 0; r < 2; r++)
        for (uint64_t i = 0; i < d.n; i++) d.cnt[r][0][i] = d.cnt[r][1][i] = 0, d.cnt[r][2][i] = 0;
    for (uint64_t i = 0; i < d.n; i++) d.cnt[0][2][i] = (sc_t)((dp_phase(&d, i) + p) % p); /* dp_start's deletions */
    if (d.banded)
        for (uint64_t i = 0; i < d.n; i++)
            if (d.row[0][i] == APX_NEG) d.cnt[0][2][i] = 0;
    uint64_t arg = d.best;
    for (uint64_t j = 0; j < len; j++) arg = dp_step(&d, t[j], NULL, NULL);
    if (!len)
        for (uint64_t c = 1; c < d.n; c++) arg = d.row[0][c] > d.row[0][arg] ? c : arg;
    const uint64_t m = (uint64_t)d.cnt[0][0][arg], x = (uint64_t)d.cnt[0][1][arg], g = (uint64_t)d.cnt[0][2][arg];
    *best = (rv_approx_cell_t){o->match * (int64_t)m - o->mismatch * (int64_t)x - o->indel * (int64_t)g, m, x, g};
    dp_close(&d);
}

int apx_score(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p,
              const rv_approx_opts_t *o, rv_approx_cell_t *best)
{
    if (apx_reserve(w, p) < 0) return -1;
    /* the counts come from the band when it finds the best score (scores in 32
     * bits: counts from the band or full rows for texts of up to 2^28 symbols);
     * full rows with counts reach the best score themselves */
    if (p >= APX_BAND_FROM) {
        const int64_t want = apx_score_full(w, t, len, M, p, o);
        score_counts(w, t, len, M, p, 1, o, best);
        if (best->s == want) return 0;
    }
    score_counts(w, t, len, M, p, 0, o, best);
    return 0;
}

int rv_approx_score(const uint8_t *t, uint64_t len, const uint8_t *motif, uint64_t p, const rv_approx_opts_t *o,
                    rv_approx_cell_t *best)
{
    apx_work_t w = {0};
    int rc = apx_score(&w, t, len, motif, p, o, best);
    apx_work_free(&w);
    return rc;
}

int apx_extend(apx_work_t *w, const uint8_t *t, uint64_t x, uint64_t limit, int dir, const uint8_t *M, uint64_t p,
               uint64_t phase, uint64_t min_len, const rv_approx_opts_t *o, apx_end_t *out)
{
    dp_t d;
    dp_open(w, &d, M, p, 1, o, 0);
    dp_start(&d, phase, 0);
    *out = (apx_end_t){0, phase, 0};
    int64_t top = 0, off = 0;
    const int64_t drop = apx_xdrop(p);
    for (uint64_t j = 0; j < limit; j++) {
        const uint8_t a = dir > 0 ? t[x + j] : t[x - 1 - j];
        const uint64_t arg = dp_step(&d, a, NULL, NULL);
        const int64_t v = off + d.row[0][arg];
        if (v > top) top = v;
        if (j + 1 >= min_len && (j + 1 == min_len || v >= out->score)) *out = (apx_end_t){j + 1, dp_phase(&d, arg), v};
        if (j + 1 >= min_len && v < top - drop) break;
        if (d.row[0][arg] > APX_REBASE) off += d.row[0][arg], dp_lower(&d, d.row[0][arg]);
    }
    dp_close(&d);
    return 0;
}

int apx_consensus(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p, int sigma,
                  uint64_t cap, const rv_approx_opts_t *o, uint8_t *C, uint64_t *pc)
{
    const uint64_t B = APX_BLOCK, syms = (uint64_t)sigma + 1; /* symbol 0: a gap */
    dp_t d;
    dp_open(w, &d, M, p, 1, o, 0);
    const uint64_t nb = d.n;
    if (apx_reserve_trace(w, B * (nb + 1 + sizeof(uint64_t)), 2 * p * syms) < 0) return -1;
    uint64_t *lo = (uint64_t *)(void *)w->tb; /* band start of each row, its move, its trace */
    int8_t *mv = (int8_t *)(lo + B);
    uint8_t *tb = (uint8_t *)(mv + B);
    uint32_t *votes = w->votes, *ins = w->votes + p * syms;
    memset(votes, 0, 2 * p * syms * sizeof *votes);
    dp_start(&d, 0, 0);
    for (uint64_t b0 = 0; b0 < len; b0 += B) {
        const uint64_t rows = len - b0 < B ? len - b0 : B;
        uint64_t arg = 0;
        for (uint64_t r = 1; r <= rows; r++) {
            int adj = 0;
            arg = dp_step(&d, t[b0 + r - 1], tb + (r - 1) * nb, &adj);
            lo[r - 1] = d.lo, mv[r - 1] = (int8_t)adj;
            if (d.row[0][arg] > APX_REBASE) dp_lower(&d, d.row[0][arg]);
        }
        /* trace the block back from its best cell: votes for each phase, and for
         * a symbol inserted before it (once per copy) */
        for (uint64_t r = rows, i = arg, in_run = 0; r > 0;) {
            const uint8_t op = tb[(r - 1) * nb + i];
            const uint64_t c = d.banded ? (lo[r - 1] + i) % p : i, prev = c == 0 ? p - 1 : c - 1;
            const int64_t di = d.banded ? mv[r - 1] : 0;
            if (op == OP_INS) {
                if (!in_run) ins[c * syms + t[b0 + r - 1]]++, in_run = 1;
                const int64_t j = (int64_t)i + di + (d.banded ? 1 : 0);
                r--;
                if (j < 0 || j >= (int64_t)nb) break;
                i = (uint64_t)j;
                continue;
            }
            in_run = 0;
            if (op == OP_DIAG) {
                votes[prev * syms + t[b0 + r - 1]]++, r--;
                const int64_t j = d.banded ? (int64_t)i + di : (int64_t)(i == 0 ? p - 1 : i - 1);
                if (j < 0 || j >= (int64_t)nb) break;
                i = (uint64_t)j;
            } else {
                votes[prev * syms]++;
                if (d.banded && i == 0) break;
                i = d.banded ? i - 1 : (i == 0 ? p - 1 : i - 1);
            }
        }
    }
    dp_close(&d);
    /* per phase: the majority symbol (the motif's on a tie) or none for a gap
     * majority, after the majority inserted symbol when most copies insert one */
    for (int pass = 0, grow = 1; pass < 2; pass++) {
        uint64_t n = 0;
        for (uint64_t c = 0; c < p; c++) {
            const uint32_t *v = votes + c * syms, *iv = ins + c * syms;
            uint64_t visits = 0, inserted = 0, best = M[c] < syms ? M[c] : 0, ib = 1;
            for (uint64_t a = 0; a < syms; a++) {
                visits += v[a], inserted += iv[a];
                if (v[a] > v[best]) best = a;
                if (iv[a] > iv[ib]) ib = a;
            }
            if (grow && 2 * inserted > visits) {
                if (pass) C[n] = (uint8_t)ib;
                n++;
            }
            if (best) {
                if (pass) C[n] = (uint8_t)best;
                n++;
            }
        }
        if (pass == 0 && n > cap && grow) grow = 0, pass = -1; /* too long: without insertions */
        else if (pass == 1) *pc = n;
    }
    if (*pc == 0) memcpy(C, M, p), *pc = p;
    return 0;
}

int rv_approx_copies(const uint8_t *t, uint64_t len, const uint8_t *motif, uint64_t p, const rv_approx_opts_t *o,
                     uint64_t *starts, uint64_t cap, uint64_t *n, rv_approx_cell_t *path)
{
    if (p == 0 || len > (APX_COPIES_CELLS / p)) return rv_error("approx", "a locus too long to align its copies");
    apx_work_t w = {0};
    if (apx_reserve(&w, p) < 0 || apx_reserve_trace(&w, (len ? len : 1) * p, 0) < 0) {
        apx_work_free(&w);
        return -1;
    }
    dp_t d;
    dp_open(&w, &d, motif, p, 0, o, 0);
    dp_start(&d, 0, 0);
    uint64_t c = d.best;
    for (uint64_t r = 1; r <= len; r++) c = dp_step(&d, t[r - 1], w.tb + (r - 1) * p, NULL);
    /* back from the best cell: a copy starts where the path enters phase 0 */
    *n = 0;
    *path = (rv_approx_cell_t){0, 0, 0, 0};
    for (uint64_t r = len; r > 0;) {
        const uint8_t op = w.tb[(r - 1) * p + c];
        const uint64_t prev = c == 0 ? p - 1 : c - 1;
        if (op == OP_INS) { path->g++, r--; continue; }
        if (op == OP_DIAG) {
            if (t[r - 1] == motif[prev]) path->m++;
            else path->x++;
            r--;
        } else {
            path->g++;
        }
        c = prev;
        if (c == 0 && r > 0 && *n < cap) starts[(*n)++] = r;
    }
    path->g += c; /* deletions of M[0, c) before the first symbol (row_init) */
    path->s = o->match * (int64_t)path->m - o->mismatch * (int64_t)path->x - o->indel * (int64_t)path->g;
    if (*n < cap) starts[(*n)++] = 0;
    for (uint64_t i = 0, j = *n ? *n - 1 : 0; i < j; i++, j--) {
        const uint64_t sw = starts[i];
        starts[i] = starts[j], starts[j] = sw;
    }
    apx_work_free(&w);
    return 0;
}
