/* gpu_fm.cu — the FM-index on the device (fm.h, gpu_iface.h): the occurrence table
 * built from the uploaded text and SA, and the pigeonhole search of a batch of
 * patterns (Wang, Baxter & Owens; the steps themselves are fm_core.h,
 * shared with the CPU).
 *
 * A batch runs in three launches: one thread per pattern searches its pieces
 * on each strand backwards (one 64-byte block read per LF step) and writes each
 * piece's SA interval; a scan of the interval widths numbers the candidates; one
 * thread per candidate reads its text position from the SA (kept whole on the
 * device: no sampling) and verifies the pattern there (fm_core.h: accepted only
 * through the first exact piece), adding to the pattern's count and, for the
 * locate output, writing the hit.  Patterns with a piece wider than `cap` are
 * marked left (the host searches them). */
#include <stdio.h>
#include <stdlib.h>
#include <cub/cub.cuh>
#include "gpu_internal.cuh"
#include "../engine/search/fm_core.h"

#define GRID(n) ((unsigned)(((n) + 255) / 256))
#define PIECES (2 * RV_FM_MAX_PARTS) /* items of a pattern: strand s, piece j at s * MAX_PARTS + j */
#define CHUNK (1u << 26)               /* candidates a verify launch takes at most */

struct rv_gpu_fm {
    uint64_t n, fwd, nb;
    uint8_t *text;
    uint32_t *sa;
    rv_fm_block_t *blk;
    rv_fm_counts_t cn;
    uint32_t *qtab;    /* the q-gram table (fm_core.h), or NULL */
    unsigned q;
    /* batch buffers, grown as needed */
    uint8_t *code;
    uint32_t *off;
    size_t code_cap, pat_cap;
    uint64_t *lo;      /* per item: SA interval start */
    uint32_t *shift;   /* per item: pattern start = suffix start - shift */
    uint64_t *width;   /* per item: width (0 when not searched) */
    uint64_t *start;   /* exclusive scan of width */
    uint64_t *wstart;  /* exclusive scan of the widths above SMALL */
    uint32_t *count;   /* per pattern */
    uint8_t *left;
    uint8_t *used;     /* per pattern and strand: mask of the pieces checked (rv_fm_plan) */
    rv_gpu_hit_t *hits; /* one verify launch's hits */
    size_t hit_bytes;
    unsigned long long *n_hits;
    void *temp;
    size_t temp_bytes;
    uint32_t *h32;     /* page-locked host words: the offsets up, the counts down */
    size_t h32_cap;
    int trace;         /* REPVIEW_FIND_TRACE */
    uint64_t chunk;    /* candidates a launch takes at most (CHUNK; REPVIEW_FM_CHUNK: tests) */
    uint64_t stop;     /* a piece's search stops at this many candidates */
    uint64_t n_cand, n_wide; /* candidates verified, those of wide items (trace) */
    double phase[5], t_mark;
};

/* Room for `words` page-locked host words in g->h32 (kept from batch to batch: a
 * fresh buffer costs its page faults every time). */
static int host_words(rv_gpu_fm_t *g, size_t words)
{
    if (g->h32_cap >= words) return 0;
    if (g->h32) cudaFreeHost(g->h32);
    g->h32 = NULL;
    g->h32_cap = 0;
    GK(cudaMallocHost(&g->h32, words * 4));
    g->h32_cap = words;
    return 0;
}

/* REPVIEW_FIND_TRACE: where a batch's time goes on the device, each phase waited
 * for (a synchronisation each: only when tracing). */
enum { PH_UP, PH_PIECES, PH_SCAN, PH_VERIFY, PH_DOWN, PH_N };
static void phase_start(rv_gpu_fm_t *g)
{
    if (g->trace) g->t_mark = rv_now();
}
static void phase_end(rv_gpu_fm_t *g, int ph)
{
    if (!g->trace) return;
    cudaDeviceSynchronize();
    const double t = rv_now();
    g->phase[ph] += t - g->t_mark;
    g->t_mark = t;
}

/* ---- the table ---------------------------------------------------------------- */

