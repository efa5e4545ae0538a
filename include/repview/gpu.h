/* gpu.h — the CUDA backend.  Built from the .cu files of gpu/ when nvcc is found, otherwise a
 * stub whose functions report that CUDA is not compiled in. */
#ifndef REPVIEW_GPU_H
#define REPVIEW_GPU_H

#include <stdint.h>
#include "repview/build.h"
#include "repview/repeats.h"
#include "repview/find.h"

/* 1 when this binary was built with CUDA. */
int rv_gpu_compiled(void);

/* 1 and the device name when a usable GPU is present, 0 (with a reason in why)
 * otherwise. */
int rv_gpu_probe(char *name, size_t name_len, char *why, size_t why_len);
/* The same for device dev (0 is the probe's), which becomes the calling thread's:
 * an MPI rank probes only its own device (a context on another costs that device
 * memory and the rank time). */
int rv_gpu_probe_device(int dev, char *name, size_t name_len, char *why, size_t why_len);

/* Build SA, ISA and LCP of x->seq->text into the already allocated arrays of x on the
 * GPU (and LLR/LLRc when with_llr).  Returns 0, or -1 with a message; on -1 the
 * caller falls back to the CPU path.  Honors progress and cancellation. */
int rv_gpu_build(rv_index_t *x, const rv_build_opts_t *o, rv_progress_t *p);

/* All longest repeats of every text position, computed on the GPU from x's LLRc
 * section (Tian & Xu Alg. 4, one thread per position: binary search + walk).  32-bit
 * indexes only (!x->wide).  On success len[k] (n entries) is the LR length of position
 * k (0: none) and the LRs of k start at (*starts)[off[k] .. off[k+1]) (off: n + 1
 * entries, caller-allocated; *starts malloc()ed, caller frees), in increasing order;
 * *hits = off[n]; *kernel_s = device seconds.  With off and starts NULL only len and
 * *hits are computed (what a bedGraph needs).  0, or -1 with a message. */
int rv_gpu_lr_all(const rv_index_t *x, uint32_t *len, uint32_t *off, uint32_t **starts,
                  uint64_t *hits, double *kernel_s);

/* The w-mers of rv_wmers_each() (repeats.h), found on the GPU from x's LCP (and SA
 * for positions or min_count 1): the same calls of fn in the same order, with the
 * same arguments.  32-bit indexes only (!x->wide).  The device's work is all done
 * before the first call, so -1 (with a message) means fn was never called and the
 * caller may run rv_wmers_each() instead; otherwise 0 or fn's non-zero value. */
int rv_gpu_wmers_each(const rv_index_t *x, uint64_t w, uint64_t min_count, int with_pos, rv_repeat_fn fn,
                      void *ud);

/* Prefix-bucket jobs on the GPU (buckets.h, gpu_buckets.cu): devices present (0
 * without CUDA); the text put on device dev for the jobs that follow; freed.  The
 * jobs themselves go through rv_bucket_job_sort() once rv_bucket_gpu_begin() is on. */
int rv_gpu_devices(void);
int rv_gpu_buckets_open(const uint8_t *text, uint64_t n, int sigma, int dev);
void rv_gpu_buckets_close(void);
/* The plan's count of each code of k symbols (n_codes of them, base sigma) in the
 * uploaded text; 0, or -1 with a message (the caller counts on the CPU). */
int rv_gpu_buckets_count(uint64_t sigma, int k, uint64_t n_codes, uint64_t *count);
int rv_gpu_buckets_job(uint64_t sigma, int k, uint64_t lo, uint64_t nc, const uint64_t *off, uint64_t m,
                       uint64_t min_left, uint64_t *pos, uint64_t *lcp, uint64_t *depth, uint64_t **groups,
                       uint64_t *n_groups);

/* FM-index on the device (fm.h; gpu_fm.cu): the table built from x's text and SA
 * (both kept on the device); *build_s = seconds with the uploads.  NULL with a
 * message (no room, or built without CUDA).  One batch: fm.h rv_fm_search() for
 * np patterns that rv_fm_takes(), strands = rv_strand_t. */
typedef struct rv_gpu_fm rv_gpu_fm_t;
rv_gpu_fm_t *rv_gpu_fm_new(const rv_index_t *x, double *build_s);
void rv_gpu_fm_free(rv_gpu_fm_t *g);
int rv_gpu_fm_batch(rv_gpu_fm_t *g, const uint8_t *code, const uint64_t *off, size_t np, int strands, unsigned k,
                    uint32_t first, uint32_t cap, uint64_t *count, rv_hit_t **hits, uint64_t *n_hits, uint8_t *left);

/* Page-locked host memory (the GPU copies from it at full speed, without a
 * staging copy), or NULL (no CUDA, no device, no room): the caller then uses
 * malloc().  Freed by rv_gpu_host_free. */
void *rv_gpu_host_alloc(size_t bytes);
void rv_gpu_host_free(void *p);

#endif
