/* approx_loci.c — approximate tandem repeats (approx.h): seeds, extension, consensus,
 * and the merge of the loci of every piece of the text.
 *
 * The text is cut into pieces (a segment, or a part of a long one); a thread takes
 * pieces in order.  In a piece it reads the k-mers left to right, each looked up
 * in a table of last occurrences: an equal k-mer d <= 1.1 max_period back is a hit
 * at distance d (and at the distances of a band around d: indels); the two
 * occurrences before the last (in the slot's chain), within APX_CHAIN_REACH, are
 * hits too when they continue a row at their distance (a k-mer twice in a copy
 * hides the copy's).  APX_HITS + d/32 + half the
 * band (d/256 past 512) hits at the same distance, each within APX_GAP + d/4
 * of the previous one, make a seed of period d (a repeat of period d with identity q
 * gives a hit at about a fraction q^k of its positions; chance ones rarely come
 * in a row).  Each hit is also extended exactly: the exact run of period d
 * through it is a seed when it scores alone (as are the runs a caller passes
 * that start in the piece).  A seed
 * contained in a locus already found with a compatible period is skipped, and so
 * are hits at distances compatible with a locus before its end.  The pieces'
 * loci are then merged (approx_merge.c).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/approx.h"
#include "repview/common.h"
#include "approx_internal.h"
#include "base/internal.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum {
    APX_LONG_FROM = 512, /* distances from here on are seeded by long k-mers */
    APX_HITS = 3,       /* hits in a row at one distance d that make a seed, + d / 32 */
    APX_GAP = 24,       /* the most symbols between two of them, + d / 4 */
    APX_NEAR_MIN = 12,  /* distances [APX_NEAR_MIN, APX_NEAR_MAX] are seeded by 4-mers too */
    APX_NEAR_MAX = 32,
    APX_NEAR_K = 4,
    APX_NEAR_SAME = 60, /* % of the symbols of a period from the row on that equal the ones d back */
    APX_NEAR_COPIES = 17, /* tenths of copies that such a seed's light extension must span */
    APX_LIGHT = 3,      /* mismatch and indel penalty of a seed's first extension, */
    APX_LIGHT_REACH = 4, /* which reads at most this many periods past the seed */
    APX_RETRY = 8,      /* periods after a failed try before the next at that distance */
    APX_FOLD_COPIES = 16, /* copies a refolded motif's consensus is taken from, at most */
    APX_MULTIPLES = 32, /* multiples of a locus's period that it silences */
    APX_POLISH_MAX = 32,   /* the longest motif polished (polish_motif), */
    APX_POLISH_ROUNDS = 3, /* by this many edits at most */
    APX_SUB_COPIES = 8,    /* copies of a locus from which it covers the multiples of half and a third its period */
    APX_PIECE = 1 << 20,     /* symbols in a piece, at most */
    APX_PIECE_MIN = 1 << 16, /* and at least: a text of fewer than 16 pieces is cut into 16 */
    APX_BEYOND = 1 << 16,    /* symbols past its piece that a seed's extension reads at most, */
    APX_BEYOND_PERIODS = 128, /* or this many max_periods when more */
};

void rv_approx_opts_init(rv_approx_opts_t *o)
{
    *o = (rv_approx_opts_t){.max_period = 500, .min_score = 50, .match = 2, .mismatch = 7, .indel = 7};
}

void rv_approx_free(rv_approx_set_t *a)
{
    if (!a) return;
    free(a->v), free(a->motifs);
    *a = (rv_approx_set_t){0};
}

/* Seeds reach a tenth past max_period: insertions in the copies of a repeat of
 * period max_period part them by more (its consensus then has max_period). */
static uint64_t apx_max_distance(const rv_approx_opts_t *o) { return o->max_period + o->max_period / 10 + 1; }

/* The distances around d that a hit at d counts for: none below 8, then one, and
 * from 64 on about 1.5% of d each side (the drift of a random walk of indels). */
static uint64_t apx_band(uint64_t d) { return d < 8 ? 0 : 1 + d / 64; }

/* ---- one piece ---------------------------------------------------------------- */

/* [t0, t1) in segment [sl, sh); its seeds are extended inside [xl, xh) (cut_pieces) */
typedef struct { uint64_t t0, t1, sl, sh, xl, xh; } piece_t;


typedef struct { /* k-mers of k symbols by a hash of `bits` bits: last position, piece */
    uint64_t *pos, *stamp;
    uint64_t k;
    int bits;
} kmer_table_t;

/* earlier occurrences of a k-mer that a hit reads (the last one and those before
 * it, these within APX_CHAIN_REACH): in a repeat whose copies hold a k-mer twice,
 * or hold one the copy before repeats, the copy's occurrence is not the last
 * one (further back a second occurrence costs more tries than it finds) */
enum { APX_CHAIN = 3, APX_CHAIN_REACH = 128 };

typedef struct { /* a thread's state, kept from piece to piece (stamped by piece) */
    apx_work_t w;
    kmer_table_t tab[2];                          /* short and long k-mers */
    uint64_t *hlast, *hcnt, *cover, *exact, *dstamp; /* per distance */
    uint8_t *M, *R, *C, *S, *R2, *F;              /* motif scratch */
    uint64_t *active, n_active, active_cap;       /* loci of the piece not yet ended */
    uint64_t *chain;                              /* the slot's position before each scanned one */
    uint64_t ncnt[APX_NEAR_MAX + 1], nfirst[APX_NEAR_MAX + 1], nlast[APX_NEAR_MAX + 1], nstamp[APX_NEAR_MAX + 1]; /* 4-mer rows */
} thread_t;

typedef struct {
    const rv_seq_t *s;
    const rv_approx_opts_t *o;
    uint64_t dmax; /* the largest seed distance */
    const rv_run_t *seeds;
    uint64_t n_seeds;
    const piece_t *pieces;
    uint64_t longest; /* symbols of the longest piece */
    apx_list_t *out;
    thread_t *th;
    int k, k_long; /* k-mer sizes of the short and long distances */
    _Atomic int failed;
    char why[400]; /* a worker's message (messages are per thread) */
} ctx_t;

/* Extend M[0, p) (phase 0 at s0) right from s0, then left from where that ended,
 * each over at least text[s0, e0) and at most reach symbols past it: [*a, *b), and M rotated in place to phase 0 at
 * *a.  Returns the score of the left extension (an alignment of [*a, *b)). */
