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

int rv_gpu_probe_device(int dev, char *name, size_t name_len, char *why, size_t why_len)
{
    (void)dev;
    return rv_gpu_probe(name, name_len, why, why_len);
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

int rv_gpu_wmers_each(const rv_index_t *x, uint64_t w, uint64_t min_count, int with_pos, rv_repeat_fn fn,
                      void *ud)
{
    (void)x; (void)w; (void)min_count; (void)with_pos; (void)fn; (void)ud;
    return rv_error("GPU", "this repview was built without CUDA");
}

int rv_gpu_devices(void) { return 0; }
int rv_gpu_buckets_open(const uint8_t *text, uint64_t n, int sigma, int dev)
{
    (void)text; (void)n; (void)sigma; (void)dev;
    return rv_error("GPU", "this repview was built without CUDA");
}
void rv_gpu_buckets_close(void) {}
int rv_gpu_buckets_count(uint64_t sigma, int k, uint64_t n_codes, uint64_t *count)
{
    (void)sigma; (void)k; (void)n_codes; (void)count;
    return rv_error("GPU", "this repview was built without CUDA");
}
int rv_gpu_buckets_job(uint64_t sigma, int k, uint64_t lo, uint64_t nc, const uint64_t *off, uint64_t m,
                       uint64_t min_left, uint64_t *pos, uint64_t *lcp, uint64_t *depth, uint64_t **groups,
                       uint64_t *n_groups)
{
    (void)sigma; (void)k; (void)lo; (void)nc; (void)off; (void)m; (void)min_left; (void)pos; (void)lcp;
    (void)depth;
    *groups = NULL;
    *n_groups = 0;
    return rv_error("GPU", "this repview was built without CUDA");
}

rv_gpu_fm_t *rv_gpu_fm_new(const rv_index_t *x, double *build_s)
{
    (void)x; (void)build_s;
    rv_error("GPU", "this repview was built without CUDA");
    return NULL;
}
void rv_gpu_fm_free(rv_gpu_fm_t *g) { (void)g; }
int rv_gpu_fm_batch(rv_gpu_fm_t *g, const uint8_t *code, const uint64_t *off, size_t np, int strands, unsigned k,
                    uint32_t first, uint32_t cap, uint64_t *count, rv_hit_t **hits, uint64_t *n_hits, uint8_t *left)
{
    (void)g; (void)code; (void)off; (void)np; (void)strands; (void)k; (void)first; (void)cap; (void)count;
    (void)hits; (void)n_hits; (void)left;
    return rv_error("GPU", "this repview was built without CUDA");
}

void *rv_gpu_host_alloc(size_t bytes)
{
    (void)bytes;
    return NULL;
}
void rv_gpu_host_free(void *p) { (void)p; }
