/* gpu_host.cu — the host side of the CUDA backend (gpu_iface.h, behind gpu.h): device probe, memory plan,
 * transfers, stage timing, progress and cancellation.
 *
 * Memory plan (n < 2^32 - 1 symbols, 32-bit arrays), one arena of 32 bytes per symbol;
 * CUB's temporary storage borrows the region idle at each call (gpu_temp_in):
 *   rank 4n | sa 4n | k0 8n | k1 8n | v0 4n | v1 4n
 *   SA stage:  text in k1 -> packed keys k0, values v0; sorts double-buffer k0/k1 and
 *              v0/v1; rank ends as ISA, sa as SA.
 *   LCP stage: text again in k0 (uploaded while PHI runs), PHI and PLCP in k1, LCP in v0.
 *   LR stage:  LLR in v1, LLRc starts in k0; LCP and LLR narrowed to bytes in k1
 *              [0, n) and [n, 2n), their values >= 255 listed in the rest of k1.
 * SA and ISA travel back while the LCP kernels run; the narrow LCP and LLR, then LLRc
 * and the lists of big values last. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <thread>
#include <vector>
#include <cub/cub.cuh>
#include "gpu_internal.cuh"

extern "C" int rv_gpu_query(int dev, char *name, size_t name_len, char *why, size_t why_len)
{
    if (name_len) name[0] = 0;
    if (why_len) why[0] = 0;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        snprintf(why, why_len, "%s", e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device");
        return 0;
    }
    if (dev < 0 || dev >= count) {
        snprintf(why, why_len, "no CUDA device %d (%d present)", dev, count);
        return 0;
    }
    cudaDeviceProp prop;
    e = cudaGetDeviceProperties(&prop, dev);
    if (e != cudaSuccess) {
        snprintf(why, why_len, "%s", cudaGetErrorString(e));
        return 0;
    }
    if (prop.major < 8) {
        snprintf(why, why_len, "%s has compute capability %d.%d; repview needs 8.0 or newer",
                 prop.name, prop.major, prop.minor);
        return 0;
    }
    /* create the context now: it proves the device usable, and its ~0.1 s is not
     * counted as a build stage (only on dev: a context costs device memory) */
    e = cudaSetDevice(dev);
    if (e == cudaSuccess) e = cudaFree(0);
    if (e != cudaSuccess) {
        snprintf(why, why_len, "%s", cudaGetErrorString(e));
        return 0;
    }
    snprintf(name, name_len, "%s", prop.name);
    return 1;
}

extern "C" void *rv_gpu_pinned_alloc(size_t bytes)
{
    void *p = NULL;
    if (cudaMallocHost(&p, bytes ? bytes : 1) != cudaSuccess) {
        (void)cudaGetLastError();
        return NULL;
    }
    return p;
}

extern "C" void rv_gpu_pinned_free(void *p)
{
    if (p) cudaFreeHost(p);
}

static size_t align256(size_t b) { return (b + 255) & ~(size_t)255; }

/* Copy a device array of n uint32 into a host array: asynchronously on s (pinned or
 * not), or widened through a temporary buffer when wide (tests of the 64-bit path). */
