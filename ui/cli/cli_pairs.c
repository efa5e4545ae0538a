/* cli_pairs.c — `repview pairs`: maximal pairs as BEDPE (repview-pairs(1)),
 * with length, gap and range filters, a count, and the pairs covering one
 * position (the explorer's pairs pane, headless). */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/buckets.h"
#include "repview/gpu.h"
#include "repview/pairs.h"
#include "cli.h"

static const char usage[] =
    "Usage: repview pairs -l MIN [--strands both|+|-] [--min-gap G] [--max-gap G]\n"
    "                     [--within REGION] [--covering POS] [--count] [OPTIONS] FILE\n\n"
    "Print every maximal pair (two equal copies that extend neither left nor right)\n"
    "of length >= MIN as BEDPE, ordered by the first copy then the second:\n"
    "  chrom1 start1 end1 chrom2 start2 end2 name score strand1 strand2 gap\n"
    "(0-based half-open; name '.', score = length, gap = start2 - end1 within one\n"
    "record, negative when the copies overlap, '.' across records).  Direct pairs\n"
    "have strands '+ +'; with --strands both or -, inverted pairs (the second copy\n"
    "is the reverse complement of the first: vmatch -p) have '+ -', in forward\n"
    "coordinates, each once; a copy that is its own reverse complement pairs with\n"
    "itself.\n\n"
    "  -l, --min-len MIN  minimum length of the copies (required, >= 1)\n"
    "  --strands S        + direct pairs (default), - inverted pairs, both (DNA;\n"
    "                     uses or builds an index of both strands)\n"
    "  --min-gap G        only pairs with gap >= G (G may be negative)\n"
    "  --max-gap G        only pairs with gap <= G\n"
    "                     (with either gap bound, pairs across records are left out)\n"
    "  --within REGION    both copies inside REGION (chr, chr:beg-end; 1-based)\n"
    "  --covering POS     only pairs with a copy covering POS (NAME:POS or POS)\n"
    "  --count            print the number of pairs instead\n"
    "  -t, --threads N    threads (default: all)\n\n"
    "Scale-out (prefix buckets, no index: the suffixes are grouped by their first\n"
    "symbols and sorted job by job from the text):\n"
    "  --mem-budget SIZE  memory for the buckets' work (per rank under mpirun;\n"
    "                     k/m/g suffixes; default 1g with --buckets or mpirun)\n"
    "  --buckets I/N      only slice I of N (1-based) of the work, written as a part\n"
    "                     file to -o PART; 'repview merge PART...' joins all N\n"
    "  -o, --output OUT   write to OUT (a temporary name, renamed when complete)\n"
    "  mpirun -np N repview pairs ...  rank 0 hands out jobs largest first, ranks\n"
    "                     1..N-1 work, rank 0 merges: the same output\n"
    "  --estimate         print what the bucket path will cost instead: pairs,\n"
    "                     output bytes, serial time, and wall time, speed-up and\n"
    "                     peak memory for mpirun -np 1..W of CPU ranks, rank 0\n"
    "                     working too (-t threads each, default 1), from a\n"
    "                     sample of the buckets\n"
    "  --estimate-sample F  share of the ordinary buckets run (0 < F <= 1, default\n"
    "                     0.1; 1 runs all: the pair count is then exact)\n"
    "  --estimate-seed S  seed of the sample (default 1)\n"
    "  --workers W        rows for 1..W workers (default 16)\n";

typedef struct {
    uint64_t min_len;
    uint64_t mem_budget, slice, n_slices; /* n_slices 0: no --buckets */
    const char *out;
    int have_len, count;
    int use_min_gap, use_max_gap;
    int64_t min_gap, max_gap;
    const char *within, *covering;
    int estimate, workers, estimate_opt; /* --estimate; its options given */
    double sample;
    uint64_t seed;
} pairs_args_t;

enum { OPT_MIN_GAP = 1, OPT_MAX_GAP, OPT_WITHIN, OPT_COVERING, OPT_COUNT, OPT_MEM_BUDGET, OPT_BUCKETS,
       OPT_ESTIMATE, OPT_SAMPLE, OPT_SEED, OPT_WORKERS };

/* A signed integer with optional commas ("-1,000"). */
static int parse_signed(const char *s, int64_t *out)
{
    char buf[64];
    size_t k = 0;
    for (const char *p = s; *p && k < sizeof buf - 1; p++)
        if (*p != ',') buf[k++] = *p;
    buf[k] = 0;
    const char *d = buf[0] == '-' || buf[0] == '+' ? buf + 1 : buf;
    if (!isdigit((unsigned char)*d)) return -1;
    errno = 0;
    char *end;
    long long v = strtoll(buf, &end, 10);
    if (*end || errno) return -1;
    *out = v;
    return 0;
}