static int64_t extend_both(thread_t *t, const uint8_t *txt, const piece_t *pc, uint8_t *M, uint64_t p, uint64_t s0,
                           uint64_t e0, const rv_approx_opts_t *o, uint64_t reach, uint64_t *a, uint64_t *b)
{
    apx_end_t r, l;
    const uint64_t hi = pc->xh > e0 ? pc->xh : e0, lo = pc->xl < s0 ? pc->xl : s0;
    const uint64_t right = hi - s0 < e0 - s0 + reach ? hi - s0 : e0 - s0 + reach;
    apx_extend(&t->w, txt, s0, right, 1, M, p, 0, e0 - s0, o, &r);
    const uint64_t end = s0 + r.len, left = end - lo < end - s0 + reach ? end - lo : end - s0 + reach;
    for (uint64_t c = 0; c < p; c++) t->R[c] = M[p - 1 - c];
    apx_extend(&t->w, txt, end, left, -1, t->R, p, (p - r.phase) % p, end - s0, o, &l);
    const uint64_t fa = (p - l.phase) % p;
    for (uint64_t c = 0; c < p; c++) t->R[c] = M[(fa + c) % p];
    memcpy(M, t->R, p);
    *a = end - l.len, *b = end;
    return l.score;
}

/* M[0, p) over text[a, b), where an alignment scores sc: the locus when it passes
 * (*got = 1; M cut to its smallest period, *plen).  sc is a lower bound of the
 * locus's score (the extension's alignment ends at one phase, or keeps to a band):
 * the merge scores the loci it keeps exactly.  0, or -1 with a message. */
static int accept(const ctx_t *x, thread_t *t, uint8_t *M, uint64_t p, uint64_t a, uint64_t b, int64_t sc,
                  rv_approx_t *loc, uint64_t *plen, int *got)
{
    const rv_approx_opts_t *o = x->o;
    const uint8_t *txt = x->s->text;
    for (uint64_t q = 1; q < p; q++) { /* the motif's own smallest period: the same string */
        if (p % q) continue;
        uint64_t c = q;
        while (c < p && M[c] == M[c - q]) c++;
        if (c == p) { p = q; break; }
    }
    if (sc < o->min_score || b - a <= p || p > o->max_period) return 0;
    /* a motif taken from the text matches its own first copy: the others must
     * score a quarter of the threshold against it too.  An alignment splits where
     * the first p symbols end, the first part scoring match * p at most, so this
     * holds for an exact run of length L >= 2p, match * L >= min_score */
    if (!apx_rest_scores(&t->w, txt + a, b - a, M, p, sc, o)) return 0;
    *loc = (rv_approx_t){a, b, p, sc, 0, 0, 0, 0};
    *plen = p;
    *got = 1;
    return 0;
}

/* M[0, *p) over text[*a, *b), an alignment scoring *sc: when M reads as m = 2 or
 * 3 copies of a period q (M[q, p) aligned to M[0, q) M[0, q) ... under the
 * light weights scores a quarter of its length or more: the copies of M may
 * differ by indels, so symbols q apart need not agree), as the consensus of a
 * few copies of a diverged array often does, the consensus of the copies
 * aligned to M[0, q), refined as in grow_seed and extended over e0,
 * replaces it when it scores min_score and either half of *sc (the rule of the
 * merge, approx_merge.c: widen) or *sc less match * p: an array is one locus at
 * its smallest period.  A motif of m copies made of a few copies of the array
 * scores its own first copy in full and the others at the identity of two
 * copies, so the multiple outscores the period over the same stretch by up to
 * that first copy.  0, or -1 with a message. */
static int fold_motif(const ctx_t *x, thread_t *t, const piece_t *pc, uint8_t *M, uint64_t *p, uint64_t e0,
                      uint64_t *a, uint64_t *b, int64_t *sc)
{
    const uint8_t *txt = x->s->text;
    rv_approx_opts_t light = *x->o;
    light.mismatch = light.indel = APX_LIGHT;
    for (uint64_t m = 2; m <= 3 && *p >= 2 * m; m++) {
        const uint64_t q = (*p + m / 2) / m;
        uint64_t pcn, na = 0, nb = 0;
        if (4 * apx_score_only(&t->w, M + q, *p - q, M, q, 0, &light) < (int64_t)(*p - q)) continue;
        /* the consensus of the copies aligned to M[0, q), then to each
         * consensus while that scores more over the first APX_FOLD_COPIES
         * copies at most (enough for a consensus: a long array costs O(q) a
         * symbol once, in the extension of the best) */
        const uint8_t *from = M;
        const uint64_t win = APX_FOLD_COPIES * q, cw = *b - *a < win ? *b : e0 > *a + win ? e0 : *a + win;
        uint64_t pf = q;
        int64_t u = INT64_MIN;
        for (int step = 0; step < 3; step++) {
            if (apx_consensus(&t->w, txt + *a, cw - *a, from, pf, x->s->sigma, x->o->max_period, x->o, t->C,
                              &pcn) < 0 ||
                apx_reserve(&t->w, pcn) < 0)
                return -1;
            if (step && pcn == pf && !memcmp(t->C, from, pf)) break;
            const int64_t s = apx_score_only(&t->w, txt + *a, cw - *a, t->C, pcn, 0, x->o);
            if (s <= u) break;
            memcpy(t->R2, t->C, pcn);
            u = s, pf = pcn, from = t->R2;
        }
        const int64_t v = extend_both(t, txt, pc, t->R2, pf, *a, e0 > *a ? e0 : *a + 1, x->o, UINT64_MAX / 2, &na, &nb);
        /* a multiple read from the text scores its own first copy in full */
        if (v < x->o->min_score || (2 * v < *sc && v < *sc - x->o->match * (int64_t)*p)) continue;
        memcpy(M, t->R2, pf);
        *p = pf, *a = na, *b = nb, *sc = v;
        return 0;
    }
    return 0;
}

/* M[0, p) over text[*a, *b), an alignment scoring *sc: widened over [la, lb)
 * too, the stretch the light extension read as the array, when M at its phase
 * there still scores min_score and half of *sc over the union.  An extension
 * with the true weights ends where the copies stop scoring on the whole, and
 * the last copies of an array of low identity, or the partial last copy of an
 * array of two, score about zero against a consensus of a few copies: the locus
 * would hold only part of the array.  1 when widened (M rotated to phase 0 at
 * the new start), else 0. */
