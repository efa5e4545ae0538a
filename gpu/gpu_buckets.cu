/* gpu_buckets.cu — one job of prefix buckets (buckets.h) collected and sorted on the
 * GPU, for the ranks and processes that have one (the paths without an index).
 *
 * The text is uploaded once (rv_gpu_bk_open).  A job is the codes [lo, lo + nc) of
 * k symbols: one pass over every text position selects the starts whose first k
 * symbols are breaker-free and fall in the job, a radix sort by code groups them by
 * bucket (stable, so each bucket keeps text order), then rounds of an MSD string sort
 * refine the buckets: each round reads the next `spk` symbols of every suffix still
 * tied as one integer key (zero from the first breaker on), sorts inside each tied
 * group with a stable segmented sort, writes the LCP of every pair of neighbours the
 * round separates, and keeps the groups still equal (and not ended) for the next.
 * Ties that end in a breaker stay in text order, as the CPU's sort leaves them.  When
 * few suffixes remain the rounds stop and the caller finishes those groups on the CPU
 * (long repeats: few suffixes, many rounds).
 */
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include "gpu_internal.cuh"

namespace {

/* A job's download goes to page-locked staging, and the host widens or copies it
 * into the caller's arrays after the device is let go: the next job's rounds run
 * meanwhile (for 3 Gbp that host work is 4-5 s of the device's 8 s). */
struct bk_download {
    void *pin = nullptr;  /* the staging: 2m 32-bit words (narrow) or 2m 64-bit ones */
    int narrow = 0, staged = 0; /* staged: the download waits in pin for the host */
    double t_copy = 0;    /* the device-to-host copy */
    char line[256] = "";  /* the trace line, less the host's part */
};

/* The staging buffers: a job takes one before it waits for the device, so that
 * several jobs overlap (one on the device, the others widening: a widening takes
 * longer than the job's turn on the device).  Slot j > 0 may only hold a job of at
 * most PIN_TOTAL / (j + 1) bytes, and a job takes the last slot free that fits it,
 * leaving the first to the large ones: the later slots together stay near
 * PIN_TOTAL, while the first grows to the largest job's download and is not
 * shrunk. */
enum { PIN_SLOTS = 8 };
int pin_slots = 0; /* slots in use: REPVIEW_GPU_PIN_SLOTS (1..8, tests and benchmarks) or 3 */
const size_t PIN_TOTAL = (size_t)1 << 30;
struct pin_slot {
    void *p = nullptr;
    size_t bytes = 0;
    int busy = 0;
};
pin_slot pins[PIN_SLOTS];
std::mutex pin_mu;
std::condition_variable pin_cv;

/* A slot for a download of `bytes`, grown where needed: its index.  Its memory is
 * still too small (or NULL) when the host has no page-locked room: the download
 * then goes straight to the caller's arrays. */
int pin_take(size_t bytes)
{
    std::unique_lock<std::mutex> lk(pin_mu);
    if (!pin_slots) {
        const char *e = getenv("REPVIEW_GPU_PIN_SLOTS");
        pin_slots = e && atoi(e) >= 1 && atoi(e) <= PIN_SLOTS ? atoi(e) : 3;
    }
    int i = -1;
    pin_cv.wait(lk, [&] {
        for (int j = pin_slots - 1; j >= 0; j--)
            if (!pins[j].busy && (j == 0 || bytes <= PIN_TOTAL / (size_t)(j + 1))) return (i = j), true;
        return false;
    });
    pins[i].busy = 1;
    lk.unlock();
    if (pins[i].bytes < bytes) { /* the new one first: on failure the old one stays */
        void *p = nullptr;
        size_t want = bytes + bytes / 8;
        if (cudaMallocHost(&p, want) == cudaSuccess) {
            cudaFreeHost(pins[i].p);
            pins[i].p = p, pins[i].bytes = want;
        }
        cudaGetLastError(); /* not left for the next launch to report */
    }
    return i;
}

void pin_give(int i)
{
    std::lock_guard<std::mutex> lk(pin_mu);
    pins[i].busy = 0;
    pin_cv.notify_all();
}

/* At the text's close: every slot not in use (the jobs have ended by then). */
void pin_free_all()
{
    std::lock_guard<std::mutex> lk(pin_mu);
    for (pin_slot &x : pins)
        if (!x.busy) {
            cudaFreeHost(x.p);
            x.p = nullptr, x.bytes = 0;
        }
}

struct bk_state {
    int dev = -1;
    uint8_t *text = nullptr; /* n codes + TEXT_PAD zeros */
    uint64_t n = 0;
    int bits = 8, spk = 8;   /* bits per symbol in a key, symbols per key */
    uint64_t cap = 0;        /* elements the arrays below hold */
    uint64_t *pos0 = nullptr, *pos1 = nullptr, *key0 = nullptr, *key1 = nullptr;
    uint64_t *slot0 = nullptr, *slot1 = nullptr, *outpos = nullptr, *outlcp = nullptr;
    int64_t *beg = nullptr;  /* cap + 1 segment starts */
    uint8_t *act = nullptr, *head = nullptr, *nhead = nullptr;
    int64_t *count = nullptr; /* device counter of the selections */
    void *temp = nullptr;
    size_t temp_bytes = 0;
    cudaStream_t s = nullptr;
    int trace = 0;           /* REPVIEW_GPU_TRACE: one line per job */
    double t0 = 0, t_open = 0, t_wait = 0; /* job start, text uploaded, wait for the device */
    uint32_t *codes = nullptr; /* the code of every start (NO_CODE: none), for k and */
    int codes_k = 0;           /* sigma below; made at the first job when it fits   */
    uint64_t codes_sigma = 0;
    struct bk_download *dl = nullptr; /* the job's download (rv_gpu_bk_job) */
    /* every start grouped by code, text order within a code (bk_group): a job's
     * starts are then one slice, found without reading the text */
    uint32_t *grouped = nullptr;
    uint64_t *first = nullptr;  /* host: first slot of each code in `grouped` (n_codes + 1) */
    uint64_t n_codes = 0;       /* of the counts below (0: not counted yet) */
    int grouped_k = 0;          /* the k and sigma counted; grouped may still be NULL */
    uint64_t grouped_sigma = 0;
    int text_sigma = 0;         /* the text's largest code: a plan's sigma is at least that */
    int group_on = 1;           /* REPVIEW_GPU_GROUP=0: the jobs select their starts (tests) */
    uint64_t group_chunk = 1ull << 27; /* REPVIEW_GPU_GROUP_CHUNK: positions a chunk (tests) */
};

const uint32_t NO_CODE = UINT32_MAX;

bk_state g;
std::mutex g_mu;

void bk_free_arrays()
{
    void *a[] = {g.pos0, g.pos1, g.key0, g.key1, g.slot0, g.slot1, g.outpos, g.outlcp, g.beg,
                 g.act, g.head, g.nhead, g.temp};
    for (void *p : a) cudaFree(p);
    g.pos0 = g.pos1 = g.key0 = g.key1 = g.slot0 = g.slot1 = g.outpos = g.outlcp = nullptr;
    g.beg = nullptr;
    g.act = g.head = g.nhead = nullptr;
    g.temp = nullptr;
    g.temp_bytes = 0;
    g.cap = 0;
}

int bk_reserve(uint64_t m)
{
    if (m <= g.cap) return 0;
    bk_free_arrays();
    uint64_t c = m + m / 8;
    uint64_t **w[] = {&g.pos0, &g.pos1, &g.key0, &g.key1, &g.slot0, &g.slot1, &g.outpos, &g.outlcp};
    for (uint64_t **p : w) GK(cudaMalloc(p, c * sizeof(uint64_t)));
    GK(cudaMalloc(&g.beg, (c + 1) * sizeof(int64_t)));
    GK(cudaMalloc(&g.act, c));
    GK(cudaMalloc(&g.head, c));
    GK(cudaMalloc(&g.nhead, c));
    g.cap = c;
    return 0;
}

int bk_temp(size_t need)
{
    if (need <= g.temp_bytes) return 0;
    cudaFree(g.temp);
    g.temp = nullptr;
    g.temp_bytes = 0;
    need += need / 4 + 4096;
    GK(cudaMalloc(&g.temp, need));
    g.temp_bytes = need;
    return 0;
}

/* The code of the k symbols at i (sum (c - 1) sigma^j, most significant first), or
 * UINT64_MAX when a breaker or the text end comes first. */
struct code_of {
    const uint8_t *t;
    uint64_t n, sigma;
    int k;
    __device__ uint64_t operator()(uint64_t i) const
    {
        if (i + (uint64_t)k > n) return UINT64_MAX;
        uint64_t c = 0;
        for (int j = 0; j < k; j++) {
            uint8_t x = t[i + j];
            if (!x) return UINT64_MAX;
            c = c * sigma + (uint64_t)(x - 1);
        }
        return c;
    }
};

struct in_job {
    code_of code;
    const uint32_t *codes; /* when made: code(i) read back */
    uint64_t lo, hi;
    __device__ bool operator()(uint64_t i) const
    {
        uint64_t c = codes ? (codes[i] == NO_CODE ? UINT64_MAX : (uint64_t)codes[i]) : code(i);
        return c >= lo && c < hi;
    }
};

__global__ void k_all_codes(code_of code, uint32_t *out)
{
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (i >= code.n) return;
    uint64_t c = code(i);
    out[i] = c == UINT64_MAX ? NO_CODE : (uint32_t)c;
}

__global__ void k_codes(code_of code, uint64_t lo, const uint64_t *pos, uint64_t m, uint64_t *key, uint64_t *slot)
{
    uint64_t a = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (a >= m) return;
    key[a] = code(pos[a]) - lo;
    slot[a] = a;
}

/* The spk symbols at p, `bits` each, the first the most significant; zero from the
 * first breaker or the text end on. */
__device__ __forceinline__ uint64_t key_at(const uint8_t *t, uint64_t n, uint64_t p, int bits, int spk)
{
    uint64_t k = 0;
    for (int i = 0; i < spk; i++) {
        uint8_t c = p + i < n ? t[p + i] : 0;
        if (!c) break;
        k |= (uint64_t)c << (64 - bits * (i + 1));
    }
    return k;
}

__global__ void k_keys(const uint8_t *t, uint64_t n, const uint64_t *pos, uint64_t A, uint64_t d, int bits,
                       int spk, uint64_t *key)
{
    uint64_t a = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (a < A) key[a] = key_at(t, n, pos[a] + d, bits, spk);
}

__global__ void k_heads(const int64_t *beg, uint64_t S, uint8_t *head)
{
    uint64_t s = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (s < S) head[beg[s]] = 1;
}

/* Symbols before the first zero symbol of key k. */
__device__ __forceinline__ int key_len(uint64_t k, int bits, int spk)
{
    const uint64_t mask = (1ull << bits) - 1;
    for (int i = 0; i < spk; i++)
        if (!((k >> (64 - bits * (i + 1))) & mask)) return i;
    return spk;
}

/* After a round's sort: each suffix to its slot; the LCP of the neighbours the round
 * separated; which suffixes stay tied (act) and which of them start a group (nhead). */
__global__ void k_split(const uint64_t *key, const uint64_t *pos, const uint64_t *slot, const uint8_t *head,
                        uint64_t A, uint64_t d, int bits, int spk, uint64_t *outpos, uint64_t *outlcp,
                        uint8_t *act, uint8_t *nhead)
{
    uint64_t a = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (a >= A) return;
    uint64_t k = key[a];
    int len = key_len(k, bits, spk);
    int open = len == spk; /* no breaker in this key: ties go one key deeper */
    int same_prev = !head[a] && key[a - 1] == k && open;
    int same_next = a + 1 < A && !head[a + 1] && key[a + 1] == k && open;
    outpos[slot[a]] = pos[a];
    if (!head[a] && !same_prev) {
        uint64_t x = key[a - 1], diff = x ^ k;
        int same = diff ? __clzll((long long)diff) / bits : spk;
        int stop = key_len(x, bits, spk);
        outlcp[slot[a]] = d + (uint64_t)(same < stop ? same : stop);
    }
    act[a] = (uint8_t)(same_prev || same_next);
    nhead[a] = (uint8_t)((same_prev || same_next) && !same_prev);
}

__global__ void k_set(int64_t *p, int64_t v) { *p = v; }

__global__ void k_widen(const uint32_t *in, uint64_t m, uint64_t *pos, uint64_t *slot)
{
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (i >= m) return;
    pos[i] = in[i];
    slot[i] = i;
}

/* The job's positions and LCPs as 32-bit words (the text has fewer than 2^32
 * symbols): positions in w[0, m), LCPs in w[m, 2m). */
__global__ void k_narrow(const uint64_t *pos, const uint64_t *lcp, uint64_t m, uint32_t *w)
{
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (i >= m) return;
    w[i] = (uint32_t)pos[i];
    w[m + i] = (uint32_t)lcp[i];
}

int bk_rounds(int k, uint64_t nc, const uint64_t *off, uint64_t m, uint64_t min_left, uint64_t *pos,
              uint64_t *lcp, uint64_t *depth, uint64_t **groups, uint64_t *n_groups, double t_sel);

/* memcpy on a thread per 2^shift bytes, at most max_threads (and the host's cores),
 * the calling thread one of them */
void copy_threads(void *dst, const void *src, size_t bytes, int shift, unsigned max_threads)
{
    unsigned hw = std::thread::hardware_concurrency(), nt = (unsigned)(bytes >> shift);
    if (nt > max_threads) nt = max_threads;
    if (hw && nt > hw) nt = hw;
    if (nt <= 1) {
        memcpy(dst, src, bytes);
        return;
    }
    std::vector<std::thread> th;
    size_t per = (bytes + nt - 1) / nt;
    for (unsigned t = 1; t < nt; t++) {
        size_t off = (size_t)t * per, len = off < bytes ? (bytes - off < per ? bytes - off : per) : 0;
        if (len) th.emplace_back([=] { memcpy((char *)dst + off, (const char *)src + off, len); });
    }
    memcpy(dst, src, per);
    for (auto &x : th) x.join();
}

/* memcpy of a job's download into the caller's fresh (unfaulted) arrays: several
 * threads, as its page faults cost more than the copy itself */
void copy_parallel(void *dst, const void *src, size_t bytes) { copy_threads(dst, src, bytes, 23, 8); }

/* pos[i] = w[i], lcp[i] = w[m + i]: several threads, as copy_parallel */
void widen_parallel(uint64_t *pos, uint64_t *lcp, const uint32_t *w, uint64_t m)
{
    unsigned nt = (unsigned)(m >> 20); /* 1 Mi entries a thread, 8 threads at most */
    nt = nt < 1 ? 1 : nt > 8 ? 8 : nt;
    auto part = [=](uint64_t a, uint64_t b) {
        for (uint64_t i = a; i < b; i++) pos[i] = w[i];
        for (uint64_t i = a; i < b; i++) lcp[i] = w[m + i];
    };
    if (nt == 1) {
        part(0, m);
        return;
    }
    std::vector<std::thread> th;
    uint64_t per = (m + nt - 1) / nt;
    for (unsigned t = 0; t < nt; t++) {
        uint64_t a = (uint64_t)t * per, b = a + per < m ? a + per : m;
        if (a < b) th.emplace_back(part, a, b);
    }
    for (auto &x : th) x.join();
}

inline unsigned blocks(uint64_t n) { return (unsigned)((n + 255) / 256); }

/* The text up to the device through page-locked staging: a copy from pageable
 * memory runs at 4-5 GB/s (0.6-0.85 s for 3 GB on an H200 host, where the text
 * sits in the host's shared window), while the host's cores fill a staging
 * buffer much faster and the copy engine drains the one before it.  Falls back to
 * the plain copy when no staging memory can be locked.  Test hook:
 * REPVIEW_GPU_UP_CHUNK=BYTES stages texts of any size in pieces of that size. */
enum { UP_CHUNK = 64 << 20, UP_BUFS = 3, UP_THREADS = 16 };

int upload_staged(uint8_t *dst, const uint8_t *src, uint64_t n, cudaStream_t s)
{
    uint8_t *pin = nullptr;
    cudaEvent_t ev[UP_BUFS] = {};
    int made = 0;
    const char *e = getenv("REPVIEW_GPU_UP_CHUNK");
    uint64_t chunk = e && strtoull(e, NULL, 10) > 0 ? strtoull(e, NULL, 10) : UP_CHUNK;
    if (n > chunk && cudaMallocHost(&pin, (size_t)chunk * UP_BUFS) == cudaSuccess) {
        while (made < UP_BUFS && cudaEventCreateWithFlags(&ev[made], cudaEventDisableTiming) == cudaSuccess) made++;
    }
    cudaGetLastError(); /* a failure above only means the plain copy */
    int rc = 0;
    if (!pin || made < UP_BUFS) {
        if (cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, s) != cudaSuccess) rc = -1;
    } else {
        for (uint64_t off = 0, i = 0; off < n && rc == 0; off += chunk, i++) {
            size_t len = n - off < chunk ? (size_t)(n - off) : (size_t)chunk;
            uint8_t *buf = pin + (i % UP_BUFS) * (size_t)chunk;
            if (i >= UP_BUFS && cudaEventSynchronize(ev[i % UP_BUFS]) != cudaSuccess) rc = -1;
            if (rc == 0) copy_threads(buf, src + off, len, 22, UP_THREADS); /* 4 MB a thread */
            if (rc == 0 && (cudaMemcpyAsync(dst + off, buf, len, cudaMemcpyHostToDevice, s) != cudaSuccess ||
                            cudaEventRecord(ev[i % UP_BUFS], s) != cudaSuccess))
                rc = -1;
        }
    }
    if (cudaStreamSynchronize(s) != cudaSuccess) rc = -1;
    for (int b = 0; b < made; b++) cudaEventDestroy(ev[b]);
    if (pin) cudaFreeHost(pin);
    if (rc < 0) {
        cudaError_t e = cudaGetLastError();
        return rv_error("GPU", "cannot copy the text to the device: %s", cudaGetErrorString(e));
    }
    return 0;
}