static int on_opt(int opt, const char *arg, void *ud)
{
    pairs_args_t *a = ud;
    switch (opt) {
    case 'l':
        if (front_parse_count(arg, &a->min_len) < 0 || a->min_len < 1) {
            cli_usage_error("pairs", "bad -l '%s' (a length >= 1)", arg);
            return -1;
        }
        a->have_len = 1;
        return 0;
    case OPT_MIN_GAP:
    case OPT_MAX_GAP:
        if (parse_signed(arg, opt == OPT_MIN_GAP ? &a->min_gap : &a->max_gap) < 0) {
            cli_usage_error("pairs", "bad %s '%s'", opt == OPT_MIN_GAP ? "--min-gap" : "--max-gap", arg);
            return -1;
        }
        if (opt == OPT_MIN_GAP) a->use_min_gap = 1; else a->use_max_gap = 1;
        return 0;
    case OPT_WITHIN: a->within = arg; return 0;
    case OPT_COVERING: a->covering = arg; return 0;
    case OPT_COUNT: a->count = 1; return 0;
    case 'o': a->out = arg; return 0;
    case OPT_MEM_BUDGET:
        if (front_parse_count(arg, &a->mem_budget) < 0 || a->mem_budget < 1000000) {
            cli_usage_error("pairs", "bad --mem-budget '%s' (a size of at least 1m)", arg);
            return -1;
        }
        return 0;
    case OPT_BUCKETS: return cli_parse_buckets("pairs", arg, &a->slice, &a->n_slices);
    case OPT_ESTIMATE: a->estimate = 1; return 0;
    case OPT_SAMPLE: {
        char *end;
        a->estimate_opt = 1;
        a->sample = strtod(arg, &end); /* a blank or a sign first is refused, as elsewhere */
        if (!(isdigit((unsigned char)*arg) || *arg == '.') || *end || !(a->sample > 0 && a->sample <= 1)) {
            cli_usage_error("pairs", "bad --estimate-sample '%s' (a share in (0, 1])", arg);
            return -1;
        }
        return 0;
    }
    case OPT_SEED:
        a->estimate_opt = 1;
        if (front_parse_count(arg, &a->seed) < 0) {
            cli_usage_error("pairs", "bad --estimate-seed '%s'", arg);
            return -1;
        }
        return 0;
    case OPT_WORKERS: {
        uint64_t w;
        a->estimate_opt = 1;
        if (front_parse_count(arg, &w) < 0 || w < 1 || w > 100000) {
            cli_usage_error("pairs", "bad --workers '%s' (1 to 100000)", arg);
            return -1;
        }
        a->workers = (int)w;
        return 0;
    }
    }
    return -1;
}

/* ---- BEDPE writer: the engine's merge threads format the chunks of a large
 * output (rv_pairs_each_text) and the calling thread writes them in order; the
 * pairs of a page (--covering) and of parts merged on rank 0 come in batches,
 * formatted in place on several threads while a thread writes the one before ---- */

enum { FMT_THREADS_MAX = 64, FMT_MIN_SLICE = 4096 };

typedef struct {
    const rv_seq_t *s;
    size_t *name_len; /* strlen of each record name */
    size_t max_line;  /* bytes a line can take */
    int threads;
    /* two sets of buffers: the writer thread writes one while the next batch is
     * merged and formatted into the other (writing to the page cache is the one
     * serial step left when the formatting runs on every core) */
    char *buf[2][FMT_THREADS_MAX];
    size_t cap[2][FMT_THREADS_MAX], len[2][FMT_THREADS_MAX];
    int nbuf[2], gen;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int started, posted, stop; /* posted: the set to write, or -1 */
    int writeback;             /* -o OUT: its writeback started as it is written */
} writer_t;

/* Decimal digits two at a time (half the divisions of the naive loop), written
 * in place once the digits are counted. */
static char *put_u64(char *b, uint64_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                                "25262728293031323334353637383940414243444546474849"
                                "50515253545556575859606162636465666768697071727374"
                                "75767778798081828384858687888990919293949596979899";
    if (v > UINT32_MAX) { /* rare: the high digits first, then nine more */
        b = put_u64(b, v / 1000000000);
        uint32_t low = (uint32_t)(v % 1000000000);
        for (int i = 8; i >= 0; i--, low /= 10) b[i] = (char)('0' + low % 10);
        return b + 9;
    }
    uint32_t u = (uint32_t)v;
    int n = u < 10 ? 1 : u < 100 ? 2 : u < 1000 ? 3 : u < 10000 ? 4 : u < 100000 ? 5 : u < 1000000 ? 6
          : u < 10000000 ? 7 : u < 100000000 ? 8 : u < 1000000000 ? 9 : 10;
    char *q = b + n;
    while (u >= 100) {
        unsigned d = (u % 100) * 2;
        u /= 100;
        *--q = pairs[d + 1];
        *--q = pairs[d];
    }
    if (u >= 10) {
        *--q = pairs[u * 2 + 1];
        *--q = pairs[u * 2];
    } else {
        *--q = (char)('0' + u);
    }
    return b + n;
}

static char *put_name(char *b, const writer_t *w, uint64_t rec)
{
    size_t l = w->name_len[rec];
    memcpy(b, w->s->rec[rec].name, l);
    b[l] = '\t';
    return b + l + 1;
}

