/* cli_overlap.c — `repview overlap`: for each query read, the longest prefix of it
 * (or of its reverse complement) occurring in FILE (repview-find(1); Zhong et al.).  Queries
 * are streamed in batches, so a million reads are never held at once. */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/find.h"
#include "cli.h"

static const char usage[] =
    "Usage: repview overlap [--strand both|+|-] -f QUERIES [OPTIONS] FILE\n\n"
    "For each query of QUERIES (FASTA or FASTQ, plain or gzip; '-' = stdin), the\n"
    "longest prefix of it (or of its reverse complement) that occurs in FILE:\n"
    "  query qlen len chrom start end strand\n"
    "one line per occurrence (the first 100 in FILE order), 0-based half-open, on\n"
    "forward coordinates; len 0 and '.' fields when not even the first base occurs.\n"
    "Letters that are breakers (N, IUPAC codes) end the prefix.\n\n"
    "  --strand S   both, + or - (default: both for DNA, + otherwise)\n"
    "  -f FILE      the queries (required)\n";

#define BATCH 4096

typedef struct {
    rv_strand_t strand;
    int strand_set;
    const char *file;
} overlap_opts_t;

enum { OPT_STRAND = 1 };

static int on_opt(int opt, const char *arg, void *ud)
{
    overlap_opts_t *o = ud;
    switch (opt) {
    case OPT_STRAND:
        if (rv_strand_parse(arg, &o->strand) == 0) { o->strand_set = 1; return 0; }
        cli_usage_error("overlap", "bad --strand '%s' (both, + or -)", arg);
        return -1;
    case 'f': o->file = arg; return 0;
    }
    return -1;
}

/* One batch of queries: names and sequences copied out of the reader. */
typedef struct {
    char *name[BATCH], *seq[BATCH];
    size_t len[BATCH], cap[BATCH], n;
    rv_overlap_t *res;
} batch_t;

static int batch_put(batch_t *b, const char *name, const char *seq, size_t len)
{
    size_t i = b->n;
    if (b->cap[i] < len + 1) {
        char *p = realloc(b->seq[i], len + 1);
        if (!p) return rv_error("overlap", "out of memory");
        b->seq[i] = p;
        b->cap[i] = len + 1;
    }
    memcpy(b->seq[i], seq, len + 1);
    free(b->name[i]);
    b->name[i] = strdup(name);
    b->len[i] = len;
    b->n++;
    return b->name[i] ? 0 : rv_error("overlap", "out of memory");
}

static void batch_print(const rv_index_t *x, const batch_t *b)
{
    const rv_seq_t *s = x->seq;
    for (size_t i = 0; i < b->n; i++) {
        const rv_overlap_t *r = &b->res[i];
        if (r->len == 0) {
            printf("%s\t%zu\t0\t.\t.\t.\t.\n", b->name[i], b->len[i]);
            continue;
        }
        for (size_t j = 0; j < r->n_hits; j++) {
            const uint64_t g = rv_seq_text_to_global(s, r->hits[j].pos);
            const rv_record_t *rec = &s->rec[rv_seq_record_of(s, g)];
            printf("%s\t%zu\t%llu\t%s\t%llu\t%llu\t%c\n", b->name[i], b->len[i], (unsigned long long)r->len,
                   rec->name, (unsigned long long)(g - rec->off), (unsigned long long)(g - rec->off + r->len),
                   r->hits[j].strand);
        }
    }
}

/* Stream the queries through rv_overlap_many() a batch at a time. */
static int run(const rv_index_t *x, const overlap_opts_t *o, int threads, batch_t *b)
{
    rv_reads_t *rd = rv_reads_open(o->file);
    if (!rd) return -1;
    const char *name, *seq;
    size_t len;
    int rc = 0, more = 1;
    printf("#query\tqlen\tlen\tchrom\tstart\tend\tstrand\n");
    while (more && rc == 0) {
        b->n = 0;
        while (b->n < BATCH && (more = rv_reads_next(rd, &name, &seq, &len)) > 0)
            if (batch_put(b, name, seq, len) < 0) { more = -1; break; }
        if (more < 0) rc = -1;
        if (rc == 0 && b->n) {
            rc = rv_overlap_many(x, (const char *const *)b->seq, b->len, b->n, o->strand, threads, b->res);
            if (rc == 0) batch_print(x, b);
        }
    }
    rv_reads_close(rd);
    return rc;
}

int cli_overlap(int argc, char **argv)
{
    static const struct option own[] = {{"strand", required_argument, NULL, OPT_STRAND},
                                        {"file", required_argument, NULL, 'f'},
                                        {0, 0, 0, 0}};
    overlap_opts_t o = {RV_STRAND_BOTH, 0, NULL};
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "overlap", "f:", own, usage, on_opt, &o, &c, &code);
    if (i < 0) return code;
    if (!o.file) return cli_usage_error("overlap", "no queries (give -f QUERIES.fa|fq)");
    if (argc - i != 1) return cli_usage_error("overlap", "expected one FILE");
    c.build.with_llr = 0;
    c.build.strands = 1; /* its SA search counts ranges: a both-strand index gives its forward view */
    rv_index_t *x = cli_open_index(argv[i], &c);
    if (!x) return RV_EXIT_DATA;
    int rc = RV_EXIT_OK;
    if (x->seq->alpha != RV_ALPHA_DNA) {
        if (o.strand_set && o.strand != RV_STRAND_FWD) {
            rc = cli_usage_error("overlap", "--strand %s needs DNA (%s is %s)",
                                 o.strand == RV_STRAND_REV ? "-" : "both", argv[i], rv_alpha_name(x->seq->alpha));
            cli_close_index(x, &c);
            return rc;
        }
        o.strand = RV_STRAND_FWD;
    }
    batch_t *b = calloc(1, sizeof *b);
    if (b) b->res = malloc(BATCH * sizeof *b->res);
    static char buf[1 << 20];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    if (!b || !b->res) {
        rv_error("overlap", "out of memory");
        rc = cli_data_error();
    } else if (run(x, &o, c.build.threads, b) < 0) rc = cli_data_error();
    fflush(stdout);
    if (b) {
        for (size_t k = 0; k < BATCH; k++) free(b->name[k]), free(b->seq[k]);
        free(b->res);
        free(b);
    }
    cli_close_index(x, &c);
    return rc;
}
