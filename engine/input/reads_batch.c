/* reads_batch.c — rv_reads_batch (find.h): batches of FASTA/FASTQ records, the
 * block parser of reads.c run in threads over the mapped file; on other inputs (gzip,
 * stdin, pipes) what rv_reads_next gives, copied. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/find.h"
#include "base/internal.h"
#include "reads_internal.h"
#include "reads_parse.h"

/* ---- batches ----------------------------------------------------------------------
 *
 * A plain file is mapped whole, so the block parser above never runs out of block
 * (buf = the map, eof set).  A batch's input region [S, E) starts at the next
 * record's header byte S and is cut into chunks, one per thread; chunk i > 0 starts
 * at a guessed header g_i and parses the records whose header byte lies in
 * [g_i, g_{i+1}), copying names and sequences into its own arena (the map is never
 * written).  The parser's state between records is only "the next header byte", so
 * chunk i + 1 holds exactly the records the sequential reader would give iff chunk i
 * ended with its next header at g_{i+1}; the chunks are stitched in order and at the
 * first that does not (a wrong guess), the rest are dropped and a new round parses on
 * from the true state.  An error counts only in a chunk whose start was right. */

/* A record a chunk parsed: the name at arena + off (name_len bytes and a NUL), the
 * sequence right after it; next, next_char: the parser's state after it. */
typedef struct {
    size_t off, name_len, len, next;
    int next_char;
} brec_t;

enum { STOP_LIMIT = 1, STOP_MOST = 2, NO_MEMORY = -4 };

/* One thread's share of a round, its storage kept from batch to batch. */
typedef struct {
    char *arena;
    uint64_t arena_cap;
    size_t used;
    brec_t *rec;
    uint64_t rec_cap;
    size_t n;
    char *qual;          /* its parser's buffer for multi-line quality */
    size_t qual_cap;
    size_t used0, n0;    /* used and n when the round started */
    size_t pos, limit, most;  /* in: the state (pos, last_char) on its first header,
                                 records below limit, at most `most`; out: the state after */
    int last_char;
    int stop;            /* out: STOP_LIMIT, STOP_MOST, or parse()'s -1, -2, NO_MEMORY */
    int exact;           /* STOP_LIMIT: the next header byte is limit itself */
} chunk_t;

typedef struct { size_t chunk, lo, n, at; } seg_t;  /* records [lo, lo + n) of a chunk, batch's from at */

typedef struct {
    chunk_t *chunk;
    size_t n_chunk;
    seg_t *seg;          /* the batch's records, in order */
    uint64_t seg_cap;
    size_t n_seg;
    size_t cap;          /* of the batch's arrays */
} batch_mem_t;

/* Room in c for one more record of `room` bytes (name and sequence, their NULs
 * aside).  0 or -1. */
static int chunk_reserve(chunk_t *c, size_t room)
{
    return rv_grow((void **)&c->arena, &c->arena_cap, c->used + room + 2, 1) < 0 ||
                   rv_grow((void **)&c->rec, &c->rec_cap, c->n + 1, sizeof *c->rec) < 0
               ? -1 : 0;
}

/* Close the record whose name (name_len bytes) and sequence (len) were written at
 * arena + used. */
static void chunk_push(chunk_t *c, size_t name_len, size_t len, size_t next, int next_char)
{
    char *d = c->arena + c->used;
    d[name_len] = 0;
    d[name_len + 1 + len] = 0;
    c->rec[c->n++] = (brec_t){c->used, name_len, len, next, next_char};
    c->used += name_len + len + 2;
}

/* Copy the record st parsed into c (the sequence lines joined as block_next does).
 * 0 or -1 (out of memory). */
