/* cli_find.c — `repview find`: matches of patterns on both strands, IUPAC codes,
 * k mismatches, as BED6+ (repview-find(1)).  With --mem-budget or under mpirun
 * the matches come from a scan of the text, range by range, with the patterns
 * filed under their prefix buckets (find.h "from the text alone") instead of an
 * index: the same output. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>
#include "repview/common.h"
#include "repview/gpu.h"
#include "repview/find.h"
#include "repview/part.h"
#include "cli.h"

static const char usage[] =
    "Usage: repview find [--strand both|+|-] [-k K] [-f PATTERNS.fa] [OPTIONS] FILE [PATTERN...]\n\n"
    "Every match of each PATTERN (and of each record of PATTERNS.fa) in FILE, as BED6+:\n"
    "  chrom start end pattern mismatches strand matched\n"
    "ordered by chrom (record order), start, strand.  0-based half-open; 'matched' is\n"
    "the text of FILE as read (forward strand, case kept); 'pattern' is the pattern as\n"
    "typed, or the record name for PATTERNS.fa.\n\n"
    "  --strand S   both, + or - (default: both for DNA, + otherwise); '-' hits are\n"
    "               matches of the reverse complement, on forward coordinates\n"
    "  -k K         allow up to K mismatches (Hamming; default 0)\n"
    "  -f FILE      patterns from a FASTA/FASTQ file (plain or gzip), read in batches\n"
    "  --count      one line per pattern instead: 'pattern count' (hits on both\n"
    "               strands; a position matched on both counts twice), patterns in\n"
    "               the order given (command line, then the file)\n"
    "  --search S   auto, sa or fm: how the patterns are searched (default auto:\n"
    "               fm from 20000 patterns, or with --gpu).  fm: DNA patterns with\n"
    "               K <= 3 go through an FM-index built from the suffix array — on\n"
    "               the GPU when one is usable, else in CPU threads — and those it\n"
    "               leaves through the suffix array (sa); the same output\n\n"
    "Patterns are case-insensitive; for DNA the IUPAC codes R Y S W K M B D H V N match\n"
    "their sets of bases (U = T); for protein X matches any residue.  Breakers (N runs,\n"
    "other non-ACGT bytes, record ends) never match.\n\n"
    "  -o, --output OUT  write to OUT (a temporary name, renamed when complete)\n\n"
    "Scale-out (no index: the text is scanned range by range, each pattern checked\n"
    "only where the first symbols of the text fit its prefix within K mismatches):\n"
    "  --mem-budget SIZE  use the scan (the memory is the text's, the patterns' and\n"
    "                     the hits'; at least 1m)\n"
    "  --buckets I/N      only slice I of N (1-based) of the text, written as a part\n"
    "                     file to -o PART; 'repview merge PART...' joins all N\n"
    "  mpirun -np N repview find ...  rank 0 hands out ranges of the text, ranks\n"
    "                     1..N-1 scan them, rank 0 writes: the same output\n";

typedef struct {
    rv_strand_t strand;
    int strand_set;
    uint64_t k;
    const char *file;
    uint64_t mem_budget; /* 0: none given */
    const char *out;
    uint64_t slice, n_slices; /* --buckets I/N (n_slices 0: none) */
    int count;           /* --count */
    int search;          /* --search: CLI_SEARCH_* */
} find_opts_t;

enum { OPT_STRAND = 1, OPT_MEM_BUDGET, OPT_BUCKETS, OPT_COUNT, OPT_SEARCH };

