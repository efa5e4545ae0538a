/* find_batch.c — a batch of patterns given as letters (fm.h rv_find_batch): the
 * plain-base ones through the FM-index, the rest — IUPAC codes, lengths or k the
 * FM search does not take, pieces too frequent — through find.h's SA search, in
 * CPU threads.  Both give the same hits for a pattern, so the split never shows. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/fm.h"
#include "repview/gpu.h"
#include "base/internal.h"

typedef struct {
    const rv_index_t *x;
    const char *const *pats;
    const size_t *lens;
    const size_t *idx; /* the batch's patterns this pass takes */
    rv_strand_t strand;
    unsigned k;
    uint64_t *count;   /* indexed by batch index, or NULL */
    rv_pattern_t **keep; /* compiled patterns kept for their hits, or NULL */
    _Atomic size_t bad; /* lowest batch index that did not compile (SIZE_MAX: none) */
    _Atomic int nomem;
} sa_pass_t;

static void sa_range(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    sa_pass_t *c = arg;
    for (uint64_t j = lo; j < hi; j++) {
        const size_t i = c->idx[j];
        rv_pattern_t *p = rv_find_compile(c->x, c->pats[i], c->lens[i], c->strand, c->k);
        if (!p) {
            size_t b = atomic_load(&c->bad);
            while (i < b && !atomic_compare_exchange_weak(&c->bad, &b, i)) {}
            continue;
        }
        const int64_t n = rv_find_count(p);
        if (n < 0) c->nomem = 1;
        if (c->count) c->count[i] = n < 0 ? 0 : (uint64_t)n;
        if (c->keep) c->keep[j] = p; else rv_find_free(p);
    }
}

/* The patterns idx[0, m) by the SA search: counts, hits appended to *hits. */
static int sa_pass(sa_pass_t *c, size_t m, int threads, uint32_t first, rv_hit_t **hits, uint64_t *n_hits,
                   size_t *bad)
{
    if (m == 0) return 0;
    if (hits && !(c->keep = calloc(m, sizeof *c->keep))) return rv_error("find", "out of memory");
    atomic_store(&c->bad, SIZE_MAX);
    rv_parallel_dynamic(threads, m, 64, sa_range, c);
    int rc = 0;
    if (atomic_load(&c->bad) != SIZE_MAX) { /* compile it again here for its message */
        *bad = atomic_load(&c->bad);
        rv_find_free(rv_find_compile(c->x, c->pats[*bad], c->lens[*bad], c->strand, c->k));
        rc = -1;
    } else if (c->nomem) {
        rc = rv_error("find", "out of memory");
    }
    if (rc == 0 && hits) {
        rv_hit_t *h = NULL;
        const int64_t got = rv_find_many(c->x, c->keep, m, threads, &h);
        rv_hit_t *all = got < 0 ? NULL : realloc(*hits, (*n_hits + (uint64_t)got + 1) * sizeof *all);
        if (got >= 0 && !all) rc = rv_error("find", "out of memory");
        if (got < 0) rc = -1;
        for (int64_t j = 0; all && j < got; j++) {
            h[j].pattern = first + (uint32_t)c->idx[h[j].pattern];
            all[(*n_hits)++] = h[j];
        }
        if (all) *hits = all;
        free(h);
    }
    for (size_t j = 0; c->keep && j < m; j++) rv_find_free(c->keep[j]);
    free(c->keep);
    return rc;
}

typedef struct {
    const char *const *pats;
    const size_t *lens;
    const uint64_t *at; /* where pattern i's codes go (UINT64_MAX: not a candidate) */
    uint8_t *code, *ok;
} encode_t;

static void encode_range(void *arg, uint64_t lo, uint64_t hi, int t)
{
    (void)t;
    encode_t *e = arg;
    for (uint64_t i = lo; i < hi; i++)
        e->ok[i] = e->at[i] != UINT64_MAX && rv_fm_encode(e->pats[i], e->lens[i], e->code + e->at[i]);
}

/* The codes of the patterns fm takes, packed (in threads: a batch holds ~10^8
 * letters), their batch indexes in fm_idx; the others listed in sa_idx. */
