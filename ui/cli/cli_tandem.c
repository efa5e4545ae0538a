/* cli_tandem.c — `repview tandem`: every run (exact tandem repeat) of FILE, or of
 * those overlapping REGION, as `chrom start end period copies motif` (SPEC §4). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
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
    "                   compute the runs, and the number of runs (all, unfiltered)\n"
    "  --cpu | --gpu    force a backend     -t, --threads N   CPU threads\n"
    "  --alphabet A     dna|protein|text    --quiet           no progress\n";

enum { OPT_MIN_PERIOD = 1, OPT_MAX_PERIOD, OPT_MIN_COPIES, OPT_MIN_LEN, OPT_TIMING };

typedef struct {
    rv_tandem_filter_t f;
    int timing;
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
    if (opt == OPT_MIN_COPIES) {
        if (parse_copies(arg, &f->min_copies) == 0) return 0;
        cli_usage_error("tandem", "bad --min-copies '%s'", arg);
        return -1;
    }
    const char *name = opt == OPT_MIN_PERIOD ? "--min-period" : opt == OPT_MAX_PERIOD ? "--max-period" : "--min-len";
    if (front_parse_count(arg, &v) < 0 || (v == 0 && opt != OPT_MIN_LEN)) {
        cli_usage_error("tandem", "bad %s '%s'", name, arg);
        return -1;
    }
    if (opt == OPT_MIN_PERIOD) f->min_period = v;
    else if (opt == OPT_MAX_PERIOD) f->max_period = v;
    else f->min_len = v;
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

/* The first text position whose global position is >= g (n when none): runs hold no
 * breaker, so a run overlaps global [gb, ge) iff it overlaps text [tb, te). */
static uint64_t text_at_or_after(const rv_seq_t *s, uint64_t g)
{
    uint64_t lo = 0, hi = s->n_seg; /* first segment ending after g */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (s->seg[mid].gpos + s->seg[mid].len <= g) lo = mid + 1; else hi = mid;
    }
    if (lo == s->n_seg) return rv_seq_fwd_len(s);
    const rv_segment_t *sg = &s->seg[lo];
    return g > sg->gpos ? sg->tpos + (g - sg->gpos) : sg->tpos;
}

int cli_tandem(int argc, char **argv)
{
    static const struct option own[] = {{"min-period", required_argument, NULL, OPT_MIN_PERIOD},
                                        {"max-period", required_argument, NULL, OPT_MAX_PERIOD},
                                        {"min-copies", required_argument, NULL, OPT_MIN_COPIES},
                                        {"min-len", required_argument, NULL, OPT_MIN_LEN},
                                        {"timing", no_argument, NULL, OPT_TIMING},
                                        {0, 0, 0, 0}};
    tandem_opts_t o = {.timing = 0};
    rv_tandem_filter_init(&o.f);
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "tandem", "", own, usage, on_opt, &o, &c, &code);
    if (i < 0) return code;
    c.verify = RV_SEC_SEQ_MASK | RV_SEC_BIT(RV_SEC_RUNS); /* what it reads */
    if (argc - i < 1 || argc - i > 2) return cli_usage_error("tandem", "expected FILE [REGION]");
    if (o.f.max_period < o.f.min_period) return cli_usage_error("tandem", "--max-period is below --min-period");
    c.build.with_llr = 0;
    double t0 = rv_now();
    rv_index_t *x = cli_open_index(argv[i], &c);
    if (!x) return RV_EXIT_DATA;
    const rv_seq_t *s = x->seq;
    uint64_t lo = 0, hi = rv_seq_fwd_len(x->seq), rid, beg, end; /* runs of the reverse half mirror these */
    if (argc - i == 2) {
        if (rv_seq_parse_region(s, argv[i + 1], &rid, &beg, &end) < 0) {
            cli_arg_error();
            cli_close_index(x, &c);
            return RV_EXIT_USAGE;
        }
        lo = text_at_or_after(s, s->rec[rid].off + beg);
        hi = text_at_or_after(s, s->rec[rid].off + end);
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
    static char obuf[1 << 20];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    printf("#chrom\tstart\tend\tperiod\tcopies\tmotif\n");
    print_ctx_t pc = {s, stdout};
    if (argc - i == 1) {
        for (uint64_t k = 0; k < r.n; k++) { /* by start: the reverse half's runs come last */
            rv_run_t run = rv_runs_at(&r, k);
            if (run.start >= hi) break;
            if (rv_run_passes(&o.f, &run)) print_run(&pc, &run);
        }
    } else {
        rv_runs_overlapping(&r, lo, hi, &o.f, print_run, &pc);
    }
    int rc = fflush(stdout) == 0 ? RV_EXIT_OK : RV_EXIT_DATA;
    if (rc) fprintf(stderr, "repview: tandem: write error: %s\n", strerror(errno));
    cli_close_index(x, &c);
    return rc;
}
