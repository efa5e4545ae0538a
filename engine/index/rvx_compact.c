/* rvx_compact.c — the compact file forms of the text, the sequence as read, the
 * runs and the SA of a wide index (layouts in rvx_compact.h).
 *
 * Each form costs one streaming pass to write and one to read, cut into chunks on
 * every core: cheaper than reading the bytes it saves from a disk.  The writer's
 * output does not depend on the thread count (runs of equal bytes that a chunk
 * border cuts are joined again), so a file is the same whoever built it. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/tandem.h"
#include "base/internal.h"
#include "runs_store.h"
#include "rvx_compact.h"

#define TEXT2_MAGIC 0x32545845545652ull /* "RVTEXT2" */
#define RAWX_MAGIC 0x58574152565252ull  /* "RRVRAWX" */
#define RUNZ_MAGIC 0x5a4e5552565252ull  /* "RRVRUNZ" */
#define RUNZ_ESC 255u
#define RUNZ_CKPT_SHIFT 16
#define RUNZ_CKPT (1ull << RUNZ_CKPT_SHIFT)
#define CHUNK (1ull << 20) /* positions per task */

static inline uint64_t pad8(uint64_t b) { return (b + 7) / 8 * 8; }
static inline uint64_t nchunks(uint64_t n, uint64_t c) { return n ? (n + c - 1) / c : 0; }
static int threads_or_all(int t) { return t > 0 ? t : rv_default_threads(); }

/* ---- text in 2 bits -------------------------------------------------------- */

typedef struct {
    const uint8_t *t;
    uint8_t *packed;
    uint8_t *out;
    uint64_t n;
} text_ctx_t;

static void pack_bytes(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    text_ctx_t *c = arg;
    for (uint64_t b = lo; b < hi; b++) {
        unsigned v = 0;
        for (uint64_t j = 0, i = 4 * b; j < 4 && i < c->n; j++, i++) v |= ((c->t[i] - 1u) & 3u) << (2 * j);
        c->packed[b] = (uint8_t)v;
    }
}

/* The four codes of each packed byte, as the bytes of a little-endian word. */
static uint32_t four_codes[256];
static pthread_once_t four_once = PTHREAD_ONCE_INIT;

static void four_init(void)
{
    for (unsigned b = 0; b < 256; b++)
        four_codes[b] = (((b & 3u) + 1u) | (((b >> 2 & 3u) + 1u) << 8) | (((b >> 4 & 3u) + 1u) << 16) |
                         (((b >> 6 & 3u) + 1u) << 24));
}

static void unpack_bytes(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    text_ctx_t *c = arg;
    const uint64_t full = c->n / 4; /* bytes that hold four symbols */
    for (uint64_t b = lo; b < hi && b < full; b++) memcpy(c->out + 4 * b, &four_codes[c->packed[b]], 4);
    for (uint64_t i = (hi > full ? full : hi) * 4; i < hi * 4 && i < c->n; i++)
        c->out[i] = (uint8_t)(((c->packed[i / 4] >> (2 * (i % 4))) & 3u) + 1u);
}

void *rvx_text_pack(const rv_seq_t *s, int threads, uint64_t *bytes)
{
    if (s->alpha != RV_ALPHA_DNA || s->sigma > 4) return NULL;
    const uint64_t n = s->n;
    uint64_t nb = 0;
    for (const uint8_t *p = s->text, *e = s->text + n; (p = memchr(p, RV_BREAK, (size_t)(e - p))); p++) nb++;
    const uint64_t head = 24 + 8 * nb, total = head + pad8((n + 3) / 4);
    uint64_t *sec = calloc(total / 8, 8);
    if (!sec) return NULL;
    sec[0] = TEXT2_MAGIC;
    sec[1] = n;
    sec[2] = nb;
    uint64_t k = 0;
    for (const uint8_t *p = s->text, *e = s->text + n; (p = memchr(p, RV_BREAK, (size_t)(e - p))); p++)
        sec[3 + k++] = (uint64_t)(p - s->text);
    text_ctx_t c = {s->text, (uint8_t *)sec + head, NULL, n};
    rv_parallel_for(threads_or_all(threads), (n + 3) / 4, pack_bytes, &c);
    *bytes = total;
    return sec;
}

