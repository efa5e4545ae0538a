/* cli_find_many.c — `repview find` over an index: the patterns of the command line,
 * then those of -f read in batches by a second thread while the current batch is
 * searched (fm.h rv_find_batch: the FM-index, on the GPU when there is one, for
 * plain-base patterns; the SA search for the others).  --count prints each batch's
 * counts as soon as it is done; the BED6+ output needs every hit sorted first, so
 * it keeps the names and lengths of all patterns. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/fm.h"
#include "cli.h"

/* Patterns a batch takes, and the letters it may hold. */
#define BATCH_PATTERNS (1u << 20)
#define BATCH_BYTES (256u << 20)
/* With --search auto, the FM-index is built when the first batch has this many
 * patterns (its table costs about a second per 250 Mbp on the CPU). */
#define FM_MIN_PATTERNS 20000

typedef struct {
    size_t n;
    char *arena;        /* name \0 letters \0, pattern after pattern */
    size_t used, cap;
    size_t *name_at, *seq_at, *len; /* per pattern */
    const char **seq;   /* filled by batch_seal() */
    size_t room;        /* patterns the arrays hold */
} batch_t;

static int batch_room(batch_t *b, size_t n, size_t bytes)
{
    if (n > b->room) {
        size_t room = b->room ? 2 * b->room : 4096;
        while (room < n) room *= 2;
        size_t *a = realloc(b->name_at, room * sizeof *a);
        if (a) b->name_at = a;
        size_t *s = realloc(b->seq_at, room * sizeof *s);
        if (s) b->seq_at = s;
        size_t *l = realloc(b->len, room * sizeof *l);
        if (l) b->len = l;
        const char **q = realloc(b->seq, room * sizeof *q);
        if (q) b->seq = q;
        if (!a || !s || !l || !q) return rv_error("find", "out of memory");
        b->room = room;
    }
    if (b->used + bytes > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1 << 20;
        while (cap < b->used + bytes) cap *= 2;
        char *a = realloc(b->arena, cap);
        if (!a) return rv_error("find", "out of memory");
        b->arena = a;
        b->cap = cap;
    }
    return 0;
}

/* Add a pattern; seq NULL keeps only its name and length (the BED6+ output's
 * list of every pattern). */
static int batch_add(batch_t *b, const char *name, const char *seq, size_t len)
{
    const size_t nl = strlen(name);
    if (batch_room(b, b->n + 1, nl + 1 + (seq ? len + 1 : 0)) < 0) return -1;
    b->name_at[b->n] = b->used;
    memcpy(b->arena + b->used, name, nl + 1);
    b->used += nl + 1;
    b->seq_at[b->n] = b->used;
    if (seq) {
        memcpy(b->arena + b->used, seq, len);
        b->arena[b->used + len] = 0;
        b->used += len + 1;
    }
    b->len[b->n++] = len;
    return 0;
}

static void batch_seal(batch_t *b)
{
    for (size_t i = 0; i < b->n; i++) b->seq[i] = b->arena + b->seq_at[i];
}

static const char *batch_name(const batch_t *b, size_t i) { return b->arena + b->name_at[i]; }

static void batch_free(batch_t *b)
{
    free(b->arena), free(b->name_at), free(b->seq_at), free(b->len), free(b->seq);
}

/* ---- the reading thread --------------------------------------------------------- */

typedef struct {
    rv_reads_t *r;
    batch_t *b;
    size_t most;     /* patterns a batch takes */
    int rc;          /* 1 more to come, 0 end of file, -1 error (msg) */
    char msg[512];
    double secs;     /* time it took */
} reader_t;

static void *read_batch(void *arg)
{
    reader_t *rd = arg;
    const double t0 = rv_now();
    batch_t *b = rd->b;
    b->n = b->used = 0;
    const char *name, *seq;
    size_t len;
    int rc = 1;
    while (b->n < rd->most && b->used < BATCH_BYTES && (rc = rv_reads_next(rd->r, &name, &seq, &len)) > 0)
        if (batch_add(b, name, seq, len) < 0) rc = -1;
    if (rc < 0) snprintf(rd->msg, sizeof rd->msg, "%s", rv_last_error());
    batch_seal(b);
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

void cli_find_put_hits(const rv_seq_t *s, const char *const *name, const size_t *len, const rv_hit_t *h, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        const uint64_t g = rv_seq_text_to_global(s, h[i].pos);
        const uint64_t m = len[h[i].pattern];
        const rv_record_t *rec = &s->rec[rv_seq_record_of(s, g)];
        printf("%s\t%llu\t%llu\t%s\t%u\t%c\t", rec->name, (unsigned long long)(g - rec->off),
               (unsigned long long)(g - rec->off + m), name[h[i].pattern], (unsigned)h[i].mism, h[i].strand);
        fwrite(s->raw + g, 1, m, stdout);
        putchar('\n');
    }
}

