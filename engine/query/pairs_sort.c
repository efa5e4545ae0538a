/* pairs_sort.c — maximal pairs in (p1, p2) order with bounded memory.
 *
 * The traversal (pairs_tree.c) finds pairs task by task, in suffix-array order, while
 * repview(1) wants them ordered by position.  Two ways to get there without holding
 * every pair:
 *   (a) bucket by p1 range and run the whole traversal once per bucket — each
 *       pass pays the full enumeration again, so z pairs cost z * buckets;
 *   (b) produce once and merge: each thread fills a buffer, sorts it (LSD radix
 *       on (p1, p2)) into a run, spills full runs to an unlinked temporary file,
 *       and a k-way heap merge streams every run in order (external merge sort).
 * We use (b): every pair is produced once, memory stays at mem_bytes whatever z
 * is, and nothing touches the disk unless the output outgrows memory.  Spilled
 * runs are delta + varint coded (p1 - previous p1, p2 - p1, len: about 6 bytes a
 * pair instead of 24), which keeps the temporary files and their I/O small; every
 * `check`-th pair of a run is coded from p1 = 0 and its place kept, so that the
 * merge can also start inside a run (pairs_merge.c cuts the runs into chunks that
 * merge on every thread).  (p1, p2)
 * identifies a maximal pair (its length is the LCE of p1 and p2), so the order is
 * total and the output does not depend on the thread count.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "repview/common.h"
#include "base/internal.h"
#include "pairs_internal.h"

enum { DIGIT = 11, READ_PAIRS = 2048, RAW_BYTES = 1 << 16, MAX_CODE = 30 };
_Static_assert(MAX_CODE <= sizeof(rv_pair_t), "a spilled pair is coded in the room of one pair");

static int sink_fail(pf_sink_t *k, const char *what)
{
    snprintf(k->errmsg, sizeof k->errmsg, "pairs: %s: %s", what, strerror(errno));
    k->err = 1;
    return -1;
}

int pf_sink_init(pf_sink_t *k, uint64_t max, uint64_t n_text)
{
    memset(k, 0, sizeof *k);
    k->fd = -1;
    k->bits = 1;
    while (k->bits < 64 && (1ull << k->bits) < n_text) k->bits++;
    k->max = max;
    k->sort_threads = 1;
    uint64_t chunk;
    pf_merge_tuning(&chunk, &k->check);
    return 0;
}

/* The buffer and its sort's scratch at c pairs; without room the sink fails
 * (fatal), or stays as it was. */
static int sink_grow(pf_sink_t *k, uint64_t c, int fatal)
{
    rv_pair_t *b = realloc(k->buf, c * sizeof *b);
    if (b) k->buf = b;
    rv_pair_t *t = b ? realloc(k->tmp, c * sizeof *t) : NULL;
    if (t) k->tmp = t;
    if (!b || !t) {
        if (!fatal) return -1;
        rv_oom("pairs' sort buffer", 2 * c * sizeof *b);
        snprintf(k->errmsg, sizeof k->errmsg, "%s", rv_last_error());
        k->err = 1;
        return -1;
    }
    k->cap = c;
    return 0;
}

int pf_sink_room(pf_sink_t *k)
{
    if (k->n < k->cap) return 0;
    if (k->cap >= k->max) return pf_sink_spill(k);
    uint64_t c = k->cap ? 2 * k->cap : 4096;
    return sink_grow(k, c > k->max ? k->max : c, 1);
}

int pf_sink_reserve(pf_sink_t *k, uint64_t pairs)
{
    if (pairs > k->max) pairs = k->max;
    if (pairs > k->cap && sink_grow(k, pairs, 0) < 0) return -1;
    if (k->cap > k->n) memset(k->buf + k->n, 0, (k->cap - k->n) * sizeof *k->buf); /* its pages, not its pairs */
    return 0;
}

void pf_sink_free(pf_sink_t *k)
{
    free(k->buf);
    free(k->tmp);
    free(k->run_off);
    free(k->run_len);
    free(k->run_ck);
    free(k->ck_off);
    free(k->ck_p1);
    free(k->ck_p2);
    if (k->fd >= 0) close(k->fd);
    k->fd = -1;
}

static void insertion_sort(rv_pair_t *a, uint64_t n)
{
    for (uint64_t i = 1; i < n; i++) {
        rv_pair_t v = a[i];
        uint64_t j = i;
        for (; j > 0 && pf_pair_less(&v, &a[j - 1]); j--) a[j] = a[j - 1];
        a[j] = v;
    }
}