/* One BEDPE line for p at b (room for max_line bytes); returns its end. */
static char *format_pair(const writer_t *w, const rv_pair_t *p, char *b, rv_pair_hint_t *hint)
{
    rv_pair_loc_t loc;
    rv_pair_locate_near(w->s, p, &loc, hint);
    b = put_name(b, w, loc.rec1);
    b = put_u64(b, loc.start1), *b++ = '\t';
    b = put_u64(b, loc.start1 + p->len), *b++ = '\t';
    b = put_name(b, w, loc.rec2);
    b = put_u64(b, loc.start2), *b++ = '\t';
    b = put_u64(b, loc.start2 + p->len);
    memcpy(b, "\t.\t", 3), b += 3;
    b = put_u64(b, p->len);
    memcpy(b, p->inverted ? "\t+\t-\t" : "\t+\t+\t", 5), b += 5;
    if (!loc.same_record) *b++ = '.';
    else if (loc.gap < 0) *b++ = '-', b = put_u64(b, (uint64_t)-loc.gap);
    else b = put_u64(b, (uint64_t)loc.gap);
    *b++ = '\n';
    return b;
}

typedef struct {
    const writer_t *w;
    const rv_pair_t *p;
    size_t n;
    char *buf;
    size_t len;
} slice_t;

static void *format_slice(void *arg)
{
    slice_t *j = arg;
    char *b = j->buf;
    rv_pair_hint_t hint = {UINT64_MAX, UINT64_MAX, UINT64_MAX};
    for (size_t i = 0; i < j->n; i++) b = format_pair(j->w, &j->p[i], b, &hint);
    j->len = (size_t)(b - j->buf);
    return NULL;
}

static void *write_loop(void *arg)
{
    writer_t *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->posted < 0 && !w->stop) pthread_cond_wait(&w->cv, &w->mu);
        if (w->posted < 0) break;
        int g = w->posted;
        pthread_mutex_unlock(&w->mu);
        for (int t = 0; t < w->nbuf[g]; t++) fwrite_unlocked(w->buf[g][t], 1, w->len[g][t], stdout);
        if (w->writeback) cli_out_writeback();
        pthread_mutex_lock(&w->mu);
        w->posted = -1;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Wait until the writer thread has written what it was given. */
static void writer_drain(writer_t *w)
{
    if (!w->started) return;
    pthread_mutex_lock(&w->mu);
    while (w->posted >= 0) pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
}

/* rv_pairs_batch_fn: format slices of the batch in threads into one set of buffers
 * and hand it to the writer thread (which writes the sets in order). */
static int put_batch(void *ud, const rv_pair_t *p, size_t n)
{
    writer_t *w = ud;
    if (!w->started) {
        w->posted = -1;
        if (pthread_create(&w->th, NULL, write_loop, w) != 0) return rv_error("pairs", "cannot start a thread");
        w->started = 1;
    }
    for (size_t done = 0; done < n;) {
        size_t m = n - done < RV_PAIRS_BATCH ? n - done : RV_PAIRS_BATCH;
        int T = w->threads, g = w->gen;
        if ((size_t)T > m / FMT_MIN_SLICE) T = m / FMT_MIN_SLICE ? (int)(m / FMT_MIN_SLICE) : 1;
        slice_t job[FMT_THREADS_MAX] = {{0}};
        pthread_t tid[FMT_THREADS_MAX];
        int started[FMT_THREADS_MAX] = {0};
        for (int t = 0; t < T; t++) {
            size_t lo = m * (size_t)t / (size_t)T, hi = m * (size_t)(t + 1) / (size_t)T;
            size_t need = (hi - lo) * w->max_line;
            if (need > w->cap[g][t]) {
                char *nb = realloc(w->buf[g][t], need);
                if (!nb) return rv_oom("lines of pairs", need);
                w->buf[g][t] = nb;
                w->cap[g][t] = need;
            }
            job[t] = (slice_t){w, p + done + lo, hi - lo, w->buf[g][t], 0};
        }
        for (int t = 1; t < T; t++) started[t] = pthread_create(&tid[t], NULL, format_slice, &job[t]) == 0;
        format_slice(&job[0]);
        for (int t = 1; t < T; t++) {
            if (started[t]) pthread_join(tid[t], NULL);
            else format_slice(&job[t]);
        }
        writer_drain(w); /* the other set is written: post this one */
        for (int t = 0; t < T; t++) w->len[g][t] = job[t].len;
        pthread_mutex_lock(&w->mu);
        w->nbuf[g] = T;
        w->posted = g;
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
        w->gen = g ^ 1;
        done += m;
    }
    return 0;
}

/* rv_pairs_text_t's format(): the BEDPE lines of n pairs (on a merge thread). */
static int format_text(void *ud, const rv_pair_t *p, size_t n, char **buf, size_t *cap, size_t *len)
{
    const writer_t *w = ud;
    size_t need = n * w->max_line;
    if (need > *cap) {
        char *nb = realloc(*buf, need);
        if (!nb) return rv_oom("lines of pairs", need);
        *buf = nb;
        *cap = need;
    }
    slice_t j = {w, p, n, *buf, 0};
    format_slice(&j);
    *len = j.len;
    return 0;
}

/* rv_pairs_text_t's write(): the chunks in order, on the calling thread. */
static int write_text(void *ud, const char *bytes, size_t len)
{
    const writer_t *w = ud;
    fwrite_unlocked(bytes, 1, len, stdout);
    if (w->writeback) cli_out_writeback();
    return 0;
}

