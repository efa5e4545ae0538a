/* cli_tandem.c — `repview tandem`: every run (exact tandem repeat) of FILE, or of
 * those overlapping REGION, as `chrom start end period copies motif` (repview-tandem(1)).
 * With --mem-budget or under mpirun the runs come job by job from the text, each
 * job a stretch of segments or a piece of a long one indexed on its own (tandem.h),
 * instead of from an index of the whole text: the same output.  --approx reads the
 * text alone (approx.h finds its own seeds). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "repview/approx.h"
#include "repview/kmruns.h"
#include "repview/common.h"
#include "repview/part.h"
#include "repview/tandem.h"
#include "cli.h"

static const char usage[] =
    "Usage: repview tandem [OPTIONS] FILE [REGION]\n\n"
    "Print the exact tandem repeats of FILE: every run (maximal repetition) [start, end)\n"
    "with smallest period p, end - start >= 2p, that extends by no symbol at either end\n"
    "with the same period.  With REGION (chr, chr:beg-end; 1-based inclusive) only the\n"
    "runs that overlap REGION, printed whole.  Output (BED coordinates, ordered by\n"
    "record, start, then period):\n"
    "  chrom start end period copies motif     copies = (end-start)/period, 2 decimals\n\n"
    "  --min-period P   smallest period to print (default 1)\n"
    "  --max-period P   largest period to print (default: no limit)\n"
    "  --min-copies C   at least C copies, C may be fractional (default 2)\n"
    "  --min-len L      at least L symbols long (default 10)\n"
    "  --timing         print on stderr (TSV): seconds to open the index, seconds to\n"
    "                   compute the runs, and the number of runs (all, unfiltered);\n"
    "                   with --approx seconds to read the text, seconds for the\n"
    "                   loci and their number\n"
    "  --cpu | --gpu    force a backend     -t, --threads N   CPU threads\n"
    "  --alphabet A     dna|protein|text    --quiet           no progress\n"
    "  -o, --output OUT write to OUT (a temporary name, renamed when complete)\n\n"
    "Approximate tandem repeats (TRF-like; not under mpirun):\n"
    "  --approx         print loci with mismatches and indels instead (no index\n"
    "                   needed): seeds (exact runs, repeated k-mers) extended by\n"
    "                   wraparound alignment to a motif (match +2, mismatch -7,\n"
    "                   indel -7), motif = consensus of the copies.  Output:\n"
    "  chrom start end period copies identity score motif\n"
    "                   period = motif length, copies = (end-start)/period,\n"
    "                   identity = % of alignment columns that match, 1 decimal\n"
    "  --min-score S    smallest alignment score to print (default 50)\n"
    "  --format F       bed (the columns above, default), gff3 (type tandem_repeat,\n"
    "                   1-based; period, copies, identity, score and consensus as\n"
    "                   attributes) or trf (the layout of TRF's .dat file)\n"
    "                   with --approx --max-period defaults to 500 (at most 100000)\n"
    "                   and --min-copies to 1.8\n\n"
    "k-mismatch runs (Hamming distance, after Kolpakov & Kucherov; not under mpirun):\n"
    "  --mismatches K   print maximal intervals [start, end) with end - start >= 2p\n"
    "                   and at most K positions i with text[i] != text[i+p] (i, i+p\n"
    "                   inside), not inside such a run of a period dividing p.\n"
    "                   Output:\n"
    "  chrom start end period copies mismatches motif\n"
    "                   motif = the most frequent symbol of each column; with\n"
    "                   --mismatches --max-period defaults to 500 (at most 100000)\n"
    "                   and --min-len to 10(K+1)\n\n"
    "Scale-out (no index of the whole text: jobs of segments between breakers, each\n"
    "indexed on its own; a longer segment in pieces, its runs of long period from\n"
    "prefix buckets):\n"
    "  --mem-budget SIZE  memory for one job (per rank under mpirun; k/m/g suffixes;\n"
    "                     default 1g under mpirun)\n"
    "  --buckets I/N      only slice I of N (1-based) of the jobs, written as a part\n"
    "                     file to -o PART; 'repview merge PART...' joins all N\n"
    "                     (every slice with the same options, -t and --mem-budget)\n"
    "  mpirun -np N repview tandem ...  rank 0 hands out jobs largest first, ranks\n"
    "                     1..N-1 work, rank 0 writes: the same output\n";

enum { OPT_MIN_PERIOD = 1, OPT_MAX_PERIOD, OPT_MIN_COPIES, OPT_MIN_LEN, OPT_TIMING, OPT_MEM_BUDGET, OPT_BUCKETS,
       OPT_APPROX, OPT_MIN_SCORE, OPT_MISMATCHES, OPT_FORMAT };

typedef struct {
    rv_tandem_filter_t f;
    int timing;
    int approx, set_max_period, set_min_copies, set_min_len;
    int64_t mismatches; /* --mismatches K, -1: none */
    int format;         /* --format: cli_approx_format's number, -1: none given */
    uint64_t min_score;
    uint64_t mem_budget; /* 0: none given */
    uint64_t slice, n_slices; /* --buckets I/N (n_slices 0: none) */
    rv_approx_opts_t *ao;
    const char *out;
} tandem_opts_t;

