/* cli_lr.c — `repview lr` (not implemented yet: see the issue tracker). */
#include "cli.h"

int cli_lr(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "repview: lr: not implemented yet\n");
    return RV_EXIT_DATA;
}
