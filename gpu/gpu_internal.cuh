/* gpu_internal.cuh — what the CUDA files of gpu/ share: the device arena, error checks,
 * timing.  Not part of the public API (gpu.h is). */
#ifndef REPVIEW_GPU_INTERNAL_CUH
#define REPVIEW_GPU_INTERNAL_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <stddef.h>

extern "C" {
#include "repview/common.h"
#include "repview/narrow.h"
}
#include "gpu_iface.h"

/* Every CUDA call is checked: on failure record one message and return -1. */
#define GK(call)                                                                           \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess)                                                             \
            return rv_error("GPU", "%s (%s:%d)", cudaGetErrorString(e_), __FILE__, __LINE__); \
    } while (0)
/* After a kernel launch. */
#define GK_LAUNCH() GK(cudaGetLastError())

/* The device buffers of one build.  One arena is carved into regions whose roles change
 * from stage to stage (gpu_host.cu documents the plan): n < 2^32 positions, 32-bit
 * arrays.  All regions are 256-byte aligned. */
typedef struct {
    uint64_t n;
    uint32_t *rank;   /* 4n: ranks during the doubling, then ISA */
    uint32_t *sa;     /* 4n: SA */
    uint64_t *k0, *k1; /* 8n each: sort keys (double buffer); later text, PHI, PLCP */
    size_t k_bytes;    /* bytes of k0 and of k1 */
    uint32_t *v0, *v1; /* 4n each: sort values (double buffer); later LCP, LLR */
    size_t rank_sa_bytes; /* bytes of rank and sa together (adjacent) */
    void *spare;      /* CUB temporary storage when no free region fits (gpu_temp_in) */
    size_t spare_bytes;
    uint32_t *small;  /* counters (device): [1] LLRc entries, [2] [3] big LCP / LLR values,
                         [4] big-list scratch, [6..7] run count (64-bit) */
    cudaStream_t s0, s1; /* compute, transfers */
    rv_gpu_job_t *job;
    int trace;        /* REPVIEW_GPU_TRACE: per-step times on stderr */
    double t_last;    /* host clock of the previous trace point */
} gpu_ctx_t;

/* Where a CUB call puts its `need` bytes of temporary storage: at `at` (256-aligned)
 * inside a region of `room` bytes that nothing uses during the call, when it fits;
 * else in a spare buffer allocated on first need (texts whose suffixes stay active
 * for many rounds).  NULL with a message when that allocation fails. */
void *gpu_temp_in(gpu_ctx_t *c, void *at, size_t room, size_t need);

/* SA and ranks (= ISA) of the text that lies in c->k1 (n bytes of codes, max_code the
 * largest code), by prefix doubling; leaves SA in c->sa and ISA in c->rank. */
int gpu_sa_build(gpu_ctx_t *c, int max_code);

/* LCP by PHI / PLCP: uploads the text (host memory) into c->k0 while PHI runs, SA and
 * ISA in place; writes LCP into c->v0. */
int gpu_lcp_build(gpu_ctx_t *c, const uint8_t *text);

/* Enqueue on s0: LLR (into c->v1) and the starts of the useful LLRs (into c->k0,
 * their number into c->small[1]) from ISA in c->rank and LCP in c->v0. */
int gpu_lr_build(gpu_ctx_t *c);

/* Enqueue on s0: out[i] = min(v[i], 255) for the n entries, and add the number of
 * v[i] >= 255 to *count (device). */
int gpu_narrow(gpu_ctx_t *c, const uint32_t *v, uint8_t *out, uint32_t *count);
/* Enqueue on s0: the positions of v[i] >= 255 into pos, their values into val;
 * expect = their number (known from gpu_narrow's count); CUB's scratch at temp_at
 * when it fits in temp_room bytes (gpu_temp_in). */
int gpu_big_list(gpu_ctx_t *c, const uint32_t *v, uint32_t *pos, uint32_t *val, uint32_t expect, void *temp_at,
                 size_t temp_room);
