/* gpu_wmers.cu — the w-mers of an index on the GPU (repeats.h, tallymer; Kurtz et
 * al. 2008): a w-mer is a maximal run of ranks whose adjacent LCPs are all >= w.
 *
 *   1. a byte per rank, 1 where a group starts (rank 0, or LCP[r] < w), from the
 *      narrow LCP: the small byte decides below 255; LCP values >= 255 are looked up
 *      in the big list only when w > 255 (their ranks found by one selection);
 *   2. the group starts by one selection (starts[G] = n closes the last group);
 *   3. the groups kept: count >= min_count, and a group of one suffix only when its
 *      first w symbols are breaker-free (two suffixes or more that share w symbols
 *      hold no breaker there), tested with a prefix count of the breakers;
 *   4. with positions: every rank of a kept group writes SA[r] to its slot (found by
 *      a binary search over the kept groups' first ranks), and one segmented sort
 *      puts each group's positions in increasing order, as the CPU hands them out.
 * One default stream; every buffer is freed before returning. */
#include <stdio.h>
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include "gpu_internal.cuh"

#define GRID(m) ((unsigned)(((m) + 255) / 256 < 65535u * 16 ? ((m) + 255) / 256 : 65535u * 16))
#define LOOP(i, m) for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < (m); \
                        i += (uint64_t)gridDim.x * blockDim.x)

/* flag[r] = 1 where a group starts: r == 0 or LCP[r] < w, with the escaped values
 * (255 in the small bytes) left as "no start"; lcp_fix settles them when w > 255. */
__global__ void k_group_flags(uint8_t *flag, uint64_t n, uint64_t w)
{
    const unsigned lim = w < 255 ? (unsigned)w : 255u;
    LOOP(r, n) flag[r] = r == 0 || flag[r] < lim;
}

__global__ void k_lcp_fix(uint8_t *flag, const uint32_t *esc_rank, const uint32_t *esc_val, uint64_t m, uint64_t w)
{
    LOOP(k, m) if (esc_rank[k] != 0) flag[esc_rank[k]] = esc_val[k] < w;
}

struct is_escape {
    const uint8_t *lcp8;
    __device__ bool operator()(uint32_t r) const { return lcp8[r] == RV_NARROW_ESC; }
};

struct is_breaker {
    const uint8_t *text;
    uint64_t n;
    __device__ uint32_t operator()(uint32_t i) const { return i < n && text[i] == 0; } /* RV_BREAK */
};

/* Group g (ranks starts[g] .. starts[g + 1]) is printed. */
struct keep_group {
    const uint32_t *starts, *sa, *breaks; /* breaks: breakers before each text position */
    uint64_t n, w, min_count;
    __device__ bool operator()(uint32_t g) const
    {
        uint64_t k = (uint64_t)starts[g + 1] - starts[g];
        if (k < min_count) return false;
        if (k > 1) return true;
        uint64_t p = sa[starts[g]];
        if (p >= n) p = n - 1; /* clamped as rv_sa() does */
        return w <= n - p && breaks[p + w] == breaks[p];
    }
};

__global__ void k_close(uint32_t *starts, const uint32_t *G, uint64_t n) { starts[*G] = (uint32_t)n; }

__global__ void k_kept(const uint32_t *starts, const uint32_t *sel, uint64_t s, uint32_t *lb, uint32_t *cnt)
{
    LOOP(i, s) {
        uint32_t g = sel[i];
        lb[i] = starts[g];
        cnt[i] = starts[g + 1] - starts[g];
    }
}

/* Every rank of a kept group puts its suffix's start in the group's slots. */
__global__ void k_scatter(const uint32_t *sa, uint64_t n, const uint32_t *lb, const uint32_t *cnt,
                          const uint32_t *off, uint64_t s, uint32_t *out)
{
    LOOP(r, n) {
        uint64_t lo = 0, hi = s; /* the first kept group starting after r */
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (lb[mid] <= r) lo = mid + 1; else hi = mid;
        }
        if (lo == 0) continue;
        uint64_t i = lo - 1;
        if (r - lb[i] >= cnt[i]) continue;
        uint32_t p = sa[r];
        out[off[i] + (r - lb[i])] = p < n ? p : (uint32_t)(n - 1);
    }
}

#define CK(call)                                                                                 \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) { rc = rv_error("GPU", "w-mers: %s", cudaGetErrorString(e_)); goto out; } \
    } while (0)

/* Temporary storage for one CUB call: grown on demand. */
static cudaError_t temp_room(void **temp, size_t *have, size_t need)
{
    if (need <= *have) return cudaSuccess;
    cudaFree(*temp);
    *temp = NULL;
    *have = 0;
    cudaError_t e = cudaMalloc(temp, need + 8);
    if (e == cudaSuccess) *have = need;
    return e;
}