static int on_opt(int opt, const char *arg, void *ud)
{
    find_opts_t *o = ud;
    switch (opt) {
    case OPT_STRAND:
        if (rv_strand_parse(arg, &o->strand) == 0) { o->strand_set = 1; return 0; }
        cli_usage_error("find", "bad --strand '%s' (both, + or -)", arg);
        return -1;
    case 'k':
        if (front_parse_count(arg, &o->k) == 0 && o->k < 65536) return 0;
        cli_usage_error("find", "bad -k '%s' (mismatches, 0 to 65535)", arg);
        return -1;
    case 'f': o->file = arg; return 0;
    case OPT_COUNT: o->count = 1; return 0;
    case OPT_SEARCH:
        if (strcmp(arg, "auto") == 0) o->search = CLI_SEARCH_AUTO;
        else if (strcmp(arg, "sa") == 0) o->search = CLI_SEARCH_SA;
        else if (strcmp(arg, "fm") == 0) o->search = CLI_SEARCH_FM;
        else {
            cli_usage_error("find", "bad --search '%s' (auto, sa or fm)", arg);
            return -1;
        }
        return 0;
    case 'o': o->out = arg; return 0;
    case OPT_BUCKETS: return cli_parse_buckets("find", arg, &o->slice, &o->n_slices);
    case OPT_MEM_BUDGET:
        if (front_parse_count(arg, &o->mem_budget) == 0 && o->mem_budget >= 1000000) return 0;
        cli_usage_error("find", "bad --mem-budget '%s' (a size of at least 1m)", arg);
        return -1;
    }
    return -1;
}

/* The patterns with their names (as typed, or record names from -f), their
 * lengths, and a hash of their sequences in order (what a part's hits depend on). */
typedef struct {
    rv_pattern_t **pat; /* NULL entries in a set read back from a part */
    char **name;
    uint64_t *len;
    size_t n, cap;
    uint64_t hash;
} pattern_set_t;

/* Pattern p (may be NULL) named `name` of length len; seq: its sequence for the
 * hash (NULL: none). */
static int set_add(pattern_set_t *ps, rv_pattern_t *p, const char *name, uint64_t len, const char *seq)
{
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 16;
        rv_pattern_t **a = realloc(ps->pat, cap * sizeof *a);
        if (a) ps->pat = a;
        char **b = realloc(ps->name, cap * sizeof *b);
        if (b) ps->name = b;
        uint64_t *l = realloc(ps->len, cap * sizeof *l);
        if (l) ps->len = l;
        if (!a || !b || !l) return rv_error("find", "out of memory");
        ps->cap = cap;
    }
    if (seq) ps->hash = XXH3_64bits_withSeed(seq, (size_t)len, ps->hash + 1);
    ps->len[ps->n] = len;
    ps->name[ps->n] = strdup(name);
    ps->pat[ps->n++] = p;
    return ps->name[ps->n - 1] ? 0 : rv_error("find", "out of memory");
}

static void set_free(pattern_set_t *ps)
{
    for (size_t i = 0; i < ps->n; i++) {
        rv_find_free(ps->pat[i]);
        free(ps->name[i]);
    }
    free(ps->pat);
    free(ps->name);
    free(ps->len);
}

/* A pattern for the index x, or for the text of s when x is NULL. */
static rv_pattern_t *compile(const rv_index_t *x, const rv_seq_t *s, const char *pat, size_t len, const find_opts_t *o)
{
    return x ? rv_find_compile(x, pat, len, o->strand, (unsigned)o->k)
             : rv_find_compile_seq(s, pat, len, o->strand, (unsigned)o->k);
}

/* Patterns of the -f file; -1 with the message set (bad data: exit 1). */
static int read_pattern_file(const rv_index_t *x, const rv_seq_t *s, const find_opts_t *o, pattern_set_t *ps)
{
    rv_reads_t *r = rv_reads_open(o->file);
    if (!r) return -1;
    const char *name, *seq;
    size_t len;
    int rc;
    while ((rc = rv_reads_next(r, &name, &seq, &len)) > 0) {
        rv_pattern_t *p = compile(x, s, seq, len, o);
        if (!p) { rc = rv_error(o->file, "record '%s': %s", name, rv_last_error()); break; }
        if (set_add(ps, p, name, rv_find_length(p), seq) < 0) { rv_find_free(p); rc = -1; break; }
    }
    rv_reads_close(r);
    return rc;
}