static int widen_span(const ctx_t *x, thread_t *t, uint8_t *M, uint64_t p, uint64_t la, uint64_t lb, uint64_t *a,
                      uint64_t *b, int64_t *sc)
{
    const uint8_t *txt = x->s->text;
    const uint64_t na = la < *a ? la : *a, nb = lb > *b ? lb : *b;
    if (na == *a && nb == *b) return 0;
    uint64_t fa = 0;
    if (na < *a) { /* the phase at na: M aligned back from *a */
        apx_end_t back;
        for (uint64_t c = 0; c < p; c++) t->R[c] = M[p - 1 - c];
        apx_extend(&t->w, txt, *a, *a - na, -1, t->R, p, 0, *a - na, x->o, &back);
        fa = (p - back.phase) % p;
    }
    for (uint64_t c = 0; c < p; c++) t->R[c] = M[(fa + c) % p];
    const int64_t v = apx_score_only(&t->w, txt + na, nb - na, t->R, p, 0, x->o);
    if (v < x->o->min_score || 2 * v < *sc) return 0;
    memcpy(M, t->R, p);
    *a = na, *b = nb, *sc = v;
    return 1;
}

/* *loc (motif in t->M, *plen symbols) when it holds fewer than two copies: the
 * motif then is mostly the first copy, and the best end of its alignment comes
 * where the second copy first drifts from it, short of the array's end (two
 * copies match each other at about q^2, the consensus at q).  Read as the motif,
 * the second copy scores the array's end as the first scores its start: its
 * alignment over the locus and on takes the locus over when it reaches further
 * and passes accept.  0, or -1 with a message. */
static int second_copy(const ctx_t *x, thread_t *t, const piece_t *pc, rv_approx_t *loc, uint64_t *plen)
{
    const uint8_t *txt = x->s->text;
    const uint64_t p = *plen, a = loc->start, b = loc->end;
    if (b - a >= 2 * p || a + 2 * p > pc->sh) return 0;
    uint8_t *M2 = t->F;
    memcpy(M2, txt + a + p, p);
    uint64_t na, nb, q;
    const int64_t v = extend_both(t, txt, pc, M2, p, a, b, x->o, UINT64_MAX / 2, &na, &nb);
    if (nb - na <= b - a || v < x->o->min_score) return 0;
    rv_approx_t alt;
    int got = 0;
    if (accept(x, t, M2, p, na, nb, v, &alt, &q, &got) < 0) return -1;
    if (!got) return 0;
    memcpy(t->M, M2, q);
    *loc = alt, *plen = q;
    return 0;
}

/* M[0, *p) over text[*a, *b), an alignment scoring *sc just short of min_score:
 * the motif with the single edit (a symbol changed, added or dropped) that raises
 * the score of the stretch most, while one does, APX_POLISH_ROUNDS at most, then
 * extended again over the stretch.  The majority of two or three copies (the
 * consensus) is often a tie that the first copy breaks, and a motif read from the
 * text is one of the copies: neither need be the motif the copies score best
 * against.  Only for short motifs (p <= APX_POLISH_MAX: about 2 sigma p edits,
 * each scored over the stretch) over two copies or more, so that an edit shows in
 * two copies (the part of a copy past the others is fitted by edits of its own).
 * 1 when the edited motif scores more (M, *p, *a, *b, *sc replaced), 0 when not,
 * -1 with a message. */
static int polish_motif(const ctx_t *x, thread_t *t, const piece_t *pc, uint8_t *M, uint64_t *p, uint64_t *a,
                        uint64_t *b, int64_t *sc)
{
    const rv_approx_opts_t *o = x->o;
    const uint8_t *txt = x->s->text;
    const uint64_t len = *b - *a;
    /* a stretch that cannot score min_score, or already scores all it can, gains nothing */
    if (*p > APX_POLISH_MAX || *sc >= o->min_score || 4 * *sc < 3 * o->min_score || len < 2 * *p ||
        o->match * (int64_t)len < o->min_score || *sc == o->match * (int64_t)len)
        return 0;
    if (apx_reserve(&t->w, *p + APX_POLISH_ROUNDS) < 0) return -1;
    uint8_t *E = t->R2, *P = t->C;
    uint64_t q = *p;
    memcpy(P, M, q);
    int64_t cur = apx_score_only(&t->w, txt + *a, len, P, q, 1, o);
    for (int round = 0; round < APX_POLISH_ROUNDS && cur < o->min_score; round++) {
        int64_t top = cur;
        uint64_t ti = 0, tq = 0;
        int tc = 0, tk = -1; /* the best edit: kind 0 change, 1 add, 2 drop at ti, symbol tc */
        for (uint64_t i = 0; i <= q; i++)
            for (int kind = 0; kind < 3; kind++)
                for (int c = 1; c <= (kind == 2 ? 1 : x->s->sigma); c++) {
                    uint64_t m;
                    if (kind == 0) {
                        if (i == q || P[i] == c) continue;
                        memcpy(E, P, q), E[i] = (uint8_t)c, m = q;
                    } else if (kind == 1) {
                        memcpy(E, P, i), E[i] = (uint8_t)c, memcpy(E + i + 1, P + i, q - i), m = q + 1;
                    } else {
                        if (i == q || q == 1) continue;
                        memcpy(E, P, i), memcpy(E + i, P + i + 1, q - i - 1), m = q - 1;
                    }
                    const int64_t v = apx_score_only(&t->w, txt + *a, len, E, m, 1, o);
                    if (v > top) top = v, ti = i, tc = c, tk = kind, tq = m;
                }
        if (tk < 0) break;
        if (tk == 0) P[ti] = (uint8_t)tc;
        else if (tk == 1) memmove(P + ti + 1, P + ti, q - ti), P[ti] = (uint8_t)tc;
        else memmove(P + ti, P + ti + 1, q - ti - 1);
        q = tq, cur = top;
    }
    if (q == *p && !memcmp(P, M, q)) return 0;
    uint64_t na, nb;
    memcpy(E, P, q);
    const int64_t v = extend_both(t, txt, pc, E, q, *a, *b, o, UINT64_MAX / 2, &na, &nb);
    if (v <= *sc) return 0;
    memcpy(M, E, q);
    *p = q, *a = na, *b = nb, *sc = v;
    return 1;
}

