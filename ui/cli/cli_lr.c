/* cli_lr.c — `repview lr`: the longest repeats covering every position (repview-lr(1)),
 * streamed: the engine hands over batches of answers in order and they are
 * formatted straight into a buffer, so memory stays bounded by the index.  With
 * --mem-budget or under mpirun the LLRs come from prefix buckets of the text
 * (lr_buckets.h) instead of an index: the same output. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/gpu.h"
#include "repview/index.h"
#include "repview/lr.h"
#include "repview/lr_buckets.h"
#include "repview/part.h"
#include "cli.h"

static const char usage[] =
    "Usage: repview lr [--leftmost|--bedgraph] [--strands both|+] [OPTIONS] FILE [REGION]\n\n"
    "Longest repeats covering each position (Tian & Xu): for every position, the\n"
    "longest substrings that contain it and occur at least twice in FILE (copies may\n"
    "overlap or lie in other records; breakers such as N never belong to a repeat).\n"
    "REGION is samtools-style: chr, chr:beg-end (1-based, inclusive).\n\n"
    "Output (tab-separated, BED coordinates: 0-based, half-open):\n"
    "  default      chrom pos lr_start lr_end   one line per (position, LR)\n"
    "  --leftmost   same columns, only the leftmost LR of each position\n"
    "  --bedgraph   chrom start end lr_len      runs of positions with equal LR length\n"
    "Positions inside no repeat are left out.\n\n"
    "With --strands both (DNA) a repeat's other copy may also lie on the reverse\n"
    "strand (an inverted repeat); the LRs are then the longest over both strands,\n"
    "printed in forward coordinates with a fifth column, strands: where the other\n"
    "copies lie ('+' forward, '-' reverse strand, '+-' both; a palindrome that is\n"
    "its own reverse complement counts as '-').  --bedgraph prints those lengths.\n\n"
    "  -t, --threads N   worker threads (default: all cores)\n"
    "  -o, --output OUT  write to OUT (a temporary name, renamed when complete)\n\n"
    "Scale-out (prefix buckets, no index: the suffixes are grouped by their first\n"
    "k symbols and sorted job by job from the text; one strand):\n"
    "  --mem-budget SIZE  memory for the buckets' work (per rank under mpirun;\n"
    "                     k/m/g suffixes; default 1g under mpirun); the positions\n"
    "                     of REGION (all) take one more byte each\n"
    "  --buckets I/N      only slice I of N (1-based) of the jobs, written as a part\n"
    "                     file to -o PART; 'repview merge PART...' joins all N\n"
    "                     (every slice with the same options, -t and --mem-budget)\n"
    "  mpirun -np N repview lr ...  rank 0 hands out jobs largest first, ranks\n"
    "                     1..N-1 work, rank 0 writes: the same output\n";

enum { OPT_LEFTMOST = 1, OPT_BEDGRAPH, OPT_MEM_BUDGET, OPT_BUCKETS };

typedef struct {
    int leftmost, bedgraph;
    uint64_t mem_budget; /* 0: none given */
    uint64_t slice, n_slices; /* --buckets I/N (n_slices 0: none) */
    const char *out;
} lr_opts_t;

static int on_opt(int opt, const char *arg, void *ud)
{
    lr_opts_t *o = ud;
    if (opt == OPT_LEFTMOST) o->leftmost = 1;
    else if (opt == OPT_BEDGRAPH) o->bedgraph = 1;
    else if (opt == 'o') o->out = arg;
    else if (opt == OPT_BUCKETS) return cli_parse_buckets("lr", arg, &o->slice, &o->n_slices);
    else if (opt == OPT_MEM_BUDGET) {
        if (front_parse_count(arg, &o->mem_budget) < 0 || o->mem_budget < 1000000) {
            cli_usage_error("lr", "bad --mem-budget '%s' (a size of at least 1m)", arg);
            return -1;
        }
    } else return -1;
    return 0;
}

/* ---- output ------------------------------------------------------------------ */

