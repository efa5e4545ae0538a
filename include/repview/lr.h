/* lr.h — longest repeats covering positions (Tian & Xu; repview(1) LR_k).
 *
 * All positions here are TEXT positions (indexes into rv_seq_t.text); convert with
 * rv_seq_text_to_global() for output.  A repeat never contains a breaker.
 *
 * Definitions (0-based, half-open):
 *   L[i] = max(LCP[ISA[i]], LCP[ISA[i]+1]) with LCP[n] = 0   (Tian & Xu Lemma 1)
 *        = length of LLR_i, the longest repeat starting at i (0: none).
 *   end(i) = i + L[i] never decreases with i (Lemma 2, and also across L[i] = 0),
 *   so the LLRs covering k are exactly LLR_i for i in [first(k), k] with end(i) > k.
 *   Every LR is an LLR (Lemma 3), so LR_k = the longest LLRs covering k.
 *
 * Sections attached by rv_lr_build_arrays() (the GPU builder must write the very
 * same bytes; W = uint32_t when !x->wide, uint64_t when x->wide):
 *
 *   RV_SEC_LLR, RV_SEC_LLR_BIG  L as a narrow array (narrow.h): one byte per position,
 *                the values >= 255 in the big section.
 *   RV_SEC_LLRC  W llrc[m]: the starts of the m useful LLRs, increasing; the length
 *                of entry j is L[llrc[j]].                      bytes = m * sizeof(W)
 *
 *   Usefulness rule (Tian & Xu §4.2, Definition 3): LLR_i is useful iff
 *       L[i] > 0  and  (i == 0  or  L[i] >= L[i-1]).
 *   (By Lemma 2 L[i] >= L[i-1] - 1, so the rejected ones with L[i] > 0 are exactly
 *   L[i] == L[i-1] - 1: they end where LLR_{i-1} ends, i.e. they are its suffix.)
 *   In LLRc both start and end = start + len strictly increase, so the entries
 *   covering k form one run: binary search for the first entry with end > k, then
 *   walk right while start <= k.
 */
#ifndef REPVIEW_LR_H
#define REPVIEW_LR_H

#include <stddef.h>
#include <stdint.h>
#include "repview/progress.h"
#include "repview/index.h"

/* A longest repeat text[start, start + len). */
typedef struct {
    uint64_t start, len;
} rv_lr_t;

/* Compute the LLR and compact LLR arrays of x in one threaded pass each and attach
 * them as RV_SEC_LLR and RV_SEC_LLRC (layout above).  0, or -1 with a message
 * ("cancelled" when p->cancel was raised). */
int rv_lr_build_arrays(rv_index_t *x, int threads, rv_progress_t *p);

/* The raw LLR array of x as a view (narrow.h): 1, or 0 when x has no valid one
 * (then L comes from LCP and ISA, Lemma 1). */
int rv_lr_llr_view(const rv_index_t *x, rv_narrow_t *out);

/* Check the LR sections of x read from a file once, before anything trusts them:
 * the LLR pair fits (narrow.h), the LLRc starts increase strictly and lie below n
 * (on `threads` threads, 0 = all).  0, or -1 with a message. */
int rv_lr_check_sections(const rv_index_t *x, int threads);

/* ---- one position or interval (explorer panes) ------------------------------
 * Fast with the LLRc section (binary search + walk), still correct without any LR
 * section (walk over L computed from LCP and ISA). */

/* All LRs covering text position k, sorted by start: writes up to cap of them into
 * out (may be NULL when cap == 0) and returns how many there are (0: none, or k is
 * a breaker or out of range). */
uint64_t rv_lr_at(const rv_index_t *x, uint64_t k, rv_lr_t *out, uint64_t cap);

/* The longest repeats covering the whole text interval [a, b) (Xu, arXiv
 * 1511.02393: they are the longest LLR_i with i <= a and end(i) >= b), sorted by
 * start; same conventions as rv_lr_at().  a >= b or b > n gives 0. */
uint64_t rv_lr_interval(const rv_index_t *x, uint64_t a, uint64_t b, rv_lr_t *out, uint64_t cap);