/* text[s0, e0) seeds period d: extend, refine, score; *got = 1 with *loc (motif
 * in t->M, *plen symbols) when it scores enough; *tried: where the first extension
 * ended.  0, or -1 with a message.
 *
 * The seed's copy is one mutated copy, and two copies that each match the
 * consensus at identity q match each other at about q^2 only (80% gives 64%,
 * where the weights 2, 7, 7 score below zero).  So the first extension uses the
 * lighter penalties of APX_LIGHT, under which such copies still score, and the
 * majority of the copies aligned there (consensus) is extended again with the
 * true weights, twice at most while the score grows.  Random text scores
 * near zero under the light weights, so that extension reads a few periods only.
 * When that fails, the seed's own copy extended with the true weights gets a last
 * try, unless the light extension scored too little for that to pass. */
static int grow_seed(const ctx_t *x, thread_t *t, const piece_t *pc, uint64_t s0, uint64_t e0, uint64_t d,
                     int near, rv_approx_t *loc, uint64_t *plen, int *got, uint64_t *tried)
{
    const uint8_t *txt = x->s->text;
    const rv_approx_opts_t *o = x->o;
    rv_approx_opts_t light = *o;
    light.mismatch = light.indel = APX_LIGHT;
    uint8_t *M = t->M;
    uint64_t p = d, a, b;
    *got = 0;
    if (apx_reserve(&t->w, d) < 0) return -1;
    memcpy(t->S, txt + s0, d);
    memcpy(M, t->S, d);
    int64_t sc = extend_both(t, txt, pc, M, p, s0, e0, &light, APX_LIGHT_REACH * d, &a, &b);
    const uint64_t la = a, lb = b;
    *tried = b;
    /* a 4-mer row's seed (near_hit) goes no further when its light stretch holds
     * fewer than APX_NEAR_COPIES tenths of copies: most such seeds are a short
     * word repeated, whose locus the default --min-copies would drop */
    if (near && 10 * (b - a) < APX_NEAR_COPIES * d) return 0;
    /* the copies past the seed's own: under the true weights they score less */
    const int64_t rest = sc - o->match * (int64_t)d;
    if (2 * rest < o->min_score) {
        if (4 * rest < o->min_score) return 0;
        goto own_copy;
    }
    int64_t best = INT64_MIN;
    for (int round = 0; round < 3; round++) {
        uint64_t pcn;
        /* the first APX_CONS_COPIES copies make the consensus: enough, and a long
         * array is then aligned in full once a round, in the extension */
        const uint64_t cb = b - a > APX_CONS_COPIES * p ? a + APX_CONS_COPIES * p : b;
        if (apx_consensus(&t->w, txt + a, cb - a, M, p, x->s->sigma, o->max_period, round ? o : &light, t->C,
                          &pcn) < 0 ||
            apx_reserve(&t->w, pcn) < 0)
            return -1;
        if (round && pcn == p && !memcmp(t->C, M, p)) break;
        /* the consensus extended over the seed: kept while it scores more */
        memcpy(t->R2, M, p);
        const uint64_t pa = a, pb = b, pp = p;
        memcpy(M, t->C, pcn), p = pcn;
        const int64_t v = extend_both(t, txt, pc, M, p, a, e0, o, UINT64_MAX / 2, &a, &b); /* a <= s0 */
        if (b > *tried) *tried = b;
        if (v <= best) {
            memcpy(M, t->R2, pp), p = pp, a = pa, b = pb;
            break;
        }
        best = v;
    }
    if (best > INT64_MIN) widen_span(x, t, M, p, la, lb, &a, &b, &best);
    /* the folded motif, else the motif as it was */
    const uint64_t up = p, ua = a, ub = b;
    const int64_t ubest = best;
    memcpy(t->F, M, p);
    if (best > INT64_MIN && fold_motif(x, t, pc, M, &p, e0, &a, &b, &best) < 0) return -1;
    if (p != up) widen_span(x, t, M, p, la, lb, &a, &b, &best);
    if (accept(x, t, M, p, a, b, best, loc, plen, got) < 0) return -1;
    if (!*got && p != up) {
        memcpy(M, t->F, up);
        if (accept(x, t, M, up, ua, ub, ubest, loc, plen, got) < 0) return -1;
    }
    if (*got) return second_copy(x, t, pc, loc, plen);
own_copy:
    memcpy(M, t->S, d);
    p = d;
    sc = extend_both(t, txt, pc, M, p, s0, e0, o, UINT64_MAX / 2, &a, &b);
    if (accept(x, t, M, p, a, b, sc, loc, plen, got) < 0) return -1;
    if (!*got && !near) {
        const int r = polish_motif(x, t, pc, M, &p, &a, &b, &sc);
        if (r < 0 || (r && accept(x, t, M, p, a, b, sc, loc, plen, got) < 0)) return -1;
    }
    return *got ? second_copy(x, t, pc, loc, plen) : 0;
}

/* The state of distance q, reset when the scan `stamp` first meets it. */
static inline void dist_fresh(thread_t *t, uint64_t q, uint64_t stamp)
{
    if (t->dstamp[q] != stamp) t->dstamp[q] = stamp, t->hcnt[q] = 0, t->hlast[q] = 0, t->cover[q] = 0, t->exact[q] = 0;
}

/* 1 when [s0, e0) lies in an active locus of a period compatible with d that
 * holds APX_FEW_COPIES tenths of copies or more (one of fewer may not hold as a
 * repeat, and the merge then drops it: apx_copies_hold), or compatible with half
 * or a third of its period when it holds APX_SUB_COPIES copies or more (a
 * satellite found at twice its monomer hits at three monomers all along, and
 * each try aligns thousands of symbols; in a short locus such a seed is how a
 * locus found at a multiple gets its own period); drops the active loci that
 * end before pos on the way. */
static int covered(thread_t *t, const apx_list_t *L, uint64_t pos, uint64_t s0, uint64_t e0, uint64_t d)
{
    uint64_t k = 0;
    int in = 0;
    for (uint64_t j = 0; j < t->n_active; j++) {
        const rv_approx_t *a = &L->v[t->active[j]];
        if (a->end <= pos) continue;
        t->active[k++] = t->active[j];
        if (a->start > s0 || e0 > a->end || 10 * (a->end - a->start) < APX_FEW_COPIES * a->period) continue;
        if (apx_compatible(a->period, d) ||
            (a->end - a->start >= APX_SUB_COPIES * a->period &&
             ((a->period >= 16 && apx_compatible(a->period / 2, d)) ||
              (a->period >= 24 && apx_compatible(a->period / 3, d)))))
            in = 1;
    }
    t->n_active = k;
    return in;
}

