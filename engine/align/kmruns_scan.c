/* kmruns_scan.c — k-mismatch runs (kmruns.h): for each period the mismatch bits of the
 * text against itself shifted by p, walked mismatch by mismatch only around the
 * blocks that could lie inside a run long enough to report. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "repview/common.h"
#include "repview/kmruns.h"
#include "base/internal.h"

typedef struct { uint64_t lo, hi; } seg_t;

typedef struct { /* the windows of one period, in text order */
    rv_kmrun_t *v;
    uint64_t n, cap;
} list_t;

typedef struct {
    const rv_seq_t *s;
    const rv_kmruns_opts_t *o;
    const seg_t *seg;
    uint64_t n_seg;
    list_t *by_p;        /* [p], p = 1..max_period */
    uint64_t **words;    /* a thread's mismatch words */
    uint64_t *words_cap;
    _Atomic int rc;      /* -1 once a thread failed (the others stop) */
    char why[400];       /* that thread's message */
} job_t;

/* Bit j set when a[j] != b[j], j < 64. */
static uint64_t neq_word(const uint8_t *a, const uint8_t *b)
{
#if defined(__SSE2__)
    uint64_t eq = 0;
    for (int h = 0; h < 4; h++) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(a + 16 * h));
        const __m128i y = _mm_loadu_si128((const __m128i *)(b + 16 * h));
        eq |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) << (16 * h);
    }
    return ~eq;
#else
    uint64_t w = 0;
    for (int j = 0; j < 64; j++) w |= (uint64_t)(a[j] != b[j]) << j;
    return w;
#endif
}

/* The least length a run of period p must have to be reported. */
static uint64_t least_len(const rv_kmruns_opts_t *o, uint64_t p)
{
    uint64_t l = 2 * p;
    if (o->min_len > l) l = o->min_len;
    double c = o->min_copies * (double)p;
    if (c > (double)l) l = (uint64_t)c + ((double)(uint64_t)c < c);
    return l;
}

/* Whether an aligned block of g bits of w has at most k set. */
static int has_block(uint64_t w, int g, uint64_t k)
{
    if (g == 64) return (uint64_t)__builtin_popcountll(w) <= k;
    const uint64_t mask = (1ull << g) - 1;
    for (int sh = 0; sh < 64; sh += g)
        if ((uint64_t)__builtin_popcountll(w >> sh & mask) <= k) return 1;
    return 0;
}

static int push(list_t *l, rv_kmrun_t r)
{
    if (l->n == l->cap) {
        uint64_t cap = l->cap ? 2 * l->cap : 64;
        rv_kmrun_t *v = realloc(l->v, cap * sizeof *v);
        if (!v) return rv_oom("k-mismatch runs", cap * sizeof *v);
        l->v = v, l->cap = cap;
    }
    l->v[l->n++] = r;
    return 0;
}

/* The (k+1)-th set bit before bit x of w (words [0, x / 64]), or -1 when fewer. */
static int64_t back_mismatch(const uint64_t *w, int64_t x, uint64_t k)
{
    uint64_t need = k + 1;
    int64_t i = x / 64;
    uint64_t cur = x % 64 ? w[i] & ((1ull << (x % 64)) - 1) : 0;
    for (;;) {
        const uint64_t c = (uint64_t)__builtin_popcountll(cur);
        if (c >= need) { /* the need-th highest bit of cur */
            for (uint64_t j = 1; j < need; j++) cur &= ~(1ull << (63 - __builtin_clzll(cur)));
            return i * 64 + (63 - __builtin_clzll(cur));
        }
        need -= c;
        if (--i < 0) return -1;
        cur = w[i];
    }
}

/* The windows of period p in segment [lo, hi): comparisons c in [0, W) are
 * text[lo + c] != text[lo + c + p]; a window between mismatches l < m (k of them
 * or fewer between) is [lo + l + 1, lo + m + p). */
