/* find_text.c — pattern matches from the text alone (find.h "from the text
 * alone").
 *
 * Every pattern has at least k symbols, k the shortest pattern's length (at most
 * what 2^22 codes allow), so a match at i starts with the k breaker-free symbols
 * at i, and the code of those symbols (base sigma, most significant first, the
 * prefix buckets of buckets.h) is within the pattern's mismatches of its first k
 * positions.  Each pattern strand is filed under every such code (a depth-first
 * enumeration over the first k positions, a mismatch spent where a symbol is
 * outside the position's IUPAC set); one with more than ENUM_CAP codes (many
 * mismatches on a short prefix) is checked everywhere instead.  A pass over a
 * text range keeps the code of the k symbols at each position by a rolling sum
 * and checks only the strands filed there, symbol by symbol, stopping at the
 * first mismatch too many; the hits of one position are put in (strand, pattern)
 * order, so a range's hits come out in rv_find_many's order.
 */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "base/internal.h"
#include "find_internal.h"

enum { MAX_CODES_LOG2 = 22, ENUM_CAP = 1 << 14, TASK = 1 << 18 };

struct rv_find_text {
    const rv_seq_t *s;
    rv_pattern_t *const *pats;
    size_t n;
    int k;
    uint64_t sigma, n_codes, top; /* top = sigma^(k-1) */
    uint32_t *off;                /* n_codes + 1: the strands filed under each code */
    uint32_t *ent;                /* pattern << 1 | strand ('-' = 1) */
    uint64_t *all;                /* strands checked at every position */
    uint64_t n_all;
};

/* ---- filing ------------------------------------------------------------------------ */

typedef struct {
    const rv_pat_strand_t *ps;
    uint64_t sigma, count, cap;
    int k;
    unsigned kmm;
    uint32_t *off;  /* pass 1: count per code (at code + 1) ... */
    uint32_t *ent;  /* ... pass 2: file the entry at off[code]++ */
    uint32_t e;
} enum_t;

static void enum_codes(enum_t *en, int i, uint64_t code, unsigned cost)
{
    if (en->count > en->cap) return;
    if (i == en->k) {
        en->count++;
        if (en->ent) en->ent[en->off[code]++] = en->e;
        else if (en->off) en->off[code + 1]++;
        return;
    }
    for (uint64_t c = 1; c <= en->sigma; c++) {
        unsigned nc = cost + !rv_pat_match(en->ps, (size_t)i, (uint8_t)c);
        if (nc <= en->kmm) enum_codes(en, i + 1, code * en->sigma + (c - 1), nc);
    }
}

/* The number of codes of strand st of pattern j (ENUM_CAP + 1: too many). */
static uint64_t codes_of(const rv_find_text_t *f, size_t j, int st, uint32_t *off, uint32_t *ent)
{
    const rv_pattern_t *p = f->pats[j];
    enum_t en = {&p->s[st], f->sigma, 0, ENUM_CAP, f->k, p->k, off, ent, (uint32_t)(j << 1 | (size_t)st)};
    enum_codes(&en, 0, 0, 0);
    return en.count;
}

static int has_strand(const rv_pattern_t *p, int st)
{
    return st == 0 ? (p->strand & RV_STRAND_FWD) != 0 : (p->strand & RV_STRAND_REV) != 0;
}

rv_find_text_t *rv_find_text_new(const rv_seq_t *s, rv_pattern_t *const *pats, size_t n)
{
    rv_find_text_t *f = calloc(1, sizeof *f);
    if (!f) { rv_error("find", "out of memory"); return NULL; }
    f->s = s, f->pats = pats, f->n = n;
    if (n >= (1u << 31)) { rv_error("find", "too many patterns (%zu)", n); free(f); return NULL; }
    f->sigma = s->sigma > 1 ? (uint64_t)s->sigma : 1;
    size_t shortest = SIZE_MAX;
    for (size_t j = 0; j < n; j++) if (pats[j]->m < shortest) shortest = pats[j]->m;
    f->k = 1, f->n_codes = f->sigma, f->top = 1;
    while ((size_t)f->k < shortest && f->n_codes * f->sigma <= (1ull << MAX_CODES_LOG2)) {
        f->k++, f->top = f->n_codes;
        f->n_codes *= f->sigma;
    }
    f->off = calloc(f->n_codes + 1, sizeof *f->off);
    f->all = malloc((2 * n + 1) * sizeof *f->all);
    if (!f->off || !f->all) goto oom;
    uint64_t total = 0;
    for (size_t j = 0; j < n; j++) /* pass 1: count, or check everywhere */
        for (int st = 0; st < 2; st++) {
            if (!has_strand(pats[j], st)) continue;
            uint64_t c = codes_of(f, j, st, NULL, NULL);
            if (c > ENUM_CAP) f->all[f->n_all++] = (uint64_t)j << 1 | (uint64_t)st;
            else total += codes_of(f, j, st, f->off, NULL);
        }
    if (total >= UINT32_MAX) { rv_error("find", "too many patterns to file (%llu entries)", (unsigned long long)total); goto fail; }
    for (uint64_t c = 0; c < f->n_codes; c++) f->off[c + 1] += f->off[c];
    f->ent = malloc((total ? total : 1) * sizeof *f->ent);
    if (!f->ent) goto oom;
    for (size_t j = 0, a = 0; j < n; j++) /* pass 2: file (off[c] moves to the next code's start) */
        for (int st = 0; st < 2; st++) {
            if (!has_strand(pats[j], st)) continue;
            if (a < f->n_all && f->all[a] == ((uint64_t)j << 1 | (uint64_t)st)) { a++; continue; }
            codes_of(f, j, st, f->off, f->ent);
        }
    for (uint64_t c = f->n_codes; c > 0; c--) f->off[c] = f->off[c - 1]; /* back to starts */
    f->off[0] = 0;
    return f;
oom:
    rv_error("find", "out of memory");
fail:
    rv_find_text_free(f);
    return NULL;
}

