/* main.c — dispatch to subcommands; anything else opens the explorer. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <htslib/hts_log.h>
#include "cli/cli.h"
#include "front.h"

typedef struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} command_t;

static const command_t commands[] = {
    {"index", cli_index, "build and save the index (FILE.rvx)"},
    {"stats", cli_stats, "records, lengths, breakers, index state"},
    {"sa", cli_sa, "suffix-array teaching table"},
    {"lce", cli_lce, "longest common extension of two positions"},
    {"lr", cli_lr, "longest repeats covering each position"},
    {"pairs", cli_pairs, "maximal repeated pairs (BEDPE)"},
    {"repeats", cli_repeats, "maximal or supermaximal repeats, each with its occurrences"},
    {"wmers", cli_wmers, "w-mers occurring at least C times, with counts and positions"},
    {"merge", cli_merge, "join the part files of 'pairs|lr|tandem|find --buckets I/N'"},
    {"tandem", cli_tandem, "tandem repeats (runs)"},
    {"find", cli_find, "pattern matches on both strands"},
    {"overlap", cli_overlap, "longest prefix of each query found in FILE"},
    {"teach", rv_teach_main, "the algorithms animated step by step (teaching mode)"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: repview [OPTIONS] [FILE [REGION]]     explore FILE (no FILE: the bundled sample)\n"
            "       repview [OPTIONS] COMMAND [OPTIONS] ... headless answers (TSV/BED/BEDPE)\n\n"
            "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\nOptions every command takes, before or after its name:\n"
            "  --cpu | --gpu        force the CPU or the GPU backend (also REPVIEW_DEVICE=cpu|gpu)\n"
            "  -t, --threads N      CPU threads for reading and building (default: all cores)\n"
            "  --alphabet A         dna, protein or text (default: detected)\n"
            "  --quiet              no progress, warnings, notes or summary on stderr\n"
            "  --no-save            do not keep a built index in FILE.rvx (also REPVIEW_NO_SAVE=1)\n"
            "  -h, --help           this help; 'repview COMMAND --help' for a command\n"
            "  --version            version and build features\n\n"
            "Explorer options: --no-color --theme light --no-mouse --keys KEYS --dump --size COLSxROWS --wait-index\n"
            "FILE is FASTA or FASTQ, plain, gzip or bgzip; '-' reads standard input.\n"
            "See man repview.\n");
}

/* A full disk or a closed pipe must not pass for success. */
static int finish(int rc)
{
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == 0) {
        fprintf(stderr, "repview: standard output: write error\n");
        return RV_EXIT_DATA;
    }
    return rc;
}

/* Width of the global option at argv[i] (1, or 2 with its value), 0 when it is none:
 * those may come before the command name too. */
static int global_option(int argc, char **argv, int i)
{
    static const char *const flags[] = {"--cpu", "--gpu", "--quiet", "--no-save"};
    static const char *const valued[] = {"-t", "--threads", "--alphabet"};
    const char *a = argv[i];
    for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
        if (strcmp(a, flags[k]) == 0) return 1;
    for (size_t k = 0; k < sizeof valued / sizeof *valued; k++) {
        size_t l = strlen(valued[k]);
        if (strcmp(a, valued[k]) == 0) return i + 1 < argc ? 2 : 0;
        if (strncmp(a, valued[k], l) == 0 && a[l] == '=' && l > 2) return 1; /* --threads=4 */
    }
    return strncmp(a, "-t", 2) == 0 && a[2] >= '0' && a[2] <= '9' ? 1 : 0; /* -t4 */
}

/* `repview -t 4 pairs FILE` as `repview pairs -t 4 FILE`: the command name moves in
 * front of the global options before it.  -1 when argv names no command that way. */
static int command_after_globals(int argc, char **argv)
{
    int i = 1, w;
    while (i < argc && (w = global_option(argc, argv, i)) > 0) i += w;
    if (i == 1 || i >= argc) return -1;
    for (size_t k = 0; k < sizeof commands / sizeof *commands; k++)
        if (strcmp(argv[i], commands[k].name) == 0) {
            char *name = argv[i];
            memmove(argv + 2, argv + 1, (size_t)(i - 1) * sizeof *argv);
            argv[1] = name;
            return (int)k;
        }
    return -1;
}

static int dispatch(int argc, char **argv)
{
    int k = command_after_globals(argc, argv);
    if (k >= 0) return commands[k].fn(argc - 1, argv + 1);
    if (argc >= 2) {
        if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[1], "--version") == 0) {
            front_print_version(stdout);
            return 0;
        }
        for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
            if (strcmp(argv[1], commands[i].name) == 0) return commands[i].fn(argc - 1, argv + 1);
    }
    return rv_explorer_main(argc, argv);
}

int main(int argc, char **argv)
{
    hts_set_log_level(HTS_LOG_OFF); /* repview reports errors itself, in one line */
    /* A file-size limit (ulimit -f) must fail the write (EFBIG) that keeping an index
     * makes after the answer, not kill the process: the note says why instead. */
    signal(SIGXFSZ, SIG_IGN);
    return finish(dispatch(argc, argv));
}
