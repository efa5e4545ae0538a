/* t_buckets.c — prefix buckets (buckets.h) and pairs from the text alone
 * (pairs.h, "from the text alone") against oracles that never look at the code
 * under test:
 *   - the plan (counts per code by brute force, jobs cover every non-empty code
 *     once, in code order, no job above the job size unless it is one bucket),
 *     largest-first order, and each job's suffixes and LCPs: every position with k
 *     breaker-free symbols exactly once, consecutive suffixes in order (compared up
 *     to the first breaker; ties by position), LCPs by direct scan;
 *   - rv_pairs_buckets_each_batch / _count over slices 0..N-1 of N against
 *     rv_pairs_each_batch on an index of the same sequence, one strand and both,
 *     with filters, thread counts, mem budgets and spilling;
 *   - part files: all slices merged == the index's output; missing, duplicate,
 *     foreign, truncated and garbage parts are refused with a message. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include "check.h"
#include "repview/buckets.h"
#include "repview/build.h"
#include "repview/common.h"
#include "repview/gpu.h"
#include "repview/pairs.h"
#include "repview/seq.h"
#include "pairs_list.h"

/* ---- random inputs -------------------------------------------------------------- */

static const char *const kinds[] = {"dnaA", "dnaAC", "dnaACGTN", "periodic", "same", "protein", "text"};
enum { N_KINDS = 7, MAX_REC = 3 };

static void random_record(rng_t *r, int kind, char *buf, size_t len)
{
    static const char prot[] = "ACDEFGHIKLMNPQRSTVWYX*";
    size_t period = 1 + rng_below(r, 5);
    for (size_t i = 0; i < len; i++) {
        switch (kind) {
        case 0: buf[i] = rng_below(r, 12) == 0 ? 'N' : 'A'; break;
        case 1: buf[i] = rng_below(r, 10) == 0 ? 'N' : "ACac"[rng_below(r, 4)]; break;
        case 2: buf[i] = rng_below(r, 8) == 0 ? 'N' : "ACGTacgt"[rng_below(r, 8)]; break;
        case 3: buf[i] = i < period ? "ACGT"[rng_below(r, 4)] : buf[i - period];
                if (rng_below(r, 25) == 0) buf[i] = rng_below(r, 2) ? 'N' : 'G';
                break;
        case 4: buf[i] = 'A'; break;
        case 5: buf[i] = prot[rng_below(r, 10)]; break; /* small alphabet, X and * break */
        default: buf[i] = "ab \n"[rng_below(r, 3)]; break;
        }
    }
    buf[len] = 0;
}

static const rv_alpha_t kind_alpha[N_KINDS] = {RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_DNA, RV_ALPHA_DNA,
                                               RV_ALPHA_DNA, RV_ALPHA_PROTEIN, RV_ALPHA_TEXT};

typedef struct {
    int nrec, kind;
    char *rec[MAX_REC];
} input_t;

static void input_random(rng_t *r, int kind, size_t max_len, input_t *in)
{
    in->kind = kind;
    in->nrec = 1 + (int)rng_below(r, MAX_REC);
    for (int i = 0; i < in->nrec; i++) {
        size_t len = 1 + rng_below(r, max_len);
        in->rec[i] = malloc(len + 1);
        random_record(r, kind, in->rec[i], len);
    }
}

static void input_free(input_t *in)
{
    for (int i = 0; i < in->nrec; i++) free(in->rec[i]);
}

/* The sequence of in; both strands (rv_seq_add_reverse) when strands == 2. */
static rv_seq_t *seq_of(const input_t *in, int strands)
{
    static const char *const names[MAX_REC] = {"r1", "r2", "r3"};
    const char *seqs[MAX_REC];
    for (int i = 0; i < in->nrec; i++) seqs[i] = in->rec[i];
    rv_seq_t *s = rv_seq_from_records(names, seqs, in->nrec, kind_alpha[in->kind]);
    if (s && strands == 2 && rv_seq_add_reverse(s, 1) < 0) {
        rv_seq_free(s);
        return NULL;
    }
    return s;
}

/* An index of in (both strands when strands == 2: the builder doubles the text). */
static rv_index_t *index_of(const input_t *in, int strands, int threads)
{
    rv_seq_t *s = seq_of(in, 1);
    if (!s) return NULL;
    rv_build_opts_t o;
    rv_build_opts_init(&o);
    o.threads = threads;
    o.strands = strands;
    return rv_build(s, &o, NULL);
}

static void describe(const input_t *in, char *buf, size_t len)
{
    size_t k = 0;
    for (int r = 0; r < in->nrec && k + 2 < len; r++)
        k += (size_t)snprintf(buf + k, len - k, "%s%.60s", r ? "|" : "", in->rec[r]);
    for (size_t i = 0; i < k && i < len; i++)
        if (buf[i] == '\n') buf[i] = '~';
}

/* ---- suffix oracle -------------------------------------------------------------- */

static inline int sym(const rv_seq_t *s, uint64_t i) { return i < s->n ? s->text[i] : RV_BREAK; }

/* <0, 0 (equal up to a breaker or the end on both), >0 */
static int suffix_cmp(const rv_seq_t *s, uint64_t a, uint64_t b)
{
    for (uint64_t d = 0;; d++) {
        int x = sym(s, a + d), y = sym(s, b + d);
        if (x != y) return x < y ? -1 : 1;
        if (x == RV_BREAK) return 0;
    }
}

static uint64_t lcp_brute(const rv_seq_t *s, uint64_t a, uint64_t b)
{
    uint64_t h = 0;
    while (sym(s, a + h) == sym(s, b + h) && sym(s, a + h) != RV_BREAK) h++;
    return h;
}

/* Code of the k symbols at i (base sigma, first most significant), or UINT64_MAX
 * when a breaker or the end comes first. */
static uint64_t code_at(const rv_seq_t *s, uint64_t i, int k, uint64_t sigma)
{
    uint64_t c = 0;
    for (int j = 0; j < k; j++) {
        int x = sym(s, i + (uint64_t)j);
        if (x == RV_BREAK) return UINT64_MAX;
        c = c * sigma + (uint64_t)(x - 1);
    }
    return c;
}

/* The GPU's bucket sort (gpu.h) under the same oracles: 0 off, 1 every round on
 * the device (REPVIEW_GPU_BUCKET_LEFT=1), 2 the default hand-over to the CPU. */
static int gpu_mode;
/* which way the device finds a job's starts (REPVIEW_GPU_GROUP*), for the names */
static const char *gpu_variant = "";
/* the parts merged in chunks of 97 pairs, their runs with checkpoints every 3
 * (REPVIEW_MERGE_CHUNK): "_chunks", for the names */
static const char *merge_variant = "";
static int map_wide_seen; /* maps of two bytes a position checked */
/* 1: the plan's own job map; 2: a map filled in three slices, as the ranks of a
 * host do; 3 and 4: the same with job lists */
static int map_mode;
static const char *const map_names[5] = {"", "_map", "_map_slices", "_lists", "_lists_slices"};

/* The buckets' split (rv_bucket_plan_split) up to this many symbols (0: none). */
static uint64_t split_len;

/* The sub-code of the depth symbols at q: base sigma + 1, a breaker or the end and
 * every place after it 0. */
static uint64_t sub_brute(const rv_seq_t *s, uint64_t q, uint64_t depth, uint64_t sigma)
{
    uint64_t c = 0;
    int ended = 0;
    for (uint64_t d = 0; d < depth; d++) {
        int x = ended ? RV_BREAK : sym(s, q + d);
        ended = x == RV_BREAK;
        c = c * (sigma + 1) + (uint64_t)x;
    }
    return c;
}

/* Does job jb hold the suffix at i (its code in the job's, and, for a part of a
 * split bucket, its sub-code in the part's)? */
static int job_holds(const rv_seq_t *s, const rv_bucket_plan_t *p, const rv_bucket_job_t *jb, uint64_t i)
{
    uint64_t c = code_at(s, i, p->k, p->sigma);
    if (c == UINT64_MAX || c < jb->code_lo || c >= jb->code_hi) return 0;
    if (!jb->sub_hi) return 1;
    uint64_t sub = sub_brute(s, i + (uint64_t)p->k, jb->sub_depth, p->sigma);
    return sub >= jb->sub_lo && sub < jb->sub_hi;
}

/* The job holding the suffix at i, or RV_BUCKET_NO_JOB, by brute force. */
static uint64_t job_at(const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t i)
{
    uint64_t want = RV_BUCKET_NO_JOB;
    for (uint64_t j = 0; j < p->n_jobs; j++)
        if (job_holds(s, p, &p->jobs[j], i)) want = j;
    return want;
}

/* buckets_split.c's bound on the split's counters: two a suffix of a job (these
 * plans split with above = 0: every bucket past job_cap), within [2^16, 2^23] */
static uint64_t split_counters_most(const rv_bucket_plan_t *p)
{
    const uint64_t most = 2 * p->job_cap;
    return most < (1u << 16) ? 1u << 16 : most > (1u << 23) ? 1u << 23 : most;
}

/* The most suffixes of code c that share the next d symbols (one group of a split
 * at depth d), by brute force. */
static uint64_t largest_group(const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t c, uint64_t d)
{
    uint64_t w = 1, most = 0;
    for (uint64_t i = 0; i < d; i++) w *= p->sigma + 1;
    uint64_t *n = calloc(w, sizeof *n);
    for (uint64_t i = 0; n && i < s->n; i++)
        if (code_at(s, i, p->k, p->sigma) == c) {
            uint64_t g = ++n[sub_brute(s, i + (uint64_t)p->k, d, p->sigma)];
            if (g > most) most = g;
        }
    free(n);
    return most;
}

/* Job lists against brute force: each block's row of the table rises from 0 to
 * the block's starts, and each job's group in it holds exactly the positions of
 * the block whose code is the job's, in text order. */
static int check_lists_content(const rv_seq_t *s, const rv_bucket_plan_t *p, const char *what)
{
    const uint64_t B = RV_BUCKET_BLOCK, nb = (s->n + B - 1) / B, row = p->n_jobs + 1;
    const uint16_t *st = p->lists;
    const uint32_t *tab = (const uint32_t *)((const uint8_t *)p->lists + ((2 * s->n + 7) & ~7ull));
    CHECK(rv_bucket_lists_bytes(p, s->n) == ((2 * s->n + 7) & ~7ull) + nb * row * 4, "%s: lists bytes %llu", what,
          (unsigned long long)rv_bucket_lists_bytes(p, s->n));
    uint64_t *next = malloc(row * sizeof *next);
    for (uint64_t b = 0; b < nb && next && !check_failed_; b++) {
        const uint64_t a = b * B, e = a + B < s->n ? a + B : s->n;
        const uint32_t *t = tab + b * row;
        CHECK(t[0] == 0, "%s: block %llu starts at %u", what, (unsigned long long)b, t[0]);
        for (uint64_t j = 0; j < p->n_jobs; j++) {
            CHECK(t[j] <= t[j + 1], "%s: block %llu job %llu: %u > %u", what, (unsigned long long)b,
                  (unsigned long long)j, t[j], t[j + 1]);
            next[j] = t[j];
        }
        for (uint64_t i = a; i < e && !check_failed_; i++) {
            uint64_t j = job_at(s, p, i);
            if (j == RV_BUCKET_NO_JOB) continue;
            CHECK(next[j] < t[j + 1] && a + st[a + next[j]] == i, "%s: block %llu job %llu: want %llu next", what,
                  (unsigned long long)b, (unsigned long long)j, (unsigned long long)i);
            next[j]++;
        }
        for (uint64_t j = 0; j < p->n_jobs && !check_failed_; j++)
            CHECK(next[j] == t[j + 1], "%s: block %llu job %llu: %llu starts listed, %llu found", what,
                  (unsigned long long)b, (unsigned long long)j, (unsigned long long)(t[j + 1] - t[j]),
                  (unsigned long long)(next[j] - t[j]));
    }
    free(next);
    return !check_failed_;
}

/* Lists for plan p filled in three uneven slices of whole blocks (as the ranks of
 * a host fill them), after a slice not on a block is refused; malloc()ed. */
static void *lists_in_slices(const rv_seq_t *s, const rv_bucket_plan_t *p, int threads, const char *what)
{
    const uint64_t B = RV_BUCKET_BLOCK, nb = (s->n + B - 1) / B, bytes = rv_bucket_lists_bytes(p, s->n);
    void *l = bytes ? malloc(bytes) : NULL;
    CHECK(l, "%s: no lists for %llu jobs", what, (unsigned long long)p->n_jobs);
    if (!l) return NULL;
    memset(l, 0xa5, bytes); /* nothing left from before */
    uint64_t cut1 = nb / 3 * B, cut2 = (nb - nb / 5) * B;
    CHECK(s->n <= 1 || rv_bucket_lists_fill(s, p, l, 1, s->n, 1) < 0, "%s: a fill from 1 accepted", what);
    CHECK(s->n <= B + 1 || rv_bucket_lists_fill(s, p, l, 0, B + 1, 1) < 0, "%s: a fill to B + 1 accepted", what);
    CHECK(rv_bucket_lists_fill(s, p, l, 0, cut1, threads) == 0 && rv_bucket_lists_fill(s, p, l, cut2, s->n + 7, 1) == 0 &&
          rv_bucket_lists_fill(s, p, l, cut1, cut2, threads) == 0, "%s: lists_fill: %s", what, rv_last_error());
    return l;
}

static int gpu_begin(const rv_seq_t *s, const char *what)
{
    if (!gpu_mode) return 1;
    setenv("REPVIEW_GPU_BUCKET_LEFT", gpu_mode == 1 ? "1" : "", 1);
    int rc = rv_bucket_gpu_begin(s, 0);
    CHECK(rc == 0 && rv_bucket_gpu_on(), "%s: GPU: %s", what, rv_last_error());
    return rc == 0;
}

/* Give plan p a job map (map_mode) and check every position of it against brute
 * force: the job holding the code of the k symbols there, or none.  A map filled
 * in slices is returned in *slices (the caller frees it). */