typedef struct {
    const rv_seq_t *s;
    const rv_index_t *x;
    uint64_t last_start, last_len;  /* --strands both: the last LR's copy strands */
    int last_strands;
    FILE *out;
    char buf[1 << 16];
    size_t used;
    uint64_t seg, rec;              /* cursors: positions only increase */
    int bedgraph, open;             /* bedgraph run: */
    uint64_t run_rec, run_beg, run_end, run_len;
    int failed;
} writer_t;

static void put_str(writer_t *w, const char *p, size_t n)
{
    if (w->used + n > sizeof w->buf) {
        if (fwrite(w->buf, 1, w->used, w->out) != w->used) w->failed = 1;
        w->used = 0;
    }
    memcpy(w->buf + w->used, p, n);
    w->used += n;
}

static void put_u64(writer_t *w, uint64_t v, char sep)
{
    char tmp[24];
    int k = (int)sizeof tmp;
    tmp[--k] = sep;
    do tmp[--k] = (char)('0' + v % 10); while (v /= 10);
    put_str(w, tmp + k, sizeof tmp - (size_t)k);
}

static void put_name(writer_t *w, uint64_t rec)
{
    const char *name = w->s->rec[rec].name;
    put_str(w, name, strlen(name));
    put_str(w, "\t", 1);
}

static void flush_run(writer_t *w)
{
    if (!w->open) return;
    put_name(w, w->run_rec);
    put_u64(w, w->run_beg, '\t');
    put_u64(w, w->run_end, '\t');
    put_u64(w, w->run_len, '\n');
    w->open = 0;
}

/* Record-relative position of text position t (cursors move forward only). */
static uint64_t locate(writer_t *w, uint64_t t)
{
    const rv_seq_t *s = w->s;
    while (t >= s->seg[w->seg].tpos + s->seg[w->seg].len) w->seg++;
    uint64_t g = s->seg[w->seg].gpos + (t - s->seg[w->seg].tpos);
    while (g >= s->rec[w->rec].off + s->rec[w->rec].len) w->rec++;
    return g - s->rec[w->rec].off;
}

static int emit(void *ctx, const rv_lr_hit_t *h, size_t n)
{
    writer_t *w = ctx;
    for (size_t i = 0; i < n; i++) {
        uint64_t pos = locate(w, h[i].pos);
        if (w->bedgraph) { /* one hit per position (leftmost scan) */
            if (w->open && w->run_rec == w->rec && w->run_end == pos && w->run_len == h[i].len) {
                w->run_end++;
                continue;
            }
            flush_run(w);
            w->open = 1;
            w->run_rec = w->rec, w->run_beg = pos, w->run_end = pos + 1, w->run_len = h[i].len;
            continue;
        }
        /* an LR contains its position and has no breaker: same segment */
        uint64_t start = pos - (h[i].pos - h[i].start);
        put_name(w, w->rec);
        put_u64(w, pos, '\t');
        put_u64(w, start, '\t');
        put_u64(w, start + h[i].len, w->s->strands == 2 ? '\t' : '\n');
        if (w->s->strands == 2) { /* neighbouring positions share their LRs: ask once */
            if (h[i].start != w->last_start || h[i].len != w->last_len || !w->last_strands) {
                w->last_start = h[i].start, w->last_len = h[i].len;
                w->last_strands = rv_lr_copy_strands(w->x, h[i].start, h[i].len);
            }
            static const char *const word[4] = {".\n", "+\n", "-\n", "+-\n"};
            put_str(w, word[w->last_strands], strlen(word[w->last_strands]));
        }
    }
    return w->failed;
}

/* ---- all LRs on the GPU -------------------------------------------------------------- */

enum { GPU_MIN_POSITIONS = 1 << 20, GPU_BATCH = 1 << 16 };

/* Whether to ask the GPU: a usable one, 32-bit arrays, the LLR arrays, and enough
 * positions to pay for its start; --cpu (or REPVIEW_DEVICE=cpu) keeps the CPU. */
