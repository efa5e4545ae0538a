/* fm_index.c — the FM-index of fm.h: the occurrence table built from text + SA in CPU
 * threads, and the pigeonhole search of a batch of patterns (fm_core.h) in CPU
 * threads; or both handed to the GPU (gpu_fm.cu) through gpu.h. */
#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/fm.h"
#include "repview/gpu.h"
#include "base/internal.h"
#include "fm_core.h"

struct rv_fm {
    const rv_index_t *x;
    uint64_t fwd;           /* hits start below this (rv_seq_fwd_len) */
    rv_fm_block_t *blk;     /* CPU table, NULL on the GPU */
    rv_fm_counts_t cn;
    rv_gpu_fm_t *gpu;
    int threads;
    double build_s;
    char backend[96];
};

_Static_assert(sizeof(rv_fm_block_t) == 64, "one cache line a block");

int rv_fm_usable(const rv_index_t *x)
{
    return x->seq->alpha == RV_ALPHA_DNA && !x->wide && x->n > 0 && x->n < UINT32_MAX - 256;
}

/* Byte -> pattern code (fm_core.h): 1..4 for A C G T U, RV_FM_SET | set for the
 * IUPAC codes, any case; 0 for the rest.  A table: a switch mispredicts on every
 * random base. */
#define SET(a, c, g, t) (RV_FM_SET | (a) | (c) << 1 | (g) << 2 | (t) << 3)
static const uint8_t base_code[256] = {
    ['A'] = 1, ['C'] = 2, ['G'] = 3, ['T'] = 4, ['U'] = 4, ['a'] = 1, ['c'] = 2, ['g'] = 3, ['t'] = 4, ['u'] = 4,
    ['R'] = SET(1, 0, 1, 0), ['Y'] = SET(0, 1, 0, 1), ['S'] = SET(0, 1, 1, 0), ['W'] = SET(1, 0, 0, 1),
    ['K'] = SET(0, 0, 1, 1), ['M'] = SET(1, 1, 0, 0), ['B'] = SET(0, 1, 1, 1), ['D'] = SET(1, 0, 1, 1),
    ['H'] = SET(1, 1, 0, 1), ['V'] = SET(1, 1, 1, 0), ['N'] = SET(1, 1, 1, 1),
    ['r'] = SET(1, 0, 1, 0), ['y'] = SET(0, 1, 0, 1), ['s'] = SET(0, 1, 1, 0), ['w'] = SET(1, 0, 0, 1),
    ['k'] = SET(0, 0, 1, 1), ['m'] = SET(1, 1, 0, 0), ['b'] = SET(0, 1, 1, 1), ['d'] = SET(1, 0, 1, 1),
    ['h'] = SET(1, 1, 0, 1), ['v'] = SET(1, 1, 1, 0), ['n'] = SET(1, 1, 1, 1)};
#undef SET

int rv_fm_encode(const char *pat, size_t len, uint8_t *out)
{
    unsigned bad = 0;
    for (size_t i = 0; i < len; i++) {
        const uint8_t c = base_code[(unsigned char)pat[i]];
        out[i] = c;
        bad |= c == 0;
    }
    return !bad;
}

int rv_fm_takes(size_t m, unsigned k)
{
    return k <= RV_FM_MAX_K && m >= k + 1 && m <= RV_FM_MAX_LEN;
}

/* ---- the table on the CPU ---------------------------------------------------- */

typedef struct {
    const uint8_t *text;
    const uint32_t *sa;
    uint64_t n;
    rv_fm_block_t *blk;
    uint64_t (*local)[4]; /* per block: counts inside it, then their prefix sums */
} table_t;

/* BWT symbols, breaker bits and local counts of blocks [lo, hi). */
static void fill_blocks(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    table_t *c = arg;
    for (uint64_t b = lo; b < hi; b++) {
        uint32_t cnt[4];
        rv_fm_fill_block(&c->blk[b], c->text, c->sa, c->n, b, cnt);
        for (int j = 0; j < 4; j++) c->local[b][j] = cnt[j];
    }
}

static void fill_counts(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    table_t *c = arg;
    for (uint64_t b = lo; b < hi; b++)
        for (int j = 0; j < 4; j++) c->blk[b].cnt[j] = (uint32_t)c->local[b][j];
}

/* first[] and lf[] from the number of A, C, G, T in the BWT (fm_core.h). */
static void set_counts(rv_fm_counts_t *cn, const uint64_t bwt_count[4], const uint8_t *text, uint64_t n)
{
    const uint8_t last = text[n - 1];
    uint64_t in_text[4], letters = 0;
    for (int c = 0; c < 4; c++) {
        in_text[c] = bwt_count[c] + (last == c + 1);
        letters += in_text[c];
    }
    cn->first[1] = n - letters; /* suffixes that start with a breaker */
    for (int c = 1; c <= 4; c++) {
        cn->first[c + 1] = cn->first[c] + in_text[c - 1];
        cn->lf[c] = cn->first[c] + (last == c);
    }
    cn->first[0] = cn->lf[0] = 0;
}

