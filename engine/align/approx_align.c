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
 * against gaps only lowers the score.  Each cell carries the counts of its
 * alignment, so score = match*m - mismatch*x - indel*g holds for what is printed.
 */
#include <stdlib.h>
#include <string.h>
#include "repview/approx.h"
#include "repview/common.h"
#include "approx_internal.h"

enum { APX_COPIES_CELLS = 1 << 24 }; /* rv_approx_copies keeps a move per cell */

int apx_reserve(apx_work_t *w, uint64_t p)
{
    if (p <= w->row_cap) return 0;
    rv_approx_cell_t *r = realloc(w->row, 2 * p * sizeof *r);
    if (r) w->row = r;
    int64_t *q = r ? realloc(w->srow, 2 * p * sizeof *q) : NULL;
    if (!q) return rv_error("approx", "out of memory");
    w->srow = q, w->row_cap = p;
    return 0;
}

int apx_reserve_trace(apx_work_t *w, uint64_t tb, uint64_t votes)
{
    if (tb > w->tb_cap) {
        uint8_t *q = realloc(w->tb, tb);
        if (!q) return rv_error("approx", "out of memory");
        w->tb = q, w->tb_cap = tb;
    }
    if (votes > w->votes_cap) {
        uint32_t *q = realloc(w->votes, votes * sizeof *q);
        if (!q) return rv_error("approx", "out of memory");
        w->votes = q, w->votes_cap = votes;
    }
    return 0;
}

void apx_work_free(apx_work_t *w)
{
    free(w->row), free(w->srow), free(w->tb), free(w->votes);
    *w = (apx_work_t){0};
}

enum { OP_DIAG = 0, OP_INS = 1, OP_DEL = 2 };

static inline int better(const rv_approx_cell_t *a, const rv_approx_cell_t *b) { return a->s > b->s; }

/* U[c+1] <- U[c] - indel when better: 1 when it was. */
static inline int relax_del(rv_approx_cell_t *U, uint64_t p, uint64_t c, const rv_approx_opts_t *o, uint8_t *tb)
{
    const uint64_t to = c + 1 == p ? 0 : c + 1;
    rv_approx_cell_t d = U[c];
    d.s -= o->indel, d.g++;
    if (!better(&d, &U[to])) return 0;
    U[to] = d;
    if (tb) tb[to] = OP_DEL;
    return 1;
}

/* The row before any text: phase `phase` at 0, the others reached by deletions. */
static void row_init(rv_approx_cell_t *V, uint64_t p, uint64_t phase, const rv_approx_opts_t *o)
{
    for (uint64_t k = 0; k < p; k++)
        V[(phase + k) % p] = (rv_approx_cell_t){-(int64_t)o->indel * (int64_t)k, 0, 0, k};
}

/* One text symbol a: V -> U (both p cells).  tb, when not NULL, gets the move
 * that made each cell of U.  Returns the best cell's phase. */
static uint64_t row_step(const rv_approx_cell_t *V, rv_approx_cell_t *U, const uint8_t *M, uint64_t p, uint8_t a,
                         const rv_approx_opts_t *o, uint8_t *tb)
{
    for (uint64_t c = 0; c < p; c++) { /* a against a gap */
        U[c] = V[c];
        U[c].s -= o->indel, U[c].g++;
        if (tb) tb[c] = OP_INS;
    }
    for (uint64_t c = 0; c < p; c++) { /* a aligned to M[c] */
        rv_approx_cell_t d = V[c];
        const uint64_t to = c + 1 == p ? 0 : c + 1;
        if (a == M[c]) d.s += o->match, d.m++;
        else d.s -= o->mismatch, d.x++;
        if (better(&d, &U[to])) {
            U[to] = d;
            if (tb) tb[to] = OP_DIAG;
        }
    }
    /* M[c] against a gap: a full sweep, then on from phase 0 while it improves */
    for (uint64_t c = 0; c < p; c++) relax_del(U, p, c, o, tb);
    for (uint64_t c = 0; c + 1 < p && relax_del(U, p, c, o, tb); c++) {}
    uint64_t arg = 0;
    for (uint64_t c = 1; c < p; c++)
        if (better(&U[c], &U[arg])) arg = c;
    return arg;
}

/* row_step on scores alone (no counts), for the passes whose alignment is not
 * printed: the extensions, the consensus and the tests of a locus. */
static void srow_init(int64_t *V, uint64_t p, uint64_t phase, const rv_approx_opts_t *o)
{
    for (uint64_t k = 0; k < p; k++) V[(phase + k) % p] = -(int64_t)o->indel * (int64_t)k;
}

static uint64_t srow_step(const int64_t *V, int64_t *U, const uint8_t *M, uint64_t p, uint8_t a,
                          const rv_approx_opts_t *o, uint8_t *tb)
{
    const int64_t ind = o->indel, mat = o->match, mis = -(int64_t)o->mismatch;
    U[0] = V[p - 1] + (M[p - 1] == a ? mat : mis);
    if (tb) tb[0] = OP_DIAG;
    if (V[0] - ind > U[0]) {
        U[0] = V[0] - ind;
        if (tb) tb[0] = OP_INS;
    }
    for (uint64_t c = 1; c < p; c++) {
        const int64_t dg = V[c - 1] + (M[c - 1] == a ? mat : mis), in = V[c] - ind;
        U[c] = dg >= in ? dg : in;
        if (tb) tb[c] = dg >= in ? OP_DIAG : OP_INS;
    }
    for (uint64_t c = 0; c < p; c++) { /* deletions: a sweep, then on while it improves */
        const uint64_t to = c + 1 == p ? 0 : c + 1;
        if (U[c] - ind > U[to]) {
            U[to] = U[c] - ind;
            if (tb) tb[to] = OP_DEL;
        }
    }
    for (uint64_t c = 0; c + 1 < p && U[c] - ind > U[c + 1]; c++) {
        U[c + 1] = U[c] - ind;
        if (tb) tb[c + 1] = OP_DEL;
    }
    uint64_t arg = 0;
    for (uint64_t c = 1; c < p; c++) arg = U[c] > U[arg] ? c : arg;
    return arg;
}