/* The output of n sorted hits of the patterns ps: BED6+, or --count's lines. */
static int put_answer(const rv_seq_t *s, const pattern_set_t *ps, const rv_hit_t *h, int64_t n, int count,
                      int threads)
{
    const char **name = malloc((ps->n + 1) * sizeof *name);
    size_t *len = malloc((ps->n + 1) * sizeof *len);
    uint64_t *cnt = count ? calloc(ps->n + 1, sizeof *cnt) : NULL;
    if (!name || !len || (count && !cnt)) {
        free(name), free(len), free(cnt);
        return rv_error("find", "out of memory");
    }
    for (size_t i = 0; i < ps->n; i++) name[i] = ps->name[i], len[i] = (size_t)ps->len[i];
    cli_find_put_header(count);
    for (int64_t i = 0; count && i < n; i++) cnt[h[i].pattern]++;
    for (size_t i = 0; count && i < ps->n; i++) printf("%s\t%llu\n", name[i], (unsigned long long)cnt[i]);
    if (!count) cli_find_put_hits(s, name, len, h, n, threads);
    free(name), free(len), free(cnt);
    return 0;
}

/* The patterns of the command line and of -f for x (or s); the strand mode set
 * from the alphabet.  RV_EXIT_OK, or an exit code after printing the error. */
static int load_patterns(const rv_index_t *x, const rv_seq_t *s, int argc, char **argv, int first, find_opts_t *o,
                         const char *file, pattern_set_t *ps)
{
    if (s->alpha != RV_ALPHA_DNA) {
        if (o->strand_set && o->strand != RV_STRAND_FWD)
            return cli_usage_error("find", "--strand %s needs DNA (%s is %s)", o->strand == RV_STRAND_REV ? "-" : "both",
                                   file, rv_alpha_name(s->alpha));
        o->strand = RV_STRAND_FWD;
    }
    for (int j = first; j < argc; j++) {
        rv_pattern_t *p = compile(x, s, argv[j], strlen(argv[j]), o);
        if (!p) return cli_usage_error("find", "%s", rv_last_error());
        if (set_add(ps, p, argv[j], rv_find_length(p), argv[j]) < 0) { rv_find_free(p); return cli_data_error(); }
    }
    if (o->file && read_pattern_file(x, s, o, ps) < 0) return cli_data_error();
    return RV_EXIT_OK;
}

/* ---- under mpirun: rank 0 hands out ranges of the text, the others scan them ---- */

enum { RANGE_MIN = 1 << 20 };

typedef struct {
    const rv_find_text_t *f;
    uint64_t n, size; /* text length, symbols a range */
    int threads;
    uint64_t hits;    /* written so far */
} scan_t;

/* A worker's answer for range j: j, count, then per hit the position delta,
 * pattern, mismatches and strand (0 '+', 1 '-') as varints. */
static int scan_job(uint64_t j, FILE *out, void *ud)
{
    scan_t *w = ud;
    uint64_t lo = j * w->size < w->n ? j * w->size : w->n, hi = lo + w->size < w->n ? lo + w->size : w->n;
    rv_hit_t *h;
    int64_t m = rv_find_text_range(w->f, lo, hi, w->threads, &h);
    if (m < 0) return -1;
    cli_varint_put(out, j);
    cli_varint_put(out, (uint64_t)m);
    for (int64_t k = 0, prev = 0; k < m; prev = (int64_t)h[k++].pos) {
        cli_varint_put(out, h[k].pos - (uint64_t)prev);
        cli_varint_put(out, h[k].pattern);
        cli_varint_put(out, h[k].mism);
        cli_varint_put(out, h[k].strand == '-');
    }
    w->hits += (uint64_t)m;
    free(h);
    return 0;
}

typedef struct {
    rv_hit_t **hits;
    uint64_t *n, n_ranges, n_patterns;
} ranges_t;

