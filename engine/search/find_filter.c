/* find_filter.c — k mismatches by the pigeonhole filter.
 *
 * Cut the pattern into k + 1 pieces: a match with at most k mismatches leaves at
 * least one piece intact, so every match starts at (an exact occurrence of some
 * piece) - (the piece's offset).  Each piece is one mlr search on the SA
 * (find_search.c), which also says how many candidates it gives before any is
 * read; when they are few the candidates are verified against the text directly,
 * which for long patterns is far cheaper than backtracking over the whole
 * approximate-match tree.  Otherwise the caller backtracks.
 */
#include <stdlib.h>
#include "repview/common.h"
#include "find_internal.h"

#define MAX_PIECES 64

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int push_hit(rv_pattern_t *p, rv_hit_t h)
{
    if (h.pos >= rv_seq_fwd_len(p->x->seq)) return 0; /* both strands: '-' covers it */
    if (p->n_lst == p->cap_lst) {
        uint64_t cap = p->cap_lst ? p->cap_lst * 2 : 16;
        rv_hit_t *l = realloc(p->lst, cap * sizeof *l);
        if (!l) return rv_error("pattern", "out of memory");
        p->lst = l;
        p->cap_lst = cap;
    }
    p->lst[p->n_lst++] = h;
    p->count++;
    return 0;
}

/* Mismatches of strand s of p at text[t, t+m), or -1 (a breaker, or > k). */
static int mismatches_at(const rv_pattern_t *p, const rv_pat_strand_t *s, uint64_t t)
{
    const uint8_t *text = p->x->seq->text;
    unsigned mm = 0;
    for (size_t i = 0; i < p->m; i++) {
        uint8_t c = text[t + i];
        if (c == 0) return -1;
        if (!rv_pat_match(s, i, c) && ++mm > p->k) return -1;
    }
    return (int)mm;
}

/* Compare code[h, m) with the suffix of rank r from depth h on: returns the
 * length of their common prefix; *cmp < 0 when the pattern is smaller, > 0 when
 * larger, 0 when it is a prefix of the suffix.  Breakers and the text end (0)
 * are smaller than every code. */
static uint64_t compare_from(const rv_index_t *x, const uint8_t *code, uint64_t m, uint64_t r,
                             uint64_t h, int *cmp)
{
    const uint64_t t = rv_sa(x, r), n = x->n;
    const uint8_t *text = x->seq->text;
    for (; h < m; h++) {
        uint8_t c = t + h < n ? text[t + h] : 0;
        if (c != code[h]) {
            *cmp = code[h] > c ? 1 : -1;
            return h;
        }
    }
    *cmp = 0;
    return h;
}

void rv_sa_exact_range(const rv_index_t *x, const uint8_t *code, uint64_t m, uint64_t lo,
                        uint64_t hi, uint64_t d, uint64_t *a, uint64_t *b)
{
    uint64_t l = d, r = d, mid = 0;
    int cmp = 1;
    while (lo < hi) { /* ranks < lo are smaller than P (lcp l), ranks >= hi larger (lcp r) */
        mid = lo + (hi - lo) / 2;
        uint64_t h = compare_from(x, code, m, mid, l < r ? l : r, &cmp);
        if (cmp == 0) break;
        if (cmp < 0) hi = mid, r = h; else lo = mid + 1, l = h;
    }
    if (cmp != 0) { *a = *b = lo; return; }
    uint64_t lo1 = lo, hi1 = mid; /* first match in [lo, mid]: mid matches */
    while (lo1 < hi1) {
        uint64_t q = lo1 + (hi1 - lo1) / 2;
        uint64_t h = compare_from(x, code, m, q, l, &cmp);
        if (cmp == 0) hi1 = q; else lo1 = q + 1, l = h;
    }
    uint64_t lo2 = mid + 1, hi2 = hi; /* first non-match in (mid, hi) */
    while (lo2 < hi2) {
        uint64_t q = lo2 + (hi2 - lo2) / 2;
        uint64_t h = compare_from(x, code, m, q, r, &cmp);
        if (cmp == 0) lo2 = q + 1; else hi2 = q, r = h;
    }
    *a = lo1;
    *b = lo2;
}

int rv_find_filter(rv_pattern_t *p, int k)
{
    const rv_index_t *x = p->x;
    const rv_pat_strand_t *s = &p->s[k];
    const size_t parts = (size_t)p->k + 1;
    if (p->k == 0 || parts > MAX_PIECES || p->m < parts || !s->exact_from[0] || p->filter_max == 0) return 0;
    uint64_t lo[MAX_PIECES], hi[MAX_PIECES], total = 0;
    for (size_t j = 0; j < parts; j++) {
        const size_t off = j * p->m / parts, len = (j + 1) * p->m / parts - off;
        rv_sa_exact_range(x, s->code + off, len, 0, x->n, 0, &lo[j], &hi[j]);
        total += hi[j] - lo[j];
        if (total > p->filter_max) return 0;
    }
    uint64_t *cand = malloc((total ? total : 1) * sizeof *cand), nc = 0;
    if (!cand) return rv_oom("pattern's candidates", (total ? total : 1) * sizeof *cand);
    for (size_t j = 0; j < parts; j++) {
        const uint64_t off = j * p->m / parts;
        for (uint64_t r = lo[j]; r < hi[j]; r++) {
            uint64_t t = rv_sa(x, r);
            if (t >= off && t - off + p->m <= x->n) cand[nc++] = t - off;
        }
    }
    qsort(cand, nc, sizeof *cand, cmp_u64);
    int rc = 1;
    for (uint64_t i = 0; i < nc && rc > 0; i++) {
        if (i && cand[i] == cand[i - 1]) continue; /* found through several pieces */
        int mm = mismatches_at(p, s, cand[i]);
        if (mm >= 0 && push_hit(p, (rv_hit_t){cand[i], 0, (uint16_t)mm, k ? '-' : '+'}) < 0) rc = -1;
    }
    free(cand);
    return rc;
}
