/* gpu_lcp.cu — LCP on the GPU by the PHI / PLCP method (Kärkkäinen, Manzini & Puglisi
 * 2009): PHI[SA[r]] = SA[r-1]; PLCP[i] = lcp(i, PHI[i]) computed in text order, where
 * Kasai's invariant PLCP[i+1] >= PLCP[i] - 1 lets each thread run its own chunk of text
 * positions starting from 0; then LCP[r] = PLCP[SA[r]] (a gather).
 *
 * Comparisons stop at breakers (code 0) and at the end of the text: the text buffer is
 * padded with zero bytes, so both are found by one zero-byte test on 8 symbols at a
 * time (64-bit packed comparisons). */
#include "gpu_internal.cuh"

#define GRID(m) ((unsigned)(((m) + 255) / 256 < 65535u * 16 ? ((m) + 255) / 256 : 65535u * 16))


__global__ void k_phi(const uint32_t *sa, uint64_t n, uint32_t *phi)
{
    for (uint64_t r = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; r < n;
         r += (uint64_t)gridDim.x * blockDim.x)
        phi[sa[r]] = r ? sa[r - 1] : UINT32_MAX;
}

/* 8 symbols starting at byte p, little-endian (t is 8-byte aligned and padded). */
static __device__ __forceinline__ uint64_t load8(const uint8_t *t, uint64_t p)
{
    const uint64_t *wp = (const uint64_t *)(t + (p & ~7ull));
    unsigned sh = (unsigned)(p & 7) * 8;
    uint64_t a = __ldg(wp);
    if (!sh) return a;
    return (a >> sh) | (__ldg(wp + 1) << (64 - sh));
}

/* Length of the common breaker-free prefix of suffixes i and j, known to be >= h. */
static __device__ __forceinline__ uint32_t extend(const uint8_t *t, uint64_t i, uint64_t j,
                                                  uint32_t h)
{
    for (;;) {
        uint64_t a = load8(t, i + h), b = load8(t, j + h);
        uint64_t zero = (a - 0x0101010101010101ull) & ~a & 0x8080808080808080ull;
        uint64_t stop = (a ^ b) | zero;
        if (stop) return h + ((unsigned)(__ffsll((long long)stop) - 1) >> 3);
        h += 8;
    }
}

__global__ void k_plcp(const uint8_t *t, uint64_t n, const uint32_t *phi, uint32_t *plcp)
{
    uint64_t lo = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) * PLCP_CHUNK;
    if (lo >= n) return;
    uint64_t hi = lo + PLCP_CHUNK < n ? lo + PLCP_CHUNK : n;
    uint32_t h = 0;
    for (uint64_t i = lo; i < hi; i++) {
        uint32_t j = phi[i];
        if (j == UINT32_MAX) {
            h = 0;
        } else {
            h = extend(t, i, j, h);
        }
        plcp[i] = h;
        if (h) h--;
    }
}

__global__ void k_gather(const uint32_t *sa, uint64_t n, const uint32_t *plcp, uint32_t *lcp)
{
    for (uint64_t r = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; r < n;
         r += (uint64_t)gridDim.x * blockDim.x)
        lcp[r] = plcp[sa[r]];
}

int gpu_lcp_build(gpu_ctx_t *c, const uint8_t *text)
{
    const uint64_t n = c->n;
    uint32_t *phi = (uint32_t *)c->k1, *plcp = (uint32_t *)c->k1 + n;
    k_phi<<<GRID(n), 256, 0, c->s0>>>(c->sa, n, phi);
    GK_LAUNCH();
    /* the text upload (stream s1) overlaps PHI; the padding stops every comparison */
    GK(cudaMemcpyAsync(c->k0, text, n, cudaMemcpyHostToDevice, c->s1));
    GK(cudaMemsetAsync((uint8_t *)c->k0 + n, 0, 64, c->s1));
    cudaEvent_t up;
    GK(cudaEventCreateWithFlags(&up, cudaEventDisableTiming));
    GK(cudaEventRecord(up, c->s1));
    GK(cudaStreamWaitEvent(c->s0, up, 0));
    GK(cudaEventDestroy(up));
    if (gpu_trace(c, "lcp.phi") < 0) return -1;
    uint64_t threads = (n + PLCP_CHUNK - 1) / PLCP_CHUNK;
    k_plcp<<<(unsigned)((threads + 127) / 128), 128, 0, c->s0>>>((const uint8_t *)c->k0, n, phi, plcp);
    GK_LAUNCH();
    if (gpu_trace(c, "lcp.plcp") < 0) return -1;
    k_gather<<<GRID(n), 256, 0, c->s0>>>(c->sa, n, plcp, c->v0);
    GK_LAUNCH();
    gpu_add(c, n);
    return gpu_trace(c, "lcp.gather");
}
