/* stage_names.c — the names of the build stages (progress.h). */
#include "repview/progress.h"

const char *rv_stage_name(rv_stage_t s)
{
    static const char *const names[] = {"idle", "reading", "suffix array", "inverse SA", "LCP",
                                        "longest repeats", "tandem runs", "saving", "ready", "failed",
                                        "cancelled"};
    return (unsigned)s < sizeof names / sizeof *names ? names[s] : "?";
}
