/* lr_arrays.c — the raw and the compact LLR arrays (Tian & Xu §4.1, §4.2).
 *
 * Raw: llr[i] = max(LCP[ISA[i]], LCP[ISA[i]+1]) (Lemma 1), one independent value per
 * position, kept in one byte with a table of the values >= 255 (narrow.h).  Compact:
 * the starts of the useful LLRs, i.e. L[i] > 0 and L[i] >= L[i-1] (lr.h).  The
 * sequential one-pass compaction of the paper becomes, in threads, the same
 * flag + prefix sum + scatter as its GPU kernels K1-K3 (§5.2): pass 1 writes the
 * bytes and counts the useful entries and big values of each chunk, pass 2 scatters
 * them to their offsets.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include "repview/common.h"
#include "repview/lr.h"
#include "lr_arrays.h"
#include "base/internal.h"

typedef struct {
    rv_index_t *x;
    uint8_t *small;   /* L narrowed (narrow.h) */
    rv_narrow_t big;  /* the big section being filled */
    void *llrc;       /* starts of the useful LLRs */
    uint64_t nchunks;
    uint64_t *count;  /* per chunk: useful entries, then their first output slot */
    uint64_t *nbig;   /* per chunk: values >= 255, then their first slot */
    rv_progress_t *p;
} arrays_ctx_t;

static inline uint64_t chunk_lo(const arrays_ctx_t *c, uint64_t k)
{
    return (uint64_t)((unsigned __int128)c->x->n * k / c->nchunks);
}

static inline int useful(uint64_t L, uint64_t prev) { return L > 0 && L >= prev; }

/* L[i] from the small byte, from the index when it is escaped (rare). */
static inline uint64_t L_of(const arrays_ctx_t *c, uint64_t i)
{
    uint8_t b = c->small[i];
    return b != RV_NARROW_ESC ? b : rv_llr_of(c->x, i);
}

/* Pass 1a, over ranks: small[SA[r]] = max(LCP[r], LCP[r+1]) in bytes, which is exactly
 * min(L, 255) since the bytes saturate at 255 (Lemma 1 read from the rank side: the
 * LCP bytes are read in order and the writes scatter, where reading L position by
 * position would wait on a random LCP read per position). */
static void raw_by_rank(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    arrays_ctx_t *c = arg;
    const rv_index_t *x = c->x;
    const uint8_t *lv = x->lcp.v;
    uint8_t *small = c->small;
    const uint64_t n = x->n;
    if (x->wide) {
        const uint64_t *sa = x->sa;
        for (uint64_t r = lo; r < hi; r++) {
            uint8_t a = lv[r], b = r + 1 < n ? lv[r + 1] : 0;
            if (sa[r] < n) small[sa[r]] = a > b ? a : b; /* never write outside, whatever SA holds */
        }
    } else {
        const uint32_t *sa = x->sa;
        for (uint64_t r = lo; r < hi; r++) {
            uint8_t a = lv[r], b = r + 1 < n ? lv[r + 1] : 0;
            if (sa[r] < n) small[sa[r]] = a > b ? a : b;
        }
    }
    rv_progress_add(c->p, (hi - lo) / 3);
}

/* Pass 1b: a chunk's numbers of useful LLRs and big values. */
static void raw_chunk(void *arg, uint64_t k0, uint64_t k1, int t)
{
    (void)t;
    arrays_ctx_t *c = arg;
    for (uint64_t k = k0; k < k1; k++) {
        if (rv_cancelled(c->p)) return;
        uint64_t lo = chunk_lo(c, k), hi = chunk_lo(c, k + 1), cnt = 0, nbig = 0;
        uint64_t prev = lo ? L_of(c, lo - 1) : 0;
        for (uint64_t i = lo; i < hi; i++) {
            uint64_t L = L_of(c, i);
            nbig += L >= RV_NARROW_ESC;
            cnt += useful(L, prev);
            prev = L;
        }
        c->count[k] = cnt;
        c->nbig[k] = nbig;
        rv_progress_add(c->p, (hi - lo) / 3);
    }
}

/* Pass 2: the starts of the useful LLRs and the big values of a chunk to their slots. */
static void scatter_chunk(void *arg, uint64_t k0, uint64_t k1, int t)
{
    (void)t;
    arrays_ctx_t *c = arg;
    const int w = c->x->wide;
    for (uint64_t k = k0; k < k1; k++) {
        uint64_t lo = chunk_lo(c, k), hi = chunk_lo(c, k + 1), out = c->count[k], ob = c->nbig[k];
        uint64_t prev = lo ? L_of(c, lo - 1) : 0;
        for (uint64_t i = lo; i < hi; i++) {
            uint64_t L = L_of(c, i);
            if (useful(L, prev)) rv_put(c->llrc, w, out++, i);
            if (L >= RV_NARROW_ESC) rv_put((void *)c->big.val, w, ob++, L);
            prev = L;
        }
        rv_progress_add(c->p, (hi - lo) - 2 * ((hi - lo) / 3));
    }
}

/* Turn per-chunk counts into first slots; the total. */
static uint64_t to_offsets(uint64_t *v, uint64_t k)
{
    uint64_t sum = 0;
    for (uint64_t i = 0; i < k; i++) {
        uint64_t cnt = v[i];
        v[i] = sum;
        sum += cnt;
    }
    return sum;
}