static int writer_init(writer_t *w, const rv_seq_t *s, int threads)
{
    memset(w, 0, sizeof *w);
    w->s = s;
    w->posted = -1;
    w->writeback = cli_out_synced();
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    w->threads = threads < 1 ? rv_default_threads() : threads;
    if (w->threads > FMT_THREADS_MAX) w->threads = FMT_THREADS_MAX;
    w->name_len = malloc((s->n_rec ? s->n_rec : 1) * sizeof *w->name_len);
    if (!w->name_len) return rv_oom("record names", (s->n_rec ? s->n_rec : 1) * sizeof *w->name_len);
    size_t longest = 0;
    for (uint64_t i = 0; i < s->n_rec; i++) {
        w->name_len[i] = strlen(s->rec[i].name);
        if (w->name_len[i] > longest) longest = w->name_len[i];
    }
    w->max_line = 2 * longest + 6 * 21 + 16; /* names, six numbers, separators */
    return 0;
}

/* Everything written (to stdout's buffer), the thread ended, the buffers freed. */
static void writer_free(writer_t *w)
{
    if (w->started) {
        pthread_mutex_lock(&w->mu);
        w->stop = 1;
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
        pthread_join(w->th, NULL); /* it writes what was posted before it ends */
    }
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w->name_len);
    for (int g = 0; g < 2; g++)
        for (int t = 0; t < FMT_THREADS_MAX; t++) free(w->buf[g][t]);
}

static void put_header(FILE *out)
{
    fputs("#chrom1\tstart1\tend1\tchrom2\tstart2\tend2\tname\tscore\tstrand1\tstrand2\tgap\n", out);
}

/* --covering: the pairs with a copy over one position (all of them). */
static int run_covering(const rv_index_t *x, const rv_pairs_opts_t *o, const char *where, int count)
{
    int64_t g = rv_seq_parse_pos(x->seq, where);
    if (g < 0) return cli_arg_error();
    int64_t t = rv_seq_global_to_text(x->seq, (uint64_t)g);
    rv_pairs_page_t page = {NULL, 0, 0, 1};
    if (t >= 0 && rv_pairs_covering(x, o, (uint64_t)t, count ? 0 : RV_PAIRS_ALL, 0, &page) < 0)
        return cli_data_error();
    int rc = 0;
    if (count) {
        printf("%llu\n", (unsigned long long)page.total);
    } else {
        writer_t w;
        rc = writer_init(&w, x->seq, o->threads);
        if (rc == 0) {
            put_header(stdout);
            rc = put_batch(&w, page.pairs, page.n);
        }
        writer_free(&w);
    }
    rv_pairs_page_free(&page);
    return rc < 0 ? cli_data_error() : RV_EXIT_OK;
}

/* The --within range in o (record-relative region of s). */
static int set_within(const rv_seq_t *s, rv_pairs_opts_t *o, const char *within)
{
    uint64_t rid, beg, end;
    if (rv_seq_parse_region(s, within, &rid, &beg, &end) < 0) return -1;
    o->use_within = 1;
    o->within_beg = s->rec[rid].off + beg;
    o->within_end = s->rec[rid].off + end;
    return 0;
}

/* The pairs (or their count) from the index x, or from the text of s in prefix
 * buckets when x is NULL. */
static int run(const rv_index_t *x, const rv_seq_t *s, rv_pairs_opts_t *o, const pairs_args_t *a)
{
    if (a->within && set_within(s, o, a->within) < 0) return cli_arg_error();
    if (a->covering) return run_covering(x, o, a->covering, a->count);
    if (a->count) {
        uint64_t n;
        if ((x ? rv_pairs_count(x, o, &n) : rv_pairs_buckets_count(s, o, a->mem_budget, 0, 1, &n)) < 0)
            return cli_data_error();
        printf("%llu\n", (unsigned long long)n);
        return RV_EXIT_OK;
    }
    writer_t w;
    int rc = writer_init(&w, s, o->threads);
    rv_pairs_text_t text = {format_text, write_text, &w};
    if (rc == 0) {
        put_header(stdout);
        rc = x ? rv_pairs_each_text(x, o, &text) : rv_pairs_buckets_each_text(s, o, a->mem_budget, 0, 1, &text);
    }
    writer_free(&w);
    return rc < 0 ? cli_data_error() : RV_EXIT_OK;
}

/* The sequence alone (no index) for the bucket paths, both strands when asked. */
static rv_seq_t *load_text(const char *path, const cli_common_t *c)
{
    rv_seq_t *s = rv_seq_load_threads(path, c->alpha, c->build.threads);
    if (s && s->warning && !c->quiet) fprintf(stderr, "repview: %s: %s\n", path, s->warning);
    if (s && (c->strands == 2 || c->strands == -1) && rv_seq_add_reverse(s, c->build.threads) < 0) {
        rv_seq_free(s);
        s = NULL;
    }
    if (!s) cli_data_error();
    return s;
}

/* ---- under mpirun: rank 0 hands out jobs and merges, the others work ---------- */

