/* gpu_lrall.cu — all longest repeats of every position on the GPU (Tian & Xu,
 * Tian & Xu §5.2, Alg. 4): one thread per text position k binary-searches the compact
 * LLR array for the first useful LLR that ends after k (ends strictly increase), then
 * walks right while the entries start at or before k, keeping the longest length and
 * how many entries have it.  An exclusive scan of the counts places every LR, and a
 * second walk writes their starts. */
#include <cub/cub.cuh>
#include "gpu_internal.cuh"

#define GRID(m) ((unsigned)(((m) + 255) / 256 < 65535u * 16 ? ((m) + 255) / 256 : 65535u * 16))

/* First entry j with start + len > k (m when none). */
static __device__ __forceinline__ uint32_t first_ending_after(const uint2 *e, uint32_t m, uint64_t k)
{
    uint32_t lo = 0, hi = m;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint2 v = e[mid];
        if ((uint64_t)v.x + v.y > k) hi = mid; else lo = mid + 1;
    }
    return lo;
}

__global__ void k_lr_len(const uint2 *e, uint32_t m, uint64_t lo, uint64_t n, uint32_t *len, uint32_t *cnt)
{
    for (uint64_t q = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; lo + q < n;
         q += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t k = lo + q;
        uint32_t best = 0, c = 0;
        for (uint32_t j = first_ending_after(e, m, k); j < m; j++) {
            uint2 v = e[j];
            if (v.x > k) break;
            if (v.y > best) { best = v.y; c = 1; } else if (v.y == best) c++;
        }
        len[q] = best;
        cnt[q] = c;
    }
}

__global__ void k_lr_starts(const uint2 *e, uint32_t m, uint64_t lo, uint64_t n, const uint32_t *len,
                            const uint32_t *off, uint32_t *start)
{
    for (uint64_t q = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; lo + q < n;
         q += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t k = lo + q;
        uint32_t best = len[q], o = off[q];
        if (!best) continue;
        for (uint32_t j = first_ending_after(e, m, k); j < m; j++) {
            uint2 v = e[j];
            if (v.x > k) break;
            if (v.y == best) start[o++] = v.x;
        }
    }
}

#define CK(call)                                                                           \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) { rc = rv_error("GPU", "%s", cudaGetErrorString(e_)); goto out; } \
    } while (0)

extern "C" int rv_gpu_lr_all_run(const uint32_t *llrc, uint32_t m, uint64_t n, uint32_t *len,
                                 uint32_t *off, uint32_t **starts, uint64_t *hits, double *kernel_s)
{
    int rc = 0;
    uint2 *d_e = NULL;
    uint32_t *d_len = NULL, *d_cnt = NULL, *d_off = NULL, *d_start = NULL;
    void *temp = NULL;
    size_t tb = 0;
    uint32_t last[2] = {0, 0};
    uint64_t total = 0;
    cudaEvent_t e0 = NULL, e1 = NULL;
    if (starts) *starts = NULL;
    CK(cudaMalloc((void **)&d_e, (size_t)m * 8 + 8));
    CK(cudaMalloc((void **)&d_len, n * 4 + 4));
    CK(cudaMalloc((void **)&d_cnt, n * 4 + 4));
    CK(cudaMalloc((void **)&d_off, n * 4 + 4));
    CK(cudaMemcpy(d_e, llrc, (size_t)m * 8, cudaMemcpyHostToDevice));
    CK(cub::DeviceScan::ExclusiveSum(NULL, tb, d_cnt, d_off, (int64_t)n));
    CK(cudaMalloc(&temp, tb + 8));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    k_lr_len<<<GRID(n), 256>>>(d_e, m, 0, n, d_len, d_cnt);
    CK(cudaGetLastError());
    CK(cub::DeviceScan::ExclusiveSum(temp, tb, d_cnt, d_off, (int64_t)n));
    CK(cudaMemcpy(&last[0], d_off + n - 1, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&last[1], d_cnt + n - 1, 4, cudaMemcpyDeviceToHost));
    total = (uint64_t)last[0] + last[1];
    if (!off) { /* lengths only */
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        *kernel_s = ms / 1e3;
        CK(cudaMemcpy(len, d_len, n * 4, cudaMemcpyDeviceToHost));
        *hits = total;
        goto out;
    }
    if (total >= 0xffffffffull) { rc = rv_error("GPU", "too many longest repeats for 32-bit offsets"); goto out; }
    CK(cudaMalloc((void **)&d_start, total * 4 + 4));
    k_lr_starts<<<GRID(n), 256>>>(d_e, m, 0, n, d_len, d_off, d_start);
    CK(cudaGetLastError());
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    {
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        *kernel_s = ms / 1e3;
    }
    *starts = (uint32_t *)malloc(total * 4 + 4);
    if (!*starts) { rc = rv_error("GPU", "out of host memory"); goto out; }
    CK(cudaMemcpy(len, d_len, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(off, d_off, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(*starts, d_start, total * 4, cudaMemcpyDeviceToHost));
    off[n] = (uint32_t)total;
    *hits = total;
out:
    if (rc < 0 && starts) { free(*starts); *starts = NULL; }
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    cudaFree(d_e); cudaFree(d_len); cudaFree(d_cnt); cudaFree(d_off); cudaFree(d_start); cudaFree(temp);
    return rc;
}
