/* gpu_fm.cu — the FM-index on the device (fm.h, gpu_iface.h): the occurrence table
 * built from the uploaded text and SA, and the pigeonhole search of a batch of
 * patterns (Wang, Baxter & Owens, seeds/004; the steps themselves are fm_core.h,
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
#include "../engine/fm_core.h"

#define GRID(n) ((unsigned)(((n) + 255) / 256))
#define PIECES (2 * RV_FM_MAX_PARTS) /* items of a pattern: strand s, piece j at s * MAX_PARTS + j */
#define CHUNK (1u << 26)               /* candidates a verify launch takes at most */

struct rv_gpu_fm {
    uint64_t n, fwd, nb;
    uint8_t *text;
    uint32_t *sa;
    rv_fm_block_t *blk;
    rv_fm_counts_t cn;
    /* batch buffers, grown as needed */
    uint8_t *code;
    uint32_t *off;
    size_t code_cap, pat_cap;
    uint64_t *lo;      /* per item: SA interval start */
    uint32_t *shift;   /* per item: pattern start = suffix start - shift */
    uint64_t *width;   /* per item: width (0 when not searched) */
    uint64_t *start;   /* exclusive scan of width */
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
    /* first[] and lf[] as fm.c's set_counts() */
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
    cudaFree(g->text);
    cudaFree(g->sa);
    cudaFree(g->blk);
    cudaFree(g->code);
    cudaFree(g->off);
    cudaFree(g->lo);
    cudaFree(g->shift);
    cudaFree(g->width);
    cudaFree(g->start);
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

/* Pattern i: the SA interval of every piece on every strand asked for. */
__global__ void k_fm_pieces(const rv_fm_block_t *blk, rv_fm_counts_t cn, const uint8_t *code, const uint32_t *off,
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
        if (strands >> s & 1) u = rv_fm_plan(blk, &cn, p, m, s, k, cap, l, w, sh, &wide);
        used[2 * (uint64_t)i + s] = (uint8_t)u;
        for (unsigned j = 0; j < RV_FM_MAX_PARTS; j++) lo[it + j] = l[j], width[it + j] = w[j], shift[it + j] = sh[j];
    }
    left[i] = (uint8_t)wide;
    if (wide)
        for (unsigned t = 0; t < PIECES; t++) width[(uint64_t)i * PIECES + t] = 0;
}

/* Candidates [c0, c0 + nc) of the batch: verify each, count and write the hits. */
__global__ void k_fm_verify(const uint8_t *text, const uint32_t *sa, uint64_t n, uint64_t fwd, const uint8_t *code,
                            const uint32_t *off, uint64_t n_items, unsigned k, uint32_t first, const uint64_t *lo,
                            const uint32_t *shift, const uint8_t *used, const uint64_t *start, uint64_t c0, uint64_t nc, uint32_t *count, rv_gpu_hit_t *hits,
                            unsigned long long *n_hits)
{
    const uint64_t g = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (g >= nc) return;
    const uint64_t cand = c0 + g;
    uint64_t a = 0, b = n_items; /* last item with start <= cand */
    while (b - a > 1) {
        const uint64_t mid = (a + b) / 2;
        if (start[mid] <= cand) a = mid; else b = mid;
    }
    const uint32_t i = (uint32_t)(a / PIECES);
    const int s = (int)(a % PIECES) / RV_FM_MAX_PARTS;
    const unsigned j = (unsigned)(a % PIECES) % RV_FM_MAX_PARTS;
    const uint32_t m = off[i + 1] - off[i];
    const uint64_t p = sa[lo[a] + (cand - start[a])];
    if (p < shift[a]) return;
    const uint64_t t = p - shift[a];
    if (t >= fwd || t + m > n) return;
    const int mm = rv_fm_verify(text, t, code + off[i], m, s, k, rv_fm_parts(m, k), used[2 * (uint64_t)i + s], j);
    if (mm < 0) return;
    if (count) atomicAdd(&count[i], 1u);
    if (hits) {
        const unsigned long long at = atomicAdd(n_hits, 1ull);
        hits[at] = rv_gpu_hit_t{t, first + i, (uint16_t)mm, s ? '-' : '+'};
    }
}

