/* cli_pairs.c — `repview pairs`: maximal pairs as BEDPE (SPEC §3 "Maximal pair",
 * §4), with length, gap and range filters, a count, and the pairs covering one
 * position (the explorer's pairs pane, headless). */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
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
    "  -t, --threads N    threads (default: all)\n";

typedef struct {
    uint64_t min_len;
    int have_len, count;
    int use_min_gap, use_max_gap;
    int64_t min_gap, max_gap;
    const char *within, *covering;
} pairs_args_t;

enum { OPT_MIN_GAP = 1, OPT_MAX_GAP, OPT_WITHIN, OPT_COVERING, OPT_COUNT };

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
    }
    return -1;
}

/* ---- BEDPE writer: batches of pairs formatted in place on several threads,
 * written in order (the engine's merge is serial; formatting is the costly part
 * of a large output) ---- */

enum { FMT_THREADS_MAX = 64, FMT_MIN_SLICE = 4096 };

typedef struct {
    const rv_seq_t *s;
    size_t *name_len; /* strlen of each record name */
    size_t max_line;  /* bytes a line can take */
    int threads;
    char *buf[FMT_THREADS_MAX];
    size_t cap[FMT_THREADS_MAX];
} writer_t;

/* Decimal digits two at a time (half the divisions of the naive loop). */
static char *put_u64(char *b, uint64_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                                "25262728293031323334353637383940414243444546474849"
                                "50515253545556575859606162636465666768697071727374"
                                "75767778798081828384858687888990919293949596979899";
    char t[24];
    int k = sizeof t;
    while (v > UINT32_MAX) { /* rare: 64-bit divisions only above 2^32 */
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        t[--k] = pairs[d + 1];
        t[--k] = pairs[d];
    }
    uint32_t u = (uint32_t)v;
    while (u >= 100) {
        unsigned d = (u % 100) * 2;
        u /= 100;
        t[--k] = pairs[d + 1];
        t[--k] = pairs[d];
    }
    if (u >= 10) {
        t[--k] = pairs[u * 2 + 1];
        t[--k] = pairs[u * 2];
    } else {
        t[--k] = (char)('0' + u);
    }
    memcpy(b, t + k, sizeof t - (size_t)k);
    return b + (sizeof t - (size_t)k);
}

static char *put_name(char *b, const writer_t *w, uint64_t rec)
{
    size_t l = w->name_len[rec];
    memcpy(b, w->s->rec[rec].name, l);
    b[l] = '\t';
    return b + l + 1;
}

/* One BEDPE line for p at b (room for max_line bytes); returns its end. */
static char *format_pair(const writer_t *w, const rv_pair_t *p, char *b)
{
    rv_pair_loc_t loc;
    rv_pair_locate(w->s, p, &loc);
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
    for (size_t i = 0; i < j->n; i++) b = format_pair(j->w, &j->p[i], b);
    j->len = (size_t)(b - j->buf);
    return NULL;
}

/* rv_pairs_batch_fn: format slices of the batch in threads, write them in order. */
static int put_batch(void *ud, const rv_pair_t *p, size_t n)
{
    writer_t *w = ud;
    for (size_t done = 0; done < n;) {
        size_t m = n - done < RV_PAIRS_BATCH ? n - done : RV_PAIRS_BATCH;
        int T = w->threads;
        if ((size_t)T > m / FMT_MIN_SLICE) T = m / FMT_MIN_SLICE ? (int)(m / FMT_MIN_SLICE) : 1;
        slice_t job[FMT_THREADS_MAX] = {{0}};
        pthread_t tid[FMT_THREADS_MAX];
        int started[FMT_THREADS_MAX] = {0};
        for (int t = 0; t < T; t++) {
            size_t lo = m * (size_t)t / (size_t)T, hi = m * (size_t)(t + 1) / (size_t)T;
            size_t need = (hi - lo) * w->max_line;
            if (need > w->cap[t]) {
                char *nb = realloc(w->buf[t], need);
                if (!nb) return rv_error("pairs", "out of memory");
                w->buf[t] = nb;
                w->cap[t] = need;
            }
            job[t] = (slice_t){w, p + done + lo, hi - lo, w->buf[t], 0};
        }
        for (int t = 1; t < T; t++) started[t] = pthread_create(&tid[t], NULL, format_slice, &job[t]) == 0;
        format_slice(&job[0]);
        for (int t = 1; t < T; t++) {
            if (started[t]) pthread_join(tid[t], NULL);
            else format_slice(&job[t]);
        }
        for (int t = 0; t < T; t++) fwrite_unlocked(job[t].buf, 1, job[t].len, stdout);
        done += m;
    }
    return 0;
}

