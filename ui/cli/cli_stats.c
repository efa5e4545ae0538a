/* cli_stats.c — `repview stats FILE`: records, lengths, breakers, index state. */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "cli.h"

static const char usage[] =
    "Usage: repview stats [OPTIONS] FILE\n\n"
    "Summary lines (starting with '# ') then one row per record:\n"
    "  name length matching breakers breaker_runs soft_masked\n"
    "matching = symbols of the alphabet, breakers = everything else (see repview(1)),\n"
    "breaker_runs = maximal breaker runs, soft_masked = lower-case symbols.\n"
    "The index state says whether FILE.rvx exists and matches FILE; strands says\n"
    "whether the index holds the forward strand or both (repview index --strands).\n";

int cli_stats(int argc, char **argv)
{
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "stats", "", NULL, usage, NULL, NULL, &c, &code);
    if (i < 0) return code;
    if (argc - i != 1) return cli_usage_error("stats", "expected one FILE");
    c.verify = RV_SEC_BIT(RV_SEC_RAW); /* it reads the sequence as read, and the record table */
    const char *path = argv[i];
    rv_index_t *x;
    rv_seq_t *owned;
    const rv_seq_t *s = cli_open_seq(path, &c, &x, &owned);
    if (!s) return RV_EXIT_DATA;

    char state[600];
    if (x) {
        uint64_t b = x->map ? x->map_len : rv_index_bytes(x);
        snprintf(state, sizeof state, "%s.rvx up to date, %.1f MB (%.1f bytes per indexed symbol)", path,
                 (double)b / 1e6, x->n ? (double)b / (double)x->n : 0.0);
    } else if (strcmp(path, "-") == 0) {
        snprintf(state, sizeof state, "none (standard input)");
    } else {
        char *rvx = rv_index_path_for(path);
        rv_index_t *tmp = NULL;
        rv_rvx_status_t st = rv_index_load(rvx, path, &tmp);
        if (st == RV_RVX_OK) snprintf(state, sizeof state, "%s built for another alphabet", rvx);
        else if (st == RV_RVX_MISSING)
            snprintf(state, sizeof state, "none (%s missing; 'repview index' or the first command that builds writes it)", rvx);
        else snprintf(state, sizeof state, "unusable: %s", rv_last_error());
        rv_index_free(tmp);
        free(rvx);
    }
    uint64_t tot_match = 0, tot_break = 0, tot_runs = 0, tot_lower = 0;
    uint64_t *m = calloc(s->n_rec * 4 + 1, sizeof *m);
    if (!m) {
        rv_index_free(x);
        rv_seq_free(owned);
        rv_oom("counts per record", (s->n_rec * 4 + 1) * sizeof *m);
        return cli_data_error();
    }
    rv_seq_record_counts(s, c.build.threads, m);
    for (uint64_t r = 0; r < s->n_rec; r++) {
        tot_match += m[4 * r]; tot_break += m[4 * r + 1]; tot_runs += m[4 * r + 2]; tot_lower += m[4 * r + 3];
    }
    printf("# file: %s\n", path);
    printf("# alphabet: %s (%d symbols)\n", rv_alpha_name(s->alpha), s->sigma);
    printf("# records: %llu\n", (unsigned long long)s->n_rec);
    printf("# length: %llu (matching %llu, breakers %llu in %llu runs, soft-masked %llu)\n",
           (unsigned long long)s->glen, (unsigned long long)tot_match, (unsigned long long)tot_break,
           (unsigned long long)tot_runs, (unsigned long long)tot_lower);
    printf("# indexed text: %llu symbols in %llu segments (%s arrays)\n", (unsigned long long)s->n,
           (unsigned long long)s->n_seg, s->n >= (1ull << 32) ? "64-bit" : "32-bit");
    if (s->strands == 2)
        printf("# strands: both (forward %llu symbols, a breaker, their reverse complement)\n",
               (unsigned long long)s->nf);
    else
        printf("# strands: forward\n");
    printf("# index: %s\n", state);
    printf("#name\tlength\tmatching\tbreakers\tbreaker_runs\tsoft_masked\n");
    for (uint64_t r = 0; r < s->n_rec; r++)
        printf("%s\t%llu\t%llu\t%llu\t%llu\t%llu\n", s->rec[r].name, (unsigned long long)s->rec[r].len,
               (unsigned long long)m[4 * r], (unsigned long long)m[4 * r + 1],
               (unsigned long long)m[4 * r + 2], (unsigned long long)m[4 * r + 3]);
    free(m);
    rv_index_free(x);
    rv_seq_free(owned);
    return RV_EXIT_OK;
}