static int parse_copies(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!isdigit((unsigned char)*s) || *end || errno || v != v || v > 1e15) return -1;
    *out = v;
    return 0;
}

static int on_opt(int opt, const char *arg, void *ud)
{
    tandem_opts_t *o = ud;
    rv_tandem_filter_t *f = &o->f;
    uint64_t v = 0;
    if (opt == OPT_TIMING) { o->timing = 1; return 0; }
    if (opt == OPT_APPROX) { o->approx = 1; return 0; }
    if (opt == OPT_FORMAT) {
        if ((o->format = cli_approx_format(arg)) >= 0) return 0;
        cli_usage_error("tandem", "bad --format '%s' (bed, gff3 or trf)", arg);
        return -1;
    }
    if (opt == OPT_MISMATCHES) {
        uint64_t k;
        if (front_parse_count(arg, &k) == 0 && k <= 1000) { o->mismatches = (int64_t)k; return 0; }
        cli_usage_error("tandem", "bad --mismatches '%s' (0 to 1000)", arg);
        return -1;
    }
    if (opt == OPT_MIN_SCORE) {
        if (front_parse_count(arg, &o->min_score) == 0 && o->min_score <= (1ull << 40)) return 0;
        cli_usage_error("tandem", "bad --min-score '%s'", arg);
        return -1;
    }
    if (opt == 'o') { o->out = arg; return 0; }
    if (opt == OPT_BUCKETS) return cli_parse_buckets("tandem", arg, &o->slice, &o->n_slices);
    if (opt == OPT_MEM_BUDGET) {
        if (front_parse_count(arg, &o->mem_budget) == 0 && o->mem_budget >= 1000000) return 0;
        cli_usage_error("tandem", "bad --mem-budget '%s' (a size of at least 1m)", arg);
        return -1;
    }
    if (opt == OPT_MIN_COPIES) {
        if (parse_copies(arg, &f->min_copies) == 0) { o->set_min_copies = 1; return 0; }
        cli_usage_error("tandem", "bad --min-copies '%s'", arg);
        return -1;
    }
    const char *name = opt == OPT_MIN_PERIOD ? "--min-period" : opt == OPT_MAX_PERIOD ? "--max-period" : "--min-len";
    if (front_parse_count(arg, &v) < 0 || (v == 0 && opt != OPT_MIN_LEN)) {
        cli_usage_error("tandem", "bad %s '%s'", name, arg);
        return -1;
    }
    if (opt == OPT_MIN_PERIOD) f->min_period = v;
    else if (opt == OPT_MAX_PERIOD) f->max_period = v, o->set_max_period = 1;
    else f->min_len = v, o->set_min_len = 1;
    return 0;
}

typedef struct {
    const rv_seq_t *s;
    FILE *out;
} print_ctx_t;

static int print_run(void *ud, const rv_run_t *run)
{
    const print_ctx_t *c = ud;
    const rv_seq_t *s = c->s;
    uint64_t g = rv_seq_text_to_global(s, run->start);
    const rv_record_t *rec = &s->rec[rv_seq_record_of(s, g)];
    fprintf(c->out, "%s\t%llu\t%llu\t%llu\t%.2f\t", rec->name, (unsigned long long)(g - rec->off),
            (unsigned long long)(g - rec->off + (run->end - run->start)),
            (unsigned long long)run->period, rv_run_copies(run));
    for (uint64_t k = 0; k < run->period; k++)
        putc(toupper((unsigned char)rv_alpha_letter(s->alpha, s->text[run->start + k])), c->out);
    putc('\n', c->out);
    return 0;
}