/* A locus of period P ending at end silences the hits of the distances in [dmin,
 * dmax] compatible with P (apx_compatible, and the band of hits around them) up to
 * its end: the first APX_MULTIPLES multiples of P (hits at a further multiple come
 * from copies that many apart, rare once the nearer copies have hit). */
static void silence(thread_t *t, uint64_t stamp, uint64_t P, uint64_t end, uint64_t dmin, uint64_t dmax)
{
    for (uint64_t m = dmin / P > 1 ? dmin / P : 1; m <= APX_MULTIPLES && m * P - P / 10 <= dmax; m++) {
        const uint64_t mp = m * P, tol = P / 10 + apx_band(mp + P / 10);
        for (uint64_t q = mp > tol + dmin ? mp - tol : dmin; q <= mp + tol && q <= dmax; q++) {
            dist_fresh(t, q, stamp);
            if (t->cover[q] < end) t->cover[q] = end;
        }
    }
}

/* Try the seed (seeds of distances in [dmin, dmax]; near: a 4-mer row's, near_hit);
 * a new locus joins L and the active ones, and silences its distances (silence). */
static int try_seed(const ctx_t *x, thread_t *t, const piece_t *pc, uint64_t stamp, apx_list_t *L, uint64_t pos,
                    uint64_t s0, uint64_t e0, uint64_t d, uint64_t dmin, uint64_t dmax, int near)
{
    if (covered(t, L, pos, s0, e0, d)) return 0;
    rv_approx_t loc;
    uint64_t plen;
    int got;
    uint64_t tried;
    if (grow_seed(x, t, pc, s0, e0, d, near, &loc, &plen, &got, &tried) < 0) return -1;
    /* no new try at this distance (and from 128 on its band) over the stretch just read and,
     * after a failure from period 128 on, APX_RETRY periods more (diverged arrays
     * such as satellites give hits all along, and a try costs ~ d^2) */
    const uint64_t until = tried + (!got && d >= 128 ? APX_RETRY * d : 0), off = d >= 128 ? apx_band(d) : 0;
    for (uint64_t q = d - off; q <= d + off && q <= dmax; q++) {
        dist_fresh(t, q, stamp);
        if (t->cover[q] < until) t->cover[q] = until;
    }
    if (!got) return 0;
    if (rv_grow((void **)&L->v, &L->cap, L->n + 1, sizeof *L->v) < 0 ||
        rv_grow((void **)&L->mot, &L->mcap, L->mn + plen, 1) < 0 ||
        rv_grow((void **)&t->active, &t->active_cap, t->n_active + 1, sizeof *t->active) < 0)
        return rv_oom("approximate loci", 2 * (L->n + 1) * sizeof *L->v + 2 * (L->mn + plen));
    loc.motif = L->mn;
    memcpy(L->mot + L->mn, t->M, plen);
    L->mn += plen;
    t->active[t->n_active++] = L->n;
    L->v[L->n++] = loc;
    silence(t, stamp, loc.period, loc.end > e0 ? loc.end : e0, dmin, dmax);
    return 0;
}

static int by_start(const void *p, const void *q)
{
    const rv_approx_t *a = p, *b = q;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* The runs seeds of the piece whose end the scan passed (all of them when done),
 * from *rs on. */
static int run_seeds(const ctx_t *x, thread_t *t, const piece_t *pc, uint64_t stamp, apx_list_t *L, uint64_t *rs,
                     uint64_t i, int done)
{
    while (*rs < x->n_seeds && x->seeds[*rs].start < pc->t1 && (x->seeds[*rs].end <= i || done)) {
        const rv_run_t *r = &x->seeds[(*rs)++];
        if (r->period > x->o->max_period || r->end > pc->sh ||
            (int64_t)(r->end - r->start) * x->o->match < x->o->min_score)
            continue;
        if (try_seed(x, t, pc, stamp, L, r->start, r->start, r->end, r->period, 1, x->dmax, 0) < 0) return -1;
    }
    return 0;
}

/* The exact run of period d through the hit of text[at - d, at - d + k) at at (or
 * through text[at] = text[at - d]), when it scores alone: a seed.  Every exact
 * run that scores min_score (length L >= 2d, match * L >= min_score) and holds d
 * + k symbols holds a k-mer that occurs one period back, and the others are met
 * symbol by symbol (scan).  That occurrence need not be the k-mer's last one (in
 * a run of period 9 that reads as period 4 with a symbol added, most k-mers recur
 * 4 or 5 back), so the scan tries every occurrence up to max_period back.  Each
 * run is met once (the distance remembers the run's end). */
static int exact_run(const ctx_t *x, thread_t *t, const piece_t *pc, uint64_t stamp, apx_list_t *L, uint64_t at,
                     uint64_t d, uint64_t dmin, uint64_t dmax)
{
    if (d > x->o->max_period) return 0;
    dist_fresh(t, d, stamp);
    if (at < t->exact[d]) return 0;
    const uint8_t *txt = x->s->text;
    uint64_t i = at - d, j = at;
    while (i > pc->sl && txt[i - 1] == txt[i - 1 + d]) i--;
    while (j < pc->sh && txt[j] == txt[j - d]) j++;
    /* [i, j) has period d; the hits inside it are at positions below j */
    t->exact[d] = j;
    if (j - i < 2 * d || (int64_t)(j - i) * x->o->match < x->o->min_score) return 0;
    return try_seed(x, t, pc, stamp, L, at, i, j, d, dmin, dmax, 0);
}

/* Bit 32 - d of the result, for 1 <= d <= 32: txt[i] == txt[i - d] (i >= 32). */
static inline uint64_t near_equal(const uint8_t *txt, uint64_t i)
{
#ifdef __SSE2__
    const __m128i a = _mm_set1_epi8((char)txt[i]);
    const unsigned lo = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(txt + i - 32)), a)),
                   hi = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(txt + i - 16)), a));
    return lo | (uint64_t)hi << 16;
#else
    uint64_t e = 0;
    for (uint64_t j = 0; j < 32; j++) e |= (uint64_t)(txt[i - 32 + j] == txt[i]) << j;
    return e;