int bk_count(int64_t *out)
{
    GK(cudaMemcpyAsync(out, g.count, sizeof *out, cudaMemcpyDeviceToHost, g.s));
    GK(cudaStreamSynchronize(g.s));
    return 0;
}

template <typename In, typename Out, typename Flag>
int bk_select(In in, Out out, Flag flags, int64_t n, int64_t *got)
{
    size_t need = 0;
    GK(cub::DeviceSelect::Flagged(nullptr, need, in, flags, out, g.count, n, g.s));
    if (bk_temp(need) < 0) return -1;
    need = g.temp_bytes;
    GK(cub::DeviceSelect::Flagged(g.temp, need, in, flags, out, g.count, n, g.s));
    return got ? bk_count(got) : 0;
}

/* The count of each code; and each start's code, or n_codes when it has none (a
 * breaker or the text's end within its k symbols). */
__global__ void k_count_codes(code_of code, unsigned long long *count)
{
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (i >= code.n) return;
    uint64_t c = code(i);
    if (c != UINT64_MAX) atomicAdd(&count[c], 1ull);
}

__global__ void k_chunk_codes(code_of code, uint64_t a, uint64_t len, uint32_t none, uint32_t *key, uint32_t *val)
{
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (i >= len) return;
    uint64_t c = code(a + i);
    key[i] = c == UINT64_MAX ? none : (uint32_t)c;
    val[i] = (uint32_t)(a + i);
}