static void put_header(void)
{
    static char obuf[1 << 20];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    printf("#chrom\tstart\tend\tperiod\tcopies\tmotif\n");
}

/* ---- under mpirun: rank 0 hands out the jobs and prints, the others work ------- */

/* Jobs 0..n_jobs-1 are those of rv_runs_jobs; when a segment was cut, n_long more
 * are the slices of rv_runs_long.  A worker's answer: blocks of (2 j, or 2 j + 1
 * for long runs that start in job j; count; then start deltas, lengths and
 * periods) as varints. */
typedef struct {
    const rv_seq_t *s;
    const rv_runs_job_t *jobs;
    uint64_t n_jobs, n_long, mem_budget;
    const rv_tandem_filter_t *f;
    uint64_t lo, hi;
    int threads;
    uint64_t runs;    /* written so far */
    int quiet;        /* no warning from the buckets of long runs (--quiet, a rank) */
} worker_t;

static void put_runs(FILE *out, uint64_t tag, const rv_run_t *v, uint64_t m)
{
    cli_varint_put(out, tag);
    cli_varint_put(out, m);
    for (uint64_t k = 0, prev = 0; k < m; prev = v[k++].start) {
        cli_varint_put(out, v[k].start - prev);
        cli_varint_put(out, v[k].end - v[k].start);
        cli_varint_put(out, v[k].period);
    }
}

static int work_job(uint64_t j, FILE *out, void *ud)
{
    worker_t *w = ud;
    rv_run_t *v;
    uint64_t m;
    if (j < w->n_jobs) {
        if (rv_runs_job_runs(w->s, &w->jobs[j], w->f, w->lo, w->hi, w->threads, &v, &m) < 0) return -1;
        put_runs(out, 2 * j, v, m);
    } else {
        /* under mpirun every worker plans the buckets (quiet: cli_mpi_start makes
         * every rank but 0 so), and rank 0 none: no rank warns; a --buckets slice
         * is a process of its own, and does */
        if (rv_runs_long(w->s, w->jobs, w->n_jobs, j - w->n_jobs, w->n_long, w->mem_budget, w->threads, w->quiet,
                         w->f, w->lo, w->hi, &v, &m) < 0)
            return -1;
        for (uint64_t a = 0, b; a < m; a = b) { /* by the job their start lies in */
            const uint64_t job = rv_runs_job_of(w->jobs, w->n_jobs, v[a].start);
            for (b = a + 1; b < m && v[b].start < w->jobs[job].t1; b++) {}
            put_runs(out, 2 * job + 1, v + a, b - a);
        }
    }
    w->runs += m;
    free(v);
    return 0;
}

typedef struct {
    rv_run_t *v;
    uint64_t n;
    int back, merge; /* its own runs came; long runs came too */
} job_runs_t;

typedef struct {
    job_runs_t *slot;
    uint64_t n_jobs;
} slots_t;

/* The runs of one worker's file (or part's body) into their jobs' slots. */
static int read_runs(FILE *f, void *ud)
{
    slots_t *sl = ud;
    uint64_t tag, m, d, len, p;
    int rc = 0, got, bad = 0;
    while (rc == 0 && !bad && (got = cli_varint_get(f, &tag)) == 1) {
        const uint64_t j = tag / 2;
        if (cli_varint_get(f, &m) != 1 || j >= sl->n_jobs || (!(tag & 1) && sl->slot[j].back) || m > (1ull << 40)) {
            bad = 1;
            break;
        }
        job_runs_t *js = &sl->slot[j];
        rv_run_t *g = realloc(js->v, (js->n + m + 1) * sizeof *g);
        if (!g) { rc = rv_oom("runs of a job", (js->n + m + 1) * sizeof *g); break; }
        js->v = g;
        js->back |= !(tag & 1), js->merge |= (int)(tag & 1);
        for (uint64_t k = 0, at = 0; !bad && k < m; k++) {
            if (cli_varint_get(f, &d) != 1 || cli_varint_get(f, &len) != 1 || cli_varint_get(f, &p) != 1) bad = 1;
            at += d;
            js->v[js->n++] = (rv_run_t){at, at + len, p};
        }
    }
    if (rc == 0 && !bad && got < 0) bad = 1;
    return bad ? rv_error("tandem", "a worker's runs do not read back") : rc;
}