/* REPVIEW_MPI_TRACE=1: each rank's phases on stderr (rank, phase, seconds since start). */
static void mpi_trace(int rank, const char *what, double t0)
{
    static int on = -1;
    if (on < 0) on = getenv("REPVIEW_MPI_TRACE") && *getenv("REPVIEW_MPI_TRACE") == '1';
    if (on) fprintf(stderr, "mpi\trank %d\t%s\t%.3f\n", rank, what, rv_now() - t0);
}

/* REPVIEW_JOB_TRACE=1: where a rank's jobs spent their time. */
static void job_trace(int rank)
{
    if (!getenv("REPVIEW_JOB_TRACE")) return;
    char who[32];
    snprintf(who, sizeof who, "rank %d", rank);
    rv_bucket_phase_report(stderr, who);
}

/* What one rank's jobs come to: a count, or a part file at path. */
typedef struct {
    const rv_seq_t *s;
    const rv_pairs_opts_t *o;
    const rv_bucket_plan_t *plan;
    rv_bucket_next_fn next;
    int rank, count, rc;
    uint64_t slice, n_slices, n;
    int fd; /* the part, a file with no name */
    double t0;
} work_t;

static void *do_work(void *arg)
{
    work_t *w = arg;
    if (w->count) {
        w->rc = rv_pairs_buckets_count_dynamic(w->s, w->o, w->plan, w->next, &w->rank, &w->n);
    } else {
        w->fd = rv_pairs_part_write_dynamic(w->s, w->o, w->plan, w->next, &w->rank, w->slice, w->n_slices);
        w->rc = w->fd < 0 ? -1 : 0;
    }
    mpi_trace(w->rank, "jobs and part", w->t0);
    job_trace(w->rank);
    return NULL;
}

/* A worker's next job (ctx: its rank, for the tests of a rank that dies). */
static int next_job(void *ctx, uint64_t *job) { return cli_mpi_next_job_of(*(const int *)ctx, job); }

/* The parts are numbered 0..workers-1 over the ranks that work: every rank, or
 * all but rank 0 (own = 0). */
static int mpi_worker(const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_bucket_plan_t *plan, int rank,
                      int size, int own, int count, double t0)
{
    work_t w = {s, o, plan, next_job, rank, count, 0, (uint64_t)(rank - !own), (uint64_t)(size - !own),
                0, -1, t0};
    do_work(&w);
    if (w.rc < 0) return -1;
    int rc = count ? cli_mpi_send_count(w.n) : cli_mpi_send_file(w.fd);
    if (w.fd >= 0) close(w.fd);
    cli_mpi_drop_windows(1); /* then waits for rank 0's merge */
    return rc;
}

/* cli_mpi_open_fn: a part into *(rv_part_t **)ud. */
static int open_part(const char *path, const char *name, void *ud)
{
    return rv_part_open_transfer(path, name, ud);
}

/* Rank 0 hands out the jobs and, with own set, works on them with a thread of its
 * own (a CPU run: next to GPU ranks it would hold up the end with a large job);
 * then it adds the counts or merges the parts. */
static int mpi_master(const rv_seq_t *s, const rv_pairs_opts_t *o, const rv_bucket_plan_t *plan, int size,
                      int own, int count, int quiet, double t0)
{
    uint64_t *order = rv_bucket_jobs_largest_first(plan);
    if (!order) return rv_oom("order of the jobs", plan->n_jobs * sizeof *order);
    work_t mine = {s, o, plan, cli_mpi_own_job, 0, count, 0, 0, (uint64_t)size, 0, -1, t0};
    pthread_t th;
    cli_mpi_queue(order, plan->n_jobs);
    if (own && pthread_create(&th, NULL, do_work, &mine) != 0) own = 0, mine.rc = rv_error("pairs", "cannot start a thread");
    int rc = cli_mpi_serve_jobs(NULL, plan->n_jobs, size - 1, quiet);
    if (own) pthread_join(th, NULL);
    cli_mpi_queue(NULL, 0);
    free(order);
    mpi_trace(0, "jobs served", t0);
    if (rc == 0 && mine.rc < 0) rc = -1;
    if (rc == 0 && count) {
        uint64_t total = mine.n, v;
        for (int r = 1; r < size && rc == 0; r++) rc = cli_mpi_recv_count(r, &v), total += v;
        if (rc == 0) printf("%llu\n", (unsigned long long)total);
    }
    if (rc < 0 || count) {
        if (mine.fd >= 0) close(mine.fd);
        return rc;
    }
    size_t n_parts = (size_t)(size - !own), k = 0;
    rv_part_t **parts = calloc((size_t)size, sizeof *parts);
    if (!parts) rc = rv_oom("parts", (uint64_t)size * sizeof *parts);
    char name[64];
    if (rc == 0 && own) rc = cli_mpi_open_fd(mine.fd, "the part of rank 0", open_part, &parts[k++]);
    if (mine.fd >= 0) close(mine.fd); /* the part has its own */
    for (int r = 1; r < size && rc == 0; r++) {
        snprintf(name, sizeof name, "the part of rank %d", r);
        rc = cli_mpi_recv_file(r, name, open_part, &parts[k++]);
    }
    mpi_trace(0, "parts received", t0);
    if (rc == 0) cli_mpi_drop_windows(0); /* the merge reads no text */
    if (rc == 0) rc = rv_parts_check(parts, n_parts, NULL); /* one text, the job's */
    if (rc == 0) rc = cli_pairs_merge(parts, n_parts, s, 0); /* the workers are done: every core */
    for (int r = 0; parts && r < size; r++) rv_part_close(parts[r]);
    free(parts);
    return rc;
}

