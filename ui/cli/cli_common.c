/* cli_common.c — option parsing, error lines and input opening shared by every
 * subcommand. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <divsufsort.h>
#include <htslib/hts.h>
#include "repview/common.h"
#include "repview/gpu.h"
#include "repview/keep.h"
#include "cli.h"

enum { OPT_CPU = 1000, OPT_GPU, OPT_ALPHABET, OPT_VERSION, OPT_QUIET, OPT_NO_SAVE, OPT_STRANDS };

static const struct option common_opts[] = {
    {"cpu", no_argument, NULL, OPT_CPU},
    {"gpu", no_argument, NULL, OPT_GPU},
    {"threads", required_argument, NULL, 't'},
    {"alphabet", required_argument, NULL, OPT_ALPHABET},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"no-save", no_argument, NULL, OPT_NO_SAVE},
    {"strands", required_argument, NULL, OPT_STRANDS},
};
#define N_COMMON (sizeof common_opts / sizeof *common_opts)

/* A number the launcher put in the environment (Open MPI, then PMIx and
 * Hydra/MPICH name it), or -1 when none did. */
static int launcher_number(const char *ompi, const char *pmix, const char *pmi)
{
    const char *const vars[] = {ompi, pmix, pmi};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v && atoi(v) >= 0) return atoi(v);
    }
    return -1;
}

int cli_mpi_ranks(void)
{
    const int n = launcher_number("OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE");
    return n > 0 ? n : 1;
}

int cli_launch_rank(void)
{
    const int r = launcher_number("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK");
    return r > 0 ? r : 0;
}

/* One line to stderr in one write (ranks' lines never interleave).  Under mpirun
 * every rank parses the same options and meets the same errors before MPI
 * starts, and rank 0 speaks for the job: the others wait three seconds (their
 * exit makes mpirun end the job, rank 0 too, maybe before it spoke; on a loaded
 * host mpirun may take over a second to end them after rank 0's exit) and then, if
 * mpirun has not ended them, say a data error of their own with their rank (a
 * usage error is rank 0's too). */
