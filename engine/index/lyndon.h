/* lyndon.h — Lyndon arrays of the text for the two orders of the alphabet (engine
 * private; used by runs.c). */
#ifndef REPVIEW_ENGINE_LYNDON_H
#define REPVIEW_ENGINE_LYNDON_H

#include <stdint.h>
#include <string.h>
#include "repview/index.h"
#include "repview/lce.h"
#include "base/internal.h"

#define RV_LCE_SCAN 16 /* symbols compared directly before asking the RMQ */

/* Longest common extension of text[i..] and text[j..], i != j (stopping at breakers):
 * a direct scan of RV_LCE_SCAN symbols, 8 at a time, then the RMQ over LCP when they
 * all match (most answers in the runs are short). */
static inline uint64_t rv_lce_fast(const rv_index_t *x, const rv_rmq_t *q, uint64_t i, uint64_t j)
{
    const uint8_t *t = x->seq->text;
    const uint64_t n = x->n, far = i > j ? i : j;
    if (far + RV_LCE_SCAN <= n) {
        for (uint64_t h = 0; h < RV_LCE_SCAN; h += 8) {
            uint64_t a, b;
            memcpy(&a, t + i + h, 8);
            memcpy(&b, t + j + h, 8);
            /* a byte of a that is a breaker (0), or that differs from b: the lowest
             * flag of has_zero is exact, and a breaker in b alone is a difference */
            const uint64_t has_zero = (a - 0x0101010101010101ull) & ~a & 0x8080808080808080ull;
            if (a == b && !has_zero) continue;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            const uint64_t d = a ^ b, stop_d = d ? (uint64_t)__builtin_ctzll(d) / 8 : 8;
            const uint64_t stop_z = has_zero ? (uint64_t)__builtin_ctzll(has_zero) / 8 : 8;
            return h + (stop_d < stop_z ? stop_d : stop_z);
#else
            uint64_t k = 0;
            while (t[i + h + k] == t[j + h + k] && t[i + h + k] != RV_BREAK) k++;
            return h + k;
#endif
        }
        return rv_lce(x, q, i, j);
    }
    for (uint64_t h = 0; h < RV_LCE_SCAN; h++) {
        if (far + h >= n) return h;
        const uint8_t c = t[i + h];
        if (c != t[j + h] || c == RV_BREAK) return h;
    }
    return rv_lce(x, q, i, j);
}

/* Fill end[i] (x->wide-sized entries, n of them) with the end of the longest Lyndon
 * word starting at i, for every non-breaker i; end[i] = i at breakers.  order 0 is
 * the alphabet order of the text codes, order 1 the reversed order; in both a
 * breaker and the end of the text are smaller than every letter.  q (the RMQ over
 * LCP) is needed for order 1.  Uses up to `threads` threads on chunks of at least
 * min_chunk symbols (0 = default; tests use tiny chunks).  0, or -1 with a message. */
int rv_lyndon_array(const rv_index_t *x, const rv_rmq_t *q, int order, void *end, int threads,
                    uint64_t min_chunk);

/* Positions [lo, hi) with their ends: end[i - lo] (x->wide-sized) for position i. */
typedef void (*rv_lyndon_fn)(void *vctx, uint64_t lo, uint64_t hi, const void *end, int thread);

/* The same without the array: the positions go to visit(vctx, lo, hi, end, thread)
 * as their ends become final, each end read from a buffer of its thread that is in
 * the cache: every position i with end[i] > i reaches visit exactly once with its
 * final end (from `thread`, 0 .. threads-1, never two calls with one thread at
 * once); positions with end[i] = i in a visited range are breakers or come again
 * later.  The memory is a buffer of at most 2^20 positions per thread and lists of
 * positions that are short but on the most periodic texts. */
int rv_lyndon_visit(const rv_index_t *x, const rv_rmq_t *q, int order, int threads, uint64_t min_chunk,
                    rv_lyndon_fn visit, void *vctx);

#endif
