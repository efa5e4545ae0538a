/* sa_parallel.c — parallel suffix-array construction by prefix doubling, on a text
 * that repeats much after an SA-IS reduction.
 *
 * Two methods, chosen per text (repeated_share below) and for 1 or 2 threads:
 *
 * A. Prefix doubling of all suffixes, described in points 1-4.
 *
 * B. SA-IS (Nong, Zhang & Chan, "Two efficient algorithms for linear time suffix
 *    array construction", IEEE Trans. Computers 60(10), 2011) down one level: the
 *    LMS substrings are sorted by two induction passes and named, the reduced string
 *    (the names in text order, about a third of the text) is sorted by the doubling
 *    of A, which starts from the names as ranks (they are already the doubling's
 *    ranks: a group's last position plus one) at h = 1, and two induction passes
 *    give the whole array.  The reduced problem lives in SA's and the scratch's first
 *    n1 words; sa_sais_tpl.h has the details.  On a collection of related genomes
 *    most suffixes share prefixes of hundreds of symbols, and every doubling round
 *    reads all of them again; the reduction leaves a third of them to the rounds at
 *    the price of four passes that read one symbol at random per slot.  The
 *    passes are sequential by nature; other threads read the symbols of the blocks
 *    ahead of the one being placed.
 *
 * Method A: prefix doubling (Manber & Myers, "Suffix arrays: a new method for on-line
 * string searches", SIAM J. Comput. 22(5), 1993) in the form of Larsson & Sadakane
 * ("Faster suffix sorting", Theor. Comput. Sci. 387(3), 2007; LS below): suffixes
 * with equal known prefixes form groups, contiguous in SA; a suffix's rank is its
 * group's last SA position plus one; a round in which every group's suffixes are
 * known to share h symbols sorts each group of two or more by rank[i + h] (0 past
 * the end) and then knows 2h (LS, lemma 2 and section 3).  Single suffixes are never
 * touched again.  The choices that make it parallel, small and fast:
 *
 * 1. Each round has two phases with a barrier between, so that no thread reads a
 *    rank another is changing (LS refine ranks in place, which is serial).  Phase 1
 *    sorts the groups and marks where new sub-groups start; it writes SA only inside
 *    the groups it took.  Phase 2 walks the marks in SA order and writes the new
 *    ranks; the last sub-group of a split keeps the group's rank, so a group that
 *    loses a few suffixes at its front (the short ones of a periodic run) costs no
 *    writes.  Groups live in bit vectors over SA positions (starts, unsorted
 *    positions, this round's new starts), so SA stays a permutation throughout and
 *    sorted runs are skipped 64 at a time.
 *
 * 2. The opening round sorts by a packed prefix of q symbols in base b, the symbols
 *    present mapped to digits in order (the alphabet compaction and packing of LS,
 *    section 5): a counting sort on the first qb symbols (at most 2^18 buckets), the
 *    next ql symbols being a key of one array word kept in the scratch array at the
 *    suffix's text position, so that no key array is stored; both parts are rolled
 *    along the text.  Past the end the digit is 0, the digit of the smallest symbol:
 *    a shorter suffix then ties with a longer one only while the longer continues
 *    with that symbol, and the tie breaks one round later on rank 0 past the end;
 *    when the text ends with its smallest symbol that could tie two suffixes for
 *    good, and the digits start at 1 instead.  Each bucket is then sorted and ranked
 *    by one thread, which reads only ranks of its own suffixes then.
 *
 * 3. Later rounds take the groups up in the text order of their first unsorted
 *    suffix (bit vectors over text positions say which are unsorted and which are
 *    still to meet).  The copies of a repeat then come up side by side, so the keys
 *    of consecutive groups lie in one stream per copy, where SA order would read each
 *    key from a random place: the rounds are bound by such misses.  A thread claims a
 *    group through its start bit in the new-starts vector.
 *
 * 4. A group of up to local_max suffixes is sorted by one thread (key and suffix
 *    pairs in a buffer of its own: insertion sort, quicksort or an LSD radix sort).
 *    Larger groups are sorted by all threads together: an MSD radix pass on the top
 *    bits of the key through a shared buffer of at most 7/8 byte a symbol, or, when
 *    the group does not fit it or one key holds half of it (a periodic run), an
 *    in-place three-way split around a sampled pivot: each thread partitions a stripe
 *    (Dijkstra's Dutch national flag) and the stripes are merged pairwise by
 *    exchanging adjacent blocks; order inside a class does not matter, so an
 *    exchange moves only the smaller block.
 *
 * Memory beyond SA and the scratch array: five bit vectors (5/8 byte a symbol), the
 * shared buffer (at most 7/8 byte a symbol, only while a large group needs it),
 * 16 * local_max bytes a thread, and the opening round's counts (at most 1/4 byte a
 * symbol, freed before the buffer can be taken).  Method B adds two bit vectors
 * over the text (1/4 byte a symbol, one freed before the doubling), the text packed
 * at 3 bits a symbol when it holds at most 8 symbols (3/8 byte), and A's memory
 * for the reduced string (n1 <= n / 2 suffixes): at most 1.25 bytes a symbol.
 * Bits that many threads may share are set with atomic operations, except where a
 * lost clear is harmless (it only brings a suffix up again): locked instructions in
 * the hot loops would keep the cache misses from overlapping. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "base/internal.h"
#include "sa_parallel.h"

enum {
    MAX_THREADS = 256,
    RADIX_BITS = 12,    /* digit of the MSD pass over a large group */
    PIVOT_SAMPLES = 255,
    WRING = 32,         /* rank writes in flight */
    LOOKAHEAD = 48,     /* keys prefetched ahead in phase 1 */
    LOOK_TEXT = 16,     /* groups fetched ahead in text order */
    IND_AHEAD = 40,     /* SA slots whose text is prefetched ahead in SA-IS passes */
    IND_REPORT = 1 << 20, /* SA slots an induction pass scans between progress reports */
    IND_BLOCK = 1 << 14, /* SA slots of a block of an induction pass (sa_sais_tpl.h) */
    IND_RING = 8,       /* blocks whose symbols are read ahead */
    SYM_NONE = 0xffff, SYM_TAKE = 0x100, SYM_LMS = 0x200 /* a slot's entry in the ring */
};

