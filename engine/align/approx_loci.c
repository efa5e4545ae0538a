/* approx_loci.c — approximate tandem repeats (approx.h): seeds, extension, consensus,
 * and the merge of the loci of every piece of the text.
 *
 * The text is cut into pieces (a segment, or a part of a long one); a thread takes
 * pieces in order.  In a piece it reads the k-mers left to right, each looked up
 * in a table of last occurrences: an equal k-mer d <= 1.1 max_period back is a hit
 * at distance d (and d - 1 and d + 1: indels).  APX_HITS + d/32 hits at the same distance, each within APX_GAP + d/4
 * of the previous one, make a seed of period d (a repeat of period d with identity q
 * gives a hit at about a fraction q^k of its positions; chance ones rarely come
 * in a row).  The exact runs that start in the piece are seeds too.  A seed
 * contained in a locus already found with a compatible period is skipped, and so
 * are hits at distances compatible with a locus before its end.  The pieces'
 * loci are then merged: one contained in another of compatible period goes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/approx.h"
#include "repview/common.h"
#include "approx_internal.h"
#include "base/internal.h"

enum {
    APX_HASH_BITS = 16,
    APX_HITS = 3,       /* hits in a row at one distance d that make a seed, + d / 32 */
    APX_GAP = 24,       /* the most symbols between two of them, + d / 4 */
    APX_RETRY = 8,      /* periods after a failed try before the next at that distance */
    APX_PIECE = 1 << 20 /* symbols in a piece */
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

/* ---- one piece ---------------------------------------------------------------- */

typedef struct { uint64_t t0, t1, sl, sh; } piece_t; /* [t0, t1) in segment [sl, sh) */

typedef struct { /* the loci of one piece, their motifs one after the other */
    rv_approx_t *v;
    uint64_t n, cap;
    uint8_t *mot;
    uint64_t mn, mcap;
} list_t;

typedef struct { /* a thread's state, kept from piece to piece (stamped by piece) */
    apx_work_t w;
    uint64_t *kpos, *kstamp;                      /* k-mer table: last position, piece */
    uint64_t *hfirst, *hlast, *hcnt, *cover, *dstamp; /* per distance */
    uint8_t *M, *R, *C, *S;                       /* motif scratch */
    uint64_t *active, n_active, active_cap;       /* loci of the piece not yet ended */
} thread_t;

typedef struct {
    const rv_seq_t *s;
    const rv_approx_opts_t *o;
    uint64_t dmax; /* the largest seed distance */
    const rv_run_t *seeds;
    uint64_t n_seeds;
    const piece_t *pieces;
    list_t *out;
    thread_t *th;
    int k;
    _Atomic int failed;
} ctx_t;

/* Extend M[0, p) (phase 0 at s0) right from s0, then left from where that ended,
 * each over at least text[s0, e0): [*a, *b), and M rotated in place to phase 0 at
 * *a.  Returns the score of the left extension (an alignment of [*a, *b)). */
static int64_t extend_both(thread_t *t, const uint8_t *txt, const piece_t *pc, uint8_t *M, uint64_t p, uint64_t s0,
                           uint64_t e0, const rv_approx_opts_t *o, uint64_t *a, uint64_t *b)
{
    apx_end_t r, l;
    apx_extend(&t->w, txt, s0, pc->sh - s0, 1, M, p, 0, e0 - s0, o, &r);
    const uint64_t end = s0 + r.len;
    for (uint64_t c = 0; c < p; c++) t->R[c] = M[p - 1 - c];
    apx_extend(&t->w, txt, end, end - pc->sl, -1, t->R, p, (p - r.phase) % p, end - s0, o, &l);
    const uint64_t fa = (p - l.phase) % p;
    for (uint64_t c = 0; c < p; c++) t->R[c] = M[(fa + c) % p];
    memcpy(M, t->R, p);
    *a = end - l.len, *b = end;
    return l.score;
}