static int chunk_put(chunk_t *c, const rv_reads_t *st, rec_t *rec, size_t next, int next_char)
{
    const char *name = st->buf + rec->name;
    size_t nl = rec->name_end - rec->name;
    const char *z = memchr(name, 0, nl);
    if (z) nl = (size_t)(z - name);  /* the name as the C string rv_reads_next gives */
    if (chunk_reserve(c, nl + (rec->lines > 1 ? rec->seq_end - rec->seq : rec->len)) < 0) return -1;
    char *d = c->arena + c->used;
    memcpy(d, name, nl);
    if (rec->lines > 1) {  /* seq_lines writes up to the lines' bytes, CRs included */
        size_t q = rec->seq;
        int ch;
        reads_seq_lines(st, &q, &ch, rec, d + nl + 1);
    } else if (rec->lines == 1) {
        memcpy(d + nl + 1, st->buf + rec->first, rec->len);
    }
    chunk_push(c, nl, rec->len, next, next_char);
    return 0;
}

/* Whether the record after st's state has its header byte below limit; if so, st
 * is moved onto it as parse() would (a skip is final). */
static int header_below(rv_reads_t *st, size_t limit)
{
    if (st->last_char) return st->pos - 1 < limit;
    for (size_t p = st->pos; p < limit; p++)
        if (st->buf[p] == '>' || st->buf[p] == '@') {
            st->pos = p + 1;
            st->last_char = st->buf[p];
            return 1;
        }
    return 0;
}

/* A parser over the whole map in state (pos, last_char). */
static rv_reads_t map_view(const rv_reads_t *r, size_t pos, int last_char)
{
    return (rv_reads_t){.fd = -1, .buf = (char *)r->map, .end = r->map_size, .eof = 1,
                        .pos = pos, .last_char = last_char, .ctx = r->ctx};
}

/* A thread's work: c's records, until the next header reaches c->limit. */
static void chunk_parse(const rv_reads_t *r, chunk_t *c)
{
    rv_reads_t st = map_view(r, c->pos, c->last_char);
    st.qual = c->qual;
    st.qual_cap = c->qual_cap;
    for (size_t got = 0;; got++) {
        if (got == c->most) { c->stop = STOP_MOST; break; }
        if (!header_below(&st, c->limit)) {
            c->stop = STOP_LIMIT;
            c->exact = st.last_char ? st.pos - 1 == c->limit : st.pos <= c->limit;
            break;
        }
        rec_t rec;
        size_t next;
        int next_char;
        const int rc = reads_parse(&st, &rec, &next, &next_char);  /* never NEED_MORE: eof */
        if (rc != 1) { c->stop = rc == -3 ? NO_MEMORY : rc; break; }
        if (chunk_put(c, &st, &rec, next, next_char) < 0) { c->stop = NO_MEMORY; break; }
        st.pos = next;
        st.last_char = next_char;
    }
    c->pos = st.pos;
    c->last_char = st.last_char;
    c->qual = st.qual;
    c->qual_cap = st.qual_cap;
}

typedef struct {
    const rv_reads_t *r;
    chunk_t *chunk;
} round_t;

static void round_run(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    const round_t *w = ctx;
    for (uint64_t i = lo; i < hi; i++) chunk_parse(w->r, &w->chunk[i]);
}

/* Whether the line k lines below the one starting at p starts with ch. */
static int line_below_starts(const char *b, size_t size, size_t p, int k, char ch)
{
    while (k-- > 0) {
        const char *nl = memchr(b + p, '\n', size - p);
        if (!nl) return 0;
        p = (size_t)(nl - b) + 1;
    }
    return p < size && b[p] == ch;
}

/* A likely header in [from, to) (to when none): a line starting with '>', or in
 * FASTQ one starting with '@' with a '+' line two lines down (quality lines may
 * start with '@').  Only the speed depends on it being right. */
static size_t guess_header(const char *b, size_t size, size_t from, size_t to, int fastq)
{
    for (size_t p = from; p < to;) {
        if (fastq < 0) {  /* the tests' bad guesses */
            if (b[p] == '>' || b[p] == '@') return p;
            p++;
            continue;
        }
        if (p > 0 && b[p - 1] != '\n') {
            const char *nl = memchr(b + p, '\n', to - p);
            if (!nl) break;
            p = (size_t)(nl - b) + 1;
            continue;
        }
        if (fastq ? b[p] == '@' && line_below_starts(b, size, p, 2, '+') : b[p] == '>') return p;
        p++;
    }
    return to;
}