static size_t encode_batch(const char *const *pats, const size_t *lens, size_t n, unsigned k, int threads,
                           uint8_t *code, uint64_t *at, uint8_t *ok, uint64_t *off, size_t *fm_idx, size_t *sa_idx,
                           size_t *n_sa)
{
    uint64_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        at[i] = rv_fm_takes(lens[i], k) ? bytes : UINT64_MAX;
        if (at[i] != UINT64_MAX) bytes += lens[i];
    }
    encode_t e = {pats, lens, at, code, ok};
    rv_parallel_for(threads, n, encode_range, &e);
    size_t nf = 0;
    off[0] = 0;
    for (size_t i = 0; i < n; i++) { /* close the gaps of the patterns that are not plain bases */
        if (!ok[i]) {
            sa_idx[(*n_sa)++] = i;
            continue;
        }
        if (at[i] != off[nf]) memmove(code + off[nf], code + at[i], lens[i]);
        fm_idx[nf] = i;
        off[nf + 1] = off[nf] + lens[i];
        nf++;
    }
    return nf;
}

/* The arrays of a batch, kept from batch to batch: fresh ones cost a page fault
 * every 4 KiB (about 0.1 s a batch of 10^6 reads, more than the GPU's search). */
struct rv_find_scratch {
    uint8_t *code, *left, *ok;
    uint64_t *off, *at, *cnt;
    size_t *fm_idx, *sa_idx;
    size_t code_cap, n_cap;
    int pin, code_pinned; /* codes wanted page-locked (rv_find_scratch_pin); they are */
    /* rv_find_prepare's batch: its patterns, count and k; nf of them coded for the
     * FM-index, the n_sa others listed in sa_idx */
    const char *const *ready_pats;
    size_t ready_n, nf, n_sa;
    unsigned ready_k;
};

rv_find_scratch_t *rv_find_scratch_new(void) { return calloc(1, sizeof(rv_find_scratch_t)); }

static void free_code(rv_find_scratch_t *w)
{
    if (w->code_pinned) rv_gpu_host_free(w->code);
    else free(w->code);
    w->code = NULL;
    w->code_cap = 0;
    w->code_pinned = 0;
}

void rv_find_scratch_pin(rv_find_scratch_t *w)
{
    w->pin = 1;
    if (!w->code_pinned) free_code(w); /* taken again, page-locked, at the next batch */
}

void rv_find_scratch_free(rv_find_scratch_t *w)
{
    if (!w) return;
    free_code(w);
    free(w->left), free(w->ok), free(w->off), free(w->at), free(w->cnt), free(w->fm_idx),
        free(w->sa_idx);
    free(w);
}

/* Room for n patterns of `bytes` letters: 0, or -1 with a message. */
static int scratch_room(rv_find_scratch_t *w, size_t n, uint64_t bytes)
{
    if (bytes + 1 > w->code_cap) {
        free_code(w);
        const size_t cap = bytes + 1 + bytes / 4;
        if (w->pin && (w->code = rv_gpu_host_alloc(cap))) w->code_pinned = 1;
        else w->code = malloc(cap);
        w->code_cap = w->code ? cap : 0;
    }
    if (n + 1 > w->n_cap) {
        free(w->left), free(w->ok), free(w->off), free(w->at), free(w->cnt), free(w->fm_idx), free(w->sa_idx);
        w->n_cap = n + 1 + n / 4;
        w->left = malloc(w->n_cap), w->ok = malloc(w->n_cap);
        w->off = malloc(w->n_cap * sizeof *w->off), w->at = malloc(w->n_cap * sizeof *w->at);
        w->cnt = malloc(w->n_cap * sizeof *w->cnt);
        w->fm_idx = malloc(w->n_cap * sizeof *w->fm_idx), w->sa_idx = malloc(w->n_cap * sizeof *w->sa_idx);
        if (!w->left || !w->ok || !w->off || !w->at || !w->cnt || !w->fm_idx || !w->sa_idx) w->n_cap = 0;
    }
    return w->code_cap && w->n_cap ? 0 : rv_error("find", "out of memory");
}

static uint64_t letters(const size_t *lens, size_t n)
{
    uint64_t bytes = 0;
    for (size_t i = 0; i < n; i++) bytes += lens[i];
    return bytes;
}

int rv_find_prepare(rv_find_scratch_t *w, const char *const *pats, const size_t *lens, size_t n, unsigned k,
                    int threads)
{
    w->ready_pats = NULL;
    if (threads < 1) threads = rv_default_threads();
    if (scratch_room(w, n, letters(lens, n)) < 0) return -1;
    w->n_sa = 0;
    w->nf = encode_batch(pats, lens, n, k, threads, w->code, w->at, w->ok, w->off, w->fm_idx, w->sa_idx, &w->n_sa);
    w->ready_pats = pats, w->ready_n = n, w->ready_k = k;
    return 0;
}