/* Rank 0 plans the buckets while the others wait (they would each count the
 * same), then sends them the plan.  The counting is the device's of the first GPU
 * rank (`counter`, 0: none) where there is one: it holds the text already, and
 * counts 3 Gbp in a tenth of a second where rank 0's cores take 2.3 s; a counter
 * that fails sends nothing and rank 0 counts.  The budget's cut is spread once,
 * for the workers' threads: equal where GPU ranks take them (gpu_jobs), else
 * tapered. */
static int mpi_plan(const rv_seq_t *s, const rv_pairs_opts_t *o, uint64_t mem_budget, int threads, int rank,
                    int size, uint64_t worker_threads, int counter, int gpu_jobs, rv_bucket_plan_t *plan,
                    double t0)
{
    int ok = 1, given = 0;
    uint64_t *counts = NULL, nc = 0;
    if (counter > 0 && rank == counter) {
        if (rv_bucket_count(s, o->min_len, o->threads, &counts, &nc) < 0) nc = 0;
        if (cli_mpi_send_bytes(0, &nc, sizeof nc) == 0 && nc) cli_mpi_send_bytes(0, counts, nc * sizeof *counts);
        free(counts);
        mpi_trace(rank, "counted for rank 0", t0);
    }
    if (rank == 0) {
        rv_pairs_opts_t all = *o;
        all.threads = 0;
        all.gpu_jobs = gpu_jobs;
        if (counter > 0 && cli_mpi_recv_bytes(counter, &nc, sizeof nc) == 0 && nc) {
            if (!(counts = malloc(nc * sizeof *counts))) /* the counter waits in its send: the error ends every rank */
                ok = rv_error("mpi", "out of memory") == 0;
            else if (cli_mpi_recv_bytes(counter, counts, nc * sizeof *counts) < 0)
                ok = 0;
        }
        /* jobs fit the budget of the rank with the most threads; counts that do not
         * fit the text are counted again here */
        given = ok && counts && rv_pairs_bucket_plan_counted(s, &all, mem_budget, threads, counts, nc, plan) == 0;
        if (!ok) {
            free(counts);
        } else if (!given) { /* counted here on every core */
            rv_bucket_plan_free(plan);
            ok = rv_bucket_count(s, all.min_len, all.threads, &counts, &nc) == 0 &&
                 rv_pairs_bucket_plan_counted(s, &all, mem_budget, threads, counts, nc, plan) == 0;
        }
        ok = ok && rv_pairs_bucket_spread(plan, worker_threads ? worker_threads : (uint64_t)(size - 1), gpu_jobs) == 0;
        mpi_trace(0, given ? "counted (by another rank)" : "counted", t0);
    }
    return cli_mpi_share_plan(plan, rank, size, ok);
}

