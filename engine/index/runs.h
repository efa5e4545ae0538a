/* runs.h — the runs computation with its chunk size and its hook (engine private;
 * runs.c). */
#ifndef REPVIEW_ENGINE_RUNS_H
#define REPVIEW_ENGINE_RUNS_H

#include <stdint.h>
#include "repview/tandem.h"

/* rv_runs_compute() with the Lyndon-array passes cut into chunks of at least
 * min_chunk positions (0: the default), so that tests can cut tiny inputs into
 * many chunks for every thread count. */
rv_runs_t *rv_runs_compute_chunked(const rv_index_t *x, int threads, uint64_t min_chunk, rv_progress_t *p);

/* rv_runs_get() calling found(ud) when it has found the runs and before it sorts
 * them, if it computes them: ISA and LCP are read no more, so a caller can free them. */
int rv_runs_get_then(rv_index_t *x, int threads, rv_progress_t *p, rv_runs_t *out, void (*found)(void *), void *ud);

#endif