/* The runs' LSD radix sort (p1, p2, and len when both strands), on `threads`
 * threads for a large n: each pass counted and scattered by slices (stable: slice
 * t's pairs of a digit go after those of slices before t).  A spill
 * of the few jobs that make most of the pairs (a poly-A bucket: a third of a
 * genome's pairs) sorted on one thread would be most of their job's time. */
typedef struct {
    rv_pair_t *src, *dst;
    uint64_t n, (*cnt)[1u << DIGIT];
    int parts, field, sh;
} rsort_t;

static inline uint64_t field_of(const rv_pair_t *p, int field) { return field == 2 ? p->p1 : field == 1 ? p->p2 : p->len; }

static void rsort_count(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    const rsort_t *r = ctx;
    for (uint64_t part = lo; part < hi; part++) {
        uint64_t a = r->n * part / (uint64_t)r->parts, b = r->n * (part + 1) / (uint64_t)r->parts;
        uint64_t *c = r->cnt[part];
        memset(c, 0, sizeof r->cnt[0]);
        for (uint64_t i = a; i < b; i++) c[(field_of(&r->src[i], r->field) >> r->sh) & ((1u << DIGIT) - 1)]++;
    }
    (void)t;
}

static void rsort_scatter(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    const rsort_t *r = ctx;
    for (uint64_t part = lo; part < hi; part++) {
        uint64_t a = r->n * part / (uint64_t)r->parts, b = r->n * (part + 1) / (uint64_t)r->parts;
        uint64_t *c = r->cnt[part];
        for (uint64_t i = a; i < b; i++) r->dst[c[(field_of(&r->src[i], r->field) >> r->sh) & ((1u << DIGIT) - 1)]++] = r->src[i];
    }
    (void)t;
}

/* One counted and scattered pass of r (its field and shift) from r->src to r->dst:
 * 0, or 1 when every pair has the same digit (nothing moved). */
static int rsort_pass(rsort_t *r, int threads)
{
    if (threads == 1) rsort_count(r, 0, 1, 0);
    else rv_parallel_for(threads, (uint64_t)threads, rsort_count, r);
    const uint64_t first = (field_of(&r->src[0], r->field) >> r->sh) & ((1u << DIGIT) - 1);
    uint64_t same = 0;
    for (int t = 0; t < threads; t++) same += r->cnt[t][first];
    if (same == r->n) return 1;
    uint64_t sum = 0;
    for (uint64_t d = 0; d < (1u << DIGIT); d++)
        for (int t = 0; t < threads; t++) {
            uint64_t c = r->cnt[t][d];
            r->cnt[t][d] = sum;
            sum += c;
        }
    if (threads == 1) rsort_scatter(r, 0, 1, 0);
    else rv_parallel_for(threads, (uint64_t)threads, rsort_scatter, r);
    return 0;
}

/* LSD: every digit of (len,) p2, p1, least significant first; the result in a. */
static void lsd_sort(rv_pair_t *a, rv_pair_t *tmp, uint64_t n, int bits, int with_len, int threads)
{
    if (n < 256) {
        insertion_sort(a, n);
        return;
    }
    uint64_t one[1][1u << DIGIT], (*cnt)[1u << DIGIT] = one;
    if (threads > 1 && !(cnt = malloc((size_t)threads * sizeof *cnt))) cnt = one, threads = 1;
    rsort_t r = {a, tmp, n, cnt, threads, 0, 0};
    for (r.field = with_len ? 0 : 1; r.field < 3; r.field++) /* least significant key first */
        for (r.sh = 0; r.sh < bits; r.sh += DIGIT) {
            if (rsort_pass(&r, threads)) continue;
            rv_pair_t *x = r.src;
            r.src = r.dst;
            r.dst = x;
        }
    if (r.src != a) memcpy(a, r.src, n * sizeof *a);
    if (cnt != one) free(cnt);
}

/* A large run: one MSD pass on the top MSD_BITS of p1 into tmp, then each part
 * (with p1 spread over the text, a few thousand pairs, in cache) by LSD and back.
 * Six LSD passes over the whole run scattered 32-byte pairs to 2048 places each
 * time, a TLB miss a pair: 131 ns a pair for runs of 2 Mi (dev machine), most of a
 * spill.  A part of more than n / threads pairs (p1 crowded in a stretch of the
 * text) is sorted on every thread after the others. */
enum { MSD_BITS = 8, MSD_MIN = 1 << 16 };