static int period_segment(job_t *J, int t, uint64_t p, uint64_t lo, uint64_t hi, list_t *out)
{
    const uint8_t *x = J->s->text;
    const uint64_t k = J->o->k;
    if (hi - lo <= p) return 0;
    const uint64_t W = hi - lo - p, nw = (W + 63) / 64;
    const uint64_t least = least_len(J->o, p);
    if (hi - lo < least) return 0;
    const uint64_t wmin = least - p; /* comparisons */
    int g = 64;
    while (g > 1 && 2 * (uint64_t)g - 1 > wmin) g /= 2;
    if (nw > J->words_cap[t]) {
        uint64_t *w = realloc(J->words[t], nw * sizeof *w);
        if (!w) return rv_oom("k-mismatch runs' mismatch words", nw * sizeof *w);
        J->words[t] = w, J->words_cap[t] = nw;
    }
    uint64_t *w = J->words[t];
    for (uint64_t i = 0; i + 1 < nw || (i < nw && W % 64 == 0); i++) w[i] = neq_word(x + lo + 64 * i, x + lo + p + 64 * i);
    if (W % 64) { /* the last, partial word: the bits past W set */
        const uint64_t i = nw - 1, r = W % 64;
        uint64_t v = ~0ull;
        for (uint64_t j = 0; j < r; j++)
            if (x[lo + 64 * i + j] == x[lo + p + 64 * i + j]) v &= ~(1ull << j);
        w[i] = v;
    }
    int64_t done = -1; /* windows ending at mismatches <= done are out */
    uint64_t ring_cap = k + 2;
    int64_t ring[66], *rg = k + 2 <= 66 ? ring : malloc(ring_cap * sizeof *rg);
    if (!rg) return rv_oom("k-mismatch runs' windows", ring_cap * sizeof *rg);
    int rc = 0;
    for (uint64_t i = 0; rc == 0 && i < nw;) {
        if (!has_block(w[i], g, k)) { i++; continue; }
        /* walk from the (k+1)-th mismatch before the block's word */
        int64_t cand_end = (int64_t)(64 * (i + 1)), m = back_mismatch(w, (int64_t)(64 * i), k);
        uint64_t cnt = 0;
        rg[cnt++ % ring_cap] = m;
        uint64_t j = (uint64_t)(m + 1) / 64; /* the word of the next bit */
        uint64_t cur = j < nw ? w[j] & (~0ull << ((uint64_t)(m + 1) % 64)) : 0;
        for (;;) {
            while (!cur && ++j < nw) {
                cur = w[j];
                if ((int64_t)(64 * (j + 1)) > cand_end && has_block(w[j], g, k)) cand_end = (int64_t)(64 * (j + 1));
            }
            m = j < nw ? (int64_t)(64 * j + (uint64_t)__builtin_ctzll(cur)) : (int64_t)W;
            if (m > (int64_t)W) m = (int64_t)W;
            cur &= cur - 1;
            /* the window ending at m: from the (k+1)-th mismatch before it, known when
             * the walk began there or at the segment's start (-1); maximal when k
             * mismatches lie between or m is the end */
            const int known = cnt >= k + 1 || rg[0] < 0;
            const int64_t left = cnt >= k + 1 ? rg[(cnt - k - 1) % ring_cap] : rg[0];
            const uint64_t between = cnt >= k + 1 ? k : cnt - 1;
            if (known && m > done) {
                if ((between == k || m == (int64_t)W) && (uint64_t)(m - left - 1) >= wmin) {
                    rv_kmrun_t r = {lo + (uint64_t)(left + 1), lo + (uint64_t)m + p, p, between, 0};
                    if ((rc = push(out, r)) < 0) break;
                }
                done = m;
            }
            rg[cnt++ % ring_cap] = m;
            if (m >= (int64_t)W) { i = nw; break; }
            /* later windows start past the next left end: none holds a block any more */
            const int64_t next_left = cnt >= k + 1 ? rg[(cnt - k - 1) % ring_cap] : rg[0];
            if (next_left + 1 >= cand_end) { i = (uint64_t)m / 64 + 1; break; }
        }
    }
    if (rg != ring) free(rg);
    return rc;
}

static void period_range(void *ctx, uint64_t a, uint64_t b, int t)
{
    job_t *J = ctx;
    for (uint64_t p = a + 1; p <= b && J->rc == 0; p++)
        for (uint64_t i = 0; i < J->n_seg && J->rc == 0; i++)
            if (period_segment(J, t, p, J->seg[i].lo, J->seg[i].hi, &J->by_p[p]) < 0 &&
                atomic_exchange(&J->rc, -1) == 0) /* the first message (messages are per thread) */
                snprintf(J->why, sizeof J->why, "%s", rv_last_error());
}

/* Whether text[r) shifted by q has at most most mismatches. */
static int near_periodic(const uint8_t *x, const rv_kmrun_t *r, uint64_t q, uint64_t most)
{
    uint64_t c = 0;
    for (uint64_t i = r->start; i + q < r->end; i++)
        if (x[i] != x[i + q] && ++c > most) return 0;
    return 1;
}

static int by_start(const void *x, const void *y)
{
    const rv_kmrun_t *a = x, *b = y;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    return a->period < b->period ? -1 : a->period > b->period;
}