#endif
}

/* A 4-mer at at equal to the one d back (APX_NEAR_MIN <= d <= APX_NEAR_MAX): a hit
 * of the distance's 4-mer row.  Two diverged copies of a short motif may share no
 * 6-mer three times (two copies of 18 symbols at 85% share one), but 4-mers they
 * share; APX_HITS of them in a row, each within APX_GAP + d / 4 of the last, make a
 * seed when the symbols of a period from the row's first hit on (or of the row,
 * when longer) equal those d back at APX_NEAR_SAME % (4-mer rows are common by
 * chance: 1 in 256 a position and distance).  Its motif is not polished
 * (polish_motif): on human-like text a tenth of these seeds get that far, each
 * costing hundreds of alignments, and few of them then pass; nor is it grown
 * when its light extension spans too few copies (grow_seed). */
static int near_hit(const ctx_t *x, thread_t *t, const piece_t *pc, uint64_t stamp, apx_list_t *L, uint64_t at,
                    uint64_t d, uint64_t dmin, uint64_t dmax)
{
    if (t->nstamp[d] != stamp) t->nstamp[d] = stamp, t->ncnt[d] = 0;
    dist_fresh(t, d, stamp);
    if (at < t->cover[d]) return 0;
    if (t->ncnt[d] == 0 || at - t->nlast[d] > APX_GAP + d / 4) t->ncnt[d] = 0;
    if (!t->ncnt[d]) t->nfirst[d] = at;
    t->nlast[d] = at;
    if (++t->ncnt[d] < APX_HITS || at < pc->t0 || at >= pc->t1) return 0; /* seeds of the piece only */
    const uint8_t *txt = x->s->text;
    /* a period from the row's first hit on (the copy that hit), or the row's last
     * two periods when it is longer: a row that fails goes on, and each of its
     * hits reads this again */
    const uint64_t end = at + APX_NEAR_K, lo = end - t->nfirst[d] > 2 * d ? end - 2 * d : t->nfirst[d],
                   want = end - lo > d ? end - lo : d, hi = pc->sh - lo < want ? pc->sh : lo + want;
    uint64_t same = 0;
    for (uint64_t j = lo; j < hi; j++) same += txt[j] == txt[j - d];
    if (same * 100 < APX_NEAR_SAME * (hi - lo)) return 0;
    /* a stretch that reads as well at a period of half d or less (low complexity:
     * (AAGA)n reads at 17 too) is left to that period's seeds */
    for (uint64_t q = 1; 2 * q <= d; q++) {
        uint64_t sq = 0;
        for (uint64_t j = lo; j < hi; j++) sq += txt[j] == txt[j - q];
        if (sq >= same) return 0;
    }
    t->ncnt[d] = 0; /* a row that fails the tests goes on: its next hit sees more of the copy */
    return try_seed(x, t, pc, stamp, L, at, at - d, at + APX_NEAR_K, d, dmin, dmax, 1);
}

/* One scan of the piece's k-mers (table tab), for the seeds of distances in
 * [dmin, dmax]; with_runs: the exact runs' seeds too. */