int rvx_text_unpack(const void *sec, uint64_t bytes, uint64_t n, uint8_t *out, int threads)
{
    const uint64_t *h = sec;
    if (bytes < 24 || h[0] != TEXT2_MAGIC || h[1] != n || h[2] > n || bytes != 24 + 8 * h[2] + pad8((n + 3) / 4))
        return -1;
    const uint64_t nb = h[2];
    pthread_once(&four_once, four_init);
    text_ctx_t c = {NULL, (uint8_t *)(uintptr_t)sec + 24 + 8 * nb, out, n};
    rv_parallel_for(threads_or_all(threads), (n + 3) / 4, unpack_bytes, &c);
    for (uint64_t k = 0; k < nb; k++) {
        if (h[3 + k] >= n || (k && h[3 + k] <= h[2 + k])) return -1;
        out[h[3 + k]] = RV_BREAK;
    }
    return 0;
}

/* The first breaker at or after position p (n when none): a binary search. */
static uint64_t next_break(const uint64_t *br, uint64_t nb, uint64_t n, uint64_t p)
{
    uint64_t lo = 0, hi = nb;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (br[mid] < p) lo = mid + 1; else hi = mid;
    }
    return lo < nb ? br[lo] : n;
}

uint64_t rvx_text_lce(const void *sec, uint64_t bytes, uint64_t n, uint64_t a, uint64_t b)
{
    const uint64_t *h = sec;
    if (bytes < 24 || h[0] != TEXT2_MAGIC || h[1] != n || h[2] > n || bytes != 24 + 8 * h[2] + pad8((n + 3) / 4) ||
        a >= n || b >= n)
        return 0;
    const uint64_t *br = h + 3;
    const uint8_t *p = (const uint8_t *)sec + 24 + 8 * h[2];
    uint64_t ea = next_break(br, h[2], n, a), eb = next_break(br, h[2], n, b);
    if (ea < a || ea > n) ea = n; /* a damaged breaker list never leads past the text */
    if (eb < b || eb > n) eb = n;
    const uint64_t lim = ea - a < eb - b ? ea - a : eb - b; /* a breaker never matches */
    uint64_t k = 0;
    while (k < lim && ((p[(a + k) / 4] >> (2 * ((a + k) % 4))) & 3u) == ((p[(b + k) / 4] >> (2 * ((b + k) % 4))) & 3u)) k++;
    return k;
}

/* ---- the sequence as read ------------------------------------------------------ */

typedef struct {
    uint64_t g, len, byte;
} span_t;

typedef struct {
    span_t *v;
    uint64_t n, cap;
} spans_t;

static int spans_add(spans_t *s, uint64_t g, uint64_t len, uint64_t byte)
{
    if (s->n && s->v[s->n - 1].g + s->v[s->n - 1].len == g && s->v[s->n - 1].byte == byte) {
        s->v[s->n - 1].len += len;
        return 0;
    }
    if (rv_grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v) < 0) return -1;
    s->v[s->n++] = (span_t){g, len, byte};
    return 0;
}

typedef struct {
    const rv_seq_t *s;
    spans_t *lower, *gap; /* per chunk */
    _Atomic int bad;      /* a byte that is not its code's letter, or out of memory */
} raw_ctx_t;