/* The plain-base patterns of the batch through fm (coded here unless
 * rv_find_prepare did it); those it does not take or leaves are appended to
 * w->sa_idx. */
static int fm_pass(rv_fm_t *fm, const char *const *pats, const size_t *lens, size_t n, rv_strand_t strand,
                   unsigned k, int threads, uint32_t first, uint64_t *count, rv_hit_t **hits, uint64_t *n_hits,
                   rv_find_scratch_t *w, size_t *n_sa, rv_find_batch_stats_t *st)
{
    const double t_enc = rv_now();
    size_t nf;
    if (w->ready_pats == pats && w->ready_n == n && w->ready_k == k) {
        nf = w->nf;
        *n_sa = w->n_sa;
    } else {
        nf = encode_batch(pats, lens, n, k, threads, w->code, w->at, w->ok, w->off, w->fm_idx, w->sa_idx, n_sa);
    }
    w->ready_pats = NULL;
    rv_hit_t *h = NULL;
    uint64_t nh = 0;
    int rc = 0;
    const double t0 = rv_now();
    if (st) st->prep_s += t0 - t_enc;
    if (nf) {
        rv_fm_batch_t b = {nf, w->code, w->off};
        rc = rv_fm_search(fm, &b, strand, k, 0, rv_fm_cap(fm), count ? w->cnt : NULL, hits ? &h : NULL, &nh, w->left);
    }
    const double t1 = rv_now();
    if (st) st->fm_s += t1 - t0;
    for (size_t j = 0; rc == 0 && j < nf; j++) {
        if (w->left[j]) w->sa_idx[(*n_sa)++] = w->fm_idx[j];
        else if (count) count[w->fm_idx[j]] = w->cnt[j];
    }
    if (rc == 0 && st) st->n_fm += nf;
    if (rc == 0 && nh) {
        rv_hit_t *all = realloc(*hits, (*n_hits + nh) * sizeof *all);
        if (!all) rc = rv_error("find", "out of memory");
        for (uint64_t j = 0; all && j < nh; j++) {
            h[j].pattern = first + (uint32_t)w->fm_idx[h[j].pattern];
            all[(*n_hits)++] = h[j];
        }
        if (all) *hits = all;
    }
    free(h);
    if (st) st->prep_s += rv_now() - t1;
    return rc;
}

int rv_find_batch(const rv_index_t *x, rv_fm_t *fm, const char *const *pats, const size_t *lens, size_t n,
                  rv_strand_t strand, unsigned k, int threads, uint32_t first, uint64_t *count, rv_hit_t **hits,
                  uint64_t *n_hits, size_t *bad, rv_find_batch_stats_t *st, rv_find_scratch_t *scratch)
{
    if (hits) *hits = NULL;
    if (n_hits) *n_hits = 0;
    *bad = SIZE_MAX;
    if (threads < 1) threads = rv_default_threads();
    rv_find_scratch_t *w = scratch ? scratch : rv_find_scratch_new();
    if (w && !fm) w->ready_pats = NULL;
    if (!w || scratch_room(w, n, fm ? letters(lens, n) : 0) < 0) {
        if (w != scratch) rv_find_scratch_free(w);
        return rv_error("find", "out of memory");
    }
    size_t n_sa = 0;
    int rc = 0;
    if (fm) {
        rc = fm_pass(fm, pats, lens, n, strand, k, threads, first, count, hits, n_hits, w, &n_sa, st);
    } else {
        for (size_t i = 0; i < n; i++) w->sa_idx[n_sa++] = i;
    }
    const double t0 = rv_now();
    sa_pass_t c = {x, pats, lens, w->sa_idx, strand, k, count, NULL, SIZE_MAX, 0};
    if (rc == 0) rc = sa_pass(&c, n_sa, threads, first, hits, n_hits, bad);
    if (st) {
        st->sa_s += rv_now() - t0;
        st->n_sa += n_sa;
    }
    if (w != scratch) rv_find_scratch_free(w);
    if (rc < 0 && hits) {
        free(*hits);
        *hits = NULL;
        *n_hits = 0;
    }
    return rc;
}