__global__ void k_fm_blocks(const uint8_t *text, const uint32_t *sa, uint64_t n, uint64_t nb, rv_fm_block_t *blk,
                            uint32_t *local)
{
    const uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (b >= nb) return;
    rv_fm_block_t k;
    uint32_t cnt[4];
    rv_fm_fill_block(&k, text, sa, n, b, cnt);
    blk[b] = k;
    for (int c = 0; c < 4; c++) local[c * nb + b] = cnt[c];
}

__global__ void k_fm_counts(rv_fm_block_t *blk, uint64_t nb, const uint32_t *before)
{
    const uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (b >= nb) return;
    for (int c = 0; c < 4; c++) blk[b].cnt[c] = before[c * nb + b];
}

/* The q-gram code of the suffix at rank i, or UINT32_MAX when its first q symbols
 * are not all bases. */
__device__ __forceinline__ uint32_t qcode(const uint8_t *text, const uint32_t *sa, uint64_t n, unsigned q, uint64_t i)
{
    const uint64_t p = sa[i];
    if (p + q > n) return UINT32_MAX;
    uint32_t w = 0;
    for (unsigned j = 0; j < q; j++) {
        const uint8_t c = text[p + j];
        if (c < 1 || c > 4) return UINT32_MAX;
        w = w << 2 | (uint32_t)(c - 1);
    }
    return w;
}

__global__ void k_fm_qcodes(const uint8_t *text, const uint32_t *sa, uint64_t n, unsigned q, uint32_t *codes)
{
    const uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (i < n) codes[i] = qcode(text, sa, n, q, i);
}

/* The suffixes of one q-gram are neighbours in the SA: its interval's ends are
 * where the code changes. */
__global__ void k_fm_qbounds(const uint32_t *codes, uint64_t n, uint32_t *tab)
{
    const uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    const uint32_t w = codes[i];
    if (w == UINT32_MAX) return;
    if (i == 0 || codes[i - 1] != w) tab[2 * (uint64_t)w] = (uint32_t)i;
    if (i + 1 == n || codes[i + 1] != w) tab[2 * (uint64_t)w + 1] = (uint32_t)(i + 1);
}

/* q for n symbols: about one suffix a q-gram (4^q near n), from 1 to 14 (a table
 * of 2 GiB); REPVIEW_FM_Q=Q sets it (0: none; tests). */
static unsigned pick_q(uint64_t n)
{
    const char *e = getenv("REPVIEW_FM_Q");
    if (e && *e) {
        const unsigned v = (unsigned)atoi(e);
        return v > 14 ? 14 : v;
    }
    unsigned q = 1;
    while (q < 14 && (4ull << (2 * q)) <= n) q++;
    return q;
}

/* The q-gram table from the text and SA on the device (left NULL when there is no
 * room for it: the search is then only slower). */
static void qtab_build(rv_gpu_fm_t *g)
{
    const uint64_t n = g->n;
    const unsigned q = pick_q(n);
    uint32_t *codes = NULL;
    if (!q || n < 2) return;
    const size_t bytes = (size_t)2 * 4 << (2 * q);
    /* only with room to spare: the batches' buffers come later (about 1.5 GB for 10^6
     * reads of 100 bp with their hits), and a table is only a speed-up */
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess || free_b < bytes + n * 4 + (3ull << 30)) {
        (void)cudaGetLastError();
        return;
    }
    if (cudaMalloc(&g->qtab, bytes) != cudaSuccess || cudaMalloc(&codes, n * 4) != cudaSuccess ||
        cudaMemset(g->qtab, 0, bytes) != cudaSuccess) {
        (void)cudaGetLastError();
        cudaFree(codes);
        cudaFree(g->qtab);
        g->qtab = NULL;
        return;
    }
    k_fm_qcodes<<<GRID(n), 256>>>(g->text, g->sa, n, q, codes);
    k_fm_qbounds<<<GRID(n), 256>>>(codes, n, g->qtab);
    if (cudaFree(codes) != cudaSuccess || cudaGetLastError() != cudaSuccess) {
        cudaFree(g->qtab);
        g->qtab = NULL;
        return;
    }
    g->q = q;
}

static int grow(void **p, size_t *cap, size_t need)
{
    if (*cap >= need) return 0;
    if (*p) cudaFree(*p);
    *p = NULL;
    *cap = 0;
    GK(cudaMalloc(p, need));
    *cap = need;
    return 0;
}