typedef struct {
    rv_pair_t *a, *tmp;
    const uint64_t *start; /* part d is [start[d], start[d + 1]) */
    uint64_t big;          /* parts larger than this are left to the caller */
    int bits, with_len;
} msd_t;

static void msd_part(const msd_t *m, uint64_t d, int threads)
{
    uint64_t a = m->start[d], len = m->start[d + 1] - a;
    if (len < 2) {
        if (len) m->a[a] = m->tmp[a];
        return;
    }
    lsd_sort(m->tmp + a, m->a + a, len, m->bits, m->with_len, len >= (1u << 18) ? threads : 1);
    memcpy(m->a + a, m->tmp + a, len * sizeof *m->a);
}

static void msd_parts(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    const msd_t *m = ctx;
    (void)t;
    for (uint64_t d = lo; d < hi; d++)
        if (m->start[d + 1] - m->start[d] <= m->big) msd_part(m, d, 1);
}

void pf_sort_pairs_threads(rv_pair_t *a, rv_pair_t *tmp, uint64_t n, int bits, int with_len, int threads)
{
    if (threads > 64) threads = 64;
    if (threads < 2 || n < (1u << 18)) threads = 1;
    if (n < MSD_MIN || bits <= MSD_BITS) {
        lsd_sort(a, tmp, n, bits, with_len, threads);
        return;
    }
    uint64_t one[1][1u << DIGIT], (*cnt)[1u << DIGIT] = one;
    if (threads > 1 && !(cnt = malloc((size_t)threads * sizeof *cnt))) cnt = one, threads = 1;
    rsort_t r = {a, tmp, n, cnt, threads, 2, bits - MSD_BITS};
    uint64_t start[(1u << MSD_BITS) + 1];
    if (rsort_pass(&r, threads)) { /* one part: the top bits are all the same */
        if (cnt != one) free(cnt);
        lsd_sort(a, tmp, n, bits, with_len, threads);
        return;
    }
    /* after the scatter, cnt[threads - 1][d] ends part d */
    start[0] = 0;
    for (uint64_t d = 0; d < (1u << MSD_BITS); d++) start[d + 1] = cnt[threads - 1][d];
    if (cnt != one) free(cnt);
    if (start[1u << MSD_BITS] != n) { /* a p1 of more than `bits` bits: the whole run, by LSD */
        lsd_sort(tmp, a, n, 64, with_len, threads);
        memcpy(a, tmp, n * sizeof *a);
        return;
    }
    msd_t m = {a, tmp, start, threads > 1 ? n / (uint64_t)threads : n, bits, with_len};
    if (threads == 1) msd_parts(&m, 0, 1u << MSD_BITS, 0);
    else rv_parallel_dynamic(threads, 1u << MSD_BITS, 4, msd_parts, &m);
    for (uint64_t d = 0; d < (1u << MSD_BITS); d++)
        if (start[d + 1] - start[d] > m.big) msd_part(&m, d, threads);
}

void pf_sort_pairs(rv_pair_t *a, rv_pair_t *tmp, uint64_t n, int bits, int with_len)
{
    pf_sort_pairs_threads(a, tmp, n, bits, with_len, 1);
}

static int open_spill(pf_sink_t *k)
{
    k->fd = rv_temp_fd(NULL); /* no name: nothing is left however the process ends */
    return k->fd < 0 ? sink_fail(k, "cannot create a temporary file") : 0;
}

static int write_all(pf_sink_t *k, const uint8_t *p, uint64_t len)
{
    while (len) {
        ssize_t w = pwrite(k->fd, p, len, (off_t)k->file_bytes);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return sink_fail(k, "cannot write a temporary file");
        p += w, k->file_bytes += (uint64_t)w, len -= (uint64_t)w;
    }
    return 0;
}

/* Room for `more` checkpoints. */
static int checkpoints_room(pf_sink_t *k, uint64_t more)
{
    if (k->nck + more <= k->ck_cap) return 0;
    uint64_t c = k->ck_cap ? 2 * k->ck_cap : 64;
    while (c < k->nck + more) c *= 2;
    uint64_t **a[3] = {&k->ck_off, &k->ck_p1, &k->ck_p2};
    for (int i = 0; i < 3; i++) {
        uint64_t *p = realloc(*a[i], c * sizeof *p);
        if (!p) return sink_fail(k, "out of memory");
        *a[i] = p;
    }
    k->ck_cap = c;
    return 0;
}