static int use_gpu(const rv_index_t *x, const cli_common_t *c, uint64_t positions)
{
    const char *dev = getenv("REPVIEW_DEVICE");
    if (c->build.backend == RV_BACKEND_CPU || (dev && strcmp(dev, "cpu") == 0)) return 0;
    if (!rv_gpu_compiled() || x->wide || !rv_index_section(x, RV_SEC_LLRC, NULL)) return 0;
    if (positions < GPU_MIN_POSITIONS && c->build.backend != RV_BACKEND_GPU) return 0;
    char name[80], why[160];
    return rv_gpu_probe(name, sizeof name, why, sizeof why);
}

/* The bedGraph of [lo, hi) from the LR length of every position: runs of equal
 * length found directly (a run never crosses a segment: breakers have no LR), the
 * lines those of emit()'s runs. */
static int bedgraph_runs(writer_t *w, const uint32_t *len, uint64_t lo, uint64_t hi)
{
    const rv_seq_t *s = w->s;
    for (uint64_t t = lo; t < hi && !w->failed;) {
        if (!len[t]) { t++; continue; }
        uint64_t pos = locate(w, t);
        const rv_segment_t *sg = &s->seg[w->seg];
        uint64_t end = sg->tpos + sg->len < hi ? sg->tpos + sg->len : hi, u = t + 1;
        while (u < end && len[u] == len[t]) u++;
        w->open = 1;
        w->run_rec = w->rec, w->run_beg = pos, w->run_end = pos + (u - t), w->run_len = len[t];
        flush_run(w);
        t = u;
    }
    return w->failed;
}

/* The answers of [lo, hi) from the GPU's all-LR arrays, through the same emit in the
 * same order as rv_lr_scan (a bedGraph needs only the lengths).  0, 1 when emit
 * stopped, or -1 with a message before the first answer (the caller then scans on
 * the CPU). */
static int scan_gpu(const rv_index_t *x, uint64_t lo, uint64_t hi, int leftmost, int lengths_only, writer_t *w)
{
    uint32_t *len = malloc(x->n * sizeof *len + 4), *off = NULL, *starts = NULL;
    if (!len || (!lengths_only && !(off = malloc((x->n + 1) * sizeof *off)))) {
        free(len);
        return rv_oom("lengths of the longest repeats", x->n * 8 + 8);
    }
    uint64_t hits = 0;
    double kernel_s = 0;
    int rc = rv_gpu_lr_all(x, len, off, lengths_only ? NULL : &starts, &hits, &kernel_s);
    rv_lr_hit_t *batch = rc == 0 ? malloc(GPU_BATCH * sizeof *batch) : NULL;
    if (rc == 0 && !batch) rc = rv_oom("batch of answers", GPU_BATCH * sizeof *batch);
    size_t k = 0;
    if (rc == 0 && lengths_only) rc = bedgraph_runs(w, len, lo, hi), lo = hi;
    for (uint64_t t = lo; rc == 0 && t < hi; t++) {
        if (!len[t]) continue;
        uint64_t first = lengths_only ? 0 : off[t], last = lengths_only ? 1 : leftmost ? off[t] + 1 : off[t + 1];
        for (uint64_t i = first; i < last && rc == 0; i++) {
            batch[k++] = (rv_lr_hit_t){t, lengths_only ? t : starts[i], len[t]};
            if (k == GPU_BATCH) {
                rc = emit(w, batch, k);
                k = 0;
            }
        }
    }
    if (rc == 0 && k) rc = emit(w, batch, k);
    free(batch);
    free(len);
    free(off);
    free(starts);
    return rc;
}

/* A writer to stdout, its header printed; NULL when out of memory (message set). */
static writer_t *writer_open(const rv_seq_t *s, const rv_index_t *x, int bedgraph)
{
    writer_t *w = calloc(1, sizeof *w);
    if (!w) { rv_oom("output", sizeof *w); return NULL; }
    w->s = s;
    w->x = x;
    w->out = stdout;
    w->bedgraph = bedgraph;
    fputs(bedgraph ? "#chrom\tstart\tend\tlr_len\n"
          : s->strands == 2 ? "#chrom\tpos\tlr_start\tlr_end\tstrands\n" : "#chrom\tpos\tlr_start\tlr_end\n",
          stdout);
    return w;
}

