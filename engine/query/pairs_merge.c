/* pairs_merge.c — the k-way merge of pairs_sort.c on every core, same order.
 *
 * One heap merge on one thread tops out near 10-20 M pairs a second, which makes
 * it the whole cost of a large output (400 M pairs of a human-sized genome).  The
 * runs are sorted, so the key space (p1, p2) can be cut at sampled keys into
 * chunks that merge independently: a memory run is cut by binary search, a coded
 * run at its checkpoints (every `check`-th pair is coded from p1 = 0, its offset
 * and key kept by the sink) and then decoded from the spill file.  Worker
 * threads merge chunks in increasing order into a window of buffers; the calling
 * thread hands the chunks to the callback in order, so the output is byte for
 * byte the serial merge's.  All pairs with one (p1, p2) fall in one chunk, and a
 * chunk's own heap orders them in full (pf_pair_less).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "repview/common.h"
#include "base/internal.h"
#include "pairs_internal.h"

enum { CHUNK_DEFAULT = 1 << 17, CHECK_MAX = 1024, WINDOW_EXTRA = 4, RAW = 8192, MAX_CODE = 30 };

void pf_merge_tuning(uint64_t *chunk, uint64_t *check)
{
    const char *e = getenv("REPVIEW_MERGE_CHUNK");
    uint64_t c = e && *e ? strtoull(e, NULL, 10) : 0;
    *chunk = c >= 2 ? c : CHUNK_DEFAULT;
    *check = *chunk / 32;
    if (*check < 2) *check = 2;
    if (*check > CHECK_MAX) *check = CHECK_MAX;
}

typedef struct {
    uint64_t p1, p2;
} pkey_t;

static inline int key_less(pkey_t a, pkey_t b)
{
    return a.p1 != b.p1 ? a.p1 < b.p1 : a.p2 < b.p2;
}

static inline pkey_t key_of(const rv_pair_t *p)
{
    return (pkey_t){p->p1, p->p2};
}

/* A run's pairs inside one chunk; cur is the next one. */
typedef struct {
    rv_pair_t cur;
    const rv_pair_t *a, *aend;
    int fd;
    uint64_t off, end_off;  /* file bytes still to read */
    uint8_t *raw;           /* RAW bytes, [rpos, rlen) unread */
    uint32_t rpos, rlen;
    uint64_t left, prev, idx, check;
    const uint64_t *ck_p1, *ck_p2; /* the run's checkpoint keys, ck the next one's */
    uint64_t ck;
    int both;               /* p2 coded as 2 p2 + inverted (pf_orient) */
    uint64_t nf;            /* pairs lie in the forward text [0, nf) */
    uint64_t min_len;       /* and are at least this long */
    int seen;               /* cur holds the run's pair before the next */
    const char *bad;        /* why the run is damaged (NULL: it did not read) */
    pkey_t hi;
} cursor_t;