static int scan(const ctx_t *x, thread_t *t, uint64_t id, const kmer_table_t *tab, uint64_t dmin, uint64_t dmax,
                int with_runs)
{
    const piece_t *pc = &x->pieces[id];
    const uint8_t *txt = x->s->text;
    const uint64_t k = tab->k, need = APX_HITS, per = k == (uint64_t)x->k ? 32 : 256;
    /* the distances' state starts afresh in each scan: a locus found in an earlier
     * one silences its distances up to its end, and this scan starts before it */
    const uint64_t stamp = 2 * id + 1 + (dmin > 1);
    apx_list_t *L = &x->out[id];
    if (rv_grow((void **)&t->active, &t->active_cap, L->n + 1, sizeof *t->active) < 0)
        return rv_oom("approximate loci", 2 * (L->n + 1) * sizeof *t->active);
    /* the loci of an earlier scan: active, and silencing their distances from
     * their start on, as though found in this scan */
    const uint64_t n0 = L->n;
    uint64_t next = 0;
    if (n0) qsort(L->v, n0, sizeof *L->v, by_start);
    t->n_active = 0;
    for (uint64_t j = 0; j < n0; j++) t->active[t->n_active++] = j;
    uint64_t r0 = 0, r1 = with_runs ? x->n_seeds : 0;
    while (r0 < r1) { /* first run with start >= t0 */
        const uint64_t m = r0 + (r1 - r0) / 2;
        if (x->seeds[m].start < pc->t0) r0 = m + 1;
        else r1 = m;
    }
    uint64_t rs = with_runs ? r0 : x->n_seeds;
    const uint64_t from = pc->t0 - pc->sl > dmax + k ? pc->t0 - dmax - k : pc->sl;
    uint64_t h = 0, pw = 1;
    for (uint64_t j = 0; j < k; j++) pw *= 257;
    /* periods below k whose shortest run that scores (2d symbols, or min_score /
     * match) may hold no k-mer one period back: their runs are met symbol by
     * symbol (none at the default weights and min_score) */
    const uint64_t by_score = x->o->min_score > 0 ? (uint64_t)((x->o->min_score + x->o->match - 1) / x->o->match) : 0;
    uint64_t small_hi = 0, near[4] = {0, 0, 0, 0}, near_bits = 0;
    if (x->s->sigma <= 4) /* short distances seeded by 4-mers too (DNA; near_hit) */
        for (uint64_t d = APX_NEAR_MIN > dmin ? APX_NEAR_MIN : dmin; d <= APX_NEAR_MAX && d <= dmax; d++)
            near_bits |= 1ull << (APX_NEAR_MAX - d);
    for (uint64_t d = dmin; d < k && d <= dmax; d++)
        if ((2 * d > by_score ? 2 * d : by_score) < d + k) small_hi = d;
    /* the k-mers that start in [from, t1) */
    const uint64_t stop = pc->t1 + k - 1 < pc->sh ? pc->t1 + k - 1 : pc->sh;
    for (uint64_t i = from;; i++) {
        const int done = i >= stop;
        if (run_seeds(x, t, pc, stamp, L, &rs, i, done) < 0) return -1;
        if (done) break;
        for (uint64_t d = dmin; d <= small_hi && i >= pc->t0 && i < pc->t1 && i >= pc->sl + d; d++)
            if (txt[i] == txt[i - d] && exact_run(x, t, pc, stamp, L, i, d, dmin, dmax) < 0) return -1;
        if (near_bits && i >= APX_NEAR_MAX && i >= pc->sl + APX_NEAR_MIN) {
            /* the 4-mers ending at i equal to one d back: bit 32 - d of four masks */
            uint64_t e = near_equal(txt, i);
            if (i - pc->sl < APX_NEAR_MAX) e &= ~0ull << (APX_NEAR_MAX - (i - pc->sl)); /* d <= i - sl */
            near[3] = near[2], near[2] = near[1], near[1] = near[0], near[0] = e;
            for (uint64_t w = near[0] & near[1] & near[2] & near[3] & near_bits; w; w &= w - 1) {
                const uint64_t d = APX_NEAR_MAX - (uint64_t)__builtin_ctzll(w);
                if (near_hit(x, t, pc, stamp, L, i + 1 - APX_NEAR_K, d, dmin, dmax) < 0) return -1;
            }
        }
        h = h * 257 + txt[i];
        if (i >= from + k) h -= pw * txt[i - k];
        if (i + 1 < from + k) continue;
        for (; next < n0 && L->v[next].start <= i; next++) silence(t, stamp, L->v[next].period, L->v[next].end, dmin, dmax);
        const uint64_t at = i + 1 - k, slot = (h * 0x9E3779B97F4A7C15ull) >> (64 - tab->bits); /* text[at, at+k) */
        uint64_t prev = tab->stamp[slot] == stamp ? tab->pos[slot] : UINT64_MAX;
        tab->stamp[slot] = stamp, tab->pos[slot] = at;
        t->chain[at - from] = prev;
        /* the exact runs through an earlier occurrence than the last, up to
         * max_period back (the last one is read below) */
        if (at >= pc->t0 && prev != UINT64_MAX)
            for (uint64_t q = t->chain[prev - from]; q != UINT64_MAX && at - q <= x->o->max_period && at - q <= dmax;
                 q = t->chain[q - from])
                if (!memcmp(txt + q, txt + at, k) && exact_run(x, t, pc, stamp, L, at, at - q, dmin, dmax) < 0)
                    return -1;
        for (int c = 0; c < APX_CHAIN && prev != UINT64_MAX && at - prev <= (c ? APX_CHAIN_REACH : dmax);
             c++, prev = t->chain[prev - from]) {
            if (memcmp(txt + prev, txt + at, k)) continue; /* another k-mer of the slot */
            const uint64_t d0 = at - prev;
            if (c == 0 && at >= pc->t0 && exact_run(x, t, pc, stamp, L, at, d0, dmin, dmax) < 0) return -1;
            /* a hit at distance d counts for the band of distances around d too: the
             * indels of two diverged copies move the distance of their hits */
            const uint64_t b = apx_band(d0), dlo = d0 - b > dmin ? d0 - b : dmin,
                           dhi = d0 + b < dmax ? d0 + b : dmax;
            for (uint64_t d = dlo; d <= dhi; d++) {
                dist_fresh(t, d, stamp);
                if (at < t->cover[d]) continue;
                if (t->hcnt[d] && t->hlast[d] == at) continue; /* this position counted for d */
                if (t->hcnt[d] == 0 || at - t->hlast[d] > APX_GAP + d / 4) t->hcnt[d] = 0;
                if (c && !t->hcnt[d]) continue; /* an earlier occurrence fills a row, starts none */
                t->hlast[d] = at;
                if (++t->hcnt[d] < need + d / per + apx_band(d) / 2 || at < pc->t0) continue; /* seeds of the piece only */
                t->hcnt[d] = 0;
                /* a true hit's k-mer at - d lies in the array: text[at - d, at) a copy */
                if (try_seed(x, t, pc, stamp, L, at, at - d >= pc->sl ? at - d : pc->sl, at + k, d, dmin, dmax, 0) < 0)
                    return -1;
            }
        }
    }
    return 0;
}

/* 1 when short k-mers seed every distance: the longest is at most a quarter past
 * APX_LONG_FROM (the default largest period, 500, reaches 551 for the insertions
 * of its copies), where a second scan of the piece would cost more than the
 * chance hits of short k-mers lose. */
static int short_only(const ctx_t *x) { return x->dmax < APX_LONG_FROM + APX_LONG_FROM / 4; }

/* The piece's loci: short k-mers for the distances below APX_LONG_FROM, then long
 * ones for the others (a short k-mer recurs by chance within a long distance, so
 * its last occurrence rarely is the copy's; a long one needs more identity, which
 * long copies give in numbers). */
static int do_piece(const ctx_t *x, thread_t *t, uint64_t id)
{
    const uint64_t split = short_only(x) ? x->dmax : APX_LONG_FROM - 1;
    if (scan(x, t, id, &t->tab[0], 1, split, 1) < 0) return -1;
    return x->dmax > split ? scan(x, t, id, &t->tab[1], split + 1, x->dmax, 0) : 0;
}

static void run_pieces(void *ud, uint64_t lo, uint64_t hi, int ti)
{
    ctx_t *x = ud;
    for (uint64_t id = lo; id < hi && !x->failed; id++)
        if (do_piece(x, &x->th[ti], id) < 0 && atomic_exchange(&x->failed, 1) == 0) /* the first message */
            snprintf(x->why, sizeof x->why, "%s", rv_last_error());
}

/* ---- pieces, threads and the merge ------------------------------------------ */

static int table_init(kmer_table_t *tab, uint64_t k, uint64_t dmax)
{
    int bits = 16; /* a slot per 8 positions of the longest distance: few k-mers lost to others */
    while (bits < 24 && (1ull << bits) < 8 * dmax) bits++;
    *tab = (kmer_table_t){calloc(2ull << bits, sizeof *tab->pos), NULL, k, bits};
    if (!tab->pos) return rv_oom("approximate search's k-mer table", (2ull << bits) * sizeof *tab->pos);
    tab->stamp = tab->pos + (1ull << bits);
    return 0;
}

