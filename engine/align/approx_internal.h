/* approx_internal.h — what approx_loci.c and approx_align.c share (not public API). */
#ifndef REPVIEW_APPROX_INTERNAL_H
#define REPVIEW_APPROX_INTERNAL_H

#include <stdint.h>
#include "repview/approx.h"

enum {
    APX_XDROP = 70,   /* an extension stops when its score falls this far below its best, + period */
    APX_BLOCK = 1024, /* text rows traced back at a time for the consensus */
    APX_BAND = 64,        /* cells of a band row (approx_align.c) */
    APX_BAND_FROM = 257,  /* motifs of this many symbols or more are aligned in band rows */
    APX_FEW_COPIES = 25,    /* tenths of copies below which a locus's copies must match (apx_copies_hold) */
    APX_PAIR_IDENTITY = 75, /* % identity of neighbouring copies that shows it */
    APX_CONS_COPIES = 32,   /* copies a consensus is taken from, at most */
};

/* The X-drop of an extension with a motif of p symbols: a copy of a long motif at
 * 80% identity wanders by ~4.5 sqrt(p) around its mean score, so a fixed drop cuts
 * long arrays into pieces; past the array's end the score falls by several per
 * symbol, so the extension reads at most about p symbols too many. */
static inline int64_t apx_xdrop(uint64_t p) { return APX_XDROP + (int64_t)p; }

/* A thread's scratch (rows for p cells: apx_reserve before the calls below): DP rows, a block's trace and the consensus votes. */
typedef struct {
    int32_t *srow;    /* 2 rows of scores and 3 of counts, each padded */
    uint64_t row_cap; /* cells per row */
    uint8_t *mm;      /* the motif repeated, for band rows */
    uint8_t *tb;
    uint64_t tb_cap;
    uint32_t *votes;
    uint64_t votes_cap;
} apx_work_t;

/* Where an extension ends: len symbols read, the phase there, and the cell. */
typedef struct {
    uint64_t len, phase;
    int64_t score;
} apx_end_t;

/* 1 when the rows use the AVX2 steps: the CPU has AVX2 and REPVIEW_SIMD is not
 * "sse2" (read once).  apx_simd_set(0) / (1) switches them off / back on, for the
 * tests; it returns whether they may be used (the CPU has AVX2 and REPVIEW_SIMD
 * does not keep them off). */
int apx_simd(void);
int apx_simd_set(int on);

int apx_reserve(apx_work_t *w, uint64_t p);
int apx_reserve_trace(apx_work_t *w, uint64_t tb, uint64_t votes);
void apx_work_free(apx_work_t *w);

/* Align text from x on (dir > 0: t[x], t[x+1], ...; dir < 0: t[x-1], t[x-2], ...,
 * limit symbols at most) against M[0,p)^inf starting at phase `phase` (next motif
 * symbol M[phase]; for dir < 0 the caller passes the motif reversed), stopping at an X-drop once
 * min_len symbols are read: *out is the best end with len >= min_len (the longest
 * on a tie).  0, or -1 with a message. */
int apx_extend(apx_work_t *w, const uint8_t *t, uint64_t x, uint64_t limit, int dir, const uint8_t *M, uint64_t p,
               uint64_t phase, uint64_t min_len, const rv_approx_opts_t *o, apx_end_t *out);

/* rv_approx_score with w's rows: the score exact, from full rows (its counts from
 * band rows when those reach it). */
int apx_score(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p,
              const rv_approx_opts_t *o, rv_approx_cell_t *best);

/* apx_score's score alone (faster; a lower bound when p >= APX_BAND_FROM, from band
 * rows); w's rows must hold p (apx_reserve). */
int64_t apx_score_only(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p, int any_phase,
                       const rv_approx_opts_t *o);

/* 1 when the copies of M[0, p) in t[0, len) after the first score min_score / 4
 * against M from any phase (a motif read from the text matches its own first copy
 * whatever the others hold), 0 when not.  sc is a lower bound of the score of
 * t[0, len): the best alignment splits where the first p symbols end, the first
 * part scoring match * p at most, so the rest scores sc - match * p or more, and
 * when that passes no row is computed (band rows of a long motif give a lower
 * bound that may miss the alignment). */
int apx_rest_scores(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p, int64_t sc,
                    const rv_approx_opts_t *o);

/* The rows of apx_score_only (any_phase 0) after len symbols, to go on from
 * (apx_score_on): the last row's cells, the band's place, the score taken off. */