/* Keep MAX_CODE bytes (a pair's codes) buffered while the range has more. */
static int refill(cursor_t *c)
{
    if (c->rlen - c->rpos >= MAX_CODE || c->off == c->end_off) return 0;
    memmove(c->raw, c->raw + c->rpos, c->rlen - c->rpos);
    c->rlen -= c->rpos;
    c->rpos = 0;
    uint64_t want = c->end_off - c->off;
    if (want > RAW - c->rlen) want = RAW - c->rlen;
    while (want) {
        ssize_t r = pread(c->fd, c->raw + c->rlen, want, (off_t)c->off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        c->rlen += (uint32_t)r, c->off += (uint64_t)r, want -= (uint64_t)r;
    }
    return 0;
}

static int varint(cursor_t *c, uint64_t *v)
{
    uint64_t x = 0;
    for (int sh = 0; c->rpos < c->rlen && sh < 64; sh += 7) {
        uint8_t b = c->raw[c->rpos++];
        x |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

/* Does the pair coded d1, d2, len after c->prev lie in the forward text: p1 <=
 * p2 (decoded) and p2 + len <= nf, no sum wrapping?  (c->prev is 0 or a p1 that
 * did.)  NULL, or what is wrong with it. */
static const char *pair_fits(const cursor_t *c, uint64_t d1, uint64_t d2, uint64_t len)
{
    static const char outside[] = "a pair outside the text";
    if (d1 >= c->nf - c->prev) return outside;
    const uint64_t p1 = c->prev + d1;
    uint64_t p2 = p1 + d2;
    if (p2 < p1) return outside;
    if (c->both) p2 >>= 1;
    if (!(p1 <= p2 && p2 < c->nf && len >= 1 && len <= c->nf - p2)) return outside;
    return len < c->min_len ? "a pair shorter than the part's minimum length" : NULL;
}

/* Advance c to its next pair below hi: 1, 0 when done, -1 on a run that does not
 * read or is damaged (c->bad says how: a pair outside the text or too short, one
 * before the run's pair ahead of it, or one at a checkpoint that is not the
 * checkpoint's key).  Neighbours that one chunk reads are compared (a chunk
 * reads its runs from the checkpoint below its start to the first pair at or
 * past its end); a pair out of order where a chunk stops is caught by the count
 * in hand_over. */
static int cursor_next(cursor_t *c)
{
    if (c->a) {
        if (c->a == c->aend) return 0;
        c->cur = *c->a++;
        return 1;
    }
    if (!c->left) return 0;
    uint64_t d1, d2, len;
    const int at_ck = c->idx++ % c->check == 0;
    if (at_ck) c->prev = 0;
    if (refill(c) < 0 || varint(c, &d1) < 0 || varint(c, &d2) < 0 || varint(c, &len) < 0) return -1;
    if ((c->bad = pair_fits(c, d1, d2, len))) return -1;
    c->left--;
    c->prev += d1;
    const rv_pair_t next = {c->prev, c->prev + d2, len, 0};
    if (c->seen && pf_pair_less(&next, &c->cur)) return c->bad = "pairs out of order", -1;
    c->cur = next, c->seen = 1;
    if (at_ck && (c->cur.p1 != c->ck_p1[c->ck] || c->cur.p2 != c->ck_p2[c->ck]))
        return c->bad = "a checkpoint's key is not its pair", -1;
    c->ck += at_ck;
    return key_less(key_of(&c->cur), c->hi) ? 1 : (c->left = 0, 0);
}

/* First index of a[0..n) with key >= k. */
static uint64_t lower_bound(const rv_pair_t *a, uint64_t n, pkey_t k)
{
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (key_less(key_of(&a[mid]), k)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* First checkpoint of r with key >= k (r->nck when none). */
static uint64_t ck_lower_bound(const pf_run_t *r, pkey_t k)
{
    uint64_t lo = 0, hi = r->nck;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (key_less((pkey_t){r->ck_p1[mid], r->ck_p2[mid]}, k)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Place c on run r's pairs in [lo, hi) and load the first: 1, 0 when none, -1.
 * *bound gets at most how many there are.  raw: RAW bytes for a coded run; out:
 * how its pairs are coded and where they lie. */
static int cursor_open(cursor_t *c, const pf_run_t *r, const pf_out_t *out, pkey_t lo, pkey_t hi, uint8_t *raw,
                       uint64_t *bound)
{
    memset(c, 0, sizeof *c);
    c->hi = hi;
    if (r->a) {
        uint64_t b = lower_bound(r->a, r->n, lo), e = lower_bound(r->a, r->n, hi);
        c->a = r->a + b, c->aend = r->a + e;
        *bound = e - b;
        return cursor_next(c);
    }
    /* from the last checkpoint below lo to the first at or past hi */
    uint64_t j = ck_lower_bound(r, lo), e = ck_lower_bound(r, hi);
    if (j > 0) j--;
    uint64_t pairs = r->n - j * r->check;
    c->left = e < r->nck && (e - j) * r->check < pairs ? (e - j) * r->check : pairs;
    c->fd = r->fd;
    c->off = r->ck_off[j];
    c->end_off = e < r->nck ? r->ck_off[e] : r->end_off;
    c->raw = raw;
    c->check = r->check;
    c->ck_p1 = r->ck_p1, c->ck_p2 = r->ck_p2, c->ck = j;
    c->both = out->both, c->nf = out->nf, c->min_len = out->min_len;
    *bound = c->left;
    int got;
    while ((got = cursor_next(c)) == 1 && key_less(key_of(&c->cur), lo)) {}
    return got;
}

typedef struct {
    rv_pair_t *out;
    uint64_t n, cap;
    char *txt;          /* text mode: the chunk formatted */
    size_t txt_cap, txt_len;
    int ready;
    int stream;         /* no room for the chunk: hand_over merges it in small pieces */
} slot_t;

typedef struct {
    const pf_out_t *to;
    const pf_run_t *runs;
    uint64_t nruns;
    const pkey_t *cut;     /* chunk c is [cut[c], cut[c + 1]) */
    uint64_t nchunks, window;
    uint64_t no_room;      /* test hook: every no_room-th chunk finds no room (0: none) */
    slot_t *slots;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t taken, handed; /* chunks given to a thread; chunks passed to fn */
    int stop, failed, code; /* code: what the call returns after a failure */
    const char *source;     /* what the coded runs are, for a read error */
    char err[256];
} merge_t;

static void heap_down(const cursor_t *c, uint32_t *h, uint64_t n, uint64_t i)
{
    for (;;) {
        uint64_t m = i, l = 2 * i + 1, r = l + 1;
        if (l < n && pf_pair_less(&c[h[l]].cur, &c[h[m]].cur)) m = l;
        if (r < n && pf_pair_less(&c[h[r]].cur, &c[h[m]].cur)) m = r;
        if (m == i) return;
        uint32_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* A thread's scratch: a cursor, a heap entry and RAW bytes for every run. */
typedef struct {
    cursor_t *cur;
    uint32_t *heap;
    uint8_t *raw;
} scratch_t;

/* A run of m that does not read, or c's damaged one: -1 with a message. */
static int damaged(const merge_t *m, const cursor_t *c)
{
    return rv_error("pairs", "cannot read %s (%s)", m->source, c && c->bad ? c->bad : "corrupt or cut short");
}

/* Open sc's cursors on chunk ch, as a heap: how many (*nh), and at most how many
 * pairs the chunk holds (*bound).  0, or -1 with a message. */
static int open_chunk(const merge_t *m, uint64_t ch, const scratch_t *sc, uint64_t *nh, uint64_t *bound)
{
    cursor_t *cur = sc->cur;
    *nh = *bound = 0;
    for (uint64_t r = 0; r < m->nruns; r++) {
        uint64_t b;
        int got = cursor_open(&cur[*nh], &m->runs[r], m->to, m->cut[ch], m->cut[ch + 1], sc->raw + *nh * RAW, &b);
        if (got < 0) return damaged(m, &cur[*nh]);
        if (b > UINT64_MAX - *bound) return damaged(m, NULL);
        *bound += b;
        if (got) sc->heap[*nh] = (uint32_t)*nh, ++*nh;
    }
    for (uint64_t i = *nh / 2; i-- > 0;) heap_down(cur, sc->heap, *nh, i);
    return 0;
}

/* The next pair of the chunk whose cursors are the heap of nh: into *p; 0, or -1
 * with a message. */
static int pop_pair(const merge_t *m, const scratch_t *sc, uint64_t *nh, rv_pair_t *p)
{
    cursor_t *c = &sc->cur[sc->heap[0]];
    *p = c->cur;
    int got = cursor_next(c);
    if (got < 0) return damaged(m, c);
    if (!got) sc->heap[0] = sc->heap[--*nh];
    heap_down(sc->cur, sc->heap, *nh, 0);
    return 0;
}

/* test hook: REPVIEW_MERGE_NO_ROOM=N: every Nth chunk finds no room for its pairs */
static uint64_t no_room_every(void)
{
    const char *e = getenv("REPVIEW_MERGE_NO_ROOM");
    return e && *e ? strtoull(e, NULL, 10) : 0;
}

/* Merge chunk ch into s.  0, -1 with a message (a corrupt or unreadable run) or
 * -2 (no room for its pairs). */
static int merge_chunk(const merge_t *m, uint64_t ch, slot_t *s, const scratch_t *sc)
{
    uint64_t nh, bound;
    if (open_chunk(m, ch, sc, &nh, &bound) < 0) return -1;
    if (m->no_room && ch % m->no_room == 0) return -2;
    if (bound > s->cap) {
        if (bound > SIZE_MAX / sizeof *s->out) return -2;
        rv_pair_t *o = realloc(s->out, bound * sizeof *o);
        if (!o) return -2;
        s->out = o, s->cap = bound;
    }
    uint64_t n = 0;
    while (nh) {
        if (n == s->cap) return damaged(m, NULL); /* more pairs than the checkpoints allow */
        if (pop_pair(m, sc, &nh, &s->out[n++]) < 0) return -1;
    }
    s->n = n;
    return 0;
}

/* Chunk ch straight to the output in pieces of STREAM pairs, on the calling
 * thread in the chunks' order: where a worker found no room for the whole chunk
 * (its pairs, or their text).  *made gets its pairs.  0, the output's value, or -1
 * with a message. */
enum { STREAM = 4096 };
static int stream_chunk(const merge_t *m, uint64_t ch, const scratch_t *sc, uint64_t *made)
{
    rv_pair_t *buf = malloc(STREAM * sizeof *buf);
    char *txt = NULL;
    size_t cap = 0, len = 0;
    uint64_t nh, bound, n = 0;
    int rc = buf ? open_chunk(m, ch, sc, &nh, &bound) : rv_oom("pairs' output", STREAM * sizeof *buf);
    *made = 0;
    while (rc == 0 && (nh || n)) {
        if (nh && n < STREAM) {
            if (*made + n == bound) rc = damaged(m, NULL); /* more pairs than the checkpoints allow */
            else rc = pop_pair(m, sc, &nh, &buf[n++]);
            continue;
        }
        if (m->to->both)
            for (uint64_t i = 0; i < n; i++) pf_decode(&buf[i]);
        const rv_pairs_text_t *t = m->to->text;
        rc = t ? t->format(t->ud, buf, n, &txt, &cap, &len) : m->to->fn(m->to->ud, buf, n);
        if (rc == 0 && t) rc = t->write(t->ud, txt, len);
        *made += n, n = 0;
    }
    free(buf);
    free(txt);
    return rc;
}

/* The first failure: what the call returns (code) and, for -1, its message
 * (this thread's: the caller's thread sets it again). */
static void fail(merge_t *m, int code)
{
    if (!m->failed) {
        m->code = code;
        snprintf(m->err, sizeof m->err, "%s", rv_last_error());
    }
    m->failed = 1;
    pthread_cond_broadcast(&m->cv);
}

/* After the merge, on the worker: decode both-strand pairs, format the text.
 * 0, or format()'s value. */
static int finish_chunk(const merge_t *m, slot_t *s)
{
    if (m->to->both)
        for (uint64_t i = 0; i < s->n; i++) pf_decode(&s->out[i]);
    if (!m->to->text) return 0;
    const rv_pairs_text_t *t = m->to->text;
    return t->format(t->ud, s->out, s->n, &s->txt, &s->txt_cap, &s->txt_len);
}

/* Take the next chunk whose slot is free, merge it, post it; until none is left.
 * The calling thread passes only_mine: it merges just chunk `only` (when no
 * worker took it) so the run goes on without workers. */
static int work(merge_t *m, const scratch_t *sc, int caller, uint64_t only)
{
    pthread_mutex_lock(&m->mu);
    for (;;) {
        if (caller && m->taken != only) break;
        while (!m->stop && !m->failed && m->taken < m->nchunks && m->taken >= m->handed + m->window)
            pthread_cond_wait(&m->cv, &m->mu);
        if (m->stop || m->failed || m->taken >= m->nchunks) break;
        uint64_t ch = m->taken++;
        slot_t *s = &m->slots[ch % m->window];
        pthread_mutex_unlock(&m->mu);
        int rc = merge_chunk(m, ch, s, sc), no_room = rc == -2;
        if (rc == 0 && finish_chunk(m, s) != 0) no_room = 1; /* its text: format() fails only for memory */
        if (no_room) { /* the slot's memory back; hand_over merges the chunk in pieces */
            free(s->out), free(s->txt);
            s->out = NULL, s->txt = NULL, s->cap = s->n = 0, s->txt_cap = s->txt_len = 0;
            s->stream = 1, rc = 0;
        }
        pthread_mutex_lock(&m->mu);
        if (rc != 0) {
            fail(m, rc);
            break;
        }
        s->ready = 1;
        pthread_cond_broadcast(&m->cv);
        if (caller) break;
    }
    pthread_mutex_unlock(&m->mu);
    return 0;
}

typedef struct {
    merge_t *m;
    scratch_t sc;
} worker_t;

/* A thread's scratch for nr runs: 0, or -1 (nothing kept) when out of memory. */
static int scratch_new(scratch_t *sc, uint64_t nr)
{
    *sc = (scratch_t){malloc(nr * sizeof *sc->cur), malloc(nr * sizeof *sc->heap), malloc(nr * RAW)};
    if (sc->cur && sc->heap && sc->raw) return 0;
    free(sc->cur), free(sc->heap), free(sc->raw);
    return -1;
}

/* How many threads' scratch the merge may have: no limit, or N with
 * REPVIEW_MERGE_SCRATCH=N (tests: N such allocations succeed and the next fails,
 * as when memory runs out). */
static uint64_t scratch_max(void)
{
    const char *e = getenv("REPVIEW_MERGE_SCRATCH");
    return e && *e ? strtoull(e, NULL, 10) : UINT64_MAX;
}

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    work(w->m, &w->sc, 0, 0);
    return NULL;
}

/* Hand the chunks to fn in order: 0, fn's value, or -1 with a message.  Each
 * pair goes to one chunk at most (the chunks' keys do not overlap), so when all
 * were handed on, fewer pairs than the runs hold means some were never read: a
 * run out of order where a chunk ends (a cursor stops at the first pair past its
 * chunk, and the pairs after it are nobody's). */
static int hand_over(merge_t *m, const scratch_t *sc)
{
    int rc = 0;
    uint64_t pairs = 0, want = 0;
    for (uint64_t r = 0; r < m->nruns; r++) want += m->runs[r].n;
    for (uint64_t ch = 0; ch < m->nchunks && rc == 0; ch++) {
        slot_t *s = &m->slots[ch % m->window];
        pthread_mutex_lock(&m->mu);
        while (!s->ready && !m->failed) {
            if (m->taken == ch) { /* nobody took it: merge it here */
                pthread_mutex_unlock(&m->mu);
                work(m, sc, 1, ch);
                pthread_mutex_lock(&m->mu);
                continue;
            }
            pthread_cond_wait(&m->cv, &m->mu);
        }
        int failed = m->failed;
        pthread_mutex_unlock(&m->mu);
        if (failed) return m->code == -1 ? rv_error(NULL, "%s", m->err) : m->code;
        if (s->stream) {
            uint64_t made = 0;
            rc = stream_chunk(m, ch, sc, &made);
            pairs += made, s->stream = 0;
        } else {
            pairs += s->n;
            if (m->to->text) rc = m->to->text->write(m->to->text->ud, s->txt, s->txt_len);
            for (uint64_t i = 0; !m->to->text && i < s->n && rc == 0; i += RV_PAIRS_BATCH)
                rc = m->to->fn(m->to->ud, s->out + i, s->n - i < RV_PAIRS_BATCH ? s->n - i : RV_PAIRS_BATCH);
        }
        pthread_mutex_lock(&m->mu);
        s->ready = 0;
        m->handed = ch + 1;
        pthread_cond_broadcast(&m->cv);
        pthread_mutex_unlock(&m->mu);
    }
    if (rc == 0 && pairs != want)
        rc = rv_error("pairs", "cannot read %s (pairs out of order: %llu of %llu merged)", m->source,
                      (unsigned long long)pairs, (unsigned long long)want);
    return rc;
}

/* The runs of every sink. */
static pf_run_t *list_runs(const pf_sink_t *sinks, int nsinks, uint64_t *nruns)
{
    uint64_t n = 0;
    for (int t = 0; t < nsinks; t++) n += sinks[t].nruns + 1;
    pf_run_t *r = calloc(n, sizeof *r);
    if (!r) return NULL;
    n = 0;
    for (int t = 0; t < nsinks; t++) {
        const pf_sink_t *k = &sinks[t];
        if (k->n) r[n++] = (pf_run_t){.a = k->buf, .n = k->n};
        for (uint64_t q = 0; q < k->nruns; q++) {
            uint64_t end = q + 1 < k->nruns ? k->run_off[q + 1] : k->file_bytes;
            uint64_t c0 = k->run_ck[q], c1 = q + 1 < k->nruns ? k->run_ck[q + 1] : k->nck;
            r[n++] = (pf_run_t){.n = k->run_len[q], .fd = k->fd, .end_off = end, .ck_off = k->ck_off + c0,
                             .ck_p1 = k->ck_p1 + c0, .ck_p2 = k->ck_p2 + c0, .nck = c1 - c0, .check = k->check};
        }
    }
    *nruns = n;
    return r;
}

static int cmp_key(const void *a, const void *b)
{
    pkey_t x = *(const pkey_t *)a, y = *(const pkey_t *)b;
    return key_less(x, y) ? -1 : key_less(y, x);
}

/* Cut points from a sample of every run's keys (one per `check` pairs): about
 * one chunk per `chunk` pairs; cut[0] the least key, cut[n] past every key. */
static pkey_t *cut_chunks(const pf_run_t *runs, uint64_t nruns, uint64_t chunk, uint64_t check, uint64_t *nchunks)
{
    uint64_t ns = 0, total = 0;
    for (uint64_t r = 0; r < nruns; r++) {
        ns += runs[r].a ? (runs[r].n + check - 1) / check : runs[r].nck;
        total += runs[r].n;
    }
    pkey_t *smp = malloc((ns + 2) * sizeof *smp);
    if (!smp) return NULL;
    uint64_t k = 0;
    for (uint64_t r = 0; r < nruns; r++) {
        const pf_run_t *x = &runs[r];
        if (x->a) for (uint64_t i = 0; i < x->n; i += check) smp[k++] = key_of(&x->a[i]);
        else for (uint64_t i = 0; i < x->nck; i++) smp[k++] = (pkey_t){x->ck_p1[i], x->ck_p2[i]};
    }
    qsort(smp, k, sizeof *smp, cmp_key);
    uint64_t want = (total + chunk - 1) / chunk, n = 0;
    pkey_t *cut = malloc((want + 2) * sizeof *cut);
    if (!cut) {
        free(smp);
        return NULL;
    }
    cut[n++] = (pkey_t){0, 0};
    for (uint64_t i = 1; i < want; i++) {
        pkey_t c = smp[i * k / want];
        if (key_less(cut[n - 1], c)) cut[n++] = c;
    }
    cut[n] = (pkey_t){UINT64_MAX, UINT64_MAX};
    free(smp);
    *nchunks = n;
    return cut;
}

int pf_merge_runs(const pf_run_t *runs, uint64_t nruns, const pf_out_t *out, int threads, const char *source,
                  int *ran)
{
    uint64_t chunk, check, nchunks = 0;
    pf_merge_tuning(&chunk, &check);
    pkey_t *cut = cut_chunks(runs, nruns, chunk, check, &nchunks);
    if (threads < 1) threads = 1;
    /* with text, the calling thread writes it: one worker fewer, so that the writer
     * (the only one in order) has a core of its own */
    int workers = out->text ? threads - 1 : threads, rc = 0;
    merge_t m = {.to = out, .runs = runs, .nruns = nruns, .cut = cut, .nchunks = nchunks,
                 .window = (uint64_t)threads + WINDOW_EXTRA, .no_room = no_room_every(), .source = source ? source : "a temporary file"};
    m.slots = cut ? calloc(m.window, sizeof *m.slots) : NULL;
    worker_t *w = m.slots ? calloc((size_t)workers + 1, sizeof *w) : NULL;
    pthread_t *tid = w ? calloc((size_t)workers + 1, sizeof *tid) : NULL;
    /* scratch for the calling thread, then each worker (nruns x RAW bytes each):
     * fewer workers when memory runs out, down to none (the calling thread merges
     * every chunk) */
    const uint64_t nr = nruns ? nruns : 1, most = scratch_max();
    int have = 0;
    while (tid && have <= workers && (uint64_t)have < most && scratch_new(&w[have].sc, nr) == 0) w[have++].m = &m;
    if (have <= workers) workers = have - 1;
    const int ok = have > 0;
    int started = 0;
    *ran = ok;
    if (ok) {
        pthread_mutex_init(&m.mu, NULL);
        pthread_cond_init(&m.cv, NULL);
        for (; started < workers; started++)
            if (pthread_create(&tid[started], NULL, worker_main, &w[started + 1]) != 0) break;
        rc = hand_over(&m, &w[0].sc);
        pthread_mutex_lock(&m.mu);
        m.stop = 1;
        pthread_cond_broadcast(&m.cv);
        pthread_mutex_unlock(&m.mu);
        for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
        pthread_mutex_destroy(&m.mu);
        pthread_cond_destroy(&m.cv);
    }
    for (int t = 0; t < have; t++) free(w[t].sc.cur), free(w[t].sc.heap), free(w[t].sc.raw);
    for (uint64_t i = 0; m.slots && i < m.window; i++) free(m.slots[i].out), free(m.slots[i].txt);
    free(tid);
    free(w);
    free(m.slots);
    free(cut);
    return rc;
}

int pf_merge_parallel(pf_sink_t *sinks, int nsinks, const pf_out_t *out, int *ran)
{
    uint64_t nruns = 0;
    pf_run_t *runs = list_runs(sinks, nsinks, &nruns);
    if (!runs) {
        *ran = 0;
        return 0;
    }
    int rc = pf_merge_runs(runs, nruns, out, nsinks, NULL, ran);
    free(runs);
    return rc;
}