static int thread_init(thread_t *t, const ctx_t *x)
{
    const uint64_t D = x->dmax + 1;
    *t = (thread_t){0};
    const uint64_t span = x->longest + D + 2 * (uint64_t)x->k_long; /* k-mers a scan reads */
    t->hlast = calloc(5 * D, sizeof *t->hlast);
    t->M = malloc(6 * D);
    t->chain = malloc(span * sizeof *t->chain);
    if (!t->hlast || !t->M || !t->chain)
        return rv_oom("approximate search's distances", (5 * D + span) * sizeof *t->hlast + 6 * D);
    t->hcnt = t->hlast + D, t->cover = t->hcnt + D, t->exact = t->cover + D, t->dstamp = t->exact + D;
    t->R = t->M + D, t->C = t->R + D, t->S = t->C + D, t->R2 = t->S + D, t->F = t->R2 + D;
    if (table_init(&t->tab[0], (uint64_t)x->k, APX_LONG_FROM) < 0) return -1;
    return short_only(x) ? 0 : table_init(&t->tab[1], (uint64_t)x->k_long, x->dmax);
}

static void thread_free(thread_t *t)
{
    apx_work_free(&t->w);
    free(t->hlast), free(t->M), free(t->active), free(t->chain), free(t->tab[0].pos), free(t->tab[1].pos);
}

/* the pieces of the segments overlapping [lo, hi), 2 max_period around it */
static piece_t *cut_pieces(const rv_seq_t *s, uint64_t lo, uint64_t hi, uint64_t maxp, uint64_t piece_len,
                           uint64_t *n)
{
    piece_t *v = NULL;
    uint64_t cap = 0;
    *n = 0;
    const uint64_t margin = 2 * maxp + 2, a = lo > margin ? lo - margin : 0, b = hi + margin;
    const uint64_t beyond = APX_BEYOND > APX_BEYOND_PERIODS * maxp ? APX_BEYOND : APX_BEYOND_PERIODS * maxp;
    for (uint64_t g = a < s->n ? rv_seq_segment_of_text(s, a) : s->n_seg; g < s->n_seg; g++) {
        const uint64_t sl = s->seg[g].tpos, sh = sl + s->seg[g].len;
        if (sl >= b) break;
        const uint64_t from = sl > a ? sl : a, to = sh < b ? sh : b;
        for (uint64_t t0 = from; t0 < to; t0 += piece_len) {
            if (rv_grow((void **)&v, &cap, *n + 1, sizeof *v) < 0) {
                free(v);
                rv_oom("approximate search's pieces", 2 * (*n + 1) * sizeof *v);
                return NULL;
            }
            const uint64_t t1 = to - t0 > piece_len ? t0 + piece_len : to;
            v[(*n)++] = (piece_t){t0, t1, sl, sh, t0 - sl > beyond ? t0 - beyond : sl, sh - t1 > beyond ? t1 + beyond : sh};
        }
    }
    return v;
}

int apx_find(const rv_seq_t *s, uint64_t lo, uint64_t hi, const rv_run_t *seeds, uint64_t n_seeds,
             const rv_approx_opts_t *o, int threads, uint64_t piece_len, rv_approx_set_t *res)
{
    *res = (rv_approx_set_t){0};
    if (o->max_period < 1 || o->max_period > (1u << 24)) return rv_error("approx", "max period out of range");
    if (threads <= 0) threads = rv_default_threads();
    uint64_t n_pieces;
    if (!piece_len) { /* from the text alone, so the loci do not depend on the threads */
        const uint64_t span = (hi < s->n ? hi : s->n) > lo ? (hi < s->n ? hi : s->n) - lo : 0;
        piece_len = span / 16 < APX_PIECE_MIN ? APX_PIECE_MIN : span / 16 > APX_PIECE ? APX_PIECE : span / 16;
    }
    piece_t *pieces = cut_pieces(s, lo, hi, o->max_period, piece_len, &n_pieces);
    if (!pieces && n_pieces) return -1;
    if ((uint64_t)threads > n_pieces) threads = n_pieces ? (int)n_pieces : 1;
    int k = 2, kl; /* k-mers of about 4^6 kinds (6 for DNA, 3 for protein), and of 2^20 */
    for (uint64_t kinds = (uint64_t)s->sigma * s->sigma; kinds < 4096 && k < 8; kinds *= (uint64_t)s->sigma) k++;
    if (k < 3) k = 3;
    /* long k-mers: 16 kinds or more per position of the longest distance (a
     * copy's k-mer is then the last occurrence in ~94% of cases) and 2^20 at
     * most (a long k-mer hits less often where two copies differ) */
    kl = 2;
    const uint64_t want = 64 * apx_max_distance(o) < (1u << 20) ? 64 * apx_max_distance(o) : (1u << 20);
    for (uint64_t kinds = (uint64_t)s->sigma * s->sigma; kinds < want && kl < 20; kinds *= (uint64_t)s->sigma) kl++;
    if (kl <= k) kl = k + 1;
    uint64_t longest = 0; /* symbols of the longest piece: a thread's chain covers its scan */
    for (uint64_t j = 0; j < n_pieces; j++)
        if (pieces[j].t1 - pieces[j].t0 > longest) longest = pieces[j].t1 - pieces[j].t0;
    ctx_t x = {s, o, apx_max_distance(o), seeds, n_seeds, pieces, longest,
               calloc(n_pieces ? n_pieces : 1, sizeof(apx_list_t)),
               calloc((size_t)threads, sizeof(thread_t)), k, kl, 0, ""};
    int rc = x.out && x.th ? 0
           : rv_oom("approximate search's pieces", (n_pieces ? n_pieces : 1) * sizeof(apx_list_t) +
                                                     (uint64_t)threads * sizeof(thread_t));
    for (int t = 0; rc == 0 && t < threads; t++) rc = thread_init(&x.th[t], &x);
    if (rc == 0) {
        rv_parallel_dynamic(threads, n_pieces, 1, run_pieces, &x);
        rc = x.failed ? rv_error(NULL, "%s", x.why) : apx_merge(s, o, x.out, n_pieces, lo, hi, threads, res);
    }
    for (int t = 0; x.th && t < threads; t++) thread_free(&x.th[t]);
    for (uint64_t j = 0; x.out && j < n_pieces; j++) free(x.out[j].v), free(x.out[j].mot);
    free(x.th), free(x.out), free(pieces);
    return rc;
}

int rv_approx_find(const rv_seq_t *s, uint64_t lo, uint64_t hi, const rv_run_t *seeds, uint64_t n_seeds,
                   const rv_approx_opts_t *o, int threads, rv_approx_set_t *out)
{
    return apx_find(s, lo, hi, seeds, n_seeds, o, threads, 0, out);
}
