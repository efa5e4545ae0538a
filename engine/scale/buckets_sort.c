/* buckets_sort.c — a job of the bucket plan (buckets_plan.c) collected and sorted, with
 * the LCPs of its neighbours, on the CPU or on the GPU (buckets.h; RACE
 * §5, ERA's vertical partitioning).
 *
 * A job collects its codes' suffixes in one pass over the text (or its job map
 * or lists), with the key after each code read while the starts come in text
 * order (a counting sort by code follows), then sorts each bucket by multikey
 * quicksort (Bentley & Sedgewick) on 64-bit keys holding the next eight symbols,
 * zeroed from the first breaker on so that a suffix ends where its repeats must
 * end.  Equal keys without a breaker go one key deeper, or, when a whole range is
 * equal, to where its suffixes part (compared in place, at most JUMP_MAX symbols
 * on); equal keys with one are equal suffixes as far as any repeat is concerned
 * (their order is by position).  The LCPs of neighbours come with the sort
 * (LCP-aware multikey quicksort: from the keys at each partition's boundaries and
 * in each small range), the text read again only for neighbours with equal keys;
 * at a bucket's start, from the two buckets' codes.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "repview/buckets.h"
#include "repview/common.h"
#include "repview/gpu.h"
#include "buckets_internal.h"
#include "base/internal.h"

enum { SMALL_SORT = 16, JUMP_MAX = 64 };

/* the text on the GPU for the jobs (rv_bucket_gpu_begin) */
static _Atomic int gpu_on;
static const rv_seq_t *gpu_seq;

/* ---- sort one bucket ---------------------------------------------------------- */

/* The eight symbols at p (big-endian: the first is the most significant), zero
 * from the first breaker or the text end on. */
static inline uint64_t key_at(const uint8_t *t, uint64_t n, uint64_t p)
{
    uint64_t w = 0;
    if (p + 8 <= n) {
        memcpy(&w, t + p, 8);
        w = __builtin_bswap64(w);
    } else {
        for (uint64_t i = 0; i < 8; i++) w = w << 8 | (p + i < n ? t[p + i] : 0);
    }
    /* exact zero-byte test (no false positives from borrows) */
    const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full;
    uint64_t z = ~(((w & lo7) + lo7) | w | lo7);
    if (z) {
        int j = __builtin_clzll(z) >> 3; /* first breaker, from the left */
        w = j ? w & (~0ull << (64 - 8 * j)) : 0;
    }
    return w;
}

static inline int key_ended(uint64_t k) { return (k & 0xff) == 0; }

/* Symbols before the first breaker of a key (8: none). */
static inline uint64_t key_run(uint64_t k)
{
    const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full;
    uint64_t z = ~(((k & lo7) + lo7) | k | lo7);
    return z ? (uint64_t)(__builtin_clzll(z) >> 3) : 8;
}

typedef struct {
    uint64_t key, pos;
} item_t;

typedef struct {
    uint64_t lo, hi, depth, keyed; /* keyed: the items' keys are those at depth */
} task_t;

/* lcp of the suffixes at a and b, known to share d symbols, but no more than lim:
 * the text compared in place, 16 bytes at a time, to the first difference or the
 * first breaker (long repeats cost a key a step otherwise). */
static uint64_t lcp_upto(const uint8_t *t, uint64_t n, uint64_t a, uint64_t b, uint64_t d, uint64_t lim)
{
    uint64_t end = n - (a > b ? a : b), i = d;
    if (end > lim) end = lim;
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= end; i += 16) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(t + a + i)), y = _mm_loadu_si128((const __m128i *)(t + b + i));
        const unsigned same = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)),
                       brk = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, zero));
        const unsigned stop = (~same | brk) & 0xffffu;
        if (stop) return i + (uint64_t)__builtin_ctz(stop);
    }
#endif
    for (; i < end; i++)
        if (t[a + i] != t[b + i] || t[a + i] == RV_BREAK) return i;
    return end;
}

