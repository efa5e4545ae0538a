/* gpu_sa.cu — suffix array and ranks (ISA) on the GPU by prefix doubling with pruning
 * (Manber & Myers' doubling as parallelised by Osipov 2012 and by Wang, Baxter & Owens,
 * Wang, Baxter & Owens: sort, re-rank, drop the suffixes whose group is already a singleton, sort
 * only what is left).
 *
 * Order: exactly the order libdivsufsort gives on rv_seq_t.text (the CPU path), so both
 * backends produce bit-identical arrays: codes compare as bytes, the breaker (code 0) is
 * an ordinary smallest symbol, and the end of the text is smaller than everything.  A
 * comparison may therefore run across a breaker; that costs at most the rounds of the
 * longest repeat counted through breakers, which the collapsed breaker runs keep short.
 *
 * Round 0 radix-sorts packed prefixes: each symbol becomes a digit in base
 * B = max_code + 2 (0 = past the end, 1 = breaker, code + 1 otherwise) and W digits, the
 * most that fit in 64 bits, form the key (DNA: B = 6, W = 24).  Round j then sorts the
 * unfinished suffixes by (rank[i], rank[i + h]) with h = W * 2^(j-1); rank[i] is the SA
 * index of the first member of i's group, so it both orders the groups and places each
 * sorted member at its final SA index.  When no group is left, rank is the ISA. */
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include "gpu_internal.cuh"

#define GRID(m) ((unsigned)(((m) + 255) / 256 < 65535u * 16 ? ((m) + 255) / 256 : 65535u * 16))

__global__ void k_pack(const uint8_t *t, uint64_t n, uint32_t base, int w, uint64_t *key,
                       uint32_t *val)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t k = 0;
        for (int j = 0; j < w; j++) {
            uint64_t q = i + j;
            k = k * base + (q < n ? t[q] + 1u : 0u);
        }
        key[i] = k;
        val[i] = (uint32_t)i;
    }
}

/* Key of round j for the active suffix act[k]: (group head, rank of i + h + 1 or 0). */
__global__ void k_round_keys(const uint32_t *act, uint32_t m, const uint32_t *rank, uint64_t n,
                             uint64_t h, int lb, uint64_t *key)
{
    for (uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < m; k += gridDim.x * blockDim.x) {
        uint32_t s = act[k];
        uint64_t nk = s + h < n ? (uint64_t)rank[s + h] + 1 : 0;
        key[k] = ((uint64_t)rank[s] << lb) | nk;
    }
}

/* Scan input at k: (k if an old group starts at k, k if a new group starts at k).  An
 * inclusive max-scan turns it into (start of the old group, start of the new one). */
template <bool INITIAL> struct starts_in {
    const uint64_t *key;
    int lb;
    __device__ uint2 operator()(uint32_t k) const
    {
        if (k == 0) return make_uint2(0, 0);
        uint64_t a = key[k], b = key[k - 1];
        uint32_t old_start = !INITIAL && (a >> lb) != (b >> lb) ? k : 0;
        return make_uint2(old_start, a != b ? k : 0);
    }
};

struct max2 {
    __device__ uint2 operator()(uint2 a, uint2 b) const
    {
        return make_uint2(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y);
    }
};

/* Consumes the scan output: places the member at its SA index, gives it the rank of its
 * new group, and flags it for the next round unless its new group is a singleton. */
template <bool INITIAL> struct rerank_out {
    const uint64_t *key;
    const uint32_t *val;
    uint32_t *sa, *rank;
    uint8_t *keep;
    uint32_t m;
    int lb;
    __device__ void operator()(ptrdiff_t kk, uint2 st) const
    {
        uint32_t k = (uint32_t)kk;
        uint64_t a = key[k];
        uint32_t head = INITIAL ? 0 : (uint32_t)(a >> lb);
        uint32_t s = val[k];
        sa[head + k - st.x] = s;
        rank[s] = head + st.y - st.x;
        int single = st.y == k && (k + 1 == m || key[k + 1] != a);
        keep[k] = !single;
    }
};

template <bool INITIAL>
static cudaError_t rerank(gpu_ctx_t *c, void *temp, const uint64_t *key, const uint32_t *val, uint8_t *keep,
                          uint32_t m, int lb, size_t *bytes)
{
    auto in = thrust::make_transform_iterator(thrust::counting_iterator<uint32_t>(0),
                                              starts_in<INITIAL>{key, lb});
    auto out = thrust::make_tabulate_output_iterator(
        rerank_out<INITIAL>{key, val, c->sa, c->rank, keep, m, lb});
    return cub::DeviceScan::InclusiveScan(temp, *bytes, in, out, max2(), m, c->s0);
}

/* Keep the members flagged in keep: val -> out, count in c->small[0]; returns it.  The
 * flags are the first m bytes of a key buffer of c->k_bytes, free after them. */