/* "name\tcount\n" for every pattern of b (10^7 lines: printf would take a second). */
static void put_counts(const batch_t *b, const uint64_t *cnt)
{
    char line[64];
    for (size_t i = 0; i < b->n; i++) {
        const char *name = batch_name(b, i);
        fwrite(name, 1, b->seq_at[i] - b->name_at[i] - 1, stdout);
        char *e = line + sizeof line, *p = e;
        *--p = '\n';
        uint64_t v = cnt[i];
        do *--p = (char)('0' + v % 10); while (v /= 10);
        *--p = '\t';
        fwrite(p, 1, (size_t)(e - p), stdout);
    }
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
    /* locate: every hit, and every pattern's name and length */
    rv_hit_t *hits;
    uint64_t n_hits;
    batch_t all;
    uint64_t done; /* patterns so far */
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
static int search_batch(stream_t *w, batch_t *b, const char *ctx)
{
    if (b->n == 0) return 0;
    if (!w->fm_decided && choose_engine(w, b->n) < 0) return -1;
    const int count = w->q->count;
    uint64_t *cnt = count ? malloc(b->n * sizeof *cnt) : NULL;
    if (count && !cnt) return rv_error("find", "out of memory");
    rv_hit_t *h = NULL;
    uint64_t nh = 0;
    size_t bad;
    int rc = rv_find_batch(w->x, w->fm, b->seq, b->len, b->n, w->q->strand, w->q->k, w->c->build.threads,
                           (uint32_t)w->done, cnt, count ? NULL : &h, &nh, &bad, &w->st);
    if (rc < 0 && bad != SIZE_MAX) {
        if (ctx) rv_error(ctx, "record '%s': %s", batch_name(b, bad), rv_last_error());
        free(cnt);
        return -1;
    }
    const double t0 = rv_now();
    if (rc == 0 && count) put_counts(b, cnt);
    w->out_s += rv_now() - t0;
    free(cnt);
    if (rc == 0 && !count) {
        rv_hit_t *all = realloc(w->hits, (w->n_hits + nh + 1) * sizeof *all);
        if (!all) rc = rv_error("find", "out of memory");
        else {
            if (nh) memcpy(all + w->n_hits, h, nh * sizeof *h);
            w->hits = all;
            w->n_hits += nh;
        }
        for (size_t i = 0; rc == 0 && i < b->n; i++)
            rc = batch_add(&w->all, batch_name(b, i), NULL, b->len[i]);
    }
    free(h);
    w->done += b->n;
    if (rc == 0 && w->done > UINT32_MAX) rc = rv_error("find", "more than 2^32 patterns");
    return rc;
}

/* The -f file in batches, the next one read while the current one is searched. */
static int stream_file(stream_t *w)
{
    rv_reads_t *r = rv_reads_open(w->q->file);
    if (!r) return -1;
    batch_t b[2] = {{0}, {0}};
    const char *env = getenv("REPVIEW_FIND_BATCH"); /* tests: many small batches */
    const size_t most = env && atol(env) > 0 ? (size_t)atol(env) : BATCH_PATTERNS;
    reader_t rd = {r, &b[0], most, 0, "", 0};
    read_batch(&rd);
    w->read_s += rd.secs;
    int rc = rd.rc, cur = 0;
    while (rc >= 0) {
        const int more = rc > 0;
        pthread_t tid;
        reader_t next = {r, &b[1 - cur], most, 0, "", 0};
        const int threaded = more && pthread_create(&tid, NULL, read_batch, &next) == 0;
        rc = search_batch(w, &b[cur], w->q->file);
        const double t0 = rv_now();
        if (more && !threaded) read_batch(&next);
        if (threaded) pthread_join(tid, NULL);
        w->wait_s += rv_now() - t0;
        w->read_s += next.secs;
        if (rc < 0 || !more) break;
        if (next.rc < 0) {
            rv_error("find", "%s", next.msg);
            rc = -1;
            break;
        }
        rc = next.rc;
        cur = 1 - cur;
    }
    if (rd.rc < 0) rv_error("find", "%s", rd.msg);
    rv_reads_close(r);
    batch_free(&b[0]);
    batch_free(&b[1]);
    return rc < 0 ? -1 : 0;
}

int cli_find_stream(const rv_index_t *x, const cli_find_req_t *q, const cli_common_t *c)
{
    stream_t w = {x, q, c, NULL, 0, {0}, 0, 0, 0, NULL, 0, {0}, 0};
    const double t0 = rv_now();
    batch_t args = {0};
    int rc = 0;
    if (q->count) cli_find_put_header(1);
    for (int j = 0; rc == 0 && j < q->n_pats; j++) rc = batch_add(&args, q->pats[j], q->pats[j], strlen(q->pats[j]));
    batch_seal(&args);
    if (rc == 0) rc = search_batch(&w, &args, NULL);
    batch_free(&args);
    if (rc == 0 && q->file) rc = stream_file(&w);
    if (rc == 0 && !q->count) {
        const char **name = malloc((w.all.n + 1) * sizeof *name);
        rc = name ? rv_hits_sort(w.hits, w.n_hits) : rv_error("find", "out of memory");
        if (rc == 0) {
            for (size_t i = 0; i < w.all.n; i++) name[i] = batch_name(&w.all, i);
            cli_find_put_header(0);
            cli_find_put_hits(x->seq, name, w.all.len, w.hits, (int64_t)w.n_hits);
        }
        free(name);
    }
    const char *tr = getenv("REPVIEW_FIND_TRACE");
    if (tr && *tr && *tr != '0')
        fprintf(stderr,
                "find\tpatterns %llu\tfm %llu (%s, table %.3f s) %.3f s\tsa %llu %.3f s\tread %.3f s\twait %.3f s\tout %.3f s"
                "\tall %.3f s\n",
                (unsigned long long)w.done, (unsigned long long)w.st.n_fm, w.fm ? rv_fm_backend(w.fm) : "none",
                w.fm ? rv_fm_build_seconds(w.fm) : 0.0, w.st.fm_s, (unsigned long long)w.st.n_sa, w.st.sa_s,
                w.read_s, w.wait_s, w.out_s, rv_now() - t0);
    rv_fm_close(w.fm);
    free(w.hits);
    batch_free(&w.all);
    return rc < 0 ? RV_EXIT_DATA : RV_EXIT_OK;
}
