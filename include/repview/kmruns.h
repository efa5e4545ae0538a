/* kmruns.h — k-mismatch runs: tandem repeats under Hamming distance
 * (`repview tandem --mismatches K`), after Kolpakov & Kucherov,
 * "Finding approximate repetitions under Hamming distance", Theoretical Computer
 * Science 303 (2003).
 *
 * For a period p and a breaker-free text interval [a, b), let
 *   mism_p(a, b) = #{ i in [a, b - p) : text[i] != text[i + p] },
 * the mismatches between the interval and itself shifted by p.  A k-mismatch run
 * of period p is an interval with b - a >= 2p and mism_p(a, b) <= k that cannot
 * be extended by one symbol at either end (inside its segment) without exceeding
 * k.  Exact runs are the 0-mismatch runs of their smallest period.
 *
 * Reported: the runs of period min_period..max_period with b - a >= min_len and
 * (b - a) / p >= min_copies for which no period q < p dividing p has
 * mism_q(a, b) <= 2k: the same repeat told with a shorter motif (a substitution in
 * a repeat of period q costs two mismatches at q, one against the copy before and
 * one against the copy after, and at least one at a multiple of q, so a k-mismatch
 * run of a multiple has at most 2k at q).  Each comes with its
 * consensus motif: for r < p the symbol most frequent at a + r, a + r + p, ...
 * below b; a tie goes to text[a + r] if it is one of the most frequent, else to
 * the smallest code.
 *
 * The search: for each period, the mismatch bits of the shifted comparison in
 * 64-bit words; a run long enough to report holds an aligned block of g
 * comparisons (g the largest power of two with 2g - 1 <= its least length - p, at
 * most 64) with at most k mismatches, so only the neighbourhoods of such blocks
 * are walked, mismatch by mismatch.  Periods are shared out over threads.
 *
 * Coordinates are text positions (rv_seq_t.text), as in tandem.h. */
#ifndef REPVIEW_KMRUNS_H
#define REPVIEW_KMRUNS_H

#include <stdint.h>
#include "repview/seq.h"

typedef struct {
    uint64_t k;             /* mismatches allowed */
    uint64_t min_period, max_period;
    uint64_t min_len;
    double min_copies;
} rv_kmruns_opts_t;

typedef struct {
    uint64_t start, end, period; /* text positions, half-open, one segment */
    uint64_t mismatches;         /* mism_p(start, end) <= k */
    uint64_t motif;              /* offset of the consensus (codes) in motifs */
} rv_kmrun_t;

typedef struct {
    rv_kmrun_t *v;   /* sorted by (start, period) */
    uint64_t n;
    uint8_t *motifs;
} rv_kmrun_set_t;

/* The reported k-mismatch runs of s (definition above) that overlap text [lo, hi),
 * found in the segments overlapping it, on `threads` threads (0 = all cores).
 * 0, or -1 with a message. */
int rv_kmruns_find(const rv_seq_t *s, uint64_t lo, uint64_t hi, const rv_kmruns_opts_t *o, int threads,
                   rv_kmrun_set_t *out);
void rv_kmruns_free(rv_kmrun_set_t *a);

#endif
