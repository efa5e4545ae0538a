/* approx.h — approximate tandem repeats (`repview tandem --approx`).
 *
 * An approximate tandem repeat (a locus) is a breaker-free text interval [start, end)
 * of one segment with a motif C of length p (the period): its score is that of the
 * best alignment of text[start, end) against a prefix of C C C ... (any length,
 * starting with C[0]) with match +match, mismatch -mismatch, a gap symbol
 * -indel.  This is the wraparound alignment model of Fischetti et al.,
 * "Identifying periodic occurrences of a template with applications to protein
 * structure" (Inf. Proc. Letters 1993), that Benson's Tandem Repeats Finder
 * (Nucleic Acids Res. 1999) scores its repeats with; the default weights are the
 * ones TRF recommends (2, 7, 7).
 *
 * Loci are found from seeds: the exact runs (tandem.h) long enough to score
 * min_score on their own, and pairs of equal k-mers at a distance d <= max_period
 * that repeat along the text (several at about the same distance close together,
 * the two last earlier occurrences of a k-mer read within 128 symbols,
 * a band of distances around d counting for d as indels move them: the k-mer
 * distance idea of Benson 1999 in a simple form, cf. also the k-mismatch runs of
 * Kolpakov & Kucherov, "Finding approximate repetitions under Hamming distance",
 * TCS 2003); distances of 512 and more are seeded by longer k-mers.  A seed of
 * period d is extended left and right by the wraparound alignment with an X-drop
 * that grows with the period, first with light penalties (two diverged copies
 * match each other less than each matches their consensus), its motif replaced
 * by the majority of the aligned copies (consensus), extended again, and kept
 * when it scores at least min_score and the copies after the first score
 * min_score / 4 against the motif (any phase: a motif read from the text always
 * matches its first copy); it spans the stretch the light extension read as
 * the array when the motif still scores half as much there, and a motif that
 * reads as two or three copies of a shorter one is refolded to it.  A locus of
 * fewer than two copies is extended again with its second copy as the motif
 * (the first copy's alignment ends where the second first drifts from it).  A
 * locus of fewer than 2.5 copies, whose motif is little more than one of them,
 * is kept when its copies match their neighbours at 75% or more, or when the
 * identity to a common ancestor that their matching implies makes the locus
 * score min_score against it.  Of loci of
 * compatible periods, one held by another goes, and so does one mostly covered
 * by a locus of a smaller or the same period that still scores min_score when
 * widened over it: one locus per array, at its smallest period.  Every exact run
 * of period <= max_period whose length L has match * L >= min_score lies inside
 * a reported locus.
 *
 * Coordinates are text positions (rv_seq_t.text), as in tandem.h.
 */
#ifndef REPVIEW_APPROX_H
#define REPVIEW_APPROX_H

#include <stdint.h>
#include "repview/seq.h"
#include "repview/tandem.h"

typedef struct {
    uint64_t max_period; /* largest seed distance, default 500 */
    int64_t min_score;   /* default 50 */
    int match, mismatch, indel; /* +2, and the penalties 7 and 7 (positive) */
    double min_copies;   /* loci with (end - start) / period below this are not
                          * reported, and are dropped before their exact scores
                          * (default 0: all; a caller that filters by copies
                          * anyway saves that work) */
} rv_approx_opts_t;

typedef struct {
    uint64_t start, end; /* text positions, half-open, inside one segment */
    uint64_t period;     /* length of the motif */
    int64_t score;       /* the alignment score defined above */
    uint64_t matches, mismatches, indels; /* of that alignment: score = match*matches
                                           * - mismatch*mismatches - indel*indels */
    uint64_t motif;      /* offset of the motif (codes) in rv_approx_set_t.motifs */
} rv_approx_t;

typedef struct {
    rv_approx_t *v;  /* sorted by (start, period, end) */
    uint64_t n;
    uint8_t *motifs; /* the motifs' codes, one after the other */
} rv_approx_set_t;

/* TRF's recommended weights, min_score 50, max_period 500, min_copies 0. */
void rv_approx_opts_init(rv_approx_opts_t *o);

/* The copies `repview tandem --approx` asks for unless --min-copies says otherwise
 * (TRF reports arrays from about 1.85 copies), and so the explorer's pane. */
#define RV_APPROX_MIN_COPIES 1.8

/* The loci of s that overlap text [lo, hi) (found in the segments overlapping it),
 * from the k-mer seeds and the exact runs met through them (every exact run of
 * period <= max_period that scores min_score lies in a locus), with `threads`
 * threads (0 = all).  seeds[0..n_seeds) are more seeds (any runs; may be NULL, 0;
 * those of period > max_period or too short to score are skipped).  Fills *out
 * (free with rv_approx_free).  0, or -1 with a message. */
int rv_approx_find(const rv_seq_t *s, uint64_t lo, uint64_t hi, const rv_run_t *seeds, uint64_t n_seeds,
                   const rv_approx_opts_t *o, int threads, rv_approx_set_t *out);
void rv_approx_free(rv_approx_set_t *a);

/* percent identity of a locus: 100 * matches / (matches + mismatches + indels) */
static inline double rv_approx_identity(const rv_approx_t *a)
{
    uint64_t cols = a->matches + a->mismatches + a->indels;
    return cols ? 100.0 * (double)a->matches / (double)cols : 0.0;
}

/* ---- the alignment (approx_align.c), for the engine and its tests ---------- */

typedef struct {
    int64_t s;          /* score */
    uint64_t m, x, g;   /* matches, mismatches, gap symbols of the alignment */
} rv_approx_cell_t;

/* The best alignment of t[0, len) against a prefix of motif[0,p)^infinity starting
 * at motif[0] (any end): *best.  O(len * p) time, O(p) memory.  0, or -1 (memory). */
int rv_approx_score(const uint8_t *t, uint64_t len, const uint8_t *motif, uint64_t p, const rv_approx_opts_t *o,
                    rv_approx_cell_t *best);

/* The copies of t[0, len) in its best alignment against motif[0,p)^infinity (as
 * rv_approx_score): starts[0, *n) the offsets where each copy begins (where the
 * alignment reaches motif[0]; starts[0] = 0), at most cap; *path the counts and
 * score of that alignment (the best score).  O(len * p) time and bytes, len * p at
 * most 2^24.  0, or -1 with a message. */
int rv_approx_copies(const uint8_t *t, uint64_t len, const uint8_t *motif, uint64_t p, const rv_approx_opts_t *o,
                     uint64_t *starts, uint64_t cap, uint64_t *n, rv_approx_cell_t *path);

#endif