static inline uint64_t lcp_from(const uint8_t *t, uint64_t n, uint64_t a, uint64_t b, uint64_t d)
{
    return lcp_upto(t, n, a, b, d, UINT64_MAX);
}

/* Full comparison of two suffixes from depth d (for the small ranges): the
 * symbols after their lcp, a breaker or the text's end being below all; equal up
 * to a breaker, by position. */
static int suffix_less(const uint8_t *t, uint64_t n, uint64_t a, uint64_t b, uint64_t d)
{
    const uint64_t l = lcp_from(t, n, a, b, d);
    const unsigned x = a + l < n ? t[a + l] : RV_BREAK, y = b + l < n ? t[b + l] : RV_BREAK;
    return x != y ? x < y : a < b;
}

/* Order of two items whose keys are those at depth d. */
static inline int item_less(const uint8_t *t, uint64_t n, const item_t *a, const item_t *b, uint64_t d)
{
    if (a->key != b->key) return a->key < b->key;
    if (key_ended(a->key)) return a->pos < b->pos;
    return suffix_less(t, n, a->pos, b->pos, d + 8);
}

/* lcp of two suffixes sharing d symbols whose keys at d are x and y: keys that
 * differ differ no later than a breaker (a key is zero from its first breaker on),
 * equal keys that end are equal up to the breaker, and only equal keys without
 * one need the text. */
static inline uint64_t lcp_of_keys(const uint8_t *t, uint64_t n, const item_t *a, const item_t *b, uint64_t d)
{
    if (a->key != b->key) return d + (uint64_t)(__builtin_clzll(a->key ^ b->key) >> 3);
    if (key_ended(a->key)) return d + key_run(a->key);
    return lcp_from(t, n, a->pos, b->pos, d + 8);
}

/* Sort items a[0, m) by their suffixes from depth on (keyed: their keys at depth
 * are already read): multikey quicksort on eight symbols at a time.  With lcp, also
 * lcp[i] = lcp(a[i-1], a[i]) for 0 < i < m, found as the sort goes (LCP-aware
 * string sorting): a partition at depth d knows the lcp at its two boundaries
 * from the largest key below the pivot and the smallest above, and a range small
 * enough for insertion sort from its neighbours' keys; the text is read again only
 * for neighbours whose keys are the same.  A range whose keys are all the same
 * (a repeat longer than a key) goes at once to the depth where its suffixes part,
 * up to JUMP_MAX symbols deeper, found by comparing them in place with its first,
 * instead of a key at a time. */
