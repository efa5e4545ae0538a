/* cli_overlap.c — `repview overlap` (not implemented yet: see the issue tracker). */
#include "cli.h"

int cli_overlap(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "repview: overlap: not implemented yet\n");
    return RV_EXIT_DATA;
}