/* run[i] = i where a run of equal keys starts, else 0 (a max-scan then gives each
 * element the start of its run) */
__global__ void k_run_heads(const uint32_t *key, uint64_t len, uint32_t *run)
{
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (i < len) run[i] = i == 0 || key[i - 1] != key[i] ? (uint32_t)i : 0;
}

/* A chunk's starts sorted by code (stable) go after those of earlier chunks. */
__global__ void k_place(const uint32_t *key, const uint32_t *val, const uint32_t *run, uint64_t len, uint32_t none,
                        const unsigned long long *cursor, uint32_t *grouped)
{
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (i >= len || key[i] == none) return;
    grouped[cursor[key[i]] + (i - run[i])] = val[i];
}

__global__ void k_advance(const uint32_t *key, const uint32_t *run, uint64_t len, uint32_t none,
                          unsigned long long *cursor)
{
    uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    if (i >= len || key[i] == none || (i + 1 < len && key[i + 1] == key[i])) return;
    cursor[key[i]] += i - run[i] + 1;
}

struct max_u32 {
    __device__ uint32_t operator()(uint32_t a, uint32_t b) const { return a > b ? a : b; }
};

void bk_group_free()
{
    cudaFree(g.grouped);
    g.grouped = nullptr;
    free(g.first);
    g.first = nullptr;
    g.n_codes = 0;
    g.grouped_k = 0;
    g.grouped_sigma = 0;
}

