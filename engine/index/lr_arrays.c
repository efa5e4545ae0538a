/* lr_arrays.c — the raw and the compact LLR arrays (Tian & Xu §4.1, §4.2).
 *
 * Raw: L[i] = max(LCP[ISA[i]], LCP[ISA[i]+1]) (Lemma 1), one independent value per
 * position, kept in one byte with a table of the values >= 255 (narrow.h).  Compact:
 * the starts of the useful LLRs, i.e. L[i] > 0 and L[i] >= L[i-1] (lr.h).  The
 * sequential one-pass compaction of the paper becomes, in threads, the same
 * flag + prefix sum + scatter as its GPU kernels K1-K3 (§5.2).
 *
 * Every pass is linear and reads its big arrays in order; only the scatter to SA[r]
 * is random.  Lemma 1 is read from the rank side, r = ISA[i]: the LCP bytes and the
 * LCP table of big values are then read in order (the escaped LCP values met walking
 * right have consecutive ranks in the table, narrow.h), where reading L position by
 * position would cost a random LCP read per position and, for each LCP value of 255
 * or more, a count over its block.  That matters on related genomes, where a third of
 * the L values and a quarter of the LCP values pass 255.
 *
 *   1. by rank:     small[SA[r]] = max(LCP[r], LCP[r+1]) in bytes (saturating at 255,
 *                   so exactly min(L, 255));
 *   2. by position: the escaped bytes of each chunk; the big section is allocated
 *                   and its block directory filled (narrow.h);
 *   3. by rank:     for each r whose byte is escaped, the full value, read from the
 *                   LCP table in order, goes to the slot of SA[r] in the big table
 *                   (its rank among the escaped positions: the block directory,
 *                   a temporary byte per word with the escapes before it in its
 *                   block, and a count within one word);
 *   4. by position: the useful LLRs of each chunk, the full values of escaped
 *                   entries read in order from the big table;
 *   5. by position: their starts to their slots.
 * The passes over ranks and over positions are cut into chunks handed out
 * dynamically: the escaped values cluster (long repeats have neighbouring ranks). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/lr.h"
#include "lr_arrays.h"
#include "base/internal.h"

#define LR_CHUNK (1u << 18) /* positions or ranks per task */
#define PREFETCH 32         /* ranks ahead: the random reads of pass 3 overlap */

typedef struct {
    rv_index_t *x;
    uint8_t *small;   /* L narrowed (narrow.h) */
    rv_narrow_t big;  /* the big section being filled (big.v = small) */
    void *llrc;       /* starts of the useful LLRs */
    uint64_t chunk, nchunks;
    uint64_t *count;  /* per position chunk: escapes, then useful entries, then their first slot */
    uint8_t *sub;     /* per word of small: escapes before it in its block (pass 3 only) */
    rv_progress_t *p;
    _Atomic int stop;
} arrays_ctx_t;

static inline int useful(uint64_t L, uint64_t prev) { return L > 0 && L >= prev; }

/* Escaped bytes (0xff) in a word: the high bit of t is set in a byte iff that byte of
 * w is 0xff; the flags are summed by a multiply (narrow.h). */
static inline uint64_t esc_in_word(uint64_t w)
{
    uint64_t t = (w & 0x7f7f7f7f7f7f7f7full) + 0x0101010101010101ull;
    return (((t & w & ~0x7f7f7f7f7f7f7f7full) >> 7) * 0x0101010101010101ull) >> 56;
}

/* The slot of escaped entry i in the big table, i.e. the escaped entries before it:
 * the block's directory entry (narrow.h), the escapes before i's word within its
 * block (sub, one byte per word of the small bytes), and those of i's word before i. */
static inline uint64_t esc_rank(const arrays_ctx_t *c, uint64_t i)
{
    uint64_t w;
    memcpy(&w, c->small + i / 8 * 8, 8); /* the small bytes are padded to whole words */
    w &= (1ull << (8 * (i % 8))) - 1;    /* (1 << 0) - 1 = 0: nothing before i in its word */
    return rv_get(c->big.dir, c->big.wide, i / RV_NARROW_BLOCK) + c->sub[i / 8] + esc_in_word(w);
}

/* LCP[r] as rv_lcp() reads it, for an escaped byte whose rank in the LCP table is k. */
static inline uint64_t lcp_big(const rv_index_t *x, uint64_t k)
{
    uint64_t v = rv_narrow_val(&x->lcp, k);
    return v < x->n ? v : x->n;
}