static int by_start_period(const void *a, const void *b)
{
    const rv_run_t *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return x->period < y->period ? -1 : x->period > y->period;
}

/* Every job's runs came: all printed in order, header first.  0, or -1 with a
 * message when a job is missing. */
static int print_slots(const rv_seq_t *s, const slots_t *sl)
{
    for (uint64_t j = 0; j < sl->n_jobs; j++)
        if (!sl->slot[j].back) return rv_error("tandem", "job %llu came back from no rank", (unsigned long long)j + 1);
    print_ctx_t pc = {s, stdout};
    put_header();
    for (uint64_t j = 0; j < sl->n_jobs; j++) {
        job_runs_t *js = &sl->slot[j];
        if (js->merge) qsort(js->v, js->n, sizeof *js->v, by_start_period);
        for (uint64_t k = 0; k < js->n; k++) print_run(&pc, &js->v[k]);
    }
    return 0;
}

/* order[0..n_jobs): the jobs largest first (by the text they read; ties in text
 * order). */
static void largest_first(const rv_runs_job_t *jobs, uint64_t n_jobs, uint64_t *order)
{
    for (uint64_t a = 0; a < n_jobs; a++) { /* by insertion (stable) */
        uint64_t b = a, sz = jobs[a].w1 - jobs[a].w0;
        for (; b > 0 && jobs[order[b - 1]].w1 - jobs[order[b - 1]].w0 < sz; b--) order[b] = order[b - 1];
        order[b] = a;
    }
}

static int mpi_master(const rv_seq_t *s, uint64_t n_jobs, uint64_t n_long, const rv_runs_job_t *jobs, int size,
                      int quiet)
{
    const uint64_t n_all = n_jobs + n_long;
    uint64_t *order = malloc((n_all ? n_all : 1) * sizeof *order);
    slots_t sl = {calloc(n_jobs ? n_jobs : 1, sizeof *sl.slot), n_jobs};
    if (!order || !sl.slot) {
        free(order), free(sl.slot);
        return rv_oom("order of the jobs", (n_all + n_jobs + 2) * sizeof *order);
    }
    for (uint64_t j = 0; j < n_long; j++) order[j] = n_jobs + j; /* the buckets' slices first: the largest */
    largest_first(jobs, n_jobs, order + n_long);                  /* then the others */
    int rc = cli_mpi_collect(order, n_all, size, quiet, read_runs, &sl);
    if (rc == 0) rc = print_slots(s, &sl);
    for (uint64_t j = 0; j < n_jobs; j++) free(sl.slot[j].v);
    free(sl.slot);
    free(order);
    return rc;
}

static int cli_tandem_mpi(const char *file, const char *region, cli_common_t *c, const tandem_opts_t *o)
{
    int rank = 0, size = 1;
    rv_seq_t *s;
    if (cli_mpi_start(file, c, 0, &rank, &size, &s) < 0) return cli_data_error();
    int rc = s ? 0 : -1, code = RV_EXIT_DATA;
    uint64_t lo = 0, hi = 0, n_jobs = 0;
    if (rc == 0 && cli_text_range(s, region, &lo, &hi) < 0) rc = -1, code = RV_EXIT_USAGE;
    /* every rank reads the same input and cuts the same jobs: a failure here is
     * every rank's, and rank 0 reports it alone */
    rv_runs_job_t *jobs = rc == 0 ? rv_runs_jobs(s, lo, hi, rv_runs_job_symbols(o->mem_budget), &n_jobs) : NULL;
    if (rc == 0 && !jobs && n_jobs) rc = -1;
    if (rc < 0) {
        cli_mpi_fail_all(rank, code, 0);
        rv_seq_free(s);
        cli_mpi_finalize();
        return code;
    }
    if (rank == 0 && o->out && cli_out_begin(o->out) < 0) cli_mpi_abort(RV_EXIT_DATA); /* it printed why */
    uint64_t n_long = 0; /* slices of the runs of long period, when a segment was cut */
    for (uint64_t j = 0; j < n_jobs && !n_long; j++) n_long = jobs[j].max_period ? (uint64_t)size - 1 : 0;
    worker_t w = {s, jobs, n_jobs, n_long, o->mem_budget, &o->f, lo, hi, c->build.threads, 0, c->quiet};
    /* GPU ranks sort the buckets of the runs of long period */
    if (rank > 0 && n_long && cli_mpi_bucket_gpu(s, c, "tandem", rank) < 0) rc = -1;
    else rc = rank == 0 ? mpi_master(s, n_jobs, n_long, jobs, size, c->quiet) : cli_mpi_work(rank, work_job, &w);
    code = cli_mpi_end(rank, rc, "tandem", o->out);
    rv_bucket_gpu_end();
    free(jobs);
    rv_seq_free(s);
    cli_mpi_finalize();
    return code;
}