static double trace_at(int trace, const char *what, double t0)
{
    if (!trace) return 0;
    cudaDeviceSynchronize();
    double t = rv_now();
    if (what) fprintf(stderr, "gpu\twmers %s\t%.2f ms\n", what, (t - t0) * 1e3);
    return t;
}

extern "C" int rv_gpu_wmers_run(rv_gpu_wmers_job_t *j)
{
    const uint64_t n = j->n, w = j->w;
    const int need_sa = j->with_pos || j->min_count == 1;
    int rc = 0;
    uint8_t *d_flag = NULL, *d_text = NULL;
    uint32_t *d_sa = NULL, *d_esc = NULL, *d_escval = NULL, *d_starts = NULL, *d_small = NULL, *d_breaks = NULL;
    uint32_t *d_sel = NULL, *d_lb = NULL, *d_cnt = NULL, *d_off = NULL, *d_pos = NULL, *d_sorted = NULL;
    void *temp = NULL;
    size_t have = 0, need = 0;
    uint32_t small[2] = {0, 0};
    uint64_t G = 0, S = 0, P = 0;
    thrust::counting_iterator<uint32_t> ranks(0);
    cudaEvent_t e0 = NULL, e1 = NULL;
    double t = trace_at(j->trace, NULL, 0);
    j->lb = j->cnt = j->pos = NULL;
    j->kept = j->total = 0;
    if (n == 0) return 0;
    if (n >= 0xffffffffull) return rv_error("GPU", "w-mers: 32-bit ranks only");
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    CK(cudaMalloc((void **)&d_small, 16));
    CK(cudaMalloc((void **)&d_flag, n + 8));
    CK(cudaMemcpy(d_flag, j->lcp8, n, cudaMemcpyHostToDevice));
    if (need_sa) {
        CK(cudaMalloc((void **)&d_sa, n * 4 + 4));
        CK(cudaMemcpy(d_sa, j->sa, n * 4, cudaMemcpyHostToDevice));
    }
    t = trace_at(j->trace, "upload", t);

    /* 1. group starts as flags; escaped LCPs settled against w > 255 */
    if (w > 255 && j->n_big) {
        CK(cudaMalloc((void **)&d_esc, j->n_big * 4 + 4));
        CK(cudaMalloc((void **)&d_escval, j->n_big * 4 + 4));
        CK(cudaMemcpy(d_escval, j->lcp_val, j->n_big * 4, cudaMemcpyHostToDevice));
        CK(cub::DeviceSelect::If(NULL, need, ranks, d_esc, d_small, (int64_t)n, is_escape{d_flag}));
        CK(temp_room(&temp, &have, need));
        CK(cub::DeviceSelect::If(temp, need, ranks, d_esc, d_small, (int64_t)n, is_escape{d_flag}));
        CK(cudaMemcpy(small, d_small, 4, cudaMemcpyDeviceToHost));
        if (small[0] != j->n_big) { rc = rv_error("GPU", "w-mers: the LCP's big values do not match"); goto out; }
    }
    k_group_flags<<<GRID(n), 256>>>(d_flag, n, w);
    CK(cudaGetLastError());
    if (d_esc) {
        k_lcp_fix<<<GRID(j->n_big), 256>>>(d_flag, d_esc, d_escval, j->n_big, w);
        CK(cudaGetLastError());
        cudaFree(d_esc), d_esc = NULL;
        cudaFree(d_escval), d_escval = NULL;
    }

    /* 2. the groups' first ranks, closed by n */
    CK(cudaMalloc((void **)&d_starts, n * 4 + 8));
    CK(cub::DeviceSelect::Flagged(NULL, need, ranks, d_flag, d_starts, d_small, (int64_t)n));
    CK(temp_room(&temp, &have, need));
    CK(cub::DeviceSelect::Flagged(temp, need, ranks, d_flag, d_starts, d_small, (int64_t)n));
    k_close<<<1, 1>>>(d_starts, d_small, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(small, d_small, 4, cudaMemcpyDeviceToHost));
    G = small[0];
    cudaFree(d_flag), d_flag = NULL;
    t = trace_at(j->trace, "groups", t);

    /* 3. the groups kept (singletons need the breakers before each position) */
    if (j->min_count == 1) {
        CK(cudaMalloc((void **)&d_text, n + 8));
        CK(cudaMalloc((void **)&d_breaks, n * 4 + 8));
        CK(cudaMemcpy(d_text, j->text, n, cudaMemcpyHostToDevice));
        auto brk = thrust::make_transform_iterator(ranks, is_breaker{d_text, n});
        CK(cub::DeviceScan::ExclusiveSum(NULL, need, brk, d_breaks, (int64_t)n + 1));
        CK(temp_room(&temp, &have, need));
        CK(cub::DeviceScan::ExclusiveSum(temp, need, brk, d_breaks, (int64_t)n + 1));
        cudaFree(d_text), d_text = NULL;
    }
    CK(cudaMalloc((void **)&d_sel, G * 4 + 4));
    {
        keep_group keep{d_starts, d_sa, d_breaks, n, w, j->min_count};
        CK(cub::DeviceSelect::If(NULL, need, ranks, d_sel, d_small, (int64_t)G, keep));
        CK(temp_room(&temp, &have, need));
        CK(cub::DeviceSelect::If(temp, need, ranks, d_sel, d_small, (int64_t)G, keep));
    }
    CK(cudaMemcpy(small, d_small, 4, cudaMemcpyDeviceToHost));
    S = small[0];
    cudaFree(d_breaks), d_breaks = NULL;
    CK(cudaMalloc((void **)&d_lb, S * 4 + 4));
    CK(cudaMalloc((void **)&d_cnt, S * 4 + 4));
    if (S) {
        k_kept<<<GRID(S), 256>>>(d_starts, d_sel, S, d_lb, d_cnt);
        CK(cudaGetLastError());
    }
    cudaFree(d_starts), d_starts = NULL;
    cudaFree(d_sel), d_sel = NULL;
    t = trace_at(j->trace, "select", t);

    /* 4. the kept groups' positions, each group sorted */
    if (j->with_pos && S) {
        CK(cudaMalloc((void **)&d_off, S * 4 + 8));
        CK(cub::DeviceScan::ExclusiveSum(NULL, need, d_cnt, d_off, (int64_t)S));
        CK(temp_room(&temp, &have, need));
        CK(cub::DeviceScan::ExclusiveSum(temp, need, d_cnt, d_off, (int64_t)S));
        CK(cudaMemcpy(&small[0], d_off + S - 1, 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&small[1], d_cnt + S - 1, 4, cudaMemcpyDeviceToHost));
        P = (uint64_t)small[0] + small[1];
        small[0] = (uint32_t)P; /* d_off[S] closes the last segment */
        CK(cudaMemcpy(d_off + S, &small[0], 4, cudaMemcpyHostToDevice));
        CK(cudaMalloc((void **)&d_pos, P * 4 + 4));
        CK(cudaMalloc((void **)&d_sorted, P * 4 + 4));
        k_scatter<<<GRID(n), 256>>>(d_sa, n, d_lb, d_cnt, d_off, S, d_pos);
        CK(cudaGetLastError());
        cudaFree(d_sa), d_sa = NULL;
        CK(cub::DeviceSegmentedSort::SortKeys(NULL, need, d_pos, d_sorted, (int64_t)P, (int64_t)S, d_off,
                                              d_off + 1));
        CK(temp_room(&temp, &have, need));
        CK(cub::DeviceSegmentedSort::SortKeys(temp, need, d_pos, d_sorted, (int64_t)P, (int64_t)S, d_off,
                                              d_off + 1));
        t = trace_at(j->trace, "positions", t);
    }
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    {
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        j->device_s = ms / 1e3;
    }

    /* download */
    j->lb = (uint32_t *)malloc(S * 4 + 4);
    j->cnt = (uint32_t *)malloc(S * 4 + 4);
    j->pos = j->with_pos ? (uint32_t *)malloc(P * 4 + 4) : NULL;
    if (!j->lb || !j->cnt || (j->with_pos && !j->pos)) { rc = rv_error("GPU", "w-mers: out of host memory"); goto out; }
    CK(cudaMemcpy(j->lb, d_lb, S * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(j->cnt, d_cnt, S * 4, cudaMemcpyDeviceToHost));
    if (P) CK(cudaMemcpy(j->pos, d_sorted, P * 4, cudaMemcpyDeviceToHost));
    j->kept = S;
    j->total = P;
    trace_at(j->trace, "download", t);
out:
    if (rc < 0) {
        free(j->lb), free(j->cnt), free(j->pos);
        j->lb = j->cnt = j->pos = NULL;
        (void)cudaGetLastError();
    }
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    cudaFree(d_flag); cudaFree(d_text); cudaFree(d_sa); cudaFree(d_esc); cudaFree(d_escval); cudaFree(d_starts);
    cudaFree(d_small); cudaFree(d_breaks); cudaFree(d_sel); cudaFree(d_lb); cudaFree(d_cnt); cudaFree(d_off);
    cudaFree(d_pos); cudaFree(d_sorted); cudaFree(temp);
    return rc;
}