static int fm_build(rv_gpu_fm_t *g, const uint8_t *text, const uint32_t *sa)
{
    const uint64_t n = g->n, nb = g->nb;
    GK(cudaMalloc(&g->text, n + TEXT_PAD));
    GK(cudaMalloc(&g->sa, n * 4));
    GK(cudaMalloc(&g->blk, nb * sizeof *g->blk));
    GK(cudaMemset(g->text + n, 0, TEXT_PAD));
    GK(cudaMemcpy(g->text, text, n, cudaMemcpyHostToDevice));
    GK(cudaMemcpy(g->sa, sa, n * 4, cudaMemcpyHostToDevice));
    uint32_t *local = NULL, *before = NULL;
    size_t tb = 0;
    GK(cub::DeviceScan::ExclusiveSum(NULL, tb, (uint32_t *)NULL, (uint32_t *)NULL, (int64_t)nb));
    GK(cudaMalloc(&local, 8 * nb * 4 + tb));
    before = local + 4 * nb;
    void *temp = before + 4 * nb;
    k_fm_blocks<<<GRID(nb), 256>>>(g->text, g->sa, n, nb, g->blk, local);
    GK_LAUNCH();
    for (int c = 0; c < 4; c++)
        GK(cub::DeviceScan::ExclusiveSum(temp, tb, local + c * nb, before + c * nb, (int64_t)nb));
    k_fm_counts<<<GRID(nb), 256>>>(g->blk, nb, before);
    GK_LAUNCH();
    uint32_t a[4], bsum[4];
    cudaError_t e = cudaSuccess;
    for (int c = 0; c < 4 && e == cudaSuccess; c++) {
        e = cudaMemcpy(&a[c], local + c * nb + nb - 1, 4, cudaMemcpyDeviceToHost);
        if (e == cudaSuccess) e = cudaMemcpy(&bsum[c], before + c * nb + nb - 1, 4, cudaMemcpyDeviceToHost);
    }
    cudaFree(local);
    GK(e);
    qtab_build(g);
    /* first[] and lf[] as fm_index.c's set_counts() */
    const uint8_t last = text[n - 1];
    uint64_t letters = 0, in_text[4];
    for (int c = 0; c < 4; c++) {
        in_text[c] = (uint64_t)a[c] + bsum[c] + (last == c + 1);
        letters += in_text[c];
    }
    g->cn.first[0] = g->cn.lf[0] = 0;
    g->cn.first[1] = n - letters;
    for (int c = 1; c <= 4; c++) {
        g->cn.first[c + 1] = g->cn.first[c] + in_text[c - 1];
        g->cn.lf[c] = g->cn.first[c] + (last == c);
    }
    return 0;
}

extern "C" void rv_gpu_fm_close(rv_gpu_fm_t *g)
{
    if (!g) return;
    if (g->trace)
        fprintf(stderr, "find\tGPU q %u stop %llu\tcandidates %llu (wide %llu)\tupload %.3f s\tpieces %.3f s\tscan %.3f s\tverify %.3f s\tdown %.3f s\n", g->q,
                (unsigned long long)g->stop, (unsigned long long)g->n_cand, (unsigned long long)g->n_wide, g->phase[PH_UP], g->phase[PH_PIECES], g->phase[PH_SCAN], g->phase[PH_VERIFY], g->phase[PH_DOWN]);
    cudaFree(g->text);
    cudaFree(g->sa);
    cudaFree(g->blk);
    cudaFree(g->qtab);
    cudaFree(g->code);
    cudaFree(g->off);
    cudaFree(g->lo);
    cudaFree(g->shift);
    cudaFree(g->width);
    cudaFree(g->start);
    cudaFree(g->wstart);
    cudaFree(g->count);
    cudaFree(g->left);
    cudaFree(g->used);
    cudaFree(g->hits);
    cudaFree(g->n_hits);
    cudaFree(g->temp);
    if (g->h32) cudaFreeHost(g->h32);
    free(g);
}

