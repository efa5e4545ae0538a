/* cli_sa.c — `repview sa`: the suffix-array teaching table (rank, SA, LCP, suffix). */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "cli.h"

static const char usage[] =
    "Usage: repview sa --string STR [OPTIONS]\n"
    "       repview sa [--around POS] [--rows N] [OPTIONS] FILE\n\n"
    "Print the suffix array as a table: rank sa lcp suffix (0-based ranks and\n"
    "positions; LCP[0] = 0, LCP[r] = lcp(SA[r-1], SA[r]) stopping at breakers;\n"
    "suffix truncated to 60 characters, breakers shown as '$').\n"
    "For FILE, sa is the 0-based position in all records laid end to end; a row\n"
    "whose suffix starts with a record end (not an N) has sa '.'.\n\n"
    "With --strands both (DNA) the table is that of the text, a breaker and its\n"
    "reverse complement, with a fifth column strand: a '-' row is a suffix of the\n"
    "reverse strand, its sa the forward position of its first base (read leftwards),\n"
    "its suffix the reverse complement; an inverted repeat shows as a '+' and a '-'\n"
    "row next to each other.\n\n"
    "  --string STR   index STR itself (all rows)\n"
    "  --around POS   rows around the suffix starting at POS (1-based, NAME:POS or POS)\n"
    "  --rows N       number of rows for FILE (default 20; 0 = all)\n";

typedef struct {
    const char *string, *around;
    uint64_t rows;
    int rows_set;
} sa_opts_t;

enum { OPT_STRING = 1, OPT_AROUND, OPT_ROWS };

static int on_opt(int opt, const char *arg, void *ud)
{
    sa_opts_t *o = ud;
    switch (opt) {
    case OPT_STRING: o->string = arg; return 0;
    case OPT_AROUND: o->around = arg; return 0;
    case OPT_ROWS:
        o->rows_set = 1;
        if (front_parse_count(arg, &o->rows) == 0) return 0;
        cli_usage_error("sa", "bad --rows '%s'", arg);
        return -1;
    }
    return -1;
}

/* Up to 60 characters of the suffix at text position t, as read (case kept). */
static void put_suffix(FILE *out, const rv_seq_t *s, uint64_t t)
{
    const uint64_t nf = rv_seq_fwd_len(s); /* the reverse strand has no bytes as read */
    uint64_t k = t < nf ? rv_seq_segment_of_text(s, t) : 0;
    for (int c = 0; c < 60 && t < s->n; c++, t++) {
        if (s->text[t] == RV_BREAK) { putc('$', out); continue; }
        if (t >= nf) { putc(rv_alpha_letter(s->alpha, s->text[t]), out); continue; }
        while (k < s->n_seg && t >= s->seg[k].tpos + s->seg[k].len) k++;
        putc(s->raw[s->seg[k].gpos + (t - s->seg[k].tpos)], out);
    }
}

/* The sa column: the global position of the suffix's first symbol.  A breaker that
 * stands for an N run starts at the run's first byte; one that only marks a record
 * end has no byte of its own and prints "." (so the column never repeats). */
static void put_sa(FILE *out, const rv_seq_t *s, uint64_t t)
{
    if (s->strands == 2 && t >= s->nf) { /* base t of the reverse half complements 2nf - t */
        if (t == s->nf) { fputs(".", out); return; }
        t = 2 * s->nf - t;
    }
    uint64_t g = rv_seq_text_to_global(s, t);
    if (s->text[t] == RV_BREAK) {
        if (s->strands == 2 && t + 1 < s->n && 2 * s->nf - t < s->nf) { /* its record end, left side */
            uint64_t k = rv_seq_segment_of_text(s, t + 1);
            if (g == s->seg[k].gpos) { fputs(".", out); return; }
        }
        uint64_t k = rv_seq_segment_of_text(s, t) - 1; /* the segment before the breaker */
        const rv_record_t *r = &s->rec[rv_seq_record_of(s, s->seg[k].gpos)];
        if (g >= r->off + r->len) { fputs(".", out); return; }
    }
    fprintf(out, "%llu", (unsigned long long)g);
}

enum { ROWS_OK = 0, ROWS_BAD_POS, ROWS_DAMAGED };

/* Verify what printing ranks [lo, hi) reads: a few blocks of the huge sections when
 * the rows are few (the first answer of a huge index does not wait for all of it). */
