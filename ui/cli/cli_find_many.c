/* cli_find_many.c — `repview find` over an index: the patterns of the command line,
 * then those of -f read in batches (rv_reads_batch: parsed on every core where the
 * file is plain) by a second thread while the current batch is searched (fm.h
 * rv_find_batch: the FM-index, on the GPU when there is one, for plain-base
 * patterns; the SA search for the others).  --count prints each batch's counts as
 * soon as it is done, formatted on every core; the BED6+ output needs every hit
 * sorted first, so it keeps the names and lengths of all patterns. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/fm.h"
#include "repview/gpu.h"
#include "cli.h"

/* Patterns a batch takes, and the letters it may hold. */
#define BATCH_PATTERNS (1u << 20)
#define BATCH_BYTES (256u << 20)
/* With --search auto, the FM-index is built when the first batch has this many
 * patterns (its table costs about a second per 250 Mbp on the CPU). */
#define FM_MIN_PATTERNS 20000
/* Output formatted on every core: at most this many slices, of at least
 * slice_min() lines (REPVIEW_FORMAT_SLICE=N for tests: rounds of 8 N hits too). */
enum { FORMAT_SLICES_MAX = 64, FORMAT_SLICE_MIN = 1 << 16 };
static size_t slice_min(void)
{
    static size_t v;
    if (!v) {
        const char *e = getenv("REPVIEW_FORMAT_SLICE");
        v = e && atol(e) > 0 ? (size_t)atol(e) : FORMAT_SLICE_MIN;
    }
    return v;
}

/* Every pattern's name and length, kept for the BED6+ output. */
typedef struct {
    size_t n;
    char *arena;        /* name \0, pattern after pattern */
    size_t used, cap;
    size_t *name_at, *len; /* per pattern */
    size_t room;        /* patterns the arrays hold */
} names_t;

static int names_add(names_t *b, const char *name, size_t len)
{
    const size_t nl = strlen(name);
    if (b->n + 1 > b->room) {
        size_t room = b->room ? 2 * b->room : 4096;
        size_t *a = realloc(b->name_at, room * sizeof *a);
        if (a) b->name_at = a;
        size_t *l = realloc(b->len, room * sizeof *l);
        if (l) b->len = l;
        if (!a || !l) return rv_error("find", "out of memory");
        b->room = room;
    }
    if (b->used + nl + 1 > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1 << 20;
        while (cap < b->used + nl + 1) cap *= 2;
        char *a = realloc(b->arena, cap);
        if (!a) return rv_error("find", "out of memory");
        b->arena = a;
        b->cap = cap;
    }
    b->name_at[b->n] = b->used;
    memcpy(b->arena + b->used, name, nl + 1);
    b->used += nl + 1;
    b->len[b->n++] = len;
    return 0;
}

static void names_free(names_t *b) { free(b->arena), free(b->name_at), free(b->len); }

/* ---- the reading thread --------------------------------------------------------- */

typedef struct {
    rv_reads_t *r;
    rv_read_batch_t *b;
    size_t most;     /* patterns a batch takes */
    int threads;     /* that parse it */
    rv_find_scratch_t *scr; /* coded into it for the FM-index when set */
    unsigned k;
    int rc;          /* 1 more to come, 0 end of file, -1 error (msg) */
    char msg[512];
    double secs;     /* time it took */
} reader_t;

/* Read a batch and, where the FM-index searches, code it: both on every core while
 * the main thread waits for the GPU's search of the batch before. */
static void *read_batch(void *arg)
{
    reader_t *rd = arg;
    const double t0 = rv_now();
    int rc = rv_reads_batch(rd->r, rd->most, BATCH_BYTES, rd->threads, rd->b);
    if (rc >= 0 && rd->scr && rd->b->n &&
        rv_find_prepare(rd->scr, (const char *const *)rd->b->seq, rd->b->len, rd->b->n, rd->k, rd->threads) < 0)
        rc = -1;
    if (rc < 0) snprintf(rd->msg, sizeof rd->msg, "%s", rv_last_error());
    rd->rc = rc < 0 ? -1 : rc > 0;
    rd->secs = rv_now() - t0;
    return NULL;
}