/* Cut [S, E) (S: the header byte of the next record, the state (S + 1, b[S])) into
 * chunks for up to `threads` threads; each takes at most `most` records.  The
 * number of chunks, or 0 when out of memory. */
static size_t plan_round(const rv_reads_t *r, batch_mem_t *m, size_t S, size_t E, int threads, size_t most)
{
    const size_t span = E - S;
    size_t t = (size_t)threads, k = 0;
    if (t > span / r->min_chunk) t = span / r->min_chunk;
    t = t < 1 ? 1 : t > 256 ? 256 : t;
    if (t > m->n_chunk) {
        chunk_t *c = realloc(m->chunk, t * sizeof *c);
        if (!c) return 0;
        memset(c + m->n_chunk, 0, (t - m->n_chunk) * sizeof *c);
        m->chunk = c;
        m->n_chunk = t;
    }
    chunk_t *c = m->chunk;
    c[0].pos = S + 1;
    c[0].last_char = r->map[S];
    for (size_t i = 1; i < t; i++) {
        const size_t to = S + span / t * (i + 1) + span % t * (i + 1) / t;
        const size_t g = guess_header(r->map, r->map_size, S + span / t * i + span % t * i / t, to,
                                      r->any_guess ? -1 : r->map[S] == '@');
        if (g == to) continue;
        c[k++].limit = g;
        c[k].pos = g + 1;
        c[k].last_char = r->map[g];
    }
    c[k++].limit = E;
    for (size_t i = 0; i < k; i++) {
        c[i].most = most;
        c[i].used0 = c[i].used;
        c[i].n0 = c[i].n;
    }
    return k;
}

static int add_seg(batch_mem_t *m, size_t chunk, size_t lo, size_t n)
{
    if (rv_grow((void **)&m->seg, &m->seg_cap, m->n_seg + 1, sizeof *m->seg) < 0) return -1;
    m->seg[m->n_seg] = (seg_t){chunk, lo, n, m->n_seg ? m->seg[m->n_seg - 1].at + m->seg[m->n_seg - 1].n : 0};
    m->n_seg++;
    return 0;
}

/* Stitch a round's k chunks after *count records: take their records in order up
 * to `most`, moving the state (*pos, *last) along.  Returns 0 (go on from the
 * state), 1 (the batch is full or its region done), or an end: -1 (end of
 * input), -2 (bad quality of the record after the count), NO_MEMORY. */
static int stitch(batch_mem_t *m, size_t k, size_t most, size_t *count, size_t *pos, int *last)
{
    int how = 1;
    size_t i = 0;
    for (; i < k; i++) {
        const chunk_t *c = &m->chunk[i];
        const size_t got = c->n - c->n0, take = got < most - *count ? got : most - *count;
        if (take && add_seg(m, i, c->n0, take) < 0) { how = NO_MEMORY; break; }
        *count += take;
        if (*count == most) {
            *pos = c->rec[c->n0 + take - 1].next;
            *last = c->rec[c->n0 + take - 1].next_char;
            break;
        }
        *pos = c->pos;
        *last = c->last_char;
        if (c->stop != STOP_LIMIT) { how = c->stop; break; }
        if (i + 1 < k && !c->exact) { how = 0; break; }
    }
    for (i++; i < k; i++) {  /* the chunks not taken give their storage back */
        m->chunk[i].used = m->chunk[i].used0;
        m->chunk[i].n = m->chunk[i].n0;
    }
    return how;
}

typedef struct {
    rv_read_batch_t *b;
    const batch_mem_t *m;
} fill_t;

