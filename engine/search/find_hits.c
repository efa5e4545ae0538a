/* find_hits.c — occurrences of compiled patterns in text order: sorting, pages,
 * next/previous hit for the explorer's n/N, and many patterns at once. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "base/internal.h"
#include "find_internal.h"

static int bits_for(uint64_t v)
{
    int b = 0;
    while (v) b++, v >>= 1;
    return b;
}

static int hit_cmp(const void *va, const void *vb)
{
    const rv_hit_t *a = va, *b = vb;
    if (a->pos != b->pos) return a->pos < b->pos ? -1 : 1;
    if (a->strand != b->strand) return a->strand == '+' ? -1 : 1;
    return a->pattern < b->pattern ? -1 : a->pattern > b->pattern;
}

/* Sort key (pos, strand, pattern) packed in 64 bits (checked by the caller). */
static inline uint64_t hit_key(const rv_hit_t *h, int pbits)
{
    return (h->pos << (pbits + 1)) | ((uint64_t)(h->strand == '-') << pbits) | h->pattern;
}

/* LSD radix sort on the packed key, 11 bits per pass: outputs can be tens of
 * millions of hits (a short pattern), where qsort would dominate. */
/* One pass of the LSD radix sort on every core: each thread counts the digits
 * of its slice, the counts become each (digit, thread)'s first slot, and each
 * thread moves its slice there in order (stable, as the serial pass). */
typedef struct {
    const rv_hit_t *src;
    rv_hit_t *dst;
    int shift, pbits;
    uint64_t (*cnt)[2048]; /* per thread */
} radix_pass_t;

static void radix_count(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    const radix_pass_t *r = ctx;
    uint64_t *c = r->cnt[t];
    memset(c, 0, sizeof r->cnt[t]);
    for (uint64_t i = lo; i < hi; i++) c[hit_key(&r->src[i], r->pbits) >> r->shift & 2047]++;
}

static void radix_move(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    const radix_pass_t *r = ctx;
    uint64_t *c = r->cnt[t];
    for (uint64_t i = lo; i < hi; i++) r->dst[c[hit_key(&r->src[i], r->pbits) >> r->shift & 2047]++] = r->src[i];
}

int rv_hits_sort(rv_hit_t *h, uint64_t n, int threads)
{
    uint64_t maxpos = 0, maxpat = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (h[i].pos > maxpos) maxpos = h[i].pos;
        if (h[i].pattern > maxpat) maxpat = h[i].pattern;
    }
    int pbits = bits_for(maxpat), total = bits_for(maxpos) + 1 + pbits;
    if (n < 256 || total > 64) {
        qsort(h, n, sizeof *h, hit_cmp);
        return 0;
    }
    /* a thread per 2^20 hits, up to `threads` (56 M hits of 10 M reads took 3.2 s
     * on one) */
    uint64_t T = n >> 20;
    if (threads < 1) threads = rv_default_threads();
    if (T > (uint64_t)threads) T = (uint64_t)threads;
    if (T < 1) T = 1;
    rv_hit_t *tmp = malloc(n * sizeof *tmp);
    uint64_t(*cnt)[2048] = malloc(T * sizeof *cnt);
    if (!tmp || !cnt) {
        free(tmp), free(cnt);
        return rv_error("hits", "out of memory");
    }
    rv_hit_t *src = h, *dst = tmp;
    for (int shift = 0; shift < total; shift += 11) {
        radix_pass_t r = {src, dst, shift, pbits, cnt};
        rv_parallel_for((int)T, n, radix_count, &r);
        uint64_t sum = 0;
        for (int d = 0; d < 2048; d++)
            for (uint64_t t = 0; t < T; t++) {
                const uint64_t c = cnt[t][d];
                cnt[t][d] = sum;
                sum += c;
            }
        rv_parallel_for((int)T, n, radix_move, &r);
        rv_hit_t *t = src;
        src = dst, dst = t;
    }
    if (src != h) memcpy(h, src, n * sizeof *h);
    free(tmp);
    free(cnt);
    return 0;
}

/* Iteration over every hit of a source (its SA ranges, then its list). */
typedef struct {
    const rv_hit_src_t *src;
    size_t i;
    uint64_t r, j;
    int started;
} hit_iter_t;

static int iter_next(hit_iter_t *it, rv_hit_t *h)
{
    const rv_hit_src_t *s = it->src;
    while (it->i < s->n_rng) {
        const rv_sa_range_t *g = &s->rng[it->i];
        if (!it->started) it->r = g->lo, it->started = 1;
        if (it->r < g->hi) {
            *h = (rv_hit_t){rv_sa(s->x, it->r++), 0, g->mism, g->strand};
            return 1;
        }
        it->i++, it->started = 0;
    }
    if (it->j >= s->n_lst) return 0;
    *h = s->lst[it->j++];
    h->pattern = 0;
    return 1;
}

static rv_hit_src_t source_of(const rv_pattern_t *p)
{
    return (rv_hit_src_t){p->x, p->rng, p->n_rng, p->lst, p->n_lst};
}

/* Write the hits of p into out (unsorted); returns the number written. */
static uint64_t fill_hits(const rv_pattern_t *p, uint32_t pattern, rv_hit_t *out)
{
    rv_hit_src_t src = source_of(p);
    hit_iter_t it = {&src, 0, 0, 0, 0};
    uint64_t k = 0;
    while (iter_next(&it, &out[k])) out[k++].pattern = pattern;
    return k;
}