static int check_map(const rv_seq_t *s, rv_bucket_plan_t *p, int threads, void **slices, const char *what)
{
    int width = rv_bucket_map_width(p);
    CHECK(width == (p->n_jobs < 255 ? 1 : p->n_jobs < 65535 ? 2 : 0), "%s: map width %d for %llu jobs", what, width,
          (unsigned long long)p->n_jobs);
    /* lists can be made from 2 to RV_BUCKET_LIST_JOBS jobs, and are preferred from
     * RV_BUCKET_LIST_MIN_JOBS */
    const int can_list = p->n_jobs >= 2 && p->n_jobs <= RV_BUCKET_LIST_JOBS;
    const int listed = can_list && p->n_jobs >= RV_BUCKET_LIST_MIN_JOBS;
    CHECK((rv_bucket_lists_bytes(p, s->n) != 0) == can_list && rv_bucket_prefer_lists(p, s->n, UINT64_MAX) == listed &&
          !rv_bucket_prefer_lists(p, s->n, rv_bucket_lists_bytes(p, s->n) - 1), "%s: lists for %llu jobs", what,
          (unsigned long long)p->n_jobs);
    if (map_mode == 3) { /* lists where they are preferred, else a map */
        CHECK(rv_bucket_plan_make_map(p, s, UINT64_MAX, threads) == 0, "%s: make_map: %s", what, rv_last_error());
        CHECK((p->lists != NULL) == listed && (p->map != NULL) == (p->n_jobs >= 2 && !listed),
              "%s: %llu jobs, %s lists, %s map", what, (unsigned long long)p->n_jobs, p->lists ? "" : "no",
              p->map ? "a" : "no");
        if (check_failed_ || (p->lists && !check_lists_content(s, p, what))) return 0;
    } else if (map_mode == 4) {
        if (can_list && (*slices = lists_in_slices(s, p, threads, what)) && !check_failed_) {
            rv_bucket_plan_use_lists(p, *slices);
            CHECK(p->lists && !p->map, "%s: use_lists kept a map", what);
            return !check_failed_ && check_lists_content(s, p, what);
        }
        return !check_failed_;
    } else if (map_mode == 1) { /* room for the map only: not for the lists */
        CHECK(rv_bucket_plan_make_map(p, s, s->n * (uint64_t)width, threads) == 0, "%s: make_map: %s", what,
              rv_last_error());
        CHECK((p->map != NULL) == (p->n_jobs >= 2) && !p->lists, "%s: %llu jobs and %s map", what,
              (unsigned long long)p->n_jobs, p->map ? "a" : "no");
    } else if (width) {
        *slices = malloc((s->n ? s->n : 1) * (uint64_t)width);
        uint64_t cut1 = s->n / 3, cut2 = s->n - s->n / 5; /* uneven, as ranks of different threads take */
        CHECK(*slices && rv_bucket_map_fill(s, p, *slices, 0, cut1, threads) == 0 &&
              rv_bucket_map_fill(s, p, *slices, cut2, s->n + 7, 1) == 0 &&
              rv_bucket_map_fill(s, p, *slices, cut1, cut2, threads) == 0, "%s: map_fill: %s", what, rv_last_error());
        if (!check_failed_) rv_bucket_plan_use_map(p, *slices);
    }
    if (check_failed_ || !p->map) return !check_failed_;
    map_wide_seen += p->map_width == 2;
    for (uint64_t i = 0; i < s->n && !check_failed_; i++) {
        uint64_t want = job_at(s, p, i);
        uint64_t got = p->map_width == 1 ? ((const uint8_t *)p->map)[i] : ((const uint16_t *)p->map)[i];
        if (p->map_width == 1 && got == 0xff) got = RV_BUCKET_NO_JOB;
        CHECK(got == want, "%s: map[%llu] = %llu, want %llu", what, (unsigned long long)i, (unsigned long long)got,
              (unsigned long long)want);
    }
    return !check_failed_;
}

static int split_seen; /* plans that split a bucket */

/* The parts of the split bucket whose first job is j0 against brute force: they
 * follow the codes before (empty) and each other, their sub-codes cover
 * [0, (sigma + 1)^depth) in order, each holds its suffixes, none is above the size
 * js unless it is one group that the longest split allowed leaves above it (p.over),
 * and the depth is the least that fits (one symbol less leaves a group above js).
 * Returns the bucket's last job. */
static uint64_t check_parts(const rv_seq_t *s, const rv_bucket_plan_t *p, uint64_t j0, uint64_t js,
                            const uint64_t *want, uint64_t next_code, const char *what)
{
    const rv_bucket_job_t *f = &p->jobs[j0];
    const uint64_t c = f->code_lo, depth = f->sub_depth;
    uint64_t w = 1, j = j0, sub_lo = 0, sum = 0;
    for (uint64_t i = 0; i < depth; i++) w *= p->sigma + 1;
    CHECK(c >= next_code && f->code_hi == c + 1 && want[c] > js && depth >= 1 && (uint64_t)p->k + depth <= split_len &&
          w <= RV_BUCKET_SPLIT_CODES, "%s: job %llu: a part of code %llu (%llu suffixes, depth %llu) after %llu", what,
          (unsigned long long)j0, (unsigned long long)c, (unsigned long long)want[c], (unsigned long long)depth,
          (unsigned long long)next_code);
    for (uint64_t x = next_code; x < c && !check_failed_; x++)
        CHECK(want[x] == 0, "%s: code %llu (%llu suffixes) in no job", what, (unsigned long long)x,
              (unsigned long long)want[x]);
    CHECK(depth < 2 || largest_group(s, p, c, depth - 1) > js, "%s: code %llu split by %llu symbols: fewer fit", what,
          (unsigned long long)c, (unsigned long long)depth);
    for (; !check_failed_; j++) {
        const rv_bucket_job_t *jb = &p->jobs[j];
        uint64_t m = 0, gmin = UINT64_MAX, gmax = 0;
        CHECK(jb->code_lo == c && jb->code_hi == c + 1 && jb->sub_depth == depth && jb->sub_lo == sub_lo &&
              jb->sub_hi > sub_lo && jb->sub_hi <= w, "%s: job %llu: part [%u, %u) of depth %u, want from %llu",
              what, (unsigned long long)j, jb->sub_lo, jb->sub_hi, jb->sub_depth, (unsigned long long)sub_lo);
        for (uint64_t i = 0; i < s->n && !check_failed_; i++)
            if (job_holds(s, p, jb, i)) {
                uint64_t g = sub_brute(s, i + (uint64_t)p->k, depth, p->sigma);
                m++;
                if (g < gmin) gmin = g;
                if (g > gmax) gmax = g;
            }
        CHECK(jb->suffixes == m && m > 0, "%s: job %llu holds %llu suffixes, planned %llu", what,
              (unsigned long long)j, (unsigned long long)m, (unsigned long long)jb->suffixes);
        CHECK(m <= js || (gmin == gmax && p->over >= m &&
                          ((uint64_t)p->k + depth == split_len || w * (p->sigma + 1) > RV_BUCKET_SPLIT_CODES ||
                           p->n_split * w * (p->sigma + 1) > split_counters_most(p))),
              "%s: job %llu: a part of %llu suffixes over the size %llu (over %llu)", what, (unsigned long long)j,
              (unsigned long long)m, (unsigned long long)js, (unsigned long long)p->over);
        sum += m, sub_lo = jb->sub_hi;
        if (j + 1 == p->n_jobs || p->jobs[j + 1].code_lo != c) break;
    }
    CHECK(sub_lo == w && sum == want[c], "%s: code %llu: parts to %llu of %llu, %llu of %llu suffixes", what,
          (unsigned long long)c, (unsigned long long)sub_lo, (unsigned long long)w, (unsigned long long)sum,
          (unsigned long long)want[c]);
    return j;
}

/* Check the plan of s for min_len and job size js against brute force, then every
 * job's sort.  Returns 1 when everything held (the first failure is recorded). */
static int check_plan_and_sort_on(const rv_seq_t *s, uint64_t min_len, uint64_t js, int threads, const char *what)
{
    rv_bucket_plan_t p;
    int rc = rv_bucket_plan(s, min_len, js, threads, &p);
    CHECK(rc == 0, "%s: plan: %s", what, rv_last_error());
    if (rc) return 0;
    if (split_len) {
        rc = rv_bucket_plan_split(s, &p, split_len, 0, threads);
        CHECK(rc == 0, "%s: split: %s", what, rv_last_error());
        if (rc) { rv_bucket_plan_free(&p); return 0; }
        split_seen += p.n_split > 0;
    }
    uint64_t sigma = (uint64_t)(s->sigma > 0 ? s->sigma : 1), pw = 1;
    for (int i = 0; i < p.k; i++) pw *= sigma;
    CHECK(p.k >= 1 && (uint64_t)p.k <= min_len && p.sigma == sigma && p.n_codes == pw && pw <= (1ull << 24),
          "%s: k %d sigma %llu n_codes %llu (min_len %llu)", what, p.k, (unsigned long long)p.sigma,
          (unsigned long long)p.n_codes, (unsigned long long)min_len);
    if (check_failed_) { rv_bucket_plan_free(&p); return 0; }
    void *slices = NULL;
    if (map_mode && !check_map(s, &p, threads, &slices, what)) {
        free(slices);
        rv_bucket_plan_free(&p);
        return 0;
    }
    /* counts by brute force */
    uint64_t *want = calloc(p.n_codes, sizeof *want), valid = 0, largest = 0;
    char *seen = calloc(s->n + 1, 1);
    for (uint64_t i = 0; i < s->n; i++) {
        uint64_t c = code_at(s, i, p.k, sigma);
        if (c != UINT64_MAX) want[c]++, valid++;
    }
    for (uint64_t c = 0; c < p.n_codes; c++) {
        if (want[c] > largest) largest = want[c];
        if (p.count[c] != want[c]) {
            CHECK(0, "%s: count[%llu] = %llu want %llu", what, (unsigned long long)c,
                  (unsigned long long)p.count[c], (unsigned long long)want[c]);
            break;
        }
    }
    CHECK(p.suffixes == valid && p.largest == largest, "%s: suffixes %llu largest %llu want %llu %llu", what,
          (unsigned long long)p.suffixes, (unsigned long long)p.largest, (unsigned long long)valid,
          (unsigned long long)largest);
    /* jobs: code order, disjoint, covering every non-empty code, within the size */
    uint64_t next_code = 0, sum = 0;
    for (uint64_t j = 0; j < p.n_jobs && !check_failed_; j++) {
        const rv_bucket_job_t *jb = &p.jobs[j];
        if (jb->sub_hi) { /* the parts of a split bucket, one after another */
            j = check_parts(s, &p, j, js, want, next_code, what);
            if (check_failed_) break;
            sum += want[p.jobs[j].code_lo];
            next_code = p.jobs[j].code_hi;
            continue;
        }
        CHECK(jb->code_lo >= next_code && jb->code_lo < jb->code_hi && jb->code_hi <= p.n_codes,
              "%s: job %llu codes [%llu, %llu) after %llu", what, (unsigned long long)j,
              (unsigned long long)jb->code_lo, (unsigned long long)jb->code_hi, (unsigned long long)next_code);
        if (check_failed_) break;
        for (uint64_t c = next_code; c < jb->code_lo; c++)
            CHECK(want[c] == 0, "%s: code %llu (%llu suffixes) in no job", what, (unsigned long long)c,
                  (unsigned long long)want[c]);
        uint64_t m = 0, nonempty = 0;
        for (uint64_t c = jb->code_lo; c < jb->code_hi; c++) m += want[c], nonempty += want[c] > 0;
        CHECK(jb->suffixes == m && m > 0, "%s: job %llu has %llu suffixes, its codes %llu", what,
              (unsigned long long)j, (unsigned long long)jb->suffixes, (unsigned long long)m);
        CHECK(m <= js || nonempty == 1, "%s: job %llu of %llu suffixes over the size %llu with %llu buckets", what,
              (unsigned long long)j, (unsigned long long)m, (unsigned long long)js, (unsigned long long)nonempty);
        /* split: a whole bucket above the size only where none could split */
        CHECK(!split_len || m <= js || (p.n_split == 0 && p.over == p.largest && p.over >= m),
              "%s: job %llu of %llu suffixes over the size %llu, unsplit (%llu split, over %llu)", what,
              (unsigned long long)j, (unsigned long long)m, (unsigned long long)js, (unsigned long long)p.n_split,
              (unsigned long long)p.over);
        sum += m;
        next_code = jb->code_hi;
    }
    for (uint64_t c = next_code; c < p.n_codes && !check_failed_; c++)
        CHECK(want[c] == 0, "%s: code %llu after the last job", what, (unsigned long long)c);
    CHECK(sum == valid, "%s: jobs hold %llu suffixes, want %llu", what, (unsigned long long)sum,
          (unsigned long long)valid);
    /* largest first: a permutation, sizes non-increasing, ties by code */
    uint64_t *ord = rv_bucket_jobs_largest_first(&p);
    CHECK(ord != NULL, "%s: largest_first NULL", what);
    if (ord && !check_failed_) {
        char *used = calloc(p.n_jobs + 1, 1);
        for (uint64_t i = 0; i < p.n_jobs && !check_failed_; i++) {
            CHECK(ord[i] < p.n_jobs && !used[ord[i]], "%s: largest_first not a permutation at %llu", what,
                  (unsigned long long)i);
            if (check_failed_) break;
            used[ord[i]] = 1;
            if (i) {
                const rv_bucket_job_t *a = &p.jobs[ord[i - 1]], *b = &p.jobs[ord[i]];
                CHECK(a->suffixes > b->suffixes ||
                          (a->suffixes == b->suffixes && (a->code_lo < b->code_lo ||
                                                          (a->code_lo == b->code_lo && ord[i - 1] < ord[i]))),
                      "%s: largest_first out of order at %llu", what, (unsigned long long)i);
            }
        }
        free(used);
    }
    free(ord);
    /* every job's sort; the concatenation is the suffix array of the valid starts */
    uint64_t prev = UINT64_MAX;
    for (uint64_t j = 0; j < p.n_jobs && !check_failed_; j++) {
        uint64_t *pos = NULL, *lcp = NULL, m = 0;
        rc = rv_bucket_job_sort(s, &p, j, &pos, &lcp, &m);
        CHECK(rc == 0, "%s: job %llu sort: %s", what, (unsigned long long)j, rv_last_error());
        if (rc) break;
        CHECK(m == p.jobs[j].suffixes, "%s: job %llu gave %llu suffixes, planned %llu", what,
              (unsigned long long)j, (unsigned long long)m, (unsigned long long)p.jobs[j].suffixes);
        CHECK(m == 0 || lcp[0] == 0, "%s: job %llu lcp[0] = %llu", what, (unsigned long long)j,
              (unsigned long long)lcp[0]);
        for (uint64_t r = 0; r < m && !check_failed_; r++) {
            uint64_t q = pos[r], c = q < s->n ? code_at(s, q, p.k, sigma) : UINT64_MAX;
            CHECK(q < s->n && !seen[q], "%s: job %llu rank %llu: position %llu out of range or twice", what,
                  (unsigned long long)j, (unsigned long long)r, (unsigned long long)q);
            if (check_failed_) break;
            seen[q] = 1;
            CHECK(job_holds(s, &p, &p.jobs[j], q), "%s: job %llu: position %llu (code %lld) not its",
                  what, (unsigned long long)j, (unsigned long long)q, c == UINT64_MAX ? -1ll : (long long)c);
            /* nothing of the split's length across a part's start */
            if (r == 0 && prev != UINT64_MAX && p.jobs[j].sub_hi && j > 0 && p.jobs[j - 1].code_lo == p.jobs[j].code_lo)
                CHECK(lcp_brute(s, prev, q) < (uint64_t)p.k + p.jobs[j].sub_depth,
                      "%s: job %llu: lcp %llu across the parts' boundary, split at %llu", what, (unsigned long long)j,
                      (unsigned long long)lcp_brute(s, prev, q), (unsigned long long)p.k + p.jobs[j].sub_depth);
            if (prev != UINT64_MAX) {
                int cmp = suffix_cmp(s, prev, q);
                CHECK(cmp < 0 || (cmp == 0 && prev < q), "%s: job %llu rank %llu: suffix %llu before %llu (cmp %d)",
                      what, (unsigned long long)j, (unsigned long long)r, (unsigned long long)prev,
                      (unsigned long long)q, cmp);
            }
            if (r > 0) {
                uint64_t h = lcp_brute(s, pos[r - 1], q);
                CHECK(lcp[r] == h, "%s: job %llu lcp[%llu] (%llu, %llu) = %llu want %llu", what, (unsigned long long)j,
                      (unsigned long long)r, (unsigned long long)pos[r - 1], (unsigned long long)q,
                      (unsigned long long)lcp[r], (unsigned long long)h);
            }
            prev = q;
        }
        free(pos);
        free(lcp);
    }
    for (uint64_t i = 0; i < s->n && !check_failed_; i++)
        CHECK(seen[i] == (code_at(s, i, p.k, sigma) != UINT64_MAX), "%s: position %llu %s", what,
              (unsigned long long)i, seen[i] ? "has no k-prefix but was sorted" : "missing");
    free(seen);
    free(want);
    rv_bucket_plan_free(&p);
    free(slices);
    return !check_failed_;
}