/* The hits of one worker's file (or part's body) into their ranges. */
static int read_hits(FILE *f, void *ud)
{
    ranges_t *r = ud;
    uint64_t j, m, d, pat, mism, st;
    int rc = 0, got, bad = 0;
    while (rc == 0 && !bad && (got = cli_varint_get(f, &j)) == 1) {
        if (cli_varint_get(f, &m) != 1 || j >= r->n_ranges || r->hits[j] || m > (1ull << 40)) { bad = 1; break; }
        if (!(r->hits[j] = malloc((m ? m : 1) * sizeof **r->hits))) { rc = rv_error("find", "out of memory"); break; }
        r->n[j] = m;
        for (uint64_t k = 0, at = 0; !bad && k < m; k++) {
            if (cli_varint_get(f, &d) != 1 || cli_varint_get(f, &pat) != 1 || cli_varint_get(f, &mism) != 1 ||
                cli_varint_get(f, &st) != 1 || pat >= r->n_patterns)
                bad = 1;
            at += d;
            r->hits[j][k] = (rv_hit_t){at, (uint32_t)pat, (uint16_t)mism, st ? '-' : '+'};
        }
    }
    if (rc == 0 && !bad && got < 0) bad = 1;
    return bad ? rv_error("find", "a worker's hits do not read back") : rc;
}


/* Every range's hits came: all printed in order (put_answer).  0, or -1 with a
 * message when a range is missing. */
static int print_ranges(const rv_seq_t *s, const pattern_set_t *ps, const ranges_t *r, int count)
{
    for (uint64_t j = 0; j < r->n_ranges; j++)
        if (!r->hits[j]) return rv_error("find", "range %llu came back from no rank", (unsigned long long)j + 1);
    rv_hit_t *all = NULL;
    uint64_t total = 0;
    for (uint64_t j = 0; j < r->n_ranges; j++) total += r->n[j];
    if (!(all = malloc((total + 1) * sizeof *all))) return rv_error("find", "out of memory");
    for (uint64_t j = 0, at = 0; j < r->n_ranges; at += r->n[j], j++) memcpy(all + at, r->hits[j], r->n[j] * sizeof *all);
    int rc = put_answer(s, ps, all, (int64_t)total, count, 0); /* rank 0: every core */
    free(all);
    return rc;
}

static int mpi_master(const rv_seq_t *s, const pattern_set_t *ps, uint64_t n_ranges, int size, int quiet, int count)
{
    ranges_t r = {calloc(n_ranges, sizeof *r.hits), calloc(n_ranges, sizeof *r.n), n_ranges, ps->n};
    uint64_t *order = malloc(n_ranges * sizeof *order);
    int rc = r.hits && r.n && order ? 0 : rv_error("find", "out of memory");
    for (uint64_t j = 0; rc == 0 && j < n_ranges; j++) order[j] = j; /* ranges are alike: in order */
    if (rc == 0) rc = cli_mpi_collect(order, n_ranges, size, quiet, read_hits, &r);
    if (rc == 0) rc = print_ranges(s, ps, &r, count);
    for (uint64_t j = 0; r.hits && j < n_ranges; j++) free(r.hits[j]);
    free(r.hits), free(r.n), free(order);
    return rc;
}