void rv_find_text_free(rv_find_text_t *f)
{
    if (!f) return;
    free(f->off);
    free(f->ent);
    free(f->all);
    free(f);
}

int rv_find_text_k(const rv_find_text_t *f) { return f->k; }

/* ---- scanning ---------------------------------------------------------------------- */

typedef struct {
    rv_hit_t *h;
    uint64_t n, cap;
    int oom;
} hitvec_t;

static void hv_push(hitvec_t *v, rv_hit_t h)
{
    if (v->n == v->cap) {
        uint64_t cap = v->cap ? 2 * v->cap : 256;
        rv_hit_t *g = realloc(v->h, cap * sizeof *g);
        if (!g) { v->oom = 1; return; }
        v->h = g, v->cap = cap;
    }
    v->h[v->n++] = h;
}

/* Strand entry e at text position i (room >= pattern length before a breaker). */
static void check(const rv_find_text_t *f, uint64_t e, uint64_t i, uint64_t room, hitvec_t *v)
{
    const rv_pattern_t *p = f->pats[e >> 1];
    if (p->m > room) return;
    const rv_pat_strand_t *ps = &p->s[e & 1];
    const uint8_t *t = f->s->text + i;
    unsigned mm = 0;
    for (size_t q = 0; q < p->m; q++)
        if (!rv_pat_match(ps, q, t[q]) && ++mm > p->k) return;
    hv_push(v, (rv_hit_t){i, (uint32_t)(e >> 1), (uint16_t)mm, (e & 1) ? '-' : '+'});
}

static void scan_range(const rv_find_text_t *f, uint64_t lo, uint64_t hi, hitvec_t *v)
{
    const rv_seq_t *s = f->s;
    const uint8_t *t = s->text;
    const uint64_t k = (uint64_t)f->k, sigma = f->sigma;
    if (lo >= hi || !s->n_seg) return;
    for (uint64_t g = rv_seq_segment_of_text(s, lo); g < s->n_seg && s->seg[g].tpos < hi; g++) {
        const uint64_t send = s->seg[g].tpos + s->seg[g].len, en = send < hi ? send : hi;
        uint64_t i = s->seg[g].tpos > lo ? s->seg[g].tpos : lo, code = 0;
        int have = 0;
        for (; i < en && send - i >= k; i++) {
            if (have) {
                code = (code - (uint64_t)(t[i - 1] - 1) * f->top) * sigma + (uint64_t)(t[i + k - 1] - 1);
            } else {
                for (uint64_t q = 0; q < k; q++) code = code * sigma + (uint64_t)(t[i + q] - 1);
                have = 1;
            }
            const uint64_t first = v->n;
            for (uint64_t a = f->off[code]; a < f->off[code + 1]; a++) check(f, f->ent[a], i, send - i, v);
            for (uint64_t a = 0; a < f->n_all; a++) check(f, f->all[a], i, send - i, v);
            for (uint64_t a = first + 1; a < v->n; a++) { /* this position's hits: (strand, pattern) */
                rv_hit_t h = v->h[a];
                uint64_t b = a;
                for (; b > first && (v->h[b - 1].strand > h.strand ||
                                     (v->h[b - 1].strand == h.strand && v->h[b - 1].pattern > h.pattern)); b--)
                    v->h[b] = v->h[b - 1];
                v->h[b] = h;
            }
        }
    }
}

typedef struct {
    const rv_find_text_t *f;
    uint64_t lo, hi;
    hitvec_t *task;
} scan_ctx_t;

static void scan_tasks(void *arg, uint64_t t0, uint64_t t1, int tid)
{
    (void)tid;
    scan_ctx_t *c = arg;
    for (uint64_t t = t0; t < t1; t++) {
        uint64_t a = c->lo + t * TASK, b = a + TASK < c->hi ? a + TASK : c->hi;
        scan_range(c->f, a, b, &c->task[t]);
    }
}

int64_t rv_find_text_range(const rv_find_text_t *f, uint64_t lo, uint64_t hi, int threads, rv_hit_t **out)
{
    *out = NULL;
    if (hi > f->s->n) hi = f->s->n;
    if (lo > hi) lo = hi;
    if (threads <= 0) threads = rv_default_threads();
    const uint64_t tasks = (hi - lo + TASK - 1) / TASK;
    scan_ctx_t c = {f, lo, hi, calloc(tasks ? tasks : 1, sizeof(hitvec_t))};
    if (!c.task) return rv_oom("search's tasks", (tasks ? tasks : 1) * sizeof(hitvec_t));
    rv_parallel_dynamic(tasks > 1 ? threads : 1, tasks, 1, scan_tasks, &c);
    uint64_t total = 0;
    int oom = 0;
    for (uint64_t t = 0; t < tasks; t++) total += c.task[t].n, oom |= c.task[t].oom;
    rv_hit_t *h = oom ? NULL : malloc((total ? total : 1) * sizeof *h);
    for (uint64_t t = 0, at = 0; t < tasks; t++) {
        if (h && c.task[t].n) memcpy(h + at, c.task[t].h, c.task[t].n * sizeof *h);
        at += c.task[t].n;
        free(c.task[t].h);
    }
    free(c.task);
    if (!h) return rv_oom("hits", (total ? total : 1) * sizeof *h);
    *out = h;
    return (int64_t)total;
}