static int check_plan_and_sort(const rv_seq_t *s, uint64_t min_len, uint64_t js, int threads, const char *what)
{
    if (!gpu_begin(s, what)) return 0;
    int ok = check_plan_and_sort_on(s, min_len, js, threads, what);
    rv_bucket_gpu_end();
    return ok;
}

static void test_sort_random(void)
{
    rng_t r = rng_new(1501);
    static const uint64_t sizes[] = {1, 3, 50, UINT64_MAX / 4};
    char name[64], what[512], d[200];
    for (int kind = 0; kind < N_KINDS; kind++) {
        case_begin();
        /* protein and text have 25^4 and 255^2 codes: each plan costs more */
        int iters = check_iters(kind == 5 ? 15 : kind == 6 ? 20 : 60) / (gpu_mode ? 3 : 1);
        for (int it = 0; it < iters && !check_failed_; it++) {
            input_t in;
            input_random(&r, kind, 1 + rng_below(&r, 4) * 40, &in);
            int strands = kind_alpha[kind] == RV_ALPHA_DNA && rng_below(&r, 3) == 0 ? 2 : 1;
            rv_seq_t *s = seq_of(&in, strands);
            CHECK(s, "seq: %s", rv_last_error());
            for (uint64_t ml = 1; s && ml <= 6 && !check_failed_; ml++)
                for (int z = gpu_mode ? 2 : 0; z < 4 && !check_failed_; z++) { /* GPU: no one-bucket jobs */
                    describe(&in, d, sizeof d);
                    snprintf(what, sizeof what, "%s strands %d min %llu job %llu [%s]", kinds[kind], strands,
                             (unsigned long long)ml, (unsigned long long)sizes[z], d);
                    check_plan_and_sort(s, ml, sizes[z], 1 + (int)rng_below(&r, 2), what);
                }
            rv_seq_free(s);
            input_free(&in);
        }
        snprintf(name, sizeof name, "buckets_sort_oracle_%s%s%s%s", kinds[kind], gpu_mode ? "_gpu" : "",
                 gpu_mode ? gpu_variant : "", map_names[map_mode]);
        case_end(name);
    }
}

/* A map of two bytes a position: more than 254 jobs (one code each). */
static void test_map_wide(void)
{
    rng_t r = rng_new(1511);
    case_begin();
    for (int it = 0; it < 3 && !check_failed_; it++) {
        input_t in;
        input_random(&r, 2, 2500 + 500 * (uint64_t)it, &in); /* DNA with N */
        rv_seq_t *s = seq_of(&in, 1);
        CHECK(s, "seq: %s", rv_last_error());
        char what[128];
        snprintf(what, sizeof what, "wide map %d (%llu symbols)", it, (unsigned long long)(s ? s->n : 0));
        if (s) check_plan_and_sort_on(s, 6, 1, 2, what);
        rv_seq_free(s);
        input_free(&in);
    }
    CHECK(map_mode > 2 || map_wide_seen > 0, "no map of two bytes a position was made");
    char name[64];
    snprintf(name, sizeof name, "buckets_map_wide%s", map_names[map_mode] + (map_mode <= 2 ? 4 : 0));
    case_end(name);
}

/* Job lists over several blocks (the random inputs above fit one): a text of five
 * and a half blocks, random DNA with N runs and a periodic stretch across a block
 * boundary; the lists of the plan's own and filled in slices against brute force,
 * and every job sorted from them the same as from a scan of the text. */
static void test_lists_blocks(void)
{
    rng_t r = rng_new(65536);
    case_begin();
    const uint64_t n = 5 * RV_BUCKET_BLOCK + RV_BUCKET_BLOCK / 2;
    char *buf = malloc(n + 1);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t at = i % 40000;
        buf[i] = at < 30 ? 'N' : "ACGT"[rng_below(&r, 4)];
        if (i >= 2 * RV_BUCKET_BLOCK - 5000 && i < 2 * RV_BUCKET_BLOCK + 5000) buf[i] = "ACCGT"[i % 5];
    }
    buf[n] = 0;
    rv_seq_t *s = rv_seq_from_string(buf, n, RV_ALPHA_DNA, "blocks");
    CHECK(s && s->n > 5 * RV_BUCKET_BLOCK, "seq: %s", rv_last_error());
    static const uint64_t sizes[3] = {30000, 7001, 1500};
    for (int z = 0; s && z < 3 && !check_failed_; z++) {
        char what[96];
        snprintf(what, sizeof what, "lists over blocks, jobs of %llu", (unsigned long long)sizes[z]);
        rv_bucket_plan_t p, bare;
        CHECK(rv_bucket_plan(s, 9, sizes[z], 2, &p) == 0 && rv_bucket_plan(s, 9, sizes[z], 1, &bare) == 0, "%s: plan: %s",
              what, rv_last_error());
        if (check_failed_) break;
        CHECK(p.n_jobs >= 2 && p.n_jobs <= RV_BUCKET_LIST_JOBS, "%s: %llu jobs", what, (unsigned long long)p.n_jobs);
        void *sliced = check_failed_ ? NULL : lists_in_slices(s, &p, 2, what);
        if (sliced) {
            rv_bucket_plan_use_lists(&p, sliced);
            check_lists_content(s, &p, what);
        }
        rv_bucket_plan_use_lists(&p, NULL);
        CHECK(rv_bucket_plan_make_map(&p, s, UINT64_MAX, 2) == 0 && p.lists, "%s: make_map: %s", what, rv_last_error());
        if (!check_failed_) check_lists_content(s, &p, what);
        /* the tables (a block's unused slots are left as they were) */
        const uint64_t at = (2 * s->n + 7) & ~7ull;
        CHECK(sliced && memcmp((char *)sliced + at, (const char *)p.lists + at, rv_bucket_lists_bytes(&p, s->n) - at) == 0,
              "%s: the sliced lists' table differs", what);
        for (uint64_t j = 0; j < p.n_jobs && !check_failed_; j++) {
            uint64_t *pa = NULL, *la = NULL, *pb = NULL, *lb = NULL, ma = 0, mb = 0;
            CHECK(rv_bucket_job_sort(s, &p, j, &pa, &la, &ma) == 0 && rv_bucket_job_sort(s, &bare, j, &pb, &lb, &mb) == 0,
                  "%s: job %llu: %s", what, (unsigned long long)j, rv_last_error());
            CHECK(!check_failed_ && ma == mb && memcmp(pa, pb, ma * sizeof *pa) == 0 && memcmp(la, lb, ma * sizeof *la) == 0,
                  "%s: job %llu from the lists differs from the scan's", what, (unsigned long long)j);
            free(pa), free(la), free(pb), free(lb);
        }
        free(sliced);
        rv_bucket_plan_free(&p);
        rv_bucket_plan_free(&bare);
    }
    /* more jobs than lists take: a map instead */
    rv_bucket_plan_t p;
    CHECK(s && rv_bucket_plan(s, 9, 40, 2, &p) == 0 && p.n_jobs > RV_BUCKET_LIST_JOBS && !rv_bucket_lists_bytes(&p, s->n),
          "many jobs: %llu, lists %llu bytes", (unsigned long long)p.n_jobs,
          (unsigned long long)rv_bucket_lists_bytes(&p, s->n));
    if (s && !check_failed_) {
        CHECK(rv_bucket_plan_make_map(&p, s, UINT64_MAX, 2) == 0 && !p.lists && (p.map != NULL) == (p.n_jobs < 65535),
              "many jobs: %s", rv_last_error());
        rv_bucket_plan_free(&p);
    }
    rv_seq_free(s);
    free(buf);
    case_end("buckets_lists_blocks");
}

/* The CPU's jobs with a plan of another text of the same length, found by the
 * scan, a map and lists of the plan's own text (a finder that does not fit the
 * text either): none fails on the plan's own text; on the other, a job whose
 * counts do not hold fails with a message (some must), and none writes past its
 * arrays (the radix sort places items by the plan's counts: run under ASan). */
static void test_cpu_foreign_plan(void)
{
    case_begin();
    rng_t r = rng_new(1524);
    char *a = malloc(9001), *b = malloc(9001);
    for (int i = 0; i < 9000; i++) a[i] = b[i] = "ACGT"[rng_below(&r, 4)];
    for (int i = 0; i < 9000; i += 97) b[i] = "ACGT"[rng_below(&r, 4)];
    a[9000] = b[9000] = 0;
    rv_seq_t *sa = rv_seq_from_string(a, 9000, RV_ALPHA_DNA, "a"), *sb = rv_seq_from_string(b, 9000, RV_ALPHA_DNA, "b");
    static const char *const how[3] = {"scan", "map", "lists"};
    for (int h = 0; h < 3 && sa && sb && !check_failed_; h++) {
        rv_bucket_plan_t p = {0};
        CHECK(rv_bucket_plan(sa, 8, 900, 1, &p) == 0 && p.n_jobs > 3, "%s: plan: %s", how[h], rv_last_error());
        if (h == 1) CHECK(rv_bucket_plan_make_map(&p, sa, sa->n, 1) == 0 && p.map && !p.lists, "map: %s", rv_last_error());
        if (h == 2) CHECK(rv_bucket_plan_make_map(&p, sa, UINT64_MAX, 1) == 0 && p.lists, "lists: %s", rv_last_error());
        int failed = 0;
        for (uint64_t j = 0; j < p.n_jobs && !check_failed_; j++) {
            uint64_t *pos = NULL, *lcp = NULL, m = 0;
            CHECK(rv_bucket_job_sort(sa, &p, j, &pos, &lcp, &m) == 0 && m == p.jobs[j].suffixes, "%s: own text, job %llu: %s",
                  how[h], (unsigned long long)j, rv_last_error());
            free(pos), free(lcp);
            pos = lcp = NULL;
            int rc = rv_bucket_job_sort(sb, &p, j, &pos, &lcp, &m);
            CHECK(rc == 0 || rv_last_error()[0], "%s: job %llu failed without a message", how[h], (unsigned long long)j);
            failed += rc < 0;
            free(pos), free(lcp);
        }
        CHECK(failed > 0, "%s: no job of the foreign plan failed", how[h]);
        rv_bucket_plan_free(&p);
    }
    rv_seq_free(sa), rv_seq_free(sb);
    free(a), free(b);
    case_end("buckets_cpu_foreign_plan");
}

/* A plan from counts made apart (rv_bucket_count, as a GPU rank counts for rank 0
 * under mpirun) is the plan rv_bucket_plan makes; counts of another length, or
 * more suffixes than the text has, are refused. */
static void test_plan_counted(void)
{
    case_begin();
    rng_t r = rng_new(77);
    char *a = malloc(20001);
    for (int i = 0; i < 20000; i++) a[i] = i % 1000 == 999 ? 'N' : "ACGT"[rng_below(&r, 4)];
    a[20000] = 0;
    rv_seq_t *s = rv_seq_from_string(a, 20000, RV_ALPHA_DNA, "a");
    for (uint64_t L = 1; L <= 40 && s && !check_failed_; L += 13) {
        rv_bucket_plan_t p = {0}, q = {0};
        uint64_t *counts = NULL, nc = 0;
        CHECK(rv_bucket_plan(s, L, 700, 2, &p) == 0, "plan: %s", rv_last_error());
        if (!gpu_begin(s, "plan_counted")) { /* the device counts (GPU mode) */
            rv_bucket_plan_free(&p);
            break;
        }
        CHECK(rv_bucket_count(s, L, 2, &counts, &nc) == 0 && nc == p.n_codes, "count: %s", rv_last_error());
        CHECK(rv_bucket_plan_counted(s, L, 700, counts, nc, &q) == 0, "counted: %s", rv_last_error());
        CHECK(q.k == p.k && q.n_jobs == p.n_jobs && q.suffixes == p.suffixes && q.largest == p.largest &&
                  !memcmp(q.count, p.count, nc * sizeof *p.count) && !memcmp(q.jobs, p.jobs, p.n_jobs * sizeof *p.jobs),
              "L=%llu: the counted plan differs", (unsigned long long)L);
        rv_bucket_plan_free(&q);
        if (L > 1) { /* another length's counts, then too many suffixes */
            CHECK(rv_bucket_count(s, 1, 1, &counts, &nc) == 0, "count 1: %s", rv_last_error());
            CHECK(rv_bucket_plan_counted(s, L, 700, counts, nc, &q) < 0 && strstr(rv_last_error(), "do not fit"),
                  "L=%llu: counts of k=1 taken", (unsigned long long)L);
            CHECK(rv_bucket_count(s, L, 1, &counts, &nc) == 0, "count: %s", rv_last_error());
            counts[nc - 1] += s->n;
            CHECK(rv_bucket_plan_counted(s, L, 700, counts, nc, &q) < 0, "L=%llu: too many suffixes taken",
                  (unsigned long long)L);
        }
        rv_bucket_plan_free(&p);
        if (gpu_mode) rv_bucket_gpu_end();
    }
    rv_seq_free(s);
    free(a);
    case_end(gpu_mode ? "buckets_plan_counted_gpu" : "buckets_plan_counted");
}