/* Build the sorted hit cache when the count allows; 0 (cached or too many) or -1. */
static int ensure_cache(rv_pattern_t *p)
{
    if (rv_find_ensure(p) < 0) return -1;
    if (p->cached || p->count > p->cache_max) return 0;
    p->cache = malloc((p->count ? p->count : 1) * sizeof *p->cache);
    if (!p->cache) return rv_oom("pattern's hits", (p->count ? p->count : 1) * sizeof *p->cache);
    fill_hits(p, 0, p->cache);
    if (rv_hits_sort(p->cache, p->count, 0) < 0) return -1;
    p->cached = 1;
    return 0;
}

/* Index of the first cached hit with (pos, strand) >= (pos, s). */
static uint64_t cache_lower(const rv_pattern_t *p, uint64_t pos, char s)
{
    uint64_t lo = 0, hi = p->count;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        const rv_hit_t *h = &p->cache[mid];
        if (h->pos < pos || (h->pos == pos && h->strand < s)) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static inline int hit_less(const rv_hit_t *a, const rv_hit_t *b) { return hit_cmp(a, b) < 0; }

/* The max smallest hits >= from, by a bounded max-heap over every
 * occurrence (O(count log max)). */
int64_t rv_hits_first(const rv_hit_src_t *src, uint64_t from, rv_hit_t *out, size_t max)
{
    hit_iter_t it = {src, 0, 0, 0, 0};
    rv_hit_t h;
    size_t k = 0;
    while (iter_next(&it, &h)) {
        if (h.pos < from || (k == max && !hit_less(&h, &out[0]))) continue;
        size_t j;
        if (k < max) { /* sift up */
            for (j = k++; j > 0 && hit_less(&out[(j - 1) / 2], &h); j = (j - 1) / 2) out[j] = out[(j - 1) / 2];
        } else { /* replace the root, sift down */
            for (j = 0;;) {
                size_t c = 2 * j + 1;
                if (c >= k) break;
                if (c + 1 < k && hit_less(&out[c], &out[c + 1])) c++;
                if (!hit_less(&h, &out[c])) break;
                out[j] = out[c];
                j = c;
            }
        }
        out[j] = h;
    }
    qsort(out, k, sizeof *out, hit_cmp);
    return (int64_t)k;
}

int64_t rv_find_page(rv_pattern_t *p, uint64_t from, rv_hit_t *out, size_t max)
{
    if (ensure_cache(p) < 0) return -1;
    if (max == 0) return 0;
    if (!p->cached) {
        rv_hit_src_t src = source_of(p);
        return rv_hits_first(&src, from, out, max);
    }
    uint64_t i = cache_lower(p, from, 0), k = 0;
    for (; i < p->count && k < max; i++) out[k++] = p->cache[i];
    return (int64_t)k;
}

/* Without a cache: the smallest hit with pos > after (dir > 0) or the largest
 * with pos < before (dir < 0). */
static int scan_nearest(const rv_pattern_t *p, uint64_t bound, int dir, rv_hit_t *hit)
{
    rv_hit_src_t src = source_of(p);
    hit_iter_t it = {&src, 0, 0, 0, 0};
    rv_hit_t h;
    int found = 0;
    while (iter_next(&it, &h)) {
        if (dir > 0 ? h.pos <= bound : h.pos >= bound) continue;
        if (!found || (dir > 0 ? hit_less(&h, hit) : hit_less(hit, &h))) *hit = h, found = 1;
    }
    return found;
}

int rv_find_next(rv_pattern_t *p, int64_t after, rv_hit_t *hit)
{
    if (ensure_cache(p) < 0) return -1;
    uint64_t from = after < 0 ? 0 : (uint64_t)after + 1;
    if (!p->cached) return after < 0 ? rv_find_page(p, 0, hit, 1) > 0 : scan_nearest(p, (uint64_t)after, 1, hit);
    uint64_t i = cache_lower(p, from, 0);
    if (i >= p->count) return 0;
    *hit = p->cache[i];
    return 1;
}

int rv_find_prev(rv_pattern_t *p, uint64_t before, rv_hit_t *hit)
{
    if (ensure_cache(p) < 0) return -1;
    if (!p->cached) return scan_nearest(p, before, -1, hit);
    uint64_t i = cache_lower(p, before, 0);
    if (i == 0) return 0;
    *hit = p->cache[i - 1];
    return 1;
}

typedef struct {
    rv_pattern_t *const *pats;
    uint64_t *off; /* first hit slot of each pattern (filled in the second pass) */
    rv_hit_t *out;
    _Atomic int failed;
} many_t;

static void search_range(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    many_t *c = arg;
    for (uint64_t i = lo; i < hi; i++)
        if (rv_find_ensure(c->pats[i]) < 0) c->failed = 1;
}

static void fill_range(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    many_t *c = arg;
    for (uint64_t i = lo; i < hi; i++) fill_hits(c->pats[i], (uint32_t)i, c->out + c->off[i]);
}

int64_t rv_find_many(const rv_index_t *x, rv_pattern_t *const *pats, size_t n, int threads,
                     rv_hit_t **out)
{
    (void)x;
    *out = NULL;
    if (threads < 1) threads = rv_default_threads();
    many_t c = {pats, calloc(n + 1, sizeof *c.off), NULL, 0};
    if (!c.off) return rv_oom("hits' offsets", (n + 1) * sizeof *c.off);
    rv_parallel_dynamic(threads, n, 16, search_range, &c);
    if (c.failed) { free(c.off); return -1; }
    for (size_t i = 0; i < n; i++) c.off[i + 1] = c.off[i] + pats[i]->count;
    uint64_t total = c.off[n];
    c.out = malloc((total ? total : 1) * sizeof *c.out);
    if (!c.out) { free(c.off); return rv_oom("hits", (total ? total : 1) * sizeof *c.out); }
    rv_parallel_dynamic(threads, n, 64, fill_range, &c);
    free(c.off);
    if (rv_hits_sort(c.out, total, threads) < 0) { free(c.out); return -1; }
    *out = c.out;
    return (int64_t)total;
}