static int cli_pairs_mpi(const char *file, cli_common_t *c, rv_pairs_opts_t *o, const char *within,
                         uint64_t mem_budget, int count, const char *out)
{
    int rank = 0, size = 1;
    double t0 = rv_now();
    if (cli_mpi_init(&rank, &size) < 0) return cli_data_error();
    if (rank > 0) c->quiet = 1;            /* rank 0 speaks for the job */
    int t_given = c->build.threads > 0;
    if (!t_given) c->build.threads = 1;    /* a rank per core, unless -t */
    cli_mpi_gpu_warm(c, rank);
    mpi_trace(rank, "init", t0);
    /* rank 0 reads, plans and merges on every core, the first rank of a host reads */
    if (rank == 0 || cli_mpi_host_leader()) cli_mpi_widen(rv_default_threads());
    int quiet_fail = 0;
    rv_seq_t *s = cli_mpi_load_seq(file, c->alpha, c->strands == 2 || c->strands == -1, 0, &quiet_fail);
    int rc = s ? 0 : -1;
    mpi_trace(rank, "read", t0);
    if (rc == 0 && s->warning && !c->quiet) fprintf(stderr, "repview: %s: %s\n", file, s->warning);
    if (rc == 0 && within && set_within(s, o, within) < 0) rc = -1;
    /* a GPU rank takes its host's share of the cores as threads, unless -t */
    int threads = c->build.threads, gpu = rc == 0 ? cli_mpi_bucket_gpu(s, c, "pairs", rank) : 0;
    if (gpu < 0) rc = -1;
    if (gpu == 1) threads = cli_mpi_gpu_threads(t_given, threads);
    if (gpu == 1) mpi_trace(rank, "text on the device", t0);
    /* rank 0 works too unless a rank has a GPU; the plan's jobs are cut for every
     * worker thread of the job (tapered; three equal ones a thread where a rank has
     * a GPU: mpi_plan) */
    uint64_t gpus = 0, any_gpu = 0, all = 0, most = 1;
    if (cli_mpi_sum_max(gpu == 1, &gpus, &any_gpu) < 0 && rc == 0) rc = -1;
    int own = any_gpu == 0;
    if (cli_mpi_sum_max(rank == 0 && !own ? 0 : (uint64_t)threads, &all, &most) < 0 && rc == 0) rc = -1;
    /* the first GPU rank counts the buckets for rank 0 (mpi_plan) */
    uint64_t nobody, first = 0;
    if (cli_mpi_sum_max(gpu == 1 ? (uint64_t)(size - rank) : 0, &nobody, &first) < 0 && rc == 0) rc = -1;
    int counter = first ? size - (int)first : 0;
    const char *who = getenv("REPVIEW_MPI_COUNTER"); /* 0: rank 0 counts; R: rank R (the tests) */
    if (who && *who) counter = atoi(who) > 0 && atoi(who) < size ? atoi(who) : 0;
    o->threads = threads;
    cli_mpi_widen(threads);
    if (gpu == 1) cli_mpi_job_batch(threads); /* short jobs, many threads: see cli_mpi_next_job */
    rv_bucket_plan_t plan = {0};
    if (rc == 0) rc = mpi_plan(s, o, mem_budget, (int)most, rank, size, all, counter, any_gpu > 0, &plan, t0);
    { /* with the CPUs the rank's threads may run on: mpirun's binding, or the set widened */
        cpu_set_t on;
        const int cpus = sched_getaffinity(0, sizeof on, &on) == 0 ? CPU_COUNT(&on) : -1;
        char what[64];
        snprintf(what, sizeof what, "plan (%s%d CPU%s)", gpu == 1 ? "GPU rank, " : "", cpus, cpus == 1 ? "" : "s");
        mpi_trace(rank, what, t0);
    }
    /* the CPU workers find their jobs' suffixes in job lists or a job map of the host */
    if (rc == 0) cli_mpi_share_map(s, &plan, rv_bucket_map_budget(mem_budget), (rank > 0 || own) && gpu != 1,
                                   rank == 0 ? rv_default_threads() : threads);
    mpi_trace(rank, plan.lists ? "job map (lists)" : plan.map_width == 1 ? "job map (a byte map)"
                  : plan.map ? "job map (a two-byte map)" : "job map (none)", t0);
    if (rc == 0 && rank == 0 && out && cli_out_begin(out) < 0) rc = -1;
    if (rc == 0) rc = rank == 0 ? mpi_master(s, o, &plan, size, own, count, c->quiet, t0)
                                : mpi_worker(s, o, &plan, rank, size, own, count, t0);
    mpi_trace(rank, "done", t0);
    if (rc < 0) { /* one line from the rank that failed, then every rank ends */
        char buf[600];
        if (!quiet_fail) fprintf(stderr, "repview: %s\n", cli_error_text(buf, sizeof buf));
        if (rank == 0 && out) cli_out_end(out, RV_EXIT_DATA);
        cli_mpi_abort(RV_EXIT_DATA);
    }
    int code = RV_EXIT_OK;
    if (rank == 0) {
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "repview: pairs: cannot write the output: %s\n", strerror(errno));
            code = RV_EXIT_DATA;
        }
        code = cli_out_end(out, code);
        mpi_trace(rank, "output closed", t0);
    }
    rv_bucket_gpu_end();
    rv_bucket_plan_free(&plan);
    rv_seq_free(s);
    mpi_trace(rank, "freed", t0);
    cli_mpi_finalize();
    mpi_trace(rank, "finalized", t0);
    return code;
}

int cli_pairs_merge(rv_part_t *const *parts, size_t n, const rv_seq_t *s, int threads)
{
    if (rv_parts_check_runs(parts, n) < 0) return -1; /* before any output */
    writer_t w;
    int rc = writer_init(&w, s, threads);
    rv_pairs_text_t text = {format_text, write_text, &w};
    if (rc == 0) {
        put_header(stdout);
        rc = rv_parts_merge_text(parts, n, w.threads, &text);
    }
    writer_free(&w);
    return rc;
}