/* Each column's most frequent symbol (kmruns.h). */
static void consensus(const uint8_t *x, const rv_kmrun_t *r, uint8_t *mot)
{
    uint64_t cnt[256];
    for (uint64_t c = 0; c < r->period; c++) {
        memset(cnt, 0, sizeof cnt);
        for (uint64_t q = r->start + c; q < r->end; q += r->period) cnt[x[q]]++;
        const uint8_t first = x[r->start + c];
        uint8_t best = first;
        for (int v = 0; v < 256; v++)
            if (cnt[v] > cnt[best]) best = (uint8_t)v;
        mot[c] = best;
    }
}

int rv_kmruns_find(const rv_seq_t *s, uint64_t lo, uint64_t hi, const rv_kmruns_opts_t *o, int threads,
                   rv_kmrun_set_t *out)
{
    memset(out, 0, sizeof *out);
    if (o->max_period < 1 || o->min_period > o->max_period) return 0;
    if (hi > s->n) hi = s->n;
    if (threads <= 0) threads = rv_default_threads();
    /* the segments overlapping [lo, hi) */
    uint64_t n_seg = 0, cap = 16;
    seg_t *seg = malloc(cap * sizeof *seg);
    if (!seg) return rv_oom("k-mismatch runs' segments", cap * sizeof *seg);
    uint64_t a = lo;
    while (a > 0 && s->text[a - 1] != RV_BREAK) a--;
    while (a < s->n && a < hi) {
        while (a < s->n && s->text[a] == RV_BREAK) a++;
        if (a >= s->n || a >= hi) break;
        const uint8_t *e = memchr(s->text + a, RV_BREAK, s->n - a);
        const uint64_t b = e ? (uint64_t)(e - s->text) : s->n;
        if (n_seg == cap) {
            seg_t *v = realloc(seg, 2 * cap * sizeof *v);
            if (!v) { free(seg); return rv_oom("k-mismatch runs' segments", 2 * cap * sizeof *v); }
            seg = v, cap *= 2;
        }
        seg[n_seg++] = (seg_t){a, b};
        a = b;
    }
    const uint64_t P = o->max_period;
    job_t J = {s, o, seg, n_seg, calloc(P + 1, sizeof(list_t)), calloc((size_t)threads, sizeof(uint64_t *)),
               calloc((size_t)threads, sizeof(uint64_t)), 0, ""};
    int rc = J.by_p && J.words && J.words_cap ? 0
           : rv_oom("k-mismatch runs' periods", (P + 1) * sizeof(list_t) + 2 * (uint64_t)threads * sizeof(uint64_t));
    if (rc == 0) {
        rv_parallel_dynamic(threads, P, 1, period_range, &J);
        rc = J.rc < 0 ? rv_error(NULL, "%s", J.why) : 0;
    }
    /* the runs that a dividing period describes as well go (kmruns.h); those of
     * [lo, hi) stay */
    uint64_t total = 0, bytes = 0;
    for (uint64_t p = o->min_period; rc == 0 && p <= P; p++) {
        list_t *l = &J.by_p[p];
        uint64_t kept = 0;
        for (uint64_t i = 0; i < l->n; i++) {
            const rv_kmrun_t *r = &l->v[i];
            int drop = r->end <= lo || r->start >= hi;
            for (uint64_t q = 1; !drop && q * 2 <= p; q++)
                if (p % q == 0 && near_periodic(s->text, r, q, 2 * o->k)) drop = 1;
            l->v[i].motif = drop; /* a mark until they are gathered */
            kept += !drop;
        }
        total += kept, bytes += kept * p;
    }
    if (rc == 0) {
        out->v = malloc((total ? total : 1) * sizeof *out->v);
        out->motifs = malloc(bytes ? bytes : 1);
        if (!out->v || !out->motifs) rc = rv_oom("k-mismatch runs", (total ? total : 1) * sizeof *out->v + bytes);
    }
    for (uint64_t p = o->min_period; rc == 0 && p <= P; p++)
        for (uint64_t i = 0; i < J.by_p[p].n; i++)
            if (!J.by_p[p].v[i].motif) out->v[out->n++] = J.by_p[p].v[i];
    if (rc == 0) {
        qsort(out->v, out->n, sizeof *out->v, by_start);
        uint64_t off = 0;
        for (uint64_t i = 0; i < out->n; i++) {
            out->v[i].motif = off;
            consensus(s->text, &out->v[i], out->motifs + off);
            off += out->v[i].period;
        }
    }
    for (uint64_t p = 0; J.by_p && p <= P; p++) free(J.by_p[p].v);
    for (int t = 0; J.words && t < threads; t++) free(J.words[t]);
    free(J.by_p), free(J.words), free(J.words_cap), free(seg);
    if (rc < 0) rv_kmruns_free(out);
    return rc;
}

void rv_kmruns_free(rv_kmrun_set_t *a)
{
    if (!a) return;
    free(a->v), free(a->motifs);
    memset(a, 0, sizeof *a);
}
