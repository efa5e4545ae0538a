/* buckets_split.c — buckets above the job size split by longer prefixes (buckets.h,
 * rv_bucket_plan_split; ERA's variable-length prefixes, RACE §5).
 *
 * A plan has one k for every bucket; a bucket of a skewed text (a low-complexity
 * k-mer, the prefix of an interspersed repeat family) can hold more suffixes than
 * a job may.  Its suffixes are grouped by the next j symbols, j chosen for each
 * bucket as the least that brings every group within the size, up to max_len - k
 * and RV_BUCKET_SPLIT_CODES groups.  The groups come from one pass over the text
 * that reads the next jmax symbols at the starts of the split buckets only; the
 * counts at a shorter j are sums of consecutive ones (a sub-code's first j digits
 * are its value divided by (sigma + 1)^(jmax - j)).  The plan keeps the non-empty
 * groups, so that cutting it again (smaller jobs for more workers) cuts the same
 * groups in every process.
 */
#include <stdlib.h>
#include <string.h>
#include "repview/buckets.h"
#include "repview/common.h"
#include "buckets_internal.h"
#include "base/internal.h"

/* all the split buckets' counters together at most (8 bytes each), and at least
 * this many whatever the job size */
enum { SPLIT_COUNTERS_LOG2 = 23, SPLIT_COUNTERS_MIN_LOG2 = 16 };

typedef struct {
    const rv_seq_t *s;
    const rv_bucket_plan_t *p;
    const uint64_t *codes;    /* the buckets to split, ascending */
    const uint64_t *bits;     /* a bit per code: to split */
    uint64_t n_codes, depth, width; /* width: (sigma + 1)^depth */
    uint64_t *sub;            /* n_codes x width counters, added to atomically */
    uint64_t chunk;
} split_count_t;

static uint64_t code_index(const split_count_t *c, uint64_t code)
{
    uint64_t a = 0, b = c->n_codes;
    while (a < b) {
        const uint64_t mid = a + (b - a) / 2;
        if (c->codes[mid] < code) a = mid + 1;
        else b = mid;
    }
    return a;
}

/* The counters of the starts in chunks [lo, hi); a run of starts on one counter
 * (a run of one symbol) is added once. */
static void count_subs(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    const split_count_t *c = ctx;
    (void)t;
    uint64_t *last = NULL, run = 0;
    for (uint64_t i = lo; i < hi; i++) {
        const uint64_t a = i * c->chunk, b = a + c->chunk < c->s->n ? a + c->chunk : c->s->n;
        uint64_t start, code;
        code_iter_t it;
        ci_init(&it, c->s, c->p, a, b);
        while (ci_next(&it, &start, &code)) {
            if (!(c->bits[code >> 6] >> (code & 63) & 1)) continue;
            const uint64_t sub = sub_code_at(c->s->text, c->s->n, start + (uint64_t)c->p->k, c->depth, c->p->sigma);
            uint64_t *at = &c->sub[code_index(c, code) * c->width + sub];
            if (at != last) {
                if (last) __atomic_fetch_add(last, run, __ATOMIC_RELAXED);
                last = at, run = 0;
            }
            run++;
        }
    }
    if (last) __atomic_fetch_add(last, run, __ATOMIC_RELAXED);
}

/* The least depth d <= depth at which every group of counts v (width of them, at
 * depth `depth`) fits cap, else depth; *most: the largest group at that depth. */
static uint64_t least_depth(const uint64_t *v, uint64_t width, uint64_t depth, uint64_t sigma1, uint64_t cap,
                            uint64_t *most)
{
    uint64_t d = 1, span = width / sigma1; /* span: counters a group of depth d sums */
    for (;; d++, span /= sigma1) {
        *most = 0;
        for (uint64_t g = 0; g < width; g += span) {
            uint64_t sum = 0;
            for (uint64_t i = g; i < g + span; i++) sum += v[i];
            if (sum > *most) *most = sum;
        }
        if (*most <= cap || d == depth) return d;
    }
}

/* The non-empty groups of bucket b at depth d into p->units, and its entry. */
static int add_groups(rv_bucket_plan_t *p, uint64_t code, const uint64_t *v, uint64_t width, uint64_t span,
                      uint64_t d, uint64_t *cap_units)
{
    rv_bucket_split_t *sp = &p->split[p->n_split++];
    *sp = (rv_bucket_split_t){code, d, p->n_units, p->n_units};
    for (uint64_t g = 0; g < width; g += span) {
        uint64_t sum = 0;
        for (uint64_t i = g; i < g + span; i++) sum += v[i];
        if (!sum) continue;
        if (p->n_units == *cap_units) {
            const uint64_t cap = 2 * *cap_units + 64;
            rv_bucket_unit_t *u = realloc(p->units, cap * sizeof *u);
            if (!u) return rv_error("buckets", "out of memory");
            p->units = u, *cap_units = cap;
        }
        p->units[p->n_units++] = (rv_bucket_unit_t){g / span, sum};
    }
    sp->unit_hi = p->n_units;
    return 0;
}

