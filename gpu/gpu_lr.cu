/* gpu_lr.cu — the longest-repeat arrays on the GPU (Tian & Xu §5): the raw
 * LLR array, one thread per position (Lemma 1: LLR[i] = max(LCP[ISA[i]], LCP[ISA[i]+1])
 * with LCP[n] = 0), and its compaction to the starts of the useful LLRs (flag + scan +
 * scatter, here cub::DeviceSelect), in the layout of include/repview/lr.h: LLR_i is
 * useful iff LLR[i] > 0 and (i == 0 or LLR[i] >= LLR[i-1]).  Also the narrowing of
 * LCP and LLR to one byte per entry with their values >= 255 listed (narrow.h). */
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include "gpu_internal.cuh"

#define GRID(m) ((unsigned)(((m) + 255) / 256 < 65535u * 16 ? ((m) + 255) / 256 : 65535u * 16))

__global__ void k_llr(const uint32_t *isa, const uint32_t *lcp, uint64_t n, uint32_t *llr)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t r = isa[i];
        uint32_t a = lcp[r], b = r + 1 < n ? lcp[r + 1] : 0;
        llr[i] = a > b ? a : b;
    }
}

struct useful {
    const uint32_t *llr;
    __device__ bool operator()(uint32_t i) const
    {
        uint32_t l = llr[i];
        return l > 0 && (i == 0 || l >= llr[i - 1]);
    }
};

/* out[i] = min(v[i], 255); *count += the number of v[i] >= 255 (one atomic per warp) */
__global__ void k_narrow(const uint32_t *v, uint64_t n, uint8_t *out, uint32_t *count)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t base = blockIdx.x * (uint64_t)blockDim.x; base < n; base += stride) {
        uint64_t i = base + threadIdx.x;
        uint32_t x = i < n ? v[i] : 0;
        if (i < n) out[i] = x < 255u ? (uint8_t)x : (uint8_t)255u;
        unsigned big = __ballot_sync(0xffffffffu, x >= 255u);
        if ((threadIdx.x & 31) == 0 && big) atomicAdd(count, (uint32_t)__popc(big));
    }
}

struct is_big {
    const uint32_t *v;
    __device__ bool operator()(uint32_t i) const { return v[i] >= 255u; }
};

__global__ void k_gather(const uint32_t *pos, uint32_t m, const uint32_t *v, uint32_t *val)
{
    for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < m; j += gridDim.x * blockDim.x)
        val[j] = v[pos[j]];
}

/* dir[b] = the number of positions below b * RV_NARROW_BLOCK in pos (sorted), b <= nb */
__global__ void k_dir(const uint32_t *pos, uint32_t cnt, uint64_t nb, uint32_t *dir)
{
    for (uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; b <= nb;
         b += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t key = b * RV_NARROW_BLOCK;
        uint32_t lo = 0, hi = cnt;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (pos[mid] < key) lo = mid + 1; else hi = mid;
        }
        dir[b] = lo;
    }
}

int gpu_big_dir(gpu_ctx_t *c, const uint32_t *pos, uint32_t cnt, uint32_t *dir)
{
    const uint64_t nb = (c->n + RV_NARROW_BLOCK - 1) / RV_NARROW_BLOCK;
    k_dir<<<GRID(nb + 1), 256, 0, c->s0>>>(pos, cnt, nb, dir);
    GK_LAUNCH();
    return 0;
}

int gpu_narrow(gpu_ctx_t *c, const uint32_t *v, uint8_t *out, uint32_t *count)
{
    k_narrow<<<GRID(c->n), 256, 0, c->s0>>>(v, c->n, out, count);
    GK_LAUNCH();
    return 0;
}

int gpu_big_list(gpu_ctx_t *c, const uint32_t *v, uint32_t *pos, uint32_t *val, uint32_t expect, void *temp_at,
                 size_t temp_room)
{
    size_t b = 0;
    GK(cub::DeviceSelect::If(NULL, b, thrust::counting_iterator<uint32_t>(0), pos, c->small + 4,
                             (int64_t)c->n, is_big{v}, c->s0));
    void *t = gpu_temp_in(c, temp_at, temp_room, b);
    if (!t) return -1;
    GK(cub::DeviceSelect::If(t, b, thrust::counting_iterator<uint32_t>(0), pos, c->small + 4,
                             (int64_t)c->n, is_big{v}, c->s0));
    k_gather<<<GRID(expect), 256, 0, c->s0>>>(pos, expect, v, val);
    GK_LAUNCH();
    return 0;
}

int gpu_lr_build(gpu_ctx_t *c)
{
    const uint64_t n = c->n;
    /* LCP in v0, ISA in rank; LLR -> v1, useful starts -> k0, their count ->
     * small[1]; all enqueued on s0 */
    k_llr<<<GRID(n), 256, 0, c->s0>>>(c->rank, c->v0, n, c->v1);
    GK_LAUNCH();
    size_t b = 0; /* temporary storage after the starts (at most 4n bytes of k0) */
    GK(cub::DeviceSelect::If(NULL, b, thrust::counting_iterator<uint32_t>(0), (uint32_t *)c->k0,
                             c->small + 1, (int64_t)n, useful{c->v1}, c->s0));
    void *t = gpu_temp_in(c, (char *)c->k0 + 4 * n, c->k_bytes - 4 * n, b);
    if (!t) return -1;
    GK(cub::DeviceSelect::If(t, b, thrust::counting_iterator<uint32_t>(0), (uint32_t *)c->k0,
                             c->small + 1, (int64_t)n, useful{c->v1}, c->s0));
    return gpu_trace(c, "llr+llrc");
}
