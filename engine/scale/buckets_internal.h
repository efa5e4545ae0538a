/* buckets_internal.h — what buckets_plan.c (the plan), buckets_sort.c (a job's sort)
 * and buckets_split.c share: the rolling code of the starts, the sub-code of a
 * split bucket, the layout of the job lists and whether the device holds the text
 * (buckets.h). */
#ifndef REPVIEW_BUCKETS_INTERNAL_H
#define REPVIEW_BUCKETS_INTERNAL_H

#include <stdint.h>
#include "repview/buckets.h"

/* A plan has at most 2^MAX_CODES_LOG2 codes (buckets_plan.c, plan_shape): a job's
 * collect packs a code with a position into 64 bits (buckets_sort.c, POS_BITS). */
enum { MAX_CODES_LOG2 = 22 };

/* Where the parts of the lists lie: the starts at 0 (two bytes a position), the
 * table after them (jobs + 1 offsets a block, each block's row from 0 to its
 * starts).  buckets_plan.c fills the lists, buckets_sort.c reads a job's starts. */
static inline uint64_t n_blocks(uint64_t n) { return (n + RV_BUCKET_BLOCK - 1) / RV_BUCKET_BLOCK; }
static inline uint64_t table_at(uint64_t n) { return (2 * n + 7) & ~7ull; }

/* 1 when the device holds the text of s (rv_bucket_gpu_begin; buckets_sort.c):
 * then it counts the codes, and the jobs find their starts there (no job map). */
int rv_bucket_gpu_holds(const rv_seq_t *s);

/* The starts in [a, b) with k breaker-free symbols and their codes, in order: a
 * rolling code over the symbols from a on (a breaker starts it again). */
typedef struct {
    const uint8_t *t;
    uint64_t j, stop, b, k, sigma, top, code, run;
} code_iter_t;

static inline void ci_init(code_iter_t *c, const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t a, uint64_t b)
{
    uint64_t last = b + (uint64_t)p->k - 1; /* symbols the starts in [a, b) read */
    *c = (code_iter_t){s->text, a, last < s->n ? last : s->n, b, (uint64_t)p->k, p->sigma,
                       p->n_codes / p->sigma, 0, 0};
}

static inline int ci_next(code_iter_t *c, uint64_t *start, uint64_t *code)
{
    while (c->j < c->stop) {
        uint8_t x = c->t[c->j++];
        if (x == RV_BREAK) { c->run = 0; c->code = 0; continue; }
        /* drop the symbol leaving the window (no division: this runs per symbol);
         * DNA's four symbols shift and mask */
        if (c->sigma == 4) {
            c->code = ((c->code << 2) | (uint64_t)(x - 1)) & (4 * c->top - 1);
        } else {
            if (c->run >= c->k) c->code -= (uint64_t)(c->t[c->j - 1 - c->k] - 1) * c->top;
            c->code = c->code * c->sigma + (uint64_t)(x - 1);
        }
        if (++c->run >= c->k) {
            *start = c->j - c->k;
            *code = c->code;
            return 1;
        }
    }
    return 0;
}

/* The sub-code of the `depth` symbols at q (rv_bucket_split_t): base sigma + 1,
 * 0 for a breaker or the text's end and every place after it. */
static inline uint64_t sub_code_at(const uint8_t *t, uint64_t n, uint64_t q, uint64_t depth, uint64_t sigma)
{
    uint64_t c = 0;
    int ended = 0;
    for (uint64_t i = 0; i < depth; i++) {
        const unsigned x = ended || q + i >= n ? RV_BREAK : t[q + i];
        ended = x == RV_BREAK;
        c = c * (sigma + 1) + x;
    }
    return c;
}

#endif