int64_t apx_score_only(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p, int any_phase,
                       const rv_approx_opts_t *o)
{
    int64_t *V = w->srow, *U = w->srow + p;
    srow_init(V, p, 0, o);
    if (any_phase) memset(V, 0, p * sizeof *V);
    uint64_t arg = 0;
    for (uint64_t j = 0; j < len; j++) {
        arg = srow_step(V, U, M, p, t[j], o, NULL);
        int64_t *sw = V;
        V = U, U = sw;
    }
    if (!len)
        for (uint64_t c = 1; c < p; c++) arg = V[c] > V[arg] ? c : arg;
    return V[arg];
}

int apx_score(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p, int any_phase,
              const rv_approx_opts_t *o, rv_approx_cell_t *best)
{
    if (apx_reserve(w, p) < 0) return -1;
    rv_approx_cell_t *V = w->row, *U = w->row + p;
    row_init(V, p, 0, o);
    if (any_phase)
        for (uint64_t c = 0; c < p; c++) V[c] = (rv_approx_cell_t){0, 0, 0, 0};
    uint64_t arg = 0;
    for (uint64_t c = 1; c < p; c++) arg = better(&V[c], &V[arg]) ? c : arg;
    for (uint64_t j = 0; j < len; j++) {
        arg = row_step(V, U, M, p, t[j], o, NULL);
        rv_approx_cell_t *sw = V;
        V = U, U = sw;
    }
    *best = V[arg];
    return 0;
}

int rv_approx_score(const uint8_t *t, uint64_t len, const uint8_t *motif, uint64_t p, const rv_approx_opts_t *o,
                    rv_approx_cell_t *best)
{
    apx_work_t w = {0};
    int rc = apx_score(&w, t, len, motif, p, 0, o, best);
    apx_work_free(&w);
    return rc;
}

int apx_extend(apx_work_t *w, const uint8_t *t, uint64_t x, uint64_t limit, int dir, const uint8_t *M, uint64_t p,
               uint64_t phase, uint64_t min_len, const rv_approx_opts_t *o, apx_end_t *out)
{
    int64_t *V = w->srow, *U = w->srow + p;
    srow_init(V, p, phase, o);
    *out = (apx_end_t){0, phase, 0};
    int64_t top = 0;
    const int64_t drop = apx_xdrop(p);
    for (uint64_t j = 0; j < limit; j++) {
        const uint8_t a = dir > 0 ? t[x + j] : t[x - 1 - j];
        const uint64_t arg = srow_step(V, U, M, p, a, o, NULL);
        int64_t *sw = V;
        V = U, U = sw;
        if (V[arg] > top) top = V[arg];
        if (j + 1 >= min_len && (j + 1 == min_len || V[arg] >= out->score)) *out = (apx_end_t){j + 1, arg, V[arg]};
        if (j + 1 >= min_len && V[arg] < top - drop) break;
    }
    return 0;
}

/* The move into cell (r, c) of a block's trace; rows 1..B. */
#define TB(r, c) w->tb[(uint64_t)((r) - 1) * p + (c)]

int apx_consensus(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p, int sigma,
                  uint64_t cap, const rv_approx_opts_t *o, uint8_t *C, uint64_t *pc)
{
    const uint64_t B = APX_BLOCK, syms = (uint64_t)sigma + 1; /* symbol 0: a gap */
    if (apx_reserve_trace(w, B * p, 2 * p * syms) < 0) return -1;
    uint32_t *votes = w->votes, *ins = w->votes + p * syms;
    memset(votes, 0, 2 * p * syms * sizeof *votes);
    int64_t *V = w->srow, *U = w->srow + p;
    srow_init(V, p, 0, o);
    for (uint64_t b0 = 0; b0 < len; b0 += B) {
        const uint64_t rows = len - b0 < B ? len - b0 : B;
        uint64_t arg = 0;
        for (uint64_t r = 1; r <= rows; r++) {
            arg = srow_step(V, U, M, p, t[b0 + r - 1], o, &TB(r, 0));
            int64_t *sw = V;
            V = U, U = sw;
        }
        /* trace the block back from its best cell: votes for each phase, and for
         * a symbol inserted before it (once per copy) */
        for (uint64_t r = rows, c = arg, in_run = 0; r > 0;) {
            const uint8_t op = TB(r, c);
            const uint64_t prev = c == 0 ? p - 1 : c - 1;
            if (op == OP_INS) {
                if (!in_run) ins[c * syms + t[b0 + r - 1]]++, in_run = 1;
                r--;
                continue;
            }
            in_run = 0;
            if (op == OP_DIAG) votes[prev * syms + t[b0 + r - 1]]++, r--, c = prev;
            else votes[prev * syms]++, c = prev;
        }
    }
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
    int64_t *V = w.srow, *U = w.srow + p;
    srow_init(V, p, 0, o);
    uint64_t c = 0;
    for (uint64_t c2 = 1; c2 < p; c2++) c = V[c2] > V[c] ? c2 : c;
    for (uint64_t r = 1; r <= len; r++) {
        c = srow_step(V, U, motif, p, t[r - 1], o, w.tb + (r - 1) * p);
        int64_t *sw = V;
        V = U, U = sw;
    }
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