/* One random count array (zeros, one huge bucket, all equal, geometric) as a
 * plan of its own (k = 1, one code a symbol). */
static rv_bucket_plan_t random_counts(rng_t *r, int it)
{
    const uint64_t nc = 1 + rng_below(r, it % 4 == 0 ? 8 : 600), shape = rng_below(r, 4);
    uint64_t *count = calloc(nc, sizeof *count), total = 0;
    for (uint64_t c = 0; c < nc; c++) {
        uint64_t v = shape == 0 ? (rng_below(r, 3) ? 0 : rng_below(r, 50))
                   : shape == 1 ? 1 + rng_below(r, 5)
                   : shape == 2 ? 7 : (uint64_t)1 << rng_below(r, 12);
        count[c] = v, total += v;
    }
    if (shape == 1 && nc > 2) count[rng_below(r, nc)] += 5000, total += 5000; /* a satellite */
    return (rv_bucket_plan_t){.k = 1, .sigma = nc, .n_codes = nc, .suffixes = total, .count = count,
                              .own_count = count};
}

/* p's jobs against a greedy of the test's own: the non-empty codes in order, each
 * job aiming at clamp(L / W, least, most) for the L suffixes not in a job before
 * it and taking codes while they fit (a code above the aim is a job of its own);
 * code ranges that do not overlap; nothing above `most` but a single code. */
static void check_tapered(const rv_bucket_plan_t *p, uint64_t W, uint64_t most, uint64_t least, int it)
{
    const uint64_t nc = p->n_codes, *count = p->count, lo_aim = least < most ? least : most;
    uint64_t c = 0, left = p->suffixes, j = 0, prev_hi = 0;
    while (!check_failed_) {
        while (c < nc && !count[c]) c++;
        if (c == nc) break;
        uint64_t aim = left / W;
        aim = aim > most ? most : aim < lo_aim ? lo_aim : aim;
        const uint64_t first = c;
        uint64_t acc = count[c++], last = first;
        for (;;) {
            uint64_t d = c;
            while (d < nc && !count[d]) d++;
            if (d == nc || acc + count[d] > aim) break;
            acc += count[d], last = d, c = d + 1;
        }
        CHECK(j < p->n_jobs, "it %d: %llu jobs, want more", it, (unsigned long long)p->n_jobs);
        if (check_failed_) break;
        const rv_bucket_job_t *b = &p->jobs[j++];
        CHECK(b->code_lo == first && b->code_hi > last && b->code_hi <= nc && b->code_lo >= prev_hi &&
                  b->suffixes == acc,
              "it %d (W %llu most %llu least %llu): job %llu [%llu, %llu) %llu suffixes, want from %llu past %llu, %llu",
              it, (unsigned long long)W, (unsigned long long)most, (unsigned long long)least,
              (unsigned long long)(j - 1), (unsigned long long)b->code_lo, (unsigned long long)b->code_hi,
              (unsigned long long)b->suffixes, (unsigned long long)first, (unsigned long long)last,
              (unsigned long long)acc);
        prev_hi = b->code_hi;
        left -= acc;
    }
    CHECK(j == p->n_jobs, "it %d: %llu jobs, want %llu", it, (unsigned long long)p->n_jobs, (unsigned long long)j);
    for (uint64_t i = 0; i < p->n_jobs && !check_failed_; i++)
        CHECK(p->jobs[i].suffixes <= most || p->jobs[i].suffixes == count[p->jobs[i].code_lo],
              "it %d: job %llu has %llu suffixes, most %llu", it, (unsigned long long)i,
              (unsigned long long)p->jobs[i].suffixes, (unsigned long long)most);
}

/* rv_bucket_plan_cut_tapered on random counts (W = 0 cuts as W = 1), and its
 * taper on a flat text: 2^20 suffixes for 8 workers start with jobs of 1/8 and
 * end with jobs of 1/128, never larger than the one before. */
static void test_plan_tapered(void)
{
    case_begin();
    rng_t r = rng_new(91);
    for (int it = 0; it < 400 && !check_failed_; it++) {
        rv_bucket_plan_t p = random_counts(&r, it);
        const uint64_t W = rng_below(&r, 21), most = 1 + rng_below(&r, p.suffixes + 2), least = rng_below(&r, 40);
        CHECK(rv_bucket_plan_cut_tapered(&p, W, most, least) == 0, "cut: %s", rv_last_error());
        check_tapered(&p, W ? W : 1, most, least, it);
        rv_bucket_plan_free(&p);
    }
    uint64_t *flat = malloc(4096 * sizeof *flat);
    for (int i = 0; i < 4096; i++) flat[i] = 256;
    rv_bucket_plan_t p = {.k = 6, .sigma = 4, .n_codes = 4096, .suffixes = 1u << 20, .count = flat, .own_count = flat};
    CHECK(rv_bucket_plan_cut_tapered(&p, 8, 1u << 20, (1u << 20) / 128) == 0, "flat: %s", rv_last_error());
    CHECK(p.n_jobs > 16 && p.jobs[0].suffixes == (1u << 20) / 8 && p.jobs[p.n_jobs - 1].suffixes <= (1u << 20) / 128,
          "flat: %llu jobs, first %llu, last %llu", (unsigned long long)p.n_jobs,
          (unsigned long long)(p.n_jobs ? p.jobs[0].suffixes : 0),
          (unsigned long long)(p.n_jobs ? p.jobs[p.n_jobs - 1].suffixes : 0));
    for (uint64_t i = 1; i < p.n_jobs; i++)
        CHECK(p.jobs[i].suffixes <= p.jobs[i - 1].suffixes, "flat: job %llu larger than the one before",
              (unsigned long long)i);
    rv_bucket_plan_free(&p);
    case_end("buckets_plan_tapered");
}

/* A flat plan of `suffixes` suffixes over 4096 codes, cut at the budget's cap. */
static rv_bucket_plan_t flat_plan(uint64_t suffixes, uint64_t cap)
{
    uint64_t *c = malloc(4096 * sizeof *c);
    for (int i = 0; i < 4096; i++) c[i] = suffixes / 4096;
    rv_bucket_plan_t q = {.k = 6, .sigma = 4, .n_codes = 4096, .suffixes = suffixes, .job_cap = cap, .count = c,
                          .own_count = c};
    CHECK(rv_bucket_plan_cut(&q, cap) == 0, "flat plan: cut");
    return q;
}

/* The sizes of q's jobs: the largest, and the smallest but for the last (what is
 * left). */
static void job_sizes(const rv_bucket_plan_t *q, uint64_t *most, uint64_t *least, uint64_t *sum)
{
    *most = *sum = 0, *least = UINT64_MAX;
    for (uint64_t i = 0; i < q->n_jobs; i++) {
        const uint64_t x = q->jobs[i].suffixes;
        *most = x > *most ? x : *most, *sum += x;
        if (i + 1 < q->n_jobs) *least = x < *least ? x : *least;
    }
}

/* rv_pairs_bucket_spread: for CPU workers tapered from a worker's share (here
 * under the budget's cap) down to a sixteenth of it, or 64 Ki suffixes; equal
 * (GPU workers, slices) three jobs a worker; REPVIEW_JOBS_PER_WORKER=J: J equal
 * ones.  A plan spread before (tapered or not) is cut again the same: a slice
 * cuts the plan of the others whether or not it has a GPU. */
static void test_plan_spread(void)
{
    case_begin();
    char *saved = getenv("REPVIEW_JOBS_PER_WORKER") ? strdup(getenv("REPVIEW_JOBS_PER_WORKER")) : NULL;
    unsetenv("REPVIEW_JOBS_PER_WORKER");
    for (int mode = 0; mode < 4 && !check_failed_; mode++) {
        /* mode 3: a flat plan of 2^20 suffixes for 4 workers, under the 64 Ki floor */
        rv_bucket_plan_t q = mode == 3 ? flat_plan(1u << 20, 1u << 20) : flat_plan(1u << 24, 3u << 20);
        CHECK(rv_pairs_bucket_spread(&q, 16, mode == 1) == 0, "spread for 16: %s", rv_last_error());
        if (mode == 2) setenv("REPVIEW_JOBS_PER_WORKER", "5", 1);
        CHECK(rv_pairs_bucket_spread(&q, 4, mode == 1) == 0, "spread %d: %s", mode, rv_last_error());
        unsetenv("REPVIEW_JOBS_PER_WORKER");
        uint64_t most, least, sum;
        job_sizes(&q, &most, &least, &sum);
        CHECK(sum == q.suffixes, "spread %d: %llu suffixes in jobs", mode, (unsigned long long)sum);
        if (mode == 0)
            CHECK(most == q.job_cap && least <= (1u << 24) / 64 && least >= (1u << 24) / 64 - 4096 && q.n_jobs > 12,
                  "spread tapered: %llu jobs of %llu to %llu suffixes", (unsigned long long)q.n_jobs,
                  (unsigned long long)most, (unsigned long long)least);
        else if (mode == 3)
            CHECK(least >= (1u << 16) - 256 && most == (1u << 20) / 4, "spread floor: %llu jobs of %llu to %llu",
                  (unsigned long long)q.n_jobs, (unsigned long long)most, (unsigned long long)least);
        else
            CHECK((q.n_jobs == (mode == 1 ? 12u : 20u) || q.n_jobs == (mode == 1 ? 13u : 21u)) && most - least <= 4096,
                  "spread %s: %llu jobs of %llu to %llu", mode == 1 ? "equal" : "J=5", (unsigned long long)q.n_jobs,
                  (unsigned long long)most, (unsigned long long)least);
        rv_bucket_plan_free(&q);
    }
    /* a slice's plan: spread for its threads with or without the GPU, then equal
     * for every thread of the N slices, the same jobs */
    rv_bucket_plan_t a = flat_plan(1u << 24, 3u << 20), b = flat_plan(1u << 24, 3u << 20);
    CHECK(rv_pairs_bucket_spread(&a, 4, 0) == 0 && rv_pairs_bucket_spread(&b, 4, 1) == 0 && a.n_jobs != b.n_jobs,
          "slices: the CPU and GPU plans are the same before");
    CHECK(rv_pairs_bucket_spread(&a, 32, 1) == 0 && rv_pairs_bucket_spread(&b, 32, 1) == 0 && a.n_jobs == b.n_jobs &&
              !memcmp(a.jobs, b.jobs, a.n_jobs * sizeof *a.jobs),
          "slices: %llu and %llu jobs", (unsigned long long)a.n_jobs, (unsigned long long)b.n_jobs);
    rv_bucket_plan_free(&a), rv_bucket_plan_free(&b);
    if (saved) setenv("REPVIEW_JOBS_PER_WORKER", saved, 1);
    free(saved);
    case_end("buckets_plan_spread");
}

/* The device's jobs against a plan of another text (its counts differ): each job
 * whose counts are not the device's fails with a message, the others sort; none
 * writes past its arrays.  And a job that claims one suffix more fails. */
static void test_gpu_foreign_plan(void)
{
    case_begin();
    rng_t r = rng_new(1523);
    char *a = malloc(6001), *b = malloc(6001);
    for (int i = 0; i < 6000; i++) a[i] = b[i] = "ACGT"[rng_below(&r, 4)];
    for (int i = 0; i < 6000; i += 97) b[i] = "ACGT"[rng_below(&r, 4)]; /* same length, other codes */
    a[6000] = b[6000] = 0;
    rv_seq_t *sa = rv_seq_from_string(a, 6000, RV_ALPHA_DNA, "a"), *sb = rv_seq_from_string(b, 6000, RV_ALPHA_DNA, "b");
    rv_bucket_plan_t p = {0};
    CHECK(sa && sb && rv_bucket_plan(sa, 8, 700, 1, &p) == 0 && p.n_jobs > 3, "plan: %s", rv_last_error());
    int failed = 0, sorted = 0;
    for (int round = 0; round < 2 && !check_failed_; round++) {
        const rv_seq_t *dev = round ? sb : sa; /* the plan's own text, then another */
        CHECK(rv_gpu_buckets_open(dev->text, dev->n, dev->sigma, 0) == 0, "open: %s", rv_last_error());
        for (uint64_t j = 0; j < p.n_jobs && !check_failed_; j++) {
            const rv_bucket_job_t *job = &p.jobs[j];
            uint64_t nc = job->code_hi - job->code_lo, m = job->suffixes;
            uint64_t *off = malloc((nc + 1) * sizeof *off), *pos = malloc((m + 2) * sizeof *pos);
            uint64_t *lcp = malloc((m + 2) * sizeof *lcp), depth = 0, *groups = NULL, ng = 0;
            off[0] = 0;
            for (uint64_t c = 0; c < nc; c++) off[c + 1] = off[c] + p.count[job->code_lo + c];
            pos[m] = lcp[m] = 0xfeedu; /* guards */
            int rc = rv_gpu_buckets_job(p.sigma, p.k, job->code_lo, nc, off, m, 1, pos, lcp, &depth, &groups, &ng);
            CHECK(pos[m] == 0xfeedu && lcp[m] == 0xfeedu, "job %llu wrote past its arrays", (unsigned long long)j);
            CHECK(rc == 0 || rv_last_error()[0], "job %llu failed without a message", (unsigned long long)j);
            if (round == 0) CHECK(rc == 0, "own text, job %llu: %s", (unsigned long long)j, rv_last_error());
            failed += round && rc < 0, sorted += round && rc == 0;
            free(groups);
            if (round == 0 && m) { /* one suffix more than the text has */
                off[nc]++;
                groups = NULL;
                CHECK(rv_gpu_buckets_job(p.sigma, p.k, job->code_lo, nc, off, m + 1, 1, pos, lcp, &depth, &groups,
                                         &ng) < 0, "job %llu with one suffix too many sorted", (unsigned long long)j);
                free(groups);
            }
            free(off), free(pos), free(lcp);
        }
        rv_gpu_buckets_close();
    }
    CHECK(failed > 0, "no job of the foreign plan failed (%d sorted)", sorted);
    rv_bucket_plan_free(&p);
    rv_seq_free(sa), rv_seq_free(sb);
    free(a), free(b);
    char name[96];
    snprintf(name, sizeof name, "buckets_gpu_foreign_plan%s", gpu_variant);
    case_end(name);
}