/* The deepest split every bucket of n can take: k + depth <= max_len, at most
 * RV_BUCKET_SPLIT_CODES groups a bucket, and counters in all at most
 * 2^SPLIT_COUNTERS_LOG2 and two a suffix of the largest job a bucket may stay
 * whole in (at: 16 bytes a suffix, less than a job's suffix costs, so that under
 * a small --mem-budget the counters, freed before any job runs, stay within what
 * one job may hold). */
static uint64_t split_depth(const rv_bucket_plan_t *p, uint64_t max_len, uint64_t at, uint64_t n, uint64_t *width)
{
    uint64_t most = 2 * (at > p->job_cap ? at : p->job_cap), depth = 0;
    if (most > (1ull << SPLIT_COUNTERS_LOG2)) most = 1ull << SPLIT_COUNTERS_LOG2;
    if (most < (1ull << SPLIT_COUNTERS_MIN_LOG2)) most = 1ull << SPLIT_COUNTERS_MIN_LOG2;
    *width = 1;
    while ((uint64_t)p->k + depth < max_len && *width * (p->sigma + 1) <= RV_BUCKET_SPLIT_CODES &&
           n * *width * (p->sigma + 1) <= most)
        depth++, *width *= p->sigma + 1;
    return depth;
}

int rv_bucket_plan_split(const rv_seq_t *s, rv_bucket_plan_t *p, uint64_t max_len, uint64_t above, int threads)
{
    if (p->n_split) return 0; /* split before */
    p->over = 0, p->over_len = (uint64_t)p->k;
    const uint64_t at = above > p->job_cap ? above : p->job_cap; /* buckets above it split */
    if (!p->count || !p->job_cap || p->largest <= at) return 0;
    uint64_t n = 0, width, *codes = NULL, *bits = NULL, *sub = NULL;
    for (uint64_t c = 0; c < p->n_codes; c++) n += p->count[c] > at;
    const uint64_t depth = split_depth(p, max_len, at, n, &width);
    if (!depth) { /* no symbol to spare: the buckets run whole */
        p->over = p->largest;
        return 0;
    }
    codes = malloc(n * sizeof *codes);
    bits = calloc((p->n_codes + 63) / 64, sizeof *bits);
    sub = calloc(n * width, sizeof *sub);
    p->split = malloc(n * sizeof *p->split);
    int rc = codes && bits && sub && p->split ? 0 : rv_error("buckets", "out of memory");
    for (uint64_t c = 0, i = 0; rc == 0 && c < p->n_codes; c++)
        if (p->count[c] > at) codes[i++] = c, bits[c >> 6] |= 1ull << (c & 63);
    if (rc == 0) {
        if (threads <= 0) threads = rv_default_threads();
        split_count_t c = {s, p, codes, bits, n, depth, width, sub, 1u << 22};
        rv_parallel_dynamic(threads, (s->n + c.chunk - 1) / c.chunk, 1, count_subs, &c);
    }
    uint64_t cap_units = 0;
    for (uint64_t b = 0; rc == 0 && b < n; b++) {
        const uint64_t *v = sub + b * width;
        uint64_t most, sum = 0;
        for (uint64_t i = 0; i < width; i++) sum += v[i];
        if (sum != p->count[codes[b]]) { /* counts of another text */
            rc = rv_error("buckets", "the plan does not fit the text");
            break;
        }
        const uint64_t d = least_depth(v, width, depth, p->sigma + 1, p->job_cap, &most);
        uint64_t span = width;
        for (uint64_t i = 0; i < d; i++) span /= p->sigma + 1;
        rc = add_groups(p, codes[b], v, width, span, d, &cap_units);
        if (most > at && most > p->over) p->over = most, p->over_len = (uint64_t)p->k + d;
    }
    free(codes), free(bits), free(sub);
    if (rc == 0) rc = rv_bucket_plan_cut(p, p->job_cap);
    if (rc < 0) {
        free(p->split), free(p->units);
        p->split = NULL, p->units = NULL, p->n_split = p->n_units = 0;
    }
    return rc;
}