typedef struct {
    int32_t *row;
    uint64_t cap, n, lo, best, p, len;
    int64_t off;
    int banded;
} apx_rows_t;

/* apx_score_only(w, t, len, M, p, 0, o), going on from *sv when that holds the
 * rows of the same t, M and p after sv->len <= len symbols (the caller keeps it
 * for the same start and motif); *sv then holds them after len.  INT64_MIN with a
 * message when out of memory. */
int64_t apx_score_on(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p,
                     const rv_approx_opts_t *o, apx_rows_t *sv);

/* apx_score's score alone, from full rows (exact). */
int64_t apx_score_full(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p,
                       const rv_approx_opts_t *o);

/* The majority of the copies of t[0, len) aligned to M^inf from phase 0, phase by
 * phase (a gap majority drops the phase; a symbol that most copies insert before a
 * phase is added): C (room for cap >= p; no symbol is added when that would pass
 * cap), its length *pc.  The
 * alignment is traced back block by block (APX_BLOCK rows) from each block's best
 * cell, so memory stays O(APX_BLOCK * p).  0, or -1 with a message. */
int apx_consensus(apx_work_t *w, const uint8_t *t, uint64_t len, const uint8_t *M, uint64_t p, int sigma,
                  uint64_t cap, const rv_approx_opts_t *o, uint8_t *C, uint64_t *pc);

/* The alignment of a locus's copies with their neighbours: t[0, len - p) against
 * t[p, len), end to end, in a band of 32 + p/32 diagonals (the copies' indels
 * drift the alignment by about the root of their number): its score under o's
 * weights, matches and columns. */
typedef struct {
    int64_t score;
    uint64_t matches, cols;
} apx_pair_t;
int apx_adjacent(const uint8_t *t, uint64_t len, uint64_t p, const rv_approx_opts_t *o, apx_pair_t *out);

/* *holds = 1 when t[0, len) at period p holds as a repeat: always from
 * APX_FEW_COPIES tenths of copies on.  Below, a motif is little more than one of
 * the copies (the first matches itself), so its score says little, and the
 * copies must show it themselves, one of:
 * - they match their neighbours (apx_adjacent, at the best shift within a tenth
 *   of p, 8 at most) at APX_PAIR_IDENTITY % or more (TRF's detection looks for
 *   copies that match at 80%);
 * - the identity q to their common ancestor that their matching implies
 *   (neighbours match at about q^2, at the best shift tried: the shifts past p
 *   only when p's is within 10 points of the mark; taken one standard deviation
 *   low) makes an alignment of len symbols against that ancestor score
 *   min_score (two long, diverged copies);
 * - they hold an exact run of period p that scores min_score alone (the output
 *   keeps every such run).
 * 0, or -1 with a message. */
int apx_copies_hold(const uint8_t *t, uint64_t len, uint64_t p, const rv_approx_opts_t *o, int *holds);

/* Two periods are compatible when one is within a tenth of a multiple of the other. */
static inline int apx_compatible(uint64_t p, uint64_t q)
{
    const uint64_t a = p < q ? p : q, b = p < q ? q : p, m = (b + a / 2) / a;
    const uint64_t off = b > m * a ? b - m * a : m * a - b;
    return off <= a / 10;
}

typedef struct { /* the loci of one piece, their motifs one after the other */
    rv_approx_t *v;
    uint64_t n, cap;
    uint8_t *mot;
    uint64_t mn, mcap;
} apx_list_t;

/* The loci of the n_pieces lists in one set *res, sorted by start and period: the
 * redundant ones go (one that another of compatible period holds, one mostly
 * covered by a smaller compatible period that still scores when widened over it),
 * as do those that miss text [lo, hi); the others are scored exactly (apx_score)
 * with `threads` threads.  0, or -1 with a message. */
int apx_merge(const rv_seq_t *s, const rv_approx_opts_t *o, apx_list_t *out, uint64_t n_pieces, uint64_t lo,
              uint64_t hi, int threads, rv_approx_set_t *res);

/* rv_approx_find with pieces of piece_len symbols (the tests cut small ones; 0:
 * a sixteenth of hi - lo, from 2^16 to 2^20 symbols). */
int apx_find(const rv_seq_t *s, uint64_t lo, uint64_t hi, const rv_run_t *seeds, uint64_t n_seeds,
             const rv_approx_opts_t *o, int threads, uint64_t piece_len, rv_approx_set_t *out);

#endif