/* Long equal runs (multikey quicksort on deep ties), larger buckets, min_len 0. */
static void test_sort_fixed(void)
{
    case_begin();
    char *buf = malloc(4001);
    rng_t r = rng_new(7);
    /* all-A, long period, with one breaker; ACGT random; large text alphabet; exact
     * tandem arrays (many equal-key ranges, each shedding one suffix a period: the
     * sort's jumps), one inside random text, one running into the text's end */
    char unit[41];
    for (int i = 0; i < 40; i++) unit[i] = "ACGT"[rng_below(&r, 4)];
    for (int v = 0; v < 6 && !check_failed_; v++) {
        size_t n = v == 0 ? 1500 : 4000;
        for (size_t i = 0; i < n; i++)
            buf[i] = v == 0 ? 'A' : v == 1 ? "ACGTTGCA"[i % 7] : v == 3 ? (char)('!' + rng_below(&r, 90))
                   : v == 4 && i >= 500 && i < 3700 ? unit[i % 40] : v == 5 && i >= 800 ? unit[i % 37]
                   : "ACGT"[rng_below(&r, 4)];
        if (v == 1) buf[n / 3] = 'N';
        buf[n] = 0;
        rv_seq_t *s = rv_seq_from_string(buf, n, v == 3 ? RV_ALPHA_TEXT : RV_ALPHA_DNA, "x");
        char what[64];
        for (uint64_t ml = 1; s && ml <= 12 && !check_failed_; ml += 5) {
            snprintf(what, sizeof what, "fixed %d min %llu", v, (unsigned long long)ml);
            check_plan_and_sort(s, ml, v == 2 ? 100 : 1u << 30, 2, what);
        }
        rv_bucket_plan_t p;
        CHECK(s && rv_bucket_plan(s, 0, 10, 1, &p) < 0 && rv_last_error()[0], "min_len 0 accepted");
        rv_seq_free(s);
    }
    /* nothing to sort: a text shorter than k, and breakers only */
    const char *names[2] = {"a", "b"}, *seqs[2] = {"ACG", "NNNN"};
    rv_seq_t *s = rv_seq_from_records(names, seqs, 2, RV_ALPHA_DNA);
    rv_bucket_plan_t p;
    CHECK(s && rv_bucket_plan(s, 6, 10, 1, &p) == 0 && p.n_jobs == 0 && p.suffixes == 0, "short text: jobs %llu",
          (unsigned long long)p.n_jobs);
    if (s) rv_bucket_plan_free(&p);
    CHECK(s && check_plan_and_sort(s, 3, 1, 1, "ACG|NNNN min 3"), "ACG|NNNN");
    rv_seq_free(s);
    free(buf);
    char name[64];
    snprintf(name, sizeof name, "buckets_sort_fixed%s", gpu_mode ? "_gpu" : map_names[map_mode]);
    case_end(name);
}

/* ---- buckets split by longer prefixes (rv_bucket_plan_split) --------------------- */

static const char *const split_kinds[] = {"polyA", "satellite", "same", "dnaACN", "protein", "text"};
enum { N_SPLIT_KINDS = 6 };

/* Skewed inputs whose buckets outgrow small jobs: a poly-A run in random DNA, a
 * satellite array (a 171-symbol unit, a few copies, one mutated), one symbol
 * throughout, two letters with N breakers (large buckets of many extensions),
 * protein and text of small alphabets. */
static rv_seq_t *split_input(rng_t *r, int kind, size_t n, char *buf)
{
    char unit[171];
    for (size_t i = 0; i < sizeof unit; i++) unit[i] = "ACGT"[rng_below(r, 4)];
    const size_t run_at = rng_below(r, n / 2 + 1), run = 20 + rng_below(r, n / 3 + 1);
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case 0: buf[i] = i >= run_at && i < run_at + run ? 'A' : "ACGT"[rng_below(r, 4)]; break;
        case 1: buf[i] = i >= 30 ? unit[(i - 30) % 171] : "ACGT"[rng_below(r, 4)];
                if (i >= 30 && rng_below(r, 150) == 0) buf[i] = "ACGT"[rng_below(r, 4)];
                break;
        case 2: buf[i] = 'A'; break;
        case 3: buf[i] = rng_below(r, 30) == 0 ? 'N' : "AC"[rng_below(r, 2)]; break;
        case 4: buf[i] = "ACDEX"[rng_below(r, 5)]; break; /* X breaks */
        default: buf[i] = "ab"[rng_below(r, 2)]; break;
        }
    }
    buf[n] = 0;
    return rv_seq_from_string(buf, n, kind == 4 ? RV_ALPHA_PROTEIN : kind == 5 ? RV_ALPHA_TEXT : RV_ALPHA_DNA, "x");
}

/* The plans of small k split up to longer prefixes against the oracle of
 * check_plan_and_sort: every job within the size unless a group cannot split,
 * the jobs' suffixes in order the sorted suffixes, their LCPs. */
static void test_split_sort(void)
{
    rng_t r = rng_new(1521);
    char name[80], what[160];
    char *buf = malloc(1301);
    split_seen = 0;
    case_begin();
    for (int kind = 0; kind < N_SPLIT_KINDS && !check_failed_; kind++) {
        const int iters = check_iters(6) / (gpu_mode ? 2 : 1);
        for (int it = 0; it < iters && !check_failed_; it++) {
            rv_seq_t *s = split_input(&r, kind, 200 + rng_below(&r, 1100), buf);
            CHECK(s, "seq: %s", rv_last_error());
            for (int v = 0; s && v < 3 && !check_failed_; v++) {
                /* GPU: no jobs of a suffix or two (each job costs the device's launches) */
                const uint64_t ml = 1 + rng_below(&r, 3), js = (gpu_mode ? 8 : 1) + rng_below(&r, v == 0 ? 4 : 60);
                split_len = ml + 1 + rng_below(&r, 12);
                snprintf(what, sizeof what, "split %s %d: n %llu min %llu split %llu job %llu", split_kinds[kind], it,
                         (unsigned long long)s->n, (unsigned long long)ml, (unsigned long long)split_len,
                         (unsigned long long)js);
                check_plan_and_sort(s, ml, js, 1 + (int)rng_below(&r, 2), what);
            }
            split_len = 0;
            rv_seq_free(s);
        }
    }
    CHECK(split_seen > 0, "no plan split a bucket");
    free(buf);
    snprintf(name, sizeof name, "buckets_split_sort%s%s", gpu_mode ? "_gpu" : "", map_names[map_mode]);
    case_end(name);
}

/* ---- pairs from buckets vs the index -------------------------------------------- */

typedef struct {
    rv_pair_t *a;
    size_t n, cap;
    int bad_batch;
} blist_t;

static int collect_batch(void *ud, const rv_pair_t *p, size_t n)
{
    blist_t *l = ud;
    if (n == 0 || n > RV_PAIRS_BATCH) l->bad_batch = 1;
    if (l->n + n > l->cap) {
        while (l->n + n > l->cap) l->cap = l->cap ? 2 * l->cap : 256;
        l->a = realloc(l->a, l->cap * sizeof *l->a);
    }
    if (n) memcpy(l->a + l->n, p, n * sizeof *p);
    l->n += n;
    return 0;
}

