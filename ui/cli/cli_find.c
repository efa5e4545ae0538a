/* cli_find.c — `repview find`: matches of patterns on both strands, IUPAC codes,
 * k mismatches, as BED6+ (SPEC §3 "Match", §4). */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/find.h"
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
    "  -f FILE      patterns from a FASTA/FASTQ file (plain or gzip)\n\n"
    "Patterns are case-insensitive; for DNA the IUPAC codes R Y S W K M B D H V N match\n"
    "their sets of bases (U = T); for protein X matches any residue.  Breakers (N runs,\n"
    "other non-ACGT bytes, record ends) never match.\n";

typedef struct {
    rv_strand_t strand;
    int strand_set;
    uint64_t k;
    const char *file;
} find_opts_t;

enum { OPT_STRAND = 1 };

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
    }
    return -1;
}

/* The patterns with their names (as typed, or record names from -f). */
typedef struct {
    rv_pattern_t **pat;
    char **name;
    size_t n, cap;
} pattern_set_t;

static int set_add(pattern_set_t *ps, rv_pattern_t *p, const char *name)
{
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 16;
        rv_pattern_t **a = realloc(ps->pat, cap * sizeof *a);
        if (a) ps->pat = a;
        char **b = realloc(ps->name, cap * sizeof *b);
        if (b) ps->name = b;
        if (!a || !b) return rv_error("find", "out of memory");
        ps->cap = cap;
    }
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
}

/* Patterns of the -f file; -1 with the message set (bad data: exit 1). */
static int read_pattern_file(const rv_index_t *x, const find_opts_t *o, pattern_set_t *ps)
{
    rv_reads_t *r = rv_reads_open(o->file);
    if (!r) return -1;
    const char *name, *seq;
    size_t len;
    int rc;
    while ((rc = rv_reads_next(r, &name, &seq, &len)) > 0) {
        rv_pattern_t *p = rv_find_compile(x, seq, len, o->strand, (unsigned)o->k);
        if (!p) { rc = rv_error(o->file, "record '%s': %s", name, rv_last_error()); break; }
        if (set_add(ps, p, name) < 0) { rv_find_free(p); rc = -1; break; }
    }
    rv_reads_close(r);
    return rc;
}

static void print_hits(const rv_index_t *x, const pattern_set_t *ps, const rv_hit_t *h, int64_t n)
{
    const rv_seq_t *s = x->seq;
    printf("#chrom\tstart\tend\tpattern\tmismatches\tstrand\tmatched\n");
    for (int64_t i = 0; i < n; i++) {
        const uint64_t g = rv_seq_text_to_global(s, h[i].pos);
        const uint64_t m = rv_find_length(ps->pat[h[i].pattern]);
        const rv_record_t *rec = &s->rec[rv_seq_record_of(s, g)];
        printf("%s\t%llu\t%llu\t%s\t%u\t%c\t", rec->name, (unsigned long long)(g - rec->off),
               (unsigned long long)(g - rec->off + m), ps->name[h[i].pattern], (unsigned)h[i].mism,
               h[i].strand);
        fwrite(s->raw + g, 1, m, stdout);
        putchar('\n');
    }
}

int cli_find(int argc, char **argv)
{
    static const struct option own[] = {{"strand", required_argument, NULL, OPT_STRAND},
                                        {"file", required_argument, NULL, 'f'},
                                        {0, 0, 0, 0}};
    find_opts_t o = {RV_STRAND_BOTH, 0, 0, NULL};
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "find", "k:f:", own, usage, on_opt, &o, &c, &code);
    if (i < 0) return code;
    c.verify = RV_SEC_SEQ_MASK | RV_SEC_BIT(RV_SEC_SA); /* what it reads */
    if (i >= argc) return cli_usage_error("find", "expected FILE [PATTERN...]");
    if (i + 1 == argc && !o.file) return cli_usage_error("find", "no pattern (give PATTERN... or -f PATTERNS.fa)");
    for (int j = i + 1; j < argc; j++)
        if (!*argv[j]) return cli_usage_error("find", "empty pattern");
    c.build.with_llr = 0;
    rv_index_t *x = cli_open_index(argv[i], &c);
    if (!x) return RV_EXIT_DATA;
    int rc = RV_EXIT_OK;
    pattern_set_t ps = {0};
    if (x->seq->alpha != RV_ALPHA_DNA) {
        if (o.strand_set && o.strand != RV_STRAND_FWD) {
            rc = cli_usage_error("find", "--strand %s needs DNA (%s is %s)", o.strand == RV_STRAND_REV ? "-" : "both",
                                 argv[i], rv_alpha_name(x->seq->alpha));
            goto out;
        }
        o.strand = RV_STRAND_FWD;
    }
    for (int j = i + 1; j < argc; j++) {
        rv_pattern_t *p = rv_find_compile(x, argv[j], strlen(argv[j]), o.strand, (unsigned)o.k);
        if (!p) { rc = cli_usage_error("find", "%s", rv_last_error()); goto out; }
        if (set_add(&ps, p, argv[j]) < 0) { rv_find_free(p); rc = cli_data_error(); goto out; }
    }
    if (o.file && read_pattern_file(x, &o, &ps) < 0) { rc = cli_data_error(); goto out; }
    rv_hit_t *hits;
    int64_t n = rv_find_many(x, ps.pat, ps.n, c.build.threads, &hits);
    if (n < 0) { rc = cli_data_error(); goto out; }
    static char buf[1 << 20];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    print_hits(x, &ps, hits, n);
    free(hits);
    fflush(stdout);
out:
    set_free(&ps);
    cli_close_index(x, &c);
    return rc;
}