/* ---- output ------------------------------------------------------------------------- */

void cli_find_put_header(int count)
{
    static char buf[1 << 20];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    fputs(count ? "#pattern\tcount\n" : "#chrom\tstart\tend\tpattern\tmismatches\tstrand\tmatched\n", stdout);
}

/* Decimal digits of v at o; the end. */
static char *put_u64(char *o, uint64_t v)
{
    char digits[24], *d = digits + sizeof digits;
    do *--d = (char)('0' + v % 10); while (v /= 10);
    const size_t k = (size_t)(digits + sizeof digits - d);
    memcpy(o, d, k);
    return o + k;
}

/* BED6+ lines of hits [lo, hi) into buf (grown as needed, kept by the caller). */
typedef struct {
    const rv_seq_t *s;
    const char *const *name;
    const size_t *len;
    const rv_hit_t *h;
    int64_t lo, hi;
    char *buf;
    size_t cap, used;
    int failed; /* out of memory */
} hit_lines_t;

static void *format_hits(void *arg)
{
    hit_lines_t *f = arg;
    const rv_seq_t *s = f->s;
    size_t need = 1;
    uint64_t rec = 0;
    for (int64_t i = f->lo; i < f->hi; i++) { /* a bound on the bytes: the longest numbers */
        const uint64_t g = rv_seq_text_to_global(s, f->h[i].pos);
        if (g < s->rec[rec].off || g >= s->rec[rec].off + s->rec[rec].len) rec = rv_seq_record_of(s, g);
        need += strlen(s->rec[rec].name) + strlen(f->name[f->h[i].pattern]) + f->len[f->h[i].pattern] + 2 * 20 + 16;
    }
    if (need > f->cap) {
        free(f->buf);
        f->cap = need + need / 4;
        if (!(f->buf = malloc(f->cap))) {
            f->cap = f->used = 0;
            f->failed = 1;
            return NULL;
        }
    }
    char *o = f->buf;
    for (int64_t i = f->lo; i < f->hi; i++) {
        const rv_hit_t *h = &f->h[i];
        const uint64_t g = rv_seq_text_to_global(s, h->pos), m = f->len[h->pattern];
        if (g < s->rec[rec].off || g >= s->rec[rec].off + s->rec[rec].len) rec = rv_seq_record_of(s, g);
        const rv_record_t *r = &s->rec[rec];
        const size_t rl = strlen(r->name), nl = strlen(f->name[h->pattern]);
        memcpy(o, r->name, rl), o += rl, *o++ = '\t';
        o = put_u64(o, g - r->off), *o++ = '\t';
        o = put_u64(o, g - r->off + m), *o++ = '\t';
        memcpy(o, f->name[h->pattern], nl), o += nl, *o++ = '\t';
        o = put_u64(o, h->mism), *o++ = '\t';
        *o++ = h->strand, *o++ = '\t';
        memcpy(o, s->raw + g, m), o += m, *o++ = '\n';
    }
    f->used = (size_t)(o - f->buf);
    return NULL;
}

/* The BED6+ lines of n sorted hits, formatted in slices on up to `threads`
 * threads (0: every core), a round of at most 2 Mi hits at a time, written in
 * order (printf takes about 1.5 us a hit: 40 s for the 25 M hits of 10 M reads). */