/* ---- a pool of threads that run one job at a time ------------------------------ */

typedef void (*job_fn)(void *ctx, int tid);

typedef struct pool {
    int nt; /* threads including the caller's */
    pthread_t tid[MAX_THREADS];
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    uint64_t gen;
    int pending, quit;
    job_fn fn;
    void *ctx;
    struct worker {
        struct pool *p;
        int id;
    } w[MAX_THREADS];
} pool_t;

static void *pool_worker(void *arg)
{
    struct worker *w = arg;
    pool_t *p = w->p;
    uint64_t seen = 0;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (p->gen == seen && !p->quit) pthread_cond_wait(&p->go, &p->mu);
        if (p->quit) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        seen = p->gen;
        job_fn fn = p->fn;
        void *ctx = p->ctx;
        pthread_mutex_unlock(&p->mu);
        fn(ctx, w->id);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0) pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
}

/* Start up to want - 1 workers (fewer when a thread cannot be created). */
static void pool_start(pool_t *p, int want)
{
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    p->nt = 1;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old); /* workers never take signals */
    for (int t = 1; t < want; t++) {
        p->w[t] = (struct worker){p, t};
        if (pthread_create(&p->tid[t], NULL, pool_worker, &p->w[t]) != 0) break;
        p->nt = t + 1;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* fn(ctx, tid) on every thread, tid 0 on the caller's; returns when all are done. */
static void pool_run(pool_t *p, job_fn fn, void *ctx)
{
    if (p->nt == 1) {
        fn(ctx, 0);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->ctx = ctx;
    p->pending = p->nt - 1;
    p->gen++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    fn(ctx, 0);
    pthread_mutex_lock(&p->mu);
    while (p->pending) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

static void pool_stop(pool_t *p)
{
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int t = 1; t < p->nt; t++) pthread_join(p->tid[t], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
}

/* ---- bit vectors over SA positions ------------------------------------------------ */

typedef _Atomic uint64_t abits_t;

static inline uint64_t bits_ld(abits_t *b, uint64_t k) { return atomic_load_explicit(&b[k], memory_order_relaxed); }
static inline void bits_st(abits_t *b, uint64_t k, uint64_t v) { atomic_store_explicit(&b[k], v, memory_order_relaxed); }
static inline void bits_or(abits_t *b, uint64_t k, uint64_t m) { atomic_fetch_or_explicit(&b[k], m, memory_order_relaxed); }
static inline void bit_set(abits_t *b, uint64_t pos) { bits_or(b, pos >> 6, 1ull << (pos & 63)); }
static inline void bit_clear(abits_t *b, uint64_t pos)
{
    atomic_fetch_and_explicit(&b[pos >> 6], ~(1ull << (pos & 63)), memory_order_relaxed);
}

/* Set the bits of positions [lo, hi). */
static void bits_set_range(abits_t *b, uint64_t lo, uint64_t hi)
{
    if (lo >= hi) return;
    uint64_t k0 = lo >> 6, k1 = (hi - 1) >> 6;
    uint64_t m0 = ~0ull << (lo & 63), m1 = ~0ull >> (63 - ((hi - 1) & 63));
    if (k0 == k1) {
        bits_or(b, k0, m0 & m1);
        return;
    }
    bits_or(b, k0, m0);
    for (uint64_t k = k0 + 1; k < k1; k++) bits_or(b, k, ~0ull);
    bits_or(b, k1, m1);
}

/* Marks gathered a word at a time, then or-ed in (groups of several threads can share
 * a word at their ends). */
typedef struct {
    uint64_t k, m;
} marks_t;

static inline void marks_flush(abits_t *b, marks_t *a)
{
    if (a->m) bits_or(b, a->k, a->m);
    a->m = 0;
}

static inline void marks_add(abits_t *b, marks_t *a, uint64_t pos)
{
    if ((pos >> 6) != a->k) {
        marks_flush(b, a);
        a->k = pos >> 6;
    }
    a->m |= 1ull << (pos & 63);
}

/* Gathered clears of bits a word at a time. */
static inline void clears_flush(abits_t *b, marks_t *a)
{
    if (a->m) atomic_fetch_and_explicit(&b[a->k], ~a->m, memory_order_relaxed);
    a->m = 0;
}

static inline void clears_add(abits_t *b, marks_t *a, uint64_t pos)
{
    if ((pos >> 6) != a->k) {
        clears_flush(b, a);
        a->k = pos >> 6;
    }
    a->m |= 1ull << (pos & 63);
}

/* A cursor over the unsorted positions from p on. */
typedef struct {
    uint64_t k, w;
} cursor_t;

/* Clear a bit with a plain store: a concurrent clear of the same word may be lost. */
static inline void clear_plain(abits_t *b, uint64_t pos)
{
    bits_st(b, pos >> 6, bits_ld(b, pos >> 6) & ~(1ull << (pos & 63)));
}

/* Plain clears of bits at scattered places in flight: each word is prefetched for
 * writing when queued and cleared WRING clears later. */
typedef struct {
    abits_t *b;
    uint64_t n;
    uint64_t pos[WRING];
} clring_t;

static inline void cr_put(clring_t *r, uint64_t pos)
{
    unsigned i = (unsigned)(r->n++ % WRING);
    if (r->n > WRING) clear_plain(r->b, r->pos[i]);
    __builtin_prefetch((const void *)&r->b[pos >> 6], 1);
    r->pos[i] = pos;
}

static inline void cr_flush(clring_t *r)
{
    uint64_t k = r->n < WRING ? r->n : WRING;
    for (uint64_t i = 0; i < k; i++) clear_plain(r->b, r->pos[i]);
    r->n = 0;
}

static inline int hibit(uint64_t x) { return 63 - __builtin_clzll(x); }

typedef struct {
    uint64_t lo, hi;
} range_t;

static int cmp_range(const void *a, const void *b)
{
    uint64_t x = ((const range_t *)a)->lo, y = ((const range_t *)b)->lo;
    return x < y ? -1 : x > y;
}
/* -DSA_PARALLEL_TRACE: the time of each step on stderr */
#ifdef SA_PARALLEL_TRACE
#include <stdio.h>
#include <time.h>
static double trace_t0, trace_c0;
static void trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#include <stdarg.h>
static void trace(const char *fmt, ...)
{
    struct timespec ts, cs;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cs);
    double t = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    double c = (double)cs.tv_sec + 1e-9 * (double)cs.tv_nsec;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "sa_parallel %8.3f %8.3f  ", trace_t0 ? t - trace_t0 : 0.0, trace_c0 ? c - trace_c0 : 0.0);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    trace_t0 = t;
    trace_c0 = c;
}
#define TRACE(...) trace(__VA_ARGS__)
#else
#define TRACE(...) ((void)0)
#endif

/* ---- the alphabet: digits of the symbols present ------------------------------------ */

typedef struct {
    const uint8_t *t;
    uint64_t n;
    int nt;
    uint8_t (*seen)[256];
} alpha_ctx_t;

static void alpha_job(void *arg, int tid)
{
    alpha_ctx_t *c = arg;
    uint64_t lo = c->n * (uint64_t)tid / (uint64_t)c->nt, hi = c->n * (uint64_t)(tid + 1) / (uint64_t)c->nt;
    uint8_t *s = c->seen[tid];
    memset(s, 0, 256);
    for (uint64_t i = lo; i < hi; i++) s[c->t[i]] = 1;
}

/* The settings a width's construction shares. */
typedef struct {
    const uint8_t *t;
    uint64_t n;
    pool_t *pool;
    uint16_t dig[256]; /* digit of each byte, 1 + its rank among the bytes present
                        * less one unless the text ends with the smallest byte */
    uint64_t base;     /* digits 0 .. base - 1 */
    const rv_sa_opts_t *o;
} shared_t;

#define W uint32_t
#define WIDE 0
#define FN(name) name##_32
#include "sa_parallel_tpl.h"
#include "sa_sais_tpl.h"
#undef W
#undef WIDE
#undef FN

#define W uint64_t
#define WIDE 1
#define FN(name) name##_64
#include "sa_parallel_tpl.h"
#include "sa_sais_tpl.h"
#undef W
#undef WIDE
#undef FN

/* ---- the choice of method: how much of the text repeats -------------------------------
 * The doubling's cost grows with the share of suffixes whose prefixes repeat (every
 * round reads them all again); SA-IS costs about the same on any text but pays a
 * fixed price of a few passes over the text and SA.  The share is estimated from
 * REP_SAMPLES positions spread over the text: a rolling hash over one REP_PART-th of
 * the text, in REP_STRIPES stripes spread over it, counts how often each one's REP_K
 * symbols occur (a sample counts itself when its stripe holds it; a text of many
 * copies shows its repeats in any part of it). */

enum { REP_SAMPLES = 4096, REP_K = 64, REP_SLOTS = 8192, REP_FILTER = 1 << 16, REP_STRIPES = 512, REP_PART = 8 };
#define SAIS_SHARE 0.2 /* SA-IS from this share of repeated samples on, */
/* with this many threads at most: its passes run on one thread at heart.  The 48
 * Mbp collection of 20 related records (sa_bench --method, s, doubling / SA-IS):
 * 2-core dev machine, 2 threads 3.18 / 2.68; 16-core H100 host, 1 thread 6.66 /
 * 6.17, 2 3.37 / 3.34, 4 1.78 / 2.17, 8 0.90 / 1.66, 16 0.58 / 1.24 */
enum { SAIS_THREADS = 2 };

/* A gear hash: h = 2h + gear[symbol], a function of the last REP_K symbols (older
 * ones are shifted out). */
typedef struct {
    const uint8_t *t;
    uint64_t n;
    int nt;
    uint64_t gear[256];
    uint64_t key[REP_SLOTS]; /* hashes of the samples, open addressing; 0: empty */
    uint64_t filter[REP_FILTER / 64];
    uint8_t hits[MAX_THREADS][REP_SLOTS];
} rep_ctx_t;

static inline uint64_t rep_slot(uint64_t h) { return (h >> 40) & (REP_SLOTS - 1); }

static void rep_job(void *arg, int tid)
{
    rep_ctx_t *c = arg;
    const uint8_t *t = c->t;
    const uint64_t *gear = c->gear, *filter = c->filter, *key = c->key;
    uint8_t *hits = c->hits[tid];
    memset(hits, 0, REP_SLOTS);
    const uint64_t span = c->n / REP_STRIPES, len = span / REP_PART; /* len >= REP_K */
    uint64_t s0 = REP_STRIPES * (uint64_t)tid / (uint64_t)c->nt, s1 = REP_STRIPES * (uint64_t)(tid + 1) / (uint64_t)c->nt;
    for (uint64_t st = s0; st < s1; st++) {
        uint64_t a = st * span, h = 0;
        for (uint64_t i = a; i + 1 < a + REP_K; i++) h = (h << 1) + gear[t[i]];
        for (uint64_t i = a + REP_K - 1; i < a + len; i++) {
            h = (h << 1) + gear[t[i]];
            uint64_t f = h >> 48;
            if (__builtin_expect(filter[f >> 6] >> (f & 63) & 1, 0)) {
                for (uint64_t x = rep_slot(h); key[x]; x = (x + 1) & (REP_SLOTS - 1))
                    if (key[x] == h) {
                        if (hits[x] < 2) hits[x]++;
                        break;
                    }
            }
        }
    }
}

/* The share of sampled positions whose next REP_K symbols occur twice in the part
 * scanned, or once outside their own stripe (0 when the text is too short to tell). */
static double repeated_share(const uint8_t *t, uint64_t n, pool_t *pool)
{
    if (n < (uint64_t)REP_STRIPES * REP_PART * REP_K * 4) return 0;
    rep_ctx_t *c = calloc(1, sizeof *c);
    if (!c) return 0;
    c->t = t;
    c->n = n;
    c->nt = pool->nt;
    uint64_t g = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < 256; k++) { /* splitmix64 */
        uint64_t z = (g += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        c->gear[k] = z ^ (z >> 31);
    }
    uint64_t hs[REP_SAMPLES];
    for (uint64_t s = 0; s < REP_SAMPLES; s++) {
        uint64_t p = (n - REP_K) / REP_SAMPLES * s, h = 0;
        for (uint64_t i = p; i < p + REP_K; i++) h = (h << 1) + c->gear[t[i]];
        hs[s] = h;
        uint64_t x = rep_slot(h);
        while (c->key[x] && c->key[x] != h) x = (x + 1) & (REP_SLOTS - 1);
        c->key[x] = h;
        c->filter[(h >> 48) >> 6] |= 1ull << ((h >> 48) & 63);
    }
    pool_run(pool, rep_job, c);
    uint64_t rep = 0;
    for (uint64_t s = 0; s < REP_SAMPLES; s++) {
        uint64_t x = rep_slot(hs[s]), k = 0;
        while (c->key[x] != hs[s]) x = (x + 1) & (REP_SLOTS - 1);
        for (int th = 0; th < c->nt; th++) k += c->hits[th][x];
        uint64_t p = (n - REP_K) / REP_SAMPLES * s, span = n / REP_STRIPES, off = p % span;
        int inside = p / span < REP_STRIPES && off + REP_K <= span / REP_PART;
        rep += k >= (uint64_t)(inside ? 2 : 1);
    }
    free(c);
    return (double)rep / REP_SAMPLES;
}

int rv_sa_parallel_opts(const uint8_t *text, uint64_t n, int sigma, void *sa, void *scratch, int wide,
                        int threads, const rv_sa_opts_t *opts)
{
    (void)sigma; /* the codes present are read from the text */
    rv_sa_opts_t def = {0};
    const rv_sa_opts_t *o = opts ? opts : &def;
    if (n == 0) return 0;
    if (!wide && n > UINT32_MAX) return -1; /* ranks up to n must fit the array's words */
    if (n == 1) {
        if (wide) ((uint64_t *)sa)[0] = 0;
        else ((uint32_t *)sa)[0] = 0;
        if (o->progress) o->progress(o->progress_ud, 1);
        return 0;
    }
    uint64_t par_min = o->par_min ? o->par_min : 1u << 16;
    if (threads < 1 || n < par_min) threads = 1;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    /* the rounds read and write both arrays at random */
    rv_want_huge_pages(sa, n << (wide ? 3 : 2));
    rv_want_huge_pages(scratch, n << (wide ? 3 : 2));
    pool_t *pool = malloc(sizeof *pool);
    if (!pool) return -1;
    pool_start(pool, threads);
    shared_t sh = {.t = text, .n = n, .pool = pool, .o = o};
    alpha_ctx_t ac = {text, n, pool->nt, malloc((size_t)pool->nt * 256)};
    int rc = -1;
    if (ac.seen) {
        pool_run(pool, alpha_job, &ac);
        uint8_t any[256] = {0};
        for (int t = 0; t < pool->nt; t++)
            for (int c = 0; c < 256; c++) any[c] |= ac.seen[t][c];
        int lowest = 0;
        while (!any[lowest]) lowest++;
        unsigned d = text[n - 1] == lowest ? 1 : 0;
        for (int c = 0; c < 256; c++) {
            sh.dig[c] = (uint16_t)d;
            d += any[c];
        }
        sh.base = d; /* >= 2: the text has two symbols, or one and its digits start at 1 */
        free(ac.seen);
        int sais = o->method == RV_SA_SAIS;
        if (o->method == RV_SA_AUTO && pool->nt <= SAIS_THREADS) {
            TRACE("choose");
            double share = repeated_share(text, n, pool);
            TRACE("repeated share %.3f", share);
            sais = share >= SAIS_SHARE;
        }
        if (sais) rc = wide ? run_sais_64(&sh, sa, scratch) : run_sais_32(&sh, sa, scratch);
        else rc = wide ? run_64(&sh, sa, scratch) : run_32(&sh, sa, scratch);
    }
    pool_stop(pool);
    free(pool);
    return rc;
}

int rv_sa_parallel(const uint8_t *text, uint64_t n, int sigma, void *sa, void *scratch, int wide,
                   int threads)
{
    return rv_sa_parallel_opts(text, n, sigma, sa, scratch, wide, threads, NULL);
}