/* The last run and the buffer written: rc, or -1 with a message when writing
 * failed.  Frees w. */
static int writer_close(writer_t *w, int rc)
{
    flush_run(w);
    if (w->used && fwrite(w->buf, 1, w->used, w->out) != w->used) w->failed = 1;
    if (fflush(w->out) != 0 || ferror(w->out)) w->failed = 1;
    if (w->failed && rc >= 0) rc = rv_error("lr", "cannot write the output: %s", strerror(errno));
    free(w);
    return rc;
}

/* ---- under mpirun: rank 0 hands out jobs and keeps the window, the others work -- */

/* A worker's values go to a file (per job: count, then position deltas and L - k
 * as varints) that it sends to rank 0 at the end. */
typedef struct {
    FILE *f;
    uint64_t k, values;
} values_out_t;

static int values_put(void *ud, const rv_lr_t *v, uint64_t n)
{
    values_out_t *o = ud;
    o->values += n;
    cli_varint_put(o->f, n);
    for (uint64_t i = 0, prev = 0; i < n; prev = v[i++].start) {
        cli_varint_put(o->f, v[i].start - prev);
        cli_varint_put(o->f, v[i].len - o->k);
    }
    return ferror(o->f) ? rv_error("lr", "cannot write a transfer file: %s", strerror(errno)) : 0;
}

/* The values of one worker's file (or part's body) into the window. */
static int values_read(FILE *f, rv_lr_window_t *w, uint64_t k)
{
    rv_lr_t buf[4096];
    uint64_t n, d, l;
    int rc = 0, got;
    while (rc == 0 && (got = cli_varint_get(f, &n)) == 1) {
        for (uint64_t i = 0, pos = 0, m = 0; rc == 0 && i < n; i++) {
            if (cli_varint_get(f, &d) != 1 || cli_varint_get(f, &l) != 1) { rc = rv_error("lr", "a worker's values are cut short"); break; }
            pos += d;
            buf[m++] = (rv_lr_t){pos, l + k};
            if (m == sizeof buf / sizeof *buf || i + 1 == n) rc = rv_lr_window_add(w, buf, m), m = 0;
        }
    }
    if (rc == 0 && got < 0) rc = rv_error("lr", "a worker's values are cut short");
    return rc;
}

/* Every value in w: the LRs of its window printed, header first.  0, or -1 with a
 * message. */
static int window_print(rv_lr_window_t *w, const rv_seq_t *s, int leftmost, int bedgraph)
{
    writer_t *wr = writer_open(s, NULL, bedgraph);
    if (!wr) return -1;
    rv_lr_scan_opts_t so = {RV_LR_SWEEP, leftmost || bedgraph, 0};
    return writer_close(wr, rv_lr_window_scan(w, &so, emit, wr));
}

static int next_job(void *ctx, uint64_t *job) { return cli_mpi_next_job_of(*(const int *)ctx, job); }

static int mpi_worker(const rv_seq_t *s, const rv_bucket_plan_t *plan, uint64_t lo, uint64_t hi, int threads,
                      int rank)
{
    values_out_t o = {cli_mpi_temp_file(), (uint64_t)plan->k, 0};
    if (!o.f) return -1;
    return cli_mpi_send_temp(o.f, rv_lr_buckets_run(s, plan, NULL, 0, next_job, &rank, lo, hi, threads, values_put, &o));
}