static void say_line(int usage, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say_line(int usage, const char *fmt, ...)
{
    const int rank = cli_launch_rank();
    if (rank > 0) {
        struct timespec ts = {3, 0};
        nanosleep(&ts, NULL);
        if (usage) return;
    }
    char line[1024];
    const int at = rank > 0 ? snprintf(line, sizeof line, "repview: rank %d: ", rank)
                            : snprintf(line, sizeof line, "repview: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + at, sizeof line - (size_t)at, fmt, ap);
    va_end(ap);
    fputs(line, stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    say_line(1, "%s: %s (see 'repview %s --help')\n", cmd, what, cmd);
    return RV_EXIT_USAGE;
}

/* The command being run, as typed: an out-of-memory message names it. */
static const char *command_name = "";

const char *cli_error_text(char *buf, size_t len)
{
    return front_error_text(command_name, rv_last_error(), buf, len);
}

int cli_data_error(void)
{
    char buf[600];
    say_line(0, "%s\n", cli_error_text(buf, sizeof buf));
    return RV_EXIT_DATA;
}

int cli_arg_error(void)
{
    say_line(1, "%s\n", rv_last_error());
    return RV_EXIT_USAGE;
}

int cli_parse(int argc, char **argv, const char *cmd, const char *shortopts,
              const struct option *own, const char *usage, cli_opt_fn fn, void *ud,
              cli_common_t *c, int *exit_code)
{
    struct option all[64];
    size_t n = 0;
    for (const struct option *o = own; o && o->name && n < 48; o++) all[n++] = *o;
    for (size_t i = 0; i < N_COMMON; i++) all[n++] = common_opts[i];
    memset(&all[n], 0, sizeof all[n]);
    char shorts[64];
    snprintf(shorts, sizeof shorts, "%st:h", shortopts ? shortopts : "");
    command_name = cmd;
    memset(c, 0, sizeof *c);
    rv_build_opts_init(&c->build);
    c->no_save = rv_keep_env_off() ? CLI_NO_SAVE_ENV : 0;
    opterr = 0;
    optind = 1;
    int opt;
    while ((opt = getopt_long(argc, argv, shorts, all, NULL)) != -1) {
        switch (opt) {
        case OPT_CPU: c->build.backend = RV_BACKEND_CPU; break;
        case OPT_GPU: c->build.backend = RV_BACKEND_GPU; break;
        case OPT_QUIET: c->quiet = 1; break;
        case OPT_NO_SAVE: c->no_save |= CLI_NO_SAVE_FLAG; break;
        case 't': {
            uint64_t t;
            if (front_parse_count(optarg, &t) < 0 || t < 1 || t > 1024) {
                *exit_code = cli_usage_error(cmd, "bad thread count '%s'", optarg);
                return -1;
            }
            c->build.threads = (int)t;
            break;
        }
        case OPT_STRANDS:
            if (rv_strands_parse(optarg, &c->strands) < 0) {
                *exit_code = cli_usage_error(cmd, "bad --strands '%s' (both, + or -)", optarg);
                return -1;
            }
            break;
        case OPT_ALPHABET:
            if (rv_alpha_parse(optarg, &c->alpha) < 0) {
                *exit_code = cli_usage_error(cmd, "unknown alphabet '%s' (dna, protein or text)", optarg);
                return -1;
            }
            break;
        case 'h':
            fputs(usage, stdout);
            fputs("\nOptions every command takes:\n"
                  "  --cpu | --gpu      force the CPU or the GPU backend (--gpu: error without a GPU)\n"
                  "  -t, --threads N    CPU threads for reading and building (default: all cores)\n"
                  "  --alphabet A       dna, protein or text (default: detected)\n"
                  "  --quiet            no progress, warnings, notes or summary on stderr\n"
                  "  --no-save          do not keep a built index in FILE.rvx (also REPVIEW_NO_SAVE=1)\n"
                  "  --strands S        both: index both strands (DNA; inverted repeats); + (default)\n"
                  "  -h, --help         this help        --version   version and build features\n",
                  stdout);
            *exit_code = 0;
            return -1;
        case OPT_VERSION:
            front_print_version(stdout);
            *exit_code = 0;
            return -1;
        case '?':
        case ':':
            *exit_code = cli_usage_error(cmd, "unknown option or missing value in '%s'",
                                         argv[optind - 1]);
            return -1;
        default:
            if (!fn || fn(opt, optarg, ud) < 0) {
                *exit_code = RV_EXIT_USAGE;
                return -1;
            }
        }
    }
    if (c->build.backend == RV_BACKEND_GPU) {
        char name[80], why[160];
        if (!rv_gpu_probe(name, sizeof name, why, sizeof why)) {
            say_line(0, "--gpu: no usable GPU (%s)\n", why);
            *exit_code = RV_EXIT_DATA;
            return -1;
        }
    }
    return optind;
}

/* The sections to verify: what the command reads, plus SA, ISA and LCP when it
 * reads a derived section (LLR and later ids) the file lacks: it is then computed
 * from them.  The strands section is no such array: only both-strand files have it. */
static uint64_t sections_read(const rv_index_t *x, uint64_t mask)
{
    if (!mask) return RV_SEC_ALL_MASK;
    for (int id = RV_SEC_LLR; id < RV_SEC_MAX; id++)
        if ((mask >> id & 1) && !rv_index_section(x, id, NULL)) return mask | RV_SEC_CORE_MASK;
    return mask;
}

rv_index_t *cli_reopen(rv_index_t *x, const char *path, cli_common_t *c)
{
    /* rv_index_load refuses the damaged file: rv_open reports it and rebuilds
     * (and keeps the new index), as for any corrupt file */
    rv_index_free(x);
    free(c->keep);
    c->keep = NULL;
    x = rv_open_keep(path, c->alpha, &c->build, c->quiet, c->no_save ? NULL : &c->keep);
    if (!x) cli_data_error();
    return x;
}

rv_index_t *cli_open_index(const char *path, cli_common_t *c)
{
    free(c->keep);
    c->keep = NULL;
    rv_index_t *x = rv_open_keep(path, c->alpha, &c->build, c->quiet, c->no_save ? NULL : &c->keep);
    /* what the file holds in another form (the runs; LLRc, from LLR) is no array to
     * compute: expanded first (a damaged form is reported and the index rebuilt) */
    const uint64_t forms = RV_SEC_BIT(RV_SEC_RUNS) | RV_SEC_BIT(RV_SEC_LLRC);
    if (x && (rv_index_derive(x, c->verify ? c->verify & forms : forms, c->build.threads) < 0 ||
              rv_index_verify(x, sections_read(x, c->verify), c->build.threads) < 0))
        return cli_reopen(x, path, c);
    if (!x) cli_data_error();
    return x;
}

const rv_seq_t *cli_open_seq(const char *path, const cli_common_t *c, rv_index_t **idx,
                             rv_seq_t **owned)
{
    *idx = NULL;
    *owned = NULL;
    if (strcmp(path, "-") != 0) {
        char *rvx = rv_index_path_for(path);
        rv_index_t *x = NULL;
        rv_rvx_status_t st = rvx ? rv_index_load_flags(rvx, path, c->text_only ? RV_LOAD_SEQ_LATER : 0, &x)
                                 : RV_RVX_IOERR;
        if (st == RV_RVX_OK &&
            rv_index_verify(x, c->verify ? c->verify : RV_SEC_BIT(RV_SEC_RAW) | RV_SEC_BIT(RV_SEC_TEXT),
                            c->build.threads) < 0)
            st = RV_RVX_CORRUPT;
        if (st == RV_RVX_OK && (c->alpha == RV_ALPHA_AUTO || c->alpha == x->seq->alpha)) {
            free(rvx);
            *idx = x;
            return x->seq;
        }
        if (st != RV_RVX_OK && st != RV_RVX_MISSING && !c->quiet)
            fprintf(stderr, "repview: %s; reading %s instead\n", rv_last_error(), path);
        rv_index_free(x);
        free(rvx);
    }
    rv_seq_t *s = rv_seq_load_threads(path, c->alpha, c->build.threads);
    if (!s) { cli_data_error(); return NULL; }
    if (s->warning && !c->quiet) fprintf(stderr, "repview: %s: %s\n", path, s->warning);
    *owned = s;
    return s;
}

void cli_put_pos(FILE *out, const rv_seq_t *s, uint64_t g)
{
    const rv_record_t *r = &s->rec[rv_seq_record_of(s, g)];
    fprintf(out, "%s\t%llu", r->name, (unsigned long long)(g - r->off));
}