/* Enqueue on s0: the directory of a narrow array (narrow.h) from the sorted positions
 * of its cnt escapes: ceil(n / RV_NARROW_BLOCK) + 1 entries into dir. */
int gpu_big_dir(gpu_ctx_t *c, const uint32_t *pos, uint32_t cnt, uint32_t *dir);


/* ---- text comparisons (LCP and runs stages) --------------------------------------
 * The text lies in device memory as one byte per code, 8-byte aligned and followed by
 * at least TEXT_PAD zero bytes, so a breaker (code 0) and the end of the text are both
 * found by one zero-byte test on 8 symbols at a time. */
#define TEXT_PAD 512

/* 8 symbols starting at byte p, little-endian. */
static __device__ __forceinline__ uint64_t load8(const uint8_t *t, uint64_t p)
{
    const uint64_t *wp = (const uint64_t *)(t + (p & ~7ull));
    unsigned sh = (unsigned)(p & 7) * 8;
    uint64_t a = __ldg(wp);
    if (!sh) return a;
    return (a >> sh) | (__ldg(wp + 1) << (64 - sh));
}

/* Bits set at the first byte where a and b differ or a holds a zero (0 when none). */
static __device__ __forceinline__ uint64_t stop8(uint64_t a, uint64_t b)
{
    return (a ^ b) | ((a - 0x0101010101010101ull) & ~a & 0x8080808080808080ull);
}

/* Length of the common breaker-free prefix of suffixes i and j, known to be >= h. */
static __device__ __forceinline__ uint32_t extend(const uint8_t *t, uint64_t i, uint64_t j, uint32_t h)
{
    for (;;) {
        uint64_t stop = stop8(load8(t, i + h), load8(t, j + h));
        if (stop) return h + ((unsigned)(__ffsll((long long)stop) - 1) >> 3);
        h += 8;
    }
}

/* The same, computed by a whole warp (all 32 lanes call it with the same arguments):
 * 256 symbols per step, for the comparisons that may run over long repeats. */
static __device__ __forceinline__ uint32_t warp_extend(const uint8_t *t, uint64_t i, uint64_t j, uint32_t h)
{
    const unsigned lane = threadIdx.x & 31;
    for (;;) {
        uint64_t stop = stop8(load8(t, i + h + lane * 8), load8(t, j + h + lane * 8));
        unsigned m = __ballot_sync(0xffffffffu, stop != 0);
        if (m) {
            int first = __ffs((int)m) - 1;
            unsigned byte = (unsigned)(__ffsll((long long)stop) - 1) >> 3;
            return h + (uint32_t)first * 8 + __shfl_sync(0xffffffffu, byte, first);
        }
        h += 256;
    }
}

/* Enqueue on s0 and wait: every run of the text (gpu_runs.cu) from ISA in c->rank and
 * LCP in c->v0, once the earlier stages' downloads are done (it reuses their regions).
 * On return *m runs sorted by (start, period) lie on the device in three 32-bit
 * columns, cols[0] start, cols[1] length, cols[2] period, and cols[3] holds the block
 * tree of the runs section (ceil(m / block) entries, engine/index/runs_store.h).  0; 1
 * when this text is left to the CPU (nothing set); -1 with a message. */
int gpu_runs_build(gpu_ctx_t *c, const uint8_t *text, uint32_t block, uint64_t *m, const uint32_t *cols[4]);

#define PLCP_CHUNK 64 /* text positions per thread of the PLCP kernel */

/* Trace point: prints "gpu <what> <ms since the last point>" when tracing. */
int gpu_trace(gpu_ctx_t *c, const char *what);

static inline void gpu_add(gpu_ctx_t *c, uint64_t k) { c->job->add(c->job->ctx, k); }
static inline int gpu_cancelled(gpu_ctx_t *c) { return c->job->cancelled(c->job->ctx); }

/* Bits needed to write v (0 for v == 0). */
static inline int gpu_bits(uint64_t v)
{
    int b = 0;
    while (v) { b++; v >>= 1; }
    return b;
}

#endif