/* M[0, p) over text[a, b), where an alignment scores sc: the locus when it passes
 * (*got = 1; M cut to its smallest period, *plen).  0, or -1 with a message. */
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
    if (4 * apx_score_only(&t->w, txt + a + p, b - a - p, M, p, 1, o) < o->min_score) return 0;
    rv_approx_cell_t best;
    if (apx_score(&t->w, txt + a, b - a, M, p, 0, o, &best) < 0) return -1;
    if (best.s < o->min_score) return 0;
    *loc = (rv_approx_t){a, b, p, best.s, best.m, best.x, best.g, 0};
    *plen = p;
    *got = 1;
    return 0;
}

/* text[s0, e0) seeds period d: extend, refine, score; *got = 1 with *loc (motif
 * in t->M, *plen symbols) when it scores enough; *tried: where the first extension
 * ended.  0, or -1 with a message. */
static int grow_seed(const ctx_t *x, thread_t *t, const piece_t *pc, uint64_t s0, uint64_t e0, uint64_t d,
                     rv_approx_t *loc, uint64_t *plen, int *got, uint64_t *tried)
{
    const uint8_t *txt = x->s->text;
    const rv_approx_opts_t *o = x->o;
    uint8_t *M = t->M;
    uint64_t p = d, a, b;
    *got = 0;
    if (apx_reserve(&t->w, d) < 0) return -1;
    memcpy(M, txt + s0, d);
    int64_t sc = extend_both(t, txt, pc, M, p, s0, e0, o, &a, &b);
    *tried = b;
    if (2 * sc < o->min_score) return 0;
    const uint64_t a0 = a, b0 = b;
    const int64_t sc0 = sc;
    memcpy(t->S, M, d);
    /* the seed's copy is one mutated copy: the majority of the copies aligned to
     * it, when that scores better, extended again (twice at most; the score only
     * grows, and so does [a, b)) */
    int changed = 0;
    for (int round = 0; round < 2; round++) {
        uint64_t pcn;
        if (apx_consensus(&t->w, txt + a, b - a, M, p, x->s->sigma, o->max_period, o, t->C, &pcn) < 0 ||
            apx_reserve(&t->w, pcn) < 0)
            return -1;
        if ((pcn == p && !memcmp(t->C, M, p)) || apx_score_only(&t->w, txt + a, b - a, t->C, pcn, 0, o) < sc) break;
        memcpy(M, t->C, pcn), p = pcn, changed = 1;
        sc = extend_both(t, txt, pc, M, p, a, b, o, &a, &b);
    }
    if (accept(x, t, M, p, a, b, sc, loc, plen, got) < 0) return -1;
    if (*got || !changed) return 0;
    memcpy(M, t->S, d); /* what the seed's own copy gave */
    return accept(x, t, M, d, a0, b0, sc0, loc, plen, got);
}

/* 1 when [s0, e0) lies in an active locus of a period compatible with d; drops the
 * active loci that end before pos on the way. */
static int covered(thread_t *t, const list_t *L, uint64_t pos, uint64_t s0, uint64_t e0, uint64_t d)
{
    uint64_t k = 0;
    int in = 0;
    for (uint64_t j = 0; j < t->n_active; j++) {
        const rv_approx_t *a = &L->v[t->active[j]];
        if (a->end <= pos) continue;
        t->active[k++] = t->active[j];
        if (a->start <= s0 && e0 <= a->end && apx_compatible(a->period, d)) in = 1;
    }
    t->n_active = k;
    return in;
}

/* Try the seed; a new locus joins L and the active ones, and silences the hits at
 * compatible distances up to its end. */
