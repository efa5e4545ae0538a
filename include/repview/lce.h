/* lce.h — longest common extension between two positions of the text. */
#ifndef REPVIEW_LCE_H
#define REPVIEW_LCE_H

#include <stdint.h>
#include "repview/index.h"

/* Direct comparison of text[i..] and text[j..], stopping at breakers. O(answer). */
uint64_t rv_lce_scan(const rv_seq_t *s, uint64_t i, uint64_t j);

/* Range-minimum structure over LCP for O(1) LCE queries (sparse table over blocks). */
typedef struct rv_rmq rv_rmq_t;
rv_rmq_t *rv_rmq_build(const rv_index_t *x);
/* The same with `threads` threads (0 = all).  NULL when out of memory. */
rv_rmq_t *rv_rmq_build_threads(const rv_index_t *x, int threads);
void rv_rmq_free(rv_rmq_t *q);
/* Minimum of LCP[lo..hi] (inclusive, lo <= hi). */
uint64_t rv_rmq_min(const rv_rmq_t *q, uint64_t lo, uint64_t hi);
/* LCE of text positions i and j via ISA + RMQ (i == j gives the distance to the
 * next breaker or the end). */
uint64_t rv_lce(const rv_index_t *x, const rv_rmq_t *q, uint64_t i, uint64_t j);

#endif