void cli_find_put_hits(const rv_seq_t *s, const char *const *name, const size_t *len, const rv_hit_t *h, int64_t n,
                       int threads)
{
    const int64_t HIT_ROUND = slice_min() == FORMAT_SLICE_MIN ? 1 << 21 : 8 * (int64_t)slice_min();
    int T = threads > 0 ? threads : rv_default_threads();
    if (T > FORMAT_SLICES_MAX) T = FORMAT_SLICES_MAX;
    hit_lines_t f[FORMAT_SLICES_MAX];
    memset(f, 0, sizeof f);
    for (int64_t lo = 0; lo < n; lo += HIT_ROUND) {
        const int64_t hi = n - lo < HIT_ROUND ? n : lo + HIT_ROUND;
        int t_used = (int)((size_t)(hi - lo) / slice_min()) + 1;
        if (t_used > T) t_used = T;
        pthread_t tid[FORMAT_SLICES_MAX];
        int started[FORMAT_SLICES_MAX] = {0};
        for (int t = 0; t < t_used; t++) {
            f[t].s = s, f[t].name = name, f[t].len = len, f[t].h = h;
            f[t].lo = lo + (hi - lo) * t / t_used, f[t].hi = lo + (hi - lo) * (t + 1) / t_used;
        }
        for (int t = 1; t < t_used; t++) started[t] = pthread_create(&tid[t], NULL, format_hits, &f[t]) == 0;
        format_hits(&f[0]);
        for (int t = 1; t < t_used; t++) {
            if (started[t]) pthread_join(tid[t], NULL);
            else format_hits(&f[t]);
        }
        for (int t = 0; t < t_used; t++) {
            if (f[t].failed) { /* out of memory: this slice the slow way */
                for (int64_t i = f[t].lo; i < f[t].hi; i++) {
                    const uint64_t g = rv_seq_text_to_global(s, h[i].pos), m = len[h[i].pattern];
                    const rv_record_t *rec = &s->rec[rv_seq_record_of(s, g)];
                    printf("%s\t%llu\t%llu\t%s\t%u\t%c\t", rec->name, (unsigned long long)(g - rec->off),
                           (unsigned long long)(g - rec->off + m), name[h[i].pattern], (unsigned)h[i].mism,
                           h[i].strand);
                    fwrite(s->raw + g, 1, m, stdout);
                    putchar('\n');
                }
                f[t].failed = 0;
            } else {
                fwrite(f[t].buf, 1, f[t].used, stdout);
            }
        }
    }
    for (int t = 0; t < FORMAT_SLICES_MAX; t++) free(f[t].buf);
}

/* A batch of patterns as the search takes them. */
typedef struct {
    size_t n;
    const char *const *name, *const *seq;
    const size_t *name_len, *len;
} pats_t;

/* "name\tcount\n" lines of patterns [lo, hi) into buf (10^7 lines: printf would
 * take a second, one thread more than half a second). */
typedef struct {
    const pats_t *p;
    const uint64_t *cnt;
    size_t lo, hi;
    char *buf;
    size_t used;
} count_lines_t;

static void *format_counts(void *arg)
{
    count_lines_t *f = arg;
    char *o = f->buf;
    for (size_t i = f->lo; i < f->hi; i++) {
        memcpy(o, f->p->name[i], f->p->name_len[i]);
        o += f->p->name_len[i];
        *o++ = '\t';
        o = put_u64(o, f->cnt[i]);
        *o++ = '\n';
    }
    f->used = (size_t)(o - f->buf);
    return NULL;
}


/* Buffers kept from batch to batch (fresh ones cost their page faults again). */
typedef struct {
    char *buf[FORMAT_SLICES_MAX];
    size_t cap[FORMAT_SLICES_MAX];
    uint64_t *cnt;
    size_t cnt_cap;
} out_bufs_t;

static void out_bufs_free(out_bufs_t *o)
{
    for (int t = 0; t < FORMAT_SLICES_MAX; t++) free(o->buf[t]);
    free(o->cnt);
}

