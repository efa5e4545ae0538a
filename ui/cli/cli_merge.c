/* cli_merge.c — `repview merge`: the part files of `pairs|lr|tandem|find
 * --buckets I/N` (part.h) joined into the output of the command run in one
 * process. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repview/common.h"
#include "repview/part.h"
#include "cli.h"

static const char usage[] =
    "Usage: repview merge [--count] [-o OUT] [OPTIONS] PART...\n\n"
    "Join the part files written by 'repview pairs|lr|tandem|find --buckets I/N\n"
    "-o PART' (one for each I of the same N, from the same input and options, in\n"
    "any order) into the output that the command gives when run in one process,\n"
    "byte for byte.  The command and its options are read from the parts; the input\n"
    "named in them is read again (record names, the text) and must be unchanged.\n"
    "Parts of other runs, a missing or repeated slice, or a part cut short or\n"
    "altered are refused before anything is written; pairs that disagree with\n"
    "their part (its directory, its -l, their order) stop the merge as they are\n"
    "read (with -o nothing is left).\n\n"
    "  --count            pairs parts: print the number of pairs; find parts: one\n"
    "                     line per pattern, as 'find --count' prints\n"
    "  -o, --output OUT   write to OUT (a temporary name, renamed when complete)\n";

enum { OPT_COUNT = 1 };

typedef struct {
    int count;
    const char *out;
} merge_args_t;

static int on_opt(int opt, const char *arg, void *ud)
{
    merge_args_t *a = ud;
    if (opt == OPT_COUNT) { a->count = 1; return 0; }
    if (opt == 'o') { a->out = arg; return 0; }
    return -1;
}

/* The merged output of a checked set of parts on stdout: 0, or -1 with a message. */
static int merge_kind(rv_part_t *const *parts, size_t n, const rv_seq_t *s, int threads, int count)
{
    switch (rv_part_kind(parts[0])) {
    case RV_PART_PAIRS: return cli_pairs_merge(parts, n, s, threads);
    case RV_PART_LR: return cli_lr_merge(parts, n, s, threads);
    case RV_PART_TANDEM: return cli_tandem_merge(parts, n, s);
    case RV_PART_FIND: return cli_find_merge(parts, n, s, count);
    }
    return rv_error(rv_part_path(parts[0]), "a part of a command this repview does not know");
}

int cli_merge(int argc, char **argv)
{
    static const struct option own[] = {{"count", no_argument, NULL, OPT_COUNT},
                                        {"output", required_argument, NULL, 'o'},
                                        {0, 0, 0, 0}};
    merge_args_t a = {0, NULL};
    cli_common_t c;
    int code;
    int i = cli_parse(argc, argv, "merge", "o:", own, usage, on_opt, &a, &c, &code);
    if (i < 0) return code;
    if (argc - i < 1) return cli_usage_error("merge", "expected PART files");
    size_t n = (size_t)(argc - i);
    rv_part_t **parts = calloc(n, sizeof *parts);
    rv_seq_t *s = NULL;
    int rc = parts ? 0 : rv_error("merge", "out of memory"), printed = 0;
    for (size_t k = 0; rc == 0 && k < n; k++) rc = rv_part_open(argv[i + (int)k], &parts[k]);
    if (rc == 0) rc = rv_parts_check(parts, n, NULL);
    const int kind = rc == 0 ? (int)rv_part_kind(parts[0]) : -1;
    if (rc == 0 && a.count && kind != RV_PART_PAIRS && kind != RV_PART_FIND) {
        code = cli_usage_error("merge", "--count is for parts of 'pairs' or 'find' (these are of '%s')",
                               rv_part_kind_name(rv_part_kind(parts[0])));
        goto out;
    }
    if (rc == 0 && a.count && kind == RV_PART_PAIRS) { /* from the headers alone */
        uint64_t total = 0;
        for (size_t k = 0; k < n; k++) total += rv_part_items(parts[k]);
        if (!a.out || cli_out_begin(a.out) == 0) printf("%llu\n", (unsigned long long)total);
        else rc = -1, printed = 1;
    } else if (rc == 0) {
        s = rv_parts_input(parts, c.build.threads);
        if (!s || rv_parts_check(parts, n, s) < 0) rc = -1;
        if (rc == 0 && a.out && cli_out_begin(a.out) < 0) rc = -1, printed = 1;
        if (rc == 0) {
            static char obuf[1 << 20];
            setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
            rc = merge_kind(parts, n, s, c.build.threads, a.count);
        }
    }
    code = rc < 0 ? printed ? RV_EXIT_DATA : cli_data_error() : RV_EXIT_OK;
    if (code == RV_EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "repview: merge: cannot write the output: %s\n", strerror(errno));
        code = RV_EXIT_DATA;
    }
    code = cli_out_end(a.out, code);
out:
    rv_seq_free(s);
    for (size_t k = 0; parts && k < n; k++) rv_part_close(parts[k]);
    free(parts);
    return code;
}
