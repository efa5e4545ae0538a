/* gpu_host.cu — the host side of the CUDA backend (gpu_iface.h, behind gpu.h): device probe, memory plan,
 * transfers, stage timing, progress and cancellation.
 *
 * Memory plan (n < 2^32 - 1 symbols, 32-bit arrays), one arena of 32 bytes per symbol
 * plus CUB's temporary storage:
 *   rank 4n | sa 4n | k0 8n | k1 8n | v0 4n | v1 4n
 *   SA stage:  text in k1 -> packed keys k0, values v0; sorts double-buffer k0/k1 and
 *              v0/v1; rank ends as ISA, sa as SA.
 *   LCP stage: text again in k0 (uploaded while PHI runs), PHI and PLCP in k1, LCP in v0.
 * SA and ISA travel back while the LCP kernels run; LCP last. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cub/cub.cuh>
#include "gpu_internal.cuh"

extern "C" int rv_gpu_query(char *name, size_t name_len, char *why, size_t why_len)
{
    if (name_len) name[0] = 0;
    if (why_len) why[0] = 0;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        snprintf(why, why_len, "%s", e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device");
        return 0;
    }
    cudaDeviceProp prop;
    e = cudaGetDeviceProperties(&prop, 0);
    if (e != cudaSuccess) {
        snprintf(why, why_len, "%s", cudaGetErrorString(e));
        return 0;
    }
    if (prop.major < 8) {
        snprintf(why, why_len, "%s has compute capability %d.%d; repview needs 8.0 or newer",
                 prop.name, prop.major, prop.minor);
        return 0;
    }
    snprintf(name, name_len, "%s", prop.name);
    return 1;
}

int gpu_trace(gpu_ctx_t *c, const char *what)
{
    if (!c->trace) return 0;
    GK(cudaDeviceSynchronize());
    double t = rv_now();
    fprintf(stderr, "gpu\t%s\t%.2f ms\n", what, (t - c->t_last) * 1e3);
    c->t_last = t;
    return 0;
}

static size_t align256(size_t b) { return (b + 255) & ~(size_t)255; }

/* Copy a device array of n uint32 into a host array (widened when wide). */
static int download(void *host, const uint32_t *dev, uint64_t n, int wide, cudaStream_t s)
{
    if (!wide) {
        GK(cudaMemcpyAsync(host, dev, n * 4, cudaMemcpyDeviceToHost, s));
        GK(cudaStreamSynchronize(s));
        return 0;
    }
    uint32_t *tmp = (uint32_t *)malloc(n * 4);
    if (!tmp) return rv_error("GPU", "out of host memory");
    cudaError_t e = cudaMemcpyAsync(tmp, dev, n * 4, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    if (e == cudaSuccess)
        for (uint64_t i = 0; i < n; i++) ((uint64_t *)host)[i] = tmp[i];
    free(tmp);
    GK(e);
    return 0;
}

/* Largest code in the text (the radix of the packed keys); DNA's is known. */
static int max_code(gpu_ctx_t *c, int sigma, int *out)
{
    if (sigma <= 4) { *out = sigma; return 0; }
    size_t b = c->temp_bytes;
    GK(cub::DeviceReduce::Max(c->temp, b, (const uint8_t *)c->k1, c->small, (int64_t)c->n, c->s0));
    uint32_t m = 0;
    GK(cudaMemcpyAsync(&m, c->small, sizeof m, cudaMemcpyDeviceToHost, c->s0));
    GK(cudaStreamSynchronize(c->s0));
    *out = (int)(m & 0xff);
    return 0;
}

static int carve(gpu_ctx_t *c, uint64_t n, void **arena, size_t *bytes)
{
    uint64_t cap = n < 64 ? 64 : n; /* room for the text padding when n is tiny */
    size_t temp = 0;
    if (gpu_sa_temp_bytes(cap, &temp) < 0) return -1;
    size_t sz4 = align256(cap * 4), sz8 = align256(cap * 8 + 64);
    size_t total = 2 * sz4 + 2 * sz8 + 2 * sz4 + align256(temp) + 256;
    size_t fr = 0, tot = 0;
    GK(cudaMemGetInfo(&fr, &tot));
    const size_t margin = 64u << 20;
    if (total + margin > fr)
        return rv_error("GPU", "the GPU path needs %zu MB of device memory, %zu MB are free; "
                        "building on the CPU", total >> 20, fr >> 20);
    char *a = NULL;
    GK(cudaMalloc((void **)&a, total));
    *arena = a;
    *bytes = total;
    c->rank = (uint32_t *)a; a += sz4;
    c->sa = (uint32_t *)a; a += sz4;
    c->k0 = (uint64_t *)a; a += sz8;
    c->k1 = (uint64_t *)a; a += sz8;
    c->v0 = (uint32_t *)a; a += sz4;
    c->v1 = (uint32_t *)a; a += sz4;
    c->temp = a; c->temp_bytes = temp; a += align256(temp);
    c->small = (uint32_t *)a;
    return 0;
}

static int pin(void *p, size_t bytes, int on)
{
    if (on) GK(cudaHostRegister(p, bytes, cudaHostRegisterDefault));
    return 0;
}

static int build(gpu_ctx_t *c, rv_gpu_job_t *j, void **arena, int *pinned)
{
    const uint64_t n = j->n;
    double t0 = rv_now();
    c->t_last = t0;
    GK(cudaSetDevice(0));
    GK(cudaFree(0)); /* create the context now, so that it is timed apart */
    if (gpu_trace(c, "init") < 0) return -1;
    size_t arena_bytes = 0;
    if (carve(c, n, arena, &arena_bytes) < 0) return -1;
    j->device_bytes = arena_bytes;
    if (c->trace)
        fprintf(stderr, "gpu\tdevice_bytes\t%zu\t%.2f B/base\n", arena_bytes, (double)arena_bytes / (double)n);
    GK(cudaStreamCreateWithFlags(&c->s0, cudaStreamNonBlocking));
    GK(cudaStreamCreateWithFlags(&c->s1, cudaStreamNonBlocking));

    j->stage(j->ctx, 0, n);
    GK(cudaMemcpyAsync(c->k1, j->text, n, cudaMemcpyHostToDevice, c->s0));
    if (gpu_trace(c, "upload") < 0) return -1;
    int mc = 0;
    if (max_code(c, j->sigma, &mc) < 0) return -1;
    if (gpu_sa_build(c, mc) < 0) return -1;
    GK(cudaStreamSynchronize(c->s0));
    double t1 = rv_now();
    j->stage_s[0] = t1 - t0;
    if (gpu_cancelled(c)) return rv_error("", "cancelled");

    /* LCP kernels run on s0 while SA and ISA travel back on s1 */
    size_t w = j->wide ? 8 : 4;
    j->stage(j->ctx, 2, n);
    if (gpu_lcp_build(c, j->text) < 0) return -1;
    if (j->pin && !j->wide) {
        if (pin(j->sa, n * w, 1) < 0) return -1;
        *pinned = 1;
        if (pin(j->isa, n * w, 1) < 0) return -1;
        *pinned = 2;
        if (pin(j->lcp, n * w, 1) < 0) return -1;
        *pinned = 3;
        if (gpu_trace(c, "pin") < 0) return -1;
    }
    if (download(j->sa, c->sa, n, j->wide, c->s1) < 0) return -1;
    if (download(j->isa, c->rank, n, j->wide, c->s1) < 0) return -1;
    double t2 = rv_now();
    j->stage_s[1] = t2 - t1;
    if (gpu_trace(c, "download.sa+isa") < 0) return -1;
    if (download(j->lcp, c->v0, n, j->wide, c->s0) < 0) return -1;
    j->stage_s[2] = rv_now() - t2;
    if (gpu_trace(c, "download.lcp") < 0) return -1;
    return gpu_cancelled(c) ? rv_error("", "cancelled") : 0;
}

extern "C" int rv_gpu_run(rv_gpu_job_t *j)
{
    if (j->n >= 0xffffffffull)
        return rv_error("GPU", "%llu symbols are too many for the GPU path (at most 2^32 - 2); "
                        "building on the CPU", (unsigned long long)j->n);
    if (j->n == 0) return 0;
    gpu_ctx_t c;
    memset(&c, 0, sizeof c);
    c.n = j->n;
    c.job = j;
    c.trace = j->trace;
    void *arena = NULL;
    int pinned = 0;
    int rc = build(&c, j, &arena, &pinned);
    /* release everything whatever happened; after a sticky error these fail too */
    if (c.s0) cudaStreamSynchronize(c.s0);
    if (c.s1) cudaStreamSynchronize(c.s1);
    void *host[3] = {j->sa, j->isa, j->lcp};
    for (int k = 0; k < pinned; k++) cudaHostUnregister(host[k]);
    if (arena) cudaFree(arena);
    if (c.s0) cudaStreamDestroy(c.s0);
    if (c.s1) cudaStreamDestroy(c.s1);
    return rc;
}