static int sort_items(const uint8_t *t, uint64_t n, item_t *a, uint64_t m, uint64_t depth, int keyed,
                      uint64_t *lcp)
{
    uint64_t cap = 64, sp = 0;
    task_t *st = malloc(cap * sizeof *st);
    if (!st) return rv_error("buckets", "out of memory");
    st[sp++] = (task_t){0, m, depth, (uint64_t)keyed};
    while (sp) {
        task_t k = st[--sp];
        uint64_t len = k.hi - k.lo;
        item_t *v = a + k.lo;
        if (len < 2) continue;
        for (uint64_t i = 0; !k.keyed && i < len; i++) { /* random reads of the text: ask ahead */
            if (i + 8 < len) __builtin_prefetch(t + v[i + 8].pos + k.depth);
            v[i].key = key_at(t, n, v[i].pos + k.depth);
        }
        if (len <= SMALL_SORT) { /* insertion sort on the keys, deeper only on ties */
            for (uint64_t i = 1; i < len; i++) {
                item_t x = v[i];
                uint64_t j = i;
                for (; j > 0 && item_less(t, n, &x, &v[j - 1], k.depth); j--) v[j] = v[j - 1];
                v[j] = x;
            }
            for (uint64_t i = 1; lcp && i < len; i++) lcp[k.lo + i] = lcp_of_keys(t, n, &v[i - 1], &v[i], k.depth);
            continue;
        }
        /* median of three keys as the pivot, then a three-way partition */
        uint64_t x = v[0].key, y = v[len / 2].key, z = v[len - 1].key;
        uint64_t piv = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
        uint64_t lt = 0, i = 0, gt = len, below = 0, above = UINT64_MAX;
        while (i < gt) {
            if (v[i].key < piv) {
                if (v[i].key > below) below = v[i].key;
                item_t s = v[lt]; v[lt++] = v[i]; v[i++] = s;
            } else if (v[i].key > piv) {
                if (v[i].key < above) above = v[i].key;
                item_t s = v[--gt]; v[gt] = v[i]; v[i] = s;
            } else {
                i++;
            }
        }
        if (lcp && lt > 0) lcp[k.lo + lt] = k.depth + (uint64_t)(__builtin_clzll(below ^ piv) >> 3);
        if (lcp && gt < len) lcp[k.lo + gt] = k.depth + (uint64_t)(__builtin_clzll(piv ^ above) >> 3);
        if (sp + 3 > cap) {
            task_t *g = realloc(st, (cap *= 2) * sizeof *g);
            if (!g) { free(st); return rv_error("buckets", "out of memory"); }
            st = g;
        }
        st[sp++] = (task_t){k.lo, k.lo + lt, k.depth, 1}; /* keys at the same depth: kept */
        st[sp++] = (task_t){k.lo + gt, k.hi, k.depth, 1};
        if (key_ended(piv)) { /* equal up to a breaker: by position, as suffix_less does */
            for (uint64_t u = lt + 1; u < gt; u++) {
                item_t s = v[u];
                uint64_t w = u;
                for (; w > lt && v[w - 1].pos > s.pos; w--) v[w] = v[w - 1];
                v[w] = s;
            }
            for (uint64_t u = lt + 1; lcp && u < gt; u++) lcp[k.lo + u] = k.depth + key_run(piv);
            continue;
        }
        uint64_t next = k.depth + 8;
        if (lt == 0 && gt == len) {
            /* all the same: where the first parts from the others, but at most
             * JUMP_MAX symbols on (an exact tandem array of c copies sheds one suffix
             * every period: scans to the end each time would be cubic in c, 62 s
             * against 1.9 s for 2000 copies of 40 bp) */
            uint64_t most = next + JUMP_MAX;
            for (uint64_t u = 1; u < len && most > next; u++) most = lcp_upto(t, n, v[0].pos, v[u].pos, next, most);
            next = most;
        }
        st[sp++] = (task_t){k.lo + lt, k.lo + gt, next, 0};
    }
    free(st);
    return 0;
}

/* Sort a bucket's items by their suffixes from depth on (keyed: their keys at depth
 * are already read; lcp: their LCPs too, but for lcp[0]). */
static int sort_bucket(const uint8_t *t, uint64_t n, item_t *a, uint64_t m, uint64_t depth)
{
    return sort_items(t, n, a, m, depth, 0, NULL);
}

static int sort_bucket_keyed(const uint8_t *t, uint64_t n, item_t *a, uint64_t m, uint64_t depth, uint64_t *lcp)
{
    return sort_items(t, n, a, m, depth, 1, lcp);
}

/* ---- where a job's time goes (REPVIEW_JOB_TRACE=1) ------------------------------ */

static _Atomic uint64_t phase_ns[RV_JOB_PHASES], phase_jobs;

static uint64_t now_ns(void) { return (uint64_t)(rv_now() * 1e9); }

void rv_bucket_phase_add(int phase, uint64_t ns) { atomic_fetch_add(&phase_ns[phase], ns); }

