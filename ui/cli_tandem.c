/* cli_tandem.c — `repview tandem` (not implemented yet: see the issue tracker). */
#include "cli.h"

int cli_tandem(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "repview: tandem: not implemented yet\n");
    return RV_EXIT_DATA;
}