/* Per-pattern and per-item buffers for np patterns. */
static int reserve_patterns(rv_gpu_fm_t *g, size_t np)
{
    if (g->pat_cap >= np + 1) return 0;
    cudaFree(g->off), cudaFree(g->lo), cudaFree(g->width), cudaFree(g->start), cudaFree(g->count), cudaFree(g->left);
    cudaFree(g->shift), cudaFree(g->used);
    g->off = g->count = g->shift = NULL, g->lo = g->width = g->start = NULL, g->left = g->used = NULL;
    g->pat_cap = 0;
    const size_t it = (np + 1) * PIECES;
    GK(cudaMalloc(&g->off, (np + 1) * 4));
    GK(cudaMalloc(&g->lo, it * 8));
    GK(cudaMalloc(&g->width, it * 8));
    GK(cudaMalloc(&g->shift, it * 4));
    GK(cudaMalloc(&g->start, it * 8));
    GK(cudaMalloc(&g->count, (np + 1) * 4));
    GK(cudaMalloc(&g->left, np + 1));
    GK(cudaMalloc(&g->used, 2 * (np + 1)));
    g->pat_cap = np + 1;
    return 0;
}

/* Upload the batch and search its pieces: *total candidates numbered in g->start. */
static int pieces(rv_gpu_fm_t *g, const uint8_t *code, const uint64_t *off, size_t np, int strands, unsigned k,
                  uint32_t cap, uint64_t *total)
{
    const uint64_t bytes = off[np] - off[0], items = (uint64_t)np * PIECES;
    if (reserve_patterns(g, np) < 0 || grow((void **)&g->code, &g->code_cap, bytes + 1) < 0) return -1;
    if (host_words(g, np + 1) < 0) return -1;
    uint32_t *off32 = g->h32;
    for (size_t i = 0; i <= np; i++) off32[i] = (uint32_t)(off[i] - off[0]);
    GK(cudaMemcpy(g->code, code + off[0], bytes, cudaMemcpyHostToDevice));
    GK(cudaMemcpy(g->off, off32, (np + 1) * 4, cudaMemcpyHostToDevice));
    k_fm_pieces<<<GRID(np), 256>>>(g->blk, g->cn, g->code, g->off, (uint32_t)np, strands, k, cap, g->lo, g->width,
                                   g->shift, g->used, g->left);
    GK_LAUNCH();
    size_t tb = 0;
    GK(cub::DeviceScan::ExclusiveSum(NULL, tb, g->width, g->start, (int64_t)items));
    if (grow(&g->temp, &g->temp_bytes, tb) < 0) return -1;
    GK(cub::DeviceScan::ExclusiveSum(g->temp, tb, g->width, g->start, (int64_t)items));
    uint64_t last_start, last_width;
    GK(cudaMemcpy(&last_start, g->start + items - 1, 8, cudaMemcpyDeviceToHost));
    GK(cudaMemcpy(&last_width, g->width + items - 1, 8, cudaMemcpyDeviceToHost));
    *total = last_start + last_width;
    return 0;
}

static int search(rv_gpu_fm_t *g, const uint8_t *code, const uint64_t *off, size_t np, int strands, unsigned k,
                  uint32_t first, uint32_t cap, uint64_t *count, rv_gpu_hit_t **hits, uint64_t *n_hits,
                  uint8_t *left)
{
    uint64_t total = 0;
    if (pieces(g, code, off, np, strands, k, cap, &total) < 0) return -1;
    const uint64_t items = (uint64_t)np * PIECES;
    if (count) GK(cudaMemset(g->count, 0, np * 4));
    if (hits) {
        const size_t want = (total < CHUNK ? total : CHUNK) + 1;
        if (grow((void **)&g->hits, &g->hit_bytes, want * sizeof *g->hits) < 0) return -1;
    }
    if (hits && !(*hits = (rv_gpu_hit_t *)malloc(sizeof **hits))) return rv_error("GPU", "out of host memory");
    for (uint64_t c0 = 0; c0 < total; c0 += CHUNK) {
        const uint64_t nc = total - c0 < CHUNK ? total - c0 : CHUNK;
        if (hits) GK(cudaMemset(g->n_hits, 0, sizeof *g->n_hits));
        k_fm_verify<<<GRID(nc), 256>>>(g->text, g->sa, g->n, g->fwd, g->code, g->off, items, k, first, g->lo,
                                       g->shift, g->used, g->start, c0, nc, count ? g->count : NULL, hits ? g->hits : NULL, g->n_hits);
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
    }
    GK(cudaMemcpy(left, g->left, np, cudaMemcpyDeviceToHost));
    if (count) {
        uint32_t *c32 = g->h32; /* np + 1 words since pieces() */
        GK(cudaMemcpy(c32, g->count, np * 4, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < np; i++) count[i] = c32[i];
    }
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