static void fill_run(void *ctx, uint64_t lo, uint64_t hi, int t)
{
    const fill_t *f = ctx;
    for (uint64_t s = lo; s < hi; s++) {
        const seg_t *g = &f->m->seg[s];
        const chunk_t *c = &f->m->chunk[g->chunk];
        for (size_t j = 0; j < g->n; j++) {
            const brec_t *x = &c->rec[g->lo + j];
            f->b->name[g->at + j] = c->arena + x->off;
            f->b->name_len[g->at + j] = x->name_len;
            f->b->seq[g->at + j] = c->arena + x->off + x->name_len + 1;
            f->b->len[g->at + j] = x->len;
        }
    }
}

/* The batch's arrays from its segments, in threads. 0 or -1. */
static int batch_fill(rv_read_batch_t *b, batch_mem_t *m, size_t count, int threads)
{
    if (count > m->cap) {
        size_t cap = m->cap ? m->cap : 256;
        while (cap < count) cap *= 2;
        const char **nm = realloc(b->name, cap * sizeof *nm), **sq = nm ? realloc(b->seq, cap * sizeof *sq) : NULL;
        if (nm) b->name = nm;
        if (sq) b->seq = sq;
        size_t *nl = sq ? realloc(b->name_len, cap * sizeof *nl) : NULL, *l = nl ? realloc(b->len, cap * sizeof *l) : NULL;
        if (nl) b->name_len = nl;
        if (!l) return -1;
        b->len = l;
        m->cap = cap;
    }
    fill_t f = {b, m};
    (void)rv_parallel_for(count < 4096 ? 1 : threads, m->n_seg, fill_run, &f);  /* -1: it ran serially */
    b->n = count;
    return 0;
}

/* Map a plain file once.  Whether the batches can run on the map. */
static int mapped(rv_reads_t *r)
{
    if (r->fd >= 0 && !r->map_tried) {
        r->map_tried = 1;
        struct stat st;
        if (fstat(r->fd, &st) == 0 && st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX) {
            void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, r->fd, 0);
            if (p != MAP_FAILED) r->map = p, r->map_size = (size_t)st.st_size;
        }
    }
    return r->map != NULL;
}

/* Unmap the pages below `below` (they come back from the page cache if read
 * again), so that the file read does not count in the resident set. */
static void release_map(rv_reads_t *r, size_t below)
{
    const long page = sysconf(_SC_PAGESIZE);
    below -= page > 0 ? below % (size_t)page : below;
    if (below <= r->map_kept) return;
    (void)madvise((char *)r->map + r->map_kept, below - r->map_kept, MADV_DONTNEED);
    r->map_kept = below;
}

/* Input bytes that `more` records likely take, a little over (the records seen so
 * far, this batch's `in` bytes and `recs` records included, give the average): the
 * threads of a round parse all of their chunks, so a region much longer than the
 * records the batch takes would be parsed for nothing.  Before any record, 4 chunks. */
static size_t region_for(const rv_reads_t *r, size_t more, size_t in, size_t recs)
{
    const uint64_t n = r->seen_recs + recs, avg = n ? (r->seen_in + in) / n + 1 : 0;
    if (n == 0) return 4 * r->min_chunk;
    if (more >= SIZE_MAX / 4 / avg) return SIZE_MAX / 2;
    return more * avg + more * avg / 32 + r->min_chunk / 4;
}

/* The batch on the map: rounds over [S, E), E growing up to S + bytes while the
 * records are fewer than `most`. */
