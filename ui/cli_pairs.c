/* cli_pairs.c — `repview pairs` (not implemented yet: see the issue tracker). */
#include "cli.h"

int cli_pairs(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "repview: pairs: not implemented yet\n");
    return RV_EXIT_DATA;
}