/* The counts of p, formatted in slices on up to `threads` threads, written in order. */
static int put_counts(const pats_t *p, const uint64_t *cnt, int threads, out_bufs_t *o)
{
    if (threads < 1) threads = rv_default_threads();
    size_t T = p->n / slice_min() + 1;
    if (T > (size_t)threads) T = (size_t)threads;
    if (T > FORMAT_SLICES_MAX) T = FORMAT_SLICES_MAX;
    count_lines_t f[FORMAT_SLICES_MAX];
    pthread_t tid[FORMAT_SLICES_MAX];
    int started[FORMAT_SLICES_MAX] = {0}, rc = 0;
    for (size_t t = 0; t < T; t++) {
        f[t] = (count_lines_t){p, cnt, p->n * t / T, p->n * (t + 1) / T, NULL, 0};
        size_t bytes = 1;
        for (size_t i = f[t].lo; i < f[t].hi; i++) bytes += p->name_len[i] + 22;
        if (bytes > o->cap[t]) {
            free(o->buf[t]);
            o->cap[t] = bytes + bytes / 4;
            if (!(o->buf[t] = malloc(o->cap[t]))) o->cap[t] = 0, rc = rv_error("find", "out of memory");
        }
        f[t].buf = o->buf[t];
    }
    for (size_t t = 1; rc == 0 && t < T; t++) started[t] = pthread_create(&tid[t], NULL, format_counts, &f[t]) == 0;
    if (rc == 0) format_counts(&f[0]);
    for (size_t t = 1; t < T; t++) {
        if (started[t]) pthread_join(tid[t], NULL);
        else if (rc == 0) format_counts(&f[t]);
    }
    for (size_t t = 0; rc == 0 && t < T; t++) fwrite(f[t].buf, 1, f[t].used, stdout);
    return rc;
}

/* ---- the search ------------------------------------------------------------------- */

typedef struct {
    const rv_index_t *x;
    const cli_find_req_t *q;
    const cli_common_t *c;
    rv_fm_t *fm;
    int fm_decided;
    rv_find_batch_stats_t st;
    double wait_s, out_s; /* waiting for the reading thread; writing counts */
    double read_s;        /* the reading thread's time */
    double sort_s;        /* sorting the hits (BED6+) */
    /* locate: every hit, and every pattern's name and length */
    rv_hit_t *hits;
    uint64_t n_hits;
    names_t all;
    uint64_t done; /* patterns so far */
    int early_rc;  /* choose_early() */
    char early_msg[512];
    rv_find_scratch_t *scr[2]; /* the search's arrays, kept from batch to batch, one
                                  for each batch being read or searched */
    out_bufs_t out;
} stream_t;

/* Decide on the FM-index at the first batch (n patterns). */
static int choose_engine(stream_t *w, size_t n)
{
    w->fm_decided = 1;
    const int gpu = w->c->build.backend == RV_BACKEND_GPU;
    if (w->q->search == CLI_SEARCH_SA || !rv_fm_usable(w->x)) {
        if (w->q->search == CLI_SEARCH_FM) return rv_error("find", "--search fm needs a DNA index below 2^32 symbols");
        return 0;
    }
    if (w->q->search == CLI_SEARCH_AUTO && !gpu && n < FM_MIN_PATTERNS) return 0;
    w->fm = rv_fm_open(w->x, w->c->build.backend, w->c->build.threads);
    return w->fm ? 0 : -1;
}

/* One batch: counts printed, or hits and names kept.  ctx names the pattern source
 * for a pattern that does not compile. */
