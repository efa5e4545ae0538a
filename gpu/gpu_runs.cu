/* gpu_runs.cu — every run (maximal repetition) of the text on the GPU, from the ISA and
 * LCP the device already holds: the same runs as engine/index/runs.c, found the same way
 * (Bannai et al., "The Runs Theorem", SIAM J. Comput. 2017, §3-4; runs.c explains the
 * candidate test and why each run is reported exactly once), in parallel:
 *
 *  1. RMQ over LCP: minima of blocks of 32 ranks and a sparse table over the blocks, so
 *     LCE(i, j) = min LCP(ISA[i], ISA[j]] after a direct comparison of 16 symbols.
 *  2. Lyndon arrays (the longest Lyndon word at each position = next smaller suffix,
 *     engine/index/lyndon.c) for both orders of the alphabet, by chunks of 64 positions, one
 *     thread each, right to left with the answer array as the stack; positions whose
 *     chain leaves the chunk are finished by a second pass that jumps along the final
 *     chains and, over a position still open, to the end of that position's chunk
 *     (everything before it was found larger), so the second pass needs no order.
 *  3. One thread per position tests the candidate run of its Lyndon root (both orders);
 *     each block appends its runs with one atomic add.
 *  4. The runs are sorted by (start, period) with CUB's radix sort and split into the
 *     columns of the RV_SEC_RUNS section (engine/index/runs_store.h).
 *
 * Device memory (the LCP stage's arena, after every download of the earlier stages):
 *   k0: text + TEXT_PAD zeros, then the Lyndon array (4n)     | sort: keys, other buffer
 *   sa: RMQ tables (at most 3.5n bytes)                         | sort: values, other
 *   k1: run keys (start << 32 | period), v1: run lengths        | sort: first buffers
 *   v0: LCP (the RMQ reads it), rank: ISA                       | sort: CUB scratch
 * Runs number fewer than n (the Runs Theorem), so the key and value buffers always
 * have room. */
#include <cub/cub.cuh>
#include "gpu_internal.cuh"

#define GRID(m) ((unsigned)(((m) + 255) / 256 < 65535u * 16 ? ((m) + 255) / 256 : 65535u * 16))
#define RMQ_BLOCK 32
#define LY_CHUNK 64  /* positions per thread of the Lyndon array's first pass */
#define BACK_SCAN 32 /* symbols compared directly before the binary search (runs.c) */

typedef struct {
    const uint8_t *t;      /* padded text */
    uint64_t n;
    const uint32_t *isa, *lcp;
    const uint32_t *table; /* table[k * nb + b] = min LCP of blocks b .. b + 2^k - 1 */
    uint64_t nb;
} rq_t;

static __device__ uint32_t scan_min(const rq_t &q, uint64_t lo, uint64_t hi)
{
    uint32_t m = UINT32_MAX;
    for (uint64_t r = lo; r <= hi; r++) m = min(m, q.lcp[r]);
    return m;
}

/* min LCP[lo..hi], lo <= hi */
static __device__ uint32_t rmq(const rq_t &q, uint64_t lo, uint64_t hi)
{
    const uint64_t bl = lo / RMQ_BLOCK, bh = hi / RMQ_BLOCK;
    if (bh - bl < 2) return scan_min(q, lo, hi);
    uint32_t m = min(scan_min(q, lo, (bl + 1) * RMQ_BLOCK - 1), scan_min(q, bh * RMQ_BLOCK, hi));
    const uint64_t len = bh - bl - 1;
    const int k = 63 - __clzll((long long)len);
    m = min(m, q.table[(uint64_t)k * q.nb + bl + 1]);
    return min(m, q.table[(uint64_t)k * q.nb + bh - (1ull << k)]);
}

/* LCE(i, j), i != j, stopping at breakers and the end (as rv_lce_fast) */
static __device__ uint32_t lce(const rq_t &q, uint64_t i, uint64_t j)
{
    for (uint32_t h = 0; h < 16; h += 8) {
        uint64_t stop = stop8(load8(q.t, i + h), load8(q.t, j + h));
        if (stop) return h + ((unsigned)(__ffsll((long long)stop) - 1) >> 3);
    }
    uint32_t a = q.isa[i], b = q.isa[j];
    return a < b ? rmq(q, a + 1, b) : rmq(q, b + 1, a);
}

