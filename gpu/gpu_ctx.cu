/* gpu_ctx.cu — what every stage of the CUDA backend shares through its context and
 * calls back for: step tracing and temporary storage.  Below gpu_host.cu and the
 * kernel files, so that they call it and never each other's host side. */
#include <stdio.h>
#include "gpu_internal.cuh"

int gpu_trace(gpu_ctx_t *c, const char *what)
{
    if (!c->trace) return 0;
    GK(cudaDeviceSynchronize());
    double t = rv_now();
    fprintf(stderr, "gpu\t%s\t%.2f ms\n", what, (t - c->t_last) * 1e3);
    c->t_last = t;
    return 0;
}

void *gpu_temp_in(gpu_ctx_t *c, void *at, size_t room, size_t need)
{
    uintptr_t p = ((uintptr_t)at + 255) & ~(uintptr_t)255;
    size_t lost = p - (uintptr_t)at;
    if (room >= lost && room - lost >= need) return (void *)p;
    if (c->spare_bytes < need) {
        if (c->spare) cudaFree(c->spare);
        c->spare = NULL;
        c->spare_bytes = 0;
        if (cudaMalloc(&c->spare, need) != cudaSuccess) {
            (void)cudaGetLastError();
            rv_error("GPU", "out of device memory (%zu MB of temporary storage)", need >> 20);
            return NULL;
        }
        c->spare_bytes = need;
        c->job->device_bytes += need;
    }
    return c->spare;
}