extern "C" rv_gpu_fm_t *rv_gpu_fm_open(const uint8_t *text, const uint32_t *sa, uint64_t n, uint64_t fwd,
                                       double *build_s)
{
    const double t0 = rv_now();
    rv_gpu_fm_t *g = (rv_gpu_fm_t *)calloc(1, sizeof *g);
    if (!g) { rv_error("GPU", "out of host memory"); return NULL; }
    g->n = n;
    g->fwd = fwd;
    g->nb = n / RV_FM_BLOCK + 1;
    const char *tr = getenv("REPVIEW_FIND_TRACE");
    g->trace = tr && *tr && *tr != '0';
    const char *ch = getenv("REPVIEW_FM_CHUNK");
    g->chunk = ch && atoll(ch) > 0 ? (uint64_t)atoll(ch) : CHUNK;
    g->stop = RV_FM_STOP;
    if (fm_build(g, text, sa) < 0 || cudaMalloc(&g->n_hits, sizeof *g->n_hits) != cudaSuccess) {
        (void)cudaGetLastError();
        rv_error("GPU", "FM-index: %s", rv_last_error());
        rv_gpu_fm_close(g);
        return NULL;
    }
    *build_s = rv_now() - t0;
    return g;
}

/* ---- the search ------------------------------------------------------------- */

/* In a pattern-strand's used mask: its pieces are the k + 1 of the short cut
 * (rv_fm_parts(m, k) otherwise). */
#define FEW_PARTS 0x80u
__device__ __forceinline__ unsigned parts_of(uint8_t used, uint32_t m, unsigned k)
{
    return used & FEW_PARTS ? k + 1 : rv_fm_parts(m, k);
}

/* Pattern i: the SA interval of every piece on every strand asked for. */
__global__ void k_fm_pieces(const rv_fm_block_t *blk, rv_fm_counts_t cn, rv_fm_qtab_t qt, uint64_t stop, const uint8_t *code, const uint32_t *off,
                            uint32_t np, int strands, unsigned k, uint32_t cap, uint64_t *lo, uint64_t *width,
                            uint32_t *shift, uint8_t *used, uint8_t *left)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= np) return;
    const uint8_t *p = code + off[i];
    const uint32_t m = off[i + 1] - off[i];
    int wide = 0;
    for (int s = 0; s < 2; s++) {
        const uint64_t it = (uint64_t)i * PIECES + s * RV_FM_MAX_PARTS;
        uint64_t l[RV_FM_MAX_PARTS], w[RV_FM_MAX_PARTS];
        uint32_t sh[RV_FM_MAX_PARTS];
        unsigned u = 0;
        for (unsigned j = 0; j < RV_FM_MAX_PARTS; j++) w[j] = l[j] = sh[j] = 0;
        if (strands >> s & 1) {
            const unsigned parts = rv_fm_parts(m, k);
            int wide_a = 0;
            u = rv_fm_plan_cut(blk, &cn, &qt, stop, p, m, s, k, parts, cap, l, w, sh, &wide_a);
            if (parts > k + 1) {
                /* a read from a repeat has every short piece in many copies: k + 1
                 * longer pieces may have far fewer (one exact piece is needed
                 * either way); the cut with fewer candidates is taken, marked
                 * FEW_PARTS in used */
                uint64_t l2[RV_FM_MAX_PARTS], w2[RV_FM_MAX_PARTS], ta = 0, tb = 0;
                uint32_t sh2[RV_FM_MAX_PARTS];
                int wide_b = 0;
                for (unsigned j = 0; j < RV_FM_MAX_PARTS; j++) w2[j] = l2[j] = sh2[j] = 0;
                const unsigned u2 = rv_fm_plan_cut(blk, &cn, &qt, stop, p, m, s, k, k + 1, cap, l2, w2, sh2, &wide_b);
                for (unsigned j = 0; j < RV_FM_MAX_PARTS; j++) ta += wide_a ? 0 : w[j], tb += wide_b ? 0 : w2[j];
                if (!wide_b && (wide_a || tb < ta)) {
                    for (unsigned j = 0; j < RV_FM_MAX_PARTS; j++) l[j] = l2[j], w[j] = w2[j], sh[j] = sh2[j];
                    u = u2 | FEW_PARTS;
                    wide_a = 0;
                }
            }
            wide |= wide_a;
        }
        used[2 * (uint64_t)i + s] = (uint8_t)u;
        for (unsigned j = 0; j < RV_FM_MAX_PARTS; j++) lo[it + j] = l[j], width[it + j] = w[j], shift[it + j] = sh[j];
    }
    left[i] = (uint8_t)wide;
    if (wide)
        for (unsigned t = 0; t < PIECES; t++) width[(uint64_t)i * PIECES + t] = 0;
}