static int pair_cmp(const void *x, const void *y)
{
    const rv_pair_t *a = x, *b = y;
    if (a->p1 != b->p1) return a->p1 < b->p1 ? -1 : 1;
    if (a->p2 != b->p2) return a->p2 < b->p2 ? -1 : 1;
    if (a->inverted != b->inverted) return a->inverted < b->inverted ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

static int sorted(const blist_t *l)
{
    for (size_t i = 1; i < l->n; i++)
        if (pair_cmp(&l->a[i - 1], &l->a[i]) >= 0) return 0;
    return 1;
}

static int same_list(const blist_t *a, const blist_t *b, char *why, size_t whylen)
{
    for (size_t i = 0; i < a->n || i < b->n; i++) {
        const rv_pair_t *p = i < a->n ? &a->a[i] : NULL, *q = i < b->n ? &b->a[i] : NULL;
        if (!p || !q || pair_cmp(p, q) != 0) {
            snprintf(why, whylen, "#%zu of %zu/%zu: got <%lld,%lld,%lld,%d> want <%lld,%lld,%lld,%d>", i, a->n, b->n,
                     p ? (long long)p->p1 : -1, p ? (long long)p->p2 : -1, p ? (long long)p->len : -1,
                     p ? p->inverted : -1, q ? (long long)q->p1 : -1, q ? (long long)q->p2 : -1,
                     q ? (long long)q->len : -1, q ? q->inverted : -1);
            return 0;
        }
    }
    return 1;
}

/* Random filters (bit 0 min gap, 1 max gap, 2 within) on s. */
static void random_filters(rng_t *r, const rv_seq_t *s, int combo, rv_pairs_opts_t *o)
{
    random_filters_gap_within(r, s, combo, o);
}

/* Every slice of n_slices from the text of s, checked sorted and merged; the
 * slice counts too.  1 when all equal ref. */
static int check_slices(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t budget, uint64_t n_slices,
                        const blist_t *ref, const char *what)
{
    blist_t all = {0};
    char why[256];
    uint64_t counted = 0;
    for (uint64_t sl = 0; sl < n_slices && !check_failed_; sl++) {
        blist_t got = {0};
        int rc = rv_pairs_buckets_each_batch(s, o, budget, sl, n_slices, collect_batch, &got);
        CHECK(rc == 0, "%s: slice %llu/%llu: rc %d: %s", what, (unsigned long long)sl, (unsigned long long)n_slices,
              rc, rv_last_error());
        CHECK(!got.bad_batch, "%s: an empty or oversized batch", what);
        CHECK(sorted(&got), "%s: slice %llu/%llu not in (p1, p2, inverted, len) order", what, (unsigned long long)sl,
              (unsigned long long)n_slices);
        uint64_t c = UINT64_MAX;
        rc = rv_pairs_buckets_count(s, o, budget, sl, n_slices, &c);
        CHECK(rc == 0 && c == got.n, "%s: slice %llu/%llu count %llu, listed %zu (%s)", what, (unsigned long long)sl,
              (unsigned long long)n_slices, (unsigned long long)c, got.n, rc ? rv_last_error() : "");
        counted += c == UINT64_MAX ? 0 : c;
        if (got.n) collect_batch(&all, got.a, got.n);
        free(got.a);
    }
    if (all.n) qsort(all.a, all.n, sizeof *all.a, pair_cmp);
    CHECK(same_list(&all, ref, why, sizeof why), "%s: %llu slices: %s", what, (unsigned long long)n_slices, why);
    CHECK(counted == ref->n, "%s: slice counts sum to %llu, want %zu", what, (unsigned long long)counted, ref->n);
    free(all.a);
    return !check_failed_;
}

/* The budget that gives jobs of js suffixes to one thread (pairs_buckets.c). */
static uint64_t budget_for(uint64_t js) { return 2 * js * (rv_bucket_job_bytes(1) + 24); }

/* Pairs of plans that split (small budgets, min lengths past k) equal the index's,
 * at once and in slices; the plan hash of a plan that does not split is the hash
 * of its jobs' three words alone. */
static void test_split_pairs(void)
{
    rng_t r = rng_new(1522);
    char name[80], what[200], why[256];
    char *buf = malloc(1301);
    uint64_t splits = 0, unsplit = 0;
    case_begin();
    for (int kind = 0; kind < N_SPLIT_KINDS && !check_failed_; kind++) {
        const int iters = check_iters(5) / (gpu_mode ? 2 : 1);
        for (int it = 0; it < iters && !check_failed_; it++) {
            rv_seq_t *s = split_input(&r, kind, 200 + rng_below(&r, 1100), buf);
            rv_seq_t *t = s ? rv_seq_from_string(buf, strlen(buf), s->alpha, "x") : NULL;
            rv_build_opts_t bo;
            rv_build_opts_init(&bo);
            bo.threads = 1;
            rv_index_t *x = t ? rv_build(t, &bo, NULL) : NULL;
            CHECK(s && x, "build: %s", rv_last_error());
            for (int v = 0; x && v < 3 && !check_failed_; v++) {
                rv_pairs_opts_t o;
                /* past k: 11 for DNA, 5 for this protein's alphabet, 2 for text */
                const uint64_t k_max = kind <= 3 ? 11 : kind == 4 ? 5 : 2;
                rv_pairs_opts_init(&o, k_max + 1 + rng_below(&r, 10));
                o.threads = 1 + (int)rng_below(&r, 2);
                o.quiet = 1;
                const uint64_t budget = budget_for((gpu_mode ? 20 : 1) + rng_below(&r, 40)) * (uint64_t)o.threads;
                blist_t ref = {0}, got = {0};
                CHECK(rv_pairs_each_batch(x, &o, collect_batch, &ref) == 0, "index: %s", rv_last_error());
                /* the budget's cut, then as a run spreads it */
                rv_bucket_plan_t p, q;
                uint64_t *counts = NULL, nc = 0;
                CHECK(rv_bucket_count(s, o.min_len, o.threads, &counts, &nc) == 0 &&
                      rv_pairs_bucket_plan_counted(s, &o, budget, o.threads, counts, nc, &p) == 0, "plan: %s",
                      rv_last_error());
                CHECK(rv_pairs_bucket_plan(s, &o, budget, o.threads, &q) == 0, "plan: %s", rv_last_error());
                if (check_failed_) break;
                splits += p.n_split > 0;
                CHECK(q.n_split == p.n_split && q.over == p.over, "the spread plan split %llu, the cut %llu",
                      (unsigned long long)q.n_split, (unsigned long long)p.n_split);
                /* a bucket, or a group of one, that one worker could hold in the whole
                 * budget (pairs_buckets.c's job_suffixes for one thread) may stay a job
                 * of its own above the cap */
                const uint64_t alone = budget / 2 / (rv_bucket_job_bytes(1) + 24);
                for (int z = 0; z < 2; z++) {
                    const rv_bucket_plan_t *pq = z ? &q : &p;
                    for (uint64_t j = 0; j < pq->n_jobs && !check_failed_; j++)
                        CHECK(pq->jobs[j].suffixes <= p.job_cap || p.over >= pq->jobs[j].suffixes ||
                                  (pq->jobs[j].code_hi == pq->jobs[j].code_lo + 1 && pq->jobs[j].suffixes <= alone),
                              "%s: job %llu of %llu suffixes over the cap %llu (over %llu)", z ? "spread" : "cut",
                              (unsigned long long)j, (unsigned long long)pq->jobs[j].suffixes,
                              (unsigned long long)p.job_cap, (unsigned long long)p.over);
                }
                rv_bucket_plan_free(&q);
                /* the hash of a plan without parts: its jobs' words; with parts, another */
                uint64_t *w = malloc((3 * p.n_jobs + 1) * sizeof *w), parts = 0;
                for (uint64_t j = 0; w && j < p.n_jobs; j++) {
                    w[3 * j] = p.jobs[j].code_lo, w[3 * j + 1] = p.jobs[j].code_hi, w[3 * j + 2] = p.jobs[j].suffixes;
                    parts += p.jobs[j].sub_hi != 0;
                }
                const uint64_t head[3] = {(uint64_t)p.k, p.sigma, p.n_jobs};
                CHECK(w && (rv_bucket_plan_hash(&p) == XXH3_64bits_withSeed(w, 3 * p.n_jobs * sizeof *w,
                                                                             XXH3_64bits(head, sizeof head))) == !parts,
                      "the hash of a plan with %llu parts", (unsigned long long)parts);
                free(w);
                unsplit += !p.n_split;
                rv_bucket_plan_free(&p);
                snprintf(what, sizeof what, "split pairs %s %d: n %llu min %llu threads %d budget %llu",
                         split_kinds[kind], it, (unsigned long long)s->n, (unsigned long long)o.min_len, o.threads,
                         (unsigned long long)budget);
                CHECK(rv_pairs_buckets_each_batch(s, &o, budget, 0, 1, collect_batch, &got) == 0, "%s: %s", what,
                      rv_last_error());
                CHECK(same_list(&got, &ref, why, sizeof why), "%s: %s", what, why);
                free(got.a);
                check_slices(s, &o, budget, 1 + rng_below(&r, 4), &ref, what);
                free(ref.a);
            }
            rv_index_free(x);
            rv_seq_free(s);
        }
    }
    CHECK(splits > 0 && unsplit > 0, "plans split %llu, unsplit %llu: want both", (unsigned long long)splits,
          (unsigned long long)unsplit);
    free(buf);
    snprintf(name, sizeof name, "buckets_split_pairs%s", gpu_mode ? "_gpu" : "");
    case_end(name);
}

static const char *strands_name(int st) { return st == 1 ? "+" : st == -1 ? "-" : st == 2 ? "both" : "0"; }

static void test_pairs_random(int both)
{
    rng_t r = rng_new(both ? 1502 : 1503);
    static const uint64_t budgets[] = {1, 700, 5000, 1000000, 0};
    static const int strand_opts[] = {0, 1, -1, 2};
    char name[64], what[512], d[200], why[256];
    for (int kind = 0; kind < N_KINDS; kind++) {
        if (both && kind_alpha[kind] != RV_ALPHA_DNA) continue;
        case_begin();
        int iters = check_iters(kind == 5 ? 8 : kind == 6 ? 12 : 40);
        for (int it = 0; it < iters && !check_failed_; it++) {
            input_t in;
            input_random(&r, kind, 50, &in);
            rv_index_t *x = index_of(&in, both ? 2 : 1, 1);
            rv_seq_t *s = seq_of(&in, both ? 2 : 1);
            CHECK(x && s, "build: %s", rv_last_error());
            if (x && s)
                CHECK(s->n == x->seq->n && !memcmp(s->text, x->seq->text, s->n) && s->strands == x->seq->strands,
                      "the sequence's text is not the index's");
            for (int combo = 0; x && s && combo < 8 && !check_failed_; combo++) {
                rv_pairs_opts_t o;
                rv_pairs_opts_init(&o, 1 + rng_below(&r, 6));
                random_filters(&r, s, combo, &o);
                o.threads = 1 + (int)rng_below(&r, 3);
                o.mem_bytes = rng_below(&r, 2) ? 1 : 0;
                o.grain = 1 + rng_below(&r, 8);
                if (both) o.strands = strand_opts[rng_below(&r, 4)];
                blist_t ref = {0};
                CHECK(rv_pairs_each_batch(x, &o, collect_batch, &ref) == 0, "index: %s", rv_last_error());
                uint64_t budget = budgets[rng_below(&r, 5)], ns = 1 + rng_below(&r, 5);
                describe(&in, d, sizeof d);
                snprintf(what, sizeof what, "%s strands %s combo %d min %llu threads %d budget %llu mem %llu [%s]",
                         kinds[kind], strands_name(o.strands), combo, (unsigned long long)o.min_len, o.threads,
                         (unsigned long long)budget, (unsigned long long)o.mem_bytes, d);
                /* all at once, then in slices */
                blist_t got = {0};
                CHECK(rv_pairs_buckets_each_batch(s, &o, budget, 0, 1, collect_batch, &got) == 0, "%s: %s", what,
                      rv_last_error());
                CHECK(same_list(&got, &ref, why, sizeof why), "%s: %s", what, why);
                free(got.a);
                uint64_t c = UINT64_MAX;
                CHECK(rv_pairs_buckets_count(s, &o, budget, 0, 0, &c) == 0 && c == ref.n,
                      "%s: count %llu want %zu", what, (unsigned long long)c, ref.n);
                check_slices(s, &o, budget, ns, &ref, what);
                free(ref.a);
            }
            rv_seq_free(s);
            rv_index_free(x);
            input_free(&in);
        }
        snprintf(name, sizeof name, "buckets_pairs_%s_%s", both ? "both" : "one", kinds[kind]);
        case_end(name);
    }
}

/* Larger inputs: many jobs from a 200 kB budget (20 kB quick), threads 1..3, spilling. */
static void test_pairs_large(void)
{
    rng_t r = rng_new(1504);
    char what[128];
    int quick = check_iters(10) < 10; /* sanitizer builds: smaller texts, smaller jobs */
    uint64_t budget = quick ? 20000 : 200000;
    case_begin();
    for (int it = 0; it < 4 && !check_failed_; it++) {
        input_t in = {.kind = it % 2 ? 3 : 2, .nrec = 2};
        for (int k = 0; k < 2; k++) {
            size_t len = quick ? 2000 + rng_below(&r, 3000) : 10000 + rng_below(&r, 15000);
            in.rec[k] = malloc(len + 1);
            random_record(&r, in.kind, in.rec[k], len);
        }
        if (it % 2 == 0) memcpy(in.rec[1] + 100, in.rec[0] + 50, 1500); /* a long repeat across records */
        int strands = it >= 2 ? 2 : 1;
        rv_index_t *x = index_of(&in, strands, 2);
        rv_seq_t *s = seq_of(&in, strands);
        CHECK(x && s, "build");
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, quick ? 6 + rng_below(&r, 5) : 8 + rng_below(&r, 8)); /* k = 11 (4^11 codes) from 11 on */
        o.strands = strands == 2 ? 2 : 1;
        blist_t ref = {0};
        CHECK(x && rv_pairs_each_batch(x, &o, collect_batch, &ref) == 0, "index: %s", rv_last_error());
        for (int t = 1; t <= 3 && x && s && !check_failed_; t++) {
            o.threads = t;
            o.mem_bytes = t == 2 ? 4096 : 0;
            snprintf(what, sizeof what, "large %d strands %d threads %d min %llu", it, strands, t,
                     (unsigned long long)o.min_len);
            rv_bucket_plan_t p;
            CHECK(rv_pairs_bucket_plan(s, &o, budget, t, &p) == 0 && (in.kind != 2 || p.n_jobs > 4),
                  "%s: only %llu jobs", what,
                  (unsigned long long)p.n_jobs);
            rv_bucket_plan_free(&p);
            if (gpu_begin(s, what)) check_slices(s, &o, budget, (uint64_t)t * 2 - 1, &ref, what);
            rv_bucket_gpu_end();
        }
        CHECK(ref.n > 20, "large %d: only %zu pairs", it, ref.n);
        free(ref.a);
        rv_seq_free(s);
        rv_index_free(x);
        input_free(&in);
    }
    char large[96];
    snprintf(large, sizeof large, "%s%s", gpu_mode == 1 ? "buckets_pairs_large_gpu_rounds" : gpu_mode ? "buckets_pairs_large_gpu" : "buckets_pairs_large",
             gpu_mode ? gpu_variant : "");
    case_end(large);
}

/* ---- part files ------------------------------------------------------------------ */

static char tmpdir[4096];

static void part_path(char *buf, size_t len, const char *tag, uint64_t i)
{
    snprintf(buf, len, "%s/%s.%llu.part", tmpdir, tag, (unsigned long long)i);
}

/* Write the n slices of s, o as TAG.I.part.  1 when all went well. */
static int write_parts(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t budget, uint64_t n, const char *tag)
{
    char path[4200];
    for (uint64_t i = 0; i < n; i++) {
        part_path(path, sizeof path, tag, i);
        if (rv_pairs_part_write(s, o, budget, i, n, path) < 0) {
            CHECK(0, "part_write %s: %s", path, rv_last_error());
            return 0;
        }
        char tmp[4300];
        snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
        CHECK(access(tmp, F_OK) != 0, "temporary part %s left behind", tmp);
    }
    return 1;
}

/* Open TAG.I.part for the given slice indexes; NULL entries on failure. */
static int open_parts(const char *tag, const uint64_t *which, size_t n, rv_part_t **parts)
{
    char path[4200];
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        part_path(path, sizeof path, tag, which[i]);
        if (rv_part_open(path, &parts[i]) < 0) {
            CHECK(0, "open %s: %s", path, rv_last_error());
            parts[i] = NULL;
            ok = 0;
        }
    }
    return ok;
}

static void close_parts(rv_part_t **parts, size_t n)
{
    for (size_t i = 0; i < n; i++) rv_part_close(parts[i]);
}

static void test_parts_random(void)
{
    rng_t r = rng_new(1505);
    char what[512], d[200], why[256];
    case_begin();
    for (int it = 0; it < check_iters(60) && !check_failed_; it++) {
        int kind = (int)rng_below(&r, N_KINDS), both = kind_alpha[kind] == RV_ALPHA_DNA && rng_below(&r, 2);
        input_t in;
        input_random(&r, kind, 60, &in);
        rv_index_t *x = index_of(&in, both ? 2 : 1, 1);
        rv_seq_t *s = seq_of(&in, both ? 2 : 1);
        CHECK(x && s, "build: %s", rv_last_error());
        if (!x || !s) { rv_seq_free(s); rv_index_free(x); input_free(&in); break; }
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, 1 + rng_below(&r, 5));
        random_filters(&r, s, (int)rng_below(&r, 8), &o);
        o.strands = both ? (int)rng_below(&r, 3) - 1 : 1;
        o.threads = 1 + (int)rng_below(&r, 2);
        blist_t ref = {0};
        CHECK(rv_pairs_each_batch(x, &o, collect_batch, &ref) == 0, "index: %s", rv_last_error());
        /* sinks of 64 pairs in a third of the runs: each thread spills many runs into
         * its part, the directory lists them all */
        if (rng_below(&r, 3) == 0) o.mem_bytes = 1;
        uint64_t n = 1 + rng_below(&r, 5), budget = rng_below(&r, 2) ? 1 : 3000;
        describe(&in, d, sizeof d);
        snprintf(what, sizeof what, "%s strands %s min %llu N %llu%s [%s]", kinds[kind], strands_name(o.strands),
                 (unsigned long long)o.min_len, (unsigned long long)n, o.mem_bytes ? " small sinks" : "", d);
        if (write_parts(s, &o, budget, n, "r")) {
            uint64_t which[8];
            for (uint64_t i = 0; i < n; i++) which[i] = i;
            for (uint64_t i = n; i > 1; i--) { /* any order */
                uint64_t j = rng_below(&r, i), t = which[i - 1];
                which[i - 1] = which[j], which[j] = t;
            }
            rv_part_t *parts[8] = {0};
            if (open_parts("r", which, n, parts)) {
                uint64_t total = 0;
                for (uint64_t i = 0; i < n; i++) {
                    uint64_t sl, ns;
                    rv_part_slice(parts[i], &sl, &ns);
                    CHECK(sl == which[i] && ns == n, "%s: part says slice %llu of %llu", what,
                          (unsigned long long)sl, (unsigned long long)ns);
                    CHECK(!strcmp(rv_part_input(parts[i]), "-"), "%s: input '%s'", what, rv_part_input(parts[i]));
                    total += rv_part_items(parts[i]);
                }
                CHECK(total == ref.n, "%s: parts hold %llu pairs, want %zu", what, (unsigned long long)total, ref.n);
                CHECK(rv_parts_check(parts, n, s) == 0, "%s: check: %s", what, rv_last_error());
                CHECK(rv_parts_check(parts, n, NULL) == 0, "%s: check without input: %s", what, rv_last_error());
                for (int rep = 0; rep < 2; rep++) { /* a second merge of the same parts reads them again */
                    blist_t got = {0};
                    CHECK(rv_parts_merge(parts, n, collect_batch, &got) == 0, "%s: merge: %s", what, rv_last_error());
                    CHECK(!got.bad_batch, "%s: merge: bad batch", what);
                    CHECK(same_list(&got, &ref, why, sizeof why), "%s: merge %d: %s", what, rep, why);
                    free(got.a);
                }
                if (n > 1) {
                    CHECK(rv_parts_check(parts, n - 1, s) < 0 && rv_last_error()[0], "%s: missing slice accepted", what);
                    rv_part_t *dup[8];
                    memcpy(dup, parts, n * sizeof *dup);
                    dup[n - 1] = dup[0];
                    CHECK(rv_parts_check(dup, n, s) < 0 && rv_last_error()[0], "%s: duplicate slice accepted", what);
                }
            }
            close_parts(parts, n);
        }
        free(ref.a);
        rv_seq_free(s);
        rv_index_free(x);
        input_free(&in);
    }
    char name[64];
    snprintf(name, sizeof name, "buckets_parts_merge%s", merge_variant);
    case_end(name);
}

/* A batch callback that also keeps how many pairs came before each of the first
 * 64 calls. */
typedef struct {
    blist_t all;
    size_t before[64];
    int calls;
} sizes_t;

static int size_batch(void *ud, const rv_pair_t *p, size_t n)
{
    sizes_t *z = ud;
    if (z->calls < 64) z->before[z->calls] = z->all.n;
    z->calls++;
    return collect_batch(&z->all, p, n);
}

/* A batch callback that stops (returns 5) at batch `stop` (1-based; 0: never). */
typedef struct {
    blist_t got;
    int calls, stop;
} stopper_t;

static int stop_batch(void *ud, const rv_pair_t *p, size_t n)
{
    stopper_t *st = ud;
    if (++st->calls == st->stop) return 5;
    return collect_batch(&st->got, p, n);
}

/* Parts of several batches (the merge's chunks run ahead on worker threads):
 * every pair in order, against the index; a callback that stops at batch k
 * stops the merge there with its value, after exactly k calls and a prefix of
 * the pairs. */