static int verify_rows(rv_index_t *x, uint64_t lo, uint64_t hi)
{
    const uint64_t w = x->wide ? 8 : 4;
    if (hi - lo > (1u << 16)) return rv_index_verify(x, RV_SEC_SEQ_MASK | RV_SEC_CORE_MASK, 0);
    if (rv_index_verify_part(x, RV_SEC_SA, lo * w, (hi - lo) * w) < 0 ||
        rv_index_verify_part(x, RV_SEC_LCP, lo, hi - lo) < 0 ||
        rv_index_verify(x, RV_SEC_BIT(RV_SEC_LCP_BIG), 0) < 0)
        return -1;
    const rv_seq_t *s = x->seq;
    for (uint64_t r = lo; r < hi; r++) { /* put_sa and put_suffix: 60 symbols, their bytes */
        uint64_t t = rv_sa(x, r), e = t + 61 < x->n ? t + 61 : x->n;
        uint64_t g0 = rv_seq_text_to_global(s, t), g1 = rv_seq_text_to_global(s, e - 1);
        g0 = g0 > 64 ? g0 - 64 : 0; /* breakers at either end map next to their bytes */
        if (rv_index_verify_part(x, RV_SEC_TEXT, t, e - t) < 0 ||
            rv_index_verify_part(x, RV_SEC_RAW, g0, g1 + 64 - g0) < 0)
            return -1;
    }
    return 0;
}

/* The ranks to print, [lo, hi), with what they read verified. */
static int rows_of(rv_index_t *x, const sa_opts_t *o, uint64_t *lo, uint64_t *hi)
{
    *lo = 0;
    *hi = x->n;
    if (o->around) {
        const rv_seq_t *s = x->seq;
        int64_t g = rv_seq_parse_pos(s, o->around);
        int64_t t = g < 0 ? -1 : rv_seq_global_to_text(s, (uint64_t)g);
        if (g < 0 || t < 0) {
            if (g >= 0) rv_error(o->around, "is a breaker, not part of any suffix");
            return ROWS_BAD_POS;
        }
        const uint64_t w = x->wide ? 8 : 4;
        if (rv_index_verify_part(x, RV_SEC_ISA, (uint64_t)t * w, w) < 0) return ROWS_DAMAGED;
        uint64_t r = rv_isa(x, (uint64_t)t);
        if (o->rows) {
            *lo = r > o->rows / 2 ? r - o->rows / 2 : 0;
            *hi = *lo + o->rows < x->n ? *lo + o->rows : x->n;
            *lo = *hi > o->rows ? *hi - o->rows : 0;
        }
    } else if (o->rows && o->rows < x->n) {
        *hi = o->rows;
    }
    return verify_rows(x, *lo, *hi) < 0 ? ROWS_DAMAGED : ROWS_OK;
}

int cli_sa(int argc, char **argv)
{
    static const struct option own[] = {{"string", required_argument, NULL, OPT_STRING},
                                        {"around", required_argument, NULL, OPT_AROUND},
                                        {"rows", required_argument, NULL, OPT_ROWS},
                                        {0, 0, 0, 0}};
    sa_opts_t o = {NULL, NULL, 20, 0};
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "sa", "", own, usage, on_opt, &o, &c, &code);
    if (i < 0) return code;
    c.verify = RV_SEC_BIT(RV_SEC_RECORDS); /* checked at open; rows_of() verifies the rest */
    c.build.with_llr = 0;
    if (c.strands == -1) return cli_usage_error("sa", "--strands must be both or +");
    c.build.strands = c.strands == 2 ? 2 : 1;
    rv_index_t *x;
    if (o.string) {
        if (argc != i) return cli_usage_error("sa", "give either --string or FILE");
        if (o.around) return cli_usage_error("sa", "--around needs FILE");
        if (!*o.string) return cli_usage_error("sa", "empty --string");
        rv_seq_t *s = rv_seq_from_string(o.string, strlen(o.string), c.alpha, "string");
        x = s ? rv_build(s, &c.build, NULL) : NULL;
        if (!x) return cli_data_error();
        if (!o.rows_set) o.rows = 0;
    } else {
        if (argc - i != 1) return cli_usage_error("sa", "expected --string STR or one FILE");
        x = cli_open_index(argv[i], &c);
        if (!x) return RV_EXIT_DATA;
    }
    uint64_t lo = 0, hi = 0;
    int rc;
    while ((rc = rows_of(x, &o, &lo, &hi)) == ROWS_DAMAGED) /* a damaged file: rebuilt */
        if (!(x = cli_reopen(x, argv[i], &c))) return RV_EXIT_DATA;
    if (rc == ROWS_BAD_POS) {
        cli_arg_error();
        cli_close_index(x, &c);
        return RV_EXIT_USAGE;
    }
    const rv_seq_t *s = x->seq;
    printf(s->strands == 2 ? "#rank\tsa\tlcp\tsuffix\tstrand\n" : "#rank\tsa\tlcp\tsuffix\n");
    for (uint64_t r = lo; r < hi; r++) {
        uint64_t t = rv_sa(x, r);
        printf("%llu\t", (unsigned long long)r);
        put_sa(stdout, s, t);
        printf("\t%llu\t", (unsigned long long)rv_lcp(x, r));
        put_suffix(stdout, s, t);
        if (s->strands == 2) fputs(t < s->nf ? "\t+" : t == s->nf ? "\t." : "\t-", stdout);
        putchar('\n');
    }
    cli_close_index(x, &c);
    return RV_EXIT_OK;
}