/* The coding of a spilled run, by slices of whole checkpoints: slice t is pairs
 * [lo[t], lo[t + 1]), coded at out + lo[t] * sizeof (rv_pair_t) into bytes[t];
 * its checkpoints' offsets are from the slice's start until the caller adds where
 * the slice lands in the file. */
enum { CODE_SLICES = 64 };
typedef struct {
    pf_sink_t *k;
    uint8_t *out;
    uint64_t lo[CODE_SLICES + 1], bytes[CODE_SLICES];
} code_t;

static void code_slices(void *ctx, uint64_t first, uint64_t last, int th)
{
    code_t *c = ctx;
    pf_sink_t *k = c->k;
    (void)th;
    for (uint64_t t = first; t < last; t++) {
        uint8_t *const start = c->out + c->lo[t] * sizeof(rv_pair_t);
        uint8_t *b = start;
        uint64_t prev = 0;
        for (uint64_t i = c->lo[t]; i < c->lo[t + 1]; i++) {
            const rv_pair_t *p = &k->buf[i];
            if (i % k->check == 0) { /* a checkpoint: coded from 0, its place listed */
                const uint64_t x = k->nck + i / k->check;
                k->ck_off[x] = (uint64_t)(b - start);
                k->ck_p1[x] = p->p1;
                k->ck_p2[x] = p->p2;
                prev = 0;
            }
            b = pf_put_varint(b, p->p1 - prev);
            b = pf_put_varint(b, p->p2 - p->p1);
            b = pf_put_varint(b, p->len);
            prev = p->p1;
        }
        c->bytes[t] = (uint64_t)(b - start);
    }
}

int pf_sink_spill(pf_sink_t *k)
{
    if (k->err) return -1;
    double t0 = rv_now();
    pf_sort_pairs_threads(k->buf, k->tmp, k->n, k->bits, k->with_len, k->sort_threads);
    if (k->fd < 0 && open_spill(k) < 0) return -1;
    if (k->nruns == k->runs_cap) {
        uint64_t c = k->runs_cap ? 2 * k->runs_cap : 16;
        uint64_t *o = realloc(k->run_off, c * sizeof *o);
        if (o) k->run_off = o;
        uint64_t *l = realloc(k->run_len, c * sizeof *l);
        if (l) k->run_len = l;
        uint64_t *q = realloc(k->run_ck, c * sizeof *q);
        if (q) k->run_ck = q;
        if (!o || !l || !q) return sink_fail(k, "out of memory");
        k->runs_cap = c;
    }
    if (checkpoints_room(k, (k->n + k->check - 1) / k->check) < 0) return -1;
    k->run_ck[k->nruns] = k->nck;
    k->run_off[k->nruns] = k->file_bytes;
    /* the radix scratch is free now: each slice of the run (whole checkpoints) is
     * coded into its share of it, at most MAX_CODE <= sizeof (rv_pair_t) bytes a
     * pair, by the sort's threads; then the slices are written in order */
    int T = k->n >= (1u << 18) && k->sort_threads > 1 ? k->sort_threads : 1;
    if (T > CODE_SLICES) T = CODE_SLICES;
    code_t c = {k, (uint8_t *)k->tmp, {0}, {0}};
    for (int t = 0; t <= T; t++) {
        uint64_t at = k->n * (uint64_t)t / (uint64_t)T;
        c.lo[t] = t == T ? k->n : (at + k->check - 1) / k->check * k->check;
        if (c.lo[t] > k->n) c.lo[t] = k->n;
    }
    if (T == 1) code_slices(&c, 0, 1, 0);
    else rv_parallel_for(T, (uint64_t)T, code_slices, &c);
    for (int t = 0; t < T; t++) {
        const uint64_t base = k->file_bytes;
        for (uint64_t i = c.lo[t]; i < c.lo[t + 1]; i += k->check) k->ck_off[k->nck + i / k->check] += base;
        if (write_all(k, c.out + c.lo[t] * sizeof(rv_pair_t), c.bytes[t]) < 0) return -1;
    }
    k->nck += (k->n + k->check - 1) / k->check;
    k->run_len[k->nruns++] = k->n;
    k->spilled += k->n;
    k->n = 0;
    k->spill_s += rv_now() - t0;
    return 0;
}

/* One sorted source of the merge: a memory run, or a coded run in a spill file
 * decoded READ_PAIRS at a time. */