static int mpi_master(const rv_seq_t *s, const rv_bucket_plan_t *plan, uint64_t lo, uint64_t hi, int size,
                      const lr_opts_t *o, int quiet)
{
    uint64_t *order = rv_bucket_jobs_largest_first(plan);
    if (!order) return rv_oom("order of the jobs", plan->n_jobs * sizeof *order);
    int rc = cli_mpi_serve_jobs(order, plan->n_jobs, size - 1, quiet);
    free(order);
    rv_lr_window_t *w = rc == 0 ? rv_lr_window_new(s, plan, lo, hi, 0) : NULL; /* the workers are done */
    if (!w) return -1;
    for (int r = 1; r < size && rc == 0; r++) {
        FILE *f = NULL;
        char name[64];
        snprintf(name, sizeof name, "rank %d's lengths", r);
        rc = cli_mpi_recv_file(r, name, cli_mpi_fopen, &f);
        if (rc == 0) rc = values_read(f, w, (uint64_t)plan->k);
        if (f) fclose(f);
    }
    if (rc == 0) rc = window_print(w, s, o->leftmost, o->bedgraph);
    rv_lr_window_free(w);
    return rc;
}

static int cli_lr_mpi(const char *file, const char *region, cli_common_t *c, const lr_opts_t *o)
{
    int rank = 0, size = 1, t_given = c->build.threads > 0;
    rv_seq_t *s;
    if (cli_mpi_start(file, c, 1, &rank, &size, &s) < 0) return cli_data_error();
    int rc = s ? 0 : -1, code = RV_EXIT_DATA;
    uint64_t lo = 0, hi = 0;
    if (rc == 0 && cli_text_range(s, region, &lo, &hi) < 0) rc = -1, code = RV_EXIT_USAGE;
    rv_bucket_plan_t plan = {0};
    const uint64_t workers = (uint64_t)(size - 1) * (uint64_t)c->build.threads;
    int ok = rc == 0 && (rank > 0 || rv_lr_bucket_plan(s, o->mem_budget, 0, workers, &plan) == 0);
    int shared = cli_mpi_share_plan(&plan, rank, size, ok) < 0;
    if (shared || rc < 0) {
        /* every rank reads the same input, so rank 0 has met the same trouble and
         * reports it alone; a rank whose own reading failed (rank 0 did not: the
         * plan came) reports that and ends the job as rank 0 would */
        cli_mpi_fail_all(shared ? rank : 0, code, 0);
        rv_bucket_plan_free(&plan);
        rv_seq_free(s);
        cli_mpi_finalize();
        return code;
    }
    if (rank == 0 && o->out && cli_out_begin(o->out) < 0) cli_mpi_abort(RV_EXIT_DATA); /* it printed why */
    int gpu = rank > 0 ? cli_mpi_bucket_gpu(s, c, "lr", rank) : 0; /* GPU ranks */
    int threads = gpu == 1 ? cli_mpi_gpu_threads(t_given, c->build.threads) : c->build.threads;
    if (gpu == 1) cli_mpi_job_batch(threads); /* short jobs, many threads: see cli_mpi_next_job */
    /* the CPU workers find their jobs' suffixes in job lists or a job map of the host */
    cli_mpi_share_map(s, &plan, rv_bucket_map_budget(o->mem_budget), rank > 0 && gpu == 0,
                      rank == 0 ? rv_default_threads() : threads);
    if (gpu < 0) rc = -1;
    else rc = rank == 0 ? mpi_master(s, &plan, lo, hi, size, o, c->quiet)
                        : mpi_worker(s, &plan, lo, hi, threads, rank);
    code = cli_mpi_end(rank, rc, "lr", o->out);
    rv_bucket_gpu_end();
    rv_bucket_plan_free(&plan);
    rv_seq_free(s);
    cli_mpi_finalize();
    return code;
}

/* ---- --buckets I/N: the values of a slice's jobs as a part file; merge ---------- */

/* What an lr part's values and output depend on besides the text (part.h): the
 * plan's cut (-t and --mem-budget shape it) must be the same in every slice; the
 * merge needs only its k and bucket counts, which the text fixes. */
typedef struct {
    uint64_t lo, hi;            /* REGION's text range */
    uint64_t k, plan;           /* the plan's prefix length and hash */
    int64_t mode;               /* 0 all LRs, 1 leftmost, 2 bedgraph */
} lr_part_opts_t;