/* Below the free device memory this leaves, the jobs' arrays may not fit. */
const size_t GROUP_SLACK = 2ull << 30;

/* The grouped starts, chunk by chunk: the chunk's (code, position) pairs sorted by
 * code (LSD radix: stable, so text order stays within a code), then each run of a
 * code placed after the code's starts from earlier chunks. */
int bk_group_fill(code_of code, uint64_t n_codes, uint64_t total)
{
    const uint64_t chunk = g.n < g.group_chunk ? g.n : g.group_chunk;
    const uint32_t none = (uint32_t)n_codes;
    int end_bit = 1;
    while (end_bit < 32 && (1ull << end_bit) <= n_codes) end_bit++;
    size_t need_sort = 0, need_scan = 0;
    GK(cub::DeviceRadixSort::SortPairs(nullptr, need_sort, (uint32_t *)nullptr, (uint32_t *)nullptr,
                                       (uint32_t *)nullptr, (uint32_t *)nullptr, (int64_t)chunk, 0, end_bit, g.s));
    GK(cub::DeviceScan::InclusiveScan(nullptr, need_scan, (uint32_t *)nullptr, (uint32_t *)nullptr, max_u32(),
                                      (int64_t)chunk, g.s));
    size_t temp = need_sort > need_scan ? need_sort : need_scan;
    size_t bytes = total * sizeof(uint32_t) + 5 * chunk * sizeof(uint32_t) + n_codes * 8 + temp + 4096;
    size_t free_b = 0, all_b = 0;
    if (cudaMemGetInfo(&free_b, &all_b) != cudaSuccess || free_b < bytes + GROUP_SLACK) {
        cudaGetLastError();
        return 1; /* no room: the jobs select their starts by reading the codes */
    }
    uint32_t *kin = nullptr, *kout = nullptr, *vin = nullptr, *vout = nullptr, *run = nullptr;
    unsigned long long *cursor = nullptr;
    void *tmp = nullptr;
    cudaError_t e = cudaMalloc(&g.grouped, (total ? total : 1) * sizeof(uint32_t));
    if (e == cudaSuccess) e = cudaMalloc(&kin, 5 * chunk * sizeof(uint32_t));
    if (e == cudaSuccess) e = cudaMalloc(&cursor, (n_codes ? n_codes : 1) * 8);
    if (e == cudaSuccess) e = cudaMalloc(&tmp, temp ? temp : 1);
    if (e == cudaSuccess) {
        kout = kin + chunk, vin = kout + chunk, vout = vin + chunk, run = vout + chunk;
        e = cudaMemcpyAsync(cursor, g.first, n_codes * 8, cudaMemcpyHostToDevice, g.s);
    }
    for (uint64_t a = 0; e == cudaSuccess && a < g.n; a += chunk) {
        uint64_t len = g.n - a < chunk ? g.n - a : chunk;
        k_chunk_codes<<<blocks(len), 256, 0, g.s>>>(code, a, len, none, kin, vin);
        size_t t = temp;
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cub::DeviceRadixSort::SortPairs(tmp, t, kin, kout, vin, vout, (int64_t)len, 0, end_bit, g.s);
        if (e == cudaSuccess) {
            k_run_heads<<<blocks(len), 256, 0, g.s>>>(kout, len, run);
            e = cudaGetLastError();
        }
        t = temp;
        if (e == cudaSuccess) e = cub::DeviceScan::InclusiveScan(tmp, t, run, run, max_u32(), (int64_t)len, g.s);
        if (e == cudaSuccess) {
            k_place<<<blocks(len), 256, 0, g.s>>>(kout, vout, run, len, none, cursor, g.grouped);
            k_advance<<<blocks(len), 256, 0, g.s>>>(kout, run, len, none, cursor);
            e = cudaGetLastError();
        }
    }
    if (e == cudaSuccess) e = cudaStreamSynchronize(g.s);
    cudaFree(kin);
    cudaFree(cursor);
    cudaFree(tmp);
    if (e != cudaSuccess) {
        cudaFree(g.grouped);
        g.grouped = nullptr;
        if (e == cudaErrorMemoryAllocation) {
            cudaGetLastError();
            return 1;
        }
        GK(e);
    }
    return 0;
}