static void test_parts_batches(void)
{
    rng_t r = rng_new(1507);
    char what[128], why[256];
    int quick = check_iters(10) < 10;
    case_begin();
    for (int it = 0; it < 3 && !check_failed_; it++) {
        input_t in = {.kind = it == 2 ? 5 : 2, .nrec = 2};
        for (int k = 0; k < 2; k++) {
            size_t len = (quick ? 700 : 1200) + rng_below(&r, 300);
            in.rec[k] = malloc(len + 1);
            random_record(&r, in.kind, in.rec[k], len);
        }
        rv_index_t *x = index_of(&in, 1, 2);
        rv_seq_t *s = seq_of(&in, 1);
        CHECK(x && s, "build: %s", rv_last_error());
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, 1);
        o.threads = 2;
        blist_t ref = {0};
        CHECK(x && rv_pairs_each_batch(x, &o, collect_batch, &ref) == 0, "index: %s", rv_last_error());
        uint64_t n = 2 + rng_below(&r, 4), which[8];
        for (uint64_t i = 0; i < n; i++) which[i] = n - 1 - i;
        snprintf(what, sizeof what, "batches %d (%s, %zu pairs, N %llu)", it, kinds[in.kind], ref.n,
                 (unsigned long long)n);
        CHECK(ref.n > 2 * RV_PAIRS_BATCH, "%s: too few pairs for three batches", what);
        rv_part_t *parts[8] = {0};
        if (x && s && write_parts(s, &o, 1 << 20, n, "b") && open_parts("b", which, n, parts)) {
            sizes_t got = {{0}, {0}, 0};
            CHECK(rv_parts_merge(parts, n, size_batch, &got) == 0, "%s: merge: %s", what, rv_last_error());
            CHECK(!got.all.bad_batch, "%s: merge: bad batch", what);
            CHECK(same_list(&got.all, &ref, why, sizeof why), "%s: %s", what, why);
            free(got.all.a);
            int batches = got.calls < 64 ? got.calls : 64;
            for (int k = 1; k <= batches; k++) {
                stopper_t st = {{0}, 0, k};
                CHECK(rv_parts_merge(parts, n, stop_batch, &st) == 5, "%s: stop at %d: not stopped", what, k);
                CHECK(st.calls == k, "%s: stop at %d: %d calls", what, k, st.calls);
                /* batches end at the merge's chunks too: the sizes of the full merge's */
                CHECK(st.got.n == got.before[k - 1], "%s: stop at %d: %zu pairs before, want %zu", what, k,
                      st.got.n, got.before[k - 1]);
                for (size_t i = 0; i < st.got.n && i < ref.n; i++)
                    if (st.got.a[i].p1 != ref.a[i].p1 || st.got.a[i].p2 != ref.a[i].p2 ||
                        st.got.a[i].len != ref.a[i].len || st.got.a[i].inverted != ref.a[i].inverted) {
                        CHECK(0, "%s: stop at %d: pair %zu differs", what, k, i);
                        break;
                    }
                free(st.got.a);
            }
        }
        close_parts(parts, n);
        free(ref.a);
        rv_seq_free(s);
        rv_index_free(x);
        input_free(&in);
    }
    char name[64];
    snprintf(name, sizeof name, "buckets_parts_merge_batches%s", merge_variant);
    case_end(name);
}

/* rv_pair_locate_near (a hint carried from pair to pair) against rv_pair_locate
 * on the pairs of random inputs (breakers, several records, empty records), in
 * order of p1 and shuffled. */
static void test_locate_near(void)
{
    rng_t r = rng_new(1508);
    case_begin();
    for (int it = 0; it < check_iters(200) && !check_failed_; it++) {
        int kind = (int)rng_below(&r, N_KINDS);
        input_t in;
        input_random(&r, kind, 80, &in);
        if (rng_below(&r, 4) == 0) in.rec[rng_below(&r, (uint64_t)in.nrec)][0] = 0; /* an empty record */
        rv_seq_t *s = seq_of(&in, 1);
        rv_index_t *x = index_of(&in, 1, 1);
        CHECK(x && s, "build: %s", rv_last_error());
        rv_pairs_opts_t o;
        rv_pairs_opts_init(&o, 1 + rng_below(&r, 3));
        blist_t l = {0};
        CHECK(x && rv_pairs_each_batch(x, &o, collect_batch, &l) == 0, "pairs: %s", rv_last_error());
        for (int order = 0; order < 2 && s; order++) {
            if (order) /* shuffled: the hint misses */
                for (size_t i = l.n; i > 1; i--) {
                    size_t j = (size_t)rng_below(&r, i);
                    rv_pair_t t = l.a[i - 1];
                    l.a[i - 1] = l.a[j], l.a[j] = t;
                }
            rv_pair_hint_t hint = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
            for (size_t i = 0; i < l.n; i++) {
                rv_pair_loc_t a, b;
                memset(&a, 0, sizeof a), memset(&b, 0, sizeof b);
                rv_pair_locate(s, &l.a[i], &a);
                rv_pair_locate_near(s, &l.a[i], &b, &hint);
                if (a.rec1 != b.rec1 || a.rec2 != b.rec2 || a.start1 != b.start1 || a.start2 != b.start2 ||
                    a.same_record != b.same_record || a.gap != b.gap) {
                    CHECK(0, "%s it %d order %d: pair %llu %llu %llu located apart", kinds[kind], it, order,
                          (unsigned long long)l.a[i].p1, (unsigned long long)l.a[i].p2,
                          (unsigned long long)l.a[i].len);
                    break;
                }
            }
        }
        free(l.a);
        rv_seq_free(s);
        rv_index_free(x);
        input_free(&in);
    }
    case_end("pairs_locate_near");
}