static int lr_part(const char *file, const char *region, cli_common_t *c, const lr_opts_t *o)
{
    rv_seq_t *s;
    lr_part_opts_t po;
    memset(&po, 0, sizeof po);
    int code = cli_open_text(file, region, c, "lr", &s, &po.lo, &po.hi);
    if (code != RV_EXIT_OK) return code;
    const int threads = c->build.threads > 0 ? c->build.threads : rv_default_threads();
    po.mode = o->bedgraph ? 2 : o->leftmost;
    rv_bucket_plan_t plan = {0};
    uint64_t *mine = NULL, n_mine = 0;
    int rc = rv_lr_bucket_plan(s, o->mem_budget, threads, o->n_slices * (uint64_t)threads, &plan);
    if (rc == 0 && !(mine = rv_bucket_slice_jobs(&plan, o->slice, o->n_slices, &n_mine))) rc = -1;
    po.k = (uint64_t)plan.k, po.plan = rv_bucket_plan_hash(&plan);
    rv_part_writer_t *w = rc == 0 ? rv_part_writer_begin(o->out, RV_PART_LR, o->slice, o->n_slices, s, &po, sizeof po)
                                  : NULL;
    if (w) {
        values_out_t vo = {rv_part_writer_file(w), (uint64_t)plan.k, 0};
        rc = rv_lr_buckets_run(s, &plan, mine, n_mine, NULL, NULL, po.lo, po.hi, threads, values_put, &vo);
        rc = rv_part_writer_end(w, vo.values, 1, rc);
    } else {
        rc = -1;
    }
    free(mine);
    rv_bucket_plan_free(&plan);
    rv_bucket_gpu_end();
    rv_seq_free(s);
    return rc < 0 ? cli_data_error() : RV_EXIT_OK;
}

int cli_lr_merge(rv_part_t *const *parts, size_t n, const rv_seq_t *s, int threads)
{
    size_t bytes;
    const lr_part_opts_t *po = rv_part_opts(parts[0], &bytes);
    if (bytes != sizeof *po) return rv_error(rv_part_path(parts[0]), "an lr part of another repview version");
    rv_bucket_plan_t plan; /* for its k and counts: any cut will do */
    if (rv_lr_bucket_plan(s, 0, threads, 1, &plan) < 0) return -1;
    int rc = (uint64_t)plan.k == po->k ? 0
           : rv_error("merge", "the buckets of %s are not those of its parts", rv_part_input(parts[0]));
    rv_lr_window_t *w = rc == 0 ? rv_lr_window_new(s, &plan, po->lo, po->hi, threads) : NULL;
    if (rc == 0 && !w) rc = -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        FILE *f = rv_part_body(parts[i]);
        rc = f ? values_read(f, w, (uint64_t)plan.k) : -1;
    }
    if (rc == 0) rc = window_print(w, s, po->mode == 1, po->mode == 2);
    rv_lr_window_free(w);
    rv_bucket_plan_free(&plan);
    return rc;
}

/* ---- the command ---------------------------------------------------------------- */

/* LRs of REGION from prefix buckets of the text (--mem-budget, no index). */
static int lr_buckets(const char *file, const char *region, cli_common_t *c, const lr_opts_t *o)
{
    rv_seq_t *s;
    uint64_t lo, hi;
    int code = cli_open_text(file, region, c, "lr", &s, &lo, &hi);
    if (code != RV_EXIT_OK) return code;
    int rc = o->out && cli_out_begin(o->out) < 0 ? RV_EXIT_DATA : RV_EXIT_OK;
    writer_t *w = rc == RV_EXIT_OK ? writer_open(s, NULL, o->bedgraph) : NULL;
    if (rc == RV_EXIT_OK) {
        rv_lr_scan_opts_t so = {RV_LR_SWEEP, o->leftmost || o->bedgraph, c->build.threads};
        if (!w || writer_close(w, rv_lr_buckets_scan(s, lo, hi, o->mem_budget, &so, emit, w)) < 0)
            rc = cli_data_error();
    }
    rc = cli_out_end(o->out, rc);
    rv_bucket_gpu_end();
    rv_seq_free(s);
    return rc;
}