/* ---- --buckets I/N: the runs of a slice's jobs as a part file; merge ------------- */

/* What a tandem part's runs depend on besides the text (part.h). */
typedef struct {
    uint64_t lo, hi, mem_budget, n_jobs;
    uint64_t min_period, max_period, min_len;
    double min_copies;
    int64_t threads; /* the buckets' threads when a segment was cut (they cut the long runs' jobs), else 0 */
} tandem_part_opts_t;

/* The ordinary jobs of slice `slice` of n_slices, largest first; each slice also
 * takes its own slice of the runs of long period (when a segment was cut).  A
 * malloc()ed array of *n, NULL with a message. */
static uint64_t *slice_jobs(const rv_runs_job_t *jobs, uint64_t n_jobs, uint64_t slice, uint64_t n_slices,
                            uint64_t *n)
{
    uint64_t *order = malloc((n_jobs ? n_jobs : 1) * sizeof *order), *size = malloc((n_jobs ? n_jobs : 1) * sizeof *size);
    for (uint64_t j = 0; size && j < n_jobs; j++) size[j] = jobs[j].w1 - jobs[j].w0;
    if (order) largest_first(jobs, n_jobs, order);
    uint64_t *mine = order && size ? rv_part_share(order, size, n_jobs, slice, n_slices, n) : NULL;
    if (!order || !size) rv_oom("order of the jobs", 2 * (n_jobs ? n_jobs : 1) * sizeof *order);
    free(order);
    free(size);
    return mine;
}

static int tandem_part(const char *file, const char *region, cli_common_t *c, const tandem_opts_t *o)
{
    rv_seq_t *s;
    tandem_part_opts_t po;
    memset(&po, 0, sizeof po);
    int code = cli_open_text(file, region, c, "tandem", &s, &po.lo, &po.hi);
    if (code != RV_EXIT_OK) return code;
    po.mem_budget = o->mem_budget;
    po.min_period = o->f.min_period, po.max_period = o->f.max_period, po.min_len = o->f.min_len;
    po.min_copies = o->f.min_copies;
    rv_runs_job_t *jobs = rv_runs_jobs(s, po.lo, po.hi, rv_runs_job_symbols(o->mem_budget), &po.n_jobs);
    int rc = !jobs && po.n_jobs ? -1 : 0, cut = 0;
    for (uint64_t j = 0; j < po.n_jobs; j++) cut |= jobs[j].max_period != 0;
    if (cut) po.threads = c->build.threads > 0 ? c->build.threads : rv_default_threads();
    uint64_t n_mine = 0, *mine = rc == 0 ? slice_jobs(jobs, po.n_jobs, o->slice, o->n_slices, &n_mine) : NULL;
    rv_part_writer_t *w = mine ? rv_part_writer_begin(o->out, RV_PART_TANDEM, o->slice, o->n_slices, s, &po, sizeof po)
                               : NULL;
    if (w) {
        worker_t wk = {s, jobs, po.n_jobs, cut ? o->n_slices : 0, o->mem_budget, &o->f, po.lo, po.hi, c->build.threads,
                       0, c->quiet};
        FILE *out = rv_part_writer_file(w);
        for (uint64_t k = 0; rc == 0 && k < n_mine; k++) rc = work_job(mine[k], out, &wk);
        if (rc == 0 && cut) rc = work_job(po.n_jobs + o->slice, out, &wk); /* this slice's runs of long period */
        rc = rv_part_writer_end(w, wk.runs, 1, rc);
    } else {
        rc = -1;
    }
    free(mine);
    free(jobs);
    rv_bucket_gpu_end();
    rv_seq_free(s);
    return rc < 0 ? cli_data_error() : RV_EXIT_OK;
}

