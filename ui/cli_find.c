/* cli_find.c — `repview find` (not implemented yet: see the issue tracker). */
#include "cli.h"

int cli_find(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "repview: find: not implemented yet\n");
    return RV_EXIT_DATA;
}