/* Four bytes from p (any alignment; the buffer has at least 3 bytes after them
 * readable: the text's padding, the codes' slack). */
__device__ __forceinline__ uint32_t load4(const uint8_t *p)
{
    const uintptr_t a = (uintptr_t)p;
    const uint32_t *w = (const uint32_t *)(a & ~(uintptr_t)3);
    return __funnelshift_r(w[0], w[1], (unsigned)(a & 3) * 8);
}

/* rv_fm_verify (fm_core.h) four symbols at a time: the same answer.  Each word of
 * text is compared with four pattern codes at once (the reverse complement's
 * read backwards, byte-swapped and complemented); a word with an IUPAC set goes
 * symbol by symbol.  A mismatch marks its piece: piece(i) = (parts (i + 1) - 1) / m. */
__device__ __forceinline__ int verify_words(const uint8_t *text, uint64_t t, const uint8_t *code, uint32_t m, int rc,
                                            unsigned k, unsigned parts, unsigned used, unsigned j)
{
    unsigned mm = 0, dirty = 0;
    unsigned before = used & ((1u << j) - 1); /* used pieces before j not yet passed */
    uint32_t i = 0;
    for (; i < m; i += 4) {
        const uint32_t len = m - i < 4 ? m - i : 4;
        const uint32_t keep = len == 4 ? 0xffffffffu : (1u << (8 * len)) - 1;
        const uint32_t tw = load4(text + t + i) & keep;
        if (__vcmpeq4(tw, 0) & keep) return -1; /* a breaker (the padding is masked) */
        uint32_t pw;
        if (!rc) {
            pw = len == 4 ? load4(code + i) : 0;
            if (len < 4)
                for (uint32_t b = 0; b < len; b++) pw |= (uint32_t)code[i + b] << (8 * b);
        } else if (len == 4) {
            pw = __byte_perm(load4(code + m - 4 - i), 0, 0x0123);
        } else {
            pw = 0;
            for (uint32_t b = 0; b < len; b++) pw |= (uint32_t)code[m - 1 - i - b] << (8 * b);
        }
        uint32_t bad; /* bit b: symbol i + b mismatches */
        if (pw & 0x10101010u) { /* a set: one symbol at a time */
            bad = 0;
            for (uint32_t b = 0; b < len; b++) {
                uint8_t p = (uint8_t)(pw >> (8 * b));
                if (rc) p = rv_fm_comp(p);
                bad |= (uint32_t)!rv_fm_match(p, (uint8_t)(tw >> (8 * b))) << b;
            }
        } else {
            if (rc) pw = (0x05050505u - pw) & keep; /* codes 1..4: 5 - c, no borrow */
            const uint32_t ne = __vcmpne4(tw, pw) & keep;
            bad = (ne & 1) | (ne >> 7 & 2) | (ne >> 14 & 4) | (ne >> 21 & 8);
        }
        while (bad) {
            const unsigned b = (unsigned)__ffs(bad) - 1;
            bad &= bad - 1;
            if (++mm > k) return -1;
            dirty |= 1u << ((parts * (i + b + 1) - 1) / m);
        }
        /* the pieces now passed: a clean used one before j reports this match
         * itself, a mismatch in j rules it out */
        const uint32_t done = i + 4 < m ? i + 4 : m;
        while (before) {
            const unsigned p = (unsigned)__ffs(before) - 1;
            if ((uint64_t)(p + 1) * m / parts > done) break;
            if (!(dirty >> p & 1)) return -1;
            before &= before - 1;
        }
        if (dirty >> j & 1) return -1;
    }
    /* piece j must be exact, and no used piece before it (that piece reports it) */
    if (dirty >> j & 1 || used & ((1u << j) - 1) & ~dirty) return -1;
    return (int)mm;
}

