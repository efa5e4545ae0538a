/* overlap.c — the longest prefix of a query that occurs in the text (the longest
 * overlap region of Zhong et al. §III, answered on the suffix array).
 *
 * Walk the SA intervals: [lo, hi) holds the suffixes starting with the query's
 * first d symbols; narrowing by symbol d is two binary searches inside the
 * interval.  When the interval is small its suffixes are compared with the query
 * directly; those sharing the most symbols form a contiguous sub-interval.  The
 * answer is O(m log n) symbol reads, independent of the number of occurrences.
 */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "base/internal.h"
#include "find_internal.h"

#define DIRECT_MAX 16

/* Symbols of the query shared by the suffix of rank r beyond depth d. */
static uint64_t extend(const rv_index_t *x, const uint8_t *code, uint64_t m, uint64_t r, uint64_t d)
{
    const uint64_t t = rv_sa(x, r);
    const uint8_t *text = x->seq->text;
    uint64_t i = d;
    while (i < m && t + i < x->n && code[i] && text[t + i] == code[i]) i++;
    return i - d;
}

/* Longest prefix of code[0, m) (0 = matches nothing) occurring in the text: its
 * length, and in [*lo, *hi) the ranks of its occurrences. */
static uint64_t longest_prefix(const rv_index_t *x, const uint8_t *code, uint64_t m, uint64_t *lo_out,
                               uint64_t *hi_out)
{
    uint64_t lo = 0, hi = x->n, d = 0;
    while (d < m && code[d]) {
        if (hi - lo <= DIRECT_MAX) {
            uint64_t best = 0, a = lo, b = lo;
            for (uint64_t r = lo; r < hi; r++) {
                uint64_t e = extend(x, code, m, r, d);
                if (e > best) best = e, a = r, b = r + 1;
                else if (e == best && b == r) b = r + 1; /* ties are contiguous */
            }
            if (best) lo = a, hi = b, d += best;
            break;
        }
        uint64_t a = rv_sa_lower(x, lo, hi, d, code[d]);
        uint64_t b = rv_sa_lower(x, a, hi, d, code[d] + 1u);
        if (a == b) break;
        lo = a, hi = b, d++;
    }
    *lo_out = lo;
    *hi_out = hi;
    return d;
}

int rv_overlap(const rv_index_t *x, const char *q, size_t len, rv_strand_t strand, rv_overlap_t *res)
{
    const rv_alpha_t a = x->seq->alpha;
    memset(res, 0, sizeof *res);
    if ((strand & RV_STRAND_REV) && a != RV_ALPHA_DNA)
        return rv_error("overlap", "strand '-' needs a DNA index (this one is %s)", rv_alpha_name(a));
    uint8_t stackbuf[2 * 512];
    uint8_t *code = len <= 512 ? stackbuf : malloc(2 * len);
    if (!code) return rv_oom("query's code", 2 * len);
    uint8_t *rc = code + len;
    for (size_t i = 0; i < len; i++) {
        uint8_t c = rv_alpha_code(a, (unsigned char)q[i]);
        code[i] = c;
        rc[len - 1 - i] = c ? (uint8_t)(5 - c) : 0;
    }
    rv_sa_range_t rng[2];
    uint64_t best[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        if (!(strand & (k ? RV_STRAND_REV : RV_STRAND_FWD))) continue;
        rng[k].strand = k ? '-' : '+';
        rng[k].mism = 0;
        best[k] = longest_prefix(x, k ? rc : code, len, &rng[k].lo, &rng[k].hi);
    }
    if (code != stackbuf) free(code);
    res->len = best[0] > best[1] ? best[0] : best[1];
    if (res->len == 0) return 0;
    size_t n = 0;
    for (int k = 0; k < 2; k++)
        if (best[k] == res->len) rng[n++] = rng[k], res->n_occ += rng[k].hi - rng[k].lo;
    rv_hit_src_t src = {x, rng, n, NULL, 0};
    int64_t got = rv_hits_first(&src, 0, res->hits, RV_OVERLAP_MAX_OCC);
    res->n_hits = got > 0 ? (size_t)got : 0;
    return 0;
}

typedef struct {
    const rv_index_t *x;
    const char *const *q;
    const size_t *len;
    rv_strand_t strand;
    rv_overlap_t *res;
} many_t;

static void overlap_range(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    const many_t *c = arg;
    for (uint64_t i = lo; i < hi; i++) rv_overlap(c->x, c->q[i], c->len[i], c->strand, &c->res[i]);
}

int rv_overlap_many(const rv_index_t *x, const char *const *q, const size_t *len, size_t n,
                    rv_strand_t strand, int threads, rv_overlap_t *res)
{
    if ((strand & RV_STRAND_REV) && x->seq->alpha != RV_ALPHA_DNA)
        return rv_error("overlap", "strand '-' needs a DNA index (this one is %s)", rv_alpha_name(x->seq->alpha));
    many_t c = {x, q, len, strand, res};
    rv_parallel_dynamic(threads > 0 ? threads : rv_default_threads(), n, 64, overlap_range, &c);
    return 0;
}