static int cli_find_mpi(int argc, char **argv, int i, cli_common_t *c, find_opts_t *o)
{
    int rank = 0, size = 1;
    rv_seq_t *s;
    if (cli_mpi_start(argv[i], c, 0, &rank, &size, &s) < 0) return cli_data_error();
    pattern_set_t ps = {0};
    rv_find_text_t *f = NULL;
    /* every rank reads the same input and patterns: a failure here is every
     * rank's, and rank 0 reports it alone (the other ranks' stderr is muted while
     * the patterns, which report their own errors, are read) */
    int code = s ? RV_EXIT_OK : RV_EXIT_DATA, printed = 0;
    if (code == RV_EXIT_OK) {
        int saved = rank > 0 ? dup(2) : -1, null = saved >= 0 ? open("/dev/null", O_WRONLY) : -1;
        if (null >= 0) dup2(null, 2), close(null);
        code = load_patterns(NULL, s, argc, argv, i + 1, o, argv[i], &ps);
        if (saved >= 0) dup2(saved, 2), close(saved);
        printed = code != RV_EXIT_OK;
    }
    if (code == RV_EXIT_OK && !(f = rv_find_text_new(s, ps.pat, ps.n))) code = RV_EXIT_DATA;
    if (code != RV_EXIT_OK) {
        cli_mpi_fail_all(rank, code, printed);
        set_free(&ps);
        rv_seq_free(s);
        cli_mpi_finalize();
        return code;
    }
    const uint64_t workers = (uint64_t)(size - 1), n = s->n;
    uint64_t range = (n + 4 * workers - 1) / (4 * workers); /* about four ranges a worker */
    if (range < RANGE_MIN) range = RANGE_MIN;
    const uint64_t n_ranges = n ? (n + range - 1) / range : 1;
    if (rank == 0 && o->out && cli_out_begin(o->out) < 0) cli_mpi_abort(RV_EXIT_DATA); /* it printed why */
    scan_t w = {f, n, range, c->build.threads, 0};
    int rc = rank == 0 ? mpi_master(s, &ps, n_ranges, size, c->quiet, o->count) : cli_mpi_work(rank, scan_job, &w);
    code = cli_mpi_end(rank, rc, "find", o->out);
    rv_find_text_free(f);
    set_free(&ps);
    rv_seq_free(s);
    cli_mpi_finalize();
    return code;
}

/* ---- --buckets I/N: the hits of a slice of the text as a part file; merge ------- */

/* What a find part's hits and output depend on besides the text (part.h); the
 * patterns' names follow, each as its length (uint64_t), name length (uint64_t)
 * and bytes. */
typedef struct {
    uint64_t k, n_patterns, hash; /* mismatches; the patterns' sequences hashed */
    int64_t strand;
} find_part_opts_t;

/* The options of ps as a part's: a malloc()ed buffer of *bytes, NULL when out of memory. */
static unsigned char *part_opts(const find_opts_t *o, const pattern_set_t *ps, size_t *bytes)
{
    size_t b = sizeof(find_part_opts_t);
    for (size_t i = 0; i < ps->n; i++) b += 16 + strlen(ps->name[i]);
    unsigned char *buf = calloc(b, 1), *at = buf + sizeof(find_part_opts_t);
    if (!buf) return NULL;
    find_part_opts_t h = {o->k, ps->n, ps->hash, (int64_t)o->strand};
    memcpy(buf, &h, sizeof h);
    for (size_t i = 0; i < ps->n; i++) {
        const uint64_t nl = strlen(ps->name[i]);
        memcpy(at, &ps->len[i], 8), memcpy(at + 8, &nl, 8), memcpy(at + 16, ps->name[i], nl);
        at += 16 + nl;
    }
    *bytes = b;
    return buf;
}

static int find_part(const rv_seq_t *s, const pattern_set_t *ps, const find_opts_t *o, int threads)
{
    size_t bytes;
    unsigned char *opts = part_opts(o, ps, &bytes);
    rv_find_text_t *f = opts ? rv_find_text_new(s, ps->pat, ps->n) : NULL;
    rv_part_writer_t *w = f ? rv_part_writer_begin(o->out, RV_PART_FIND, o->slice, o->n_slices, s, opts, bytes) : NULL;
    int rc = w ? 0 : opts ? -1 : rv_error("find", "out of memory");
    if (w) {
        scan_t sc = {f, s->n, (s->n + o->n_slices - 1) / o->n_slices, threads, 0};
        rc = scan_job(o->slice, rv_part_writer_file(w), &sc);
        rc = rv_part_writer_end(w, sc.hits, 1, rc);
    }
    rv_find_text_free(f);
    free(opts);
    return rc;
}