int cli_tandem_merge(rv_part_t *const *parts, size_t n, const rv_seq_t *s)
{
    size_t bytes;
    const tandem_part_opts_t *po = rv_part_opts(parts[0], &bytes);
    if (bytes != sizeof *po) return rv_error(rv_part_path(parts[0]), "a tandem part of another repview version");
    slots_t sl = {calloc(po->n_jobs ? po->n_jobs : 1, sizeof *sl.slot), po->n_jobs};
    int rc = sl.slot ? 0 : rv_error("merge", "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        FILE *f = rv_part_body(parts[i]);
        rc = f ? read_runs(f, &sl) : -1;
    }
    if (rc == 0) rc = print_slots(s, &sl);
    for (uint64_t j = 0; sl.slot && j < sl.n_jobs; j++) free(sl.slot[j].v);
    free(sl.slot);
    return rc;
}

/* ---- the command ---------------------------------------------------------------- */

static int print_local(void *ud, const rv_run_t *run) { return print_run(ud, run); }

/* ---- --approx ------------------------------------------------------------------- */

/* A locus's first five columns, `chrom start end period copies\t`, to stdout. */
static void put_locus(const rv_seq_t *s, uint64_t start, uint64_t end, uint64_t period)
{
    const rv_run_t run = {start, end, period};
    const uint64_t g = rv_seq_text_to_global(s, start);
    const rv_record_t *rec = &s->rec[rv_seq_record_of(s, g)];
    printf("%s\t%llu\t%llu\t%llu\t%.2f\t", rec->name, (unsigned long long)(g - rec->off),
           (unsigned long long)(g - rec->off + (end - start)), (unsigned long long)period, rv_run_copies(&run));
}

/* FILE's text alone (no index) and REGION's text range [*lo, *hi); NULL with the
 * exit code in *code after the message. */
static rv_seq_t *text_of(const char *file, const char *region, const cli_common_t *c, uint64_t *lo, uint64_t *hi,
                         int *code)
{
    rv_seq_t *s = cli_load_text(file, c);
    if (!s) {
        *code = cli_data_error();
        return NULL;
    }
    if (cli_text_range(s, region, lo, hi) < 0) {
        rv_seq_free(s);
        *code = cli_arg_error();
        return NULL;
    }
    return s;
}

/* The approximate loci of FILE's text (no index: the search seeds itself from the
 * text) overlapping REGION, in the format of --format (cli_tandem_formats.c). */
static int tandem_approx(const char *file, const char *region, const cli_common_t *c, const tandem_opts_t *o)
{
    const double t0 = rv_now();
    uint64_t lo, hi;
    int code;
    rv_seq_t *s = text_of(file, region, c, &lo, &hi, &code);
    if (!s) return code;
    rv_approx_set_t a;
    const double t1 = rv_now();
    if (rv_approx_find(s, lo, hi, NULL, 0, o->ao, c->build.threads, &a) < 0) {
        rv_seq_free(s);
        return cli_data_error();
    }
    if (o->timing)
        fprintf(stderr, "open\t%.3f\napprox\t%.3f\nloci\t%llu\n", t1 - t0, rv_now() - t1, (unsigned long long)a.n);
    int rc = o->out && cli_out_begin(o->out) < 0 ? RV_EXIT_DATA : RV_EXIT_OK;
    if (rc == RV_EXIT_OK) {
        static char obuf[1 << 20];
        setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
        cli_approx_print(s, &a, &o->f, o->ao, o->format, lo, hi);
        rc = cli_flush_output("tandem", rc);
    }
    rv_approx_free(&a);
    rv_seq_free(s);
    return cli_out_end(o->out, rc);
}

/* ---- --mismatches ---------------------------------------------------------------- */