static int try_seed(const ctx_t *x, thread_t *t, const piece_t *pc, uint64_t stamp, list_t *L, uint64_t pos,
                    uint64_t s0, uint64_t e0, uint64_t d)
{
    if (covered(t, L, pos, s0, e0, d)) return 0;
    rv_approx_t loc;
    uint64_t plen;
    int got;
    uint64_t tried;
    if (grow_seed(x, t, pc, s0, e0, d, &loc, &plen, &got, &tried) < 0) return -1;
    if (!got) { /* no new try at this distance over the stretch just read
                 * and, from period 128 on, APX_RETRY periods more (diverged arrays
                 * such as satellites give hits all along, and a try costs ~ d^2) */
        const uint64_t until = tried + (d >= 128 ? APX_RETRY * d : 0);
        const uint64_t off = d >= 128; /* there the distances one off too */
        for (uint64_t q = d - off; q <= d + off && q <= x->dmax; q++) {
            if (t->dstamp[q] != stamp) t->dstamp[q] = stamp, t->hcnt[q] = 0, t->hlast[q] = 0, t->cover[q] = 0;
            if (t->cover[q] < until) t->cover[q] = until;
        }
        return 0;
    }
    if (rv_grow((void **)&L->v, &L->cap, L->n + 1, sizeof *L->v) < 0 ||
        rv_grow((void **)&L->mot, &L->mcap, L->mn + plen, 1) < 0 ||
        rv_grow((void **)&t->active, &t->active_cap, t->n_active + 1, sizeof *t->active) < 0)
        return rv_error("approx", "out of memory");
    loc.motif = L->mn;
    memcpy(L->mot + L->mn, t->M, plen);
    L->mn += plen;
    t->active[t->n_active++] = L->n;
    L->v[L->n++] = loc;
    const uint64_t P = loc.period, tol = P / 10;
    for (uint64_t m = 1; m * P - (m * P > tol ? tol : m * P - 1) <= x->dmax; m++)
        for (uint64_t q = m * P > tol ? m * P - tol : 1; q <= m * P + tol && q <= x->dmax; q++) {
            if (t->dstamp[q] != stamp) t->dstamp[q] = stamp, t->hcnt[q] = 0, t->hlast[q] = 0, t->cover[q] = 0;
            if (t->cover[q] < loc.end) t->cover[q] = loc.end;
        }
    return 0;
}

static uint64_t kmer_slot(uint64_t h) { return (h * 0x9E3779B97F4A7C15ull) >> (64 - APX_HASH_BITS); }

static int do_piece(const ctx_t *x, thread_t *t, uint64_t id)
{
    const piece_t *pc = &x->pieces[id];
    const uint8_t *txt = x->s->text;
    const uint64_t maxp = x->dmax, k = (uint64_t)x->k, stamp = id + 1;
    list_t *L = &x->out[id];
    t->n_active = 0;
    /* the exact runs that start in the piece and score enough alone */
    uint64_t r0 = 0, r1 = x->n_seeds;
    while (r0 < r1) { /* first run with start >= t0 */
        const uint64_t m = r0 + (r1 - r0) / 2;
        if (x->seeds[m].start < pc->t0) r0 = m + 1;
        else r1 = m;
    }
    uint64_t rs = r0;
    const uint64_t from = pc->t0 - pc->sl > maxp + k ? pc->t0 - maxp - k : pc->sl;
    uint64_t h = 0, pw = 1;
    for (uint64_t j = 0; j < k; j++) pw *= 257;
    /* the k-mers that start in [from, t1) */
    const uint64_t stop = pc->t1 + k - 1 < pc->sh ? pc->t1 + k - 1 : pc->sh;
    for (uint64_t i = from;; i++) {
        const int done = i >= stop;
        /* run seeds whose end the scan passed (all of them at the end) */
        while (rs < x->n_seeds && x->seeds[rs].start < pc->t1 && (x->seeds[rs].end <= i || done)) {
            const rv_run_t *r = &x->seeds[rs++];
            if (r->period > x->o->max_period || r->end > pc->sh || (int64_t)(r->end - r->start) * x->o->match < x->o->min_score)
                continue;
            if (try_seed(x, t, pc, stamp, L, r->start, r->start, r->end, r->period) < 0) return -1;
        }
        if (done) break;
        h = h * 257 + txt[i];
        if (i >= from + k) h -= pw * txt[i - k];
        if (i + 1 < from + k) continue;
        const uint64_t at = i + 1 - k, slot = kmer_slot(h); /* the k-mer text[at, at+k) */
        const uint64_t prev = t->kstamp[slot] == stamp ? t->kpos[slot] : UINT64_MAX;
        t->kstamp[slot] = stamp, t->kpos[slot] = at;
        if (prev == UINT64_MAX || at - prev > maxp || memcmp(txt + prev, txt + at, k)) continue;
        /* a hit at distance d counts for d - 1 and d + 1 too (from 8 on): an
         * indel in a copy moves the distance by one */
        const uint64_t d0 = at - prev, dlo = d0 >= 8 ? d0 - 1 : d0, dhi = d0 >= 8 && d0 < maxp ? d0 + 1 : d0;
        for (uint64_t d = dlo; d <= dhi; d++) {
            if (t->dstamp[d] != stamp) t->dstamp[d] = stamp, t->hcnt[d] = 0, t->hlast[d] = 0, t->cover[d] = 0;
            if (at < t->cover[d]) continue;
            if (t->hcnt[d] == 0 || at - t->hlast[d] > APX_GAP + d / 4) t->hcnt[d] = 0, t->hfirst[d] = at;
            t->hlast[d] = at;
            if (++t->hcnt[d] < APX_HITS + d / 32 || at < pc->t0) continue; /* seeds of the piece only */
            t->hcnt[d] = 0;
            if (try_seed(x, t, pc, stamp, L, at, t->hfirst[d] >= pc->sl + d ? t->hfirst[d] - d : pc->sl, at + k, d) < 0)
                return -1;
        }
    }
    return 0;
}