static int select_active(gpu_ctx_t *c, const uint32_t *val, uint8_t *keep, uint32_t *out,
                         uint32_t m, uint32_t *left)
{
    size_t b = 0;
    GK(cub::DeviceSelect::Flagged(NULL, b, val, keep, out, c->small, (int64_t)m, c->s0));
    void *t = gpu_temp_in(c, keep + m, c->k_bytes - m, b);
    if (!t) return -1;
    GK(cub::DeviceSelect::Flagged(t, b, val, keep, out, c->small, (int64_t)m, c->s0));
    GK(cudaMemcpyAsync(left, c->small, sizeof *left, cudaMemcpyDeviceToHost, c->s0));
    GK(cudaStreamSynchronize(c->s0));
    return 0;
}

int gpu_sa_build(gpu_ctx_t *c, int max_code)
{
    const uint64_t n = c->n;
    const uint32_t base = (uint32_t)max_code + 2;
    int w = 0;
    uint64_t span = 1; /* base^w */
    while (span <= UINT64_MAX / base) { span *= base; w++; }
    int key_bits = gpu_bits(span - 1);

    /* round 0: packed prefixes of w symbols (the text lies in k1, the alternate buffer) */
    k_pack<<<GRID(n), 256, 0, c->s0>>>((const uint8_t *)c->k1, n, base, w, c->k0, c->v0);
    GK_LAUNCH();
    cub::DoubleBuffer<uint64_t> keys(c->k0, c->k1);
    cub::DoubleBuffer<uint32_t> vals(c->v0, c->v1);
    /* CUB's temporary storage goes where nothing lives during the call (gpu_temp_in):
     * here rank and SA, written only by the re-ranking after this sort */
    size_t b = 0;
    GK(cub::DeviceRadixSort::SortPairs(NULL, b, keys, vals, (uint32_t)n, 0, key_bits, c->s0));
    void *t = gpu_temp_in(c, c->rank, c->rank_sa_bytes, b);
    if (!t) return -1;
    GK(cub::DeviceRadixSort::SortPairs(t, b, keys, vals, (uint32_t)n, 0, key_bits, c->s0));
    uint8_t *keep = (uint8_t *)keys.Alternate(); /* then the other key buffer after the flags */
    b = 0;
    GK(rerank<true>(c, NULL, keys.Current(), vals.Current(), keep, (uint32_t)n, 0, &b));
    if (!(t = gpu_temp_in(c, keep + n, c->k_bytes - n, b))) return -1;
    GK(rerank<true>(c, t, keys.Current(), vals.Current(), keep, (uint32_t)n, 0, &b));
    GK_LAUNCH();
    uint32_t m = 0;
    if (select_active(c, vals.Current(), keep, vals.Alternate(), (uint32_t)n, &m) < 0) return -1;
    gpu_add(c, n - m);
    if (gpu_trace(c, "sa.round0") < 0) return -1;

    const int lb = gpu_bits(n);              /* low part: rank + 1 <= n */
    const int end_bit = lb + gpu_bits(n - 1); /* high part: group head < n */
    uint64_t h = (uint64_t)w;
    int round = 0;
    while (m > 0) {
        if (gpu_cancelled(c)) return rv_error("", "cancelled");
        uint32_t *act = vals.Alternate(), *act_alt = vals.Current();
        uint64_t *kc = keys.Current(), *ka = keys.Alternate();
        k_round_keys<<<GRID(m), 256, 0, c->s0>>>(act, m, c->rank, n, h, lb, kc);
        GK_LAUNCH();
        keys = cub::DoubleBuffer<uint64_t>(kc, ka);
        vals = cub::DoubleBuffer<uint32_t>(act, act_alt);
        b = 0; /* the sort uses the first m keys of both buffers: after them is free */
        GK(cub::DeviceRadixSort::SortPairs(NULL, b, keys, vals, m, 0, end_bit, c->s0));
        if (!(t = gpu_temp_in(c, kc + m, c->k_bytes - 8 * (size_t)m, b))) return -1;
        GK(cub::DeviceRadixSort::SortPairs(t, b, keys, vals, m, 0, end_bit, c->s0));
        keep = (uint8_t *)keys.Alternate();
        b = 0;
        GK(rerank<false>(c, NULL, keys.Current(), vals.Current(), keep, m, lb, &b));
        if (!(t = gpu_temp_in(c, keep + m, c->k_bytes - m, b))) return -1;
        GK(rerank<false>(c, t, keys.Current(), vals.Current(), keep, m, lb, &b));
        GK_LAUNCH();
        uint32_t left = 0;
        if (select_active(c, vals.Current(), keep, vals.Alternate(), m, &left) < 0) return -1;
        gpu_add(c, m - left);
        if (c->trace) fprintf(stderr, "gpu\tsa.round%d\th=%llu active=%u\n", ++round,
                              (unsigned long long)h, m);
        m = left;
        h *= 2;
    }
    return gpu_trace(c, "sa.rounds");
}
