/* cli_index.c — `repview index [-o OUT.rvx] FILE`: build and save the index. */
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "cli.h"

static const char usage[] =
    "Usage: repview index [-o OUT.rvx] [OPTIONS] FILE\n\n"
    "Build the suffix-array index of FILE (SA, ISA, LCP, the longest-repeat arrays\n"
    "and the tandem runs) and write it atomically to FILE.rvx (or OUT.rvx).  Every\n"
    "subcommand and the explorer use FILE.rvx while it matches FILE (size and\n"
    "modification time); the other subcommands also write it when they build the\n"
    "index (unless --no-save).  REPVIEW_NO_SAVE does not stop this command.\n\n"
    "  -o, --output OUT   write the index to OUT (needed when FILE is '-')\n"
    "  --cpu | --gpu      force a backend     -t, --threads N   CPU threads\n"
    "  --alphabet A       dna|protein|text    --quiet           no summary line\n"
    "  --timing           print seconds per build stage on stderr (TSV: stage seconds)\n";

typedef struct {
    const char *out;
    int timing;
} index_opts_t;

enum { OPT_TIMING = 1 };

static int on_opt(int opt, const char *arg, void *ud)
{
    index_opts_t *o = ud;
    if (opt == 'o') { o->out = arg; return 0; }
    if (opt == OPT_TIMING) { o->timing = 1; return 0; }
    return -1;
}

int cli_index(int argc, char **argv)
{
    static const struct option own[] = {{"output", required_argument, NULL, 'o'},
                                        {"timing", no_argument, NULL, OPT_TIMING},
                                        {0, 0, 0, 0}};
    index_opts_t o = {NULL, 0};
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "index", "o:", own, usage, on_opt, &o, &c, &code);
    if (i < 0) return code;
    if (argc - i != 1) return cli_usage_error("index", "expected one FILE");
    const char *path = argv[i], *out = o.out;
    if (strcmp(path, "-") == 0 && !out) return cli_usage_error("index", "reading stdin needs -o OUT.rvx");
    if (c.no_save & CLI_NO_SAVE_FLAG) return cli_usage_error("index", "--no-save: index always writes its file");
    c.build.with_runs = 1; /* the saved index answers every subcommand */
    double t0 = rv_now();
    rv_build_job_t *j = rv_build_start(path, NULL, c.alpha, &c.build);
    rv_index_t *x = j ? rv_build_wait(j, c.quiet) : NULL;
    if (!x) return cli_data_error();
    if (x->seq->warning && !c.quiet) fprintf(stderr, "repview: %s: %s\n", path, x->seq->warning);
    if (x->note[0] && !c.quiet) fprintf(stderr, "repview: %s\n", x->note);
    double t_built = rv_now();
    if (o.timing) {
        fprintf(stderr, "read\t%.3f\n", t_built - t0 - x->stage_s[RV_STAGE_SA] - x->stage_s[RV_STAGE_ISA] -
                                             x->stage_s[RV_STAGE_LCP] - x->stage_s[RV_STAGE_LLR] -
                                             x->stage_s[RV_STAGE_EXTRA]);
        for (int k = RV_STAGE_SA; k <= RV_STAGE_EXTRA; k++)
            fprintf(stderr, "%s\t%.3f\n", rv_stage_name((rv_stage_t)k), x->stage_s[k]);
    }
    char *def = out ? NULL : rv_index_path_for(path);
    const char *dest = out ? out : def;
    char why[400];
    int rc = cli_save_index(x, dest, c.quiet, NULL, why, sizeof why); /* Ctrl-C leaves nothing */
    if (o.timing) fprintf(stderr, "save\t%.3f\n", rv_now() - t_built);
    if (rc < 0) {
        fprintf(stderr, "repview: %s: cannot write: %s\n", dest, why);
    } else if (!c.quiet) {
        fprintf(stderr, "repview: wrote %s: %llu records, %llu symbols, %.1f MB, %s, %.2f s\n", dest,
                (unsigned long long)x->seq->n_rec, (unsigned long long)x->n,
                (double)rv_index_bytes(x) / 1e6, x->backend, rv_now() - t0);
    }
    free(def);
    rv_index_free(x);
    return rc < 0 ? RV_EXIT_DATA : RV_EXIT_OK;
}