static int search_batch(stream_t *w, const pats_t *b, const char *ctx, rv_find_scratch_t *scr)
{
    if (b->n == 0) return 0;
    if (!w->fm_decided && choose_engine(w, b->n) < 0) return -1;
    const int count = w->q->count;
    if (count && b->n > w->out.cnt_cap) {
        free(w->out.cnt);
        w->out.cnt_cap = b->n;
        if (!(w->out.cnt = malloc(b->n * sizeof *w->out.cnt))) w->out.cnt_cap = 0;
    }
    if (count && !w->out.cnt) return rv_error("find", "out of memory");
    uint64_t *cnt = count ? w->out.cnt : NULL;
    rv_hit_t *h = NULL;
    uint64_t nh = 0;
    size_t bad;
    int rc = rv_find_batch(w->x, w->fm, (const char *const *)b->seq, b->len, b->n, w->q->strand, w->q->k, w->c->build.threads,
                           (uint32_t)w->done, cnt, count ? NULL : &h, &nh, &bad, &w->st, scr);
    if (rc < 0 && bad != SIZE_MAX) {
        if (ctx) rv_error(ctx, "record '%s': %s", b->name[bad], rv_last_error());
        return -1;
    }
    const double t0 = rv_now();
    if (rc == 0 && count) rc = put_counts(b, cnt, w->c->build.threads, &w->out);
    w->out_s += rv_now() - t0;
    if (rc == 0 && !count) {
        rv_hit_t *all = realloc(w->hits, (w->n_hits + nh + 1) * sizeof *all);
        if (!all) rc = rv_error("find", "out of memory");
        else {
            if (nh) memcpy(all + w->n_hits, h, nh * sizeof *h);
            w->hits = all;
            w->n_hits += nh;
        }
        for (size_t i = 0; rc == 0 && i < b->n; i++)
            rc = names_add(&w->all, b->name[i], b->len[i]);
    }
    free(h);
    w->done += b->n;
    if (rc == 0 && w->done > UINT32_MAX) rc = rv_error("find", "more than 2^32 patterns");
    return rc;
}

/* The engine chosen before the first batch is read where a GPU will search (the
 * FM-index whatever the batch's size): the device starts and builds its table
 * meanwhile.  Without a usable GPU the choice waits for the batch. */
static void *choose_early(void *arg)
{
    stream_t *w = arg;
    char name[64], why[128];
    const int gpu = w->c->build.backend == RV_BACKEND_GPU ||
                    (w->q->search != CLI_SEARCH_SA && rv_gpu_compiled() && rv_gpu_probe(name, sizeof name, why, sizeof why));
    w->early_rc = gpu ? choose_engine(w, SIZE_MAX) : 0;
    if (w->early_rc < 0) snprintf(w->early_msg, sizeof w->early_msg, "%s", rv_last_error());
    return NULL;
}

static pats_t batch_pats(const rv_read_batch_t *b)
{
    return (pats_t){b->n, b->name, b->seq, b->name_len, b->len};
}

/* The -f file in batches, the next one read while the current one is searched. */
static int stream_file(stream_t *w)
{
    rv_reads_t *r = rv_reads_open(w->q->file);
    if (!r) return -1;
    rv_read_batch_t b[2] = {{0}, {0}};
    const char *env = getenv("REPVIEW_FIND_BATCH"); /* tests: many small batches */
    const size_t most = env && atol(env) > 0 ? (size_t)atol(env) : BATCH_PATTERNS;
    const int threads = w->c->build.threads;
    pthread_t tid;
    const int early = !w->fm_decided && w->c->build.backend != RV_BACKEND_CPU &&
                      pthread_create(&tid, NULL, choose_early, w) == 0;
    if (early) /* a GPU may search: its uploads go faster from page-locked codes */
        for (int i = 0; i < 2; i++) rv_find_scratch_pin(w->scr[i]);
    /* coded ahead where the FM-index will search: the first batch while the GPU
     * builds its table, the others while it searches */
    reader_t rd = {r, &b[0], most, threads, early || w->fm ? w->scr[0] : NULL, w->q->k, 0, "", 0};
    read_batch(&rd);
    if (early) pthread_join(tid, NULL);
    w->read_s += rd.secs;
    int rc = 0, cur = 0, more = rd.rc > 0;
    if (rd.rc < 0) rc = rv_error("find", "%s", rd.msg);
    else if (early && w->early_rc < 0) rc = rv_error(NULL, "%s", w->early_msg);
    while (rc == 0 && more) {
        reader_t next = {r, &b[1 - cur], most, threads, w->fm ? w->scr[1 - cur] : NULL, w->q->k, 0, "", 0};
        const int threaded = pthread_create(&tid, NULL, read_batch, &next) == 0;
        const pats_t p = batch_pats(&b[cur]);
        rc = search_batch(w, &p, w->q->file, w->scr[cur]);
        const double t0 = rv_now();
        if (!threaded && rc == 0) read_batch(&next);
        if (threaded) pthread_join(tid, NULL);
        w->wait_s += rv_now() - t0;
        w->read_s += next.secs;
        if (rc == 0 && next.rc < 0) rc = rv_error("find", "%s", next.msg);
        more = next.rc > 0;
        cur = 1 - cur;
    }
    rv_reads_close(r);
    rv_read_batch_free(&b[0]);
    rv_read_batch_free(&b[1]);
    return rc < 0 ? -1 : 0;
}