/* 1 when the suffix at j is smaller than the suffix at i (i < j, same segment, i not a
 * breaker) in the order ORDER (lyndon.c suffix_less). */
template <int ORDER> static __device__ bool suffix_less(const rq_t &q, uint64_t j, uint64_t i)
{
    if (q.t[j] == 0) return true;
    if (ORDER == 0) return q.isa[j] < q.isa[i];
    const uint32_t l = lce(q, i, j);
    const uint8_t cj = q.t[j + l], ci = q.t[i + l]; /* zero past the end */
    if (cj == 0) return true;
    if (ci == 0) return false;
    return cj > ci;
}

static __device__ __forceinline__ uint64_t chunk_end(uint64_t i, uint64_t n)
{
    const uint64_t e = (i / LY_CHUNK + 1) * LY_CHUNK;
    return e < n ? e : n;
}

/* First pass: end[i] = the end of the longest Lyndon word at i, or i when it lies past
 * the chunk (and at breakers). */
template <int ORDER> __global__ void k_lyndon_chunk(rq_t q, uint32_t *end)
{
    const uint64_t lo = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) * LY_CHUNK;
    if (lo >= q.n) return;
    const uint64_t hi = chunk_end(lo, q.n);
    for (uint64_t i = hi; i-- > lo;) {
        if (q.t[i] == 0) { end[i] = (uint32_t)i; continue; }
        uint64_t j = i + 1;
        while (j < hi && !suffix_less<ORDER>(q, j, i)) {
            const uint32_t nj = end[j];
            j = nj == j ? hi : nj;
        }
        end[i] = (uint32_t)(j >= hi && hi != q.n ? i : j);
    }
}

/* The smallest suffix of each chunk (level 1), of each 64 chunks (level 2) and of
 * each 64^2 chunks (level 3), so that the second pass skips whole stretches in which
 * nothing is smaller than the suffix it finishes.  A chunk's smallest suffix ends the
 * chain from its first position; a breaker, smaller than every letter in both orders,
 * always wins (the comparisons across segments are not an order, but never matter:
 * a position's closing breaker is found before anything past it). */
template <int ORDER> __global__ void k_chunk_min(rq_t q, const uint32_t *end, uint32_t *min1)
{
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k * LY_CHUNK < q.n;
         k += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t lo = k * LY_CHUNK, hi = chunk_end(lo, q.n);
        uint64_t j = lo;
        for (;;) {
            const uint32_t nj = end[j];
            if (nj == j || nj >= hi) break;
            j = nj;
        }
        min1[k] = (uint32_t)j;
    }
}

template <int ORDER> __global__ void k_group_min(rq_t q, const uint32_t *below, uint64_t count, uint32_t *out)
{
    for (uint64_t g = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; g * 64 < count;
         g += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t m = below[g * 64];
        for (uint64_t k = g * 64 + 1; k < count && k < g * 64 + 64; k++)
            if (suffix_less<ORDER>(q, below[k], m)) m = below[k];
        out[g] = m;
    }
}

typedef struct {
    const uint32_t *min1, *min2, *min3; /* per 64, 64^2, 64^3 positions */
} skip_t;

/* Second pass over the positions left open.  Another thread may be finishing the
 * entries read here: either value is a valid jump. */
template <int ORDER> __global__ void k_lyndon_finish(rq_t q, uint32_t *end, skip_t sk)
{
    const uint64_t L2 = LY_CHUNK * 64, L3 = L2 * 64;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < q.n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        if (q.t[i] == 0 || end[i] != i) continue;
        uint64_t j = chunk_end(i, q.n);
        while (j < q.n) {
            if (j % LY_CHUNK == 0) {
                if (j % L3 == 0 && !suffix_less<ORDER>(q, sk.min3[j / L3], i)) { j += L3; continue; }
                if (j % L2 == 0 && !suffix_less<ORDER>(q, sk.min2[j / L2], i)) { j += L2; continue; }
                if (!suffix_less<ORDER>(q, sk.min1[j / LY_CHUNK], i)) { j += LY_CHUNK; continue; }
            }
            if (suffix_less<ORDER>(q, j, i)) break;
            const uint32_t nj = *(volatile uint32_t *)&end[j];
            j = nj == j ? chunk_end(j, q.n) : nj;
        }
        end[i] = (uint32_t)(j < q.n ? j : q.n);
    }
}