void rv_bucket_phase_report(FILE *f, const char *who)
{
    static const char *name[RV_JOB_PHASES] = {"collect", "radix", "sort", "lcp", "walk"};
    fprintf(f, "jobs\t%s\t%llu", who, (unsigned long long)atomic_load(&phase_jobs));
    for (int i = 0; i < RV_JOB_PHASES; i++) fprintf(f, "\t%s %.2f", name[i], atomic_load(&phase_ns[i]) / 1e9);
    fputc('\n', f);
}

/* ---- on the GPU ------------------------------------------------------------------ */

/* Tied suffixes the device leaves to the CPU: below this many, a round's fixed cost
 * (a dozen launches and three waits) is more than the CPU's work on them. */
enum { GPU_MIN_LEFT = 1 << 15 };

static uint64_t gpu_min_left = GPU_MIN_LEFT;

int rv_bucket_gpu_begin(const rv_seq_t *s, int device)
{
    /* test hook: REPVIEW_GPU_BUCKET_LEFT=1 keeps every round on the device */
    const char *e = getenv("REPVIEW_GPU_BUCKET_LEFT");
    gpu_min_left = e && *e ? strtoull(e, NULL, 10) : GPU_MIN_LEFT;
    /* test hook: REPVIEW_TEST_GPU_REFUSE=1 as where the text does not fit the device */
    if ((e = getenv("REPVIEW_TEST_GPU_REFUSE")) && *e == '1') return rv_error("gpu", "the device refused the text (test)");
    if (rv_gpu_buckets_open(s->text, s->n, s->sigma, device) < 0) return -1;
    gpu_seq = s;
    atomic_store(&gpu_on, 1);
    return 0;
}

void rv_bucket_gpu_end(void)
{
    if (!atomic_exchange(&gpu_on, 0)) return;
    rv_gpu_buckets_close();
    gpu_seq = NULL;
}

int rv_bucket_gpu_on(void) { return atomic_load(&gpu_on); }

int rv_bucket_gpu_holds(const rv_seq_t *s) { return atomic_load(&gpu_on) && gpu_seq == s; }

/* The job on the device, then what it leaves: the groups still tied (sorted from
 * their common depth, as sort_bucket does) and the LCP at each bucket's start. */
static int job_sort_gpu(const rv_seq_t *s, const rv_bucket_plan_t *p, const rv_bucket_job_t *job,
                        const uint64_t *off, uint64_t nc, uint64_t m, uint64_t *pos, uint64_t *lcp)
{
    uint64_t depth = 0, *groups = NULL, ng = 0;
    if (rv_gpu_buckets_job(p->sigma, p->k, job->code_lo, nc, off, m, gpu_min_left, pos, lcp, &depth, &groups,
                           &ng) < 0)
        return -1;
    uint64_t most = 0;
    for (uint64_t g = 0; g < ng; g++)
        if (groups[2 * g + 1] > most) most = groups[2 * g + 1];
    item_t *it = ng ? malloc(most * sizeof *it) : NULL;
    int rc = ng && !it ? rv_error("buckets", "out of memory") : 0;
    for (uint64_t g = 0; rc == 0 && g < ng; g++) {
        uint64_t b = groups[2 * g], c = groups[2 * g + 1];
        for (uint64_t i = 0; i < c; i++) it[i] = (item_t){0, pos[b + i]};
        rc = sort_bucket(s->text, s->n, it, c, depth);
        for (uint64_t i = 0; rc == 0 && i < c; i++) {
            pos[b + i] = it[i].pos;
            if (i) lcp[b + i] = lcp_from(s->text, s->n, it[i - 1].pos, it[i].pos, depth);
        }
    }
    free(it);
    free(groups);
    for (uint64_t c = 0; rc == 0 && c < nc; c++)
        if (off[c] < off[c + 1])
            lcp[off[c]] = off[c] == 0 ? 0 : lcp_from(s->text, s->n, pos[off[c] - 1], pos[off[c]], 0);
    return rc;
}

/* The buffers of a job, kept from one job to the next: a job's arrays are hundreds
 * of MB, and fresh pages cost the kernel a fault and a zeroing each (a fifth of
 * a job's time, and more with many ranks of a host faulting at once). */
