/* runs.h — the runs computation with its chunk size (engine private; runs.c). */
#ifndef REPVIEW_ENGINE_RUNS_H
#define REPVIEW_ENGINE_RUNS_H

#include <stdint.h>
#include "repview/tandem.h"

/* rv_runs_compute() with the Lyndon-array passes cut into chunks of at least
 * min_chunk positions (0: the default), so that tests can cut tiny inputs into
 * many chunks for every thread count. */
rv_runs_t *rv_runs_compute_chunked(const rv_index_t *x, int threads, uint64_t min_chunk, rv_progress_t *p);

#endif