static int download(void *host, const uint32_t *dev, uint64_t n, int wide, cudaStream_t s)
{
    if (!wide) {
        GK(cudaMemcpyAsync(host, dev, n * 4, cudaMemcpyDeviceToHost, s));
        return 0;
    }
    uint32_t *tmp = (uint32_t *)malloc(n * 4 + 4);
    if (!tmp) return rv_error("GPU", "out of host memory");
    cudaError_t e = cudaMemcpyAsync(tmp, dev, n * 4, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    if (e == cudaSuccess)
        for (uint64_t i = 0; i < n; i++) ((uint64_t *)host)[i] = tmp[i];
    free(tmp);
    GK(e);
    return 0;
}

/* Host arrays fresh from malloc() cost a page fault per page on first touch, and
 * page-locking them costs about as much again: on an H200 host pageable
 * downloads of SA + ISA of 250 Mbp take 1.3 s, one cudaHostRegister of 4 GB 90-170 ms.
 * So each array is cut into one page-aligned slice per thread: while the GPU sorts,
 * each thread touches its slices (transparent huge pages where the kernel offers
 * them) and page-locks them; once the LCP and LLR kernels are queued, the threads
 * queue each slice's copy on its array's stream, so copies and kernels overlap.
 * (Locking during the sort slows the sort's own CUDA calls, 10 -> 60 ms of rounds at
 * 250 Mbp, but beats locking afterwards by 0.07 s; 8 MB slices are 0.12 s slower.) */
typedef struct {
    char *base;
    size_t bytes;
    int widen;                /* 32-bit on the device, 64-bit on the host when wide */
    std::vector<size_t> cut;  /* slice t is [cut[t], cut[t+1]) */
    std::vector<char> locked; /* slice t is page-locked */
    const uint32_t *dev;      /* where the copy comes from */
    cudaStream_t s;           /* and on which stream */
} harr_t;

typedef struct {
    harr_t a[11]; /* SA, ISA, narrow LCP, narrow LLR, LLRc, big LCP values, big LLR values,
                     run starts, run lengths, run periods, the runs' block tree */
    std::vector<std::thread> th;
    int text_pinned;
    int wide;
} host_t;

static void harr_init(harr_t *h, void *p, size_t bytes, int widen, int T)
{
    h->base = (char *)p;
    h->bytes = bytes;
    h->widen = widen;
    h->cut.assign((size_t)T + 1, bytes);
    h->locked.assign((size_t)T, 0);
    h->dev = NULL;
    uintptr_t b = (uintptr_t)p;
    h->cut[0] = 0;
    for (int t = 1; t < T; t++) {
        uintptr_t at = (b + bytes / (size_t)T * (size_t)t + 4095) & ~(uintptr_t)4095;
        size_t off = at - b < bytes ? at - b : bytes;
        h->cut[t] = off > h->cut[t - 1] ? off : h->cut[t - 1];
    }
    uintptr_t lo = (b + 4095) & ~(uintptr_t)4095, hi = (b + bytes) & ~(uintptr_t)4095;
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}

enum { H_TOUCH = 1, H_PIN = 2, H_COPY = 4 };

/* T threads over arrays [first, first + count): thread t does slice t of each. */
static void host_start(host_t *hm, int first, int count, int T, int what)
{
    for (int t = 0; t < T; t++)
        hm->th.emplace_back([=]() {
            for (int a = first; a < first + count; a++) {
                harr_t *h = &hm->a[a];
                size_t lo = h->cut[t], hi = h->cut[t + 1];
                if (lo >= hi) continue;
                if (what & H_TOUCH) {
                    for (size_t o = lo; o < hi; o += 4096) h->base[o] = 0;
                    h->base[hi - 1] = 0;
                }
                if (what & H_PIN) {
                    h->locked[t] = cudaHostRegister(h->base + lo, hi - lo, cudaHostRegisterDefault) == cudaSuccess;
                    if (!h->locked[t]) (void)cudaGetLastError(); /* then it goes pageable */
                }
                if ((what & H_COPY) &&
                    cudaMemcpyAsync(h->base + lo, (const char *)h->dev + lo, hi - lo, cudaMemcpyDeviceToHost,
                                    h->s) != cudaSuccess)
                    h->dev = NULL; /* checked by host_copied() */
            }
        });
}

static void host_join(host_t *hm)
{
    for (auto &t : hm->th) t.join();
    hm->th.clear();
}

static int host_copied(host_t *hm, int first, int count)
{
    for (int a = first; a < first + count; a++)
        if (!hm->a[a].dev) return rv_error("GPU", "a device-to-host copy failed");
    return 0;
}

static void host_release(host_t *hm)
{
    host_join(hm);
    for (auto &h : hm->a)
        for (size_t t = 0; t < h.locked.size(); t++)
            if (h.locked[t]) cudaHostUnregister(h.base + h.cut[t]);
}

/* Arrays [first, first + count) from their device arrays: by the threads as above,
 * or widened through a buffer when wide (tests of the 64-bit path). */
static int fetch(host_t *hm, int first, int count, int T, int pin)
{
    if (hm->wide) {
        for (int a = first; a < first + count; a++) {
            harr_t *h = &hm->a[a];
            GK(cudaStreamSynchronize(h->s));
            if (!h->widen) {
                GK(cudaMemcpyAsync(h->base, h->dev, h->bytes, cudaMemcpyDeviceToHost, h->s));
                GK(cudaStreamSynchronize(h->s));
            } else if (download(h->base, h->dev, h->bytes / 8, 1, h->s) < 0) {
                return -1;
            }
        }
        return 0;
    }
    host_start(hm, first, count, T, (pin ? H_PIN : 0) | H_COPY);
    host_join(hm);
    return host_copied(hm, first, count);
}

/* Queue the copies of arrays already touched and locked (by host_start at the start). */
static int fetch_locked(host_t *hm, int first, int count, int T)
{
    if (hm->wide) return fetch(hm, first, count, T, 0);
    host_start(hm, first, count, T, H_COPY);
    host_join(hm);
    return host_copied(hm, first, count);
}

/* Largest code in the text (the radix of the packed keys); DNA's is known. */
static int max_code(gpu_ctx_t *c, int sigma, int *out)
{
    if (sigma <= 4) { *out = sigma; return 0; }
    size_t b = 0; /* the text lies in k1; k0 is free until the keys are packed */
    GK(cub::DeviceReduce::Max(NULL, b, (const uint8_t *)c->k1, c->small, (int64_t)c->n, c->s0));
    void *t = gpu_temp_in(c, c->k0, c->k_bytes, b);
    if (!t) return -1;
    GK(cub::DeviceReduce::Max(t, b, (const uint8_t *)c->k1, c->small, (int64_t)c->n, c->s0));
    uint32_t m = 0;
    GK(cudaMemcpyAsync(&m, c->small, sizeof m, cudaMemcpyDeviceToHost, c->s0));
    GK(cudaStreamSynchronize(c->s0));
    *out = (int)(m & 0xff);
    return 0;
}

/* One arena of 32 bytes per symbol; CUB's temporary storage borrows whatever region
 * is idle at each call (gpu_temp_in), so it adds nothing for ordinary texts. */
static int carve(gpu_ctx_t *c, uint64_t n, void **arena, size_t *bytes)
{
    uint64_t cap = n < 1024 ? 1024 : n; /* room for the text padding and the runs
                                           stage's regions when n is tiny */
    size_t sz4 = align256(cap * 4), sz8 = align256(cap * 8 + 64);
    size_t total = 2 * sz4 + 2 * sz8 + 2 * sz4 + 256;
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
    c->rank_sa_bytes = 2 * sz4;
    c->k0 = (uint64_t *)a; a += sz8;
    c->k1 = (uint64_t *)a; a += sz8;
    c->k_bytes = sz8;
    c->v0 = (uint32_t *)a; a += sz4;
    c->v1 = (uint32_t *)a; a += sz4;
    c->small = (uint32_t *)a;
    return 0;
}

/* The starts of the useful LLRs; their number is known once the LLR kernels have run. */
static int fetch_llrc(gpu_ctx_t *c, rv_gpu_job_t *j, host_t *hm, uint32_t m, int T)
{
    size_t w = j->wide ? 8 : 4;
    j->llrc_bytes = (uint64_t)m * w;
    j->llrc = malloc(j->llrc_bytes ? j->llrc_bytes : 1);
    if (!j->llrc) return rv_error("GPU", "out of host memory");
    if (!m) return 0;
    harr_init(&hm->a[4], j->llrc, j->llrc_bytes, 1, T);
    hm->a[4].dev = (const uint32_t *)c->k0;
    hm->a[4].s = c->s0;
    if (j->wide) return fetch(hm, 4, 1, T, 0);
    host_start(hm, 4, 1, T, H_TOUCH | (j->pin ? H_PIN : 0) | H_COPY); /* a fresh buffer */
    host_join(hm);
    return host_copied(hm, 4, 1);
}

/* The big section (narrow.h) of the device array v, which has cnt values >= 255:
 * listed on the device (positions in k0 after the LLRc starts, values and directory
 * in the free part of k1 after the narrow bytes, so that even a table where every
 * value escapes, as for related genomes, is listed there), and for 32-bit indexes
 * values and directory come down in one copy straight into the section; else (the
 * 64-bit test path, REPVIEW_GPU_NARROW_HOST) found in a host copy of v. */
static int fetch_big(gpu_ctx_t *c, const rv_gpu_job_t *j, host_t *hm, int slot, int T, const uint32_t *v,
                     uint32_t cnt, void **big, uint64_t *bytes)
{
    const uint64_t n = c->n, nb = (n + RV_NARROW_BLOCK - 1) / RV_NARROW_BLOCK;
    const size_t at = align256(2 * n), room = c->k_bytes > at ? c->k_bytes - at : 0;
    const size_t pos_at = align256(4 * n), vd = align256(4 * ((size_t)cnt + nb + 1));
    uint32_t *val = (uint32_t *)((char *)c->k1 + at), *pos = (uint32_t *)((char *)c->k0 + pos_at);
    const int on_device = !j->narrow_on_host && vd <= room && 4 * (size_t)cnt <= c->k_bytes - pos_at;
    if (on_device && cnt && gpu_big_list(c, v, pos, val, cnt, (char *)val + vd, room - vd) < 0) return -1;
    if (on_device && !j->wide) {
        if (gpu_big_dir(c, pos, cnt, val + cnt) < 0) return -1;
        *bytes = rv_narrow_big_bytes(n, cnt, 0);
        if (!(*big = malloc(*bytes))) return rv_error("GPU", "out of host memory");
        uint64_t nbig = cnt;
        memcpy(*big, &nbig, 8);
        /* a fresh buffer of up to a few hundred MB (related genomes): touched, locked
         * and copied slice by slice by the threads, after the kernels on s0 */
        harr_init(&hm->a[slot], (char *)*big + 8, 4 * ((size_t)cnt + nb + 1), 0, T);
        hm->a[slot].dev = val;
        hm->a[slot].s = c->s0;
        host_start(hm, slot, 1, T, H_TOUCH | (j->pin ? H_PIN : 0) | H_COPY);
        host_join(hm);
        if (host_copied(hm, slot, 1) < 0) return -1;
        GK(cudaStreamSynchronize(c->s0));
        return 0;
    }
    std::vector<uint32_t> hpos(cnt), hval(cnt);
    if (on_device && cnt) {
        GK(cudaMemcpyAsync(hpos.data(), pos, 4 * (size_t)cnt, cudaMemcpyDeviceToHost, c->s0));
        GK(cudaMemcpyAsync(hval.data(), val, 4 * (size_t)cnt, cudaMemcpyDeviceToHost, c->s0));
        GK(cudaStreamSynchronize(c->s0));
    } else if (cnt) {
        std::vector<uint32_t> full(n);
        GK(cudaMemcpyAsync(full.data(), v, 4 * n, cudaMemcpyDeviceToHost, c->s0));
        GK(cudaStreamSynchronize(c->s0));
        uint32_t k = 0;
        for (uint64_t i = 0; i < n && k < cnt; i++)
            if (full[i] >= RV_NARROW_ESC) { hpos[k] = (uint32_t)i; hval[k++] = full[i]; }
    }
    *big = rv_narrow_big_from32(hpos.data(), hval.data(), cnt, n, j->wide, bytes);
    return *big ? 0 : rv_error("GPU", "out of host memory");
}

/* After the kernels: LLRc and the big values of LCP and LLR. */
static int fetch_tail(gpu_ctx_t *c, rv_gpu_job_t *j, host_t *hm, int T)
{
    uint32_t cnt[3] = {0, 0, 0}; /* LLRc entries, big LCP values, big LLR values */
    GK(cudaMemcpyAsync(cnt, c->small + 1, sizeof cnt, cudaMemcpyDeviceToHost, c->s0));
    GK(cudaStreamSynchronize(c->s0));
    if (j->with_llr && fetch_llrc(c, j, hm, cnt[0], T) < 0) return -1;
    if (fetch_big(c, j, hm, 5, T, c->v0, cnt[1], &j->lcp_big, &j->lcp_big_bytes) < 0) return -1;
    if (j->with_llr && fetch_big(c, j, hm, 6, T, c->v1, cnt[2], &j->llr_big, &j->llr_big_bytes) < 0) return -1;
    return 0;
}

/* The runs stage (gpu_runs.cu) and the download of its columns and block tree straight
 * into the section the caller allocates (touched, locked and copied by the threads). */
static int fetch_runs(gpu_ctx_t *c, rv_gpu_job_t *j, host_t *hm, int T)
{
    double t0 = rv_now();
    j->stage(j->ctx, 4, c->n);
    uint64_t m = 0;
    const uint32_t *cols[4] = {NULL, NULL, NULL, NULL};
    int rc = gpu_runs_build(c, j->text, j->runs_block, &m, cols);
    if (rc != 0) return rc < 0 ? -1 : 0; /* 1: left to the CPU */
    void *dst[4];
    j->runs_sec = j->runs_section(m, j->wide, dst, &j->runs_bytes);
    if (!j->runs_sec) return rv_error("GPU", "out of host memory (%llu runs)", (unsigned long long)m);
    j->runs_m = m;
    const uint64_t count[4] = {m, m, m, (m + j->runs_block - 1) / j->runs_block};
    for (int k = 0; k < 4 && m; k++) {
        harr_t *h = &hm->a[7 + k];
        harr_init(h, dst[k], count[k] * (j->wide ? 8 : 4), 1, T);
        h->dev = cols[k];
        h->s = c->s0;
    }
    if (m && j->wide) {
        if (fetch(hm, 7, 4, T, 0) < 0) return -1;
    } else if (m) {
        host_start(hm, 7, 4, T, H_TOUCH | (j->pin ? H_PIN : 0) | H_COPY);
        host_join(hm);
        if (host_copied(hm, 7, 4) < 0) return -1;
    }
    GK(cudaStreamSynchronize(c->s0));
    gpu_add(c, c->n);
    j->runs_s = rv_now() - t0;
    return gpu_trace(c, "runs.download");
}

static int build(gpu_ctx_t *c, rv_gpu_job_t *j, void **arena, host_t *hm, cudaStream_t *st)
{
    const uint64_t n = j->n;
    double t0 = rv_now();
    c->t_last = t0;
    size_t arena_bytes = 0;
    if (carve(c, n, arena, &arena_bytes) < 0) return -1;
    j->device_bytes = arena_bytes; /* plus any spare temporary storage (gpu_temp_in) */
    GK(cudaStreamCreateWithFlags(&c->s0, cudaStreamNonBlocking));
    GK(cudaStreamCreateWithFlags(&c->s1, cudaStreamNonBlocking));
    for (int a = 0; a < 4; a++) GK(cudaStreamCreateWithFlags(&st[a], cudaStreamNonBlocking));
    size_t w = j->wide ? 8 : 4;
    int T = j->threads < 1 ? 1 : j->threads;
    hm->wide = j->wide;
    if (!(j->lcp8 = (uint8_t *)malloc(n)) || (j->with_llr && !(j->llr8 = (uint8_t *)malloc(n))))
        return rv_error("GPU", "out of host memory");
    void *arr[4] = {j->sa, j->isa, j->lcp8, j->llr8};
    const size_t nb[4] = {n * w, n * w, n, n};
    const uint32_t *dev[4] = {c->sa, c->rank, (const uint32_t *)c->k1, (const uint32_t *)((char *)c->k1 + n)};
    int k = j->with_llr ? 4 : 3;
    for (int a = 0; a < k; a++) {
        harr_init(&hm->a[a], arr[a], nb[a], a < 2, T);
        hm->a[a].dev = dev[a];
        hm->a[a].s = st[a];
    }
    /* touch and lock while the GPU sorts (see above) */
    if (!j->wide) host_start(hm, 0, k, T, H_TOUCH | (j->pin ? H_PIN : 0));

    j->stage(j->ctx, 0, n);
    if (j->pin) { /* the text goes up twice (SA, then LCP): page-lock it when we can */
        if (cudaHostRegister((void *)j->text, n, cudaHostRegisterDefault) == cudaSuccess)
            hm->text_pinned = 1;
        else
            (void)cudaGetLastError(); /* e.g. a read-only mapping: copy it pageable */
    }
    GK(cudaMemcpyAsync(c->k1, j->text, n, cudaMemcpyHostToDevice, c->s0));
    if (gpu_trace(c, "upload") < 0) return -1;
    int mc = 0;
    if (max_code(c, j->sigma, &mc) < 0) return -1;
    if (gpu_sa_build(c, mc) < 0) return -1;
    GK(cudaStreamSynchronize(c->s0));
    double t1 = rv_now();
    j->stage_s[0] = t1 - t0;
    if (gpu_cancelled(c)) return rv_error("", "cancelled");
    host_join(hm);

    /* queue every kernel (LCP, then LLR) on s0; the copies wait for their events */
    j->stage(j->ctx, 2, n);
    cudaEvent_t ev[2];
    GK(cudaEventCreateWithFlags(&ev[0], cudaEventDisableTiming));
    GK(cudaEventCreateWithFlags(&ev[1], cudaEventDisableTiming));
    int rc = gpu_lcp_build(c, j->text);
    if (rc == 0 && cudaMemsetAsync(c->small + 2, 0, 2 * sizeof *c->small, c->s0) != cudaSuccess) rc = -1;
    if (rc == 0) rc = gpu_narrow(c, c->v0, (uint8_t *)c->k1, c->small + 2);
    if (rc == 0 && cudaEventRecord(ev[0], c->s0) != cudaSuccess) rc = -1;
    if (rc == 0 && cudaStreamWaitEvent(st[2], ev[0], 0) != cudaSuccess) rc = -1;
    if (rc == 0 && j->with_llr) {
        rc = gpu_lr_build(c);
        if (rc == 0) rc = gpu_narrow(c, c->v1, (uint8_t *)c->k1 + n, c->small + 3);
        if (rc == 0 && cudaEventRecord(ev[1], c->s0) != cudaSuccess) rc = -1;
        if (rc == 0 && cudaStreamWaitEvent(st[3], ev[1], 0) != cudaSuccess) rc = -1;
    }
    if (rc == 0) rc = fetch_locked(hm, 0, k, T); /* slice by slice */
    if (rc == 0) rc = gpu_trace(c, "host.queue");
    /* the LLRc host buffer is sized, touched and locked while the other copies run */
    if (rc == 0) rc = fetch_tail(c, j, hm, T);
    for (int a = 0; a < 3 && rc == 0; a++)
        if (cudaStreamSynchronize(st[a]) != cudaSuccess) rc = rv_error("GPU", "download failed");
    double t2 = rv_now();
    j->stage_s[2] = t2 - t1;
    if (rc == 0 && j->with_llr) {
        if (cudaStreamSynchronize(st[3]) != cudaSuccess) rc = rv_error("GPU", "download failed");
        if (rc == 0 && cudaStreamSynchronize(c->s0) != cudaSuccess) rc = rv_error("GPU", "download failed");
        j->llr_s = rv_now() - t2;
    }
    cudaEventDestroy(ev[0]);
    cudaEventDestroy(ev[1]);
    if (rc < 0) return -1;
    if (gpu_trace(c, "downloads") < 0) return -1;
    if (j->with_runs && j->runs_section && fetch_runs(c, j, hm, T) < 0) return -1;
    if (c->trace)
        fprintf(stderr, "gpu\tdevice_bytes\t%llu\t%.3f B/base\n", (unsigned long long)j->device_bytes,
                (double)j->device_bytes / (double)n);
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
    host_t hm;
    hm.text_pinned = 0;
    cudaStream_t st[4] = {0, 0, 0, 0};
    int rc = build(&c, j, &arena, &hm, st);
    /* release everything whatever happened; after a sticky error these fail too */
    host_join(&hm);
    if (c.s0) cudaStreamSynchronize(c.s0);
    if (c.s1) cudaStreamSynchronize(c.s1);
    for (int a = 0; a < 4; a++)
        if (st[a]) cudaStreamSynchronize(st[a]);
    host_release(&hm);
    if (hm.text_pinned) cudaHostUnregister((void *)j->text);
    if (rc < 0) {
        free(j->lcp8);
        free(j->llr8);
        free(j->lcp_big);
        free(j->llr_big);
        free(j->llrc);
        free(j->runs_sec);
        j->lcp8 = j->llr8 = NULL;
        j->lcp_big = j->llr_big = j->llrc = j->runs_sec = NULL;
    }
    if (arena) cudaFree(arena);
    if (c.spare) cudaFree(c.spare);
    if (c.s0) cudaStreamDestroy(c.s0);
    if (c.s1) cudaStreamDestroy(c.s1);
    for (int a = 0; a < 4; a++)
        if (st[a]) cudaStreamDestroy(st[a]);
    return rc;
}