struct rv_bucket_scratch {
    item_t *it, *tmp;
    uint64_t *lcp, *off, *cur; /* cur: the radix sort's cursors, one a code */
    uint64_t cap, cap_off;
};

rv_bucket_scratch_t *rv_bucket_scratch_new(void) { return calloc(1, sizeof(rv_bucket_scratch_t)); }

void rv_bucket_scratch_free(rv_bucket_scratch_t *sc)
{
    if (!sc) return;
    free(sc->it), free(sc->tmp), free(sc->lcp), free(sc->off), free(sc->cur);
    free(sc);
}

static int scratch_fit(rv_bucket_scratch_t *sc, uint64_t m, uint64_t nc)
{
    if (m < 1) m = 1;
    if (m > sc->cap) {
        free(sc->it), free(sc->tmp), free(sc->lcp);
        sc->it = malloc(m * sizeof *sc->it);
        sc->tmp = malloc(m * sizeof *sc->tmp);
        sc->lcp = malloc(m * sizeof *sc->lcp);
        sc->cap = sc->it && sc->tmp && sc->lcp ? m : 0;
        if (!sc->cap) return rv_error("buckets", "out of memory (%llu suffixes in one job)", (unsigned long long)m);
    }
    if (nc + 1 > sc->cap_off) {
        free(sc->off), free(sc->cur);
        sc->off = malloc((nc + 1) * sizeof *sc->off);
        sc->cur = malloc((nc + 1) * sizeof *sc->cur);
        sc->cap_off = sc->off && sc->cur ? nc + 1 : 0;
        if (!sc->cap_off) return rv_error("buckets", "out of memory");
    }
    return 0;
}

/* Leading symbols two different codes of k symbols share. */
static uint64_t codes_lcp(uint64_t a, uint64_t b, int k, uint64_t sigma)
{
    if (sigma == 4) return (uint64_t)k - 1 - (uint64_t)(63 - __builtin_clzll(a ^ b)) / 2;
    uint64_t top = 1, same = 0;
    for (int i = 1; i < k; i++) top *= sigma;
    for (; top && a / top == b / top; top /= sigma) a %= top, b %= top, same++;
    return same;
}

/* The code of the k symbols at p, relative to lo. */
static inline uint64_t code_at(const uint8_t *t, uint64_t p, int k, uint64_t sigma, uint64_t lo)
{
    uint64_t c = 0;
    if (sigma == 4)
        for (int i = 0; i < k; i++) c = c << 2 | (uint64_t)(t[p + (uint64_t)i] - 1);
    else
        for (int i = 0; i < k; i++) c = c * sigma + (uint64_t)(t[p + (uint64_t)i] - 1);
    return c - lo;
}

/* A start as collected: its key after the k symbols of its code, read while the
 * starts come in text order (after the sort by code they are scattered, and each
 * read would be a cache miss), and its code relative to the job above its position
 * (POS_BITS), for the sort by code. */
enum { POS_BITS = 64 - MAX_CODES_LOG2 };
#define POS_MASK ((1ull << POS_BITS) - 1)

static inline item_t start_item(const uint8_t *t, uint64_t n, uint64_t q, int k, uint64_t code)
{
    return (item_t){key_at(t, n, q + (uint64_t)k), code << POS_BITS | q};
}

