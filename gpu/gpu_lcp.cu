/* gpu_lcp.cu — LCP on the GPU by the PHI / PLCP method (Kärkkäinen, Manzini & Puglisi
 * 2009): PHI[SA[r]] = SA[r-1]; PLCP[i] = lcp(i, PHI[i]) computed in text order, where
 * Kasai's invariant PLCP[i+k] >= PLCP[i] - k bounds every value from below by one known
 * k positions earlier; then LCP[r] = PLCP[SA[r]] (a gather).
 *
 * Levels, so that texts with very long repeats (related genomes, a text and its copy)
 * stay linear: a thread that starts from 0 pays the whole PLCP value there, which is
 * quadratic when every value is ~10^6.  So PLCP is computed first at every
 * 64^L-th position (L = PLCP_LEVELS, from 0, one warp each), then each level fills the
 * 64 positions between two known ones at 1/64 of the stride, one after the other from
 * the known value minus the stride, and the last level does every position.  Inside
 * one task the increases telescope: a task costs its span plus the rise of PLCP over
 * it, so each level is O(n + max PLCP) comparisons of 8 symbols (the upper levels
 * compare 256 symbols per step with a whole warp).
 *
 * Comparisons stop at breakers (code 0) and at the end of the text: the text buffer is
 * padded with zero bytes (TEXT_PAD), so both are found by one zero-byte test. */
#include "gpu_internal.cuh"

#define GRID(m) ((unsigned)(((m) + 255) / 256 < 65535u * 16 ? ((m) + 255) / 256 : 65535u * 16))


__global__ void k_phi(const uint32_t *sa, uint64_t n, uint32_t *phi)
{
    for (uint64_t r = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; r < n;
         r += (uint64_t)gridDim.x * blockDim.x)
        phi[sa[r]] = r ? sa[r - 1] : UINT32_MAX;
}

#define PLCP_LEVELS 3 /* sparse levels above the per-position one: strides 64^3, 64^2, 64 */

/* Sparse levels, one warp per task: PLCP at every `step`-th position of [lo, lo + span)
 * with lo = task * span, from PLCP[lo] when seeded (known from the level above), else
 * from 0 (the top level, span = step). */
__global__ void k_plcp_sparse(const uint8_t *t, uint64_t n, const uint32_t *phi, uint32_t *plcp,
                              uint64_t step, uint64_t span, int seeded)
{
    const uint64_t task = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) >> 5;
    const uint64_t lo = task * span;
    if (lo >= n) return; /* whole warps leave together */
    const uint64_t hi = lo + span < n ? lo + span : n;
    uint32_t h = 0;
    uint64_t i = lo;
    if (seeded) {
        h = plcp[lo];
        i = lo + step;
    }
    for (; i < hi; i += step) {
        const uint32_t j = phi[i];
        const uint32_t low = h > step ? h - (uint32_t)step : 0;
        h = j == UINT32_MAX ? 0 : warp_extend(t, i, j, seeded ? low : 0);
        if ((threadIdx.x & 31) == 0) plcp[i] = h;
    }
}

/* The last level, one thread per PLCP_CHUNK positions, seeded at the chunk start. */
__global__ void k_plcp(const uint8_t *t, uint64_t n, const uint32_t *phi, uint32_t *plcp)
{
    uint64_t lo = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) * PLCP_CHUNK;
    if (lo >= n) return;
    uint64_t hi = lo + PLCP_CHUNK < n ? lo + PLCP_CHUNK : n;
    uint32_t h = plcp[lo];
    for (uint64_t i = lo + 1; i < hi; i++) {
        uint32_t j = phi[i];
        h = j == UINT32_MAX ? 0 : extend(t, i, j, h ? h - 1 : 0);
        plcp[i] = h;
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
    GK(cudaMemsetAsync((uint8_t *)c->k0 + n, 0, TEXT_PAD, c->s1));
    cudaEvent_t up;
    GK(cudaEventCreateWithFlags(&up, cudaEventDisableTiming));
    GK(cudaEventRecord(up, c->s1));
    GK(cudaStreamWaitEvent(c->s0, up, 0));
    GK(cudaEventDestroy(up));
    if (gpu_trace(c, "lcp.phi") < 0) return -1;
    uint64_t stride = PLCP_CHUNK;
    for (int l = 1; l < PLCP_LEVELS; l++) stride *= 64;
    for (int l = PLCP_LEVELS; l >= 1; l--, stride /= 64) {
        const int top = l == PLCP_LEVELS;
        const uint64_t span = top ? stride : stride * 64, tasks = (n + span - 1) / span;
        k_plcp_sparse<<<(unsigned)((tasks * 32 + 255) / 256), 256, 0, c->s0>>>(
            (const uint8_t *)c->k0, n, phi, plcp, stride, span, !top);
        GK_LAUNCH();
    }
    if (gpu_trace(c, "lcp.plcp.sparse") < 0) return -1;
    uint64_t threads = (n + PLCP_CHUNK - 1) / PLCP_CHUNK;
    k_plcp<<<(unsigned)((threads + 127) / 128), 128, 0, c->s0>>>((const uint8_t *)c->k0, n, phi, plcp);
    GK_LAUNCH();
    if (gpu_trace(c, "lcp.plcp") < 0) return -1;
    k_gather<<<GRID(n), 256, 0, c->s0>>>(c->sa, n, plcp, c->v0);
    GK_LAUNCH();
    gpu_add(c, n);
    return gpu_trace(c, "lcp.gather");
}