static int batch_mapped(rv_reads_t *r, size_t most, size_t bytes, int threads, rv_read_batch_t *b,
                        batch_mem_t *m)
{
    size_t pos = r->base + r->pos, count = 0;
    int last = r->last_char, how = 1;
    rv_reads_t st = map_view(r, pos, last);
    if (!header_below(&st, r->map_size)) return reads_no_record(r, -1);
    pos = st.pos;
    last = st.last_char;
    const size_t S = pos - 1, want = bytes ? bytes : 1, E_max = want < r->map_size - S ? S + want : r->map_size;
    size_t E = S;
    for (size_t i = 0; i < m->n_chunk; i++) m->chunk[i].used = m->chunk[i].n = 0;
    m->n_seg = 0;
    for (;;) {  /* a round from the state (pos, last) */
        st = map_view(r, pos, last);
        if (!header_below(&st, E)) {
            if (E == E_max) break;
            const size_t more = region_for(r, most - count, pos - S, count);
            E = more < E_max - E ? E + more : E_max;
            continue;
        }
        const size_t k = plan_round(r, m, st.pos - 1, E, threads, most - count);
        if (k == 0) { how = NO_MEMORY; break; }
        round_t w = {r, m->chunk};
        (void)rv_parallel_for((int)k, k, round_run, &w);  /* -1: it ran serially */
        how = stitch(m, k, most, &count, &pos, &last);
        if (how < 0 || count == most) break;
    }
    release_map(r, pos);
    r->base = pos;  /* rv_reads_next goes on from here */
    r->pos = r->end = 0;
    r->eof = 0;
    r->last_char = last;
    r->seen_in += pos - S;
    r->seen_recs += count;
    if (count == 0) return how == NO_MEMORY ? rv_error(r->ctx, "out of memory") : reads_no_record(r, how);
    if (batch_fill(b, m, count, threads) < 0) return rv_error(r->ctx, "out of memory");
    r->n += count;
    return 1;
}

/* The batch through rv_reads_next, copied.  An end or an error met after some records
 * is kept for the next call (of either kind), and stays. */
static int batch_sequential(rv_reads_t *r, size_t most, size_t bytes, rv_read_batch_t *b, batch_mem_t *m)
{
    if (r->pending < 1) return r->pending < 0 ? rv_error(NULL, "%s", r->pending_msg) : 0;
    if (!m->n_chunk) {
        if (!(m->chunk = calloc(1, sizeof *m->chunk))) return rv_error(r->ctx, "out of memory");
        m->n_chunk = 1;
    }
    chunk_t *c = m->chunk;
    c->used = c->n = 0;
    size_t in = 0;
    int rc = 1;
    while (c->n < most && (c->n == 0 || in < bytes)) {
        const char *name, *seq;
        size_t len;
        if ((rc = rv_reads_next(r, &name, &seq, &len)) <= 0) break;
        const size_t nl = strlen(name);
        if (chunk_reserve(c, nl + len) < 0) { rc = rv_error(r->ctx, "out of memory"); break; }
        memcpy(c->arena + c->used, name, nl);
        memcpy(c->arena + c->used + nl + 1, seq, len);
        chunk_push(c, nl, len, 0, 0);
        in += nl + len + 2;
    }
    if (rc <= 0) {
        r->pending = rc;
        snprintf(r->pending_msg, sizeof r->pending_msg, "%s", rc < 0 ? rv_last_error() : "");
        if (c->n == 0) return rc;
    }
    m->n_seg = 0;
    if (add_seg(m, 0, 0, c->n) < 0 || batch_fill(b, m, c->n, 1) < 0) return rv_error(r->ctx, "out of memory");
    return 1;
}

int rv_reads_batch(rv_reads_t *r, size_t most, size_t bytes, int threads, rv_read_batch_t *b)
{
    b->n = 0;
    if (!b->mem && !(b->mem = calloc(1, sizeof(batch_mem_t)))) return rv_error(r->ctx, "out of memory");
    if (most == 0) most = 1;
    if (threads <= 0) threads = rv_default_threads();
    if (mapped(r)) return batch_mapped(r, most, bytes, threads, b, b->mem);
    return batch_sequential(r, most, bytes, b, b->mem);
}

void rv_read_batch_free(rv_read_batch_t *b)
{
    batch_mem_t *m = b->mem;
    if (m) {
        for (size_t i = 0; i < m->n_chunk; i++) free(m->chunk[i].arena), free(m->chunk[i].rec), free(m->chunk[i].qual);
        free(m->chunk);
        free(m->seg);
        free(m);
    }
    free(b->name), free(b->seq), free(b->name_len), free(b->len);
    memset(b, 0, sizeof *b);
}

void rv_reads_batch_test(rv_reads_t *r, size_t min_chunk, int any_guess)
{
    r->min_chunk = min_chunk ? min_chunk : 1;
    r->any_guess = any_guess;
}