static int cancelled(arrays_ctx_t *c)
{
    if (c->stop) return 1;
    if (rv_cancelled(c->p)) c->stop = 1;
    return c->stop;
}

/* Pass 1, ranks [lo, hi): the bytes of L. */
static void raw_by_rank(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    arrays_ctx_t *c = arg;
    if (cancelled(c)) return;
    const rv_index_t *x = c->x;
    const uint8_t *lv = x->lcp.v;
    uint8_t *small = c->small;
    const uint64_t n = x->n, end = hi < n ? hi : n - 1; /* LCP[n] = 0 */
    uint8_t a = lv[lo];
    if (x->wide) {
        const uint64_t *sa = x->sa;
        for (uint64_t r = lo; r < end; r++) {
            uint8_t b = lv[r + 1];
            if (sa[r] < n) small[sa[r]] = a > b ? a : b; /* never write outside, whatever SA holds */
            a = b;
        }
        if (end < hi && sa[end] < n) small[sa[end]] = a;
    } else {
        const uint32_t *sa = x->sa;
        for (uint64_t r = lo; r < end; r++) {
            uint8_t b = lv[r + 1];
            if (sa[r] < n) small[sa[r]] = a > b ? a : b;
            a = b;
        }
        if (end < hi && sa[end] < n) small[sa[end]] = a;
    }
    rv_progress_add(c->p, (hi - lo) / 3);
}

static void ranks_1(void *arg, uint64_t k0, uint64_t k1, int t)
{
    arrays_ctx_t *c = arg;
    for (uint64_t k = k0; k < k1; k++) {
        uint64_t lo = k * c->chunk, hi = lo + c->chunk < c->x->n ? lo + c->chunk : c->x->n;
        raw_by_rank(arg, lo, hi, t);
    }
}

/* Pass 2: the escaped bytes of each position chunk. */
static void count_escapes(void *arg, uint64_t k0, uint64_t k1, int t)
{
    (void)t;
    arrays_ctx_t *c = arg;
    for (uint64_t k = k0; k < k1; k++) {
        uint64_t lo = k * c->chunk, hi = lo + c->chunk < c->x->n ? lo + c->chunk : c->x->n;
        c->count[k] = rv_narrow_count_esc(c->small + lo, hi - lo);
    }
}

/* Pass 3a, blocks [lo, hi) of the small bytes: sub. */
static void sub_blocks(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    arrays_ctx_t *c = arg;
    const uint64_t words = (c->x->n + 7) / 8;
    for (uint64_t b = lo; b < hi; b++) {
        uint64_t before = 0;
        for (uint64_t k = b * (RV_NARROW_BLOCK / 8); k < (b + 1) * (RV_NARROW_BLOCK / 8) && k < words; k++) {
            uint64_t w;
            memcpy(&w, c->small + 8 * k, 8);
            if (8 * k + 8 > c->x->n) w &= (1ull << (8 * (c->x->n - 8 * k))) - 1; /* the padding */
            c->sub[k] = (uint8_t)before;
            before += esc_in_word(w);
        }
    }
}

/* Pass 3b, ranks of one chunk: the full values of the escaped entries to their slots. */
static void big_by_rank(void *arg, uint64_t k0, uint64_t k1, int t)
{
    (void)t;
    arrays_ctx_t *c = arg;
    const rv_index_t *x = c->x;
    const uint8_t *lv = x->lcp.v, *small = c->small;
    const uint64_t n = x->n, n_big = c->big.n_big;
    const int wide = x->wide;
    void *val = (void *)c->big.val;
    for (uint64_t k = k0; k < k1; k++) {
        if (cancelled(c)) return;
        const uint64_t lo = k * c->chunk, hi = lo + c->chunk < n ? lo + c->chunk : n;
        uint64_t e = rv_narrow_rank(&x->lcp, lo); /* escaped LCP values before rank r */
        for (uint64_t r = lo; r < hi; r++) {
            if (r + PREFETCH + 1 < n && (lv[r + PREFETCH] == RV_NARROW_ESC || lv[r + PREFETCH + 1] == RV_NARROW_ESC)) {
                const uint64_t j = rv_get(x->sa, wide, r + PREFETCH);
                if (j < n) { /* what esc_rank will read */
                    __builtin_prefetch(small + j);
                    __builtin_prefetch(c->sub + j / 8);
                }
            }
            const uint8_t a = lv[r], b = r + 1 < n ? lv[r + 1] : 0;
            const uint64_t ea = e;
            e += a == RV_NARROW_ESC;
            if (a != RV_NARROW_ESC && b != RV_NARROW_ESC) continue;
            const uint64_t i = rv_get(x->sa, wide, r);
            if (i >= n || small[i] != RV_NARROW_ESC) continue; /* only for an SA that is no permutation */
            uint64_t la = a == RV_NARROW_ESC ? lcp_big(x, ea) : a;
            uint64_t lb = b == RV_NARROW_ESC ? lcp_big(x, e) : b;
            uint64_t slot = esc_rank(c, i);
            if (slot < n_big) rv_put(val, wide, slot, la > lb ? la : lb);
        }
        rv_progress_add(c->p, (hi - lo) / 3);
    }
}