/* Item a's candidate at SA rank r: verified, counted and written when it is a hit. */
__device__ __forceinline__ void verify_one(const uint8_t *text, const uint32_t *sa, uint64_t n, uint64_t fwd,
                                           const uint8_t *code, const uint32_t *off, unsigned k, uint32_t first,
                                           const uint32_t *shift, const uint8_t *used, uint64_t a, uint64_t r,
                                           uint32_t *count, rv_gpu_hit_t *hits, unsigned long long *n_hits)
{
    const uint32_t i = (uint32_t)(a / PIECES);
    const int s = (int)(a % PIECES) / RV_FM_MAX_PARTS;
    const unsigned j = (unsigned)(a % PIECES) % RV_FM_MAX_PARTS;
    const uint32_t m = off[i + 1] - off[i];
    const uint64_t p = sa[r];
    if (p < shift[a]) return;
    const uint64_t t = p - shift[a];
    if (t >= fwd || t + m > n) return;
    const uint8_t u = used[2 * (uint64_t)i + s];
    const int mm = verify_words(text, t, code + off[i], m, s, k, parts_of(u, m, k), u & ~FEW_PARTS, j);
    if (mm < 0) return;
    if (count) atomicAdd(&count[i], 1u);
    if (hits) {
        const unsigned long long at = atomicAdd(n_hits, 1ull);
        hits[at] = rv_gpu_hit_t{t, first + i, (uint16_t)mm, s ? '-' : '+'};
    }
}

/* The items of at most SMALL candidates (nearly all: a piece's search stops at
 * RV_FM_STOP), a thread each, every candidate of its own. */
#define SMALL 32
__global__ void k_fm_verify_items(const uint8_t *text, const uint32_t *sa, uint64_t n, uint64_t fwd,
                                  const uint8_t *code, const uint32_t *off, uint64_t n_items, unsigned k,
                                  uint32_t first, const uint64_t *lo, const uint64_t *width, const uint32_t *shift,
                                  const uint8_t *used, uint32_t *count, rv_gpu_hit_t *hits, unsigned long long *n_hits)
{
    const uint64_t a = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (a >= n_items) return;
    const uint64_t w = width[a];
    if (w == 0 || w > SMALL) return;
    for (uint64_t c = 0; c < w; c++)
        verify_one(text, sa, n, fwd, code, off, k, first, shift, used, a, lo[a] + c, count, hits, n_hits);
}

/* The last item in [a, b) whose start is <= cand (start[a] <= cand). */
__device__ __forceinline__ uint64_t item_of(const uint64_t *start, uint64_t a, uint64_t b, uint64_t cand)
{
    while (b - a > 1) {
        const uint64_t mid = (a + b) / 2;
        if (start[mid] <= cand) a = mid; else b = mid;
    }
    return a;
}

/* Candidates [c0, c0 + nc) of the items numbered by start (an exclusive scan of
 * their widths): a thread each, which finds its item by binary search. */
__global__ void k_fm_verify(const uint8_t *text, const uint32_t *sa, uint64_t n, uint64_t fwd, const uint8_t *code,
                            const uint32_t *off, uint64_t n_items, unsigned k, uint32_t first, const uint64_t *lo,
                            const uint32_t *shift, const uint8_t *used, const uint64_t *start, uint64_t c0, uint64_t nc, uint32_t *count, rv_gpu_hit_t *hits,
                            unsigned long long *n_hits)
{
    /* the block's candidates lie in items [first_item, last_item]: two searches of
     * the whole array for the block, then each thread searches that short range */
    __shared__ uint64_t range[2];
    const uint64_t g0 = blockIdx.x * (uint64_t)blockDim.x, g = g0 + threadIdx.x;
    if (threadIdx.x < 2) {
        const uint64_t last = g0 + blockDim.x - 1 < nc ? g0 + blockDim.x - 1 : nc - 1;
        range[threadIdx.x] = item_of(start, 0, n_items, c0 + (threadIdx.x ? last : g0));
    }
    __syncthreads();
    if (g >= nc) return;
    const uint64_t cand = c0 + g;
    const uint64_t a = item_of(start, range[0], range[1] + 1, cand);
    verify_one(text, sa, n, fwd, code, off, k, first, shift, used, a, lo[a] + (cand - start[a]), count, hits, n_hits);
}

