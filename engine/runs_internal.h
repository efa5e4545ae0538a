/* runs_internal.h — the stored form of the runs (engine private; runs.c builds it,
 * runs_query.c reads it).
 *
 * One block: RV_RUNS_HEAD bytes of header (magic, text length, run count, 0), the
 * runs sorted by (start, period), then maxend[] of the implicit search tree.  The
 * same block is the RV_SEC_RUNS section of the index.
 */
#ifndef REPVIEW_ENGINE_RUNS_INTERNAL_H
#define REPVIEW_ENGINE_RUNS_INTERNAL_H

#include <stdint.h>
#include "repview/tandem.h"

#define RV_RUNS_MAGIC 0x3130534e55525652ull /* "RVRUNS01" */
#define RV_RUNS_HEAD 32u

static inline uint64_t rv_runs_block_bytes(uint64_t m)
{
    return RV_RUNS_HEAD + m * (sizeof(rv_run_t) + sizeof(uint64_t));
}

/* Fill the header and maxend[] of a block whose runs are already sorted. */
void rv_runs_seal(void *block, uint64_t n_text, uint64_t m);

/* Point out at the arrays of a block; 0, or -1 (message set) when the block is not
 * a runs block for a text of length n_text. */
int rv_runs_view(const void *block, uint64_t bytes, uint64_t n_text, rv_runs_t *out);

#endif
