/* runs_store.h — the stored form of the runs (engine private; runs.c builds it,
 * runs_store.c seals and checks it, query/runs_query.c reads it).  The same bytes are the RV_SEC_RUNS section of the index.
 *
 *   header   RV_RUNS_HEAD bytes: six uint64_t — magic, text length n, run count m,
 *            field width w (4 or 8 bytes: the index's array width), RV_RUNS_BLOCK, 0
 *   start    m fields, sorted by (start, period)
 *   len      m fields, end - start
 *   period   m fields
 *   blockmax ceil(m / RV_RUNS_BLOCK) fields: the runs cut into blocks of RV_RUNS_BLOCK;
 *            an implicit balanced tree over the blocks (the root of [lo, hi) is its
 *            middle block) holds at each block the largest end in its subtree
 *
 * So a run costs 3w bytes (12 for 32-bit indexes) plus w/RV_RUNS_BLOCK for the tree.
 * A field of width 4 holds any position or length below 2^32, so nothing is narrower
 * than the index arrays themselves.
 */
#ifndef REPVIEW_ENGINE_RUNS_INTERNAL_H
#define REPVIEW_ENGINE_RUNS_INTERNAL_H

#include <stdint.h>
#include "repview/tandem.h"

#define RV_RUNS_MAGIC 0x3230534e55525652ull /* "RVRUNS02" */
#define RV_RUNS_HEAD 48u
#define RV_RUNS_BLOCK 64u

static inline uint64_t rv_runs_blocks(uint64_t m) { return (m + RV_RUNS_BLOCK - 1) / RV_RUNS_BLOCK; }

/* Bytes of the stored form of m runs. */
static inline uint64_t rv_runs_section_bytes(uint64_t m, int wide)
{
    return RV_RUNS_HEAD + (3 * m + rv_runs_blocks(m)) * (wide ? 8u : 4u);
}

/* The writable columns of the stored form of m runs at sec. */
typedef struct {
    void *start, *len, *period, *blockmax;
} rv_runs_cols_t;

static inline rv_runs_cols_t rv_runs_columns(void *sec, uint64_t m, int wide)
{
    char *c = (char *)sec + RV_RUNS_HEAD;
    const uint64_t col = m * (wide ? 8u : 4u);
    return (rv_runs_cols_t){c, c + col, c + 2 * col, c + 3 * col};
}

/* Fill the header and blockmax[] of a stored form whose columns are already filled
 * and sorted. */
void rv_runs_seal(void *sec, uint64_t n_text, uint64_t m, int wide);
/* Fill the header only (blockmax[] computed elsewhere: the GPU builds it too). */
void rv_runs_seal_header(void *sec, uint64_t n_text, uint64_t m, int wide);

/* Point out at the columns of a stored form; 0, or -1 (message set) when its header
 * or size does not fit an index of text length n_text and that width.  Checks the
 * layout only (O(1)); rv_runs_get also checks the contents of a section. */
int rv_runs_view(const void *sec, uint64_t bytes, uint64_t n_text, int wide, rv_runs_t *out);

#endif