/* The first segment ending after g. */
static uint64_t seg_after(const rv_seq_t *s, uint64_t g)
{
    uint64_t lo = 0, hi = s->n_seg;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (s->seg[mid].gpos + s->seg[mid].len <= g) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static void raw_pack_chunk(void *arg, uint64_t c0, uint64_t c1, int t)
{
    (void)t;
    raw_ctx_t *c = arg;
    const rv_seq_t *s = c->s;
    for (uint64_t ch = c0; ch < c1; ch++) {
        const uint64_t g0 = ch * CHUNK, g1 = g0 + CHUNK < s->glen ? g0 + CHUNK : s->glen;
        spans_t *lo = &c->lower[ch], *gp = &c->gap[ch];
        uint64_t k = seg_after(s, g0), g = g0;
        int fail = 0;
        while (g < g1 && !fail) {
            if (k < s->n_seg && s->seg[k].gpos <= g) {
                const rv_segment_t *e = &s->seg[k];
                const uint64_t end = e->gpos + e->len < g1 ? e->gpos + e->len : g1;
                uint64_t run = 0, run_at = 0;
                for (; g < end; g++) {
                    const unsigned char ch8 = (unsigned char)s->raw[g];
                    const uint8_t code = s->text[e->tpos + (g - e->gpos)];
                    const unsigned char up = (unsigned char)"?ACGT"[code <= 4 ? code : 0];
                    if (ch8 == up) {
                        if (run && spans_add(lo, run_at, run, 0) < 0) fail = 1;
                        run = 0;
                    } else if (ch8 == up + 32u && up != '?') {
                        if (!run) run_at = g;
                        run++;
                    } else {
                        fail = 1;
                        break;
                    }
                }
                if (run && spans_add(lo, run_at, run, 0) < 0) fail = 1;
                if (g == e->gpos + e->len) k++;
            } else {
                const uint64_t end = k < s->n_seg && s->seg[k].gpos < g1 ? s->seg[k].gpos : g1;
                while (g < end && !fail) {
                    uint64_t j = g;
                    while (j < end && s->raw[j] == s->raw[g]) j++;
                    if (spans_add(gp, g, j - g, (unsigned char)s->raw[g]) < 0) fail = 1;
                    g = j;
                }
            }
        }
        if (fail) c->bad = 1;
    }
}

/* Join the per-chunk lists (the runs a chunk border cut become one again). */
static int spans_join(spans_t *parts, uint64_t k, spans_t *all)
{
    for (uint64_t i = 0; i < k; i++)
        for (uint64_t j = 0; j < parts[i].n; j++)
            if (spans_add(all, parts[i].v[j].g, parts[i].v[j].len, parts[i].v[j].byte) < 0) return -1;
    return 0;
}

void *rvx_raw_pack(const rv_seq_t *s, int threads, uint64_t *bytes)
{
    if (s->alpha != RV_ALPHA_DNA || !s->raw) return NULL;
    const uint64_t k = nchunks(s->glen, CHUNK);
    raw_ctx_t c = {s, calloc(k + 1, sizeof(spans_t)), calloc(k + 1, sizeof(spans_t)), 0};
    spans_t lower = {0}, gap = {0};
    uint64_t *sec = NULL;
    if (c.lower && c.gap) {
        rv_parallel_dynamic(threads_or_all(threads), k, 1, raw_pack_chunk, &c);
        if (!c.bad && spans_join(c.lower, k, &lower) == 0 && spans_join(c.gap, k, &gap) == 0) {
            const uint64_t total = 32 + 16 * lower.n + 24 * gap.n;
            if ((sec = malloc(total))) {
                sec[0] = RAWX_MAGIC;
                sec[1] = s->glen;
                sec[2] = lower.n;
                sec[3] = gap.n;
                uint64_t *q = sec + 4;
                for (uint64_t i = 0; i < lower.n; i++) { *q++ = lower.v[i].g; *q++ = lower.v[i].len; }
                for (uint64_t i = 0; i < gap.n; i++) { *q++ = gap.v[i].g; *q++ = gap.v[i].len; *q++ = gap.v[i].byte; }
                *bytes = total;
            }
        }
    }
    for (uint64_t i = 0; c.lower && c.gap && i < k; i++) { free(c.lower[i].v); free(c.gap[i].v); }
    free(c.lower);
    free(c.gap);
    free(lower.v);
    free(gap.v);
    return sec;
}

typedef struct {
    const rv_seq_t *s;
    const uint64_t *lower, *gap; /* pairs, triples */
    char *out;
} raw_unpack_t;

static void unpack_segments(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    raw_unpack_t *c = arg;
    for (uint64_t k = lo; k < hi; k++) {
        const rv_segment_t *e = &c->s->seg[k];
        const uint8_t *tx = c->s->text + e->tpos;
        char *o = c->out + e->gpos;
        for (uint64_t j = 0; j < e->len; j++) o[j] = "?ACGT"[tx[j] <= 4 ? tx[j] : 0];
    }
}

static void unpack_spans(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    raw_unpack_t *c = arg;
    for (uint64_t k = lo; k < hi; k++) {
        if (c->gap) {
            memset(c->out + c->gap[3 * k], (int)c->gap[3 * k + 2], c->gap[3 * k + 1]);
        } else {
            char *o = c->out + c->lower[2 * k];
            for (uint64_t j = 0, e = c->lower[2 * k + 1]; j < e; j++) o[j] = (char)(o[j] | 0x20);
        }
    }
}

int rvx_raw_unpack(const void *sec, uint64_t bytes, const rv_seq_t *s, char *out, int threads)
{
    const uint64_t *h = sec;
    if (bytes < 32 || h[0] != RAWX_MAGIC || h[1] != s->glen || h[2] > s->glen || h[3] > s->glen ||
        bytes != 32 + 16 * h[2] + 24 * h[3])
        return -1;
    const uint64_t *lower = h + 4, *gap = lower + 2 * h[2];
    uint64_t covered = 0;
    for (uint64_t k = 0; k < s->n_seg; k++) {
        const rv_segment_t *e = &s->seg[k];
        if (e->gpos > s->glen || e->len > s->glen - e->gpos || e->tpos > s->n || e->len > s->n - e->tpos) return -1;
        covered += e->len;
    }
    for (uint64_t k = 0; k < h[3]; k++) {
        if (gap[3 * k] > s->glen || gap[3 * k + 1] > s->glen - gap[3 * k] || gap[3 * k + 2] > 255) return -1;
        covered += gap[3 * k + 1];
    }
    for (uint64_t k = 0; k < h[2]; k++)
        if (lower[2 * k] > s->glen || lower[2 * k + 1] > s->glen - lower[2 * k]) return -1;
    if (covered != s->glen) return -1;
    threads = threads_or_all(threads);
    raw_unpack_t c = {s, lower, gap, out};
    rv_parallel_dynamic(threads, s->n_seg, 64, unpack_segments, &c);
    rv_parallel_dynamic(threads, h[3], 64, unpack_spans, &c);
    c.gap = NULL;
    rv_parallel_dynamic(threads, h[2], 64, unpack_spans, &c);
    return 0;
}

/* ---- the runs ---------------------------------------------------------------- */

typedef struct {
    rv_runs_t r;
    uint8_t *d, *f;   /* the two byte columns */
    uint64_t *esc;    /* (k, start, len, period) */
    uint64_t *count;  /* per checkpoint chunk: escapes, then their first slot */
    uint64_t *ckpt;
    void *cols[3];    /* unpacking: start, len, period */
    _Atomic int bad;
} runs_ctx_t;

/* The two bytes of run k, or 0 when it must be escaped. */
static inline int runz_bytes(const rv_runs_t *r, uint64_t k, uint8_t *d, uint8_t *f)
{
    const uint64_t s = rv_get(r->start, r->wide, k), len = rv_get(r->len, r->wide, k);
    const uint64_t p = rv_get(r->period, r->wide, k), prev = k ? rv_get(r->start, r->wide, k - 1) : 0;
    if (s < prev || s - prev >= RUNZ_ESC || p == 0 || p > 16 || len < 2 * p || len - 2 * p >= 16) return 0;
    const unsigned v = (unsigned)((p - 1) << 4 | (len - 2 * p));
    if (v == RUNZ_ESC) return 0;
    *d = (uint8_t)(s - prev);
    *f = (uint8_t)v;
    return 1;
}

static void runs_count(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    runs_ctx_t *c = arg;
    for (uint64_t ch = lo; ch < hi; ch++) {
        uint64_t e = 0, k1 = (ch + 1) * RUNZ_CKPT < c->r.n ? (ch + 1) * RUNZ_CKPT : c->r.n;
        for (uint64_t k = ch * RUNZ_CKPT; k < k1; k++) {
            uint8_t d, f;
            e += !runz_bytes(&c->r, k, &d, &f);
        }
        c->count[ch] = e;
    }
}

static void runs_fill(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    runs_ctx_t *c = arg;
    for (uint64_t ch = lo; ch < hi; ch++) {
        uint64_t e = c->count[ch], k1 = (ch + 1) * RUNZ_CKPT < c->r.n ? (ch + 1) * RUNZ_CKPT : c->r.n;
        c->ckpt[ch] = rv_get(c->r.start, c->r.wide, ch * RUNZ_CKPT);
        for (uint64_t k = ch * RUNZ_CKPT; k < k1; k++) {
            if (runz_bytes(&c->r, k, &c->d[k], &c->f[k])) continue;
            c->d[k] = c->f[k] = RUNZ_ESC;
            uint64_t *q = c->esc + 4 * e++;
            q[0] = k;
            q[1] = rv_get(c->r.start, c->r.wide, k);
            q[2] = rv_get(c->r.len, c->r.wide, k);
            q[3] = rv_get(c->r.period, c->r.wide, k);
        }
    }
}

void *rvx_runs_pack(const void *runs, uint64_t runs_bytes, uint64_t n_text, int wide, int threads,
                    uint64_t *bytes)
{
    runs_ctx_t c = {0};
    if (rv_runs_view(runs, runs_bytes, n_text, wide, &c.r) < 0) return NULL;
    const uint64_t m = c.r.n, nck = nchunks(m, RUNZ_CKPT);
    threads = threads_or_all(threads);
    if (!(c.count = malloc((nck + 1) * sizeof *c.count))) return NULL;
    rv_parallel_dynamic(threads, nck, 1, runs_count, &c);
    uint64_t n_esc = 0;
    for (uint64_t ch = 0; ch < nck; ch++) { uint64_t v = c.count[ch]; c.count[ch] = n_esc; n_esc += v; }
    const uint64_t head = 32 + 8 * nck, total = head + pad8(2 * m) + 32 * n_esc;
    uint64_t *sec = calloc(total / 8, 8);
    if (!sec) { free(c.count); return NULL; }
    sec[0] = RUNZ_MAGIC;
    sec[1] = n_text;
    sec[2] = m;
    sec[3] = n_esc;
    c.ckpt = sec + 4;
    c.d = (uint8_t *)sec + head;
    c.f = c.d + m;
    c.esc = (uint64_t *)((uint8_t *)sec + head + pad8(2 * m));
    rv_parallel_dynamic(threads, nck, 1, runs_fill, &c);
    free(c.count);
    *bytes = total;
    return sec;
}

static void runs_expand(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    runs_ctx_t *c = arg;
    const int wide = c->r.wide;
    const uint64_t m = c->r.n, n_esc = c->count[0];
    for (uint64_t ch = lo; ch < hi; ch++) {
        const uint64_t k0 = ch * RUNZ_CKPT, k1 = k0 + RUNZ_CKPT < m ? k0 + RUNZ_CKPT : m;
        uint64_t a = 0, b = n_esc; /* the first escape at or after k0 */
        while (a < b) {
            uint64_t mid = a + (b - a) / 2;
            if (c->esc[4 * mid] < k0) a = mid + 1; else b = mid;
        }
        uint64_t s = c->ckpt[ch];
        for (uint64_t k = k0; k < k1; k++) {
            uint64_t len, p;
            if (c->d[k] == RUNZ_ESC) {
                if (a >= n_esc || c->esc[4 * a] != k) { c->bad = 1; return; }
                const uint64_t *q = c->esc + 4 * a++;
                s = q[1];
                len = q[2];
                p = q[3];
            } else {
                if (k > k0) s += c->d[k];
                p = (c->f[k] >> 4) + 1u;
                len = 2 * p + (c->f[k] & 15u);
            }
            if (s > c->r.n_text || (!wide && (len >> 32 || p >> 32))) { c->bad = 1; return; }
            rv_put(c->cols[0], wide, k, s);
            rv_put(c->cols[1], wide, k, len);
            rv_put(c->cols[2], wide, k, p);
        }
        if (k0 < k1 && c->ckpt[ch] != rv_get(c->cols[0], wide, k0)) { c->bad = 1; return; }
    }
}

void *rvx_runs_unpack(const void *sec, uint64_t bytes, uint64_t n_text, int wide, int threads,
                      uint64_t *out_bytes)
{
    const uint64_t *h = sec;
    if (bytes < 32 || h[0] != RUNZ_MAGIC || h[1] != n_text || h[2] > n_text || h[3] > h[2]) return NULL;
    const uint64_t m = h[2], n_esc = h[3], nck = nchunks(m, RUNZ_CKPT), head = 32 + 8 * nck;
    if (bytes != head + pad8(2 * m) + 32 * n_esc) return NULL;
    const uint64_t ob = rv_runs_section_bytes(m, wide);
    void *out = malloc(ob);
    if (!out) return NULL;
    runs_ctx_t c = {0};
    uint64_t count0 = n_esc;
    c.r.n = m;
    c.r.wide = wide;
    c.r.n_text = n_text;
    c.count = &count0;
    c.ckpt = (uint64_t *)(uintptr_t)(h + 4);
    c.d = (uint8_t *)(uintptr_t)sec + head;
    c.f = c.d + m;
    c.esc = (uint64_t *)(uintptr_t)((const uint8_t *)sec + head + pad8(2 * m));
    rv_runs_cols_t col = rv_runs_columns(out, m, wide);
    c.cols[0] = col.start;
    c.cols[1] = col.len;
    c.cols[2] = col.period;
    rv_parallel_dynamic(threads_or_all(threads), nck, 1, runs_expand, &c);
    if (c.bad) { free(out); return NULL; }
    rv_runs_seal(out, n_text, m, wide);
    *out_bytes = ob;
    return out;
}

/* ---- the suffix array of a wide index in 5 bytes ------------------------------- */

#define SA40_MAGIC 0x30344153565252ull /* "RRVSA40" */
#define SA40_HEAD 16u

uint64_t rvx_sa40_bytes(uint64_t n) { return SA40_HEAD + pad8(5 * n); }

void rvx_sa40_pack_range(const uint64_t *sa, uint64_t n, uint64_t off, uint64_t len, uint8_t *out)
{
    const uint64_t head[2] = {SA40_MAGIC, n}, body = SA40_HEAD + 5 * n, end = off + len;
    for (; off < end && off < SA40_HEAD; off++) *out++ = ((const uint8_t *)head)[off];
    if (off < end && off < body && (off - SA40_HEAD) % 5) { /* the tail of a cut entry */
        const uint64_t k = (off - SA40_HEAD) / 5, v = sa[k];
        for (uint64_t j = (off - SA40_HEAD) % 5; j < 5 && off < end; j++, off++) *out++ = (uint8_t)(v >> (8 * j));
    }
    const uint64_t k0 = off < body ? (off - SA40_HEAD) / 5 : n;
    uint64_t full = (end < body ? end : body) > off ? ((end < body ? end : body) - off) / 5 : 0;
    /* whole entries: 8-byte stores that the next entry overwrites, the last one exact */
    for (uint64_t i = 0; i + 1 < full; i++) memcpy(out + 5 * i, &sa[k0 + i], 8);
    if (full) memcpy(out + 5 * (full - 1), &sa[k0 + full - 1], 5);
    out += 5 * full;
    off += 5 * full;
    if (off < end && off < body) { /* the head of an entry the range cuts */
        const uint64_t v = sa[k0 + full];
        for (uint64_t j = 0; off < end && off < body; j++, off++) *out++ = (uint8_t)(v >> (8 * j));
    }
    if (off < end) memset(out, 0, end - off); /* padding */
}

typedef struct {
    const uint64_t *sa;
    uint8_t *sec;
    uint64_t *out;
    const void *in;
    uint64_t n, bytes;
    _Atomic int bad;
} sa40_ctx_t;

static void sa40_pack_chunk(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    sa40_ctx_t *c = arg;
    lo *= CHUNK;
    hi = hi * CHUNK < c->bytes ? hi * CHUNK : c->bytes;
    if (lo < hi) rvx_sa40_pack_range(c->sa, c->n, lo, hi - lo, c->sec + lo);
}

void *rvx_sa40_pack(const uint64_t *sa, uint64_t n, int threads, uint64_t *bytes)
{
    if (n >= RVX_SA40_LIMIT) return NULL;
    sa40_ctx_t c = {sa, NULL, NULL, NULL, n, rvx_sa40_bytes(n), 0};
    if (!(c.sec = malloc(c.bytes))) return NULL;
    rv_parallel_dynamic(threads_or_all(threads), nchunks(c.bytes, CHUNK), 1, sa40_pack_chunk, &c);
    *bytes = c.bytes;
    return c.sec;
}

int rvx_sa40_check(const void *sec, uint64_t bytes, uint64_t n)
{
    const uint64_t *h = sec;
    if (n >= RVX_SA40_LIMIT || bytes != rvx_sa40_bytes(n) || h[0] != SA40_MAGIC || h[1] != n) return -1;
    for (uint64_t at = SA40_HEAD + 5 * n; at < bytes; at++)
        if (((const uint8_t *)sec)[at]) return -1;
    return 0;
}

int rvx_sa40_unpack_bytes(const void *sec, uint64_t n, uint64_t bound, uint64_t lo, uint64_t hi, uint64_t *out)
{
    const uint8_t *p = (const uint8_t *)sec + SA40_HEAD;
    /* the first entry starting at or after each bound */
    const uint64_t k0 = lo <= SA40_HEAD ? 0 : (lo - SA40_HEAD + 4) / 5;
    uint64_t k1 = hi <= SA40_HEAD ? 0 : (hi - SA40_HEAD + 4) / 5;
    if (k1 > n) k1 = n;
    uint64_t big = 0;
    const uint64_t fast = k1 < n ? k1 : (n ? n - 1 : 0); /* an 8-byte load stays inside the section */
    uint64_t k = k0;
    for (; k < fast; k++) {
        uint64_t v;
        memcpy(&v, p + 5 * k, 8);
        v &= (1ull << 40) - 1;
        big |= v >= bound;
        out[k] = v;
    }
    for (; k < k1; k++) {
        uint64_t v = 0;
        memcpy(&v, p + 5 * k, 5);
        big |= v >= bound;
        out[k] = v;
    }
    return big ? -1 : 0;
}

static void sa40_unpack_chunk(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    sa40_ctx_t *c = arg;
    if (rvx_sa40_unpack_bytes(c->in, c->n, c->n, lo * CHUNK, hi * CHUNK, c->out) < 0) c->bad = 1;
}

int rvx_sa40_unpack(const void *sec, uint64_t bytes, uint64_t n, uint64_t *out, int threads)
{
    if (rvx_sa40_check(sec, bytes, n) < 0) return -1;
    sa40_ctx_t c = {NULL, NULL, out, sec, n, bytes, 0};
    rv_parallel_dynamic(threads_or_all(threads), nchunks(bytes, CHUNK), 1, sa40_unpack_chunk, &c);
    return c.bad ? -1 : 0;
}
