/* explorer.c — placeholder until the ncurses explorer lands: prints `repview stats`
 * of the input (the bundled sample when no FILE is given). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

#ifndef RV_SAMPLE
#define RV_SAMPLE "samples/lambda.fa.gz"
#endif

int rv_explorer_main(int argc, char **argv)
{
    char *args[3] = {"stats", argc >= 2 ? argv[1] : RV_SAMPLE, NULL};
    if (argc >= 2 && argv[1][0] == '-' && strcmp(argv[1], "-") != 0) {
        fprintf(stderr, "repview: unknown option or command '%s' (see 'repview --help')\n", argv[1]);
        return RV_EXIT_USAGE;
    }
    return cli_stats(2, args);
}
