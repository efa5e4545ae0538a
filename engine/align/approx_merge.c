/* approx_merge.c — the loci of every piece of the text in one set (approx.h):
 * duplicates counted once, of loci of compatible periods one per array at its
 * smallest period (mark_redundant), the pieces of one array joined and a
 * multiple taken over by its period (join_pieces), then each locus kept scored
 * exactly (score_exactly; the search keeps lower bounds). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/approx.h"
#include "repview/common.h"
#include "approx_internal.h"
#include "base/internal.h"

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


enum { APX_HOLDS, APX_WEAK, APX_RECHECK }; /* a locus under apx_copies_hold */

typedef struct { uint64_t period; int64_t score; uint64_t len, start, i; } rank_t;

static int by_rank(const void *p, const void *q) /* period up, score down, length down, start up */
{
    const rank_t *a = p, *b = q;
    if (a->period != b->period) return a->period < b->period ? -1 : 1;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    if (a->len != b->len) return a->len > b->len ? -1 : 1;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* 1 when a covers 90% of b */
static int covers(const rv_approx_t *a, const rv_approx_t *b)
{
    const uint64_t s = a->start > b->start ? a->start : b->start, e = a->end < b->end ? a->end : b->end;
    return e > s && 10 * (e - s) >= 9 * (b->end - b->start);
}

/* a, ranked before b, makes b redundant: their periods are compatible and a holds
 * b, or a covers 90% of b (its period no larger, as the ranks go: b then reads
 * a's array at a multiple of its period, a piece of it, or the same array found
 * from another seed or piece with another motif) */
static int dominates(const rv_approx_t *a, const rv_approx_t *b)
{
    if (!apx_compatible(a->period, b->period)) return 0;
    if (a->start <= b->start && b->end <= a->end) return 1;
    return a->period <= b->period && covers(a, b);
}

/* b, ranked after a, may take a over: about the same period (within a tenth),
 * b covers 90% of a (one array found with two motifs, a's the worse when
 * widening it over b failed) */
static int same_array(const rv_approx_t *a, const rv_approx_t *b)
{
    return 10 * (b->period - a->period) <= a->period && covers(b, a);
}

/* a, made to span b too (b mostly inside it): its motif rotated to the new start,
 * its alignment rescored (a lower bound: apx_score_only).  1 when that still scores
 * min_score and half of b's score, its copies after the first score a quarter of
 * min_score (apx_rest_scores) and it holds (apx_copies_hold; a changed; a
 * multiple that scores much more than its smaller period stays), 0 when not (a as
 * it was), -1 with a message. */
static int widen(const rv_seq_t *s, const rv_approx_opts_t *o, uint8_t *mot, apx_work_t *w, rv_approx_t *a,
                 const rv_approx_t *b)
{
    const uint64_t st = a->start < b->start ? a->start : b->start, en = a->end > b->end ? a->end : b->end;
    const uint64_t p = a->period, shift = (p - (a->start - st) % p) % p;
    uint8_t *M = mot + a->motif, *R = malloc(p);
    if (!R) return rv_oom("merge of approximate loci", p);
    for (uint64_t c = 0; c < p; c++) R[c] = M[(shift + c) % p];
    int rc = apx_reserve(w, p);
    const int64_t sc = rc < 0 ? 0 : apx_score_only(w, s->text + st, en - st, R, p, 0, o);
    int holds = 0;
    if (rc == 0 && sc >= o->min_score && 2 * sc >= b->score && apx_rest_scores(w, s->text + st, en - st, R, p, sc, o) &&
        apx_copies_hold(s->text + st, en - st, p, o, &holds) < 0)
        rc = -1;
    if (rc == 0 && holds) {
        memcpy(M, R, p);
        *a = (rv_approx_t){st, en, p, sc, 0, 0, 0, a->motif};
        rc = 1;
    }
    free(R);
    return rc;
}

/* v[0, n) sorted by span: dead[i] = 1 for each locus made redundant by a live one
 * ranked before it (taken in rank order, so a dead locus silences none, and
 * neither does a weak one, which the output drops: weak[i] is found when first
 * asked); one that
 * a smaller or the same period covers mostly goes when that locus, widened over
 * it, still scores enough, so every stretch a dead locus held stays in a live
 * one.  0, or -1
 * with a message. */
static int mark_redundant(const rv_seq_t *s, const rv_approx_opts_t *o, rv_approx_t *v, uint8_t *mot, uint64_t n,
                          uint8_t *dead, uint8_t *weak)
{
    rank_t *r = malloc((n ? n : 1) * sizeof *r);
    uint64_t *pos = malloc((n ? n : 1) * sizeof *pos), *act = malloc((n ? n : 1) * sizeof *act), n_act = 0;
    uint64_t (*edge)[2] = NULL, n_edge = 0, cap = 0;
    int rc = r && pos && act ? 0 : rv_oom("merge of approximate loci", (n ? n : 1) * (sizeof *r + 2 * sizeof *pos));
    for (uint64_t i = 0; rc == 0 && i < n; i++)
        r[i] = (rank_t){v[i].period, v[i].score, v[i].end - v[i].start, v[i].start, i};
    if (rc == 0) qsort(r, n, sizeof *r, by_rank);
    for (uint64_t k = 0; rc == 0 && k < n; k++) pos[r[k].i] = k;
    /* the overlapping pairs where one may make the other redundant, by a sweep */
    for (uint64_t i = 0; rc == 0 && i < n; i++) {
        uint64_t m = 0;
        for (uint64_t j = 0; j < n_act; j++) {
            const uint64_t a = act[j];
            if (v[a].end <= v[i].start) continue;
            act[m++] = a;
            const uint64_t hi = pos[a] < pos[i] ? a : i, lo = hi == a ? i : a;
            if (!dominates(&v[hi], &v[lo])) continue;
            if (weak[hi] == APX_RECHECK) { /* known when first asked: few loci dominate */
                int holds;
                if ((rc = apx_copies_hold(s->text + v[hi].start, v[hi].end - v[hi].start, v[hi].period, o, &holds)) < 0)
                    break;
                weak[hi] = holds ? APX_HOLDS : APX_WEAK;
            }
            if (weak[hi] == APX_WEAK) continue;
            if (rv_grow((void **)&edge, &cap, n_edge + 1, sizeof *edge) < 0) { rc = rv_oom("merge of approximate loci", 2 * (n_edge + 1) * sizeof *edge); break; }
            edge[n_edge][0] = pos[hi], edge[n_edge++][1] = lo;
        }
        n_act = m;
        act[n_act++] = i;
    }
    if (rc == 0) {
        /* edges by the rank of the dominating locus: a counting sort */
        uint64_t *start = calloc(n + 1, sizeof *start), *to = malloc((n_edge ? n_edge : 1) * sizeof *to);
        if (!start || !to) rc = rv_oom("merge of approximate loci", (n + 1 + n_edge) * sizeof *start);
        for (uint64_t e = 0; rc == 0 && e < n_edge; e++) start[edge[e][0] + 1]++;
        for (uint64_t k = 0; rc == 0 && k < n; k++) start[k + 1] += start[k];
        for (uint64_t e = 0; rc == 0 && e < n_edge; e++) to[start[edge[e][0]]++] = edge[e][1];
        for (uint64_t k = n; rc == 0 && k > 0; k--) start[k] = start[k - 1]; /* back to the starts */
        if (rc == 0) start[0] = 0;
        apx_work_t w = {0};
        for (uint64_t k = 0; rc == 0 && k < n; k++) {
            rv_approx_t *a = &v[r[k].i];
            for (uint64_t e = start[k]; rc == 0 && !dead[r[k].i] && e < start[k + 1]; e++) {
                rv_approx_t *b = &v[to[e]];
                if (dead[to[e]]) continue;
                if (a->start <= b->start && b->end <= a->end) dead[to[e]] = 1;
                else if (dominates(a, b) && (rc = widen(s, o, mot, &w, a, b)) == 1) dead[to[e]] = 1, rc = 0;
                else if (rc == 0 && same_array(a, b) && (rc = widen(s, o, mot, &w, b, a)) == 1)
                    dead[r[k].i] = 1, rc = 0; /* its other edges go with it */
            }
        }
        apx_work_free(&w);
        free(start), free(to);
    }
    free(r), free(pos), free(act), free(edge);
    return rc;
}

typedef struct { uint64_t start, i; } order_t;

static int by_order(const void *p, const void *q)
{
    const order_t *a = p, *b = q;
    return a->start != b->start ? (a->start < b->start ? -1 : 1) : (a->i < b->i ? -1 : a->i > b->i);
}

/* The motif of piece f (a or b, a first) over text [st, en): rotated to its
 * phase at st (b's found by aligning back from its start), then the consensus of
 * the copies aligned to it and to each consensus while that scores more, over
 * the first APX_CONS_COPIES copies at most (plenty for a consensus: a long array
 * is then aligned once more, not twice per consensus): M (room for max_period), *pc
 * symbols; its score over [st, en), or INT64_MIN with a message (memory).  C:
 * scratch of max_period symbols.  The alignment over [st, en) goes on from the
 * rows that *u kept when it has those of the same start and motif: a long array
 * found in many pieces grows by one piece a join, its motif, the consensus of its
 * first copies, staying the same, and each join then aligns the new piece only. */
typedef struct {
    apx_rows_t rows; /* of the last alignment over a union */
    uint64_t st;     /* its start, */
    uint8_t *M;      /* and motif (rows.p symbols, room for max_period) */
} union_rows_t;

static int64_t union_motif(const rv_seq_t *s, const rv_approx_opts_t *o, apx_work_t *w, const uint8_t *mot,
                           const rv_approx_t *f, uint64_t st, uint64_t en, uint8_t *M, uint8_t *C, uint64_t *pc,
                           union_rows_t *u)
{
    uint64_t p = f->period, pm;
    if (apx_reserve(w, p) < 0) return INT64_MIN;
    uint64_t fa = 0;
    if (f->start > st) {
        for (uint64_t c = 0; c < p; c++) C[c] = mot[f->motif + p - 1 - c];
        apx_end_t back;
        apx_extend(w, s->text, f->start, f->start - st, -1, C, p, 0, f->start - st, o, &back);
        fa = (p - back.phase) % p;
    }
    for (uint64_t c = 0; c < p; c++) M[c] = mot[f->motif + (fa + c) % p];
    int64_t sc = INT64_MIN + 1;
    const uint64_t cw = en - st > APX_CONS_COPIES * p ? st + APX_CONS_COPIES * p : en;
    for (int round = 0; round < 3; round++) {
        if (apx_consensus(w, s->text + st, cw - st, M, p, s->sigma, o->max_period, o, C, &pm) < 0 ||
            apx_reserve(w, pm) < 0)
            return INT64_MIN;
        const int64_t v = apx_score_only(w, s->text + st, cw - st, C, pm, 0, o);
        if (v <= sc) break;
        sc = v, p = pm;
        memcpy(M, C, pm);
    }
    *pc = p;
    if (cw == en) return sc;
    if (u->st != st || u->rows.p != p || memcmp(u->M, M, p)) u->rows.len = 0; /* another alignment */
    u->st = st;
    memcpy(u->M, M, p);
    return apx_score_on(w, s->text + st, en - st, M, p, o, &u->rows);
}

/* Live loci of about the same period (within a tenth) that overlap or lie at most
 * a period apart in one segment, in start order, are pieces of one array: an
 * extension stops where the copies drift from a consensus made of a few of them,
 * and a long array of low identity is then found piece by piece.  The motif of
 * the piece that scores more, then of the other, aligned over both gives the
 * consensus of all their copies (union_motif); the pair becomes one locus with
 * it when that scores at least as much as each piece and meets the output rule
 * (approx_loci.c: accept; apx_copies_hold).  The motifs grow *mot (*mn symbols).  0, or -1 with a
 * message. */
static int join_pieces(const rv_seq_t *s, const rv_approx_opts_t *o, rv_approx_t *v, uint8_t **mot, uint64_t *mn,
                       uint64_t n, uint8_t *dead)
{
    uint64_t m = 0, cap = *mn, n_open = 0;
    order_t *ord = malloc((n ? n : 1) * sizeof *ord);
    uint64_t *open = malloc((n ? n : 1) * sizeof *open); /* loci a later one may continue */
    uint8_t *tried = calloc(n ? n : 1, 1);                 /* tried with a multiple */
    uint8_t *C = malloc(3 * (o->max_period + 1)), *M = C + o->max_period + 1;
    union_rows_t u = {{0}, UINT64_MAX, M + o->max_period + 1};
    apx_work_t w = {0};
    int rc = ord && open && tried && C ? 0 : rv_oom("merge of approximate loci", (n ? n : 1) * 17 + 3 * (o->max_period + 1));
    for (uint64_t i = 0; rc == 0 && i < n; i++)
        if (!dead[i]) ord[m++] = (order_t){v[i].start, i};
    if (rc == 0) qsort(ord, m, sizeof *ord, by_order);
    for (uint64_t k = 0; rc == 0 && k < m; k++) {
        const uint64_t j = ord[k].i;
        const rv_approx_t *b = &v[j];
        uint64_t kept = 0;
        int joined = 0;
        for (uint64_t q = 0; q < n_open; q++)
            if (v[open[q]].end + v[open[q]].period >= b->start) open[kept++] = open[q];
        n_open = kept;
        for (uint64_t q = n_open; rc == 0 && !joined && q-- > 0;) {
            rv_approx_t *a = &v[open[q]];
            const uint64_t lo = a->period < b->period ? a->period : b->period,
                           hi = a->period < b->period ? b->period : a->period;
            /* the same period: pieces within a period of each other in one
             * segment; a multiple: overlapping, the smaller period's motif tried
             * alone and kept when it scores as much as that locus */
            const int same = 10 * (hi - lo) <= lo;
            /* held by a grown locus (mark_redundant) of the same or a smaller period,
             * one the output keeps (a weak one goes, and b must stay) */
            if ((same || (a->period < b->period && apx_compatible(lo, hi))) && b->end <= a->end) {
                int holds;
                if (apx_copies_hold(s->text + a->start, a->end - a->start, a->period, o, &holds) < 0) {
                    rc = -1;
                    break;
                }
                if (!holds) continue;
                dead[j] = 1, joined = 1;
                break;
            }
            const int multiple = !same && apx_compatible(lo, hi) && b->start < a->end && !tried[open[q]];
            if ((!same && !multiple) || b->start > a->end + hi ||
                (b->start > a->end && rv_seq_segment_of_text(s, a->start) != rv_seq_segment_of_text(s, b->start)))
                continue;
            const uint64_t st = a->start, en = a->end > b->end ? a->end : b->end;
            const rv_approx_t *small = a->period <= b->period ? a : b;
            tried[open[q]] |= multiple; /* once: a long array meets many pieces */
            for (int t = 0; t < 2 - multiple && !joined; t++) {
                const rv_approx_t *f = multiple ? small : (b->score > a->score) == (t == 0) ? b : a;
                uint64_t pc;
                const int64_t sc = union_motif(s, o, &w, *mot, f, st, en, M, C, &pc, &u);
                if (sc == INT64_MIN) {
                    rc = -1;
                    break;
                }
                int holds = 0;
                if (sc < o->min_score || sc < small->score || (same && (sc < a->score || sc < b->score)) ||
                    en - st <= pc || !apx_rest_scores(&w, s->text + st, en - st, M, pc, sc, o))
                    continue;
                if (apx_copies_hold(s->text + st, en - st, pc, o, &holds) < 0) {
                    rc = -1;
                    break;
                }
                if (!holds) continue;
                if (rv_grow((void **)mot, &cap, *mn + pc, 1) < 0) {
                    rc = rv_oom("merge of approximate loci", *mn + pc);
                    break;
                }
                memcpy(*mot + *mn, M, pc);
                a->motif = *mn, *mn += pc;
                a->end = en, a->period = pc, a->score = sc, a->matches = a->mismatches = a->indels = 0;
                dead[j] = 1, joined = 1;
            }
        }
        if (!joined) open[n_open++] = j;
    }
    apx_work_free(&w);
    free(u.rows.row), free(C), free(ord), free(open), free(tried);
    return rc;
}

typedef struct {
    const rv_seq_t *s;
    const rv_approx_opts_t *o;
    rv_approx_t *v;
    const uint8_t *mot;
    apx_work_t *w;
    uint8_t *weak;
    _Atomic int failed;
    char why[400]; /* a worker's message (messages are per thread) */
} exact_t;

static void score_range(void *ud, uint64_t lo, uint64_t hi, int ti)
{
    exact_t *e = ud;
    for (uint64_t i = lo; i < hi && !e->failed; i++) {
        rv_approx_t *l = &e->v[i];
        rv_approx_cell_t c;
        if (apx_score(&e->w[ti], e->s->text + l->start, l->end - l->start, e->mot + l->motif, l->period, e->o, &c) < 0) {
            if (atomic_exchange(&e->failed, 1) == 0) snprintf(e->why, sizeof e->why, "%s", rv_last_error());
            return;
        }
        l->score = c.s, l->matches = c.m, l->mismatches = c.x, l->indels = c.g;
        int holds = e->weak[i] != APX_WEAK;
        if (e->weak[i] == APX_RECHECK &&
            apx_copies_hold(e->s->text + l->start, l->end - l->start, l->period, e->o, &holds) < 0) {
            if (atomic_exchange(&e->failed, 1) == 0) snprintf(e->why, sizeof e->why, "%s", rv_last_error());
            return;
        }
        if (!holds) l->score = INT64_MIN; /* dropped by score_exactly */
    }
}

/* The exact score and counts of each locus (the search kept lower bounds); the
 * weak ones go (weak[i]: APX_RECHECK for those the merge widened or joined). */
static int score_exactly(const rv_seq_t *s, const rv_approx_opts_t *o, rv_approx_t *v, const uint8_t *mot,
                         uint8_t *weak, uint64_t *n, int threads)
{
    if (threads < 1) threads = 1;
    if ((uint64_t)threads > *n) threads = *n ? (int)*n : 1;
    exact_t e = {s, o, v, mot, calloc((size_t)threads, sizeof(apx_work_t)), weak, 0, ""};
    if (!e.w) return rv_oom("approximate loci's alignment rows", (uint64_t)threads * sizeof(apx_work_t));
    rv_parallel_dynamic(threads, *n, 1, score_range, &e);
    for (int t = 0; t < threads; t++) apx_work_free(&e.w[t]);
    free(e.w);
    if (e.failed) return rv_error(NULL, "%s", e.why);
    uint64_t m = 0;
    for (uint64_t i = 0; i < *n; i++)
        if (v[i].score != INT64_MIN) v[m++] = v[i];
    *n = m;
    return 0;
}

/* the pieces' loci in one set: the redundant ones go (mark_redundant), as do those
 * that miss [lo, hi); the others are scored exactly */
int apx_merge(const rv_seq_t *s, const rv_approx_opts_t *o, apx_list_t *out, uint64_t n_pieces, uint64_t lo,
              uint64_t hi, int threads, rv_approx_set_t *res)
{
    uint64_t n = 0, mn = 0;
    for (uint64_t j = 0; j < n_pieces; j++) n += out[j].n, mn += out[j].mn;
    rv_approx_t *v = malloc((n ? n : 1) * sizeof *v);
    uint8_t *mot = malloc(mn ? mn : 1), *dead = calloc(n ? n : 1, 1);
    if (!v || !mot || !dead) {
        free(v), free(mot), free(dead);
        return rv_oom("merge of approximate loci", (n ? n : 1) * (sizeof *v + 1) + mn);
    }
    n = mn = 0;
    for (uint64_t j = 0; j < n_pieces; j++) {
        for (uint64_t i = 0; i < out[j].n; i++) v[n] = out[j].v[i], v[n++].motif += mn;
        if (out[j].mn) memcpy(mot + mn, out[j].mot, out[j].mn);
        mn += out[j].mn;
    }
    qsort(v, n, sizeof *v, by_span);
    /* the same locus found twice (from two seeds, or two pieces) counts once */
    uint64_t m = 0;
    for (uint64_t i = 0; i < n; i++)
        if (!m || v[i].start != v[m - 1].start || v[i].end != v[m - 1].end || v[i].period != v[m - 1].period)
            v[m++] = v[i];
    n = m;
    uint8_t *weak = malloc(n ? n : 1); /* apx_copies_hold of each, when asked */
    rv_approx_t *was = malloc((n ? n : 1) * sizeof *was); /* the spans before the merge */
    if (weak && was) memcpy(was, v, n * sizeof *v), memset(weak, APX_RECHECK, n);
    if (!weak || !was || mark_redundant(s, o, v, mot, n, dead, weak) < 0 ||
        join_pieces(s, o, v, &mot, &mn, n, dead) < 0) {
        if (!weak || !was) rv_oom("merge of approximate loci", (n ? n : 1) * (1 + sizeof *was));
        free(v), free(mot), free(dead), free(weak), free(was);
        return -1;
    }
    uint64_t kept = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (dead[i] || v[i].end <= lo || v[i].start >= hi ||
            (double)(v[i].end - v[i].start) < o->min_copies * (double)v[i].period)
            continue;
        const int same = v[i].start == was[i].start && v[i].end == was[i].end && v[i].period == was[i].period;
        weak[kept] = same ? weak[i] : APX_RECHECK;
        v[kept++] = v[i];
    }
    free(dead), free(was);
    if (score_exactly(s, o, v, mot, weak, &kept, threads) < 0) {
        free(v), free(mot), free(weak);
        return -1;
    }
    free(weak);
    qsort(v, kept, sizeof *v, by_start_period);
    *res = (rv_approx_set_t){v, kept, mot};
    return 0;
}