int cli_find_stream(const rv_index_t *x, const cli_find_req_t *q, const cli_common_t *c)
{
    stream_t w = {.x = x, .q = q, .c = c};
    const double t0 = rv_now();
    int rc = 0;
    if (q->count) cli_find_put_header(1);
    size_t *len = malloc(((size_t)q->n_pats + 1) * sizeof *len);
    if (!len) rc = rv_error("find", "out of memory");
    for (int j = 0; rc == 0 && j < q->n_pats; j++) len[j] = strlen(q->pats[j]);
    const pats_t args = {(size_t)q->n_pats, (const char *const *)q->pats, (const char *const *)q->pats, len, len};
    for (int i = 0; i < 2 && rc == 0; i++)
        if (!(w.scr[i] = rv_find_scratch_new())) rc = rv_error("find", "out of memory");
    if (rc == 0) rc = search_batch(&w, &args, NULL, w.scr[0]);
    free(len);
    if (rc == 0 && q->file) rc = stream_file(&w);
    if (rc == 0 && !q->count) {
        const char **name = malloc((w.all.n + 1) * sizeof *name);
        const double t_sort = rv_now();
        rc = name ? rv_hits_sort(w.hits, w.n_hits, w.c->build.threads) : rv_error("find", "out of memory");
        const double t_put = rv_now();
        if (rc == 0) {
            for (size_t i = 0; i < w.all.n; i++) name[i] = w.all.arena + w.all.name_at[i];
            cli_find_put_header(0);
            cli_find_put_hits(x->seq, name, w.all.len, w.hits, (int64_t)w.n_hits, w.c->build.threads);
        }
        free(name);
        w.sort_s = t_put - t_sort, w.out_s += rv_now() - t_put;
    }
    const char *tr = getenv("REPVIEW_FIND_TRACE");
    if (tr && *tr && *tr != '0')
        fprintf(stderr,
                "find\tpatterns %llu\tfm %llu (%s, table %.3f s) %.3f s\tsa %llu %.3f s\tread %.3f s\twait %.3f s\tout %.3f s"
                "\tencode and sort out %.3f s\thits %llu sorted %.3f s\tall %.3f s\n",
                (unsigned long long)w.done, (unsigned long long)w.st.n_fm, w.fm ? rv_fm_backend(w.fm) : "none",
                w.fm ? rv_fm_build_seconds(w.fm) : 0.0, w.st.fm_s, (unsigned long long)w.st.n_sa, w.st.sa_s,
                w.read_s, w.wait_s, w.out_s, w.st.prep_s, (unsigned long long)w.n_hits, w.sort_s, rv_now() - t0);
    const double t_close = rv_now();
    rv_fm_close(w.fm);
    rv_find_scratch_free(w.scr[0]);
    rv_find_scratch_free(w.scr[1]);
    out_bufs_free(&w.out);
    free(w.hits);
    names_free(&w.all);
    if (tr && *tr && *tr != '0') fprintf(stderr, "find	closed %.3f s\n", rv_now() - t_close);
    return rc < 0 ? RV_EXIT_DATA : RV_EXIT_OK;
}