int rv_lr_build_arrays(rv_index_t *x, int threads, rv_progress_t *p)
{
    if (threads < 1) threads = rv_default_threads();
    const uint64_t n = x->n, w = x->wide ? 8 : 4;
    arrays_ctx_t c = {.x = x, .p = p};
    void *big = NULL;
    uint64_t big_bytes = 0;
    rv_progress_stage(p, RV_STAGE_LLR, n);
    c.nchunks = n / (1u << 18) + 1;
    if (c.nchunks < (uint64_t)threads * 4 && n >= (uint64_t)threads * 4096) c.nchunks = (uint64_t)threads * 4;
    c.small = malloc(n ? n : 1);
    c.count = malloc(c.nchunks * sizeof *c.count);
    c.nbig = malloc(c.nchunks * sizeof *c.nbig);
    if (!c.small || !c.count || !c.nbig) goto oom;
    rv_parallel_for(threads, n, raw_by_rank, &c);
    if (rv_cancelled(p)) goto cancelled;
    rv_parallel_dynamic(threads, c.nchunks, 1, raw_chunk, &c);
    if (rv_cancelled(p)) goto cancelled;
    uint64_t m = to_offsets(c.count, c.nchunks), n_big = to_offsets(c.nbig, c.nchunks);
    c.llrc = malloc(m ? m * w : w);
    big = rv_narrow_big_alloc(&c.big, c.small, n, n_big, x->wide, &big_bytes);
    if (!c.llrc || !big) goto oom;
    rv_parallel_dynamic(threads, c.nchunks, 1, scatter_chunk, &c);
    rv_narrow_finish(&c.big, threads);
    free(c.count);
    free(c.nbig);
    rv_index_attach(x, RV_SEC_LLR, c.small, n);
    rv_index_attach(x, RV_SEC_LLR_BIG, big, big_bytes);
    rv_index_attach(x, RV_SEC_LLRC, c.llrc, m * w);
    return 0;
oom:
    free(c.small);
    free(c.count);
    free(c.nbig);
    free(c.llrc);
    free(big);
    return rv_error("longest repeats", "out of memory (%llu MB for the LLR arrays)",
                    (unsigned long long)((n + n / 2 * w) >> 20));
cancelled:
    free(c.small);
    free(c.count);
    free(c.nbig);
    return rv_error("", "cancelled");
}

int rv_lr_llr_view(const rv_index_t *x, rv_narrow_t *out)
{
    uint64_t bytes = 0, big_bytes = 0;
    const void *small = rv_index_section(x, RV_SEC_LLR, &bytes);
    const void *big = rv_index_section(x, RV_SEC_LLR_BIG, &big_bytes);
    /* sections that do not fit are not ours: ignored */
    return rv_narrow_view(out, small, bytes, big, big_bytes, x->n, x->wide) == 0;
}

typedef struct {
    const void *c;
    uint64_t n;
    int wide;
    _Atomic int bad;
} llrc_check_t;

/* Starts [lo, hi) of LLRc below n and each above the one before it (which may lie
 * before lo).  No value is carried from one entry to the next and the inner loop
 * has a fixed length, so that it vectorises at -O2. */
#define LLRC_CHECK(T)                                                                       \
    do {                                                                                    \
        const T *c = k->c;                                                                  \
        const T n = (T)k->n;                                                                \
        unsigned bad = lo < hi && c[lo] >= n;                                               \
        uint64_t j = lo ? lo : 1;                                                           \
        for (; j + 16 <= hi; j += 16) {                                                     \
            unsigned b = 0;                                                                 \
            for (int q = 0; q < 16; q++) b |= (c[j + q] >= n) | (c[j + q] <= c[j + q - 1]); \
            bad |= b;                                                                       \
        }                                                                                   \
        for (; j < hi; j++) bad |= (c[j] >= n) | (c[j] <= c[j - 1]);                        \
        if (bad) atomic_store(&k->bad, 1);                                                  \
    } while (0)

static void llrc_check_range(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    llrc_check_t *k = arg;
    if (k->wide) LLRC_CHECK(uint64_t);
    else LLRC_CHECK(uint32_t);
}

int rv_lr_check_sections(const rv_index_t *x, int threads)
{
    rv_narrow_t v;
    uint64_t bytes = 0;
    const int has_small = rv_index_section(x, RV_SEC_LLR, NULL) != NULL;
    const int has_big = rv_index_section(x, RV_SEC_LLR_BIG, NULL) != NULL;
    if ((has_small || has_big) && !rv_lr_llr_view(x, &v)) return rv_error("index", "bad LLR sections");
    const void *c = rv_index_section(x, RV_SEC_LLRC, &bytes);
    if (!c) return 0;
    const uint64_t w = x->wide ? 8 : 4, m = bytes / w;
    if (bytes % w || m > x->n) return rv_error("index", "bad LLRc section");
    llrc_check_t k = {c, x->n, x->wide, 0};
    if (threads <= 0) threads = rv_default_threads();
    rv_parallel_for(m >= (1u << 20) ? threads : 1, m, llrc_check_range, &k);
    return atomic_load(&k.bad) ? rv_error("index", "bad LLRc section") : 0;
}