/* The job's starts found in the job map: a scan for its number. */
static uint64_t collect_mapped(const rv_seq_t *s, const rv_bucket_plan_t *p, const rv_bucket_job_t *job,
                               uint64_t m, item_t *it, uint64_t nc, int *far)
{
    const uint64_t j = (uint64_t)(job - p->jobs), n = s->n, lo = job->code_lo, sigma = p->sigma;
    const int k = p->k;
    uint64_t got = 0;
    if (p->map_width == 1) {
        const uint8_t *map = p->map;
        uint64_t at = 0;
#ifdef __SSE2__
        /* 16 bytes compared at once, the matches taken from the bit mask (memchr
         * from one match to the next cost a call every ~50 bytes: most of a job's
         * collect) */
        const __m128i want = _mm_set1_epi8((char)j);
        for (; at + 16 <= n && got < m; at += 16) {
            unsigned bits = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(map + at)), want));
            while (bits && got < m) {
                const uint64_t q = at + (uint64_t)__builtin_ctz(bits);
                bits &= bits - 1;
                const uint64_t c = code_at(s->text, q, k, sigma, lo);
                *far |= c >= nc, it[got++] = start_item(s->text, n, q, k, c);
            }
        }
#endif
        for (; at < n && got < m; at++)
            if (map[at] == j) {
                const uint64_t c = code_at(s->text, at, k, sigma, lo);
                *far |= c >= nc, it[got++] = start_item(s->text, n, at, k, c);
            }
    } else {
        const uint16_t *map = p->map;
        for (uint64_t at = 0; at < n && got < m; at++)
            if (map[at] == j) {
                const uint64_t c = code_at(s->text, at, k, sigma, lo);
                *far |= c >= nc, it[got++] = start_item(s->text, n, at, k, c);
            }
    }
    return got;
}

/* starts ahead of the one collected whose text a job asks for (collect_listed) */
enum { COLLECT_AHEAD = 16 };

/* The job's starts read from the job lists: its group in every block. */
static uint64_t collect_listed(const rv_seq_t *s, const rv_bucket_plan_t *p, const rv_bucket_job_t *job,
                               uint64_t m, item_t *it, uint64_t nc, int *far)
{
    const uint64_t j = (uint64_t)(job - p->jobs), n = s->n, lo = job->code_lo, sigma = p->sigma, row = p->n_jobs + 1;
    const uint16_t *starts = p->lists;
    const uint32_t *table = (const uint32_t *)((const uint8_t *)p->lists + table_at(n));
    const int k = p->k;
    uint64_t got = 0;
    for (uint64_t b = 0, nb = n_blocks(n); b < nb && got < m; b++) {
        const uint64_t a = b * RV_BUCKET_BLOCK;
        const uint16_t *r = starts + a;
        const uint32_t e = table[b * row + j + 1];
        for (uint32_t i = table[b * row + j]; i < e && got < m; i++) {
            /* the starts ahead are known: their text is asked for early (a job's
             * starts are one in tens of bytes of the text, so each read would be a
             * miss of its own, waited for in turn) */
            if (i + COLLECT_AHEAD < e) __builtin_prefetch(s->text + a + r[i + COLLECT_AHEAD]);
            const uint64_t q = a + r[i], c = code_at(s->text, q, k, sigma, lo);
            *far |= c >= nc, it[got++] = start_item(s->text, n, q, k, c);
        }
    }
    return got;
}

/* A part of a split bucket's starts found by a scan of the text: those of its code
 * whose sub-code is the part's. */
static uint64_t collect_part(const rv_seq_t *s, const rv_bucket_plan_t *p, const rv_bucket_job_t *job, uint64_t m,
                             item_t *it)
{
    code_iter_t ci;
    uint64_t got = 0, start, code;
    ci_init(&ci, s, p, 0, s->n);
    while (got < m && ci_next(&ci, &start, &code)) {
        if (code != job->code_lo) continue;
        const uint64_t sub = sub_code_at(s->text, s->n, start + (uint64_t)p->k, job->sub_depth, p->sigma);
        if (sub >= job->sub_lo && sub < job->sub_hi) it[got++] = start_item(s->text, s->n, start, p->k, 0);
    }
    return got;
}

/* The starts of the job in text order with their codes and first keys, then a
 * stable sort by code: passes over a few thousand counters, where a direct
 * scatter into nc buckets misses the cache at every suffix. */