/* text[a-t, a) == text[a+p-t, a+p) */
static __device__ bool back_at_least(const rq_t &q, uint64_t a, uint64_t p, uint64_t t)
{
    if (t == 0) return true;
    if (t > a) return false;
    return lce(q, a - t, a + p - t) >= t;
}

/* The largest b < p with text[a-b, a) == text[a+p-b, a+p), knowing it is >= lo. */
static __device__ uint64_t back_exact(const rq_t &q, uint64_t a, uint64_t p, uint64_t lo)
{
    uint64_t b = lo;
    const uint64_t stop = lo + BACK_SCAN;
    while (b < p && b < a && b < stop && q.t[a - 1 - b] == q.t[a + p - 1 - b] && q.t[a - 1 - b] != 0) b++;
    if (b < stop) return b;
    uint64_t hi = p < a + 1 ? p : a + 1;
    while (hi - b > 1) {
        const uint64_t mid = b + (hi - b) / 2;
        if (back_at_least(q, a, p, mid)) b = mid; else hi = mid;
    }
    return b;
}

/* The run whose first Lyndon root in this order is at a, if any (runs.c candidate). */
template <int ORDER>
static __device__ bool candidate(const rq_t &q, const uint32_t *end, uint64_t a, uint64_t *s, uint64_t *e,
                                 uint64_t *per)
{
    const uint8_t *t = q.t;
    const uint64_t e1 = end[a], p = e1 - a;
    if (e1 >= q.n || t[e1] == 0) return false;
    const uint64_t f = lce(q, a, e1);
    if (f == 0) return false;
    const uint64_t ee = e1 + f;
    if (ORDER == 1 && t[ee] == 0) return false; /* order 0 has it (t[n] is padding) */
    const uint64_t need = f >= p ? 0 : p - f;
    if (need > a) return false;
    if (need && (t[a - 1] != t[e1 - 1] || !back_at_least(q, a, p, need))) return false;
    if (a >= p && back_at_least(q, a, p, p)) return false;
    *s = a - back_exact(q, a, p, need);
    *e = ee;
    *per = p;
    return true;
}

template <int ORDER>
__global__ void k_candidates(rq_t q, const uint32_t *end, uint64_t *keys, uint32_t *lens, uint64_t cap,
                             unsigned long long *count)
{
    typedef cub::BlockScan<uint32_t, 256> scan_t;
    __shared__ typename scan_t::TempStorage tmp;
    __shared__ unsigned long long base;
    for (uint64_t b0 = blockIdx.x * 256ull; b0 < q.n; b0 += gridDim.x * 256ull) {
        const uint64_t a = b0 + threadIdx.x;
        uint64_t s = 0, e = 0, p = 0;
        const bool ok = a < q.n && q.t[a] != 0 && candidate<ORDER>(q, end, a, &s, &e, &p);
        uint32_t at, total;
        scan_t(tmp).ExclusiveSum(ok ? 1u : 0u, at, total);
        if (threadIdx.x == 0 && total) base = atomicAdd(count, (unsigned long long)total);
        __syncthreads();
        if (ok && base + at < cap) {
            keys[base + at] = s << 32 | p;
            lens[base + at] = (uint32_t)(e - s);
        }
        __syncthreads();
    }
}

__global__ void k_rmq_blocks(const uint32_t *lcp, uint64_t n, uint64_t nb, uint32_t *table)
{
    for (uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; b < nb;
         b += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t lo = b * RMQ_BLOCK, hi = lo + RMQ_BLOCK < n ? lo + RMQ_BLOCK : n;
        uint32_t m = UINT32_MAX;
        for (uint64_t r = lo; r < hi; r++) m = min(m, lcp[r]);
        table[b] = m;
    }
}

/* Level k of a sparse table over nb entries: table[k][b] = the minimum (maximum when
 * MAX) of entries b .. b + 2^k - 1, from level k - 1. */
