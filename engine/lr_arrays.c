/* lr_arrays.c — placeholder until the longest-repeat engine lands: attaches nothing. */
#include "repview/lr.h"

int rv_lr_build_arrays(rv_index_t *x, int threads, rv_progress_t *p)
{
    (void)x; (void)threads; (void)p;
    return 0;
}