static int write_file(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fwrite(buf, 1, len, f) == len;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* Parts whose directory was altered but whose hashes are right (a body of our own
 * through the part writer, as anyone could make): the merge refuses each with a
 * message, before any pair where the directory does not add up (a run one pair
 * longer than its bytes is found as it is read; so are a checkpoint whose key is
 * not its pair, pairs outside the text the part names, shorter than its -l or
 * out of order, the last found as the merged pairs are counted), never a crash (`make
 * asan` runs this); the body copied unaltered merges as the part it came from. */
enum { CRAFT_NONE, CRAFT_HUGE_RUNS, CRAFT_LEN, CRAFT_CK_ORDER, CRAFT_NRUNS, CRAFT_DIR_PAST, CRAFT_KEYS, CRAFT_BOTH,
       CRAFT_CK_KEY, CRAFT_BOTH_ON, CRAFT_BOTH_OFF, CRAFT_OUTSIDE, CRAFT_SHORT, CRAFT_ORDER, CRAFT_JUMP, N_CRAFT };

/* The varint at b + at: its value in *v, its width returned. */
static size_t varint_get(const uint8_t *b, size_t at, uint64_t *v)
{
    size_t w = 0;
    *v = 0;
    do *v |= (uint64_t)(b[at + w] & 0x7f) << (7 * w);
    while (b[at + w++] & 0x80);
    return w;
}

/* v (below 2^(7 width)) over the varint of that width at b + at. */
static void varint_put(uint8_t *b, size_t at, size_t width, uint64_t v)
{
    for (size_t i = 0; i < width; i++, v >>= 7) b[at + i] = (uint8_t)((v & 0x7f) | (i + 1 < width ? 0x80 : 0));
}

/* Pairs of run 0 (at the body's start, checkpoints every `check`, the first
 * nck of them with keys ck_p1) made wrong in the body: CRAFT_SHORT its first
 * pair's length 1; CRAFT_ORDER the first pair past a checkpoint that has its
 * neighbour's p1 gets p2 = p1, so it comes before that neighbour; CRAFT_JUMP the
 * last pair before a checkpoint gets a p1 64 past the checkpoint's (in the text
 * of nf symbols), so that a merge in chunks of 64 pairs (cut inside the jump)
 * stops before it and no chunk compares it with the pairs after it.  0, or -1
 * when the run has no such pair. */
static int craft_body(uint8_t *b, uint64_t check, const uint64_t *ck_p1, uint64_t nck, uint64_t nf, int how)
{
    size_t at = 0;
    uint64_t d1, d2, len, prev = 0;
    for (uint64_t i = 0; i < 64; i++) {
        size_t w1 = varint_get(b, at, &d1), w2 = varint_get(b, at + w1, &d2), w3 = varint_get(b, at + w1 + w2, &len);
        if (i % check == 0) prev = 0;
        if (how == CRAFT_SHORT) return varint_put(b, at + w1 + w2, w3, 1), 0;
        if (how == CRAFT_ORDER && i % check && d1 == 0) return varint_put(b, at + w1, w2, 0), 0;
        const uint64_t j = i / check, p1 = ck_p1[j + 1 < nck ? j + 1 : 0] + 64;
        if (how == CRAFT_JUMP && i % check == check - 1 && i % check && j + 1 < nck && p1 - prev < 1ull << (7 * w1) &&
            p1 + d2 + len <= nf)
            return varint_put(b, at, w1, p1 - prev), 0;
        prev += d1;
        at += w1 + w2 + w3;
    }
    return -1;
}

/* The crafted copy of part p at path: its runs' bytes, then the directory words w
 * (altered by `how`), the items the directory's runs add up to (wrapping); the
 * header of input s, the options p's but for the text length (s's). */
static rv_part_t *craft_part(rv_part_t *p, const rv_seq_t *s, int how, const char *path)
{
    uint64_t nb = rv_part_body_bytes(p), at;
    uint8_t *body = malloc(nb);
    if (!body || rv_part_read(p, body, nb, 0) != (int64_t)nb) { free(body); return NULL; }
    memcpy(&at, body + nb - 8, 8);
    uint64_t nw = (nb - at) / 8, *w = malloc(nw * sizeof *w);
    memcpy(w, body + at, nw * 8);
    uint64_t nruns = w[0], nck = w[1], *run = w + 4, *ck = run + 3 * nruns;
    switch (how) {
    case CRAFT_HUGE_RUNS: /* counts that wrap to the file's, checkpoints that fit any */
        w[2] = 1ull << 63;
        run[1] = 1ull << 63, run[4] = 1ull << 63;
        break;
    case CRAFT_LEN: run[1]++; break;
    case CRAFT_CK_ORDER: ck[3] = ck[0]; break;
    case CRAFT_NRUNS: w[0] = 1ull << 62; break;
    case CRAFT_DIR_PAST: w[nw - 1] = nb; break;
    case CRAFT_KEYS: ck[3 * 2 + 1] = 0, ck[3 * 1 + 1] = UINT64_MAX / 2; break;
    case CRAFT_BOTH: w[3] = 2; break;
    case CRAFT_CK_KEY: ck[3 * (run[3 + 2] - 1) + 1]++; break; /* run 0's last checkpoint: keys still ascend */
    case CRAFT_BOTH_ON: w[3] = 1; break;
    case CRAFT_BOTH_OFF: w[3] = 0; break;
    case CRAFT_SHORT:
    case CRAFT_ORDER:
    case CRAFT_JUMP: {
        uint64_t run0_ck[64], k = 0; /* run 0's checkpoint keys (p1) */
        for (uint64_t c = run[2]; c < (nruns > 1 ? run[3 + 2] : nck) && k < 64; c++) run0_ck[k++] = ck[3 * c + 1];
        if (craft_body(body, w[2], run0_ck, k, s->n, how) < 0) { free(w), free(body); return NULL; }
        break;
    }
    }
    uint64_t items = 0;
    for (uint64_t q = 0; q < nruns; q++) items += run[3 * q + 1];
    size_t ob;
    const void *opts = rv_part_opts(p, &ob);
    uint8_t po[256];
    if (ob > sizeof po) { free(w), free(body); return NULL; }
    memcpy(po, opts, ob);
    memcpy(po, &s->n, sizeof s->n); /* the options begin with the text length */
    rv_part_writer_t *pw = rv_part_writer_begin(path, RV_PART_PAIRS, 0, 1, s, po, ob);
    rv_part_t *q = NULL;
    if (pw) {
        FILE *f = rv_part_writer_file(pw);
        fwrite(body, 1, (size_t)at, f);
        fwrite(w, 8, (size_t)nw, f);
        if (rv_part_writer_end(pw, items, 0, 0) == 0 && rv_part_open(path, &q) < 0) q = NULL;
    }
    free(w);
    free(body);
    return q;
}

static void test_parts_crafted(void)
{
    static const char *const names[N_CRAFT] = {"unaltered", "huge runs", "a run's length", "checkpoints' order",
                                               "run count", "directory past the end", "keys' order", "both flag",
                                               "a checkpoint's key", "both flag on one strand",
                                               "both flag off both strands", "a shorter input",
                                               "a pair below the minimum length", "pairs out of order",
                                               "a pair past the next checkpoint"};
    rng_t r = rng_new(1511);
    case_begin();
    input_t in = {.kind = 2, .nrec = 1};
    in.rec[0] = malloc(4001);
    random_record(&r, in.kind, in.rec[0], 4000);
    rv_seq_t *s = seq_of(&in, 1), *s2 = seq_of(&in, 2);
    in.rec[0][2000] = 0;
    rv_seq_t *shorter = seq_of(&in, 1);
    rv_pairs_opts_t o;
    rv_pairs_opts_init(&o, 2);
    o.threads = 2, o.mem_bytes = 1; /* runs of 64 pairs: several in each sink */
    rv_part_t *parts[3] = {0};
    uint64_t zero = 0;
    /* "c": a checkpoint a run; "d": a checkpoint every 3 pairs; "b": both strands */
    int ok = s && s2 && shorter && write_parts(s, &o, 1 << 20, 1, "c") && open_parts("c", &zero, 1, &parts[0]);
    setenv("REPVIEW_MERGE_CHUNK", "97", 1);
    ok = ok && write_parts(s, &o, 1 << 20, 1, "d") && open_parts("d", &zero, 1, &parts[1]);
    unsetenv("REPVIEW_MERGE_CHUNK");
    o.strands = 2;
    ok = ok && write_parts(s2, &o, 1 << 20, 1, "b") && open_parts("b", &zero, 1, &parts[2]);
    blist_t ref = {0};
    CHECK(ok && rv_parts_merge(parts, 1, collect_batch, &ref) == 0, "reference: %s", rv_last_error());
    char path[4200], why[256];
    for (int how = 0; ok && how < N_CRAFT; how++) {
        int use = how == CRAFT_CK_ORDER || how == CRAFT_KEYS || how == CRAFT_CK_KEY || how == CRAFT_ORDER ||
                          how == CRAFT_JUMP
                      ? 1
                  : how == CRAFT_BOTH_OFF                                                          ? 2
                                                                                                   : 0;
        part_path(path, sizeof path, "crafted", (uint64_t)how);
        rv_part_t *q = craft_part(parts[use], how == CRAFT_OUTSIDE ? shorter : use == 2 ? s2 : s, how, path);
        CHECK(q != NULL, "%s: could not craft: %s", names[how], rv_last_error());
        if (!q) continue;
        blist_t got = {0};
        rv_clear_error();
        if (how == CRAFT_JUMP) setenv("REPVIEW_MERGE_CHUNK", "64", 1); /* chunks cut within the jump */
        int checked = rv_parts_check_runs(&q, 1), merged = rv_parts_merge(&q, 1, collect_batch, &got);
        unsetenv("REPVIEW_MERGE_CHUNK");
        if (how == CRAFT_NONE) {
            CHECK(checked == 0 && merged == 0, "unaltered copy refused: %s", rv_last_error());
            CHECK(same_list(&got, &ref, why, sizeof why), "unaltered copy: %s", why);
        } else if (how == CRAFT_LEN) { /* the directory adds up: the run's bytes end early */
            CHECK(merged < 0 && rv_last_error()[0], "%s: merged (%d)", names[how], merged);
        } else if (how == CRAFT_CK_KEY || how == CRAFT_OUTSIDE || how == CRAFT_SHORT || how == CRAFT_ORDER ||
                   how == CRAFT_JUMP) { /* found as the pairs are read (or, JUMP, as they are counted) */
            const char *says = how == CRAFT_CK_KEY                        ? "checkpoint's key is not its pair"
                               : how == CRAFT_SHORT                       ? "shorter than the part's minimum length"
                               : how == CRAFT_ORDER || how == CRAFT_JUMP ? "pairs out of order"
                                                                          : "a pair outside the text";
            CHECK(checked == 0 && merged < 0 && strstr(rv_last_error(), says),
                  "%s: merged (check %d, merge %d: %s)", names[how], checked, merged, rv_last_error());
            rv_part_t *mix[2] = {parts[use], q}; /* parts of two lengths: whose bound? */
            CHECK(how != CRAFT_OUTSIDE || rv_parts_check_runs(mix, 2) < 0, "parts of two text lengths accepted");
        } else {
            CHECK(checked < 0 && merged < 0 && strstr(rv_last_error(), "do not add up"),
                  "%s: accepted (check %d, merge %d: %s)", names[how], checked, merged, rv_last_error());
            CHECK(got.n == 0, "%s: %zu pairs passed on", names[how], got.n);
        }
        free(got.a);
        rv_part_close(q);
    }
    free(ref.a);
    close_parts(parts, 3);
    rv_seq_free(s);
    rv_seq_free(s2);
    rv_seq_free(shorter);
    input_free(&in);
    case_end("buckets_parts_crafted");
}

/* The merge when not every thread's cursors can be allocated
 * (REPVIEW_MERGE_SCRATCH=N: only N can): fewer threads, down to the calling one
 * alone, the same pairs; "out of memory" only when none can. */
static void test_parts_scratch(void)
{
    rng_t r = rng_new(1512);
    case_begin();
    input_t in = {.kind = 2, .nrec = 1};
    in.rec[0] = malloc(3001);
    random_record(&r, in.kind, in.rec[0], 3000);
    rv_seq_t *s = seq_of(&in, 1);
    rv_pairs_opts_t o;
    rv_pairs_opts_init(&o, 2);
    o.threads = 3, o.mem_bytes = 1; /* many runs */
    rv_part_t *parts[2] = {0};
    const uint64_t both[2] = {0, 1};
    int ok = s && write_parts(s, &o, 1 << 20, 2, "sc") && open_parts("sc", both, 2, parts);
    blist_t ref = {0};
    CHECK(ok && rv_pairs_buckets_each_batch(s, &o, 1 << 20, 0, 1, collect_batch, &ref) == 0, "reference: %s",
          rv_last_error());
    setenv("REPVIEW_MERGE_CHUNK", "97", 1); /* many chunks for the threads */
    char env[16], why[256];
    for (int most = 0; ok && most <= 3; most++) {
        snprintf(env, sizeof env, "%d", most);
        setenv("REPVIEW_MERGE_SCRATCH", env, 1);
        blist_t got = {0};
        rv_clear_error();
        int rc = rv_parts_merge(parts, 2, collect_batch, &got);
        if (most == 0)
            CHECK(rc < 0 && strstr(rv_last_error(), "out of memory"), "no scratch: %d (%s)", rc, rv_last_error());
        else
            CHECK(rc == 0 && same_list(&got, &ref, why, sizeof why), "scratch for %d: %s", most,
                  rc ? rv_last_error() : why);
        free(got.a);
    }
    unsetenv("REPVIEW_MERGE_SCRATCH");
    /* chunks without room for their pairs (REPVIEW_MERGE_NO_ROOM=N: every Nth)
     * are read again from the parts in pieces, in order: the same pairs */
    for (int every = 1; ok && every <= 3; every++) {
        snprintf(env, sizeof env, "%d", every);
        setenv("REPVIEW_MERGE_NO_ROOM", env, 1);
        if (every == 3) setenv("REPVIEW_MERGE_SCRATCH", "1", 1); /* the calling thread alone */
        blist_t got = {0};
        int rc = rv_parts_merge(parts, 2, collect_batch, &got);
        CHECK(rc == 0 && same_list(&got, &ref, why, sizeof why), "no room every %d: %s", every,
              rc ? rv_last_error() : why);
        free(got.a);
    }
    unsetenv("REPVIEW_MERGE_NO_ROOM");
    unsetenv("REPVIEW_MERGE_SCRATCH");
    unsetenv("REPVIEW_MERGE_CHUNK");
    free(ref.a);
    close_parts(parts, 2);
    rv_seq_free(s);
    input_free(&in);
    case_end("buckets_parts_scratch");
}

/* Refusals: runs of other options, slices of other N, another input, truncated
 * and garbage files, slices that do not exist. */
static void test_parts_errors(void)
{
    case_begin();
    const char *names[2] = {"a", "b"};
    const char *seqs[2] = {"ACGTACGTTTACGTACGAACGTNACGTACGT", "GGACGTACGTTTAC"};
    const char *other[2] = {"ACGTACGTTTACGTACGAACGTNACGTACG", "GGACGTACGTTTAC"}; /* one symbol shorter */
    rv_seq_t *s = rv_seq_from_records(names, seqs, 2, RV_ALPHA_DNA);
    rv_seq_t *s2 = rv_seq_from_records(names, other, 2, RV_ALPHA_DNA);
    rv_pairs_opts_t o, o4;
    rv_pairs_opts_init(&o, 3);
    rv_pairs_opts_init(&o4, 4);
    char path[4200], p2[4200];
    rv_part_t *parts[4] = {0}, *q = NULL;
    const uint64_t w3[3] = {0, 1, 2};
    CHECK(s && s2, "seq");
    if (check_failed_) goto out;
    write_parts(s, &o, 1, 3, "e");   /* -l 3, three slices */
    write_parts(s, &o4, 1, 3, "f");  /* -l 4 */
    write_parts(s, &o, 1, 2, "g");   /* two slices */
    write_parts(s2, &o, 1, 3, "h");  /* another input */
    if (check_failed_) goto out;
    /* a run of other options in the set */
    open_parts("e", w3, 3, parts);
    part_path(path, sizeof path, "f", 1);
    CHECK(rv_part_open(path, &q) == 0, "open f.1: %s", rv_last_error());
    if (check_failed_) goto out;
    rv_part_t *mix[3] = {parts[0], q, parts[2]};
    CHECK(rv_parts_check(mix, 3, NULL) < 0 && rv_last_error()[0], "parts of -l 3 and -l 4 merged");
    rv_part_close(q);
    /* a slice of another N */
    part_path(path, sizeof path, "g", 1);
    CHECK(rv_part_open(path, &q) == 0, "open g.1");
    mix[1] = q;
    CHECK(rv_parts_check(mix, 3, NULL) < 0, "slices of N=2 and N=3 merged");
    rv_part_t *two[2] = {parts[0], q};
    CHECK(rv_parts_check(two, 2, NULL) < 0, "a set of N=3 with a part of N=2");
    rv_part_close(q);
    /* another input (its own complete set is fine) */
    part_path(path, sizeof path, "h", 1);
    CHECK(rv_part_open(path, &q) == 0, "open h.1");
    mix[1] = q;
    CHECK(rv_parts_check(mix, 3, NULL) < 0, "parts of two inputs merged");
    rv_part_close(q);
    CHECK(rv_parts_check(parts, 3, s2) < 0 && rv_last_error()[0], "parts checked against another input");
    CHECK(rv_parts_check(parts, 3, s) == 0, "own input: %s", rv_last_error());
    CHECK(rv_parts_check(parts, 0, NULL) < 0, "no parts accepted");
    CHECK(rv_parts_check(parts, 2, NULL) < 0, "2 of 3 accepted");
    rv_part_t *dup[3] = {parts[0], parts[1], parts[1]};
    CHECK(rv_parts_check(dup, 3, NULL) < 0, "duplicate accepted");
    /* truncated, extended, garbage, empty, missing, a directory */
    part_path(path, sizeof path, "e", 0);
    struct stat st;
    CHECK(stat(path, &st) == 0 && st.st_size > 0, "stat");
    FILE *f = fopen(path, "rb");
    size_t len = (size_t)st.st_size;
    char *buf = malloc(len + 64);
    CHECK(f && fread(buf, 1, len, f) == len, "read part");
    if (f) fclose(f);
    snprintf(p2, sizeof p2, "%s/bad.part", tmpdir);
    for (size_t cut = 1; cut <= len && !check_failed_; cut += cut < 80 ? 1 : 37) {
        write_file(p2, buf, len - cut);
        q = NULL;
        CHECK(rv_part_open(p2, &q) < 0 && rv_last_error()[0] && !q, "a part cut by %zu bytes opened", cut);
        rv_part_close(q);
    }
    for (size_t cut = 1; cut < len && !check_failed_; cut += cut < 40 ? 1 : 29) { /* the run cut, the trailer kept */
        write_file(p2, buf + cut, len - cut);
        q = NULL;
        CHECK(rv_part_open(p2, &q) < 0 && !q, "a part without its first %zu bytes opened", cut);
        rv_part_close(q);
    }
    char *ins = malloc(len + 8);
    memcpy(ins, "\x01\x02\x03", 3); /* bytes before the run */
    memcpy(ins + 3, buf, len);
    write_file(p2, ins, len + 3);
    free(ins);
    CHECK(rv_part_open(p2, &q) < 0, "a part with 3 bytes prepended opened");
    memcpy(buf + len, "xyz", 3);
    write_file(p2, buf, len + 3);
    CHECK(rv_part_open(p2, &q) < 0, "a part with 3 bytes appended opened");
    for (size_t i = 0; i < len; i++) buf[i] = (char)(i * 131 + 7);
    write_file(p2, buf, len);
    CHECK(rv_part_open(p2, &q) < 0, "garbage opened");
    write_file(p2, buf, 0);
    CHECK(rv_part_open(p2, &q) < 0, "an empty file opened");
    snprintf(p2, sizeof p2, "%s/nope.part", tmpdir);
    CHECK(rv_part_open(p2, &q) < 0, "a missing file opened");
    free(buf);
    /* slices that do not exist; no temporary left */
    snprintf(p2, sizeof p2, "%s/x.part", tmpdir);
    CHECK(rv_pairs_part_write(s, &o, 1, 3, 3, p2) < 0 && access(p2, F_OK) != 0, "slice 4 of 3 written");
    CHECK(rv_pairs_part_write(s, &o, 1, 0, 0, p2) < 0 && access(p2, F_OK) != 0, "slice of 0 written");
    snprintf(p2, sizeof p2, "%s/no/such/dir/x.part", tmpdir);
    CHECK(rv_pairs_part_write(s, &o, 1, 0, 1, p2) < 0 && rv_last_error()[0], "written into a missing directory");
out:
    close_parts(parts, 3);
    rv_seq_free(s);
    rv_seq_free(s2);
    case_end("buckets_parts_errors");
}

int main(void)
{
    const char *base = getenv("RV_TMP");
    snprintf(tmpdir, sizeof tmpdir, "%s/t_buckets.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir)) { perror(tmpdir); return 1; }
    test_sort_fixed();
    test_sort_random();
    test_split_sort();
    test_pairs_random(0);
    test_pairs_random(1);
    test_pairs_large();
    test_split_pairs();
    test_parts_random();
    test_parts_batches();
    test_parts_crafted();
    test_parts_scratch();
    setenv("REPVIEW_MERGE_CHUNK", "97", 1);
    merge_variant = "_chunks";
    test_parts_random();
    test_parts_batches();
    unsetenv("REPVIEW_MERGE_CHUNK");
    merge_variant = "";
    test_locate_near();
    test_parts_errors();
    /* the same oracles with a job map (each job scanning the map, not the text) */
    for (map_mode = 1; map_mode <= 4; map_mode++) {
        test_sort_fixed();
        test_sort_random();
        test_split_sort();
        test_map_wide();
    }
    map_mode = 0;
    test_lists_blocks();
    test_cpu_foreign_plan();
    test_plan_counted();
    test_plan_tapered();
    test_plan_spread();
    /* the same oracles with the GPU sorting the jobs (skipped without one) */
    char gname[256], why[256];
    if (rv_gpu_probe(gname, sizeof gname, why, sizeof why)) {
        gpu_mode = 1;
        test_sort_fixed();
        test_sort_random();
        test_split_sort(); /* the parts of split buckets on the CPU, the rest on the device */
        test_pairs_large();
        gpu_mode = 2;
        test_pairs_large();
        test_split_pairs();
        test_gpu_foreign_plan();
        test_plan_counted();
        /* the starts grouped in chunks of 997 positions (a code's starts then span
         * chunks), and not grouped at all (each job scans the codes) */
        static const char *const var[2][3] = {{"REPVIEW_GPU_GROUP_CHUNK", "997", "_chunks"},
                                              {"REPVIEW_GPU_GROUP", "0", "_select"}};
        for (int v = 0; v < 2; v++) {
            setenv(var[v][0], var[v][1], 1);
            gpu_variant = var[v][2];
            gpu_mode = 1;
            test_sort_random();
            gpu_mode = 2;
            test_pairs_large();
            test_gpu_foreign_plan();
            unsetenv(var[v][0]);
        }
        gpu_variant = "";
        gpu_mode = 0;
    } else {
        printf("SKIP buckets_gpu: no usable GPU (%s)\n", why);
    }
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", tmpdir);
    return check_exit();
}