int cli_find_merge(rv_part_t *const *parts, size_t n, const rv_seq_t *s, int count)
{
    size_t bytes;
    const unsigned char *opts = rv_part_opts(parts[0], &bytes), *end = opts + bytes;
    find_part_opts_t h;
    pattern_set_t ps = {0};
    int rc = 0;
    if (bytes < sizeof h) rc = -1;
    else memcpy(&h, opts, sizeof h), opts += sizeof h;
    for (uint64_t i = 0; rc == 0 && i < h.n_patterns; i++) { /* the names and lengths back */
        uint64_t len, nl;
        if ((size_t)(end - opts) < 16) { rc = -1; break; }
        memcpy(&len, opts, 8), memcpy(&nl, opts + 8, 8), opts += 16;
        char *name = (size_t)(end - opts) >= nl ? strndup((const char *)opts, (size_t)nl) : NULL;
        if (!name || set_add(&ps, NULL, name, len, NULL) < 0) rc = -1;
        free(name);
        opts += nl;
    }
    if (rc < 0 || opts != end) {
        set_free(&ps);
        return rv_error(rv_part_path(parts[0]), "a find part of another repview version");
    }
    ranges_t r = {calloc(n, sizeof *r.hits), calloc(n, sizeof *r.n), n, ps.n};
    if (!r.hits || !r.n) rc = rv_error("merge", "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        FILE *f = rv_part_body(parts[i]);
        rc = f ? read_hits(f, &r) : -1;
    }
    if (rc == 0) rc = print_ranges(s, &ps, &r, count);
    for (uint64_t j = 0; r.hits && j < n; j++) free(r.hits[j]);
    free(r.hits), free(r.n);
    set_free(&ps);
    return rc;
}

/* Seconds since this process started (/proc/self/stat, 10 ms ticks), for the
 * trace: what the command's wall clock spends before and after the work. */