static int build_cpu(rv_fm_t *f)
{
    const rv_index_t *x = f->x;
    const uint64_t nb = x->n / RV_FM_BLOCK + 1; /* rank n needs a block too */
    table_t c = {x->seq->text, x->sa, x->n, malloc(nb * sizeof *c.blk), malloc(nb * sizeof *c.local)};
    if (!c.blk || !c.local) {
        free(c.blk);
        free(c.local);
        return rv_oom("FM-index", nb * (sizeof *c.blk + sizeof *c.local));
    }
    rv_parallel_for(f->threads, nb, fill_blocks, &c);
    uint64_t sum[4] = {0};
    for (uint64_t b = 0; b < nb; b++)
        for (int j = 0; j < 4; j++) {
            const uint64_t v = c.local[b][j];
            c.local[b][j] = sum[j];
            sum[j] += v;
        }
    rv_parallel_for(f->threads, nb, fill_counts, &c);
    free(c.local);
    f->blk = c.blk;
    set_counts(&f->cn, sum, x->seq->text, x->n);
    return 0;
}

rv_fm_t *rv_fm_open(const rv_index_t *x, rv_backend_t backend, int threads)
{
    if (!rv_fm_usable(x)) {
        rv_error("FM-index", "needs a DNA index below 2^32 symbols");
        return NULL;
    }
    rv_fm_t *f = calloc(1, sizeof *f);
    if (!f) { rv_error("FM-index", "out of memory"); return NULL; }
    f->x = x;
    f->fwd = rv_seq_fwd_len(x->seq);
    f->threads = threads > 0 ? threads : rv_default_threads();
    const double t0 = rv_now();
    char name[64] = "", why[128] = "";
    const int gpu = backend != RV_BACKEND_CPU && rv_gpu_compiled() && rv_gpu_probe(name, sizeof name, why, sizeof why);
    if (backend == RV_BACKEND_GPU && !gpu) {
        rv_error("GPU", "%s", why);
        free(f);
        return NULL;
    }
    if (gpu && (f->gpu = rv_gpu_fm_new(x, &f->build_s))) {
        snprintf(f->backend, sizeof f->backend, "GPU %s", name);
        return f;
    }
    if (gpu && backend == RV_BACKEND_GPU) {
        free(f);
        return NULL;
    }
    if (build_cpu(f) < 0) {
        free(f);
        return NULL;
    }
    f->build_s = rv_now() - t0;
    snprintf(f->backend, sizeof f->backend, "CPU, %d threads", f->threads);
    return f;
}

void rv_fm_close(rv_fm_t *f)
{
    if (!f) return;
    if (f->gpu) rv_gpu_fm_free(f->gpu);
    free(f->blk);
    free(f);
}

const char *rv_fm_backend(const rv_fm_t *f) { return f->backend; }

uint32_t rv_fm_cap(const rv_fm_t *f)
{
    const char *e = getenv("REPVIEW_FM_CAP");
    if (e && *e) return (uint32_t)strtoul(e, NULL, 10);
    return f->gpu ? RV_FM_CAP_GPU : RV_FM_CAP;
}
double rv_fm_build_seconds(const rv_fm_t *f) { return f->build_s; }

void rv_fm_range(const rv_fm_t *f, const uint8_t *code, size_t m, uint64_t *lo, uint64_t *hi)
{
    uint32_t depth;
    rv_fm_backward(f->blk, &f->cn, NULL, code, (uint32_t)m, 0, 0, lo, hi, &depth);
}

/* ---- the search on the CPU --------------------------------------------------- */

typedef struct {
    rv_hit_t *h;
    uint64_t n, cap;
} hit_vec_t;

typedef struct {
    const rv_fm_t *f;
    const rv_fm_batch_t *b;
    int strands;
    unsigned k;
    uint32_t first, cap;
    uint64_t *count;
    hit_vec_t *vec; /* per thread, NULL: no hits wanted */
    uint8_t *left;
    _Atomic int failed;
} search_t;

static int vec_push(hit_vec_t *v, rv_hit_t h)
{
    if (v->n == v->cap) {
        uint64_t cap = v->cap ? 2 * v->cap : 1024;
        rv_hit_t *p = realloc(v->h, cap * sizeof *p);
        if (!p) return -1;
        v->h = p;
        v->cap = cap;
    }
    v->h[v->n++] = h;
    return 0;
}