int cli_pairs(int argc, char **argv)
{
    static const struct option own[] = {{"min-len", required_argument, NULL, 'l'},
                                        {"min-gap", required_argument, NULL, OPT_MIN_GAP},
                                        {"max-gap", required_argument, NULL, OPT_MAX_GAP},
                                        {"within", required_argument, NULL, OPT_WITHIN},
                                        {"covering", required_argument, NULL, OPT_COVERING},
                                        {"count", no_argument, NULL, OPT_COUNT},
                                        {"mem-budget", required_argument, NULL, OPT_MEM_BUDGET},
                                        {"buckets", required_argument, NULL, OPT_BUCKETS},
                                        {"output", required_argument, NULL, 'o'},
                                        {"estimate", no_argument, NULL, OPT_ESTIMATE},
                                        {"estimate-sample", required_argument, NULL, OPT_SAMPLE},
                                        {"estimate-seed", required_argument, NULL, OPT_SEED},
                                        {"workers", required_argument, NULL, OPT_WORKERS},
                                        {0, 0, 0, 0}};
    pairs_args_t a = {.sample = 0.1, .seed = 1, .workers = 16};
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "pairs", "l:o:", own, usage, on_opt, &a, &c, &code);
    if (i < 0) return code;
    if (!a.have_len) return cli_usage_error("pairs", "-l MIN is required");
    if (argc - i != 1) return cli_usage_error("pairs", "expected one FILE");
    if (a.use_min_gap && a.use_max_gap && a.min_gap > a.max_gap)
        return cli_usage_error("pairs", "--min-gap is larger than --max-gap");
    int ranks = cli_mpi_ranks();
    if (a.estimate_opt && !a.estimate)
        return cli_usage_error("pairs", "--estimate-sample, --estimate-seed and --workers go with --estimate");
    if (a.estimate && (a.n_slices || a.out || a.count || a.covering || ranks > 1))
        return cli_usage_error("pairs", "--estimate prints its own table: not with --buckets, -o, --count, --covering or under mpirun");
    int buckets = a.n_slices || a.mem_budget || ranks > 1 || a.estimate;
    if (buckets && a.covering) return cli_usage_error("pairs", "--covering needs the index (no --buckets, --mem-budget or mpirun)");
    if ((code = cli_buckets_usage("pairs", a.n_slices, a.out, ranks, a.count)) != RV_EXIT_OK) return code;
    rv_pairs_opts_t o;
    rv_pairs_opts_init(&o, a.min_len);
    o.use_min_gap = a.use_min_gap, o.min_gap = a.min_gap;
    o.use_max_gap = a.use_max_gap, o.max_gap = a.max_gap;
    o.threads = c.build.threads;
    o.strands = c.strands ? c.strands : 1;
    o.quiet = c.quiet;
    /* the pairs' sort buffers: a sixteenth of the budget, at least the default
     * 256 MiB (fewer, longer runs for the merge of a large output; the jobs take
     * half the budget and the job map n bytes, so more would push a 3 Gbp run
     * with --mem-budget 16g past 16 GB) */
    if (a.mem_budget / 16 > (256ull << 20)) o.mem_bytes = a.mem_budget / 16;
    if (ranks > 1) return cli_pairs_mpi(argv[i], &c, &o, a.within, a.mem_budget, a.count, a.out);
    rv_index_t *x = NULL;
    rv_seq_t *s = NULL;
    double t_read = rv_now();
    if (buckets) {
        if (!(s = load_text(argv[i], &c))) return RV_EXIT_DATA;
        mpi_trace(0, "read", t_read);
        /* the estimate is of CPU ranks: its sample runs on the CPU */
        if (!a.estimate && cli_bucket_gpu(s, &c, "pairs", 0, 0) < 0) {
            rv_seq_free(s);
            return cli_data_error();
        }
        mpi_trace(0, "device ready (or none)", t_read);
    } else {
        c.build.with_llr = 0;
        /* direct pairs come from any index (an index of both strands filters them);
         * inverted ones need both strands */
        c.build.strands = c.strands == 0 || c.strands == 1 ? 0 : 2;
        if (!(x = cli_open_index(argv[i], &c))) return RV_EXIT_DATA;
    }
    int rc;
    if (a.estimate) { /* the prediction is for -t threads a worker rank (default 1) */
        rv_estimate_opts_t eo = {a.sample, a.seed, a.mem_budget, a.workers, c.build.threads, rv_now() - t_read, 0};
        if (c.build.threads > 0 && c.build.threads < rv_default_threads() && strcmp(argv[i], "-") != 0) {
            /* rank 0 under mpirun reads on every core: timed too (a second read) */
            cli_common_t all = c;
            all.build.threads = 0, all.quiet = 1;
            double t = rv_now();
            rv_seq_t *again = load_text(argv[i], &all);
            if (again) eo.read_ranks_s = rv_now() - t;
            rv_seq_free(again);
        }
        rc = a.within && set_within(s, &o, a.within) < 0 ? cli_arg_error() : cli_pairs_estimate(argv[i], s, &o, &eo);
        rv_seq_free(s);
        return rc;
    }
    if (a.n_slices) { /* a part file, for `repview merge` */
        rc = a.within && set_within(s, &o, a.within) < 0 ? cli_arg_error()
           : rv_pairs_part_write(s, &o, a.mem_budget, a.slice, a.n_slices, a.out) < 0 ? cli_data_error()
           : RV_EXIT_OK;
        rv_bucket_gpu_end();
        rv_seq_free(s);
        return rc;
    }
    if (a.out && cli_out_begin(a.out) < 0) {
        rv_bucket_gpu_end();
        rv_seq_free(s);
        cli_close_index(x, &c);
        return RV_EXIT_DATA;
    }
    static char obuf[1 << 20];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    rc = run(x, x ? x->seq : s, &o, &a);
    mpi_trace(0, "run", t_read);
    if (s && getenv("REPVIEW_JOB_TRACE")) rv_bucket_phase_report(stderr, "local");
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "repview: pairs: cannot write the output: %s\n", strerror(errno));
        rc = RV_EXIT_DATA;
    }
    rc = cli_out_end(a.out, rc);
    mpi_trace(0, "output closed", t_read);
    rv_bucket_gpu_end();
    rv_seq_free(s);
    if (x) cli_close_index(x, &c);
    mpi_trace(0, "freed", t_read);
    const char *tr = getenv("REPVIEW_MPI_TRACE");
    if (tr && *tr == '1') {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        fprintf(stderr, "mpi\trank 0\tepoch %.3f\n", now.tv_sec + now.tv_nsec / 1e9);
    }
    return rc;
}