static double since_exec(void)
{
    FILE *f = fopen("/proc/self/stat", "r");
    char buf[1024];
    size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[got] = 0;
    const char *p = strrchr(buf, ')'); /* fields after the command name */
    unsigned long long start = 0;
    for (int field = 2; p && *p && field < 22; p++)
        if (*p == ' ' && ++field == 22) start = strtoull(p + 1, NULL, 10);
    struct timespec ts;
    clock_gettime(CLOCK_BOOTTIME, &ts);
    long hz = sysconf(_SC_CLK_TCK);
    return start && hz > 0 ? (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec - (double)start / (double)hz : -1.0;
}

/* The CUDA context started (rv_gpu_probe creates it), its answer dropped: the
 * engine asks again when it chooses. */
static void *warm_gpu(void *arg)
{
    char name[64], why[128];
    (void)rv_gpu_probe(name, sizeof name, why, sizeof why);
    return arg;
}

int cli_find(int argc, char **argv)
{
    static const struct option own[] = {{"strand", required_argument, NULL, OPT_STRAND},
                                        {"file", required_argument, NULL, 'f'},
                                        {"mem-budget", required_argument, NULL, OPT_MEM_BUDGET},
                                        {"buckets", required_argument, NULL, OPT_BUCKETS},
                                        {"output", required_argument, NULL, 'o'},
                                        {"count", no_argument, NULL, OPT_COUNT},
                                        {"search", required_argument, NULL, OPT_SEARCH},
                                        {0, 0, 0, 0}};
    find_opts_t o = {RV_STRAND_BOTH, 0, 0, NULL, 0, NULL, 0, 0, 0, CLI_SEARCH_AUTO};
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "find", "k:f:o:", own, usage, on_opt, &o, &c, &code);
    if (i < 0) return code;
    c.verify = RV_SEC_SEQ_MASK | RV_SEC_BIT(RV_SEC_SA); /* what it reads */
    if (i >= argc) return cli_usage_error("find", "expected FILE [PATTERN...]");
    if (i + 1 == argc && !o.file) return cli_usage_error("find", "no pattern (give PATTERN... or -f PATTERNS.fa)");
    for (int j = i + 1; j < argc; j++)
        if (!*argv[j]) return cli_usage_error("find", "empty pattern");
    if ((code = cli_buckets_usage("find", o.n_slices, o.out, cli_mpi_ranks(), o.count)) != RV_EXIT_OK) return code;
    if (cli_mpi_ranks() > 1) return cli_find_mpi(argc, argv, i, &c, &o);
    rv_index_t *x = NULL;
    rv_seq_t *text = NULL;
    pthread_t warm;
    int warming = 0;
    if (o.mem_budget || o.n_slices) {
        if (!(text = cli_load_text(argv[i], &c))) return cli_data_error();
    } else {
        c.build.with_llr = 0;
        /* many patterns may go to the GPU: its context starts while the index opens */
        warming = o.file && o.search != CLI_SEARCH_SA && c.build.backend != RV_BACKEND_CPU &&
                            rv_gpu_compiled() && pthread_create(&warm, NULL, warm_gpu, NULL) == 0;
        const double t0 = rv_now();
        x = cli_open_index(argv[i], &c);
        const double t1 = rv_now();
        /* the first batch of patterns is read while the context starts (joined at
         * the end; the search waits for it in rv_gpu_probe) */
        if (warming && !x) pthread_join(warm, NULL), warming = 0;
        const char *tr = getenv("REPVIEW_FIND_TRACE");
        if (tr && *tr && *tr != '0')
            fprintf(stderr, "find\topen %.3f s\n", t1 - t0);
        if (!x) return RV_EXIT_DATA;
    }
    const rv_seq_t *s = x ? x->seq : text;
    pattern_set_t ps = {0};
    /* over an index only the command line's patterns are compiled here (a bad one
     * is a usage error); the file's are streamed */
    const char *file = o.file;
    if (x) o.file = NULL;
    int rc = load_patterns(x, s, argc, argv, i + 1, &o, argv[i], &ps);
    o.file = file;
    if (rc != RV_EXIT_OK) goto out;
    if (o.n_slices) { /* a part file, for `repview merge` */
        rc = find_part(s, &ps, &o, c.build.threads) < 0 ? cli_data_error() : RV_EXIT_OK;
        goto out;
    }
    if (o.out && cli_out_begin(o.out) < 0) {
        rc = RV_EXIT_DATA;
        goto out;
    }
    if (x) {
        cli_find_req_t q = {o.strand, (unsigned)o.k, o.count, o.search, argv + i + 1, argc - i - 1, o.file};
        rc = cli_find_stream(x, &q, &c);
        if (rc != RV_EXIT_OK) cli_data_error();
    } else {
        rv_hit_t *hits = NULL;
        int64_t n = -1;
        rv_find_text_t *f = rv_find_text_new(s, ps.pat, ps.n);
        if (f) n = rv_find_text_range(f, 0, s->n, c.build.threads, &hits);
        rv_find_text_free(f);
        rc = n < 0 || put_answer(s, &ps, hits, n, o.count, c.build.threads) < 0 ? cli_data_error() : RV_EXIT_OK;
        free(hits);
    }
    rc = cli_out_end(o.out, rc == RV_EXIT_OK ? cli_flush_output("find", RV_EXIT_OK) : rc);
out:
    if (warming) pthread_join(warm, NULL);
    set_free(&ps);
    rv_seq_free(text);
    const double t_close = rv_now();
    if (x) cli_close_index(x, &c);
    const char *tr = getenv("REPVIEW_FIND_TRACE");
    if (tr && *tr && *tr != '0')
        fprintf(stderr, "find\tindex closed %.3f s\tdone %.2f s after the process started\n", rv_now() - t_close,
                since_exec());
    return rc;
}