typedef struct {
    const rv_pair_t *cur, *end;
    int fd;
    uint64_t off, end_off, left; /* file bytes still to read [off, end_off); pairs */
    uint64_t prev;               /* last p1 decoded */
    uint64_t idx, check;         /* pairs decoded; coded from 0 every check pairs */
    uint8_t *raw;                /* RAW_BYTES of coded bytes, [rpos, rlen) unread */
    size_t rpos, rlen;
    rv_pair_t *rbuf;
} source_t;

static int get_varint(source_t *s, uint64_t *v)
{
    uint64_t x = 0;
    for (int sh = 0; s->rpos < s->rlen && sh < 64; sh += 7) {
        uint8_t c = s->raw[s->rpos++];
        x |= (uint64_t)(c & 0x7f) << sh;
        if (!(c & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return rv_error("pairs", "corrupt temporary file");
}

/* Keep at least MAX_CODE coded bytes buffered while the run has more. */
static int source_read(source_t *s)
{
    if (s->rlen - s->rpos >= MAX_CODE || s->off == s->end_off) return 0;
    memmove(s->raw, s->raw + s->rpos, s->rlen - s->rpos);
    s->rlen -= s->rpos;
    s->rpos = 0;
    uint64_t want = s->end_off - s->off;
    if (want > RAW_BYTES - s->rlen) want = RAW_BYTES - s->rlen;
    while (want) {
        ssize_t r = pread(s->fd, s->raw + s->rlen, want, (off_t)s->off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return rv_error("pairs", "cannot read a temporary file: %s",
                                    r < 0 ? strerror(errno) : "short read");
        s->rlen += (size_t)r, s->off += (uint64_t)r, want -= (uint64_t)r;
    }
    return 0;
}

/* Make cur < end if anything is left: 1, 0 when exhausted, -1 on error. */
static int source_fill(source_t *s)
{
    if (s->cur < s->end) return 1;
    if (!s->left) return 0;
    size_t k = 0;
    for (; k < READ_PAIRS && s->left; k++, s->left--) {
        uint64_t d1, d2, len;
        if (s->idx++ % s->check == 0) s->prev = 0;
        if (source_read(s) < 0 || get_varint(s, &d1) < 0 || get_varint(s, &d2) < 0 ||
            get_varint(s, &len) < 0)
            return -1;
        s->prev += d1;
        s->rbuf[k] = (rv_pair_t){s->prev, s->prev + d2, len, 0};
    }
    s->cur = s->rbuf;
    s->end = s->rbuf + k;
    return 1;
}

static int src_less(const source_t *s, int a, int b)
{
    return pf_pair_less(s[a].cur, s[b].cur);
}

static void sift_down(const source_t *s, int *heap, int n, int i)
{
    for (;;) {
        int m = i, l = 2 * i + 1, r = l + 1;
        if (l < n && src_less(s, heap[l], heap[m])) m = l;
        if (r < n && src_less(s, heap[r], heap[m])) m = r;
        if (m == i) return;
        int t = heap[i];
        heap[i] = heap[m];
        heap[m] = t;
        i = m;
    }
}

/* Collect every run of every sink as a merge source. */
static int gather_sources(pf_sink_t *sinks, int nsinks, source_t **out, int *nout)
{
    uint64_t total = 0;
    for (int t = 0; t < nsinks; t++) total += sinks[t].nruns + 1;
    source_t *src = calloc(total ? total : 1, sizeof *src);
    *out = src;
    *nout = 0;
    if (!src) return rv_oom("pairs' merge sources", (total ? total : 1) * sizeof *src);
    int k = 0;
    for (int t = 0; t < nsinks; t++) {
        pf_sink_t *s = &sinks[t];
        src[k++] = (source_t){.cur = s->buf, .end = s->buf + s->n, .fd = -1};
        for (uint64_t r = 0; r < s->nruns; r++) {
            rv_pair_t *b = malloc(READ_PAIRS * sizeof *b);
            uint8_t *raw = malloc(RAW_BYTES);
            uint64_t end = r + 1 < s->nruns ? s->run_off[r + 1] : s->file_bytes;
            src[k] = (source_t){.cur = b, .end = b, .fd = s->fd, .off = s->run_off[r], .end_off = end,
                                .left = s->run_len[r], .check = s->check, .raw = raw, .rbuf = b};
            k++;
            if (!b || !raw) {
                *nout = k;
                return rv_oom("pairs' merge buffers", READ_PAIRS * sizeof *b + RAW_BYTES);
            }
        }
    }
    *out = src;
    *nout = k;
    return 0;
}

int pf_emit(pf_emitter_t *e, const rv_pair_t *p, size_t n)
{
    const pf_out_t *o = e->out;
    if (o->both) {
        if (!e->dec && !(e->dec = malloc(RV_PAIRS_BATCH * sizeof *e->dec))) return rv_oom("pairs' output batch", RV_PAIRS_BATCH * sizeof *e->dec);
        for (size_t i = 0; i < n; i++) {
            e->dec[i] = p[i];
            pf_decode(&e->dec[i]);
        }
        p = e->dec;
    }
    if (!o->text) return o->fn(o->ud, p, n);
    size_t len = 0;
    int rc = o->text->format(o->text->ud, p, n, &e->txt, &e->cap, &len);
    return rc ? rc : o->text->write(o->text->ud, e->txt, len);
}

void pf_emitter_free(pf_emitter_t *e)
{
    free(e->dec);
    free(e->txt);
}

/* Flush the batch: 0 or the callback's value. */
static int flush(rv_pair_t *batch, size_t *nb, pf_emitter_t *e)
{
    int rc = *nb ? pf_emit(e, batch, *nb) : 0;
    *nb = 0;
    return rc;
}

static void sort_sinks(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    pf_sink_t *sinks = ctx;
    (void)t;
    for (uint64_t i = lo; i < hi; i++) pf_sort_pairs(sinks[i].buf, sinks[i].tmp, sinks[i].n, sinks[i].bits, sinks[i].with_len);
}

int pf_merge(pf_sink_t *sinks, int nsinks, const pf_out_t *out)
{
    double t0 = rv_now();
    rv_parallel_for(nsinks, (uint64_t)nsinks, sort_sinks, sinks);
    rv_trace("pairs: last runs sorted", &t0);
    uint64_t total = 0, chunk, check;
    pf_merge_tuning(&chunk, &check);
    for (int t = 0; t < nsinks; t++) {
        total += sinks[t].n;
        for (uint64_t r = 0; r < sinks[t].nruns; r++) total += sinks[t].run_len[r];
    }
    if (nsinks > 1 && total >= 2 * chunk) {
        int ran, rc = pf_merge_parallel(sinks, nsinks, out, &ran);
        if (ran) return rc;
    }
    source_t *src = NULL;
    int nsrc = 0, rc = gather_sources(sinks, nsinks, &src, &nsrc);
    int *heap = rc == 0 ? malloc((size_t)(nsrc ? nsrc : 1) * sizeof *heap) : NULL;
    rv_pair_t *batch = rc == 0 ? malloc(RV_PAIRS_BATCH * sizeof *batch) : NULL;
    if (rc == 0 && (!heap || !batch)) rc = rv_oom("pairs' merge", (uint64_t)(nsrc ? nsrc : 1) * sizeof *heap + RV_PAIRS_BATCH * sizeof *batch);
    int nh = 0;
    size_t nb = 0;
    pf_emitter_t e = {out, NULL, NULL, 0};
    for (int i = 0; rc == 0 && i < nsrc; i++) {
        int f = source_fill(&src[i]);
        if (f < 0) rc = -1;
        else if (f) heap[nh++] = i;
    }
    for (int i = nh / 2 - 1; rc == 0 && i >= 0; i--) sift_down(src, heap, nh, i);
    while (rc == 0 && nh > 1) {
        source_t *s = &src[heap[0]];
        batch[nb++] = *s->cur++;
        if (nb == RV_PAIRS_BATCH && (rc = flush(batch, &nb, &e)) != 0) break;
        int f = source_fill(s);
        if (f < 0) rc = -1;
        else if (!f) heap[0] = heap[--nh];
        sift_down(src, heap, nh, 0);
    }
    if (rc == 0) rc = flush(batch, &nb, &e);
    /* one source left: hand its buffers over without copying */
    for (source_t *s = rc == 0 && nh == 1 ? &src[heap[0]] : NULL; s;) {
        int f = source_fill(s);
        if (f <= 0) {
            rc = f < 0 ? -1 : 0;
            break;
        }
        size_t k = (size_t)(s->end - s->cur);
        if (k > RV_PAIRS_BATCH) k = RV_PAIRS_BATCH;
        rc = pf_emit(&e, s->cur, k);
        s->cur += k;
        if (rc) break;
    }
    for (int i = 0; i < nsrc; i++) free(src[i].rbuf), free(src[i].raw);
    free(src);
    free(heap);
    free(batch);
    pf_emitter_free(&e);
    return rc;
}