int cli_lr(int argc, char **argv)
{
    static const struct option own[] = {{"leftmost", no_argument, NULL, OPT_LEFTMOST},
                                        {"bedgraph", no_argument, NULL, OPT_BEDGRAPH},
                                        {"mem-budget", required_argument, NULL, OPT_MEM_BUDGET},
                                        {"buckets", required_argument, NULL, OPT_BUCKETS},
                                        {"output", required_argument, NULL, 'o'},
                                        {0, 0, 0, 0}};
    lr_opts_t o = {0};
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "lr", "o:", own, usage, on_opt, &o, &c, &code);
    if (i < 0) return code;
    c.verify = RV_SEC_SEQ_MASK | RV_SEC_BIT(RV_SEC_LLR) | RV_SEC_BIT(RV_SEC_LLRC) |
               RV_SEC_BIT(RV_SEC_LLR_BIG); /* what it reads */
    if (o.leftmost && o.bedgraph) return cli_usage_error("lr", "--leftmost and --bedgraph exclude each other");
    if (argc - i < 1 || argc - i > 2) return cli_usage_error("lr", "expected FILE [REGION]");
    if (c.strands == -1) return cli_usage_error("lr", "--strands must be both or +");
    const char *region = argc - i == 2 ? argv[i + 1] : NULL;
    int ranks = cli_mpi_ranks();
    if ((o.mem_budget || o.n_slices || ranks > 1) && c.strands == 2)
        return cli_usage_error("lr", "--strands both needs the index (no --mem-budget, --buckets or mpirun)");
    if ((code = cli_buckets_usage("lr", o.n_slices, o.out, cli_mpi_ranks(), 0)) != RV_EXIT_OK) return code;
    if (o.n_slices) return lr_part(argv[i], region, &c, &o);
    if (ranks > 1) return cli_lr_mpi(argv[i], region, &c, &o);
    if (o.mem_budget) return lr_buckets(argv[i], region, &c, &o);
    c.build.strands = c.strands == 2 ? 2 : 1; /* a both-strand FILE.rvx answers + too */
    rv_index_t *x = cli_open_index(argv[i], &c);
    if (x && x->seq->strands == 2 && rv_index_verify(x, RV_SEC_CORE_MASK, c.build.threads) < 0)
        x = cli_reopen(x, argv[i], &c); /* the strands column looks up the copies in SA, ISA, LCP */
    if (!x) return RV_EXIT_DATA;
    const rv_seq_t *s = x->seq;
    uint64_t lo, hi;
    if (cli_text_range(s, region, &lo, &hi) < 0) {
        int rc = cli_arg_error();
        cli_close_index(x, &c);
        return rc;
    }
    if (o.out && cli_out_begin(o.out) < 0) {
        cli_close_index(x, &c);
        return RV_EXIT_DATA;
    }
    writer_t *w = writer_open(s, x, o.bedgraph);
    int rc = w ? 0 : -1;
    rv_lr_scan_opts_t so = {RV_LR_SWEEP, o.leftmost || o.bedgraph, c.build.threads};
    if (rc == 0 && lo < hi) {
        rc = use_gpu(x, &c, hi - lo) ? scan_gpu(x, lo, hi, o.leftmost, o.bedgraph, w) : -2;
        if (rc == -1 && !c.quiet) fprintf(stderr, "repview: %s; scanning on the CPU\n", rv_last_error());
        if (rc < 0) rc = rv_lr_scan(x, lo, hi, &so, emit, w, NULL);
    }
    if (w) rc = writer_close(w, rc);
    code = rc < 0 ? cli_data_error() : RV_EXIT_OK;
    code = cli_out_end(o.out, code);
    cli_close_index(x, &c);
    return code;
}