/* The widths of the items of more than SMALL candidates (the others 0), to be
 * numbered by a scan in place. */
__global__ void k_fm_wide(const uint64_t *width, uint64_t n_items, uint64_t *wide)
{
    const uint64_t a = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (a < n_items) wide[a] = width[a] > SMALL ? width[a] : 0;
}

/* Per-pattern and per-item buffers for np patterns. */
static int reserve_patterns(rv_gpu_fm_t *g, size_t np)
{
    if (g->pat_cap >= np + 1) return 0;
    cudaFree(g->off), cudaFree(g->lo), cudaFree(g->width), cudaFree(g->start), cudaFree(g->count), cudaFree(g->left);
    cudaFree(g->shift), cudaFree(g->used), cudaFree(g->wstart);
    g->off = g->count = g->shift = NULL, g->lo = g->width = g->start = g->wstart = NULL, g->left = g->used = NULL;
    g->pat_cap = 0;
    const size_t it = (np + 1) * PIECES;
    GK(cudaMalloc(&g->off, (np + 1) * 4));
    GK(cudaMalloc(&g->lo, it * 8));
    GK(cudaMalloc(&g->width, it * 8));
    GK(cudaMalloc(&g->shift, it * 4));
    GK(cudaMalloc(&g->start, it * 8));
    GK(cudaMalloc(&g->wstart, it * 8));
    GK(cudaMalloc(&g->count, (np + 1) * 4));
    GK(cudaMalloc(&g->left, np + 1));
    GK(cudaMalloc(&g->used, 2 * (np + 1)));
    g->pat_cap = np + 1;
    return 0;
}

/* Upload the batch and search its pieces: *total candidates numbered in g->start. */
static int pieces(rv_gpu_fm_t *g, const uint8_t *code, const uint64_t *off, size_t np, int strands, unsigned k,
                  uint32_t cap, uint64_t *total, uint64_t *wide)
{
    const uint64_t bytes = off[np] - off[0], items = (uint64_t)np * PIECES;
    if (reserve_patterns(g, np) < 0 || grow((void **)&g->code, &g->code_cap, bytes + 8) < 0) return -1; /* load4's slack */
    if (host_words(g, np + 1) < 0) return -1;
    uint32_t *off32 = g->h32;
    for (size_t i = 0; i <= np; i++) off32[i] = (uint32_t)(off[i] - off[0]);
    phase_start(g);
    GK(cudaMemcpy(g->code, code + off[0], bytes, cudaMemcpyHostToDevice));
    GK(cudaMemcpy(g->off, off32, (np + 1) * 4, cudaMemcpyHostToDevice));
    phase_end(g, PH_UP);
    const rv_fm_qtab_t qt = {g->qtab, g->qtab ? g->q : 0u};
    k_fm_pieces<<<GRID(np), 256>>>(g->blk, g->cn, qt, g->stop, g->code, g->off, (uint32_t)np, strands, k, cap, g->lo, g->width,
                                   g->shift, g->used, g->left);
    GK_LAUNCH();
    phase_end(g, PH_PIECES);
    k_fm_wide<<<GRID(items), 256>>>(g->width, items, g->wstart);
    GK_LAUNCH();
    size_t tb = 0;
    GK(cub::DeviceScan::ExclusiveSum(NULL, tb, g->width, g->start, (int64_t)items));
    if (grow(&g->temp, &g->temp_bytes, tb) < 0) return -1;
    GK(cub::DeviceScan::ExclusiveSum(g->temp, tb, g->width, g->start, (int64_t)items));
    GK(cub::DeviceScan::ExclusiveSum(g->temp, tb, g->wstart, g->wstart, (int64_t)items)); /* in place */
    uint64_t last[3];
    GK(cudaMemcpy(&last[0], g->start + items - 1, 8, cudaMemcpyDeviceToHost));
    GK(cudaMemcpy(&last[1], g->width + items - 1, 8, cudaMemcpyDeviceToHost));
    GK(cudaMemcpy(&last[2], g->wstart + items - 1, 8, cudaMemcpyDeviceToHost));
    *total = last[0] + last[1];
    *wide = last[2] + (last[1] > SMALL ? last[1] : 0);
    phase_end(g, PH_SCAN);
    return 0;
}