#define USEFUL_BUF 512 /* starts gathered before they are copied out */

static inline void put_all(void *dst, int wide, uint64_t at, const uint64_t *v, uint64_t k)
{
    for (uint64_t j = 0; j < k; j++) rv_put(dst, wide, at + j, v[j]);
}

/* Passes 4 and 5 over the positions of one chunk: count the useful LLRs (dst NULL),
 * or write their starts to dst from slot `out` on.  Neither branches on the
 * usefulness, a coin toss on a chromosome (half of its LLRs are useful): the count
 * adds the flag, and every start is stored into a small buffer whose fill advances
 * by the flag, copied out when full. */
static inline __attribute__((always_inline)) uint64_t useful_loop(arrays_ctx_t *c, uint64_t lo, uint64_t hi,
                                                                  void *dst, uint64_t out, int wide)
{
    const uint8_t *small = c->small;
    const rv_narrow_t *big = &c->big;
    uint64_t e = rv_narrow_rank(big, lo), cnt = 0, prev = 0, buf[USEFUL_BUF + 1], nb = 0;
    if (lo) prev = small[lo - 1] != RV_NARROW_ESC ? small[lo - 1] : rv_narrow_val(big, e - 1);
    for (uint64_t i = lo; i < hi; i++) {
        uint64_t L = small[i];
        if (L == RV_NARROW_ESC) L = rv_narrow_val(big, e++);
        const uint64_t u = useful(L, prev);
        prev = L;
        if (!dst) {
            cnt += u;
            continue;
        }
        buf[nb] = i;
        nb += u;
        if (nb == USEFUL_BUF) {
            put_all(dst, wide, out + cnt, buf, nb);
            cnt += nb;
            nb = 0;
        }
    }
    put_all(dst, wide, out + cnt, buf, nb);
    return cnt + nb;
}

static uint64_t useful_chunk(arrays_ctx_t *c, uint64_t lo, uint64_t hi, void *dst, uint64_t out)
{
    return c->x->wide ? useful_loop(c, lo, hi, dst, out, 1) : useful_loop(c, lo, hi, dst, out, 0);
}

static void count_useful(void *arg, uint64_t k0, uint64_t k1, int t)
{
    (void)t;
    arrays_ctx_t *c = arg;
    for (uint64_t k = k0; k < k1; k++) {
        if (cancelled(c)) return;
        uint64_t lo = k * c->chunk, hi = lo + c->chunk < c->x->n ? lo + c->chunk : c->x->n;
        c->count[k] = useful_chunk(c, lo, hi, NULL, 0);
    }
}