static int writer_init(writer_t *w, const rv_seq_t *s, int threads)
{
    memset(w, 0, sizeof *w);
    w->s = s;
    w->threads = threads < 1 ? rv_default_threads() : threads;
    if (w->threads > FMT_THREADS_MAX) w->threads = FMT_THREADS_MAX;
    w->name_len = malloc((s->n_rec ? s->n_rec : 1) * sizeof *w->name_len);
    if (!w->name_len) return rv_error("pairs", "out of memory");
    size_t longest = 0;
    for (uint64_t i = 0; i < s->n_rec; i++) {
        w->name_len[i] = strlen(s->rec[i].name);
        if (w->name_len[i] > longest) longest = w->name_len[i];
    }
    w->max_line = 2 * longest + 6 * 21 + 16; /* names, six numbers, separators */
    return 0;
}

static void writer_free(writer_t *w)
{
    free(w->name_len);
    for (int t = 0; t < FMT_THREADS_MAX; t++) free(w->buf[t]);
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

static int run(const rv_index_t *x, rv_pairs_opts_t *o, const pairs_args_t *a)
{
    if (a->within) {
        uint64_t rid, beg, end;
        if (rv_seq_parse_region(x->seq, a->within, &rid, &beg, &end) < 0) return cli_arg_error();
        o->use_within = 1;
        o->within_beg = x->seq->rec[rid].off + beg;
        o->within_end = x->seq->rec[rid].off + end;
    }
    if (a->covering) return run_covering(x, o, a->covering, a->count);
    if (a->count) {
        uint64_t n;
        if (rv_pairs_count(x, o, &n) < 0) return cli_data_error();
        printf("%llu\n", (unsigned long long)n);
        return RV_EXIT_OK;
    }
    writer_t w;
    int rc = writer_init(&w, x->seq, o->threads);
    if (rc == 0) {
        put_header(stdout);
        rc = rv_pairs_each_batch(x, o, put_batch, &w);
    }
    writer_free(&w);
    return rc < 0 ? cli_data_error() : RV_EXIT_OK;
}

int cli_pairs(int argc, char **argv)
{
    static const struct option own[] = {{"min-len", required_argument, NULL, 'l'},
                                        {"min-gap", required_argument, NULL, OPT_MIN_GAP},
                                        {"max-gap", required_argument, NULL, OPT_MAX_GAP},
                                        {"within", required_argument, NULL, OPT_WITHIN},
                                        {"covering", required_argument, NULL, OPT_COVERING},
                                        {"count", no_argument, NULL, OPT_COUNT},
                                        {0, 0, 0, 0}};
    pairs_args_t a = {0};
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "pairs", "l:", own, usage, on_opt, &a, &c, &code);
    if (i < 0) return code;
    if (!a.have_len) return cli_usage_error("pairs", "-l MIN is required");
    if (argc - i != 1) return cli_usage_error("pairs", "expected one FILE");
    if (a.use_min_gap && a.use_max_gap && a.min_gap > a.max_gap)
        return cli_usage_error("pairs", "--min-gap is larger than --max-gap");
    c.build.with_llr = 0;
    /* direct pairs come from any index (an index of both strands filters them);
     * inverted ones need both strands */
    c.build.strands = c.strands == 0 || c.strands == 1 ? 0 : 2;
    rv_index_t *x = cli_open_index(argv[i], &c);
    if (!x) return RV_EXIT_DATA;
    rv_pairs_opts_t o;
    rv_pairs_opts_init(&o, a.min_len);
    o.use_min_gap = a.use_min_gap, o.min_gap = a.min_gap;
    o.use_max_gap = a.use_max_gap, o.max_gap = a.max_gap;
    o.threads = c.build.threads;
    o.strands = c.strands ? c.strands : 1;
    static char obuf[1 << 20];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    int rc = run(x, &o, &a);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "repview: pairs: cannot write the output: %s\n", strerror(errno));
        rc = RV_EXIT_DATA;
    }
    cli_close_index(x, &c);
    return rc;
}
