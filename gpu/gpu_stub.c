/* gpu_stub.c — the GPU backend of a build without CUDA: reports its absence. */
#include <stdio.h>
#include "repview/common.h"
#include "repview/gpu.h"

int rv_gpu_compiled(void) { return 0; }

int rv_gpu_probe(char *name, size_t name_len, char *why, size_t why_len)
{
    if (name_len) name[0] = 0;
    snprintf(why, why_len, "this repview was built without CUDA");
    return 0;
}

int rv_gpu_build(rv_index_t *x, const rv_build_opts_t *o, rv_progress_t *p)
{
    (void)x; (void)o; (void)p;
    return rv_error("GPU", "this repview was built without CUDA");
}

int rv_gpu_lr_all(const rv_index_t *x, uint32_t *len, uint32_t *off, uint32_t **starts,
                  uint64_t *hits, double *kernel_s)
{
    (void)x; (void)len; (void)off; (void)hits; (void)kernel_s;
    *starts = NULL;
    return rv_error("GPU", "this repview was built without CUDA");
}
