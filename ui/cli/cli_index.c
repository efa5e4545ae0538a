/* cli_index.c — `repview index [-o OUT.rvx] FILE`: build and save the index. */
#include <signal.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "repview/common.h"
#include "repview/keep.h"
#include "cli.h"

static const char usage[] =
    "Usage: repview index [-o OUT.rvx] [OPTIONS] FILE\n"
    "       repview index --check FILE|FILE.rvx\n\n"
    "Build the suffix-array index of FILE (SA, ISA, LCP, the longest-repeat arrays\n"
    "and the tandem runs) and write it atomically to FILE.rvx (or OUT.rvx).  Every\n"
    "subcommand and the explorer use FILE.rvx while it matches FILE (size and\n"
    "modification time); the other subcommands also write it when they build the\n"
    "index (unless --no-save).  REPVIEW_NO_SAVE does not stop this command.\n"
    "Sections are written while the next stage computes; Ctrl-C leaves nothing.\n"
    "The file keeps SA, LCP and the longest-repeat lengths, and for DNA the text,\n"
    "sequence and runs in compact forms (about 7 bytes a symbol for a chromosome);\n"
    "ISA is rebuilt when a command needs it.  Files of format 4 are still read.\n\n"
    "  -o, --output OUT   write the index to OUT (needed when FILE is '-')\n"
    "  --cpu | --gpu      force a backend     -t, --threads N   CPU threads\n"
    "  --alphabet A       dna|protein|text    --quiet           no summary line\n"
    "  --strands both     index both strands (DNA): the text, a breaker and its\n"
    "                     reverse complement (2n+1 symbols), so that pairs, lr and the\n"
    "                     explorer see inverted repeats; + (default) the forward strand\n"
    "  --timing           print seconds per build stage on stderr (TSV: stage seconds)\n"
    "  --check            verify every section of FILE.rvx (or of FILE when it ends in\n"
    "                     .rvx): that it matches FILE as the queries require, the\n"
    "                     padding, all block checksums and the content checks; prints\n"
    "                     one line and exits 0 when it is intact, 1 naming the damage\n";

typedef struct {
    const char *out;
    int timing, check;
} index_opts_t;

enum { OPT_TIMING = 1, OPT_CHECK };

static int on_opt(int opt, const char *arg, void *ud)
{
    index_opts_t *o = ud;
    if (opt == 'o') { o->out = arg; return 0; }
    if (opt == OPT_TIMING) { o->timing = 1; return 0; }
    if (opt == OPT_CHECK) { o->check = 1; return 0; }
    return -1;
}

/* --check: FILE.rvx is checked, or FILE itself when it already ends in .rvx.  Its
 * input (FILE, or the name without .rvx when that is a file) must match it as the
 * queries require, so that an index --check passes is one they use. */
static int check(const char *path, int threads)
{
    size_t l = strlen(path);
    int named = l >= 4 && strcmp(path + l - 4, ".rvx") == 0;
    char *def = named ? NULL : rv_index_path_for(path), *input = named ? strndup(path, l - 4) : NULL;
    const char *rvx = def ? def : path;
    if (input && !rv_keep_allowed(input)) { free(input); input = NULL; } /* an index of stdin, or -o */
    int sections = 0;
    uint64_t bytes = 0;
    double t0 = rv_now();
    int rc = rv_index_check_file(rvx, named ? input : path, threads, &sections, &bytes);
    if (rc == 0)
        printf("%s: ok (%d sections, %.2f GB verified in %.2f s)\n", rvx, sections, (double)bytes / 1e9,
               rv_now() - t0);
    else
        cli_data_error();
    free(def);
    free(input);
    return rc < 0 ? RV_EXIT_DATA : RV_EXIT_OK;
}

/* The writer's temporary file, removed by a signal that ends the command (unlink is
 * async-signal-safe); the signal then does what it would have done. */
static char tmp_path[4096];