static int search(rv_gpu_fm_t *g, const uint8_t *code, const uint64_t *off, size_t np, int strands, unsigned k,
                  uint32_t first, uint32_t cap, uint64_t *count, rv_gpu_hit_t **hits, uint64_t *n_hits,
                  uint8_t *left)
{
    uint64_t total = 0, wide = 0;
    if (pieces(g, code, off, np, strands, k, cap, &total, &wide) < 0) return -1;
    const uint64_t items = (uint64_t)np * PIECES;
    if (count) GK(cudaMemset(g->count, 0, np * 4));
    /* the small items a thread each, then the wide ones' candidates a thread each;
     * hits come down after each launch, which holds at most g->chunk of them (when the
     * small items' candidates are more, every candidate goes by binary search) */
    const int by_item = !hits || total - wide <= g->chunk;
    const uint64_t *start = by_item ? g->wstart : g->start;
    const uint64_t todo = by_item ? wide : total;
    g->n_cand += total, g->n_wide += wide;
    if (hits) {
        const size_t want = (total < g->chunk ? total : g->chunk) + 1;
        if (grow((void **)&g->hits, &g->hit_bytes, want * sizeof *g->hits) < 0) return -1;
    }
    if (hits && !(*hits = (rv_gpu_hit_t *)malloc(sizeof **hits))) return rv_error("GPU", "out of host memory");
    for (uint64_t c0 = 0, launch = 0; launch == 0 || c0 < todo; launch++) {
        const uint64_t nc = todo - c0 < g->chunk ? todo - c0 : g->chunk;
        if (hits) GK(cudaMemset(g->n_hits, 0, sizeof *g->n_hits));
        if (launch == 0 && by_item)
            k_fm_verify_items<<<GRID(items), 256>>>(g->text, g->sa, g->n, g->fwd, g->code, g->off, items, k, first,
                                                   g->lo, g->width, g->shift, g->used, count ? g->count : NULL,
                                                   hits ? g->hits : NULL, g->n_hits);
        else if (nc)
            k_fm_verify<<<GRID(nc), 256>>>(g->text, g->sa, g->n, g->fwd, g->code, g->off, items, k, first, g->lo,
                                           g->shift, g->used, start, c0, nc, count ? g->count : NULL,
                                           hits ? g->hits : NULL, g->n_hits);
        GK_LAUNCH();
        if (hits) {
            unsigned long long got = 0;
            GK(cudaMemcpy(&got, g->n_hits, sizeof got, cudaMemcpyDeviceToHost));
            /* hits are far fewer than candidates (a wide piece): grow by what came */
            rv_gpu_hit_t *more = (rv_gpu_hit_t *)realloc(*hits, (*n_hits + got + 1) * sizeof **hits);
            if (!more) return rv_error("GPU", "out of host memory (%llu hits)", (unsigned long long)(*n_hits + got));
            *hits = more;
            GK(cudaMemcpy(*hits + *n_hits, g->hits, got * sizeof **hits, cudaMemcpyDeviceToHost));
            *n_hits += got;
        }
        if (!(launch == 0 && by_item)) c0 += nc;
    }
    phase_end(g, PH_VERIFY);
    GK(cudaMemcpy(left, g->left, np, cudaMemcpyDeviceToHost));
    if (count) {
        uint32_t *c32 = g->h32; /* np + 1 words since pieces() */
        GK(cudaMemcpy(c32, g->count, np * 4, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < np; i++) count[i] = c32[i];
    }
    phase_end(g, PH_DOWN);
    return 0;
}

extern "C" int rv_gpu_fm_search(rv_gpu_fm_t *g, const uint8_t *code, const uint64_t *off, size_t np, int strands,
                                unsigned k, uint32_t first, uint32_t cap, uint64_t *count, rv_gpu_hit_t **hits,
                                uint64_t *n_hits, uint8_t *left)
{
    if (hits) *hits = NULL;
    if (n_hits) *n_hits = 0;
    if (search(g, code, off, np, strands, k, first, cap, count, hits, n_hits, left) == 0) return 0;
    (void)cudaGetLastError();
    if (hits) {
        free(*hits);
        *hits = NULL;
        *n_hits = 0;
    }
    return -1;
}