static void run_pieces(void *ud, uint64_t lo, uint64_t hi, int ti)
{
    ctx_t *x = ud;
    for (uint64_t id = lo; id < hi && !x->failed; id++)
        if (do_piece(x, &x->th[ti], id) < 0) x->failed = 1;
}

/* ---- pieces, threads and the merge ------------------------------------------ */

static int thread_init(thread_t *t, uint64_t maxp)
{
    const uint64_t H = 1ull << APX_HASH_BITS, D = maxp + 1;
    *t = (thread_t){0};
    t->kpos = calloc(2 * H + 5 * D, sizeof *t->kpos);
    t->M = malloc(4 * D);
    if (!t->kpos || !t->M) return rv_oom("alignment's tables", (2 * H + 5 * D) * sizeof *t->kpos + 4 * D);
    t->kstamp = t->kpos + H, t->hfirst = t->kstamp + H, t->hlast = t->hfirst + D, t->hcnt = t->hlast + D;
    t->cover = t->hcnt + D, t->dstamp = t->cover + D;
    t->R = t->M + D, t->C = t->R + D, t->S = t->C + D;
    return 0;
}

static void thread_free(thread_t *t)
{
    apx_work_free(&t->w);
    free(t->kpos), free(t->M), free(t->active);
}

/* the pieces of the segments overlapping [lo, hi), 2 max_period around it */
static piece_t *cut_pieces(const rv_seq_t *s, uint64_t lo, uint64_t hi, uint64_t maxp, uint64_t piece_len,
                           uint64_t *n)
{
    piece_t *v = NULL;
    uint64_t cap = 0;
    *n = 0;
    const uint64_t margin = 2 * maxp + 2, a = lo > margin ? lo - margin : 0, b = hi + margin;
    for (uint64_t g = a < s->n ? rv_seq_segment_of_text(s, a) : s->n_seg; g < s->n_seg; g++) {
        const uint64_t sl = s->seg[g].tpos, sh = sl + s->seg[g].len;
        if (sl >= b) break;
        const uint64_t from = sl > a ? sl : a, to = sh < b ? sh : b;
        for (uint64_t t0 = from; t0 < to; t0 += piece_len) {
            if (rv_grow((void **)&v, &cap, *n + 1, sizeof *v) < 0) {
                free(v);
                rv_error("approx", "out of memory");
                return NULL;
            }
            v[(*n)++] = (piece_t){t0, to - t0 > piece_len ? t0 + piece_len : to, sl, sh};
        }
    }
    return v;
}

static int by_span(const void *p, const void *q) /* start up, end down, period up, score down */
{
    const rv_approx_t *a = p, *b = q;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    if (a->end != b->end) return a->end > b->end ? -1 : 1;
    if (a->period != b->period) return a->period < b->period ? -1 : 1;
    return a->score > b->score ? -1 : a->score < b->score;
}

static int by_start_period(const void *p, const void *q)
{
    const rv_approx_t *a = p, *b = q;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    if (a->period != b->period) return a->period < b->period ? -1 : 1;
    return a->end < b->end ? -1 : a->end > b->end;
}

/* the pieces' loci in one set: those contained in a kept one of compatible period
 * go, as do those that miss [lo, hi) */