static void scatter_useful(void *arg, uint64_t k0, uint64_t k1, int t)
{
    (void)t;
    arrays_ctx_t *c = arg;
    for (uint64_t k = k0; k < k1; k++) {
        uint64_t lo = k * c->chunk, hi = lo + c->chunk < c->x->n ? lo + c->chunk : c->x->n;
        useful_chunk(c, lo, hi, c->llrc, c->count[k]);
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

static int build_arrays(rv_index_t *x, int threads, uint64_t chunk, rv_progress_t *p)
{
    if (threads < 1) threads = rv_default_threads();
    const uint64_t n = x->n, w = x->wide ? 8 : 4;
    arrays_ctx_t c = {.x = x, .p = p};
    void *big = NULL;
    uint64_t big_bytes = 0;
    rv_progress_stage(p, RV_STAGE_LLR, n);
    if (chunk == 0) { /* LR_CHUNK, smaller where that leaves threads idle */
        chunk = LR_CHUNK;
        while (chunk > 4096 && n / chunk < (uint64_t)threads * 8) chunk /= 2;
    }
    c.chunk = chunk;
    c.nchunks = n ? (n + chunk - 1) / chunk : 0;
    c.small = malloc(n + 8); /* the last word can be read whole (esc_rank) */
    c.count = malloc((c.nchunks ? c.nchunks : 1) * sizeof *c.count);
    if (!c.small || !c.count) goto oom;
    double t0 = rv_now();
    rv_parallel_dynamic(threads, c.nchunks, 1, ranks_1, &c);
    rv_trace("llr.bytes", &t0);
    if (c.stop) goto cancelled;
    rv_parallel_dynamic(threads, c.nchunks, 1, count_escapes, &c);
    const uint64_t n_big = to_offsets(c.count, c.nchunks);
    if (!(big = rv_narrow_big_alloc(&c.big, c.small, n, n_big, x->wide, &big_bytes))) goto oom;
    rv_narrow_finish(&c.big, threads);
    rv_trace("llr.directory", &t0);
    if (n_big) {
        const uint64_t nb = (n + RV_NARROW_BLOCK - 1) / RV_NARROW_BLOCK;
        if (!(c.sub = malloc((n + 7) / 8))) goto oom;
        rv_parallel_for(threads, nb, sub_blocks, &c);
        rv_parallel_dynamic(threads, c.nchunks, 1, big_by_rank, &c);
        free(c.sub);
        c.sub = NULL;
    } else for (uint64_t k = 0; k < c.nchunks; k++) rv_progress_add(p, ((k + 1) * chunk < n ? chunk : n - k * chunk) / 3);
    rv_trace("llr.big", &t0);
    if (c.stop) goto cancelled;
    rv_parallel_dynamic(threads, c.nchunks, 1, count_useful, &c);
    if (c.stop) goto cancelled;
    const uint64_t m = to_offsets(c.count, c.nchunks);
    if (!(c.llrc = malloc(m ? m * w : w))) goto oom;
    rv_parallel_dynamic(threads, c.nchunks, 1, scatter_useful, &c);
    rv_trace("llr.compact", &t0);
    free(c.count);
    rv_index_attach(x, RV_SEC_LLR, c.small, n);
    rv_index_attach(x, RV_SEC_LLR_BIG, big, big_bytes);
    rv_index_attach(x, RV_SEC_LLRC, c.llrc, m * w);
    return 0;
oom:
    free(c.small);
    free(c.count);
    free(c.sub);
    free(c.llrc);
    free(big);
    return rv_oom("longest-repeat arrays", n + n / 2 * w);
cancelled:
    free(c.small);
    free(c.count);
    free(big);
    return rv_error("", "cancelled");
}

int rv_lr_build_llrc(rv_index_t *x, int threads)
{
    if (threads < 1) threads = rv_default_threads();
    const uint64_t n = x->n, w = x->wide ? 8 : 4;
    arrays_ctx_t c = {.x = x};
    if (!rv_lr_llr_view(x, &c.big)) return rv_error("index", "bad LLR sections");
    c.small = (uint8_t *)(uintptr_t)c.big.v;
    c.chunk = LR_CHUNK;
    while (c.chunk > 4096 && n / c.chunk < (uint64_t)threads * 8) c.chunk /= 2;
    c.nchunks = n ? (n + c.chunk - 1) / c.chunk : 0;
    if (!(c.count = malloc((c.nchunks ? c.nchunks : 1) * sizeof *c.count))) goto oom;
    rv_parallel_dynamic(threads, c.nchunks, 1, count_useful, &c);
    const uint64_t m = to_offsets(c.count, c.nchunks);
    if (!(c.llrc = malloc(m ? m * w : w))) goto oom;
    rv_parallel_dynamic(threads, c.nchunks, 1, scatter_useful, &c);
    free(c.count);
    rv_index_attach(x, RV_SEC_LLRC, c.llrc, m * w);
    return 0;
oom:
    free(c.count);
    return rv_error("longest repeats", "out of memory (%llu MB for the compact LLR array)",
                    (unsigned long long)((n / 2 * w) >> 20));
}

int rv_lr_build_arrays_chunked(rv_index_t *x, int threads, uint64_t chunk, rv_progress_t *p)
{
    return build_arrays(x, threads, chunk, p);
}

int rv_lr_build_arrays(rv_index_t *x, int threads, rv_progress_t *p)
{
    return rv_lr_build_arrays_chunked(x, threads, 0, p);
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