static void on_signal(int sig)
{
    if (tmp_path[0]) unlink(tmp_path);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void guard_signals(const rv_rvx_writer_t *w)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    snprintf(tmp_path, sizeof tmp_path, "%s", rv_rvx_writer_tmp(w));
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, &old);
        if (old.sa_handler == SIG_IGN) sigaction(sigs[i], &old, NULL); /* nohup stays */
    }
}

int cli_index(int argc, char **argv)
{
    static const struct option own[] = {{"output", required_argument, NULL, 'o'},
                                        {"timing", no_argument, NULL, OPT_TIMING},
                                        {"check", no_argument, NULL, OPT_CHECK},
                                        {0, 0, 0, 0}};
    index_opts_t o = {NULL, 0, 0};
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "index", "o:", own, usage, on_opt, &o, &c, &code);
    if (i < 0) return code;
    if (argc - i != 1) return cli_usage_error("index", "expected one FILE");
    const char *path = argv[i], *out = o.out;
    if (o.check) return check(path, c.build.threads);
    if (strcmp(path, "-") == 0 && !out) return cli_usage_error("index", "reading stdin needs -o OUT.rvx");
    if (c.no_save & CLI_NO_SAVE_FLAG) return cli_usage_error("index", "--no-save: index always writes its file");
    c.build.with_runs = 1; /* the saved index answers every subcommand */
    if (c.strands == -1) return cli_usage_error("index", "--strands must be both or +");
    c.build.strands = c.strands == 2 ? 2 : 1;
    double t0 = rv_now();
    char *def = out ? NULL : rv_index_path_for(path);
    const char *dest = out ? out : def;
    /* sections are written while the next stage computes (rv_build_opts_t.writer) */
    rv_rvx_writer_t *w = rv_rvx_writer_open(dest, c.build.threads);
    if (!w) { free(def); return cli_data_error(); }
    guard_signals(w);
    c.build.writer = w;
    c.build.release = 1; /* only the file is wanted: arrays go once written */
    rv_build_job_t *j = rv_build_start(path, NULL, c.alpha, &c.build);
    rv_index_t *x = j ? rv_build_wait(j, c.quiet) : NULL;
    if (!x) { rv_rvx_writer_abort(w); free(def); return cli_data_error(); }
    if (x->seq->warning && !c.quiet) fprintf(stderr, "repview: %s: %s\n", path, x->seq->warning);
    if (x->note[0] && !c.quiet) fprintf(stderr, "repview: %s\n", x->note);
    double t_built = rv_now();
    if (o.timing) {
        double staged = x->stage_s[RV_STAGE_READ];
        for (int k = RV_STAGE_SA; k <= RV_STAGE_EXTRA; k++) staged += x->stage_s[k];
        fprintf(stderr, "read\t%.3f\n", x->stage_s[RV_STAGE_READ]);
        fprintf(stderr, "setup\t%.3f\n", t_built - t0 - staged); /* the rest: device, memory, writer */
        for (int k = RV_STAGE_SA; k <= RV_STAGE_EXTRA; k++)
            fprintf(stderr, "%s\t%.3f\n", rv_stage_name((rv_stage_t)k), x->stage_s[k]);
    }
    rv_keep_test_delay();
    int rc = rv_rvx_writer_finish(w); /* what is left to write after the last stage */
    if (o.timing) fprintf(stderr, "save\t%.3f\n", rv_now() - t_built);
    if (rc < 0) {
        cli_data_error();
    } else if (!c.quiet) {
        struct stat st;
        const double mb = stat(dest, &st) == 0 ? (double)st.st_size / 1e6 : 0;
        fprintf(stderr, "repview: wrote %s: %llu records, %llu symbols%s, %.1f MB (%.1f bytes a symbol), %s, %.2f s\n",
                dest, (unsigned long long)x->seq->n_rec, (unsigned long long)x->n,
                x->seq->strands == 2 ? " (both strands)" : "", mb, x->n ? mb * 1e6 / (double)x->n : 0,
                x->backend, rv_now() - t0);
    }
    free(def);
    rv_index_free(x);
    return rc < 0 ? RV_EXIT_DATA : RV_EXIT_OK;
}
