/* lyndon.h — Lyndon arrays of the text for the two orders of the alphabet (engine
 * private; used by runs.c). */
#ifndef REPVIEW_ENGINE_LYNDON_H
#define REPVIEW_ENGINE_LYNDON_H

#include <stdint.h>
#include "repview/index.h"
#include "repview/lce.h"

/* Longest common extension of text[i..] and text[j..] (stopping at breakers): a
 * direct scan of a few symbols, then the RMQ over LCP when they all match. */
uint64_t rv_lce_fast(const rv_index_t *x, const rv_rmq_t *q, uint64_t i, uint64_t j);

/* Fill end[i] (x->wide-sized entries, n of them) with the end of the longest Lyndon
 * word starting at i, for every non-breaker i; end[i] = i at breakers.  order 0 is
 * the alphabet order of the text codes, order 1 the reversed order; in both a
 * breaker and the end of the text are smaller than every letter.  q (the RMQ over
 * LCP) is needed for order 1.  Uses up to `threads` threads on chunks of at least
 * min_chunk symbols (0 = default; tests use tiny chunks).  0, or -1 with a message. */
int rv_lyndon_array(const rv_index_t *x, const rv_rmq_t *q, int order, void *end, int threads,
                    uint64_t min_chunk);

#endif