/* sigma^k, the plan's number of codes: 0, or -1 with a message when the plan's
 * alphabet is smaller than the text's (its codes would fall outside the counts) or
 * the codes are too many. */
int plan_codes(uint64_t sigma, int k, uint64_t *n_codes)
{
    if (sigma < (uint64_t)g.text_sigma || sigma < 1 || k < 1)
        return rv_error("GPU", "a plan of %llu symbols in %d is not of this text (%d symbols)",
                        (unsigned long long)sigma, k, g.text_sigma);
    uint64_t n = 1;
    for (int i = 0; i < k; i++) {
        if (n > (1ull << 32) / sigma) return rv_error("GPU", "too many codes in the plan");
        n *= sigma;
    }
    *n_codes = n;
    return 0;
}

/* The count of every code of k symbols (host, into g.first as first slots) and, when
 * the text has fewer than 2^32 symbols and the device has room, the grouped starts.
 * Once per (k, sigma). */
int bk_group(uint64_t sigma, int k, uint64_t n_codes)
{
    if (g.n_codes == n_codes && g.grouped_k == k && g.grouped_sigma == sigma) return 0;
    double t0 = rv_now();
    bk_group_free();
    code_of code = {g.text, g.n, sigma, k};
    unsigned long long *count = nullptr;
    uint64_t *h = (uint64_t *)malloc((n_codes + 1) * sizeof *h);
    if (!h) return rv_error("GPU", "out of memory");
    cudaError_t e = cudaMalloc(&count, (n_codes ? n_codes : 1) * 8);
    if (e != cudaSuccess) cudaGetLastError(); /* not left for the next launch to report */
    if (e == cudaSuccess) e = cudaMemsetAsync(count, 0, n_codes * 8, g.s);
    if (e == cudaSuccess && g.n) {
        k_count_codes<<<blocks(g.n), 256, 0, g.s>>>(code, count);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaMemcpyAsync(h, count, n_codes * 8, cudaMemcpyDeviceToHost, g.s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(g.s);
    cudaFree(count);
    if (e != cudaSuccess) {
        free(h);
        GK(e);
    }
    uint64_t total = 0; /* counts to first slots */
    for (uint64_t c = 0; c < n_codes; c++) {
        uint64_t x = h[c];
        h[c] = total;
        total += x;
    }
    h[n_codes] = total;
    g.first = h;
    g.n_codes = n_codes, g.grouped_k = k, g.grouped_sigma = sigma;
    double t1 = rv_now();
    int rc = g.group_on && g.n < UINT32_MAX && n_codes < UINT32_MAX ? bk_group_fill(code, n_codes, total) : 1;
    if (rc < 0) { /* keep the counts: the jobs select their starts instead */
        if (g.trace) fprintf(stderr, "gpu bucket codes: grouping failed (%s)\n", rv_last_error());
        cudaGetLastError();
    }
    if (g.grouped && g.codes) { /* the select path's codes are not needed now */
        cudaFree(g.codes);
        g.codes = nullptr;
        g.codes_k = 0;
    }
    if (g.trace)
        fprintf(stderr, "gpu bucket codes: %llu counted in %.3f s, %s in %.3f s\n", (unsigned long long)total, t1 - t0,
                g.grouped ? "grouped" : "not grouped (no room or too long)", rv_now() - t1);
    return 0;
}

int bk_job(uint64_t sigma, int k, uint64_t lo, uint64_t nc, const uint64_t *off, uint64_t m, uint64_t min_left,
           uint64_t *pos, uint64_t *lcp, uint64_t *depth, uint64_t **groups, uint64_t *n_groups)
{
    *groups = nullptr;
    *n_groups = 0;
    g.t0 = rv_now();
    code_of code = {g.text, g.n, sigma, k};
    uint64_t n_codes = 0;
    if (plan_codes(sigma, k, &n_codes) < 0 || bk_group(sigma, k, n_codes) < 0) return -1;
    /* the plan's counts against the device's: a plan of another text fails here */
    if (lo > n_codes || nc > n_codes - lo)
        return rv_error("GPU", "the job's codes [%llu, +%llu) are not among the plan's %llu", (unsigned long long)lo,
                        (unsigned long long)nc, (unsigned long long)n_codes);
    const uint64_t s0 = g.first[lo];
    if (g.first[lo + nc] - s0 != m)
        return rv_error("GPU", "the job has %llu suffixes, the plan says %llu",
                        (unsigned long long)(g.first[lo + nc] - s0), (unsigned long long)m);
    for (uint64_t c = 0; c <= nc; c++)
        if (off[c] != g.first[lo + c] - s0) return rv_error("GPU", "the plan's counts are not the text's");
    if (bk_reserve(m) < 0) {
        if (!g.grouped) return -1;
        /* no room for this job beside the grouped starts: drop them and select */
        cudaGetLastError();
        cudaFree(g.grouped);
        g.grouped = nullptr;
        if (bk_reserve(m) < 0) return -1;
    }
    size_t need = 0;
    if (g.grouped) { /* the job's starts are one slice of the grouped ones */
        if (m) {
            k_widen<<<blocks(m), 256, 0, g.s>>>(g.grouped + s0, m, g.pos0, g.slot0);
            GK_LAUNCH();
        }
        if (!m) return 0;
        return bk_rounds(k, nc, off, m, min_left, pos, lcp, depth, groups, n_groups, rv_now());
    }
    /* the job's starts in text order, then grouped by code (stable) */
    if (g.codes && (g.codes_k != k || g.codes_sigma != sigma)) {
        cudaFree(g.codes);
        g.codes = nullptr;
    }
    if (!g.codes && g.codes_k >= 0 && g.n) { /* every job would read k symbols per start: once */
        if (cudaMalloc(&g.codes, g.n * sizeof(uint32_t)) == cudaSuccess) {
            k_all_codes<<<blocks(g.n), 256, 0, g.s>>>(code, g.codes);
            cudaError_t e = cudaGetLastError();
            if (e != cudaSuccess) { /* no cache rather than a stale one */
                cudaFree(g.codes);
                g.codes = nullptr;
                GK(e);
            }
            g.codes_k = k, g.codes_sigma = sigma;
        } else {
            cudaGetLastError();
            g.codes = nullptr;
            g.codes_k = -1; /* no room: never again */
        }
    }
    in_job pred = {code, g.codes, lo, lo + nc};
    thrust::counting_iterator<uint64_t> all(0);
    /* the selection writes what it finds: m starts, as the device's own counts
     * (g.first, the same codes) said above, which the buffers hold */
    need = 0;
    GK(cub::DeviceSelect::If(nullptr, need, all, g.pos1, g.count, (int64_t)g.n, pred, g.s));
    if (bk_temp(need) < 0) return -1;
    need = g.temp_bytes;
    GK(cub::DeviceSelect::If(g.temp, need, all, g.pos1, g.count, (int64_t)g.n, pred, g.s));
    int64_t got = 0;
    if (bk_count(&got) < 0) return -1;
    const double t_sel = rv_now();
    if ((uint64_t)got != m) return rv_error("GPU", "the job has %lld suffixes, the plan says %llu", (long long)got,
                                            (unsigned long long)m);
    if (!m) return 0;
    k_codes<<<blocks(m), 256, 0, g.s>>>(code, lo, g.pos1, m, g.key1, g.slot0);
    GK_LAUNCH();
    int end_bit = 1;
    while (end_bit < 64 && (1ull << end_bit) < nc) end_bit++;
    need = 0;
    GK(cub::DeviceRadixSort::SortPairs(nullptr, need, g.key1, g.key0, g.pos1, g.pos0, (int64_t)m, 0, end_bit, g.s));
    if (bk_temp(need) < 0) return -1;
    need = g.temp_bytes;
    GK(cub::DeviceRadixSort::SortPairs(g.temp, need, g.key1, g.key0, g.pos1, g.pos0, (int64_t)m, 0, end_bit, g.s));
    return bk_rounds(k, nc, off, m, min_left, pos, lcp, depth, groups, n_groups, t_sel);
}

/* The job's starts in g.pos0, grouped by code: the rounds, the download, the groups
 * left to the CPU. */
int bk_rounds(int k, uint64_t nc, const uint64_t *off, uint64_t m, uint64_t min_left, uint64_t *pos,
              uint64_t *lcp, uint64_t *depth, uint64_t **groups, uint64_t *n_groups, double t_sel)
{
    size_t need = 0;
    /* the buckets are the first groups */
    int64_t *hb = (int64_t *)malloc((nc + 1) * sizeof *hb);
    if (!hb) return rv_error("GPU", "out of memory");
    uint64_t S = 0;
    for (uint64_t c = 0; c < nc; c++)
        if (off[c + 1] > off[c]) hb[S++] = (int64_t)off[c];
    hb[S] = (int64_t)m;
    cudaError_t e = cudaMemcpyAsync(g.beg, hb, (S + 1) * sizeof *hb, cudaMemcpyHostToDevice, g.s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(g.s);
    free(hb);
    GK(e);
    const double t_radix = rv_now();
    uint64_t A = m, d = (uint64_t)k;
    int round = 0;
    for (; A > 0; round++) {
        if (round > 0 && A < min_left) break; /* the CPU finishes these */
        k_keys<<<blocks(A), 256, 0, g.s>>>(g.text, g.n, g.pos0, A, d, g.bits, g.spk, g.key0);
        GK_LAUNCH();
        need = 0;
        GK(cub::DeviceSegmentedSort::StableSortPairs(nullptr, need, g.key0, g.key1, g.pos0, g.pos1, (int64_t)A,
                                                      (int64_t)S, g.beg, g.beg + 1, g.s));
        if (bk_temp(need) < 0) return -1;
        need = g.temp_bytes;
        GK(cub::DeviceSegmentedSort::StableSortPairs(g.temp, need, g.key0, g.key1, g.pos0, g.pos1, (int64_t)A,
                                                      (int64_t)S, g.beg, g.beg + 1, g.s));
        GK(cudaMemsetAsync(g.head, 0, A, g.s));
        k_heads<<<blocks(S), 256, 0, g.s>>>(g.beg, S, g.head);
        GK_LAUNCH();
        k_split<<<blocks(A), 256, 0, g.s>>>(g.key1, g.pos1, g.slot0, g.head, A, d, g.bits, g.spk, g.outpos,
                                            g.outlcp, g.act, g.nhead);
        GK_LAUNCH();
        int64_t A2 = 0, S2 = 0;
        if (bk_select(g.pos1, g.pos0, g.act, (int64_t)A, &A2) < 0 ||
            bk_select(g.slot0, g.slot1, g.act, (int64_t)A, nullptr) < 0 ||
            bk_select(g.nhead, g.head, g.act, (int64_t)A, nullptr) < 0)
            return -1;
        std::swap(g.slot0, g.slot1);
        if (A2 > 0 && bk_select(thrust::counting_iterator<int64_t>(0), g.beg, g.head, A2, &S2) < 0) return -1;
        k_set<<<1, 1, 0, g.s>>>(g.beg + S2, A2);
        GK_LAUNCH();
        A = (uint64_t)A2, S = (uint64_t)S2;
        d += (uint64_t)g.spk;
    }
    GK(cudaStreamSynchronize(g.s));
    const double t_rounds = rv_now();
    bk_download *dl = g.dl;
    dl->narrow = g.n < UINT32_MAX;
    if (dl->pin && dl->narrow) { /* half the bytes: 32-bit positions and LCPs, widened by the host */
        uint32_t *narrow = (uint32_t *)g.key0; /* free after the rounds: 2 cap words */
        k_narrow<<<blocks(m), 256, 0, g.s>>>(g.outpos, g.outlcp, m, narrow);
        GK_LAUNCH();
        GK(cudaMemcpyAsync(dl->pin, narrow, 2 * m * sizeof *narrow, cudaMemcpyDeviceToHost, g.s));
        dl->staged = 1;
    } else if (dl->pin) { /* through page-locked memory, copied by the host */
        GK(cudaMemcpyAsync(dl->pin, g.outpos, m * sizeof *pos, cudaMemcpyDeviceToHost, g.s));
        GK(cudaMemcpyAsync((uint64_t *)dl->pin + m, g.outlcp, m * sizeof *lcp, cudaMemcpyDeviceToHost, g.s));
        dl->staged = 1;
    } else {
        GK(cudaMemcpyAsync(pos, g.outpos, m * sizeof *pos, cudaMemcpyDeviceToHost, g.s));
        GK(cudaMemcpyAsync(lcp, g.outlcp, m * sizeof *lcp, cudaMemcpyDeviceToHost, g.s));
    }
    GK(cudaStreamSynchronize(g.s));
    dl->t_copy = rv_now() - t_rounds;
    if (g.trace)
        snprintf(dl->line, sizeof dl->line, "gpu bucket job: %llu suffixes, %d rounds, %llu left to the CPU at depth %llu; "
                 "select %.3f radix %.3f rounds %.3f download %.3f",
                 (unsigned long long)m, round, (unsigned long long)A, (unsigned long long)d, t_sel - g.t0,
                 t_radix - t_sel, t_rounds - t_radix, dl->t_copy);
    *depth = d;
    if (A == 0) return 0;
    /* the groups left: [first slot, count) pairs */
    uint64_t *slot = (uint64_t *)malloc(A * sizeof *slot);
    int64_t *b = (int64_t *)malloc((S + 1) * sizeof *b);
    uint64_t *out = (uint64_t *)malloc(2 * S * sizeof *out);
    if (!slot || !b || !out) {
        free(slot), free(b), free(out);
        return rv_error("GPU", "out of memory");
    }
    e = cudaMemcpy(slot, g.slot0, A * sizeof *slot, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) e = cudaMemcpy(b, g.beg, (S + 1) * sizeof *b, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        free(slot), free(b), free(out);
        GK(e);
    }
    for (uint64_t s = 0; s < S; s++) {
        out[2 * s] = slot[b[s]];
        out[2 * s + 1] = (uint64_t)(b[s + 1] - b[s]);
    }
    free(slot), free(b);
    *groups = out;
    *n_groups = S;
    return 0;
}

} // namespace

extern "C" int rv_gpu_bk_devices(void)
{
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

extern "C" int rv_gpu_bk_open(const uint8_t *text, uint64_t n, int sigma, int dev)
{
    std::lock_guard<std::mutex> lock(g_mu);
    g.dev = -1; /* set again once the text is there */
    g.n = 0;
    const char *tr = getenv("REPVIEW_GPU_TRACE");
    double t0 = rv_now(), t1;
    GK(cudaSetDevice(dev));
    GK(cudaFree(nullptr)); /* the context, timed apart from the upload */
    t1 = rv_now();
    if (g.s == nullptr) GK(cudaStreamCreateWithFlags(&g.s, cudaStreamNonBlocking));
    if (g.count == nullptr) GK(cudaMalloc(&g.count, sizeof *g.count));
    bk_group_free(); /* made again for this text */
    cudaFree(g.text);
    cudaFree(g.codes);
    g.text = nullptr;
    g.codes = nullptr;
    g.codes_k = 0;
    GK(cudaMalloc(&g.text, n + TEXT_PAD));
    GK(cudaMemsetAsync(g.text + n, 0, TEXT_PAD, g.s));
    if (upload_staged(g.text, text, n, g.s) < 0) { /* the device's memory back for what runs instead */
        cudaFree(g.text);
        g.text = nullptr;
        return -1;
    }
    g.dev = dev;
    g.n = n;
    g.text_sigma = sigma;
    g.t_open = rv_now();
    if (tr && *tr && *tr != '0')
        fprintf(stderr, "gpu bucket text: device %d ready in %.3f s, %.2f GB up in %.3f s\n", dev, t1 - t0, n / 1e9,
                g.t_open - t1);
    const char *ge = getenv("REPVIEW_GPU_GROUP"), *gc = getenv("REPVIEW_GPU_GROUP_CHUNK");
    g.group_on = !(ge && strcmp(ge, "0") == 0);
    g.group_chunk = gc && *gc && strtoull(gc, NULL, 10) > 0 ? strtoull(gc, NULL, 10) : 1ull << 27;
    g.trace = tr && *tr && *tr != '0';
    g.bits = 1;
    while ((1 << g.bits) <= sigma) g.bits++;
    g.spk = 64 / g.bits;
    return 0;
}

extern "C" void rv_gpu_bk_close(void)
{
    std::lock_guard<std::mutex> lock(g_mu);
    if (g.dev < 0) return;
    cudaSetDevice(g.dev);
    bk_free_arrays();
    bk_group_free();
    cudaFree(g.text);
    cudaFree(g.codes);
    cudaFree(g.count);
    if (g.s) cudaStreamDestroy(g.s);
    g = bk_state();
    pin_free_all();
}

extern "C" int rv_gpu_bk_count(uint64_t sigma, int k, uint64_t n_codes, uint64_t *count)
{
    std::lock_guard<std::mutex> lock(g_mu);
    if (g.dev < 0) return rv_error("GPU", "no text on the device");
    GK(cudaSetDevice(g.dev));
    uint64_t want = 0;
    if (plan_codes(sigma, k, &want) < 0) return -1;
    if (want != n_codes) return rv_error("GPU", "%llu codes asked for, sigma^k is %llu", (unsigned long long)n_codes,
                                         (unsigned long long)want);
    if (bk_group(sigma, k, n_codes) < 0) return -1;
    for (uint64_t c = 0; c < n_codes; c++) count[c] = g.first[c + 1] - g.first[c];
    return 0;
}

extern "C" int rv_gpu_bk_job(uint64_t sigma, int k, uint64_t lo, uint64_t nc, const uint64_t *off, uint64_t m,
                             uint64_t min_left, uint64_t *pos, uint64_t *lcp, uint64_t *depth, uint64_t **groups,
                             uint64_t *n_groups)
{
    double t = rv_now();
    bk_download dl;
    { /* the staging slots are page-locked in this device's context, not device 0's */
        std::lock_guard<std::mutex> lock(g_mu);
        if (g.dev >= 0 && cudaSetDevice(g.dev) != cudaSuccess) cudaGetLastError();
    }
    /* g.n is set by the text's upload, before any job */
    const size_t need = 2 * m * (g.n < UINT32_MAX ? sizeof(uint32_t) : sizeof(uint64_t));
    int slot = pin_take(need);
    dl.pin = pins[slot].bytes >= need ? pins[slot].p : nullptr;
    int rc;
    double t_open = 0, t_wait = 0;
    {
        std::lock_guard<std::mutex> lock(g_mu); /* one job at a time on the device */
        t_wait = g.t_wait = rv_now() - t;
        if (g.dev < 0) {
            rc = rv_error("GPU", "no text on the device");
        } else if (cudaSetDevice(g.dev) != cudaSuccess) {
            cudaGetLastError();
            rc = rv_error("GPU", "cannot select the device");
        } else {
            g.dl = &dl;
            rc = bk_job(sigma, k, lo, nc, off, m, min_left, pos, lcp, depth, groups, n_groups);
            g.dl = nullptr;
            if (rc < 0) { /* no copy still writing the staging once it is given back */
                cudaStreamSynchronize(g.s);
                cudaGetLastError();
            }
            t_open = g.t0 - g.t_open;
        }
    }
    /* the device is free for the next job: the host's part of the download */
    double t_host = rv_now();
    if (rc == 0 && dl.staged) {
        if (dl.narrow) {
            widen_parallel(pos, lcp, (const uint32_t *)dl.pin, m);
        } else {
            copy_parallel(pos, dl.pin, m * sizeof *pos);
            copy_parallel(lcp, (const uint64_t *)dl.pin + m, m * sizeof *lcp);
        }
    }
    pin_give(slot);
    if (rc == 0 && dl.line[0])
        fprintf(stderr, "%s (host %.3f) s; at %.3f, waited %.3f s\n", dl.line, rv_now() - t_host, t_open, t_wait);
    return rc;
}