template <bool MAX> __global__ void k_sparse_level(uint32_t *table, uint64_t nb, int k)
{
    const uint64_t half = 1ull << (k - 1), count = nb + 1 - 2 * half;
    const uint32_t *prev = table + (uint64_t)(k - 1) * nb;
    for (uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; b < count;
         b += (uint64_t)gridDim.x * blockDim.x)
        table[(uint64_t)k * nb + b] = MAX ? max(prev[b], prev[b + half]) : min(prev[b], prev[b + half]);
}

__global__ void k_split(const uint64_t *keys, uint64_t m, uint32_t *start, uint32_t *period)
{
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < m;
         k += (uint64_t)gridDim.x * blockDim.x) {
        start[k] = (uint32_t)(keys[k] >> 32);
        period[k] = (uint32_t)keys[k];
    }
}

/* The block tree of the runs section (engine/query/runs_query.c): per block of `block` runs
 * the largest end; then for every block its subtree's range in the implicit tree (the
 * root of [lo, hi) is its middle block), and the maximum over that range from a
 * sparse table of the block maxima. */
__global__ void k_block_end(const uint32_t *start, const uint32_t *len, uint64_t m, uint32_t block,
                            uint64_t nb, uint32_t *bm)
{
    for (uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; b < nb;
         b += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t e = 0;
        for (uint64_t k = b * block; k < m && k < (b + 1) * block; k++) e = max(e, start[k] + len[k]);
        bm[b] = e;
    }
}

__global__ void k_blockmax(const uint32_t *table, uint64_t nb, uint32_t *blockmax)
{
    for (uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; b < nb;
         b += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t lo = 0, hi = nb, mid = nb / 2;
        while (mid != b) {
            if (b < mid) hi = mid; else lo = mid + 1;
            mid = lo + (hi - lo) / 2;
        }
        const int k = 63 - __clzll((long long)(hi - lo));
        blockmax[b] = max(table[(uint64_t)k * nb + lo], table[(uint64_t)k * nb + hi - (1ull << k)]);
    }
}

static int levels_for(uint64_t count)
{
    int levels = 1;
    while ((1ull << levels) <= count) levels++;
    return levels;
}

static size_t align256(size_t b) { return (b + 255) & ~(size_t)255; }

template <int ORDER> static int lyndon_and_candidates(gpu_ctx_t *c, const rq_t &q, uint32_t *end, uint32_t *mins,
                                                      unsigned long long *count)
{
    const uint64_t n = c->n, c1 = (n + LY_CHUNK - 1) / LY_CHUNK, c2 = (c1 + 63) / 64, c3 = (c2 + 63) / 64;
    skip_t sk = {mins, mins + c1, mins + c1 + c2};
    k_lyndon_chunk<ORDER><<<(unsigned)((c1 + 127) / 128), 128, 0, c->s0>>>(q, end);
    GK_LAUNCH();
    k_chunk_min<ORDER><<<GRID(c1), 256, 0, c->s0>>>(q, end, mins);
    GK_LAUNCH();
    k_group_min<ORDER><<<GRID(c2), 256, 0, c->s0>>>(q, sk.min1, c1, (uint32_t *)sk.min2);
    GK_LAUNCH();
    k_group_min<ORDER><<<GRID(c3), 256, 0, c->s0>>>(q, sk.min2, c2, (uint32_t *)sk.min3);
    GK_LAUNCH();
    k_lyndon_finish<ORDER><<<GRID(n), 256, 0, c->s0>>>(q, end, sk);
    GK_LAUNCH();
    if (gpu_trace(c, ORDER ? "runs.lyndon1" : "runs.lyndon0") < 0) return -1;
    k_candidates<ORDER><<<GRID(n), 256, 0, c->s0>>>(q, end, (uint64_t *)c->k1, c->v1, n, count);
    GK_LAUNCH();
    return gpu_trace(c, ORDER ? "runs.candidates1" : "runs.candidates0");
}