static int merge(list_t *out, uint64_t n_pieces, uint64_t lo, uint64_t hi, rv_approx_set_t *res)
{
    uint64_t n = 0, mn = 0;
    for (uint64_t j = 0; j < n_pieces; j++) n += out[j].n, mn += out[j].mn;
    rv_approx_t *v = malloc((n ? n : 1) * sizeof *v);
    uint8_t *mot = malloc(mn ? mn : 1);
    uint64_t *act = malloc((n ? n : 1) * sizeof *act);
    if (!v || !mot || !act) {
        free(v), free(mot), free(act);
        return rv_error("approx", "out of memory");
    }
    n = mn = 0;
    for (uint64_t j = 0; j < n_pieces; j++) {
        for (uint64_t i = 0; i < out[j].n; i++) v[n] = out[j].v[i], v[n++].motif += mn;
        if (out[j].mn) memcpy(mot + mn, out[j].mot, out[j].mn);
        mn += out[j].mn;
    }
    qsort(v, n, sizeof *v, by_span);
    uint64_t kept = 0, n_act = 0;
    for (uint64_t i = 0; i < n; i++) {
        int inside = 0;
        uint64_t k = 0;
        for (uint64_t j = 0; j < n_act; j++) { /* the kept loci still open at v[i].start */
            const rv_approx_t *a = &v[act[j]];
            if (a->end <= v[i].start) continue;
            act[k++] = act[j];
            if (v[i].end <= a->end && apx_compatible(a->period, v[i].period)) inside = 1;
        }
        n_act = k;
        if (inside || v[i].end <= lo || v[i].start >= hi) continue;
        v[kept] = v[i];
        act[n_act++] = kept++;
    }
    free(act);
    qsort(v, kept, sizeof *v, by_start_period);
    *res = (rv_approx_set_t){v, kept, mot};
    return 0;
}

int apx_find(const rv_seq_t *s, uint64_t lo, uint64_t hi, const rv_run_t *seeds, uint64_t n_seeds,
             const rv_approx_opts_t *o, int threads, uint64_t piece_len, rv_approx_set_t *res)
{
    *res = (rv_approx_set_t){0};
    if (o->max_period < 1 || o->max_period > (1u << 24)) return rv_error("approx", "max period out of range");
    if (threads <= 0) threads = rv_default_threads();
    uint64_t n_pieces;
    piece_t *pieces = cut_pieces(s, lo, hi, o->max_period, piece_len ? piece_len : APX_PIECE, &n_pieces);
    if (!pieces && n_pieces) return -1;
    if ((uint64_t)threads > n_pieces) threads = n_pieces ? (int)n_pieces : 1;
    int k = 2; /* k-mers of about 4^6 kinds: 6 for DNA, 3 for protein */
    for (uint64_t kinds = (uint64_t)s->sigma * s->sigma; kinds < 4096 && k < 8; kinds *= (uint64_t)s->sigma) k++;
    if (k < 3) k = 3;
    ctx_t x = {s, o, apx_max_distance(o), seeds, n_seeds, pieces, calloc(n_pieces ? n_pieces : 1, sizeof(list_t)),
               calloc((size_t)threads, sizeof(thread_t)), k, 0};
    int rc = x.out && x.th ? 0 : rv_error("approx", "out of memory");
    for (int t = 0; rc == 0 && t < threads; t++) rc = thread_init(&x.th[t], x.dmax);
    if (rc == 0) {
        rv_parallel_dynamic(threads, n_pieces, 1, run_pieces, &x);
        rc = x.failed ? -1 : merge(x.out, n_pieces, lo, hi, res);
    }
    for (int t = 0; x.th && t < threads; t++) thread_free(&x.th[t]);
    for (uint64_t j = 0; x.out && j < n_pieces; j++) free(x.out[j].v), free(x.out[j].mot);
    free(x.th), free(x.out), free(pieces);
    return rc;
}

int rv_approx_find(const rv_seq_t *s, uint64_t lo, uint64_t hi, const rv_run_t *seeds, uint64_t n_seeds,
                   const rv_approx_opts_t *o, int threads, rv_approx_set_t *out)
{
    return apx_find(s, lo, hi, seeds, n_seeds, o, threads, APX_PIECE, out);
}