static int collect_cpu(const rv_seq_t *s, const rv_bucket_plan_t *p, const rv_bucket_job_t *job, uint64_t nc,
                       uint64_t m, rv_bucket_scratch_t *sc)
{
    uint64_t got = 0, t0 = now_ns();
    item_t *it = sc->it;
    int far = 0;
    if (s->n >> POS_BITS) return rv_error("buckets", "the text is too long for the buckets");
    if (p->lists || p->map) {
        got = p->lists ? collect_listed(s, p, job, m, it, nc, &far)
                       : collect_mapped(s, p, job, m, it, nc, &far);
        goto collected;
    }
    if (job->sub_hi) {
        got = collect_part(s, p, job, m, it);
        goto collected;
    }
    /* the rolling code of code_iter_t in local variables: this loop reads the whole
     * text for every job, and the iterator's state behind a pointer made it five
     * times slower */
    const uint8_t *t = s->text;
    const uint64_t n = s->n, k = (uint64_t)p->k, sigma = p->sigma, top = p->n_codes / p->sigma;
    const uint64_t lo = job->code_lo;
    uint64_t code = 0, run = 0;
    if (sigma == 4) {
        const uint64_t mask = 4 * top - 1;
        for (uint64_t j = 0; j < n; j++) {
            uint8_t x = t[j];
            run = x == RV_BREAK ? 0 : run + 1;
            code = ((code << 2) | (uint64_t)((x - 1) & 3)) & mask;
            if (code - lo < nc && run >= k && got < m) it[got++] = start_item(t, n, j + 1 - k, (int)k, code - lo);
        }
    } else {
        for (uint64_t j = 0; j < n; j++) {
            uint8_t x = t[j];
            if (x == RV_BREAK) { run = code = 0; continue; }
            if (run >= k) code -= (uint64_t)(t[j - k] - 1) * top;
            code = code * sigma + (uint64_t)(x - 1);
            if (++run >= k && code - lo < nc && got < m) it[got++] = start_item(t, n, j + 1 - k, (int)k, code - lo);
        }
    }
collected:;
    uint64_t t1 = now_ns();
    rv_bucket_phase_add(RV_JOB_COLLECT, t1 - t0);
    /* by code: a counting pass on the top 11 bits of the code into tmp, then each
     * code's items to its place in the job's buckets (sc->off), reading tmp in
     * order: the second pass's writes stay within one top part, which the cache
     * holds (two passes of LSD radix over all m items cost twice the memory
     * traffic) */
    int bits = 0;
    while (bits < 64 && (1ull << bits) < nc) bits++;
    const int sh = bits > 11 ? bits - 11 : 0;
    uint64_t cnt[2048] = {0};
    item_t *tmp = sc->tmp;
    /* a plan of another text (or lists of another plan): its counts do not hold */
    if (got != m || far) return rv_error("buckets", "the plan does not fit the text");
    for (uint64_t i = 0; i < m; i++) cnt[it[i].pos >> POS_BITS >> sh & 2047]++;
    for (uint64_t d = 0, sum = 0; d < 2048; d++) { uint64_t c = cnt[d]; cnt[d] = sum; sum += c; }
    for (uint64_t i = 0; i < m; i++) tmp[cnt[it[i].pos >> POS_BITS >> sh]++] = it[i];
    uint64_t *cur = sc->cur;
    const uint64_t *off = sc->off;
    memcpy(cur, off, nc * sizeof *cur);
    for (uint64_t i = 0; i < m; i++) {
        const uint64_t c = tmp[i].pos >> POS_BITS;
        if (cur[c] == off[c + 1]) return rv_error("buckets", "the plan does not fit the text");
        it[cur[c]++] = (item_t){tmp[i].key, tmp[i].pos & POS_MASK};
    }
    rv_bucket_phase_add(RV_JOB_RADIX, now_ns() - t1);
    return 0;
}

