/* lrlen.h — LLR and LR lengths for the screen, through the LR engine (lr.h).
 *
 * LLR[i] = max(LCP[ISA[i]], LCP[ISA[i]+1]) is the longest repeat starting at i
 * (Tian & Xu Lemma 1).  Its end e(i) = i + LLR[i] never decreases
 * (Lemma 2), so the LLRs covering k are exactly those starting in [i0(k), k] with
 * i0 the start of the first useful LLR covering k, and LR_k = the longest. */
#ifndef REPVIEW_UI_LRLEN_H
#define REPVIEW_UI_LRLEN_H

#include <stdint.h>
#include "repview/index.h"

/* Longest repeat starting at text position i (0 at a breaker). */
uint64_t lr_llr(const rv_index_t *x, uint64_t i);
/* Useful LLR (Tian & Xu Definition 3): non-empty and not inside LLR[i-1]. */
int lr_llr_useful(const rv_index_t *x, uint64_t i);
/* Smallest i <= k with i + LLR[i] > k (k + 1 when no LLR covers k). */
uint64_t lr_first_cover(const rv_index_t *x, uint64_t k);
/* LR length of each text position t0..t0+m-1 into out[]. */
void lr_lengths(const rv_index_t *x, uint64_t t0, uint64_t m, uint64_t *out);
/* The same counting only copies on the forward strand (rv_lr_forward_llr), for
 * an index of both strands; lr_lengths on a one-strand index. */
void lr_lengths_fwd(const rv_index_t *x, uint64_t t0, uint64_t m, uint64_t *out);

/* Next (dir 1) or previous (-1) start of an LLR of at least minlen that begins
 * a longer repeat than the one before it, scanning at most limit positions;
 * -1 when none. */
int64_t lr_next_long(const rv_index_t *x, uint64_t t, int dir, uint64_t minlen, uint64_t limit);
/* The repeat length chance alone gives in a text like this one (about
 * log_sigma n), and a length worth jumping to (half as long again). */
uint64_t lr_chance_len(const rv_index_t *x);
uint64_t lr_min_interesting(const rv_index_t *x);

#endif