/* Every useful LLR (LLRc entry) covering text position k, sorted by start, for the
 * teaching pane: the candidates the walk of Tian & Xu Alg. 2 goes through; the
 * longest of them are the LRs.  Same conventions as rv_lr_at(). */
uint64_t rv_lr_llrs_covering(const rv_index_t *x, uint64_t k, rv_lr_t *out, uint64_t cap);

/* The suffix-array rank interval [lo, hi) of the suffixes that start with
 * text[start, start + len): every occurrence of that substring is SA[r] for r in
 * [lo, hi).  len must be > 0 and start + len <= n. */
void rv_lr_occurrences(const rv_index_t *x, uint64_t start, uint64_t len, uint64_t *lo,
                       uint64_t *hi);

/* ---- both strands ------------------------------------------------------------
 * On an index of both strands (seq.h) every function above answers with copies on
 * either strand: an LR covering forward position k may have its other copies in
 * the reverse half (rv_seq_strand() maps them to forward coordinates).  Forward
 * positions are [0, rv_seq_fwd_len()); the reverse half mirrors them. */

/* The longest repeat starting at text position i whose other copy lies on the
 * forward strand (the L[i] a one-strand index would give), from the forward
 * suffixes nearest to ISA[i] in the suffix array (skipping reverse ones).  Equals
 * L[i] on a one-strand index.  For the explorer's forward-only track. */
uint64_t rv_lr_forward_llr(const rv_index_t *x, uint64_t i);

/* Strands on which the other copies of the repeat text[start, start + len) lie:
 * bit 1 forward, bit 2 reverse (a copy that is its own reverse complement counts
 * as reverse).  0 when it has no other copy. */
int rv_lr_copy_strands(const rv_index_t *x, uint64_t start, uint64_t len);

/* ---- every position (headless `repview lr`, benchmarks) ---------------------- */

typedef enum {
    RV_LR_RAW = 0,     /* walk left over the raw LLR array (Tian & Xu Alg. 1 and 3) */
    RV_LR_COMPACT = 1, /* binary search + walk right over LLRc (Alg. 2 and 4) */
    RV_LR_SWEEP = 2    /* LLRc with one binary search per chunk of positions, then a
                          start pointer that only moves right (CLI default) */
} rv_lr_method_t;

typedef struct {
    rv_lr_method_t method;
    int leftmost; /* 1: only the leftmost LR of each position */
    int threads;  /* 0 = all cores */
} rv_lr_scan_opts_t;

/* One answer: LR text[start, start + len) covers text position pos. */
typedef struct {
    uint64_t pos, start, len;
} rv_lr_hit_t;

/* Walk statistics of a scan (Tian & Xu Table 2).  A walk step is one LLR entry read
 * by the walk that finds the length, the entry that stops it included (binary
 * search probes excluded). */
typedef struct {
    uint64_t positions; /* positions scanned */
    uint64_t covered;   /* positions with at least one LR */
    uint64_t hits;      /* answers produced */
    uint64_t steps_min, steps_max, steps_sum;
    uint64_t len_sum;   /* sum of the LR lengths produced (a checksum) */
} rv_lr_stats_t;

/* Receives answers in increasing (pos, start) order, a batch at a time, always
 * from the calling thread.  Return 0 to go on, non-zero to stop the scan. */
typedef int (*rv_lr_emit_fn)(void *ctx, const rv_lr_hit_t *hits, size_t n);

/* LRs of every text position in [lo, hi) (clipped to n), computed by worker threads
 * in batches and handed to emit in order (emit may be NULL: compute only).  Needs
 * the section of the chosen method (RV_SEC_LLR or RV_SEC_LLRC).  Memory is bounded
 * by the batch, not by the output.  st (may be NULL) receives the statistics.
 * Returns 0, 1 when emit asked to stop, or -1 with a message. */
int rv_lr_scan(const rv_index_t *x, uint64_t lo, uint64_t hi, const rv_lr_scan_opts_t *o,
               rv_lr_emit_fn emit, void *ctx, rv_lr_stats_t *st);

#endif