int rv_bucket_job_sort_in(const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t j, rv_bucket_scratch_t *sc,
                          const uint64_t **pos_out, const uint64_t **lcp_out, uint64_t *m_out)
{
    const rv_bucket_job_t *job = &p->jobs[j];
    uint64_t m = job->suffixes, nc = job->code_hi - job->code_lo;
    if (scratch_fit(sc, m, nc) < 0) return -1;
    uint64_t *off = sc->off, *lcp = sc->lcp;
    off[0] = 0;
    for (uint64_t c = 0; c < nc; c++) off[c + 1] = off[c] + p->count[job->code_lo + c];
    if (job->sub_hi) off[1] = m; /* a part of a bucket (its count is the whole's) */
    if (off[nc] != m || (job->sub_hi && (nc != 1 || m > p->count[job->code_lo])))
        return rv_error("buckets", "the plan does not fit its jobs");
    atomic_fetch_add(&phase_jobs, 1);
    uint64_t *pos = (uint64_t *)sc->it; /* in the end m positions where the items were */
    *pos_out = pos, *lcp_out = lcp, *m_out = m;
    /* the device collects whole buckets: a part of one is the CPU's */
    if (atomic_load(&gpu_on) && gpu_seq == s && !job->sub_hi) {
        if (job_sort_gpu(s, p, job, off, nc, m, pos, lcp) == 0) return 0;
        /* the device failed (out of its memory for this job, ...): the CPU sorts it */
        const char *tr = getenv("REPVIEW_GPU_TRACE");
        if (tr && *tr && *tr != '0') fprintf(stderr, "gpu bucket job failed (%s): sorted on the CPU\n", rv_last_error());
    }
    if (collect_cpu(s, p, job, nc, m, sc) < 0) return -1;
    item_t *it = sc->it;
    const uint64_t k = (uint64_t)p->k;
    uint64_t t2 = now_ns();
    /* the keys after the prefix came with the collect */
    int rc = 0;
    /* the LCPs inside each bucket come with its sort */
    for (uint64_t c = 0; rc == 0 && c < nc; c++)
        rc = sort_bucket_keyed(s->text, s->n, it + off[c], off[c + 1] - off[c], k, lcp + off[c]);
    uint64_t t3 = now_ns();
    rv_bucket_phase_add(RV_JOB_SORT, t3 - t2);
    for (uint64_t i = 0; rc == 0 && i < m; i++) pos[i] = it[i].pos; /* pos[i] overwrites what it[i / 2] held */
    /* and those at the buckets' starts: below k, the common leading symbols of the
     * two buckets' codes (no text read: two cache misses a bucket would be most
     * of the LCP pass, the sort giving the rest) */
    for (uint64_t c = 0, prev = UINT64_MAX; rc == 0 && c < nc; c++)
        if (off[c] < off[c + 1]) {
            lcp[off[c]] = prev == UINT64_MAX ? 0 : codes_lcp(job->code_lo + prev, job->code_lo + c, p->k, p->sigma);
            prev = c;
        }
    rv_bucket_phase_add(RV_JOB_LCP, now_ns() - t3);
    return rc;
}

int rv_bucket_job_sort(const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t j, uint64_t **pos_out,
                       uint64_t **lcp_out, uint64_t *m_out)
{
    rv_bucket_scratch_t *sc = rv_bucket_scratch_new();
    const uint64_t *pos, *lcp;
    if (!sc) return rv_error("buckets", "out of memory");
    int rc = rv_bucket_job_sort_in(s, p, j, sc, &pos, &lcp, m_out);
    if (rc == 0) { /* hand the two arrays over */
        uint64_t m = *m_out ? *m_out : 1;
        uint64_t *shrunk = realloc(sc->it, m * sizeof *shrunk);
        *pos_out = shrunk ? shrunk : (uint64_t *)sc->it;
        *lcp_out = sc->lcp;
        sc->it = NULL, sc->lcp = NULL;
    }
    rv_bucket_scratch_free(sc);
    return rc;
}