/* The k-mismatch runs of FILE's text (no index needed) overlapping REGION. */
static int tandem_kmruns(const char *file, const char *region, const cli_common_t *c, const tandem_opts_t *o)
{
    uint64_t lo, hi;
    int code;
    rv_seq_t *s = text_of(file, region, c, &lo, &hi, &code);
    if (!s) return code;
    const rv_kmruns_opts_t ko = {(uint64_t)o->mismatches, o->f.min_period, o->f.max_period, o->f.min_len,
                                 o->f.min_copies};
    rv_kmrun_set_t a;
    const double t0 = rv_now();
    if (rv_kmruns_find(s, lo, hi, &ko, c->build.threads, &a) < 0) {
        rv_seq_free(s);
        return cli_data_error();
    }
    if (o->timing) fprintf(stderr, "kmruns\t%.3f\nruns\t%llu\n", rv_now() - t0, (unsigned long long)a.n);
    int rc = o->out && cli_out_begin(o->out) < 0 ? RV_EXIT_DATA : RV_EXIT_OK;
    if (rc == RV_EXIT_OK) {
        static char obuf[1 << 20];
        setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
        printf("#chrom\tstart\tend\tperiod\tcopies\tmismatches\tmotif\n");
        for (uint64_t k = 0; k < a.n; k++) {
            const rv_kmrun_t *l = &a.v[k];
            put_locus(s, l->start, l->end, l->period);
            printf("%llu\t", (unsigned long long)l->mismatches);
            for (uint64_t j = 0; j < l->period; j++)
                putchar(toupper((unsigned char)rv_alpha_letter(s->alpha, a.motifs[l->motif + j])));
            putchar('\n');
        }
        rc = cli_flush_output("tandem", rc);
    }
    rv_kmruns_free(&a);
    rv_seq_free(s);
    return cli_out_end(o->out, rc);
}

/* Runs of REGION job by job from the text (--mem-budget, no index). */
static int tandem_local(const char *file, const char *region, cli_common_t *c, const tandem_opts_t *o)
{
    rv_seq_t *s;
    uint64_t lo, hi;
    int code = cli_open_text(file, region, c, "tandem", &s, &lo, &hi);
    if (code != RV_EXIT_OK) return code;
    int rc = o->out && cli_out_begin(o->out) < 0 ? RV_EXIT_DATA : RV_EXIT_OK;
    if (rc == RV_EXIT_OK) {
        put_header();
        print_ctx_t pc = {s, stdout};
        double t0 = rv_now();
        if (rv_runs_each_local(s, lo, hi, o->mem_budget, c->build.threads, c->quiet, &o->f, print_local, &pc) < 0)
            rc = cli_data_error();
        if (o->timing) fprintf(stderr, "open\t0.000\nruns\t%.3f\n", rv_now() - t0);
        rc = cli_flush_output("tandem", rc);
    }
    rc = cli_out_end(o->out, rc);
    rv_bucket_gpu_end();
    rv_seq_free(s);
    return rc;
}