int gpu_runs_build(gpu_ctx_t *c, const uint8_t *text, uint32_t block, uint64_t *m, const uint32_t *cols[4])
{
    const uint64_t n = c->n;
    *m = 0;
    const size_t sz4 = c->rank_sa_bytes / 2, text_bytes = align256(n + TEXT_PAD);
    const uint64_t nb = (n + RMQ_BLOCK - 1) / RMQ_BLOCK, c1 = (n + LY_CHUNK - 1) / LY_CHUNK;
    const int levels = levels_for(nb);
    if ((size_t)levels * nb * 4 > sz4 || text_bytes + 4 * n + 4 * (c1 + c1 / 32 + 2) > c->k_bytes)
        return 1; /* cannot happen for n >= 1024 (the arena's minimum); the CPU does it */
    uint8_t *t = (uint8_t *)c->k0;
    uint32_t *end = (uint32_t *)(t + text_bytes), *table = c->sa, *mins = end + n;
    GK(cudaMemcpyAsync(t, text, n, cudaMemcpyHostToDevice, c->s0));
    GK(cudaMemsetAsync(t + n, 0, TEXT_PAD, c->s0));
    k_rmq_blocks<<<GRID(nb), 256, 0, c->s0>>>(c->v0, n, nb, table);
    GK_LAUNCH();
    for (int k = 1; k < levels; k++) {
        k_sparse_level<false><<<GRID(nb), 256, 0, c->s0>>>(table, nb, k);
        GK_LAUNCH();
    }
    unsigned long long *count = (unsigned long long *)(c->small + 6);
    GK(cudaMemsetAsync(count, 0, sizeof *count, c->s0));
    if (gpu_trace(c, "runs.rmq") < 0) return -1;
    const rq_t q = {t, n, c->rank, c->v0, table, nb};
    if (lyndon_and_candidates<0>(c, q, end, mins, count) < 0 || lyndon_and_candidates<1>(c, q, end, mins, count) < 0)
        return -1;
    unsigned long long found = 0;
    GK(cudaMemcpyAsync(&found, count, sizeof found, cudaMemcpyDeviceToHost, c->s0));
    GK(cudaStreamSynchronize(c->s0));
    if (found >= n) return rv_error("GPU", "runs: %llu candidates for %llu positions", found, (unsigned long long)n);
    *m = found;
    if (found == 0) return gpu_trace(c, "runs.none");
    /* sort by (start, period): the first buffers hold the runs, the others are free now */
    cub::DoubleBuffer<uint64_t> keys((uint64_t *)c->k1, c->k0);
    cub::DoubleBuffer<uint32_t> vals(c->v1, c->sa);
    const int end_bit = 32 + gpu_bits(n);
    size_t b = 0;
    GK(cub::DeviceRadixSort::SortPairs(NULL, b, keys, vals, (int64_t)found, 0, end_bit, c->s0));
    void *scratch = gpu_temp_in(c, c->v0, sz4, b);
    if (!scratch) return -1;
    GK(cub::DeviceRadixSort::SortPairs(scratch, b, keys, vals, (int64_t)found, 0, end_bit, c->s0));
    uint32_t *start = (uint32_t *)keys.Alternate(), *period = start + found;
    k_split<<<GRID(found), 256, 0, c->s0>>>(keys.Current(), found, start, period);
    GK_LAUNCH();
    if (gpu_trace(c, "runs.sort") < 0) return -1;
    /* the block tree: block maxima, their sparse table and the result in v0 */
    const uint64_t blocks = (found + block - 1) / block;
    const int bl = levels_for(blocks);
    uint32_t *bmax = c->v0, *btab = bmax + blocks;
    if (4 * (blocks + (uint64_t)bl * blocks) > sz4) return rv_error("GPU", "runs: no room for the block tree");
    k_block_end<<<GRID(blocks), 256, 0, c->s0>>>(start, vals.Current(), found, block, blocks, btab);
    GK_LAUNCH();
    for (int k = 1; k < bl; k++) {
        k_sparse_level<true><<<GRID(blocks), 256, 0, c->s0>>>(btab, blocks, k);
        GK_LAUNCH();
    }
    k_blockmax<<<GRID(blocks), 256, 0, c->s0>>>(btab, blocks, bmax);
    GK_LAUNCH();
    cols[0] = start;
    cols[1] = vals.Current();
    cols[2] = period;
    cols[3] = bmax;
    return gpu_trace(c, "runs.tree");
}