/* Pattern i of the batch: its count, its hits into v (NULL: none); -1 out of memory. */
static int search_one(search_t *c, size_t i, hit_vec_t *v)
{
    const rv_fm_t *f = c->f;
    const uint8_t *code = c->b->code + c->b->off[i];
    const uint32_t m = (uint32_t)(c->b->off[i + 1] - c->b->off[i]);
    const unsigned k = c->k;
    uint64_t lo[2][RV_FM_MAX_PARTS], width[2][RV_FM_MAX_PARTS];
    uint32_t shift[2][RV_FM_MAX_PARTS]; /* pattern start = suffix start - shift */
    unsigned used[2] = {0, 0};
    const unsigned parts = rv_fm_parts(m, k);
    int wide = 0;
    for (int s = 0; s < 2; s++)
        if (c->strands >> s & 1)
            used[s] = rv_fm_plan(f->blk, &f->cn, NULL, RV_FM_STOP, code, m, s, k, c->cap, lo[s], width[s], shift[s], &wide);
    if (wide) {
        c->left[i] = 1;
        if (c->count) c->count[i] = 0;
        return 0;
    }
    uint64_t hits = 0;
    const uint8_t *text = f->x->seq->text;
    const uint32_t *sa = f->x->sa;
    for (int s = 0; s < 2; s++)
        for (unsigned j = 0; j < parts; j++)
            for (uint64_t r = lo[s][j]; used[s] >> j & 1 && r < lo[s][j] + width[s][j]; r++) {
                const uint64_t p = sa[r];
                if (p < shift[s][j]) continue;
                const uint64_t t = p - shift[s][j];
                if (t >= f->fwd || t + m > f->x->n) continue;
                const int mm = rv_fm_verify(text, t, code, m, s, k, parts, used[s], j);
                if (mm < 0) continue;
                hits++;
                if (v && vec_push(v, (rv_hit_t){t, c->first + (uint32_t)i, (uint16_t)mm, s ? '-' : '+'}) < 0)
                    return -1;
            }
    c->left[i] = 0;
    if (c->count) c->count[i] = hits;
    return 0;
}

static void search_range(void *arg, uint64_t lo, uint64_t hi, int t)
{
    search_t *c = arg;
    for (uint64_t i = lo; i < hi; i++)
        if (search_one(c, i, c->vec ? &c->vec[t] : NULL) < 0) c->failed = 1;
}

static int search_cpu(rv_fm_t *f, const rv_fm_batch_t *b, int strands, unsigned k, uint32_t first, uint32_t cap,
                      uint64_t *count, rv_hit_t **hits, uint64_t *n_hits, uint8_t *left)
{
    search_t c = {f, b, strands, k, first, cap, count, NULL, left, 0};
    const int threads = f->threads > 256 ? 256 : f->threads;
    if (hits && !(c.vec = calloc((size_t)threads, sizeof *c.vec))) return rv_error("FM-index", "out of memory");
    rv_parallel_dynamic(threads, b->n, 256, search_range, &c);
    int rc = c.failed ? rv_error("FM-index", "out of memory") : 0;
    if (hits && rc == 0) {
        uint64_t total = 0;
        for (int t = 0; t < threads; t++) total += c.vec[t].n;
        *hits = malloc((total ? total : 1) * sizeof **hits);
        if (!*hits) rc = rv_oom("hits", (total ? total : 1) * sizeof **hits);
        for (int t = 0; rc == 0 && t < threads; t++) {
            if (c.vec[t].n) memcpy(*hits + *n_hits, c.vec[t].h, c.vec[t].n * sizeof **hits);
            *n_hits += c.vec[t].n;
        }
    }
    for (int t = 0; c.vec && t < threads; t++) free(c.vec[t].h);
    free(c.vec);
    return rc;
}

int rv_fm_search(rv_fm_t *f, const rv_fm_batch_t *b, rv_strand_t strand, unsigned k, uint32_t first,
                 uint32_t cap, uint64_t *count, rv_hit_t **hits, uint64_t *n_hits, uint8_t *left)
{
    if (hits) *hits = NULL;
    if (n_hits) *n_hits = 0;
    for (size_t i = 0; i < b->n; i++)
        if (!rv_fm_takes(b->off[i + 1] - b->off[i], k))
            return rv_error("FM-index", "pattern %zu: not one for the FM search", i + 1);
    if (b->n == 0) return 0;
    if (f->gpu)
        return rv_gpu_fm_batch(f->gpu, b->code, b->off, b->n, (int)strand, k, first, cap, count, hits, n_hits,
                               left);
    return search_cpu(f, b, (int)strand, k, first, cap, count, hits, n_hits, left);
}