int cli_tandem(int argc, char **argv)
{
    static const struct option own[] = {{"min-period", required_argument, NULL, OPT_MIN_PERIOD},
                                        {"max-period", required_argument, NULL, OPT_MAX_PERIOD},
                                        {"min-copies", required_argument, NULL, OPT_MIN_COPIES},
                                        {"min-len", required_argument, NULL, OPT_MIN_LEN},
                                        {"timing", no_argument, NULL, OPT_TIMING},
                                        {"mem-budget", required_argument, NULL, OPT_MEM_BUDGET},
                                        {"buckets", required_argument, NULL, OPT_BUCKETS},
                                        {"approx", no_argument, NULL, OPT_APPROX},
                                        {"min-score", required_argument, NULL, OPT_MIN_SCORE},
                                        {"mismatches", required_argument, NULL, OPT_MISMATCHES},
                                        {"format", required_argument, NULL, OPT_FORMAT},
                                        {"output", required_argument, NULL, 'o'},
                                        {0, 0, 0, 0}};
    rv_approx_opts_t ao;
    rv_approx_opts_init(&ao);
    tandem_opts_t o = {.timing = 0, .min_score = (uint64_t)ao.min_score, .ao = &ao, .mismatches = -1, .format = -1};
    rv_tandem_filter_init(&o.f);
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "tandem", "o:", own, usage, on_opt, &o, &c, &code);
    if (i < 0) return code;
    c.verify = RV_SEC_SEQ_MASK | RV_SEC_BIT(RV_SEC_RUNS); /* what it reads */
    if (argc - i < 1 || argc - i > 2) return cli_usage_error("tandem", "expected FILE [REGION]");
    if (o.f.max_period < o.f.min_period) return cli_usage_error("tandem", "--max-period is below --min-period");
    const char *region = argc - i == 2 ? argv[i + 1] : NULL;
    if (o.approx) {
        if (!o.set_max_period) o.f.max_period = ao.max_period;
        if (o.f.max_period > 100000) return cli_usage_error("tandem", "--max-period above 100000 with --approx");
        if (o.f.max_period < o.f.min_period) return cli_usage_error("tandem", "--max-period is below --min-period");
        if (!o.set_min_copies) o.f.min_copies = RV_APPROX_MIN_COPIES;
        ao.max_period = o.f.max_period, ao.min_score = (int64_t)o.min_score, ao.min_copies = o.f.min_copies;
        if (cli_mpi_ranks() > 1) return cli_usage_error("tandem", "--approx does not run under mpirun");
        if (o.format < 0) o.format = 0;
    } else if (o.min_score != (uint64_t)ao.min_score) {
        return cli_usage_error("tandem", "--min-score needs --approx");
    } else if (o.format >= 0) {
        return cli_usage_error("tandem", "--format needs --approx");
    }
    if (o.mismatches >= 0) {
        if (o.approx) return cli_usage_error("tandem", "--mismatches and --approx exclude each other");
        if (!o.set_max_period) o.f.max_period = 500;
        if (o.f.max_period > 100000) return cli_usage_error("tandem", "--max-period above 100000 with --mismatches");
        if (o.f.max_period < o.f.min_period) return cli_usage_error("tandem", "--max-period is below --min-period");
        if (!o.set_min_len) o.f.min_len = 10 * ((uint64_t)o.mismatches + 1);
        if (cli_mpi_ranks() > 1) return cli_usage_error("tandem", "--mismatches does not run under mpirun");
        if (o.n_slices || o.mem_budget) return cli_usage_error("tandem", "--mismatches is not for --buckets or --mem-budget");
        return tandem_kmruns(argv[i], region, &c, &o);
    }
    if ((code = cli_buckets_usage("tandem", o.n_slices, o.out, cli_mpi_ranks(), 0)) != RV_EXIT_OK) return code;
    if (o.n_slices && o.approx) return cli_usage_error("tandem", "--approx is not for --buckets");
    if (o.n_slices && o.timing) return cli_usage_error("tandem", "--timing is not for --buckets");
    if (o.n_slices) return tandem_part(argv[i], region, &c, &o);
    if (cli_mpi_ranks() > 1) return cli_tandem_mpi(argv[i], region, &c, &o);
    if (o.approx) return tandem_approx(argv[i], region, &c, &o);
    if (o.mem_budget) return tandem_local(argv[i], region, &c, &o);
    c.build.with_llr = 0;
    double t0 = rv_now();
    rv_index_t *x = cli_open_index(argv[i], &c);
    if (!x) return RV_EXIT_DATA;
    const rv_seq_t *s = x->seq;
    uint64_t lo, hi;
    if (cli_text_range(s, region, &lo, &hi) < 0) {
        cli_arg_error();
        cli_close_index(x, &c);
        return RV_EXIT_USAGE;
    }
    rv_runs_t r;
    double t1 = rv_now();
    if (rv_runs_get(x, c.build.threads, NULL, &r) < 0) {
        cli_data_error();
        cli_close_index(x, &c);
        return RV_EXIT_DATA;
    }
    if (o.timing)
        fprintf(stderr, "open\t%.3f\nruns\t%.3f\ncount\t%llu\n", t1 - t0, rv_now() - t1,
                (unsigned long long)r.n);
    if (o.out && cli_out_begin(o.out) < 0) {
        cli_close_index(x, &c);
        return RV_EXIT_DATA;
    }
    put_header();
    print_ctx_t pc = {s, stdout};
    if (!region) {
        for (uint64_t k = 0; k < r.n; k++) { /* by start: the reverse half's runs come last */
            rv_run_t run = rv_runs_at(&r, k);
            if (run.start >= hi) break;
            if (rv_run_passes(&o.f, &run)) print_run(&pc, &run);
        }
    } else {
        rv_runs_overlapping(&r, lo, hi, &o.f, print_run, &pc);
    }
    int rc = cli_out_end(o.out, cli_flush_output("tandem", RV_EXIT_OK));
    cli_close_index(x, &c);
    return rc;
}
