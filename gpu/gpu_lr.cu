/* gpu_lr.cu — the longest-repeat arrays on the GPU (Tian & Xu, seeds/000 §5): the raw
 * LLR array, one thread per position (Lemma 1: LLR[i] = max(LCP[ISA[i]], LCP[ISA[i]+1])
 * with LCP[n] = 0), and its compaction to the useful LLRs (flag + scan + scatter, here
 * cub::DeviceSelect) as (start, len) pairs, in the layout of include/repview/lr.h:
 * LLR_i is useful iff LLR[i] > 0 and (i == 0 or LLR[i] >= LLR[i-1]). */
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

/* m is read on the device, so that nothing waits for the host between the kernels */
__global__ void k_pairs(const uint32_t *idx, const uint32_t *m_dev, const uint32_t *llr, uint32_t *pairs)
{
    const uint32_t m = *m_dev;
    for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < m; j += gridDim.x * blockDim.x) {
        uint32_t i = idx[j];
        pairs[2 * (uint64_t)j] = i;
        pairs[2 * (uint64_t)j + 1] = llr[i];
    }
}

int gpu_lr_temp_bytes(uint64_t n, size_t *bytes)
{
    GK(cub::DeviceSelect::If(NULL, *bytes, thrust::counting_iterator<uint32_t>(0), (uint32_t *)NULL,
                             (uint32_t *)NULL, (int64_t)n, useful{NULL}));
    return 0;
}

int gpu_lr_build(gpu_ctx_t *c)
{
    const uint64_t n = c->n;
    /* LCP in v0, ISA in rank; LLR -> v1, useful starts -> k0, pairs -> k1, count ->
     * small[1]; all enqueued on s0 */
    k_llr<<<GRID(n), 256, 0, c->s0>>>(c->rank, c->v0, n, c->v1);
    GK_LAUNCH();
    size_t b = c->temp_bytes;
    GK(cub::DeviceSelect::If(c->temp, b, thrust::counting_iterator<uint32_t>(0), (uint32_t *)c->k0,
                             c->small + 1, (int64_t)n, useful{c->v1}, c->s0));
    k_pairs<<<GRID(n / 4 + 1), 256, 0, c->s0>>>((const uint32_t *)c->k0, c->small + 1, c->v1, (uint32_t *)c->k1);
    GK_LAUNCH();
    return gpu_trace(c, "llr+llrc");
}
