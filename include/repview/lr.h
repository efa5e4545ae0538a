/* lr.h — longest repeats covering positions (Tian & Xu, seeds/000; SPEC §3 LR_k).
 * (Placeholder API: the lr engine fills this in.) */
#ifndef REPVIEW_LR_H
#define REPVIEW_LR_H

#include <stdint.h>
#include "repview/build.h"
#include "repview/index.h"

/* Compute the LLR and compact LLR arrays of x and attach them as RV_SEC_LLR and
 * RV_SEC_LLRC.  0, or -1 with a message. */
int rv_lr_build_arrays(rv_index_t *x, int threads, rv_progress_t *p);

#endif
